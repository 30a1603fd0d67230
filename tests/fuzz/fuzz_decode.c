/* fuzz_decode.c — libFuzzer harness for the decoder (src/decode/).  The
 * first 15 bytes are an instruction, the rest seed the registers: every
 * decoded instruction must pass dec_check, dec_accesses must return at
 * most DEC_MAX_MEM accesses that do not wrap around, and dec_format must
 * print something.  Undecodable bytes are fine (-1). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decode/decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t code[16] = { 0 };
	size_t n = size < 15 ? size : 15;
	struct dec_insn in;
	struct dec_regs r;
	struct dec_access acc[DEC_MAX_MEM];
	const char *why;
	char text[160];
	uint64_t pc = 0x401000;

	memcpy(code, data, n);
	memset(&r, 0, sizeof r);
	if (size > 15)
		memcpy(&r, data + 15,
		       size - 15 < sizeof r ? size - 15 : sizeof r);
	r.rip = pc;
	/* a bool takes 0 or 1 only (the bytes give the mask registers) */
	r.kvalid = *(const uint8_t *)&r.kvalid & 1;
	if (dec_decode(code, n, pc, &in) < 0)
		return 0;
	if (in.len == 0 || in.len > 15 || in.len > n)
		abort();
	if (dec_check(&in, &why) < 0)
		abort();
	int k = dec_accesses(&in, &r, acc, DEC_MAX_MEM);
	if (k > DEC_MAX_MEM || (k < 0 && in.cls != DEC_UNSUPPORTED))
		abort();
	for (int i = 0; i < k; i++)
		if (acc[i].size && acc[i].addr + acc[i].size - 1 < acc[i].addr)
			abort(); /* a wrapping range (decode.h: cut at the end) */
	dec_format(code, n, pc, text, sizeof text);
	if (!text[0])
		abort();
	return 0;
}
