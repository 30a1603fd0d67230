/* emulate.c — the core of emulate.h (emu_alu) and the tracer's use of
 * it: events performed without a single step (tr_emulate). */
#include "tracer/emulate.h"

#include <stdbool.h>
#include <string.h>

#include "tracer/tracer_priv.h"

enum {
	FL_CF = 0x1, FL_PF = 0x4, FL_AF = 0x10,
	FL_ZF = 0x40, FL_SF = 0x80, FL_OF = 0x800,
};

static uint64_t mask(unsigned w)
{
	return w >= 8 ? ~0ull : (1ull << (8 * w)) - 1;
}

static uint64_t sign(unsigned w)
{
	return 1ull << (8 * w - 1);
}

static bool width_ok(unsigned w)
{
	return w == 1 || w == 2 || w == 4 || w == 8;
}

/* PF, ZF and SF of the result r of width w. */
static uint64_t szp(uint64_t r, unsigned w)
{
	uint64_t f = 0;

	if (!(r & mask(w)))
		f |= FL_ZF;
	if (r & sign(w))
		f |= FL_SF;
	if (!__builtin_parity((unsigned)(r & 0xff)))
		f |= FL_PF;
	return f;
}

/* a + b + c (c: carry in, 0 or 1) in w bytes; *fl its flags. */
static uint64_t add(uint64_t a, uint64_t b, unsigned c, unsigned w,
		    uint64_t *fl)
{
	uint64_t m = mask(w);
	unsigned __int128 full = (unsigned __int128)(a & m) + (b & m) + c;
	uint64_t r = (uint64_t)full & m;

	*fl = szp(r, w);
	if (full >> (8 * w))
		*fl |= FL_CF;
	if ((a ^ r) & (b ^ r) & sign(w))
		*fl |= FL_OF;
	if ((a ^ b ^ r) & 0x10)
		*fl |= FL_AF;
	return r;
}

/* a - b - c (c: borrow in) in w bytes; *fl its flags. */
static uint64_t sub(uint64_t a, uint64_t b, unsigned c, unsigned w,
		    uint64_t *fl)
{
	uint64_t m = mask(w), r = (a - b - c) & m;

	*fl = szp(r, w);
	if ((unsigned __int128)(a & m) < (unsigned __int128)(b & m) + c)
		*fl |= FL_CF;
	if ((a ^ b) & (a ^ r) & sign(w))
		*fl |= FL_OF;
	if ((a ^ b ^ r) & 0x10)
		*fl |= FL_AF;
	return r;
}

static uint64_t get_reg(const struct emu_state *s, const struct dec_alu *a)
{
	uint64_t v = s->gpr[a->reg];

	return (a->hi8 ? v >> 8 : v) & mask(a->width);
}

/* A register write of the operand's width: a 32-bit write zero-extends,
 * 8- and 16-bit ones keep the other bits. */
static void set_reg(struct emu_state *s, int reg, bool hi8, unsigned w,
		    uint64_t v)
{
	uint64_t *g = &s->gpr[reg];

	if (w == 8)
		*g = v;
	else if (w == 4)
		*g = v & 0xffffffffu;
	else if (w == 2)
		*g = (*g & ~0xffffull) | (v & 0xffff);
	else if (hi8)
		*g = (*g & ~0xff00ull) | ((v & 0xff) << 8);
	else
		*g = (*g & ~0xffull) | (v & 0xff);
}

/* The binary operations: d op x, their flags in *fl (old: the flags
 * before).  Returns the result. */
static uint64_t binary(uint8_t op, uint64_t d, uint64_t x, unsigned w,
		       uint64_t old, uint64_t *fl)
{
	unsigned cf = old & FL_CF ? 1 : 0;
	uint64_t r;

	switch (op) {
	case DEC_ALU_ADD:
	case DEC_ALU_XADD:
		return add(d, x, 0, w, fl);
	case DEC_ALU_ADC:
		return add(d, x, cf, w, fl);
	case DEC_ALU_SUB:
	case DEC_ALU_CMP:
		return sub(d, x, 0, w, fl);
	case DEC_ALU_SBB:
		return sub(d, x, cf, w, fl);
	case DEC_ALU_INC:
		r = add(d, 1, 0, w, fl);
		*fl = (*fl & ~(uint64_t)FL_CF) | (old & FL_CF);
		return r;
	case DEC_ALU_DEC:
		r = sub(d, 1, 0, w, fl);
		*fl = (*fl & ~(uint64_t)FL_CF) | (old & FL_CF);
		return r;
	case DEC_ALU_NEG:
		return sub(0, d, 0, w, fl);
	case DEC_ALU_NOT:
		*fl = old;
		return ~d & mask(w);
	case DEC_ALU_XCHG:
		*fl = old;
		return x;
	default: /* and, or, xor, test */
		r = op == DEC_ALU_OR    ? d | x
		    : op == DEC_ALU_XOR ? d ^ x
					: d & x;
		*fl = szp(r, w); /* CF = OF = AF = 0 */
		return r;
	}
}

int emu_alu(const struct dec_alu *a, struct emu_state *s)
{
	unsigned w = a->width;
	uint64_t m = mask(w), mem = s->mem & m, old = s->rflags & EMU_FLAGS;
	uint64_t src, fl, r;
	int wrote = 0;

	if (a->op == DEC_ALU_NONE || a->op >= DEC_ALU_NOPS || !width_ok(w) ||
	    (a->reg == DEC_NOREG && !a->imm_src && a->op != DEC_ALU_INC &&
	     a->op != DEC_ALU_DEC && a->op != DEC_ALU_NEG &&
	     a->op != DEC_ALU_NOT))
		return -1;
	src = a->imm_src ? (uint64_t)a->imm & m
	      : a->reg != DEC_NOREG ? get_reg(s, a)
				    : 0;
	if (a->op == DEC_ALU_CMPXCHG) {
		uint64_t acc = s->gpr[DEC_RAX] & m;
		sub(acc, mem, 0, w, &fl);
		if (acc == mem) {
			s->mem = src;
		} else {
			s->mem = mem; /* written back unchanged */
			set_reg(s, DEC_RAX, false, w, mem);
		}
		wrote = 1;
	} else if (a->mem_dst) {
		r = binary(a->op, mem, src, w, old, &fl);
		if (a->op == DEC_ALU_XCHG || a->op == DEC_ALU_XADD)
			set_reg(s, a->reg, a->hi8, w, mem);
		if (a->op != DEC_ALU_CMP && a->op != DEC_ALU_TEST) {
			s->mem = r;
			wrote = 1;
		}
	} else { /* reg, [mem] */
		r = binary(a->op, src, mem, w, old, &fl);
		if (a->op != DEC_ALU_CMP)
			set_reg(s, a->reg, a->hi8, w, r);
	}
	s->rflags = (s->rflags & ~EMU_FLAGS) | (fl & EMU_FLAGS);
	return wrote;
}

int emu_mov(const struct dec_mov *m, struct emu_state *s)
{
	uint64_t v;

	if (!m->ok || !width_ok(m->width) ||
	    (m->load && (!width_ok(m->reg_width) || m->reg_width < m->width)) ||
	    (!m->imm_src && (m->reg < 0 || m->reg > 15)))
		return -1;
	if (!m->load) {
		v = m->imm_src ? (uint64_t)m->imm
			       : s->gpr[m->reg] >> (m->hi8 ? 8 : 0);
		s->mem = v & mask(m->width);
		return 1;
	}
	v = s->mem & mask(m->width);
	if (m->ext == DEC_EXT_SIGN && (v & sign(m->width)))
		v |= ~mask(m->width);
	set_reg(s, m->reg, m->hi8, m->reg_width, v);
	return 0;
}

/* Condition code cc (0..15, as in jcc 70+cc) on the flags f. */
static bool cond(uint64_t f, unsigned cc)
{
	bool sf = f & FL_SF, of = f & FL_OF, zf = f & FL_ZF, r;

	switch (cc >> 1) {
	case 0: r = of; break;
	case 1: r = f & FL_CF; break;
	case 2: r = zf; break;
	case 3: r = (f & FL_CF) || zf; break;
	case 4: r = sf; break;
	case 5: r = f & FL_PF; break;
	case 6: r = sf != of; break;
	default: r = zf || sf != of; break;
	}
	return cc & 1 ? !r : r;
}

static uint64_t rd(const struct emu_state *s, int reg, bool hi8, unsigned w)
{
	return (hi8 ? s->gpr[reg] >> 8 : s->gpr[reg]) & mask(w);
}

int emu_local(const struct dec_insn *in, struct emu_state *s, uint64_t *rip)
{
	const struct dec_local *l = &in->loc;
	uint64_t next = *rip + in->len, m = mask(l->width), v, fl;
	uint64_t old = s->rflags & EMU_FLAGS;

	switch (l->op) {
	case DEC_LOC_NOP:
		break;
	case DEC_LOC_JMP:
		next = in->target;
		break;
	case DEC_LOC_JCC:
		if (cond(s->rflags, l->cond))
			next = in->target;
		break;
	case DEC_LOC_MOV:
		v = l->imm_src ? (uint64_t)l->imm : rd(s, l->src, l->src_hi8, 8);
		set_reg(s, l->dst, l->dst_hi8, l->width, v & m);
		break;
	case DEC_LOC_MOVX:
		v = rd(s, l->src, l->src_hi8, l->swidth);
		if (l->ext == DEC_EXT_SIGN && (v & sign(l->swidth)))
			v |= ~mask(l->swidth);
		set_reg(s, l->dst, false, l->width, v & m);
		break;
	case DEC_LOC_LEA:
		v = (uint64_t)l->imm;
		if (l->base == DEC_RIP)
			v += next;
		else if (l->base != DEC_NOREG)
			v += s->gpr[l->base];
		if (l->index != DEC_NOREG)
			v += s->gpr[l->index] * l->scale;
		if (l->awidth == 4)
			v &= 0xffffffffu;
		set_reg(s, l->dst, false, l->width, v & m);
		break;
	case DEC_LOC_CMOV: /* a 32-bit cmov zero-extends, moved or not */
		v = cond(s->rflags, l->cond) ? rd(s, l->src, l->src_hi8, 8)
					     : s->gpr[l->dst];
		set_reg(s, l->dst, false, l->width, v & m);
		break;
	case DEC_LOC_SETCC:
		set_reg(s, l->dst, l->dst_hi8, 1, cond(s->rflags, l->cond));
		break;
	case DEC_LOC_CEXT: /* al -> ax, ax -> eax, eax -> rax */
		v = s->gpr[DEC_RAX] & mask(l->width / 2);
		if (v & sign(l->width / 2))
			v |= ~mask(l->width / 2);
		set_reg(s, DEC_RAX, false, l->width, v & m);
		break;
	case DEC_LOC_CDQ: /* the sign of ax, eax, rax into dx, edx, rdx */
		v = s->gpr[DEC_RAX] & sign(l->width) ? m : 0;
		set_reg(s, DEC_RDX, false, l->width, v);
		break;
	case DEC_LOC_ALU:
		v = binary(l->alu, rd(s, l->dst, l->dst_hi8, l->width),
			   l->imm_src ? (uint64_t)l->imm & m
			   : l->src != DEC_NOREG ? rd(s, l->src, l->src_hi8,
						     l->width)
						 : 0,
			   l->width, old, &fl);
		if (l->alu != DEC_ALU_CMP && l->alu != DEC_ALU_TEST)
			set_reg(s, l->dst, l->dst_hi8, l->width, v);
		s->rflags = (s->rflags & ~EMU_FLAGS) | (fl & EMU_FLAGS);
		break;
	default:
		return -1;
	}
	*rip = next;
	return 1;
}

/* ---- the tracer: events performed without a single step ---- */

uint64_t *tr_gpr(struct user_regs_struct *r, int reg)
{
	switch (reg) {
	case DEC_RAX: return (uint64_t *)&r->rax;
	case DEC_RCX: return (uint64_t *)&r->rcx;
	case DEC_RDX: return (uint64_t *)&r->rdx;
	case DEC_RBX: return (uint64_t *)&r->rbx;
	case DEC_RSP: return (uint64_t *)&r->rsp;
	case DEC_RBP: return (uint64_t *)&r->rbp;
	case DEC_RSI: return (uint64_t *)&r->rsi;
	case DEC_RDI: return (uint64_t *)&r->rdi;
	case DEC_R8: return (uint64_t *)&r->r8;
	case DEC_R9: return (uint64_t *)&r->r9;
	case DEC_R10: return (uint64_t *)&r->r10;
	case DEC_R11: return (uint64_t *)&r->r11;
	case DEC_R12: return (uint64_t *)&r->r12;
	case DEC_R13: return (uint64_t *)&r->r13;
	case DEC_R14: return (uint64_t *)&r->r14;
	case DEC_R15: return (uint64_t *)&r->r15;
	default: return NULL;
	}
}

/* Would the CPU perform this access without a fault?  /proc/pid/mem
 * reads and writes pages whatever their protection, so a store to
 * read-only data must be stepped to crash as it does natively.  An access
 * across two mappings is stepped too. */
static bool access_ok(struct tracer *t, uint64_t addr, unsigned size,
		      bool write)
{
	const struct map_region *r = maps_find(&t->maps, t->proc.pid, addr);

	return r && addr + size <= r->hi && (r->perms & MAP_R) &&
	       (!write || (r->perms & MAP_W));
}

/* Read the width bytes at addr as thread th sees them: memory, under its
 * own buffered stores when buffered (the source entry in *src, as
 * sb_forward_src says). */
static bool load(struct tracer *t, struct lthread *th, uint64_t addr,
		 unsigned width, bool buffered, uint64_t *v,
		 const struct sb_entry **src)
{
	uint8_t buf[8] = { 0 }, cov[8];

	*src = NULL;
	if (proc_read(&t->proc, addr, buf, width) != width)
		return false;
	if (buffered)
		sb_forward_src(&th->sb, addr, buf, cov, width, src);
	*v = 0;
	memcpy(v, buf, width);
	return true;
}

/* Put a store of the current thread into its buffer, as tso_exec() does
 * after a step: the event's store st[nst]. */
static int buffer_store(struct tracer *t, struct lthread *th,
			struct tr_event *ev, uint64_t addr, unsigned width,
			uint64_t v)
{
	uint8_t buf[8];
	int tag = tr_store_tag(t, addr, width);

	memcpy(buf, &v, 8);
	if (tag < 0 || sb_push(&th->sb, addr, buf, width, tag) < 0)
		return -1;
	ev->st[ev->nst++] = (struct tr_store){ addr, width, (uint8_t)tag, v };
	return 0;
}

static void note_forward(struct tr_event *ev, int i,
			 const struct sb_entry *src)
{
	if (src) {
		ev->fwd_seq[i] = src->seq;
		ev->fwd_slot[i] = (uint8_t)src->tag;
	}
}

/* The general registers of r, as struct emu_state holds them. */
static void emu_from(struct emu_state *s, const struct user_regs_struct *r)
{
	for (int i = 0; i < 16; i++)
		s->gpr[i] = *tr_gpr((struct user_regs_struct *)r, i);
	s->rflags = r->eflags;
}

static void emu_to(const struct emu_state *s, struct user_regs_struct *r)
{
	for (int i = 0; i < 16; i++)
		*tr_gpr(r, i) = s->gpr[i];
	r->eflags = s->rflags;
}

/* A mov or widening load (decode.h, struct dec_mov): a load reads memory
 * (under tso/pso through the thread's buffer), a store writes memory
 * (sc) or enters the buffer.  Returns 1 if done, 0 if not such a mov,
 * -1. */
static int emulate_mov(struct tracer *t, struct lthread *th,
		       const struct dec_insn *in, struct tr_event *ev,
		       bool buffered)
{
	const struct dec_mov *m = &in->mov;
	const struct dec_access *a = &ev->acc[0];
	const struct sb_entry *src;
	struct emu_state s;
	uint8_t buf[8];

	if (!m->ok || ev->kind != EV_MEM || ev->nacc != 1 ||
	    a->size != m->width || !access_ok(t, a->addr, m->width, !m->load))
		return 0;
	emu_from(&s, &th->regs);
	if (m->load) {
		if (!load(t, th, a->addr, m->width, buffered, &s.mem, &src) ||
		    emu_mov(m, &s) != 0)
			return 0; /* it faults: let the CPU say how */
		emu_to(&s, &th->regs);
		ev->acc[0].rw = DEC_READ;
		ev->rval[0] = s.mem;
		note_forward(ev, 0, src);
		return 1;
	}
	if (emu_mov(m, &s) != 1)
		return 0;
	if (buffered) {
		if (buffer_store(t, th, ev, a->addr, m->width, s.mem) < 0)
			return -1;
		ev->nacc = 0; /* the update writes memory */
		return 1;
	}
	memcpy(buf, &s.mem, 8);
	if (proc_write(&t->proc, a->addr, buf, m->width) != m->width)
		return 0; /* it faults */
	ev->wval[0] = s.mem;
	return 1;
}

/* An integer read-modify-write, compare or exchange with one memory
 * operand (struct dec_alu), locked or not.  Its accesses and values
 * are the ones exec_direct() (sc, locked, inside atomic sections) or
 * tso_exec() (a plain one under tso/pso: the read forwarded, the write
 * buffered) would give after a step.  Returns 1, 0 or -1 like
 * emulate_mov(). */
static int emulate_alu(struct tracer *t, struct lthread *th,
		       const struct dec_insn *in, struct tr_event *ev,
		       bool buffered)
{
	const struct dec_alu *a = &in->alu;
	struct dec_access acc[DEC_MAX_MEM];
	const struct sb_entry *src;
	struct emu_state s;
	struct dec_regs dr;
	uint8_t buf[8];
	bool write;

	if (a->op == DEC_ALU_NONE ||
	    (ev->kind != EV_MEM && ev->kind != EV_RMW))
		return 0;
	tr_dec_regs(&th->regs, &dr);
	/* the event lists the access, or nothing if it is private (a
	 * locked instruction is an event even then) */
	if (dec_accesses(in, &dr, acc, DEC_MAX_MEM) != 1 ||
	    acc[0].size != a->width || ev->nacc > 1 ||
	    (ev->nacc == 1 && (ev->acc[0].addr != acc[0].addr ||
			       ev->acc[0].size != acc[0].size)))
		return 0;
	write = acc[0].rw & DEC_WRITE;
	if (!access_ok(t, acc[0].addr, a->width, write) ||
	    !load(t, th, acc[0].addr, a->width, buffered && ev->nacc, &s.mem,
		  &src))
		return 0;
	uint64_t before = s.mem;
	emu_from(&s, &th->regs);
	if (emu_alu(a, &s) != (write ? 1 : 0))
		return 0; /* the decoder and the core disagree: step it */
	if (ev->nacc)
		ev->rval[0] = before;
	if (buffered && ev->nacc) {
		ev->acc[0].rw = DEC_READ; /* the update writes memory */
		note_forward(ev, 0, src);
		if (write && buffer_store(t, th, ev, acc[0].addr, a->width,
					  s.mem) < 0)
			return -1;
	} else if (write) {
		memcpy(buf, &s.mem, 8);
		if (proc_write(&t->proc, acc[0].addr, buf, a->width) !=
		    a->width)
			return 0;
		if (ev->nacc)
			ev->wval[0] = s.mem;
	}
	emu_to(&s, &th->regs);
	return 1;
}

/* Perform in, a mov or else an ALU instruction (r: the result of
 * decoding it as a pause or mfence instead, -1 to try both), and move th
 * past it.  1 performed, 0 not emulated (step it), -1 failure. */
static int perform(struct tracer *t, struct lthread *th,
		   const struct dec_insn *in, struct tr_event *ev,
		   bool buffered, int r)
{
	if (r < 0) {
		r = emulate_mov(t, th, in, ev, buffered);
		if (r == 0)
			r = emulate_alu(t, th, in, ev, buffered);
	}
	if (r <= 0)
		return r;
	th->regs.rip += in->len;
	t->regs_dirty = true;
	t->st.emulated++;
	return 1;
}

int tr_emulate(struct tracer *t, struct lthread *th, struct tr_event *ev,
	       bool buffered)
{
	const struct dec_insn *in = dcache_get(t->dc, th->regs.rip);
	int r = 0;

	if (!in || t->opts.sanity || t->no_emulate)
		return 0;
	switch (in->cls) {
	case DEC_PAUSE: /* a hint; the event is the yield */
		r = ev->kind == EV_YIELD;
		break;
	case DEC_MFENCE: /* the buffer is empty already (ev_needs_drain) */
		r = ev->kind == EV_FENCE;
		break;
	case DEC_PLAIN:
	case DEC_LOCKED_RMW:
		r = -1;
		break;
	default:
		break;
	}
	return perform(t, th, in, ev, buffered, r);
}

bool tr_window_at(struct tracer *t, uint64_t a, unsigned n)
{
	uint64_t end = a + n, page = a & ~4095ull;

	if (end < a || (a >> 12) != ((end - 1) >> 12))
		return false;
	if (proc_cached(&t->proc, a, n))
		return true;
	uint64_t lo = a >= page + 512 ? a - 512 : page;
	uint64_t hi = lo + PROC_CACHE_MAX;
	if (hi > page + 4096)
		hi = page + 4096;
	return hi >= end && proc_cache_load(&t->proc, lo, hi - lo);
}

/* The 8-byte stack slot at a, private to th, through the window. */
static bool slot(struct tracer *t, const struct lthread *th, uint64_t a,
		 uint64_t *v, bool write)
{
	struct dec_access acc = { a, 8, write ? DEC_WRITE : DEC_READ,
				  DEC_MEM_STACK };

	if (!tr_private(t, th, &acc) || !access_ok(t, a, 8, write) ||
	    !tr_window_at(t, a, 8))
		return false;
	return write ? proc_write(&t->proc, a, v, 8) == 8
		     : proc_read(&t->proc, a, v, 8) == 8;
}

/* push, pop, leave, call rel, ret (struct dec_local) on th's registers
 * and private stack.  1 if done, 0 if not (nothing changed). */
static int stack_local(struct tracer *t, struct lthread *th,
		       const struct dec_insn *in)
{
	const struct dec_local *l = &in->loc;
	struct user_regs_struct *r = &th->regs;
	uint64_t next = r->rip + in->len, v;

	switch (l->op) {
	case DEC_LOC_JMPM:
	case DEC_LOC_CALLM: {
		uint64_t p = next + (uint64_t)l->imm, to;
		if (!access_ok(t, p, 8, false) ||
		    proc_read(&t->proc, p, &to, 8) != 8)
			return 0;
		v = next;
		if (l->op == DEC_LOC_CALLM) {
			if (!slot(t, th, r->rsp - 8, &v, true))
				return 0;
			r->rsp -= 8;
		}
		r->rip = to;
		break;
	}
	case DEC_LOC_PUSH:
	case DEC_LOC_CALL:
		v = l->op == DEC_LOC_CALL ? next
		    : l->imm_src	  ? (uint64_t)l->imm
					  : *tr_gpr(r, l->src);
		if (!slot(t, th, r->rsp - 8, &v, true))
			return 0;
		r->rsp -= 8;
		r->rip = l->op == DEC_LOC_CALL ? in->target : next;
		break;
	case DEC_LOC_POP:
	case DEC_LOC_RET:
		if (!slot(t, th, r->rsp, &v, false))
			return 0;
		r->rsp += 8;
		if (l->op == DEC_LOC_RET) {
			r->rip = v;
			break;
		}
		*tr_gpr(r, l->dst) = v;
		r->rip = next;
		break;
	case DEC_LOC_LEAVE: /* mov rsp, rbp; pop rbp */
		if (!slot(t, th, r->rbp, &v, false))
			return 0;
		r->rsp = r->rbp + 8;
		r->rbp = v;
		r->rip = next;
		break;
	default:
		return 0;
	}
	t->regs_dirty = true;
	t->st.local_emulated++;
	return 1;
}

/* A local mov or ALU instruction whose one access is private (classify
 * found no event): performed through the window of memory around it
 * (struct proc_cache), so that a run of -O0 stack accesses between two
 * events costs one read and one write-back instead of a stop. */
static int window_local(struct tracer *t, struct lthread *th,
			const struct dec_insn *in)
{
	struct dec_access acc[DEC_MAX_MEM];
	struct dec_regs dr;

	if (in->cls != DEC_PLAIN || (!in->mov.ok && in->alu.op == DEC_ALU_NONE))
		return 0;
	tr_dec_regs(&th->regs, &dr);
	if (dec_accesses(in, &dr, acc, DEC_MAX_MEM) != 1 || !acc[0].size ||
	    acc[0].size > 8)
		return 0;
	if (!tr_window_at(t, acc[0].addr, (unsigned)acc[0].size))
		return 0;
	return tr_emulate_local(t, th) > 0;
}

int tr_emulate_reg(struct tracer *t, struct lthread *th)
{
	const struct dec_insn *in = dcache_get(t->dc, th->regs.rip);
	struct emu_state s;
	uint64_t rip = th->regs.rip;

	if (!in || t->opts.sanity || t->no_emulate)
		return 0;
	if (in->loc.op == DEC_LOC_NONE)
		return window_local(t, th, in);
	if (in->loc.op >= DEC_LOC_PUSH)
		return stack_local(t, th, in);
	emu_from(&s, &th->regs);
	if (emu_local(in, &s, &rip) <= 0)
		return 0;
	emu_to(&s, &th->regs);
	th->regs.rip = rip;
	t->regs_dirty = true;
	t->st.local_emulated++;
	return 1;
}

int tr_emulate_local(struct tracer *t, struct lthread *th)
{
	const struct dec_insn *in = dcache_get(t->dc, th->regs.rip);
	struct tr_event ev = { .kind = EV_MEM, .nacc = 1, .sysno = -1 };
	struct dec_regs dr;

	if (!in || in->cls != DEC_PLAIN || t->opts.sanity || t->no_emulate ||
	    (!in->mov.ok && in->alu.op == DEC_ALU_NONE))
		return 0;
	tr_dec_regs(&th->regs, &dr);
	if (dec_accesses(in, &dr, ev.acc, DEC_MAX_MEM) != 1)
		return 0;
	/* private memory: read and written directly, never buffered */
	return perform(t, th, in, &ev, false, -1);
}
