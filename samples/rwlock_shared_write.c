/* rwlock_shared_write.c — two readers each bump a counter while holding
 * only the read lock: the classic misuse of a rwlock.  Both can hold the
 * read lock at once, so their increments can interleave and one be lost
 * (2 -> 1), under every model.  A checker that takes a reader's lock as
 * waiting for the other reader's unlock (as a mutex lock would) never
 * overlaps the two sections and calls this program correct.
 */
// expect sc: assertion
// expect tso: assertion
// expect pso: assertion
// outcome sc tso pso: exit 0: hits 2
// outcome sc tso pso: signal SIGABRT:
#include "common.h"

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
/* volatile: a load and a store at -O2 too.  `hits++` there is one `add`
 * to memory, which the sc model runs as one step (an instruction is
 * atomic under sc; under tso and pso its store is buffered, and the
 * update is lost all the same). */
static volatile int hits;

static void *reader(void *arg)
{
	(void)arg;
	pthread_rwlock_rdlock(&rw);
	int seen = hits;
	hits = seen + 1; /* a write under the read lock */
	pthread_rwlock_unlock(&rw);
	return NULL;
}

int main(void)
{
	pthread_t r1, r2;

	pthread_create(&r1, NULL, reader, NULL);
	pthread_create(&r2, NULL, reader, NULL);
	pthread_join(r1, NULL);
	pthread_join(r2, NULL);
	assert(hits == 2);
	printf("hits %d\n", hits);
	return 0;
}
