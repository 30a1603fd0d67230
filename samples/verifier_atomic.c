/* verifier_atomic.c — atomic sections make a racy increment safe.
 *
 * Three threads increment x with a separate load and store, which alone
 * would lose increments (see counter_racy.c).  T0 and T1 bracket theirs
 * with __VERIFIER_atomic_begin() / __VERIFIER_atomic_end(); T2 calls
 * __VERIFIER_atomic_incr(), and every function whose name starts with
 * __VERIFIER_atomic_ runs as one step.  x86smc runs each section as one
 * event no other thread interleaves with (its store buffer drained first
 * under tso/pso, its stores written straight to memory, like a locked
 * instruction), so x == 3 under every model.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "common.h"

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
__attribute__((noipa)) void __VERIFIER_atomic_begin(void) {}
__attribute__((noipa)) void __VERIFIER_atomic_end(void) {}

static int x;

__attribute__((noipa)) void __VERIFIER_atomic_incr(void)
{
	int v = *(volatile int *)&x;
	*(volatile int *)&x = v + 1;
}

static void *bracketed(void *arg)
{
	(void)arg;
	__VERIFIER_atomic_begin();
	int v = *(volatile int *)&x;
	*(volatile int *)&x = v + 1;
	__VERIFIER_atomic_end();
	return NULL;
}

static void *called(void *arg)
{
	(void)arg;
	__VERIFIER_atomic_incr();
	return NULL;
}

int main(void)
{
	pthread_t a, b, c;

	xcreate(&a, bracketed, NULL);
	xcreate(&b, bracketed, NULL);
	xcreate(&c, called, NULL);
	xjoin(a);
	xjoin(b);
	xjoin(c);
	assert(x == 3);
	printf("x = %d\n", x);
	return 0;
}
