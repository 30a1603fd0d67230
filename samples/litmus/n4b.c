/* n4b.c — x86-TSO test n4b.
 *
 *   T0:         T1:
 *     r0 = x      r1 = x
 *     x = 1       x = 2
 *
 * Test n4b of the x86-TSO CACM paper: each thread reads x, then writes
 * it.  r0=2 r1=1 (each load seeing the other thread's later store) is
 * forbidden under SC, TSO and PSO.
 *
 * Source: n4b, x86-TSO CACM paper (Sewell et al. 2010).
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/n4b.{sc,tso,pso} (tests/litmus/model.py).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "../common.h"

static int x;
static int r0, r1;

static void *t0(void *arg)
{
	int v0;

	(void)arg;
	__asm__ volatile("movl %[x], %[r0]\n\t"
			 "movl $1, %[x]"
			 : [x] "+m"(x), [r0] "=&r"(v0)
			 :
			 : "memory");
	r0 = v0;
	return NULL;
}

static void *t1(void *arg)
{
	int v1;

	(void)arg;
	__asm__ volatile("movl %[x], %[r1]\n\t"
			 "movl $2, %[x]"
			 : [x] "+m"(x), [r1] "=&r"(v1)
			 :
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
