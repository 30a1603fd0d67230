/* int80.c — a thread makes a 32-bit system call (int 0x80) that x86smc
 * cannot model. */
#include <pthread.h>

static void *worker(void *arg)
{
	long r;

	__asm__ volatile("int $0x80" : "=a"(r) : "a"(20L) : "memory"); /* getpid */
	return (void *)r;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	return 0;
}
