/* rwlock.c — 2 writers each bump a pair (a, b) under the write lock, keeping
 * a == b; 2 readers check a == b twice each under the read lock (once via
 * pthread_rwlock_tryrdlock when it succeeds).  Main prints the final pair.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// x86smc: --max-executions 300
#include "common.h"

#define WRITERS 2
#define READERS 2

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static int a, b;

static void *writer(void *arg)
{
	(void)arg;
	pthread_rwlock_wrlock(&rw);
	a++;
	b++;
	pthread_rwlock_unlock(&rw);
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	pthread_rwlock_rdlock(&rw);
	assert(a == b);
	pthread_rwlock_unlock(&rw);
	if (pthread_rwlock_tryrdlock(&rw) == 0) {
		assert(a == b);
		pthread_rwlock_unlock(&rw);
	}
	return NULL;
}

int main(void)
{
	pthread_t w[WRITERS], r[READERS];

	for (int i = 0; i < READERS; i++)
		xcreate(&r[i], reader, NULL);
	for (int i = 0; i < WRITERS; i++)
		xcreate(&w[i], writer, NULL);
	for (int i = 0; i < WRITERS; i++)
		xjoin(w[i]);
	for (int i = 0; i < READERS; i++)
		xjoin(r[i]);
	assert(a == WRITERS && b == WRITERS);
	printf("a = %d, b = %d\n", a, b);
	return 0;
}
