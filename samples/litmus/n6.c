/* n6.c — x86-TSO test n6.
 *
 *   T0:         T1:
 *     x = 1       y = 2
 *     r0 = x      x = 2
 *     r1 = y
 *
 * Test n6 of the x86-TSO papers: T0 writes x = 1, reads it back
 * (forwarded from its buffer) and reads y; T1 writes y = 2, then x = 2.
 * Interesting: r0=1 r1=0 x=1, T0 read y = 0 (T1 had not stored y yet) and
 * still T0's x = 1 lands after T1's x = 2.  Allowed under TSO (observed
 * on Intel hardware) and PSO, forbidden under SC.  main prints the final
 * x.
 *
 * Source: n6, x86-TSO papers.
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/n6.{sc,tso,pso} (tests/litmus/model.py).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "../common.h"

static int x, y;
static int r0, r1;

static void *t0(void *arg)
{
	int v0, v1;

	(void)arg;
	__asm__ volatile("movl $1, %[x]\n\t"
			 "movl %[x], %[r0]\n\t"
			 "movl %[y], %[r1]"
			 : [x] "+m"(x), [r0] "=&r"(v0), [r1] "=&r"(v1)
			 : [y] "m"(y)
			 : "memory");
	r0 = v0;
	r1 = v1;
	return NULL;
}

static void *t1(void *arg)
{
	(void)arg;
	__asm__ volatile("movl $2, %[y]\n\t"
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
	printf("r0=%d r1=%d x=%d\n", r0, r1, x);
	return 0;
}
