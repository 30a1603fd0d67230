/* hello.c — a thread that asserts (its verdict is "assertion"): built as
 * PIE, non-PIE, static and stripped to show each works the same way. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static int x;

static void *worker(void *arg)
{
	x = 1;
	return arg;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, worker, NULL);
	int seen = x;
	pthread_join(t, NULL);
	printf("seen %d\n", seen);
	assert(seen == 1);
	return 0;
}
