/* rwlock_tryread.c — a reader reads a value under the read lock, then
 * again if pthread_rwlock_tryrdlock gets the lock (9 when it does not:
 * the writer holds it); a writer sets the value once under the write
 * lock.  Four outcomes, no error: the try fails only when the writer's
 * lock comes between the reader's unlock and its try, which the search
 * reaches by moving the writer before the try (the reader's second
 * read-lock), not only before its first.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: 0 0
// outcome sc tso pso: exit 0: 0 1
// outcome sc tso pso: exit 0: 1 1
// outcome sc tso pso: exit 0: 0 9
#include "common.h"

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static int value, seen[2];

static void *reader(void *arg)
{
	(void)arg;
	pthread_rwlock_rdlock(&rw);
	seen[0] = value;
	pthread_rwlock_unlock(&rw);
	if (pthread_rwlock_tryrdlock(&rw) == 0) {
		seen[1] = value;
		pthread_rwlock_unlock(&rw);
	} else {
		seen[1] = 9;
	}
	return NULL;
}

static void *writer(void *arg)
{
	(void)arg;
	pthread_rwlock_wrlock(&rw);
	value = 1;
	pthread_rwlock_unlock(&rw);
	return NULL;
}

int main(void)
{
	pthread_t r, w;

	pthread_create(&r, NULL, reader, NULL);
	pthread_create(&w, NULL, writer, NULL);
	pthread_join(r, NULL);
	pthread_join(w, NULL);
	printf("%d %d\n", seen[0], seen[1]);
	return 0;
}
