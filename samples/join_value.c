/* join_value.c — values passed back through pthread_join: an integer cast to
 * a pointer, a malloc'd struct, and a value given to pthread_exit from a
 * nested call.
 */
// x86smc: --max-executions 30
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include <stdint.h>
#include <string.h>
#include "common.h"

struct answer {
	int n;
	char text[16];
};

static void *returns_int(void *arg)
{
	return (void *)((intptr_t)arg + 40);
}

static void *returns_struct(void *arg)
{
	struct answer *a = malloc(sizeof *a);
	assert(a != NULL);
	a->n = (int)(intptr_t)arg;
	strcpy(a->text, "from a thread");
	return a;
}

static void leave(intptr_t v)
{
	pthread_exit((void *)v);
}

static void *calls_exit(void *arg)
{
	leave((intptr_t)arg * 7);
	return NULL; /* not reached */
}

int main(void)
{
	pthread_t t1, t2, t3;
	void *r1, *r2, *r3;

	xcreate(&t1, returns_int, (void *)2);
	xcreate(&t2, returns_struct, (void *)5);
	xcreate(&t3, calls_exit, (void *)6);
	int e1 = pthread_join(t1, &r1);
	int e2 = pthread_join(t2, &r2);
	int e3 = pthread_join(t3, &r3);
	assert(e1 == 0 && e2 == 0 && e3 == 0);

	struct answer *a = r2;
	assert((intptr_t)r1 == 42 && a->n == 5 && (intptr_t)r3 == 42);
	printf("int: %ld\n", (long)(intptr_t)r1);
	printf("struct: %d \"%s\"\n", a->n, a->text);
	printf("pthread_exit: %ld\n", (long)(intptr_t)r3);
	free(a);
	return 0;
}
