/* svcomp/nondet_domain.c — "no violation" that rests on a small input
 * domain is not "true".
 *
 * A worker adds an input n = __VERIFIER_nondet_int() to a counter that
 * main also increments; reach_error() needs n >= 5 and main's increment
 * to come first.  With the default --nondet-domain 0..1 no explored
 * execution reaches it, but an int has other values: the answer is
 * unknown, with the reason.  With --nondet-domain 0..7 the violation is
 * found: false, with a witness naming the value.
 */
// expect sc: ok
// svcomp unreach-call: unknown
// svcomp unreach-call --nondet-domain 0..7: false
#include "../common.h"

extern int __VERIFIER_nondet_int(void);
__attribute__((noipa)) int __VERIFIER_nondet_int(void) { return 0; }
__attribute__((noipa, noreturn)) void reach_error(void) { abort(); }

static int counter;

static void *worker(void *arg)
{
	(void)arg;
	int n = __VERIFIER_nondet_int();
	int c = __atomic_add_fetch(&counter, n, __ATOMIC_SEQ_CST);
	if (n >= 5 && c == n + 1)
		reach_error();
	return NULL;
}

int main(void)
{
	pthread_t t;

	xcreate(&t, worker, NULL);
	__atomic_add_fetch(&counter, 1, __ATOMIC_SEQ_CST);
	xjoin(t);
	return 0;
}
