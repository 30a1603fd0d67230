/* n1.c — x86-TSO test n1.
 *
 *   T0:         T1:         T2:
 *     x = 2       y = 1       r1 = x
 *     r0 = y      x = 1       r2 = x
 *
 * Test n1 of the x86-TSO paper (3 threads).  T2 sees T1's x = 1 before
 * T0's x = 2, yet T0 read y = 0 although T1 wrote y before x.
 * Interesting: r0=0 r1=1 r2=2, T0's store to x waiting in its buffer
 * while T0 reads y.  Allowed under TSO and PSO, forbidden under SC.
 *
 * Source: n1, x86-TSO paper (Owens/Sarkar/Sewell, TPHOLs 2009).
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/n1.{sc,tso,pso} (tests/litmus/model.py).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "../common.h"

static int x, y;
static int r0, r1, r2;

static void *t0(void *arg)
{
	int v0;

	(void)arg;
	__asm__ volatile("movl $2, %[x]\n\t"
			 "movl %[y], %[r0]"
			 : [x] "+m"(x), [r0] "=&r"(v0)
			 : [y] "m"(y)
			 : "memory");
	r0 = v0;
	return NULL;
}

static void *t1(void *arg)
{
	(void)arg;
	__asm__ volatile("movl $1, %[y]\n\t"
			 "movl $1, %[x]"
			 : [y] "+m"(y), [x] "+m"(x)
			 :
			 : "memory");
	return NULL;
}

static void *t2(void *arg)
{
	int v1, v2;

	(void)arg;
	__asm__ volatile("movl %[x], %[r1]\n\t"
			 "movl %[x], %[r2]"
			 : [r1] "=&r"(v1), [r2] "=&r"(v2)
			 : [x] "m"(x)
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
