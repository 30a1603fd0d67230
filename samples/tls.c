/* tls.c — `__thread` variables: every thread has its own copy, initialised
 * from the TLS image (tls_counter starts at 7 in every thread).  Each thread
 * writes its copies, yields, and checks they were not disturbed; main checks
 * its own copy is untouched and that the threads' copies had distinct
 * addresses.
 */
// x86smc: --max-executions 30
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include <sched.h>
#include <string.h>
#include "common.h"

#define THREADS 3

static __thread int tls_counter = 7;
static __thread char tls_name[16];

struct result {
	int counter;
	char name[16];
	int *addr;
};
static struct result res[THREADS];

static void *worker(void *arg)
{
	int id = (int)(long)arg;

	assert(tls_counter == 7 && tls_name[0] == '\0');
	snprintf(tls_name, sizeof tls_name, "worker-%d", id);
	for (int i = 0; i <= id; i++)
		tls_counter += 10;
	sched_yield();
	assert(tls_counter == 7 + 10 * (id + 1));
	res[id].counter = tls_counter;
	memcpy(res[id].name, tls_name, sizeof tls_name);
	res[id].addr = &tls_counter;
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];

	snprintf(tls_name, sizeof tls_name, "main");
	for (long i = 0; i < THREADS; i++)
		xcreate(&t[i], worker, (void *)i);
	for (int i = 0; i < THREADS; i++)
		xjoin(t[i]);
	assert(tls_counter == 7 && strcmp(tls_name, "main") == 0);
	for (int i = 0; i < THREADS; i++) {
		assert(res[i].addr != &tls_counter);
		for (int j = 0; j < i; j++)
			assert(res[i].addr != res[j].addr);
		printf("%s: counter = %d\n", res[i].name, res[i].counter);
	}
	printf("%s: counter = %d\n", tls_name, tls_counter);
	return 0;
}
