/* found/notopt_pso_disjoint.c -- lesser ("not optimal"), pso only:
 * two threads store to two different variables; exhaustive counts 2
 * happens-before classes where dpor explores 1 execution.
 *
 * From fuzz_explore seeds 2026, 2052 and quick seed 64 (run.py --minimize
 * 2026 --kind not-optimal --model pso, then by hand).
 *
 *   tso: dpor 1 execution, exhaustive 69 executions, hb_classes 1
 *   pso: dpor 1 execution, exhaustive 69 executions, hb_classes 2
 *   outcome {"done\n" / exit 0} everywhere.
 *
 * Nothing is shared, so 1 is right and the pso hb hash of exhaustive
 * probably tells apart two orders of independent buffer flushes (or of a
 * flush and a thread exit/join) that commute.  Harmless for verdicts, but
 * it makes the dpor == hb_classes optimality check fail under pso.  Same
 * with 62c5f49 and 857a208.
 */
#include <pthread.h>
#include <stdio.h>

static volatile long X, Y;

static void *t1(void *a)
{
	(void)a;
	Y = 1;
	return NULL;
}

static void *t2(void *a)
{
	(void)a;
	X = 2;
	return NULL;
}

int main(void)
{
	pthread_t x, y;

	pthread_create(&x, NULL, t1, NULL);
	pthread_create(&y, NULL, t2, NULL);
	pthread_join(x, NULL);
	pthread_join(y, NULL);
	printf("done\n");
	return 0;
}
