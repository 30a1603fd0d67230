/* rwlock_edeadlk.c — main holds the write lock and calls rdlock and
 * wrlock on it again: glibc returns EDEADLK to both (it knows the
 * caller is the writer) and the program goes on.  No deadlock: x86smc
 * before 2026-11-28 made the two calls wait for good and reported one
 * whenever another thread was alive.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: rdlock EDEADLK, wrlock EDEADLK
#include <errno.h>

#include "common.h"

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static int other;

static void *worker(void *arg)
{
	(void)arg;
	other = 1;
	return NULL;
}

static const char *name(int r)
{
	return r == EDEADLK ? "EDEADLK" : r == 0 ? "0" : "other";
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, worker, NULL);
	pthread_rwlock_wrlock(&rw);
	int a = pthread_rwlock_rdlock(&rw);
	int b = pthread_rwlock_wrlock(&rw);
	pthread_rwlock_unlock(&rw);
	pthread_join(t, NULL);
	printf("rdlock %s, wrlock %s\n", name(a), name(b));
	return 0;
}
