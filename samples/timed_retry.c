/* timed_retry.c — the right way to wait with a timeout: the consumer
 * re-checks the condition after every wake-up or timeout, so however
 * often its timed waits time out (issue 17: the search lets each of
 * them), it only goes on with the item.  A semaphore with sem_timedwait
 * and a mutex with pthread_mutex_timedlock retry the same way.
 * Each retry can time out again: the search explores executions where a
 * thread times out at most once while another could run (--max-timeouts
 * 1, the default) and says it is bounded (exit 3, "timeouts_not_explored"
 * in the JSON).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// x86smc: --max-timeouts 1
#include <errno.h>
#include <semaphore.h>
#include <time.h>
#include "common.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static sem_t done;
static int item, ready;

static void deadline(struct timespec *ts)
{
	clock_gettime(CLOCK_REALTIME, ts);
	ts->tv_sec += 1;
}

static void *producer(void *arg)
{
	struct timespec ts;

	(void)arg;
	deadline(&ts);
	while (pthread_mutex_timedlock(&m, &ts) == ETIMEDOUT)
		deadline(&ts);
	item = 42;
	ready = 1;
	pthread_cond_signal(&c);
	pthread_mutex_unlock(&m);
	sem_post(&done);
	return NULL;
}

int main(void)
{
	pthread_t p;
	struct timespec ts;

	sem_init(&done, 0, 0);
	xcreate(&p, producer, NULL);
	pthread_mutex_lock(&m);
	while (!ready) {
		deadline(&ts);
		pthread_cond_timedwait(&c, &m, &ts);
	}
	assert(item == 42);
	pthread_mutex_unlock(&m);
	deadline(&ts);
	while (sem_timedwait(&done, &ts) != 0)
		deadline(&ts);
	printf("got %d\n", item);
	xjoin(p);
	return 0;
}
