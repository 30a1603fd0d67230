/* shared_mutex_rw.cc — a std::shared_mutex guards a pair that a writer
 * changes twice, (1,1) then (2,2), under the exclusive lock, while two
 * readers each read it once under std::shared_lock and check that they
 * never see it half written.  Correct under every model: shared_mutex is
 * glibc's pthread rwlock.  Each reader sees 0, 1 or 2 (both fields
 * alike); main prints the sum of what they saw.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: seen 0
// outcome sc tso pso: exit 0: seen 1
// outcome sc tso pso: exit 0: seen 2
// outcome sc tso pso: exit 0: seen 3
// outcome sc tso pso: exit 0: seen 4
#include <cstdio>
#include <mutex>
#include <shared_mutex>
#include <thread>

#include "../common.h"

static std::shared_mutex rw;
static int a, b;

static void writer()
{
	for (int v = 1; v <= 2; v++) {
		std::unique_lock<std::shared_mutex> g(rw);
		a = v;
		b = v;
	}
}

static void reader(int *seen)
{
	std::shared_lock<std::shared_mutex> g(rw);
	assert(a == b);
	*seen = a;
}

int main()
{
	int s1 = 0, s2 = 0;
	std::thread w(writer), r1(reader, &s1), r2(reader, &s2);
	w.join();
	r1.join();
	r2.join();
	std::printf("seen %d\n", s1 + s2);
	return 0;
}
