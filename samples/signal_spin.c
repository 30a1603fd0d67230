/* signal_spin.c — a thread sends SIGUSR1 to main with pthread_kill;
 * main's handler sets `got`, and main waits for it with
 * `while (!got) sched_yield();`.  The spin loop reads a location nobody
 * but the handler writes: it must not be taken for a livelock while a
 * signal is pending for the spinning thread and not blocked (issue 15,
 * hole 2).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: got 1
#include <sched.h>
#include <signal.h>
#include "common.h"

static volatile sig_atomic_t got;
static pthread_t main_thread;

static void handler(int sig)
{
	(void)sig;
	got = 1;
}

static void *sender(void *arg)
{
	(void)arg;
	pthread_kill(main_thread, SIGUSR1);
	return NULL;
}

int main(void)
{
	pthread_t t;

	signal(SIGUSR1, handler);
	main_thread = pthread_self();
	xcreate(&t, sender, NULL);
	while (!got)
		sched_yield();
	xjoin(t);
	printf("got %d\n", (int)got);
	return 0;
}
