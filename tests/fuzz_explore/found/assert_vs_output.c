/* found/assert_vs_output.c -- dpor explores only one order of one thread's
 * assertion failure and another thread's output (exhaustive sees both).
 *
 * From fuzz_explore seeds 116 and 107 (run.py --minimize, then by hand).
 * t1 stores to ACK (nobody reads it) and fails an assertion; t2 writes one
 * line.  Natively both orders happen.
 *
 *   expected (native; exhaustive, complete: 28 executions, 13 classes):
 *       {"" / signal SIGABRT, "t2\n" / signal SIGABRT}
 *   got, dpor, sc tso pso (1 execution):  {"" / signal SIGABRT}
 *
 * Wrong in 857a208 and ae3b325.  62c5f49: dpor also 1 execution (sc only
 * "", tso/pso only "t2\n").  Seed 107 shows the mirror image (dpor only
 * lets the other thread print before the abort); crash and exit(3)
 * against other threads' writes or main's exit-time flush are the same
 * family (run.py's ":end" findings, e.g. seeds 104, 1021).
 */
#include <assert.h>
#include <pthread.h>
#include <unistd.h>

static volatile int ACK;

static void *t1(void *a)
{
	(void)a;
	ACK = 1;
	assert(0);
	return 0;
}

static void *t2(void *a)
{
	(void)a;
	if (write(1, "t2\n", 3) < 0)
		_exit(9);
	return 0;
}

int main(void)
{
	pthread_t x, y;

	pthread_create(&x, 0, t1, 0);
	pthread_create(&y, 0, t2, 0);
	pthread_exit(0);
}
