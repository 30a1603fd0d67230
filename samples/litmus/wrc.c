/* wrc.c — WRC, write-to-read causality.
 *
 *   T0:         T1:         T2:
 *     x = 1       r0 = x      r1 = y
 *                 y = 1       r2 = x
 *
 * Write-to-read causality (3 threads): T1 reads x = 1, then writes y; T2
 * reads y, then x.  Interesting: r0=1 r1=1 r2=0.  Forbidden under SC, TSO
 * and PSO (stores are transitively visible).
 *
 * Source: Intel SDM 8.2.3.6, stores are transitively visible (iwp2.5),
 * AMD amd8.
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/wrc.{sc,tso,pso} (tests/litmus/model.py).
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
	__asm__ volatile("movl $1, %[x]"
			 : [x] "+m"(x)
			 :
			 : "memory");
	return NULL;
}

static void *t1(void *arg)
{
	int v0;

	(void)arg;
	__asm__ volatile("movl %[x], %[r0]\n\t"
			 "movl $1, %[y]"
			 : [y] "+m"(y), [r0] "=&r"(v0)
			 : [x] "m"(x)
			 : "memory");
	r0 = v0;
	return NULL;
}

static void *t2(void *arg)
{
	int v1, v2;

	(void)arg;
	__asm__ volatile("movl %[y], %[r1]\n\t"
			 "movl %[x], %[r2]"
			 : [r1] "=&r"(v1), [r2] "=&r"(v2)
			 : [y] "m"(y), [x] "m"(x)
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
