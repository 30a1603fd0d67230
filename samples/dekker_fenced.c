/* dekker_fenced.c — dekker.c with an mfence between the flag store and the
 * load of the other thread's flag.  The fence drains the store buffer, so
 * the store is globally visible before the load, as on SC: at most one
 * thread enters, on every model.  Main prints "N thread(s) entered,
 * counter = N" with N = 0 or 1.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
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

static inline void mfence(void)
{
	__asm__ volatile("mfence" ::: "memory");
}

static void *thread(void *arg)
{
	int me = (int)(long)arg, other = 1 - me;

	store(&flag[me], 1);
	mfence();
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
