/* n5.c — x86-TSO test n5.
 *
 *   T0:         T1:
 *     x = 1       x = 2
 *     r0 = x      r1 = x
 *
 * Test n5 of the x86-TSO papers: each thread writes x, then reads it.
 * r0=2 r1=1 would need the two stores to reach memory in both orders:
 * forbidden under SC, TSO and PSO.
 *
 * Source: n5, x86-TSO papers.
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/n5.{sc,tso,pso} (tests/litmus/model.py).
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
	__asm__ volatile("movl $1, %[x]\n\t"
			 "movl %[x], %[r0]"
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
	__asm__ volatile("movl $2, %[x]\n\t"
			 "movl %[x], %[r1]"
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
