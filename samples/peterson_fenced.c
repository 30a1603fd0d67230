/* peterson_fenced.c — peterson.c with fences: an mfence after the two
 * stores (flag[me] = 1; turn = other), before the loads, so both stores are
 * globally visible before the loads (the store->load order TSO relaxes);
 * and one more mfence between the two stores, because PSO also lets the
 * turn store become visible before the flag store, and then both threads
 * can enter even with the first fence alone (T1's turn = 0 lands, T0's
 * turn = 1 lands, T0 fences and reads flag[1] == 0 before T1's flag store
 * lands; T1 fences and reads turn == 1 == me).  x86 itself never reorders
 * stores, so on TSO the middle fence is redundant.  With both, at most one
 * thread enters on every model.  Main prints "N thread(s) entered,
 * counter = N" with N = 0 or 1.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
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

static inline void mfence(void)
{
	__asm__ volatile("mfence" ::: "memory");
}

static void *thread(void *arg)
{
	int me = (int)(long)arg, other = 1 - me;

	store(&flag[me], 1);
	mfence(); /* store->store: needed on PSO only */
	store(&turn, other);
	mfence(); /* store->load: needed on TSO and PSO */
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
