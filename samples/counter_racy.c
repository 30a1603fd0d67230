/* counter_racy.c — counter_mutex without the mutex: N threads each increment
 * a shared counter K times as a separate load, add and store (inline asm, so
 * that -O2 keeps one load and one store per increment and never merges them
 * into one `add` to memory or hoists them out of the loop).  N and K from
 * argv, default 2 and 2, N at most 8.  The program never fails (no assert):
 * what matters is how many different results and happens-before classes
 * the interleavings give.  Main prints "counter = C"; C < N*K means
 * updates were lost.  Counting the workers' accesses to `counter` under SC:
 *   N=2 K=1:  4 classes, C = 1 in 2, C = 2 in 2
 *   N=2 K=2: 34 classes, C = 2 in 12, C = 3 in 16, C = 4 in 6
 *   N=3 K=1: 36 classes, C = 1 in 12, C = 2 in 18, C = 3 in 6
 * TSO and PSO give the same sets of results.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// args: 2 2
#include "common.h"

#define MAXTHREADS 8

static int counter;
static int rounds = 2;

static void *worker(void *arg)
{
	int k = rounds;

	(void)arg;
	for (int i = 0; i < k; i++) {
		int v;
		__asm__ volatile("movl %1, %0" : "=r"(v) : "m"(counter) : "memory");
		v++;
		__asm__ volatile("movl %1, %0" : "=m"(counter) : "r"(v) : "memory");
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[MAXTHREADS];
	int n = 2;

	if (argc > 1)
		n = atoi(argv[1]);
	if (argc > 2)
		rounds = atoi(argv[2]);
	if (n < 1 || n > MAXTHREADS || rounds < 0) {
		fprintf(stderr, "usage: counter_racy [N 1..%d [K]]\n", MAXTHREADS);
		return 2;
	}
	for (int i = 0; i < n; i++)
		xcreate(&t[i], worker, NULL);
	for (int i = 0; i < n; i++)
		xjoin(t[i]);
	printf("counter = %d\n", counter);
	return 0;
}
