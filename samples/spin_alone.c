/* spin_alone.c — main waits for a flag that its worker should have set
 * but did not: once the worker has exited, main is the only thread left
 * and spins forever.  A lone thread runs natively (no stops), so x86smc
 * stops it after 2 s and watches it for a while under control: the spin
 * is seen as a wait nobody can end, reported as a livelock naming main,
 * its loop and the flag (instead of running until --timeout).
 */
// expect sc: livelock
// expect tso: livelock
// expect pso: livelock
#include "common.h"

static int flag, other;

static void *worker(void *arg)
{
	(void)arg;
	__atomic_store_n(&other, 1, __ATOMIC_RELEASE); /* the wrong flag */
	return NULL;
}

int main(void)
{
	pthread_t w;

	xcreate(&w, worker, NULL);
	xjoin(w);
	while (!__atomic_load_n(&flag, __ATOMIC_ACQUIRE))
		;
	puts("unreachable");
	return 0;
}
