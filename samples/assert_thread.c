/* assert_thread.c — a thread's assertion fails, in every interleaving: the
 * worker checks a value it computed against the wrong constant.  abort()
 * from a non-main thread; stdout stays empty (main prints nothing before).
 */
// expect sc: assertion
// expect tso: assertion
// expect pso: assertion
#include "common.h"

static int compute(int x)
{
	return x * 6;
}

static void *worker(void *arg)
{
	int got = compute((int)(long)arg);
	assert(got == 41); /* 7 * 6 is 42: always fails */
	return NULL;
}

int main(void)
{
	pthread_t t;

	xcreate(&t, worker, (void *)7);
	xjoin(t);
	printf("not reached\n");
	return 0;
}
