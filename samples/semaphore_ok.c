/* semaphore_ok.c — a one-shot handoff through an unnamed POSIX semaphore
 * (initial value 0): the producer writes `data` and sem_posts; the consumer
 * sem_waits, then asserts it sees data == 42 (post/wait orders them on every
 * model).  Main prints "handed off 42" in every interleaving.  (semaphore.c
 * is the bigger one.)
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include <errno.h>
#include <semaphore.h>
#include "common.h"

static sem_t full;
static int data, got;

static void *producer(void *arg)
{
	(void)arg;
	data = 42;
	sem_post(&full);
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	while (sem_wait(&full) != 0)
		assert(errno == EINTR);
	got = data;
	assert(got == 42);
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	sem_init(&full, 0, 0);
	xcreate(&t1, consumer, NULL);
	xcreate(&t2, producer, NULL);
	xjoin(t1);
	xjoin(t2);
	sem_destroy(&full);
	printf("handed off %d\n", got);
	return 0;
}
