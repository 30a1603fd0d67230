/* symline.h — address → source file:line from DWARF .debug_line (libdwarf).
 * Private to src/report/: sym.c is the only user.
 *
 * The line programs of every compilation unit are flattened into one
 * table of rows sorted by link-time address.  A row holds from its address
 * up to the next row; an end_sequence row marks the first address after a
 * sequence, so an address past it (padding, a function without line info)
 * gets no line rather than the last line of the function before it.
 * Sequences that start at address 0 or at the tombstone -1/-2 belong to
 * code the linker discarded (--gc-sections, COMDAT) and are dropped: they
 * would otherwise cover ELF headers.  Several rows at one address (GCC's
 * location views) resolve to the last one, as addr2line does.  Rows with
 * line 0 (code with no source line) answer "no line".
 *
 * Files are kept by their DWARF path, each once per object, and shown
 * by basename; a file is library source or the user's by srcpath.h.
 */
#ifndef X86SMC_SYMLINE_H
#define X86SMC_SYMLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct symline;

/* The line table of the ELF file open on fd, or NULL if it has no DWARF
 * line information or libdwarf cannot read it.  fd stays open. */
struct symline *symline_load(int fd);
void symline_free(struct symline *t);

/* 0 with *file (a basename owned by t) and *line for vaddr, and if lib is
 * not NULL whether the file is library source (srcpath.h); or -1. */
int symline_find(const struct symline *t, uint64_t vaddr, const char **file,
		 int *line, bool *lib);

/* The path DWARF gives (directory included) of a file whose basename
 * symline_find returned (the same pointer), or NULL. */
const char *symline_path(const struct symline *t, const char *base);

/* Number of rows; 0 for NULL.  For tests and timing figures. */
size_t symline_rows(const struct symline *t);

/* Debug-build invariant check: rows sorted, file indices in range. */
int symline_check(const struct symline *t);

#endif
