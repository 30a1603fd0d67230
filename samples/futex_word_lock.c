/* futex_word_lock.c — a mutex on a futex word built the way Rust's std
 * builds std::sync::Mutex (0 free, 1 held, 2 held with sleepers): the
 * lock a lock cmpxchg 0 -> 1 inlined at each use, falling back to a
 * contended path that spins, swaps in 2 and sleeps in FUTEX_WAIT; the
 * unlock an xchg with 0 and a FUTEX_WAKE when it swapped out a 2.  The
 * contended path has std's mangled name, which is how x86smc finds it
 * (src/tracer/sync.c, HOOK_SYNC_WORD_*): the mechanism checked in C,
 * without a Rust toolchain.  Two threads append their id twice, each
 * time under the lock (t2 through a fast path that keeps ZF in a
 * register): the 6 orders of the four critical sections are the
 * outcomes, under every model, and nothing else; 6 executions at -O2 (as
 * many as with a pthread mutex), 34 at -O0, whose fast paths store the
 * cmpxchg's result on the stack and are not taken for fast paths (only
 * the contended call is one event); instruction by instruction (--sync
 * instructions) 1,564 and not complete in 60 s at -O2.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: 1122
// outcome sc tso pso: exit 0: 1212
// outcome sc tso pso: exit 0: 1221
// outcome sc tso pso: exit 0: 2112
// outcome sc tso pso: exit 0: 2121
// outcome sc tso pso: exit 0: 2211
#include "common.h"
#include <linux/futex.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>

static atomic_uint word;
static char log_[5];
static int n;

/* std::sys::unix::locks::futex::Mutex::lock_contended, by its name */
__attribute__((noinline)) void
_ZN3std3sys4unix5locks5futex5Mutex14lock_contended17h0123456789abcdefE(
	atomic_uint *w)
{
	for (int i = 0; i < 100; i++)
		if (atomic_load_explicit(w, memory_order_relaxed) != 1)
			break;
	while (atomic_exchange(w, 2) != 0)
		syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
}

static inline void lock(atomic_uint *w)
{
	unsigned z = 0;

	if (!atomic_compare_exchange_strong(w, &z, 1))
		_ZN3std3sys4unix5locks5futex5Mutex14lock_contended17h0123456789abcdefE(w);
}

/* The same, as rustc 1.95 sometimes emits it: ZF kept in a register by
 * sete and tested later (the scan follows it: src/dpor/hooks.c) */
static inline void lock_sete(atomic_uint *w)
{
	unsigned char ok;
	unsigned expect = 0;

	__asm__ volatile("lock cmpxchg %3, %1\n\tsete %0"
			 : "=q"(ok), "+m"(*w), "+a"(expect)
			 : "r"(1u)
			 : "memory", "cc");
	if (!ok)
		_ZN3std3sys4unix5locks5futex5Mutex14lock_contended17h0123456789abcdefE(w);
}

static inline void unlock(atomic_uint *w)
{
	if (atomic_exchange(w, 0) == 2)
		syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void *worker(void *arg)
{
	for (int i = 0; i < 2; i++) {
		if (arg == (void *)'1')
			lock(&word);
		else
			lock_sete(&word);
		log_[n++] = (char)(long)arg;
		unlock(&word);
	}
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, worker, (void *)'1');
	pthread_create(&b, NULL, worker, (void *)'2');
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(n == 4);
	printf("%s\n", log_);
	return 0;
}
