/* sem_lock.c — a semaphore initialised to 1 used as a lock: t0 writes x
 * inside, t1 reads it inside.  Either can take the semaphore first, so t1
 * reads 0 or 1.  Then a third thread takes the semaphore and never posts:
 * whoever comes after it waits for good (a deadlock at main's join) --
 * unless it comes last.
 *
 * A wait that blocked until a post can take the unit before the wait
 * that took it last: x86smc before 2026-11-28 reversed the race of the
 * wait with the post only, where it could not run, and explored 1 order
 * (r=1 only, no deadlock).
 */
// expect sc: deadlock
// expect tso: deadlock
// expect pso: deadlock
// outcome sc tso pso: exit 0: r=0
// outcome sc tso pso: exit 0: r=1
// outcome sc tso pso: deadlock:
#include <semaphore.h>

#include "common.h"

static sem_t s;
static int x, r;

static void *writer(void *arg)
{
	sem_wait(&s);
	x = 1;
	sem_post(&s);
	return arg;
}

static void *reader(void *arg)
{
	sem_wait(&s);
	r = x;
	sem_post(&s);
	return arg;
}

static void *keeper(void *arg)
{
	sem_wait(&s); /* and no post */
	return arg;
}

int main(void)
{
	pthread_t h[3];

	sem_init(&s, 0, 1);
	pthread_create(&h[0], NULL, writer, NULL);
	pthread_create(&h[1], NULL, reader, NULL);
	pthread_create(&h[2], NULL, keeper, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(h[i], NULL);
	printf("r=%d\n", r);
	return 0;
}
