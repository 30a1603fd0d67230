/* syminl.h — address → the chain of inlined calls it is in, from DWARF
 * .debug_info (DW_TAG_inlined_subroutine, libdwarf).  Private to
 * src/report/: sym.c is the only user.
 *
 * A compiler that inlines store() into thread() leaves thread()'s code
 * with a DW_TAG_inlined_subroutine whose address ranges are the
 * instructions that came from store(), whose DW_AT_abstract_origin names
 * store(), and whose DW_AT_call_file / DW_AT_call_line say where in
 * thread() the call was.  Inlined calls nest (a libstdc++ atomic inside
 * a method inside a lambda), and so do their ranges.
 *
 * Only the compilation units' address ranges are read at load; a unit's
 * tree of subprograms and inlined subroutines is read on the first lookup
 * that falls in it (a Rust binary carries the DWARF of std, most of which
 * no trace ever touches).  Lexical blocks and namespaces are looked
 * through.  Names are DW_AT_linkage_name demangled (C++, Rust), else
 * DW_AT_name, through DW_AT_abstract_origin and DW_AT_specification.
 * Call files are shown by basename and classified by srcpath.h.
 */
#ifndef X86SMC_SYMINL_H
#define X86SMC_SYMINL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct syminl;

/* The inline index of the ELF file open on fd (which is duplicated: the
 * index keeps its own descriptor to read units later), or NULL if it has
 * no .debug_info. */
struct syminl *syminl_load(int fd);
void syminl_free(struct syminl *t);

/* One inlined call: the function inlined, and where it was called. */
struct syminl_call {
	const char *func; /* owned by the index; NULL if unnamed */
	const char *file; /* basename of the call site, NULL if unknown */
	int line;
	bool lib;         /* the call site is in library source */
};

/* The inlined calls vaddr is in, innermost first: out[0].func is the
 * function whose code vaddr is, called at out[0].file:line from out[1]'s
 * function, ..., the last one called from the subprogram itself, whose
 * DWARF name goes to *sub (NULL if unknown; may be set when the result
 * is 0).  Returns how many (at most max); 0 when vaddr is in no inlined
 * code. */
int syminl_find(struct syminl *t, uint64_t vaddr, struct syminl_call *out,
		int max, const char **sub);

/* The path DWARF gives of a call site's file whose basename
 * syminl_find returned (the same pointer), or NULL. */
const char *syminl_path(const struct syminl *t, const char *base);

/* Debug-build invariant check: ranges sorted, links in bounds. */
int syminl_check(const struct syminl *t);

#endif
