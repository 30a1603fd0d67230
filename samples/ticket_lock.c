/* ticket_lock.c — a ticket lock: lock xadd takes a ticket, the owner
 * spins until `serving` reaches it, and unlock is a plain store of
 * serving + 1.  Two threads, two increments each of a non-atomic counter.
 * Correct under SC and TSO; under PSO the store to `serving` may overtake
 * the counter's store and an increment is lost.
 */
// expect sc: ok
// expect tso: ok
// expect pso: assertion
#include "common.h"

static unsigned next, serving;
static int counter;

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++) {
		unsigned me = __atomic_fetch_add(&next, 1, __ATOMIC_ACQUIRE);
		while (__atomic_load_n(&serving, __ATOMIC_ACQUIRE) != me)
			__builtin_ia32_pause();
		int v = __atomic_load_n(&counter, __ATOMIC_RELAXED);
		__atomic_store_n(&counter, v + 1, __ATOMIC_RELAXED);
		__atomic_store_n(&serving, me + 1, __ATOMIC_RELEASE);
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
