/* forever.c — never ends.  No argument: main loops before creating any
 * thread (x86smc runs it natively).  "threads": two threads increment a
 * shared counter forever (every execution is cut by --max-steps).
 * "local": a thread loops forever on its own stack (no visible event at
 * all).  Only --timeout / --max-steps end x86smc.  "assert": two threads
 * increment a counter 100 times without a lock and main asserts it is
 * 200: an error early, then more interleavings than anyone can explore
 * (for signals to an x86smc run with --keep-going). */
#include <assert.h>
#include <pthread.h>
#include <string.h>

static volatile long shared;

static void *bump(void *arg)
{
	for (;;)
		shared++;
	return arg;
}

static void *add100(void *arg)
{
	for (int i = 0; i < 100; i++)
		shared++;
	return arg;
}

static void *spin_local(void *arg)
{
	volatile long mine = 0;

	for (;;)
		mine++;
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t a, b;
	volatile long n = 0;

	if (argc < 2)
		for (;;)
			n++;
	if (strcmp(argv[1], "threads") == 0) {
		pthread_create(&a, NULL, bump, NULL);
		pthread_create(&b, NULL, bump, NULL);
	} else if (strcmp(argv[1], "assert") == 0) {
		pthread_create(&a, NULL, add100, NULL);
		pthread_create(&b, NULL, add100, NULL);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		assert(shared == 200);
		return 0;
	} else {
		pthread_create(&a, NULL, spin_local, NULL);
	}
	pthread_join(a, NULL);
	return 0;
}
