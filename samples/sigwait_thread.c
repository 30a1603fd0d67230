/* sigwait_thread.c — a thread takes SIGUSR1 with sigwait() (blocked in
 * every thread's mask), another with sigtimedwait() and a 1 s timeout;
 * main sends both with pthread_kill.  x86smc keeps the signals it
 * emulates in its own queue, so it emulates the waits too
 * (rt_sigtimedwait, src/tracer/sys.c): before, the sigwait blocked in the
 * kernel for a signal that was never there and the search hung until
 * --timeout.  The timed wait can time out before main's signal comes
 * (EAGAIN): both outcomes, as on a machine that is slow enough.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: 10 12
// outcome sc tso pso: exit 0: 10 -1
#include "common.h"
#include <signal.h>
#include <time.h>

static sigset_t set1, set2;
static int got1, got2;

static void *waiter(void *arg)
{
	int sig = 0;

	(void)arg;
	if (sigwait(&set1, &sig) == 0)
		got1 = sig;
	return NULL;
}

static void *timed(void *arg)
{
	struct timespec ts = { 1, 0 };
	siginfo_t si;

	(void)arg;
	got2 = sigtimedwait(&set2, &si, &ts);
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	sigset_t both;

	sigemptyset(&set1);
	sigaddset(&set1, SIGUSR1);
	sigemptyset(&set2);
	sigaddset(&set2, SIGUSR2);
	sigemptyset(&both);
	sigaddset(&both, SIGUSR1);
	sigaddset(&both, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &both, NULL);
	xcreate(&a, waiter, NULL);
	xcreate(&b, timed, NULL);
	pthread_kill(a, SIGUSR1);
	pthread_kill(b, SIGUSR2);
	xjoin(a);
	xjoin(b);
	printf("%d %d\n", got1, got2);
	return 0;
}
