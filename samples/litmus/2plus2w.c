/* 2plus2w.c — 2+2W.
 *
 *   T0:        T1:
 *     x = 1      y = 1
 *     y = 2      x = 2
 *
 * 2+2W: T0 writes x = 1, then y = 2; T1 writes y = 1, then x = 2.
 * Interesting final state: x=1 y=1, each thread's first store landing
 * last.  Needs W->W reordering: forbidden under SC and TSO, allowed under
 * PSO.  main prints the final memory.
 *
 * Source: 2+2W (herd/diy naming).
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/2plus2w.{sc,tso,pso} (tests/litmus/model.py).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "../common.h"

static int x, y;

static void *t0(void *arg)
{
	(void)arg;
	__asm__ volatile("movl $1, %[x]\n\t"
			 "movl $2, %[y]"
			 : [x] "+m"(x), [y] "+m"(y)
			 :
			 : "memory");
	return NULL;
}

static void *t1(void *arg)
{
	(void)arg;
	__asm__ volatile("movl $1, %[y]\n\t"
			 "movl $2, %[x]"
			 : [y] "+m"(y), [x] "+m"(x)
			 :
			 : "memory");
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	xcreate(&t[0], t0, NULL);
	xcreate(&t[1], t1, NULL);
	for (int i = 0; i < 2; i++)
		xjoin(t[i]);
	printf("x=%d y=%d\n", x, y);
	return 0;
}
