/* seqlock.c — a sequence lock: the writer makes the sequence number odd
 * (1), writes a pair (x, y) = (1, 1), and makes it even again (2); the reader
 * retries until it read an even, unchanged sequence number around its
 * reads, and asserts x == y.  Plain loads and stores with compiler
 * barriers: correct on x86 (TSO keeps stores in order and loads in
 * order).  Under PSO the writer's stores may reach memory out of order:
 * the reader can see the final even number with a half-written pair.
 */
// expect sc: ok
// expect tso: ok
// expect pso: assertion
#include "common.h"

static unsigned seq;
static int x, y;

#define BARRIER() __asm__ volatile("" ::: "memory")

static void *writer(void *arg)
{
	(void)arg;
	__atomic_store_n(&seq, 1, __ATOMIC_RELAXED);
	BARRIER();
	__atomic_store_n(&x, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&y, 1, __ATOMIC_RELAXED);
	BARRIER();
	__atomic_store_n(&seq, 2, __ATOMIC_RELAXED);
	return NULL;
}

static void *reader(void *arg)
{
	unsigned s0, s1;
	int a, b;

	(void)arg;
	do {
		s0 = __atomic_load_n(&seq, __ATOMIC_RELAXED);
		BARRIER();
		a = __atomic_load_n(&x, __ATOMIC_RELAXED);
		b = __atomic_load_n(&y, __ATOMIC_RELAXED);
		BARRIER();
		s1 = __atomic_load_n(&seq, __ATOMIC_RELAXED);
	} while ((s0 & 1) || s0 != s1);
	assert(a == b);
	return NULL;
}

int main(void)
{
	pthread_t w, r;

	xcreate(&r, reader, NULL);
	xcreate(&w, writer, NULL);
	xjoin(r);
	xjoin(w);
	printf("x = %d, y = %d\n", x, y);
	return 0;
}
