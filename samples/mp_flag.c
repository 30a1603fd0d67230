/* mp_flag.c — message passing through a flag, no fences.  The producer
 * stores data = 42, then flag = 1; the consumer loads flag once (no
 * spinning) and, if it is 1, loads data and asserts it is 42.  SC: ok.  x86
 * (TSO) keeps stores in order and loads in order: ok.  PSO lets the flag
 * store become visible before the data store: the consumer can see flag 1
 * and data 0, assertion.  The data and flag accesses are inline asm with a
 * "memory" clobber so the compiler keeps them as written.  Main prints
 * "consumer saw flag 0" or "consumer saw flag 1, data 42".
 */
// expect sc: ok
// expect tso: ok
// expect pso: assertion
#include "common.h"

static int data, flag;
static int seen_flag, seen_data;

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

static void *producer(void *arg)
{
	(void)arg;
	store(&data, 42);
	store(&flag, 1);
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	seen_flag = load(&flag);
	if (seen_flag) {
		seen_data = load(&data);
		assert(seen_data == 42);
	}
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	xcreate(&t1, consumer, NULL);
	xcreate(&t2, producer, NULL);
	xjoin(t1);
	xjoin(t2);
	if (seen_flag)
		printf("consumer saw flag 1, data %d\n", seen_data);
	else
		printf("consumer saw flag 0\n");
	return 0;
}
