/* lock_order.c — ABBA lock-order inversion: one thread takes A then B, the
 * other B then A.  Most interleavings finish (and print the same line); the
 * one where each thread holds its first lock and waits for its second
 * deadlocks.  Natively it almost never hangs: finding it needs exploration.
 */
// expect sc: deadlock
// expect tso: deadlock
// expect pso: deadlock
#include "common.h"

static pthread_mutex_t A = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t B = PTHREAD_MUTEX_INITIALIZER;
static int shared;

static void *ab(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&A);
	pthread_mutex_lock(&B);
	shared++;
	pthread_mutex_unlock(&B);
	pthread_mutex_unlock(&A);
	return NULL;
}

static void *ba(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&B);
	pthread_mutex_lock(&A);
	shared++;
	pthread_mutex_unlock(&A);
	pthread_mutex_unlock(&B);
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	xcreate(&t1, ab, NULL);
	xcreate(&t2, ba, NULL);
	xjoin(t1);
	xjoin(t2);
	assert(shared == 2);
	printf("no deadlock this time, shared = %d\n", shared);
	return 0;
}
