/* spin_futex_giveup.c — spin_futex.c with a bug only a spin that runs
 * out reaches: a thread whose 100 reads all saw the lock held goes in
 * anyway, and an increment is lost.  x86smc must explore the spin giving
 * up (the counted spin's timeout), not only its being woken.
 */
// expect sc: assertion
// expect tso: assertion
// expect pso: assertion
#include "common.h"
#include <linux/futex.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>

static atomic_int word; /* 0 free, 1 locked, 2 locked with sleepers */
static volatile long total; /* load, add, store: even at -O2 */

static void futex(int op, int val)
{
	syscall(SYS_futex, &word, op | FUTEX_PRIVATE_FLAG, val, NULL, NULL, 0);
}

static int spin(void)
{
	int s = atomic_load_explicit(&word, memory_order_relaxed);

	for (int i = 0; i < 100 && s == 1; i++) {
		__builtin_ia32_pause();
		s = atomic_load_explicit(&word, memory_order_relaxed);
	}
	return s;
}

static void lock(void)
{
	int e = 0;

	if (atomic_compare_exchange_strong(&word, &e, 1))
		return;
	for (;;) {
		int s = spin();
		if (s == 1)
			return; /* the bug: it ran out, and goes in */
		e = 0;
		if (s == 0 && atomic_compare_exchange_strong(&word, &e, 1))
			return;
		if (atomic_exchange(&word, 2) == 0)
			return;
		futex(FUTEX_WAIT, 2);
	}
}

static void unlock(void)
{
	if (atomic_exchange(&word, 0) == 2)
		futex(FUTEX_WAKE, 1);
}

static void *worker(void *arg)
{
	(void)arg;
	for (int k = 0; k < 1; k++) {
		lock();
		total++;
		unlock();
	}
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	xcreate(&a, worker, NULL);
	xcreate(&b, worker, NULL);
	xjoin(a);
	xjoin(b);
	assert(total == 2);
	printf("%ld\n", total);
	return 0;
}
