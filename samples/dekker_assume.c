/* dekker_assume.c — Dekker's algorithm with its waits written as
 * __VERIFIER_assume, the way benchmark suites bound spin loops (Nidhugg's
 * spin-loop-to-assume, done by hand).  The entry protocol of thread me:
 *
 *   flag[me] = 1;
 *   while (flag[other])            — if the other wants in:
 *       if (turn != me) {          —   and it is not my turn:
 *           flag[me] = 0;          —     back off,
 *           while (turn != me) ;   —     wait for my turn,
 *           flag[me] = 1;          —     and want in again
 *       }                          —   then wait for the other to leave
 *
 * Each thread enters once, so each wait happens at most once: the inner
 * loop becomes __VERIFIER_assume(turn == me), the rest of the outer loop
 * __VERIFIER_assume(!flag[other]) (once the turn is mine it stays mine).
 * An execution where a wait would never end is infeasible and cut.
 *
 * The critical section increments `counter` with a separate load and
 * store; main asserts that no increment was lost.  The verdicts are those
 * of the spinning try-once Dekker (dekker.c): under sc the protocol
 * excludes, under tso and pso the store flag[me] = 1 can still be in the
 * store buffer when the other thread reads flag[me] == 0: both enter.
 * Stores and loads are inline asm, as in dekker.c, to keep them in this
 * order at any -O.
 */
// expect sc: ok
// expect tso: assertion
// expect pso: assertion
#include "common.h"

extern void __VERIFIER_assume(int);
__attribute__((noipa)) void __VERIFIER_assume(int c)
{
	if (!c)
		for (;;)
			;
}

static int flag[2], turn, counter;

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
	if (load(&flag[other])) {
		if (load(&turn) != me) {
			store(&flag[me], 0);
			__VERIFIER_assume(load(&turn) == me);
			store(&flag[me], 1);
		}
		__VERIFIER_assume(!load(&flag[other]));
	}
	/* critical section */
	int v = load(&counter);
	store(&counter, v + 1);
	/* exit protocol */
	store(&turn, other);
	store(&flag[me], 0);
	return NULL;
}

int main(void)
{
	pthread_t t0, t1;

	xcreate(&t0, thread, (void *)0L);
	xcreate(&t1, thread, (void *)1L);
	xjoin(t0);
	xjoin(t1);
	assert(counter == 2); /* mutual exclusion: no lost increment */
	printf("counter = %d\n", counter);
	return 0;
}
