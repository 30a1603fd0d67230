/* refcount.c — a shared object's reference count, and a statistics
 * counter.  N threads (argv, default 3, at most 8) each count their work
 * in `stats` (a locked add whose result nobody looks at) and drop one
 * reference to a shared object; the thread whose drop brings the count to
 * zero frees the object and records that it was last.  Main prints who
 * was last and the statistics: which thread is last is all the
 * interleavings can change, N outcomes under every model.
 *
 * Taken as writes, the locked adds race in every order: N! orders of the
 * drops, each with every order of the increments (3 threads: 6
 * executions, 4: 24).  Taken as the adds they are (src/tracer/commute.c):
 * the increments commute whatever the values, two drops that both leave
 * the count above zero commute (each tests only for zero, and would test
 * the other's value the same way), and the drop that reaches zero races
 * with the others: N executions, one per last thread.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: last = 0, stats = 3
// outcome sc tso pso: exit 0: last = 1, stats = 3
// outcome sc tso pso: exit 0: last = 2, stats = 3
#include "common.h"

#define MAXTHREADS 8

struct object {
	long refs;
	int payload[4];
};

static struct object *shared;
static int stats;
static int last = -1;

static void *worker(void *arg)
{
	int id = (int)(long)arg;

	__atomic_fetch_add(&stats, 1, __ATOMIC_RELAXED);
	if (__atomic_fetch_sub(&shared->refs, 1, __ATOMIC_ACQ_REL) == 1) {
		last = id;
		free(shared);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[MAXTHREADS];
	int n = argc > 1 ? atoi(argv[1]) : 3;

	if (n < 1 || n > MAXTHREADS)
		n = 3;
	shared = calloc(1, sizeof *shared);
	if (!shared)
		return 99;
	shared->refs = n;
	for (long i = 0; i < n; i++)
		xcreate(&t[i], worker, (void *)i);
	for (int i = 0; i < n; i++)
		xjoin(t[i]);
	printf("last = %d, stats = %d\n", last, stats);
	return 0;
}
