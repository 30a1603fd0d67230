/* cancel_loop.c — main cancels a worker that loops on
 * pthread_testcancel() with a cleanup handler pushed (issue 17).  The
 * loop makes no event (it reads only its own thread descriptor): x86smc
 * used to run it for ever (87,618 events, no execution finished in
 * 120 s).  Now a loop of stop points without an event that comes back to
 * the same state is a spin on its own data: the thread waits, main's
 * pthread_cancel (SIGCANCEL) wakes it, the cleanup handler runs and the
 * join returns PTHREAD_CANCELED.  Not under pso: the unwinder's 16-byte
 * stores overlap buffered stores to two locations ("unsupported", exit 2).
 */
// expect sc: ok
// expect tso: ok
// outcome sc tso: exit 0: cleanup\ncanceled
#include "common.h"

static void cleanup(void *arg)
{
	(void)arg;
	puts("cleanup");
}

static void *worker(void *arg)
{
	pthread_cleanup_push(cleanup, NULL);
	for (;;)
		pthread_testcancel();
	pthread_cleanup_pop(0);
	return arg;
}

int main(void)
{
	pthread_t t;
	void *r;

	xcreate(&t, worker, NULL);
	pthread_cancel(t);
	pthread_join(t, &r);
	printf("%s\n", r == PTHREAD_CANCELED ? "canceled" : "returned");
	return 0;
}
