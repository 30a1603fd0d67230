/* barrier.c — 3 threads go through ROUNDS rounds of pthread_barrier_wait.
 * In each round every thread writes its slot, waits, checks that all slots
 * hold this round's values, and waits again before the next round
 * overwrites them.  Exactly one waiter per barrier phase gets
 * PTHREAD_BARRIER_SERIAL_THREAD.
 */
// x86smc: --max-executions 30
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "common.h"

#define THREADS 3
#define ROUNDS 3

static pthread_barrier_t bar;
static int slot[THREADS];
static int serial[THREADS];

static void wait_bar(int id)
{
	int r = pthread_barrier_wait(&bar);
	assert(r == 0 || r == PTHREAD_BARRIER_SERIAL_THREAD);
	if (r == PTHREAD_BARRIER_SERIAL_THREAD)
		serial[id]++;
}

static void *worker(void *arg)
{
	int id = (int)(long)arg;
	for (int round = 1; round <= ROUNDS; round++) {
		slot[id] = round * 10 + id;
		wait_bar(id);
		for (int j = 0; j < THREADS; j++)
			assert(slot[j] == round * 10 + j);
		wait_bar(id);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	int serials = 0;

	pthread_barrier_init(&bar, NULL, THREADS);
	for (long i = 0; i < THREADS; i++)
		xcreate(&t[i], worker, (void *)i);
	for (int i = 0; i < THREADS; i++) {
		xjoin(t[i]);
		serials += serial[i];
	}
	pthread_barrier_destroy(&bar);
	assert(serials == 2 * ROUNDS);
	printf("%d threads, %d rounds, %d serial waiters\n", THREADS, ROUNDS,
	       serials);
	return 0;
}
