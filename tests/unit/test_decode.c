/* test_decode.c — dec_decode(), dec_accesses(), dec_format() and the
 * dcache on hand-assembled instructions: exact lengths, classes, operands
 * and concrete addresses. */
#include <cpuid.h>
#include <string.h>

#include "decode/decode.h"
#include "unit.h"

#define PC 0x401000ull
#define RSP0 0x7ffe0000ull
#define BYTES(...) ((const uint8_t[]){ __VA_ARGS__ })
#define NBYTES(...) sizeof((const uint8_t[]){ __VA_ARGS__ })
/* decode the bytes at PC into `in`, failing the test if invalid */
#define DEC(in, ...) dec_ok(&(in), BYTES(__VA_ARGS__), NBYTES(__VA_ARGS__))

static void dec_ok(struct dec_insn *in, const uint8_t *b, size_t n)
{
	const char *why;

	CU_ASSERT_EQUAL_FATAL(dec_decode(b, n, PC, in), 0);
	CU_ASSERT_EQUAL(in->len, n);
	CU_ASSERT_EQUAL(in->pc, PC);
	CU_ASSERT_EQUAL(dec_check(in, &why), 0); /* every case: invariants */
}

static struct dec_regs regs(void)
{
	struct dec_regs r;

	memset(&r, 0, sizeof(r));
	for (int i = 0; i < 16; i++)
		r.gpr[i] = 0x100000ull * (uint64_t)(i + 1);
	r.gpr[DEC_RSP] = RSP0;
	r.rip = PC;
	r.rflags = 0x202;
	r.fs_base = 0x7f0000001000ull;
	r.gs_base = 0x7f0000002000ull;
	return r;
}

static int acc(const struct dec_insn *in, const struct dec_regs *r,
	       struct dec_access *a)
{
	return dec_accesses(in, r, a, DEC_MAX_MEM);
}

#define ASSERT_ACC(a, ad, sz, rw_)                                           \
	do {                                                                 \
		CU_ASSERT_EQUAL((a).addr, (uint64_t)(ad));                   \
		CU_ASSERT_EQUAL((a).size, (uint64_t)(sz));                   \
		CU_ASSERT_EQUAL((a).rw, (rw_));                              \
	} while (0)

static void test_rip_relative(void)
{
	struct dec_insn in;
	struct dec_regs r = regs();
	struct dec_access a[DEC_MAX_MEM];

	DEC(in, 0x89, 0x05, 0xe5, 0x2e, 0x00, 0x00); /* mov [rip+0x2ee5], eax */
	CU_ASSERT_EQUAL(in.cls, DEC_PLAIN);
	CU_ASSERT_EQUAL(in.flow, DEC_FLOW_NEXT);
	CU_ASSERT_EQUAL_FATAL(in.nmem, 1);
	CU_ASSERT_EQUAL(in.mem[0].base, DEC_RIP);
	CU_ASSERT_EQUAL(in.mem[0].index, DEC_NOREG);
	CU_ASSERT_EQUAL(in.mem[0].disp, 0x2ee5);
	CU_ASSERT_EQUAL(in.mem[0].size, 4);
	CU_ASSERT_EQUAL(in.mem[0].rw, DEC_WRITE);
	CU_ASSERT_EQUAL(in.mem[0].kind, DEC_MEM_EXPLICIT);
	CU_ASSERT_EQUAL(in.regs_written, 0);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], PC + 6 + 0x2ee5, 4, DEC_WRITE);
	CU_ASSERT_EQUAL(a[0].kind, DEC_MEM_EXPLICIT);
}

static void test_push_pop(void)
{
	struct dec_insn in;
	struct dec_regs r = regs();
	struct dec_access a[DEC_MAX_MEM];

	DEC(in, 0x50); /* push rax */
	CU_ASSERT_EQUAL(in.rsp_delta, -8);
	CU_ASSERT_EQUAL(in.regs_written, 0);
	CU_ASSERT_EQUAL_FATAL(in.nmem, 1);
	CU_ASSERT_EQUAL(in.mem[0].kind, DEC_MEM_STACK);
	CU_ASSERT_EQUAL(in.mem[0].base, DEC_RSP);
	CU_ASSERT_EQUAL(in.mem[0].disp, -8);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], RSP0 - 8, 8, DEC_WRITE);

	DEC(in, 0x66, 0x50); /* push ax */
	CU_ASSERT_EQUAL(in.rsp_delta, -2);
	CU_ASSERT_EQUAL(in.mem[0].disp, -2);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], RSP0 - 2, 2, DEC_WRITE);

	DEC(in, 0x5b); /* pop rbx */
	CU_ASSERT_EQUAL(in.rsp_delta, 8);
	CU_ASSERT_EQUAL(in.regs_written, 1u << DEC_RBX);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], RSP0, 8, DEC_READ);
	CU_ASSERT_EQUAL(a[0].kind, DEC_MEM_STACK);

	DEC(in, 0x5c); /* pop rsp: the loaded value wins over rsp_delta */
	CU_ASSERT_EQUAL(in.rsp_delta, 8);
	CU_ASSERT_EQUAL(in.regs_written, 1u << DEC_RSP);

	DEC(in, 0x9c); /* pushfq */
	CU_ASSERT_EQUAL(in.rsp_delta, -8);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], RSP0 - 8, 8, DEC_WRITE);
}

static void test_push_pop_mem(void)
{
	struct dec_insn in;
	struct dec_regs r = regs();
	struct dec_access a[DEC_MAX_MEM];

	DEC(in, 0xff, 0x77, 0x08); /* push qword [rdi+8] */
	CU_ASSERT_EQUAL(in.rsp_delta, -8);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 2);
	ASSERT_ACC(a[0], r.gpr[DEC_RDI] + 8, 8, DEC_READ);
	CU_ASSERT_EQUAL(a[0].kind, DEC_MEM_EXPLICIT);
	ASSERT_ACC(a[1], RSP0 - 8, 8, DEC_WRITE);
	CU_ASSERT_EQUAL(a[1].kind, DEC_MEM_STACK);

	DEC(in, 0xff, 0x74, 0x24, 0x08); /* push qword [rsp+8]: old rsp */
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 2);
	ASSERT_ACC(a[0], RSP0 + 8, 8, DEC_READ);
	ASSERT_ACC(a[1], RSP0 - 8, 8, DEC_WRITE);

	DEC(in, 0x8f, 0x44, 0x24, 0x08); /* pop qword [rsp+8]: new rsp */
	CU_ASSERT_EQUAL(in.rsp_delta, 8);
	CU_ASSERT_EQUAL(in.regs_written, 0);
	CU_ASSERT_EQUAL_FATAL(in.nmem, 2);
	CU_ASSERT_EQUAL(in.mem[0].disp, 16);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 2);
	ASSERT_ACC(a[0], RSP0 + 16, 8, DEC_WRITE);
	CU_ASSERT_EQUAL(a[0].kind, DEC_MEM_EXPLICIT);
	ASSERT_ACC(a[1], RSP0, 8, DEC_READ);
	CU_ASSERT_EQUAL(a[1].kind, DEC_MEM_STACK);

	DEC(in, 0x8f, 0x00); /* pop qword [rax] */
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 2);
	ASSERT_ACC(a[0], r.gpr[DEC_RAX], 8, DEC_WRITE);
	ASSERT_ACC(a[1], RSP0, 8, DEC_READ);
}

static void test_call_ret(void)
{
	struct dec_insn in;
	struct dec_regs r = regs();
	struct dec_access a[DEC_MAX_MEM];

	DEC(in, 0xe8, 0x10, 0x00, 0x00, 0x00); /* call +0x10 */
	CU_ASSERT_EQUAL(in.flow, DEC_FLOW_CALL);
	CU_ASSERT_EQUAL(in.target, PC + 5 + 0x10);
	CU_ASSERT_EQUAL(in.rsp_delta, -8);
	CU_ASSERT_EQUAL(in.regs_written, 0);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], RSP0 - 8, 8, DEC_WRITE);
	CU_ASSERT_EQUAL(a[0].kind, DEC_MEM_STACK);

	DEC(in, 0xff, 0x10); /* call [rax] */
	CU_ASSERT_EQUAL(in.flow, DEC_FLOW_IND_CALL);
	CU_ASSERT_EQUAL(in.target, 0);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 2);
	ASSERT_ACC(a[0], r.gpr[DEC_RAX], 8, DEC_READ);
	CU_ASSERT_EQUAL(a[0].kind, DEC_MEM_BRANCH);
	ASSERT_ACC(a[1], RSP0 - 8, 8, DEC_WRITE);

	DEC(in, 0xc3); /* ret */
	CU_ASSERT_EQUAL(in.flow, DEC_FLOW_RET);
	CU_ASSERT_EQUAL(in.rsp_delta, 8);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], RSP0, 8, DEC_READ);
	CU_ASSERT_EQUAL(a[0].kind, DEC_MEM_STACK);

	DEC(in, 0xc2, 0x10, 0x00); /* ret 0x10 */
	CU_ASSERT_EQUAL(in.flow, DEC_FLOW_RET);
	CU_ASSERT_EQUAL(in.rsp_delta, 24);

	DEC(in, 0xf2, 0xc3); /* bnd ret */
	CU_ASSERT_EQUAL(in.flow, DEC_FLOW_RET);
	CU_ASSERT_EQUAL(in.rep, false);
}

static void test_branches(void)
{
	struct dec_insn in;
	struct dec_regs r = regs();
	struct dec_access a[DEC_MAX_MEM];

	DEC(in, 0x74, 0x10); /* je +0x10 */
	CU_ASSERT_EQUAL(in.flow, DEC_FLOW_JCC);
	CU_ASSERT_EQUAL(in.target, PC + 2 + 0x10);
	CU_ASSERT_EQUAL(in.nmem, 0);

	DEC(in, 0x0f, 0x85, 0x00, 0xff, 0xff, 0xff); /* jne -0x100 */
	CU_ASSERT_EQUAL(in.flow, DEC_FLOW_JCC);
	CU_ASSERT_EQUAL(in.target, PC + 6 - 0x100);

	DEC(in, 0xe9, 0x00, 0x01, 0x00, 0x00); /* jmp +0x100 */
	CU_ASSERT_EQUAL(in.flow, DEC_FLOW_JMP);
	CU_ASSERT_EQUAL(in.target, PC + 5 + 0x100);

	DEC(in, 0xe2, 0xfe); /* loop . */
	CU_ASSERT_EQUAL(in.flow, DEC_FLOW_JCC);
	CU_ASSERT_EQUAL(in.target, PC);
	CU_ASSERT_EQUAL(in.regs_written, 1u << DEC_RCX);

	DEC(in, 0xff, 0xe0); /* jmp rax */
	CU_ASSERT_EQUAL(in.flow, DEC_FLOW_IND_JMP);
	CU_ASSERT_EQUAL(in.nmem, 0);

	DEC(in, 0xff, 0x25, 0x00, 0x01, 0x00, 0x00); /* jmp [rip+0x100] */
	CU_ASSERT_EQUAL(in.flow, DEC_FLOW_IND_JMP);
	CU_ASSERT_EQUAL_FATAL(in.nmem, 1);
	CU_ASSERT_EQUAL(in.mem[0].kind, DEC_MEM_BRANCH);
	CU_ASSERT_EQUAL(in.mem[0].base, DEC_RIP);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], PC + 6 + 0x100, 8, DEC_READ);

	DEC(in, 0x3e, 0xff, 0xe0); /* notrack jmp rax */
	CU_ASSERT_EQUAL(in.flow, DEC_FLOW_IND_JMP);
}

static void test_copies(void)
{
	struct dec_insn in;
	struct dec_regs r = regs();
	struct dec_access a[DEC_MAX_MEM];

	DEC(in, 0xc9); /* leave */
	CU_ASSERT_EQUAL(in.copy.dst, DEC_RSP);
	CU_ASSERT_EQUAL(in.copy.src, DEC_RBP);
	CU_ASSERT_EQUAL(in.copy.add, 8);
	CU_ASSERT_EQUAL(in.rsp_delta, 0);
	CU_ASSERT_EQUAL(in.regs_written, 1u << DEC_RSP | 1u << DEC_RBP);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RBP], 8, DEC_READ);
	CU_ASSERT_EQUAL(a[0].kind, DEC_MEM_STACK);

	DEC(in, 0x48, 0x89, 0xe5); /* mov rbp, rsp */
	CU_ASSERT_EQUAL(in.copy.dst, DEC_RBP);
	CU_ASSERT_EQUAL(in.copy.src, DEC_RSP);
	CU_ASSERT_EQUAL(in.copy.add, 0);
	CU_ASSERT_EQUAL(in.regs_written, 1u << DEC_RBP);

	DEC(in, 0x48, 0x83, 0xec, 0x20); /* sub rsp, 0x20 */
	CU_ASSERT_EQUAL(in.copy.dst, DEC_RSP);
	CU_ASSERT_EQUAL(in.copy.src, DEC_RSP);
	CU_ASSERT_EQUAL(in.copy.add, -0x20);
	CU_ASSERT_EQUAL(in.rsp_delta, 0);
	CU_ASSERT_EQUAL(in.regs_written, 1u << DEC_RSP);

	DEC(in, 0x48, 0x83, 0xc4, 0xf8); /* add rsp, -8 */
	CU_ASSERT_EQUAL(in.copy.dst, DEC_RSP);
	CU_ASSERT_EQUAL(in.copy.add, -8);

	DEC(in, 0x48, 0x81, 0xec, 0x00, 0x10, 0x00, 0x00); /* sub rsp, 4096 */
	CU_ASSERT_EQUAL(in.copy.add, -4096);

	DEC(in, 0x4c, 0x8d, 0x45, 0xf0); /* lea r8, [rbp-0x10] */
	CU_ASSERT_EQUAL(in.cls, DEC_NO_DATA);
	CU_ASSERT_EQUAL(in.nmem, 0);
	CU_ASSERT_EQUAL(in.copy.dst, DEC_R8);
	CU_ASSERT_EQUAL(in.copy.src, DEC_RBP);
	CU_ASSERT_EQUAL(in.copy.add, -0x10);
	CU_ASSERT_EQUAL(in.regs_written, 1u << DEC_R8);

	DEC(in, 0x48, 0x8d, 0x04, 0x0b); /* lea rax, [rbx+rcx]: no copy */
	CU_ASSERT_EQUAL(in.copy.dst, DEC_NOREG);
	DEC(in, 0x89, 0xe5); /* mov ebp, esp: 32-bit, no copy */
	CU_ASSERT_EQUAL(in.copy.dst, DEC_NOREG);
	CU_ASSERT_EQUAL(in.regs_written, 1u << DEC_RBP);
	DEC(in, 0x48, 0x83, 0xe4, 0xf0); /* and rsp, -16: no copy */
	CU_ASSERT_EQUAL(in.copy.dst, DEC_NOREG);
	CU_ASSERT_EQUAL(in.regs_written, 1u << DEC_RSP);
	DEC(in, 0x48, 0x8b, 0x07); /* mov rax, [rdi]: no copy */
	CU_ASSERT_EQUAL(in.copy.dst, DEC_NOREG);
}

static void test_regs_written(void)
{
	struct dec_insn in;

	DEC(in, 0xb8, 0x01, 0x00, 0x00, 0x00); /* mov eax, 1 */
	CU_ASSERT_EQUAL(in.regs_written, 1u << DEC_RAX);
	DEC(in, 0xb4, 0x01); /* mov ah, 1 */
	CU_ASSERT_EQUAL(in.regs_written, 1u << DEC_RAX);
	DEC(in, 0x66, 0x41, 0xb8, 0x01, 0x00); /* mov r8w, 1 */
	CU_ASSERT_EQUAL(in.regs_written, 1u << DEC_R8);
	DEC(in, 0x48, 0x93); /* xchg rbx, rax */
	CU_ASSERT_EQUAL(in.regs_written, 1u << DEC_RAX | 1u << DEC_RBX);
	CU_ASSERT_EQUAL(in.cls, DEC_PLAIN);
	CU_ASSERT_EQUAL(in.lock, false);
	DEC(in, 0x48, 0x99); /* cqo */
	CU_ASSERT_EQUAL(in.regs_written, 1u << DEC_RDX);
	DEC(in, 0x48, 0xf7, 0xe1); /* mul rcx */
	CU_ASSERT_EQUAL(in.regs_written, 1u << DEC_RAX | 1u << DEC_RDX);
	DEC(in, 0x0f, 0xa2); /* cpuid */
	CU_ASSERT_EQUAL(in.cls, DEC_SERIALIZE);
	CU_ASSERT_EQUAL(in.regs_written, 0xfu);
	DEC(in, 0x48, 0x85, 0xc0); /* test rax, rax */
	CU_ASSERT_EQUAL(in.regs_written, 0);
}

/* The facts spin.c's liveness runs on: registers read, registers and
 * flags overwritten whole. */
static void test_regs_read_killed(void)
{
	struct dec_insn in;

	DEC(in, 0x8d, 0x51, 0x01); /* lea edx, [rcx + 1] */
	CU_ASSERT_EQUAL(in.regs_read, 1u << DEC_RCX);
	CU_ASSERT_EQUAL(in.regs_killed, 1u << DEC_RDX);
	CU_ASSERT_FALSE(in.flags_read);
	CU_ASSERT_FALSE(in.flags_killed);
	DEC(in, 0x31, 0xc9); /* xor ecx, ecx: a zero idiom reads nothing */
	CU_ASSERT_EQUAL(in.regs_read, 0);
	CU_ASSERT_EQUAL(in.regs_killed, 1u << DEC_RCX);
	CU_ASSERT_TRUE(in.flags_killed);
	DEC(in, 0x88, 0xd0); /* mov al, dl: keeps the rest of rax */
	CU_ASSERT_EQUAL(in.regs_read, 1u << DEC_RAX | 1u << DEC_RDX);
	CU_ASSERT_EQUAL(in.regs_killed, 0);
	DEC(in, 0x0f, 0x44, 0xc1); /* cmove eax, ecx: maybe not written */
	CU_ASSERT_TRUE(in.regs_read & (1u << DEC_RAX));
	CU_ASSERT_EQUAL(in.regs_killed, 0);
	CU_ASSERT_TRUE(in.flags_read);
	DEC(in, 0x8b, 0x03); /* mov eax, [rbx]: the address reads rbx */
	CU_ASSERT_EQUAL(in.regs_read, 1u << DEC_RBX);
	CU_ASSERT_EQUAL(in.regs_killed, 1u << DEC_RAX);
	DEC(in, 0x83, 0xf8, 0x01); /* cmp eax, 1 */
	CU_ASSERT_EQUAL(in.regs_read, 1u << DEC_RAX);
	CU_ASSERT_TRUE(in.flags_killed);
	DEC(in, 0xff, 0xc9); /* dec ecx: leaves CF */
	CU_ASSERT_FALSE(in.flags_killed);
	DEC(in, 0x75, 0x00); /* jne */
	CU_ASSERT_TRUE(in.flags_read);
	CU_ASSERT_EQUAL(in.regs_read, 0);
}

static void test_locked(void)
{
	struct dec_insn in;
	struct dec_regs r = regs();
	struct dec_access a[DEC_MAX_MEM];

	DEC(in, 0xf0, 0x48, 0x0f, 0xb1, 0x0f); /* lock cmpxchg [rdi], rcx */
	CU_ASSERT_EQUAL(in.cls, DEC_LOCKED_RMW);
	CU_ASSERT_TRUE(in.lock);
	CU_ASSERT_EQUAL(in.regs_written, 1u << DEC_RAX);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RDI], 8, DEC_READ | DEC_WRITE);

	DEC(in, 0x87, 0x07); /* xchg [rdi], eax: locked without prefix */
	CU_ASSERT_EQUAL(in.cls, DEC_LOCKED_RMW);
	CU_ASSERT_TRUE(in.lock);
	CU_ASSERT_EQUAL(in.regs_written, 1u << DEC_RAX);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RDI], 4, DEC_READ | DEC_WRITE);

	DEC(in, 0xf0, 0x48, 0x0f, 0xc1, 0x07); /* lock xadd [rdi], rax */
	CU_ASSERT_EQUAL(in.cls, DEC_LOCKED_RMW);
	CU_ASSERT_EQUAL(in.regs_written, 1u << DEC_RAX);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RDI], 8, DEC_READ | DEC_WRITE);

	DEC(in, 0xf0, 0x48, 0x0f, 0xc7, 0x0f); /* lock cmpxchg16b [rdi] */
	CU_ASSERT_EQUAL(in.cls, DEC_LOCKED_RMW);
	CU_ASSERT_EQUAL(in.regs_written, 1u << DEC_RAX | 1u << DEC_RDX);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RDI], 16, DEC_READ | DEC_WRITE);

	DEC(in, 0x0f, 0xc7, 0x0f); /* cmpxchg8b [rdi], no lock */
	CU_ASSERT_EQUAL(in.cls, DEC_PLAIN);
	CU_ASSERT_FALSE(in.lock);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RDI], 8, DEC_READ | DEC_WRITE);

	DEC(in, 0xf0, 0x83, 0x04, 0x24, 0x00); /* lock add dword [rsp], 0 */
	CU_ASSERT_EQUAL(in.cls, DEC_LOCKED_RMW);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], RSP0, 4, DEC_READ | DEC_WRITE);
}

static void test_rep_movsb(void)
{
	struct dec_insn in;
	struct dec_regs r = regs();
	struct dec_access a[DEC_MAX_MEM];

	DEC(in, 0xf3, 0xa4); /* rep movsb */
	CU_ASSERT_EQUAL(in.cls, DEC_REP_STRING);
	CU_ASSERT_TRUE(in.rep);
	CU_ASSERT_EQUAL_FATAL(in.nmem, 2);
	CU_ASSERT_EQUAL(in.mem[0].base, DEC_RDI); /* Zydis' order */
	CU_ASSERT_EQUAL(in.mem[0].kind, DEC_MEM_STRING);
	CU_ASSERT_EQUAL(in.mem[1].base, DEC_RSI);
	CU_ASSERT_EQUAL(in.regs_written,
			1u << DEC_RCX | 1u << DEC_RSI | 1u << DEC_RDI);
	r.gpr[DEC_RCX] = 10;
	r.gpr[DEC_RSI] = 0x5000;
	r.gpr[DEC_RDI] = 0x9000;
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 2);
	ASSERT_ACC(a[0], 0x9000, 10, DEC_WRITE);
	ASSERT_ACC(a[1], 0x5000, 10, DEC_READ);
	CU_ASSERT_EQUAL(a[1].kind, DEC_MEM_STRING);

	r.rflags |= 0x400; /* std: from rsi/rdi downwards */
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 2);
	ASSERT_ACC(a[0], 0x9000 - 9, 10, DEC_WRITE);
	ASSERT_ACC(a[1], 0x5000 - 9, 10, DEC_READ);

	r.gpr[DEC_RCX] = 0;
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 2);
	ASSERT_ACC(a[0], 0x9000, 0, DEC_WRITE);
	ASSERT_ACC(a[1], 0x5000, 0, DEC_READ);

	DEC(in, 0xa4); /* movsb without rep: one element */
	CU_ASSERT_EQUAL(in.cls, DEC_PLAIN);
	CU_ASSERT_FALSE(in.rep);
	r.gpr[DEC_RCX] = 10;
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 2);
	ASSERT_ACC(a[0], 0x9000, 1, DEC_WRITE);
	ASSERT_ACC(a[1], 0x5000, 1, DEC_READ);

	DEC(in, 0x64, 0xf3, 0xa4); /* rep movsb with fs:[rsi] */
	r.rflags &= ~0x400ull;
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 2);
	ASSERT_ACC(a[0], 0x9000, 10, DEC_WRITE); /* es: not overridable */
	ASSERT_ACC(a[1], r.fs_base + 0x5000, 10, DEC_READ);
}

static void test_rep_stosq(void)
{
	struct dec_insn in;
	struct dec_regs r = regs();
	struct dec_access a[DEC_MAX_MEM];

	DEC(in, 0xf3, 0x48, 0xab); /* rep stosq */
	CU_ASSERT_EQUAL(in.cls, DEC_REP_STRING);
	CU_ASSERT_EQUAL_FATAL(in.nmem, 1);
	CU_ASSERT_EQUAL(in.mem[0].size, 8);
	r.gpr[DEC_RCX] = 4;
	r.gpr[DEC_RDI] = 0x8000;
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], 0x8000, 32, DEC_WRITE);
	r.rflags |= 0x400;
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], 0x8000 - 24, 32, DEC_WRITE);

	DEC(in, 0xf3, 0xa6); /* repe cmpsb: all rcx iterations (maximum) */
	CU_ASSERT_EQUAL(in.regs_written,
			1u << DEC_RCX | 1u << DEC_RSI | 1u << DEC_RDI);
	r.rflags &= ~0x400ull;
	r.gpr[DEC_RCX] = 7;
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 2);
	CU_ASSERT_EQUAL(a[0].size, 7);
	CU_ASSERT_EQUAL(a[1].size, 7);
	CU_ASSERT_EQUAL(a[0].rw, DEC_READ);
	CU_ASSERT_EQUAL(a[1].rw, DEC_READ);

	DEC(in, 0xf2, 0xae); /* repne scasb, rcx = -1: saturates */
	CU_ASSERT_EQUAL(in.regs_written, 1u << DEC_RCX | 1u << DEC_RDI);
	r.gpr[DEC_RCX] = ~0ull;
	r.gpr[DEC_RDI] = 0x8000;
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], 0x8000, 0ull - 0x8000, DEC_READ);

	DEC(in, 0x67, 0xf3, 0xa4); /* rep movsb, 32-bit: ecx, esi, edi */
	r.gpr[DEC_RCX] = 0x100000003ull;
	r.gpr[DEC_RSI] = 0x1fffffff0ull;
	r.gpr[DEC_RDI] = 0x100000010ull;
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 2);
	ASSERT_ACC(a[0], 0x10, 3, DEC_WRITE);
	ASSERT_ACC(a[1], 0xfffffff0ull, 3, DEC_READ);
}

static void test_segments(void)
{
	struct dec_insn in;
	struct dec_regs r = regs();
	struct dec_access a[DEC_MAX_MEM];

	/* mov rax, fs:[0x28] */
	DEC(in, 0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0x00, 0x00, 0x00);
	CU_ASSERT_EQUAL_FATAL(in.nmem, 1);
	CU_ASSERT_EQUAL(in.mem[0].seg, DEC_SEG_FS);
	CU_ASSERT_EQUAL(in.mem[0].base, DEC_NOREG);
	CU_ASSERT_EQUAL(in.mem[0].index, DEC_NOREG);
	CU_ASSERT_EQUAL(in.mem[0].disp, 0x28);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.fs_base + 0x28, 8, DEC_READ);

	DEC(in, 0x65, 0x48, 0x89, 0x03); /* mov gs:[rbx], rax */
	CU_ASSERT_EQUAL(in.mem[0].seg, DEC_SEG_GS);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gs_base + r.gpr[DEC_RBX], 8, DEC_WRITE);

	DEC(in, 0x2e, 0x8b, 0x03); /* mov eax, cs:[rbx]: base 0 */
	CU_ASSERT_EQUAL(in.mem[0].seg, DEC_SEG_NONE);

	/* mov eax, [rbx + rcx*4 - 8] */
	DEC(in, 0x8b, 0x44, 0x8b, 0xf8);
	CU_ASSERT_EQUAL(in.mem[0].index, DEC_RCX);
	CU_ASSERT_EQUAL(in.mem[0].scale, 4);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RBX] + 4 * r.gpr[DEC_RCX] - 8, 4,
		   DEC_READ);
}

static void test_addr32(void)
{
	struct dec_insn in;
	struct dec_regs r = regs();
	struct dec_access a[DEC_MAX_MEM];

	DEC(in, 0x67, 0x8b, 0x43, 0x04); /* mov eax, [ebx+4] */
	CU_ASSERT_EQUAL(in.mem[0].base, DEC_RBX);
	CU_ASSERT_TRUE(in.mem[0].flags & DEC_MEMF_ADDR32);
	r.gpr[DEC_RBX] = 0x1fffffffeull;
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], 2, 4, DEC_READ); /* wraps at 32 bits */

	r.gpr[DEC_RBX] = 0xfffffffaull; /* [0xfffffffe, +4) is cut at 4 GiB */
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], 0xfffffffeull, 2, DEC_READ);

	DEC(in, 0x64, 0x67, 0x8b, 0x03); /* mov eax, fs:[ebx] */
	r.gpr[DEC_RBX] = 0x100000010ull;
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.fs_base + 0x10, 4, DEC_READ);

	DEC(in, 0x67, 0x8b, 0x05, 0x10, 0x00, 0x00, 0x00); /* [eip+0x10] */
	CU_ASSERT_EQUAL(in.mem[0].base, DEC_RIP);
	CU_ASSERT_TRUE(in.mem[0].flags & DEC_MEMF_ADDR32);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], (PC + 7 + 0x10) & 0xffffffffu, 4, DEC_READ);

	DEC(in, 0x8b, 0x03); /* mov eax, [rbx]: 64-bit */
	CU_ASSERT_FALSE(in.mem[0].flags & DEC_MEMF_ADDR32);
}

static void test_vector(void)
{
	struct dec_insn in;
	struct dec_regs r = regs();
	struct dec_access a[DEC_MAX_MEM];

	DEC(in, 0x0f, 0x29, 0x07); /* movaps [rdi], xmm0 */
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RDI], 16, DEC_WRITE);
	DEC(in, 0x0f, 0x28, 0x07); /* movaps xmm0, [rdi] */
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RDI], 16, DEC_READ);
	DEC(in, 0xc5, 0xfe, 0x7f, 0x07); /* vmovdqu [rdi], ymm0 */
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RDI], 32, DEC_WRITE);
	CU_ASSERT_EQUAL(in.mem[0].flags, 0);
	DEC(in, 0xc5, 0xfe, 0x6f, 0x47, 0x20); /* vmovdqu ymm0, [rdi+32] */
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RDI] + 32, 32, DEC_READ);
	/* vmovdqu64 [rdi+0x40], zmm0 (disp8 * 64) */
	DEC(in, 0x62, 0xf1, 0xfe, 0x48, 0x7f, 0x47, 0x01);
	CU_ASSERT_EQUAL(in.mem[0].disp, 64);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RDI] + 64, 64, DEC_WRITE);
	/* vmovdqu32 [rdi]{k1}, ymm0: masked, full size, flagged */
	DEC(in, 0x62, 0xf1, 0x7e, 0x29, 0x7f, 0x07);
	CU_ASSERT_TRUE(in.mem[0].flags & DEC_MEMF_COND);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RDI], 32, DEC_WRITE);
	/* vmovdqu8 zmm1{k1}{z}, [rdi]: masked load, full size, flagged */
	DEC(in, 0x62, 0xf1, 0x7f, 0xc9, 0x6f, 0x0f);
	CU_ASSERT_TRUE(in.mem[0].flags & DEC_MEMF_COND);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RDI], 64, DEC_READ);
	/* with the mask registers known, a {k} access is narrowed to the
	 * selected elements: glibc's memset tail, vmovdqu8 [rax]{k1},
	 * zmm16, with k1 = 16 low bits */
	DEC(in, 0x62, 0xe1, 0x7f, 0x49, 0x7f, 0x00);
	CU_ASSERT_TRUE(in.mem[0].flags & DEC_MEMF_KMASK);
	CU_ASSERT_TRUE(dec_uses_kregs(&in));
	CU_ASSERT_EQUAL(in.mem[0].kreg, 1);
	CU_ASSERT_EQUAL(in.mem[0].esize, 1);
	r.kvalid = true;
	memset(r.k, 0, sizeof r.k);
	r.k[1] = 0xffff;
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RAX], 16, DEC_WRITE);
	r.k[1] = 0xf0; /* elements 4..7 */
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RAX] + 4, 4, DEC_WRITE);
	r.k[1] = 0; /* nothing selected: one element, not 0 bytes */
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RAX], 1, DEC_WRITE);
	/* vmovdqu32 [rdi]{k1}, ymm0: 8 elements of 4, bits above 8 ignored */
	DEC(in, 0x62, 0xf1, 0x7e, 0x29, 0x7f, 0x07);
	CU_ASSERT_TRUE(in.mem[0].flags & DEC_MEMF_KMASK);
	r.k[1] = 0xff06;
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RDI] + 4, 8, DEC_WRITE);
	r.kvalid = false;
	/* vaddps zmm0, zmm1, [rdi]{1to16}: one element read */
	DEC(in, 0x62, 0xf1, 0x74, 0x58, 0x58, 0x07);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RDI], 4, DEC_READ);
	DEC(in, 0xc4, 0xe2, 0x75, 0x2e, 0x07); /* vmaskmovps [rdi], ymm1, ymm0 */
	CU_ASSERT_TRUE(in.mem[0].flags & DEC_MEMF_COND);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RDI], 32, DEC_WRITE);
	DEC(in, 0x66, 0x0f, 0xe7, 0x07); /* movntdq [rdi], xmm0 */
	CU_ASSERT_EQUAL(in.cls, DEC_NT_STORE);
	CU_ASSERT_EQUAL(in.mem[0].size, 16);
	DEC(in, 0x0f, 0xc3, 0x07); /* movnti [rdi], eax */
	CU_ASSERT_EQUAL(in.cls, DEC_NT_STORE);
	CU_ASSERT_EQUAL(in.mem[0].rw, DEC_WRITE);
	DEC(in, 0x66, 0x0f, 0xf7, 0xc1); /* maskmovdqu xmm0, xmm1: [rdi] */
	CU_ASSERT_EQUAL(in.cls, DEC_NT_STORE);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RDI], 16, DEC_WRITE);
	/* vpgatherdd xmm0, [rax + xmm1*4], xmm2 */
	DEC(in, 0xc4, 0xe2, 0x69, 0x90, 0x04, 0x88);
	CU_ASSERT_EQUAL(in.cls, DEC_UNSUPPORTED);
	CU_ASSERT_EQUAL(acc(&in, &r, a), -1);
}

static void test_no_data(void)
{
	struct dec_insn in;
	struct dec_regs r = regs();
	struct dec_access a[DEC_MAX_MEM];
	static const struct {
		uint8_t b[8];
		uint8_t n;
	} cases[] = {
		{ { 0x48, 0x8d, 0x05, 0x10, 0x00, 0x00, 0x00 }, 7 }, /* lea rip */
		{ { 0x0f, 0x1f, 0x44, 0x00, 0x00 }, 5 }, /* nop [rax+rax] */
		{ { 0x0f, 0x18, 0x0f }, 3 },             /* prefetcht0 [rdi] */
		{ { 0x0f, 0x18, 0x07 }, 3 },             /* prefetchnta [rdi] */
		{ { 0x0f, 0x0d, 0x0f }, 3 },             /* prefetchw [rdi] */
		{ { 0x0f, 0xae, 0x3f }, 3 },             /* clflush [rdi] */
		{ { 0x66, 0x0f, 0xae, 0x3f }, 4 },       /* clflushopt [rdi] */
		{ { 0x66, 0x0f, 0xae, 0x37 }, 4 },       /* clwb [rdi] */
		{ { 0x0f, 0x1c, 0x07 }, 3 },             /* cldemote [rdi] */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CU_ASSERT_EQUAL_FATAL(dec_decode(cases[i].b, cases[i].n, PC,
						 &in), 0);
		CU_ASSERT_EQUAL(in.len, cases[i].n);
		CU_ASSERT_EQUAL(in.cls, DEC_NO_DATA);
		CU_ASSERT_EQUAL(in.nmem, 0);
		CU_ASSERT_EQUAL(acc(&in, &r, a), 0);
	}
}

static void test_classes(void)
{
	struct dec_insn in;

	DEC(in, 0x0f, 0xae, 0xf0);
	CU_ASSERT_EQUAL(in.cls, DEC_MFENCE);
	DEC(in, 0x0f, 0xae, 0xe8);
	CU_ASSERT_EQUAL(in.cls, DEC_LFENCE);
	DEC(in, 0x0f, 0xae, 0xf8);
	CU_ASSERT_EQUAL(in.cls, DEC_SFENCE);
	DEC(in, 0xf3, 0x90);
	CU_ASSERT_EQUAL(in.cls, DEC_PAUSE);
	DEC(in, 0x90);
	CU_ASSERT_EQUAL(in.cls, DEC_NO_DATA);
	DEC(in, 0x0f, 0x05); /* syscall */
	CU_ASSERT_EQUAL(in.cls, DEC_SYSCALL);
	CU_ASSERT_EQUAL(in.flow, DEC_FLOW_SYSCALL);
	CU_ASSERT_EQUAL(in.regs_written,
			1u << DEC_RAX | 1u << DEC_RCX | 1u << DEC_R11);
	DEC(in, 0xcd, 0x80); /* int 0x80 */
	CU_ASSERT_EQUAL(in.cls, DEC_TRAP);
	CU_ASSERT_EQUAL(in.flow, DEC_FLOW_STOP);
	DEC(in, 0x0f, 0x34); /* sysenter */
	CU_ASSERT_EQUAL(in.cls, DEC_TRAP);
	DEC(in, 0xcc); /* int3 */
	CU_ASSERT_EQUAL(in.cls, DEC_TRAP);
	CU_ASSERT_EQUAL(in.flow, DEC_FLOW_STOP);
	DEC(in, 0x0f, 0x0b); /* ud2 */
	CU_ASSERT_EQUAL(in.cls, DEC_TRAP);
	CU_ASSERT_EQUAL(in.flow, DEC_FLOW_STOP);
	DEC(in, 0xf4); /* hlt */
	CU_ASSERT_EQUAL(in.cls, DEC_TRAP);
	CU_ASSERT_EQUAL(in.flow, DEC_FLOW_STOP);
	DEC(in, 0x0f, 0x31);
	CU_ASSERT_EQUAL(in.cls, DEC_SERIALIZE);
	DEC(in, 0x0f, 0x01, 0xf9);
	CU_ASSERT_EQUAL(in.cls, DEC_SERIALIZE);
	DEC(in, 0x48, 0x0f, 0xc7, 0xf0); /* rdrand rax */
	CU_ASSERT_EQUAL(in.cls, DEC_SERIALIZE);
	CU_ASSERT_EQUAL(in.regs_written, 1u << DEC_RAX);
	DEC(in, 0x0f, 0x01, 0xd0); /* xgetbv */
	CU_ASSERT_EQUAL(in.cls, DEC_SERIALIZE);
	DEC(in, 0xfa); /* cli: privileged */
	CU_ASSERT_EQUAL(in.cls, DEC_TRAP);
	CU_ASSERT_EQUAL(in.flow, DEC_FLOW_STOP);
	DEC(in, 0xd7); /* xlat */
	CU_ASSERT_EQUAL(in.cls, DEC_UNSUPPORTED);
	DEC(in, 0x0f, 0x01, 0xd5); /* xend */
	CU_ASSERT_EQUAL(in.cls, DEC_UNSUPPORTED);
	CU_ASSERT_EQUAL(in.flow, DEC_FLOW_NEXT);
	DEC(in, 0xff, 0x2f); /* jmp far [rdi] */
	CU_ASSERT_EQUAL(in.cls, DEC_UNSUPPORTED);
	CU_ASSERT_STRING_EQUAL(dec_class_name(DEC_LOCKED_RMW), "locked-rmw");
	CU_ASSERT_EQUAL(dec_decode(BYTES(0x0f, 0xff), 1, PC, &in), -1);
	CU_ASSERT_EQUAL(dec_decode(BYTES(0x06), 1, PC, &in), -1); /* push es */
}

static void test_bt(void)
{
	struct dec_insn in;
	struct dec_regs r = regs();
	struct dec_access a[DEC_MAX_MEM];
	uint64_t rdi = r.gpr[DEC_RDI];

	DEC(in, 0x48, 0x0f, 0xa3, 0x07); /* bt [rdi], rax */
	CU_ASSERT_TRUE(in.mem[0].flags & DEC_MEMF_BITREG);
	CU_ASSERT_EQUAL(in.mem[0].bitreg, DEC_RAX);
	r.gpr[DEC_RAX] = 200; /* bit 200 = qword 3 */
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], rdi + 24, 8, DEC_READ);
	r.gpr[DEC_RAX] = ~0ull; /* bit -1 = qword -1 */
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], rdi - 8, 8, DEC_READ);
	r.gpr[DEC_RAX] = 1ull << 40; /* 2^34 bytes away */
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], rdi + (1ull << 37), 8, DEC_READ);

	DEC(in, 0x0f, 0xab, 0x07); /* bts [rdi], eax: 32-bit signed offset */
	r.gpr[DEC_RAX] = 0x12345678ffffffe0ull; /* eax = -32 */
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], rdi - 4, 4, DEC_READ | DEC_WRITE);
	r.gpr[DEC_RAX] = 33;
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], rdi + 4, 4, DEC_READ | DEC_WRITE);

	DEC(in, 0x66, 0x0f, 0xa3, 0x0f); /* bt [rdi], cx: 16-bit */
	CU_ASSERT_EQUAL(in.mem[0].bitreg, DEC_RCX);
	r.gpr[DEC_RCX] = 0x8000; /* cx = -32768 → -2048 words */
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], rdi - 4096, 2, DEC_READ);

	DEC(in, 0xf0, 0x48, 0x0f, 0xab, 0x07); /* lock bts [rdi], rax */
	CU_ASSERT_EQUAL(in.cls, DEC_LOCKED_RMW);
	r.gpr[DEC_RAX] = 64;
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], rdi + 8, 8, DEC_READ | DEC_WRITE);

	DEC(in, 0x48, 0x0f, 0xba, 0x27, 0x45); /* bt qword [rdi], 0x45 */
	CU_ASSERT_FALSE(in.mem[0].flags & DEC_MEMF_BITREG);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], rdi, 8, DEC_READ);

	DEC(in, 0x48, 0x0f, 0xa3, 0xc8); /* bt rax, rcx: no memory */
	CU_ASSERT_EQUAL(in.nmem, 0);
}

static void test_stack_frames(void)
{
	struct dec_insn in;
	struct dec_regs r = regs();
	struct dec_access a[DEC_MAX_MEM];

	DEC(in, 0xc8, 0x20, 0x00, 0x00); /* enter 0x20, 0 */
	CU_ASSERT_EQUAL(in.rsp_delta, -40);
	CU_ASSERT_EQUAL(in.regs_written, 1u << DEC_RBP);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], RSP0 - 8, 8, DEC_WRITE);
	DEC(in, 0xc8, 0x20, 0x00, 0x01); /* enter 0x20, 1: nested frames */
	CU_ASSERT_EQUAL(in.cls, DEC_UNSUPPORTED);
}

static void test_xsave(void)
{
	struct dec_insn in;
	struct dec_regs r = regs();
	struct dec_access a[DEC_MAX_MEM];
	uint32_t full = dec_xsave_size();

	CU_ASSERT_TRUE(full >= 576);
	DEC(in, 0x0f, 0xae, 0x27); /* xsave [rdi] */
	CU_ASSERT_EQUAL(in.mem[0].size, full);
	CU_ASSERT_TRUE(in.mem[0].flags & DEC_MEMF_XSAVE);
	r.gpr[DEC_RAX] = 3; /* x87 + SSE: legacy area and header */
	r.gpr[DEC_RDX] = 0;
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RDI], 576, DEC_READ | DEC_WRITE);
	r.gpr[DEC_RAX] = ~0ull;
	r.gpr[DEC_RDX] = ~0ull;
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	CU_ASSERT_EQUAL(a[0].size, full);

	/* the mask registers out of an NT_X86_XSTATE image (standard
	 * format): where CPUID puts the opmask component, or zeros when
	 * XSTATE_BV says it is in its initial state */
	{
		static uint8_t xs[16384];
		unsigned ea, eb, ec, ed;
		uint64_t bv = 1ull << 5, k3 = 0x1234;
		struct dec_regs kr = regs();

		__cpuid_count(0xd, 5, ea, eb, ec, ed);
		(void)ec;
		(void)ed;
		memset(xs, 0xee, sizeof xs);
		memset(xs + 512, 0, 8); /* XSTATE_BV: all initial */
		dec_kregs_from_xsave(xs, sizeof xs, &kr);
		if (kr.kvalid) { /* AVX-512 enabled here */
			CU_ASSERT_EQUAL(kr.k[1], 0);
			CU_ASSERT_TRUE_FATAL(ea == 64 && eb + 64 <= sizeof xs);
			memcpy(xs + 512, &bv, 8);
			memcpy(xs + eb + 3 * 8, &k3, 8);
			dec_kregs_from_xsave(xs, sizeof xs, &kr);
			CU_ASSERT_TRUE(kr.kvalid);
			CU_ASSERT_EQUAL(kr.k[3], 0x1234);
		}
		dec_kregs_from_xsave(xs, 100, &kr); /* too short */
		CU_ASSERT_FALSE(kr.kvalid);
	}

	DEC(in, 0x0f, 0xc7, 0x27); /* xsavec [rdi] */
	CU_ASSERT_TRUE(in.mem[0].flags & DEC_MEMF_XSAVEC);
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	CU_ASSERT_TRUE(a[0].size >= 576 && a[0].size <= full);

	DEC(in, 0x0f, 0xae, 0x07); /* fxsave [rdi] */
	CU_ASSERT_EQUAL_FATAL(acc(&in, &r, a), 1);
	ASSERT_ACC(a[0], r.gpr[DEC_RDI], 512, DEC_WRITE);

	dec_set_xsave_size(4096);
	DEC(in, 0x0f, 0xae, 0x2f); /* xrstor [rdi] */
	CU_ASSERT_EQUAL(in.mem[0].size, 4096);
	CU_ASSERT_EQUAL(in.mem[0].rw, DEC_READ);
	dec_set_xsave_size(0);
	CU_ASSERT_EQUAL(dec_xsave_size(), full);
}

static void test_format(void)
{
	char buf[96];

	dec_format(BYTES(0x89, 0x05, 0xe5, 0x2e, 0x00, 0x00), 6, PC, buf,
		   sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "mov dword ptr [rip + 0x2ee5], eax");
	dec_format(BYTES(0xe8, 0x10, 0x00, 0x00, 0x00), 5, PC, buf,
		   sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "call 0x401015");
	dec_format(BYTES(0xc3), 1, PC, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "ret");
	/* kmovq k1, rbx: unknown to Capstone 4.0.2, Zydis' text */
	dec_format(BYTES(0xc4, 0xe1, 0xfb, 0x92, 0xcb), 5, PC, buf,
		   sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "kmovq k1, rbx");
	dec_format(BYTES(0x06), 1, PC, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "(bad)");
}

/* dcache: code comes from a byte array mapped at CODE_AT. */
#define CODE_AT 0x10000ull
static uint8_t code[64] = {
	0x55,                   /* 0: push rbp */
	0x48, 0x89, 0xe5,       /* 1: mov rbp, rsp */
	0x89, 0x05, 0, 0, 0, 0, /* 4: mov [rip], eax */
	0xc9,                   /* 10: leave */
	0xc3,                   /* 11: ret */
	0x06,                   /* 12: invalid (push es) */
};
static int fetches;

static size_t fetch(void *ctx, uint64_t pc, uint8_t *buf, size_t n)
{
	(void)ctx;
	fetches++;
	if (pc < CODE_AT || pc >= CODE_AT + sizeof(code))
		return 0;
	size_t k = CODE_AT + sizeof(code) - pc;
	k = k < n ? k : n;
	memcpy(buf, code + (pc - CODE_AT), k);
	return k;
}

static void test_dcache(void)
{
	struct dcache *dc = dcache_new(fetch, NULL);
	struct dcache_stats st;
	const struct dec_insn *a, *b, *c;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dc);
	fetches = 0;
	a = dcache_get(dc, CODE_AT + 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_EQUAL(a->len, 3);
	CU_ASSERT_EQUAL(a->copy.dst, DEC_RBP);
	b = dcache_get(dc, CODE_AT + 1);
	CU_ASSERT_PTR_EQUAL(a, b);
	CU_ASSERT_EQUAL(fetches, 1);
	CU_ASSERT_PTR_NULL(dcache_get(dc, CODE_AT + 12)); /* invalid */
	CU_ASSERT_PTR_NULL(dcache_get(dc, 0x99999999));   /* unmapped */
	c = dcache_get(dc, CODE_AT + 4);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->mem[0].base, DEC_RIP);
	dcache_stats(dc, &st);
	CU_ASSERT_EQUAL(st.lookups, 5);
	CU_ASSERT_EQUAL(st.hits, 1);
	CU_ASSERT_EQUAL(st.decoded, 2);
	CU_ASSERT_TRUE(st.decode_seconds >= 0);

	/* invalidate [CODE_AT+2, CODE_AT+3): overlaps mov rbp, rsp only */
	code[1] = 0x90; /* nop; the bytes changed */
	dcache_invalidate(dc, CODE_AT + 2, CODE_AT + 3);
	dcache_stats(dc, &st);
	uint64_t decoded = st.decoded;
	b = dcache_get(dc, CODE_AT + 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL(b->len, 1);
	CU_ASSERT_EQUAL(b->cls, DEC_NO_DATA);
	c = dcache_get(dc, CODE_AT + 4); /* untouched: still cached */
	CU_ASSERT_EQUAL(c->mem[0].base, DEC_RIP);
	dcache_stats(dc, &st);
	CU_ASSERT_EQUAL(st.decoded, decoded + 1);
	code[1] = 0x48;
	dcache_free(dc);
}

/* Many addresses: growth, then invalidation of a range in the middle. */
static size_t fetch_nops(void *ctx, uint64_t pc, uint8_t *buf, size_t n)
{
	(void)ctx;
	(void)pc;
	memset(buf, 0x90, n);
	return n;
}

static void test_dcache_many(void)
{
	struct dcache *dc = dcache_new(fetch_nops, NULL);
	struct dcache_stats st;
	const struct dec_insn *first;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dc);
	first = dcache_get(dc, 0x1000);
	for (uint64_t pc = 0x1001; pc < 0x1000 + 50000; pc++)
		CU_ASSERT_PTR_NOT_NULL(dcache_get(dc, pc));
	/* the table grew many times; earlier pointers stay valid */
	CU_ASSERT_EQUAL(first->pc, 0x1000);
	CU_ASSERT_PTR_EQUAL(dcache_get(dc, 0x1000), first);
	dcache_invalidate(dc, 0x2000, 0x3000);
	for (uint64_t pc = 0x1000; pc < 0x1000 + 50000; pc++) {
		const struct dec_insn *in = dcache_get(dc, pc);
		CU_ASSERT_PTR_NOT_NULL_FATAL(in);
		CU_ASSERT_EQUAL(in->pc, pc);
	}
	dcache_stats(dc, &st);
	CU_ASSERT_EQUAL(st.lookups, 100001);
	CU_ASSERT_EQUAL(st.decoded, 50000 + 0x1000);
	CU_ASSERT_EQUAL(st.hits, 50001 - 0x1000);
	dcache_free(dc);
}

static bool host_is_amd(void)
{
	unsigned a, b, c, d;

	__cpuid(0, a, b, c, d);
	(void)a;
	return b == 0x68747541 && d == 0x69746e65 && c == 0x444d4163;
}

/* Decoded as this CPU executes them. */
static void test_host_encodings(void)
{
	struct dec_insn in;
	uint8_t jmp16[] = { 0x66, 0xe9, 0x10, 0x00, 0x00, 0x00 };

	/* 0F 1A/1B: MPX is off (XCR0), so these are hint NOPs */
	DEC(in, 0x0f, 0x1b, 0x04, 0x24); /* bndstx [rsp], bnd0 / nop */
	CU_ASSERT_EQUAL(in.cls, DEC_NO_DATA);
	CU_ASSERT_EQUAL(in.nmem, 0);
	DEC(in, 0x0f, 0x1a, 0x73, 0xb6); /* bnd6 would be #UD with MPX */
	CU_ASSERT_EQUAL(in.cls, DEC_NO_DATA);
	/* jmp with 66: rel16 and a 16-bit ip on AMD, ignored on Intel */
	CU_ASSERT_EQUAL_FATAL(dec_decode(jmp16, sizeof(jmp16), PC, &in), 0);
	CU_ASSERT_EQUAL(in.flow, DEC_FLOW_JMP);
	if (host_is_amd()) {
		CU_ASSERT_EQUAL(in.len, 4);
		CU_ASSERT_EQUAL(in.target, (PC + 4 + 0x10) & 0xffff);
	} else {
		CU_ASSERT_EQUAL(in.len, 6);
		CU_ASSERT_EQUAL(in.target, PC + 6 + 0x10);
	}
	DEC(in, 0xf2, 0xa5); /* repne movsd: repeats like rep */
	CU_ASSERT_EQUAL(in.cls, DEC_REP_STRING);
	CU_ASSERT_TRUE(in.rep);
	/* fs wins over a later ds/ss prefix (those are null in 64-bit) */
	DEC(in, 0x64, 0x36, 0x8b, 0x07);
	CU_ASSERT_EQUAL(in.mem[0].seg, DEC_SEG_FS);
}

static void test_check(void)
{
	struct dec_insn in;
	const char *why = NULL;

	DEC(in, 0x50); /* push rax */
	in.mem[0].kind = DEC_MEM_STRING;
	CU_ASSERT_EQUAL(dec_check(&in, &why), -1);
	CU_ASSERT_PTR_NOT_NULL(why);
	DEC(in, 0xf0, 0x48, 0x0f, 0xc1, 0x07); /* lock xadd */
	in.lock = false;
	CU_ASSERT_EQUAL(dec_check(&in, &why), -1);
	DEC(in, 0x48, 0x89, 0xe5); /* mov rbp, rsp */
	in.regs_written = 0;
	CU_ASSERT_EQUAL(dec_check(&in, &why), -1);
	DEC(in, 0x48, 0x89, 0xe5); /* mov rbp, rsp: no branch, no target */
	in.target = PC + 0x12;
	CU_ASSERT_EQUAL(dec_check(&in, &why), -1);
	/* jmp rel32 to address 0: valid, its target is 0 (fuzz_decode) */
	DEC(in, 0xe9, 0xfb, 0xef, 0xbf, 0xff);
	CU_ASSERT_EQUAL(in.flow, DEC_FLOW_JMP);
	CU_ASSERT_EQUAL(in.target, 0);
}

static CU_TestInfo tests[] = {
	{ "rip-relative", test_rip_relative },
	{ "push/pop", test_push_pop },
	{ "push/pop memory", test_push_pop_mem },
	{ "call/ret", test_call_ret },
	{ "branches", test_branches },
	{ "copies", test_copies },
	{ "regs_written", test_regs_written },
	{ "regs_read_killed", test_regs_read_killed },
	{ "locked", test_locked },
	{ "rep movsb", test_rep_movsb },
	{ "rep stosq, cmps, scas, addr32", test_rep_stosq },
	{ "fs/gs", test_segments },
	{ "32-bit addresses", test_addr32 },
	{ "vector", test_vector },
	{ "no data", test_no_data },
	{ "classes", test_classes },
	{ "bt with register offset", test_bt },
	{ "enter", test_stack_frames },
	{ "xsave", test_xsave },
	{ "format", test_format },
	{ "dcache", test_dcache },
	{ "dcache many", test_dcache_many },
	{ "dec_check", test_check },
	{ "host encodings", test_host_encodings },
	CU_TEST_INFO_NULL,
};

UNIT_SUITE("decode", NULL, NULL, tests)
