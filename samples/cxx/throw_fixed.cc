/* throw_fixed.cc — throw_thread.cc fixed: a buyer takes an item with a
 * compare-and-swap that only succeeds while the stock is not empty, so
 * taking can never find it empty and nothing is thrown.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include <atomic>
#include <stdexcept>
#include <thread>

#include "../common.h"

static std::atomic<int> stock{ 1 };

static void buy()
{
	int v = stock.load();
	while (v > 0 && !stock.compare_exchange_weak(v, v - 1))
		;
	if (stock.load() < 0)
		throw std::runtime_error("sold an item that was not in stock");
}

int main()
{
	std::thread a(buy), b(buy);
	a.join();
	b.join();
	return 0;
}
