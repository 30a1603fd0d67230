/* eight_threads.c — 8 threads alive at once, each summing the squares of
 * its own range into its own slot (no shared writes); main adds the slots.
 */
// x86smc: --max-executions 30
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "common.h"

#define THREADS 8
#define SPAN 4

static long partial[THREADS];

static void *worker(void *arg)
{
	long id = (long)arg, s = 0;
	for (long k = id * SPAN; k < (id + 1) * SPAN; k++)
		s += k * k;
	partial[id] = s;
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
	printf("%d threads: sum of squares below %ld = %ld\n", THREADS, n, total);
	return 0;
}
