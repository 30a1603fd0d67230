/* found/pso_jobs2_incomplete.c -- under pso, --jobs 2 says the search is
 * not complete where --jobs 1 says it is.
 *
 * From fuzz_explore seed 2004 (run.py --minimize 2004 --kind jobs, then by
 * hand).  main returns (exit() flushes "m\n" and runs libc's exit path)
 * while t1 may still be about to write.
 *
 *   --model pso --jobs 1: complete, 4 executions, {"m\n", "m\nt1\n", "t1\nm\n"} / exit 0
 *   --model pso --jobs 2: NOT complete ("pso: 91 stores to a thread's ninth
 *        or later location shared a FIFO with another location: their
 *        reorderings were NOT explored"), same 4 executions and outcomes;
 *        x86smc exits 3 instead of 0.
 *   tso: both complete.
 *
 * Either --jobs 1 misses counting the shared-FIFO stores (main's exit path
 * stores to many libc locations while t1 is alive) or --jobs 2 counts
 * stores it should not.  New in 857a208 (62c5f49 has no such report; it
 * finds only "t1\nm\n" there, with --jobs 1 and 2).
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static void *t1(void *a)
{
	(void)a;
	if (write(1, "t1\n", 3) < 0)
		_exit(9);
	return NULL;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, t1, NULL);
	printf("m\n");
	return 0;
}
