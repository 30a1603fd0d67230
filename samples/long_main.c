/* long_main.c — a long single-threaded prefix: main runs N loop iterations
 * (default 10^8; argv[1] overrides) before it creates 2 short threads.  The
 * empty asm makes the compiler keep every iteration at -O2, so this measures
 * that x86smc runs the prefix natively (at native speed) and only takes
 * over once the second thread exists.
 */
// x86smc: --max-executions 30
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "common.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int counter;

static void *worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	counter++;
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000000UL;
	unsigned long acc = 0;
	pthread_t t[2];

	for (unsigned long i = 0; i < n; i++) {
		acc += i;
		__asm__ volatile("" : "+r"(acc));
	}
	assert(acc == n * (n - 1) / 2);
	for (int i = 0; i < 2; i++)
		xcreate(&t[i], worker, NULL);
	for (int i = 0; i < 2; i++)
		xjoin(t[i]);
	assert(counter == 2);
	printf("%lu iterations, sum %lu, counter %d\n", n, acc, counter);
	return 0;
}
