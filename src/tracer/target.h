/* target.h — can x86smc run this file?  Checked once, before anything is
 * launched, so that bad input gets one clear line (DESIGN.md, "What bad
 * input gets") instead of a failure deep inside the tracer.
 *
 * Accepted: an ELF64 x86-64 executable (ET_EXEC, or ET_DYN with an entry
 * point: PIE), dynamically linked (its PT_INTERP must exist) or static,
 * with or without symbols.  Refused, each with its own message: a missing
 * file, a directory, a file without execute permission or that cannot be
 * read, a script (#!), a file that is not ELF, a 32-bit or non-x86 ELF, an
 * object file or core dump, a shared library without an entry point, an
 * ELF whose interpreter does not exist.
 */
#ifndef X86SMC_TARGET_H
#define X86SMC_TARGET_H

#include <stdbool.h>
#include <stddef.h>

struct target_info {
	bool is_static;  /* no PT_INTERP */
	bool is_pie;     /* ET_DYN */
	bool has_symtab; /* .symtab present (not stripped) */
};

/* 0 if path is a program x86smc can run (*info filled), else -1 with a
 * one-line reason in msg (without the "x86smc: " prefix). */
int target_check(const char *path, struct target_info *info, char *msg,
		 size_t size) __attribute__((warn_unused_result));

#endif
