/* verifier_nondet.c — a bug that needs both a particular input and a
 * particular interleaving (schedules x inputs, explored together).
 *
 * An account holds 4.  Two threads each withdraw an amount that is an
 * input, __VERIFIER_nondet_int() (explored over --nondet-domain 0..3),
 * with a check-then-act: read the balance, and if it covers the amount,
 * take it off atomically.  The balance goes negative only when
 *   - the inputs sum to more than 4 (2+3, 3+2, 3+3), and
 *   - both threads check before either takes its amount off.
 * Neither the inputs alone (checked sequentially) nor the interleaving
 * alone (with amounts summing to at most 4) break it.  With the default
 * domain 0..1 the program is correct.  x86smc reports reach_error() with
 * the chosen values in the trace and in the schedule (T=V tokens).
 */
// expect sc: verifier-error
// expect tso: verifier-error
// expect pso: verifier-error
// x86smc: --nondet-domain 0..3
#include "common.h"

extern int __VERIFIER_nondet_int(void);
__attribute__((noipa)) int __VERIFIER_nondet_int(void) { return 0; }
__attribute__((noipa, noreturn)) void reach_error(void) { abort(); }

static int balance = 4;

static void *withdraw(void *arg)
{
	(void)arg;
	int amount = __VERIFIER_nondet_int();
	if (amount < 0)
		return NULL;
	if (*(volatile int *)&balance >= amount)          /* check */
		__atomic_fetch_sub(&balance, amount, __ATOMIC_SEQ_CST); /* act */
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	xcreate(&a, withdraw, NULL);
	xcreate(&b, withdraw, NULL);
	xjoin(a);
	xjoin(b);
	if (balance < 0)
		reach_error();
	printf("balance = %d\n", balance);
	return 0;
}
