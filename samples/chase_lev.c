/* chase_lev.c — the Chase-Lev work-stealing deque (owner pushes and pops
 * at the bottom, a thief steals at the top), without the MFENCE that
 * pop() needs between publishing the new bottom and reading top.
 * The owner pushes two tasks and pops one; the thief tries to steal
 * twice.  Each task must be taken at most once.
 *
 * Under SC: ok.  On x86 (TSO) the owner's store bottom = 1 can sit in its
 * store buffer while it reads top == 0 and takes task 1 without a CAS;
 * meanwhile the thief still sees bottom == 2 and steals task 0 and then
 * task 1 as well: task 1 is taken twice.  chase_lev_fenced.c has the
 * fence.  Tasks live in a fixed array (no resizing).
 */
// expect sc: ok
// expect tso: assertion
// expect pso: assertion
#include "common.h"

#ifndef POP_FENCE
#define POP_FENCE() __asm__ volatile("" ::: "memory")
#endif
#define EMPTY (-1)

static long top, bottom;
static int tasks[4];
static int taken[2];

static void push(int v)
{
	long b = __atomic_load_n(&bottom, __ATOMIC_RELAXED);
	tasks[b] = v;
	__atomic_store_n(&bottom, b + 1, __ATOMIC_RELEASE);
}

static int pop(void)
{
	long b = __atomic_load_n(&bottom, __ATOMIC_RELAXED) - 1;
	__atomic_store_n(&bottom, b, __ATOMIC_RELAXED);
	POP_FENCE();
	long t = __atomic_load_n(&top, __ATOMIC_RELAXED);
	int v = EMPTY;

	if (t <= b) {
		v = tasks[b];
		if (t == b) { /* the last task: race the thieves for it */
			if (!__atomic_compare_exchange_n(&top, &t, t + 1, 0,
							 __ATOMIC_SEQ_CST,
							 __ATOMIC_RELAXED))
				v = EMPTY;
			__atomic_store_n(&bottom, b + 1, __ATOMIC_RELAXED);
		}
	} else {
		__atomic_store_n(&bottom, b + 1, __ATOMIC_RELAXED);
	}
	return v;
}

static int steal(void)
{
	long t = __atomic_load_n(&top, __ATOMIC_ACQUIRE);
	long b = __atomic_load_n(&bottom, __ATOMIC_ACQUIRE);

	if (t >= b)
		return EMPTY;
	int v = tasks[t];
	if (!__atomic_compare_exchange_n(&top, &t, t + 1, 0, __ATOMIC_SEQ_CST,
					 __ATOMIC_RELAXED))
		return EMPTY;
	return v;
}

static void take(int v)
{
	if (v != EMPTY)
		__atomic_fetch_add(&taken[v], 1, __ATOMIC_RELAXED);
}

static void *thief(void *arg)
{
	(void)arg;
	take(steal());
	take(steal());
	return NULL;
}

int main(void)
{
	pthread_t th;

	push(0);
	push(1);
	xcreate(&th, thief, NULL);
	take(pop());
	xjoin(th);
	assert(taken[0] <= 1 && taken[1] <= 1);
	printf("taken: %d %d\n", taken[0], taken[1]);
	return 0;
}
