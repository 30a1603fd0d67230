/* sb_xchg.c — SB with XCHG stores.
 *
 *   T0:             T1:
 *     xchg(x, 1)      xchg(y, 1)
 *     r0 = y          r1 = x
 *
 * SB where both stores are XCHG with memory (implicitly locked: the
 * buffer drains first, then the exchange is atomic on memory), the usual
 * compilation of a seq_cst store.  r0=0 r1=0 is forbidden under SC, TSO
 * and PSO.
 *
 * Source: Intel SDM 8.2.3.9, loads and stores are not reordered with
 * locked instructions (iwp2.8.a).
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/sb_xchg.{sc,tso,pso} (tests/litmus/model.py).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "../common.h"

static int x, y;
static int r0, r1;

static void *t0(void *arg)
{
	int v0;
	int tmp;

	(void)arg;
	__asm__ volatile("movl $1, %[tmp]\n\t"
			 "xchgl %[tmp], %[x]\n\t"
			 "movl %[y], %[r0]"
			 : [x] "+m"(x), [r0] "=&r"(v0), [tmp] "=&r"(tmp)
			 : [y] "m"(y)
			 : "memory");
	r0 = v0;
	return NULL;
}

static void *t1(void *arg)
{
	int v1;
	int tmp;

	(void)arg;
	__asm__ volatile("movl $1, %[tmp]\n\t"
			 "xchgl %[tmp], %[y]\n\t"
			 "movl %[x], %[r1]"
			 : [y] "+m"(y), [r1] "=&r"(v1), [tmp] "=&r"(tmp)
			 : [x] "m"(x)
			 : "memory");
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
