/* sb_seqcst.cc — sb_relacq.cc fixed: the same store-buffer litmus with
 * seq_cst stores and loads.  g++ compiles a seq_cst store to xchg (a
 * locked instruction: the store buffer is drained first), so each
 * thread's store is in memory before its load and at least one thread
 * sees the other's flag under every model.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include <atomic>
#include <thread>

#include "../common.h"

namespace demo {
class Flags {
public:
	int left()
	{
		x.store(1, std::memory_order_seq_cst);
		return y.load(std::memory_order_seq_cst);
	}
	int right()
	{
		y.store(1, std::memory_order_seq_cst);
		return x.load(std::memory_order_seq_cst);
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
	assert(!(r0 == 0 && r1 == 0));
	return 0;
}
