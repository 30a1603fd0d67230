/* svcomp/race_stack.c — a data race on main's stack (--races).
 *
 * main hands the address of its local `slot` to a worker, which writes
 * it; main writes it too before joining.  The two writes are unordered:
 * a race on a stack variable that escaped to another thread.
 */
// expect sc: data-race
// expect tso: data-race
// x86smc: --races
#include "../common.h"

static void *worker(void *arg)
{
	*(volatile int *)arg = 1;
	return NULL;
}

int main(void)
{
	pthread_t t;
	int slot = 0;

	xcreate(&t, worker, &slot);
	*(volatile int *)&slot = 2;
	xjoin(t);
	printf("slot = %d\n", slot);
	return 0;
}
