/* spin_counter_live.c — a bounded spin whose count is used after the
 * loop: main reports whether it found the flag at once, after waiting, or
 * gave up.  At -O2 the loop is taken for a counted spin (docs/
 * EXPLORATION.md, "Counted spins"), but the count it returns is read after
 * the loop: a thread woken at one iteration does not stand for one woken
 * at another, and x86smc must say so (search not complete, JSON
 * spin_counter_read; e2e spin/spin_counter_live-O2) rather than claim the
 * three outcomes are all there is to see.  At -O0 the count lives on the
 * stack, no counted spin is taken, and the search is complete.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "common.h"
#include <stdatomic.h>

static atomic_int flag;

static void *setter(void *arg)
{
	(void)arg;
	atomic_store_explicit(&flag, 1, memory_order_relaxed);
	return NULL;
}

static __attribute__((noinline)) int waited(void)
{
	int i;

	for (i = 0; i < 100; i++) {
		if (atomic_load_explicit(&flag, memory_order_relaxed))
			break;
		__builtin_ia32_pause();
	}
	return i;
}

int main(void)
{
	pthread_t t;
	int n;

	xcreate(&t, setter, NULL);
	n = waited();
	xjoin(t);
	printf("%s\n", n == 100 ? "gave up" : n == 0 ? "at once" : "waited");
	return 0;
}
