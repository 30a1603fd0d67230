/* throw_thread.cc — an exception no one catches.  Two buyers each take
 * one item from a stock of one: each checks that the stock is not empty,
 * then takes an item; if taking finds the stock already empty it throws
 * std::runtime_error.  When both pass the check before either takes, the
 * second throws, in its std::thread, where nothing catches it:
 * std::terminate (libstdc++'s handler prints the type and what(), then
 * aborts).  x86smc reports it as an uncaught-exception under every
 * model.  throw_fixed.cc takes the item with one compare-and-swap.
 */
// expect sc: uncaught-exception
// expect tso: uncaught-exception
// expect pso: uncaught-exception
#include <atomic>
#include <stdexcept>
#include <thread>

#include "../common.h"

static std::atomic<int> stock{ 1 };

static void buy()
{
	if (stock.load() > 0 && stock.fetch_sub(1) <= 0)
		throw std::runtime_error("sold an item that was not in stock");
}

int main()
{
	std::thread a(buy), b(buy);
	a.join();
	b.join();
	return 0;
}
