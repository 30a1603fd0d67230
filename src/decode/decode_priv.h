/* decode_priv.h — shared by the .c files of src/decode only.
 *
 * The classification table (table.c) maps a Zydis mnemonic to the row
 * below; decode.c applies it.  Prefix- and operand-dependent classes
 * (LOCK, REP, VSIB, far branches, privileged instructions) are decided in
 * decode.c, on top of the row, in one documented order (see classify()).
 */
#ifndef X86SMC_DECODE_PRIV_H
#define X86SMC_DECODE_PRIV_H

#include <stdint.h>

/* How the "dst = src + add" copy is recognised (struct dec_copy). */
enum row_copy {
	COPY_NONE = 0,
	COPY_MOV,   /* mov r64, r64 */
	COPY_LEA,   /* lea r64, [r64 + disp] (no index, not rip) */
	COPY_ADD,   /* add r64, imm */
	COPY_SUB,   /* sub r64, imm */
	COPY_LEAVE, /* rsp = rbp + 8 */
};

/* Row flags. */
enum {
	ROW_NO_DATA = 1 << 0,    /* memory operands are addresses only */
	ROW_XSAVE = 1 << 1,      /* standard-format xsave area */
	ROW_XSAVEC = 1 << 2,     /* compacted-format xsave area */
	ROW_BT = 1 << 3,         /* bt* m, r: the register moves the access */
	ROW_XCHG = 1 << 4,       /* implicitly locked with a memory operand */
	ROW_POP = 1 << 5,        /* pop [rsp+d]: address after the increment */
	ROW_RET_IMM = 1 << 6,    /* ret imm16: rsp += imm16 after the pop */
	ROW_ENTER = 1 << 7,      /* enter imm16, 0: rsp -= imm16 after push */
	ROW_WRITES_RAX = 1 << 8, /* the kernel writes rax (syscall) */
	ROW_MASKED = 1 << 9,     /* byte-masked store: DEC_MEMF_COND */
	ROW_NO_BRANCH = 1 << 10, /* not a branch whatever Zydis' category */
};

struct dec_row {
	uint8_t cls;    /* enum dec_class (DEC_PLAIN when absent) */
	uint8_t flow;   /* enum dec_flow; DEC_FLOW_NEXT = from Zydis' category */
	uint8_t copy;   /* enum row_copy */
	uint16_t flags; /* ROW_* */
	uint8_t alu;    /* enum dec_alu_op the tracer may emulate, or 0 */
};

/* The row of a Zydis mnemonic (a zero row for unlisted mnemonics). */
const struct dec_row *dec_row_of(unsigned mnemonic);

/* xsave geometry of this machine (access.c): the extent in bytes of an
 * xsave area written or read with requested-feature bitmap req (edx:eax),
 * in standard (compact == 0) or compacted format; never above
 * dec_xsave_size(). */
uint32_t dec_xsave_extent(int compact, uint64_t req);

#endif
