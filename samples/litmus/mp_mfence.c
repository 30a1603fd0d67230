/* mp_mfence.c — MP+mfences.
 *
 *   T0:         T1:
 *     x = 1       r0 = y
 *     mfence      mfence
 *     y = 1       r1 = x
 *
 * MP with an MFENCE between the two stores and between the two loads.
 * r0=1 r1=0 is forbidden under SC, TSO and PSO: the fence drains T0's
 * buffers before y is stored, also under PSO.
 *
 * Source: MP+mfences (herd/diy naming).
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/mp_mfence.{sc,tso,pso} (tests/litmus/model.py).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "../common.h"

static int x, y;
static int r0, r1;

static void *t0(void *arg)
{
	(void)arg;
	__asm__ volatile("movl $1, %[x]\n\t"
			 "mfence\n\t"
			 "movl $1, %[y]"
			 : [x] "+m"(x), [y] "+m"(y)
			 :
			 : "memory");
	return NULL;
}

static void *t1(void *arg)
{
	int v0, v1;

	(void)arg;
	__asm__ volatile("movl %[y], %[r0]\n\t"
			 "mfence\n\t"
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
