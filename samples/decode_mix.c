/* decode_mix.c — the instruction forms whose access sets the decoder must
 * get exactly right, executed by two threads on their own data (so every
 * interleaving gives the same result): rep movsb and rep stosq forwards
 * (cld) and backwards (std), SSE and AVX loads and stores (AVX only where
 * the CPU has it), lock cmpxchg16b on an aligned 16-byte slot, lock xadd,
 * push/pop with memory operands (pop [rsp] included: its address is taken
 * after the increment), call/ret through inline asm, and __thread
 * (fs-relative) accesses.  Each thread checks its own results with
 * assert; main prints one deterministic line.
 */
// x86smc: --max-executions 30
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include <stdint.h>
#include <string.h>
#include "common.h"

#define N 32 /* bytes per copy */

struct data {
	_Alignas(64) uint8_t src[N];
	uint8_t dst[N];
	uint8_t back[N];
	uint64_t q[4];
	uint64_t qback[4];
	_Alignas(16) uint8_t vsrc[32];
	uint8_t vdst[32];
	_Alignas(16) uint64_t pair[2]; /* cmpxchg16b slot */
	uint64_t counter;              /* lock xadd */
	uint64_t pp_src, pp_dst, pp_rsp; /* push/pop [mem] */
	uint64_t calls, ret_addr;
	uint64_t sum;
};

static struct data g[2];
static __thread uint64_t tls_acc = 5;
static __thread uint8_t tls_buf[16];

static void rep_movsb(void *dst, const void *src, size_t n, int backwards)
{
	if (!backwards) {
		__asm__ volatile("cld\n\trep movsb"
				 : "+D"(dst), "+S"(src), "+c"(n)
				 :
				 : "memory");
		return;
	}
	/* DF=1: rsi/rdi point at the last byte; the ABI wants DF=0 back */
	dst = (uint8_t *)dst + n - 1;
	src = (const uint8_t *)src + n - 1;
	__asm__ volatile("std\n\trep movsb\n\tcld"
			 : "+D"(dst), "+S"(src), "+c"(n)
			 :
			 : "memory");
}

static void rep_stosq(uint64_t *dst, uint64_t v, size_t n, int backwards)
{
	if (!backwards) {
		__asm__ volatile("cld\n\trep stosq"
				 : "+D"(dst), "+c"(n)
				 : "a"(v)
				 : "memory");
		return;
	}
	dst += n - 1;
	__asm__ volatile("std\n\trep stosq\n\tcld"
			 : "+D"(dst), "+c"(n)
			 : "a"(v)
			 : "memory");
}

static void strings(struct data *d, int id)
{
	for (int i = 0; i < N; i++)
		d->src[i] = (uint8_t)(i * 7 + id);
	rep_movsb(d->dst, d->src, N, 0);
	rep_movsb(d->back, d->src, N, 1);
	assert(memcmp(d->dst, d->src, N) == 0);
	assert(memcmp(d->back, d->src, N) == 0);
	/* overlapping move downwards needs the forward direction, upwards
	 * the backward one (what memmove does) */
	rep_movsb(d->dst + 1, d->dst, N - 1, 1);
	assert(d->dst[0] == d->src[0] && d->dst[N - 1] == d->src[N - 2]);

	rep_stosq(d->q, 0x1111111111111111ull * (uint64_t)(id + 1), 4, 0);
	rep_stosq(d->qback, 0xabcdull + (uint64_t)id, 3, 1);
	for (int i = 0; i < 4; i++)
		assert(d->q[i] == 0x1111111111111111ull * (uint64_t)(id + 1));
	assert(d->qback[0] == 0xabcdull + (uint64_t)id &&
	       d->qback[2] == 0xabcdull + (uint64_t)id && d->qback[3] == 0);
}

static void sse(struct data *d)
{
	for (int i = 0; i < 32; i++)
		d->vsrc[i] = (uint8_t)(255 - i);
	/* movaps (aligned 16) load, movups store, movq store of 8 bytes */
	__asm__ volatile("movaps (%1), %%xmm0\n\t"
			 "movups %%xmm0, (%0)\n\t"
			 "movq %%xmm0, 16(%0)"
			 :
			 : "r"(d->vdst), "r"(d->vsrc)
			 : "xmm0", "memory");
	assert(memcmp(d->vdst, d->vsrc, 16) == 0);
	assert(memcmp(d->vdst + 16, d->vsrc, 8) == 0);
}

static void avx(struct data *d)
{
	if (!__builtin_cpu_supports("avx")) {
		memcpy(d->vdst, d->vsrc, 32);
		return;
	}
	__asm__ volatile("vmovdqu (%1), %%ymm1\n\t"
			 "vmovdqu %%ymm1, (%0)\n\t"
			 "vzeroupper"
			 :
			 : "r"(d->vdst), "r"(d->vsrc)
			 : "xmm1", "memory");
	assert(memcmp(d->vdst, d->vsrc, 32) == 0);
}

static int cas16(uint64_t *p, uint64_t *lo, uint64_t *hi, uint64_t nlo,
		 uint64_t nhi)
{
	int ok;

	__asm__ volatile("lock cmpxchg16b %1"
			 : "=@ccz"(ok), "+m"(*(volatile uint64_t(*)[2])p),
			   "+a"(*lo), "+d"(*hi)
			 : "b"(nlo), "c"(nhi)
			 : "memory");
	return ok;
}

static void atomics(struct data *d, int id)
{
	uint64_t lo = 0, hi = 0, add = 5;

	assert(((uintptr_t)d->pair & 15) == 0);
	assert(cas16(d->pair, &lo, &hi, 10 + (uint64_t)id, 20));
	lo = 1;
	hi = 1;
	assert(!cas16(d->pair, &lo, &hi, 0, 0)); /* fails, loads old */
	assert(lo == 10 + (uint64_t)id && hi == 20);
	__asm__ volatile("lock xaddq %0, %1"
			 : "+r"(add), "+m"(d->counter)
			 :
			 : "memory");
	assert(add == 0 && d->counter == 5);
}

static void push_pop(struct data *d, int id)
{
	uint64_t *src = &d->pp_src, *dst = &d->pp_dst, *r2 = &d->pp_rsp;

	d->pp_src = 0x5151 + (uint64_t)id;
	/* skip the red zone; push [mem] / pop [mem]; then pop [rsp], which
	 * writes where rsp points *after* the increment: it overwrites the
	 * slot pushed first (0x77 replaces pp_src's copy) */
	__asm__ volatile("sub $128, %%rsp\n\t"
			 "pushq (%0)\n\t"
			 "popq (%1)\n\t"
			 "pushq (%0)\n\t"
			 "pushq $0x77\n\t"
			 "popq (%%rsp)\n\t"
			 "popq (%2)\n\t"
			 "add $128, %%rsp"
			 :
			 : "r"(src), "r"(dst), "r"(r2)
			 : "memory");
	assert(d->pp_dst == 0x5151 + (uint64_t)id);
	assert(d->pp_rsp == 0x77);
}

static void call_ret(struct data *d)
{
	uint64_t ra, expect;

	__asm__ volatile("sub $128, %%rsp\n\t"
			 "lea 3f(%%rip), %1\n\t"
			 "call 1f\n"
			 "3:\n\t"
			 "jmp 2f\n"
			 "1:\n\t"
			 "movq (%%rsp), %0\n\t"
			 "addq $1, (%2)\n\t"
			 "ret\n"
			 "2:\n\t"
			 "add $128, %%rsp"
			 : "=&r"(ra), "=&r"(expect)
			 : "r"(&d->calls)
			 : "memory");
	assert(ra == expect && d->calls == 1);
	d->ret_addr = ra;
}

static void thread_local(int id)
{
	for (int i = 0; i < 16; i++)
		tls_buf[i] = (uint8_t)(i + id);
	for (int i = 0; i < 16; i++)
		tls_acc += tls_buf[i];
	assert(tls_acc == 5 + 120 + 16 * (uint64_t)id);
}

static uint64_t checksum(const struct data *d)
{
	uint64_t s = 0;

	for (int i = 0; i < N; i++)
		s = s * 31 + d->dst[i] + d->back[i];
	for (int i = 0; i < 4; i++)
		s = s * 31 + d->q[i] + d->qback[i];
	for (int i = 0; i < 32; i++)
		s = s * 31 + d->vdst[i];
	return s + d->pair[0] + d->pair[1] + d->counter + d->pp_dst +
	       d->pp_rsp + d->calls + tls_acc;
}

static void *work(void *arg)
{
	int id = (int)(long)arg;
	struct data *d = &g[id];

	strings(d, id);
	sse(d);
	avx(d);
	atomics(d, id);
	push_pop(d, id);
	call_ret(d);
	thread_local(id);
	d->sum = checksum(d);
	return NULL;
}

int main(void)
{
	pthread_t t;

	xcreate(&t, work, (void *)1L);
	work((void *)0L);
	xjoin(t);
	assert(g[0].sum != g[1].sum);
	printf("decode_mix: %016llx %016llx\n", (unsigned long long)g[0].sum,
	       (unsigned long long)g[1].sum);
	return 0;
}
