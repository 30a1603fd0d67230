/* svcomp.h — SV-COMP's conventions (docs/SVCOMP.md): property files,
 * which kinds of error violate a property, and the answer a finished
 * search gives.
 *
 * Under --property only the property's violations are errors:
 *   unreach-call  (G ! call(reach_error())): kind verifier-error, a call
 *                 of reach_error() or __VERIFIER_error();
 *   no-data-race  (G ! data-race): kind data-race (the monitor, races.h).
 * Every other end of an execution (abort() -- SV-COMP's way of writing an
 * assumption --, exit with any status, a deadlock, a livelock, reach_error
 * under no-data-race) ends a path: an outcome, no error, and the search
 * goes on.
 *
 * The answer is "false" when a violation was found; "true" only when
 * nothing stands between the search and a proof: the search is complete,
 * every __VERIFIER_nondet_* value drawn came from a domain covering its
 * type (--nondet-domain is 0..1 by default: an int drawn from it is not
 * every int), the program defines no __VERIFIER_nondet_* function
 * x86smc does not model, and no execution ended in a way the property
 * does not account for (a crash, a signal, pthread misuse: the program
 * went wrong before it could reach what it checks); else "unknown" with
 * the first of these reasons. */
#ifndef X86SMC_SVCOMP_H
#define X86SMC_SVCOMP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "options.h"
#include "report/results.h"

/* Read an SV-COMP property file (CHECK( init(main()), LTL(...) )).
 * Returns 0 with *p set, or -1 with a one-line reason in err. */
int svcomp_read_property(const char *path, enum property *p, char *err,
			 size_t n);
/* "unreach-call", "no-data-race" ("" for PROP_NONE). */
const char *svcomp_property_name(enum property p);
/* Is an error of this kind a violation of p? */
bool svcomp_violation(enum property p, const char *kind);

/* The answer of the search in r under o->property: fills r->answer
 * ("true", "false", "unknown"), r->answer_result (SV-COMP's result
 * string: "true", "false(unreach-call)", "unknown") and
 * r->answer_reason ("" for true and false). */
void svcomp_answer(const struct options *o, struct results *r);
/* The answer lines of the text report. */
void svcomp_print(const struct results *r, FILE *f);

#endif
