/* rwlock_writer_pref.c — a rwlock that prefers writers
 * (PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP): a reader that takes the
 * read lock twice deadlocks when a writer starts waiting between its two
 * rdlocks (the second waits behind the writer, the writer waits for the
 * first).  With the default kind the same program cannot deadlock.
 * x86smc explores such a lock as glibc's code; it took every rwlock as
 * the default kind before 2026-11-28 and reported 1 execution, no error.
 */
// expect sc: deadlock
// expect tso: deadlock
// expect pso: deadlock
#define _GNU_SOURCE
#include "common.h"

static pthread_rwlock_t rw;

static void *writer(void *arg)
{
	(void)arg;
	pthread_rwlock_wrlock(&rw);
	pthread_rwlock_unlock(&rw);
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	pthread_rwlock_rdlock(&rw);
	pthread_rwlock_rdlock(&rw); /* recursive: not with this kind */
	pthread_rwlock_unlock(&rw);
	pthread_rwlock_unlock(&rw);
	return NULL;
}

int main(void)
{
	pthread_rwlockattr_t attr;
	pthread_t r, w;

	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr,
			PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&rw, &attr);
	pthread_create(&r, NULL, reader, NULL);
	pthread_create(&w, NULL, writer, NULL);
	pthread_join(r, NULL);
	pthread_join(w, NULL);
	printf("done\n");
	return 0;
}
