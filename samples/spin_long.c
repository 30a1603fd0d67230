/* spin_long.c — 2 threads each lock/increment/unlock a shared counter N
 * times (default 2; argv[1] overrides).  With the default it is a small
 * mutex test; tests/e2e runs it with a huge N to have a target that keeps
 * x86smc busy in the multi-threaded phase, then interrupts or kills x86smc
 * and checks that nothing is left behind.
 */
// x86smc: --max-executions 30
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "common.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long counter, rounds = 2;

static void *worker(void *arg)
{
	(void)arg;
	for (unsigned long i = 0; i < rounds; i++) {
		pthread_mutex_lock(&lock);
		counter++;
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];

	if (argc > 1)
		rounds = strtoul(argv[1], NULL, 0);
	for (int i = 0; i < 2; i++)
		xcreate(&t[i], worker, NULL);
	for (int i = 0; i < 2; i++)
		xjoin(t[i]);
	assert(counter == 2 * rounds);
	printf("counter = %lu\n", counter);
	return 0;
}
