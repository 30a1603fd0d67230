/* printf_threads.c — printf (of integers and doubles) from several threads.
 *
 * Part 1: every thread printf's the SAME line and fflush'es stdout.  Which
 * thread's fflush writes which bytes varies, but the bytes written in all
 * are THREADS copies of that line, whatever the interleaving.
 * Part 2: once all threads have finished part 1, they take turns (mutex +
 * condition variable + turn variable) to printf one line each, in thread
 * order, so the lines differ yet their order is fixed.
 */
// x86smc: --max-executions 30
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "common.h"

#define THREADS 3

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t turn_cv = PTHREAD_COND_INITIALIZER;
static int turn, hellos;

static void *worker(void *arg)
{
	int id = (int)(long)arg;
	double x = 1.0 / 3.0;

	printf("hello from a thread: %.6f\n", x * 3.0 - 0.5);
	fflush(stdout);

	pthread_mutex_lock(&lock);
	hellos++;
	pthread_cond_broadcast(&turn_cv);
	while (hellos < THREADS || turn != id)
		pthread_cond_wait(&turn_cv, &lock);
	printf("thread %d of %d: %.2f\n", id, THREADS, id * 1.25);
	fflush(stdout);
	turn++;
	pthread_cond_broadcast(&turn_cv);
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];

	for (long i = 0; i < THREADS; i++)
		xcreate(&t[i], worker, (void *)i);
	for (int i = 0; i < THREADS; i++)
		xjoin(t[i]);
	assert(turn == THREADS);
	printf("main: all %d threads printed\n", THREADS);
	return 0;
}
