/* many_threads.c — 140 threads each take a mutex once: more logical
 * threads than x86smc holds (128; 32 before 2026-11-28).  The execution
 * is cut at the 128th pthread_create (exit 3, "cut when the program
 * created more than 128 threads"), not refused as unsupported (exit 2) as
 * before (issue 17); --max-threads cuts it earlier. */
#include <pthread.h>
#include <stdio.h>

#define THREADS 140

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int n;

static void *work(void *arg)
{
	pthread_mutex_lock(&m);
	n++;
	pthread_mutex_unlock(&m);
	return arg;
}

int main(void)
{
	pthread_t t[THREADS];

	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, work, NULL);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	printf("%d\n", n);
	return 0;
}
