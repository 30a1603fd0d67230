/* mp_xchg.c — MP with an XCHG flag store.
 *
 *   T0:             T1:
 *     x = 1           r0 = y
 *     xchg(y, 1)      r1 = x
 *
 * MP where the flag store is an XCHG.  The locked instruction drains all
 * of T0's buffers (under PSO too) before it writes y to memory, so r0=1
 * r1=0 is forbidden under SC, TSO and PSO.
 *
 * Source: written for x86smc (a locked store orders earlier stores, also
 * on PSO).
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/mp_xchg.{sc,tso,pso} (tests/litmus/model.py).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "../common.h"

static int x, y;
static int r0, r1;

static void *t0(void *arg)
{
	int tmp;

	(void)arg;
	__asm__ volatile("movl $1, %[x]\n\t"
			 "movl $1, %[tmp]\n\t"
			 "xchgl %[tmp], %[y]"
			 : [x] "+m"(x), [y] "+m"(y), [tmp] "=&r"(tmp)
			 :
			 : "memory");
	return NULL;
}

static void *t1(void *arg)
{
	int v0, v1;

	(void)arg;
	__asm__ volatile("movl %[y], %[r0]\n\t"
			 "movl %[x], %[r1]"
			 : [r0] "=&r"(v0), [r1] "=&r"(v1)
			 : [y] "m"(y), [x] "m"(x)
			 : "memory");
	r0 = v0;
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
