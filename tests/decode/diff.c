/* diff.c — differential test of the decoder: every instruction of the
 * executable sections of libc, ld.so, libstdc++ and the binaries named on
 * the command line, decoded linearly by dec_decode() (Zydis) and by
 * Capstone 4.0.2 in detail mode, must agree on
 *   - validity and length;
 *   - the class, where Capstone can tell (LOCK prefix / xchg mem, fences,
 *     syscall, pause, non-temporal stores, no-data, serializing, traps,
 *     REP strings, unsupported forms: a second, independent table keyed
 *     by Capstone's instruction ids);
 *   - control flow: jcc / jmp / call / ret, direct or indirect, target;
 *   - the explicit memory operands: address expression, size, read/write;
 *     32-bit address registers (DEC_MEMF_ADDR32), the bit-offset register
 *     of bt* m, r (DEC_MEMF_BITREG);
 *   - the general-purpose registers Capstone says are written must be in
 *     regs_written (we may list more; fewer would be unsound);
 * and every decoded instruction must pass dec_check().
 * Capstone 4.0.2's known gaps are recognised by precise rules (ids, the
 * exact wrong value, our exact value) and counted by name; every other
 * disagreement fails the test (exit 1).  The allow-list is `tolerated[]`
 * below; docs/DECODER.md explains each entry.
 *
 * A linear sweep can desynchronise on data in .text: bytes both decoders
 * reject are skipped one at a time and counted.
 *
 * Then the same instructions go through a struct dcache twice (decode
 * rate of the first pass, hit rate of the second) for `make bench`.
 *
 * Environment: DECODE_DIFF_VERBOSE=1 counts unexplained findings by
 * Capstone mnemonic; DECODE_DIFF_SHOW=MNEMONIC prints every finding on
 * that mnemonic (tolerated ones included).
 */
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <capstone/capstone.h>

#include "clock.h"
#include "decode/decode.h"

#define MAX_EXAMPLES 4

static const char *const default_objects[] = {
	"/lib/x86_64-linux-gnu/libc.so.6",
	"/lib64/ld-linux-x86-64.so.2",
	"/usr/lib/x86_64-linux-gnu/libstdc++.so.6",
};

/* Disagreements that are Capstone 4.0.2's known gaps, by name.  Each is
 * matched by a precise rule (instruction ids, Capstone's exact wrong value
 * and our exact value), not by category. */
static const struct tolerance {
	const char *name;
	const char *why;
} tolerated[] = {
	{ "cs-no-implicit-stack",
	  "no implicit stack operand (push/pop/call/ret/leave/enter/pushf)" },
	{ "cs-vector-store-access",
	  "SSE/AVX/MMX stores: destination marked R or RW instead of W" },
	{ "cs-cmpxchg-no-write", "cmpxchg/8b/16b destination marked R" },
	{ "cs-setcc-no-write", "setcc m8 marked R" },
	{ "cs-movnt-no-write", "movnt* destination marked R" },
	{ "cs-store-read",
	  "x87 stores (fst/fist/fnstcw/fnstsw/...), stmxcsr, movbe m, kmov m "
	  "marked R" },
	{ "cs-shift-no-write", "rotate/shift m, 1 marked R instead of RW" },
	{ "cs-test-write", "test's first operand marked written" },
	{ "cs-cwd-writes-rax", "cwd/cdq/cqo list rax as written" },
	{ "cs-xsave-header-read",
	  "xsave* marked W; it also reads XSTATE_BV (RW)" },
	{ "cs-x87-state", "fnsave/frstor area sized 4; frstor marked W" },
	{ "cs-no-access",
	  "no R/W flag at all on some memory operands (EVEX forms, cmpsd)" },
	{ "cs-evex-vprime-index",
	  "EVEX.V' taken as the top bit of a non-VSIB index: [rdi + xmm2]" },
	{ "cs-operand-size",
	  "(u)comiss/sd m32/m64 sized 16, fxsave area 8, fnstsw m16 4, "
	  "vpmov* down-converting stores 16, MMX punpckl* m32 8, lar/lsl "
	  "m16 4, 16-bit fldenv/fnstenv 28, xsave area (ours: the XCR0 "
	  "size)" },
	{ "cs-privileged-flag",
	  "rdtscp, rdpmc, str/sgdt/sidt/sldt/smsw (UMIP-emulated), push/pop/"
	  "mov of a segment register filed as privileged; mov cr/dr and "
	  "rdmsr not" },
	{ "cs-loop-not-jump", "loop/loope/loopne not in the jump group" },
	{ "cs-maskmov-no-rdi", "maskmovdqu/maskmovq list no [rdi] operand" },
	{ "cs-0fae-prefix-misdecode",
	  "66/F2/F3 0F AE (ptwrite, incssp, umwait, tpause, ...) decoded as "
	  "xsave/mfence/... without the prefix" },
	{ "cs-null-segment-prefix",
	  "a CS/DS/ES/SS prefix (ignored in 64-bit mode) overrides fs/gs" },
	{ "cs-string-rcx", "movs/stos/... without rep list rcx as written" },
	{ "cs-vendor-encoding",
	  "ud0/ud1 without ModRM; 66-prefixed near branches as rel16 on an "
	  "Intel host (AMD behaviour), their target not cut to 16 bits "
	  "after another prefix" },
	{ "cs-lock-with-rep",
	  "LOCK lost when F2/F3 (xacquire/xrelease) is also present" },
	{ "cs-repne-string",
	  "F2 dropped on movs/stos/lods (CPUs repeat; we say REP_STRING)" },
	{ "cs-accepts-invalid",
	  "#UD encodings decoded: LOCK on a non-lockable instruction or "
	  "register destination, prefixes before VEX/EVEX, F2/F3 on MMX, mov "
	  "cs, mov cr1/cr5-7/cr9-15/dr8-15" },
	{ "cs-unknown-encoding",
	  "valid AVX-512/BMI/... encodings Capstone 4.0.2 rejects (kmovq, "
	  "vpcmpeqd k, EVEX vmovdqu64, ...)" },
};
#define NTOL (sizeof(tolerated) / sizeof(tolerated[0]))

struct section {
	int obj;
	const char *name;
	uint64_t addr; /* sh_addr */
	uint64_t base; /* synthetic address of byte 0 in the dcache pass */
	const uint8_t *bytes;
	size_t size;
};

struct finding {
	char name[48];
	uint64_t count;
	int shown;
};

struct diff {
	csh cs;
	cs_insn *ci;
	const char *const *objs;
	int nobjs;
	Elf **elf; /* per object; the sections point into their data */
	int *fd;
	struct section *sec;
	int nsec;
	uint64_t *pcs; /* synthetic pcs of the decoded instructions */
	size_t npcs, cap_pcs;
	uint64_t compared, skipped_bytes;
	uint64_t tol_count[NTOL];
	struct finding bad[64];
	int nbad;
	struct finding bymn[512]; /* unexplained, by name and mnemonic */
	int nbymn;
	bool verbose;
	const char *show; /* print every finding of this capstone mnemonic */
	uint64_t nunexplained;
	double zydis_s, capstone_s;
	/* the instruction being compared */
	const struct section *cur;
	const uint8_t *code;
	const struct dec_insn *di;
	bool cs_ok; /* d->ci describes the current instruction */
};

static int8_t cs_gpr[X86_REG_ENDING];
static bool cs_is32[X86_REG_ENDING];
static bool cs_vec[X86_REG_ENDING];

/* ------------------------------------------------------------------ */
/* Capstone side: registers and the independent class table.          */

static void cs_tables(csh cs)
{
	static const uint16_t regs[16][5] = {
		{ X86_REG_RAX, X86_REG_EAX, X86_REG_AX, X86_REG_AL, X86_REG_AH },
		{ X86_REG_RCX, X86_REG_ECX, X86_REG_CX, X86_REG_CL, X86_REG_CH },
		{ X86_REG_RDX, X86_REG_EDX, X86_REG_DX, X86_REG_DL, X86_REG_DH },
		{ X86_REG_RBX, X86_REG_EBX, X86_REG_BX, X86_REG_BL, X86_REG_BH },
		{ X86_REG_RSP, X86_REG_ESP, X86_REG_SP, X86_REG_SPL },
		{ X86_REG_RBP, X86_REG_EBP, X86_REG_BP, X86_REG_BPL },
		{ X86_REG_RSI, X86_REG_ESI, X86_REG_SI, X86_REG_SIL },
		{ X86_REG_RDI, X86_REG_EDI, X86_REG_DI, X86_REG_DIL },
		{ X86_REG_R8, X86_REG_R8D, X86_REG_R8W, X86_REG_R8B },
		{ X86_REG_R9, X86_REG_R9D, X86_REG_R9W, X86_REG_R9B },
		{ X86_REG_R10, X86_REG_R10D, X86_REG_R10W, X86_REG_R10B },
		{ X86_REG_R11, X86_REG_R11D, X86_REG_R11W, X86_REG_R11B },
		{ X86_REG_R12, X86_REG_R12D, X86_REG_R12W, X86_REG_R12B },
		{ X86_REG_R13, X86_REG_R13D, X86_REG_R13W, X86_REG_R13B },
		{ X86_REG_R14, X86_REG_R14D, X86_REG_R14W, X86_REG_R14B },
		{ X86_REG_R15, X86_REG_R15D, X86_REG_R15W, X86_REG_R15B },
	};

	for (int r = 0; r < X86_REG_ENDING; r++) {
		const char *n = cs_reg_name(cs, (unsigned)r);
		cs_gpr[r] = DEC_NOREG;
		cs_vec[r] = n && (!strncmp(n, "xmm", 3) || !strncmp(n, "ymm", 3) ||
				  !strncmp(n, "zmm", 3) || !strncmp(n, "mm", 2));
	}
	for (int i = 0; i < 16; i++) {
		for (int j = 0; j < 5 && regs[i][j]; j++)
			cs_gpr[regs[i][j]] = (int8_t)i;
		cs_is32[regs[i][1]] = true;
	}
	cs_is32[X86_REG_EIP] = true;
	cs_gpr[X86_REG_RIP] = DEC_RIP;
	cs_gpr[X86_REG_EIP] = DEC_RIP;
}

#define C(x) (uint8_t)((x) + 1) /* 0 = no row */
static const uint8_t cs_class[X86_INS_ENDING] = {
	[X86_INS_MFENCE] = C(DEC_MFENCE),
	[X86_INS_LFENCE] = C(DEC_LFENCE),
	[X86_INS_SFENCE] = C(DEC_SFENCE),
	[X86_INS_SYSCALL] = C(DEC_SYSCALL),
	[X86_INS_PAUSE] = C(DEC_PAUSE),
	[X86_INS_MOVNTI] = C(DEC_NT_STORE),
	[X86_INS_MOVNTDQ] = C(DEC_NT_STORE),
	[X86_INS_MOVNTPS] = C(DEC_NT_STORE),
	[X86_INS_MOVNTPD] = C(DEC_NT_STORE),
	[X86_INS_MOVNTQ] = C(DEC_NT_STORE),
	[X86_INS_MOVNTSD] = C(DEC_NT_STORE),
	[X86_INS_MOVNTSS] = C(DEC_NT_STORE),
	[X86_INS_VMOVNTDQ] = C(DEC_NT_STORE),
	[X86_INS_VMOVNTPS] = C(DEC_NT_STORE),
	[X86_INS_VMOVNTPD] = C(DEC_NT_STORE),
	[X86_INS_MASKMOVDQU] = C(DEC_NT_STORE),
	[X86_INS_VMASKMOVDQU] = C(DEC_NT_STORE),
	[X86_INS_MASKMOVQ] = C(DEC_NT_STORE),
	[X86_INS_LEA] = C(DEC_NO_DATA),
	[X86_INS_NOP] = C(DEC_NO_DATA),
	[X86_INS_PREFETCH] = C(DEC_NO_DATA),
	[X86_INS_PREFETCHNTA] = C(DEC_NO_DATA),
	[X86_INS_PREFETCHT0] = C(DEC_NO_DATA),
	[X86_INS_PREFETCHT1] = C(DEC_NO_DATA),
	[X86_INS_PREFETCHT2] = C(DEC_NO_DATA),
	[X86_INS_PREFETCHW] = C(DEC_NO_DATA),
	[X86_INS_CLFLUSH] = C(DEC_NO_DATA),
	[X86_INS_CLFLUSHOPT] = C(DEC_NO_DATA),
	[X86_INS_CLWB] = C(DEC_NO_DATA),
	[X86_INS_CPUID] = C(DEC_SERIALIZE),
	[X86_INS_RDTSC] = C(DEC_SERIALIZE),
	[X86_INS_RDTSCP] = C(DEC_SERIALIZE),
	[X86_INS_RDRAND] = C(DEC_SERIALIZE),
	[X86_INS_RDSEED] = C(DEC_SERIALIZE),
	[X86_INS_RDPMC] = C(DEC_SERIALIZE),
	[X86_INS_XGETBV] = C(DEC_SERIALIZE),
	[X86_INS_INT3] = C(DEC_TRAP),
	[X86_INS_INT] = C(DEC_TRAP),
	[X86_INS_INT1] = C(DEC_TRAP),
	[X86_INS_INTO] = C(DEC_TRAP),
	[X86_INS_UD0] = C(DEC_TRAP),
	[X86_INS_UD2] = C(DEC_TRAP),
	[X86_INS_UD2B] = C(DEC_TRAP),
	[X86_INS_HLT] = C(DEC_TRAP),
	[X86_INS_SYSENTER] = C(DEC_TRAP),
	[X86_INS_SYSEXIT] = C(DEC_TRAP),
	[X86_INS_SYSRET] = C(DEC_TRAP),
	[X86_INS_CLI] = C(DEC_TRAP),
	[X86_INS_GETSEC] = C(DEC_TRAP),
	[X86_INS_STI] = C(DEC_TRAP),
	[X86_INS_IN] = C(DEC_TRAP),
	[X86_INS_OUT] = C(DEC_TRAP),
	[X86_INS_INSB] = C(DEC_TRAP),
	[X86_INS_INSW] = C(DEC_TRAP),
	[X86_INS_INSD] = C(DEC_TRAP),
	[X86_INS_OUTSB] = C(DEC_TRAP),
	[X86_INS_OUTSW] = C(DEC_TRAP),
	[X86_INS_OUTSD] = C(DEC_TRAP),
	[X86_INS_MONITOR] = C(DEC_TRAP),
	[X86_INS_MWAIT] = C(DEC_TRAP),
	[X86_INS_XSAVES] = C(DEC_TRAP),
	[X86_INS_XRSTORS] = C(DEC_TRAP),
	[X86_INS_XLATB] = C(DEC_UNSUPPORTED),
	[X86_INS_XBEGIN] = C(DEC_UNSUPPORTED),
	[X86_INS_XEND] = C(DEC_UNSUPPORTED),
	[X86_INS_XABORT] = C(DEC_UNSUPPORTED),
	[X86_INS_IRET] = C(DEC_UNSUPPORTED),
	[X86_INS_IRETD] = C(DEC_UNSUPPORTED),
	[X86_INS_IRETQ] = C(DEC_UNSUPPORTED),
	[X86_INS_LFS] = C(DEC_UNSUPPORTED),
	[X86_INS_LGS] = C(DEC_UNSUPPORTED),
	[X86_INS_LSS] = C(DEC_UNSUPPORTED),
	[X86_INS_LJMP] = C(DEC_UNSUPPORTED),
	[X86_INS_LCALL] = C(DEC_UNSUPPORTED),
	[X86_INS_RETF] = C(DEC_UNSUPPORTED),
	[X86_INS_RETFQ] = C(DEC_UNSUPPORTED),
};

static bool cs_is(const cs_insn *ci, const uint16_t *ids)
{
	for (; *ids; ids++)
		if (ci->id == *ids)
			return true;
	return false;
}

static const uint16_t string_ids[] = {
	X86_INS_MOVSB, X86_INS_MOVSW, X86_INS_MOVSD, X86_INS_MOVSQ,
	X86_INS_STOSB, X86_INS_STOSW, X86_INS_STOSD, X86_INS_STOSQ,
	X86_INS_LODSB, X86_INS_LODSW, X86_INS_LODSD, X86_INS_LODSQ,
	X86_INS_SCASB, X86_INS_SCASW, X86_INS_SCASD, X86_INS_SCASQ,
	X86_INS_CMPSB, X86_INS_CMPSW, X86_INS_CMPSD, X86_INS_CMPSQ, 0
};
static const uint16_t cmpxchg_ids[] = { X86_INS_CMPXCHG, X86_INS_CMPXCHG8B,
					X86_INS_CMPXCHG16B, 0 };
static const uint16_t setcc_ids[] = {
	X86_INS_SETAE, X86_INS_SETA, X86_INS_SETBE, X86_INS_SETB,
	X86_INS_SETE, X86_INS_SETGE, X86_INS_SETG, X86_INS_SETLE,
	X86_INS_SETL, X86_INS_SETNE, X86_INS_SETNO, X86_INS_SETNP,
	X86_INS_SETNS, X86_INS_SETO, X86_INS_SETP, X86_INS_SETS, 0
};
static const uint16_t bt_ids[] = { X86_INS_BT, X86_INS_BTS, X86_INS_BTR,
				   X86_INS_BTC, 0 };
static const uint16_t xsave_ids[] = {
	X86_INS_XSAVE, X86_INS_XSAVE64, X86_INS_XSAVEC, X86_INS_XSAVEC64,
	X86_INS_XSAVEOPT, X86_INS_XSAVEOPT64, X86_INS_XRSTOR, X86_INS_XRSTOR64,
	0
};

static bool has_vec_reg(const cs_x86 *x)
{
	for (int i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_REG &&
		    cs_vec[x->operands[i].reg])
			return true;
	return false;
}

static bool has_mem(const cs_x86 *x)
{
	for (int i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_MEM)
			return true;
	return false;
}

static bool vsib(const cs_x86 *x)
{
	for (int i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_MEM &&
		    cs_vec[x->operands[i].mem.index])
			return true;
	return false;
}

static bool cs_group(const cs_insn *ci, uint8_t g)
{
	for (int i = 0; i < ci->detail->groups_count; i++)
		if (ci->detail->groups[i] == g)
			return true;
	return false;
}

/* Capstone 4.0.2 files these in its PRIVILEGE group, but they run at
 * CPL 3: rdtscp (unless CR4.TSD), push/pop/mov of a segment register,
 * str/sgdt/sidt/sldt/smsw (UMIP: the kernel emulates them), rdpmc (when
 * CR4.PCE allows; decode.c keeps it SERIALIZE). */
static bool not_privileged(const cs_insn *ci)
{
	static const uint16_t ids[] = { X86_INS_RDTSCP, X86_INS_STR,
					X86_INS_SGDT, X86_INS_SIDT,
					X86_INS_SLDT, X86_INS_SMSW,
					X86_INS_RDPMC, 0 };
	static const uint16_t seg_ids[] = { X86_INS_POP, X86_INS_PUSH,
					    X86_INS_MOV, 0 };
	const cs_x86 *x = &ci->detail->x86;

	if (cs_is(ci, ids))
		return true;
	if (!cs_is(ci, seg_ids))
		return false;
	for (int i = 0; i < x->op_count; i++) {
		x86_reg r = x->operands[i].reg;
		if (x->operands[i].type == X86_OP_REG &&
		    (r == X86_REG_FS || r == X86_REG_GS || r == X86_REG_DS ||
		     r == X86_REG_ES || r == X86_REG_SS || r == X86_REG_CS))
			return true;
	}
	return false;
}

/* ... and these are privileged but not in Capstone's group. */
static bool privileged(const cs_insn *ci)
{
	static const uint16_t ids[] = { X86_INS_RDMSR, X86_INS_LGDT,
					X86_INS_LIDT, X86_INS_LLDT,
					X86_INS_LTR, X86_INS_CLTS, 0 };
	const cs_x86 *x = &ci->detail->x86;

	if (cs_is(ci, ids))
		return true;
	if (ci->id != X86_INS_MOV)
		return false;
	for (int i = 0; i < x->op_count; i++) {
		x86_reg r = x->operands[i].reg;
		if (x->operands[i].type == X86_OP_REG &&
		    ((r >= X86_REG_CR0 && r <= X86_REG_CR15) ||
		     (r >= X86_REG_DR0 && r <= X86_REG_DR15)))
			return true;
	}
	return false;
}

/* The class Capstone's view implies, with decode.c's precedence. */
static int cs_expected_class(const cs_insn *ci, const char **gap)
{
	const cs_x86 *x = &ci->detail->x86;
	bool string = cs_is(ci, string_ids) && !has_vec_reg(x);
	bool priv = cs_group(ci, CS_GRP_PRIVILEGE);

	if ((priv && not_privileged(ci)) || (!priv && privileged(ci))) {
		*gap = "cs-privileged-flag";
		priv = !priv;
	}
	if (vsib(x) || cs_class[ci->id] == C(DEC_UNSUPPORTED) ||
	    !strncmp(ci->mnemonic, "vgather", 7) ||
	    !strncmp(ci->mnemonic, "vpgather", 8) ||
	    !strncmp(ci->mnemonic, "vscatter", 8) ||
	    !strncmp(ci->mnemonic, "vpscatter", 9) ||
	    (ci->id == X86_INS_ENTER && (x->operands[1].imm & 0x1f)))
		return DEC_UNSUPPORTED;
	if (cs_class[ci->id] == C(DEC_TRAP) || priv)
		return DEC_TRAP;
	if (x->prefix[0] == X86_PREFIX_LOCK ||
	    (ci->id == X86_INS_XCHG && has_mem(x)))
		return DEC_LOCKED_RMW;
	if (string && (x->prefix[0] == X86_PREFIX_REP ||
		       x->prefix[0] == X86_PREFIX_REPNE))
		return DEC_REP_STRING;
	return cs_class[ci->id] ? cs_class[ci->id] - 1 : DEC_PLAIN;
}

/* ------------------------------------------------------------------ */
/* Findings.                                                          */

static void example(struct diff *d, const char *name, const char *detail)
{
	char text[160];
	size_t off = (size_t)(d->code - d->cur->bytes);
	size_t n = d->cur->size - off, len = d->di ? d->di->len : 4;

	if (n > 15)
		n = 15;
	if (len > n)
		len = n;
	dec_format(d->code, n, d->cur->addr + off, text, sizeof(text));
	printf("  %-24s %s %s+%#zx: ", name, d->objs[d->cur->obj],
	       d->cur->name, off);
	for (size_t i = 0; i < len; i++)
		printf("%02x", d->code[i]);
	printf("  %s%s%s\n", text, detail ? "  -- " : "", detail ? detail : "");
}

static void count_mnemonic(struct diff *d, const char *name)
{
	char key[48];
	int i;

	snprintf(key, sizeof(key), "%s:%s", name,
		 d->cs_ok ? d->ci->mnemonic : "?");
	for (i = 0; i < d->nbymn; i++)
		if (!strcmp(d->bymn[i].name, key))
			break;
	if (i == d->nbymn) {
		if (d->nbymn == 512)
			return;
		snprintf(d->bymn[d->nbymn++].name, sizeof(key), "%s", key);
	}
	d->bymn[i].count++;
}

static void finding(struct diff *d, const char *name, const char *detail)
{
	bool shown = d->show && d->cs_ok && !strcmp(d->show, d->ci->mnemonic);
	int i;

	if (shown)
		example(d, name, detail);
	for (size_t k = 0; k < NTOL; k++)
		if (!strcmp(tolerated[k].name, name)) {
			d->tol_count[k]++;
			return;
		}
	d->nunexplained++;
	if (d->verbose)
		count_mnemonic(d, name);
	for (i = 0; i < d->nbad; i++)
		if (!strcmp(d->bad[i].name, name))
			break;
	if (i == d->nbad) {
		if (d->nbad == 64)
			return;
		snprintf(d->bad[i].name, sizeof(d->bad[i].name), "%s", name);
		d->nbad++;
	}
	d->bad[i].count++;
	if (d->bad[i].shown++ < MAX_EXAMPLES && !shown)
		example(d, name, detail);
}

/* ------------------------------------------------------------------ */
/* Comparisons.                                                       */

static void compare_class(struct diff *d, const cs_insn *ci)
{
	const struct dec_insn *di = d->di;
	const char *gap = NULL;
	int want = cs_expected_class(ci, &gap);
	char msg[96];

	if (gap)
		finding(d, gap, NULL);
	if (want == di->cls)
		return;
	if (want != DEC_LOCKED_RMW && di->cls == DEC_LOCKED_RMW) {
		bool lock = false, rep = false;
		for (int i = 0; i < ci->size && i < 4; i++) {
			lock |= ci->bytes[i] == 0xf0;
			rep |= ci->bytes[i] == 0xf2 || ci->bytes[i] == 0xf3;
		}
		if (lock && rep) {
			finding(d, "cs-lock-with-rep", NULL);
			return;
		}
	}
	if (want == DEC_PLAIN && di->cls == DEC_REP_STRING &&
	    cs_is(ci, string_ids) && ci->detail->x86.prefix[0] == 0) {
		for (int i = 0; i < ci->size && i < 4; i++)
			if (ci->bytes[i] == 0xf2) {
				finding(d, "cs-repne-string", NULL);
				return;
			}
	}
	snprintf(msg, sizeof(msg), "capstone says %s, we say %s",
		 dec_class_name(want), dec_class_name(di->cls));
	finding(d, "class", msg);
}

static const uint16_t loop_ids[] = { X86_INS_LOOP, X86_INS_LOOPE,
				     X86_INS_LOOPNE, 0 };

static void compare_flow(struct diff *d, const cs_insn *ci)
{
	const struct dec_insn *di = d->di;
	const cs_x86 *x = &ci->detail->x86;
	bool direct = x->op_count >= 1 && x->operands[0].type == X86_OP_IMM;
	int want = DEC_FLOW_NEXT;
	const char *gap;
	char msg[96];

	if (cs_expected_class(ci, &gap) == DEC_TRAP)
		want = DEC_FLOW_STOP;
	else if (cs_group(ci, CS_GRP_JUMP))
		want = ci->id == X86_INS_JMP || ci->id == X86_INS_LJMP
			       ? (direct ? DEC_FLOW_JMP : DEC_FLOW_IND_JMP)
			       : DEC_FLOW_JCC;
	else if (cs_is(ci, loop_ids) && di->flow == DEC_FLOW_JCC) {
		finding(d, "cs-loop-not-jump", NULL);
		want = DEC_FLOW_JCC;
	} else if (cs_group(ci, CS_GRP_CALL))
		want = direct ? DEC_FLOW_CALL : DEC_FLOW_IND_CALL;
	else if (cs_group(ci, CS_GRP_RET) || cs_group(ci, CS_GRP_IRET))
		want = DEC_FLOW_RET;
	else if (ci->id == X86_INS_SYSCALL)
		want = DEC_FLOW_SYSCALL;
	if (want != di->flow) {
		snprintf(msg, sizeof(msg), "capstone flow %d, ours %d", want,
			 di->flow);
		finding(d, "flow", msg);
		return;
	}
	if ((want == DEC_FLOW_JMP || want == DEC_FLOW_JCC ||
	     want == DEC_FLOW_CALL) &&
	    (uint64_t)x->operands[0].imm != di->target) {
		snprintf(msg, sizeof(msg), "target %#" PRIx64 " vs %#" PRIx64,
			 (uint64_t)x->operands[0].imm, di->target);
		finding(d, x->prefix[2] == 0x66 &&
				   ((uint64_t)x->operands[0].imm & 0xffff) ==
					   di->target
			       ? "cs-vendor-encoding"
			       : "target",
			msg);
	}
}

static int cs_seg(x86_reg r)
{
	return r == X86_REG_FS ? DEC_SEG_FS : r == X86_REG_GS ? DEC_SEG_GS
							       : DEC_SEG_NONE;
}

/* Does Capstone's operand o describe our m?  (address expression only) */
static bool same_address(const cs_insn *ci, const cs_x86_op *o,
			 const struct dec_mem *m, int slot)
{
	int base = o->mem.base ? cs_gpr[o->mem.base] : DEC_NOREG;
	int index = o->mem.index ? cs_gpr[o->mem.index] : DEC_NOREG;
	int64_t disp = o->mem.disp;

	if (ci->id == X86_INS_POP && base == DEC_RSP)
		disp += slot; /* decode.h: pop [rsp+d] is after the increment */
	if (m->flags & DEC_MEMF_ADDR32 && (uint32_t)disp == (uint32_t)m->disp)
		disp = m->disp; /* moffs32: Zydis sign-extends, Capstone not */
	return base == m->base && index == m->index &&
	       (index == DEC_NOREG || o->mem.scale == m->scale) &&
	       disp == m->disp;
}

/* In 64-bit mode CS/DS/ES/SS overrides are null prefixes (SDM vol. 1
 * 3.3.7.1); Capstone 4.0.2 lets the last segment prefix win even over an
 * fs/gs one. */
static const char *seg_gap(const cs_insn *ci, const cs_x86_op *o,
			   const struct dec_mem *m)
{
	int cs = cs_seg(o->mem.segment);

	if (cs == m->seg)
		return NULL;
	if (cs == DEC_SEG_NONE && m->seg != DEC_SEG_NONE &&
	    o->mem.segment != X86_REG_INVALID && o->mem.segment != X86_REG_FS &&
	    o->mem.segment != X86_REG_GS) {
		for (int i = 0; i < ci->size && i < 4; i++)
			if (ci->bytes[i] == (m->seg == DEC_SEG_FS ? 0x64 : 0x65))
				return "cs-null-segment-prefix";
	}
	return "mem-segment";
}

/* Capstone 4.0.2's known wrong read/write flags on memory operands: the
 * instructions, the flags Capstone gives and the right ones.  A gap
 * applies only when both sides match exactly. */
struct access_gap {
	const char *name;
	const uint16_t *ids; /* NULL: SSE/AVX/MMX store (vector register
			      * operand, memory operand first) */
	uint8_t cs, right;
};

static const uint16_t movnt_ids[] = {
	X86_INS_MOVNTI, X86_INS_MOVNTDQ, X86_INS_MOVNTPS, X86_INS_MOVNTPD,
	X86_INS_MOVNTQ, X86_INS_MOVNTSD, X86_INS_MOVNTSS, X86_INS_VMOVNTDQ,
	X86_INS_VMOVNTPS, X86_INS_VMOVNTPD, 0
};
static const uint16_t store_read_ids[] = {
	X86_INS_FST, X86_INS_FSTP, X86_INS_FIST, X86_INS_FISTP, X86_INS_FISTTP,
	X86_INS_FNSTCW, X86_INS_FNSTSW, X86_INS_FNSTENV, X86_INS_FNSAVE,
	X86_INS_FBSTP, X86_INS_STMXCSR, X86_INS_VSTMXCSR, X86_INS_MOVBE,
	X86_INS_KMOVB, X86_INS_KMOVW, X86_INS_KMOVD, X86_INS_KMOVQ, 0
};
static const uint16_t shift_ids[] = { X86_INS_ROL, X86_INS_ROR, X86_INS_RCL,
				      X86_INS_RCR, X86_INS_SHL, X86_INS_SAL,
				      X86_INS_SHR, X86_INS_SAR, 0 };
static const uint16_t test_ids[] = { X86_INS_TEST, 0 };
static const uint16_t frstor_ids[] = { X86_INS_FRSTOR, 0 };

#define R CS_AC_READ
#define W CS_AC_WRITE
static const struct access_gap access_gaps[] = {
	{ "cs-movnt-no-write", movnt_ids, R, W },
	{ "cs-vector-store-access", NULL, R, W },
	{ "cs-vector-store-access", NULL, R | W, W },
	{ "cs-cmpxchg-no-write", cmpxchg_ids, R, R | W },
	{ "cs-setcc-no-write", setcc_ids, R, W },
	{ "cs-store-read", store_read_ids, R, W },
	{ "cs-shift-no-write", shift_ids, R, R | W },
	{ "cs-test-write", test_ids, R | W, R },
	{ "cs-xsave-header-read", xsave_ids, W, R | W },
	{ "cs-x87-state", frstor_ids, W, R },
};
#undef R
#undef W

static const char *access_gap(const cs_insn *ci, int opi, uint8_t cs,
			      uint8_t ours)
{
	const cs_x86 *x = &ci->detail->x86;

	for (size_t i = 0; i < sizeof(access_gaps) / sizeof(*access_gaps);
	     i++) {
		const struct access_gap *g = &access_gaps[i];
		if (g->cs != cs || g->right != ours)
			continue;
		if (g->ids ? cs_is(ci, g->ids) : opi == 0 && has_vec_reg(x))
			return g->name;
	}
	if (cs == 0)
		return "cs-no-access";
	return NULL;
}

/* Capstone 4.0.2's known wrong operand sizes. */
static const uint16_t scalar_cmp_ids[] = { X86_INS_COMISS, X86_INS_COMISD,
					   X86_INS_UCOMISS, X86_INS_UCOMISD,
					   0 };
static const uint16_t fxsave_ids[] = { X86_INS_FXSAVE, X86_INS_FXSAVE64,
				       X86_INS_FXRSTOR, X86_INS_FXRSTOR64, 0 };

static const uint16_t fnsave_ids[] = { X86_INS_FNSAVE, X86_INS_FRSTOR, 0 };

static const char *size_gap(const cs_insn *ci, unsigned cs, unsigned ours)
{
	if ((cs_is(ci, scalar_cmp_ids) && cs == 16 &&
	     (ours == 4 || ours == 8)) ||
	    (cs_is(ci, fxsave_ids) && ours == 512) ||
	    (cs_is(ci, xsave_ids) && ours == dec_xsave_size()) ||
	    (ci->id == X86_INS_FNSTSW && cs == 4 && ours == 2) ||
	    (!strncmp(ci->mnemonic, "vpmov", 5) && cs == 16 && ours < 16) ||
	    (!strncmp(ci->mnemonic, "punpckl", 7) && cs == 8 && ours == 4) ||
	    ((ci->id == X86_INS_LSL || ci->id == X86_INS_LAR) && ours == 2) ||
	    ((ci->id == X86_INS_FLDENV || ci->id == X86_INS_FNSTENV) &&
	     cs == 28 && ours == 14))
		return "cs-operand-size";
	if (cs_is(ci, fnsave_ids) && cs == 4 && (ours == 108 || ours == 94))
		return "cs-x87-state";
	return NULL;
}

static bool cs_addr32(const cs_insn *ci, const cs_x86_op *o)
{
	x86_reg r = o->mem.base ? o->mem.base : o->mem.index;

	return r ? cs_is32[r] : ci->detail->x86.addr_size == 4;
}

/* bt/bts/btr/btc m, r: the register holding the bit offset. */
static int cs_bitreg(const cs_insn *ci, int opi)
{
	const cs_x86 *x = &ci->detail->x86;

	if (!cs_is(ci, bt_ids) || opi + 1 >= x->op_count ||
	    x->operands[opi + 1].type != X86_OP_REG)
		return DEC_NOREG;
	return cs_gpr[x->operands[opi + 1].reg];
}

static void compare_one_mem(struct diff *d, const cs_insn *ci, int opi,
			    const struct dec_mem *m)
{
	const cs_x86_op *o = &ci->detail->x86.operands[opi];
	uint8_t cs = o->access & (CS_AC_READ | CS_AC_WRITE);
	uint8_t ours = (m->rw & DEC_READ ? CS_AC_READ : 0) |
		       (m->rw & DEC_WRITE ? CS_AC_WRITE : 0);
	const char *gap;
	char msg[128];

	gap = seg_gap(ci, o, m);
	if (gap)
		finding(d, gap, "segment differs");
	if (cs_addr32(ci, o) != !!(m->flags & DEC_MEMF_ADDR32))
		finding(d, "mem-addr32", "32-bit address registers disagree");
	if (cs_bitreg(ci, opi) != (m->flags & DEC_MEMF_BITREG ? m->bitreg
							       : DEC_NOREG))
		finding(d, "mem-bitreg", "bt* bit-offset register disagrees");
	if (o->size != m->size) {
		gap = size_gap(ci, o->size, m->size);
		snprintf(msg, sizeof(msg), "size: capstone %u, ours %u",
			 o->size, m->size);
		finding(d, gap ? gap : "mem-size", msg);
	}
	if (cs != ours) {
		gap = access_gap(ci, opi, cs, ours);
		snprintf(msg, sizeof(msg), "rw: capstone %s%s, ours %s%s",
			 cs & CS_AC_READ ? "R" : "", cs & CS_AC_WRITE ? "W" : "",
			 ours & CS_AC_READ ? "R" : "",
			 ours & CS_AC_WRITE ? "W" : "");
		finding(d, gap ? gap : "mem-rw", msg);
	}
}

static const uint16_t maskmov_ids[] = { X86_INS_MASKMOVDQU,
					X86_INS_VMASKMOVDQU, X86_INS_MASKMOVQ,
					0 };

static void compare_mem(struct diff *d, const cs_insn *ci)
{
	const struct dec_insn *di = d->di;
	const cs_x86 *x = &ci->detail->x86;
	bool used[DEC_MAX_MEM] = { false };
	int slot = 8, ncs = 0;
	char msg[96];

	/* no data touched, or the instruction faults at CPL 3 */
	if (di->cls == DEC_NO_DATA || di->cls == DEC_UNSUPPORTED ||
	    di->cls == DEC_TRAP)
		return;
	for (int i = 0; i < di->nmem; i++)
		if (di->mem[i].kind == DEC_MEM_STACK) {
			used[i] = true;
			slot = (int)di->mem[i].size;
			finding(d, "cs-no-implicit-stack", NULL);
		}
	for (int opi = 0; opi < x->op_count; opi++) {
		const cs_x86_op *o = &x->operands[opi];
		int k;
		if (o->type != X86_OP_MEM)
			continue;
		ncs++;
		for (k = 0; k < di->nmem; k++)
			if (!used[k] && same_address(ci, o, &di->mem[k], slot))
				break;
		if (k == di->nmem) {
			finding(d, "mem-missing", "capstone lists an operand "
						  "we do not");
			continue;
		}
		used[k] = true;
		compare_one_mem(d, ci, opi, &di->mem[k]);
	}
	for (int k = 0; k < di->nmem; k++)
		if (!used[k] && ncs == 0 && cs_is(ci, maskmov_ids) &&
		    di->mem[k].base == DEC_RDI) {
			finding(d, "cs-maskmov-no-rdi", NULL);
		} else if (!used[k]) {
			snprintf(msg, sizeof(msg),
				 "we list kind %d size %u that capstone does "
				 "not (%d cs mem operands)",
				 di->mem[k].kind, di->mem[k].size, ncs);
			finding(d, "mem-extra", msg);
		}
}

static const uint16_t cwd_ids[] = { X86_INS_CWD, X86_INS_CDQ, X86_INS_CQO,
				    0 };

static void compare_regs(struct diff *d, const cs_insn *ci)
{
	cs_regs rd, wr;
	uint8_t nrd, nwr;
	uint32_t cs_w = 0;
	char msg[64];

	if (d->di->cls == DEC_TRAP) /* faults at CPL 3 */
		return;
	if (cs_regs_access(d->cs, ci, rd, &nrd, wr, &nwr) != CS_ERR_OK)
		return;
	for (int i = 0; i < nwr; i++) {
		int g = wr[i] < X86_REG_ENDING ? cs_gpr[wr[i]] : DEC_NOREG;
		if (g >= 0 && g < 16)
			cs_w |= 1u << g;
	}
	if (d->di->rsp_delta)
		cs_w &= ~(1u << DEC_RSP); /* implicit: rsp_delta */
	if (!(cs_w & ~d->di->regs_written))
		return;
	snprintf(msg, sizeof(msg), "capstone writes %#x, ours %#x", cs_w,
		 d->di->regs_written);
	if (ci->id == X86_INS_TEST && d->di->regs_written == 0)
		finding(d, "cs-test-write", msg);
	else if (cs_is(ci, string_ids) && !d->di->rep &&
		 (cs_w & ~d->di->regs_written) == 1u << DEC_RCX)
		finding(d, "cs-string-rcx", msg);
	else if (cs_is(ci, cwd_ids) &&
		 (cs_w & ~d->di->regs_written) == 1u << DEC_RAX)
		finding(d, "cs-cwd-writes-rax", msg);
	else
		finding(d, "regs-written", msg);
}

/* Capstone 4.0.2 ignores a 66/F2/F3 prefix on the 0F AE group (ptwrite,
 * incssp, clrssbsy, umwait, tpause, ...) and names the unprefixed
 * instruction: recognised when the class or the memory operand differs. */
static bool prefix_0fae(const struct diff *d, const cs_insn *ci)
{
	static const uint16_t ids[] = {
		X86_INS_XSAVE, X86_INS_XSAVE64, X86_INS_XRSTOR,
		X86_INS_XRSTOR64, X86_INS_XSAVEOPT, X86_INS_XSAVEOPT64,
		X86_INS_LFENCE, X86_INS_MFENCE, X86_INS_SFENCE,
		X86_INS_CLFLUSH, X86_INS_FXSAVE, X86_INS_FXRSTOR,
		X86_INS_FXSAVE64, X86_INS_FXRSTOR64, 0
	};
	const cs_x86 *x = &ci->detail->x86;
	const char *gap = NULL;
	bool prefix = false, mem_differs = false;

	if (x->opcode[0] != 0x0f || x->opcode[1] != 0xae || !cs_is(ci, ids))
		return false;
	for (int i = 0; i < ci->size && ci->bytes[i] != 0x0f; i++)
		prefix |= ci->bytes[i] == 0x66 || ci->bytes[i] == 0xf2 ||
			  ci->bytes[i] == 0xf3;
	for (int i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_MEM)
			mem_differs = d->di->nmem == 0 ||
				      d->di->mem[0].size != x->operands[i].size;
	return prefix &&
	       (cs_expected_class(ci, &gap) != d->di->cls || mem_differs);
}

/* Encodings the CPU rejects (#UD) and Zydis too, but Capstone 4.0.2
 * accepts: LOCK on an instruction or operand that cannot be locked, a
 * 66/F2/F3/F0/REX prefix before VEX or EVEX, F2/F3 on an MMX-only
 * instruction, mov to cs. */
static bool invalid_encoding(const cs_insn *ci)
{
	static const uint16_t lockable[] = {
		X86_INS_ADD, X86_INS_ADC, X86_INS_AND, X86_INS_BTC,
		X86_INS_BTR, X86_INS_BTS, X86_INS_CMPXCHG, X86_INS_CMPXCHG8B,
		X86_INS_CMPXCHG16B, X86_INS_DEC, X86_INS_INC, X86_INS_NEG,
		X86_INS_NOT, X86_INS_OR, X86_INS_SBB, X86_INS_SUB, X86_INS_XADD,
		X86_INS_XCHG, X86_INS_XOR, 0
	};
	const cs_x86 *x = &ci->detail->x86;
	bool lock = false, rep = false, other = false, mm = false, xmm = false;
	int i;

	for (i = 0; i < ci->size; i++) {
		uint8_t b = ci->bytes[i];
		if (b == 0xf0)
			lock = true;
		else if (b == 0xf2 || b == 0xf3)
			rep = true;
		else if (b == 0x66 || (b & 0xf0) == 0x40)
			other = true;
		else if (b != 0x26 && b != 0x2e && b != 0x36 && b != 0x3e &&
			 b != 0x64 && b != 0x65 && b != 0x67)
			break;
	}
	if (lock && (!cs_is(ci, lockable) || x->op_count == 0 ||
		     x->operands[0].type != X86_OP_MEM))
		return true;
	if (i < ci->size && (ci->bytes[i] == 0xc4 || ci->bytes[i] == 0xc5 ||
			     ci->bytes[i] == 0x62))
		return lock || rep || other;
	for (int k = 0; k < x->op_count; k++) {
		x86_reg r = x->operands[k].reg;
		if (x->operands[k].type != X86_OP_REG)
			continue;
		mm |= r >= X86_REG_MM0 && r <= X86_REG_MM7;
		xmm |= cs_vec[r] && !(r >= X86_REG_MM0 && r <= X86_REG_MM7);
		if (ci->id == X86_INS_MOV &&
		    (r == X86_REG_CS || r == X86_REG_CR1 ||
		     (r >= X86_REG_CR5 && r <= X86_REG_CR7) ||
		     (r >= X86_REG_CR9 && r <= X86_REG_CR15) ||
		     (r >= X86_REG_DR8 && r <= X86_REG_DR15)))
			return true; /* mov cs; reserved control/debug regs */
	}
	return rep && mm && !xmm;
}

/* Capstone 4.0.2 decodes ud0/ud1 without their ModRM byte (the AMD
 * ud0), and a 66-prefixed near branch with rel16 (AMD) whatever the host;
 * dec_decode follows the host CPU (Intel ignores the 66 there). */
static bool vendor_length(const cs_insn *ci, const struct dec_insn *di)
{
	if ((ci->id == X86_INS_UD0 || ci->id == X86_INS_UD2B) &&
	    di->cls == DEC_TRAP)
		return true;
	return ci->detail->x86.prefix[2] == 0x66 && di->len == ci->size + 2 &&
	       (di->flow == DEC_FLOW_JMP || di->flow == DEC_FLOW_JCC ||
		di->flow == DEC_FLOW_CALL);
}

static void compare(struct diff *d, const cs_insn *ci)
{
	char msg[64];

	if (ci->size != d->di->len) {
		snprintf(msg, sizeof(msg), "length capstone %u, ours %u",
			 ci->size, d->di->len);
		finding(d, vendor_length(ci, d->di) ? "cs-vendor-encoding"
						    : "length",
			msg);
		return;
	}
	if (prefix_0fae(d, ci)) {
		finding(d, "cs-0fae-prefix-misdecode", NULL);
		return;
	}
	if (vsib(&ci->detail->x86) && d->di->cls != DEC_UNSUPPORTED &&
	    ci->bytes[0] == 0x62) {
		/* Zydis decodes no VSIB operand here: Capstone misread EVEX.V'
		 * (the rest of its operand list is then unreliable) */
		finding(d, "cs-evex-vprime-index", NULL);
		compare_regs(d, ci);
		return;
	}
	compare_class(d, ci);
	compare_flow(d, ci);
	compare_mem(d, ci);
	compare_regs(d, ci);
}

/* ------------------------------------------------------------------ */
/* The sweep.                                                         */

static void add_pc(struct diff *d, uint64_t pc)
{
	if (d->npcs == d->cap_pcs) {
		d->cap_pcs = d->cap_pcs ? 2 * d->cap_pcs : 1 << 16;
		d->pcs = realloc(d->pcs, d->cap_pcs * sizeof(*d->pcs));
		if (!d->pcs) {
			perror("decode-diff");
			exit(2);
		}
	}
	d->pcs[d->npcs++] = pc;
}

static void sweep(struct diff *d, const struct section *s)
{
	size_t off = 0;
	struct dec_insn di;
	const char *why;

	d->cur = s;
	while (off < s->size) {
		const uint8_t *p = s->bytes + off;
		size_t n = s->size - off;
		uint64_t pc = s->addr + off;
		double t0 = clock_s();
		bool zok = dec_decode(p, n, pc, &di) == 0;
		double t1 = clock_s();
		const uint8_t *cp = p;
		size_t cn = n;
		uint64_t ca = pc;
		bool cok = cs_disasm_iter(d->cs, &cp, &cn, &ca, d->ci);
		d->zydis_s += t1 - t0;
		d->capstone_s += clock_s() - t1;

		d->code = p;
		d->di = zok ? &di : NULL;
		d->cs_ok = cok;
		if (!zok && !cok) {
			d->skipped_bytes++;
			off++;
			continue;
		}
		if (zok != cok) {
			finding(d, zok			       ? "cs-unknown-encoding"
				   : invalid_encoding(d->ci) ? "cs-accepts-invalid"
							     : "zydis-rejects",
				NULL);
			off += zok ? di.len : d->ci->size;
			continue;
		}
		d->compared++;
		add_pc(d, s->base + off);
		if (dec_check(&di, &why))
			finding(d, "invariant", why);
		compare(d, d->ci);
		off += di.len;
	}
}

/* ------------------------------------------------------------------ */
/* Objects.                                                           */

static int load(struct diff *d, int obj)
{
	const char *path = d->objs[obj];
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	d->fd[obj] = fd;
	if (fd < 0 || !(e = d->elf[obj] = elf_begin(fd, ELF_C_READ, NULL)) ||
	    elf_getshdrstrndx(e, &shstrndx)) {
		fprintf(stderr, "decode-diff: %s: cannot read ELF\n", path);
		return -1;
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) ||
		    !(data = elf_getdata(scn, NULL)) || !data->d_size)
			continue;
		struct section *sec =
			realloc(d->sec, (size_t)(d->nsec + 1) * sizeof(*sec));
		if (!sec)
			return -1;
		d->sec = sec;
		d->sec[d->nsec++] = (struct section){
			.obj = obj,
			.name = elf_strptr(e, shstrndx, sh.sh_name),
			.addr = sh.sh_addr,
			.base = ((uint64_t)obj + 1) << 40 | sh.sh_addr,
			.bytes = data->d_buf,
			.size = data->d_size,
		};
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* dcache pass.                                                       */

static size_t fetch(void *ctx, uint64_t pc, uint8_t *buf, size_t n)
{
	const struct diff *d = ctx;

	for (int i = 0; i < d->nsec; i++) {
		const struct section *s = &d->sec[i];
		if (pc >= s->base && pc < s->base + s->size) {
			size_t k = s->base + s->size - pc;
			k = k < n ? k : n;
			memcpy(buf, s->bytes + (pc - s->base), k);
			return k;
		}
	}
	return 0;
}

static int cache_pass(struct diff *d)
{
	struct dcache *dc = dcache_new(fetch, d);
	struct dcache_stats s1, s2;
	double t0, t1, t2;
	size_t i;

	if (!dc)
		return -1;
	t0 = clock_s();
	for (i = 0; i < d->npcs && dcache_get(dc, d->pcs[i]); i++)
		;
	t1 = clock_s();
	dcache_stats(dc, &s1);
	for (size_t j = 0; i == d->npcs && j < d->npcs; j++)
		if (!dcache_get(dc, d->pcs[j]))
			i = 0;
	t2 = clock_s();
	if (i != d->npcs) {
		dcache_free(dc);
		return -1;
	}
	dcache_stats(dc, &s2);
	printf("decode-diff: dcache pass 1: %" PRIu64 " decoded in %.3f s "
	       "(%.2f M insn/s decoding, %.2f M insn/s with lookups)\n",
	       s1.decoded, s1.decode_seconds,
	       s1.decode_seconds > 0 ? s1.decoded / s1.decode_seconds / 1e6 : 0,
	       (double)d->npcs / (t1 - t0) / 1e6);
	printf("decode-diff: dcache pass 2: hit rate %.2f%% (%" PRIu64
	       " lookups, %.1f M lookups/s)\n",
	       100.0 * (double)(s2.hits - s1.hits) /
		       (double)(s2.lookups - s1.lookups),
	       s2.lookups - s1.lookups,
	       (double)(s2.lookups - s1.lookups) / (t2 - t1) / 1e6);
	dcache_free(dc);
	return 0;
}

/* ------------------------------------------------------------------ */

static void summary(const struct diff *d, double secs)
{
	uint64_t ntol = 0;

	for (size_t i = 0; i < NTOL; i++)
		ntol += d->tol_count[i];
	printf("decode-diff: %" PRIu64 " instructions compared in %d objects, "
	       "%" PRIu64 " unexplained disagreements (%" PRIu64
	       " tolerated:",
	       d->compared, d->nobjs, d->nunexplained, ntol);
	for (size_t i = 0, n = 0; i < NTOL; i++)
		if (d->tol_count[i])
			printf("%s %s=%" PRIu64, n++ ? "," : "",
			       tolerated[i].name, d->tol_count[i]);
	printf(")\n");
	printf("decode-diff: %" PRIu64 " undecodable bytes skipped; "
	       "%.2f s total, zydis %.2f M insn/s, capstone %.2f M insn/s\n",
	       d->skipped_bytes, secs,
	       d->compared / d->zydis_s / 1e6, d->compared / d->capstone_s / 1e6);
	for (int i = 0; i < d->nbad; i++)
		printf("decode-diff: unexplained %s: %" PRIu64 "\n",
		       d->bad[i].name, d->bad[i].count);
	for (size_t i = 0; d->verbose && i < NTOL; i++)
		printf("decode-diff: tolerated %-26s %s\n", tolerated[i].name,
		       tolerated[i].why);
	for (int i = 0; i < d->nbymn; i++)
		printf("decode-diff:   %-40s %" PRIu64 "\n", d->bymn[i].name,
		       d->bymn[i].count);
}

static void cleanup(struct diff *d)
{
	for (int i = 0; i < d->nobjs; i++) {
		if (d->elf[i])
			elf_end(d->elf[i]);
		if (d->fd[i] >= 0)
			close(d->fd[i]);
	}
	free(d->elf);
	free(d->fd);
	free(d->sec);
	free(d->pcs);
	free((void *)d->objs);
	if (d->ci)
		cs_free(d->ci, 1);
	cs_close(&d->cs);
}

int main(int argc, char **argv)
{
	struct diff d = { 0 };
	const char **objs;
	double t0 = clock_s();

	d.nobjs = (int)(sizeof(default_objects) / sizeof(*default_objects)) +
		  argc - 1;
	objs = calloc((size_t)d.nobjs, sizeof(*objs));
	d.elf = calloc((size_t)d.nobjs, sizeof(*d.elf));
	d.fd = malloc((size_t)d.nobjs * sizeof(*d.fd));
	if (!objs || !d.elf || !d.fd)
		return 2;
	for (int i = 0; i < d.nobjs; i++)
		d.fd[i] = -1;
	memcpy(objs, default_objects, sizeof(default_objects));
	for (int i = 1; i < argc; i++)
		objs[i - 1 + (int)(sizeof(default_objects) / sizeof(*objs))] =
			argv[i];
	d.objs = objs;
	if (getenv("DECODE_DIFF_VERBOSE"))
		d.verbose = true;
	d.show = getenv("DECODE_DIFF_SHOW");
	if (elf_version(EV_CURRENT) == EV_NONE ||
	    cs_open(CS_ARCH_X86, CS_MODE_64, &d.cs) != CS_ERR_OK) {
		fprintf(stderr, "decode-diff: libelf/capstone init failed\n");
		return 2;
	}
	cs_option(d.cs, CS_OPT_DETAIL, CS_OPT_ON);
	d.ci = cs_malloc(d.cs);
	cs_tables(d.cs);
	for (int i = 0; i < d.nobjs; i++)
		if (load(&d, i)) {
			cleanup(&d);
			return 2;
		}
	for (int i = 0; i < d.nsec; i++)
		sweep(&d, &d.sec[i]);
	summary(&d, clock_s() - t0);
	if (cache_pass(&d)) {
		fprintf(stderr, "decode-diff: dcache pass failed\n");
		d.nunexplained++;
	}
	cleanup(&d);
	return d.nunexplained ? 1 : 0;
}
