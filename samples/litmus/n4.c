/* n4.c — x86-TSO test n4.
 *
 *   T0:         T1:
 *     r0 = x      r2 = x
 *     x = 1       x = 2
 *     r1 = x      r3 = x
 *
 * Test n4 of the x86-TSO paper: each thread reads x, writes x, reads x
 * again.  r0=2 r1=1 r2=1 r3=2 would need each thread to see the other's
 * store both before and after its own: forbidden under SC, TSO and PSO
 * (coherence).
 *
 * Source: n4, x86-TSO paper.
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/n4.{sc,tso,pso} (tests/litmus/model.py).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "../common.h"

static int x;
static int r0, r1, r2, r3;

static void *t0(void *arg)
{
	int v0, v1;

	(void)arg;
	__asm__ volatile("movl %[x], %[r0]\n\t"
			 "movl $1, %[x]\n\t"
			 "movl %[x], %[r1]"
			 : [x] "+m"(x), [r0] "=&r"(v0), [r1] "=&r"(v1)
			 :
			 : "memory");
	r0 = v0;
	r1 = v1;
	return NULL;
}

static void *t1(void *arg)
{
	int v2, v3;

	(void)arg;
	__asm__ volatile("movl %[x], %[r2]\n\t"
			 "movl $2, %[x]\n\t"
			 "movl %[x], %[r3]"
			 : [x] "+m"(x), [r2] "=&r"(v2), [r3] "=&r"(v3)
			 :
			 : "memory");
	r2 = v2;
	r3 = v3;
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	xcreate(&t[0], t0, NULL);
	xcreate(&t[1], t1, NULL);
	for (int i = 0; i < 2; i++)
		xjoin(t[i]);
	printf("r0=%d r1=%d r2=%d r3=%d\n", r0, r1, r2, r3);
	return 0;
}
