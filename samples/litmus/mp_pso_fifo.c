/* mp_pso_fifo.c — MP with two stores to x: PSO reordering, per-address FIFO.
 *
 *   T0:         T1:
 *     x = 1       r0 = y
 *     x = 2       r1 = x
 *     y = 1       r2 = x
 *
 * MP where the writer stores x twice (x = 1; x = 2; y = 1) and the reader
 * reads y, then x twice.  Interesting under PSO: r0=1 with r1 < 2, the
 * store to y overtaking the stores to x (PSO only; SC and TSO forbid it).
 * Stores to the same address stay in order under every model: no outcome
 * has r1 > r2.
 *
 * Source: written for x86smc (PSO W->W reordering, per-address FIFO).
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/mp_pso_fifo.{sc,tso,pso} (tests/litmus/model.py).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "../common.h"

static int x, y;
static int r0, r1, r2;

static void *t0(void *arg)
{
	(void)arg;
	__asm__ volatile("movl $1, %[x]\n\t"
			 "movl $2, %[x]\n\t"
			 "movl $1, %[y]"
			 : [x] "+m"(x), [y] "+m"(y)
			 :
			 : "memory");
	return NULL;
}

static void *t1(void *arg)
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

int main(void)
{
	pthread_t t[2];

	xcreate(&t[0], t0, NULL);
	xcreate(&t[1], t1, NULL);
	for (int i = 0; i < 2; i++)
		xjoin(t[i]);
	printf("r0=%d r1=%d r2=%d\n", r0, r1, r2);
	return 0;
}
