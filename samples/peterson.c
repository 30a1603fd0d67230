/* peterson.c — the store-buffer bug in Peterson's algorithm.  Non-spinning,
 * try-once variant: each thread raises its flag and gives the turn away
 * (flag[me] = 1; turn = other), then enters iff flag[other] == 0 or
 * turn == me, and otherwise gives up (no loop; flags are never lowered, so
 * each thread enters at most once).  The critical section increments
 * `counter` with a separate load and store; main asserts that at most one
 * thread got in and no increment was lost.
 *
 * Under SC that is Peterson's exit condition, so at most one enters: ok.
 * On x86 (TSO) both threads' stores can still be in their store buffers
 * when each reads the other's flag, both read 0 and both enter: assertion;
 * PSO allows it too.  All shared accesses are inline asm with a "memory"
 * clobber and no fence.  Main prints "N thread(s) entered, counter = N"
 * with N = 0 or 1 on SC (both give up when each reads the other's flag
 * raised and turn == other, e.g. one reads turn before the other writes it).
 */
// expect sc: ok
// expect tso: assertion
// expect pso: assertion
#include "common.h"

static int flag[2];
static int turn;
static int counter;
static int entered[2];

static inline void store(int *p, int v)
{
	__asm__ volatile("movl %1, %0" : "=m"(*p) : "ri"(v) : "memory");
}

static inline int load(const int *p)
{
	int v;
	__asm__ volatile("movl %1, %0" : "=r"(v) : "m"(*p) : "memory");
	return v;
}

static void *thread(void *arg)
{
	int me = (int)(long)arg, other = 1 - me;

	store(&flag[me], 1);
	store(&turn, other);
	if (load(&flag[other]) == 0 || load(&turn) == me) {
		/* critical section */
		int v = load(&counter);
		store(&counter, v + 1);
		entered[me] = 1;
	}
	return NULL;
}

int main(void)
{
	pthread_t t0, t1;

	xcreate(&t0, thread, (void *)0L);
	xcreate(&t1, thread, (void *)1L);
	xjoin(t0);
	xjoin(t1);
	int n = entered[0] + entered[1];
	assert(n <= 1);       /* mutual exclusion */
	assert(counter == n); /* no lost increment */
	printf("%d thread(s) entered, counter = %d\n", n, counter);
	return 0;
}
