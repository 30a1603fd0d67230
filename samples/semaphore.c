/* semaphore.c — unnamed POSIX semaphores: `mutex` (initial value 1) guards a
 * counter that 2 workers increment twice each; `done` (initial value 0) is
 * posted by each worker when it has finished, and main sem_waits it twice
 * before reading the counter — before pthread_join.  Also checks
 * sem_trywait on an empty semaphore and sem_getvalue.
 */
// x86smc: --max-executions 30
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include <errno.h>
#include <semaphore.h>
#include "common.h"

#define WORKERS 2
#define ROUNDS 2

static sem_t mutex, done;
static int counter;

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		sem_wait(&mutex);
		counter++;
		sem_post(&mutex);
	}
	sem_post(&done);
	return NULL;
}

int main(void)
{
	pthread_t t[WORKERS];
	int v;

	sem_init(&mutex, 0, 1);
	sem_init(&done, 0, 0);
	for (int i = 0; i < WORKERS; i++)
		xcreate(&t[i], worker, NULL);
	for (int i = 0; i < WORKERS; i++)
		while (sem_wait(&done) != 0)
			assert(errno == EINTR);
	sem_wait(&mutex);
	assert(counter == WORKERS * ROUNDS);
	sem_post(&mutex);
	assert(sem_trywait(&done) == -1 && errno == EAGAIN);
	for (int i = 0; i < WORKERS; i++)
		xjoin(t[i]);
	sem_getvalue(&mutex, &v);
	assert(v == 1);
	sem_destroy(&mutex);
	sem_destroy(&done);
	printf("counter = %d, mutex value = %d\n", counter, v);
	return 0;
}
