/* sem_trywait_mix.c — one unit, two takers: t0 with sem_wait (an event
 * of its own), t1 with sem_trywait (glibc's code, a lock cmpxchg on the
 * value).  Whoever comes second gets nothing: t1's try fails (9), or t0
 * waits for good (a deadlock at main's join).  The value is never
 * negative.  Before 2026-11-28 t0's wait, decided before t1's cmpxchg,
 * was not looked at again: both took the unit, value -1.
 */
// expect sc: deadlock
// expect tso: deadlock
// expect pso: deadlock
// outcome sc tso pso: exit 0: r=9 value=0
// outcome sc tso pso: deadlock:
#include <semaphore.h>

#include "common.h"

static sem_t s;
static int r;

static void *t0(void *arg)
{
	sem_wait(&s);
	return arg;
}

static void *t1(void *arg)
{
	r = sem_trywait(&s) == 0 ? 1 : 9;
	return arg;
}

int main(void)
{
	pthread_t a, b;
	int v;

	sem_init(&s, 0, 1);
	pthread_create(&a, NULL, t0, NULL);
	pthread_create(&b, NULL, t1, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	sem_getvalue(&s, &v);
	printf("r=%d value=%d\n", r, v);
	return 0;
}
