/* verifier_assume.c — an assume that makes a bug infeasible.
 *
 * Two threads increment x with a separate load and store, which can lose
 * an increment.  T1 first assumes that T0 is done (__VERIFIER_assume(
 * done0)): an execution where T1 gets there before T0 has set done0 is
 * infeasible and is cut (counted as "assume_blocked" in the JSON, not an
 * error, not a complete execution).  In the feasible executions T1's
 * increment follows T0's: x == 2, no error under sc and tso (tso keeps
 * T0's two stores in order, so seeing done0 == 1 means x is in memory).
 * Under pso T0's store to done0 may reach memory before its store to x:
 * T1 passes the assume, reads the old x, and an increment is lost.
 */
// expect sc: ok
// expect tso: ok
// expect pso: assertion
#include "common.h"

extern void __VERIFIER_assume(int);
__attribute__((noipa)) void __VERIFIER_assume(int c)
{
	if (!c)
		for (;;)
			;
}

static int x, done0;

static void *t0(void *arg)
{
	(void)arg;
	int v = *(volatile int *)&x;
	*(volatile int *)&x = v + 1;
	*(volatile int *)&done0 = 1;
	return NULL;
}

static void *t1(void *arg)
{
	(void)arg;
	__VERIFIER_assume(*(volatile int *)&done0);
	int v = *(volatile int *)&x;
	*(volatile int *)&x = v + 1;
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	xcreate(&a, t0, NULL);
	xcreate(&b, t1, NULL);
	xjoin(a);
	xjoin(b);
	assert(x == 2);
	printf("x = %d\n", x);
	return 0;
}
