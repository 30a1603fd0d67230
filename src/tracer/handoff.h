/* handoff.h — a debugger at the bug (docs/REPLAY.md): `x86smc --replay
 * FILE --gdb` replays the schedule to the failing instruction and gives
 * the stopped process to gdb; `--core FILE` writes its core file there.
 *
 * tracer_handoff() (tracer.h) prepares the process at the end of the
 * replayed execution: the failing thread's registers, XSTATE and signal
 * mask are put in the one OS thread (the other logical threads are not
 * visible to gdb: their registers live in x86smc), every int3 x86smc
 * placed is taken out, and the process is detached with a SIGSTOP
 * pending, so it stays stopped, untraced.  handoff_debug() then, after
 * the report is printed, runs gdb on it or writes the core, and kills it.
 *
 * The process is for inspection: resumed, it runs without x86smc (the
 * syscalls x86smc emulates fail with ENOSYS under its seccomp filter,
 * rdtsc faults), so gdb's continue does not go on as under x86smc. */
#ifndef X86SMC_HANDOFF_H
#define X86SMC_HANDOFF_H

#include <stdbool.h>
#include <sys/types.h>

/* With a terminal and gdb: gdb -p pid, as a child, until the user quits
 * it.  Without a terminal: print the gdb command and wait until the
 * process ends (someone kills it).  core: write the core file with
 * gdb's generate-core-file instead.  The process is killed at the end.
 * Returns 0, or -1 if gdb could not be run (a message is printed). */
int handoff_debug(pid_t pid, bool gdb, const char *core);

#endif
