/* format.c — dec_format(): disassembly text for traces and reports.
 *
 * Capstone (Intel syntax, the text people know from objdump -M intel and
 * gdb); one handle shared by the whole process, opened on first use and
 * guarded by a mutex (reports are rare, the lock is cheap).  Instructions
 * Capstone 4.0.2 does not know (newer AVX-512 forms, ...) fall back to
 * Zydis' Intel formatter, so every instruction dec_decode() accepts has a
 * text.
 */
#include <pthread.h>
#include <stdio.h>

#include <capstone/capstone.h>
#include <Zydis/Zydis.h>

#include "decode/decode.h"

static pthread_mutex_t fmt_lock = PTHREAD_MUTEX_INITIALIZER;
static csh cs;
static cs_insn *cs_buf;
static int cs_state; /* 0 = not opened, 1 = open, -1 = failed */

static void cs_init(void)
{
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
		cs_state = -1;
		return;
	}
	cs_option(cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_INTEL);
	cs_buf = cs_malloc(cs);
	cs_state = cs_buf ? 1 : -1;
}

static bool cs_text(const uint8_t *code, size_t n, uint64_t pc, char *buf,
		    size_t size)
{
	const uint8_t *p = code;
	uint64_t a = pc;

	if (cs_state == 0)
		cs_init();
	if (cs_state < 0 || !cs_disasm_iter(cs, &p, &n, &a, cs_buf))
		return false;
	snprintf(buf, size, "%s%s%s", cs_buf->mnemonic,
		 cs_buf->op_str[0] ? " " : "", cs_buf->op_str);
	return true;
}

static bool zydis_text(const uint8_t *code, size_t n, uint64_t pc, char *buf,
		       size_t size)
{
	ZydisDisassembledInstruction zi;

	if (!ZYAN_SUCCESS(ZydisDisassembleIntel(ZYDIS_MACHINE_MODE_LONG_64, pc,
						code, n, &zi)))
		return false;
	snprintf(buf, size, "%s", zi.text);
	return true;
}

const char *dec_format(const uint8_t *code, size_t n, uint64_t pc, char *buf,
		       size_t size)
{
	bool ok;

	if (size == 0)
		return buf;
	pthread_mutex_lock(&fmt_lock);
	ok = cs_text(code, n, pc, buf, size);
	pthread_mutex_unlock(&fmt_lock);
	if (!ok && !zydis_text(code, n, pc, buf, size))
		snprintf(buf, size, "(bad)");
	return buf;
}
