/* nojoin_read.c — a thread writes x = 1; main reads x without joining it
 * and asserts it still reads 0.  The assertion fails when the thread's
 * store comes before main's load; by default main runs on and the thread
 * never gets to run at all before the process ends (issue 15, hole 1).
 */
// expect sc: assertion
// expect tso: assertion
// expect pso: assertion
#include "common.h"

static volatile int x;

static void *writer(void *arg)
{
	(void)arg;
	x = 1;
	return NULL;
}

int main(void)
{
	pthread_t t;

	xcreate(&t, writer, NULL);
	int r = x;
	assert(r == 0);
	return 0;
}
