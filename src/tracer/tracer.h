/* tracer.h — a target program whose threads are logical threads of one
 * traced OS thread, advanced one visible event at a time.
 *
 * Life of a target:
 *   tracer_start()  launches it and runs it natively until it creates its
 *                   second thread (or ends).  From then on every thread is a
 *                   *logical thread*: a saved register set, XSTATE and
 *                   signal mask swapped into the single OS thread.
 *   tracer_step(t)  makes thread t perform its pending visible event, then
 *                   runs t's thread-local code up to its next visible event
 *                   (which becomes its new pending event).
 *
 * A *visible event* is an instruction or syscall whose effect another
 * thread can observe or that changes the enabled set: an access to memory
 * that is not private to the thread, a locked RMW, MFENCE, pause, a syscall.
 * Accesses to the thread's own stack and TLS are private unless another
 * thread has touched that 8-byte granule (then it is "escaped", and
 * accesses to it are visible from then on: escape.h; the explorer learns
 * of new ones with tracer_new_escapes()).
 * The rule and its limits are in docs/EVENTS.md.
 *
 * The tracer never decides what to schedule: the caller does.
 */
#ifndef X86SMC_TRACER_H
#define X86SMC_TRACER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "decode/decode.h"
#include "tracer/tset.h"

#define TR_MAX_THREADS TS_BITS /* ids: logical and update threads */
/* Under TSO, logical thread T's stores leave its store buffer through the
 * update events of its auxiliary *update thread* TR_AUX_BASE + T. */
#define TR_AUX_BASE (TR_MAX_THREADS / 2)

enum ev_kind {
	EV_NONE = 0,
	EV_MEM,     /* plain load and/or store */
	EV_RMW,     /* locked read-modify-write (lock prefix, xchg mem) */
	EV_FENCE,   /* mfence */
	EV_YIELD,   /* pause, sched_yield, nanosleep: a hint to schedulers */
	EV_SYSCALL, /* a syscall passed to the kernel (serializing) */
	EV_OUTPUT,  /* write/writev to stdout or stderr (captured) */
	EV_SPAWN,   /* clone of a thread: creates logical thread .child */
	EV_EXIT,    /* the thread exits (clear_child_tid written, woken) */
	EV_FUTEX,   /* a futex operation on .addr (may block or wake) */
	EV_END,     /* exit_group or the end of the last thread */
	EV_JOIN,    /* pthread_join of an exited thread (atomic) */
	EV_UPDATE,  /* TSO: the oldest buffered store reaches memory */
	EV_NONDET,  /* a __VERIFIER_nondet_* call: returns the value the
		     * explorer chose (tracer_set_value); thread-local */
	EV_ATOMIC,  /* RG_ATOMIC or RG_CALL: code run as one step */
	EV_CALL,    /* RG_LIB: a library call run as one step, with abstract
		     * accesses (docs/LIBRARY.md) */
	EV_SYNC,    /* a pthread synchronisation call as one event, its
		     * effect emulated (sync.c; .sync_op, .acc[0] the object) */
	EV_TIMEOUT, /* a timed wait times out (tracer_timeout): the thread
		     * stops waiting, the virtual clock reaches its deadline;
		     * .acc[0] the object it waited on */
	EV_NKINDS
};

/* A store an event put into a store buffer (tso, pso): where, its first
 * 8 bytes (little-endian), and its buffer: the update thread
 * TR_AUX_BASE + slot writes it to memory.  Under tso slot is the thread's
 * id; under pso one slot per (thread, location) (tracer_slot_owner). */
struct tr_store {
	uint64_t addr;
	uint32_t size;
	uint8_t slot;
	uint64_t val;
};

/* Accesses one event holds: an instruction has at most DEC_MAX_MEM; an
 * atomic section, a library call or a syscall has the union of what it
 * touched, joined into at most EV_MAX_ACC ranges (accset.c; with 4,
 * joining far ranges made a Rust channel's send conflict with half the
 * heap).  Every event of the search is kept (dpor.c's nodes): 16 ranges
 * took an execution of 10^6 events from 777 MB to 1,309 MB, 8 to 957 MB,
 * and 8 gave the same executions as 16 on the Rust channel, Barrier and
 * RwLock programs but one (a rendezvous channel: 645 against 498). */
#define EV_MAX_ACC 8

/* One visible event.  acc[] holds the shared-memory accesses (private
 * ones are dropped); a futex op lists its word(s) as read+write. */
struct tr_event {
	int tid;
	uint8_t kind;  /* enum ev_kind */
	uint64_t pc;
	int nacc;
	struct dec_access acc[EV_MAX_ACC];
	long sysno;    /* syscall number for syscall-based kinds, else -1 */
	int child;     /* EV_SPAWN: id of the new thread; EV_JOIN: of the
			* thread joined */
	int fd;        /* EV_OUTPUT: 1 or 2 */
	tset woke;     /* threads this event made runnable (futex wake,
			* exit waking joiners): they happen after it */
	tset woke_timed; /* threads whose timed wait this event ended:
			      * their timeout could have come first */
	uint8_t region; /* enum tr_region: performed as one atomic step */
	/* Values of plain and locked accesses (first 8 bytes, little-endian):
	 * rval[i] what acc[i] read, as the thread saw it (store-buffer
	 * forwarding included), wval[i] what it wrote (to memory, or for an
	 * update event from the buffer).  0 for other kinds. */
	uint64_t rval[EV_MAX_ACC], wval[EV_MAX_ACC];
	/* tso/pso: acc[i] was read entirely from the thread's own buffer,
	 * from the fwd_seq[i]-th store of slot fwd_slot[i] (0: not); until
	 * that store's update, other threads' writes do not change it */
	uint32_t fwd_seq[EV_MAX_ACC];
	uint8_t fwd_slot[EV_MAX_ACC];
	uint8_t nst; /* tso/pso: stores put into the buffer (not in acc[]) */
	struct tr_store st[DEC_MAX_MEM];
	uint8_t fenced;  /* --assume-fence: the thread executed an assumed
			  * MFENCE before this event: it waits for an
			  * empty buffer (ev_needs_drain) */
	uint64_t caller; /* region events (pthread_create/join/exit) and
			  * EV_NONDET: the return address into their
			  * caller, else 0 */
	uint8_t nondet;  /* EV_NONDET: its type (enum tr_nondet) */
	uint8_t sync_op; /* EV_SYNC: the call (enum tr_hook, HOOK_SYNC_*) */
	int64_t value;   /* EV_NONDET: the value returned, as the program
			  * reads it (sign- or zero-extended from its type);
			  * EV_END at a hook (sysno -1): END_BY_*; EV_RMW:
			  * EV_CADD | ... when it may commute (commute.c) */
	/* For reports: the return addresses of the calls the event's code
	 * is in, innermost first, 0 after the last known (unwound with the
	 * explorer's tracer_opts.unwind, up to and including the caller of
	 * the first frame of the program's own code). */
#define TR_RETS 4
	uint64_t ret[TR_RETS];
};

/* The types of __VERIFIER_nondet_* (what the value is truncated to). */
enum tr_nondet { ND_BOOL, ND_CHAR, ND_UCHAR, ND_SHORT, ND_USHORT, ND_INT,
		 ND_UINT, ND_LONG, ND_ULONG, ND_POINTER, ND_NTYPES };

/* A locked add, sub, inc, dec or xadd of memory whose flags (and xadd's
 * old value) its code reads at most through one condition (commute.c):
 * its value is EV_CADD | the operation (enum dec_alu_op) | width << 8 |
 * condition << 16 (0xff: none, a blind add) | what it tests << 24 (the
 * add's flags, or a compare of xadd's old value) | the compare's
 * immediate << 32.  Two such events on the same location commute when
 * both are blind, or when they are alike and the condition comes out
 * the same in both orders (ev_commute: how their values relate). */
#define EV_CADD (1ll << 62)
enum ev_order {
	EVO_ANY,     /* values of unrelated states: blind adds only */
	EVO_ORDERED, /* a ran before b in one execution */
	EVO_FRONT,   /* a's values are of the state b started from (a
		      * sleeper there, a weak initial): a moved before b */
};
bool ev_commute(const struct tr_event *a, const struct tr_event *b,
		enum ev_order how);
/* Is e a conditional add (its values matter to what it commutes with)? */
bool ev_commute_conditional(const struct tr_event *e);
/* *out: e (a conditional add) with the add of by (alike, on its
 * location) put before it (add) or taken out from before it (!add):
 * false, *out untouched, when e's values do not depend on by. */
bool ev_commute_rebase(struct tr_event *out, const struct tr_event *e,
		       const struct tr_event *by, bool add);

/* TSO: events that wait for an empty store buffer (locked instructions,
 * MFENCE, syscalls, thread operations). */
bool ev_needs_drain(const struct tr_event *ev);

/* The thread lifecycle runs atomically, with abstract dependencies (like
 * CHESS's wrappers of the synchronization API): glibc's own bookkeeping
 * inside (thread counters, stack caches, the joinid handshake) is no
 * event, because no program can observe its order.
 *   RG_CREATE  pthread_create: one EV_SPAWN event (writes *thread);
 *   RG_START   the new thread, from its birth to its start routine: no
 *              event at all;
 *   RG_EXIT    pthread_exit, or the start routine returning: one EV_EXIT
 *              event through the exit syscall (writes the tid word that
 *              pthread_join reads);
 *   RG_JOIN    pthread_join: the joiner is blocked until the target has
 *              exited; then one EV_JOIN event (reads the tid word, writes
 *              *retval).
 * Limit: TLS and thread-specific-data destructors run inside RG_EXIT,
 * atomically and without events (docs/EVENTS.md). */
enum tr_region { RG_NONE = 0, RG_CREATE, RG_START, RG_EXIT, RG_JOIN,
		 RG_ATOMIC, RG_CALL, RG_LIB };
/* RG_LIB: a call of a library function of the atomic policy
 * (docs/LIBRARY.md: the malloc family, stdio output), from its entry to
 * its return, run natively like the lifecycle regions: one EV_CALL event
 * whose accesses are abstract: the malloc family writes the first
 * EV_BLOCK_HEAD bytes of the blocks it frees or returns; stdio output
 * writes its stream's fd (EV_ADDR_FD + fd; all fds for fflush(NULL)). */
#define EV_BLOCK_HEAD 16
/* Atomic sections (docs/EVENTS.md, "Benchmark conventions"):
 *   RG_ATOMIC  from __VERIFIER_atomic_begin() to the next
 *              __VERIFIER_atomic_end(): one EV_ATOMIC event;
 *   RG_CALL    a call of a __VERIFIER_atomic_* function, from its entry
 *              to its return: one EV_ATOMIC event.
 * Unlike the lifecycle regions they are not run natively: their code runs
 * as usual, but the visible events inside are performed on the spot, and
 * the event's accesses are the union of theirs (merged into at most
 * EV_MAX_ACC ranges), known once the section has run (section.c).
 * Under tso/pso the thread's buffer is drained first (ev_needs_drain) and
 * the section writes memory directly, like a locked instruction.  Inside
 * a section, __VERIFIER_assume, __VERIFIER_error and __VERIFIER_nondet_*
 * still act (a nondet value is an event of its own, and no other thread
 * runs until the section ends: tracer_exclusive). */

/* Pseudo-addresses for resources that are not memory, so that events on
 * them are dependent like accesses to one location: the output of fd N
 * is at EV_ADDR_FD + N, the kernel's process state at EV_ADDR_KERNEL. */
#define EV_ADDR_FD 0xfffffffffffff000ull
#define EV_NFDS 1024
#define EV_ADDR_KERNEL 0xffffffffffffff00ull
/* glibc's table of thread-specific data keys (pthread_key_create). */
#define EV_ADDR_KEYS (EV_ADDR_KERNEL + 0x10)
/* The queue of signals sent to logical thread t (sys.c queue_signal):
 * a kill of t writes it, and so does t's sigwait timing out (the kill
 * could have come first), between the fds and the kernel. */
#define EV_ADDR_SIGQ(t) (EV_ADDR_FD + 0x800 + (uint64_t)(t))
/* The kernel's queue of futex waiters on the word at w: FUTEX_WAIT reads
 * the word and changes the queue, FUTEX_WAKE only changes the queue (a
 * store to the word and a wake commute).  Above user addresses (< 2^47)
 * and below the granule index's limit (dpor.c, gt_key). */
#define EV_ADDR_FUTEXQ(w) ((1ull << 56) | (uint64_t)(w))
/* Who runs the closure of the Rust Once at w (sync.c): the first thread
 * to call it while it is not started claims it; claims conflict only
 * with each other. */
#define EV_ADDR_ONCEQ(w) ((1ull << 55) | (uint64_t)(w))

/* An EV_END at a hook rather than exit_group: the thread has reached
 * __assert_fail, or __VERIFIER_error / reach_error; performing it ends
 * the execution. */
enum { END_BY_ASSERT = 1, END_BY_ERROR_CALL };

/* The end of the process (exit_group, a crash, an abort) as accesses: it
 * writes every fd and the kernel's state.  It conflicts with what a
 * program shows outside (output, syscalls, another end), not with plain
 * memory accesses of the threads it cuts short: nothing can see those
 * after the end, and a thread's pending event that could still have run
 * before it is put there by dpor_ended(). */
static inline void ev_end_accesses(struct dec_access *acc, int *nacc)
{
	acc[0] = (struct dec_access){ EV_ADDR_FD, EV_NFDS, DEC_WRITE, 0 };
	acc[1] = (struct dec_access){ EV_ADDR_KERNEL, 1,
				      DEC_READ | DEC_WRITE, 0 };
	*nacc = 2;
}

enum tr_tstatus { TS_RUNNABLE, TS_BLOCKED, TS_EXITED };

/* What a blocked thread waits for. */
enum tr_wait { TW_NONE, TW_FUTEX, TW_LOCK_PI, TW_JOIN,
	       TW_AWAIT, /* a spin loop: until wait_addr.. change (await.h) */
	       TW_ASSUME, /* __VERIFIER_assume(0): forever (infeasible) */
	       TW_SIGWAIT, /* sigwait & co: until a signal of its set */
	       /* pthread objects (sync.c): until wait_addr's state lets the
		* call go on */
	       TW_MUTEX, TW_COND, TW_SEM, TW_BARRIER, TW_RWLOCK,
	       TW_WORD_LOCK, /* HOOK_SYNC_WORD_LOCK: until the word is 0 */
	       TW_ONCE, /* a one-time initialisation (a guard, pthread_once,
			 * Rust's Once): until another thread's is done */
	       TW_LIMIT /* a pthread_create beyond --max-threads: forever,
			 * the execution ends cut (END_THREADS) */ };

struct tr_thread_info {
	int tid;            /* logical id: 0 = main, then in creation order */
	long os_tid;        /* the tid the program sees */
	enum tr_tstatus status;
	enum tr_wait wait;
	uint64_t wait_addr; /* futex word */
	int wait_for;       /* TW_JOIN: the thread being joined */
	bool timed;         /* the wait has a timeout */
	uint64_t wait_pc;   /* pc of the blocking syscall */
	uint64_t wait_caller; /* first return address into the executable */
	int nawait;           /* TW_AWAIT: locations the loop reads (first */
	uint64_t await_addr[4]; /* few), wait_pc the loop's first event */
	bool pending_known;
	struct tr_event pending;
};

enum tr_end_kind {
	END_NONE = 0, /* still running */
	END_EXIT,     /* exit status in .status */
	END_SIGNAL,   /* killed by .sig (abort, crash), in thread .tid */
	END_DEADLOCK, /* every live thread blocked */
	END_LIVELOCK, /* every live thread blocked, some in spin loops */
	END_STEPS,    /* --max-steps reached */
	END_THREADS,  /* a thread beyond the TR_AUX_BASE logical threads
		       * x86smc holds: the execution is cut there */
	END_UNSUPPORTED, /* the target did something x86smc cannot model */
	END_INTERRUPTED, /* x86smc was interrupted (SIGINT) */
	END_INTERNAL, /* internal failure (logged) */
	END_ASSUME,   /* nothing can run and a thread is blocked by a failed
		       * __VERIFIER_assume: the execution is infeasible */
	END_ERROR_CALL, /* __VERIFIER_error() or reach_error() was called
			 * (.message: its name, .pc: the call) */
	END_MISUSE,   /* a pthread object misused (.message says how, .pc:
		       * the call, .fault_addr: the object): unlocking a
		       * mutex the thread does not hold, destroying one in
		       * use, ... (sync.c) */
};

struct tr_end {
	enum tr_end_kind kind;
	int status;
	int sig;
	int tid;
	uint64_t pc;          /* where the thread was (crash, abort) */
	uint64_t fault_addr;  /* crash: si_addr */
	bool asserted;        /* abort after __assert_fail */
	uint64_t assert_call; /* pc of the call to __assert_fail */
	uint64_t callee;      /* END_ERROR_CALL: the function called */
	char message[512];    /* assertion text, unsupported op, ... */
	/* A language runtime's fatal error (langrt.c): thread .tid reached
	 * the hook; lang_ret[] its return addresses there, innermost first
	 * (up to the caller of the program's first frame).  A Rust panic
	 * ends the execution at once, as SIGABRT (what -C panic=abort
	 * does), after the panic hook printed its message; after
	 * std::terminate the handler runs on and the execution ends, as
	 * SIGABRT, when it calls abort() (the process left stopped there,
	 * not killed by the signal: --gdb can look at it). */
	uint8_t lang;         /* enum tr_lang */
#define TR_LANG_RETS 24
	uint64_t lang_ret[TR_LANG_RETS];
};

enum tr_lang { LANG_NONE, LANG_RUST_PANIC, LANG_CXX_TERMINATE };

struct escape_set;

struct tracer_opts {
	struct escape_set *escapes; /* shared by executions; NULL: private */
	int cpu;                 /* -1: current CPU */
	unsigned long max_steps; /* per execution, 0 = unlimited */
	unsigned block_seconds;  /* a syscall blocked in the kernel longer
				  * than this is an error (0 = 10) */
	bool tso;                /* simulate store buffers (tso or pso) */
	bool pso;                /* one buffer per (thread, location) */
	bool sanity;             /* check every stepped instruction's
				  * predicted accesses against memory */
	int max_threads;         /* logical threads an execution may have
				  * (--max-threads; 0: TR_AUX_BASE) */
};

struct tracer;

struct tracer *tracer_new(const struct tracer_opts *o);
void tracer_free(struct tracer *t);

/* Launch the program and run it to its entry point (every library it
 * needs is mapped then: the time to install hooks).  Returns 0, or -1 with
 * a one-line message when the program cannot be run. */
int tracer_start(struct tracer *t, char *const argv[])
	__attribute__((warn_unused_result));
/* Run natively up to the creation of the second thread (or the end). */
int tracer_go(struct tracer *t);

/* Fork snapshots (snapshot.c).  tracer_snapshot() keeps a stopped copy
 * of the target as it is now (syscall_fn: an address near a syscall
 * instruction, e.g. libc's syscall()); tracer_restore() ends the current
 * execution and continues from a fresh copy of the snapshot;
 * tracer_finish() ends the current execution's process. */
int tracer_snapshot(struct tracer *t, uint64_t syscall_fn);
int tracer_restore(struct tracer *t);
/* Checkpoints: a fork of the target between two events (at a scheduling
 * point, not in native mode nor inside an atomic section), with a copy
 * of the tracer's per-execution state (logical threads, store buffers,
 * output, virtual clock).  An execution continues from one instead of
 * replaying its prefix from the snapshot.  NULL: not possible here. */
struct tr_checkpoint *tracer_checkpoint(struct tracer *t);
int tracer_resume(struct tracer *t, struct tr_checkpoint *c);
void tracer_checkpoint_free(struct tracer *t, struct tr_checkpoint *c);
void tracer_finish(struct tracer *t);

int tracer_nthreads(const struct tracer *t);
/* Status of thread tid without computing its pending event. */
enum tr_tstatus tracer_status(const struct tracer *t, int tid);
/* Status and pending event of thread tid (the pending event is computed
 * when first asked for: that may run the thread's local code, and may end
 * the execution). */
const struct tr_thread_info *tracer_thread(struct tracer *t, int tid);

/* Perform tid's pending event (tid must be runnable) and advance tid to its
 * next event.  *done describes the event performed.  Returns 0, or 1 when
 * the execution ended (see tracer_end()). */
int tracer_step(struct tracer *t, int tid, struct tr_event *done);

/* May the thread of the next tracer_step() run natively (without
 * events) once it is the only live thread?  Only when every later event
 * of it happens after every event so far (dpor_covered): otherwise its
 * accesses can race with events of threads that have exited, and those
 * races must be seen.  Default: false. */
void tracer_allow_native(struct tracer *t, bool ok);

/* tso/pso: does thread tid have buffered stores? */
bool tracer_buffered(const struct tracer *t, int tid);
/* The buffers (slots) holding stores, id s for slot s: the update
 * threads TR_AUX_BASE + s that can run now. */
tset tracer_update_mask(const struct tracer *t);
/* The thread whose stores slot s buffers (-1: none yet). */
int tracer_slot_owner(const struct tracer *t, int slot);
/* The update event of slot s: its oldest store reaches memory. */
int tracer_flush(struct tracer *t, int slot, struct tr_event *done);

/* When no thread is runnable: wake the oldest timed wait with ETIMEDOUT
 * (a virtual clock jump).  Returns 0 if one was woken, -1 if none. */
int tracer_timeout_one(struct tracer *t);

/* Thread tid, blocked in a timed wait (tr_thread_info.timed), times out
 * now, as an event (EV_TIMEOUT, into *done): the virtual clock reaches
 * its deadline, the call returns ETIMEDOUT (a timed condvar wait relocks
 * its mutex first).  Returns 0, or 1 if tid is not in a timed wait. */
int tracer_timeout(struct tracer *t, int tid, struct tr_event *done);

/* End the execution as a deadlock (every live thread blocked). */
void tracer_set_deadlock(struct tracer *t);

const struct tr_end *tracer_end(const struct tracer *t);
bool tracer_ended(const struct tracer *t);
/* Is a thread held at a pthread_create beyond the thread limit?  Then
 * the execution, however it ended, left out what that thread would have
 * done next: it counts as cut (thread_limit_executions). */
bool tracer_limit_held(const struct tracer *t);

/* Bytes the target wrote to fd 1 / fd 2 in this execution. */
const char *tracer_output(const struct tracer *t, int fd, size_t *len);

struct tracer_stats {
	uint64_t ptrace_stops, events, steps, breakpoints, walks, switches,
		snapshots, checkpoints;
	uint64_t sanity_checked, sanity_mismatches; /* --sanity */
	uint64_t awaits;     /* spin loops turned into waits */
	uint64_t spin_live;  /* counted spins whose counter was read after
			      * the loop: not counted spins after all */
	uint64_t emulated;   /* events performed without a single step
			      * (emulate.h) */
	uint64_t local_emulated; /* register-only instructions between
				  * events run by the tracer (emu_local) */
	uint64_t pso_shared; /* pso stores put in a shared FIFO: out of
			      * update threads */
	uint64_t recycles;   /* restores without a fork (recycle.c) */
	uint64_t recycle_pages; /* pages they copied */
};
void tracer_stats(const struct tracer *t, struct tracer_stats *s);

/* Granules this execution made escaped (the explorer restarts its search
 * when this is non-zero: the set of events changed). */
size_t tracer_new_escapes(const struct tracer *t);

/* pid of the traced process (for symbolization). */
int tracer_pid(const struct tracer *t);

/* A thread blocked as waiting in a spin loop (await.h): the last n
 * events of thread tid were an iteration that changed nothing (read the
 * values they read, wrote nothing new).  Later writes need not be
 * explored before them: the thread reads again once woken, which is the
 * same (the explorer marks them, dpor_stutter).  Returns false when
 * none is left to tell. */
struct tr_stutter {
	int tid, n;
};
bool tracer_take_stutter(struct tracer *t, struct tr_stutter *s);

/* The addresses of glibc's FILE objects of fds 0, 1, 2 (_IO_2_1_stdin_,
 * ...; 0: unknown): a stdio call run as one step accesses its FILE. */
void tracer_set_stdio(struct tracer *t, const uint64_t file[3]);

/* Install a hook: when any thread reaches pc, the tracer records it
 * (used for __assert_fail). */
enum tr_hook { HOOK_ASSERT_FAIL = 1, HOOK_PTHREAD_CREATE,
	       HOOK_PTHREAD_JOIN, HOOK_PTHREAD_EXIT,
	       /* the benchmark conventions (docs/EVENTS.md): the function is
		* not run, its effect is emulated and it returns at once,
		* except for HOOK_ATOMIC_CALL (run as one step) */
	       HOOK_ASSUME,       /* __VERIFIER_assume(c) */
	       HOOK_ERROR,        /* __VERIFIER_error(), reach_error() */
	       HOOK_ATOMIC_BEGIN, /* __VERIFIER_atomic_begin() */
	       HOOK_ATOMIC_END,   /* __VERIFIER_atomic_end() */
	       HOOK_ATOMIC_CALL,  /* any other __VERIFIER_atomic_* */
	       HOOK_NONDET,       /* __VERIFIER_nondet_*: HOOK_NONDET + type
				   * (enum tr_nondet) */
	       HOOK_NONDET_LAST = HOOK_NONDET + ND_NTYPES - 1,
	       /* library calls run as one step (RG_LIB), by what they touch */
	       HOOK_LIB_ALLOC,    /* returns a block: malloc, calloc, ... */
	       HOOK_LIB_FREE,     /* free(p) */
	       HOOK_LIB_REALLOC,  /* realloc(p, n): frees p, returns one */
	       HOOK_LIB_MEMALIGN, /* posix_memalign(&p, a, n) */
	       HOOK_LIB_OWN,      /* the caller's own state, nothing
				   * shared: __cxa_thread_atexit_impl,
				   * pthread_setspecific */
	       HOOK_LIB_KEY,      /* pthread_key_create, _delete: the
				   * table of keys (EV_ADDR_KEYS) */
	       /* stdio output, by the shape of the arguments (library.c):
		* the stream, and the program memory the call reads */
	       HOOK_LIB_PUTCHAR,  /* putchar(c) */
	       HOOK_LIB_PUTS,     /* puts(s) */
	       HOOK_LIB_PERROR,   /* perror(s): stderr */
	       HOOK_LIB_PRINTF,   /* printf(fmt, ...) */
	       HOOK_LIB_VPRINTF,  /* vprintf(fmt, ap) */
	       HOOK_LIB_PRINTF_CHK,  /* __printf_chk(flag, fmt, ...) */
	       HOOK_LIB_VPRINTF_CHK, /* __vprintf_chk(flag, fmt, ap) */
	       HOOK_LIB_FPRINTF,  /* fprintf(f, fmt, ...) */
	       HOOK_LIB_VFPRINTF, /* vfprintf(f, fmt, ap) */
	       HOOK_LIB_FPRINTF_CHK,  /* __fprintf_chk(f, flag, fmt, ...) */
	       HOOK_LIB_VFPRINTF_CHK, /* __vfprintf_chk(f, flag, fmt, ap) */
	       HOOK_LIB_FFLUSH,   /* fflush(f) */
	       HOOK_LIB_FPUTS,    /* fputs(s, f) */
	       HOOK_LIB_FPUTC,    /* fputc(c, f), putc(c, f) */
	       HOOK_LIB_FWRITE,   /* fwrite(p, size, n, f) */
	       HOOK_LIB_LAST = HOOK_LIB_FWRITE,
	       /* pthread synchronisation as single events (sync.c,
		* --sync calls): the call is not run, its effect on the
		* object is emulated */
	       HOOK_SYNC_MUTEX_LOCK,
	       HOOK_SYNC_MUTEX_TRYLOCK,
	       HOOK_SYNC_MUTEX_TIMEDLOCK,
	       HOOK_SYNC_MUTEX_UNLOCK,
	       HOOK_SYNC_MUTEX_DESTROY,
	       HOOK_SYNC_COND_WAIT,
	       HOOK_SYNC_COND_TIMEDWAIT,
	       HOOK_SYNC_COND_CLOCKWAIT,
	       HOOK_SYNC_COND_SIGNAL,
	       HOOK_SYNC_COND_BROADCAST,
	       HOOK_SYNC_COND_DESTROY,
	       HOOK_SYNC_SEM_WAIT,
	       HOOK_SYNC_SEM_POST,
	       HOOK_SYNC_BARRIER_WAIT,
	       HOOK_SYNC_RW_RDLOCK,
	       HOOK_SYNC_RW_WRLOCK,
	       HOOK_SYNC_RW_TRYRDLOCK,
	       HOOK_SYNC_RW_TRYWRLOCK,
	       HOOK_SYNC_RW_UNLOCK,
	       /* the contended lock of a mutex on a futex word (Rust's
		* std: futex::Mutex::lock_contended): waits until the word
		* is 0, then takes it (sync.c) */
	       HOOK_SYNC_WORD_LOCK,
	       /* the lock cmpxchg of its fast path, inlined into the
		* caller, whose failure calls that function: waits until
		* the word is 0 instead of failing (sync.c) */
	       HOOK_SYNC_WORD_FAST,
	       /* one-time initialisation on a word (sync.c): C++'s
		* function-local statics (libstdc++'s guard) and
		* pthread_once (std::call_once) */
	       HOOK_SYNC_GUARD_ACQUIRE,
	       HOOK_SYNC_GUARD_RELEASE,
	       HOOK_SYNC_GUARD_ABORT,
	       HOOK_SYNC_ONCE,
	       /* Rust std's Once::call (under call_once, OnceLock,
		* LazyLock): the futex Once of rustc 1.64 on (a u32: 0
		* complete, 1 running) and the queue Once before (a usize:
		* 3 complete, 2 running); done: one event, running in
		* another thread: waits (sync.c) */
	       HOOK_SYNC_RUST_ONCE,
	       HOOK_SYNC_RUST_ONCE_Q,
	       /* Rust std's futex RwLock, inlined into the program: a
		* reader's lock cmpxchg (its failure calls read_contended)
		* and its unlock's lock xadd of -1 (read_unlock): readers
		* commute with each other (sync.c sync_rw_reader) */
	       HOOK_SYNC_RW_RFAST,
	       HOOK_SYNC_RW_RUNLOCK,
	       HOOK_SYNC_FIRST = HOOK_SYNC_MUTEX_LOCK,
	       HOOK_SYNC_LAST = HOOK_SYNC_RW_RUNLOCK,
	       /* language runtimes (langrt.c): Rust's __rust_start_panic
		* (the panic hook has printed the message), C++'s
		* std::terminate and __cxxabiv1::__terminate */
	       HOOK_LANG_PANIC,
	       HOOK_LANG_TERMINATE,
	       HOOK_LANG_ABORT,   /* abort(), after std::terminate: ends it */
	       HOOK_NKINDS };

/* EV_SYNC events that take a lock and wait for it while it is held (not
 * the try variants): a mutex lock, a condvar wait's relock (one access,
 * the mutex), a rwlock lock.  *obj: the lock. */
static inline bool ev_acquires(const struct tr_event *ev, uint64_t *obj)
{
	if (ev->kind != EV_SYNC || ev->nacc != 1)
		return false;
	switch (ev->sync_op) {
	case HOOK_SYNC_MUTEX_LOCK: case HOOK_SYNC_MUTEX_TIMEDLOCK:
	case HOOK_SYNC_COND_WAIT: case HOOK_SYNC_COND_TIMEDWAIT:
	case HOOK_SYNC_COND_CLOCKWAIT:
	case HOOK_SYNC_RW_RDLOCK: case HOOK_SYNC_RW_WRLOCK:
		*obj = ev->acc[0].addr;
		return true;
	default:
		return false;
	}
}

/* Calls that may take a lock or fail: a lock, a try, a timed lock.  Their
 * EV_SYNC event's rval[0] is the call's result (0: it took the lock;
 * sync.c). */
static inline bool sync_lock_call(uint8_t op)
{
	switch (op) {
	case HOOK_SYNC_MUTEX_LOCK: case HOOK_SYNC_MUTEX_TRYLOCK:
	case HOOK_SYNC_MUTEX_TIMEDLOCK:
	case HOOK_SYNC_RW_RDLOCK: case HOOK_SYNC_RW_WRLOCK:
	case HOOK_SYNC_RW_TRYRDLOCK: case HOOK_SYNC_RW_TRYWRLOCK:
		return true;
	default:
		return false;
	}
}

/* EV_SYNC events that release lock obj: an unlock, a condvar wait (two
 * accesses: the condvar, then the mutex it releases). */
static inline bool ev_releases(const struct tr_event *ev, uint64_t obj)
{
	if (ev->kind != EV_SYNC)
		return false;
	switch (ev->sync_op) {
	case HOOK_SYNC_MUTEX_UNLOCK: case HOOK_SYNC_RW_UNLOCK:
		return ev->acc[0].addr == obj;
	case HOOK_SYNC_COND_WAIT: case HOOK_SYNC_COND_TIMEDWAIT:
	case HOOK_SYNC_COND_CLOCKWAIT:
		return ev->nacc == 2 && ev->acc[1].addr == obj;
	default:
		return false;
	}
}

/* Does ev write some of [addr, addr + n)? */
static inline bool ev_writes(const struct tr_event *ev, uint64_t addr,
			     uint64_t n)
{
	for (int i = 0; i < ev->nacc; i++)
		if ((ev->acc[i].rw & DEC_WRITE) && ev->acc[i].addr < addr + n &&
		    addr < ev->acc[i].addr + ev->acc[i].size)
			return true;
	return false;
}

int tracer_add_hook(struct tracer *t, uint64_t pc, enum tr_hook h);

/* A language runtime whose threads start in start[0..nstart) (the
 * routine it gives pthread_create) and run the program's code inside
 * calls of user[0..nuser) (Rust's __rust_begin_short_backtrace): the
 * runtime's own start of such a thread, up to the first of those calls,
 * belongs to its lifecycle (RG_START; enum tr_region).  Returns 0 or -1. */
int tracer_set_runtime(struct tracer *t, const uint64_t *start,
		       size_t nstart, const uint64_t *user, size_t nuser);

/* The value the next EV_NONDET event of any thread returns (before its
 * tracer_step); truncated to the event's type.  For a pthread_cond_signal
 * with more than one waiter: which of them it wakes (0: the oldest); the
 * event's .value is then that choice + 1 (else 0). */
void tracer_set_value(struct tracer *t, int64_t v);

/* How many threads wait on condvar c now (a signal chooses among them). */
unsigned tracer_cond_waiters(struct tracer *t, uint64_t c);

/* A runnable thread in the middle of an atomic section (paused at a
 * __VERIFIER_nondet_* call inside it): only it may run now.  -1: none. */
int tracer_exclusive(struct tracer *t);

/* Read target memory (for reports). */
size_t tracer_read(struct tracer *t, uint64_t addr, void *buf, size_t n);

/* For reports: the bytes of the instruction at pc as decoded (from the
 * decode cache, so it works after the target ended); 0 if unknown. */
size_t tracer_insn(struct tracer *t, uint64_t pc, uint8_t *buf, size_t n);

/* The function the call instruction in reaches: a direct call's target,
 * a call through [rip + imm], and through a PLT entry's jmp [rip + imm]
 * (x86smc runs the program with LD_BIND_NOW); 0 if unknown (spin.c). */
uint64_t tracer_callee(struct tracer *t, const struct dec_insn *in);

/* For reports: where thread tid is in the program's own code, by
 * unwinding its stack (the tracer_set_unwind rules): its pc if its
 * innermost frame is the program's, else the return address into the
 * first such frame; 0 if none is reached.  A Rust program blocked inside
 * std (linked into the executable) is shown at its own call. */
uint64_t tracer_user_pc(struct tracer *t, int tid);

/* For reports: the thread whose stack (*tls false) or TLS/thread
 * descriptor (*tls true) holds addr, or -1. */
int tracer_mem_owner(const struct tracer *t, uint64_t addr, bool *tls);

/* For reports (tr_event.ret, tr_end.lang_ret): unwinding of a thread's
 * stack by the x86-64 DWARF CFI the explorer reads.  The rule at code
 * address pc: CFA = (reg 7 rsp, 6 rbp) + off; the return address is at
 * CFA - 8; rbp is unchanged or saved at CFA + rbp_off.  user: the code
 * at pc is the program's own (unwinding stops after its caller).
 * Returns 0, or -1 when there is no rule (unwinding stops). */
struct tr_cfa {
	int reg;
	int64_t off;
	bool rbp_saved;
	int64_t rbp_off;
	bool user;
};
typedef int (*tr_cfa_fn)(void *ctx, uint64_t pc, struct tr_cfa *out);
void tracer_set_unwind(struct tracer *t, tr_cfa_fn fn, void *ctx);

/* --replay --gdb / --core (handoff.h): at the end of an execution, put
 * thread tid's state in the process, take x86smc's breakpoints out and
 * detach it with a SIGSTOP pending.  Returns its pid (the tracer forgets
 * it: handoff_debug() ends it), or -1 if there is no such process. */
pid_t tracer_handoff(struct tracer *t, int tid);

/* --assume-fence: simulate an MFENCE right after the instruction at pc:
 * the next event of a thread that executed it waits for an empty store
 * buffer.  func: the start of the function holding pc (0: unknown), to
 * check that pc starts an instruction.  Call before tracer_go().
 * Returns 0, -2 if pc is not an instruction, -1 on failure. */
int tracer_assume_fence(struct tracer *t, uint64_t pc, uint64_t func);

const char *ev_kind_name(enum ev_kind k);

#endif
