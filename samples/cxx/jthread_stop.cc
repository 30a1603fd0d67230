/* jthread_stop.cc — a std::jthread polls its std::stop_token until main
 * asks it to stop (request_stop, then the jthread's destructor joins).
 * The worker counts how often it looked into a local variable and sets
 * a flag before it returns; main checks the flag after the join.  The
 * poll reads the stop state and changes no shared memory, so x86smc takes
 * it for a wait (docs/EXPLORATION.md, "Spin loops") and the search ends.
 * Correct under every model.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: stopped 1
#include <cstdio>
#include <stop_token>
#include <thread>

#include "../common.h"

static int stopped;

static void work(std::stop_token st)
{
	unsigned long looks = 0;
	while (!st.stop_requested())
		looks++;
	(void)looks;
	stopped = 1;
}

int main()
{
	{
		std::jthread t(work);
		t.request_stop();
	}
	std::printf("stopped %d\n", stopped);
	return 0;
}
