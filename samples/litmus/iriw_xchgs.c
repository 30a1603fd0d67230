/* iriw_xchgs.c — IRIW with XCHG writes.
 *
 *   T0:             T1:             T2:             T3:
 *     xchg(x, 1)      xchg(y, 1)      r0 = x          r2 = y
 *                                     r1 = y          r3 = x
 *
 * IRIW where both writes are XCHG (Intel SDM example 8-8).  Locked
 * instructions are totally ordered, so the readers cannot disagree on
 * their order: r0=1 r1=0 r2=1 r3=0 is forbidden under SC, TSO and PSO.
 *
 * Source: Intel SDM 8.2.3.8, locked instructions have a total order
 * (iwp2.7), AMD amd7.
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/iriw_xchgs.{sc,tso,pso} (tests/litmus/model.py).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "../common.h"

static int x, y;
static int r0, r1, r2, r3;

static void *t0(void *arg)
{
	int tmp;

	(void)arg;
	__asm__ volatile("movl $1, %[tmp]\n\t"
			 "xchgl %[tmp], %[x]"
			 : [x] "+m"(x), [tmp] "=&r"(tmp)
			 :
			 : "memory");
	return NULL;
}

static void *t1(void *arg)
{
	int tmp;

	(void)arg;
	__asm__ volatile("movl $1, %[tmp]\n\t"
			 "xchgl %[tmp], %[y]"
			 : [y] "+m"(y), [tmp] "=&r"(tmp)
			 :
			 : "memory");
	return NULL;
}

static void *t2(void *arg)
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

static void *t3(void *arg)
{
	int v2, v3;

	(void)arg;
	__asm__ volatile("movl %[y], %[r2]\n\t"
			 "movl %[x], %[r3]"
			 : [r2] "=&r"(v2), [r3] "=&r"(v3)
			 : [y] "m"(y), [x] "m"(x)
			 : "memory");
	r2 = v2;
	r3 = v3;
	return NULL;
}

int main(void)
{
	pthread_t t[4];

	xcreate(&t[0], t0, NULL);
	xcreate(&t[1], t1, NULL);
	xcreate(&t[2], t2, NULL);
	xcreate(&t[3], t3, NULL);
	for (int i = 0; i < 4; i++)
		xjoin(t[i]);
	printf("r0=%d r1=%d r2=%d r3=%d\n", r0, r1, r2, r3);
	return 0;
}
