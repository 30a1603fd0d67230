/* spin_flag.c — message passing with a spin-wait: a producer writes data,
 * then raises a flag; the consumer spins until it sees the flag, then
 * asserts the data is there.  The flag is polled with a plain load and a
 * pause, as in real code.
 *
 * x86smc turns the spin into a wait (docs/EVENTS.md, "Spin loops"): the
 * consumer is blocked after one unchanged iteration until the flag's
 * value changes, so every execution is finite.
 * SC and TSO keep the producer's two stores in order: ok.  PSO lets the
 * flag reach memory before the data: assertion.
 */
// expect sc: ok
// expect tso: ok
// expect pso: assertion
#include "common.h"

static int data, flag;

static void *producer(void *arg)
{
	(void)arg;
	__atomic_store_n(&data, 42, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&flag, 1, __ATOMIC_RELAXED);
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&flag, __ATOMIC_RELAXED))
		__builtin_ia32_pause();
	assert(__atomic_load_n(&data, __ATOMIC_RELAXED) == 42);
	return NULL;
}

int main(void)
{
	pthread_t p, c;

	xcreate(&c, consumer, NULL);
	xcreate(&p, producer, NULL);
	xjoin(c);
	xjoin(p);
	printf("data = %d\n", data);
	return 0;
}
