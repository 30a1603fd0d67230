/* syscall_race.c — races through system calls (issue 15, hole 6).  main
 * writes the shared byte G[0] to stdout with write(2) while a thread
 * stores 'b' there; a second thread fills the shared struct ts with
 * clock_gettime while a third reads it.  A syscall that copies from or to
 * the program's memory accesses those bytes: "a" and "b", and "0" and "1",
 * each in both orders.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: a 0
// outcome sc tso pso: exit 0: a 1
// outcome sc tso pso: exit 0: b 0
// outcome sc tso pso: exit 0: b 1
#include <time.h>
#include <unistd.h>
#include "common.h"

static char G[2] = "a";
static struct timespec ts;
static volatile int seen;

static void *store(void *arg)
{
	(void)arg;
	G[0] = 'b';
	return NULL;
}

static void *clock_fill(void *arg)
{
	(void)arg;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return NULL;
}

static void *clock_read(void *arg)
{
	(void)arg;
	seen = ts.tv_sec != 0 || ts.tv_nsec != 0;
	return NULL;
}

int main(void)
{
	pthread_t a, b, c;

	xcreate(&a, store, NULL);
	xcreate(&b, clock_fill, NULL);
	xcreate(&c, clock_read, NULL);
	if (write(1, G, 1) != 1)
		return 1;
	xjoin(a);
	xjoin(b);
	xjoin(c);
	printf(" %d\n", seen);
	return 0;
}
