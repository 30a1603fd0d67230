/* spin_tas.c — a test-and-test-and-set spin lock (xchg to take it, a plain
 * store to release it, as on x86) around a non-atomic counter increment.
 * Two threads, two increments each.  The lock is correct under SC and
 * TSO (xchg is a full barrier, and a release store cannot overtake the
 * critical section's stores).  Under PSO the releasing store may reach
 * memory before the counter's: the next owner reads a stale counter and
 * an increment is lost.
 */
// expect sc: ok
// expect tso: ok
// expect pso: assertion
#include "common.h"

static int lock, counter;

static void acquire(void)
{
	for (;;) {
		while (__atomic_load_n(&lock, __ATOMIC_RELAXED))
			__builtin_ia32_pause();
		if (!__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE))
			return;
	}
}

static void release(void)
{
	__atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++) {
		acquire();
		int v = __atomic_load_n(&counter, __ATOMIC_RELAXED);
		__atomic_store_n(&counter, v + 1, __ATOMIC_RELAXED);
		release();
	}
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	xcreate(&a, worker, NULL);
	xcreate(&b, worker, NULL);
	xjoin(a);
	xjoin(b);
	assert(counter == 4);
	printf("counter = %d\n", counter);
	return 0;
}
