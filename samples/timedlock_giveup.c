/* timedlock_giveup.c — t0 reads x, then waits for the mutex with a
 * deadline (2096: whether it times out first is the search's choice);
 * t1 writes x inside the mutex.  t0 can give up while t1 is inside the
 * critical section after seeing its write: r0=2 r1=9.  The lock rule
 * moves a lock that waited for an unlock before the other thread's lock;
 * a timed lock must also keep its race with the unlock, where it waits
 * and gives up (x86smc before 2026-11-28: 3 of the 4 outcomes).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: r0=0 r1=1
// outcome sc tso pso: exit 0: r0=0 r1=9
// outcome sc tso pso: exit 0: r0=2 r1=1
// outcome sc tso pso: exit 0: r0=2 r1=9
#include <time.h>

#include "common.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static const struct timespec late = { 4000000000, 0 };
static int x, r0, r1;

static void *t0(void *arg)
{
	r0 = x;
	r1 = pthread_mutex_timedlock(&m, &late) == 0 ? 1 : 9;
	if (r1 == 1)
		pthread_mutex_unlock(&m);
	return arg;
}

static void *t1(void *arg)
{
	pthread_mutex_lock(&m);
	x = 2;
	pthread_mutex_unlock(&m);
	return arg;
}

int main(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, t0, NULL);
	pthread_create(&b, NULL, t1, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("r0=%d r1=%d\n", r0, r1);
	return 0;
}
