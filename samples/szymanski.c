/* szymanski.c — Szymanski's mutual exclusion algorithm for two threads,
 * without fences.  flag[i] takes the values of the algorithm:
 *   0 idle, 1 wants in, 2 waits for others, 3 in the doorway,
 *   4 closed the door.
 * As in bakery.c each wait is a single look that gives up when the
 * condition does not hold yet, so every execution is a prefix of one of
 * the spinning algorithm and SC mutual exclusion carries over; the
 * critical section counts its occupants with locked instructions.
 *
 * Under SC: no error.  On x86 (TSO) a thread's flag store can stay in its
 * store buffer while it reads the other's flag, so both see the other
 * idle and both walk in: the assertion fails; PSO allows it too.
 * szymanski_fenced.c puts an MFENCE after every flag store.
 */
// expect sc: ok
// expect tso: assertion
// expect pso: assertion
#include "common.h"

#ifndef FENCE
#define FENCE() ((void)0)
#endif

static int flag[2];
static int inside, overlap, entered;

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
	int me = (int)(long)arg, j = 1 - me;

	store(&flag[me], 1);
	FENCE();
	if (load(&flag[j]) >= 3)
		return NULL; /* await all flag < 3 */
	store(&flag[me], 3);
	FENCE();
	if (load(&flag[j]) == 1) {
		store(&flag[me], 2);
		FENCE();
		if (load(&flag[j]) != 4)
			return NULL; /* await some flag == 4 */
	}
	store(&flag[me], 4);
	FENCE();
	if (j < me && load(&flag[j]) >= 2)
		return NULL; /* await lower ids: flag < 2 */
	/* critical section */
	if (__atomic_add_fetch(&inside, 1, __ATOMIC_SEQ_CST) != 1)
		overlap = 1;
	__atomic_add_fetch(&entered, 1, __ATOMIC_SEQ_CST);
	__atomic_sub_fetch(&inside, 1, __ATOMIC_SEQ_CST);
	if (j > me) { /* await higher ids: flag < 2 or flag > 3 */
		int f = load(&flag[j]);
		if (f >= 2 && f <= 3)
			return NULL;
	}
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
	assert(!overlap); /* mutual exclusion */
	printf("%d entered\n", entered);
	return 0;
}
