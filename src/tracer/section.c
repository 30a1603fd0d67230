/* section.c — atomic sections: __VERIFIER_atomic_begin() .. _end()
 * (RG_ATOMIC) and calls of __VERIFIER_atomic_* functions (RG_CALL).
 *
 * A section is one event (EV_ATOMIC) whose accesses are the union of the
 * shared accesses its instructions made.  It runs like any code (stop
 * points, walks, single steps), but each visible event inside it is
 * performed on the spot instead of being handed to the explorer, and its
 * accesses are merged into the section's (acc_merge: at most EV_MAX_ACC
 * ranges; when there are more, the closest ranges are joined, which can
 * only add conflicts).  So the section conflicts with exactly the events of other
 * threads that touch what it touched, and no other thread runs in
 * between.  Stores inside it go straight to memory (its buffer was
 * drained before it: ev_needs_drain), like a locked instruction.
 *
 * The section's end: RG_ATOMIC at the hook of __VERIFIER_atomic_end,
 * RG_CALL when the function returns (a stop point at its return
 * address).  Inside it, __VERIFIER_nondet_* is still a choice for the
 * explorer: the section pauses there, only its thread may run
 * (tracer_exclusive), and the rest of the section belongs to the value
 * event's step; the step that paused touches all memory (paused()).
 * A thread that blocks inside a section (a futex wait) lets the others
 * run; when it is woken, the rest of its section is an EV_ATOMIC event of
 * its own (section_rest). */
#include <string.h>

#include "tracer/tracer_priv.h"

int section_begin(struct tracer *t, struct lthread *th,
		  const struct tr_event *ev)
{
	if (ev->region == RG_NONE) /* the rest of a section (section_rest) */
		return 0;
	th->section = (enum tr_region)ev->region;
	th->nsect = 0;
	if (ev->region != RG_CALL)
		return 0;
	if (proc_read(&t->proc, th->regs.rsp, &th->section_end_pc, 8) != 8)
		return -1;
	th->section_end_sp = th->regs.rsp + 8;
	return bp_insert(t, th->section_end_pc, 0);
}

void section_region_done(struct tracer *t, struct lthread *th)
{
	struct tr_event e;

	if (th->section == RG_NONE || !th->lib_done)
		return;
	memset(&e, 0, sizeof e); /* a library call inside: its block */
	lib_after(t, th, &e);
	for (int i = 0; i < e.nacc; i++)
		acc_merge(th->sect, &th->nsect, EV_MAX_ACC, &e.acc[i]);
}

bool section_done(struct tracer *t, struct lthread *th)
{
	const struct bp *b;

	if (th->section == RG_CALL)
		return th->regs.rip == th->section_end_pc &&
		       th->regs.rsp == th->section_end_sp;
	b = bp_find(t, th->regs.rip);
	return b && b->hook == HOOK_ATOMIC_END;
}

void section_rest(struct lthread *th, struct tr_event *ev)
{
	memset(ev, 0, sizeof *ev);
	ev->tid = th->info.tid;
	ev->kind = EV_ATOMIC;
	ev->pc = th->regs.rip;
	ev->sysno = -1;
	/* for reports, where the section's function was called: the rest
	 * resumes deep inside it (a futex wait in libc under Rust's std) */
	if (th->section == RG_CALL)
		ev->caller = th->section_end_pc;
}

int section_inline(struct tracer *t, struct lthread *th)
{
	struct tr_event *ev = &th->info.pending;
	int r;

	for (int i = 0; i < ev->nacc; i++)
		acc_merge(th->sect, &th->nsect, EV_MAX_ACC, &ev->acc[i]);
	r = tr_section_perform(t, th, ev);
	if (r < 0)
		return -1;
	return r > 0 || t->end.kind != END_NONE ? 1 : 0;
}

/* The step ends with the section paused at a __VERIFIER_nondet_* call:
 * the rest is another event, which cannot be reordered (its thread runs
 * alone), so every race with the rest must be found at this step.  Its
 * event then touches all memory: conservative, and only for sections
 * that make a choice. */
static bool paused(struct tracer *t, const struct lthread *th)
{
	return th->section != RG_NONE && th->info.status == TS_RUNNABLE &&
	       th->info.pending_known && th->info.pending.kind == EV_NONDET &&
	       t->end.kind == END_NONE;
}

bool section_report(struct tracer *t, struct lthread *th,
		    struct tr_event *done)
{
	int n = done->nacc;

	if (paused(t, th)) {
		done->nacc = 1;
		done->acc[0] = (struct dec_access){ 0, UINT64_MAX,
						    DEC_READ | DEC_WRITE, 0 };
		done->rval[0] = done->wval[0] = 0;
		th->nsect = 0;
		return true;
	}
	if (!th->nsect)
		return false;
	for (int i = 0; i < th->nsect; i++)
		acc_merge(done->acc, &n, EV_MAX_ACC, &th->sect[i]);
	for (int i = done->nacc; i < n; i++)
		done->rval[i] = done->wval[i] = 0;
	done->nacc = n;
	th->nsect = 0;
	return true;
}

/* Only a section paused at a value choice runs alone.  A thread woken
 * inside a section is not: its rest is an event like any other, and the
 * threads that could run before it may (a Rust channel's receiver woken
 * by one sender: the other sender's send can still come first, or the
 * receiver always got the first sender's message). */
int tracer_exclusive(struct tracer *t)
{
	for (int i = 0; i < t->nthreads; i++) {
		const struct lthread *th = &t->th[i];
		if (th->section != RG_NONE && th->info.status == TS_RUNNABLE &&
		    th->info.pending_known &&
		    th->info.pending.kind == EV_NONDET)
			return i;
	}
	return -1;
}
