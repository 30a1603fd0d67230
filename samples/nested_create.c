/* nested_create.c — threads that create threads: main starts 2 parents,
 * each parent starts 2 children, joins them and returns the sum of their
 * results through pthread_join.  7 threads in all, at most 7 alive.
 */
// x86smc: --max-executions 30
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include <stdint.h>
#include "common.h"

#define PARENTS 2
#define CHILDREN 2

static void *child(void *arg)
{
	intptr_t id = (intptr_t)arg;
	return (void *)(id * id);
}

static void *parent(void *arg)
{
	intptr_t id = (intptr_t)arg, sum = 0;
	pthread_t t[CHILDREN];

	for (intptr_t i = 0; i < CHILDREN; i++)
		xcreate(&t[i], child, (void *)(id * 10 + i));
	for (int i = 0; i < CHILDREN; i++) {
		void *r;
		int e = pthread_join(t[i], &r);
		assert(e == 0);
		sum += (intptr_t)r;
	}
	return (void *)sum;
}

int main(void)
{
	pthread_t t[PARENTS];
	intptr_t total = 0;

	for (intptr_t i = 0; i < PARENTS; i++)
		xcreate(&t[i], parent, (void *)(i + 1));
	for (int i = 0; i < PARENTS; i++) {
		void *r;
		int e = pthread_join(t[i], &r);
		assert(e == 0);
		printf("parent %d: children returned %ld\n", i + 1, (long)(intptr_t)r);
		total += (intptr_t)r;
	}
	/* 10^2 + 11^2 + 20^2 + 21^2 */
	assert(total == 100 + 121 + 400 + 441);
	printf("total %ld\n", (long)total);
	return 0;
}
