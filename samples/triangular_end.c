/* triangular_end.c — main returns while its threads still run (the shape
 * of SV-COMP's pthread/triangular tasks): t1 sets i = j + 1 twice, t2
 * sets j = i + 1 twice, main reads i and j once and returns without a
 * join, so its exit kills whatever is left of them.
 *
 * The end of the process happens after none of the threads' plain
 * accesses.  When it came first, each thread that could still run was
 * tried before it in an execution of its own, which ended sleep-set
 * blocked unless the thread showed something outside; and a race's
 * wakeup sequence carried the end (notdep of the race holds it), forcing
 * it early again: 112 complete executions and 113 blocked.  A free
 * choice now takes the end last (dpor_set_ends) and no wakeup sequence
 * carries an end after its race (wakeup.c insert_race): 0 blocked.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// x86smc: --keep-going
// outcome sc tso pso: exit 0: i:3 j:10
// outcome sc tso pso: exit 0: i:3 j:4
// outcome sc tso pso: exit 0: i:3 j:6
// outcome sc tso pso: exit 0: i:3 j:8
// outcome sc tso pso: exit 0: i:5 j:4
// outcome sc tso pso: exit 0: i:5 j:6
// outcome sc tso pso: exit 0: i:5 j:8
// outcome sc tso pso: exit 0: i:7 j:10
// outcome sc tso pso: exit 0: i:7 j:4
// outcome sc tso pso: exit 0: i:7 j:6
// outcome sc tso pso: exit 0: i:7 j:8
// outcome sc tso pso: exit 0: i:9 j:10
// outcome sc tso pso: exit 0: i:9 j:8
#include "common.h"
#include <stdio.h>

static volatile int i = 3, j = 6;

static void *t1(void *arg)
{
	(void)arg;
	for (int k = 0; k < 2; k++)
		i = j + 1;
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
	for (int k = 0; k < 2; k++)
		j = i + 1;
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	xcreate(&a, t1, NULL);
	xcreate(&b, t2, NULL);
	int ri = i, rj = j;
	printf("i:%d j:%d\n", ri, rj);
	return 0;
}
