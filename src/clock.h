/* clock.h — the one monotonic clock of x86smc (CLOCK_MONOTONIC): what
 * --timeout, the fence check's budget, elapsed times, the workers' and
 * ranks' heartbeats and --profile measure.  Not the program's virtual
 * clock, which is tracer/determ.h's.  Header-only (static inline):
 * --profile reads it around every ptrace stop, and any module may
 * include it without depending on another one. */
#ifndef X86SMC_CLOCK_H
#define X86SMC_CLOCK_H
#include <stdint.h>
#include <time.h>

/* Nanoseconds since an arbitrary fixed point (boot). */
static inline uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The same in seconds. */
static inline double clock_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
#endif
