/* emulate.h — instructions the tracer performs itself, without a single
 * step (issue 8: ptrace stops per visible event; docs/EMULATION.md).
 *
 * Performing a visible event by PTRACE_SINGLESTEP costs a stop (~32 µs
 * pinned) plus the lift and re-insertion of its breakpoint.  For the
 * instructions whose whole effect is "read a memory operand, compute,
 * write it and some registers and flags", the tracer instead reads the
 * operand (through the thread's store buffer when the model says so),
 * computes the result here, writes memory through its usual paths and
 * updates the saved registers and rip: the event costs no stop at all.
 *
 * emu_alu() and emu_mov() are the core: pure functions of the
 * instruction as the decoder describes it (struct dec_alu, struct
 * dec_mov: decode.h), the general registers,
 * rflags and the value of the memory operand.  It returns the new
 * registers, rflags and memory value exactly as the CPU computes them:
 *   - add, adc, xadd, inc:   CF, PF, AF, ZF, SF, OF of the addition;
 *   - sub, sbb, cmp, dec, neg, and cmpxchg (flags of cmp accumulator,
 *     [mem]):              those of the subtraction;
 *   - inc, dec:             CF unchanged;
 *   - and, or, xor, test:   CF = OF = 0, AF = 0 (undefined in the manuals;
 *     0 is what AMD and Intel CPUs produce), PF, ZF, SF of the result;
 *   - not, xchg:            no flag changes;
 *   - mov, movzx, movsx, movsxd: no flag changes;
 *   - register writes follow the operand width: a 32-bit write clears
 *     bits 63..32, 8- and 16-bit writes keep the rest; cmpxchg writes the
 *     accumulator only when the comparison fails (and always writes the
 *     memory operand, with its old value on failure, as the CPU does).
 * tests/unit/test_emulate.c checks every operation, width and form
 * against the CPU itself on random operands.
 */
#ifndef X86SMC_EMULATE_H
#define X86SMC_EMULATE_H
#include <stdint.h>

#include "decode/decode.h"

/* The arithmetic flags (CF, PF, AF, ZF, SF, OF): the only rflags bits an
 * emulated instruction changes. */
#define EMU_FLAGS 0x8d5ull

struct emu_state {
	uint64_t gpr[16]; /* indexed by enum dec_reg */
	uint64_t rflags;
	uint64_t mem;     /* the memory operand; its low width bytes count */
};

/* Execute instruction a on s.  Returns 1 if it writes its memory operand
 * (s->mem is then the value written, zero-extended), 0 if it only reads
 * it, -1 if a is not an instruction emu_alu knows (s unchanged). */
int emu_alu(const struct dec_alu *a, struct emu_state *s);

/* The same for a mov or widening load (struct dec_mov): a store sets
 * s->mem (returns 1), a load sets its register from s->mem, zero- or
 * sign-extended to the register's width (returns 0); -1 if m is not
 * one. */
int emu_mov(const struct dec_mov *m, struct emu_state *s);

/* Execute the register-only instruction in (struct dec_local) on s, at
 * *rip, which becomes the next instruction's address.  Returns 1, or -1
 * if in is not one (s unchanged). */
int emu_local(const struct dec_insn *in, struct emu_state *s, uint64_t *rip);

#endif
