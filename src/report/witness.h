/* witness.h — SV-COMP violation witnesses, format 2.0 (YAML): one
 * entry_type violation_sequence whose metadata names the producer, the
 * task (the program's source file as DWARF names it, its SHA-256, the
 * property's formula, LP64, C) and whose content is one segment per
 * waypoint:
 *   - a function_return waypoint at the call of each __VERIFIER_nondet_*
 *     the error's execution made, in execution order, with the constraint
 *     "\result == V" (c_expression): the value x86smc chose;
 *   - the target waypoint: the error's line in the program's own source
 *     (the reach_error() call; for a data race the later access).
 * Format 2.0 has no way to say which thread runs when: the schedule is
 * not in the witness (it is in --trace-out's schedule file).  A
 * correctness answer needs no witness; none is written. */
#ifndef X86SMC_WITNESS_H
#define X86SMC_WITNESS_H

#include "options.h"
#include "report/results.h"
#include "report/trace.h"

/* The witness of error e in execution in (malloc'd YAML text), or NULL
 * if the error has no source line. */
char *witness_note(const struct trace_env *env, const struct trace_in *in,
		   const struct error_rec *e, enum property p);

/* SHA-256 of the file at path as 64 hex digits into hex[65]; 0 or -1. */
int witness_sha256_file(const char *path, char hex[65]);

#endif
