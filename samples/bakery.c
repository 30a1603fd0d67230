/* bakery.c — Lamport's bakery algorithm for two threads, without fences.
 * Each thread runs the entry protocol once and, where the algorithm would
 * wait, looks once and gives up instead (a thread that gives up is a
 * thread the spinning version never schedules again: every execution here
 * is a prefix of one of the spinning algorithm, so mutual exclusion under
 * SC carries over).  The critical section counts its occupants with
 * locked instructions; main asserts that never two were inside at once.
 *
 * Under SC: no error.  On x86 (TSO) the store number[me] = ... can still
 * be in the store buffer when the thread reads number[other]: both read 0,
 * both take ticket 1, and the tie-break lets... both in: the assertion
 * fails; PSO allows it too.  bakery_fenced.c puts an MFENCE after each
 * store of the entry protocol and is correct under TSO.
 */
// expect sc: ok
// expect tso: assertion
// expect pso: assertion
#include "common.h"

#ifndef FENCE
#define FENCE() ((void)0)
#endif

static int choosing[2], number[2];
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

	store(&choosing[me], 1);
	FENCE();
	int n = load(&number[j]);
	store(&number[me], 1 + n);
	store(&choosing[me], 0);
	FENCE();
	if (load(&choosing[j]))
		return NULL; /* would wait */
	int nj = load(&number[j]);
	if (nj != 0 && (nj < 1 + n || (nj == 1 + n && j < me)))
		return NULL; /* would wait */
	/* critical section */
	if (__atomic_add_fetch(&inside, 1, __ATOMIC_SEQ_CST) != 1)
		overlap = 1;
	__atomic_add_fetch(&entered, 1, __ATOMIC_SEQ_CST);
	__atomic_sub_fetch(&inside, 1, __ATOMIC_SEQ_CST);
	store(&number[me], 0);
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
