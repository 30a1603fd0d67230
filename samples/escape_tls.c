/* escape_tls.c — a thread publishes the address of its __thread variable,
 * reads it twice and exits; another thread waits for the address and writes
 * 1 through it.  Accesses to a thread's own stack are no events until
 * another thread touches that memory (an escape); here the other thread
 * may touch it only after the owner has exited, and that must still count
 * (issue 15, hole 8): the owner's two reads can see 00, 01 or 11.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: 00
// outcome sc tso pso: exit 0: 01
// outcome sc tso pso: exit 0: 11
#include "common.h"

static int *volatile shared;
static __thread volatile int tl;

static void *owner(void *arg)
{


	(void)arg;
	shared = (int *)&tl;
	int r1 = tl;
	int r2 = tl;
	printf("%d%d\n", r1, r2);
	return NULL;
}

static void *writer(void *arg)
{
	int *p;

	(void)arg;
	while (!(p = shared))
		;
	*p = 1;
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	xcreate(&a, owner, NULL);
	xcreate(&b, writer, NULL);
	xjoin(a);
	xjoin(b);
	return 0;
}
