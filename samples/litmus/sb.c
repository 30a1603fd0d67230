/* sb.c — SB, store buffering.
 *
 *   T0:         T1:
 *     x = 1       y = 1
 *     r0 = y      r1 = x
 *
 * Store buffering.  Each thread stores to one variable, then loads the
 * other.  Interesting: r0=0 r1=0, both stores still sitting in their
 * store buffers when the loads run (W->R reordering).  Forbidden under
 * SC; allowed under TSO and PSO, and observable on real x86.
 *
 * Source: Intel SDM 8.2.3.4 (iwp2.3.a), AMD amd4; the x86-TSO papers'
 * first example.
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/sb.{sc,tso,pso} (tests/litmus/model.py).
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
	__asm__ volatile("movl $1, %[x]\n\t"
			 "movl %[y], %[r0]"
			 : [x] "+m"(x), [r0] "=&r"(v0)
			 : [y] "m"(y)
			 : "memory");
	r0 = v0;
	return NULL;
}

static void *t1(void *arg)
{
	int v1;

	(void)arg;
	__asm__ volatile("movl $1, %[y]\n\t"
			 "movl %[x], %[r1]"
			 : [y] "+m"(y), [r1] "=&r"(v1)
			 : [x] "m"(x)
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
