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
	bool lost;        /* MPI: a rank died: not complete */
	unsigned restarts;
	char why[600];    /* failed: why */
};

/* Explore with o->jobs workers; the workers' results are merged into
 * res, their trace hashes into hs.  exhaustive, bound: the tree (dpor,
 * exhaustive, icb); icb: bounds from bound up to top. */
void parallel_explore(const struct options *o, struct results *res,
		      struct hashset *hs, bool exhaustive, long bound,
		      long top, struct par_outcome *po);

/* MPI (dist.h), ranks other than 0: fork this rank's o->jobs workers
 * for each search rank 0 starts (parallel_explore there), carry their
 * messages, until rank 0 says there are no more. */
void parallel_serve(const struct options *o);

/* Rank 0: no more searches; leave the job with this status (returned). */
int parallel_ranks_end(int status);
#endif
