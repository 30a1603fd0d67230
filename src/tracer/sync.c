/* sync.c — pthread synchronisation as single events (--sync calls, the
 * default; issue 16).
 *
 * A call of pthread_mutex_lock and friends is not run: at the hook on the
 * function's entry the tracer decides whether the call can complete now,
 * and if so makes it one event (EV_SYNC) whose effect it performs on the
 * object itself, then returns to the caller.  A call that would block
 * makes its thread blocked (TW_MUTEX, TW_COND, ...) without an event, so
 * that the thread is not enabled until the object lets it go on: the
 * search sees one event per lock, unlock, wait, signal and post, and
 * dependencies only between calls on the same object (its first bytes are
 * the event's access).  glibc's own code inside (a lock cmpxchg, a futex
 * wait and wake, the condvar's group switching) is no event at all:
 * counter_mutex's 2 x 2 critical sections took 2,798 executions explored
 * through it.
 *
 * The emulated state lives in the object's own memory, in glibc's layout
 * (2.36, x86-64), so that forks of the target (snapshots, checkpoints)
 * carry it, and glibc's code, which runs natively while one thread is
 * left, finds the object as its own code would have left it:
 *   mutex   __lock (0) 0 free / 1 held, __count (4) recursion depth,
 *           __owner (8) tid, __nusers (12), __kind (16): normal,
 *           recursive, errorcheck, adaptive (robust, priority-inheritance
 *           and priority-protect mutexes are not handled here: their calls
 *           run as glibc's code, instruction by instruction);
 *   rwlock  __readers (0) = readers << 3 while read-held, 3 (write phase,
 *           write-locked) while write-held with __cur_writer (24) = tid;
 *   sem     the low 32 bits of the data word (0) are the value;
 *   barrier in (0) arrivals of the current round, count (8) from init;
 *   condvar nothing: its waiters are the threads blocked in TW_COND on it
 *           (a signal wakes the oldest; broadcast all).
 * pthread_cond_wait is three steps: the wait event (unlocks the mutex,
 * the thread blocks on the condvar), the signal or broadcast (another
 * thread's event) or a timeout, and the relock event (enabled when the
 * mutex is free), after which the call returns.  Every waiter of an
 * object is looked at again after each event on it, and a thread whose
 * pending event a lock made impossible is blocked again: the enabled set
 * the explorer sees is exact.  Spurious wake-ups are not produced.
 *
 * Misuse (unlocking a mutex the thread does not hold, destroying a held
 * mutex or a condvar with waiters) ends the execution as END_MISUSE.
 *
 * A mutex on a futex word of its own (Rust's std::sync::Mutex: 0 free, 1
 * held, 2 held with waiters) is taken by a lock cmpxchg 0 -> 1 and
 * released by an xchg with 0, both inlined into the program and explored
 * as the locked instructions they are; only its contended path, a
 * function (HOOK_SYNC_WORD_LOCK: spin 100 times, mark the word 2, sleep
 * in FUTEX_WAIT, again), is one event here: the thread is blocked
 * (TW_WORD_LOCK) until a write leaves the word 0 (sync_word_written),
 * then the event sets it to 1 and the call returns.  The word is never 2
 * then, so the unlock wakes nobody: no thread of ours sleeps in the
 * kernel on it.  Spinning, marking and sleeping are no events: the
 * lock's interleavings are those of its cmpxchg, its xchg and this
 * event (dpor.c, race(): the lock rule covers them).
 *
 * One-time initialisation waits the same way (TW_ONCE):
 *   __cxa_guard_acquire (libstdc++, futex build: the guard's first word,
 *     1 done, 0x100 pending, 0x10000 pending with sleepers) is one event:
 *     done -> returns 0; free -> marks it pending, returns 1 (the caller
 *     constructs the object); pending -> waits until it is not;
 *     __cxa_guard_release marks it done, __cxa_guard_abort free again;
 *   pthread_once (glibc: 2 done, 1 in progress, fork generation above):
 *     done -> one event that returns 0; in progress in another thread ->
 *     waits until done; not started -> glibc's code runs as it is;
 *   Rust's Once::call (rust_once_at) the same, with a claim as the first
 *     caller's event when not started. */
#include <errno.h>
#include <linux/futex.h>
#include <stdio.h>
#include <string.h>

#include "tracer/determ.h"
#include "tracer/tracer_priv.h"

enum { M_LOCK = 0, M_COUNT = 4, M_OWNER = 8, M_NUSERS = 12, M_KIND = 16 };
enum { K_NORMAL, K_RECURSIVE, K_ERRORCHECK, K_ADAPTIVE };
enum { RW_READERS = 0, RW_WRITER = 24, RW_FLAGS = 48, RW_READER_SHIFT = 3,
       RW_WRLOCKED = 3, RW_PREFER_WRITER_NONRECURSIVE = 2 };
enum { B_IN = 0, B_COUNT = 8 };
enum { G_DONE = 1, G_PENDING = 0x100, G_WAITING = 0x10000 };
enum { ONCE_INPROGRESS = 1, ONCE_DONE = 2 };
/* Rust's Once: futex (u32; QUEUED, 4, is a bit above) and queue (usize;
 * the waiters' list above the two bits) */
enum { ONCE_R_COMPLETE = 0, ONCE_R_RUNNING = 1, ONCE_Q_RUNNING = 2,
       ONCE_Q_COMPLETE = 3 };
enum { PHASE_NONE, PHASE_WAITING, PHASE_RELOCK, PHASE_TIMEDOUT };
#define BARRIER_SERIAL (-1)

bool sync_hook(uint8_t hook)
{
	return hook >= HOOK_SYNC_FIRST && hook <= HOOK_SYNC_LAST;
}

static uint32_t rd32(struct tracer *t, uint64_t a)
{
	uint32_t v = 0;

	proc_read(&t->proc, a, &v, 4);
	return v;
}

static int wr32(struct tracer *t, uint64_t a, uint32_t v)
{
	return proc_write(&t->proc, a, &v, 4) == 4 ? 0 : -1;
}

static uint32_t my_tid(const struct lthread *th)
{
	return (uint32_t)th->info.os_tid;
}

/* ---- the object's state ---- */

static int mutex_kind(struct tracer *t, uint64_t m)
{
	uint32_t k = rd32(t, m + M_KIND);

	return (k & 0x7c) ? -1 : (int)(k & 3); /* robust, PI, PP: not ours */
}

/* Can th take mutex m now (free, or a recursive one it holds)? */
static bool mutex_free_for(struct tracer *t, const struct lthread *th,
			   uint64_t m)
{
	if (!rd32(t, m + M_LOCK))
		return true;
	return rd32(t, m + M_OWNER) == my_tid(th) &&
	       mutex_kind(t, m) != K_NORMAL && mutex_kind(t, m) != K_ADAPTIVE;
}

static int mutex_take(struct tracer *t, const struct lthread *th, uint64_t m)
{
	if (rd32(t, m + M_LOCK) && rd32(t, m + M_OWNER) == my_tid(th))
		return wr32(t, m + M_COUNT, rd32(t, m + M_COUNT) + 1);
	return wr32(t, m + M_LOCK, 1) | wr32(t, m + M_OWNER, my_tid(th)) |
	       wr32(t, m + M_COUNT, mutex_kind(t, m) == K_RECURSIVE) |
	       wr32(t, m + M_NUSERS, rd32(t, m + M_NUSERS) + 1);
}

/* Release m (held by th); a recursive one only at its last unlock. */
static int mutex_release(struct tracer *t, uint64_t m, bool all)
{
	uint32_t c = rd32(t, m + M_COUNT);

	if (mutex_kind(t, m) == K_RECURSIVE && c > 1 && !all)
		return wr32(t, m + M_COUNT, c - 1);
	return wr32(t, m + M_OWNER, 0) | wr32(t, m + M_COUNT, 0) |
	       wr32(t, m + M_NUSERS, rd32(t, m + M_NUSERS) - 1) |
	       wr32(t, m + M_LOCK, 0);
}

/* A rwlock that prefers writers (PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP:
 * a reader waits while a writer waits) is glibc's code. */
static bool rw_ours(struct tracer *t, uint64_t rw)
{
	return rd32(t, rw + RW_FLAGS) != RW_PREFER_WRITER_NONRECURSIVE;
}

/* glibc's rdlock and wrlock return EDEADLK to the thread that holds the
 * lock for writing, instead of waiting for good. */
static bool rw_own_write(struct tracer *t, const struct lthread *th,
			 uint64_t rw)
{
	return rd32(t, rw + RW_READERS) == RW_WRLOCKED &&
	       rd32(t, rw + RW_WRITER) == my_tid(th);
}

static bool rw_can(struct tracer *t, uint64_t rw, bool write)
{
	uint32_t r = rd32(t, rw + RW_READERS);

	return write ? r == 0 : r != RW_WRLOCKED;
}

/* A reader's lock of a rwlock no writer holds, or a reader's unlock:
 * the word ends the same whichever of two readers goes first, and
 * neither can make the other wait, so for the search the event only
 * reads the word (docs/LIBRARY.md, "pthread rwlocks: readers commute").
 * A writer's lock and unlock, and the try variants, write it: they race
 * with every reader, the unlock that let a writer in among them. */
static bool rw_shared(struct tracer *t, uint64_t rw, uint8_t hook)
{
	uint32_t r;

	if (hook != HOOK_SYNC_RW_RDLOCK && hook != HOOK_SYNC_RW_UNLOCK)
		return false;
	r = rd32(t, rw + RW_READERS);
	return hook == HOOK_SYNC_RW_RDLOCK ? r != RW_WRLOCKED
					   : r >= 1u << RW_READER_SHIFT;
}

/* ---- blocking and waking ---- */

static void block(struct tracer *t, struct lthread *th, enum tr_wait w,
		  uint64_t obj, uint64_t deadline)
{
	uint64_t ret = 0;

	proc_read(&t->proc, th->regs.rsp, &ret, 8);
	th->info.status = TS_BLOCKED;
	th->info.wait = w;
	th->info.wait_addr = obj;
	th->info.wait_for = -1;
	th->info.timed = deadline != 0;
	th->wait_deadline = deadline;
	th->info.wait_pc = ret ? ret - 5 : th->regs.rip;
	th->info.wait_caller = ret;
	th->wait_seq = ++t->wait_seq;
	th->need_advance = false;
	th->info.pending_known = false;
}

/* After an event on obj: every thread waiting for it, and every thread
 * whose pending event is a call on it, looks again (at its hook, when
 * its pending event is next asked for).  No `woke' edge: the call it
 * then makes accesses obj and so comes after this event anyway, as a
 * race the explorer must see (a lock that waited for an unlock is
 * reversed with the lock before that unlock: dpor.c, race()). */
static void revisit(struct tracer *t, const struct lthread *by, uint64_t obj)
{
	for (int i = 0; i < t->nthreads; i++) {
		struct lthread *o = &t->th[i];
		if (o == by || o->info.status == TS_EXITED)
			continue;
		/* condvar and barrier waiters go on when signalled or
		 * released (cond_wake, barrier_perform), not when looked at */
		bool waits = o->info.status == TS_BLOCKED &&
			     (o->info.wait == TW_MUTEX ||
			      o->info.wait == TW_SEM ||
			      o->info.wait == TW_RWLOCK) &&
			     o->info.wait_addr == obj;
		bool pending = o->info.status == TS_RUNNABLE &&
			       o->info.pending_known &&
			       o->info.pending.kind == EV_SYNC &&
			       o->info.pending.acc[0].addr == obj;
		if (!waits && !pending)
			continue;
		o->info.status = TS_RUNNABLE;
		o->info.wait = TW_NONE;
		o->info.pending_known = false;
		o->need_advance = true;
	}
}

/* The threads waiting on condvar c, oldest first (at most TR_MAX_THREADS);
 * returns how many. */
static int cond_waiters(struct tracer *t, uint64_t c, struct lthread **w)
{
	int n = 0;

	for (int i = 0; i < t->nthreads; i++) {
		struct lthread *o = &t->th[i];
		if (o->info.status != TS_BLOCKED || o->info.wait != TW_COND ||
		    o->info.wait_addr != c || o->sync_phase != PHASE_WAITING)
			continue;
		int k = n++;
		while (k > 0 && w[k - 1]->wait_seq > o->wait_seq) {
			w[k] = w[k - 1];
			k--;
		}
		w[k] = o;
	}
	return n;
}

unsigned tracer_cond_waiters(struct tracer *t, uint64_t c)
{
	struct lthread *w[TR_MAX_THREADS];

	return (unsigned)cond_waiters(t, c, w);
}

/* Signal or broadcast c: its waiters go on to relock their mutex.  A
 * signal wakes the pick-th oldest waiter: POSIX lets it wake any of
 * them (glibc's waiters of a group race for the signal), and the
 * explorer chooses which (explore.c choose_waiter).  Returns how many
 * waiters there were. */
static int cond_wake(struct tracer *t, uint64_t c, bool all, int pick)
{
	struct lthread *w[TR_MAX_THREADS];
	int n = cond_waiters(t, c, w);

	if (pick < 0 || pick >= n)
		pick = 0;
	int from = all ? 0 : pick, to = all || !n ? n : pick + 1;
	for (int i = from; i < to; i++) {
		struct lthread *o = w[i];
		o->sync_phase = PHASE_RELOCK;
		o->info.status = TS_RUNNABLE;
		o->info.wait = TW_NONE;
		o->need_advance = true;
		o->info.pending_known = false;
		ts_add(&t->woken, o->info.tid);
	}
	return n;
}

static bool cond_has_waiters(struct tracer *t, uint64_t c)
{
	for (int i = 0; i < t->nthreads; i++)
		if (t->th[i].info.status == TS_BLOCKED &&
		    t->th[i].info.wait == TW_COND &&
		    t->th[i].info.wait_addr == c)
			return true;
	return false;
}

/* A timed wait of th timed out (tracer_timeout_one): a timedlock
 * returns ETIMEDOUT, a timed condvar wait relocks its mutex first. */
void sync_timeout(struct lthread *th)
{
	th->sync_phase = PHASE_TIMEDOUT;
	th->info.status = TS_RUNNABLE;
	th->info.wait = TW_NONE;
	th->need_advance = true;
	th->info.pending_known = false;
}

static void misuse(struct tracer *t, struct lthread *th, const char *what,
		   uint64_t obj)
{
	uint64_t ret = 0;

	if (t->end.kind != END_NONE)
		return;
	proc_read(&t->proc, th->regs.rsp, &ret, 8);
	t->end.kind = END_MISUSE;
	t->end.tid = th->info.tid;
	t->end.pc = ret ? ret - 5 : th->regs.rip;
	t->end.fault_addr = obj;
	snprintf(t->end.message, sizeof t->end.message, "thread %d %s",
		 th->info.tid, what);
}

/* The absolute deadline of a timed call (virtual monotonic ns) from its
 * struct timespec argument; 0: none.  clockid -1: CLOCK_REALTIME. */
static uint64_t deadline_of(struct tracer *t, uint64_t ts, long clockid)
{
	long op = FUTEX_WAIT_BITSET | (clockid == 1 ? 0 : FUTEX_CLOCK_REALTIME);
	uint64_t d = 0;
	bool expired;

	if (det_futex_deadline(t, op, ts, &d, &expired) < 0)
		return 0;
	return d ? d : 1;
}

/* ---- the event at the hook ---- */

static void sync_acc(struct tr_event *ev, uint64_t obj, uint8_t hook)
{
	ev->kind = EV_SYNC;
	ev->sync_op = hook;
	ev->nacc = 1;
	ev->acc[0] = (struct dec_access){ obj, 4, DEC_READ | DEC_WRITE,
					  DEC_MEM_EXPLICIT };
}

/* The mutex hooks at the entry: 1 an event, 3 blocked, 0 not ours. */
static int mutex_at(struct tracer *t, struct lthread *th, uint8_t hook,
		    struct tr_event *ev)
{
	uint64_t m = th->regs.rdi;

	if (mutex_kind(t, m) < 0)
		return 0;
	if (hook == HOOK_SYNC_MUTEX_LOCK || hook == HOOK_SYNC_MUTEX_TIMEDLOCK) {
		bool self = rd32(t, m + M_LOCK) &&
			    rd32(t, m + M_OWNER) == my_tid(th);
		if (th->sync_phase != PHASE_TIMEDOUT &&
		    !mutex_free_for(t, th, m) &&
		    !(self && mutex_kind(t, m) == K_ERRORCHECK)) {
			block(t, th, TW_MUTEX, m,
			      hook == HOOK_SYNC_MUTEX_TIMEDLOCK
				      ? deadline_of(t, th->regs.rsi, -1)
				      : 0);
			return 3;
		}
	}
	sync_acc(ev, m, hook);
	if (th->sync_phase == PHASE_TIMEDOUT)
		ev->value = ETIMEDOUT; /* for reports */
	return 1;
}

/* pthread_cond_wait(c, m) and the timed ones: the wait event, or once
 * woken the relock event (enabled when m is free). */
static int cond_wait_at(struct tracer *t, struct lthread *th, uint8_t hook,
			struct tr_event *ev)
{
	uint64_t c = th->regs.rdi, m = th->regs.rsi;

	if (mutex_kind(t, m) < 0)
		return 0;
	if (th->sync_phase == PHASE_RELOCK ||
	    th->sync_phase == PHASE_TIMEDOUT) {
		if (!mutex_free_for(t, th, m)) {
			block(t, th, TW_MUTEX, m, 0);
			return 3;
		}
		sync_acc(ev, m, hook);
		if (th->sync_phase == PHASE_TIMEDOUT)
			ev->value = ETIMEDOUT; /* for reports */
		return 1;
	}
	sync_acc(ev, c, hook);
	ev->nacc = 2;
	ev->acc[1] = (struct dec_access){ m, 4, DEC_READ | DEC_WRITE,
					  DEC_MEM_EXPLICIT };
	return 1;
}

/* The calls that wait on a word (TW_WORD_LOCK), and the values of the
 * word that let them go on: a lock free, a guard free or done, a once
 * done or not started. */
static bool word_waits(uint8_t hook)
{
	return hook == HOOK_SYNC_WORD_LOCK || hook == HOOK_SYNC_GUARD_ACQUIRE ||
	       hook == HOOK_SYNC_ONCE || hook == HOOK_SYNC_RUST_ONCE ||
	       hook == HOOK_SYNC_RUST_ONCE_Q;
}

/* A Rust Once's state (the low two bits of its word): running, done. */
static bool rust_once_running(uint8_t hook, uint32_t v)
{
	return (v & 3) == (hook == HOOK_SYNC_RUST_ONCE ? ONCE_R_RUNNING
						       : ONCE_Q_RUNNING);
}

static bool rust_once_done(uint8_t hook, uint32_t v)
{
	return (v & 3) == (hook == HOOK_SYNC_RUST_ONCE ? ONCE_R_COMPLETE
						       : ONCE_Q_COMPLETE);
}

static bool word_ready(uint8_t hook, uint32_t v)
{
	switch (hook) {
	case HOOK_SYNC_GUARD_ACQUIRE:
		return v == 0 || v == G_DONE;
	case HOOK_SYNC_ONCE:
		return (v & ONCE_DONE) || !(v & ONCE_INPROGRESS);
	default:
		return v == 0;
	}
}

/* Has a thread other than th claimed the Rust Once at w (its closure
 * is theirs to run: they called it first while it was not started)? */
static bool once_claimed(const struct tracer *t, const struct lthread *th,
			 uint64_t w)
{
	for (int i = 0; i < t->nthreads; i++)
		if (&t->th[i] != th && t->th[i].once_claim == w &&
		    t->th[i].info.status != TS_EXITED)
			return true;
	return false;
}

/* Must th, calling the Rust Once at w whose word is v, wait: is it
 * running, or not done and claimed by another thread? */
static bool rust_once_waits(const struct tracer *t, const struct lthread *th,
			    uint64_t w, uint8_t hook, uint32_t v)
{
	return rust_once_running(hook, v) ||
	       (!rust_once_done(hook, v) && once_claimed(t, th, w));
}

/* Can th, waiting in call hook on the word at w, go on? */
static bool waiter_ready(struct tracer *t, const struct lthread *th,
			 uint64_t w, uint8_t hook)
{
	uint32_t v = rd32(t, w);

	if (hook == HOOK_SYNC_RUST_ONCE || hook == HOOK_SYNC_RUST_ONCE_Q)
		return !rust_once_waits(t, th, w, hook, v);
	return word_ready(hook, v);
}

/* th waits in call hook until a write to the word at w lets it go on
 * (sync_word_written, word_ready). */
static int word_block(struct tracer *t, struct lthread *th, uint64_t w,
		      uint8_t hook)
{
	block(t, th, hook == HOOK_SYNC_WORD_LOCK || hook == HOOK_SYNC_WORD_FAST
			     ? TW_WORD_LOCK
			     : TW_ONCE,
	      w, 0);
	th->word_hook = hook;
	return 3;
}

/* Rust's Once::call(once, ignore_poisoning, closure) at its entry: done,
 * an event that reads the word and returns; running, or claimed by
 * another thread, it waits (until done, or not started and unclaimed);
 * not started (or poisoned), the claim: an event after which the call
 * runs as std's code (its compare-exchange to running, the closure, the
 * store of done) while the others wait.  So the threads that find it not
 * started race only in their claims (on EV_ADDR_ONCEQ), not in std's
 * compare-exchanges and futex waits.  The claim lasts until the word is
 * written (sync_word_written).  1 an event, 3 blocked, 0 std's code. */
static int rust_once_at(struct tracer *t, struct lthread *th, uint8_t hook,
			struct tr_event *ev)
{
	uint64_t o = th->regs.rdi;
	uint32_t v = rd32(t, o);
	bool done = rust_once_done(hook, v);

	if (th->once_claim == o && !done)
		return 0; /* claimed: its code runs */
	if (rust_once_waits(t, th, o, hook, v))
		return word_block(t, th, o, hook);
	sync_acc(ev, o, hook);
	ev->acc[0].rw = DEC_READ;
	ev->rval[0] = ev->wval[0] = v;
	if (!done) {
		ev->nacc = 2;
		ev->acc[1] = (struct dec_access){ EV_ADDR_ONCEQ(o), 1,
						  DEC_WRITE,
						  DEC_MEM_EXPLICIT };
	}
	return 1;
}

/* Rust std's futex RwLock: its word (a u32) counts the readers in its
 * low 30 bits (all ones: write-locked); bit 30: readers wait, bit 31:
 * writers wait.  A reader takes it with a compare-exchange from the
 * value it loaded to that plus one (failing, it calls read_contended)
 * and releases it with a fetch_sub of 1 (the last one out calls
 * wake_writer_or_readers if a writer waits).  Two readers' locks and
 * unlocks commute when no thread waits: the word ends the same, each
 * compare-exchange succeeds, each unlock finds no writer to wake.  So:
 * the compare-exchange is made to succeed on the word as it is when it
 * runs (not as the reader loaded it: another reader may have come in
 * between, in an order the search does not tell apart), and such a lock
 * or unlock reads the word only, for the search (sync_rw_reader):
 * readers do not race with each other, a writer's compare-exchange, its
 * unlock and std's contended paths (atomic sections) write it and race
 * with every reader.  Readers then cost one execution per order of the
 * writers among them instead of one per order of every reader's
 * compare-exchange, unlock and load. */
enum { RW_R_MASK = (1u << 30) - 1, RW_R_WAITING = 3u << 30 };

static bool rw_lockable(uint32_t v)
{
	return (v & RW_R_MASK) < RW_R_MASK - 1 && !(v & RW_R_WAITING);
}

static int rw_reader_at(struct tracer *t, struct lthread *th, uint8_t hook,
			struct tr_event *ev)
{
	const struct dec_insn *in = dcache_get(t->dc, th->regs.rip);

	if (!in || in->alu.reg < 0)
		return 0;
	/* an unlock subtracts 1: xadd of -1 (a writer's subtracts more) */
	if (hook == HOOK_SYNC_RW_RUNLOCK &&
	    (uint32_t)*tr_gpr(&th->regs, in->alu.reg) != UINT32_MAX)
		return 0;
	ev->sync_op = hook;
	return 0; /* the instruction is the event */
}

void sync_rw_prepare(struct tracer *t, struct lthread *th,
		     const struct tr_event *ev)
{
	const struct dec_insn *in;
	uint32_t v;

	if (ev->kind != EV_RMW || ev->sync_op != HOOK_SYNC_RW_RFAST ||
	    ev->nacc != 1 || ev->acc[0].size != 4)
		return;
	in = dcache_get(t->dc, th->regs.rip);
	v = rd32(t, ev->acc[0].addr);
	if (!in || in->alu.reg < 0 || in->alu.reg == DEC_RAX ||
	    !rw_lockable(v))
		return; /* it fails, as the code has it: read_contended */
	th->regs.rax = v;
	*tr_gpr(&th->regs, in->alu.reg) = (uint64_t)v + 1;
	t->regs_dirty = true;
}

void sync_rw_reader(struct tr_event *ev)
{
	if (ev->kind != EV_RMW || ev->nacc != 1 || ev->acc[0].size != 4 ||
	    (ev->sync_op != HOOK_SYNC_RW_RFAST &&
	     ev->sync_op != HOOK_SYNC_RW_RUNLOCK))
		return;
	uint32_t r = (uint32_t)ev->rval[0], w = (uint32_t)ev->wval[0];
	bool reader = ev->sync_op == HOOK_SYNC_RW_RFAST
			      ? rw_lockable(r) && w == r + 1
			      : (r & RW_R_MASK) >= 1 &&
					(r & RW_R_MASK) < RW_R_MASK &&
					!(r & RW_R_WAITING) && w == r - 1;
	if (reader)
		ev->acc[0].rw = DEC_READ;
}

/* The fast path's lock cmpxchg (HOOK_SYNC_WORD_FAST): when the word is
 * 0 it is the event it is (eax is 0: it succeeds), marked for the lock
 * rule (dpor.c) and for sync_word_written; else the thread waits for 0,
 * as the slow path it would call does, instead of failing.  0: not ours
 * (eax is not 0: no lock). */
static int word_fast_at(struct tracer *t, struct lthread *th,
			struct tr_event *ev)
{
	const struct dec_insn *in = dcache_get(t->dc, th->regs.rip);
	struct dec_access acc[DEC_MAX_MEM];
	struct dec_regs dr;

	if (!in || (uint32_t)th->regs.rax != 0)
		return 0;
	tr_dec_regs(&th->regs, &dr);
	if (dec_accesses(in, &dr, acc, DEC_MAX_MEM) != 1)
		return 0;
	if (rd32(t, acc[0].addr) == 0) {
		ev->sync_op = HOOK_SYNC_WORD_FAST;
		return 0;
	}
	word_block(t, th, acc[0].addr, HOOK_SYNC_WORD_FAST);
	th->info.wait_pc = th->regs.rip; /* not at a call's entry */
	th->info.wait_caller = th->regs.rip + in->len;
	return 3;
}

int sync_event(struct tracer *t, struct lthread *th, uint8_t hook,
	       struct tr_event *ev)
{
	uint64_t o = th->regs.rdi;

	switch (hook) {
	case HOOK_SYNC_MUTEX_LOCK:
	case HOOK_SYNC_MUTEX_TRYLOCK:
	case HOOK_SYNC_MUTEX_TIMEDLOCK:
	case HOOK_SYNC_MUTEX_UNLOCK:
	case HOOK_SYNC_MUTEX_DESTROY:
		return mutex_at(t, th, hook, ev);
	case HOOK_SYNC_COND_WAIT:
	case HOOK_SYNC_COND_TIMEDWAIT:
	case HOOK_SYNC_COND_CLOCKWAIT:
		return cond_wait_at(t, th, hook, ev);
	case HOOK_SYNC_SEM_WAIT:
		if ((uint32_t)rd32(t, o) == 0) {
			block(t, th, TW_SEM, o, 0);
			return 3;
		}
		break;
	case HOOK_SYNC_RW_TRYRDLOCK:
	case HOOK_SYNC_RW_TRYWRLOCK:
	case HOOK_SYNC_RW_UNLOCK:
		if (!rw_ours(t, o))
			return 0;
		break;
	case HOOK_SYNC_RW_RDLOCK:
	case HOOK_SYNC_RW_WRLOCK:
		if (!rw_ours(t, o))
			return 0;
		if (!rw_own_write(t, th, o) &&
		    !rw_can(t, o, hook == HOOK_SYNC_RW_WRLOCK)) {
			block(t, th, TW_RWLOCK, o, 0);
			return 3;
		}
		break;
	case HOOK_SYNC_WORD_FAST:
		return word_fast_at(t, th, ev);
	case HOOK_SYNC_RW_RFAST:
	case HOOK_SYNC_RW_RUNLOCK:
		return rw_reader_at(t, th, hook, ev);
	case HOOK_SYNC_RUST_ONCE:
	case HOOK_SYNC_RUST_ONCE_Q:
		return rust_once_at(t, th, hook, ev);
	case HOOK_SYNC_GUARD_ACQUIRE:
	case HOOK_SYNC_ONCE:
	case HOOK_SYNC_WORD_LOCK: {
		uint32_t v = rd32(t, o);
		if (hook == HOOK_SYNC_ONCE &&
		    !(v & (ONCE_DONE | ONCE_INPROGRESS)))
			return 0; /* not started: glibc's code */
		if (!word_ready(hook, v))
			return word_block(t, th, o, hook);
		sync_acc(ev, o, hook);
		/* what it read and writes: done (a guard, a once) is only
		 * read; a free guard is marked pending, a free lock taken */
		ev->rval[0] = v;
		ev->wval[0] = hook == HOOK_SYNC_WORD_LOCK ? 1
			      : v ? v : G_PENDING;
		if (v)
			ev->acc[0].rw = DEC_READ;
		return 1;
	}
	default:
		break;
	}
	sync_acc(ev, o, hook);
	if (rw_shared(t, o, hook))
		ev->acc[0].rw = DEC_READ;
	return 1;
}

/* After event ev: a thread blocked on a word ev wrote (a contended word
 * lock, a guard or a once in another thread's hands) goes on if the word
 * lets it now, and one whose pending event is such a call looks again
 * (another thread may have taken the word). */
void sync_word_written(struct tracer *t, const struct tr_event *ev)
{
	bool opaque = ev->region || ev->sysno >= 0;

	for (int i = 0; i < t->nthreads; i++) /* the Once's word moved on */
		if (t->th[i].once_claim &&
		    ev_writes(ev, t->th[i].once_claim, 4))
			t->th[i].once_claim = 0;

	for (int i = 0; i < t->nthreads; i++) {
		struct lthread *o = &t->th[i];
		uint64_t w;
		if (o->info.status == TS_BLOCKED &&
		    (o->info.wait == TW_WORD_LOCK || o->info.wait == TW_ONCE))
			w = o->info.wait_addr;
		else if (o->info.status == TS_RUNNABLE &&
			 o->info.pending_known &&
			 ((o->info.pending.kind == EV_SYNC &&
			   word_waits(o->info.pending.sync_op)) ||
			  (o->info.pending.kind == EV_RMW &&
			   o->info.pending.sync_op == HOOK_SYNC_WORD_FAST)))
			w = o->info.pending.acc[0].addr;
		else
			continue;
		if (!(opaque || ev_writes(ev, w, 4) ||
		      ev_writes(ev, EV_ADDR_ONCEQ(w), 1)) ||
		    (o->info.status == TS_BLOCKED &&
		     !waiter_ready(t, o, w, o->word_hook)))
			continue;
		o->info.status = TS_RUNNABLE;
		o->info.wait = TW_NONE;
		o->info.pending_known = false;
		o->need_advance = true;
	}
	if (ev->kind == EV_SYNC)
		return; /* revisit() saw to its object */
	/* glibc's own code on an object whose other calls are events
	 * (sem_trywait, sem_timedwait; a lock cmpxchg on the semaphore's
	 * value): the threads waiting for it, or about to call on it, look
	 * again.  Else a sem_wait found the unit sem_trywait had just taken
	 * (the sync fuzzer's min-semtrywait: value -1) */
	for (int i = 0; i < t->nthreads; i++) {
		struct lthread *o = &t->th[i];
		uint64_t w;
		if (o->info.status == TS_BLOCKED &&
		    (o->info.wait == TW_MUTEX || o->info.wait == TW_SEM ||
		     o->info.wait == TW_RWLOCK))
			w = o->info.wait_addr;
		else if (o->info.status == TS_RUNNABLE &&
			 o->info.pending_known &&
			 o->info.pending.kind == EV_SYNC &&
			 !word_waits(o->info.pending.sync_op))
			w = o->info.pending.acc[0].addr;
		else
			continue;
		if (!ev_writes(ev, w, 4))
			continue;
		o->info.status = TS_RUNNABLE;
		o->info.wait = TW_NONE;
		o->info.pending_known = false;
		o->need_advance = true;
	}
}

/* ---- performing the event ---- */

static long mutex_unlock(struct tracer *t, struct lthread *th, uint64_t m)
{
	int kind = mutex_kind(t, m);

	if (!rd32(t, m + M_LOCK) || rd32(t, m + M_OWNER) != my_tid(th)) {
		if (kind == K_ERRORCHECK || kind == K_RECURSIVE)
			return EPERM; /* defined: the call says so */
		misuse(t, th,
		       rd32(t, m + M_LOCK)
			       ? "unlocks a mutex another thread holds"
			       : "unlocks a mutex that is not locked",
		       m);
		return 0;
	}
	return mutex_release(t, m, false) < 0 ? -1 : 0;
}

static long mutex_perform(struct tracer *t, struct lthread *th, uint8_t hook,
			  uint64_t m)
{
	bool self = rd32(t, m + M_LOCK) && rd32(t, m + M_OWNER) == my_tid(th);

	switch (hook) {
	case HOOK_SYNC_MUTEX_UNLOCK:
		return mutex_unlock(t, th, m);
	case HOOK_SYNC_MUTEX_DESTROY:
		if (rd32(t, m + M_LOCK))
			misuse(t, th, "destroys a locked mutex", m);
		return 0;
	case HOOK_SYNC_MUTEX_TIMEDLOCK:
		if (th->sync_phase == PHASE_TIMEDOUT) {
			th->sync_phase = PHASE_NONE;
			return ETIMEDOUT;
		}
		/* fall through */
	default:
		if (self && mutex_kind(t, m) == K_ERRORCHECK)
			return EDEADLK;
		if (!mutex_free_for(t, th, m))
			return EBUSY; /* trylock (a lock is found blocked at
				       * its hook, revisit() sees to that) */
		return mutex_take(t, th, m) < 0 ? -1 : 0;
	}
}

/* The wait event of pthread_cond_wait: the mutex is released and the
 * thread waits on the condvar (the call goes on when woken); or, woken,
 * the relock event, after which the call returns. */
static long cond_wait_perform(struct tracer *t, struct lthread *th,
			      uint8_t hook, bool *returns)
{
	uint64_t c = th->regs.rdi, m = th->regs.rsi;
	long r;

	if (th->sync_phase == PHASE_RELOCK ||
	    th->sync_phase == PHASE_TIMEDOUT) {
		r = th->sync_phase == PHASE_TIMEDOUT ? ETIMEDOUT : 0;
		th->sync_phase = PHASE_NONE;
		return mutex_take(t, th, m) < 0 ? -1 : r;
	}
	if (!rd32(t, m + M_LOCK) || rd32(t, m + M_OWNER) != my_tid(th)) {
		misuse(t, th, "waits on a condition variable with a mutex it "
			      "does not hold", m);
		return 0;
	}
	if (mutex_release(t, m, true) < 0)
		return -1;
	uint64_t d = hook == HOOK_SYNC_COND_TIMEDWAIT
			     ? deadline_of(t, th->regs.rdx, -1)
		     : hook == HOOK_SYNC_COND_CLOCKWAIT
			     ? deadline_of(t, th->regs.rcx, (long)th->regs.rdx)
			     : 0;
	block(t, th, TW_COND, c, d);
	th->sync_phase = PHASE_WAITING;
	*returns = false;
	return 0;
}

/* sem_post, sem_wait (its value is not 0: sync_event blocked it). */
static long sem_perform(struct tracer *t, struct tr_event *ev, uint8_t hook,
			uint64_t s)
{
	uint32_t v = rd32(t, s);

	ev->rval[0] = v; /* the value it found (dpor.c race_target) */

	if (hook == HOOK_SYNC_SEM_POST) {
		if (v == UINT32_MAX || wr32(t, s, v + 1) < 0)
			return -1;
		/* a waiter inside glibc's own code (sem_timedwait,
		 * sem_clockwait are not hooked) sleeps on the value word:
		 * wake one, as glibc's sem_post does when it has waiters */
		futex_wake(t, s, 1, UINT32_MAX);
		return 0;
	}
	return wr32(t, s, v - 1);
}

/* Returns 0 or -1; *res: what the call returns. */
static int barrier_perform(struct tracer *t, struct lthread *th, uint64_t b,
			   bool *returns, long *res)
{
	uint32_t in = rd32(t, b + B_IN) + 1, count = rd32(t, b + B_COUNT);

	if (in >= count) { /* the last one: everybody goes on */
		for (int i = 0; i < t->nthreads; i++) {
			struct lthread *o = &t->th[i];
			if (o->info.status != TS_BLOCKED ||
			    o->info.wait != TW_BARRIER || o->info.wait_addr != b)
				continue;
			o->info.status = TS_RUNNABLE;
			o->info.wait = TW_NONE;
			o->need_advance = true;
			ts_add(&t->woken, i);
			if (vf_return(t, o, true, 0) < 0)
				return -1;
		}
		*res = BARRIER_SERIAL;
		return wr32(t, b + B_IN, 0);
	}
	*res = 0;
	if (wr32(t, b + B_IN, in) < 0)
		return -1;
	block(t, th, TW_BARRIER, b, 0);
	*returns = false;
	return 0;
}

static long rw_perform(struct tracer *t, struct lthread *th, uint8_t hook,
		       uint64_t rw)
{
	uint32_t r = rd32(t, rw + RW_READERS);
	bool write = hook == HOOK_SYNC_RW_WRLOCK ||
		     hook == HOOK_SYNC_RW_TRYWRLOCK;

	if (hook == HOOK_SYNC_RW_UNLOCK) {
		if (r == RW_WRLOCKED)
			return wr32(t, rw + RW_WRITER, 0) |
			       wr32(t, rw + RW_READERS, 0);
		if (r >= 1u << RW_READER_SHIFT)
			return wr32(t, rw + RW_READERS,
				    r - (1u << RW_READER_SHIFT));
		misuse(t, th, "unlocks a rwlock that is not locked", rw);
		return 0;
	}
	if (hook != HOOK_SYNC_RW_TRYRDLOCK && hook != HOOK_SYNC_RW_TRYWRLOCK &&
	    rw_own_write(t, th, rw))
		return EDEADLK;
	if (!rw_can(t, rw, write))
		return EBUSY; /* the try variants */
	if (write)
		return wr32(t, rw + RW_READERS, RW_WRLOCKED) |
		       wr32(t, rw + RW_WRITER, my_tid(th));
	return wr32(t, rw + RW_READERS, r + (1u << RW_READER_SHIFT));
}

int sync_perform(struct tracer *t, struct lthread *th, struct tr_event *ev)
{
	uint8_t hook = ev->sync_op;
	uint64_t obj = th->regs.rdi;
	bool returns = true;
	long r;

	switch (hook) {
	case HOOK_SYNC_COND_WAIT:
	case HOOK_SYNC_COND_TIMEDWAIT:
	case HOOK_SYNC_COND_CLOCKWAIT:
		r = cond_wait_perform(t, th, hook, &returns);
		obj = th->regs.rsi; /* the mutex changed */
		break;
	case HOOK_SYNC_COND_SIGNAL: {
		int pick = (int)t->next_value; /* the explorer's choice */
		if (cond_wake(t, obj, false, pick) > 1)
			ev->value = pick + 1; /* the schedule keeps it */
		r = 0;
		break;
	}
	case HOOK_SYNC_COND_BROADCAST:
		cond_wake(t, obj, true, 0);
		r = 0;
		break;
	case HOOK_SYNC_COND_DESTROY:
		if (cond_has_waiters(t, obj))
			misuse(t, th, "destroys a condition variable that "
				      "threads wait on", obj);
		r = 0;
		break;
	case HOOK_SYNC_SEM_WAIT:
	case HOOK_SYNC_SEM_POST:
		r = sem_perform(t, ev, hook, obj);
		break;
	case HOOK_SYNC_BARRIER_WAIT: /* its result -1 is no failure */
		if (barrier_perform(t, th, obj, &returns, &r) < 0)
			return -1;
		goto done;
	case HOOK_SYNC_RW_RDLOCK:
	case HOOK_SYNC_RW_WRLOCK:
	case HOOK_SYNC_RW_TRYRDLOCK:
	case HOOK_SYNC_RW_TRYWRLOCK:
	case HOOK_SYNC_RW_UNLOCK:
		r = rw_perform(t, th, hook, obj);
		break;
	case HOOK_SYNC_WORD_LOCK: /* free: sync_event saw to it */
		r = wr32(t, obj, 1) < 0 ? -1 : 0;
		break;
	case HOOK_SYNC_GUARD_ACQUIRE: /* done (returns 0), or free: take it */
		r = ev->rval[0] ? 0 : wr32(t, obj, G_PENDING) < 0 ? -1 : 1;
		break;
	case HOOK_SYNC_GUARD_RELEASE:
	case HOOK_SYNC_GUARD_ABORT: {
		uint32_t old = rd32(t, obj);
		uint32_t v = hook == HOOK_SYNC_GUARD_RELEASE ? G_DONE : 0;
		r = wr32(t, obj, v) < 0 ? -1 : 0;
		/* a waiter in libstdc++'s own code (a region run natively)
		 * sleeps on the word: wake them, as its release does */
		if (r == 0 && (old & G_WAITING))
			futex_wake(t, obj, INT32_MAX, UINT32_MAX);
		break;
	}
	case HOOK_SYNC_RUST_ONCE:
	case HOOK_SYNC_RUST_ONCE_Q:
		if (ev->nacc == 2) { /* the claim: std's code runs next */
			th->once_claim = obj;
			returns = false;
		}
		r = 0;
		break;
	case HOOK_SYNC_ONCE: /* done: it returns */
		r = 0;
		break;
	default:
		r = mutex_perform(t, th, hook, obj);
		break;
	}
	if (r == -1 && t->end.kind == END_NONE)
		return -1;
	if (sync_lock_call(hook))
		ev->rval[0] = (uint64_t)r; /* 0: it took the lock */
done:
	revisit(t, th, obj);
	if (t->end.kind != END_NONE || !returns)
		return 0;
	return vf_return(t, th, true, (uint64_t)r);
}
