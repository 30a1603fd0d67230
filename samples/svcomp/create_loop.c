/* svcomp/create_loop.c — SV-COMP's pthread-ext shape: main creates
 * threads for ever (`while (1) pthread_create(...)`).  Each worker counts
 * its arrival inside __VERIFIER_atomic_begin/end, and the third to arrive
 * calls reach_error().  No execution ends, so the search is never
 * complete and "true" could not be answered; but a violation among the
 * first threads is a violation: the answer is false.  The thread that
 * calls pthread_create beyond the limit waits there and the workers run
 * (docs/EXPLORATION.md, "How many threads"); before, every execution was
 * cut at that call with no worker run, and the answer was unknown.
 */
// expect sc: verifier-error
// expect tso: verifier-error
// x86smc: --max-threads 4
// svcomp unreach-call: false
// svcomp unreach-call --max-threads 3: unknown
#include "../common.h"

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
__attribute__((noipa)) void __VERIFIER_atomic_begin(void) {}
__attribute__((noipa)) void __VERIFIER_atomic_end(void) {}
__attribute__((noipa, noreturn)) void reach_error(void) { abort(); }

static int arrived;

static void *worker(void *arg)
{
	__VERIFIER_atomic_begin();
	int n = ++arrived;
	__VERIFIER_atomic_end();
	if (n == 3)
		reach_error();
	return arg;
}

int main(void)
{
	pthread_t t;

	for (;;)
		xcreate(&t, worker, NULL);
}
