/* access.c — dec_accesses(): the concrete bytes an instruction touches,
 * from its symbolic operands and the registers of the thread about to run
 * it; and the xsave geometry of this machine (CPUID leaf 0xD), which the
 * xsave family needs.  No decoder library here: the address arithmetic is
 * ours (decode.h says why).
 */
#include <cpuid.h>
#include <pthread.h>
#include <string.h>

#include "decode/decode.h"
#include "decode/decode_priv.h"

#define RFLAGS_DF 0x400u
#define XSAVE_LEGACY 576u /* legacy region (512) + xsave header (64) */

/* xsave geometry, filled once from CPUID. */
static struct {
	uint64_t xcr0;      /* 0 when the OS has not enabled xsave */
	uint32_t full;      /* CPUID.(0xD,0).EBX: every XCR0 feature */
	uint32_t off[64];   /* standard-format offset of component i */
	uint32_t size[64];  /* size of component i */
	uint64_t align64;   /* bit i: 64-byte aligned in compacted format */
} xg;
static pthread_once_t xonce = PTHREAD_ONCE_INIT;
static uint32_t xsave_override; /* dec_set_xsave_size(); 0 = none */

static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

static void xinit(void)
{
	unsigned a, b, c, d;

	xg.full = XSAVE_LEGACY;
	if (__get_cpuid_max(0, NULL) < 0xd || !__get_cpuid(1, &a, &b, &c, &d) ||
	    !(c & bit_OSXSAVE))
		return;
	xg.xcr0 = xgetbv0();
	__cpuid_count(0xd, 0, a, b, c, d);
	if (b > XSAVE_LEGACY)
		xg.full = b;
	for (int i = 2; i < 63; i++) {
		if (!(xg.xcr0 >> i & 1))
			continue;
		__cpuid_count(0xd, i, a, b, c, d);
		xg.size[i] = a;
		xg.off[i] = b;
		if (c & 2)
			xg.align64 |= 1ull << i;
	}
}

void dec_set_xsave_size(uint32_t bytes)
{
	xsave_override = bytes;
}

uint32_t dec_xsave_size(void)
{
	pthread_once(&xonce, xinit);
	return xsave_override ? xsave_override : xg.full;
}

/* SDM vol. 1 §13.4: the standard format puts component i at a fixed
 * offset; the compacted format (xsavec) packs the components of
 * RFBM = XCR0 & req in order, 64-byte aligning those that ask for it. */
uint32_t dec_xsave_extent(int compact, uint64_t req)
{
	uint32_t limit = dec_xsave_size(), end = XSAVE_LEGACY;
	uint64_t rfbm = xg.xcr0 & req;

	for (int i = 2; i < 63; i++) {
		if (!(rfbm >> i & 1))
			continue;
		if (!compact) {
			if (xg.off[i] + xg.size[i] > end)
				end = xg.off[i] + xg.size[i];
			continue;
		}
		if (xg.align64 >> i & 1)
			end = (end + 63) & ~63u;
		end += xg.size[i];
	}
	return end < limit ? end : limit;
}

/* base + index*scale + disp, before any 32-bit wrap and segment base. */
static uint64_t effective(const struct dec_insn *in, const struct dec_mem *m,
			  const struct dec_regs *r)
{
	uint64_t a = (uint64_t)m->disp;

	if (m->base == DEC_RIP)
		a += in->pc + in->len;
	else if (m->base >= 0 && m->base < 16)
		a += r->gpr[m->base];
	if (m->index >= 0 && m->index < 16)
		a += r->gpr[m->index] * m->scale;
	return a;
}

/* bt* m, r: SDM vol. 2 "BT": the bit offset is a signed operand-size
 * integer; the access is operand-size bytes at
 * EA + size * floor(offset / (8 * size)). */
static uint64_t bit_displacement(const struct dec_mem *m,
				 const struct dec_regs *r)
{
	unsigned shift = m->size == 2 ? 4 : m->size == 4 ? 5 : 6;
	uint64_t raw = r->gpr[m->bitreg];
	int64_t off;

	if (m->size == 2)
		off = (int16_t)raw;
	else if (m->size == 4)
		off = (int32_t)raw;
	else
		off = (int64_t)raw;
	return (uint64_t)((off >> shift) * (int64_t)m->size); /* arithmetic */
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	uint64_t p;

	return __builtin_mul_overflow(a, b, &p) ? UINT64_MAX : p;
}

/* REP string operand: all rcx (ecx) iterations in the direction of DF. */
static void rep_range(const struct dec_mem *m, const struct dec_regs *r,
		      struct dec_access *a)
{
	uint64_t n = r->gpr[DEC_RCX], s = m->size;

	if (m->flags & DEC_MEMF_ADDR32)
		n = (uint32_t)n;
	if (n == 0) {
		a->size = 0;
		return;
	}
	if (!(r->rflags & RFLAGS_DF)) {
		a->size = mul_sat(n, s);
		return;
	}
	uint64_t back = mul_sat(n - 1, s), last = a->addr;
	a->addr = back > last ? 0 : last - back;
	a->size = last - a->addr + s;
}

/* Cut a range at the end of the (32-bit) address space: see decode.h. */
static void clip(struct dec_access *a, bool a32)
{
	if (a32) {
		uint64_t room = (1ull << 32) - a->addr;
		if (a->size > room)
			a->size = room;
	} else if (a->addr + a->size < a->addr) {
		a->size = -a->addr;
	}
}

/* DEC_MEMF_KMASK: the elements the mask selects, first to last (none
 * selected: the first, a byte too many rather than an access of 0
 * bytes, which the search reads as 1). */
static void kmask_range(const struct dec_mem *m, const struct dec_regs *r,
			struct dec_access *a)
{
	unsigned n = m->size / m->esize;
	uint64_t k = r->k[m->kreg & 7];

	if (n < 64)
		k &= (1ull << n) - 1;
	if (!k) {
		a->size = m->esize;
		return;
	}
	unsigned lo = (unsigned)__builtin_ctzll(k);
	unsigned hi = 63u - (unsigned)__builtin_clzll(k);
	a->addr += (uint64_t)lo * m->esize;
	a->size = (uint64_t)(hi - lo + 1) * m->esize;
}

bool dec_uses_kregs(const struct dec_insn *insn)
{
	for (int i = 0; i < insn->nmem; i++)
		if (insn->mem[i].flags & DEC_MEMF_KMASK)
			return true;
	return false;
}

void dec_kregs_from_xsave(const void *xs, size_t len, struct dec_regs *r)
{
	const uint8_t *x = xs;
	uint64_t bv;

	pthread_once(&xonce, xinit);
	r->kvalid = false;
	if (len < XSAVE_LEGACY || !(xg.xcr0 >> 5 & 1) || !xg.off[5])
		return;
	memcpy(&bv, x + 512, 8); /* XSTATE_BV */
	if (!(bv >> 5 & 1)) {
		memset(r->k, 0, sizeof r->k); /* the initial state */
	} else {
		if (xg.off[5] + sizeof r->k > len)
			return;
		memcpy(r->k, x + xg.off[5], sizeof r->k);
	}
	r->kvalid = true;
}

static void one(const struct dec_insn *in, const struct dec_mem *m,
		const struct dec_regs *r, struct dec_access *a)
{
	bool a32 = m->flags & DEC_MEMF_ADDR32;

	a->addr = effective(in, m, r);
	a->size = m->size;
	a->rw = m->rw;
	a->kind = m->kind;
	if (m->flags & DEC_MEMF_BITREG)
		a->addr += bit_displacement(m, r);
	if (a32)
		a->addr = (uint32_t)a->addr;
	if (m->flags & (DEC_MEMF_XSAVE | DEC_MEMF_XSAVEC))
		a->size = dec_xsave_extent(
			m->flags & DEC_MEMF_XSAVEC,
			(r->gpr[DEC_RDX] << 32) | (uint32_t)r->gpr[DEC_RAX]);
	if (m->kind == DEC_MEM_STRING && in->rep)
		rep_range(m, r, a);
	if ((m->flags & DEC_MEMF_KMASK) && r->kvalid)
		kmask_range(m, r, a);
	clip(a, a32);
	if (m->seg == DEC_SEG_FS)
		a->addr += r->fs_base;
	else if (m->seg == DEC_SEG_GS)
		a->addr += r->gs_base;
	if (m->seg != DEC_SEG_NONE) /* the base can carry it past the end */
		clip(a, false);
}

int dec_accesses(const struct dec_insn *insn, const struct dec_regs *r,
		 struct dec_access *out, int max)
{
	if (insn->cls == DEC_UNSUPPORTED || insn->nmem > max)
		return -1;
	for (int i = 0; i < insn->nmem; i++)
		one(insn, &insn->mem[i], r, &out[i]);
	return insn->nmem;
}
