/* s.c — S.
 *
 *   T0:         T1:
 *     x = 2       r0 = y
 *     y = 1       x = 1
 *
 * S: T0 writes x = 2, then y = 1; T1 reads y, then writes x = 1.
 * Interesting: r0=1 x=2, T1 saw y = 1 but T0's earlier store to x still
 * landed after T1's.  Needs W->W reordering: forbidden under SC and TSO,
 * allowed under PSO.  main prints the final x.
 *
 * Source: S (herd/diy naming).
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/s.{sc,tso,pso} (tests/litmus/model.py).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "../common.h"

static int x, y;
static int r0;

static void *t0(void *arg)
{
	(void)arg;
	__asm__ volatile("movl $2, %[x]\n\t"
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
			 "movl $1, %[x]"
			 : [x] "+m"(x), [r0] "=&r"(v0)
			 : [y] "m"(y)
			 : "memory");
	r0 = v0;
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	xcreate(&t[0], t0, NULL);
	xcreate(&t[1], t1, NULL);
	for (int i = 0; i < 2; i++)
		xjoin(t[i]);
	printf("r0=%d x=%d\n", r0, x);
	return 0;
}
