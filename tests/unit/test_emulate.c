/* test_emulate.c — emu_alu() (src/tracer/emulate.h) against the CPU.
 *
 * For every operation the tracer emulates, every operand width, every
 * form (op [m], reg; op reg, [m]; op [m], imm8 and imm16/32; one-operand
 * forms; with and without LOCK), on random operands (biased towards the
 * edges: 0, 1, -1, the sign boundaries, cmpxchg's equal case) and random
 * arithmetic flags: the instruction is assembled here, decoded by
 * dec_decode() (so the decoder's struct dec_alu is tested too), executed
 * natively on a code page with every general register loaded, and the
 * registers, the 8 bytes around the operand and the flags it leaves are
 * compared with what emu_alu() computes from the same inputs.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "decode/decode.h"
#include "tracer/emulate.h"
#include "unit.h"

/* ---- running one instruction natively ---- */

/* The machine state the native run loads and stores (rsp excluded: the
 * instructions under test never name it). */
struct native_cpu {
	uint64_t gpr[16];
	uint64_t rflags;
	uint64_t code; /* the instruction, followed by a ret */
	uint64_t sp;   /* the caller's rsp */
};
__attribute__((visibility("hidden"))) struct native_cpu unit_emu_cpu;
void unit_emu_native(void);

#define LD(r, i) "mov unit_emu_cpu+" #i "(%rip), %" #r "\n\t"
#define ST(r, i) "mov %" #r ", unit_emu_cpu+" #i "(%rip)\n\t"
__asm__(".text\n\t"
	".globl unit_emu_native\n\t"
	".hidden unit_emu_native\n\t"
	".type unit_emu_native, @function\n"
	"unit_emu_native:\n\t"
	"push %rbx\n\tpush %rbp\n\tpush %r12\n\t"
	"push %r13\n\tpush %r14\n\tpush %r15\n\t"
	"mov %rsp, unit_emu_cpu+144(%rip)\n\t"
	"and $-16, %rsp\n\t"
	"pushq unit_emu_cpu+128(%rip)\n\tpopfq\n\t"
	LD(rcx, 8) LD(rdx, 16) LD(rbx, 24) LD(rbp, 40) LD(rsi, 48)
	LD(rdi, 56) LD(r8, 64) LD(r9, 72) LD(r10, 80) LD(r11, 88)
	LD(r12, 96) LD(r13, 104) LD(r14, 112) LD(r15, 120) LD(rax, 0)
	"call *unit_emu_cpu+136(%rip)\n\t"
	"pushfq\n\tpopq unit_emu_cpu+128(%rip)\n\t"
	ST(rax, 0) ST(rcx, 8) ST(rdx, 16) ST(rbx, 24) ST(rbp, 40)
	ST(rsi, 48) ST(rdi, 56) ST(r8, 64) ST(r9, 72) ST(r10, 80)
	ST(r11, 88) ST(r12, 96) ST(r13, 104) ST(r14, 112) ST(r15, 120)
	"mov unit_emu_cpu+144(%rip), %rsp\n\t"
	"pop %r15\n\tpop %r14\n\tpop %r13\n\t"
	"pop %r12\n\tpop %rbp\n\tpop %rbx\n\t"
	"ret\n\t"
	".size unit_emu_native, .-unit_emu_native\n");

static uint8_t *code_page;
static bool wx_toggle; /* no W+X mappings here: mprotect around writes */

static int init(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		wx_toggle = true;
	}
	if (p == MAP_FAILED)
		return 1;
	code_page = p;
	return 0;
}


static int clean(void)
{
	munmap(code_page, 4096);
	return 0;
}

/* ---- random operands ---- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A value of w bytes, often an edge case, in a random 64-bit register. */
static uint64_t value(unsigned w)
{
	static const uint64_t edge[] = { 0, 1, 2, 0x7f, 0x80, 0xff, 0x7fff,
					 0x8000, 0xffff, 0x7fffffff,
					 0x80000000, 0xffffffff,
					 0x7fffffffffffffff,
					 0x8000000000000000, ~0ull, 0xf, 0x10 };
	uint64_t v = rnd();

	if (rnd() % 3 == 0) {
		uint64_t e = edge[rnd() % (sizeof edge / sizeof edge[0])];
		uint64_t m = w == 8 ? ~0ull : (1ull << (8 * w)) - 1;
		v = (v & ~m) | (e & m);
	}
	return v;
}

/* ---- assembling the forms under test ---- */

enum form { F_MEM_REG, F_REG_MEM, F_MEM_IMM8, F_MEM_IMM, F_MEM };

struct opinfo {
	const char *name;
	uint8_t op;   /* enum dec_alu_op */
	int alu;      /* add..cmp: the /digit of 80/81/83 and the 00+8n row */
	bool lockable;
	uint8_t forms; /* 1 << enum form */
};

#define BIN (1 << F_MEM_REG | 1 << F_REG_MEM | 1 << F_MEM_IMM8 | 1 << F_MEM_IMM)
static const struct opinfo ops[] = {
	{ "add", DEC_ALU_ADD, 0, true, BIN },
	{ "or", DEC_ALU_OR, 1, true, BIN },
	{ "adc", DEC_ALU_ADC, 2, true, BIN },
	{ "sbb", DEC_ALU_SBB, 3, true, BIN },
	{ "and", DEC_ALU_AND, 4, true, BIN },
	{ "sub", DEC_ALU_SUB, 5, true, BIN },
	{ "xor", DEC_ALU_XOR, 6, true, BIN },
	{ "cmp", DEC_ALU_CMP, 7, false, BIN },
	{ "test", DEC_ALU_TEST, -1, false, 1 << F_MEM_REG | 1 << F_MEM_IMM },
	{ "inc", DEC_ALU_INC, -1, true, 1 << F_MEM },
	{ "dec", DEC_ALU_DEC, -1, true, 1 << F_MEM },
	{ "not", DEC_ALU_NOT, -1, true, 1 << F_MEM },
	{ "neg", DEC_ALU_NEG, -1, true, 1 << F_MEM },
	{ "xchg", DEC_ALU_XCHG, -1, false, 1 << F_MEM_REG },
	{ "xadd", DEC_ALU_XADD, -1, true, 1 << F_MEM_REG },
	{ "cmpxchg", DEC_ALU_CMPXCHG, -1, true, 1 << F_MEM_REG },
};

/* The movs (struct dec_mov): opcode, memory and register widths. */
struct movform {
	const char *name;
	uint8_t op[2];
	int nop;
	bool load, imm;
	unsigned mw, rw; /* bytes moved; the register's width */
	uint8_t ext;     /* enum dec_ext */
};

static const struct movform movs[] = {
	{ "mov [m], r8", { 0x88 }, 1, false, false, 1, 1, DEC_EXT_NONE },
	{ "mov [m], r16", { 0x89 }, 1, false, false, 2, 2, DEC_EXT_NONE },
	{ "mov [m], r32", { 0x89 }, 1, false, false, 4, 4, DEC_EXT_NONE },
	{ "mov [m], r64", { 0x89 }, 1, false, false, 8, 8, DEC_EXT_NONE },
	{ "mov r8, [m]", { 0x8a }, 1, true, false, 1, 1, DEC_EXT_NONE },
	{ "mov r16, [m]", { 0x8b }, 1, true, false, 2, 2, DEC_EXT_NONE },
	{ "mov r32, [m]", { 0x8b }, 1, true, false, 4, 4, DEC_EXT_NONE },
	{ "mov r64, [m]", { 0x8b }, 1, true, false, 8, 8, DEC_EXT_NONE },
	{ "mov [m8], imm", { 0xc6 }, 1, false, true, 1, 1, DEC_EXT_NONE },
	{ "mov [m16], imm", { 0xc7 }, 1, false, true, 2, 2, DEC_EXT_NONE },
	{ "mov [m32], imm", { 0xc7 }, 1, false, true, 4, 4, DEC_EXT_NONE },
	{ "mov [m64], imm", { 0xc7 }, 1, false, true, 8, 8, DEC_EXT_NONE },
	{ "movzx r16, [m8]", { 0x0f, 0xb6 }, 2, true, false, 1, 2, DEC_EXT_ZERO },
	{ "movzx r32, [m8]", { 0x0f, 0xb6 }, 2, true, false, 1, 4, DEC_EXT_ZERO },
	{ "movzx r64, [m8]", { 0x0f, 0xb6 }, 2, true, false, 1, 8, DEC_EXT_ZERO },
	{ "movzx r32, [m16]", { 0x0f, 0xb7 }, 2, true, false, 2, 4, DEC_EXT_ZERO },
	{ "movzx r64, [m16]", { 0x0f, 0xb7 }, 2, true, false, 2, 8, DEC_EXT_ZERO },
	{ "movsx r16, [m8]", { 0x0f, 0xbe }, 2, true, false, 1, 2, DEC_EXT_SIGN },
	{ "movsx r32, [m8]", { 0x0f, 0xbe }, 2, true, false, 1, 4, DEC_EXT_SIGN },
	{ "movsx r64, [m8]", { 0x0f, 0xbe }, 2, true, false, 1, 8, DEC_EXT_SIGN },
	{ "movsx r32, [m16]", { 0x0f, 0xbf }, 2, true, false, 2, 4, DEC_EXT_SIGN },
	{ "movsx r64, [m16]", { 0x0f, 0xbf }, 2, true, false, 2, 8, DEC_EXT_SIGN },
	{ "movsxd r64, [m32]", { 0x63 }, 1, true, false, 4, 8, DEC_EXT_SIGN },
	{ "movsxd r32, [m32]", { 0x63 }, 1, true, false, 4, 4, DEC_EXT_SIGN },
};

struct insn {
	uint8_t b[16];
	int n;
};

static void emit(struct insn *c, uint8_t byte)
{
	c->b[c->n++] = byte;
}

/* Opcode bytes and ModRM digit (or -1: the register goes there). */
static int opcode(const struct opinfo *o, enum form f, unsigned w,
		  uint8_t op[2], int *nop)
{
	bool b = w == 1;

	*nop = 1;
	switch (o->op) {
	case DEC_ALU_TEST:
		op[0] = f == F_MEM_REG ? (b ? 0x84 : 0x85) : (b ? 0xf6 : 0xf7);
		return f == F_MEM_REG ? -1 : 0;
	case DEC_ALU_INC:
	case DEC_ALU_DEC:
		op[0] = b ? 0xfe : 0xff;
		return o->op == DEC_ALU_INC ? 0 : 1;
	case DEC_ALU_NOT:
	case DEC_ALU_NEG:
		op[0] = b ? 0xf6 : 0xf7;
		return o->op == DEC_ALU_NOT ? 2 : 3;
	case DEC_ALU_XCHG:
		op[0] = b ? 0x86 : 0x87;
		return -1;
	case DEC_ALU_XADD:
	case DEC_ALU_CMPXCHG:
		op[0] = 0x0f;
		op[1] = o->op == DEC_ALU_XADD ? (b ? 0xc0 : 0xc1)
					      : (b ? 0xb0 : 0xb1);
		*nop = 2;
		return -1;
	default:
		break;
	}
	switch (f) {
	case F_MEM_REG:
		op[0] = (uint8_t)(8 * o->alu + (b ? 0 : 1));
		return -1;
	case F_REG_MEM:
		op[0] = (uint8_t)(8 * o->alu + (b ? 2 : 3));
		return -1;
	case F_MEM_IMM8:
		op[0] = b ? 0x80 : 0x83;
		return o->alu;
	default:
		op[0] = b ? 0x80 : 0x81;
		return o->alu;
	}
}

/* One case: what to assemble and with which registers. */
struct tcase {
	const struct opinfo *o;  /* an alu instruction, or */
	const struct movform *mv; /* a mov */
	enum form f;
	unsigned w;
	bool lock, hi8;
	int reg;  /* the register operand (its full register), -1 none */
	int base; /* the memory operand's base register */
	int8_t disp;
};

/* Assemble c: [lock] [66] [rex] opcode modrm [sib] disp8 [imm]. */
static void assemble(const struct tcase *c, struct insn *out, uint64_t imm)
{
	uint8_t op[2];
	int nop, digit;

	if (c->mv) { /* c->w: the operand size, the register's */
		memcpy(op, c->mv->op, 2);
		nop = c->mv->nop;
		digit = c->mv->imm ? 0 : -1;
	} else {
		digit = opcode(c->o, c->f, c->w, op, &nop);
	}
	int r = digit >= 0 ? digit : c->reg;
	uint8_t rex = 0x40;

	out->n = 0;
	if (c->lock)
		emit(out, 0xf0);
	if (c->w == 2)
		emit(out, 0x66);
	if (c->w == 8)
		rex |= 8;
	if (r >= 8)
		rex |= 4;
	if (c->base >= 8)
		rex |= 1;
	/* sil, dil, bpl need a REX prefix; ah..bh forbid one */
	if (rex != 0x40 ||
	    (c->w == 1 && digit < 0 && !c->hi8 && c->reg >= 4))
		emit(out, rex);
	for (int i = 0; i < nop; i++)
		emit(out, op[i]);
	int rf = digit >= 0 ? digit : c->hi8 ? c->reg + 4 : c->reg;
	emit(out, (uint8_t)(0x40 | (rf & 7) << 3 | (c->base & 7)));
	if ((c->base & 7) == 4)
		emit(out, 0x24); /* SIB: base only */
	emit(out, (uint8_t)c->disp);
	if (c->mv && c->mv->imm)
		for (unsigned i = 0; i < (c->w < 4 ? c->w : 4u); i++)
			emit(out, (uint8_t)(imm >> (8 * i)));
	else if (c->f == F_MEM_IMM8 || (c->f == F_MEM_IMM && c->w == 1))
		emit(out, (uint8_t)imm);
	else if (c->f == F_MEM_IMM)
		for (unsigned i = 0; i < (c->w == 2 ? 2u : 4u); i++)
			emit(out, (uint8_t)(imm >> (8 * i)));
	emit(out, 0xc3); /* ret */
}

/* A register for the operand: never rsp; for bytes, sometimes ah..bh. */
static void pick_regs(struct tcase *c)
{
	do
		c->base = (int)(rnd() % 16);
	while (c->base == DEC_RSP);
	c->hi8 = false;
	c->reg = -1;
	if (c->mv ? c->mv->imm : c->f != F_MEM_REG && c->f != F_REG_MEM)
		return;
	if (c->w == 1 && c->base < 8 && rnd() % 3 == 0) {
		c->hi8 = true;
		c->reg = (int)(rnd() % 4);
		return;
	}
	do
		c->reg = (int)(rnd() % 16);
	while (c->reg == DEC_RSP);
}

static uint64_t cell[3]; /* the memory operand is cell[1] */
static unsigned ncases, nfail;

static void report(const struct tcase *c, const struct insn *in,
		   const char *what, uint64_t want, uint64_t got)
{
	if (nfail++ >= 10)
		return;
	fprintf(stderr, "\n  %s%s w%u form %d reg %d%s base %d: %s: cpu %#llx "
			"emu %#llx; bytes",
		c->lock ? "lock " : "", c->mv ? c->mv->name : c->o->name,
		c->w, c->f, c->reg,
		c->hi8 ? "(hi8)" : "", c->base, what, (unsigned long long)want,
		(unsigned long long)got);
	for (int i = 0; i < in->n; i++)
		fprintf(stderr, " %02x", in->b[i]);
}

/* Put the instruction on the code page, ready to run. */
static void load_code(const struct insn *in)
{
	if (wx_toggle)
		mprotect(code_page, 4096, PROT_READ | PROT_WRITE);
	memcpy(code_page, in->b, (size_t)in->n);
	if (wx_toggle)
		mprotect(code_page, 4096, PROT_READ | PROT_EXEC);
}

/* Did the decoder describe c as c was assembled? */
static bool decoded_as(const struct tcase *c, const struct dec_insn *d,
		       const struct insn *in)
{
	const char *why;

	if (d->len != in->n - 1 || dec_check(d, &why) < 0)
		return false;
	if (c->mv)
		return d->mov.ok && d->mov.load == c->mv->load &&
		       d->mov.width == c->mv->mw &&
		       d->mov.reg_width == c->mv->rw &&
		       d->mov.ext == c->mv->ext && d->alu.op == DEC_ALU_NONE;
	return d->alu.op == c->o->op && d->alu.width == c->w &&
	       d->lock == (c->lock || c->o->op == DEC_ALU_XCHG);
}

static void run_case(const struct tcase *c)
{
	struct insn in;
	struct dec_insn d;
	struct emu_state s;
	unsigned mw = c->mv ? c->mv->mw : c->w; /* the memory operand's */
	uint64_t imm = value(4), mem = value(mw), regs[16];
	uint64_t m = mw == 8 ? ~0ull : (1ull << (8 * mw)) - 1;

	assemble(c, &in, imm);
	for (int i = 0; i < 16; i++)
		regs[i] = value(c->w);
	if (c->o && c->o->op == DEC_ALU_CMPXCHG && rnd() % 2)
		regs[DEC_RAX] = (regs[DEC_RAX] & ~m) | (mem & m);
	regs[c->base] = (uint64_t)&cell[1] - (uint64_t)(int64_t)c->disp;
	cell[0] = cell[2] = rnd();
	cell[1] = rnd();
	cell[1] = (cell[1] & ~m) | (mem & m);
	uint64_t before = cell[1];
	uint64_t flags = 0x202 | (rnd() & EMU_FLAGS);

	ncases++;
	if (dec_decode(in.b, (size_t)in.n - 1, 0x401000, &d) < 0 ||
	    !decoded_as(c, &d, &in)) {
		report(c, &in, "decoded as another instruction", 0, d.alu.op);
		return;
	}
	memcpy(s.gpr, regs, sizeof regs);
	s.rflags = flags;
	s.mem = before;
	int wrote = c->mv ? emu_mov(&d.mov, &s) : emu_alu(&d.alu, &s);

	load_code(&in);
	memcpy(unit_emu_cpu.gpr, regs, sizeof regs);
	unit_emu_cpu.rflags = flags;
	unit_emu_cpu.code = (uint64_t)code_page;
	unit_emu_native();

	uint64_t want_mem = wrote == 1 ? (before & ~m) | (s.mem & m) : before;
	if (wrote < 0)
		report(c, &in, "not emulated", 0, (uint64_t)wrote);
	if (cell[1] != want_mem)
		report(c, &in, "memory", cell[1], want_mem);
	if ((unit_emu_cpu.rflags & EMU_FLAGS) != (s.rflags & EMU_FLAGS))
		report(c, &in, "flags", unit_emu_cpu.rflags & EMU_FLAGS,
		       s.rflags & EMU_FLAGS);
	for (int i = 0; i < 16; i++)
		if (i != DEC_RSP && unit_emu_cpu.gpr[i] != s.gpr[i])
			report(c, &in, "register", unit_emu_cpu.gpr[i],
			       s.gpr[i]);
	/* read-only forms must say so: the tracer trusts it */
	if ((wrote == 1) != ((d.mem[0].rw & DEC_WRITE) != 0))
		report(c, &in, "write vs the decoder's rw", d.mem[0].rw,
		       (uint64_t)wrote);
}

#define RUNS 300 /* random cases per operation, form, width and lock */

/* RUNS cases of one operation, form, width and lock, if it exists. */
static void run_cases(const struct opinfo *o, enum form f, unsigned w,
		      bool lock)
{
	struct tcase c = { o, NULL, f, w, lock, false, -1, 0, 0 };

	if (!(o->forms & 1 << f) ||
	    (lock && (!o->lockable || f == F_REG_MEM)) ||
	    (f == F_MEM_IMM8 && w == 1)) /* no 83 /n with bytes */
		return;
	for (int k = 0; k < RUNS; k++) {
		pick_regs(&c);
		c.disp = (int8_t)(rnd() % 64 - 32);
		run_case(&c);
	}
}

static void test_against_cpu(void)
{
	CU_ASSERT_PTR_NOT_NULL_FATAL(code_page);
	for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
		for (int f = F_MEM_REG; f <= F_MEM; f++)
			for (unsigned w = 1; w <= 8; w *= 2) {
				run_cases(&ops[o], f, w, false);
				run_cases(&ops[o], f, w, true);
			}
	if (nfail)
		fprintf(stderr, "\n  %u of %u cases differ\n", nfail, ncases);
	CU_ASSERT_EQUAL(nfail, 0);
	CU_ASSERT(ncases > 20000);
}

static void test_movs_against_cpu(void)
{
	unsigned before = nfail;

	CU_ASSERT_PTR_NOT_NULL_FATAL(code_page);
	for (size_t i = 0; i < sizeof movs / sizeof movs[0]; i++) {
		struct tcase c = { NULL, &movs[i], F_MEM_REG, movs[i].rw,
				   false, false, -1, 0, 0 };
		for (int k = 0; k < RUNS; k++) {
			pick_regs(&c);
			c.disp = (int8_t)(rnd() % 64 - 32);
			run_case(&c);
		}
	}
	CU_ASSERT_EQUAL(nfail, before);
}

/* Flags by hand for the cases the manuals single out. */
static void test_flag_rules(void)
{
	struct dec_alu inc = { .op = DEC_ALU_INC, .width = 4, .mem_dst = true,
			       .reg = DEC_NOREG };
	struct dec_alu cx = { .op = DEC_ALU_CMPXCHG, .width = 4,
			      .mem_dst = true, .reg = DEC_RCX };
	struct emu_state s = { .rflags = 0x203, .mem = 0xffffffff };

	/* inc keeps CF (set here), wraps to 0: ZF, PF, AF */
	CU_ASSERT_EQUAL(emu_alu(&inc, &s), 1);
	CU_ASSERT_EQUAL(s.mem, 0);
	CU_ASSERT_EQUAL(s.rflags, 0x203 | 0x40 | 0x4 | 0x10);
	/* cmpxchg failing: eax = [mem], zero-extended; [mem] written back */
	memset(&s, 0, sizeof s);
	s.gpr[DEC_RAX] = 0xdeadbeef00000001ull;
	s.gpr[DEC_RCX] = 7;
	s.mem = 2;
	s.rflags = 0x202;
	CU_ASSERT_EQUAL(emu_alu(&cx, &s), 1);
	CU_ASSERT_EQUAL(s.mem, 2);
	CU_ASSERT_EQUAL(s.gpr[DEC_RAX], 2);
	CU_ASSERT(!(s.rflags & 0x40));
	/* succeeding: [mem] = ecx, rax untouched */
	s.gpr[DEC_RAX] = 0xdeadbeef00000002ull;
	CU_ASSERT_EQUAL(emu_alu(&cx, &s), 1);
	CU_ASSERT_EQUAL(s.mem, 7);
	CU_ASSERT_EQUAL(s.gpr[DEC_RAX], 0xdeadbeef00000002ull);
	CU_ASSERT(s.rflags & 0x40);
	/* not an instruction it knows */
	struct dec_alu none = { .op = DEC_ALU_NONE, .width = 4 };
	CU_ASSERT_EQUAL(emu_alu(&none, &s), -1);
}

/* What the decoder leaves to the single step: no struct dec_alu. */
static void test_not_emulated(void)
{
	static const struct {
		uint8_t b[8];
		int n;
	} cases[] = {
		{ { 0x01, 0xc8 }, 2 },             /* add eax, ecx: no memory */
		{ { 0xf7, 0x37 }, 2 },             /* div dword [rdi] */
		{ { 0xd1, 0x27 }, 2 },             /* shl dword [rdi], 1 */
		{ { 0x0f, 0xab, 0x07 }, 3 },       /* bts [rdi], eax */
		{ { 0x48, 0x0f, 0xc7, 0x0f }, 4 }, /* cmpxchg16b [rdi] */
		{ { 0x01, 0x04, 0x24 }, 3 },       /* add [rsp], eax: fine */
	};
	struct dec_insn d;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		CU_ASSERT_EQUAL_FATAL(
			dec_decode(cases[i].b, (size_t)cases[i].n, 0x1000, &d),
			0);
		CU_ASSERT_EQUAL(d.alu.op, i == 5 ? DEC_ALU_ADD : DEC_ALU_NONE);
	}
}

/* ---- register-only instructions (struct dec_local, emu_local) ---- */

/* A random GPR other than rsp (the native run does not load it). */
static int any_reg(void)
{
	int r;

	do
		r = (int)(rnd() % 16);
	while (r == DEC_RSP);
	return r;
}

/* [66] [rex] opcode... modrm(mod 11, reg, rm) for widths 1, 2, 4, 8; a
 * byte operand names al..r15b (REX always) or, with hi8, ah..bh (no
 * REX: reg and rm both below 4, +4 for the hi8 one). */
static void reg_form(struct insn *in, const uint8_t *op, int nop, unsigned w,
		     int reg, int rm, bool hi8_reg, bool hi8_rm, bool rex_ok)
{
	uint8_t rex = 0x40 | (w == 8 ? 8 : 0) | (reg >= 8 ? 4 : 0) |
		      (rm >= 8 ? 1 : 0);

	if (w == 2)
		emit(in, 0x66);
	if (!hi8_reg && !hi8_rm && rex_ok && (rex != 0x40 || w == 1))
		emit(in, rex);
	for (int i = 0; i < nop; i++)
		emit(in, op[i]);
	emit(in, (uint8_t)(0xc0 | ((hi8_reg ? reg + 4 : reg) & 7) << 3 |
			   ((hi8_rm ? rm + 4 : rm) & 7)));
}

static unsigned nlocal, nlocal_fail;

/* Decode in, run it with emu_local and natively (regs, flags); compare.
 * next: where control must go (0: fall through). */
static void local_case(const char *what, struct insn *in, uint8_t want_op)
{
	struct dec_insn d;
	struct emu_state s;
	uint64_t regs[16], flags = 0x202 | (rnd() & EMU_FLAGS);
	uint64_t pc = (uint64_t)code_page, rip = pc; /* rip-relative lea */
	int n = in->n;

	emit(in, 0xc3);
	for (int i = 0; i < 16; i++)
		regs[i] = value(1u << (rnd() % 4));
	nlocal++;
	if (dec_decode(in->b, (size_t)n, pc, &d) < 0 ||
	    d.loc.op != want_op || d.len != n) {
		if (nlocal_fail++ < 10)
			fprintf(stderr, "\n  %s: decoded as loc.op %d, len %d",
				what, d.loc.op, d.len);
		return;
	}
	memcpy(s.gpr, regs, sizeof regs);
	s.rflags = flags;
	s.mem = 0;
	if (emu_local(&d, &s, &rip) != 1 || rip != pc + (unsigned)n) {
		if (nlocal_fail++ < 10)
			fprintf(stderr, "\n  %s: not emulated", what);
		return;
	}
	load_code(in);
	memcpy(unit_emu_cpu.gpr, regs, sizeof regs);
	unit_emu_cpu.rflags = flags;
	unit_emu_cpu.code = (uint64_t)code_page;
	unit_emu_native();
	bool bad = (unit_emu_cpu.rflags & EMU_FLAGS) != (s.rflags & EMU_FLAGS);
	for (int i = 0; i < 16; i++)
		bad |= i != DEC_RSP && unit_emu_cpu.gpr[i] != s.gpr[i];
	if (bad && nlocal_fail++ < 10) {
		fprintf(stderr, "\n  %s differs; bytes", what);
		for (int i = 0; i < n; i++)
			fprintf(stderr, " %02x", in->b[i]);
	}
}

/* Two registers for a reg, rm form of width w: hi8 ones sometimes. */
static void two_regs(unsigned w, int *reg, int *rm, bool *hr, bool *hm)
{
	*hr = *hm = false;
	if (w == 1 && rnd() % 3 == 0) { /* no REX: al..bl and ah..bh */
		*reg = (int)(rnd() % 4);
		*rm = (int)(rnd() % 4);
		*hr = rnd() % 2;
		*hm = rnd() % 2;
		return;
	}
	*reg = any_reg();
	*rm = any_reg();
	if (w == 1) /* spl is rsp's: avoided by any_reg; bpl, sil, dil ok */
		return;
}

static void imm_bytes(struct insn *in, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		emit(in, (uint8_t)(v >> (8 * i)));
}

static void test_local_against_cpu(void)
{
	static const char *const alu_name[] = { "add", "or", "adc", "sbb",
						"and", "sub", "xor", "cmp" };
	CU_ASSERT_PTR_NOT_NULL_FATAL(code_page);
	for (int k = 0; k < 400; k++) {
		for (unsigned w = 1; w <= 8; w *= 2) {
			int reg, rm, a = (int)(rnd() % 8);
			bool hr, hm;
			struct insn in = { .n = 0 };
			uint8_t op[2];
			char what[64];

			/* alu r/m, r and r, r/m */
			two_regs(w, &reg, &rm, &hr, &hm);
			op[0] = (uint8_t)(8 * a + (w == 1 ? 0 : 1) +
					  (rnd() % 2 ? 2 : 0));
			reg_form(&in, op, 1, w, reg, rm, hr, hm, true);
			snprintf(what, sizeof what, "%s r%u, r", alu_name[a],
				 8 * w);
			local_case(what, &in, DEC_LOC_ALU);
			/* alu r, imm8 / imm */
			in.n = 0;
			two_regs(w, &reg, &rm, &hr, &hm);
			bool i8 = w > 1 && rnd() % 2;
			op[0] = w == 1 ? 0x80 : i8 ? 0x83 : 0x81;
			reg_form(&in, op, 1, w, a, rm, false, hm, true);
			imm_bytes(&in, value(4), w == 1 || i8 ? 1 : w == 2 ? 2 : 4);
			snprintf(what, sizeof what, "%s r%u, imm", alu_name[a],
				 8 * w);
			local_case(what, &in, DEC_LOC_ALU);
			/* test r, r; test r, imm */
			in.n = 0;
			op[0] = w == 1 ? 0x84 : 0x85;
			reg_form(&in, op, 1, w, reg, rm, hr, hm, true);
			local_case("test r, r", &in, DEC_LOC_ALU);
			in.n = 0;
			op[0] = w == 1 ? 0xf6 : 0xf7;
			reg_form(&in, op, 1, w, 0, rm, false, hm, true);
			imm_bytes(&in, value(4), w == 1 ? 1 : w == 2 ? 2 : 4);
			local_case("test r, imm", &in, DEC_LOC_ALU);
			/* inc, dec (fe/ff /0 /1), not, neg (f6/f7 /2 /3) */
			in.n = 0;
			int u = (int)(rnd() % 4);
			op[0] = u < 2 ? (w == 1 ? 0xfe : 0xff)
				      : (w == 1 ? 0xf6 : 0xf7);
			reg_form(&in, op, 1, w, u, rm, false, hm,
				 true);
			local_case("inc/dec/not/neg r", &in, DEC_LOC_ALU);
			/* mov r, r; mov r, imm */
			in.n = 0;
			op[0] = w == 1 ? 0x88 : 0x89;
			reg_form(&in, op, 1, w, reg, rm, hr, hm, true);
			local_case("mov r, r", &in, DEC_LOC_MOV);
			in.n = 0;
			op[0] = w == 1 ? 0xc6 : 0xc7;
			reg_form(&in, op, 1, w, 0, rm, false, hm, true);
			imm_bytes(&in, value(4), w == 1 ? 1 : w == 2 ? 2 : 4);
			local_case("mov r, imm", &in, DEC_LOC_MOV);
			if (w >= 2) {
				/* movzx/movsx r, r8|r16; movsxd r64, r32 */
				static const uint8_t x[][2] = {
					{ 0x0f, 0xb6 }, { 0x0f, 0xb7 },
					{ 0x0f, 0xbe }, { 0x0f, 0xbf } };
				int e = (int)(rnd() % 4);
				bool src8 = !(e & 1);
				if (!src8 && w == 2)
					e &= ~1; /* no r16 <- r16 form */
				src8 = !(e & 1);
				in.n = 0;
				bool h = src8 && rm < 4 && reg < 4 && rnd() % 3 == 0;
				reg_form(&in, x[e], 2, w, reg, rm, false, h, !h);
				local_case("movzx/movsx", &in, DEC_LOC_MOVX);
				/* cmovcc r, r */
				in.n = 0;
				uint8_t cm[2] = { 0x0f, (uint8_t)(0x40 + rnd() % 16) };
				reg_form(&in, cm, 2, w, reg, rm, false, false, true);
				local_case("cmovcc", &in, DEC_LOC_CMOV);
				/* lea r, [base + index * scale + disp8] */
				in.n = 0;
				int base = any_reg(), index = any_reg();
				uint8_t rex = 0x40 | (w == 8 ? 8 : 0) |
					      (reg >= 8 ? 4 : 0) |
					      (index >= 8 ? 2 : 0) |
					      (base >= 8 ? 1 : 0);
				if (rnd() % 3 == 0)
					emit(&in, 0x67); /* 32-bit address */
				if (w == 2)
					emit(&in, 0x66);
				if (rex != 0x40)
					emit(&in, rex);
				emit(&in, 0x8d);
				emit(&in, (uint8_t)(0x44 | (reg & 7) << 3));
				emit(&in, (uint8_t)((rnd() % 4) << 6 |
						    (index & 7) << 3 | (base & 7)));
				emit(&in, (uint8_t)rnd());
				local_case("lea", &in, DEC_LOC_LEA);
				/* lea r, [rip + disp32] */
				in.n = 0;
				if (w == 2)
					emit(&in, 0x66);
				emit(&in, (uint8_t)(0x40 | (w == 8 ? 8 : 0) |
						    (reg >= 8 ? 4 : 0)));
				emit(&in, 0x8d);
				emit(&in, (uint8_t)(0x05 | (reg & 7) << 3));
				imm_bytes(&in, value(4), 4);
				local_case("lea rip", &in, DEC_LOC_LEA);
			}
			if (w == 8) {
				in.n = 0;
				reg_form(&in, (const uint8_t[]){ 0x63 }, 1, 8, reg,
					 rm, false, false, true);
				local_case("movsxd", &in, DEC_LOC_MOVX);
				/* movabs r64, imm64 */
				in.n = 0;
				emit(&in, (uint8_t)(0x48 | (rm >= 8 ? 1 : 0)));
				emit(&in, (uint8_t)(0xb8 + (rm & 7)));
				imm_bytes(&in, value(8), 8);
				local_case("movabs", &in, DEC_LOC_MOV);
			}
			if (w >= 2) { /* cbw/cwde/cdqe, cwd/cdq/cqo */
				for (int c = 0; c < 2; c++) {
					in.n = 0;
					if (w == 2)
						emit(&in, 0x66);
					if (w == 8)
						emit(&in, 0x48);
					emit(&in, (uint8_t)(0x98 + c));
					local_case(c ? "cwd/cdq/cqo" : "cbw/cwde/cdqe",
						   &in, c ? DEC_LOC_CDQ
							  : DEC_LOC_CEXT);
				}
			}
			if (w == 1) { /* setcc r8 */
				in.n = 0;
				uint8_t sc[2] = { 0x0f, (uint8_t)(0x90 + rnd() % 16) };
				reg_form(&in, sc, 2, 1, 0, rm, false, hm, true);
				local_case("setcc", &in, DEC_LOC_SETCC);
			}
		}
	}
	if (nlocal_fail)
		fprintf(stderr, "\n  %u of %u local cases differ\n",
			nlocal_fail, nlocal);
	CU_ASSERT_EQUAL(nlocal_fail, 0);
	CU_ASSERT(nlocal > 10000);
}

/* jcc and jmp: the decoder's condition and target, emu_local's choice
 * (setcc, above, checks every condition against the CPU). */
static void test_local_branches(void)
{
	struct dec_insn d;
	struct emu_state s = { .rflags = 0x202 | 0x40 }; /* ZF */
	uint64_t rip;
	static const uint8_t je8[] = { 0x74, 0x10 }, jne32[] = { 0x0f, 0x85,
		0x00, 0x01, 0x00, 0x00 }, jmp8[] = { 0xeb, 0xfe },
		jrcxz[] = { 0xe3, 0x10 }, shl[] = { 0xd1, 0xe0 };

	CU_ASSERT_EQUAL_FATAL(dec_decode(je8, 2, 0x1000, &d), 0);
	CU_ASSERT_EQUAL(d.loc.op, DEC_LOC_JCC);
	CU_ASSERT_EQUAL(d.loc.cond, 4);
	rip = 0x1000;
	CU_ASSERT_EQUAL(emu_local(&d, &s, &rip), 1);
	CU_ASSERT_EQUAL(rip, 0x1012); /* taken */
	CU_ASSERT_EQUAL_FATAL(dec_decode(jne32, 6, 0x1000, &d), 0);
	CU_ASSERT_EQUAL(d.loc.op, DEC_LOC_JCC);
	rip = 0x1000;
	CU_ASSERT_EQUAL(emu_local(&d, &s, &rip), 1);
	CU_ASSERT_EQUAL(rip, 0x1006); /* not taken */
	CU_ASSERT_EQUAL_FATAL(dec_decode(jmp8, 2, 0x1000, &d), 0);
	CU_ASSERT_EQUAL(d.loc.op, DEC_LOC_JMP);
	rip = 0x1000;
	CU_ASSERT_EQUAL(emu_local(&d, &s, &rip), 1);
	CU_ASSERT_EQUAL(rip, 0x1000);
	/* jrcxz reads rcx, not the flags; shl's flags are partly undefined */
	CU_ASSERT_EQUAL_FATAL(dec_decode(jrcxz, 2, 0x1000, &d), 0);
	CU_ASSERT_EQUAL(d.loc.op, DEC_LOC_NONE);
	CU_ASSERT_EQUAL_FATAL(dec_decode(shl, 2, 0x1000, &d), 0);
	CU_ASSERT_EQUAL(d.loc.op, DEC_LOC_NONE);
}

/* The stack shapes the tracer runs itself, and the ones it leaves. */
static void test_local_stack_shapes(void)
{
	static const struct {
		uint8_t b[8];
		int n;
		uint8_t op;
	} cases[] = {
		{ { 0x55 }, 1, DEC_LOC_PUSH },                  /* push rbp */
		{ { 0x41, 0x57 }, 2, DEC_LOC_PUSH },            /* push r15 */
		{ { 0x6a, 0x05 }, 2, DEC_LOC_PUSH },            /* push 5 */
		{ { 0x66, 0x50 }, 2, DEC_LOC_NONE },            /* push ax */
		{ { 0x5d }, 1, DEC_LOC_POP },                   /* pop rbp */
		{ { 0x5c }, 1, DEC_LOC_NONE },                  /* pop rsp */
		{ { 0xc9 }, 1, DEC_LOC_LEAVE },                 /* leave */
		{ { 0xe8, 0, 0, 0, 0 }, 5, DEC_LOC_CALL },      /* call rel32 */
		{ { 0xc3 }, 1, DEC_LOC_RET },                   /* ret */
		{ { 0xc2, 0x08, 0x00 }, 3, DEC_LOC_NONE },      /* ret 8 */
		{ { 0xff, 0xd0 }, 2, DEC_LOC_NONE },            /* call rax */
		{ { 0xff, 0x25, 1, 0, 0, 0 }, 6, DEC_LOC_JMPM }, /* jmp [rip+1] */
		{ { 0xff, 0x15, 1, 0, 0, 0 }, 6, DEC_LOC_CALLM },/* call [rip+1] */
		{ { 0xff, 0x20 }, 2, DEC_LOC_NONE },            /* jmp [rax] */
		{ { 0x8f, 0x00 }, 2, DEC_LOC_NONE },            /* pop [rax] */
		{ { 0x48, 0x98 }, 2, DEC_LOC_CEXT },      /* cdqe */
	};
	struct dec_insn d;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		CU_ASSERT_EQUAL_FATAL(
			dec_decode(cases[i].b, (size_t)cases[i].n, 0x1000, &d),
			0);
		CU_ASSERT_EQUAL(d.loc.op, cases[i].op);
	}
}

static CU_TestInfo tests[] = {
	{ "emu_alu against the CPU", test_against_cpu },
	{ "emu_mov against the CPU", test_movs_against_cpu },
	{ "flag rules", test_flag_rules },
	{ "left to the single step", test_not_emulated },
	{ "emu_local against the CPU", test_local_against_cpu },
	{ "emu_local: branches", test_local_branches },
	{ "emu_local: stack shapes", test_local_stack_shapes },
	CU_TEST_INFO_NULL,
};

UNIT_SUITE("emulate", init, clean, tests)
