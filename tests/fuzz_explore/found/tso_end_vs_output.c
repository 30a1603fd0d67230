/* FIXED (crash sleeps with the end's accesses; samples/crash_vs_buffer.c).
 * found/tso_end_vs_output.c -- under tso, dpor (Optimal and Source) reports
 * a COMPLETE search that lacks outcomes sc has: the crash of t2 (which
 * always happens) racing with the output of t1 and main.
 *
 * From fuzz_explore seed 10047 (campaign of issue 15, ffa5c3a, -O2;
 * run.py --minimize 10047 --model tso --kind dpor-missing, then by hand).
 * t1 stores Y and writes "t1"; t2 dereferences NULL; main stores to a
 * local, publishes its address, prints "m" and returns.
 *
 *   sc  dpor 15 executions, source 17, complete, 8 outcomes:
 *       ""/SIGSEGV, "m"/exit 0, "m"/SIGSEGV, "m t1"/exit 0,
 *       "m t1"/SIGSEGV, "t1"/SIGSEGV, "t1 m"/exit 0, "t1 m"/SIGSEGV
 *   tso dpor 2 executions, complete: ""/SIGSEGV, "m"/exit 0 only
 *       (main at 7dc46de: 3 executions, 3 outcomes, still none of the
 *       crash-after-output ones)
 *   tso --strategy source 5 executions, complete: also "m t1"/exit 0,
 *       "t1 m"/exit 0 -- still no "m"/SIGSEGV, "t1"/SIGSEGV, ...
 *   tso exhaustive (5000 executions, not complete) reaches "m"/SIGSEGV,
 *       "m t1"/SIGSEGV: real under tso.
 *   Same with -O0 and -O2.  Without t1's store (Y = 1): tso dpor 8
 *   executions / 6 outcomes, source 6 / 5; without main's two stores:
 *   dpor 5 / 4, source 6 / 4 -- sc's 8 every time.
 *
 * The fuzz run saw it as tso dpor-missing and model-inclusion (sc
 * outcomes missing under tso and pso).
 */
#include <pthread.h>
#include <stdio.h>
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
	*NULLP = 1;	/* always SIGSEGV */
	return NULL;
}

int main(void)
{
	pthread_t th[2];
	volatile long loc[1024];

	if (pthread_create(&th[0], NULL, t1, NULL) != 0 ||
	    pthread_create(&th[1], NULL, t2, NULL) != 0)
		return 95;
	loc[512] = 5;
	E = &loc[512];
	printf("m\n");
	return 0;
}
