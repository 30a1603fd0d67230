/* lock_kept.c — t0 takes the mutex and never gives it back; t1 takes it,
 * checks that t0 ran first, and releases it.  main joins t0 only and
 * returns: when t0 locks first, t1 waits until the process ends and its
 * check never runs.  When t1 locks first, the check fails.
 *
 * The execution where t0 locks first ends with t1 blocked on the mutex,
 * its lock call no event: the search must still try t1's lock before
 * t0's (x86smc before 2026-11-28 did not: 1 execution, "no error").
 */
// expect sc: assertion
// expect tso: assertion
// expect pso: assertion
// outcome sc tso pso: exit 0: done
// outcome sc tso pso: signal SIGABRT:
#include "common.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int t0_first;

static void *t0(void *arg)
{
	pthread_mutex_lock(&m);
	t0_first = 1;
	return arg; /* keeps the mutex */
}

static void *t1(void *arg)
{
	pthread_mutex_lock(&m);
	assert(t0_first);
	pthread_mutex_unlock(&m);
	return arg;
}

int main(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, t0, NULL);
	pthread_create(&b, NULL, t1, NULL);
	pthread_join(a, NULL);
	printf("done\n");
	return 0;
}
