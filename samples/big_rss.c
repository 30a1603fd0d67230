/* big_rss.c — the cost of a fork snapshot grows with the target's
 * resident memory (page tables are copied).  main first fills MB
 * megabytes (argument 1, default 1) of heap, then two threads each add 1
 * to a shared counter ROUNDS times with a locked add (20 orders of the
 * six adds, 20 executions); main checks the sum.
 * make bench runs it at 1, 64 and 256 MB, with fork snapshots and
 * re-executing, to measure fork cost against re-execution.
 */
// args: 1
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include <string.h>

#include "common.h"

#define ROUNDS 3

static int counter;

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++)
		__atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

int main(int argc, char **argv)
{
	size_t mb = argc > 1 ? strtoul(argv[1], NULL, 10) : 1;
	char *heap = malloc(mb << 20);
	pthread_t t1, t2;

	if (!heap)
		return 99;
	memset(heap, 1, mb << 20); /* resident, not just reserved */
	xcreate(&t1, worker, NULL);
	xcreate(&t2, worker, NULL);
	xjoin(t1);
	xjoin(t2);
	assert(counter == 2 * ROUNDS);
	printf("counter = %d, %zu MB\n", counter, mb);
	return heap[mb << 19] == 1 ? 0 : 1;
}
