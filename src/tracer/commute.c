/* commute.c — locked adds that commute (issue 16: reference counts and
 * event counters must not multiply the search; docs/EXPLORATION.md).
 *
 * Two `lock add/sub/inc/dec [m]` or `lock xadd [m], reg` of different
 * threads on the same location leave the same value in either order.
 * What can tell the orders apart is only what each instruction hands to
 * its thread: the status flags, and xadd's old value in reg.  When the
 * code after the instruction reads none of them before writing them
 * (a *blind* add: an event counter, `atomic_fetch_add(&n, 1)` with its
 * result unused), two are independent whatever the values.  When it
 * reads the flags through one condition (`lock sub [rc], 1; jne`: the
 * drop of a reference count; `lock inc; jle`: Rust's Arc::clone checking
 * for overflow), or compares xadd's reg once (`cmp reg, 1; jne`, reg
 * dead after: the same drop at -O0), two alike (operation, operand,
 * condition) are independent when the condition comes out the same for
 * both: swapped, each would see the other's (old, new) pair.  The drop
 * that brings the count to zero is then the one that races with the
 * others (who frees), instead of every order of the drops.
 *
 * The tracer marks such an event after it ran (commute_mark: EV_RMW, its
 * value field EV_CADD | operation | width | condition | what the
 * condition tests); the search asks ev_commute about pairs, with the
 * values moved where it compares events of different states (a sleeper,
 * a wakeup sequence: ev_commute_rebase).  The code
 * after the instruction is scanned once per pc (a small direct-mapped
 * cache): straight-line code and direct jumps, both sides of a
 * conditional branch to a depth of two, at most COMMUTE_SCAN instructions
 * a path; a call or return ends the flags' life (the ABI keeps none);
 * any other reader of the flags (adc, pushf, a cmov from memory, parity),
 * an indirect jump or an undecodable instruction makes the instruction
 * an ordinary write. */
#include <stdlib.h>

#include "tracer/tracer_priv.h"

#define COMMUTE_SCAN 16
#define NO_COND 0xff
/* What the condition tests: the flags of the add itself, or those of a
 * `cmp reg, imm` (`test reg, reg`: imm 0) of the old value xadd put in
 * reg. */
enum { ON_RESULT = 0, ON_OLD = 1 };
#define IMM_MAX 0x7fff

static uint8_t cls_op(int64_t c) { return c & 0xff; }
static unsigned cls_width(int64_t c) { return c >> 8 & 0xff; }
static uint8_t cls_cond(int64_t c) { return c >> 16 & 0xff; }
static uint8_t cls_on(int64_t c) { return c >> 24 & 0xff; }
static int64_t cls_imm(int64_t c) { return (int16_t)(c >> 32 & 0xffff); }

/* On every path from pc: are the flags (if live) read through condition
 * *cond only before all six are written, and the registers of regs
 * written before they are read?  depth: conditional branches followed so
 * far.  A call or return ends the flags' life (the ABI keeps none), not
 * that of an argument or return register. */
static bool dead_after(struct tracer *t, uint64_t pc, int depth,
		       uint8_t *cond, bool flags, uint32_t regs)
{
	for (int k = 0; k < COMMUTE_SCAN; k++) {
		const struct dec_insn *in = dcache_get(t->dc, pc);
		if (!in || (in->regs_read & regs))
			return false;
		if (flags && in->flags_read) {
			uint8_t op = in->loc.op;
			if (op != DEC_LOC_JCC && op != DEC_LOC_SETCC &&
			    op != DEC_LOC_CMOV)
				return false;
			if (*cond != NO_COND && *cond != in->loc.cond)
				return false;
			*cond = in->loc.cond;
		} else if (in->flags_killed) {
			flags = false;
		}
		regs &= ~in->regs_killed;
		if (!flags && !regs)
			return true;
		switch (in->flow) {
		case DEC_FLOW_NEXT:
			pc += in->len;
			break;
		case DEC_FLOW_JMP:
			pc = in->target;
			break;
		case DEC_FLOW_JCC:
			return depth < 2 &&
			       dead_after(t, in->target, depth + 1, cond,
					  flags, regs) &&
			       dead_after(t, pc + in->len, depth + 1, cond,
					  flags, regs);
		case DEC_FLOW_RET:
			return !(regs & (1u << DEC_RAX | 1u << DEC_RDX));
		case DEC_FLOW_CALL:
		case DEC_FLOW_IND_CALL:
			return !regs; /* it may read its arguments */
		default:
			return false;
		}
	}
	return false;
}

/* The conditions whose flags this code computes: not parity (P, NP),
 * and not the carry after inc or dec (they keep the one before). */
static bool cond_known(uint8_t op, uint8_t on, uint8_t cond)
{
	bool carry = cond == 2 || cond == 3 || cond == 6 || cond == 7;

	if (cond == NO_COND)
		return true;
	if (cond == 10 || cond == 11)
		return false;
	return !(carry && on == ON_RESULT &&
		 (op == DEC_ALU_INC || op == DEC_ALU_DEC));
}

/* xadd's old value, in reg, compared right after it: `cmp reg, imm` or
 * `test reg, reg` of the same width.  Returns whether it is, *imm. */
static bool compared(const struct dec_insn *x, const struct dec_insn *in,
		     int64_t *imm)
{
	const struct dec_local *l = &in->loc;

	if (l->op != DEC_LOC_ALU || l->dst != x->alu.reg ||
	    l->dst_hi8 || l->width != x->alu.width)
		return false;
	if (l->alu == DEC_ALU_CMP && l->imm_src && l->src == DEC_NOREG &&
	    l->imm >= -IMM_MAX && l->imm <= IMM_MAX) {
		*imm = l->imm;
		return true;
	}
	*imm = 0;
	return l->alu == DEC_ALU_TEST && l->src == l->dst;
}

static int64_t classify_pc(struct tracer *t, uint64_t pc)
{
	const struct dec_insn *in = dcache_get(t->dc, pc), *next;
	uint8_t cond = NO_COND, op, on = ON_RESULT;
	uint64_t at;
	uint32_t regs = 0;
	int64_t imm = 0;

	if (!in || in->cls != DEC_LOCKED_RMW || !in->alu.mem_dst)
		return 0;
	op = in->alu.op;
	at = pc + in->len;
	if (op == DEC_ALU_XADD) {
		if (in->alu.reg < 0 || in->alu.hi8)
			return 0;
		next = dcache_get(t->dc, at);
		/* the compare may be where a jump goes (libstdc++'s
		 * shared_ptr: the atomic path jumps back to it) */
		for (int k = 0; k < 2 && next && next->flow == DEC_FLOW_JMP;
		     k++)
			next = dcache_get(t->dc, at = next->target);
		if (next && compared(in, next, &imm)) {
			on = ON_OLD;
			at += next->len;
		}
		regs = 1u << in->alu.reg;
	} else if (op != DEC_ALU_ADD && op != DEC_ALU_SUB &&
		   op != DEC_ALU_INC && op != DEC_ALU_DEC) {
		return 0;
	}
	if (!dead_after(t, at, 0, &cond, true, regs) ||
	    !cond_known(op, on, cond))
		return 0;
	if (on == ON_OLD && cond == NO_COND)
		return 0; /* compared for nothing: not worth a class */
	return EV_CADD | op | (int64_t)in->alu.width << 8 |
	       (int64_t)cond << 16 | (int64_t)on << 24 |
	       (int64_t)(uint16_t)imm << 32;
}

static int64_t class_of(struct tracer *t, const struct tr_event *ev)
{
	size_t h;

	if (ev->kind != EV_RMW || ev->nacc != 1 || ev->sync_op ||
	    ev->region != RG_NONE || t->no_commute)
		return 0;
	h = (ev->pc ^ ev->pc >> 9) % COMMUTE_CACHE;
	if (t->commute[h].pc != ev->pc) {
		t->commute[h].pc = ev->pc;
		t->commute[h].cls = classify_pc(t, ev->pc);
	}
	if (ev->acc[0].size != cls_width(t->commute[h].cls))
		return 0;
	return t->commute[h].cls;
}

void commute_mark(struct tracer *t, struct tr_event *ev)
{
	if (ev->kind == EV_RMW) /* value is another kind's own */
		ev->value = class_of(t, ev);
}

/* A pending event (the sleep sets compare them with what runs): only a
 * blind add is known to commute before it has run; one whose flags are
 * read needs its values. */
void commute_mark_pending(struct tracer *t, struct tr_event *ev)
{
	int64_t c = class_of(t, ev);

	if (c && cls_cond(c) == NO_COND)
		ev->value = c;
}

/* ---- the search's side: pure functions of two events ---- */

static uint64_t mask_of(unsigned width)
{
	return width >= 8 ? UINT64_MAX : (1ull << 8 * width) - 1;
}

/* The condition's outcome on ev's values (old rval[0], new wval[0]). */
static bool cond_holds(const struct tr_event *ev)
{
	int64_t c = ev->value;
	uint8_t op = cls_op(c), cond = cls_cond(c);
	uint64_t m = mask_of(cls_width(c)), sign = (m >> 1) + 1;
	uint64_t o = ev->rval[0] & m, r = ev->wval[0] & m, s;
	bool sub = op == DEC_ALU_SUB || op == DEC_ALU_DEC, v;

	if (cls_on(c) == ON_OLD) { /* cmp old, imm */
		s = (uint64_t)cls_imm(c) & m;
		r = (o - s) & m;
		sub = true;
	} else {
		s = (sub ? o - r : r - o) & m; /* the operand */
	}
	bool zf = r == 0, sf = (r & sign) != 0;
	bool cf = sub ? o < s : r < o;
	bool of = sub ? ((o ^ s) & (o ^ r) & sign) != 0
		      : (~(o ^ s) & (o ^ r) & sign) != 0;
	switch (cond >> 1) {
	case 0: v = of; break;
	case 1: v = cf; break;
	case 2: v = zf; break;
	case 3: v = cf || zf; break;
	case 4: v = sf; break;
	case 6: v = sf != of; break;
	case 7: v = zf || sf != of; break;
	default: v = false; break; /* parity: never marked */
	}
	return (cond & 1) ? !v : v;
}

static uint64_t operand(const struct tr_event *ev)
{
	uint8_t op = cls_op(ev->value);
	uint64_t m = mask_of(cls_width(ev->value));

	return (op == DEC_ALU_SUB || op == DEC_ALU_DEC
			? ev->rval[0] - ev->wval[0]
			: ev->wval[0] - ev->rval[0]) & m;
}

/* b as it would run with a's add before it: its values moved by a's. */
static struct tr_event shifted(const struct tr_event *b,
			       const struct tr_event *a)
{
	struct tr_event c = *b;
	uint64_t m = mask_of(cls_width(b->value));
	uint64_t d = a->wval[0] - a->rval[0];

	c.rval[0] = (b->rval[0] + d) & m;
	c.wval[0] = (b->wval[0] + d) & m;
	return c;
}

bool ev_commute(const struct tr_event *a, const struct tr_event *b,
		enum ev_order how)
{
	if (a->kind != EV_RMW || b->kind != EV_RMW ||
	    !(a->value & EV_CADD) || !(b->value & EV_CADD) ||
	    a->nacc != 1 || b->nacc != 1 ||
	    a->acc[0].addr != b->acc[0].addr ||
	    a->acc[0].size != b->acc[0].size)
		return false;
	if (cls_cond(a->value) == NO_COND && cls_cond(b->value) == NO_COND)
		return true; /* blind adds: the same sum either way */
	if (a->value != b->value || operand(a) != operand(b))
		return false;
	switch (how) {
	case EVO_ORDERED:
		/* swapped, each would get the other's (old, new); with the
		 * adds between them (of the same outcome, else those
		 * conflict with a or b) any order gives each one of these
		 * pairs */
		return cond_holds(a) == cond_holds(b);
	case EVO_FRONT: {
		/* a moved before b: b runs on a's sum (a itself runs
		 * where its values were taken) */
		struct tr_event c = shifted(b, a);
		return cond_holds(&c) == cond_holds(b);
	}
	default:
		return false;
	}
}

bool ev_commute_conditional(const struct tr_event *e)
{
	return e->kind == EV_RMW && (e->value & EV_CADD) &&
	       cls_cond(e->value) != NO_COND;
}

bool ev_commute_rebase(struct tr_event *out, const struct tr_event *e,
		       const struct tr_event *by, bool add)
{
	struct tr_event neg;

	if (!ev_commute_conditional(e) || by->kind != EV_RMW ||
	    by->value != e->value || by->nacc != 1 || e->nacc != 1 ||
	    by->acc[0].addr != e->acc[0].addr ||
	    by->acc[0].size != e->acc[0].size ||
	    operand(by) != operand(e))
		return false;
	if (add) {
		*out = shifted(e, by);
	} else {
		neg = *by; /* by's add undone: its values swapped */
		neg.rval[0] = by->wval[0];
		neg.wval[0] = by->rval[0];
		*out = shifted(e, &neg);
	}
	return true;
}
