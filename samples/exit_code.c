/* exit_code.c — the program runs a thread correctly and then exits with
 * status 3 on purpose.
 *
 * Choice: a non-zero exit status is an error of kind "exit-code" (DESIGN
 * lists it among the error kinds): test programs commonly report a failed
 * check by `return 1` / exit(N) rather than assert, and a checker that
 * called that "ok" would hide their bugs.  The outcome (stdout + "exit 3")
 * is still recorded as usual.
 */
// expect sc: exit-code
// expect tso: exit-code
// expect pso: exit-code
#include "common.h"

static int done;

static void *worker(void *arg)
{
	(void)arg;
	done = 1;
	return NULL;
}

int main(void)
{
	pthread_t t;

	xcreate(&t, worker, NULL);
	xjoin(t);
	assert(done == 1);
	printf("exiting with status 3 on purpose\n");
	return 3;
}
