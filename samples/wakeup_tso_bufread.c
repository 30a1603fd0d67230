/* wakeup_tso_bufread.c — a load its own store buffer serves commutes with
 * other threads' writes of the location, on the side of the sequence
 * that is inserted into a wakeup tree as well as on the side of the
 * thread tested against it.
 *
 * t2 buffers Y = 2 and X = 3 and reads X back (its buffer serves it);
 * t3 adds 2 to Y and swaps 4 into X; t1 swaps 1 into X; main swaps 5
 * into Y.  The sleep sets let t1's exchange sleep through t2's three
 * events (the load reads 3 wherever t1 runs), but Optimal-DPOR's
 * weak-initial test judged t2's load as a read of memory (by the updates
 * of the whole execution): the sequence "t2 t2 t2, t2's update of Y"
 * became a branch beside t1's, not under it; later reversals under t1
 * were taken as covered by that branch's leaf, whose exploration t1
 * slept through, and the 9 outcomes with main 4, t3 2 and t1 not 0 were
 * never run (63 executions, 51 outcomes, "complete"; fuzz-peers seed
 * 6226 as generated).  wakeup.c in_seq places the load where v runs it:
 * 72 executions under tso, the 72 classes GenMC v0.11, Nidhugg 0.4 and
 * Source-DPOR count.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// x86smc: --keep-going
// outcome sc tso pso: exit 0: main 0, t3 2 0, t1 3, t2 1
// outcome sc tso pso: exit 0: main 0, t3 2 0, t1 3, t2 3
// outcome sc tso pso: exit 0: main 0, t3 2 0, t1 4, t2 3
// outcome sc tso pso: exit 0: main 0, t3 2 1, t1 0, t2 3
// outcome sc tso pso: exit 0: main 0, t3 2 1, t1 3, t2 1
// outcome sc tso pso: exit 0: main 0, t3 2 1, t1 3, t2 3
// outcome sc tso pso: exit 0: main 0, t3 2 1, t1 3, t2 4
// outcome sc tso pso: exit 0: main 0, t3 2 3, t1 0, t2 3
// outcome sc tso pso: exit 0: main 0, t3 2 3, t1 0, t2 4
// outcome sc tso pso: exit 0: main 0, t3 2 3, t1 4, t2 1
// outcome sc tso pso: exit 0: main 0, t3 2 3, t1 4, t2 3
// outcome sc tso pso: exit 0: main 0, t3 2 3, t1 4, t2 4
// outcome sc tso pso: exit 0: main 0, t3 5 0, t1 3, t2 1
// outcome sc tso pso: exit 0: main 0, t3 5 0, t1 3, t2 3
// outcome sc tso pso: exit 0: main 0, t3 5 0, t1 4, t2 3
// outcome sc tso pso: exit 0: main 0, t3 5 1, t1 0, t2 3
// outcome sc tso pso: exit 0: main 0, t3 5 1, t1 3, t2 1
// outcome sc tso pso: exit 0: main 0, t3 5 1, t1 3, t2 3
// outcome sc tso pso: exit 0: main 0, t3 5 1, t1 3, t2 4
// outcome sc tso pso: exit 0: main 0, t3 5 3, t1 0, t2 3
// outcome sc tso pso: exit 0: main 0, t3 5 3, t1 0, t2 4
// outcome sc tso pso: exit 0: main 0, t3 5 3, t1 4, t2 1
// outcome sc tso pso: exit 0: main 0, t3 5 3, t1 4, t2 3
// outcome sc tso pso: exit 0: main 0, t3 5 3, t1 4, t2 4
// outcome sc tso pso: exit 0: main 2, t3 0 0, t1 3, t2 1
// outcome sc tso pso: exit 0: main 2, t3 0 0, t1 3, t2 3
// outcome sc tso pso: exit 0: main 2, t3 0 0, t1 4, t2 3
// outcome sc tso pso: exit 0: main 2, t3 0 1, t1 0, t2 3
// outcome sc tso pso: exit 0: main 2, t3 0 1, t1 3, t2 1
// outcome sc tso pso: exit 0: main 2, t3 0 1, t1 3, t2 3
// outcome sc tso pso: exit 0: main 2, t3 0 1, t1 3, t2 4
// outcome sc tso pso: exit 0: main 2, t3 0 3, t1 0, t2 3
// outcome sc tso pso: exit 0: main 2, t3 0 3, t1 0, t2 4
// outcome sc tso pso: exit 0: main 2, t3 0 3, t1 4, t2 1
// outcome sc tso pso: exit 0: main 2, t3 0 3, t1 4, t2 3
// outcome sc tso pso: exit 0: main 2, t3 0 3, t1 4, t2 4
// outcome sc tso pso: exit 0: main 2, t3 5 0, t1 3, t2 1
// outcome sc tso pso: exit 0: main 2, t3 5 0, t1 3, t2 3
// outcome sc tso pso: exit 0: main 2, t3 5 0, t1 4, t2 3
// outcome sc tso pso: exit 0: main 2, t3 5 1, t1 0, t2 3
// outcome sc tso pso: exit 0: main 2, t3 5 1, t1 3, t2 1
// outcome sc tso pso: exit 0: main 2, t3 5 1, t1 3, t2 3
// outcome sc tso pso: exit 0: main 2, t3 5 1, t1 3, t2 4
// outcome sc tso pso: exit 0: main 2, t3 5 3, t1 0, t2 3
// outcome sc tso pso: exit 0: main 2, t3 5 3, t1 0, t2 4
// outcome sc tso pso: exit 0: main 2, t3 5 3, t1 4, t2 1
// outcome sc tso pso: exit 0: main 2, t3 5 3, t1 4, t2 3
// outcome sc tso pso: exit 0: main 2, t3 5 3, t1 4, t2 4
// outcome sc tso pso: exit 0: main 4, t3 2 0, t1 3, t2 1
// outcome sc tso pso: exit 0: main 4, t3 2 0, t1 3, t2 3
// outcome sc tso pso: exit 0: main 4, t3 2 0, t1 4, t2 3
// outcome sc tso pso: exit 0: main 4, t3 2 1, t1 0, t2 3
// outcome sc tso pso: exit 0: main 4, t3 2 1, t1 3, t2 1
// outcome sc tso pso: exit 0: main 4, t3 2 1, t1 3, t2 3
// outcome sc tso pso: exit 0: main 4, t3 2 1, t1 3, t2 4
// outcome sc tso pso: exit 0: main 4, t3 2 3, t1 0, t2 3
// outcome sc tso pso: exit 0: main 4, t3 2 3, t1 0, t2 4
// outcome sc tso pso: exit 0: main 4, t3 2 3, t1 4, t2 1
// outcome sc tso pso: exit 0: main 4, t3 2 3, t1 4, t2 3
// outcome sc tso pso: exit 0: main 4, t3 2 3, t1 4, t2 4
#include <stdatomic.h>

#include "common.h"

#define PACK(a, b) ((void *)((long)(a) | (long)(b) << 16))
#define UNP(p, k) ((int)(((long)(p) >> (16 * (k))) & 0xffff))

static atomic_int X, Y;

static void *t1(void *arg)
{
	(void)arg;
	return PACK(atomic_exchange(&X, 1), 0);
}

static void *t2(void *arg)
{
	(void)arg;
	atomic_store_explicit(&Y, 2, memory_order_relaxed);
	atomic_store_explicit(&X, 3, memory_order_relaxed);
	return PACK(atomic_load_explicit(&X, memory_order_acquire), 0);
}

static void *t3(void *arg)
{
	int a, b;

	(void)arg;
	a = atomic_fetch_add(&Y, 2);
	b = atomic_exchange(&X, 4);
	return PACK(a, b);
}

int main(void)
{
	pthread_t a, b, c;
	void *ra, *rb, *rc;
	int m;

	xcreate(&a, t1, NULL);
	xcreate(&b, t2, NULL);
	xcreate(&c, t3, NULL);
	m = atomic_exchange(&Y, 5);
	pthread_join(c, &rc);
	pthread_join(a, &ra);
	pthread_join(b, &rb);
	printf("main %d, t3 %d %d, t1 %d, t2 %d\n", m, UNP(rc, 0), UNP(rc, 1),
	       UNP(ra, 0), UNP(rb, 0));
	return 0;
}
