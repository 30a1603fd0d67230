/* crash_first.c — one thread dereferences a pointer that the other sets.
 * If the reader runs first it crashes (SIGSEGV) and the process ends
 * before the setter ever runs; the execution in which the setter comes
 * first prints 1.  A crash ends the process like exit_group: every thread
 * that could still run conflicts with it (issue 15, hole 9).
 */
// expect sc: crash
// expect tso: crash
// expect pso: crash
// outcome sc tso pso: signal SIGSEGV:
// outcome sc tso pso: exit 0: 1
#include "common.h"

static int val = 1;
static int *volatile ptr;

static void *reader(void *arg)
{
	(void)arg;
	printf("%d\n", *ptr);
	return NULL;
}

static void *setter(void *arg)
{
	(void)arg;
	ptr = &val;
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	xcreate(&a, reader, NULL);
	xcreate(&b, setter, NULL);
	xjoin(a);
	xjoin(b);
	return 0;
}
