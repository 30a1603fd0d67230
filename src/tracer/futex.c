/* futex.c — futexes of logical threads, emulated.
 *
 * No logical thread may block in the kernel (it would stop them all), so
 * every futex operation glibc 2.36 uses is emulated here: WAIT,
 * WAIT_BITSET, WAKE, WAKE_BITSET, REQUEUE, CMP_REQUEUE, WAKE_OP and the PI
 * operations LOCK_PI, LOCK_PI2, TRYLOCK_PI, UNLOCK_PI.  Futexes are keyed
 * by address only (one process: private and shared are the same).
 * Waiters are woken in the order they blocked.  A wait with a timeout
 * blocks like any other; it times out only when no thread can run
 * (tracer_timeout_one: the virtual clock of determ.h jumps to the
 * earliest deadline), or at once if its deadline has already passed.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>

#include "tracer/determ.h"
#include "tracer/tracer_priv.h"

#define FUTEX_TID_MASK_ 0x3fffffffu
#define FUTEX_WAITERS_ 0x80000000u

static uint32_t word_read(struct tracer *t, uint64_t a, bool *ok)
{
	uint32_t w = 0;

	*ok = proc_read(&t->proc, a, &w, 4) == 4;
	return w;
}

static void word_write(struct tracer *t, uint64_t a, uint32_t w)
{
	proc_write(&t->proc, a, &w, 4);
}

static void set_result(struct tracer *t, struct lthread *th, long r)
{
	th->regs.rax = (uint64_t)r;
	if (th == &t->th[t->cur])
		t->regs_dirty = true;
}

/* The first return address on th's stack that points into the main
 * executable: where the program called into the library that blocks. */
static uint64_t user_caller(struct tracer *t, struct lthread *th)
{
	const struct map_region *exe = NULL;
	uint64_t words[128];
	size_t n;

	if (t->maps.n == 0 || t->maps.stale)
		maps_read(&t->maps, t->proc.pid);
	for (int i = 0; i < t->maps.n && !exe; i++)
		if (t->maps.r[i].perms & MAP_X)
			exe = &t->maps.r[i];
	if (!exe)
		return 0;
	if (th->regs.rip >= exe->lo && th->regs.rip < exe->hi)
		return th->regs.rip;
	n = proc_read(&t->proc, th->regs.rsp, words, sizeof words) / 8;
	for (size_t i = 0; i < n; i++)
		if (words[i] >= exe->lo && words[i] < exe->hi)
			return words[i];
	return 0;
}

void futex_block(struct tracer *t, struct lthread *th, enum tr_wait w,
		 uint64_t addr, bool timed)
{
	th->info.status = TS_BLOCKED;
	th->info.wait = w;
	th->info.wait_addr = addr;
	th->info.wait_for = -1;
	th->info.timed = timed;
	th->wait_deadline = 0;
	th->info.wait_pc = th->regs.rip - 2;
	th->info.wait_caller = user_caller(t, th);
	th->wait_seq = ++t->wait_seq;
	th->need_advance = false;
	set_result(t, th, 0);
	for (int i = 0; i < t->nthreads && w == TW_FUTEX; i++)
		if (t->th[i].clear_child_tid == addr &&
		    t->th[i].info.status != TS_EXITED) {
			th->info.wait = TW_JOIN;
			th->info.wait_for = i;
		}
}

tset futex_take_woken(struct tracer *t)
{
	tset w = t->woken;

	t->woken = ts_empty();
	return w;
}

void futex_resume(struct tracer *t, struct lthread *th, long result)
{
	ts_add(&t->woken, th->info.tid);
	th->info.status = TS_RUNNABLE;
	th->info.wait = TW_NONE;
	th->need_advance = true;
	th->info.pending_known = false;
	set_result(t, th, result);
}

void futex_interrupt(struct tracer *t, struct lthread *th)
{
	if (th->info.status == TS_BLOCKED && th->info.wait == TW_FUTEX)
		futex_resume(t, th, -EINTR);
}

/* Waiters of addr of the given kind, oldest first. */
static struct lthread *oldest(struct tracer *t, uint64_t addr, bool pi,
			      uint32_t bitset)
{
	struct lthread *best = NULL;

	for (int i = 0; i < t->nthreads; i++) {
		struct lthread *th = &t->th[i];
		bool is_pi = th->info.wait == TW_LOCK_PI;
		if (th->info.status != TS_BLOCKED ||
		    th->info.wait_addr != addr || is_pi != pi)
			continue;
		if (!pi && !(th->wait_bitset & bitset))
			continue;
		if (!best || th->wait_seq < best->wait_seq)
			best = th;
	}
	return best;
}

int futex_wake(struct tracer *t, uint64_t addr, int n, uint32_t bitset)
{
	int woken = 0;
	struct lthread *th;

	while (woken < n && (th = oldest(t, addr, false, bitset))) {
		futex_resume(t, th, 0);
		woken++;
	}
	return woken;
}

static int requeue(struct tracer *t, uint64_t from, uint64_t to, int n)
{
	int moved = 0;
	struct lthread *th;

	while (moved < n && (th = oldest(t, from, false, ~0u))) {
		th->info.wait_addr = to;
		th->info.wait = TW_FUTEX;
		moved++;
	}
	return moved;
}

static bool wake_op_cmp(int cmp, int32_t old, int32_t arg)
{
	switch (cmp) {
	case FUTEX_OP_CMP_EQ: return old == arg;
	case FUTEX_OP_CMP_NE: return old != arg;
	case FUTEX_OP_CMP_LT: return old < arg;
	case FUTEX_OP_CMP_LE: return old <= arg;
	case FUTEX_OP_CMP_GT: return old > arg;
	case FUTEX_OP_CMP_GE: return old >= arg;
	default: return false;
	}
}

static int32_t sext12(uint32_t v)
{
	return (int32_t)(v << 20) >> 20;
}

static long wake_op(struct tracer *t, const long a[6])
{
	uint32_t v3 = (uint32_t)a[5];
	int op = (v3 >> 28) & 0xf, cmp = (v3 >> 24) & 0xf;
	int32_t oparg = sext12(v3 >> 12), cmparg = sext12(v3);
	uint32_t old, new;
	bool ok;
	long n;

	old = word_read(t, (uint64_t)a[4], &ok);
	if (!ok)
		return -EFAULT;
	if (op & FUTEX_OP_OPARG_SHIFT)
		oparg = (int32_t)(1u << (oparg & 31));
	switch (op & 7) {
	case FUTEX_OP_SET: new = (uint32_t)oparg; break;
	case FUTEX_OP_ADD: new = old + (uint32_t)oparg; break;
	case FUTEX_OP_OR: new = old | (uint32_t)oparg; break;
	case FUTEX_OP_ANDN: new = old & ~(uint32_t)oparg; break;
	case FUTEX_OP_XOR: new = old ^ (uint32_t)oparg; break;
	default: return -ENOSYS;
	}
	word_write(t, (uint64_t)a[4], new);
	n = futex_wake(t, (uint64_t)a[0], (int)a[2], ~0u);
	if (wake_op_cmp(cmp, (int32_t)old, cmparg))
		n += futex_wake(t, (uint64_t)a[4], (int)a[3], ~0u);
	return n;
}

static long lock_pi(struct tracer *t, struct lthread *th, const long a[6],
		    bool try)
{
	uint64_t addr = (uint64_t)a[0];
	uint32_t me = (uint32_t)th->info.os_tid, w;
	uint64_t deadline;
	bool ok, expired;
	long r;

	w = word_read(t, addr, &ok);
	if (!ok)
		return -EFAULT;
	if ((w & FUTEX_TID_MASK_) == 0) {
		word_write(t, addr, me | (w & FUTEX_WAITERS_));
		return 0;
	}
	if ((w & FUTEX_TID_MASK_) == me)
		return -EDEADLK;
	if (try)
		return -EAGAIN;
	r = det_futex_deadline(t, a[1], (uint64_t)a[3], &deadline, &expired);
	if (r < 0 || expired)
		return r < 0 ? r : -ETIMEDOUT;
	word_write(t, addr, w | FUTEX_WAITERS_);
	futex_block(t, th, TW_LOCK_PI, addr, a[3] != 0);
	th->wait_deadline = deadline;
	return SYS_NORETURN;
}

static long unlock_pi(struct tracer *t, struct lthread *th, const long a[6])
{
	uint64_t addr = (uint64_t)a[0];
	struct lthread *next;
	uint32_t w;
	bool ok;

	w = word_read(t, addr, &ok);
	if (!ok)
		return -EFAULT;
	if ((w & FUTEX_TID_MASK_) != (uint32_t)th->info.os_tid)
		return -EPERM;
	next = oldest(t, addr, true, ~0u);
	if (!next) {
		word_write(t, addr, 0);
		return 0;
	}
	futex_resume(t, next, 0); /* it owns the lock now */
	w = (uint32_t)next->info.os_tid;
	if (oldest(t, addr, true, ~0u))
		w |= FUTEX_WAITERS_;
	word_write(t, addr, w);
	return 0;
}

static long futex_wait(struct tracer *t, struct lthread *th, const long a[6],
		 uint32_t bitset)
{
	uint64_t deadline;
	bool ok, expired;
	uint32_t w;
	long r;

	if (bitset == 0)
		return -EINVAL;
	w = word_read(t, (uint64_t)a[0], &ok);
	if (!ok)
		return -EFAULT;
	if (w != (uint32_t)a[2])
		return -EAGAIN;
	r = det_futex_deadline(t, a[1], (uint64_t)a[3], &deadline, &expired);
	if (r < 0 || expired)
		return r < 0 ? r : -ETIMEDOUT;
	futex_block(t, th, TW_FUTEX, (uint64_t)a[0], a[3] != 0);
	th->wait_deadline = deadline;
	th->wait_bitset = bitset;
	return SYS_NORETURN;
}

long futex_op(struct tracer *t, struct lthread *th, struct tr_event *ev)
{
	long a[6] = { (long)th->regs.rdi, (long)th->regs.rsi,
		      (long)th->regs.rdx, (long)th->regs.r10,
		      (long)th->regs.r8, (long)th->regs.r9 };
	int cmd = (int)(a[1] & FUTEX_CMD_MASK);
	long n, moved;
	bool ok;

	(void)ev;
	switch (cmd) {
	case FUTEX_WAIT:
		return futex_wait(t, th, a, ~0u);
	case FUTEX_WAIT_BITSET:
		return futex_wait(t, th, a, (uint32_t)a[5]);
	case FUTEX_WAKE:
		return futex_wake(t, (uint64_t)a[0], (int)a[2], ~0u);
	case FUTEX_WAKE_BITSET:
		return futex_wake(t, (uint64_t)a[0], (int)a[2],
				  (uint32_t)a[5]);
	case FUTEX_CMP_REQUEUE:
		if (word_read(t, (uint64_t)a[0], &ok) != (uint32_t)a[5] || !ok)
			return ok ? -EAGAIN : -EFAULT;
		/* fall through */
	case FUTEX_REQUEUE:
		n = futex_wake(t, (uint64_t)a[0], (int)a[2], ~0u);
		moved = requeue(t, (uint64_t)a[0], (uint64_t)a[4],
				(int)a[3] < 0 ? INT_MAX : (int)a[3]);
		/* CMP_REQUEUE counts the requeued waiters too */
		return cmd == FUTEX_CMP_REQUEUE ? n + moved : n;
	case FUTEX_WAKE_OP:
		return wake_op(t, a);
	case FUTEX_LOCK_PI:
	case 13: /* FUTEX_LOCK_PI2 */
		return lock_pi(t, th, a, false);
	case FUTEX_TRYLOCK_PI:
		return lock_pi(t, th, a, true);
	case FUTEX_UNLOCK_PI:
		return unlock_pi(t, th, a);
	default:
		tr_end_unsupported(t, "futex operation %d is not modelled",
				   cmd);
		return SYS_NORETURN;
	}
}

static void futex_acc(struct tr_event *ev, uint64_t addr, uint8_t rw)
{
	ev->acc[ev->nacc++] = (struct dec_access){ addr, 4, rw, 0 };
}

/* The words a futex operation reads or writes, and the waiter queues it
 * changes (EV_ADDR_FUTEXQ), for the event.  A wait reads its word (it
 * compares it), a wake does not touch it, CMP_REQUEUE reads the first,
 * WAKE_OP changes the second; the PI operations change their word. */
void futex_accesses(const long a[6], struct tr_event *ev)
{
	int cmd = (int)(a[1] & FUTEX_CMD_MASK);
	uint64_t w = (uint64_t)a[0], w2 = (uint64_t)a[4];
	const uint8_t rw = DEC_READ | DEC_WRITE;

	ev->nacc = 0;
	switch (cmd) {
	case FUTEX_WAIT:
	case FUTEX_WAIT_BITSET:
		futex_acc(ev, w, DEC_READ);
		futex_acc(ev, EV_ADDR_FUTEXQ(w), rw);
		break;
	case FUTEX_WAKE:
	case FUTEX_WAKE_BITSET:
		futex_acc(ev, EV_ADDR_FUTEXQ(w), rw);
		break;
	case FUTEX_REQUEUE:
	case FUTEX_CMP_REQUEUE:
		if (cmd == FUTEX_CMP_REQUEUE)
			futex_acc(ev, w, DEC_READ);
		futex_acc(ev, EV_ADDR_FUTEXQ(w), rw);
		futex_acc(ev, EV_ADDR_FUTEXQ(w2), rw);
		break;
	case FUTEX_WAKE_OP:
		futex_acc(ev, w2, rw);
		futex_acc(ev, EV_ADDR_FUTEXQ(w), rw);
		futex_acc(ev, EV_ADDR_FUTEXQ(w2), rw);
		break;
	default: /* PI and anything else: the word and its queue */
		futex_acc(ev, w, rw);
		futex_acc(ev, EV_ADDR_FUTEXQ(w), rw);
		break;
	}
}

void join_block(struct tracer *t, struct lthread *th, int target)
{
	th->info.status = TS_BLOCKED;
	th->info.wait = TW_JOIN;
	th->info.wait_addr = t->th[target].clear_child_tid;
	th->info.wait_for = target;
	th->info.timed = false;
	th->wait_bitset = 0; /* no futex wake may end this wait */
	th->info.wait_pc = th->regs.rip;
	/* at pthread_join's entry (its hook): the return address is the
	 * caller, in a static binary too (where libc is in the executable
	 * and user_caller() would stop at pthread_join itself) */
	if (proc_read(&t->proc, th->regs.rsp, &th->info.wait_caller, 8) != 8)
		th->info.wait_caller = user_caller(t, th);
	th->wait_seq = ++t->wait_seq;
	th->need_advance = false;
	th->info.pending_known = false;
}

void join_wake(struct tracer *t, struct lthread *th)
{
	for (int i = 0; i < t->nthreads; i++) {
		struct lthread *o = &t->th[i];
		if (o->info.status == TS_BLOCKED && o->info.wait == TW_JOIN &&
		    o->info.wait_for == th->info.tid &&
		    o->info.wait_addr == th->clear_child_tid &&
		    o->wait_bitset == 0) /* blocked by join_block */
			futex_resume(t, o, (long)o->regs.rax);
	}
}
