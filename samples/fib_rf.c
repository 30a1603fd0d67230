/* fib_rf.c — every reads-from class of a small race-free program (issue
 * 23).  i = j = 1; thread 1: r = i; a = j; i = r + a; thread 2: r = j;
 * b = i; j = r + b; main reads x = i, then y = j, joins both and prints
 * "a b x y".  All shared accesses are C11 relaxed atomics: no data race.
 * Its 560 SC interleavings fall into 11 reads-from classes with 11
 * distinct outputs (GenMC and Nidhugg count 11).  "1 1 2 1" needs both
 * threads to read the initial values and main to see thread 1's store to
 * i before thread 2's store to j: main's reads come after both threads
 * have exited there, so they are only events if the lone main thread
 * stays under control until its clock covers every other event.  Every
 * interleaving is SC on x86 here (plain movs, no reordering is visible:
 * each thread's store is its last access), so tso and pso give the same
 * 11 outputs.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// x86smc: --keep-going
// outcome sc tso pso: exit 0: 1 1 1 1
// outcome sc tso pso: exit 0: 1 1 1 2
// outcome sc tso pso: exit 0: 1 1 2 1
// outcome sc tso pso: exit 0: 1 1 2 2
// outcome sc tso pso: exit 0: 1 2 1 1
// outcome sc tso pso: exit 0: 1 2 1 3
// outcome sc tso pso: exit 0: 1 2 2 1
// outcome sc tso pso: exit 0: 1 2 2 3
// outcome sc tso pso: exit 0: 2 1 1 1
// outcome sc tso pso: exit 0: 2 1 1 2
// outcome sc tso pso: exit 0: 2 1 3 2
#include "common.h"

static int i = 1, j = 1;
static int a, b;

#define LD(p) __atomic_load_n(p, __ATOMIC_RELAXED)
#define ST(p, v) __atomic_store_n(p, v, __ATOMIC_RELAXED)

static void *t1(void *arg)
{
	(void)arg;
	int r = LD(&i);
	ST(&a, LD(&j));
	ST(&i, r + LD(&a));
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
	int r = LD(&j);
	ST(&b, LD(&i));
	ST(&j, r + LD(&b));
	return NULL;
}

int main(void)
{
	pthread_t p, q;

	xcreate(&p, t1, NULL);
	xcreate(&q, t2, NULL);
	int x = LD(&i);
	int y = LD(&j);
	xjoin(p);
	xjoin(q);
	printf("%d %d %d %d\n", LD(&a), LD(&b), x, y);
	return 0;
}
