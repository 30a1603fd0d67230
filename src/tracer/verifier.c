/* verifier.c — the benchmark conventions: __VERIFIER_assume,
 * __VERIFIER_error / reach_error, __VERIFIER_nondet_*, and the ends of
 * atomic sections, found by hooks on the functions' entries (the explorer
 * installs them by symbol; docs/EVENTS.md, "Benchmark conventions").
 *
 * None of these functions is run: whatever its body (SV-COMP tasks define
 * them as loops, aborts or empty functions), the hook emulates its effect
 * and returns to the caller, so a binary behaves the same whichever body
 * it was linked with.  The argument is in edi, a result goes to rax. */
#include <string.h>

#include "tracer/tracer_priv.h"

bool vf_acting(uint8_t hook)
{
	return hook == HOOK_ASSUME || hook == HOOK_ERROR ||
	       (hook >= HOOK_NONDET && hook <= HOOK_NONDET_LAST);
}

/* Return from the function whose entry the current thread is at: pop the
 * return address (the call pushed it on the thread's own stack, which is
 * never buffered), optionally with a result in rax. */
int vf_return(struct tracer *t, struct lthread *th, bool result,
	      uint64_t rax)
{
	uint64_t ret;

	if (proc_read(&t->proc, th->regs.rsp, &ret, 8) != 8)
		return -1;
	th->regs.rip = ret;
	th->regs.rsp += 8;
	if (result)
		th->regs.rax = rax;
	t->regs_dirty = true;
	return 0;
}

static uint64_t return_address(struct tracer *t, const struct lthread *th)
{
	uint64_t ret = 0;

	proc_read(&t->proc, th->regs.rsp, &ret, 8);
	return ret;
}

/* __VERIFIER_assume(0): the thread waits forever, as the SV-COMP body
 * `if (!c) for (;;);` would.  The others go on (their events still race
 * with the prefix: DPOR must see them); when nothing can run any more the
 * execution ends as infeasible (END_ASSUME, tracer_set_deadlock). */
static void assume_block(struct tracer *t, struct lthread *th)
{
	uint64_t ret = return_address(t, th);

	th->info.status = TS_BLOCKED;
	th->info.wait = TW_ASSUME;
	th->info.wait_pc = ret ? ret - 5 : th->regs.rip;
	th->info.wait_caller = ret;
	th->info.wait_addr = 0;
	th->info.wait_for = -1;
	th->info.timed = false;
	th->wait_bitset = 0; /* no futex wake ends this wait */
	th->wait_seq = ++t->wait_seq;
	th->need_advance = false;
	th->info.pending_known = false;
}

void vf_error_call(struct tracer *t, struct lthread *th)
{
	uint64_t ret = return_address(t, th);

	if (t->end.kind != END_NONE)
		return;
	t->end.kind = END_ERROR_CALL;
	t->end.tid = th->info.tid;
	t->end.pc = ret ? ret - 5 : th->regs.rip; /* the call */
	t->end.callee = th->regs.rip;
}

int vf_hook(struct tracer *t, struct lthread *th, const struct bp *b,
	    struct tr_event *ev)
{
	if (!b)
		return 0;
	switch (b->hook) {
	case HOOK_ASSUME:
		if ((uint32_t)th->regs.rdi != 0)
			return vf_return(t, th, false, 0) < 0 ? -1 : 2;
		assume_block(t, th);
		return 3;
	case HOOK_ERROR: /* the end of the execution, as the thread's
			  * next event (vf_error_call when performed) */
		ev->kind = EV_END;
		ev->value = END_BY_ERROR_CALL;
		ev_end_accesses(ev->acc, &ev->nacc);
		return 1;
	case HOOK_ATOMIC_END: /* outside a section: nothing to end */
		return vf_return(t, th, false, 0) < 0 ? -1 : 2;
	default:
		break;
	}
	if (b->hook < HOOK_NONDET || b->hook > HOOK_NONDET_LAST)
		return 0;
	ev->kind = EV_NONDET;
	ev->nondet = (uint8_t)(b->hook - HOOK_NONDET);
	ev->caller = return_address(t, th);
	return 1;
}

int vf_native(struct tracer *t, struct lthread *th, const struct bp *b)
{
	struct tr_event ev;

	if (b->hook == HOOK_ATOMIC_BEGIN) /* one live thread: trivially */
		return vf_return(t, th, false, 0) < 0 ? -1 : 0;
	memset(&ev, 0, sizeof ev);
	switch (vf_hook(t, th, b, &ev)) {
	case 0:
		return 2;
	case 1: /* a choice: the explorer makes it */
		tr_leave_native(t);
		return 1;
	case 2:
		return 0;
	case 3:
		return 1;
	default:
		return t->end.kind != END_NONE ? 1 : -1;
	}
}

/* The value v as a function of type ty returns it in rax. */
static int64_t convert(int64_t v, enum tr_nondet ty)
{
	switch (ty) {
	case ND_BOOL: return v != 0;
	case ND_CHAR: return (int8_t)v;
	case ND_UCHAR: return (uint8_t)v;
	case ND_SHORT: return (int16_t)v;
	case ND_USHORT: return (uint16_t)v;
	case ND_INT: return (int32_t)v;
	case ND_UINT: return (uint32_t)v;
	default: return v;
	}
}

int vf_nondet(struct tracer *t, struct lthread *th, struct tr_event *done)
{
	done->value = convert(t->next_value, (enum tr_nondet)done->nondet);
	return vf_return(t, th, true, (uint64_t)done->value);
}

void tracer_set_value(struct tracer *t, int64_t v)
{
	t->next_value = v;
}
