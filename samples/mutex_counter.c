/* mutex_counter.c — THREADS threads each add to a shared counter ROUNDS
 * times under one pthread mutex; main checks and prints the total.
 *
 * The mutex makes every increment atomic, so the total is the same in every
 * interleaving and on every memory model.
 */
// x86smc: --max-executions 30
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "common.h"

#define THREADS 3
#define ROUNDS 2

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int counter;

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		pthread_mutex_lock(&lock);
		counter++;
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];

	for (int i = 0; i < THREADS; i++)
		xcreate(&t[i], worker, NULL);
	for (int i = 0; i < THREADS; i++)
		xjoin(t[i]);
	assert(counter == THREADS * ROUNDS);
	printf("counter = %d\n", counter);
	return 0;
}
