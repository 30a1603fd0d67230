/* long_exec.c — make bench: one long execution (issue 16's target: the
 * cost per event at 1,000,000 events within 1.3x of that at 10,000).
 * main increments a shared int N times while a second thread, alive the
 * whole time, waits for main's flag: two events per iteration under sc.
 * Built -O1 and -O0 by tests/bench/run.sh. */
#include <pthread.h>
#include <stdlib.h>

static volatile int x;
static char pad[64]; /* the flag in another granule than x */
static volatile int stop;

static void *waiter(void *arg)
{
	(void)arg;
	while (!stop)
		;
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	pthread_t t;

	(void)pad;
	pthread_create(&t, NULL, waiter, NULL);
	for (int i = 0; i < n; i++)
		x++;
	stop = 1;
	pthread_join(t, NULL);
	return 0;
}
