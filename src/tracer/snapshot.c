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

int tracer_snapshot(struct tracer *t, uint64_t syscall_fn)
{
	struct tr_snapshot *s;
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
	pid = proc_fork(&t->proc, s->syscall_pc);
	if (pid < 0)
		goto fail;
	s->proc = t->proc;
	s->proc.memfd = -1;
	if (proc_attach_pid(&s->proc, pid) < 0 ||
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
	pid_t pid;

	if (!s)
		return -1;
	proc_kill(&t->proc);
	pid = proc_fork(&s->proc, s->syscall_pc);
	if (pid < 0 || proc_attach_pid(&t->proc, pid) < 0)
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
	t->next_start_routine = s->next_start_routine;
	memset(&t->end, 0, sizeof t->end);
	t->steps = 0;
	t->woken = 0;
	t->new_escapes = 0;
	t->regs_dirty = true; /* the fork returned into the injected clone */
	t->st.snapshots++;
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
