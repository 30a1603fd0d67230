/* hooks.h — functions the explorer recognises by symbol in the target
 * and hands to the tracer as hooks (tracer_add_hook): the benchmark
 * conventions __VERIFIER_* / reach_error (docs/EVENTS.md, "Benchmark
 * conventions"), the library calls run as one step (docs/LIBRARY.md),
 * and the values of __VERIFIER_nondet_* calls.
 * A binary without such symbols gets no hook and is unaffected. */
#ifndef X86SMC_HOOKS_H
#define X86SMC_HOOKS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"
#include "report/sym.h"
#include "tracer/tracer.h"

/* Install the convention hooks the executable defines.  Returns 0, or
 * -1 if a hook could not be placed. */
int hooks_conventions(struct tracer *t, struct symtab *sym);

/* Install the hooks of the library policy (docs/LIBRARY.md), as changed
 * by --atomic-call / --no-atomic-call.  Returns 0, or -1 (why filled when
 * an option names no function). */
int hooks_library(struct tracer *t, struct symtab *sym,
		  const struct options *o, char *why, size_t n);

/* Install the hooks of pthread synchronisation calls run as one event
 * each (unless --sync instructions).  Returns 0 or -1. */
int hooks_sync(struct tracer *t, struct symtab *sym, const struct options *o);

/* The values an EV_NONDET event explores, in order: *vals and their
 * number (_bool: 0, 1; otherwise --nondet-domain). */
unsigned hooks_domain(const struct options *o, const struct tr_event *ev,
		      const int64_t **vals);

/* Does the domain of ev (an EV_NONDET) hold every value of its type? */
bool hooks_domain_complete(const struct options *o,
			   const struct tr_event *ev);

/* The __VERIFIER_nondet_* functions the executable defines and no hook
 * models (float, double, ...: they run): their names into buf
 * (comma-separated, truncated to n), and how many. */
size_t hooks_unmodelled(struct symtab *sym, char *buf, size_t n);

#endif
