/* n7.c — x86-TSO test n7.
 *
 *   T0:         T1:         T2:
 *     x = 1       y = 1       r2 = y
 *     r0 = x                  r3 = x
 *     r1 = y
 *
 * Test n7 of the x86-TSO paper (3 threads): T0 writes x, reads it back
 * and reads y; T1 writes y; T2 reads y, then x.  Interesting: r0=1 r1=0
 * r2=1 r3=0, T0 seeing its own store early (forwarding) while T2 does not
 * see it yet.  Allowed under TSO and PSO, forbidden under SC.
 *
 * Source: n7, x86-TSO paper.
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/n7.{sc,tso,pso} (tests/litmus/model.py).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "../common.h"

static int x, y;
static int r0, r1, r2, r3;

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
	__asm__ volatile("movl $1, %[y]"
			 : [y] "+m"(y)
			 :
			 : "memory");
	return NULL;
}

static void *t2(void *arg)
{
	int v2, v3;

	(void)arg;
	__asm__ volatile("movl %[y], %[r2]\n\t"
			 "movl %[x], %[r3]"
			 : [r2] "=&r"(v2), [r3] "=&r"(v3)
			 : [y] "m"(y), [x] "m"(x)
			 : "memory");
	r2 = v2;
	r3 = v3;
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
	printf("r0=%d r1=%d r2=%d r3=%d\n", r0, r1, r2, r3);
	return 0;
}
