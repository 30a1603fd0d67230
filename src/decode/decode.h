/* decode.h — one x86-64 instruction → length, class, control flow and the
 * exact set of memory bytes it reads and writes.
 *
 * This is the only module that includes Zydis or Capstone headers.
 *
 * Two stages, because the tracer needs both:
 *  1. dec_decode(): the static description of the instruction at pc, valid
 *     for every execution (cached by address in struct dcache).  Memory
 *     operands are kept symbolic: seg:[base + index*scale + disp].
 *  2. dec_accesses(): the concrete access set, given the registers of the
 *     thread that is about to execute it.  Effective addresses are computed
 *     here, not by a decoder library: fs/gs bases from the registers,
 *     RIP-relative (relative to the *next* instruction), the pre-decrement
 *     of push/call, REP direction (DF) and count (rcx).
 *
 * Implicit operands (the stack slot of push/pop/call/ret/leave/enter, the
 * rsi/rdi operands of string instructions, the rax/rdx of cmpxchg, ...) are
 * listed as memory operands like explicit ones: Zydis's
 * ZydisDecoderDecodeFull reports them with their read/write actions.
 *
 * Address computation rules (normalised by the decoder so that callers
 * never special-case mnemonics):
 *  - push/call:   DEC_MEM_STACK, base RSP, disp -8 (-2 for push r16) : the
 *                 slot below the current rsp;
 *  - pop/ret:     DEC_MEM_STACK, base RSP, disp 0;
 *  - pop [rsp+d]: the explicit destination is computed with rsp already
 *                 incremented (the architecture says so): disp is adjusted;
 *  - leave:       read of [rbp] (base RBP, disp 0), DEC_MEM_STACK;
 *  - string ops:  base RSI / RDI, size = element size, rep = true when a
 *                 REP/REPE/REPNE prefix is present; dec_accesses() turns
 *                 that into one range covering all rcx iterations in the
 *                 direction given by rflags.DF (a range of 0 bytes when
 *                 rcx == 0).
 *  - enter n, 0:  the rbp slot like a push, rsp_delta = -(8 + n); a
 *                 nesting level > 0 is DEC_UNSUPPORTED;
 *  - other implicit data operands (maskmovdqu's [rdi]) are
 *                 DEC_MEM_EXPLICIT.
 *
 * Instructions are decoded as the host CPU executes them: a 66-prefixed
 * near branch is rel16 with a 16-bit target on AMD and ignores the 66 on
 * Intel; MPX is off in XCR0 on Linux >= 5.6, so 0F 1A/1B are hint NOPs;
 * CS/DS/ES/SS overrides are null prefixes (only fs/gs matter).
 * docs/DECODER.md lists what is guaranteed, what is over-approximated and
 * how the differential test against Capstone checks it.
 */
#ifndef X86SMC_DECODE_H
#define X86SMC_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* General purpose registers, in hardware encoding order. */
enum dec_reg {
	DEC_NOREG = -1,
	DEC_RAX = 0, DEC_RCX, DEC_RDX, DEC_RBX, DEC_RSP, DEC_RBP, DEC_RSI, DEC_RDI,
	DEC_R8, DEC_R9, DEC_R10, DEC_R11, DEC_R12, DEC_R13, DEC_R14, DEC_R15,
	DEC_RIP = 16,
};

/* The registers dec_accesses() needs; filled by the tracer. */
struct dec_regs {
	uint64_t gpr[16]; /* indexed by enum dec_reg */
	uint64_t rip;     /* address of the instruction itself */
	uint64_t rflags;
	uint64_t fs_base, gs_base;
	bool kvalid;      /* k[] holds the mask registers (else the */
	uint64_t k[8];    /* accesses of DEC_MEMF_KMASK stay whole) */
};

/* Instruction classes (one per row of the classification table). */
enum dec_class {
	DEC_PLAIN = 0,   /* anything not below; may or may not access memory */
	DEC_LOCKED_RMW,  /* LOCK prefix, or XCHG with a memory operand */
	DEC_MFENCE,
	DEC_LFENCE,
	DEC_SFENCE,
	DEC_SYSCALL,     /* syscall (int 0x80/sysenter: DEC_TRAP) */
	DEC_PAUSE,
	DEC_NT_STORE,    /* movnti, movntdq, movntps, ... (weakly ordered) */
	DEC_REP_STRING,  /* string instruction with a REP prefix */
	DEC_NO_DATA,     /* LEA, NOP [mem], PREFETCH*, CLFLUSH*, CLDEMOTE: an
			  * address is computed, no data byte is touched */
	DEC_SERIALIZE,   /* cpuid, rdtsc(p), rdrand, rdseed, xgetbv, ...:
			  * results the tracer may have to make deterministic */
	DEC_TRAP,        /* int3, int n, ud2, hlt, int 0x80, sysenter, ... */
	DEC_UNSUPPORTED, /* VSIB gather/scatter and anything whose accesses
			  * dec_accesses() cannot state exactly */
	DEC_NCLASSES
};

/* How control leaves the instruction. */
enum dec_flow {
	DEC_FLOW_NEXT = 0, /* falls through to pc + len */
	DEC_FLOW_JMP,      /* direct jump to target */
	DEC_FLOW_JCC,      /* direct conditional (jcc, loop*, jrcxz): target or
			    * pc + len */
	DEC_FLOW_CALL,     /* direct call to target (pushes pc + len) */
	DEC_FLOW_IND_JMP,  /* jmp reg / jmp [mem] */
	DEC_FLOW_IND_CALL, /* call reg / call [mem] */
	DEC_FLOW_RET,      /* ret, ret imm16 */
	DEC_FLOW_SYSCALL,  /* syscall: returns to pc + len */
	DEC_FLOW_STOP,     /* traps, never falls through normally */
};

enum dec_seg { DEC_SEG_NONE = 0, DEC_SEG_FS, DEC_SEG_GS };

enum { DEC_READ = 1, DEC_WRITE = 2 };

enum dec_mem_kind {
	DEC_MEM_EXPLICIT = 0, /* an operand written in the instruction */
	DEC_MEM_STACK,        /* implicit stack slot of push/pop/call/ret/... */
	DEC_MEM_STRING,       /* implicit [rsi]/[rdi] of a string instruction */
	DEC_MEM_BRANCH,       /* the pointer loaded by jmp/call [mem] */
};

/* dec_mem.flags (added with issue 3; 0 = none of these, so a zeroed
 * dec_mem is a plain 64-bit-address access).  Code that computes an
 * address from a dec_mem itself instead of calling dec_accesses() must
 * treat ADDR32, BITREG, XSAVE/XSAVEC and rep string operands as "not the
 * plain seg:[base + index*scale + disp] of `size` bytes". */
enum {
	/* 0x67 address-size prefix: base + index*scale + disp wraps at 32
	 * bits (the fs/gs base is added after the wrap); for string ops the
	 * count is ecx and the pointers are esi/edi. */
	DEC_MEMF_ADDR32 = 1,
	/* The access may not happen, or only in part: AVX/AVX-512 masked loads
	 * and stores (vmaskmov*, {k} masks, vpcompress/vpexpand), the
	 * conditional write-back of cmpxchg*, REP string iterations.  size is
	 * always the full operand's, so the access set is a superset of the
	 * bytes really touched. */
	DEC_MEMF_COND = 2,
	/* bt/bts/btr/btc m, r: the signed bit offset in register `bitreg`
	 * (operand-size wide) moves the access: addr += (off >> log2(8*size))
	 * * size, i.e. base + (off >> 3) aligned down to the operand size.
	 * dec_accesses() applies it; `size` stays the operand size. */
	DEC_MEMF_BITREG = 4,
	/* xsave, xsaveopt, xrstor and their 64-bit forms (standard format),
	 * xsavec (compacted format): the bytes touched depend on
	 * RFBM = XCR0 & edx:eax.  `size` is the upper bound dec_xsave_size();
	 * dec_accesses() computes the exact extent from rax/rdx and CPUID
	 * leaf 0xD (xrstor of a compacted area: the standard-format extent,
	 * an upper bound). */
	DEC_MEMF_XSAVE = 8,
	DEC_MEMF_XSAVEC = 16,
	/* an AVX-512 {k} mask (k1..k7 in `kreg`) selects the elements of
	 * `esize` bytes the access touches: with the mask registers known
	 * (dec_regs.kvalid), dec_accesses() narrows the access to the
	 * first and last selected element.  glibc's memset, memcpy and
	 * strlen end with a masked 64-byte store or load: taken whole, a
	 * 16-byte memset wrote into the next heap block and raced with its
	 * owner's free (samples/malloc_threads.c). */
	DEC_MEMF_KMASK = 32,
};

struct dec_mem {
	int8_t seg;    /* enum dec_seg */
	int8_t base;   /* enum dec_reg, DEC_RIP or DEC_NOREG */
	int8_t index;  /* enum dec_reg or DEC_NOREG */
	uint8_t scale; /* 1, 2, 4, 8 (meaningless without index) */
	int64_t disp;
	uint32_t size; /* bytes per access (per element for string ops) */
	uint8_t rw;    /* DEC_READ | DEC_WRITE */
	uint8_t kind;  /* enum dec_mem_kind */
	uint8_t flags; /* DEC_MEMF_* */
	int8_t bitreg; /* with DEC_MEMF_BITREG: enum dec_reg of the offset */
	int8_t kreg;   /* with DEC_MEMF_KMASK: the mask register, 1..7 */
	uint8_t esize; /* with DEC_MEMF_KMASK: bytes per element */
};

#define DEC_MAX_MEM 4

/* "dst = src + add" for the simple register moves the tracer tracks to
 * prove stack accesses local without stopping: mov r64,r64; lea r64,[r+d];
 * add/sub r64,imm; leave (rsp = rbp + 8).  dst == DEC_NOREG when the
 * instruction is not of that shape. */
struct dec_copy {
	int8_t dst, src;
	int64_t add;
};

/* A plain MOV between a general register (or an immediate) and one
 * memory operand, or a MOVZX/MOVSX/MOVSXD load, which the tracer can
 * perform itself instead of single-stepping it (no flags, no other
 * effect).  reg: enum dec_reg, DEC_NOREG when the instruction is not
 * such a mov (or stores an immediate: imm_src); width 1, 2, 4 or 8: the
 * bytes moved (the memory operand's size); hi8: ah, ch, dh or bh; load:
 * memory to register; ext: how a load widens to reg_width, the
 * register's width (== width for mov).  The register is written as the
 * CPU writes it: a 4-byte write zero-extends into bits 63..32, 1- and
 * 2-byte ones keep the rest of the register. */
enum dec_ext { DEC_EXT_NONE = 0, DEC_EXT_ZERO, DEC_EXT_SIGN };

struct dec_mov {
	bool ok;
	bool load, hi8, imm_src;
	int8_t reg;
	uint8_t width;
	int64_t imm;
	uint8_t ext;       /* enum dec_ext */
	uint8_t reg_width;
};

/* An integer instruction with one memory operand whose effect the
 * tracer can compute itself (src/tracer/emulate.h) instead of
 * single-stepping it, with or without LOCK:
 *   add, or, adc, sbb, and, sub, xor, cmp, test   [mem], reg|imm
 *   add, or, adc, sbb, and, sub, xor, cmp         reg, [mem]
 *   inc, dec, neg, not                            [mem]
 *   xchg, xadd, cmpxchg                           [mem], reg
 * op: enum dec_alu_op, DEC_ALU_NONE for every other instruction (and for
 * other operand shapes); width 1, 2, 4 or 8 (the memory operand's size);
 * mem_dst: the memory operand is the destination (false: reg, [mem]);
 * reg: the register operand (DEC_NOREG with an immediate or for the
 * one-operand forms), hi8: it is ah, ch, dh or bh; imm: the immediate,
 * sign-extended as the CPU extends it (only its low width bytes matter).
 * cmpxchg's accumulator (al/ax/eax/rax) is implicit. */
enum dec_alu_op {
	DEC_ALU_NONE = 0,
	DEC_ALU_ADD, DEC_ALU_OR, DEC_ALU_ADC, DEC_ALU_SBB, DEC_ALU_AND,
	DEC_ALU_SUB, DEC_ALU_XOR, DEC_ALU_CMP, DEC_ALU_TEST,
	DEC_ALU_INC, DEC_ALU_DEC, DEC_ALU_NEG, DEC_ALU_NOT,
	DEC_ALU_XCHG, DEC_ALU_XADD, DEC_ALU_CMPXCHG,
	DEC_ALU_NOPS
};

struct dec_alu {
	uint8_t op;
	uint8_t width;
	bool mem_dst, imm_src, hi8;
	int8_t reg;
	int64_t imm;
};

/* A register-only instruction the tracer can run itself between two
 * events, instead of letting the target run to its next stop (the stop
 * costs ~10 us here; src/tracer/emulate.h, emu_local):
 *   nop, endbr64; jmp rel, jcc rel (cond: the condition code, 0..15);
 *   mov r, r|imm; movzx, movsx, movsxd r, r; lea r, [base+index*scale+d];
 *   cmovcc r, r; setcc r8;
 *   add, or, adc, sbb, and, sub, xor, cmp, test   r, r|imm
 *   inc, dec, neg, not                            r
 *   cbw/cwde/cdqe, cwd/cdq/cqo; push, pop, leave, call rel, ret
 * op DEC_LOC_NONE for every other instruction and operand shape (memory
 * operands, shifts, multiplies, flags undefined by the architecture).
 * dst, src: enum dec_reg (src DEC_NOREG with an immediate or none);
 * width: the destination's bytes; swidth: movzx/movsx's source bytes;
 * imm: the immediate as the CPU extends it, lea's displacement; base:
 * enum dec_reg, DEC_RIP or DEC_NOREG; awidth: lea's address size. */
enum dec_loc_op {
	DEC_LOC_NONE = 0, DEC_LOC_NOP, DEC_LOC_JMP, DEC_LOC_JCC,
	DEC_LOC_MOV, DEC_LOC_MOVX, DEC_LOC_LEA, DEC_LOC_CMOV, DEC_LOC_SETCC,
	DEC_LOC_ALU,
	DEC_LOC_CEXT, /* cbw, cwde, cdqe (width: the result's) */
	DEC_LOC_CDQ,  /* cwd, cdq, cqo */
	/* the stack (64-bit operands; the tracer checks the slot private):
	 * push r|imm (src, imm), pop r (dst, not rsp), leave, call rel
	 * (target), ret (no immediate) */
	DEC_LOC_PUSH, DEC_LOC_POP, DEC_LOC_LEAVE, DEC_LOC_CALL, DEC_LOC_RET,
	/* jmp, call [rip + imm] (a PLT slot: the target is read there;
	 * x86smc runs the program with LD_BIND_NOW) */
	DEC_LOC_JMPM, DEC_LOC_CALLM,
};

struct dec_local {
	uint8_t op;   /* enum dec_loc_op */
	uint8_t alu;  /* DEC_LOC_ALU: enum dec_alu_op */
	uint8_t width, swidth, awidth;
	uint8_t ext;  /* DEC_LOC_MOVX: enum dec_ext */
	uint8_t cond; /* JCC, CMOV, SETCC */
	uint8_t scale;
	bool dst_hi8, src_hi8, imm_src;
	int8_t dst, src, base, index;
	int64_t imm;
};

struct dec_insn {
	uint64_t pc;
	uint8_t len;
	uint8_t cls;  /* enum dec_class */
	uint8_t flow; /* enum dec_flow */
	bool lock;    /* LOCK prefix or implicitly locked (xchg mem) */
	bool rep;     /* REP/REPE/REPNE on a string instruction */
	uint8_t nmem;
	struct dec_mem mem[DEC_MAX_MEM];
	uint64_t target;        /* direct branch/call target, else 0 */
	int32_t rsp_delta;      /* implicit change of rsp by push/pop/call/ret
				 * (ret imm16 included); 0 otherwise */
	uint32_t regs_written;  /* bit i: GPR i written (explicitly or
				 * implicitly; rsp's implicit change via
				 * rsp_delta is not a "write"; when bit RSP is
				 * set, as for pop rsp, leave, sub rsp, the new
				 * rsp is not rsp + rsp_delta).  Any sub-register
				 * write counts (eax, ax, al, ah → RAX); syscall
				 * counts as writing rax (the kernel's result),
				 * rcx and r11 */
	/* For liveness (tracer/spin.c): bit i, GPR i.  regs_read: read
	 * (an operand, an address's base or index, an implicit use; an 8-
	 * or 16-bit or conditional write keeps the rest: a read too).
	 * regs_killed: every bit of it written unconditionally (a 32- or
	 * 64-bit destination).  flags_read / flags_killed: a status flag
	 * (CF PF AF ZF SF OF) tested / all six written. */
	uint32_t regs_read, regs_killed;
	bool flags_read, flags_killed;
	struct dec_copy copy;
	struct dec_mov mov;
	struct dec_alu alu;
	struct dec_local loc;
	uint16_t mnemonic;      /* decoder-specific id, for statistics only */
	uint8_t bytes[16];      /* the instruction's bytes [0, len): for
				 * disassembly in reports (dec_format) */
};

/* One concrete access. */
struct dec_access {
	uint64_t addr;
	uint64_t size; /* may exceed 8 (vector, xsave, rep string) */
	uint8_t rw;    /* DEC_READ | DEC_WRITE */
	uint8_t kind;  /* enum dec_mem_kind */
};

/* Decode the instruction whose bytes start at code[0] (n bytes available,
 * 15 suffice) at address pc.  Returns 0, or -1 if the bytes are not a
 * valid instruction. */
int dec_decode(const uint8_t *code, size_t n, uint64_t pc,
	       struct dec_insn *out) __attribute__((warn_unused_result));

/* Concrete accesses of insn executed with registers r: fills out[0..max)
 * and returns their number (DEC_NO_DATA and control transfers without a
 * memory operand give 0), or -1 for DEC_UNSUPPORTED or max < insn->nmem.
 * out[i] is the access of insn->mem[i] (max = DEC_MAX_MEM always
 * suffices).  REP strings: one range per operand covering all rcx
 * iterations in the direction of DF; for repe/repne cmps/scas that is the
 * maximum (the loop may stop earlier): an over-approximation.  A range
 * that would wrap around the end of the address space (or of the 32-bit
 * space under DEC_MEMF_ADDR32) is cut there: the wrapped part would start
 * at address 0, which Linux never maps (vm.mmap_min_addr), so the
 * instruction faults before touching it. */
int dec_accesses(const struct dec_insn *insn, const struct dec_regs *r,
		 struct dec_access *out, int max);

/* Does an operand of insn depend on the mask registers? */
bool dec_uses_kregs(const struct dec_insn *insn);
/* Fill r->k from an XSAVE area in standard format (ptrace's
 * NT_X86_XSTATE, len bytes): the opmask component, or zeros when
 * XSTATE_BV says it is in its initial state.  r->kvalid tells whether
 * it could. */
void dec_kregs_from_xsave(const void *xs, size_t len, struct dec_regs *r);

/* Size in bytes of the xsave area of every feature enabled in XCR0 (the
 * upper bound used for DEC_MEMF_XSAVE operands).  The default comes from
 * CPUID leaf 0xD sub-leaf 0 (EBX); the tracer may set the size the kernel
 * reports (the length of the NT_X86_XSTATE regset).  Set it before
 * decoding anything: cached instructions keep the size they were decoded
 * with; 0 restores the CPUID default.  Process-wide (it describes the
 * machine). */
void dec_set_xsave_size(uint32_t bytes);
uint32_t dec_xsave_size(void);

/* Disassembly text (Capstone, Intel syntax), e.g. "mov dword ptr [rip +
 * 0x2ee5], eax".  Returns buf. */
const char *dec_format(const uint8_t *code, size_t n, uint64_t pc, char *buf,
		       size_t size);

const char *dec_class_name(enum dec_class c);

/* "Zydis 4.0.0 (built with 4.0.0), Capstone 4.0 (built with 4.0.2)":
 * the decoder libraries, for --version (version.c).  Returns buf. */
const char *dec_lib_versions(char *buf, size_t size);

/* Invariant checker (STYLE.md habit 3): 0 if insn is well-formed (valid
 * registers, sizes and kinds; STACK operands based on rsp/rbp, STRING on
 * rsi/rdi; rep ⇔ REP_STRING, lock ⇔ LOCKED_RMW outside UNSUPPORTED; no
 * operand on NO_DATA; a target exactly for direct branches; copy.dst in
 * regs_written ...), else -1 with *why naming the broken rule.  For
 * --sanity and the tests. */
int dec_check(const struct dec_insn *insn, const char **why);

/* Decode cache keyed by address: each instruction decoded once per run.
 * fetch(ctx, pc, buf, 16) must fill buf with the *original* code bytes at
 * pc (breakpoints removed) and return how many it could read (0 =
 * unmapped). */
struct dcache;
typedef size_t (*dec_fetch_fn)(void *ctx, uint64_t pc, uint8_t *buf,
			       size_t n);
struct dcache *dcache_new(dec_fetch_fn fetch, void *ctx);
void dcache_free(struct dcache *dc);
/* NULL if the bytes at pc cannot be read or decoded. */
const struct dec_insn *dcache_get(struct dcache *dc, uint64_t pc);
/* Forget everything in [lo, hi) (munmap, mprotect of code, ...). */
void dcache_invalidate(struct dcache *dc, uint64_t lo, uint64_t hi);
struct dcache_stats {
	uint64_t lookups, hits, decoded;
	double decode_seconds;
};
void dcache_stats(const struct dcache *dc, struct dcache_stats *out);

#endif
