/* svcomp/race_heap.c — a data race on the heap (--races).
 *
 * Two workers fill a malloc'd array: the first writes elements 0..3,
 * the second 3..6.  Element 3 is written by both, unordered: a race.
 * The other elements are written by one thread each (no race there).
 */
// expect sc: data-race
// x86smc: --races
#include "../common.h"

static int *a;

static void *fill(void *arg)
{
	long from = (long)arg;

	for (long i = from; i < from + 4; i++)
		((volatile int *)a)[i] = (int)i;
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	a = calloc(8, sizeof *a);
	xcreate(&t1, fill, (void *)0L);
	xcreate(&t2, fill, (void *)3L);
	xjoin(t1);
	xjoin(t2);
	printf("a[3] = %d\n", a[3]);
	free(a);
	return 0;
}
