/* local_spin.c — a thread copies the flag once and then spins on its own
 * copy: if it read 1, it never ends.  Its loop reads nothing shared, so
 * it has no event to stop at: x86smc interrupts it after 1 s of local
 * code, single-steps it, sees it come back to the same registers and
 * stack, and blocks it as spinning for ever (a livelock once main waits
 * for it) instead of hanging until --timeout (issue 18's SV-COMP dekker,
 * peterson, lamport ... did).  The same loop on the flag itself would
 * end.
 */
// expect sc: livelock
// expect tso: livelock
// expect pso: livelock
#include "common.h"

static volatile int flag = 1;

static void *spinner(void *arg)
{
	int copy = flag;

	(void)arg;
	while (copy != 0)
		__asm__ volatile("" ::: "memory");
	return NULL;
}

int main(void)
{
	pthread_t t;

	xcreate(&t, spinner, NULL);
	flag = 0;
	xjoin(t);
	return 0;
}
