/* r.c — R.
 *
 *   T0:         T1:
 *     x = 1       y = 2
 *     y = 1       r0 = x
 *
 * R: T0 writes x = 1, then y = 1; T1 writes y = 2, then reads x.
 * Interesting: r0=0 y=2, T1's store to y is after T0's in memory, yet T1
 * did not see x = 1: T1's store waited in its buffer while T1 loaded x
 * (W->R).  Forbidden under SC, allowed under TSO and PSO.  main prints
 * the final y.
 *
 * Source: R (herd/diy naming).
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/r.{sc,tso,pso} (tests/litmus/model.py).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "../common.h"

static int x, y;
static int r0;

static void *t0(void *arg)
{
	(void)arg;
	__asm__ volatile("movl $1, %[x]\n\t"
			 "movl $1, %[y]"
			 : [x] "+m"(x), [y] "+m"(y)
			 :
			 : "memory");
	return NULL;
}

static void *t1(void *arg)
{
	int v0;

	(void)arg;
	__asm__ volatile("movl $2, %[y]\n\t"
			 "movl %[x], %[r0]"
			 : [y] "+m"(y), [r0] "=&r"(v0)
			 : [x] "m"(x)
			 : "memory");
	r0 = v0;
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	xcreate(&t[0], t0, NULL);
	xcreate(&t[1], t1, NULL);
	for (int i = 0; i < 2; i++)
		xjoin(t[i]);
	printf("r0=%d y=%d\n", r0, y);
	return 0;
}
