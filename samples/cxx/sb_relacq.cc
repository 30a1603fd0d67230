/* sb_relacq.cc — the store-buffer litmus (SB) with std::atomic release
 * stores and acquire loads, in the methods of a small class.
 *
 *   T1: flags.left():  x.store(1, release); r0 = y.load(acquire)
 *   T2: flags.right(): y.store(1, release); r1 = x.load(acquire)
 *
 * Release/acquire orders a store before *later* stores and a load before
 * later accesses, but not a store before a later load: g++ compiles both
 * to plain movs, and on x86 each store can still sit in its store buffer
 * when the other thread loads, so r0 == r1 == 0 is possible under tso and
 * pso (not under sc).  sb_seqcst.cc is the fixed version.
 */
// expect sc: ok
// expect tso: assertion
// expect pso: assertion
#include <atomic>
#include <thread>

#include "../common.h"

namespace demo {
class Flags {
public:
	int left()
	{
		x.store(1, std::memory_order_release);
		return y.load(std::memory_order_acquire);
	}
	int right()
	{
		y.store(1, std::memory_order_release);
		return x.load(std::memory_order_acquire);
	}

private:
	std::atomic<int> x{ 0 }, y{ 0 };
};
} // namespace demo

static demo::Flags flags;

int main()
{
	int r0 = -1, r1 = -1;
	std::thread a([&] { r0 = flags.left(); });
	std::thread b([&] { r1 = flags.right(); });
	a.join();
	b.join();
	assert(!(r0 == 0 && r1 == 0)); /* both read 0: SB reordering */
	return 0;
}
