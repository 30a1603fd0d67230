/* crash_vs_buffer.c — a crash that always happens, racing with output,
 * beside stores that sit in store buffers under tso and pso.  t1 stores Y
 * and writes "t1"; t2 dereferences NULL; main stores to its stack,
 * publishes the address, prints "m" (stdio: flushed at exit, lost at the
 * crash) and returns.
 *
 * Every model has the same 8 outcomes.  Before the fix, tso and pso dpor
 * reported a complete search with 4 (none with the crash after output):
 * the crash slept through t1's write when the other branches at it were
 * explored (issue 15; fuzz_explore seed 10047, minimised by hand).
 */
// expect sc: crash
// expect tso: crash
// expect pso: crash
// x86smc: --keep-going
// outcome sc tso pso: signal SIGSEGV:
// outcome sc tso pso: signal SIGSEGV: t1
// outcome sc tso pso: signal SIGSEGV: m
// outcome sc tso pso: signal SIGSEGV: m\nt1
// outcome sc tso pso: signal SIGSEGV: t1\nm
// outcome sc tso pso: exit 0: m
// outcome sc tso pso: exit 0: m\nt1
// outcome sc tso pso: exit 0: t1\nm
#include "common.h"
#include <unistd.h>

static volatile char Y;
static volatile long *volatile E;
static int *volatile NULLP;

static void *t1(void *arg)
{
	(void)arg;
	Y = 1;
	if (write(1, "t1\n", 3) < 0)
		_exit(97);
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
	*NULLP = 1; /* always SIGSEGV */
	return NULL;
}

int main(void)
{
	pthread_t th[2];
	volatile long loc[1024];

	xcreate(&th[0], t1, NULL);
	xcreate(&th[1], t2, NULL);
	loc[512] = 5;
	E = &loc[512];
	printf("m\n");
	return 0;
}
