/* tracer.c — logical threads in one OS thread, advanced event by event:
 * the tracer's life cycle (tracer_new, tracer_free), classifying the
 * instruction at a thread's pc, advancing a thread to its next visible
 * event, performing one event (tracer_step, exec_*), store-buffer
 * flushes (tracer_flush).  Its helpers: threads.c (the logical threads,
 * switching, timed waits), region.c (atomic regions of the thread life
 * cycle), native.c (one live thread running natively).
 *
 * Invariants between calls:
 *  - the OS thread is stopped at an instruction boundary (a SIGTRAP stop:
 *    breakpoint or single step), never inside a syscall stop: a seccomp
 *    stop is always resolved (emulated, passed, or rewound) and then left
 *    with one single step;
 *  - th[cur].regs is the register set of the OS thread (regs_dirty: the
 *    copy is newer and must be written before resuming);
 *  - every runnable thread either has its pending event computed
 *    (info.pending_known) or need_advance set.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>

#include "tracer/determ.h"
#include "tracer/log.h"
#include "tracer/tracer_priv.h"
#include "tso/shadow.h"

static bool pso_straddles(struct tracer *t, struct lthread *th);

static const char *const kind_names[EV_NKINDS] = {
	[EV_NONE] = "none",       [EV_MEM] = "mem",     [EV_RMW] = "rmw",
	[EV_FENCE] = "fence",     [EV_YIELD] = "yield", [EV_SYSCALL] = "syscall",
	[EV_OUTPUT] = "output",   [EV_SPAWN] = "spawn", [EV_EXIT] = "exit",
	[EV_FUTEX] = "futex",     [EV_END] = "end",     [EV_JOIN] = "join",
	[EV_SYNC] = "sync",
	[EV_UPDATE] = "update",   [EV_NONDET] = "nondet",
	[EV_ATOMIC] = "atomic",   [EV_CALL] = "call",
	[EV_TIMEOUT] = "timeout",
};

const char *ev_kind_name(enum ev_kind k)
{
	return (unsigned)k < EV_NKINDS ? kind_names[k] : "?";
}

struct tracer *tracer_new(const struct tracer_opts *o)
{
	struct tracer *t = calloc(1, sizeof *t);

	if (!t)
		return NULL;
	t->opts = *o;
	if (!t->opts.escapes) {
		t->opts.escapes = &t->esc_local;
		t->own_escapes = true;
	}
	if (!t->opts.block_seconds)
		t->opts.block_seconds = 10;
	t->no_emulate = getenv("X86SMC_NO_EMULATE") != NULL;
	t->no_commute = getenv("X86SMC_NO_COMMUTE") != NULL;
	t->altstack[1] = SS_DISABLE; /* none at the exec (recycle.c) */
	t->dc = dcache_new(bp_fetch, t);
	if (!t->dc) {
		free(t);
		return NULL;
	}
	return t;
}

void tracer_free(struct tracer *t)
{
	if (!t)
		return;
	pr_debug("execution: %lu events, %lu stops, %lu single steps, %lu "
		 "emulated, %lu conts, %lu walks, %lu breakpoints, %lu "
		 "switches, %lu local instructions emulated",
		 t->steps, (unsigned long)t->proc.stops, t->nsteps,
		 (unsigned long)t->st.emulated, t->nconts,
		 (unsigned long)t->st.walks, (unsigned long)t->st.breakpoints,
		 (unsigned long)t->st.switches,
		 (unsigned long)t->st.local_emulated);
	pr_debug("restores without a fork: %lu, %lu pages copied",
		 (unsigned long)t->st.recycles,
		 (unsigned long)t->st.recycle_pages);
	proc_kill(&t->proc);
	tr_snapshot_free(t);
	for (int i = 0; i < t->nthreads; i++) {
		free(t->th[i].xstate);
		sb_free(&t->th[i].sb);
	}
	for (int i = 0; i < 3; i++)
		free(t->out[i].buf);
	dcache_free(t->dc);
	maps_free(&t->maps);
	free(t->bps);
	free(t->nlift);
	if (t->own_escapes)
		esc_free(&t->esc_local);
	free(t->walk);
	free(t->fences);
	free(t);
}

void tr_dec_regs(const struct user_regs_struct *r, struct dec_regs *d)
{
	d->gpr[DEC_RAX] = r->rax;
	d->gpr[DEC_RCX] = r->rcx;
	d->gpr[DEC_RDX] = r->rdx;
	d->gpr[DEC_RBX] = r->rbx;
	d->gpr[DEC_RSP] = r->rsp;
	d->gpr[DEC_RBP] = r->rbp;
	d->gpr[DEC_RSI] = r->rsi;
	d->gpr[DEC_RDI] = r->rdi;
	d->gpr[DEC_R8] = r->r8;
	d->gpr[DEC_R9] = r->r9;
	d->gpr[DEC_R10] = r->r10;
	d->gpr[DEC_R11] = r->r11;
	d->gpr[DEC_R12] = r->r12;
	d->gpr[DEC_R13] = r->r13;
	d->gpr[DEC_R14] = r->r14;
	d->gpr[DEC_R15] = r->r15;
	d->rip = r->rip;
	d->rflags = r->eflags;
	d->fs_base = r->fs_base;
	d->gs_base = r->gs_base;
	d->kvalid = false;
}

/* The mask registers of th into d, for an instruction whose accesses
 * they narrow (DEC_MEMF_KMASK): one PTRACE_GETREGSET when th is in the
 * OS thread, its saved XSTATE otherwise (tr_load). */
static void dec_kregs(struct tracer *t, struct lthread *th,
		      struct dec_regs *d)
{
	if (!th->xstate || !t->proc.xsize)
		return;
	if (th == &t->th[t->cur] &&
	    proc_getxstate(&t->proc, th->xstate) < 0)
		return;
	dec_kregs_from_xsave(th->xstate, t->proc.xsize, d);
}

void tr_end_internal(struct tracer *t, const char *what)
{
	if (t->end.kind != END_NONE)
		return;
	t->end.kind = END_INTERNAL;
	t->end.tid = t->cur;
	snprintf(t->end.message, sizeof t->end.message, "%s", what);
}

void tr_end_unsupported(struct tracer *t, const char *fmt, ...)
{
	va_list ap;

	if (t->end.kind != END_NONE)
		return;
	t->end.kind = END_UNSUPPORTED;
	t->end.tid = t->cur;
	t->end.pc = t->th[t->cur].regs.rip;
	va_start(ap, fmt);
	vsnprintf(t->end.message, sizeof t->end.message, fmt, ap);
	va_end(ap);
}

void tr_end_signal(struct tracer *t, int sig, uint64_t fault)
{
	struct lthread *th = &t->th[t->cur];

	if (t->end.kind != END_NONE)
		return;
	t->end.kind = END_SIGNAL;
	t->end.sig = sig;
	t->end.tid = t->cur;
	t->end.pc = th->regs.rip;
	t->end.fault_addr = fault;
}

/* A signal the kernel sent on a timer's expiry (alarm(), setitimer,
 * a POSIX timer): it says nothing about the instruction it stopped. */
static bool timer_signal(int sig, const siginfo_t *si)
{
	return sig == SIGALRM || sig == SIGVTALRM || sig == SIGPROF ||
	       si->si_code == SI_TIMER;
}

/* Does one of x86smc's int3s sit inside the instruction at pc (not at
 * its start)?  Code that jumps over a lock prefix gets a stop point one
 * byte into `lock cmpxchg`; run from the prefix while that int3 is in
 * place, the CPU sees `lock int3` and raises SIGILL, which is the
 * tracer's doing, not the program's. */
static bool int3_inside(struct tracer *t, uint64_t pc)
{
	const struct dec_insn *in = dcache_get(t->dc, pc);

	for (uint64_t a = pc + 1; in && a < pc + in->len; a++) {
		const struct bp *b = bp_find(t, a);
		uint8_t byte = 0;
		if (b && proc_read(&t->proc, a, &byte, 1) == 1 && byte == 0xcc)
			return true;
	}
	return false;
}

/* Dispatch a stop that ends or interrupts the execution.  Returns 1 when
 * the execution ended, 0 when the stop was absorbed. */
int tr_handle_stop_signal(struct tracer *t, const struct proc_stop *st)
{
	siginfo_t si;

	switch (st->kind) {
	case PROC_EXITED:
		if (t->end.kind == END_NONE) {
			t->end.kind = END_EXIT;
			t->end.status = st->status;
		}
		t->proc.pid = 0;
		return 1;
	case PROC_KILLED:
		tr_end_signal(t, st->sig, 0);
		t->proc.pid = 0;
		return 1;
	case PROC_SIGNAL:
		proc_getregs(&t->proc, &t->th[t->cur].regs);
		memset(&si, 0, sizeof si);
		proc_getsiginfo(&t->proc, &si);
		if (timer_signal(st->sig, &si)) {
			/* not the program's fault: no error to report */
			const char *n = sigabbrev_np(st->sig);
			tr_end_unsupported(t, "SIG%s from a timer (alarm, "
					   "setitimer, timer_create) while "
					   "threads run: signals from the "
					   "kernel's timers are not modelled",
					   n ? n : "?");
			return 1;
		}
		if (st->sig == SIGILL &&
		    int3_inside(t, t->th[t->cur].regs.rip)) {
			/* never a false crash: say it is x86smc's */
			tr_end_internal(t, "SIGILL on one of x86smc's "
					   "breakpoints inside an instruction");
			return 1;
		}
		tr_end_signal(t, st->sig, (uint64_t)si.si_addr);
		return 1;
	case PROC_GONE:
		tr_end_internal(t, "the target disappeared");
		return 1;
	case PROC_INTR:
		if (t->end.kind == END_NONE)
			t->end.kind = END_INTERRUPTED;
		return 1;
	case PROC_TIMEOUT:
		tr_end_unsupported(t, "a thread blocked in the kernel for "
				      "more than %u s (syscall %ld)",
				   t->opts.block_seconds,
				   (long)t->th[t->cur].regs.orig_rax);
		return 1;
	default:
		tr_end_internal(t, "unexpected stop");
		return 1;
	}
}

/* Resume from a seccomp stop whose syscall has been resolved, and stop at
 * the instruction after the syscall. */
static int leave_syscall_stop(struct tracer *t)
{
	struct proc_stop st;

	if (tr_sync_regs(t) < 0 || proc_step(&t->proc, 0) < 0 ||
	    proc_wait(&t->proc, false, &st) < 0)
		return -1;
	if (st.kind != PROC_TRAP)
		return tr_handle_stop_signal(t, &st) ? 1 : -1;
	return proc_getregs(&t->proc, &t->th[t->cur].regs);
}

/* A syscall reached the kernel where no breakpoint was: turn it back into
 * a pending syscall instruction (skip it, rewind rip). */
int tr_rewind_syscall(struct tracer *t)
{
	struct user_regs_struct *r = &t->th[t->cur].regs;

	if (proc_getregs(&t->proc, r) < 0)
		return -1;
	r->rax = r->orig_rax;
	r->orig_rax = (unsigned long)-1;
	r->rip -= 2;
	t->regs_dirty = true;
	return leave_syscall_stop(t);
}

/* pushf under single-step pushes TF=1: clear it in the pushed image. */
static void fix_pushf(struct tracer *t, const uint8_t *code, int len)
{
	uint64_t fl, sp = t->th[t->cur].regs.rsp;

	if (code[len - 1] != 0x9c || len > 2)
		return;
	if (proc_read(&t->proc, sp, &fl, 8) == 8 && (fl & 0x100)) {
		fl &= ~0x100ull;
		proc_write(&t->proc, sp, &fl, 8);
	}
}

/* Execute a rep-string instruction to completion: a breakpoint after it,
 * the instruction's own byte restored while it runs. */
static int exec_rep(struct tracer *t, const struct dec_insn *in)
{
	struct proc_stop st;
	uint64_t after = in->pc + in->len;

	if (bp_insert(t, after, 0) < 0)
		return -1;
	bp_lift(t, in->pc, after, true);
	if (tr_sync_regs(t) < 0 || proc_cont(&t->proc, 0) < 0 ||
	    proc_wait(&t->proc, false, &st) < 0)
		return -1;
	if (st.kind != PROC_EXITED && st.kind != PROC_KILLED)
		bp_lift(t, in->pc, after, false);
	if (st.kind != PROC_TRAP)
		return tr_handle_stop_signal(t, &st);
	if (proc_getregs(&t->proc, &t->th[t->cur].regs) < 0)
		return -1;
	if (t->th[t->cur].regs.rip - 1 != after)
		return tr_handle_stop_signal(t, &st);
	t->th[t->cur].regs.rip = after;
	t->regs_dirty = true;
	return 0;
}

/* ---- --sanity: predicted accesses against what really changed ---- */

#define SANITY_PAGES 8

struct sanity {
	int n;                 /* predicted accesses */
	struct dec_access acc[DEC_MAX_MEM];
	int npages;
	uint64_t page[SANITY_PAGES];
	uint8_t *before;
	bool active;
};

static void sanity_report(struct tracer *t, uint64_t pc, const char *what,
			  uint64_t addr)
{
	char text[96] = "";
	uint8_t code[16];
	size_t n = bp_fetch(t, pc, code, sizeof code);

	/* an access to unmapped memory is a fault the program will take,
	 * reported, not a decoder mismatch */
	if (strncmp(what, "predicted access to unmapped", 28) != 0)
		t->st.sanity_mismatches++;
	if (t->st.sanity_mismatches > 20)
		return;
	dec_format(code, n, pc, text, sizeof text);
	fprintf(stderr, "x86smc: sanity: %#lx %s: %s %#lx\n",
		(unsigned long)pc, text, what, (unsigned long)addr);
}

static bool page_known(const struct sanity *s, uint64_t pg)
{
	for (int i = 0; i < s->npages; i++)
		if (s->page[i] == pg)
			return true;
	return false;
}

/* Before the step: predict, check the prediction is mapped, and keep the
 * pages it touches. */
static void sanity_before(struct tracer *t, const struct dec_insn *in,
			  struct sanity *s)
{
	struct lthread *th = &t->th[t->cur];
	const char *why;
	struct dec_regs dr;

	memset(s, 0, sizeof *s);
	if (!in || in->cls == DEC_SYSCALL || in->cls == DEC_TRAP)
		return;
	if (dec_check(in, &why) < 0)
		sanity_report(t, in->pc, why, 0);
	tr_dec_regs(&th->regs, &dr);
	s->n = dec_accesses(in, &dr, s->acc, DEC_MAX_MEM);
	for (int i = 0; i < s->n; i++) {
		const struct dec_access *a = &s->acc[i];
		if (!a->size || a->kind == DEC_MEM_BRANCH)
			continue;
		if (!maps_find(&t->maps, t->proc.pid, a->addr) ||
		    !maps_find(&t->maps, t->proc.pid, a->addr + a->size - 1)) {
			sanity_report(t, in->pc, "predicted access to unmapped",
				      a->addr);
			continue;
		}
		for (uint64_t pg = a->addr >> 12;
		     pg <= (a->addr + a->size - 1) >> 12 &&
		     s->npages < SANITY_PAGES; pg++)
			if (!page_known(s, pg))
				s->page[s->npages++] = pg;
	}
	s->before = malloc((size_t)s->npages << 12);
	if (!s->before)
		return;
	for (int i = 0; i < s->npages; i++)
		proc_read(&t->proc, s->page[i] << 12, s->before + (i << 12),
			  4096);
	s->active = true;
}

static bool predicted_write(const struct sanity *s, uint64_t addr)
{
	for (int i = 0; i < s->n; i++)
		if ((s->acc[i].rw & DEC_WRITE) && addr >= s->acc[i].addr &&
		    addr < s->acc[i].addr + s->acc[i].size)
			return true;
	return false;
}

/* After the step: every changed byte must be a predicted write. */
static void sanity_after(struct tracer *t, uint64_t pc, struct sanity *s)
{
	uint8_t now[4096];

	if (!s->active)
		return;
	t->st.sanity_checked++;
	for (int i = 0; i < s->npages; i++) {
		uint64_t base = s->page[i] << 12;
		if (proc_read(&t->proc, base, now, sizeof now) != sizeof now)
			continue;
		for (int k = 0; k < 4096; k++)
			if (now[k] != s->before[(i << 12) + k] &&
			    !predicted_write(s, base + (uint64_t)k)) {
				sanity_report(t, pc, "changed unpredicted byte",
					      base + (uint64_t)k);
				break;
			}
	}
	free(s->before);
	s->before = NULL;
}

/* Execute the one instruction at the current thread's pc (its breakpoint,
 * if any, lifted for the step).  Returns 0, 1 if the execution ended, -1
 * on internal failure. */
int tr_exec_insn(struct tracer *t)
{
	struct lthread *th = &t->th[t->cur];
	uint64_t pc = th->regs.rip;
	const struct dec_insn *in = dcache_get(t->dc, pc);
	uint64_t end = pc + (in ? in->len : 1);
	struct proc_stop st;
	uint8_t code[16];
	struct sanity san = { 0 };
	int r = 0;

	if (in && in->cls == DEC_REP_STRING)
		return exec_rep(t, in);
	if (t->opts.sanity)
		sanity_before(t, in, &san);
	bp_lift(t, pc, end, true);
	t->nsteps++;
	if (tr_sync_regs(t) < 0 ||
	    proc_step(&t->proc, tr_deliverable_signal(t)) < 0 ||
	    proc_wait(&t->proc, false, &st) < 0) {
		free(san.before);
		return -1;
	}
	if (st.kind == PROC_SECCOMP && sys_foreign_abi(t)) {
		free(san.before);
		bp_lift(t, pc, end, false);
		return 1;
	}
	if (st.kind == PROC_SECCOMP) {
		/* a syscall the kernel runs: allow it; the next trap is its
		 * return.  It may block: the watchdog bounds that. */
		tr_kernel_syscall(t, (long)t->th[t->cur].regs.rax);
		proc_set_watchdog(t->opts.block_seconds);
		if (proc_step(&t->proc, 0) < 0 ||
		    proc_wait(&t->proc, false, &st) < 0)
			r = -1;
		proc_set_watchdog(0);
	}
	if (r == 0 && det_tsc_stop(t, &st))
		st.kind = PROC_TRAP; /* rdtsc, emulated: the step is done */
	if (st.kind != PROC_EXITED && st.kind != PROC_KILLED &&
	    st.kind != PROC_GONE)
		bp_lift(t, pc, end, false);
	if (r < 0 || st.kind != PROC_TRAP) {
		free(san.before);
		if (r < 0)
			return -1;
		return tr_handle_stop_signal(t, &st);
	}
	if (proc_getregs(&t->proc, &th->regs) < 0) {
		free(san.before);
		return -1;
	}
	sanity_after(t, pc, &san);
	if (in && bp_fetch(t, pc, code, in->len) == in->len)
		fix_pushf(t, code, in->len);
	return 0;
}

/* ---- classification of the instruction at a thread's pc ---- */

static bool in_range(uint64_t lo, uint64_t hi, const struct dec_access *a)
{
	return a->addr >= lo && a->addr + a->size <= hi;
}

/* Is access a of thread th invisible to every other thread? */
bool tr_private(struct tracer *t, const struct lthread *th,
		const struct dec_access *a)
{
	const struct map_region *r;

	if (a->kind == DEC_MEM_STACK)
		return in_range(th->stack_lo, th->stack_hi, a);
	if (in_range(th->stack_lo, th->stack_hi, a) ||
	    in_range(th->tls_lo, th->tls_hi, a))
		return !esc_contains(t->opts.escapes, a->addr, a->size);
	/* nobody writes read-only memory: reading it is no event */
	if (a->rw == DEC_READ) {
		r = maps_find(&t->maps, t->proc.pid, a->addr);
		if (r && !(r->perms & MAP_W) && a->addr + a->size <= r->hi)
			return true;
	}
	return false;
}

/* A shared access inside another thread's private range makes that page
 * escaped (see tracer.h).  Exited threads count too: their accesses to
 * it were no events, and the access may race with them (a pointer to a
 * local published before the owner exited).  A range th reuses (glibc's
 * stack cache) is th's own. */
static void note_escape(struct tracer *t, const struct lthread *th,
			const struct dec_access *a)
{
	for (int i = 0; i < t->nthreads; i++) {
		const struct lthread *o = &t->th[i];
		if (o == th || (o->stack_lo == th->stack_lo &&
				o->stack_hi == th->stack_hi))
			continue;
		if (in_range(o->stack_lo, o->stack_hi, a) ||
		    in_range(o->tls_lo, o->tls_hi, a))
			t->new_escapes += esc_add(t->opts.escapes, a->addr,
						  a->size);
	}
}

void tr_add_shared(struct tracer *t, const struct lthread *th,
		   struct tr_event *ev, const struct dec_access *a, int n)
{
	for (int i = 0; i < n; i++) {
		if (!a[i].size || tr_private(t, th, &a[i]))
			continue;
		note_escape(t, th, &a[i]);
		acc_merge(ev->acc, &ev->nacc, EV_MAX_ACC, &a[i]);
	}
}

void tr_record_assert(struct tracer *t, struct lthread *th)
{
	char txt[200] = "", file[160] = "", fn[120] = "";
	uint64_t ret = 0;

	proc_read(&t->proc, th->regs.rdi, txt, sizeof txt - 1);
	proc_read(&t->proc, th->regs.rsi, file, sizeof file - 1);
	proc_read(&t->proc, th->regs.rcx, fn, sizeof fn - 1);
	proc_read(&t->proc, th->regs.rsp, &ret, 8);
	t->end.asserted = true;
	t->end.assert_call = ret ? ret - 5 : 0;
	snprintf(t->end.message, sizeof t->end.message,
		 "%s:%d: %s: Assertion `%s' failed.", file, (int)th->regs.rdx,
		 fn, txt);
}

/* Fill th's pending event if the instruction at its pc is visible.
 * Returns 1 (visible), 0 (local: execute and go on), 2 (something was
 * performed on the spot: look again), 3 (the thread blocked), -1
 * (failure). */
static int classify(struct tracer *t, struct lthread *th, struct tr_event *ev)
{
	uint64_t pc = th->regs.rip;
	const struct dec_insn *in = dcache_get(t->dc, pc);
	struct dec_access acc[DEC_MAX_MEM];
	struct dec_regs dr;
	struct bp *b = bp_find(t, pc);
	int n;

	memset(ev, 0, sizeof *ev);
	ev->tid = th->info.tid;
	ev->pc = pc;
	ev->sysno = -1;
	if (b && b->hook == HOOK_ASSERT_FAIL) {
		/* the assertion has failed: the abort is the thread's next
		 * event (others may still run before it); what glibc does
		 * in between (format the message, write it) is no event
		 * worth exploring */
		ev->kind = EV_END;
		ev->value = END_BY_ASSERT;
		ev_end_accesses(ev->acc, &ev->nacc);
		return 1;
	}
	if (b && rt_hook(b->hook) && rt_at_hook(t, th, b->hook) < 0)
		return -1; /* a Rust panic (langrt.c) */
	int rg = vf_hook(t, th, b, ev);
	if (rg)
		return rg;
	if (b && sync_hook(b->hook) && th->region == RG_NONE &&
	    th->section == RG_NONE) {
		rg = sync_event(t, th, b->hook, ev);
		if (rg)
			return rg;
	}
	rg = region_at(t, th, b, ev);
	if (rg)
		return rg;
	if (!in) {
		ev->kind = EV_MEM; /* undecodable: executing it will fault */
		return 1;
	}
	switch (in->cls) {
	case DEC_SYSCALL:
		if (sys_classify(t, th, ev))
			return 1;
		/* thread-local: perform it now, no event */
		return sys_local(t, th, ev) == 0 ? 2 : -1;
	case DEC_MFENCE:
		ev->kind = EV_FENCE;
		return 1;
	case DEC_PAUSE:
		ev->kind = EV_YIELD;
		return 1;
	case DEC_TRAP:
		ev->kind = EV_MEM;
		return 1;
	case DEC_UNSUPPORTED:
		tr_end_unsupported(t, "instruction at %#lx: memory accesses "
				      "cannot be computed (VSIB)",
				   (unsigned long)pc);
		return -1;
	default:
		break;
	}
	tr_dec_regs(&th->regs, &dr);
	if (dec_uses_kregs(in))
		dec_kregs(t, th, &dr);
	n = dec_accesses(in, &dr, acc, DEC_MAX_MEM);
	for (int i = 0; i < n; i++) {
		if (acc[i].kind == DEC_MEM_BRANCH || acc[i].size == 0 ||
		    tr_private(t, th, &acc[i]))
			continue;
		note_escape(t, th, &acc[i]);
		ev->acc[ev->nacc++] = acc[i];
	}
	if (in->cls == DEC_LOCKED_RMW) {
		ev->kind = EV_RMW;
		commute_mark_pending(t, ev);
		return 1;
	}
	if (ev->nacc == 0)
		return 0;
	ev->kind = EV_MEM;
	return 1;
}
/* Is pc an instruction after which an MFENCE is assumed? */
static bool is_fence(const struct tracer *t, uint64_t pc)
{
	size_t lo = 0, hi = t->nfences;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (t->fences[mid] == pc)
			return true;
		if (t->fences[mid] < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* The current thread is at a local instruction from which the walk found
 * a stop point on every path: can it run there without a single step?
 * Yes, unless a breakpoint there cannot be lifted for the run: at an
 * assumed fence (the step marks fence_pending), or with a signal to
 * deliver (its handler could come back to pc). */
static bool can_run_from(struct tracer *t, struct lthread *th)
{
	uint64_t pc = th->regs.rip;

	if (!bp_find(t, pc))
		return true;
	return !t->no_emulate && !t->opts.sanity && !is_fence(t, pc) &&
	       !(th->sigpending & ~th->sigmask) && dcache_get(t->dc, pc);
}

/* Local code that ran LOCAL_SECONDS without reaching a stop point: is
 * it a loop that can never end?  From where it is interrupted, it is
 * single-stepped up to LOCAL_STEPS instructions: if it comes back to the
 * same state (registers and used stack), the loop repeats for ever
 * (local code reads nothing another thread writes, and is
 * deterministic).  Then the thread blocks as waiting with nothing to
 * wait for (TW_AWAIT, no location): only a signal wakes it; a livelock
 * when nothing else can run.  Sampling without stepping is no proof: a
 * thread the CPU did not run between two samples looks the same (it
 * declared a terminating loop of 3e9 iterations a livelock).  Returns 1
 * (blocked), 0 (no repetition: it runs on, natively), 2 (it stopped by
 * itself: *st), 3 (it reached a stop point: th->regs there), -1. */
#define LOCAL_SECONDS 1
#define LOCAL_STEPS 4096
static bool same_state(const struct user_regs_struct *a,
		       const struct user_regs_struct *b)
{
	struct user_regs_struct x = *a, y = *b;

	x.eflags &= ~0x100ull; /* the trap flag of a single step */
	y.eflags &= ~0x100ull;
	return memcmp(&x, &y, sizeof x) == 0;
}

/* th loops for ever on its own data: it waits (TW_AWAIT) on nothing,
 * so only a signal wakes it (await_wake never does). */
static void spins_for_ever(struct tracer *t, struct lthread *th)
{
	th->info.status = TS_BLOCKED;
	th->info.wait = TW_AWAIT;
	th->info.wait_pc = th->regs.rip;
	th->info.wait_addr = 0;
	th->info.timed = false;
	th->info.nawait = 0;
	th->aw.nreads = 0;
	th->aw.on = false;
	th->need_advance = false;
	t->st.awaits++;
}

static int local_spin(struct tracer *t, struct lthread *th, uint64_t lo,
		      uint64_t hi, struct proc_stop *st)
{
	struct user_regs_struct s0;
	uint64_t h0;

	if (proc_interrupt(&t->proc) < 0 || proc_wait(&t->proc, false, st) < 0)
		return -1;
	if (st->kind != PROC_GROUP) {
		proc_interrupt_lost(&t->proc);
		return 2;
	}
	if (proc_getregs(&t->proc, &th->regs) < 0)
		return -1;
	s0 = th->regs;
	h0 = await_stack_hash(t, th, &s0);
	/* the state must come back twice: a loop repeats it every period,
	 * while one step that did not advance (seen once in 645 executions
	 * of szymanski-O0 under heavy load: a false "loops for ever" in
	 * straight-line code) shows it once (a `jmp .' shows it each step) */
	int seen = 0;
	for (int i = 0; i < LOCAL_STEPS; i++) {
		uint64_t pc = th->regs.rip;
		if (bp_find(t, pc) && !(pc >= lo && pc < hi))
			return 3; /* as if it trapped there */
		if (proc_step(&t->proc, 0) < 0 ||
		    proc_wait(&t->proc, false, st) < 0)
			return -1;
		if (st->kind != PROC_TRAP)
			return 2;
		if (proc_getregs(&t->proc, &th->regs) < 0)
			return -1;
		if (th->regs.rip == s0.rip && same_state(&th->regs, &s0) &&
		    await_stack_hash(t, th, &th->regs) == h0) {
			if (i == 0)
				pr_debug("local_spin: T%d's first step left "
					 "it at %#lx", th->info.tid,
					 (unsigned long)s0.rip);
			if (++seen < 2)
				continue;
			spins_for_ever(t, th);
			return 1;
		}
	}
	return proc_cont(&t->proc, 0) < 0 ? -1 : 0;
}

/* Run the current thread's local code from its pc up to the next stop
 * point.  A breakpoint at pc itself is lifted for the run and put back
 * at the stop: the walk went through pc again on every path that comes
 * back to it (it treats pc as no stop point), so each path meets another
 * breakpoint first; this saves the single step of the instruction
 * (issue 8).  Returns 0 (stopped: look again), 1 (the execution ended),
 * -1 (failure). */
static int run_local(struct tracer *t, struct lthread *th)
{
	uint64_t pc = th->regs.rip, end = pc;
	struct proc_stop st;
	int r = 0;

	if (bp_find(t, pc)) {
		end = pc + dcache_get(t->dc, pc)->len;
		bp_lift(t, pc, end, true);
	}
	t->nconts++;
	if (tr_sync_regs(t) < 0 ||
	    proc_cont(&t->proc, tr_deliverable_signal(t)) < 0)
		return -1;
	for (unsigned secs = LOCAL_SECONDS;; secs *= 2) {
		proc_set_watchdog(secs);
		r = proc_wait(&t->proc, false, &st);
		proc_set_watchdog(0);
		if (r < 0 || st.kind != PROC_TIMEOUT)
			break;
		r = local_spin(t, th, pc, end, &st);
		if (r != 0)
			break;
	}
	if (r == 1 || r == 3) { /* stopped in its loop, or at a stop point */
		if (end != pc)
			bp_lift(t, pc, end, false);
		t->regs_dirty = false;
		return 0;
	}
	if (r < 0)
		return -1;
	if (end != pc && st.kind != PROC_EXITED && st.kind != PROC_KILLED &&
	    st.kind != PROC_GONE)
		bp_lift(t, pc, end, false);
	if (st.kind == PROC_SECCOMP)
		return tr_rewind_syscall(t);
	if (det_tsc_stop(t, &st))
		return 0; /* rdtsc: thread-local, emulated */
	if (st.kind != PROC_TRAP)
		return tr_handle_stop_signal(t, &st);
	if (proc_getregs(&t->proc, &th->regs) < 0)
		return -1;
	if (!bp_find(t, th->regs.rip - 1)) {
		/* the program's own int3 */
		tr_end_signal(t, SIGTRAP, 0);
		return 1;
	}
	th->regs.rip--;
	t->regs_dirty = true;
	return 0;
}

/* Thread th has stopped `quiet' times in a row without an event (stop
 * points whose accesses turned out private: its own thread descriptor,
 * say, as in a `for (;;) pthread_testcancel();' loop): if it comes back
 * to a stop point in the state saved at the last power of two, its loop
 * can never end; it blocks as spinning on its own data (local_spin).
 * Returns true if it blocked. */
struct quiet {
	unsigned n;
	bool have;
	struct user_regs_struct s0;
	uint64_t h0;
};

static bool quiet_spin(struct tracer *t, struct lthread *th, struct quiet *q)
{
	if (++q->n < 1024)
		return false;
	if (q->have && same_state(&th->regs, &q->s0) &&
	    await_stack_hash(t, th, &th->regs) == q->h0) {
		spins_for_ever(t, th);
		return true;
	}
	if (!(q->n & (q->n - 1))) { /* 1024, 2048, ...: a new reference */
		q->s0 = th->regs;
		q->h0 = await_stack_hash(t, th, &th->regs);
		q->have = true;
	}
	return false;
}

/* ---- after a counted spin (spin.h) ---- */

#define WATCH_MAX 200000 /* instructions a watch may step */

/* The counter was read after the loop (or the watch could not go on):
 * the wait stood for executions it may not cover, and the search cannot
 * be complete.  (The loop stays a counted spin: whether it is one must
 * not depend on what earlier executions did, or a schedule would not
 * replay.) */
static void spin_live(struct tracer *t, struct await_win *w)
{
	t->st.spin_live++;
	pr_debug("counted spin at %#lx: its counter is read at %#lx "
		 "(registers %#x)", (unsigned long)w->loop.pc[0],
		 (unsigned long)t->th[t->cur].regs.rip, w->watch);
	w->armed = false;
	w->watch = 0;
}

/* th is at an instruction boundary after a counted spin's wait: still in
 * the loop, or out of it with registers to see overwritten unread. */
static void spin_follow(struct tracer *t, struct lthread *th)
{
	struct await_win *w = &th->aw;
	uint64_t pc = th->regs.rip;

	if (w->armed) {
		if (spin_inside(&w->loop, pc))
			return;
		w->armed = false;
		w->watch = w->loop.exit_taint;
		w->watch_steps = 0;
	}
	if (w->watch && (++w->watch_steps > WATCH_MAX ||
			 th->region != RG_NONE || t->native ||
			 spin_watch(t, pc, &w->watch) < 0))
		spin_live(t, w);
}

/* Local instructions the tracer runs itself before an event (emu_local,
 * tr_emulate_reg), at most: one stop costs as much as ~50-100 of them.
 * A run that reaches no event within them is remembered by its first pc
 * (local_long): from there the target runs the code itself. */
#define LOCAL_EMULATED 256

static uint64_t *local_long(struct tracer *t, uint64_t pc)
{
	return &t->local_long[(pc >> 2) % 64];
}

/* Run the current thread's local code up to its next visible event.
 * Returns 0 (pending event set), 1 (execution ended), -1 (failure). */
static int advance(struct tracer *t)
{
	struct lthread *th = &t->th[t->cur];
	struct quiet q = { 0 };
	int r, local_left = LOCAL_EMULATED;
	uint64_t local_from = 0; /* where the current run began */

	if (t->native) {
		if (tr_run_free(t) < 0)
			return -1;
		if (t->end.kind != END_NONE)
			return 1;
		if (th->info.status != TS_RUNNABLE)
			return 0; /* blocked: no pending event */
	}
	if (th->fence_after) { /* its event at an assumed fence is done */
		th->fence_after = false;
		th->fence_pending = true;
	}
	for (;;) {
		if (th->region != RG_NONE) {
			r = region_run(t);
			if (r != 0)
				return r;
			section_region_done(t, th);
			if (th->info.status != TS_RUNNABLE)
				return 0; /* exited (RG_EXIT) or blocked */
		}
		if (th->section != RG_NONE && section_done(t, th))
			th->section = RG_NONE;
		if (th->section != RG_NONE && !t->in_step) {
			/* woken inside a section: its rest is an event */
			section_rest(th, &th->info.pending);
			break;
		}
		if (th->aw.armed || th->aw.watch)
			spin_follow(t, th);
		r = classify(t, th, &th->info.pending);
		if (r < 0)
			return t->end.kind != END_NONE ? 1 : -1;
		if (r == 2) { /* a syscall was performed on the spot */
			if (t->end.kind != END_NONE)
				return 1;
			if (th->info.status != TS_RUNNABLE)
				return 0; /* it exited (RG_EXIT) */
			continue;
		}
		if (r == 3)
			return 0; /* blocked (join of a live thread) */
		if (r > 0 && th->section != RG_NONE &&
		    th->info.pending.kind != EV_NONDET) {
			/* inside an atomic section: performed on the spot */
			r = section_inline(t, th);
			if (r != 0)
				return r;
			if (th->info.status != TS_RUNNABLE)
				return 0;
			continue;
		}
		if (r > 0)
			break;
		/* local code up to the next event: run by the tracer, not by
		 * the target (a stop saved); a loop of it goes on natively.
		 * One instruction a turn: after a counted spin, spin_follow
		 * looks at each (it single-stepped them before) */
		if (!local_from && *local_long(t, th->regs.rip) == th->regs.rip)
			local_left = 0; /* ran out from here before */
		if (local_left > 0 && !(th->sigpending & ~th->sigmask) &&
		    !is_fence(t, th->regs.rip)) {
			uint64_t pc = th->regs.rip;
			if (tr_emulate_reg(t, th) > 0) {
				if (!local_from)
					local_from = pc;
				if (--local_left == 0) /* no event in sight */
					*local_long(t, local_from) = local_from;
				continue;
			}
		}
		if (quiet_spin(t, th, &q))
			return 0; /* loops for ever without an event */
		r = walk_from(t);
		if (r < 0)
			return -1;
		if (r > 0 || !can_run_from(t, th) || th->aw.armed ||
		    th->aw.watch) { /* one at a time: spin_follow */
			uint64_t pc = th->regs.rip;
			r = tr_emulate_local(t, th);
			r = r == 0 ? tr_exec_insn(t) : r < 0 ? -1 : 0;
			if (r != 0)
				return r;
			if (is_fence(t, pc)) /* a local instruction */
				th->fence_pending = true;
			continue;
		}
		r = run_local(t, th);
		if (r != 0)
			return r;
		if (th->info.status != TS_RUNNABLE)
			return 0; /* spins in local code for ever */
	}
	th->info.pending.fenced = th->fence_pending || pso_straddles(t, th);
	th->fence_pending = false;
	th->fence_after = is_fence(t, th->info.pending.pc);
	th->info.pending_known = true;
	if (th->info.pending.kind == EV_ATOMIC && !th->info.pending.region &&
	    th->info.pending.caller) { /* a section's rest: at its call */
		memset(th->info.pending.ret, 0, sizeof th->info.pending.ret);
		th->info.pending.ret[0] = th->info.pending.caller;
	} else {
		rt_unwind(t, th, th->info.pending.ret, TR_RETS); /* reports */
	}
	th->need_advance = false;
	await_at_pending(t, th); /* a spin loop: it waits */
	return 0;
}

static int ensure_pending(struct tracer *t, int tid)
{
	struct lthread *th = &t->th[tid];

	if (!th->need_advance || th->info.status != TS_RUNNABLE)
		return 0;
	if (tr_load(t, tid) < 0)
		return -1;
	return advance(t);
}

/* A counted spin gave up (threads.c, time_out): its remaining
 * iterations run now, inside the timeout event, with no other thread in
 * between: each reads what the blocked iteration read (nobody wrote it),
 * so the loop ends by its counter.  They are no events of the search
 * (the timeout stands for them); the thread stops at its first event
 * outside the loop. */
#define RUNOUT_MAX (1u << 20)
int tr_spin_runout(struct tracer *t, int tid)
{
	struct lthread *th = &t->th[tid];
	struct await_win *w = &th->aw;
	struct tr_event ev;
	int r = 0;

	pr_debug("T%d: counted spin at %#lx gives up", tid,
		 (unsigned long)w->pc0);
	for (unsigned n = 0; n < RUNOUT_MAX && r == 0; n++) {
		if (t->end.kind != END_NONE ||
		    ensure_pending(t, tid) < 0 || t->end.kind != END_NONE ||
		    th->info.status != TS_RUNNABLE ||
		    !spin_inside(&w->loop, th->info.pending.pc))
			break;
		r = tracer_step(t, tid, &ev) < 0 ? -1 : 0;
	}
	w->runout = false;
	if (r == 0 && th->info.status == TS_RUNNABLE && th->info.pending_known)
		await_at_pending(t, th); /* a window from its next event */
	return r;
}

const struct tr_thread_info *tracer_thread(struct tracer *t, int tid)
{
	if (tid < 0 || tid >= t->nthreads)
		return NULL;
	if (t->end.kind == END_NONE && ensure_pending(t, tid) < 0)
		tr_end_internal(t, "cannot compute a pending event");
	return &t->th[tid].info;
}

bool ev_needs_drain(const struct tr_event *ev)
{
	return ev->kind == EV_RMW || ev->kind == EV_FENCE || ev->sysno >= 0 ||
	       ev->region != RG_NONE || ev->kind == EV_END || ev->fenced ||
	       ev->kind == EV_ATOMIC || ev->kind == EV_SYNC;
}

static size_t mem_read(void *ctx, uint64_t a, void *buf, size_t n)
{
	return proc_read(&((struct tracer *)ctx)->proc, a, buf, n);
}

static size_t mem_write(void *ctx, uint64_t a, const void *buf, size_t n)
{
	return proc_write(&((struct tracer *)ctx)->proc, a, buf, n);
}

static int mem_exec(void *ctx)
{
	return tr_exec_insn(ctx);
}

/* PSO: a thread has its own FIFO for up to this many locations with
 * stores in flight at once (the update threads TR_AUX_BASE.. are shared
 * by all threads; an empty FIFO takes a new location); the stores to
 * further locations share its newest FIFO, and the search is then not
 * complete (their reorderings are not explored: counted, pso_shared). */
#define PSO_LOCATIONS 16

/* PSO: the overlapping buffered stores' tag, for tr_store_tag(). */
struct overlap {
	int tag;
	bool several;
};

static int overlap_tag(const struct sb_entry *e, void *arg)
{
	struct overlap *o = arg;

	if (o->tag >= 0 && o->tag != e->tag)
		o->several = true;
	o->tag = e->tag;
	return 0;
}

/* PSO: does th's pending event store over buffered stores of two of its
 * FIFOs (a 16-byte store of stdio's over two 8-byte fields, say)?  Its
 * bytes of each location must reach memory after the older ones, and no
 * one FIFO can order it after both: the event then waits for an empty
 * buffer, as after an MFENCE (ev_needs_drain; the explorer flushes the
 * FIFOs first, as update events).  Those flushes coming first is one PSO
 * order of many, so the search is not complete (pso_shared).  (It ended
 * the execution as unsupported before: fuzz_explore seeds 3005, 3047.) */
static bool pso_straddles(struct tracer *t, struct lthread *th)
{
	const struct tr_event *ev = &th->info.pending;
	bool several = false;

	if (!t->opts.pso || sb_empty(&th->sb) || ev->kind != EV_MEM)
		return false;
	for (int i = 0; i < ev->nacc && !several; i++) {
		struct overlap o = { -1, false };
		if (!(ev->acc[i].rw & DEC_WRITE))
			continue;
		sb_overlaps(&th->sb, ev->acc[i].addr, ev->acc[i].size,
			    overlap_tag, &o);
		several = o.several;
	}
	if (several)
		t->st.pso_shared++;
	return several;
}

/* The buffer a store of the current thread to [addr, addr+size) goes to.
 * tso: the thread's one FIFO.  pso: the FIFO of its location (its
 * address); a store overlapping buffered ones joins their FIFO, so that
 * the bytes of one location reach memory in program order. */
int tr_store_tag(void *ctx, uint64_t addr, uint64_t size)
{
	struct tracer *t = ctx;
	struct lthread *th = &t->th[t->cur];
	struct overlap o = { -1, false };
	int last = -1, mine = 0;

	if (!t->opts.pso)
		return t->cur;
	sb_overlaps(&th->sb, addr, size, overlap_tag, &o);
	if (o.several) {
		tr_end_unsupported(t, "pso: a %lu-byte store at %#lx overlaps "
				   "buffered stores to two locations",
				   (unsigned long)size, (unsigned long)addr);
		return -1;
	}
	if (o.tag >= 0)
		return o.tag;
	for (int s = 0; s < t->nslots; s++) {
		if (t->slot[s].owner != t->cur)
			continue;
		if (t->slot[s].addr == addr)
			return s;
		last = s;
		mine++;
	}
	/* a FIFO of the thread that is empty now takes the new location:
	 * its old location's stores have all reached memory, so keeping
	 * the two in one FIFO orders nothing that was not ordered (a
	 * store of the new one made while the old one still has stores
	 * gets a FIFO of its own) */
	for (int s = 0; s < t->nslots; s++)
		if (t->slot[s].owner == t->cur && !sb_front_tag(&th->sb, s)) {
			t->slot[s].addr = addr;
			return s;
		}
	if (mine < PSO_LOCATIONS && t->nslots < TR_MAX_THREADS - TR_AUX_BASE) {
		t->slot[t->nslots].owner = t->cur;
		t->slot[t->nslots].addr = addr;
		return t->nslots++;
	}
	/* out of update threads: the thread's newest FIFO takes the store
	 * (fewer reorderings explored, never a false one; counted) */
	t->st.pso_shared++;
	if (last >= 0)
		return last;
	tr_end_unsupported(t, "pso: more than %d store buffers (%d "
			   "locations for each of %d threads)",
			   TR_MAX_THREADS - TR_AUX_BASE, PSO_LOCATIONS,
			   (TR_MAX_THREADS - TR_AUX_BASE) / PSO_LOCATIONS);
	return -1;
}

/* A plain memory event under tso/pso: through the store buffer. */
static int exec_tso(struct tracer *t, struct lthread *th,
		    struct tr_event *done)
{
	struct tso_mem m = { t, mem_read, mem_write, mem_exec, tr_store_tag };
	struct tso_store st[DEC_MAX_MEM];
	struct tso_fwd fwd[DEC_MAX_MEM];
	int nst;
	int r = tso_exec(&th->sb, done->acc, &done->nacc, done->rval, fwd, &m,
			 st, &nst);

	for (int i = 0; i < done->nacc; i++) {
		done->fwd_seq[i] = fwd[i].seq;
		done->fwd_slot[i] = (uint8_t)(fwd[i].tag < 0 ? 0 : fwd[i].tag);
	}

	done->nst = (uint8_t)nst;
	for (int i = 0; i < nst; i++)
		done->st[i] = (struct tr_store){ st[i].addr,
						 (uint32_t)st[i].size,
						 (uint8_t)st[i].tag, st[i].val };
	return r;
}

static uint64_t read8(struct tracer *t, uint64_t addr, uint64_t size)
{
	uint64_t v = 0;

	proc_read(&t->proc, addr, &v, size < 8 ? size : 8);
	return v;
}

/* A plain or locked event that writes memory directly: its values. */
static int exec_direct(struct tracer *t, struct tr_event *done)
{
	int r;

	for (int i = 0; i < done->nacc; i++)
		if (done->acc[i].rw & DEC_READ)
			done->rval[i] = read8(t, done->acc[i].addr,
					      done->acc[i].size);
	r = tr_exec_insn(t);
	if (r == 0 && t->end.kind == END_NONE)
		for (int i = 0; i < done->nacc; i++)
			if (done->acc[i].rw & DEC_WRITE)
				done->wval[i] = read8(t, done->acc[i].addr,
						      done->acc[i].size);
	return r;
}

/* Write every buffered store of every thread to memory, without events
 * (when no other thread can observe the order any more). */
void tr_drain_all(struct tracer *t)
{
	for (int i = 0; i < t->nthreads; i++) {
		struct sb *b = &t->th[i].sb;
		const struct sb_entry *e;
		while ((e = sb_front(b))) {
			proc_write(&t->proc, e->addr, e->bytes, e->size);
			sb_pop(b);
		}
	}
}

bool tracer_buffered(const struct tracer *t, int tid)
{
	return tid >= 0 && tid < t->nthreads && !sb_empty(&t->th[tid].sb);
}

int tracer_slot_owner(const struct tracer *t, int slot)
{
	if (!t->opts.pso)
		return slot < t->nthreads ? slot : -1;
	return slot >= 0 && slot < t->nslots ? t->slot[slot].owner : -1;
}

tset tracer_update_mask(const struct tracer *t)
{
	tset m = ts_empty();

	for (int i = 0; i < t->nthreads; i++)
		m = ts_or(m, sb_tags(&t->th[i].sb));
	return m;
}

int tracer_flush(struct tracer *t, int slot, struct tr_event *done)
{
	int owner = tracer_slot_owner(t, slot);
	struct sb *b = owner >= 0 ? &t->th[owner].sb : NULL;
	const struct sb_entry *e = b ? sb_front_tag(b, slot) : NULL;

	memset(done, 0, sizeof *done);
	done->sysno = -1;
	if (!e || t->end.kind != END_NONE)
		return t->end.kind != END_NONE;
	done->tid = TR_AUX_BASE + slot;
	done->kind = EV_UPDATE;
	done->nacc = 1;
	done->acc[0] = (struct dec_access){ e->addr, e->size, DEC_WRITE, 0 };
	done->wval[0] = 0;
	memcpy(&done->wval[0], e->bytes, e->size < 8 ? e->size : 8);
	if (proc_write(&t->proc, e->addr, e->bytes, e->size) != e->size) {
		tr_end_internal(t, "store buffer update failed");
		return 1;
	}
	sb_pop_tag(b, slot);
	t->steps++;
	t->st.events++;
	await_wake(t, done);
	done->woke = futex_take_woken(t);
	return 0;
}

/* Perform ev, the pending event of th (the current thread).  direct:
 * stores go to memory, not to the store buffer (inside an atomic
 * section). */
static int perform(struct tracer *t, struct lthread *th,
		   struct tr_event *ev, bool direct)
{
	if (ev->kind == EV_ATOMIC)
		return section_begin(t, th, ev);
	if (ev->region) /* region_run() lifts the hook: no step */
		return region_begin(t, th, ev);
	if (ev->sysno >= 0)
		return sys_perform(t, th, ev);
	if (ev->kind == EV_NONDET)
		return vf_nondet(t, th, ev);
	if (ev->kind == EV_SYNC)
		return sync_perform(t, th, ev);
	if (ev->kind == EV_END && ev->sysno < 0) { /* at a hook */
		if (ev->value == END_BY_ASSERT) {
			tr_record_assert(t, th);
			tr_end_signal(t, SIGABRT, 0);
		} else {
			vf_error_call(t, th);
		}
		return 0;
	}
	sync_rw_prepare(t, th, ev); /* a reader's lock of a Rust RwLock */
	/* movs, locked and plain read-modify-writes, pause, mfence: without
	 * a single step (emulate.h) */
	int r = tr_emulate(t, th, ev, t->opts.tso && ev->kind == EV_MEM &&
					      !direct);
	if (r)
		return r < 0 ? -1 : 0;
	if (t->opts.tso && ev->kind == EV_MEM && !direct)
		return exec_tso(t, th, ev);
	if (ev->kind == EV_MEM || ev->kind == EV_RMW)
		return exec_direct(t, ev);
	return tr_exec_insn(t);
}

int tr_section_perform(struct tracer *t, struct lthread *th,
		       struct tr_event *ev)
{
	return perform(t, th, ev, true);
}

int tracer_step(struct tracer *t, int tid, struct tr_event *done)
{
	struct lthread *th = &t->th[tid];
	int r;

	if (t->end.kind != END_NONE)
		return 1;
	done->kind = EV_NONE;
	r = ensure_pending(t, tid);
	if (r == 0 && t->end.kind == END_NONE)
		r = tr_load(t, tid);
	if (r != 0 || t->end.kind != END_NONE)
		goto out;
	if (th->info.status != TS_RUNNABLE)
		goto out; /* it blocked while running natively */
	/* Events of a lone thread are no events of the search while it is
	 * watched by a probe, until it runs natively again, and before any
	 * other thread was born: whether it runs natively or under control
	 * then depends on the wall clock (probe()), or on where the fork
	 * snapshot was taken, and the search must not.  Nothing races with
	 * them (the thread's clock covers every event). */
	bool probing = t->probe_events > 0 || t->probe_tail ||
		       t->nthreads == 1;
	tset timed = ts_empty();
	uint64_t seq[TR_AUX_BASE];
	for (int i = 0; i < t->nthreads && i < TR_AUX_BASE; i++)
		if (t->th[i].info.status == TS_BLOCKED && t->th[i].info.timed) {
			ts_add(&timed, i);
			seq[i] = t->th[i].wait_seq;
		}
	*done = th->info.pending;
	th->info.pending_known = false;
	th->need_advance = true;
	t->steps++;
	t->st.events++;
	futex_take_woken(t);
	if (ev_needs_drain(done) && !sb_empty(&th->sb))
		tr_drain_all(t); /* the explorer should have flushed it first */
	r = perform(t, th, done, false);
	if (r == 0 && t->end.kind == END_NONE) {
		await_after_event(t, th, done);
		await_wake(t, done);
	}
	if (r == 0 && t->end.kind == END_NONE &&
	    th->info.status == TS_RUNNABLE && th->need_advance) {
		if (t->probe_events)
			t->probe_events--; /* watched: see probe() */
		if (!t->probe_events && tr_live_threads(t) == 1 &&
		    !t->native && !th->region && t->native_ok)
			tr_enter_native(t);
		t->in_step = true; /* an atomic section runs on in it */
		r = advance(t);
		t->in_step = false;
	}
	/* what an atomic section did in this step is part of the event */
	if (section_report(t, th, done) && r == 0 &&
	    t->end.kind == END_NONE)
		await_wake(t, done);
	/* a region's wake-ups and child are known once it has run */
	done->woke = futex_take_woken(t);
	/* the timed waits it ended (woken, or looking again) */
	done->woke_timed = ts_empty();
	for (int i = ts_first(timed); i >= 0; i = ts_next(timed, i + 1)) {
		const struct lthread *o = &t->th[i];
		if (o->info.status != TS_BLOCKED || !o->info.timed ||
		    o->wait_seq != seq[i])
			ts_add(&done->woke_timed, i);
	}
	if (done->region == RG_CREATE)
		done->child = th->region_child;
	if (done->region == RG_LIB)
		lib_after(t, th, done);
	if (r == 0 && t->opts.max_steps && t->steps >= t->opts.max_steps &&
	    t->end.kind == END_NONE) {
		t->end.kind = END_STEPS;
		t->end.tid = tid;
	}
	/* a lone thread watched for a spin loop (probe()) is no event of
	 * the search: whether a probe happens depends on the wall clock, the
	 * search must not (its clock covers every event: nothing races) */
	if (probing && tr_live_threads(t) == 1 && done->kind != EV_SPAWN &&
	    done->kind != EV_NONDET && done->kind != EV_END) {
		done->kind = EV_NONE;
		tr_drain_all(t); /* no update events either */
	}
	if (r == 0) {
		sync_rw_reader(done);
		commute_mark(t, done);
	}
out:
	if (r < 0)
		tr_end_internal(t, "stepping failed");
	return t->end.kind != END_NONE ? 1 : 0;
}

void tracer_allow_native(struct tracer *t, bool ok)
{
	t->native_ok = ok;
}

const struct tr_end *tracer_end(const struct tracer *t)
{
	return &t->end;
}

bool tracer_ended(const struct tracer *t)
{
	return t->end.kind != END_NONE;
}

bool tracer_limit_held(const struct tracer *t)
{
	for (int i = 0; i < t->nthreads; i++)
		if (t->th[i].info.status == TS_BLOCKED &&
		    t->th[i].info.wait == TW_LIMIT)
			return true;
	return false;
}

const char *tracer_output(const struct tracer *t, int fd, size_t *len)
{
	if (fd < 1 || fd > 2) {
		*len = 0;
		return "";
	}
	*len = t->out[fd].len;
	return t->out[fd].buf ? t->out[fd].buf : "";
}

void tracer_stats(const struct tracer *t, struct tracer_stats *s)
{
	*s = t->st;
	s->ptrace_stops = t->proc.stops;
	s->steps = t->steps;
}

size_t tracer_new_escapes(const struct tracer *t)
{
	return t->new_escapes;
}

int tracer_pid(const struct tracer *t)
{
	return t->proc.pid;
}

bool tracer_take_stutter(struct tracer *t, struct tr_stutter *s)
{
	if (!t->nstutter)
		return false;
	*s = t->stutter[--t->nstutter];
	return true;
}

void tracer_set_stdio(struct tracer *t, const uint64_t file[3])
{
	memcpy(t->stdio_file, file, sizeof t->stdio_file);
}

int tracer_add_hook(struct tracer *t, uint64_t pc, enum tr_hook h)
{
	/* in native mode a hook that only matters with several threads
	 * is lifted when first hit (bp_native_hit) */
	return bp_insert(t, pc, (uint8_t)h);
}

int tracer_set_runtime(struct tracer *t, const uint64_t *start,
		       size_t nstart, const uint64_t *user, size_t nuser)
{
	t->nrt_start = t->nrt_user = 0;
	if (!nstart || !nuser)
		return 0;
	for (size_t i = 0; i < nstart && i < TR_RUNTIME_MAX; i++)
		t->rt_start[t->nrt_start++] = start[i];
	for (size_t i = 0; i < nuser && i < TR_RUNTIME_MAX; i++) {
		t->rt_user[t->nrt_user++] = user[i];
		if (bp_insert(t, user[i], 0) < 0)
			return -1;
	}
	return 0;
}

bool tr_runtime_user(const struct tracer *t, uint64_t pc)
{
	for (size_t i = 0; i < t->nrt_user; i++)
		if (t->rt_user[i] == pc)
			return true;
	return false;
}

bool tr_runtime_start(const struct tracer *t, uint64_t pc)
{
	for (size_t i = 0; i < t->nrt_start; i++) /* none without users */
		if (t->rt_start[i] == pc)
			return true;
	return false;
}

size_t tracer_read(struct tracer *t, uint64_t addr, void *buf, size_t n)
{
	return t->proc.pid ? proc_read(&t->proc, addr, buf, n) : 0;
}

size_t tracer_insn(struct tracer *t, uint64_t pc, uint8_t *buf, size_t n)
{
	/* every event's instruction was decoded: a hit, even after the
	 * target ended */
	const struct dec_insn *in = dcache_get(t->dc, pc);

	if (!in || n < in->len)
		return 0;
	memcpy(buf, in->bytes, in->len);
	return in->len;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int tracer_assume_fence(struct tracer *t, uint64_t pc, uint64_t func)
{
	uint64_t *n, a = func ? func : pc;
	const struct dec_insn *in;

	/* pc must start an instruction: decode from the function's start */
	while (a < pc && (in = dcache_get(t->dc, a)))
		a += in->len;
	if (a != pc || !dcache_get(t->dc, pc))
		return -2;
	n = realloc(t->fences, (t->nfences + 1) * sizeof *n);
	if (!n)
		return -1;
	t->fences = n;
	t->fences[t->nfences++] = pc;
	qsort(t->fences, t->nfences, sizeof *n, cmp_u64);
	/* a stop point, so that a local instruction there is seen too */
	return bp_insert(t, pc, 0);
}

