/* fib_rf2.c — fib_rf.c (issue 23) with the body of each thread in a loop of
 * 2 iterations: i = j = 1; thread 1, twice: r = i; a = j; i = r + a;
 * thread 2, twice: r = j; b = i; j = r + b; main reads x = i, then y = j,
 * joins both and prints "a b x y".  All shared accesses are C11 relaxed
 * atomics: no data race.
 *
 * The outcome sets below are GenMC v0.11's (--sc: 140 complete executions,
 * 123 distinct lines; --tso: 153 executions, 135 lines) and Nidhugg 0.4's
 * (--sc 140 / 123, --tso and --pso 153 / 135; the same sets), produced by
 * tests/peers/run-peer.sh on this program with LD/ST as here, no x86smc
 * involved.  Unlike fib_rf.c, store buffering is visible: a thread's store
 * is followed by its loads of the next iteration, so tso (and pso, each
 * thread storing to two locations) allow 12 more outputs than sc.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// x86smc: --keep-going
// outcome tso pso: exit 0: 1 1 1 1
// outcome tso pso: exit 0: 1 1 1 2
// outcome tso pso: exit 0: 1 1 1 3
// outcome tso pso: exit 0: 1 1 2 1
// outcome tso pso: exit 0: 1 1 2 2
// outcome tso pso: exit 0: 1 1 2 3
// outcome tso pso: exit 0: 1 1 3 1
// outcome tso pso: exit 0: 1 1 3 2
// outcome tso pso: exit 0: 1 1 3 3
// outcome sc tso pso: exit 0: 1 2 1 1
// outcome sc tso pso: exit 0: 1 2 1 2
// outcome sc tso pso: exit 0: 1 2 1 3
// outcome sc tso pso: exit 0: 1 2 1 4
// outcome sc tso pso: exit 0: 1 2 1 5
// outcome sc tso pso: exit 0: 1 2 2 1
// outcome sc tso pso: exit 0: 1 2 2 2
// outcome sc tso pso: exit 0: 1 2 2 3
// outcome sc tso pso: exit 0: 1 2 2 4
// outcome sc tso pso: exit 0: 1 2 2 5
// outcome tso pso: exit 0: 1 2 3 1
// outcome sc tso pso: exit 0: 1 2 3 2
// outcome sc tso pso: exit 0: 1 2 3 3
// outcome sc tso pso: exit 0: 1 2 3 4
// outcome sc tso pso: exit 0: 1 2 3 5
// outcome sc tso pso: exit 0: 1 3 1 1
// outcome sc tso pso: exit 0: 1 3 1 2
// outcome sc tso pso: exit 0: 1 3 1 3
// outcome sc tso pso: exit 0: 1 3 1 4
// outcome sc tso pso: exit 0: 1 3 1 5
// outcome sc tso pso: exit 0: 1 3 1 6
// outcome sc tso pso: exit 0: 1 3 1 7
// outcome sc tso pso: exit 0: 1 3 2 1
// outcome sc tso pso: exit 0: 1 3 2 2
// outcome sc tso pso: exit 0: 1 3 2 3
// outcome sc tso pso: exit 0: 1 3 2 4
// outcome sc tso pso: exit 0: 1 3 2 5
// outcome sc tso pso: exit 0: 1 3 2 6
// outcome sc tso pso: exit 0: 1 3 2 7
// outcome sc tso pso: exit 0: 1 3 3 1
// outcome sc tso pso: exit 0: 1 3 3 2
// outcome sc tso pso: exit 0: 1 3 3 3
// outcome sc tso pso: exit 0: 1 3 3 4
// outcome sc tso pso: exit 0: 1 3 3 5
// outcome sc tso pso: exit 0: 1 3 3 6
// outcome sc tso pso: exit 0: 1 3 3 7
// outcome sc tso pso: exit 0: 2 1 1 1
// outcome sc tso pso: exit 0: 2 1 1 2
// outcome sc tso pso: exit 0: 2 1 1 3
// outcome tso pso: exit 0: 2 1 2 1
// outcome sc tso pso: exit 0: 2 1 2 2
// outcome sc tso pso: exit 0: 2 1 2 3
// outcome sc tso pso: exit 0: 2 1 3 2
// outcome sc tso pso: exit 0: 2 1 3 3
// outcome sc tso pso: exit 0: 2 1 4 2
// outcome sc tso pso: exit 0: 2 1 4 3
// outcome sc tso pso: exit 0: 2 1 5 2
// outcome sc tso pso: exit 0: 2 1 5 3
// outcome sc tso pso: exit 0: 2 2 1 1
// outcome sc tso pso: exit 0: 2 2 1 2
// outcome sc tso pso: exit 0: 2 2 1 4
// outcome sc tso pso: exit 0: 2 2 2 1
// outcome sc tso pso: exit 0: 2 2 2 2
// outcome sc tso pso: exit 0: 2 2 2 4
// outcome sc tso pso: exit 0: 2 2 4 2
// outcome sc tso pso: exit 0: 2 2 4 4
// outcome sc tso pso: exit 0: 2 3 1 1
// outcome sc tso pso: exit 0: 2 3 1 2
// outcome sc tso pso: exit 0: 2 3 1 5
// outcome sc tso pso: exit 0: 2 3 3 2
// outcome sc tso pso: exit 0: 2 3 3 5
// outcome sc tso pso: exit 0: 2 3 5 2
// outcome sc tso pso: exit 0: 2 3 5 5
// outcome sc tso pso: exit 0: 2 4 1 1
// outcome sc tso pso: exit 0: 2 4 1 2
// outcome sc tso pso: exit 0: 2 4 1 6
// outcome sc tso pso: exit 0: 2 4 2 1
// outcome sc tso pso: exit 0: 2 4 2 2
// outcome sc tso pso: exit 0: 2 4 2 6
// outcome sc tso pso: exit 0: 2 4 4 2
// outcome sc tso pso: exit 0: 2 4 4 6
// outcome sc tso pso: exit 0: 2 5 1 1
// outcome sc tso pso: exit 0: 2 5 1 2
// outcome sc tso pso: exit 0: 2 5 1 7
// outcome sc tso pso: exit 0: 2 5 3 2
// outcome sc tso pso: exit 0: 2 5 3 7
// outcome sc tso pso: exit 0: 2 5 5 2
// outcome sc tso pso: exit 0: 2 5 5 7
// outcome sc tso pso: exit 0: 3 1 1 1
// outcome sc tso pso: exit 0: 3 1 1 2
// outcome sc tso pso: exit 0: 3 1 1 3
// outcome tso pso: exit 0: 3 1 2 1
// outcome sc tso pso: exit 0: 3 1 2 2
// outcome sc tso pso: exit 0: 3 1 2 3
// outcome sc tso pso: exit 0: 3 1 3 2
// outcome sc tso pso: exit 0: 3 1 3 3
// outcome sc tso pso: exit 0: 3 1 4 3
// outcome sc tso pso: exit 0: 3 1 5 3
// outcome sc tso pso: exit 0: 3 1 6 3
// outcome sc tso pso: exit 0: 3 1 7 3
// outcome sc tso pso: exit 0: 3 2 1 1
// outcome sc tso pso: exit 0: 3 2 1 3
// outcome sc tso pso: exit 0: 3 2 1 5
// outcome sc tso pso: exit 0: 3 2 2 1
// outcome sc tso pso: exit 0: 3 2 2 3
// outcome sc tso pso: exit 0: 3 2 2 5
// outcome sc tso pso: exit 0: 3 2 5 3
// outcome sc tso pso: exit 0: 3 2 5 5
// outcome sc tso pso: exit 0: 3 5 1 1
// outcome sc tso pso: exit 0: 3 5 1 3
// outcome sc tso pso: exit 0: 3 5 1 8
// outcome sc tso pso: exit 0: 3 5 2 1
// outcome sc tso pso: exit 0: 3 5 2 3
// outcome sc tso pso: exit 0: 3 5 2 8
// outcome sc tso pso: exit 0: 3 5 5 3
// outcome sc tso pso: exit 0: 3 5 5 8
// outcome sc tso pso: exit 0: 4 2 1 1
// outcome sc tso pso: exit 0: 4 2 1 2
// outcome sc tso pso: exit 0: 4 2 1 4
// outcome sc tso pso: exit 0: 4 2 2 1
// outcome sc tso pso: exit 0: 4 2 2 2
// outcome sc tso pso: exit 0: 4 2 2 4
// outcome sc tso pso: exit 0: 4 2 6 4
// outcome sc tso pso: exit 0: 5 2 1 1
// outcome sc tso pso: exit 0: 5 2 1 3
// outcome sc tso pso: exit 0: 5 2 1 5
// outcome sc tso pso: exit 0: 5 2 2 1
// outcome sc tso pso: exit 0: 5 2 2 3
// outcome sc tso pso: exit 0: 5 2 2 5
// outcome sc tso pso: exit 0: 5 2 7 5
// outcome sc tso pso: exit 0: 5 3 1 1
// outcome sc tso pso: exit 0: 5 3 1 2
// outcome sc tso pso: exit 0: 5 3 1 5
// outcome sc tso pso: exit 0: 5 3 3 2
// outcome sc tso pso: exit 0: 5 3 3 5
// outcome sc tso pso: exit 0: 5 3 8 5
#include "common.h"

static int i = 1, j = 1;
static int a, b;

#define LD(p) __atomic_load_n(p, __ATOMIC_RELAXED)
#define ST(p, v) __atomic_store_n(p, v, __ATOMIC_RELAXED)

static void *t1(void *arg)
{
	(void)arg;
	for (int k = 0; k < 2; k++) {
		int r = LD(&i);
		ST(&a, LD(&j));
		ST(&i, r + LD(&a));
	}
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
	for (int k = 0; k < 2; k++) {
		int r = LD(&j);
		ST(&b, LD(&i));
		ST(&j, r + LD(&b));
	}
	return NULL;
}

int main(void)
{
	pthread_t p, q;

	xcreate(&p, t1, NULL);
	xcreate(&q, t2, NULL);
	int x = LD(&i);
	int y = LD(&j);
	xjoin(p);
	xjoin(q);
	printf("%d %d %d %d\n", LD(&a), LD(&b), x, y);
	return 0;
}
