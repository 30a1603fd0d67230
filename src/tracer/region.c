/* region.c — the atomic regions of the thread life cycle and library
 * calls (tracer.h, enum tr_region: thread start, pthread_create/join/
 * exit, RG_LIB): where one begins (region_at, region_begin), and how the
 * thread runs through it natively (region_run), each breakpoint it
 * meets lifted until the region ends (and lifted up front the next time:
 * prelift) (split from tracer.c). */
#include <signal.h>
#include <stdlib.h>

#include "tracer/determ.h"
#include "tracer/tracer_priv.h"

/* ---- atomic regions of the thread lifecycle (tracer.h) ---- */

static int find_by_handle(struct tracer *t, uint64_t pd)
{
	/* pthread_t is glibc's struct pthread; its tid word (the
	 * clear_child_tid address) lies in its first page */
	for (int i = 0; i < t->nthreads; i++) {
		uint64_t c = t->th[i].clear_child_tid;
		if (c && c >= pd && c < pd + 4096)
			return i;
	}
	return -1;
}

static void region_event(struct lthread *th, struct tr_event *ev,
			 enum ev_kind k, enum tr_region rg)
{
	ev->kind = k;
	ev->region = rg;
	(void)th;
}

static void add_acc(struct tr_event *ev, uint64_t addr, uint64_t size,
		    uint8_t rw)
{
	if (addr && ev->nacc < EV_MAX_ACC)
		ev->acc[ev->nacc++] = (struct dec_access){ addr, size, rw, 0 };
}

/* A pthread_create beyond the thread limit: the thread stops there for
 * good, and the threads it made run on (a program that creates threads
 * without bound, `while (1) pthread_create(...)`, is explored with the
 * first ones, rather than cut before any of them ran); the execution
 * ends cut when nothing else can run (tracer_set_deadlock). */
static void limit_block(struct tracer *t, struct lthread *th)
{
	th->info.status = TS_BLOCKED;
	th->info.wait = TW_LIMIT;
	th->info.wait_addr = 0;
	th->info.wait_for = -1;
	th->info.timed = false;
	th->wait_bitset = 0; /* no futex wake ends this wait */
	th->info.wait_pc = th->regs.rip;
	if (proc_read(&t->proc, th->regs.rsp, &th->info.wait_caller, 8) != 8)
		th->info.wait_caller = 0;
	th->wait_seq = ++t->wait_seq;
	th->need_advance = false;
	th->info.pending_known = false;
}

/* Where a region ends or begins at pc.  Returns 1 when pc starts a
 * region event (ev filled), 3 when the thread blocked (join of a live
 * thread), 0 otherwise. */
int region_at(struct tracer *t, struct lthread *th, struct bp *b,
	      struct tr_event *ev)
{
	uint64_t pc = th->regs.rip, sp = th->regs.rsp;
	int target;

	if (th->region != RG_NONE)
		return 0;
	if (th->user_ret_pc && pc == th->user_ret_pc && sp == th->user_ret_sp) {
		region_event(th, ev, EV_EXIT, RG_EXIT);
		add_acc(ev, th->clear_child_tid, 4, DEC_WRITE);
		return 1;
	}
	if (!b || !b->hook)
		return 0;
	if (b->hook != HOOK_ASSERT_FAIL &&
	    proc_read(&t->proc, sp, &ev->caller, 8) != 8)
		ev->caller = 0; /* for reports: where it was called */
	if (lib_hook(b->hook)) {
		lib_event(t, th, b->hook, ev);
		return 1;
	}
	switch (b->hook) {
	case HOOK_ATOMIC_BEGIN:
	case HOOK_ATOMIC_CALL:
		if (th->section != RG_NONE)
			return 0; /* nested: part of the section */
		/* its accesses are known once it has run (section.c) */
		region_event(th, ev, EV_ATOMIC, b->hook == HOOK_ATOMIC_BEGIN
							? RG_ATOMIC
							: RG_CALL);
		return 1;
	case HOOK_PTHREAD_CREATE:
		if (t->nthreads >= tr_max_threads(t)) {
			limit_block(t, th);
			return 3;
		}
		region_event(th, ev, EV_SPAWN, RG_CREATE);
		add_acc(ev, th->regs.rdi, 8, DEC_WRITE);
		return 1;
	case HOOK_PTHREAD_EXIT:
		region_event(th, ev, EV_EXIT, RG_EXIT);
		add_acc(ev, th->clear_child_tid, 4, DEC_WRITE);
		return 1;
	case HOOK_PTHREAD_JOIN:
		target = find_by_handle(t, th->regs.rdi);
		if (target < 0 || target == th->info.tid)
			return 0; /* not ours to model: run it as code */
		if (t->th[target].info.status != TS_EXITED) {
			join_block(t, th, target);
			return 3;
		}
		region_event(th, ev, EV_JOIN, RG_JOIN);
		ev->child = target;
		add_acc(ev, t->th[target].clear_child_tid, 4, DEC_READ);
		add_acc(ev, th->regs.rsi, 8, DEC_WRITE);
		return 1;
	default:
		return 0;
	}
}

/* Start the region of event ev, whose hook is at the thread's pc. */
int region_begin(struct tracer *t, struct lthread *th, struct tr_event *ev)
{
	th->region = (enum tr_region)ev->region;
	th->region_child = -1;
	if (ev->region == RG_CREATE)
		t->next_start_routine = th->regs.rdx;
	if (ev->region == RG_LIB)
		lib_begin(t, th, ev);
	if (ev->region == RG_CREATE || ev->region == RG_JOIN ||
	    ev->region == RG_LIB) {
		if (proc_read(&t->proc, th->regs.rsp, &th->region_end_pc, 8) !=
		    8)
			return -1;
		th->region_end_sp = th->regs.rsp + 8;
		return bp_insert(t, th->region_end_pc, 0);
	}
	return 0;
}


/* The start routine of th begins at pc (sp): where it returns to is the
 * thread's exit (RG_EXIT). */
static void user_begins(struct tracer *t, struct lthread *th, uint64_t sp)
{
	if (proc_read(&t->proc, sp, &th->user_ret_pc, 8) == 8) {
		th->user_ret_sp = sp + 8;
		bp_insert(t, th->user_ret_pc, 0);
	}
}

/* Has the current thread reached the end of its region?  At the start
 * routine's entry, remember where it returns to: reaching that is the
 * thread's exit (RG_EXIT).  RG_START ends there, or, in a runtime's start
 * routine, at the entry of the first call that may run the program's
 * code (tracer_set_runtime). */
static bool region_done(struct tracer *t, struct lthread *th)
{
	uint64_t pc = th->regs.rip, sp = th->regs.rsp;

	switch (th->region) {
	case RG_START:
		if (th->to_user) {
			if (!tr_runtime_user(t, pc))
				return false;
			th->to_user = false;
			return true;
		}
		if (pc != th->start_routine)
			return false;
		th->start_sp = sp + 8;
		user_begins(t, th, sp);
		/* Rust's runtime: on to the first call that may run the
		 * program's code (spawn hooks, since 1.85, come before the
		 * program's closure: the runtime's code after it is no part
		 * of the region) */
		th->to_user = tr_runtime_start(t, pc);
		return !th->to_user;
	case RG_CREATE:
	case RG_JOIN:
		return pc == th->region_end_pc && sp == th->region_end_sp;
	case RG_LIB:
		if (pc != th->region_end_pc || sp != th->region_end_sp)
			return false;
		lib_returned(th);
		return true;
	default:
		return false;
	}
}

struct lifted {
	uint64_t *addr;
	size_t n, cap;
};

static void relift(struct tracer *t, struct lifted *l)
{
	static const uint8_t int3 = 0xcc;

	if (t->proc.pid)
		for (size_t i = 0; i < l->n; i++)
			proc_write(&t->proc, l->addr[i], &int3, 1);
	free(l->addr);
}

/* A breakpoint hit inside a region: lift it until the region ends. */
static int lift(struct tracer *t, struct lifted *l, struct bp *b)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		uint64_t *a = realloc(l->addr, cap * sizeof *a);
		if (!a)
			return -1;
		l->addr = a;
		l->cap = cap;
	}
	l->addr[l->n++] = b->addr;
	return proc_write(&t->proc, b->addr, &b->orig, 1) == 1 ? 0 : -1;
}

static bool lifted_has(const struct lifted *l, uint64_t addr)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->addr[i] == addr)
			return true;
	return false;
}

/* Where the current region of th ends (its breakpoint must stay), or 0
 * (RG_EXIT ends with the thread). */
static uint64_t region_end(const struct lthread *th)
{
	switch (th->region) {
	case RG_START:
		return th->start_routine;
	case RG_CREATE:
	case RG_JOIN:
	case RG_LIB:
		return th->region_end_pc;
	default:
		return 0;
	}
}

/* Before a region runs: lift the breakpoints regions of its kind have
 * hit before (bp.region_hit: glibc's malloc hook inside pthread_create,
 * stop points in code the lifecycle shares with the program, ...), each
 * of which would cost a stop and then be lifted anyway.  Not the
 * region's end, nor a hook that acts inside regions.  (Of any kind, they
 * were 36 writes and 36 re-writes per execution of Nidhugg's dekker.) */
static int prelift(struct tracer *t, struct lifted *l, struct lthread *th)
{
	uint64_t end = region_end(th);

	if (t->native || t->no_emulate || getenv("X86SMC_NO_PRELIFT"))
		return 0; /* native: plain breakpoints are lifted already */
	for (size_t i = 0; i < t->nbps; i++) {
		struct bp *b = &t->bps[i];
		if ((b->region_hit >> th->region & 1) && !b->absent &&
		    b->addr != end && !tr_runtime_user(t, b->addr) &&
		    !vf_acting(b->hook) &&
		    lift(t, l, b) < 0)
			return -1;
	}
	return 0;
}

/* The instruction at pc faulted with SIGILL: lift the breakpoints inside
 * its bytes (code that jumps over a lock prefix has one there).  Returns
 * how many were lifted. */
static int lift_inside(struct tracer *t, struct lifted *l)
{
	struct lthread *th = &t->th[t->cur];
	int n = 0;

	if (proc_getregs(&t->proc, &th->regs) < 0)
		return 0;
	for (uint64_t a = th->regs.rip + 1; a < th->regs.rip + 16; a++) {
		struct bp *b = bp_find(t, a);
		if (b && lift(t, l, b) == 0)
			n++;
	}
	return n;
}

/* Run the current thread through its atomic region (tracer.h): natively,
 * every breakpoint it hits lifted until the region is over; only the
 * seccomp filter (clone, futex, exit, output, ...) and the region's end
 * stop it.  Returns 0 (region over, or the thread exited or blocked), 1
 * (execution ended), -1. */
int region_run(struct tracer *t)
{
	struct lthread *th = &t->th[t->cur];
	struct lifted l = { 0 };
	struct proc_stop st;
	int r = prelift(t, &l, th);

	while (r == 0 && th->region != RG_NONE &&
	       th->info.status == TS_RUNNABLE) {
		if (region_done(t, th)) {
			th->region = RG_NONE;
			break;
		}
		struct bp *b = bp_find(t, th->regs.rip);
		if (b && vf_acting(b->hook))
			break; /* assume, error, nondet: classify() acts */
		if (b && !lifted_has(&l, b->addr)) {
			b->region_hit |= (uint16_t)(1u << th->region);
			if (lift(t, &l, b) < 0) {
				r = -1;
				break;
			}
		}
		t->nconts++;
		if (tr_sync_regs(t) < 0 ||
		    proc_cont(&t->proc, tr_deliverable_signal(t)) < 0 ||
		    proc_wait(&t->proc, false, &st) < 0) {
			r = -1;
			break;
		}
		if (st.kind == PROC_SECCOMP) {
			r = sys_at_seccomp(t);
			if (r < 0 || t->end.kind != END_NONE)
				break;
			continue;
		}
		if (st.kind == PROC_SIGNAL && st.sig == SIGILL &&
		    lift_inside(t, &l) > 0)
			continue; /* "lock; int3": a breakpoint mid-instruction */
		if (det_tsc_stop(t, &st))
			continue;
		if (st.kind != PROC_TRAP) {
			r = tr_handle_stop_signal(t, &st);
			break;
		}
		if (proc_getregs(&t->proc, &th->regs) < 0) {
			r = -1;
			break;
		}
		if (!bp_find(t, th->regs.rip - 1)) {
			tr_end_signal(t, SIGTRAP, 0);
			r = 1;
			break;
		}
		th->regs.rip--;
		t->regs_dirty = true;
	}
	relift(t, &l);
	/* rt_sigprocmask is not traced: the mask may have changed */
	if (r == 0 && t->end.kind == END_NONE && th->info.status != TS_EXITED)
		proc_getsigmask(&t->proc, &th->sigmask);
	if (t->end.kind != END_NONE)
		return 1;
	return r < 0 ? -1 : 0;
}
