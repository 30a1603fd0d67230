/* barrier_ok.c — one round of pthread_barrier_wait for 2 threads: each writes
 * its own slot, waits, then asserts it sees the other thread's write (the
 * barrier orders the write before the read on every model).  Exactly one of
 * the two gets PTHREAD_BARRIER_SERIAL_THREAD.  Main prints "slots 1 2,
 * 1 serial waiter" in every interleaving.  (barrier.c does 3 threads and
 * several rounds.)
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "common.h"

#define THREADS 2

static pthread_barrier_t bar;
static int slot[THREADS];
static int serial[THREADS];

static void *worker(void *arg)
{
	int id = (int)(long)arg;

	slot[id] = id + 1;
	int r = pthread_barrier_wait(&bar);
	assert(r == 0 || r == PTHREAD_BARRIER_SERIAL_THREAD);
	serial[id] = (r == PTHREAD_BARRIER_SERIAL_THREAD);
	assert(slot[1 - id] == 2 - id);
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];

	pthread_barrier_init(&bar, NULL, THREADS);
	for (long i = 0; i < THREADS; i++)
		xcreate(&t[i], worker, (void *)i);
	for (int i = 0; i < THREADS; i++)
		xjoin(t[i]);
	pthread_barrier_destroy(&bar);
	assert(serial[0] + serial[1] == 1);
	printf("slots %d %d, %d serial waiter\n", slot[0], slot[1],
	       serial[0] + serial[1]);
	return 0;
}
