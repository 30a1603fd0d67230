/* cas_fence.c — store buffering where t1's load is a compare-exchange
 * that fails.  On x86 `lock cmpxchg` is a full fence whether or not it
 * writes (Intel SDM 8.2.3.9: loads and stores are not reordered with
 * locked instructions), so t1's store Y = 1 is in memory before it reads
 * X, and r1 = r2 = 0 is impossible under sc, tso and pso.
 *
 *   t1: Y = 1; cas(X, 42, 7) (fails, r1 = X)    t2: X = 1; mfence; r2 = Y
 *
 * GenMC v0.11 --tso allows r1 = r2 = 0 (4 executions): its failed CAS is
 * a plain read of the LLVM model, which does not drain the buffer;
 * Nidhugg 0.4 --tso has x86smc's 3 (fuzz-peers seed 1697, docs/TESTING.md).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: r1=0 r2=1
// outcome sc tso pso: exit 0: r1=1 r2=1
// outcome sc tso pso: exit 0: r1=1 r2=0
#include "common.h"
#include <stdatomic.h>

static atomic_int X, Y;

static void *t1(void *arg)
{
	int e = 42;

	(void)arg;
	atomic_store_explicit(&Y, 1, memory_order_relaxed);
	atomic_compare_exchange_strong_explicit(&X, &e, 7, memory_order_relaxed,
						memory_order_relaxed);
	return (void *)(long)e;
}

static void *t2(void *arg)
{
	(void)arg;
	atomic_store_explicit(&X, 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_seq_cst);
	return (void *)(long)atomic_load_explicit(&Y, memory_order_relaxed);
}

int main(void)
{
	pthread_t a, b;
	void *r1, *r2;

	xcreate(&a, t1, NULL);
	xcreate(&b, t2, NULL);
	if (pthread_join(a, &r1) != 0 || pthread_join(b, &r2) != 0)
		return 99;
	printf("r1=%ld r2=%ld\n", (long)r1, (long)r2);
	return 0;
}
