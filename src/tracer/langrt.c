/* langrt.c — C++ and Rust binaries: the hooks where their runtimes'
 * fatal errors begin, and the unwinding of a thread's stack that reports
 * use to find the program's own frames (docs/LANGUAGES.md).
 *
 * The hooks are installed by symbol (src/dpor/lang.c):
 *   __rust_start_panic (Rust's std, both panic strategies): reached
 *     after the panic hook has printed "thread 'T' panicked at ...",
 *     right before unwinding or aborting.  The execution ends here, as
 *     SIGABRT, like an assertion at __assert_fail: what the runtime does
 *     next (unwind, run destructors, abort) is no event worth exploring.
 *   std::terminate, __cxxabiv1::__terminate (libstdc++): an uncaught
 *     exception, a throw out of a noexcept function, or a direct call.
 *     It is noted and the handler runs on: the default one prints the
 *     exception's type and what() (the program's own virtual call, which
 *     only the program can make) and calls abort(), where the execution
 *     ends (abort is hooked only in programs with libstdc++).
 * The explorer turns the note into an error of kind panic or
 * uncaught-exception (src/dpor/lang.c, src/report/lang.c).
 *
 * The unwinder follows the rules the explorer's callback gives
 * (tracer_set_unwind): one memory read per frame. */
#include <signal.h>
#include <string.h>

#include "tracer/tracer_priv.h"

void tracer_set_unwind(struct tracer *t, tr_cfa_fn fn, void *ctx)
{
	t->cfa_fn = fn;
	t->cfa_ctx = ctx;
}

/* One word of the stack, through the process's memory window
 * (tr_window_at): the frames of one unwinding usually lie in it, and the
 * local code before the event often loaded it already.  Reading each
 * frame's words by themselves cost two of the three memory reads an event
 * made (issue 16). */
static bool stack_word(struct tracer *t, uint64_t a, uint64_t *v)
{
	return tr_window_at(t, a, 8) && proc_read(&t->proc, a, v, 8) == 8;
}

int rt_unwind(struct tracer *t, const struct lthread *th, uint64_t *ret,
	      int max)
{
	uint64_t pc = th->regs.rip, sp = th->regs.rsp, bp = th->regs.rbp;
	int n = 0;

	memset(ret, 0, (size_t)max * sizeof *ret);
	while (t->cfa_fn && n < max) {
		struct tr_cfa r;
		uint64_t cfa, ra, nbp = bp;

		/* a return address is looked up one byte back: the call */
		if (t->cfa_fn(t->cfa_ctx, n ? pc - 1 : pc, &r) < 0)
			break;
		cfa = (r.reg == 6 ? bp : sp) + (uint64_t)r.off;
		if (!stack_word(t, cfa - 8, &ra) || ra < 0x1000)
			break;
		if (r.rbp_saved &&
		    !stack_word(t, cfa + (uint64_t)r.rbp_off, &nbp))
			break;
		ret[n++] = ra;
		if (r.user)
			break; /* the program's frame and its caller: enough */
		pc = ra;
		sp = cfa;
		bp = nbp;
	}
	return n;
}

uint64_t tracer_user_pc(struct tracer *t, int tid)
{
	const struct lthread *th;
	uint64_t ret[TR_LANG_RETS];
	int n;

	if (tid < 0 || tid >= t->nthreads || !t->cfa_fn)
		return 0;
	th = &t->th[tid];
	n = rt_unwind(t, th, ret, TR_LANG_RETS);
	if (n == 0)
		return 0;
	/* rt_unwind stops after the program's first frame: the last one it
	 * walked is the program's, or none was */
	uint64_t pc = n > 1 ? ret[n - 2] : th->regs.rip;
	struct tr_cfa r;
	return t->cfa_fn(t->cfa_ctx, n > 1 ? pc - 1 : pc, &r) == 0 && r.user
		       ? pc
		       : 0;
}

bool rt_hook(uint8_t hook)
{
	return hook == HOOK_LANG_PANIC || hook == HOOK_LANG_TERMINATE ||
	       hook == HOOK_LANG_ABORT;
}

static int end_abort(struct tracer *t, struct lthread *th)
{
	t->end.kind = END_SIGNAL;
	t->end.sig = SIGABRT;
	t->end.pc = th->regs.rip;
	return -1;
}

int rt_at_hook(struct tracer *t, struct lthread *th, uint8_t hook)
{
	if (hook == HOOK_LANG_ABORT) /* terminate's handler is done */
		return t->end.kind == END_NONE &&
				       t->end.lang == LANG_CXX_TERMINATE &&
				       t->end.tid == th->info.tid
			       ? end_abort(t, th)
			       : 0;
	if (t->end.kind != END_NONE || t->end.lang != LANG_NONE)
		return 0; /* the first one counts (a panic while panicking) */
	t->end.lang = hook == HOOK_LANG_PANIC ? LANG_RUST_PANIC
					      : LANG_CXX_TERMINATE;
	rt_unwind(t, th, t->end.lang_ret, TR_LANG_RETS);
	t->end.tid = th->info.tid;
	return hook == HOOK_LANG_PANIC ? end_abort(t, th) : 0;
}
