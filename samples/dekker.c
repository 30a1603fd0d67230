/* dekker.c — the store-buffer bug.  A non-spinning, try-once Dekker: each
 * thread raises its own flag, then reads the other's; if the other's flag is
 * down it enters the critical section, otherwise it gives up (no retry, no
 * loop; flags are never lowered, so each thread enters at most once).  The
 * critical section increments `counter` with a separate load and store and
 * records that this thread got in; main asserts that at most one thread got
 * in and that no increment was lost.
 *
 * Under SC the two flag stores precede both loads in some order, so at most
 * one thread sees the other's flag down: ok.  On x86 (TSO) each flag store
 * can still sit in its thread's store buffer when the other thread loads
 * the flag, so both read 0, both enter, and main's assertion fails; PSO
 * allows that too.  The flag store and load are inline asm (with a "memory"
 * clobber) so the compiler keeps them as one store followed by one load
 * with no fence, at any -O.  Main prints "N thread(s) entered, counter = N"
 * with N = 0 or 1 on SC.
 */
// expect sc: ok
// expect tso: assertion
// expect pso: assertion
#include "common.h"

static int flag[2];
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
	if (load(&flag[other]) == 0) {
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
