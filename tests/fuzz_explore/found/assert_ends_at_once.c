/* found/assert_ends_at_once.c -- an assertion ends the execution as soon as
 * its thread reaches __assert_fail, with no scheduling point before it:
 * dpor AND exhaustive (both complete) miss what other threads do before
 * the abort.
 *
 * From fuzz_explore seed 116 (run.py --minimize, then by hand).  t1 sets
 * ACK and fails an assertion; t2 waits for ACK and writes one line.
 * Natively "t2\n" is printed before the abort in about 1 run in 4.
 *
 *   expected (native):  {"" / signal SIGABRT, "t2\n" / signal SIGABRT}
 *   got, sc tso pso, dpor (1-3 executions) and exhaustive (10, complete):
 *                       {"" / signal SIGABRT}
 *
 * Without ACK at all (t1 only asserts, t2 does not wait) both strategies
 * explore 1 execution and miss "t2\n" too.  New in ae3b325 ("an assertion
 * ends the execution at __assert_fail"), still in 857a208: with 62c5f49
 * exhaustive reaches "t2\n" (not complete in 3000 executions) while dpor
 * has one outcome (sc "", tso/pso "t2\n").
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
	while (!ACK)
		;
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
