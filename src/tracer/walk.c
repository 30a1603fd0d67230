/* walk.c — where must the running thread stop next?
 *
 * Thread-local code runs natively; the thread must stop before any
 * instruction that may be a visible event.  walk_from() explores the
 * static control-flow graph from the current pc of the current thread and
 * puts a breakpoint (bp.c) on every *stop point* it reaches:
 *   - instructions of the classes that are always events or need the
 *     tracer (locked, fences, syscall, pause, rep strings, rdtsc, traps);
 *   - memory accesses whose address it cannot prove private;
 *   - indirect jumps/calls and returns it cannot resolve;
 *   - the frontier, when the walk runs out of budget.
 * A path ends at an instruction that already carries a breakpoint.
 *
 * To prove an access private without stopping, the walk evaluates the
 * address from the registers at the start of the walk: each GPR is
 * tracked as "its value at the start + offset" through the moves the
 * decoder describes (struct dec_copy, rsp_delta) and becomes unknown when
 * anything else writes it.  This is enough for -O0 frames (mov rbp, rsp;
 * [rbp-8]) and for rsp-relative code.  Returns of calls followed inside
 * the walk are resolved with a small shadow call stack; jmp/call through a
 * RIP-relative pointer (PLT -> GOT) are followed by reading the pointer
 * (the target runs with LD_BIND_NOW, so GOT entries do not change).
 *
 * Every instruction of a walked path is silent, so every byte it writes
 * has a known address: the path keeps the range they lie in.  Memory the
 * walk proved private and the path did not write holds now what the
 * thread will read there (nobody else runs until it stops), which
 * resolves two more things without stopping (issue 8): a ret whose call
 * the walk did not see returns to the address in the stack now
 * (stack_ret), and a 4- or 8-byte load of such memory gives a known
 * register (known_load: glibc's "mov rax, fs:[0x10]", its thread
 * descriptor, and the accesses through it).
 */
#include <stdlib.h>
#include <string.h>

#include "tracer/emulate.h"
#include "tracer/log.h"
#include "tracer/tracer_priv.h"

#define WALK_BUDGET 768 /* instructions per walk */
#define WALK_PATHS 256  /* pending paths */
#define WALK_RETS 8     /* shadow call stack depth */
#define UNKNOWN 127
#define CONST 16 /* a known value: off */

struct absreg {
	int8_t reg; /* value = start value of GPR reg + off; CONST: off;
		     * UNKNOWN */
	int64_t off;
};

struct path {
	uint64_t pc;
	struct absreg r[16];
	uint64_t ret[WALK_RETS];
	int8_t nret; /* -1: unknown return addresses below */
	uint64_t wlo, whi; /* the memory the path wrote lies in [wlo, whi) */
};

#define SEEN_CAP 2048 /* > WALK_BUDGET, power of two */

/* Scratch memory of a walk, kept between walks (clearing only what was
 * used) so that a walk costs no allocation. */
struct walk_scratch {
	uint64_t key[SEEN_CAP]; /* visited pcs, open addressing */
	struct path state[SEEN_CAP];
	uint16_t used[SEEN_CAP];
	int nused;
	struct path work[WALK_PATHS];
};

struct walk {
	struct tracer *t;
	struct lthread *th;
	struct dec_regs start;
	struct walk_scratch *s;
	int nwork;
	int budget;
	uint64_t start_pc;
	bool start_needs_step;
};

/* Widen [*lo, *hi) to cover [lo2, hi2) (an empty range: lo >= hi).
 * Returns true if it grew. */
static bool cover(uint64_t *lo, uint64_t *hi, uint64_t lo2, uint64_t hi2)
{
	if (lo2 >= hi2 || (*lo < *hi && lo2 >= *lo && hi2 <= *hi))
		return false;
	if (*lo >= *hi || lo2 < *lo)
		*lo = lo2;
	if (hi2 > *hi)
		*hi = hi2;
	return true;
}

/* Meet of two path states: what differs becomes unknown.  Returns true if
 * *into changed. */
static bool meet(struct path *into, const struct path *p)
{
	bool changed = false;

	for (int i = 0; i < 16; i++) {
		if (into->r[i].reg == UNKNOWN)
			continue;
		if (into->r[i].reg != p->r[i].reg ||
		    into->r[i].off != p->r[i].off) {
			into->r[i].reg = UNKNOWN;
			changed = true;
		}
	}
	if (into->nret >= 0 &&
	    (into->nret != p->nret ||
	     memcmp(into->ret, p->ret, (size_t)into->nret * 8) != 0)) {
		into->nret = -1;
		changed = true;
	}
	if (cover(&into->wlo, &into->whi, p->wlo, p->whi))
		changed = true;
	return changed;
}

/* Record that p reaches p->pc.  Returns false if a state at least as
 * general was walked from there already; otherwise *p becomes the state
 * to walk on with (the meet with what was seen before). */
static bool visit(struct walk *w, struct path *p)
{
	struct walk_scratch *s = w->s;
	size_t i = (p->pc * 0x9e3779b97f4a7c15ull) >> 40;

	for (;; i++) {
		i &= SEEN_CAP - 1;
		if (s->key[i] == p->pc) {
			if (!meet(&s->state[i], p))
				return false;
			*p = s->state[i];
			p->pc = s->key[i];
			return true;
		}
		if (s->key[i] == 0) {
			s->key[i] = p->pc;
			s->state[i] = *p;
			s->used[s->nused++] = (uint16_t)i;
			return true;
		}
	}
}

static bool value(const struct walk *w, const struct path *p, int reg,
		  uint64_t *v)
{
	if (reg == DEC_NOREG) {
		*v = 0;
		return true;
	}
	if (reg < 0 || reg >= 16 || p->r[reg].reg == UNKNOWN)
		return false;
	*v = (p->r[reg].reg == CONST ? 0 : w->start.gpr[p->r[reg].reg]) +
	     (uint64_t)p->r[reg].off;
	return true;
}

/* Address of operand m, if the walk knows it. */
static bool address(const struct walk *w, const struct path *p,
		    const struct dec_insn *in, const struct dec_mem *m,
		    uint64_t *addr)
{
	uint64_t b, x;

	/* bt [mem], reg reaches beyond the operand; 32-bit addresses wrap:
	 * leave both to dec_accesses() at a stop */
	if (m->flags & (DEC_MEMF_BITREG | DEC_MEMF_ADDR32))
		return false;
	if (m->base == DEC_RIP)
		b = in->pc + in->len;
	else if (!value(w, p, m->base, &b))
		return false;
	if (!value(w, p, m->index, &x))
		return false;
	*addr = b + x * (m->index == DEC_NOREG ? 0 : m->scale) +
		(uint64_t)m->disp;
	if (m->seg == DEC_SEG_FS)
		*addr += w->start.fs_base;
	else if (m->seg == DEC_SEG_GS)
		*addr += w->start.gs_base;
	return true;
}

static bool always_stops(const struct dec_insn *in)
{
	switch (in->cls) {
	case DEC_PLAIN:
	case DEC_NO_DATA:
	case DEC_LFENCE:
	case DEC_SFENCE:
		return false;
	default:
		return true;
	}
}

/* Can the walk prove that in, executed on path p, is not an event?  The
 * memory it writes is added to p's written range. */
static bool provably_silent(struct walk *w, struct path *p,
			    const struct dec_insn *in)
{
	if (always_stops(in))
		return false;
	for (int i = 0; i < in->nmem; i++) {
		const struct dec_mem *m = &in->mem[i];
		struct dec_access a;
		if (m->kind == DEC_MEM_BRANCH)
			continue; /* code pointers: see the header comment */
		if (!address(w, p, in, m, &a.addr))
			return false;
		a.size = m->size;
		a.rw = m->rw;
		a.kind = m->kind;
		if (!tr_private(w->t, w->th, &a))
			return false;
		if (a.rw & DEC_WRITE)
			cover(&p->wlo, &p->whi, a.addr, a.addr + a.size);
	}
	return true;
}

/* May path p have written a byte of [addr, addr + size)? */
static bool written(const struct path *p, uint64_t addr, uint64_t size)
{
	return p->wlo < p->whi && addr < p->whi && addr + size > p->wlo;
}

/* Where a ret on path p returns when the walk did not see the call: the
 * return address in the thread's stack now, if rsp is known and no
 * instruction of the path may have written that slot (every write of a
 * walked path has a known address: it is in p's written range).  Nothing
 * else writes the slot before the thread gets there: it is private.
 * 0 if unknown. */
static uint64_t stack_ret(struct walk *w, const struct path *p)
{
	uint64_t slot, to = 0;

	if (!value(w, p, DEC_RSP, &slot) || written(p, slot, 8) ||
	    proc_read(&w->t->proc, slot, &to, 8) != 8)
		return 0;
	return to;
}

/* A load of a 4- or 8-byte register (mov, movzx, movsx, movsxd) from
 * memory the walk proved private (or read-only): the value is in memory
 * now, unless the path wrote it (p's written range), and nothing else
 * writes it before the thread gets there.  This is how the walk follows
 * glibc's "mov rax, fs:[0x10]" (the thread's descriptor) into
 * [rax + 0x308].  Returns true with the register's value in *v. */
static bool known_load(struct walk *w, const struct path *p,
		       const struct dec_insn *in, uint64_t *v)
{
	const struct dec_mov *m = &in->mov;
	struct emu_state s = { .mem = 0 };
	uint64_t addr;

	if (!m->ok || !m->load || (m->reg_width != 4 && m->reg_width != 8) ||
	    in->nmem != 1 || !address(w, p, in, &in->mem[0], &addr) ||
	    written(p, addr, m->width) ||
	    proc_read(&w->t->proc, addr, &s.mem, m->width) != m->width ||
	    emu_mov(m, &s) != 0)
		return false;
	*v = s.gpr[m->reg]; /* a 4- or 8-byte write sets all 64 bits */
	return true;
}

static void apply(struct path *p, const struct dec_insn *in)
{
	struct absreg src = { UNKNOWN, 0 };
	const struct dec_copy *c = &in->copy;

	if (c->dst != DEC_NOREG && c->src >= 0 && c->src < 16)
		src = p->r[c->src];
	for (int i = 0; i < 16; i++)
		if (in->regs_written & (1u << i))
			p->r[i].reg = UNKNOWN;
	if (c->dst != DEC_NOREG && c->dst < 16) {
		p->r[c->dst] = src;
		if (src.reg != UNKNOWN)
			p->r[c->dst].off += c->add;
	}
	if (in->rsp_delta && c->dst != DEC_RSP && p->r[DEC_RSP].reg != UNKNOWN)
		p->r[DEC_RSP].off += in->rsp_delta;
}

static void push_path(struct walk *w, const struct path *p, uint64_t pc)
{
	if (w->nwork == WALK_PATHS) {
		/* out of room: this successor becomes a stop point */
		if (pc != w->start_pc)
			bp_insert(w->t, pc, 0);
		return;
	}
	w->s->work[w->nwork] = *p;
	w->s->work[w->nwork].pc = pc;
	w->nwork++;
}

/* Target of jmp/call [rip+d] read from memory, or 0. */
static uint64_t got_target(struct walk *w, const struct dec_insn *in)
{
	uint64_t ptr = 0;

	for (int i = 0; i < in->nmem; i++) {
		const struct dec_mem *m = &in->mem[i];
		if (m->kind != DEC_MEM_BRANCH || m->base != DEC_RIP ||
		    m->index != DEC_NOREG || m->seg != DEC_SEG_NONE)
			continue;
		uint64_t a = in->pc + in->len + (uint64_t)m->disp;
		const struct map_region *r =
			maps_find(&w->t->maps, w->t->proc.pid, a);
		if (!r || (r->perms & MAP_W && !(r->perms & MAP_R)))
			return 0;
		if (proc_read(&w->t->proc, a, &ptr, 8) != 8)
			return 0;
	}
	return ptr;
}

/* Successors of in on path p; false if in must be a stop point.  ret_to:
 * where a ret goes when the walk did not see its call (0: unknown). */
static bool follow(struct walk *w, struct path *p, const struct dec_insn *in,
		   uint64_t ret_to)
{
	uint64_t next = in->pc + in->len, to;

	switch (in->flow) {
	case DEC_FLOW_NEXT:
		push_path(w, p, next);
		return true;
	case DEC_FLOW_JMP:
		push_path(w, p, in->target);
		return true;
	case DEC_FLOW_JCC:
		push_path(w, p, in->target);
		push_path(w, p, next);
		return true;
	case DEC_FLOW_CALL:
	case DEC_FLOW_IND_CALL:
		to = in->flow == DEC_FLOW_CALL ? in->target : got_target(w, in);
		if (!to)
			return false;
		if (p->nret >= 0 && p->nret < WALK_RETS)
			p->ret[p->nret++] = next;
		else
			p->nret = -1;
		push_path(w, p, to);
		return true;
	case DEC_FLOW_IND_JMP:
		to = got_target(w, in);
		if (!to)
			return false;
		push_path(w, p, to);
		return true;
	case DEC_FLOW_RET:
		if (p->nret > 0)
			to = p->ret[--p->nret];
		else if (p->nret == 0)
			to = ret_to;
		else
			to = 0;
		if (!to)
			return false;
		push_path(w, p, to);
		return true;
	default:
		return false;
	}
}

/* Walk one instruction of path p and queue its successors. */
static void walk_one(struct walk *w, struct path *p)
{
	const struct dec_insn *in;
	bool at_start = p->pc == w->start_pc;
	uint64_t ret_to = 0, loaded;

	if (!at_start && bp_find(w->t, p->pc))
		return; /* already a stop point */
	if (!visit(w, p))
		return;
	if (--w->budget < 0 || !(in = dcache_get(w->t->dc, p->pc)) ||
	    !provably_silent(w, p, in)) {
		goto stop;
	}
	if (in->flow == DEC_FLOW_RET && p->nret == 0)
		ret_to = stack_ret(w, p); /* rsp before the ret */
	if (known_load(w, p, in, &loaded)) {
		apply(p, in);
		p->r[in->mov.reg] = (struct absreg){ CONST, (int64_t)loaded };
	} else {
		apply(p, in);
	}
	if (!follow(w, p, in, ret_to))
		goto stop;
	return;
stop:
	if (at_start)
		w->start_needs_step = true;
	else
		bp_insert(w->t, p->pc, 0);
}

int walk_from(struct tracer *t)
{
	struct lthread *th = &t->th[t->cur];
	struct walk w = { .t = t, .th = th, .budget = WALK_BUDGET };
	struct path p = { .nret = 0 };

	if (!t->walk && !(t->walk = calloc(1, sizeof *t->walk)))
		return -1;
	w.s = t->walk;
	tr_dec_regs(&th->regs, &w.start);
	w.start_pc = th->regs.rip;
	for (int i = 0; i < 16; i++)
		p.r[i] = (struct absreg){ (int8_t)i, 0 };
	push_path(&w, &p, w.start_pc);
	while (w.nwork > 0) {
		struct path cur = w.s->work[--w.nwork];
		walk_one(&w, &cur);
	}
	for (int i = 0; i < w.s->nused; i++)
		w.s->key[w.s->used[i]] = 0;
	w.s->nused = 0;
	t->st.walks++;
	return w.start_needs_step ? 1 : 0;
}
