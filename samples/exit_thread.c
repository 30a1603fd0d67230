/* exit_thread.c — one thread calls exit(3) while another writes "b".
 * Whichever comes first decides whether "b" is printed; main never gets
 * past its first join.  The exit ends the process: the writer's pending
 * write conflicts with it (issue 15, hole 9).
 */
// expect sc: exit-code
// expect tso: exit-code
// expect pso: exit-code
// outcome sc tso pso: exit 3:
// outcome sc tso pso: exit 3: b
#include <unistd.h>
#include "common.h"

static void *quitter(void *arg)
{
	(void)arg;
	exit(3);
}

static void *writer(void *arg)
{
	(void)arg;
	if (write(1, "b\n", 2) != 2)
		return NULL;
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	xcreate(&a, quitter, NULL);
	xcreate(&b, writer, NULL);
	xjoin(a);
	xjoin(b);
	if (write(1, "m\n", 2) != 2)
		return 1;
	return 0;
}
