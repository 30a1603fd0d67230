/* pthread_exit_unjoined.c — t1 leaves by pthread_exit (glibc dlopens
 * libgcc_s for the unwinder there), t2 is never joined and writes a
 * line, t3 returns; main joins t1 and t3, prints and returns while t2
 * may still run: "w" before "m", after it, or not at all.
 *
 * libgcc_s is mapped after the fork snapshot: its stop points were not
 * in the snapshot, so every execution after the first ran its
 * destructors without their events, and a --jobs worker replaying a
 * prefix of its first execution diverged ("the replayed prefix does not
 * fit") or lost the outcome "m w" (fuzz_explore seed 3128; bp.c,
 * bp_restored).  tests/e2e/jobs.txt runs it with --jobs 2 too.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: m
// outcome sc tso pso: exit 0: m\nw
// outcome sc tso pso: exit 0: w\nm
#include <unistd.h>
#include "common.h"

static void *t1(void *arg)
{
	(void)arg;
	pthread_exit(NULL);
}

static void *t2(void *arg)
{
	(void)arg;
	if (write(1, "w\n", 2) != 2)
		_exit(9);
	return NULL;
}

static void *t3(void *arg)
{
	(void)arg;
	return NULL;
}

int main(void)
{
	pthread_t x, y, z;

	xcreate(&x, t1, NULL);
	xcreate(&y, t2, NULL);
	xcreate(&z, t3, NULL);
	xjoin(x);
	xjoin(z);
	printf("m\n");
	return 0;
}
