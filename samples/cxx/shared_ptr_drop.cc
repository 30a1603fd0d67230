// shared_ptr_drop.cc — a std::shared_ptr copied into two threads, each
// printing through its copy; main drops its own.  Whoever drops the last
// reference runs the destructor, after both prints.  Correct under every
// model.
//
// The copies are blind `lock add`s and the drops conditional `lock xadd`s
// (docs/EXPLORATION.md, "Locked adds that commute"), but GCC 12's
// _M_release first reads both counts with one plain 8-byte load (are
// both 1?), and that read races with the other threads' adds: 98
// executions + 1 sleep-set blocked for these 2 outputs (sc and tso,
// 2026-11-28): as many as GenMC and Nidhugg count for the same protocol
// in C11 atomics (docs/LANGUAGES.md).
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: a 5\nb 5\ndtor
// outcome sc tso pso: exit 0: b 5\na 5\ndtor
#include <cstdio>
#include <memory>
#include <thread>

#include "../common.h"

struct Obj {
	int v = 5;
	~Obj() { std::puts("dtor"); }
};

int main()
{
	auto p = std::make_shared<Obj>();
	std::thread a([q = p] { std::printf("a %d\n", q->v); });
	std::thread b([q = p] { std::printf("b %d\n", q->v); });
	p.reset();
	a.join();
	b.join();
	return 0;
}
