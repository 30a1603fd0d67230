/* malloc_threads.c — library calls under the atomic policy
 * (docs/LIBRARY.md).  Four threads each do 1000 malloc/free pairs on
 * blocks of their own (writing and checking a pattern in each) and print
 * one line.  Every malloc, free and printf is one step with abstract
 * accesses: the threads' calls commute (different blocks), the four
 * printf's race on stdout, so the executions are the orders of the four
 * lines.  Explored instruction by instruction (--no-atomic-call all)
 * every call is hundreds of events on malloc's arena and stdout's buffer,
 * and the exploration does not end.  The e2e verdict runs one execution
 * (--max-executions 1, ~3 s); without the bound x86smc explores the 24
 * orders of the four lines (docs/LIBRARY.md has the measurements).
 */
// expect sc: ok
// expect tso: ok
// x86smc: --max-executions 1
#include "common.h"
#include <string.h>

#define THREADS 4
#define PAIRS 1000

static void *worker(void *arg)
{
	int id = (int)(long)arg;
	unsigned sum = 0;

	for (int i = 0; i < PAIRS; i++) {
		unsigned char *p = malloc(16 + (size_t)(i % 64));
		if (!p)
			exit(98);
		memset(p, id + 1, 16);
		sum += p[i % 16];
		free(p);
	}
	assert(sum == (unsigned)(id + 1) * PAIRS);
	printf("thread %d: %d malloc/free pairs\n", id, PAIRS);
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];

	for (long i = 0; i < THREADS; i++)
		xcreate(&t[i], worker, (void *)i);
	for (int i = 0; i < THREADS; i++)
		xjoin(t[i]);
	return 0;
}
