/* counter_mutex.c — N threads each add 1 to a shared counter K times under
 * one pthread mutex (N and K from argv, default 2 and 2, N at most 8).  The
 * mutex makes each increment atomic: main asserts counter == N*K and prints
 * "counter = N*K" in every interleaving and on every model.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// args: 2 1
#include "common.h"

#define MAXTHREADS 8

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int counter;
static int rounds = 2;

static void *worker(void *arg)
{
	int k = rounds;

	(void)arg;
	for (int i = 0; i < k; i++) {
		pthread_mutex_lock(&lock);
		counter++;
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[MAXTHREADS];
	int n = 2;

	if (argc > 1)
		n = atoi(argv[1]);
	if (argc > 2)
		rounds = atoi(argv[2]);
	if (n < 1 || n > MAXTHREADS || rounds < 0) {
		fprintf(stderr, "usage: counter_mutex [N 1..%d [K]]\n", MAXTHREADS);
		return 2;
	}
	for (int i = 0; i < n; i++)
		xcreate(&t[i], worker, NULL);
	for (int i = 0; i < n; i++)
		xjoin(t[i]);
	assert(counter == n * rounds);
	printf("counter = %d\n", counter);
	return 0;
}
