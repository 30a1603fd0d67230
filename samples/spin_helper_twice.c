/* spin_helper_twice.c — a spin loop that calls one helper twice an
 * iteration (`while (!(peek(&a) && peek(&b)))`, peek not inlined, as
 * every std::vector access is a call at -O0).  The await window starts
 * in the helper; its first pc comes back in the second call, with
 * another stack, before the iteration ends.  x86smc restarted the window
 * there, and again at the next first call, and never saw one whole
 * iteration: every execution ran the waiter to --max-steps.  The window
 * now goes on to the next return in the same call (docs/EXPLORATION.md,
 * "Spin loops"): 7 executions under sc.  The waiter reports the flags it
 * read before the loop (a then b, so it may see b set and not a).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// x86smc: --keep-going
// outcome sc tso pso: exit 0: first look: a 0 b 0
// outcome sc tso pso: exit 0: first look: a 0 b 1
// outcome sc tso pso: exit 0: first look: a 1 b 0
// outcome sc tso pso: exit 0: first look: a 1 b 1
#include <sched.h>

#include "common.h"

static volatile int a, b;

static __attribute__((noinline)) int peek(volatile int *p)
{
	return *p;
}

static void *waiter(void *arg)
{
	int fa = peek(&a), fb = peek(&b);

	(void)arg;
	while (!(peek(&a) && peek(&b)))
		sched_yield();
	printf("first look: a %d b %d\n", fa, fb);
	return NULL;
}

static void *setter(void *arg)
{
	(void)arg;
	a = 1;
	b = 1;
	return NULL;
}

int main(void)
{
	pthread_t w, s;

	xcreate(&w, waiter, NULL);
	xcreate(&s, setter, NULL);
	xjoin(w);
	xjoin(s);
	return 0;
}
