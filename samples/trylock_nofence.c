/* trylock_nofence.c — a pthread_mutex_trylock that fails is no fence:
 * glibc's trylock reads the lock word with a plain load and returns EBUSY
 * without a locked instruction.  t1 stores x = 1 and tries the lock while
 * t0 holds it; t0 then unlocks and reads x.  Under tso and pso t1's store
 * can still be in its buffer: t0 reads 0 although t1's try failed
 * (r0=0 r1=9), which sc does not allow.  x86smc before 2026-11-28 took
 * every pthread call as a fence (only glibc's code, --sync instructions,
 * showed this outcome).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc: exit 0: r0=0 r1=1
// outcome sc: exit 0: r0=1 r1=1
// outcome sc: exit 0: r0=1 r1=9
// outcome tso pso: exit 0: r0=0 r1=1
// outcome tso pso: exit 0: r0=1 r1=1
// outcome tso pso: exit 0: r0=1 r1=9
// outcome tso pso: exit 0: r0=0 r1=9
#include "common.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int x, r0, r1;

static void *t0(void *arg)
{
	pthread_mutex_lock(&m);
	pthread_mutex_unlock(&m);
	r0 = x;
	return arg;
}

static void *t1(void *arg)
{
	x = 1;
	if (pthread_mutex_trylock(&m) == 0) {
		r1 = 1;
		pthread_mutex_unlock(&m);
	} else {
		r1 = 9;
	}
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
