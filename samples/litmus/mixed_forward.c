/* mixed_forward.c — mixed-size store forwarding.
 *
 *   T0:                   T1:
 *     x.byte[1] = 0x11      x = 0x22222222
 *     r0 = x                r1 = x.byte[1]
 *
 * Mixed-size store forwarding.  T0 stores one byte (0x11) at x+1, then
 * loads all 4 bytes of x: byte 1 comes from its store buffer while the
 * buffered byte is there, bytes 0, 2, 3 from memory.  T1 stores
 * 0x22222222 to x, then loads the single byte x+1, forwarded from its
 * buffered 4-byte store.  Interesting: r0=0x00001100 r1=0x22
 * x=0x22221122, each thread seeing only its own store and T0's byte
 * landing last.  Allowed under TSO and PSO, forbidden under SC (there
 * r0=0x00001100 means T1 stored after T0's byte, so x ends 0x22222222).
 * A checker that forwards whole stores only, or not at all, reports
 * outcomes outside the TSO set.
 *
 * Source: written for x86smc (byte-granular forwarding).
 *
 * Shared variables start at 0.  Each thread is one inline-asm block, so the
 * compiler keeps the litmus instructions as written at -O0 and -O2.  main
 * prints one line; the set of lines each model allows is in
 * tests/litmus/expected/mixed_forward.{sc,tso,pso} (tests/litmus/model.py).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "../common.h"

static unsigned int x;
static unsigned int r0, r1;

static void *t0(void *arg)
{
	unsigned int v0;

	(void)arg;
	__asm__ volatile("movb $0x11, %[x1]\n\t"
			 "movl %[x], %[r0]"
			 : [x1] "+m"(((unsigned char *)&x)[1]), [r0] "=&r"(v0)
			 : [x] "m"(x)
			 : "memory");
	r0 = v0;
	return NULL;
}

static void *t1(void *arg)
{
	unsigned int v1;

	(void)arg;
	__asm__ volatile("movl $0x22222222, %[x]\n\t"
			 "movzbl %[x1], %[r1]"
			 : [x] "+m"(x), [r1] "=&r"(v1)
			 : [x1] "m"(((unsigned char *)&x)[1])
			 : "memory");
	r1 = v1;
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	xcreate(&t[0], t0, NULL);
	xcreate(&t[1], t1, NULL);
	for (int i = 0; i < 2; i++)
		xjoin(t[i]);
	printf("r0=0x%08x r1=0x%02x x=0x%08x\n", r0, r1, x);
	return 0;
}
