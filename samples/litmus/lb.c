/* lb.c — LB, load buffering.
 *
 *   T0:         T1:
 *     r0 = x      r1 = y
 *     y = 1       x = 1
 *
 * Load buffering: each thread loads one variable, then stores to the
 * other.  Interesting: r0=1 r1=1, each load seeing the other thread's
 * later store.  Forbidden under SC, TSO and PSO (x86 never lets a load
 * pass a later store).
 *
 * Source: Intel SDM 8.2.3.3 (iwp2.2), AMD amd2.
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/lb.{sc,tso,pso} (tests/litmus/model.py).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "../common.h"

static int x, y;
static int r0, r1;

static void *t0(void *arg)
{
	int v0;

	(void)arg;
	__asm__ volatile("movl %[x], %[r0]\n\t"
			 "movl $1, %[y]"
			 : [y] "+m"(y), [r0] "=&r"(v0)
			 : [x] "m"(x)
			 : "memory");
	r0 = v0;
	return NULL;
}

static void *t1(void *arg)
{
	int v1;

	(void)arg;
	__asm__ volatile("movl %[y], %[r1]\n\t"
			 "movl $1, %[x]"
			 : [x] "+m"(x), [r1] "=&r"(v1)
			 : [y] "m"(y)
			 : "memory");
	r1 = v1;
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	xcreate(&t[0], t0, NULL);
	xcreate(&t[1], t1, NULL);
	for (int i = 0; i < 2; i++)
		xjoin(t[i]);
	printf("r0=%d r1=%d\n", r0, r1);
	return 0;
}
