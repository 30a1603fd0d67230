/* condvar_relock.c — condvar_pc.c cut down (2 producers, 2 consumers, one
 * item each, a 2-slot ring): a consumer's pthread_cond_wait returns by
 * locking the mutex again, after another thread's unlock.  That relock
 * races with the lock that began the other critical section -- unless
 * the consumer was woken by a signal sent inside that very section: then
 * it happens after that lock through the wake-up, and moved before it,
 * it could not run (dpor.c race_target).  Reversed anyway, each such
 * branch ended sleep-set blocked under tso: 48 executions + 16 blocked,
 * now 48 + 0 (tests/e2e/counts.txt).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: consumed 2 items, sum 32
#include "common.h"

#define CAP 2
#define PRODUCERS 2
#define CONSUMERS 2
#define ITEMS 1 /* per producer and per consumer */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
static int ring[CAP], head, count;
static int taken_sum[CONSUMERS], taken_n[CONSUMERS];

static void put(int v)
{
	pthread_mutex_lock(&lock);
	while (count == CAP)
		pthread_cond_wait(&not_full, &lock);
	ring[(head + count) % CAP] = v;
	count++;
	pthread_cond_signal(&not_empty);
	pthread_mutex_unlock(&lock);
}

static int take(void)
{
	pthread_mutex_lock(&lock);
	while (count == 0)
		pthread_cond_wait(&not_empty, &lock);
	int v = ring[head];
	head = (head + 1) % CAP;
	count--;
	pthread_cond_broadcast(&not_full);
	pthread_mutex_unlock(&lock);
	return v;
}

static void *producer(void *arg)
{
	int id = (int)(long)arg;
	for (int i = 1; i <= ITEMS; i++)
		put(id * 10 + i);
	return NULL;
}

static void *consumer(void *arg)
{
	int id = (int)(long)arg;
	for (int i = 0; i < ITEMS; i++) {
		int v = take();
		assert(v % 10 >= 1 && v % 10 <= ITEMS);
		taken_sum[id] += v;
		taken_n[id]++;
	}
	return NULL;
}

int main(void)
{
	pthread_t p[PRODUCERS], c[CONSUMERS];
	int n = 0, sum = 0;

	for (long i = 0; i < CONSUMERS; i++)
		xcreate(&c[i], consumer, (void *)i);
	for (long i = 0; i < PRODUCERS; i++)
		xcreate(&p[i], producer, (void *)(i + 1));
	for (int i = 0; i < PRODUCERS; i++)
		xjoin(p[i]);
	for (int i = 0; i < CONSUMERS; i++) {
		xjoin(c[i]);
		n += taken_n[i];
		sum += taken_sum[i];
	}
	/* producers 1 and 2 put 11 and 21: 32 in all */
	assert(n == PRODUCERS * ITEMS && sum == 32 && count == 0);
	printf("consumed %d items, sum %d\n", n, sum);
	return 0;
}
