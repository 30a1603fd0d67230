/* threads.c — the logical threads: creating one, switching the OS
 * thread to it (registers, XSTATE, signal mask), the signals queued for
 * it, and the waits that end by a timeout or in a deadlock; the queries
 * on thread state (tracer_nthreads, tracer_status, tracer_mem_owner).
 * What a thread does next is tracer.c's (split from tracer.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tracer/determ.h"
#include "tracer/tracer_priv.h"

int tr_max_threads(const struct tracer *t)
{
	return t->opts.max_threads > 0 && t->opts.max_threads < TR_AUX_BASE
		       ? t->opts.max_threads
		       : TR_AUX_BASE;
}

struct lthread *tr_new_thread(struct tracer *t)
{
	struct lthread *th;

	if (t->nthreads >= tr_max_threads(t))
		return NULL;
	th = &t->th[t->nthreads];
	memset(th, 0, sizeof *th);
	th->xstate = calloc(1, t->proc.xsize);
	if (!th->xstate)
		return NULL;
	th->info.tid = t->nthreads;
	th->info.os_tid = t->nthreads == 0 ? t->vpid : t->vpid + t->nthreads;
	th->info.status = TS_RUNNABLE;
	th->need_advance = true;
	t->nthreads++;
	/* a probe watches a lone thread: a second one ends it */
	t->probe_events = 0;
	t->probe_tail = false;
	return th;
}

int tr_sync_regs(struct tracer *t)
{
	if (!t->regs_dirty)
		return 0;
	t->regs_dirty = false;
	return proc_setregs(&t->proc, &t->th[t->cur].regs);
}

/* Make tid the thread in the OS thread: swap GPRs (fs_base included),
 * the XSTATE and the signal mask. */
int tr_load(struct tracer *t, int tid)
{
	struct lthread *old = &t->th[t->cur], *new = &t->th[tid];

	if (tid == t->cur)
		return 0;
	if (old->info.status != TS_EXITED &&
	    proc_getxstate(&t->proc, old->xstate) < 0)
		return -1;
	new->regs.orig_rax = (unsigned long)-1;
	if (proc_setregs(&t->proc, &new->regs) < 0 ||
	    proc_setxstate(&t->proc, new->xstate) < 0)
		return -1;
	/* an exited thread's mask is stale: its exit path blocked every
	 * signal without telling us */
	if ((new->sigmask != old->sigmask || old->info.status == TS_EXITED) &&
	    proc_setsigmask(&t->proc, new->sigmask) < 0)
		return -1;
	t->cur = tid;
	t->regs_dirty = false;
	t->st.switches++;
	return 0;
}

/* A signal queued for the current thread and not blocked by its mask is
 * delivered when the thread next resumes. */
int tr_deliverable_signal(struct tracer *t)
{
	struct lthread *th = &t->th[t->cur];
	uint64_t ready;

	if (!th->sigpending)
		return 0;
	if (t->native) /* rt_sigprocmask is not traced then */
		proc_getsigmask(&t->proc, &th->sigmask);
	ready = th->sigpending & ~th->sigmask;
	if (!ready)
		return 0;
	int sig = __builtin_ctzll(ready) + 1;
	th->sigpending &= ~(1ull << (sig - 1));
	return sig;
}

int tracer_nthreads(const struct tracer *t)
{
	return t->nthreads;
}

enum tr_tstatus tracer_status(const struct tracer *t, int tid)
{
	return t->th[tid].info.status;
}

/* th's timed wait ends with ETIMEDOUT now. */
static void time_out(struct tracer *t, struct lthread *th)
{
	det_clock_reach(t, th->wait_deadline);
	if (th->info.wait == TW_AWAIT) { /* a counted spin gives up */
		th->info.status = TS_RUNNABLE;
		th->info.wait = TW_NONE;
		th->info.timed = false;
		th->aw.on = false;
		th->aw.runout = true; /* tr_spin_runout */
		return;
	}
	if (th->info.wait >= TW_MUTEX) {
		sync_timeout(th);
		return;
	}
	th->info.status = TS_RUNNABLE;
	/* sigtimedwait says EAGAIN when its time is up */
	th->regs.rax = (uint64_t)(th->info.wait == TW_SIGWAIT ? -EAGAIN
							      : -ETIMEDOUT);
	th->info.wait = TW_NONE;
	if (th == &t->th[t->cur])
		t->regs_dirty = true;
	th->need_advance = true;
	th->info.pending_known = false;
}

int tracer_timeout_one(struct tracer *t)
{
	struct lthread *best = NULL;

	/* the earliest deadline first (an unknown one, 0, is earliest),
	 * then the oldest wait */
	for (int i = 0; i < t->nthreads; i++) {
		struct lthread *th = &t->th[i];
		if (th->info.status != TS_BLOCKED || !th->info.timed)
			continue;
		if (!best || th->wait_deadline < best->wait_deadline ||
		    (th->wait_deadline == best->wait_deadline &&
		     th->wait_seq < best->wait_seq))
			best = th;
	}
	if (!best)
		return -1;
	time_out(t, best);
	if (best->aw.runout)
		return tr_spin_runout(t, (int)(best - t->th)) < 0 ? -1 : 0;
	return 0;
}

int tracer_timeout(struct tracer *t, int tid, struct tr_event *done)
{
	struct lthread *th = &t->th[tid];

	if (tid < 0 || tid >= t->nthreads || th->info.status != TS_BLOCKED ||
	    !th->info.timed)
		return 1;
	memset(done, 0, sizeof *done);
	done->tid = tid;
	done->kind = EV_TIMEOUT;
	done->pc = th->info.wait_pc;
	done->sysno = -1;
	if (th->info.wait == TW_AWAIT) {
		/* a counted spin gives up: its last iterations read the
		 * locations it waits on (at most DEC_MAX_MEM: await.c),
		 * and nothing else */
		const struct await_win *w = &th->aw;
		for (int i = 0; i < w->nreads && i < DEC_MAX_MEM; i++)
			done->acc[done->nacc++] = (struct dec_access){
				w->reads[i].addr, w->reads[i].size, DEC_READ,
				DEC_MEM_EXPLICIT };
	} else if (th->info.wait == TW_SIGWAIT) {
		/* the thread's signal queue, which the kill that could have
		 * come first writes (sys.c, kill_target): as the timeout
		 * the search inserted (dpor.c, timed_races) conflicts with
		 * that kill, so must this one (with none, the kill slept
		 * through it: samples/sigwait_thread.c, 5 executions
		 * sleep-set blocked) */
		done->nacc = 1;
		done->acc[0] = (struct dec_access){ EV_ADDR_SIGQ(tid), 1,
						    DEC_READ | DEC_WRITE,
						    DEC_MEM_EXPLICIT };
	} else {
		done->nacc = 1;
		done->acc[0] = (struct dec_access){ th->info.wait_addr, 4,
						    DEC_READ | DEC_WRITE,
						    DEC_MEM_EXPLICIT };
	}
	time_out(t, th);
	t->steps++;
	t->st.events++;
	if (th->aw.runout && tr_spin_runout(t, tid) < 0)
		return -1;
	return 0;
}

void tracer_set_deadlock(struct tracer *t)
{
	if (t->end.kind != END_NONE)
		return;
	t->end.kind = END_DEADLOCK;
	for (int i = 0; i < t->nthreads; i++)
		if (t->th[i].info.status == TS_BLOCKED &&
		    t->th[i].info.wait == TW_AWAIT)
			t->end.kind = END_LIVELOCK;
	/* a thread held at a pthread_create beyond the limit: what it
	 * would have done next could have let the others go on, so no
	 * deadlock or livelock is claimed: the execution is cut there */
	for (int i = 0; i < t->nthreads; i++)
		if (t->th[i].info.status == TS_BLOCKED &&
		    t->th[i].info.wait == TW_LIMIT)
			t->end.kind = END_THREADS;
	/* a thread stopped by a failed __VERIFIER_assume, or waiting in a
	 * loop that drew a value (await.c: each other value is explored
	 * where it was drawn; drawing the same forever is no behaviour):
	 * not a deadlock, an infeasible execution */
	for (int i = 0; i < t->nthreads; i++)
		if (t->th[i].info.status == TS_BLOCKED &&
		    (t->th[i].info.wait == TW_ASSUME ||
		     (t->th[i].info.wait == TW_AWAIT && t->th[i].aw.drew)))
			t->end.kind = END_ASSUME;
	t->end.tid = -1;
}

int tracer_mem_owner(const struct tracer *t, uint64_t addr, bool *tls)
{
	for (int i = 0; i < t->nthreads; i++) {
		const struct lthread *th = &t->th[i];
		bool in_stack = addr >= th->stack_lo && addr < th->stack_hi;
		bool in_tls = addr >= th->tls_lo && addr < th->tls_hi;
		if (!in_stack && !in_tls)
			continue;
		/* a thread's TLS and descriptor share the mapping of its
		 * stack: they lie above where its start routine returns */
		*tls = in_tls && (!in_stack || (th->start_sp &&
						addr >= th->start_sp));
		return i;
	}
	return -1;
}
