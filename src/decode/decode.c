/* decode.c — dec_decode(): one x86-64 instruction through Zydis 4
 * (ZydisDecoderDecodeFull, hidden operands included) into a struct
 * dec_insn.  The class comes from the table in table.c, refined here by
 * prefixes and operands in the order classify() documents.
 */
#include <cpuid.h>
#include <pthread.h>
#include <string.h>

#include <Zydis/Zydis.h>

#include "decode/decode.h"
#include "decode/decode_priv.h"

static ZydisDecoder zdec;
static pthread_once_t zonce = PTHREAD_ONCE_INIT;

/* Zydis register → enum dec_reg (DEC_NOREG for non-GPRs), and whether it
 * is a 32-bit address register (eax, ..., eip: 0x67 prefix). */
static int8_t gpr_of[ZYDIS_REGISTER_MAX_VALUE + 1];
static uint8_t is32[ZYDIS_REGISTER_MAX_VALUE + 1];

/* Decode what this CPU executes: AMD honours a 66 prefix on near
 * branches (rel16, ip truncated to 16 bits), Intel ignores it; MPX is off
 * in XCR0 on every Linux since 5.6 (and absent from recent CPUs), so the
 * 0F 1A/1B space runs as hint NOPs and a F2 "bnd" prefix is ignored. */
static bool cpu_is_amd(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(0, &a, &b, &c, &d))
		return false;
	return (b == 0x68747541 && d == 0x69746e65 && c == 0x444d4163) ||
	       (b == 0x6f677948 && d == 0x6e65476e && c == 0x656e6975);
}

static void zinit(void)
{
	ZydisDecoderInit(&zdec, ZYDIS_MACHINE_MODE_LONG_64,
			 ZYDIS_STACK_WIDTH_64);
	ZydisDecoderEnableMode(&zdec, ZYDIS_DECODER_MODE_MPX, ZYAN_FALSE);
	ZydisDecoderEnableMode(&zdec, ZYDIS_DECODER_MODE_AMD_BRANCHES,
			       cpu_is_amd());
	for (int r = 0; r <= ZYDIS_REGISTER_MAX_VALUE; r++) {
		ZydisRegisterClass c = ZydisRegisterGetClass(r);
		gpr_of[r] = DEC_NOREG;
		if (c == ZYDIS_REGCLASS_GPR8 || c == ZYDIS_REGCLASS_GPR16 ||
		    c == ZYDIS_REGCLASS_GPR32 || c == ZYDIS_REGCLASS_GPR64) {
			ZydisRegister big = ZydisRegisterGetLargestEnclosing(
				ZYDIS_MACHINE_MODE_LONG_64, r);
			gpr_of[r] = (int8_t)ZydisRegisterGetId(big);
		}
		is32[r] = c == ZYDIS_REGCLASS_GPR32;
	}
	gpr_of[ZYDIS_REGISTER_RIP] = DEC_RIP;
	gpr_of[ZYDIS_REGISTER_EIP] = DEC_RIP;
	is32[ZYDIS_REGISTER_EIP] = 1;
}

/* Decoding state of one instruction. */
struct build {
	const ZydisDecodedInstruction *zi;
	const ZydisDecodedOperand *ops;
	const struct dec_row *row;
	struct dec_insn *out;
	bool unsupported;     /* VSIB, MIB, too many operands, ... */
	bool direct;          /* a relative immediate (direct branch) */
	bool hidden_rsp_write;
};

static int gpr(ZydisRegister r)
{
	return r == ZYDIS_REGISTER_NONE ? DEC_NOREG : gpr_of[r];
}

static uint8_t mem_kind(const struct build *b, const ZydisDecodedOperand *op,
			int base)
{
	ZydisInstructionCategory cat = b->zi->meta.category;

	if (op->visibility == ZYDIS_OPERAND_VISIBILITY_HIDDEN) {
		if (cat == ZYDIS_CATEGORY_STRINGOP ||
		    cat == ZYDIS_CATEGORY_IOSTRINGOP)
			return DEC_MEM_STRING;
		if (base == DEC_RSP || b->zi->mnemonic == ZYDIS_MNEMONIC_LEAVE)
			return DEC_MEM_STACK;
		return DEC_MEM_EXPLICIT; /* maskmovdqu [rdi], ... */
	}
	if (cat == ZYDIS_CATEGORY_UNCOND_BR || cat == ZYDIS_CATEGORY_CALL)
		return DEC_MEM_BRANCH;
	return DEC_MEM_EXPLICIT;
}

static uint8_t mem_rw(ZydisOperandActions a, uint8_t *flags)
{
	uint8_t rw = 0;

	if (a & ZYDIS_OPERAND_ACTION_MASK_READ)
		rw |= DEC_READ;
	if (a & ZYDIS_OPERAND_ACTION_MASK_WRITE)
		rw |= DEC_WRITE;
	if (((a & ZYDIS_OPERAND_ACTION_CONDREAD) &&
	     !(a & ZYDIS_OPERAND_ACTION_READ)) ||
	    ((a & ZYDIS_OPERAND_ACTION_CONDWRITE) &&
	     !(a & ZYDIS_OPERAND_ACTION_WRITE)))
		*flags |= DEC_MEMF_COND;
	return rw;
}

static bool masked(const ZydisDecodedInstruction *zi)
{
	return zi->avx.mask.reg != ZYDIS_REGISTER_NONE &&
	       zi->avx.mask.reg != ZYDIS_REGISTER_K0;
}

/* The 32-bit address-size case: the address registers are 32 bits wide
 * (or, without registers, the instruction's address size is 32). */
static bool addr32(const ZydisDecodedInstruction *zi,
		   const ZydisDecodedOperandMem *m)
{
	if (m->base != ZYDIS_REGISTER_NONE)
		return is32[m->base];
	if (m->index != ZYDIS_REGISTER_NONE)
		return is32[m->index];
	return zi->address_width == 32;
}

/* The rules of decode.h and of the table row applied to operand i, m. */
static void normalise(const struct build *b, int i, struct dec_mem *m)
{
	const ZydisDecodedInstruction *zi = b->zi;
	uint16_t flags = b->row->flags;

	if (flags & ROW_MASKED ||
	    (masked(zi) &&
	     b->ops[i].visibility != ZYDIS_OPERAND_VISIBILITY_HIDDEN))
		m->flags |= DEC_MEMF_COND;
	/* a {k} mask over the elements of a plain vector access (not a
	 * broadcast, nor the compress/expand rows of ROW_MASKED, whose
	 * selected elements are packed) */
	if (masked(zi) && !(flags & ROW_MASKED) &&
	    b->ops[i].visibility != ZYDIS_OPERAND_VISIBILITY_HIDDEN &&
	    zi->avx.broadcast.mode == ZYDIS_BROADCAST_MODE_INVALID &&
	    b->ops[i].element_size >= 8 &&
	    b->ops[i].element_count > 1 &&
	    b->ops[i].element_count <= 64 &&
	    (uint32_t)b->ops[i].element_size / 8 *
			    b->ops[i].element_count == m->size) {
		m->flags |= DEC_MEMF_KMASK;
		m->kreg = (int8_t)(zi->avx.mask.reg - ZYDIS_REGISTER_K0);
		m->esize = (uint8_t)(b->ops[i].element_size / 8);
	}
	if (m->kind == DEC_MEM_STACK && m->base == DEC_RSP &&
	    (m->rw & DEC_WRITE))
		m->disp -= m->size; /* the slot below the current rsp */
	if ((flags & ROW_POP) && m->kind == DEC_MEM_EXPLICIT &&
	    m->base == DEC_RSP)
		m->disp += zi->operand_width / 8; /* rsp already incremented */
	if (flags & (ROW_XSAVE | ROW_XSAVEC)) {
		m->size = dec_xsave_size();
		m->flags |= flags & ROW_XSAVE ? DEC_MEMF_XSAVE : DEC_MEMF_XSAVEC;
	}
	if ((flags & ROW_BT) && i + 1 < zi->operand_count_visible &&
	    b->ops[i + 1].type == ZYDIS_OPERAND_TYPE_REGISTER) {
		m->flags |= DEC_MEMF_BITREG;
		m->bitreg = (int8_t)gpr(b->ops[i + 1].reg.value);
	}
}

/* Memory operand i of the instruction → out->mem[]. */
static void add_mem(struct build *b, int i)
{
	const ZydisDecodedOperand *op = &b->ops[i];
	struct dec_insn *out = b->out;
	struct dec_mem *m;

	if (op->mem.type == ZYDIS_MEMOP_TYPE_VSIB ||
	    op->mem.type == ZYDIS_MEMOP_TYPE_MIB) {
		b->unsupported = true;
		return;
	}
	if (op->mem.type == ZYDIS_MEMOP_TYPE_AGEN ||
	    (b->row->flags & ROW_NO_DATA))
		return;
	if (out->nmem == DEC_MAX_MEM || op->size == 0) {
		b->unsupported = true;
		return;
	}
	m = &out->mem[out->nmem++];
	m->seg = op->mem.segment == ZYDIS_REGISTER_FS	? DEC_SEG_FS
		 : op->mem.segment == ZYDIS_REGISTER_GS ? DEC_SEG_GS
							: DEC_SEG_NONE;
	m->base = (int8_t)gpr(op->mem.base);
	m->index = (int8_t)gpr(op->mem.index);
	m->scale = op->mem.scale ? op->mem.scale : 1;
	m->disp = op->mem.disp.value;
	m->size = op->size / 8;
	m->rw = mem_rw(op->actions, &m->flags);
	m->kind = mem_kind(b, op, m->base);
	if (addr32(b->zi, &op->mem))
		m->flags |= DEC_MEMF_ADDR32;
	normalise(b, i, m);
}

/* regs_read / regs_killed of a register operand (see decode.h). */
static void note_use(struct build *b, const ZydisDecodedOperand *op)
{
	int r = gpr(op->reg.value);
	ZydisOperandActions a = op->actions;

	if (r < 0 || r >= 16)
		return;
	if ((a & ZYDIS_OPERAND_ACTION_MASK_READ) ||
	    ((a & ZYDIS_OPERAND_ACTION_MASK_WRITE) &&
	     ((a & ZYDIS_OPERAND_ACTION_CONDWRITE) || op->size < 32)))
		b->out->regs_read |= 1u << r;
	else if ((a & ZYDIS_OPERAND_ACTION_WRITE) && op->size >= 32)
		b->out->regs_killed |= 1u << r;
}

static void note_reg(struct build *b, const ZydisDecodedOperand *op)
{
	int r = gpr(op->reg.value);

	note_use(b, op);

	if (!(op->actions & ZYDIS_OPERAND_ACTION_MASK_WRITE) || r < 0 ||
	    r >= 16)
		return;
	if (r == DEC_RSP && op->visibility == ZYDIS_OPERAND_VISIBILITY_HIDDEN)
		b->hidden_rsp_write = true; /* decided in finish_regs() */
	else
		b->out->regs_written |= 1u << r;
}

static void operands(struct build *b)
{
	const ZydisDecodedInstruction *zi = b->zi;

	for (int i = 0; i < zi->operand_count; i++) {
		const ZydisDecodedOperand *op = &b->ops[i];

		switch (op->type) {
		case ZYDIS_OPERAND_TYPE_REGISTER:
			note_reg(b, op);
			break;
		case ZYDIS_OPERAND_TYPE_MEMORY: {
			int base = gpr(op->mem.base), index = gpr(op->mem.index);
			if (base >= 0 && base < 16)
				b->out->regs_read |= 1u << base;
			if (index >= 0 && index < 16)
				b->out->regs_read |= 1u << index;
			add_mem(b, i);
			break;
		}
		case ZYDIS_OPERAND_TYPE_IMMEDIATE:
			if (op->imm.is_relative) {
				ZyanU64 t;
				b->direct = true;
				if (ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(
					    zi, op, b->out->pc, &t)))
					b->out->target = zi->operand_width == 16
								 ? t & 0xffff
								 : t;
			}
			break;
		default:
			break;
		}
	}
}

/* The first explicit immediate, as an unsigned value. */
static uint64_t imm(const struct build *b, int nth)
{
	for (int i = 0; i < b->zi->operand_count_visible; i++)
		if (b->ops[i].type == ZYDIS_OPERAND_TYPE_IMMEDIATE && nth-- == 0)
			return b->ops[i].imm.value.u;
	return 0;
}

/* Implicit rsp change of push/pop/call/ret/enter/pushf/popf: the stack
 * slots, ret imm16, enter's frame. */
static void stack_delta(struct build *b)
{
	struct dec_insn *out = b->out;
	int32_t d = 0;

	for (int i = 0; i < out->nmem; i++) {
		const struct dec_mem *m = &out->mem[i];
		if (m->kind == DEC_MEM_STACK && m->base == DEC_RSP)
			d += m->rw & DEC_WRITE ? -(int32_t)m->size
					       : (int32_t)m->size;
	}
	if (b->row->flags & ROW_RET_IMM)
		d += (int32_t)(imm(b, 0) & 0xffff);
	if (b->row->flags & ROW_ENTER) {
		d -= (int32_t)(imm(b, 0) & 0xffff);
		if (imm(b, 1) & 0x1f)
			b->unsupported = true; /* nested frames: not modelled */
	}
	out->rsp_delta = d;
}

/* rsp's hidden write is a "write" only when rsp_delta does not describe
 * it (leave, sysenter, ...).  String instructions advance their pointer
 * registers: Zydis 4.0 omits rsi/rdi from cmps and scas, so they are
 * added from the string operands. */
static void finish_regs(struct build *b)
{
	const struct dec_insn *out = b->out;

	for (int i = 0; i < out->nmem; i++)
		if (out->mem[i].kind == DEC_MEM_STRING)
			b->out->regs_written |= 1u << out->mem[i].base;
	if (b->hidden_rsp_write && b->out->rsp_delta == 0)
		b->out->regs_written |= 1u << DEC_RSP;
	if (b->row->flags & ROW_WRITES_RAX)
		b->out->regs_written |= 1u << DEC_RAX;
}

static bool is_gpr64(const ZydisDecodedOperand *op)
{
	return op->type == ZYDIS_OPERAND_TYPE_REGISTER &&
	       ZydisRegisterGetClass(op->reg.value) == ZYDIS_REGCLASS_GPR64;
}

static bool gpr_operand(const ZydisDecodedOperand *op)
{
	if (op->type != ZYDIS_OPERAND_TYPE_REGISTER)
		return false;
	switch (ZydisRegisterGetClass(op->reg.value)) {
	case ZYDIS_REGCLASS_GPR8:
	case ZYDIS_REGCLASS_GPR16:
	case ZYDIS_REGCLASS_GPR32:
	case ZYDIS_REGCLASS_GPR64:
		return true;
	default:
		return false;
	}
}

static bool hi8_reg(ZydisRegister r)
{
	return r == ZYDIS_REGISTER_AH || r == ZYDIS_REGISTER_CH ||
	       r == ZYDIS_REGISTER_DH || r == ZYDIS_REGISTER_BH;
}

static bool width_ok(unsigned w)
{
	return w == 1 || w == 2 || w == 4 || w == 8;
}

/* movzx, movsx, movsxd r, [mem]: fill b->out->mov. */
static void mov_extend(struct build *b, uint8_t ext)
{
	const ZydisDecodedOperand *d = &b->ops[0], *s = &b->ops[1];
	struct dec_mov *m = &b->out->mov;

	if (s->type != ZYDIS_OPERAND_TYPE_MEMORY || !gpr_operand(d))
		return;
	m->load = true;
	m->ext = ext;
	m->reg = (int8_t)gpr(d->reg.value);
	m->width = (uint8_t)b->out->mem[0].size;
	m->reg_width = (uint8_t)(d->size / 8);
	m->ok = m->reg >= DEC_RAX && m->reg <= DEC_R15 &&
		!hi8_reg(d->reg.value) && width_ok(m->width) &&
		width_ok(m->reg_width) && m->width <= m->reg_width;
}

/* Fill b->out->mov for a plain mov reg<->mem or mov mem, imm, or a
 * widening load. */
static void mov(struct build *b)
{
	const ZydisDecodedOperand *d = &b->ops[0], *s = &b->ops[1];
	struct dec_mov *m = &b->out->mov;
	const ZydisDecodedOperand *r;
	ZydisMnemonic mn = b->zi->mnemonic;

	m->reg = DEC_NOREG;
	if (b->zi->operand_count_visible != 2 || b->out->nmem != 1)
		return;
	if (mn == ZYDIS_MNEMONIC_MOVZX || mn == ZYDIS_MNEMONIC_MOVSX ||
	    mn == ZYDIS_MNEMONIC_MOVSXD) {
		mov_extend(b, mn == ZYDIS_MNEMONIC_MOVZX ? DEC_EXT_ZERO
							 : DEC_EXT_SIGN);
		return;
	}
	if (mn != ZYDIS_MNEMONIC_MOV)
		return;
	if (d->type == ZYDIS_OPERAND_TYPE_MEMORY && gpr_operand(s)) {
		r = s;
		m->load = false;
	} else if (s->type == ZYDIS_OPERAND_TYPE_MEMORY && gpr_operand(d)) {
		r = d;
		m->load = true;
	} else if (d->type == ZYDIS_OPERAND_TYPE_MEMORY &&
		   s->type == ZYDIS_OPERAND_TYPE_IMMEDIATE) {
		m->imm_src = true;
		m->imm = s->imm.value.s;
		m->width = m->reg_width = (uint8_t)(d->size / 8);
		m->ok = width_ok(m->width) && b->out->mem[0].size == m->width;
		return;
	} else {
		return;
	}
	m->reg = (int8_t)gpr(r->reg.value);
	m->width = m->reg_width = (uint8_t)(r->size / 8);
	m->hi8 = hi8_reg(r->reg.value);
	m->ok = m->reg >= DEC_RAX && m->reg <= DEC_R15 &&
		width_ok(m->width) && b->out->mem[0].size == m->width;
}

/* The register or immediate operand of an alu instruction whose other
 * operand is the memory one; false if it is neither. */
static bool alu_source(struct dec_alu *a, const ZydisDecodedOperand *op)
{
	if (op->type == ZYDIS_OPERAND_TYPE_IMMEDIATE) {
		a->imm_src = true;
		a->imm = op->imm.value.s;
		return true;
	}
	if (!gpr_operand(op) || op->size / 8 != a->width)
		return false;
	a->reg = (int8_t)gpr(op->reg.value);
	a->hi8 = hi8_reg(op->reg.value);
	return a->reg >= DEC_RAX && a->reg <= DEC_R15;
}

/* Fill b->out->alu for the shapes struct dec_alu lists. */
static void alu(struct build *b)
{
	const ZydisDecodedOperand *o = b->ops;
	const struct dec_mem *m = &b->out->mem[0];
	struct dec_alu a = { .op = b->row->alu, .reg = DEC_NOREG };
	int nvis = b->zi->operand_count_visible;
	bool unary = a.op == DEC_ALU_INC || a.op == DEC_ALU_DEC ||
		     a.op == DEC_ALU_NEG || a.op == DEC_ALU_NOT;
	bool ok;

	b->out->alu.reg = DEC_NOREG;
	if (!a.op || b->out->nmem != 1 || m->kind != DEC_MEM_EXPLICIT ||
	    !width_ok(m->size) || nvis != (unary ? 1 : 2))
		return;
	a.width = (uint8_t)m->size;
	if (o[0].type == ZYDIS_OPERAND_TYPE_MEMORY) {
		a.mem_dst = true;
		ok = unary || alu_source(&a, &o[1]);
	} else if (o[1].type == ZYDIS_OPERAND_TYPE_MEMORY &&
		   a.op != DEC_ALU_TEST && a.op != DEC_ALU_XADD &&
		   a.op != DEC_ALU_CMPXCHG) {
		/* reg, [mem]; xchg is symmetric: [mem], reg */
		a.mem_dst = a.op == DEC_ALU_XCHG;
		ok = alu_source(&a, &o[0]) && !a.imm_src;
	} else {
		ok = false;
	}
	if (ok && (a.op == DEC_ALU_XCHG || a.op == DEC_ALU_XADD ||
		   a.op == DEC_ALU_CMPXCHG))
		ok = a.reg != DEC_NOREG;
	if (ok)
		b->out->alu = a;
}

/* A GPR operand of a local instruction: its register, width, hi8. */
static bool loc_reg(const ZydisDecodedOperand *op, int8_t *reg, uint8_t *w,
		    bool *hi8)
{
	if (!gpr_operand(op))
		return false;
	*reg = (int8_t)gpr(op->reg.value);
	*w = (uint8_t)(op->size / 8);
	*hi8 = hi8_reg(op->reg.value);
	return *reg >= DEC_RAX && *reg <= DEC_R15 && width_ok(*w);
}

/* "r, r|imm" of a local instruction: the destination register, then an
 * immediate (when imm_ok) or a register of the same width; false if the
 * operands are not of that shape. */
static bool loc_operands(const ZydisDecodedOperand *o, struct dec_local *l,
			 bool imm_ok)
{
	uint8_t w;

	if (!loc_reg(&o[0], &l->dst, &l->width, &l->dst_hi8))
		return false;
	if (imm_ok && o[1].type == ZYDIS_OPERAND_TYPE_IMMEDIATE) {
		l->imm_src = true;
		l->imm = o[1].imm.value.s;
		return true;
	}
	return loc_reg(&o[1], &l->src, &w, &l->src_hi8) && w == l->width;
}

/* The condition code of jcc (70+cc, 0F 80+cc), cmovcc (0F 40+cc) and
 * setcc (0F 90+cc); -1 for other opcodes (jrcxz, loop). */
static int cond_of(const ZydisDecodedInstruction *zi, uint8_t base0f,
		   bool short_form)
{
	if (short_form && zi->opcode_map == ZYDIS_OPCODE_MAP_DEFAULT &&
	    (zi->opcode & 0xf0) == 0x70)
		return zi->opcode & 0xf;
	if (zi->opcode_map == ZYDIS_OPCODE_MAP_0F &&
	    (zi->opcode & 0xf0) == base0f)
		return zi->opcode & 0xf;
	return -1;
}

/* push r64|imm, pop r64, leave, call rel, ret: *l, or false. */
static bool stack_op(struct build *b, struct dec_local *l)
{
	const ZydisDecodedInstruction *zi = b->zi;
	const ZydisDecodedOperand *o = b->ops;
	int nvis = zi->operand_count_visible;
	uint8_t w;

	switch (zi->mnemonic) {
	case ZYDIS_MNEMONIC_PUSH:
		if (nvis != 1)
			return false;
		if (o[0].type == ZYDIS_OPERAND_TYPE_IMMEDIATE) {
			l->imm_src = true;
			l->imm = o[0].imm.value.s;
		} else if (!loc_reg(&o[0], &l->src, &w, &l->src_hi8) ||
			   w != 8) {
			return false;
		}
		l->op = DEC_LOC_PUSH;
		return true;
	case ZYDIS_MNEMONIC_POP:
		if (nvis != 1 || !loc_reg(&o[0], &l->dst, &w, &l->dst_hi8) ||
		    w != 8 || l->dst == DEC_RSP)
			return false;
		l->op = DEC_LOC_POP;
		return true;
	case ZYDIS_MNEMONIC_LEAVE:
		l->op = DEC_LOC_LEAVE;
		return true;
	case ZYDIS_MNEMONIC_CALL:
	case ZYDIS_MNEMONIC_JMP:
		if (b->out->flow == DEC_FLOW_CALL && b->out->target) {
			l->op = DEC_LOC_CALL;
			return true;
		}
		/* through a rip-relative pointer */
		if (nvis != 1 || o[0].type != ZYDIS_OPERAND_TYPE_MEMORY ||
		    o[0].mem.base != ZYDIS_REGISTER_RIP ||
		    o[0].mem.index != ZYDIS_REGISTER_NONE || o[0].size != 64 ||
		    o[0].mem.segment == ZYDIS_REGISTER_FS ||
		    o[0].mem.segment == ZYDIS_REGISTER_GS)
			return false;
		l->imm = o[0].mem.disp.value;
		l->op = zi->mnemonic == ZYDIS_MNEMONIC_CALL ? DEC_LOC_CALLM
							    : DEC_LOC_JMPM;
		return true;
	case ZYDIS_MNEMONIC_RET:
		if (nvis != 0 || b->out->flow != DEC_FLOW_RET)
			return false;
		l->op = DEC_LOC_RET;
		return true;
	default:
		return false;
	}
}

/* Fill b->out->loc for the register-only shapes struct dec_local lists. */
static void local(struct build *b)
{
	const ZydisDecodedInstruction *zi = b->zi;
	const ZydisDecodedOperand *o = b->ops;
	struct dec_insn *out = b->out;
	struct dec_local l = { .dst = DEC_NOREG, .src = DEC_NOREG,
			       .base = DEC_NOREG, .index = DEC_NOREG };
	int nvis = zi->operand_count_visible, cc;

	/* lea and nop [mem] compute an address and touch no data */
	bool nodata = out->cls == DEC_NO_DATA;

	if (!b->unsupported && !out->lock && out->cls == DEC_PLAIN &&
	    zi->operand_width == 64 && stack_op(b, &l)) {
		out->loc = l;
		return;
	}
	if (b->unsupported || out->lock || out->rep || out->rsp_delta ||
	    (!nodata && (out->cls != DEC_PLAIN || out->nmem)))
		return;
	switch (zi->mnemonic) {
	case ZYDIS_MNEMONIC_NOP:
	case ZYDIS_MNEMONIC_ENDBR64:
		l.op = DEC_LOC_NOP;
		break;
	case ZYDIS_MNEMONIC_JMP:
		if (out->flow != DEC_FLOW_JMP || !out->target)
			return;
		l.op = DEC_LOC_JMP;
		break;
	case ZYDIS_MNEMONIC_MOV:
		if (nvis != 2 || !loc_operands(o, &l, true))
			return;
		l.op = DEC_LOC_MOV;
		break;
	case ZYDIS_MNEMONIC_MOVZX:
	case ZYDIS_MNEMONIC_MOVSX:
	case ZYDIS_MNEMONIC_MOVSXD:
		if (nvis != 2 || !loc_reg(&o[0], &l.dst, &l.width, &l.dst_hi8) ||
		    !loc_reg(&o[1], &l.src, &l.swidth, &l.src_hi8) ||
		    l.swidth > l.width || l.width < 2)
			return;
		l.ext = zi->mnemonic == ZYDIS_MNEMONIC_MOVZX ? DEC_EXT_ZERO
							     : DEC_EXT_SIGN;
		l.op = DEC_LOC_MOVX;
		break;
	case ZYDIS_MNEMONIC_CBW:
	case ZYDIS_MNEMONIC_CWDE:
	case ZYDIS_MNEMONIC_CDQE:
	case ZYDIS_MNEMONIC_CWD:
	case ZYDIS_MNEMONIC_CDQ:
	case ZYDIS_MNEMONIC_CQO:
		l.width = (uint8_t)(zi->operand_width / 8);
		if (l.width < 2 || !width_ok(l.width))
			return;
		l.op = zi->mnemonic == ZYDIS_MNEMONIC_CBW ||
				       zi->mnemonic == ZYDIS_MNEMONIC_CWDE ||
				       zi->mnemonic == ZYDIS_MNEMONIC_CDQE
			       ? DEC_LOC_CEXT
			       : DEC_LOC_CDQ;
		break;
	case ZYDIS_MNEMONIC_LEA: {
		const ZydisDecodedOperandMem *m = &o[1].mem;
		if (nvis != 2 || o[1].type != ZYDIS_OPERAND_TYPE_MEMORY ||
		    !loc_reg(&o[0], &l.dst, &l.width, &l.dst_hi8) ||
		    l.width < 2 || (zi->address_width != 32 &&
				    zi->address_width != 64))
			return;
		l.base = (int8_t)gpr(m->base);
		l.index = (int8_t)gpr(m->index);
		if ((m->base != ZYDIS_REGISTER_NONE && l.base == DEC_NOREG) ||
		    (m->index != ZYDIS_REGISTER_NONE &&
		     (l.index == DEC_NOREG || l.index == DEC_RIP)))
			return;
		l.scale = m->scale ? m->scale : 1;
		l.imm = m->disp.value;
		l.awidth = (uint8_t)(zi->address_width / 8);
		l.op = DEC_LOC_LEA;
		break;
	}
	default:
		if (zi->meta.category == ZYDIS_CATEGORY_COND_BR) {
			cc = cond_of(zi, 0x80, true);
			if (cc < 0 || out->flow != DEC_FLOW_JCC || !out->target)
				return;
			l.cond = (uint8_t)cc;
			l.op = DEC_LOC_JCC;
			break;
		}
		if (zi->meta.category == ZYDIS_CATEGORY_CMOV) {
			cc = cond_of(zi, 0x40, false);
			if (cc < 0 || nvis != 2 || !loc_operands(o, &l, false) ||
			    l.width < 2)
				return;
			l.cond = (uint8_t)cc;
			l.op = DEC_LOC_CMOV;
			break;
		}
		if (zi->meta.category == ZYDIS_CATEGORY_SETCC) {
			cc = cond_of(zi, 0x90, false);
			if (cc < 0 || nvis != 1 ||
			    !loc_reg(&o[0], &l.dst, &l.width, &l.dst_hi8) ||
			    l.width != 1)
				return;
			l.cond = (uint8_t)cc;
			l.op = DEC_LOC_SETCC;
			break;
		}
		l.alu = b->row->alu;
		if (l.alu == DEC_ALU_NONE || l.alu == DEC_ALU_XCHG ||
		    l.alu == DEC_ALU_XADD || l.alu == DEC_ALU_CMPXCHG)
			return;
		bool unary = l.alu == DEC_ALU_INC || l.alu == DEC_ALU_DEC ||
			     l.alu == DEC_ALU_NEG || l.alu == DEC_ALU_NOT;
		if (unary ? nvis != 1 ||
				    !loc_reg(&o[0], &l.dst, &l.width, &l.dst_hi8)
			  : nvis != 2 || !loc_operands(o, &l, true))
			return;
		l.op = DEC_LOC_ALU;
		break;
	}
	if (nodata && l.op != DEC_LOC_NOP && l.op != DEC_LOC_LEA)
		return;
	out->loc = l;
}

static void copy(struct build *b)
{
	const ZydisDecodedOperand *d = &b->ops[0], *s = &b->ops[1];
	struct dec_copy *c = &b->out->copy;
	const ZydisDecodedOperandMem *m = &s->mem;

	switch (b->row->copy) {
	case COPY_MOV:
		if (b->zi->operand_count_visible == 2 && is_gpr64(d) &&
		    is_gpr64(s))
			*c = (struct dec_copy){ (int8_t)gpr(d->reg.value),
						(int8_t)gpr(s->reg.value), 0 };
		break;
	case COPY_LEA:
		if (is_gpr64(d) && s->type == ZYDIS_OPERAND_TYPE_MEMORY &&
		    m->index == ZYDIS_REGISTER_NONE &&
		    m->base != ZYDIS_REGISTER_NONE &&
		    ZydisRegisterGetClass(m->base) == ZYDIS_REGCLASS_GPR64)
			*c = (struct dec_copy){ (int8_t)gpr(d->reg.value),
						(int8_t)gpr(m->base),
						m->disp.value };
		break;
	case COPY_ADD:
	case COPY_SUB:
		if (b->zi->operand_count_visible == 2 && is_gpr64(d) &&
		    s->type == ZYDIS_OPERAND_TYPE_IMMEDIATE) {
			int64_t v = s->imm.value.s;
			*c = (struct dec_copy){ (int8_t)gpr(d->reg.value),
						(int8_t)gpr(d->reg.value),
						b->row->copy == COPY_ADD ? v
									 : -v };
		}
		break;
	case COPY_LEAVE:
		if (b->zi->operand_width == 64)
			*c = (struct dec_copy){ DEC_RSP, DEC_RBP, 8 };
		break;
	default:
		break;
	}
}

static uint8_t branch_flow(const struct build *b)
{
	bool direct = b->direct;

	switch (b->zi->meta.category) {
	case ZYDIS_CATEGORY_COND_BR:
		return DEC_FLOW_JCC;
	case ZYDIS_CATEGORY_UNCOND_BR:
		return direct ? DEC_FLOW_JMP : DEC_FLOW_IND_JMP;
	case ZYDIS_CATEGORY_CALL:
		return direct ? DEC_FLOW_CALL : DEC_FLOW_IND_CALL;
	case ZYDIS_CATEGORY_RET:
		return DEC_FLOW_RET;
	default:
		return DEC_FLOW_NEXT;
	}
}

/* Class and flow.  Order (first match wins): anything whose accesses
 * cannot be stated (VSIB, MIB, far branches, table rows) → UNSUPPORTED;
 * privileged instructions (they fault at CPL 3) → TRAP; LOCK prefix or
 * xchg with memory → LOCKED_RMW; string op with REP/REPE/REPNE →
 * REP_STRING; else the table row. */
static void classify(struct build *b)
{
	const ZydisDecodedInstruction *zi = b->zi;
	struct dec_insn *out = b->out;
	bool priv = zi->attributes & ZYDIS_ATTRIB_IS_PRIVILEGED;

	out->lock = (zi->attributes & ZYDIS_ATTRIB_HAS_LOCK) ||
		    ((b->row->flags & ROW_XCHG) && out->nmem > 0);
	out->rep = zi->meta.category == ZYDIS_CATEGORY_STRINGOP &&
		   (zi->attributes & (ZYDIS_ATTRIB_HAS_REP |
				      ZYDIS_ATTRIB_HAS_REPE |
				      ZYDIS_ATTRIB_HAS_REPNE));
	if (b->row->flow)
		out->flow = b->row->flow;
	else if (!(b->row->flags & ROW_NO_BRANCH))
		out->flow = branch_flow(b);
	if (zi->meta.branch_type == ZYDIS_BRANCH_TYPE_FAR)
		b->unsupported = true;
	if (b->unsupported || b->row->cls == DEC_UNSUPPORTED)
		out->cls = DEC_UNSUPPORTED;
	else if (priv) {
		out->cls = DEC_TRAP;
		out->flow = DEC_FLOW_STOP;
	} else if (out->lock)
		out->cls = DEC_LOCKED_RMW;
	else if (out->rep)
		out->cls = DEC_REP_STRING;
	else
		out->cls = b->row->cls;
	if (out->cls == DEC_UNSUPPORTED && b->unsupported)
		out->nmem = 0; /* the listed operands would be misleading */
}

int dec_decode(const uint8_t *code, size_t n, uint64_t pc,
	       struct dec_insn *out)
{
	ZydisDecodedInstruction zi;
	ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];

	pthread_once(&zonce, zinit);
	if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&zdec, code, n, &zi, ops)))
		return -1;
	memset(out, 0, sizeof(*out));
	out->pc = pc;
	out->len = zi.length;
	memcpy(out->bytes, code, zi.length <= n ? zi.length : n);
	out->mnemonic = (uint16_t)zi.mnemonic;
	out->copy = (struct dec_copy){ DEC_NOREG, DEC_NOREG, 0 };

	struct build b = { .zi = &zi, .ops = ops,
			   .row = dec_row_of(zi.mnemonic), .out = out };
	operands(&b);
	if ((zi.mnemonic == ZYDIS_MNEMONIC_XOR ||
	     zi.mnemonic == ZYDIS_MNEMONIC_SUB) &&
	    zi.operand_count_visible == 2 &&
	    ops[0].type == ZYDIS_OPERAND_TYPE_REGISTER &&
	    ops[1].type == ZYDIS_OPERAND_TYPE_REGISTER &&
	    ops[0].reg.value == ops[1].reg.value && ops[0].size >= 32) {
		/* xor eax, eax: a zero idiom reads nothing */
		int r = gpr(ops[0].reg.value);
		if (r >= 0 && r < 16) {
			out->regs_read &= ~(1u << r);
			out->regs_killed |= 1u << r;
		}
	}
	if (zi.cpu_flags) {
		const ZydisAccessedFlagsMask status =
			ZYDIS_CPUFLAG_CF | ZYDIS_CPUFLAG_PF | ZYDIS_CPUFLAG_AF |
			ZYDIS_CPUFLAG_ZF | ZYDIS_CPUFLAG_SF | ZYDIS_CPUFLAG_OF;
		const ZydisAccessedFlags *f = zi.cpu_flags;
		out->flags_read = (f->tested & status) != 0;
		out->flags_killed = ((f->modified | f->set_0 | f->set_1 |
				      f->undefined) & status) == status;
	}
	stack_delta(&b);
	finish_regs(&b);
	copy(&b);
	classify(&b);
	if (out->cls == DEC_PLAIN)
		mov(&b);
	else
		out->mov.reg = DEC_NOREG;
	if (out->cls == DEC_PLAIN || out->cls == DEC_LOCKED_RMW)
		alu(&b);
	else
		out->alu.reg = DEC_NOREG;
	local(&b);
	return 0;
}

const char *dec_class_name(enum dec_class c)
{
	static const char *const names[DEC_NCLASSES] = {
		[DEC_PLAIN] = "plain",
		[DEC_LOCKED_RMW] = "locked-rmw",
		[DEC_MFENCE] = "mfence",
		[DEC_LFENCE] = "lfence",
		[DEC_SFENCE] = "sfence",
		[DEC_SYSCALL] = "syscall",
		[DEC_PAUSE] = "pause",
		[DEC_NT_STORE] = "nt-store",
		[DEC_REP_STRING] = "rep-string",
		[DEC_NO_DATA] = "no-data",
		[DEC_SERIALIZE] = "serialize",
		[DEC_TRAP] = "trap",
		[DEC_UNSUPPORTED] = "unsupported",
	};

	return (unsigned)c < DEC_NCLASSES ? names[c] : "?";
}
