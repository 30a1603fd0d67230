/* found/notopt_spin.c -- lesser ("not optimal"): dpor explores 3
 * executions where exhaustive sees 4 happens-before classes; the outcome
 * sets agree.
 *
 * From fuzz_explore seed 2024 (run.py --minimize 2024 --kind not-optimal,
 * then by hand).  t1 spins until main sets F; t2 does nothing.
 *
 *   sc:      dpor 3 executions (+3 sleep-blocked); exhaustive 81, complete, hb_classes 4
 *   tso/pso: dpor 3 (+2);                          exhaustive 204, complete, hb_classes 4
 *   outcomes: {"done\n" / exit 0} everywhere.
 *
 * Without t2 (or without its join) both give 3.  Either dpor misses a
 * class (an order of t2's exit/join against the spinning reads that
 * Source-DPOR should have reversed) or the hb hash of exhaustive separates
 * two executions that differ only in the number of failed spin reads.
 * Same counts with 62c5f49, ae3b325 and 857a208.
 */
#include <pthread.h>
#include <stdio.h>

static volatile int F;

static void *t1(void *a)
{
	(void)a;
	while (!F)
		;
	return NULL;
}

static void *t2(void *a)
{
	(void)a;
	return NULL;
}

int main(void)
{
	pthread_t x, y;

	pthread_create(&x, NULL, t1, NULL);
	pthread_create(&y, NULL, t2, NULL);
	F = 1;
	pthread_join(y, NULL);
	pthread_join(x, NULL);
	printf("done\n");
	return 0;
}
