/* mutex_racy.cc — mutex_counter.cc broken: each increment reads the
 * counter under the mutex, lets go of it, and writes the new value under
 * the mutex again.  Both threads can read the same value between two
 * critical sections and one increment is lost: main's assertion fails
 * under every model.
 */
// expect sc: assertion
// expect tso: assertion
// expect pso: assertion
#include <mutex>
#include <thread>

#include "../common.h"

namespace demo {
class Counter {
public:
	void add()
	{
		long v;
		{
			std::lock_guard<std::mutex> g(m);
			v = n;
		}
		std::lock_guard<std::mutex> g(m);
		n = v + 1;
	}
	long get()
	{
		std::lock_guard<std::mutex> g(m);
		return n;
	}

private:
	std::mutex m;
	long n = 0;
};
} // namespace demo

static demo::Counter counter;

static void worker()
{
	for (int i = 0; i < 2; i++)
		counter.add();
}

int main()
{
	std::thread a(worker), b(worker);
	a.join();
	b.join();
	assert(counter.get() == 4);
	return 0;
}
