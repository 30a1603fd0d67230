/* wakeup_end.c — the end of the process is no weak initial.  t2 publishes
 * the address of its local (5) and reads it back; t1 writes 6 through the
 * pointer if it is there yet; main returns without joining, so the end
 * of the process can cut either thread short.
 *
 * Optimal-DPOR asks, before it inserts a reversal v at a node, whether a
 * thread asleep there is a weak initial of v (its exploration there then
 * covers v).  main's exit_group, asleep after it was explored first,
 * conflicts only with output and syscalls: it passed as a weak initial
 * of "t1 reads E, t1 writes through it", and no execution had t2 read 6
 * back ("t2 6": 2 of 3 outcomes, "complete").  The end disables every
 * other thread: it commutes with nothing of theirs (wakeup.c, ends()).
 * From fuzz_explore seed 10008 (tests/fuzz_explore/found/
 * optimal_sc_escape_exit.c).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// x86smc: --keep-going
// outcome sc tso pso: exit 0:
// outcome sc tso pso: exit 0: t2 5
// outcome sc tso pso: exit 0: t2 6
#include "common.h"
#include <unistd.h>

static volatile long *volatile E;

static void *t1(void *arg)
{
	(void)arg;
	volatile long *p = E;
	if (p)
		*p = 6;
	return NULL;
}

static void *t2(void *arg)
{
	volatile long loc[1024];
	char buf[] = "t2 0\n";

	(void)arg;
	loc[512] = 5;
	E = &loc[512];
	buf[3] = (char)('0' + loc[512]);
	if (write(1, buf, 5) < 0)
		_exit(97);
	return NULL;
}

int main(void)
{
	pthread_t th[2];

	xcreate(&th[0], t1, NULL);
	xcreate(&th[1], t2, NULL);
	return 0;
}
