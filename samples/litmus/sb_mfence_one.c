/* sb_mfence_one.c — SB+mfence+po, a fence on one side only.
 *
 *   T0:         T1:
 *     x = 1       y = 1
 *     mfence      r1 = x
 *     r0 = y
 *
 * SB with an MFENCE in T0 only.  T1's store can still be buffered while
 * T1 loads x, so r0=0 r1=0 stays allowed under TSO and PSO (forbidden
 * under SC): one fence is not enough.
 *
 * Source: SB+mfence+po (herd/diy naming).
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/sb_mfence_one.{sc,tso,pso} (tests/litmus/model.py).
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
			 "mfence\n\t"
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
