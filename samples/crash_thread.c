/* crash_thread.c — a thread writes through a null pointer: SIGSEGV in a
 * non-main thread, in every interleaving.  The pointer is volatile so that
 * -O2 emits a real store to address 0 rather than a trap instruction.
 */
// expect sc: crash
// expect tso: crash
// expect pso: crash
#include "common.h"

static int *volatile target; /* NULL */

static void *worker(void *arg)
{
	*target = (int)(long)arg;
	return NULL;
}

int main(void)
{
	pthread_t t;

	xcreate(&t, worker, (void *)1);
	xjoin(t);
	printf("not reached\n");
	return 0;
}
