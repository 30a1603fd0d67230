/* condvar_wrong_waiter.c — two threads wait on one condition variable
 * for different things (each its own flag); main sets the first flag and
 * calls pthread_cond_signal, meaning to wake the first waiter.  POSIX
 * lets the signal wake either waiter: when it wakes the second, that one
 * sees its flag still 0 and waits again, the first is never woken, and
 * main's join waits for good.  The fix is pthread_cond_broadcast (or one
 * condvar per flag).  A checker that always wakes the oldest waiter
 * never sees it.
 */
// expect sc: deadlock
// expect tso: deadlock
// expect pso: deadlock
// outcome sc tso pso: exit 0: ok
// outcome sc tso pso: deadlock:
#include "common.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static pthread_cond_t arrived = PTHREAD_COND_INITIALIZER;
static int flag[2], waiting;

static void *waiter(void *arg)
{
	int id = (int)(long)arg;

	pthread_mutex_lock(&m);
	waiting++;
	pthread_cond_signal(&arrived);
	while (!flag[id])
		pthread_cond_wait(&c, &m);
	pthread_mutex_unlock(&m);
	return NULL;
}

static void wait_for(int n)
{
	pthread_mutex_lock(&m);
	while (waiting < n)
		pthread_cond_wait(&arrived, &m);
	pthread_mutex_unlock(&m);
}

static void set(int id)
{
	pthread_mutex_lock(&m);
	flag[id] = 1;
	pthread_cond_signal(&c); /* wrong: the other may get it */
	pthread_mutex_unlock(&m);
}

int main(void)
{
	pthread_t first, second;

	pthread_create(&first, NULL, waiter, (void *)0);
	wait_for(1);
	pthread_create(&second, NULL, waiter, (void *)1);
	wait_for(2);
	set(0);
	pthread_join(first, NULL);
	set(1);
	pthread_join(second, NULL);
	printf("ok\n");
	return 0;
}
