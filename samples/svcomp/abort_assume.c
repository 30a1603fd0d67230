/* svcomp/abort_assume.c — abort() as an assumption, SV-COMP style.
 *
 * SV-COMP tasks write an assumption as `if (!c) abort();`
 * (assume_abort_if_not).  Here main creates a worker that sets `done`,
 * then "assumes" the worker already ran: when it has not, main aborts.
 * That path is infeasible for the property unreach-call, not a bug.  On
 * the paths that go on, main checks the worker's result and calls
 * reach_error() if it is wrong -- which it never is.  An input from
 * __VERIFIER_nondet_bool() chooses the value the worker adds: the whole
 * type (0, 1) is explored, so the answer can be "true".
 *
 * Without --property, abort() is an error of its own (kind assertion);
 * under --property unreach-call only reach_error() is, and the answer
 * is true.
 */
// expect sc: assertion
// expect tso: assertion
// svcomp unreach-call: true
#include "../common.h"

extern _Bool __VERIFIER_nondet_bool(void);
__attribute__((noipa)) _Bool __VERIFIER_nondet_bool(void) { return 0; }
__attribute__((noipa, noreturn)) void reach_error(void) { abort(); }

static void assume_abort_if_not(int c)
{
	if (!c)
		abort();
}

static int done, result, add;

static void *worker(void *arg)
{
	(void)arg;
	*(volatile int *)&result = 40 + *(volatile int *)&add;
	*(volatile int *)&done = 1;
	return NULL;
}

int main(void)
{
	pthread_t t;

	add = __VERIFIER_nondet_bool() ? 2 : 1;
	xcreate(&t, worker, NULL);
	assume_abort_if_not(*(volatile int *)&done == 1);
	if (*(volatile int *)&result != 40 + add)
		reach_error();
	xjoin(t);
	return 0;
}
