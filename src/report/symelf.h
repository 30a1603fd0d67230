/* symelf.h — the symbol table and load layout of one ELF object (libelf).
 * Private to src/report/: sym.c is the only user.
 *
 * All addresses here are link-time virtual addresses (st_value, p_vaddr);
 * sym.c adds the load bias.  An object is read from an open descriptor,
 * or from bytes copied out of the target (the vdso has no file).
 *
 * Which symbols are kept: STT_FUNC, STT_GNU_IFUNC and STT_OBJECT that are
 * defined (not SHN_UNDEF/SHN_ABS), named, and non-zero; from .symtab when
 * the object has one, else from .dynsym.  STT_NOTYPE labels and STT_TLS
 * (whose values are offsets, not addresses) are left out.  Version
 * suffixes ("memcpy@GLIBC_2.2.5" in a .symtab) are cut from the name.
 *
 * Address → symbol: the symbol with the greatest start <= addr, if addr
 * is inside it: [start, start + st_size).  A FUNC of size 0 (hand-written
 * assembly) is taken to extend to the next symbol; a size-0 OBJECT covers
 * only its own address.  Among aliases at one address (malloc and
 * __libc_malloc, getpid and __getpid) the name shown is: sized before
 * unsized, fewer leading underscores, GLOBAL/WEAK before LOCAL, default
 * version before hidden, shorter, then alphabetical — so traces say
 * "malloc" and "getpid".
 *
 * Name → address: a GLOBAL/WEAK definition of the default version first
 * (.gnu.version hidden bit clear), then a hidden version, then a LOCAL.
 * For an IFUNC this is the resolver's address, not the implementation's.
 */
#ifndef X86SMC_SYMELF_H
#define X86SMC_SYMELF_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

struct symelf;

/* Where the object's bytes come from: fd >= 0, or image/size. */
struct symelf_src {
	int fd;
	void *image; /* libelf reads it in place: kept alive by the caller */
	size_t size;
};

/* What sym.c needs to place the object: the page-aligned p_vaddr of the
 * PT_LOAD segment mapped from file offset file_off, and the end of the
 * highest PT_LOAD (p_vaddr + p_memsz, to recognise the .bss tail). */
struct symelf_layout {
	uint64_t vaddr;
	uint64_t end;
};

/* 0 and *out filled, or -1 if the source is not a readable ELF file or
 * no PT_LOAD segment starts at file_off. */
int symelf_layout(const struct symelf_src *src, uint64_t file_off,
		  uint64_t page, struct symelf_layout *out)
	__attribute__((warn_unused_result));

/* The symbols of the object, or NULL if it is unreadable or has none. */
struct symelf *symelf_load(const struct symelf_src *src);
void symelf_free(struct symelf *t);

/* Name of the symbol containing vaddr and its start, or NULL.  The name
 * is demangled (C++ Itanium, Rust legacy and v0: libiberty's
 * cplus_demangle with DMGL_PARAMS | DMGL_ANSI, automatic style) on first
 * use and kept: "demo::Flags::left()", "core::panicking::panic_fmt". */
const char *symelf_find(struct symelf *t, uint64_t vaddr, uint64_t *start);

/* 0 and the st_value of the best definition of name, or -1.  A name
 * that no symbol has as such may be a demangled one: it matches a symbol
 * whose demangled name is name, or name followed by its parameter list
 * ("demo::Flags::left" or "demo::Flags::left()"); when such names cover
 * more than one address it is ambiguous: -2. */
int symelf_addr(struct symelf *t, const char *name, uint64_t *vaddr);

/* The st_values of the functions (STT_FUNC) whose (mangled) names
 * keep(name, arg) accepts, each address once, at most max; returns how
 * many. */
size_t symelf_funcs(const struct symelf *t,
		    bool (*keep)(const char *name, const void *arg),
		    const void *arg, uint64_t *vaddr, size_t max);

/* Debug-build invariant check: sorted by address, names in the arena. */
int symelf_check(const struct symelf *t);

#endif
