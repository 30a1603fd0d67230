/* condvar_pc.c — bounded-buffer producer/consumer: 2 producers put 3 items
 * each into a 2-slot ring, 2 consumers take 3 items each.  "not empty" is
 * signalled with pthread_cond_signal, "not full" with
 * pthread_cond_broadcast; every wait is in a while loop.
 *
 * Each consumer prints nothing; main prints the number of items and their
 * sum, which do not depend on who took what.
 */
// x86smc: --max-executions 30
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "common.h"

#define CAP 2
#define PRODUCERS 2
#define CONSUMERS 2
#ifndef ITEMS /* condvar_relock.c: 1 */
#define ITEMS 3 /* per producer and per consumer */
#endif

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
	/* producers 1 and 2 put 11,12,13 and 21,22,23: 102 in all (ITEMS
	 * 1: 11 and 21, 32) */
	assert(n == PRODUCERS * ITEMS &&
	       sum == 30 * ITEMS + 2 * ITEMS * (ITEMS + 1) / 2 && count == 0);
	printf("consumed %d items, sum %d\n", n, sum);
	return 0;
}
