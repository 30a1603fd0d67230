/* lost_update.c — two threads each do x++ twice without a lock.  Each
 * increment is a separate load and store (volatile, written as two
 * statements so no compiler turns it into one `add` to memory), so an
 * interleaving where both load the same value loses an update and main's
 * assertion fails.  Natively this almost never shows: it needs
 * exploration.  When no update is lost the output is always "x = 4".
 */
// expect sc: assertion
// expect tso: assertion
// expect pso: assertion
#include "common.h"

#define ROUNDS 2

static volatile int x;

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		int v = x;
		x = v + 1;
	}
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	xcreate(&t1, worker, NULL);
	xcreate(&t2, worker, NULL);
	xjoin(t1);
	xjoin(t2);
	assert(x == 2 * ROUNDS);
	printf("x = %d\n", x);
	return 0;
}
