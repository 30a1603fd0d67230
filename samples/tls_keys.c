/* tls_keys.c — two threads each create a pthread key, set their value
 * and read it back; main prints the two keys and whether each thread got
 * its value back.  pthread_key_create and _delete are one step each on
 * glibc's table of keys, pthread_setspecific one step on the thread's own
 * slot (docs/LIBRARY.md): the two creations are still explored in both
 * orders (the keys are 0 1 or 1 0), 2 executions instead of 8 through
 * glibc's code (`--no-atomic-call pthread_key_create --no-atomic-call
 * pthread_setspecific`: the same 2 outcomes).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: 0 1 1 1
// outcome sc tso pso: exit 0: 1 0 1 1
#include "common.h"

static pthread_key_t key[2];
static int val[2], got[2];

static void drop(void *p)
{
	(void)p;
}

static void *worker(void *arg)
{
	int i = (int)(long)arg;

	if (pthread_key_create(&key[i], drop))
		abort();
	pthread_setspecific(key[i], &val[i]);
	got[i] = pthread_getspecific(key[i]) == &val[i];
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%u %u %d %d\n", key[0], key[1], got[0], got[1]);
	return 0;
}
