/* lock_jump.c — code that jumps over a lock prefix, as glibc does
 * ("cmpl $0, __libc_single_threaded; je 1f; lock; 1: cmpxchg").  The
 * walk plants a stop point at both starts: the lock prefix and the
 * cmpxchg one byte into it.  When main runs alone at the end (native
 * mode) and takes the locked path, lifting only the breakpoint it hit
 * left an int3 inside the instruction: the CPU decoded "lock int3" and
 * raised SIGILL (x86smc of 06cb9f6: "internal error: SIGILL on one of
 * x86smc's breakpoints inside an instruction" in every execution; the likely
 * cause of fuzz-explore F seed 23251's one SIGILL).
 *
 * Each step reads W and compare-exchanges W + 1 into it (the locked form
 * once flag is set, the plain one before): a step whose compare fails
 * adds nothing; main's own step, alone, always succeeds: W ends at 2 or 3.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: W=2
// outcome sc tso pso: exit 0: W=3
#include "common.h"

static volatile int flag;
static long W;

static void step(void)
{
	long old = W, next = old + 1;

	__asm__ volatile("cmpl $0, %[f]\n\t"
			 "je 1f\n\t"
			 "lock\n"
			 "1:\tcmpxchgq %[n], %[w]"
			 : "+a"(old), [w] "+m"(W)
			 : [f] "m"(flag), [n] "r"(next)
			 : "memory", "cc");
}

static void *worker(void *arg)
{
	(void)arg;
	step();
	flag = 1;
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	xcreate(&a, worker, NULL);
	xcreate(&b, worker, NULL);
	xjoin(a);
	xjoin(b);
	step(); /* alone: native, the locked form */
	printf("W=%ld\n", W);
	return 0;
}
