/* timed_wait.c — a consumer waits for the producer's item with a 1 s
 * timeout, then assumes the item is there.  On a loaded machine the wait
 * does time out before the producer runs (issue 17): the timeout is a
 * possible outcome of every timed wait that blocks, so the search
 * explores it (--no-timeouts: only when no thread can run, and then the
 * assertion never fails here).
 */
// expect sc: assertion
// expect tso: assertion
// expect pso: assertion
// outcome sc tso pso: exit 0: got 42
// outcome sc tso pso: signal SIGABRT:
// x86smc: --keep-going
#include <errno.h>
#include <time.h>
#include "common.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int item, ready;

static void *producer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	item = 42;
	ready = 1;
	pthread_cond_signal(&c);
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t p;
	struct timespec ts;

	xcreate(&p, producer, NULL);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 1;
	pthread_mutex_lock(&m);
	if (!ready)
		pthread_cond_timedwait(&c, &m, &ts);
	assert(ready); /* wrong: the wait may have timed out */
	printf("got %d\n", item);
	pthread_mutex_unlock(&m);
	xjoin(p);
	return 0;
}
