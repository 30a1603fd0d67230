/* tracer_priv.h — the inside of struct tracer, shared by the files of
 * src/tracer/ only. */
#ifndef X86SMC_TRACER_PRIV_H
#define X86SMC_TRACER_PRIV_H

#include <sys/user.h>

#include "decode/decode.h"
#include "tracer/await.h"
#include "tracer/escape.h"
#include "tracer/maps.h"
#include "tracer/proc.h"
#include "tracer/tracer.h"
#include "tso/sb.h"

/* A logical thread: everything PTRACE_SETREGS alone would not swap. */
struct lthread {
	struct tr_thread_info info;
	struct user_regs_struct regs; /* valid when not current */
	uint8_t *xstate;              /* NT_X86_XSTATE image */
	uint64_t sigmask;
	uint64_t sigpending;          /* signals queued by tgkill/tkill */
	uint64_t sigwait_set;         /* TW_SIGWAIT: the signals it takes */
	uint64_t sigwait_info;        /* TW_SIGWAIT: its siginfo_t *, or 0 */
	int sched_policy, sched_prio; /* as sched_setscheduler set them
				       * (sys.c, sys_sched: no effect) */
	uint64_t clear_child_tid;     /* set_tid_address / CLONE_CHILD_CLEARTID */
	uint64_t robust_list;
	uint64_t stack_lo, stack_hi;  /* the mapping holding its stack */
	uint64_t tls_lo, tls_hi;      /* the mapping holding fs_base */
	bool need_advance;            /* pending event not computed yet */
	long wait_result;             /* rax once woken */
	uint32_t wait_bitset;
	uint64_t wait_seq;            /* order of blocking, for timeouts */
	uint64_t wait_deadline;       /* timed wait: virtual monotonic ns
				       * (determ.h), 0: unknown */
	uint64_t rand_words;          /* getrandom words drawn (determ.c) */
	enum tr_region region;        /* atomic region being run */
	enum tr_region section;       /* atomic section (RG_ATOMIC, RG_CALL)
				       * being run: section.c */
	uint64_t section_end_pc, section_end_sp; /* RG_CALL: the return */
	uint8_t lib_hook;             /* RG_LIB: its hook, first argument, */
	uint64_t lib_arg, lib_ret;    /* its result, once returned */
	bool lib_done;
	int nsect;                    /* shared accesses of the section not */
	struct dec_access sect[EV_MAX_ACC]; /* reported yet, merged */
	uint64_t region_end_pc, region_end_sp; /* CREATE/JOIN: the return */
	uint64_t start_routine;       /* RG_START ends on entering it */
	bool to_user;                 /* ... or, in a runtime's start
				       * routine, on entering the first call
				       * that may run the program's code
				       * (tracer_set_runtime) */
	uint64_t start_sp;            /* sp after the start routine's
				       * return: its TLS lies above */
	uint64_t user_ret_pc, user_ret_sp; /* the start routine's return */
	int region_child;             /* RG_CREATE: the thread it made */
	bool fence_after;   /* --assume-fence: its pending event is at an
			     * assumed fence: set fence_pending once done */
	bool fence_pending; /* its next event waits for an empty buffer */
	uint8_t sync_phase;           /* sync.c: where a condvar wait or a
				       * timed lock is */
	uint8_t word_hook;            /* sync.c: TW_WORD_LOCK's call */
	uint64_t once_claim; /* sync.c: the Rust Once whose closure it is
			      * to run (its word not written since), 0 */
	struct sb sb;                 /* TSO store buffer */
	struct await_win aw;          /* spin-loop detection */
};

struct bp {
	uint64_t addr;
	uint8_t orig;
	uint8_t hook; /* enum tr_hook, 0 for a plain stop point */
	uint16_t region_hit; /* regions (1 << enum tr_region) that ran into
			      * it: lifted before such a region runs
			      * (region.c, prelift()) */
	bool unsure;     /* the snapshot or a checkpoint did not take its
			  * int3 (code mapped after it): a restored copy
			  * may lack it (bp_restored) */
	bool absent;     /* not in the current process: not a stop point
			  * until bp_insert plants it again */
};

#define TR_NSIG 64

struct output {
	char *buf;
	size_t len, cap;
};

struct tracer {
	struct tracer_opts opts;
	struct proc proc;
	long vpid;               /* the pid the program believes it has */
	uint64_t clock_ns;       /* the virtual clock (determ.h) */
	struct lthread th[TR_MAX_THREADS];
	int nthreads;
	int cur;                 /* thread whose state is in the OS thread */
	bool regs_dirty;         /* th[cur].regs differs from the process */
	bool native;             /* one live thread: it runs free, breakpoints
				  * lifted, only the seccomp filter stops it */
	uint64_t *nlift;         /* stop points lifted in native mode, */
	size_t nnlift, capnlift; /* lazily (bp_native_hit) */
	bool native_ok;          /* the explorer allows native mode for the
				  * thread it steps (tracer_allow_native) */
	struct tr_end end;
	struct output out[3];    /* [1] stdout, [2] stderr */
	struct dcache *dc;
	/* pcs where a run of local code the tracer ran itself (advance,
	 * LOCAL_EMULATED) reached no event: from there the target runs it
	 * (direct-mapped by pc) */
	uint64_t local_long[64];
	/* commute.c: the class of each locked add's pc (direct-mapped) */
#define COMMUTE_CACHE 256
	struct {
		uint64_t pc;
		int64_t cls;
	} commute[COMMUTE_CACHE];
	bool no_commute; /* X86SMC_NO_COMMUTE: for measurements */
	struct maps maps;
	struct bp *bps;          /* sorted by addr */
	size_t nbps, capbps;
	struct escape_set esc_local; /* when opts.escapes is NULL */
	bool own_escapes;
	size_t new_escapes;      /* granules this execution made escaped */
	uint64_t wait_seq;
	tset woken;              /* threads woken by the current event */
	struct walk_scratch *walk; /* walk.c */
	uint64_t next_start_routine; /* for the clone of an RG_CREATE */
#define TR_RUNTIME_MAX 64
	uint64_t rt_start[TR_RUNTIME_MAX]; /* tracer_set_runtime */
	uint64_t rt_user[TR_RUNTIME_MAX];
	size_t nrt_start, nrt_user;
	struct tr_stutter stutter[TR_MAX_THREADS]; /* threads blocked */
	int nstutter;            /* as awaits, not yet told (await.c) */
	uint64_t stdio_file[3];  /* glibc's stdin/stdout/stderr FILEs (0:
				  * unknown): what printf & co. touch */
	int64_t next_value;      /* what the next EV_NONDET returns */
	bool in_step;            /* advance() runs inside tracer_step() */
	struct tr_snapshot *snap;    /* snapshot.c */
	struct tr_checkpoint *cps;   /* snapshot.c: live checkpoints */
	/* The kernel state of the process (descriptors, handlers, timers):
	 * a checkpoint taken with the same kgen shares it; a syscall that
	 * may change it gives the process a new one (tr_kernel_diverged),
	 * and a restore from a checkpoint of another kgen forks
	 * (recycle.c) */
	uint64_t kgen, kgen_next;
	/* The signal dispositions the process has (the kernel's struct
	 * sigaction: handler, flags, restorer, mask), all SIG_DFL at the
	 * exec (proc.c resets them): rt_sigaction changes them without a
	 * new kgen, and a restore in place sets back those that differ
	 * (recycle.c) */
	uint64_t sigact[TR_NSIG + 1][4];
	/* the OS thread's alternate signal stack (stack_t: sp, flags, size;
	 * disabled at the exec), the same way (every Rust thread sets its
	 * own when it starts) */
	uint64_t altstack[3];
	uint64_t *fences;            /* --assume-fence pcs, sorted */
	size_t nfences;
	/* The store buffers (update threads TR_AUX_BASE + slot).  tso: slot
	 * = thread id.  pso: one slot per (thread, location), numbered in the
	 * order the execution first buffers a store there (so a replayed
	 * prefix numbers them alike). */
	struct {
		int owner;
		uint64_t addr;
	} slot[TR_MAX_THREADS - TR_AUX_BASE];
	int nslots;
	struct tracer_stats st;
	unsigned long steps;     /* events in this execution */
	/* A lone thread running natively is stopped after probe_ms
	 * and watched for probe_events events under control: a spin loop
	 * nobody is left to end is a livelock (await.c).  The period
	 * doubles after each probe. */
	unsigned probe_ms, probe_events;
	bool probe_tail; /* a probe ended, native mode not entered yet */
	bool no_emulate;         /* X86SMC_NO_EMULATE: step every event */
	unsigned long nsteps, nconts; /* single steps, runs to a stop */
	tr_cfa_fn cfa_fn;        /* langrt.c: the explorer's unwinder */
	void *cfa_ctx;
};

/* threads.c — logical threads: a new one; the registers of the current
 * one written back; switching to thread tid; its next deliverable
 * queued signal (0: none). */
/* The logical threads an execution may have (--max-threads, at most
 * TR_AUX_BASE); tr_new_thread returns NULL beyond them. */
int tr_max_threads(const struct tracer *t);
struct lthread *tr_new_thread(struct tracer *t);
int tr_sync_regs(struct tracer *t);
bool tr_runtime_user(const struct tracer *t, uint64_t pc);
bool tr_runtime_start(const struct tracer *t, uint64_t pc);
int tr_load(struct tracer *t, int tid);
int tr_deliverable_signal(struct tracer *t);

/* region.c — atomic regions (tracer.h): region_at, the region event
 * starting at th's pc (1), th blocked (3), or none (0); region_begin
 * starts ev's region; region_run runs the current thread through it. */
int region_at(struct tracer *t, struct lthread *th, struct bp *b,
	      struct tr_event *ev);
int region_begin(struct tracer *t, struct lthread *th, struct tr_event *ev);
int region_run(struct tracer *t);

/* tracer.c */
void tr_dec_regs(const struct user_regs_struct *r, struct dec_regs *d);
void tr_end_internal(struct tracer *t, const char *what);
void tr_end_unsupported(struct tracer *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The execution ends by signal sig (fault: the faulting address). */
void tr_end_signal(struct tracer *t, int sig, uint64_t fault);
int tr_exec_insn(struct tracer *t);
/* The buffer (slot) a store of the current thread to [addr, addr+size)
 * goes to (struct tso_mem's tag); < 0: none (the execution ended). */
int tr_store_tag(void *tracer, uint64_t addr, uint64_t size);

/* emulate.c — perform the pending event ev of the current thread th
 * without a single step when its instruction allows (emulate.h: plain
 * movs, struct dec_alu instructions, pause, mfence); buffered: a plain
 * access under tso/pso (loads forwarded, stores buffered).  Off under
 * --sanity and X86SMC_NO_EMULATE.  Returns 1 if performed, 0 if the
 * caller must execute it, -1 on failure. */
int tr_emulate(struct tracer *t, struct lthread *th, struct tr_event *ev,
	       bool buffered);
/* The same for a local instruction of the current thread th (no event:
 * its one memory operand is private), where it would be single-stepped:
 * a stop point the walk could not see past (a loop back to it). */
int tr_emulate_local(struct tracer *t, struct lthread *th);
/* The slot of general-purpose register reg (enum dec_reg) in r. */
uint64_t *tr_gpr(struct user_regs_struct *r, int reg);
/* The current thread th is at a register-only local instruction (struct
 * dec_local): run it on th->regs, without resuming the target.  Returns 1
 * if done, 0 if th must run it (not such an instruction; off under
 * --sanity and X86SMC_NO_EMULATE). */
int tr_emulate_reg(struct tracer *t, struct lthread *th);
/* Make the process's memory window (struct proc_cache) cover [a, a + n),
 * within a's page: from a little below a (stacks grow down), up to
 * PROC_CACHE_MAX bytes.  False if it cannot. */
bool tr_window_at(struct tracer *t, uint64_t a, unsigned n);
int tr_handle_stop_signal(struct tracer *t, const struct proc_stop *st);

/* bp.c — persistent int3 breakpoints (see the comment in bp.c) */
struct bp *bp_find(struct tracer *t, uint64_t addr);
int bp_insert(struct tracer *t, uint64_t addr, uint8_t hook);
size_t bp_fetch(void *tracer, uint64_t pc, uint8_t *buf, size_t n);
void bp_lift(struct tracer *t, uint64_t lo, uint64_t hi, bool lift);
/* After a snapshot or checkpoint is restored: which breakpoints its
 * copy lacks (they are absent until bp_insert plants them again). */
void bp_restored(struct tracer *t);
/* FNV hash of thread th's used stack under registers r (await.c). */
uint64_t await_stack_hash(struct tracer *t, const struct lthread *th,
			  const struct user_regs_struct *r);
/* native mode: lift stop point b when the lone thread hits it (and
 * remember it), unless it is a hook that matters while one thread runs
 * natively (bp_native_lifted); put them all back when control starts
 * again */
int bp_native_hit(struct tracer *t, const struct bp *b);
void bp_native_restore(struct tracer *t);

/* snapshot.c */
void tr_snapshot_free(struct tracer *t);
bool tr_snapshot_poke(struct tracer *t, uint64_t addr, uint8_t byte);

/* walk.c — place stop points before every possibly visible instruction
 * reachable from the current pc of the current thread. */
int walk_from(struct tracer *t);
bool tr_private(struct tracer *t, const struct lthread *th,
		const struct dec_access *a);

/* sys.c — syscalls of logical threads */
int sys_classify(struct tracer *t, struct lthread *th, struct tr_event *ev);
int sys_perform(struct tracer *t, struct lthread *th, struct tr_event *ev);
int sys_local(struct tracer *t, struct lthread *th, struct tr_event *ev);
int sys_at_seccomp(struct tracer *t);
bool sys_foreign_abi(struct tracer *t);
/* sys.c: syscalls that change no kernel state of the process a restore
 * in place would miss (tr_kernel_syscall; the seccomp filter lets them
 * run without a stop). */
bool sys_kernel_neutral(long nr);
const int *sys_neutral_list(int *n);
void tr_leave_native(struct tracer *t);
int sys_emulate_at_seccomp(struct tracer *t, long nr, long result);

/* A syscall emulation that set the thread's state itself (blocked it,
 * ended it) returns this instead of a result for rax. */
#define SYS_NORETURN (-100000L)

/* verifier.c — the benchmark conventions (hooks on __VERIFIER_*).
 * vf_hook: the thread is at hook b; returns 0 (not one of them), 1 (ev is
 * its pending EV_NONDET), 2 (emulated on the spot), 3 (it blocked), -1
 * (the execution ended: __VERIFIER_error).  vf_native: the same while
 * running natively: 0 run on, 1 stop, 2 not one of them, -1 failure. */
bool vf_acting(uint8_t hook); /* acts inside atomic regions too */
int vf_return(struct tracer *t, struct lthread *th, bool result,
	      uint64_t rax);
int vf_hook(struct tracer *t, struct lthread *th, const struct bp *b,
	    struct tr_event *ev);
/* __VERIFIER_error() or reach_error() was called by th: the end. */
void vf_error_call(struct tracer *t, struct lthread *th);
int vf_native(struct tracer *t, struct lthread *th, const struct bp *b);
int vf_nondet(struct tracer *t, struct lthread *th, struct tr_event *done);

/* tracer.c — a counted spin that gave up runs its last iterations
 * (spin.h).  Returns 0, or -1 on failure. */
int tr_spin_runout(struct tracer *t, int tid);

/* langrt.c — C++ and Rust runtimes' fatal errors, and unwinding for
 * reports.  rt_unwind: th's return addresses, innermost first (up to the
 * caller of its first frame of the program's own code), at most max;
 * returns how many.  rt_at_hook: thread th is at hook (rt_hook(hook));
 * returns -1 when that ended the execution (a Rust panic), 0 to go on. */
int rt_unwind(struct tracer *t, const struct lthread *th, uint64_t *ret,
	      int max);
bool rt_hook(uint8_t hook);
int rt_at_hook(struct tracer *t, struct lthread *th, uint8_t hook);

/* fdstate.c: what a snapshot shares with its copies through the kernel
 * (file offsets, pipe contents), saved with it and put back when an
 * execution continues from it. */
struct fd_saved;
struct fdstate {
	struct fd_saved *v;
	int n;
};
int fdstate_capture(struct fdstate *s, pid_t pid);
int fdstate_restore(const struct fdstate *s, pid_t pid);
/* What fd is, if it was open at the snapshot and reading it cannot be
 * undone for the next execution (a socket, a terminal, ...); NULL if it
 * can. */
const char *fdstate_refuses(const struct fdstate *s, int fd);
void fdstate_free(struct fdstate *s);
/* snapshot.c: fdstate_refuses() for the snapshot the executions start
 * from (NULL without one). */
const char *tr_snapshot_refuses(struct tracer *t, int fd);
/* The syscall nr (about to run in the kernel) may change the process's
 * kernel state beyond its memory map, signal mask and file offsets. */
void tr_kernel_syscall(struct tracer *t, long nr);

/* accset.c: add access a to the set v[0..*n) of at most cap ranges:
 * into a range it touches with the same direction, else a new range,
 * else the closest range grows to cover it (which can only add
 * conflicts, never hide one). */
void acc_merge(struct dec_access *v, int *n, int cap,
	       const struct dec_access *a);

/* sysmem.c: the user memory syscall nr with arguments a[] reads and
 * writes (buffers, structs, iovecs), as at most EV_MAX_ACC accesses
 * (acc_merge), before the privacy filter.  Returns how many. */
int sysmem_accesses(struct tracer *t, long nr, const long a[6],
		    struct dec_access *out);

/* tracer.c: keep the accesses of th that another thread can see (not
 * private: tr_private), noting escapes; appends to ev->acc (acc_merge). */
void tr_add_shared(struct tracer *t, const struct lthread *th,
		   struct tr_event *ev, const struct dec_access *a, int n);

/* section.c — atomic sections (tracer.h, RG_ATOMIC / RG_CALL) run
 * instruction by instruction like any code, but their visible events are
 * performed on the spot (section_inline) and their accesses accumulated;
 * the step that ran them reports them (section_report). */
int section_begin(struct tracer *t, struct lthread *th,
		  const struct tr_event *ev);
bool section_done(struct tracer *t, struct lthread *th);
/* A region (a library call) inside the section has run: its accesses. */
void section_region_done(struct tracer *t, struct lthread *th);
void section_rest(struct lthread *th, struct tr_event *ev);
int section_inline(struct tracer *t, struct lthread *th);
bool section_report(struct tracer *t, struct lthread *th,
		    struct tr_event *done);
/* tracer.c: perform th's pending event inside a section */
int tr_section_perform(struct tracer *t, struct lthread *th,
		       struct tr_event *ev);

/* library.c — library calls run as one step (RG_LIB, docs/LIBRARY.md):
 * lib_event fills the call's event at its hook, lib_returned notes its
 * result at the return, lib_after adds the accesses known then. */
bool lib_hook(uint8_t hook);
void lib_event(struct tracer *t, struct lthread *th, uint8_t hook,
	       struct tr_event *ev);
/* The call starts: its stdio accesses again, from memory as it is now. */
void lib_begin(struct tracer *t, struct lthread *th, struct tr_event *ev);
void lib_returned(struct lthread *th);
void lib_after(struct tracer *t, struct lthread *th, struct tr_event *done);
/* bp.c: breakpoints lifted while one thread runs natively (plain stop
 * points, and hooks that matter only with several threads) */
bool bp_native_lifted(uint8_t hook);

/* sync.c: pthread synchronisation calls as single events.  sync_event:
 * at the hook of a call (tr_hook HOOK_SYNC_*), 1 (ev is its event), 3
 * (the thread blocks), 0 (not handled: the call runs as glibc's code);
 * sync_perform: perform it (0, or -1 on failure). */
bool sync_hook(uint8_t hook);
int sync_event(struct tracer *t, struct lthread *th, uint8_t hook,
	       struct tr_event *ev);
int sync_perform(struct tracer *t, struct lthread *th, struct tr_event *ev);
void sync_timeout(struct lthread *th);
void sync_word_written(struct tracer *t, const struct tr_event *ev);
/* A reader's lock or unlock of Rust's futex RwLock (HOOK_SYNC_RW_*):
 * before it runs, the lock's compare-exchange made to succeed on the
 * word as it is now (sync_rw_prepare); once done, a reader's lock or
 * unlock that left the writers' bits alone reads the word only, for the
 * search (sync_rw_reader). */
void sync_rw_prepare(struct tracer *t, struct lthread *th,
		     const struct tr_event *ev);
void sync_rw_reader(struct tr_event *ev);
/* Mark ev (a locked add that ran) as one that may commute (commute.c). */
void commute_mark(struct tracer *t, struct tr_event *ev);
void commute_mark_pending(struct tracer *t, struct tr_event *ev);

/* futex.c */
long futex_op(struct tracer *t, struct lthread *th, struct tr_event *ev);
void futex_accesses(const long a[6], struct tr_event *ev);
int futex_wake(struct tracer *t, uint64_t addr, int n, uint32_t bitset);
/* Threads woken since the last call (bit per thread id). */
tset futex_take_woken(struct tracer *t);
/* A signal arrives for th blocked in a futex wait: it returns EINTR (a
 * spurious wake-up, which every futex user must handle) so that the
 * handler runs. */
void futex_interrupt(struct tracer *t, struct lthread *th);
/* A blocked thread goes on: its syscall returns result. */
void futex_resume(struct tracer *t, struct lthread *th, long result);
void futex_block(struct tracer *t, struct lthread *th, enum tr_wait w,
		 uint64_t addr, bool timed);
/* Block th until thread target exits (RG_JOIN). */
void join_block(struct tracer *t, struct lthread *th, int target);
/* Make every thread joining th runnable (th exits). */
void join_wake(struct tracer *t, struct lthread *th);

/* tracer.c and native.c, one to the other */
int tr_rewind_syscall(struct tracer *t);
void tr_record_assert(struct tracer *t, struct lthread *th);
void tr_drain_all(struct tracer *t);
int tr_run_free(struct tracer *t);
int tr_live_threads(const struct tracer *t);
void tr_enter_native(struct tracer *t);

#endif
