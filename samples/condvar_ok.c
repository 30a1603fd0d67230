/* condvar_ok.c — correct condition-variable use (compare lost_wakeup.c):
 * the waiter tests the predicate under the mutex, in a while loop, so a
 * signal sent before it waits is not lost and a spurious wake-up is
 * harmless.  The signaler publishes `data` and sets `ready` under the same
 * mutex.  Main prints "got 42" in every interleaving and on every model.
 */
// x86smc: --max-executions 30
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "common.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int ready, data, got;

static void *waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	while (!ready)
		pthread_cond_wait(&cond, &lock);
	got = data;
	pthread_mutex_unlock(&lock);
	assert(got == 42);
	return NULL;
}

static void *signaler(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	data = 42;
	ready = 1;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	xcreate(&t1, waiter, NULL);
	xcreate(&t2, signaler, NULL);
	xjoin(t1);
	xjoin(t2);
	printf("got %d\n", got);
	return 0;
}
