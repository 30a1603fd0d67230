// once_static.cc — two threads each call std::call_once (glibc's
// pthread_once underneath) and read a function-local static (libstdc++'s
// __cxa_guard_acquire/release around its constructor); whoever runs the
// init or the constructor writes its id there.  Every thread must see
// both done before it goes on (asserted); the outcomes are which thread
// ran each: 4 under sc and tso.  Under pso the init's store to once_by
// may stay in its buffer after glibc's store of "done" has left: the
// other thread finds once_by 0 (a PSO bug, as with the code explored
// instruction by instruction).  x86smc makes each guard call one event
// and a pthread_once that finds the work done, or in another thread's
// hands, one event or a wait (src/tracer/sync.c): 162 executions under
// sc and tso, 1,152 through libstdc++'s and glibc's code (--sync
// instructions), the same outcomes.
// x86smc: --keep-going
// expect sc: ok
// expect tso: ok
// expect pso: assertion
// outcome pso: signal SIGABRT:
// outcome sc tso pso: exit 0: once by 1, static by 1
// outcome sc tso pso: exit 0: once by 1, static by 2
// outcome sc tso pso: exit 0: once by 2, static by 1
// outcome sc tso pso: exit 0: once by 2, static by 2
#include <cassert>
#include <cstdio>
#include <mutex>
#include <thread>

#include "../common.h"

static std::once_flag flag;
static int once_by;
thread_local int me;

struct Made {
    int by;
    Made() : by(me) {}
};

static const Made &made()
{
    static Made m;
    return m;
}

static void work(int id)
{
    me = id;
    std::call_once(flag, [] { once_by = me; });
    assert(once_by != 0);
    assert(made().by != 0);
}

int main()
{
    std::thread a(work, 1), b(work, 2);
    a.join();
    b.join();
    std::printf("once by %d, static by %d\n", once_by, made().by);
}
