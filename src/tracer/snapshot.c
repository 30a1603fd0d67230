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
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "tracer/log.h"
#include "tracer/tracer_priv.h"

struct tr_snapshot {
	struct proc proc;       /* the stopped copy */
	uint64_t syscall_pc;    /* where clone is injected */
	struct lthread th[TR_MAX_THREADS];
	int nthreads, cur;
	bool native;
	uint64_t wait_seq, next_start_routine;
	uint64_t clock_ns;       /* the virtual clock (determ.h) */
	struct output out[3];
};

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
	}
	return 0;
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

/* Fork p at the syscall instruction pc.  That instruction may carry a
 * breakpoint (a program that calls syscall() itself): the injected clone
 * runs the original byte, and *rebp tells the caller to put the int3
 * back into the copy (p gets it back here). */
static pid_t fork_at(struct tracer *t, struct proc *p, uint64_t pc,
		     bool *rebp)
{
	const struct bp *b = bp_find(t, pc);
	static const uint8_t int3 = 0xcc;
	uint8_t cur = 0;
	pid_t pid;

	*rebp = b && proc_read(p, pc, &cur, 1) == 1 && cur == int3;
	if (!*rebp)
		return proc_fork(p, pc);
	if (proc_write(p, pc, &b->orig, 1) != 1)
		return -1;
	pid = proc_fork(p, pc);
	proc_write(p, pc, &int3, 1);
	return pid;
}

static int put_int3(struct proc *p, uint64_t pc, bool rebp)
{
	static const uint8_t int3 = 0xcc;

	return !rebp || proc_write(p, pc, &int3, 1) == 1 ? 0 : -1;
}

int tracer_snapshot(struct tracer *t, uint64_t syscall_fn)
{
	struct tr_snapshot *s;
	bool rebp;
	pid_t pid;

	if (t->snap || t->end.kind != END_NONE)
		return -1;
	s = calloc(1, sizeof *s);
	if (!s)
		return -1;
	s->syscall_pc = find_syscall(t, syscall_fn);
	if (!s->syscall_pc || tr_sync_regs(t) < 0 ||
	    proc_getxstate(&t->proc, t->th[t->cur].xstate) < 0)
		goto fail;
	pid = fork_at(t, &t->proc, s->syscall_pc, &rebp);
	if (pid < 0)
		goto fail;
	s->proc = t->proc;
	s->proc.memfd = -1;
	if (proc_attach_pid(&s->proc, pid) < 0 ||
	    put_int3(&s->proc, s->syscall_pc, rebp) < 0 ||
	    proc_setregs(&s->proc, &t->th[t->cur].regs) < 0 ||
	    copy_threads(s->th, t->th, t->nthreads, t->proc.xsize) < 0 ||
	    copy_output(s->out, t->out) < 0) {
		proc_kill(&s->proc);
		goto fail;
	}
	for (int i = 0; i < t->nthreads; i++)
		s->th[i].sb = (struct sb){ 0 }; /* empty when control starts */
	s->nthreads = t->nthreads;
	s->cur = t->cur;
	s->native = t->native;
	s->wait_seq = t->wait_seq;
	s->clock_ns = t->clock_ns;
	s->next_start_routine = t->next_start_routine;
	t->snap = s;
	return 0;
fail:
	free(s);
	return -1;
}

/* Forget the current execution's process and state; continue from a
 * fork of the snapshot. */
int tracer_restore(struct tracer *t)
{
	struct tr_snapshot *s = t->snap;
	bool rebp;
	pid_t pid;

	if (!s)
		return -1;
	proc_kill(&t->proc);
	pid = fork_at(t, &s->proc, s->syscall_pc, &rebp);
	if (pid < 0 || proc_attach_pid(&t->proc, pid) < 0 ||
	    put_int3(&t->proc, s->syscall_pc, rebp) < 0)
		return -1;
	for (int i = 0; i < t->nthreads; i++)
		sb_free(&t->th[i].sb); /* the snapshot's buffers are empty */
	if (copy_threads(t->th, s->th, s->nthreads, t->proc.xsize) < 0 ||
	    copy_output(t->out, s->out) < 0)
		return -1;
	for (int i = s->nthreads; i < t->nthreads; i++) {
		free(t->th[i].xstate);
		t->th[i].xstate = NULL;
	}
	t->nthreads = s->nthreads;
	t->cur = s->cur;
	t->native = s->native;
	t->wait_seq = s->wait_seq;
	t->clock_ns = s->clock_ns;
	t->next_start_routine = s->next_start_routine;
	memset(&t->end, 0, sizeof t->end);
	t->steps = 0;
	t->nslots = 0;
	t->woken = 0;
	t->new_escapes = 0;
	t->regs_dirty = true; /* the fork returned into the injected clone */
	t->st.snapshots++;
	/* a snapshot taken in native mode (its one thread blocked before a
	 * second existed) got every later stop point poked into it: native
	 * mode runs with them lifted */
	if (t->native)
		bp_lift_plain(t, true);
	return tr_sync_regs(t);
}

/* End the current execution's process (the snapshot stays). */
void tracer_finish(struct tracer *t)
{
	proc_kill(&t->proc);
}

void tr_snapshot_free(struct tracer *t)
{
	struct tr_snapshot *s = t->snap;

	if (!s)
		return;
	proc_kill(&s->proc);
	for (int i = 0; i < s->nthreads; i++)
		free(s->th[i].xstate);
	for (int fd = 1; fd <= 2; fd++)
		free(s->out[fd].buf);
	free(s);
	t->snap = NULL;
}

/* A breakpoint inserted now is written into the snapshot too, so that
 * later executions start with it. */
void tr_snapshot_poke(struct tracer *t, uint64_t addr, uint8_t byte)
{
	if (t->snap)
		proc_write(&t->snap->proc, addr, &byte, 1);
}
