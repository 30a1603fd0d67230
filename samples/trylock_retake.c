/* trylock_retake.c — a worker takes the mutex, releases it, and takes it
 * again with pthread_mutex_trylock, assuming that the second take cannot
 * fail because "nobody else wants it this early".  Another thread's lock
 * can come between the unlock and the trylock: the trylock then fails
 * (EBUSY) and the assertion fires.
 *
 * The search must see the trylock itself as the start of the worker's
 * second critical section: a checker that moves the other thread's lock
 * only before the worker's first lock (the lock that began its earlier
 * section) never puts it between the two and reports 2 executions, no
 * error (x86smc before 2026-11-28).
 */
// expect sc: assertion
// expect tso: assertion
// expect pso: assertion
// outcome sc tso pso: exit 0: first 0, second 0
// outcome sc tso pso: exit 0: first 0, second 1
// outcome sc tso pso: exit 0: first 1, second 1
// outcome sc tso pso: signal SIGABRT:
#include "common.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int flag, first, second;

static void *worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	first = flag;
	pthread_mutex_unlock(&m);
	int r = pthread_mutex_trylock(&m);
	assert(r == 0); /* wrong: the other thread may hold it now */
	second = flag;
	pthread_mutex_unlock(&m);
	return NULL;
}

static void *setter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	flag = 1;
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t w, s;

	pthread_create(&w, NULL, worker, NULL);
	pthread_create(&s, NULL, setter, NULL);
	pthread_join(w, NULL);
	pthread_join(s, NULL);
	printf("first %d, second %d\n", first, second);
	return 0;
}
