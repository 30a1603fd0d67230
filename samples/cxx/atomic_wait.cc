// atomic_wait.cc — C++20 std::atomic<int>::wait / notify_one with a
// release store, as cppreference shows them: a lost wake-up in the
// library under x86-TSO.
//
// libstdc++ 12 (Debian 12's g++) notifies only when its waiter pool says
// a thread is waiting: the notifier's `flag.store(1, release)` is a plain
// mov, followed by a plain load of the pool's waiter count and no fence
// between them.  The store can sit in the notifier's store buffer while
// it reads "no waiters" and skips the futex wake; meanwhile the waiter
// counts itself in (lock xadd), still reads flag == 0 from memory and
// sleeps in FUTEX_WAIT, which nothing will ever wake.  Under sc the
// waiter either sees the flag or is counted before the notifier looks:
// no error.  Under tso and pso x86smc reports the deadlock ("every live
// thread is blocked: thread 0 waits on flag").  A store with
// memory_order_seq_cst (an xchg on x86) closes the window.
// expect sc: ok
// expect tso: deadlock
// expect pso: deadlock
#include <atomic>
#include <cstdio>
#include <thread>

#include "../common.h"

static std::atomic<int> flag{0};
static int data;

int main()
{
	std::thread t([] {
		data = 7;
		flag.store(1, std::memory_order_release);
		flag.notify_one();
	});
	flag.wait(0, std::memory_order_acquire);
	std::printf("data %d\n", data);
	t.join();
	return 0;
}
