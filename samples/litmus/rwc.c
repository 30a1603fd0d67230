/* rwc.c — RWC, read-to-write causality.
 *
 *   T0:         T1:         T2:
 *     x = 1       r0 = x      y = 1
 *                 r1 = y      r2 = x
 *
 * Read-to-write causality (3 threads): T0 writes x; T1 reads x, then y;
 * T2 writes y, then reads x.  Interesting: r0=1 r1=0 r2=0, allowed under
 * TSO and PSO because T2's store to y can stay in its buffer while T2
 * reads x (W->R); forbidden under SC.
 *
 * Source: RWC (herd/diy naming).
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/rwc.{sc,tso,pso} (tests/litmus/model.py).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "../common.h"

static int x, y;
static int r0, r1, r2;

static void *t0(void *arg)
{
	(void)arg;
	__asm__ volatile("movl $1, %[x]"
			 : [x] "+m"(x)
			 :
			 : "memory");
	return NULL;
}

static void *t1(void *arg)
{
	int v0, v1;

	(void)arg;
	__asm__ volatile("movl %[x], %[r0]\n\t"
			 "movl %[y], %[r1]"
			 : [r0] "=&r"(v0), [r1] "=&r"(v1)
			 : [x] "m"(x), [y] "m"(y)
			 : "memory");
	r0 = v0;
	r1 = v1;
	return NULL;
}

static void *t2(void *arg)
{
	int v2;

	(void)arg;
	__asm__ volatile("movl $1, %[y]\n\t"
			 "movl %[x], %[r2]"
			 : [y] "+m"(y), [r2] "=&r"(v2)
			 : [x] "m"(x)
			 : "memory");
	r2 = v2;
	return NULL;
}

int main(void)
{
	pthread_t t[3];

	xcreate(&t[0], t0, NULL);
	xcreate(&t[1], t1, NULL);
	xcreate(&t[2], t2, NULL);
	for (int i = 0; i < 3; i++)
		xjoin(t[i]);
	printf("r0=%d r1=%d r2=%d\n", r0, r1, r2);
	return 0;
}
