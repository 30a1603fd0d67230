/* verifier_lock.c — the lock of SV-COMP's pthread tasks: an atomic
 * function that waits with an assume,
 *
 *   void __VERIFIER_atomic_acquire(void) { __VERIFIER_assume(m == 0); m = 1; }
 *
 * A section whose assume fails cannot run at that point: the execution is
 * infeasible and is cut (assume_blocked in the JSON); the executions where
 * it runs once the lock is free remain.  Two threads increment x inside
 * acquire/release with a separate load and store: no increment is lost
 * under any model, and some executions are assume-blocked.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "common.h"

extern void __VERIFIER_assume(int);
__attribute__((noipa)) void __VERIFIER_assume(int c)
{
	if (!c)
		for (;;)
			;
}

static int m, x;

__attribute__((noipa)) void __VERIFIER_atomic_acquire(void)
{
	__VERIFIER_assume(m == 0);
	m = 1;
}

__attribute__((noipa)) void __VERIFIER_atomic_release(void)
{
	m = 0;
}

static void *inc(void *arg)
{
	(void)arg;
	__VERIFIER_atomic_acquire();
	int v = *(volatile int *)&x;
	*(volatile int *)&x = v + 1;
	__VERIFIER_atomic_release();
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	xcreate(&a, inc, NULL);
	xcreate(&b, inc, NULL);
	xjoin(a);
	xjoin(b);
	assert(x == 2);
	printf("x = %d\n", x);
	return 0;
}
