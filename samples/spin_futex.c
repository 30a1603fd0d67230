/* spin_futex.c — a lock that spins a bounded number of times before it
 * sleeps on a futex, as Rust's std Mutex, glibc's adaptive mutexes and
 * many hand-written locks do.  Two threads each add 1 under it.
 *
 * The spin reads the lock word and changes nothing shared, but its
 * counter changes every iteration: x86smc of 06cb9f6 took each of the
 * 100 reads for an event racing with the unlock.  Now the loop is a wait
 * that may also give up (a counted spin): woken when the
 * lock word changes, or run out at once (docs/EXPLORATION.md, "Counted
 * spins": 218 executions before, 16 now at -O2; -O0 keeps its counter on
 * the stack and is explored as before).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: 2
#include "common.h"
#include <linux/futex.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>

/* spin_futex_giveup.c sets it: a thread whose spin ran out goes in */
#ifndef ENTER_ON_GIVE_UP
#define ENTER_ON_GIVE_UP 0
#endif

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
		if (ENTER_ON_GIVE_UP && s == 1)
			return; /* the bug of spin_futex_giveup.c */
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
	lock();
	total++;
	unlock();
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
