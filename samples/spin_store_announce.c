/* spin_store_announce.c — a waiter that announces itself while it looks
 * (`waiting = 1; if (cond) break; waiting = 0; sched_yield();`) and a
 * notifier that reads the announcement twice, sets the condition and
 * reads it once more.  The loop stores at every iteration, so it was no
 * wait for x86smc: every execution ran the waiter to --max-steps.  An
 * iteration that leaves memory as the one before left it is one now
 * (docs/EXPLORATION.md, "Loops that store"), and `waiting` is watched with
 * `cond`.  The notifier can see the announcement in any of its three
 * reads: all six outcomes, the same as a version of the loop bounded at
 * 4 iterations that then assumes it has left.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// x86smc: --keep-going
// outcome sc tso pso: exit 0: seen 0, then 0
// outcome sc tso pso: exit 0: seen 0, then 1
// outcome sc tso pso: exit 0: seen 1, then 0
// outcome sc tso pso: exit 0: seen 1, then 1
// outcome sc tso pso: exit 0: seen 2, then 0
// outcome sc tso pso: exit 0: seen 2, then 1
#include <sched.h>

#include "common.h"

static volatile int waiting, cond;

static void *waiter(void *arg)
{
	(void)arg;
	for (;;) {
		waiting = 1;
		if (cond)
			break;
		waiting = 0;
		sched_yield();
	}
	waiting = 0;
	return NULL;
}

static void *notifier(void *arg)
{
	int seen = 0;

	(void)arg;
	for (int i = 0; i < 2; i++)
		seen += waiting;
	cond = 1;
	printf("seen %d, then %d\n", seen, waiting);
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	xcreate(&a, waiter, NULL);
	xcreate(&b, notifier, NULL);
	xjoin(a);
	xjoin(b);
	return 0;
}
