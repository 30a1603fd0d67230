/* explore.h — run the target's executions under a strategy and collect
 * the results.  (For now: the one execution of the default policy or of
 * a replayed schedule.) */
#ifndef X86SMC_EXPLORE_H
#define X86SMC_EXPLORE_H
#include "options.h"
#include "report/results.h"

/* Returns x86smc's exit status (0 no error, 1 error, 2 could not run,
 * 3 stopped by a limit). */
int explore(const struct options *o, struct results *res);
#endif
