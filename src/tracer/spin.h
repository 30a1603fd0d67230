/* spin.h — counted spin loops: a spin that reads shared memory, changes
 * nothing shared and differs from one iteration to the next only in
 * registers whose values nobody reads once the loop is left (an
 * iteration counter) is a wait that may also give up (docs/EVENTS.md,
 * "Spin loops"; await.c blocks it, threads.c runs it out on a timeout,
 * tracer.c watches what follows it). */
#ifndef X86SMC_SPIN_H
#define X86SMC_SPIN_H
#include <stdbool.h>
#include <stdint.h>

#define SPIN_BODY_MAX 48

struct tracer;
struct lthread;

struct spin_loop {
	uint64_t pc[SPIN_BODY_MAX]; /* its instructions (pc[0]: the head) */
	int n;
	uint32_t exit_taint; /* registers (bit i: GPR i, bit 16: the
			      * status flags) an exit may leave holding
			      * what the counter fed */
	uint64_t yield_lo, yield_hi; /* sched_yield, called from the body
				      * (its code counts as the loop's) */
	uint64_t stub; /* the PLT entry the call goes through, or 0 */
};

/* th is back at the head of a loop (its pc) with the same stack and
 * shared values, its registers differing from the last iteration's in
 * seeds (bits as exit_taint); pcs[0..npcs) are the pcs of the
 * iteration's events.  Fills *out if the loop is a candidate counted
 * spin: a body without calls, every event inside, no tainted store. */
bool spin_counted(struct tracer *t, struct lthread *th, uint32_t seeds,
		  const uint64_t *pcs, int npcs, struct spin_loop *out);
bool spin_inside(const struct spin_loop *l, uint64_t pc);
/* The instruction at pc is about to run with *live tainted: -1 if it
 * reads one of them, else 0 and *live without those it overwrites. */
int spin_watch(struct tracer *t, uint64_t pc, uint32_t *live);
#endif
