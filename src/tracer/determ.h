/* determ.h — the same environment in every execution and every replay.
 *
 * A model checker compares executions: whatever a program reads from its
 * environment must not change between them, or the replayed prefix of a
 * schedule diverges and a counterexample does not replay.  x86smc makes
 * these deterministic (docs/DETERMINISM.md has the measurements):
 *
 *  - the vDSO is hidden: AT_SYSINFO_EHDR is removed from the auxiliary
 *    vector at the exec stop, before ld.so reads it, so glibc's
 *    clock_gettime, gettimeofday, time and getcpu fall back to real
 *    syscalls, which the seccomp filter stops;
 *  - one *virtual clock* per execution (struct tracer .clock_ns,
 *    nanoseconds of CLOCK_MONOTONIC): it starts at DET_MONO_START_NS and
 *    advances by DET_TICK_NS at every read (time, gettimeofday,
 *    clock_gettime, times, rdtsc), by the requested duration at every
 *    nanosleep / clock_nanosleep (which return at once), and jumps to the
 *    deadline of a timed futex wait that times out (tracer_timeout_one).
 *    CLOCK_REALTIME is DET_REALTIME_BASE_S seconds ahead of it.  The
 *    clock is global, so time never runs backwards along any order the
 *    program can observe; its reads are thread-local syscalls (no
 *    events), so the values are a function of the schedule;
 *  - rdtsc/rdtscp fault (prctl PR_SET_TSC, PR_TSC_SIGSEGV, set before the
 *    exec: ld.so itself reads the TSC) and are emulated from the virtual
 *    clock (1 tick per ns; rdtscp's TSC_AUX is 0);
 *  - getrandom: a counter-based PRNG (splitmix64) per logical thread,
 *    seeded by DET_SEED and the thread's id, so a thread's random bytes
 *    do not depend on the interleaving;
 *  - the 16 AT_RANDOM bytes (stack protector canary, pointer guard) are
 *    fixed;
 *  - getpid is DET_VPID in every execution (above PID_MAX_LIMIT, so no
 *    real process has it), thread ids DET_VPID + 1, +2, ... in creation
 *    order, getppid DET_VPID - 1, getcpu cpu 0 node 0.
 */
#ifndef X86SMC_DETERM_H
#define X86SMC_DETERM_H

#include <stdbool.h>
#include <stdint.h>

#include "tracer/proc.h"

#define DET_VPID 5000000L
#define DET_SEED 0x78383673736d6331ull /* "x86smc1" */
#define DET_TICK_NS 1000ull            /* one clock read: 1 µs */
#define DET_MONO_START_NS (1000ull * 1000000000ull)
#define DET_REALTIME_BASE_S 1704067200ull /* 2024-01-01 00:00:00 UTC */

struct tracer;
struct lthread;

/* At the exec stop of a new target: hide the vDSO, fix AT_RANDOM, start
 * the clock.  Returns 0 or -1. */
int det_start(struct tracer *t) __attribute__((warn_unused_result));

/* The syscalls determ.c emulates (listed for the seccomp filter). */
extern const int det_traced_syscalls[];
extern const int det_ntraced_syscalls;

/* Emulate syscall nr with arguments a for thread th; returns the result
 * (-errno on error). */
long det_syscall(struct tracer *t, struct lthread *th, long nr,
		 const long a[6]);

/* A stop of the current thread that is the fault of a trapped rdtsc or
 * rdtscp: emulate the instruction (registers written back, rip past it)
 * and return true; false for any other stop. */
bool det_tsc_stop(struct tracer *t, const struct proc_stop *st);

/* Absolute deadline (virtual CLOCK_MONOTONIC ns) of a timed futex wait
 * given its op word and timeout pointer; 0 when untimed.  *expired is
 * set when the deadline has already passed (the wait returns ETIMEDOUT at
 * once); -EFAULT / -EINVAL when the timeout cannot be read or is not
 * valid. */
long det_futex_deadline(struct tracer *t, long op, uint64_t timeout,
			uint64_t *deadline, bool *expired);

/* A timed wait timed out at deadline: the clock jumps there. */
void det_clock_reach(struct tracer *t, uint64_t deadline);

#endif
