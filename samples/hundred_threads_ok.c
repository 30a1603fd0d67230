/* hundred_threads_ok.c — hundred_threads.c without the shared counter:
 * 100 threads alive at once that share no written location, so one
 * execution is the whole search under every model. */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: 100 threads: sum of squares below 300 = 8955050
#include "common.h"

#define NO_RACE
#include "hundred_threads.c"
