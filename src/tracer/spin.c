/* spin.c — counted spin loops (see spin.h).
 *
 * Rust's std Mutex (and RwLock, Condvar, Once: everything on its futex)
 * spins a hundred times before it sleeps:
 *
 *     mov $-99, %ecx
 *   1: pause; mov (%rbx), %eax; cmp $1, %eax; jne out   the lock changed
 *     lea 1(%rcx), %edx; test %ecx, %ecx; mov %edx, %ecx; jne 1b
 *   out:                                                 or it ran out
 *
 * Each iteration reads the lock word and changes nothing shared, but its
 * registers differ (ecx, edx): await.c did not take it for a wait, and
 * each of the hundred reads was an event racing with the unlock.  If
 * nothing the counter feeds is read once the loop is left, a thread
 * woken at iteration k behaves as one woken at the first: the loop is a
 * wait that may also give up.  The code alone cannot tell (the counter
 * may reach a callee as an argument, or the caller as a result), so the
 * check is made on the execution: the loop's body and what the differing
 * registers taint in it come from the code (here), and after the loop
 * the thread is single-stepped until every register (and the flags) the
 * loop's exits may leave tainted has been overwritten before being read
 * (spin_watch, tracer.c).  The path it takes until then cannot depend on
 * the counter, so it is every woken thread's path.  If one is read, the
 * loop is no counted spin: it is never treated as one again in this run,
 * and the search is reported not complete. */
#include "tracer/spin.h"

#include <string.h>

#include "tracer/tracer_priv.h"

#define BODY_MAX 96    /* instructions of a loop body */
#define FLAGS_BIT 16   /* the status flags, as a pseudo register */

enum { R_AX, R_CX, R_DX, R_BX, R_SP, R_BP, R_SI, R_DI, R_8, R_9, R_10,
       R_11, R_12, R_13, R_14, R_15 };

#define BIT(r) (1u << (r))
#define SYSCALL_IN                                                         \
	(BIT(R_AX) | BIT(R_DI) | BIT(R_SI) | BIT(R_DX) | BIT(R_10) |       \
	 BIT(R_8) | BIT(R_9))

static const struct dec_insn *insn(struct tracer *t, uint64_t pc)
{
	const struct dec_insn *in = dcache_get(t->dc, pc);

	return in && in->cls != DEC_UNSUPPORTED ? in : NULL;
}

/* ---- the loop's body and what the counter taints in it ---- */

struct body {
	uint64_t pc[BODY_MAX];
	const struct dec_insn *in[BODY_MAX];
	uint32_t taint[BODY_MAX]; /* after the instruction */
	bool loop[BODY_MAX];      /* on a path back to the head */
	bool yield[BODY_MAX];     /* a call of sched_yield */
	uint64_t yield_fn;        /* its address (one per body) */
	uint64_t stub;            /* the PLT entry a direct call goes to */
	int n;
};

/* What glibc's sched_yield writes: rax (0), rcx and r11 (the syscall:
 * r11 gets the flags of the call), the flags (its compare).  The other
 * registers keep their values, taint included. */
#define YIELD_KILLS (BIT(R_AX) | BIT(R_CX) | BIT(R_11) | BIT(FLAGS_BIT))
#define YIELD_LEN 16 /* glibc's sched_yield to its ret, errno path apart */

uint64_t tracer_callee(struct tracer *t, const struct dec_insn *in)
{
	uint64_t to = 0;

	if (in->loc.op == DEC_LOC_CALL)
		to = in->target;
	else if (in->loc.op != DEC_LOC_CALLM ||
		 tracer_read(t, in->pc + in->len + (uint64_t)in->loc.imm, &to,
			     8) != 8)
		return 0;
	const struct dec_insn *j = to ? insn(t, to) : NULL;
	if (j && j->loc.op == DEC_LOC_JMPM &&
	    tracer_read(t, to + j->len + (uint64_t)j->loc.imm, &to, 8) != 8)
		return 0;
	return to;
}

/* Is the call in one of sched_yield (glibc's: mov eax, 24; syscall)?
 * libstdc++'s atomic waits (C++20 latch, barrier, atomic::wait) spin 12
 * times with pause, then 4 with sched_yield: its loop holds the call. */
static uint64_t yield_call(struct tracer *t, const struct dec_insn *in)
{
	static const uint8_t code[] = { 0xb8, 0x18, 0, 0, 0, 0x0f, 0x05 };
	uint8_t b[sizeof code];
	uint64_t f;

	if (in->flow != DEC_FLOW_CALL && in->flow != DEC_FLOW_IND_CALL)
		return 0;
	f = tracer_callee(t, in);
	return f && tracer_read(t, f, b, sizeof b) == sizeof b &&
			       memcmp(b, code, sizeof b) == 0
		       ? f
		       : 0;
}

static int body_index(const struct body *b, uint64_t pc)
{
	for (int i = 0; i < b->n; i++)
		if (b->pc[i] == pc)
			return i;
	return -1;
}

/* Successors of a body instruction inside the function: -1 for a flow
 * the body may not hold (call, return, indirect jump, trap); a call of
 * sched_yield (yield) returns to the next one. */
static int succs(const struct dec_insn *in, bool yield, uint64_t out[2])
{
	if (yield) {
		out[0] = in->pc + in->len;
		return 1;
	}
	switch (in->flow) {
	case DEC_FLOW_NEXT:
		out[0] = in->pc + in->len;
		return 1;
	case DEC_FLOW_JMP:
		out[0] = in->target;
		return 1;
	case DEC_FLOW_JCC:
		out[0] = in->target;
		out[1] = in->pc + in->len;
		return 2;
	default:
		return -1;
	}
}

/* Everything reachable from the head without leaving by a call, a
 * return or an indirect jump, up to BODY_MAX instructions; then the
 * instructions on a path back to the head.  false: too big to tell. */
static bool find_body(struct tracer *t, uint64_t head, struct body *b)
{
	b->n = 0;
	b->yield_fn = b->stub = 0;
	b->pc[b->n] = head;
	b->in[b->n] = insn(t, head);
	if (!b->in[b->n])
		return false;
	b->n++;
	for (int i = 0; i < b->n; i++) {
		uint64_t s[2], y = yield_call(t, b->in[i]);
		if (y && b->yield_fn && y != b->yield_fn)
			y = 0; /* one yield function per body */
		if (y) {
			b->yield_fn = y;
			if (b->in[i]->loc.op == DEC_LOC_CALL &&
			    b->in[i]->target != y)
				b->stub = b->in[i]->target;
		}
		b->yield[i] = y != 0;
		int k = succs(b->in[i], b->yield[i], s);
		for (int j = 0; j < k; j++) {
			if (body_index(b, s[j]) >= 0)
				continue;
			if (b->n == BODY_MAX)
				return false;
			b->pc[b->n] = s[j];
			b->in[b->n] = insn(t, s[j]);
			if (!b->in[b->n])
				return false;
			b->n++;
		}
	}
	/* back to the head: a fixpoint over the reverse edges */
	memset(b->loop, 0, sizeof b->loop);
	for (bool grew = true; grew;) {
		grew = false;
		for (int i = 0; i < b->n; i++) {
			uint64_t s[2];
			int k = succs(b->in[i], b->yield[i], s);
			for (int j = 0; j < k && !b->loop[i]; j++) {
				int x = body_index(b, s[j]);
				if (s[j] == head || (x >= 0 && b->loop[x]))
					b->loop[i] = grew = true;
			}
		}
	}
	return b->loop[0];
}

static uint32_t reads_of(const struct dec_insn *in)
{
	return in->regs_read | (in->flags_read ? BIT(FLAGS_BIT) : 0);
}

/* What the seeds taint along the loop's instructions, to a fixpoint.
 * false if a tainted value may be stored to memory or used as an
 * address inside the loop. */
static bool taint(struct body *b, uint32_t seeds)
{
	memset(b->taint, 0, sizeof b->taint);
	for (bool grew = true; grew;) {
		grew = false;
		for (int i = 0; i < b->n; i++) {
			if (!b->loop[i])
				continue;
			const struct dec_insn *in = b->in[i];
			uint32_t t = i == 0 ? seeds : 0, out;
			for (int p = 0; p < b->n; p++) {
				uint64_t s[2];
				int k = b->loop[p] ? succs(b->in[p], b->yield[p],
							    s)
						   : 0;
				for (int j = 0; j < k; j++)
					if (s[j] == b->pc[i])
						t |= b->taint[p];
			}
			bool tainted_in = (reads_of(in) & t) != 0;
			/* an address from the counter: a walk over memory
			 * (getenv's loop over environ), no spin */
			for (int m = 0; m < in->nmem; m++) {
				int br = in->mem[m].base, ir = in->mem[m].index;
				if ((br >= 0 && br < 16 && (t & BIT(br))) ||
				    (ir >= 0 && ir < 16 && (t & BIT(ir))))
					return false;
			}
			out = t & ~in->regs_killed;
			if (in->flags_killed)
				out &= ~BIT(FLAGS_BIT);
			if (b->yield[i]) /* it reads no argument */
				out = (out & ~YIELD_KILLS) |
				      (t & BIT(FLAGS_BIT) ? BIT(R_11) : 0);
			if (tainted_in) {
				for (int m = 0; m < in->nmem; m++)
					if (in->mem[m].rw & DEC_WRITE)
						return false;
				out |= in->regs_written | BIT(FLAGS_BIT);
			}
			if ((out | b->taint[i]) != b->taint[i]) {
				b->taint[i] |= out;
				grew = true;
			}
		}
	}
	return true;
}

bool spin_counted(struct tracer *t, struct lthread *th, uint32_t seeds,
		  const uint64_t *pcs, int npcs, struct spin_loop *out)
{
	static struct body b;

	if (!seeds || (seeds & BIT(R_SP)) || !find_body(t, th->regs.rip, &b))
		return false;
	out->yield_lo = b.yield_fn;
	out->yield_hi = b.yield_fn ? b.yield_fn + YIELD_LEN : 0;
	out->stub = b.stub;
	/* every event of the iteration is inside the loop */
	for (int i = 0; i < npcs; i++) {
		int x = body_index(&b, pcs[i]);
		if ((x < 0 || !b.loop[x]) &&
		    !(pcs[i] >= out->yield_lo && pcs[i] < out->yield_hi))
			return false;
	}
	if (!taint(&b, seeds))
		return false;
	out->n = 0;
	out->exit_taint = 0;
	bool counts = false; /* an exit taken on what the counter feeds */
	for (int i = 0; i < b.n; i++) {
		uint64_t s[2];
		int k;
		if (!b.loop[i])
			continue;
		if (out->n == SPIN_BODY_MAX)
			return false;
		out->pc[out->n++] = b.pc[i];
		if (b.in[i]->flow == DEC_FLOW_JCC && (reads_of(b.in[i]) &
						      b.taint[i]))
			counts = true;
		k = succs(b.in[i], b.yield[i], s);
		for (int j = 0; j < k; j++) {
			int x = body_index(&b, s[j]);
			if (s[j] != b.pc[0] && !(x >= 0 && b.loop[x]))
				out->exit_taint |= b.taint[i]; /* an exit */
		}
	}
	/* without a branch on what the counter feeds the loop never runs
	 * out (the flags alone differ, or a register that only grows):
	 * a plain wait, or no wait at all */
	return counts;
}

bool spin_inside(const struct spin_loop *l, uint64_t pc)
{
	if ((pc >= l->yield_lo && pc < l->yield_hi) ||
	    (l->stub && pc >= l->stub && pc < l->stub + YIELD_LEN))
		return true;
	for (int i = 0; i < l->n; i++)
		if (l->pc[i] == pc)
			return true;
	return false;
}

int spin_watch(struct tracer *t, uint64_t pc, uint32_t *live)
{
	const struct dec_insn *in = insn(t, pc);

	if (!in)
		return -1;
	if (in->flow == DEC_FLOW_SYSCALL || in->cls == DEC_SYSCALL) {
		/* it reads the number and the arguments; the flags it only
		 * saves in r11 (and gets back): tainted flags taint r11
		 * (libstdc++'s atomic wait yields while the flags still hold
		 * its spin count's compare: C++20 latch, 16 times "read") */
		bool flags = *live & BIT(FLAGS_BIT);
		if (*live & SYSCALL_IN)
			return -1;
		*live &= ~(BIT(R_CX) | BIT(R_11));
		if (flags)
			*live |= BIT(R_11);
		return 0;
	}
	if (*live & reads_of(in))
		return -1;
	*live &= ~in->regs_killed;
	if (in->flags_killed)
		*live &= ~BIT(FLAGS_BIT);
	return 0;
}
