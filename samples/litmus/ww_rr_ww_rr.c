/* ww_rr_ww_rr.c — WW+RR+WW+RR, a coherence chain over 4 threads (n2?).
 *
 *   T0:         T1:         T2:         T3:
 *     y = 1       r0 = x      x = 2       r2 = z
 *     x = 1       r1 = x      z = 1       r3 = y
 *
 * Two writers, two readers, coherence chained through x: T1 sees x = 1
 * then x = 2 (T0's x = 1 before T2's x = 2 in memory); T3 sees z = 1
 * (written after x = 2) but y = 0 (written before x = 1).  Interesting:
 * r0=1 r1=2 r2=1 r3=0, forbidden under SC and TSO, allowed under PSO.
 *
 * Source: believed to be n2 of the x86-TSO paper (shape taken from a
 * RISC-V Ztso adaptation; not confirmed).
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/ww_rr_ww_rr.{sc,tso,pso} (tests/litmus/model.py).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "../common.h"

static int x, y, z;
static int r0, r1, r2, r3;

static void *t0(void *arg)
{
	(void)arg;
	__asm__ volatile("movl $1, %[y]\n\t"
			 "movl $1, %[x]"
			 : [y] "+m"(y), [x] "+m"(x)
			 :
			 : "memory");
	return NULL;
}

static void *t1(void *arg)
{
	int v0, v1;

	(void)arg;
	__asm__ volatile("movl %[x], %[r0]\n\t"
			 "movl %[x], %[r1]"
			 : [r0] "=&r"(v0), [r1] "=&r"(v1)
			 : [x] "m"(x)
			 : "memory");
	r0 = v0;
	r1 = v1;
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
	__asm__ volatile("movl $2, %[x]\n\t"
			 "movl $1, %[z]"
			 : [x] "+m"(x), [z] "+m"(z)
			 :
			 : "memory");
	return NULL;
}

static void *t3(void *arg)
{
	int v2, v3;

	(void)arg;
	__asm__ volatile("movl %[z], %[r2]\n\t"
			 "movl %[y], %[r3]"
			 : [r2] "=&r"(v2), [r3] "=&r"(v3)
			 : [z] "m"(z), [y] "m"(y)
			 : "memory");
	r2 = v2;
	r3 = v3;
	return NULL;
}

int main(void)
{
	pthread_t t[4];

	xcreate(&t[0], t0, NULL);
	xcreate(&t[1], t1, NULL);
	xcreate(&t[2], t2, NULL);
	xcreate(&t[3], t3, NULL);
	for (int i = 0; i < 4; i++)
		xjoin(t[i]);
	printf("r0=%d r1=%d r2=%d r3=%d\n", r0, r1, r2, r3);
	return 0;
}
