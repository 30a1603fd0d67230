/* mutex_misuse.c — a thread unlocks a mutex that the other thread holds
 * (a normal mutex: undefined behaviour that glibc lets pass).  With
 * pthread calls as events (--sync calls), x86smc reports it as an error
 * of its own kind, misuse, in the interleaving where the owner holds the
 * lock at that moment; when it is free the unlock of a mutex that is not
 * locked is misuse too.
 */
// expect sc: misuse
// expect tso: misuse
// expect pso: misuse
#include "common.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int shared;

static void *owner(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	shared++;
	pthread_mutex_unlock(&m);
	return NULL;
}

static void *intruder(void *arg)
{
	(void)arg;
	pthread_mutex_unlock(&m); /* never locked it */
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	xcreate(&a, owner, NULL);
	xcreate(&b, intruder, NULL);
	xjoin(a);
	xjoin(b);
	printf("shared = %d\n", shared);
	return 0;
}
