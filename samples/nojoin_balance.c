/* nojoin_balance.c — main starts two threads and returns without joining
 * them.  One deposits 50 into a balance of 100 (a separate load and
 * store), the other asserts the balance is still 100.  When main's return
 * (exit_group) comes first, neither thread runs; the bug needs the
 * depositor to run before the checker, both before the process ends.
 * A thread that never ran has no events, so a race with it is only seen
 * if the end of the process counts as conflicting with every thread that
 * could still run (issue 15, hole 1).
 */
// expect sc: assertion
// expect tso: assertion
// expect pso: assertion
#include "common.h"

static volatile int balance = 100;

static void *deposit(void *arg)
{
	(void)arg;
	int b = balance;
	balance = b + 50;
	return NULL;
}

static void *check(void *arg)
{
	(void)arg;
	int b = balance;
	assert(b == 100);
	return NULL;
}

int main(void)
{
	pthread_t p, q;

	xcreate(&p, deposit, NULL);
	xcreate(&q, check, NULL);
	return 0; /* no join: the process may end before either runs */
}
