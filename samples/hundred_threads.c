/* hundred_threads.c — 100 threads alive at once (101 with main), more
 * than the 32 logical threads x86smc held before 2026-11-28 (issue 17).
 * Each worker squares its own range into its own slot, so no two threads
 * share a written location; under tso and pso every worker's stores go
 * through its own store buffer (update threads up to 128 + 100).  The last
 * two workers also bump one shared counter without a lock: an increment
 * can be lost, and main's assertion catches it, but only in an
 * interleaving where worker 99 reads the counter between worker 98's load
 * and store (threads 99 and 100 in the trace).
 *
 * hundred_threads_ok.c is the same without the counter.
 */
// expect sc: assertion
// expect tso: assertion
// expect pso: assertion
#include "common.h"

#define THREADS 100
#define SPAN 3

static long partial[THREADS];
static volatile int shared;

static void *worker(void *arg)
{
	long id = (long)arg, s = 0;

	for (long k = id * SPAN; k < (id + 1) * SPAN; k++)
		s += k * k;
	partial[id] = s;
#ifndef NO_RACE
	if (id >= THREADS - 2) {
		int v = shared;
		shared = v + 1;
	}
#endif
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	long total = 0, n = THREADS * SPAN;

	for (long i = 0; i < THREADS; i++)
		xcreate(&t[i], worker, (void *)i);
	for (int i = 0; i < THREADS; i++) {
		xjoin(t[i]);
		total += partial[i];
	}
	assert(total == (n - 1) * n * (2 * n - 1) / 6);
#ifndef NO_RACE
	assert(shared == 2);
#endif
	printf("%d threads: sum of squares below %ld = %ld\n", THREADS, n,
	       total);
	return 0;
}
