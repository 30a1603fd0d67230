/* mp.c — MP, message passing.
 *
 *   T0:         T1:
 *     x = 1       r0 = y
 *     y = 1       r1 = x
 *
 * Message passing: T0 writes the data x, then the flag y; T1 reads y,
 * then x.  Interesting: r0=1 r1=0 (flag seen, data not).  Forbidden under
 * SC and TSO (FIFO store buffer, loads in order); allowed under PSO,
 * where the store to y may leave its buffer before the store to x.
 *
 * Source: Intel SDM 8.2.3.2 (iwp2.1), AMD amd1.
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/mp.{sc,tso,pso} (tests/litmus/model.py).
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
