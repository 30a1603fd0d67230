/* found/optimal_tso_lost_class4.c -- fuzz-peers seed 6226 (2026-11-28,
 * peers.py --seeds 6200..6299 at 471b2e5; the same at ef85c3d): a class
 * that Optimal-DPOR's wakeup trees lose under tso, the default there.
 *
 * t2 buffers Y = 2 and X = 3 and reads X; t3 adds 2 to Y and swaps 4
 * into X; t1 swaps 1 into X; main swaps 5 into Y.  When t2's Y = 2
 * reaches memory before t3's add and main's swap (main reads 4), every
 * order of the three writes of X is possible, with t2 reading X before
 * or after its own X = 3 left the buffer.
 *
 *   x86smc --model tso (dpor = optimal):  63 executions, 51 outcomes
 *   x86smc --model tso --strategy source: 72 (+ 14 blocked), 60 outcomes
 *   GenMC v0.11 --tso, Nidhugg 0.4 --tso: 72;  x86smc --model sc: 72, 60
 *
 * The 9 outcomes lost are those with main 4, t3 2 and t1 not 0.  Cause:
 * the weak-initial test judged t2's buffered load of X as a read of
 * memory on v's side (where the sleep sets had let t1 sleep through it),
 * so "t2 t2 t2, update of Y" became a branch beside t1's whose leaf then
 * covered reversals it never ran.  Fixed by wakeup.c in_seq (2026-11-28):
 * 72 executions, 60 outcomes; samples/wakeup_tso_bufread.c is this
 * program, docs/EXPLORATION.md "The same on v's side".
 */
#include <stdatomic.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void xcreate(pthread_t *t, void *(*f)(void *), void *a)
{
	if (pthread_create(t, NULL, f, a))
		exit(99);
}

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
