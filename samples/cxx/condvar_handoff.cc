/* condvar_handoff.cc — a producer hands two items to a consumer through a
 * one-slot buffer guarded by a std::mutex, with one
 * std::condition_variable for "slot full" and one for "slot empty"
 * (std::unique_lock, wait with a predicate).  The consumer prints what it
 * took.  Correct under every model: std::condition_variable is glibc's
 * pthread condvar, its wait an unlock, a wait and a relock.  The items
 * always arrive in order, so there is one output.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: got 1\ngot 2
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include "../common.h"

static std::mutex m;
static std::condition_variable full, empty;
static int slot; /* 0: empty */

static void produce()
{
	for (int v = 1; v <= 2; v++) {
		std::unique_lock<std::mutex> g(m);
		empty.wait(g, [] { return slot == 0; });
		slot = v;
		full.notify_one();
	}
}

int main()
{
	std::thread p(produce);
	for (int i = 0; i < 2; i++) {
		std::unique_lock<std::mutex> g(m);
		full.wait(g, [] { return slot != 0; });
		std::printf("got %d\n", slot);
		slot = 0;
		empty.notify_one();
	}
	p.join();
	return 0;
}
