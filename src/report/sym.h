/* sym.h — addresses of a running target → names people can read.
 *
 * A struct symtab describes the ELF objects mapped into one target process
 * (the executable, ld.so, libc, ...), each with its load bias as found in
 * /proc/PID/maps.  It is built once per run (the layout is the same in
 * every execution and every fork snapshot of the target: ASLR is disabled
 * for the target) and never touches the target again.
 *
 * Function symbols come from .symtab when present, else .dynsym (libelf);
 * file:line from DWARF .debug_line (libdwarf) where the object has it.  A
 * stripped binary degrades to symbols of .dynsym, then to "object+0xoff".
 * Objects are loaded lazily, on the first lookup that falls in them.
 *
 * An address is "in" an object if it lies in one of the object's mappings
 * or in the anonymous mapping right after them that holds the rest of its
 * .bss.  sym_info.func names the function, or for a data address the
 * global/static variable, that contains the address (size rules and the
 * choice among aliases are in symelf.h); "func" alone in the text forms
 * means offset 0.  The vdso is read from the target's memory and named
 * "[vdso]".  Heap, stack and other anonymous memory are not objects.
 */
#ifndef X86SMC_SYM_H
#define X86SMC_SYM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct symtab;

/* Read /proc/PID/maps and note every file-backed executable object.
 * Returns NULL (and prints nothing) if the maps cannot be read. */
struct symtab *sym_load(pid_t pid);
void sym_free(struct symtab *st);

/* Runtime address of the function or object NAME (first object in map
 * order that defines it: the executable before the libraries), or 0. */
uint64_t sym_addr(struct symtab *st, const char *name);

/* Runtime addresses of the executable's functions whose names start
 * with prefix (each once, at most max); returns how many. */
size_t sym_exe_prefix(struct symtab *st, const char *prefix,
		      uint64_t *addr, size_t max);

/* The executable's mappings, each run of adjacent ones as one range
 * [r[i][0], r[i][1]), at most max; returns how many. */
size_t sym_exe_ranges(const struct symtab *st, uint64_t (*r)[2], size_t max);

/* The same for the functions whose (mangled) names want() accepts. */
size_t sym_exe_match(struct symtab *st, bool (*want)(const char *name),
		     uint64_t *addr, size_t max);

struct sym_info {
	const char *func;   /* NULL if unknown; owned by st */
	uint64_t func_off;  /* addr - start of func */
	const char *object; /* basename of the mapped file, NULL if none */
	uint64_t obj_off;   /* addr - load bias of the object */
	const char *file;   /* source file (basename), NULL without DWARF */
	int line;           /* 0 without DWARF */
	bool user;          /* the program's own code: in the executable, at
			     * a line of a file that is not library source
			     * (system and libstdc++ headers, Rust's std,
			     * core and alloc, crates of a Cargo registry) */
};

/* Fill *out for a code or data address; returns 0 if the address lies in
 * a known object, -1 otherwise (out is then all NULL/0). */
int sym_lookup(struct symtab *st, uint64_t addr, struct sym_info *out);

/* One frame of the code at an address: a function and the line in it. */
struct sym_frame {
	const char *func; /* demangled; NULL if unknown */
	const char *file; /* basename; NULL without DWARF */
	int line;
	bool user;        /* the program's own code (as sym_info.user) */
	bool inlined;     /* inlined into the next frame */
};
#define SYM_MAX_FRAMES 16

/* The frames of the code at addr, innermost first: the function whose
 * code it is, at addr's line; then, if that was inlined (DWARF
 * DW_TAG_inlined_subroutine, syminl.h), the function it was inlined
 * into, at the line of the call; and so on up to the function that holds
 * the code (its DWARF name: "xcreate", not "xcreate.constprop.0"; the
 * symbol's without DWARF).  Returns how many (at most max), 0 if addr is
 * in no known object. */
int sym_frames(struct symtab *st, uint64_t addr, struct sym_frame *out,
	       int max);

/* How to find the caller of the code at addr (x86-64 DWARF CFI, from
 * .eh_frame or .debug_frame, symcfi.h): CFA = reg (7 rsp, 6 rbp) + off,
 * the return address at CFA - 8, rbp unchanged or saved at CFA +
 * rbp_off; user: a frame of the code at addr is the program's own.
 * 0, or -1 without a rule. */
struct sym_cfa {
	int reg;
	int64_t off;
	bool rbp_saved;
	int64_t rbp_off;
	bool user;
};
int sym_cfa(struct symtab *st, uint64_t addr, struct sym_cfa *out);

/* 1 if addr lies in the executable (not a library, not anonymous). */
int sym_in_exe(const struct symtab *st, uint64_t addr);

/* "func+0x1a (file.c:42)", "func+0x1a", "libc.so.6+0x8e1f0" or
 * "0x7f001234": always fills buf; returns buf.  The line is that of the
 * first frame of the program's own code (sym_frames) when the code was
 * inlined from library source: "_M_run()+0x4 (sb.cc:26)", not
 * "(atomic_base.h:464)". */
const char *sym_describe(struct symtab *st, uint64_t addr, char *buf,
			 size_t size);

/* "file.c:42", or the sym_describe() form without DWARF. */
const char *sym_location(struct symtab *st, uint64_t addr, char *buf,
			 size_t size);

/* The full path of a source file (as DWARF names it: usually absolute,
 * else relative to the compilation directory) whose basename a
 * sym_info or sym_frame of this table holds (that very pointer), or
 * NULL.  For reports that must point at the file (SARIF). */
const char *sym_path(const struct symtab *st, const char *file);

/* Invariant check (ranges sorted and disjoint, loaded tables sorted);
 * 0 if sound.  For debug builds and --sanity. */
int sym_check(const struct symtab *st);

#endif
