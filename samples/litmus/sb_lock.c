/* sb_lock.c — SB with LOCK XADD / LOCK INC stores.
 *
 *   T0:                  T1:
 *     lock xadd(x, 1)      lock inc y
 *     r0 = y               r1 = x
 *
 * SB where T0's store is LOCK XADD and T1's is LOCK INC.  Locked
 * instructions drain the store buffer and act atomically on memory, so
 * r0=0 r1=0 is forbidden under SC, TSO and PSO.
 *
 * Source: written for x86smc (SB with other locked read-modify-writes).
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/sb_lock.{sc,tso,pso} (tests/litmus/model.py).
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
	int tmp;

	(void)arg;
	__asm__ volatile("movl $1, %[tmp]\n\t"
			 "lock xaddl %[tmp], %[x]\n\t"
			 "movl %[y], %[r0]"
			 : [x] "+m"(x), [r0] "=&r"(v0), [tmp] "=&r"(tmp)
			 : [y] "m"(y)
			 : "memory");
	r0 = v0;
	return NULL;
}

static void *t1(void *arg)
{
	int v1;

	(void)arg;
	__asm__ volatile("lock incl %[y]\n\t"
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
