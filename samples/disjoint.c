/* disjoint.c — two threads that share nothing: one writes its own global `a`
 * 10 times, the other its own `b` (volatile, so every store is emitted).  No
 * access of one thread conflicts with an access of the other, so all
 * interleavings are equivalent: a DPOR explorer must run exactly one
 * execution.  Main always prints "a = 9, b = 9".
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "common.h"

#define WRITES 10

static volatile int a, b;

static void *write_a(void *arg)
{
	(void)arg;
	for (int i = 0; i < WRITES; i++)
		a = i;
	return NULL;
}

static void *write_b(void *arg)
{
	(void)arg;
	for (int i = 0; i < WRITES; i++)
		b = i;
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	xcreate(&t1, write_a, NULL);
	xcreate(&t2, write_b, NULL);
	xjoin(t1);
	xjoin(t2);
	assert(a == WRITES - 1 && b == WRITES - 1);
	printf("a = %d, b = %d\n", a, b);
	return 0;
}
