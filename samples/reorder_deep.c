/* reorder_deep.c — the shape of SCTBench's reorder_N (issue 17, "bugs
 * found fast"): six setter threads each store a = 1 then b = -1; a
 * checker reads a, then b, and asserts it saw both stores of one setter
 * or neither.  The bug needs one preemption: a setter stopped between its
 * two stores while the checker reads.
 *
 * Depth-first dpor spends its budget on the orders of the setters, whose
 * stores all race with each other: with --no-samples it has not found
 * the bug after 30,000 executions (50 s).  The PCT samples the default
 * search runs beside it after its first 1,000 executions (explore.c,
 * pct_sample) find it (sc: sample 236 after 2,880 executions of dpor);
 * the e2e case samples/reorder_deep checks that a sample found it and
 * that its schedule replays.  Under tso and pso a setter's b = -1 can
 * also wait in its store buffer.
 */
// expect sc: assertion
// expect tso: assertion
// expect pso: assertion
// x86smc: --fence-check off
#include "common.h"
#include <assert.h>

#define SETTERS 6

static volatile int a, b;

static void *set(void *arg)
{
	(void)arg;
	a = 1;
	b = -1;
	return NULL;
}

static void *check(void *arg)
{
	int x, y;

	(void)arg;
	x = a;
	y = b;
	assert((x == 0 && y == 0) || (x == 1 && y == -1));
	return NULL;
}

int main(void)
{
	pthread_t t[SETTERS + 1];

	for (int i = 0; i < SETTERS; i++)
		xcreate(&t[i], set, NULL);
	xcreate(&t[SETTERS], check, NULL);
	for (int i = 0; i <= SETTERS; i++)
		xjoin(t[i]);
	return 0;
}
