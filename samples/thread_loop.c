/* thread_loop.c — main creates threads for ever (`while (1)
 * pthread_create(...)`, the shape of SV-COMP's pthread-ext tasks); each
 * worker counts its arrival under a mutex, and the third to arrive fails
 * its assertion.  No execution of this program ends, so no search of it
 * is complete; what x86smc can say is what the first threads do.  The
 * pthread_create beyond --max-threads holds main there for good and the
 * threads it made run on (docs/EXPLORATION.md, "How many threads"):
 * with 4 threads (main and 3 workers) the third arrival is reached.
 * Before, the execution was cut at that pthread_create and no worker had
 * run: "not complete" after 1 execution, the bug never seen.
 */
// x86smc: --max-threads 4
// expect sc: assertion
// expect tso: assertion
// expect pso: assertion
#include "common.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int arrived;

static void *worker(void *arg)
{
	pthread_mutex_lock(&m);
	int n = ++arrived;
	pthread_mutex_unlock(&m);
	assert(n < 3);
	return arg;
}

int main(void)
{
	pthread_t t;

	for (;;)
		xcreate(&t, worker, NULL);
}
