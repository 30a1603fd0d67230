/* many_threads.c — 40 threads each take a mutex once: more logical
 * threads than x86smc holds (32).  The execution is cut at the 32nd
 * pthread_create (exit 3, "cut when the program created more than 32
 * threads"), not refused as unsupported (exit 2) as before (issue 17). */
#include <pthread.h>
#include <stdio.h>

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
	pthread_t t[40];

	for (int i = 0; i < 40; i++)
		pthread_create(&t[i], NULL, work, NULL);
	for (int i = 0; i < 40; i++)
		pthread_join(t[i], NULL);
	printf("%d\n", n);
	return 0;
}
