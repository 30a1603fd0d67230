// latch_count.cc — C++20 std::latch and std::counting_semaphore: two
// threads count themselves in at a latch; the second waits for it, then
// hands a value to main through a semaphore.  Correct under every model.
// libstdc++'s waits (std::__atomic_wait_address) spin 12 times with pause,
// then 4 times calling sched_yield, before a futex wait: a counted spin
// whose loop holds the call (tracer/spin.c, yield_call).  Before that was
// known, every such wait ended the search "not complete" (the counter was
// read after the loop: the yield path was outside it).  Each thread waits
// once: a counted spin may give up, which counts as a timeout, and a
// second one in a thread would be beyond --max-timeouts 1.
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: count 2 value 7
#include <atomic>
#include <cstdio>
#include <latch>
#include <semaphore>
#include <thread>

#include "../common.h"

static std::atomic<int> count{0};
static std::counting_semaphore<1> ready(0);
static int value;

int main()
{
	std::latch in(2);
	std::thread t([&] {
		count.fetch_add(1, std::memory_order_relaxed);
		in.count_down();
		in.wait();
		value = 7;
		ready.release();
	});
	count.fetch_add(1, std::memory_order_relaxed);
	in.count_down();
	ready.acquire();
	std::printf("count %d value %d\n",
		    count.load(std::memory_order_relaxed), value);
	t.join();
	return 0;
}
