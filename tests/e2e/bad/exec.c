/* exec.c — a thread, then exec of another program. */
#include <pthread.h>
#include <unistd.h>

static void *worker(void *arg)
{
	return arg;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	execl("/bin/true", "true", (char *)NULL);
	return 1;
}
