/* symcfi.h — how to find the caller of the code at an address: the
 * x86-64 DWARF call frame information (.eh_frame, and .debug_frame for code without unwind tables) of
 * one ELF object, via libdwarf.  Private to src/report/: sym.c is the
 * only user.
 *
 * At a code address the canonical frame address is CFA = rsp + off or
 * rbp + off; the return address is at CFA - 8 (x86-64 psABI); rbp is
 * either unchanged or saved at CFA + rbp_off.  Rules needing a DWARF
 * expression (signal frames, hand-written assembly) are not followed.
 * Answers are cached by address: the same few code addresses are asked
 * for over and over (every event of every execution).
 */
#ifndef X86SMC_SYMCFI_H
#define X86SMC_SYMCFI_H

#include <stdbool.h>
#include <stdint.h>

struct symcfi;

struct symcfi_rule {
	int reg;         /* 7 (rsp) or 6 (rbp) */
	int64_t off;
	bool rbp_saved;  /* else rbp is unchanged */
	int64_t rbp_off;
};

/* The CFI of the ELF file open on fd (duplicated and kept), or NULL. */
struct symcfi *symcfi_load(int fd);
void symcfi_free(struct symcfi *t);

/* 0 with the rule at link-time address vaddr, or -1 if none. */
int symcfi_rule(struct symcfi *t, uint64_t vaddr, struct symcfi_rule *out);

#endif
