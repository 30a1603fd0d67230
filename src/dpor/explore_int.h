/* explore_int.h — the explorer as a service for the --jobs workers
 * (parallel.c): one tracer, its fork snapshot and symbols, running the
 * executions of whatever exploration tree it is handed. */
#ifndef X86SMC_EXPLORE_INT_H
#define X86SMC_EXPLORE_INT_H
#include <stdbool.h>

#include "dpor/dpor.h"
#include "dpor/hashset.h"
#include "options.h"
#include "report/results.h"
#include "tracer/escape.h"

enum exec_result {
	EXEC_DONE,        /* the execution ended: outcome recorded */
	EXEC_BLOCKED,     /* sleep-set blocked: abandoned */
	EXEC_RESTART,     /* the set of events changed: start over */
	EXEC_INTERRUPTED, /* SIGINT, or *abort was set */
	EXEC_FAILED,      /* could not run / unsupported / internal */
	EXEC_ASSUME,      /* infeasible: a __VERIFIER_assume failed */
	EXEC_TIMEOUT_CUT, /* only a timeout beyond --max-timeouts could
			   * go on (results.timeout_cut) */
};

struct explorer;

/* Outcomes, errors and counters go to res; cpu: where to pin the tracer
 * and its target (-1: the current CPU); abort: checked at every step. */
struct explorer *explorer_new(const struct options *o, struct results *res,
			      int cpu, volatile int *abort);
/* Run the branch d has chosen (its execution number index seeds random
 * and pct); err: it ended in an error. */
enum exec_result explorer_run(struct explorer *x, struct dpor *d,
			      unsigned long index, bool *err);
/* After n executions of the worker's share of the search: run a PCT
 * sample beside it if one is due (explore.c, pct_sample; else
 * EXEC_DONE, err untouched); stream: the worker's number (and MPI
 * rank), so that no two workers draw the same samples. */
enum exec_result explorer_sample(struct explorer *x, unsigned long n,
				 unsigned long stream, bool *err);
const char *explorer_why(const struct explorer *x);
/* The escaped granules (EXEC_RESTART: the set grew). */
struct escape_set *explorer_escapes(struct explorer *x);
const struct hashset *explorer_hashes(const struct explorer *x);
bool explorer_snapshots(const struct explorer *x);
/* End the target and its snapshot, count the tracer's stops into the
 * results. */
void explorer_stop(struct explorer *x);
/* explorer_stop(), and free everything else. */
void explorer_free(struct explorer *x);

/* random and pct without --max-executions: executions run */
#define EXPLORE_RANDOM_EXECUTIONS 1000
#endif
