/* check.c — dec_check(): the invariants of a struct dec_insn that the
 * rest of x86smc relies on, checked one rule at a time so that a broken
 * one is named. */
#include "decode/decode.h"

#define RULE(cond, text)                                                     \
	do {                                                                 \
		if (!(cond)) {                                               \
			*why = (text);                                       \
			return -1;                                           \
		}                                                            \
	} while (0)

static bool gpr_or_none(int r)
{
	return r == DEC_NOREG || (r >= 0 && r < 16);
}

static int check_mem(const struct dec_insn *in, const struct dec_mem *m,
		     const char **why)
{
	RULE(m->seg == DEC_SEG_NONE || m->seg == DEC_SEG_FS ||
		     m->seg == DEC_SEG_GS,
	     "mem: bad segment");
	RULE(gpr_or_none(m->base) || m->base == DEC_RIP, "mem: bad base");
	RULE(gpr_or_none(m->index), "mem: bad index");
	RULE(m->scale == 1 || m->scale == 2 || m->scale == 4 || m->scale == 8,
	     "mem: bad scale");
	RULE(m->size > 0, "mem: size 0");
	RULE(m->rw && !(m->rw & ~(DEC_READ | DEC_WRITE)), "mem: bad rw");
	RULE(m->kind <= DEC_MEM_BRANCH, "mem: bad kind");
	RULE(m->kind != DEC_MEM_STACK || m->base == DEC_RSP ||
		     m->base == DEC_RBP,
	     "mem: stack slot not based on rsp/rbp");
	RULE(m->kind != DEC_MEM_STRING ||
		     (m->base == DEC_RSI || m->base == DEC_RDI),
	     "mem: string operand not based on rsi/rdi");
	RULE(m->kind != DEC_MEM_BRANCH || m->rw == DEC_READ,
	     "mem: branch pointer not a read");
	RULE(!(m->flags & DEC_MEMF_BITREG) ||
		     (m->bitreg >= 0 && m->bitreg < 16 &&
		      (m->size == 2 || m->size == 4 || m->size == 8)),
	     "mem: bad bit-offset register");
	RULE(!in->rep || m->kind == DEC_MEM_STRING || m->kind == DEC_MEM_STACK,
	     "mem: rep with a non-string operand");
	return 0;
}

static bool direct(const struct dec_insn *in)
{
	return in->flow == DEC_FLOW_JMP || in->flow == DEC_FLOW_JCC ||
	       in->flow == DEC_FLOW_CALL;
}

int dec_check(const struct dec_insn *in, const char **why)
{
	bool stack = false;

	RULE(in->len >= 1 && in->len <= 15, "length not in 1..15");
	RULE(in->cls < DEC_NCLASSES, "bad class");
	RULE(in->flow <= DEC_FLOW_STOP, "bad flow");
	RULE(in->nmem <= DEC_MAX_MEM, "too many operands");
	for (int i = 0; i < in->nmem; i++) {
		if (check_mem(in, &in->mem[i], why))
			return -1;
		stack |= in->mem[i].kind == DEC_MEM_STACK &&
			 in->mem[i].base == DEC_RSP;
	}
	if (in->cls != DEC_UNSUPPORTED) {
		RULE(in->rep == (in->cls == DEC_REP_STRING),
		     "rep without REP_STRING or back");
		RULE(in->lock == (in->cls == DEC_LOCKED_RMW),
		     "lock without LOCKED_RMW or back");
		RULE(in->cls != DEC_LOCKED_RMW || in->nmem >= 1,
		     "locked without a memory operand");
	}
	RULE(in->cls != DEC_NO_DATA || in->nmem == 0, "no-data with operands");
	/* a direct branch may go to address 0 (libFuzzer found `jmp rel32'
	 * at 0x401000 with displacement -0x401005): target 0 is then its
	 * target, not "none" */
	RULE(direct(in) || in->target == 0, "target without direct branch");
	RULE(in->rsp_delta == 0 || stack || in->cls == DEC_UNSUPPORTED,
	     "rsp_delta without a stack slot");
	RULE(!(in->regs_written >> 16), "regs_written beyond r15");
	RULE(in->copy.dst == DEC_NOREG ||
		     (in->copy.dst >= 0 && in->copy.dst < 16 &&
		      in->copy.src >= 0 && in->copy.src < 16 &&
		      (in->regs_written >> in->copy.dst & 1)),
	     "copy: bad registers or destination not written");
	if (in->alu.op != DEC_ALU_NONE) {
		const struct dec_alu *a = &in->alu;
		RULE(a->op < DEC_ALU_NOPS, "alu: bad op");
		RULE(in->cls == DEC_PLAIN || in->cls == DEC_LOCKED_RMW,
		     "alu: neither plain nor locked");
		RULE(in->nmem == 1 && in->mem[0].size == a->width &&
			     (a->width == 1 || a->width == 2 ||
			      a->width == 4 || a->width == 8),
		     "alu: not one memory operand of its width");
		RULE(!(a->imm_src && a->reg != DEC_NOREG) &&
			     gpr_or_none(a->reg) &&
			     (!a->hi8 || (a->width == 1 && a->reg < 4)),
		     "alu: bad source operand");
		RULE(a->mem_dst || (a->reg != DEC_NOREG &&
				    (in->regs_written >> a->reg & 1 ||
				     a->op == DEC_ALU_CMP)),
		     "alu: register destination not written");
	}
	*why = NULL;
	return 0;
}
