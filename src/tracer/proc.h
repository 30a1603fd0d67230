/* proc.h — one traced OS process: launch, wait, registers, memory.
 *
 * The only layer that issues ptrace requests.  Every wait status is first
 * turned into a struct proc_stop (an enum plus details), then dispatched by
 * the caller (strace's trace_event.h habit).  Tracee death is normal: a
 * request failing with ESRCH is reported as PROC_GONE, never as an internal
 * error.
 *
 * The process is started with ASLR off (so addresses are the same in every
 * execution and in every replay), pinned to the tracer's CPU, with a
 * seccomp-bpf filter that makes only the syscalls x86smc emulates stop
 * (SECCOMP_RET_TRACE); everything else runs natively.
 */
#ifndef X86SMC_PROC_H
#define X86SMC_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>

enum proc_stop_kind {
	PROC_EXITED,   /* exit status in .status */
	PROC_KILLED,   /* killed by signal .sig */
	PROC_TRAP,     /* SIGTRAP: breakpoint or single step */
	PROC_SECCOMP,  /* seccomp stop at syscall entry */
	PROC_SIGNAL,   /* signal-delivery-stop of .sig */
	PROC_EVENT,    /* other PTRACE_EVENT stop (.event: clone, fork, exec) */
	PROC_GROUP,    /* group-stop (SIGSTOP etc. under PTRACE_SEIZE) */
	PROC_GONE,     /* the process no longer exists */
	PROC_TIMEOUT,  /* the wait was interrupted by the watchdog */
	PROC_INTR,     /* x86smc was asked to stop (SIGINT, SIGTERM) */
};

struct proc_stop {
	enum proc_stop_kind kind;
	int status; /* exit status */
	int sig;    /* signal for KILLED / SIGNAL / GROUP */
	int event;  /* PTRACE_EVENT_* for EVENT and SECCOMP */
	pid_t pid;  /* the process that stopped */
};

/* A window of the stopped process's memory the tracer reads and writes
 * without a syscall each (proc_cache_load): writes stay here until the
 * process resumes (any ptrace request that may run it), is detached, or
 * an access outside the window overlaps it.  For the private stack
 * accesses of local code the tracer runs itself (emulate.c). */
#define PROC_CACHE_MAX 1024
struct proc_cache {
	pid_t pid;          /* whose memory (0: empty) */
	uint64_t lo;        /* [lo, lo + n) */
	uint32_t n, dlo, dhi; /* dirty: [lo + dlo, lo + dhi) */
	uint8_t b[PROC_CACHE_MAX];
};

struct proc {
	pid_t pid;
	int memfd;        /* /proc/pid/mem, for writes (also to text) */
	size_t xsize;     /* size of the NT_X86_XSTATE area */
	uint64_t stops;   /* ptrace stops waited for (statistics) */
	/* PTRACE_INTERRUPTs whose stop another stop beat (proc_interrupt_
	 * lost): the tracee reports that stop at its next resume; proc_wait
	 * swallows it and repeats the resume (last_req) */
	int stale_interrupts;
	int last_req;
	/* the kind of the last stop proc_wait returned for this process
	 * (enum proc_stop_kind; -1: none yet): recycle.c resumes a process
	 * whose execution ended only from a stop it knows */
	int last_kind;
	struct proc_cache cache;
};

struct proc_launch_opts {
	int cpu;                  /* CPU to pin to, -1: the current one */
	const int *trace_nrs;     /* syscalls the filter makes stop */
	int ntrace_nrs;
	const int *enosys_nrs;    /* syscalls the filter fails with ENOSYS */
	int nenosys_nrs;
	const int *allow_nrs;     /* syscalls that run without a stop; with
				   * these, the others (not in trace_nrs) stop
				   * too (0: all others run) */
	int nallow_nrs;
	char *const *envp_extra;  /* NAME=VALUE strings added to environ */
	bool trap_tsc;            /* rdtsc/rdtscp raise SIGSEGV (PR_SET_TSC) */
};

/* Fork, set up and exec argv[0] under PTRACE_SEIZE|EXITKILL; returns once
 * the new program image is stopped at its exec event.  On failure prints
 * one line naming the cause and returns -1. */
int proc_launch(struct proc *p, char *const argv[],
		const struct proc_launch_opts *o)
	__attribute__((warn_unused_result));

/* Wait for the next stop of p (or of any traced child if any == true). */
int proc_wait(struct proc *p, bool any, struct proc_stop *st);

/* Resume: PTRACE_CONT or PTRACE_SINGLESTEP, delivering sig (0: none). */
int proc_cont(struct proc *p, int sig);
int proc_step(struct proc *p, int sig);

int proc_getregs(struct proc *p, struct user_regs_struct *r);
int proc_setregs(struct proc *p, const struct user_regs_struct *r);
int proc_getxstate(struct proc *p, void *buf);
int proc_setxstate(struct proc *p, const void *buf);
int proc_getsigmask(struct proc *p, uint64_t *mask);
int proc_setsigmask(struct proc *p, uint64_t mask);
int proc_getsiginfo(struct proc *p, void *si);
long proc_geteventmsg(struct proc *p);

/* Memory: reads with process_vm_readv, writes through /proc/pid/mem (which
 * may write read-only text pages, as breakpoints need).  Return the number
 * of bytes transferred; short on unmapped memory. */
size_t proc_read(struct proc *p, uint64_t addr, void *buf, size_t n);
size_t proc_write(struct proc *p, uint64_t addr, const void *buf, size_t n);
/* Make [addr, addr + n) (n <= PROC_CACHE_MAX, within one page) the
 * window (struct proc_cache); false if it cannot be read.  proc_flush
 * writes its dirty bytes back (done before every resume). */
bool proc_cache_load(struct proc *p, uint64_t addr, size_t n);
bool proc_cached(const struct proc *p, uint64_t addr, size_t n);
int proc_flush(struct proc *p);

/* Let the stopped process go (--gdb, --core: handoff.c), delivering sig
 * as it resumes (SIGSTOP: it stays stopped, untraced); p forgets it.
 * Returns its pid, or -1. */
pid_t proc_detach(struct proc *p, int sig);

/* Switch p to another pid (a snapshot): reopens /proc/pid/mem. */
int proc_attach_pid(struct proc *p, pid_t pid);

/* Fork the stopped process by injecting a clone at syscall_pc (the
 * address of a syscall instruction in the target); the copy is stopped,
 * traced, a child of the tracer.  Returns its pid or -1. */
pid_t proc_fork(struct proc *p, uint64_t syscall_pc);

/* p is at a seccomp stop: skip its syscall and stop again (a trap at
 * the syscall's return), from where it can be resumed anywhere. */
int proc_leave_seccomp(struct proc *p);

/* Run syscall nr(a[0..5]) in the stopped process, injected at the
 * syscall instruction syscall_pc (whatever stop it is in: a pending
 * syscall of a seccomp stop is skipped, a pending signal dropped).  The
 * registers are left as the syscall returned them: the caller sets its
 * own.  Returns 0 with the result in *ret, or -1. */
int proc_syscall(struct proc *p, uint64_t syscall_pc, long nr,
		 const long a[6], long *ret);

/* PTRACE_INTERRUPT: the running tracee stops (a PROC_GROUP stop). */
int proc_interrupt(struct proc *p);
/* The stop proc_wait returned after proc_interrupt was another one: the
 * interrupt's own stop is still to come (see struct proc). */
void proc_interrupt_lost(struct proc *p);

/* SIGKILL the process and reap it (and any stop notifications). */
void proc_kill(struct proc *p);

/* Watchdog: a proc_wait longer than this many seconds returns
 * PROC_TIMEOUT (0: no limit). */
void proc_set_watchdog(unsigned seconds);
void proc_set_watchdog_ms(unsigned ms);

/* SIGINT/SIGTERM/SIGHUP make every wait return PROC_INTR from then on
 * (installed once by main). */
void proc_catch_interrupts(void);
bool proc_interrupted(void);

/* --timeout: after this many seconds x86smc stops as if interrupted, in
 * the middle of an execution too (a program that never ends, or a thread
 * that loops without a visible event).  0: no deadline. */
int proc_set_deadline(double seconds);
bool proc_deadline_passed(void);

/* The tracer's CPU pinning (done once at start). */
int proc_pin_self(int cpu);

#endif
