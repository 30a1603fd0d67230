/* svcomp/livelock.c — a path that never ends is not a violation.
 *
 * The waiter spins until `go` is set; main sets it only when an input
 * says so.  When it does not, the waiter spins forever: x86smc reports a
 * livelock (its threads can only spin).  For the property unreach-call
 * such a path simply never reaches reach_error(): it ends the path.  On
 * the other paths the waiter checks `data`, which main wrote before
 * `go`: reach_error() is unreachable, the answer is true.
 */
// expect sc: livelock
// svcomp unreach-call: true
#include "../common.h"

extern _Bool __VERIFIER_nondet_bool(void);
__attribute__((noipa)) _Bool __VERIFIER_nondet_bool(void) { return 0; }
__attribute__((noipa, noreturn)) void reach_error(void) { abort(); }

static int go, data;

static void *waiter(void *arg)
{
	(void)arg;
	while (!*(volatile int *)&go)
		;
	if (*(volatile int *)&data != 7)
		reach_error();
	return NULL;
}

int main(void)
{
	pthread_t t;

	xcreate(&t, waiter, NULL);
	if (__VERIFIER_nondet_bool()) {
		*(volatile int *)&data = 7;
		*(volatile int *)&go = 1;
	}
	xjoin(t);
	return 0;
}
