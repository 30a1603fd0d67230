/* lang.h — C++ and Rust binaries, between the tracer and the reports
 * (docs/LANGUAGES.md): the hooks on their runtimes' fatal-error paths
 * (src/tracer/langrt.c), installed by symbol; the unwinder the tracer
 * uses to note each event's return addresses for the trace (the CFI
 * rules of report/sym.h); and the errors those hooks end in:
 *   panic               a Rust panic (overflow checks, unwrap, assert!,
 *                       an explicit panic!), in any thread;
 *   uncaught-exception  a C++ exception nobody catches, or a call of
 *                       std::terminate.
 * A binary without these symbols (a C program) gets neither hook. */
#ifndef X86SMC_DPOR_LANG_H
#define X86SMC_DPOR_LANG_H
#include <stdbool.h>
#include <stddef.h>

#include "report/results.h"
#include "report/sym.h"
#include "tracer/tracer.h"

/* Is the mangled name (legacy _ZN or v0 _R) one of Rust std's, with
 * part in it (a path segment as mangled: "6Thread3new12thread_start")? */
bool lang_rust_std(const char *name, const char *part);

/* Install the runtime hooks the target's objects define and the
 * unwinder.  Returns 0, or -1 if a hook could not be placed. */
int lang_install(struct tracer *t, struct symtab *sym);

/* If the execution ended in a runtime's fatal error: fill e (kind,
 * message from what the runtime wrote to stderr, thread, pc: the call in
 * the program's own code that led there) and status ("signal SIGABRT"),
 * and return 1; else 0. */
int lang_judge(struct tracer *t, struct symtab *sym, struct error_rec *e,
	       char *status, size_t n);

#endif
