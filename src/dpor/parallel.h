/* parallel.h — --jobs N: N worker processes, each a tracer and its
 * target pinned to its own CPU, share one exploration (docs/
 * PERFORMANCE.md, "Parallel exploration"). */
#ifndef X86SMC_PARALLEL_H
#define X86SMC_PARALLEL_H
#include <stdbool.h>

#include "dpor/hashset.h"
#include "options.h"
#include "report/results.h"

struct par_outcome {
	bool complete, interrupted, failed;
	bool bound_done;  /* icb: every execution within bound explored */
	long bound;       /* icb: the last bound explored */
	bool snapshots;   /* the workers used fork snapshots */
	unsigned restarts;
	char why[600];    /* failed: why */
};

/* Explore with o->jobs workers; the workers' results are merged into
 * res, their trace hashes into hs.  exhaustive, bound: the tree (dpor,
 * exhaustive, icb); icb: bounds from bound up to top. */
void parallel_explore(const struct options *o, struct results *res,
		      struct hashset *hs, bool exhaustive, long bound,
		      long top, struct par_outcome *po);
#endif
