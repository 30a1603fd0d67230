/* mutex_counter.cc — two std::threads each add 1 to a counter twice,
 * each time under a std::mutex (std::lock_guard); main checks that no
 * increment was lost.  Correct under every model: std::mutex is glibc's
 * pthread mutex, whose lock is a locked cmpxchg and whose unlock a locked
 * xchg.  mutex_racy.cc is the broken version.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include <mutex>
#include <thread>

#include "../common.h"

namespace demo {
class Counter {
public:
	void add()
	{
		std::lock_guard<std::mutex> g(m);
		n = n + 1;
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
