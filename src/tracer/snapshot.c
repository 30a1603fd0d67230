/* snapshot.c — fork snapshots of the single-OS-thread target.
 *
 * Because every logical thread lives in one OS thread, fork() copies the
 * whole program state.  x86smc takes one snapshot when control starts
 * (the first pthread_create): a stopped, traced copy of the process plus
 * a copy of the tracer's per-execution state (logical threads, their
 * XSTATE images, captured output).  Each execution then starts from a
 * fork of the snapshot instead of a fresh exec: no exec, no dynamic
 * loading, no native prefix, and the snapshot keeps every breakpoint
 * found so far (bp_insert writes into it too).  Measured: see
 * docs/EXPLORATION.md. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "tracer/log.h"
#include "tracer/prof.h"
#include "tracer/recycle.h"
#include "tracer/tracer_priv.h"

/* The state when control started: every execution continues from a
 * fork of it (or of a later checkpoint). */
struct tr_snapshot {
	uint64_t syscall_pc;        /* where clone is injected */
	struct tr_checkpoint *base; /* not in the tracer's list */
};

struct tr_checkpoint {
	struct tr_checkpoint *next; /* the tracer's list of live ones */
	struct proc proc;           /* the stopped copy */
	struct lthread *th; /* nthreads of them: a checkpoint a few dozen
			     * executions take must not cost a copy (or a
			     * calloc) of all TR_MAX_THREADS */
	int nthreads, cur;
	bool native;
	unsigned probe_events; /* a probe's state (tracer_step) */
	bool probe_tail;
	uint64_t wait_seq, next_start_routine, clock_ns;
	int64_t next_value;
	struct output out[3];
	struct {
		int owner;
		uint64_t addr;
	} slot[TR_MAX_THREADS - TR_AUX_BASE];
	int nslots;
	unsigned long steps;
	struct fdstate fds;         /* offsets and pipe contents then */
	uint64_t kgen;              /* the process's kernel state then */
	uint64_t sigact[TR_NSIG + 1][4]; /* its signal dispositions */
	uint64_t altstack[3];       /* and alternate signal stack */
	struct rc_maps maps;        /* its map, once a restore needed it */
	bool have_maps;
	uint8_t *xstate;            /* the process's XSTATE and signal */
	uint64_t sigmask;           /* mask, with the map */
};

/* dst[0..n) become copies of src[0..n), XSTATE and store buffers
 * included (dst's own buffers must be freed first). */
static int copy_threads(struct lthread *dst, const struct lthread *src,
			int n, size_t xsize)
{
	for (int i = 0; i < n; i++) {
		uint8_t *x = dst[i].xstate;
		dst[i] = src[i];
		if (!x && !(x = malloc(xsize)))
			return -1;
		memcpy(x, src[i].xstate, xsize);
		dst[i].xstate = x;
		if (sb_copy(&dst[i].sb, &src[i].sb) < 0)
			return -1;
	}
	return 0;
}

static void free_threads(struct lthread *th, int n)
{
	for (int i = 0; i < n; i++) {
		free(th[i].xstate);
		th[i].xstate = NULL;
		sb_free(&th[i].sb);
	}
}

static int copy_output(struct output *dst, const struct output *src)
{
	for (int fd = 1; fd <= 2; fd++) {
		dst[fd].len = 0;
		if (src[fd].len > dst[fd].cap) {
			char *b = realloc(dst[fd].buf, src[fd].len + 1);
			if (!b)
				return -1;
			dst[fd].buf = b;
			dst[fd].cap = src[fd].len;
		}
		if (src[fd].len)
			memcpy(dst[fd].buf, src[fd].buf, src[fd].len + 1);
		dst[fd].len = src[fd].len;
	}
	return 0;
}

/* Address of a syscall instruction near fn (libc's syscall()). */
static uint64_t find_syscall(struct tracer *t, uint64_t fn)
{
	uint8_t code[96];
	size_t n = fn ? bp_fetch(t, fn, code, sizeof code) : 0;

	for (size_t i = 0; i + 1 < n; i++)
		if (code[i] == 0x0f && code[i + 1] == 0x05)
			return fn + i;
	return 0;
}

/* The syscall instruction at pc may carry a breakpoint (a program that
 * calls syscall() itself): an injected syscall must run the original
 * byte.  Puts it in p; *rebp says that the int3 goes back after. */
static int uncover(struct tracer *t, struct proc *p, uint64_t pc,
		   bool *rebp)
{
	const struct bp *b = bp_find(t, pc);
	uint8_t cur = 0;

	*rebp = b && proc_read(p, pc, &cur, 1) == 1 && cur == 0xcc;
	return *rebp && proc_write(p, pc, &b->orig, 1) != 1 ? -1 : 0;
}

/* Fork p at the syscall instruction pc (uncovered for the clone; p gets
 * its int3 back here, the copy from the caller: put_int3). */
static pid_t fork_at(struct tracer *t, struct proc *p, uint64_t pc,
		     bool *rebp)
{
	static const uint8_t int3 = 0xcc;
	pid_t pid;

	if (uncover(t, p, pc, rebp) < 0)
		return -1;
	pid = proc_fork(p, pc);
	if (*rebp)
		proc_write(p, pc, &int3, 1);
	return pid;
}

static int put_int3(struct proc *p, uint64_t pc, bool rebp)
{
	static const uint8_t int3 = 0xcc;

	return !rebp || proc_write(p, pc, &int3, 1) == 1 ? 0 : -1;
}

static void cp_free(struct tr_checkpoint *c)
{
	proc_kill(&c->proc);
	fdstate_free(&c->fds);
	rc_maps_free(&c->maps);
	free(c->xstate);
	if (c->th)
		free_threads(c->th, c->nthreads);
	free(c->th);
	for (int fd = 1; fd <= 2; fd++)
		free(c->out[fd].buf);
	free(c);
}

/* A stopped fork of the current process at an instruction boundary (the
 * clone injected at pc), with a copy of the tracer's per-execution
 * state. */
static struct tr_checkpoint *capture_at(struct tracer *t, uint64_t pc)
{
	struct tr_checkpoint *c = calloc(1, sizeof *c);
	bool rebp;
	pid_t pid;

	if (!c)
		return NULL;
	c->proc = t->proc;
	c->proc.pid = 0;
	c->proc.memfd = -1;
	c->nthreads = t->nthreads;
	c->th = calloc(t->nthreads ? t->nthreads : 1, sizeof *c->th);
	if (!c->th) {
		c->nthreads = 0;
		cp_free(c);
		return NULL;
	}
	if (tr_sync_regs(t) < 0 ||
	    proc_getxstate(&t->proc, t->th[t->cur].xstate) < 0 ||
	    (pid = fork_at(t, &t->proc, pc, &rebp)) < 0 ||
	    proc_attach_pid(&c->proc, pid) < 0 ||
	    put_int3(&c->proc, pc, rebp) < 0 ||
	    proc_setregs(&c->proc, &t->th[t->cur].regs) < 0 ||
	    copy_threads(c->th, t->th, t->nthreads, t->proc.xsize) < 0 ||
	    copy_output(c->out, t->out) < 0 ||
	    fdstate_capture(&c->fds, pid) < 0) {
		cp_free(c);
		return NULL;
	}
	c->cur = t->cur;
	c->kgen = t->kgen;
	memcpy(c->sigact, t->sigact, sizeof c->sigact);
	memcpy(c->altstack, t->altstack, sizeof c->altstack);
	c->native = t->native;
	c->probe_events = t->probe_events;
	c->probe_tail = t->probe_tail;
	c->wait_seq = t->wait_seq;
	c->next_start_routine = t->next_start_routine;
	c->clock_ns = t->clock_ns;
	c->next_value = t->next_value;
	memcpy(c->slot, t->slot, sizeof c->slot);
	c->nslots = t->nslots;
	c->steps = t->steps;
	return c;
}

/* The tracer's per-execution state becomes c's (the process already is). */
static int adopt(struct tracer *t, const struct tr_checkpoint *c)
{
	for (int i = 0; i < t->nthreads; i++)
		sb_free(&t->th[i].sb);
	if (copy_threads(t->th, c->th, c->nthreads, t->proc.xsize) < 0 ||
	    copy_output(t->out, c->out) < 0)
		return -1;
	for (int i = c->nthreads; i < t->nthreads; i++) {
		free(t->th[i].xstate);
		t->th[i].xstate = NULL;
	}
	t->nthreads = c->nthreads;
	t->cur = c->cur;
	t->kgen = c->kgen;
	memcpy(t->sigact, c->sigact, sizeof t->sigact);
	memcpy(t->altstack, c->altstack, sizeof t->altstack);
	t->native = c->native;
	t->probe_events = c->probe_events;
	t->probe_tail = c->probe_tail;
	t->wait_seq = c->wait_seq;
	t->clock_ns = c->clock_ns;
	t->next_start_routine = c->next_start_routine;
	t->next_value = c->next_value;
	memcpy(t->slot, c->slot, sizeof t->slot);
	t->nslots = c->nslots;
	memset(&t->end, 0, sizeof t->end);
	t->steps = c->steps;
	t->woken = ts_empty();
	t->nstutter = 0;
	t->new_escapes = 0;
	t->maps.stale = true; /* it may have mapped less by then */
	t->regs_dirty = true; /* the process is elsewhere */
	/* the process has every stop point, a snapshot taken in native
	 * mode (its one thread blocked before a second existed) too:
	 * native mode lifts them as they are hit */
	t->nnlift = 0;
	bp_restored(t);
	return tr_sync_regs(t);
}

/* Continue from a fork of c, the current execution's process gone
 * (apply). */
static int apply_at(struct tracer *t, const struct tr_checkpoint *c,
		    uint64_t pc)
{
	bool rebp;
	pid_t pid;

	pid = fork_at(t, (struct proc *)&c->proc, pc, &rebp);
	if (pid < 0 || proc_attach_pid(&t->proc, pid) < 0 ||
	    put_int3(&t->proc, pc, rebp) < 0 ||
	    fdstate_restore(&c->fds, pid) < 0)
		return -1;
	t->st.snapshots++;
	return adopt(t, c);
}

/* X86SMC_NO_RECYCLE=1: every restore forks (recycle.c);
 * X86SMC_RECYCLE_CHECK=1: each one in place is checked page by page. */
static int recycle_mode(void)
{
	static int mode = -1;

	if (mode < 0)
		mode = rc_env("X86SMC_NO_RECYCLE")	  ? 0
		       : rc_env("X86SMC_RECYCLE_CHECK") ? 2
							: 1;
	return mode;
}

/* The stops a process can be resumed from as another execution: a
 * trap, a signal (dropped), a syscall's seccomp stop (skipped). */
static bool resumable(const struct proc *p)
{
	return p->pid > 0 && p->stale_interrupts == 0 &&
	       (p->last_kind == PROC_TRAP || p->last_kind == PROC_SIGNAL ||
		p->last_kind == PROC_SECCOMP);
}

/* Make the process of the execution that ended c's copy, in place:
 * its memory (recycle.c), registers, XSTATE, signal mask, file offsets.
 * Returns 0, or -1 when it cannot (then the process is to be killed and
 * c forked: its map may already have changed). */
static int recycle_at(struct tracer *t, struct tr_checkpoint *c,
		      uint64_t pc)
{
	struct rc_ctx *x;
	const char *why = "";
	bool rebp;
	int r = -1;

	if (!c->have_maps) {
		if (!c->xstate && !(c->xstate = malloc(t->proc.xsize)))
			return -1;
		if (proc_getxstate(&c->proc, c->xstate) < 0 ||
		    proc_getsigmask(&c->proc, &c->sigmask) < 0 ||
		    rc_maps_read(&c->maps, c->proc.pid) < 0)
			return -1;
		c->have_maps = true;
	}
	if (proc_flush(&t->proc) < 0)
		return -1;
	t->proc.cache.pid = 0;
	bp_native_restore(t); /* c has them */
	x = calloc(1, sizeof *x);
	if (!x)
		goto out;
	*x = (struct rc_ctx){ .p = &t->proc, .c = &c->proc,
			      .cmaps = &c->maps, .syscall_pc = pc };
	for (int sig = 1; sig <= TR_NSIG; sig++)
		if (memcmp(t->sigact[sig], c->sigact[sig],
			   sizeof c->sigact[sig])) {
			x->sig[x->nsig] = sig;
			memcpy(x->act[x->nsig++], c->sigact[sig],
			       sizeof x->act[0]);
		}
	if (memcmp(t->altstack, c->altstack, sizeof c->altstack)) {
		x->set_altstack = true;
		memcpy(x->altstack, c->altstack, sizeof x->altstack);
	}
	if (uncover(t, &t->proc, pc, &rebp) < 0)
		goto out;
	/* a seccomp stop resumed with a single step would stop at the
	 * syscall's return, before any instruction: leave it first */
	if (t->proc.last_kind == PROC_SECCOMP &&
	    proc_leave_seccomp(&t->proc) < 0)
		why = "cannot leave the seccomp stop";
	else if (rc_restore_memory(x, &why) == 0)
		r = 0;
	if (put_int3(&t->proc, pc, rebp) < 0)
		r = -1;
	if (r == 0 && (proc_setxstate(&t->proc, c->xstate) < 0 ||
		       proc_setsigmask(&t->proc, c->sigmask) < 0 ||
		       fdstate_restore(&c->fds, t->proc.pid) < 0)) {
		why = "registers or descriptors";
		r = -1;
	}
	if (r == 0 && recycle_mode() == 2 && rc_check(x) < 0) {
		pr_err("recycle: the restored process differs from its "
		       "checkpoint");
		abort();
	}
	if (r < 0)
		pr_debug("recycle: forking instead: %s", why);
	else {
		t->st.recycles++;
		t->st.recycle_pages += x->pages;
	}
out:
	if (x)
		rc_maps_free(&x->pmaps);
	free(x);
	return r;
}

/* --profile: a fork of the target, whole (prof.h) */
static struct tr_checkpoint *capture(struct tracer *t, uint64_t pc)
{
	int pp = prof_enter(PROF_FORK);
	struct tr_checkpoint *c = capture_at(t, pc);

	prof_leave(pp);
	return c;
}

/* Forget the current execution's state; continue from c: in the same
 * process when it can be made c's copy (recycle_at), else from a fork
 * of c. */
static int apply(struct tracer *t, struct tr_checkpoint *c, uint64_t pc)
{
	bool same = t->kgen == c->kgen && resumable(&t->proc);

	if (recycle_mode() && t->proc.pid > 0 && !same)
		pr_debug("recycle: not tried (kernel generation %lu, the "
			 "checkpoint's %lu; last stop %d)",
			 (unsigned long)t->kgen, (unsigned long)c->kgen,
			 t->proc.last_kind);
	if (recycle_mode() && same) {
		int pp = prof_enter(PROF_RECYCLE);
		int r = recycle_at(t, c, pc);
		prof_leave(pp);
		if (r == 0)
			return adopt(t, c);
	}
	proc_kill(&t->proc); /* the execution that ends: PROF_KILL */
	int pp = prof_enter(PROF_FORK);
	int r = apply_at(t, c, pc);

	prof_leave(pp);
	return r;
}

int tracer_snapshot(struct tracer *t, uint64_t syscall_fn)
{
	struct tr_snapshot *s;

	if (t->snap || t->end.kind != END_NONE)
		return -1;
	s = calloc(1, sizeof *s);
	if (!s)
		return -1;
	s->syscall_pc = find_syscall(t, syscall_fn);
	if (!s->syscall_pc || !(s->base = capture(t, s->syscall_pc))) {
		free(s);
		return -1;
	}
	/* an execution starts with no event and empty buffers */
	s->base->steps = 0;
	s->base->nslots = 0;
	for (int i = 0; i < s->base->nthreads; i++)
		sb_free(&s->base->th[i].sb);
	t->snap = s;
	return 0;
}

int tracer_restore(struct tracer *t)
{
	return t->snap ? apply(t, t->snap->base, t->snap->syscall_pc) : -1;
}

const char *tr_snapshot_refuses(struct tracer *t, int fd)
{
	return t->snap ? fdstate_refuses(&t->snap->base->fds, fd) : NULL;
}

/* End the current execution (the snapshot stays).  Its process stays
 * too, to be made the next execution's (recycle_at), unless it ended
 * in a way only a kill ends. */
void tracer_finish(struct tracer *t)
{
	switch (t->end.kind) {
	case END_INTERNAL:
	case END_INTERRUPTED:
	case END_UNSUPPORTED:
	case END_THREADS:
		proc_kill(&t->proc);
		return;
	default:
		if (t->snap && recycle_mode() && !resumable(&t->proc))
			pr_debug("recycle: the process is not reusable (end "
				 "%d, last stop %d)", (int)t->end.kind,
				 t->proc.last_kind);
		if (!t->snap || !recycle_mode() || !resumable(&t->proc))
			proc_kill(&t->proc);
	}
}

/* rt_sigaction(sig, act, oldact, 8) about to run: the shadow takes act
 * (false: it cannot, the process gets a new kgen). */
static bool shadow_sigaction(struct tracer *t)
{
	const struct user_regs_struct *r = &t->th[t->cur].regs;
	uint64_t act[4];
	long sig = (long)r->rdi;

	if (r->r10 != 8 || sig < 1 || sig > TR_NSIG)
		return false;
	if (!r->rsi)
		return true; /* a question: nothing changes */
	if (proc_read(&t->proc, r->rsi, act, sizeof act) != sizeof act)
		return false;
	memcpy(t->sigact[sig], act, sizeof act);
	return true;
}

/* sigaltstack(ss, old) about to run: the shadow takes ss. */
static bool shadow_altstack(struct tracer *t)
{
	const struct user_regs_struct *r = &t->th[t->cur].regs;
	uint64_t ss[3];

	if (!r->rdi)
		return true; /* a question */
	if (proc_read(&t->proc, r->rdi, ss, sizeof ss) != sizeof ss)
		return false;
	ss[1] &= 0xffffffffu; /* an int, then padding */
	if (ss[1] & SS_DISABLE)
		ss[0] = ss[2] = 0, ss[1] = SS_DISABLE; /* the rest is unused */
	memcpy(t->altstack, ss, sizeof ss);
	return true;
}

void tr_kernel_syscall(struct tracer *t, long nr)
{
	if (sys_kernel_neutral(nr))
		return;
	if (nr == SYS_rt_sigaction && shadow_sigaction(t))
		return;
	if (nr == SYS_sigaltstack && shadow_altstack(t))
		return;
	if (t->snap)
		pr_debug("syscall %ld at %#lx may change the process's "
			 "kernel state: checkpoints before it are forked", nr,
			 (unsigned long)t->th[t->cur].regs.rip);
	t->kgen = ++t->kgen_next;
}

void tr_snapshot_free(struct tracer *t)
{
	while (t->cps)
		tracer_checkpoint_free(t, t->cps);
	if (!t->snap)
		return;
	cp_free(t->snap->base);
	free(t->snap);
	t->snap = NULL;
}

/* A breakpoint inserted now is written into the snapshot too, so that
 * later executions start with it.  False when a copy could not take it:
 * code mapped after the copy was made (a library dlopen'ed by
 * pthread_exit, say) is not in it. */
bool tr_snapshot_poke(struct tracer *t, uint64_t addr, uint8_t byte)
{
	bool all = true;

	if (t->snap)
		all = proc_write(&t->snap->base->proc, addr, &byte, 1) == 1;
	for (struct tr_checkpoint *c = t->cps; c; c = c->next)
		all &= proc_write(&c->proc, addr, &byte, 1) == 1;
	return all;
}

/* ---- checkpoints ---- */


struct tr_checkpoint *tracer_checkpoint(struct tracer *t)
{
	struct tr_checkpoint *c;

	if (!t->snap || t->native || t->end.kind != END_NONE ||
	    tracer_exclusive(t) >= 0 || t->in_step)
		return NULL;
	c = capture(t, t->snap->syscall_pc);
	if (!c)
		return NULL;
	c->next = t->cps;
	t->cps = c;
	t->st.checkpoints++;
	return c;
}

int tracer_resume(struct tracer *t, struct tr_checkpoint *c)
{
	return t->snap ? apply(t, c, t->snap->syscall_pc) : -1;
}

void tracer_checkpoint_free(struct tracer *t, struct tr_checkpoint *c)
{
	for (struct tr_checkpoint **p = &t->cps; *p; p = &(*p)->next)
		if (*p == c) {
			*p = c->next;
			break;
		}
	cp_free(c);
}
