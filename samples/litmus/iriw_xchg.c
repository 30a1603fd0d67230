/* iriw_xchg.c — IRIW with an XCHG write and repeated reads (n3?).
 *
 *   T0:             T1:             T2:             T3:
 *     xchg(x, 1)      y = 1           r0 = y          r3 = x
 *                                     r1 = x          r4 = y
 *                                     r2 = x          r5 = y
 *
 * IRIW with a locked write: T0 XCHGs x = 1, T1 stores y = 1, T2 and T3
 * read the two variables in opposite orders, each reading its second
 * variable twice.  r0=1 r1=0 r2=1 r3=1 r4=0 r5=1 (the readers disagree on
 * the order of the writes) is forbidden under SC, TSO and PSO.
 *
 * Source: believed to be n3 of the x86-TSO paper (IRIW with a locked
 * write; shape not confirmed).
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/iriw_xchg.{sc,tso,pso} (tests/litmus/model.py).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "../common.h"

static int x, y;
static int r0, r1, r2, r3, r4, r5;

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
	(void)arg;
	__asm__ volatile("movl $1, %[y]"
			 : [y] "+m"(y)
			 :
			 : "memory");
	return NULL;
}

static void *t2(void *arg)
{
	int v0, v1, v2;

	(void)arg;
	__asm__ volatile("movl %[y], %[r0]\n\t"
			 "movl %[x], %[r1]\n\t"
			 "movl %[x], %[r2]"
			 : [r0] "=&r"(v0), [r1] "=&r"(v1), [r2] "=&r"(v2)
			 : [y] "m"(y), [x] "m"(x)
			 : "memory");
	r0 = v0;
	r1 = v1;
	r2 = v2;
	return NULL;
}

static void *t3(void *arg)
{
	int v3, v4, v5;

	(void)arg;
	__asm__ volatile("movl %[x], %[r3]\n\t"
			 "movl %[y], %[r4]\n\t"
			 "movl %[y], %[r5]"
			 : [r3] "=&r"(v3), [r4] "=&r"(v4), [r5] "=&r"(v5)
			 : [x] "m"(x), [y] "m"(y)
			 : "memory");
	r3 = v3;
	r4 = v4;
	r5 = v5;
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
	printf("r0=%d r1=%d r2=%d r3=%d r4=%d r5=%d\n", r0, r1, r2, r3, r4, r5);
	return 0;
}
