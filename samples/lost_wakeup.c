/* lost_wakeup.c — a lost wake-up: the waiter tests `ready` WITHOUT holding
 * the mutex and, having seen 0, takes the mutex and waits once, with no
 * predicate loop under the lock.  If the signaler sets `ready` and signals
 * in the gap between the waiter's test and its pthread_cond_wait, nobody is
 * waiting yet, the signal is lost, and the waiter sleeps forever: main's
 * join never returns (deadlock).  In the interleavings where the waiter is
 * already waiting when the signal comes, or the signaler runs entirely
 * before the test, everything finishes and main prints "waiter done,
 * ready = 1".  Natively the gap is a few instructions, and main starts
 * the signaler 1 ms before the waiter: it practically never hangs.
 */
// expect sc: deadlock
// expect tso: deadlock
// expect pso: deadlock
#include <unistd.h>
#include "common.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static volatile int ready;

static void *waiter(void *arg)
{
	(void)arg;
	if (!ready) { /* BUG: tested outside the lock, and not re-tested */
		pthread_mutex_lock(&lock);
		pthread_cond_wait(&cond, &lock);
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static void *signaler(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	ready = 1;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	xcreate(&t2, signaler, NULL);
	/* Natively the signaler is done within this 1 ms, so the waiter then
	 * sees ready == 1 and native runs (practically) never hang.  Under
	 * x86smc nanosleep is only a yield: the explorer may still hold the
	 * signaler back and run it inside the waiter's gap. */
	usleep(1000);
	xcreate(&t1, waiter, NULL);
	xjoin(t1);
	xjoin(t2);
	printf("waiter done, ready = %d\n", ready);
	return 0;
}
