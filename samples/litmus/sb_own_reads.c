/* sb_own_reads.c — SB with own reads (store forwarding).
 *
 *   T0:         T1:
 *     x = 1       y = 1
 *     r0 = x      r2 = y
 *     r1 = y      r3 = x
 *
 * SB where each thread first reads back its own store (Intel SDM example
 * 8-5, "intra-processor forwarding is allowed").  Interesting: r0=1 r1=0
 * r2=1 r3=0, each thread seeing its own store through store forwarding
 * while the other thread does not see it yet.  Forbidden under SC,
 * allowed under TSO and PSO.
 *
 * Source: Intel SDM 8.2.3.5, intra-processor forwarding (iwp2.4), AMD
 * amd9.
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/sb_own_reads.{sc,tso,pso} (tests/litmus/model.py).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "../common.h"

static int x, y;
static int r0, r1, r2, r3;

static void *t0(void *arg)
{
	int v0, v1;

	(void)arg;
	__asm__ volatile("movl $1, %[x]\n\t"
			 "movl %[x], %[r0]\n\t"
			 "movl %[y], %[r1]"
			 : [x] "+m"(x), [r0] "=&r"(v0), [r1] "=&r"(v1)
			 : [y] "m"(y)
			 : "memory");
	r0 = v0;
	r1 = v1;
	return NULL;
}

static void *t1(void *arg)
{
	int v2, v3;

	(void)arg;
	__asm__ volatile("movl $1, %[y]\n\t"
			 "movl %[y], %[r2]\n\t"
			 "movl %[x], %[r3]"
			 : [y] "+m"(y), [r2] "=&r"(v2), [r3] "=&r"(v3)
			 : [x] "m"(x)
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
