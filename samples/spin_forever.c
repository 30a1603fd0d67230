/* spin_forever.c — two threads spin on a flag that nobody ever sets.
 * The program can never make progress: x86smc reports a livelock naming
 * the spinning threads, where they spin and what they read (flag), after
 * one unchanged iteration of each loop instead of running to
 * --max-steps.
 */
// expect sc: livelock
// expect tso: livelock
// expect pso: livelock
#include "common.h"

static int flag;

static void *waiter(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&flag, __ATOMIC_ACQUIRE))
		__builtin_ia32_pause();
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	xcreate(&a, waiter, NULL);
	xcreate(&b, waiter, NULL);
	xjoin(a);
	xjoin(b);
	puts("unreachable");
	return 0;
}
