/* isa2.c — ISA2, message passing through a third thread.
 *
 *   T0:         T1:         T2:
 *     x = 1       r0 = y      r1 = z
 *     y = 1       z = 1       r2 = x
 *
 * ISA2 (3 threads): T0 writes the data x and the flag y; T1 reads y and
 * writes z; T2 reads z, then x.  Interesting: r0=1 r1=1 r2=0.  Forbidden
 * under SC and TSO (stores in order, causality transitive); allowed under
 * PSO (T0's stores reordered).
 *
 * Source: ISA2 (herd/diy naming).
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/isa2.{sc,tso,pso} (tests/litmus/model.py).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "../common.h"

static int x, y, z;
static int r0, r1, r2;

static void *t0(void *arg)
{
	(void)arg;
	__asm__ volatile("movl $1, %[x]\n\t"
			 "movl $1, %[y]"
			 : [x] "+m"(x), [y] "+m"(y)
			 :
			 : "memory");
	return NULL;
}

static void *t1(void *arg)
{
	int v0;

	(void)arg;
	__asm__ volatile("movl %[y], %[r0]\n\t"
			 "movl $1, %[z]"
			 : [z] "+m"(z), [r0] "=&r"(v0)
			 : [y] "m"(y)
			 : "memory");
	r0 = v0;
	return NULL;
}

static void *t2(void *arg)
{
	int v1, v2;

	(void)arg;
	__asm__ volatile("movl %[z], %[r1]\n\t"
			 "movl %[x], %[r2]"
			 : [r1] "=&r"(v1), [r2] "=&r"(v2)
			 : [z] "m"(z), [x] "m"(x)
			 : "memory");
	r1 = v1;
	r2 = v2;
	return NULL;
}

int main(void)
{
	pthread_t t[3];

	xcreate(&t[0], t0, NULL);
	xcreate(&t[1], t1, NULL);
	xcreate(&t[2], t2, NULL);
	for (int i = 0; i < 3; i++)
		xjoin(t[i]);
	printf("r0=%d r1=%d r2=%d\n", r0, r1, r2);
	return 0;
}
