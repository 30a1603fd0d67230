/* bp.c — persistent int3 breakpoints.
 *
 * A breakpoint marks a *stop point*: an instruction before which the
 * running thread must stop because it may be a visible event (or because
 * the walk could not see past it).  Breakpoints are never removed: a stop
 * point stays a stop point for every thread (stopping more than needed
 * costs time, never correctness), and a fork snapshot inherits the ones
 * inserted before it.  To execute the instruction under a breakpoint the
 * tracer restores the original byte, single-steps, and re-inserts it
 * (tr_exec_insn); or performs it itself (an event, emulate.h); or, for a
 * local instruction the walk saw past, restores the byte for the run to
 * the next stop point (tracer.c, run_local).  Regions lift the ones they
 * run into (region.c, region_run; region_hit: lifted up front later).
 *
 * The decoder must see original bytes: bp_fetch() patches them back. */
#include <stdlib.h>
#include <string.h>

#include "tracer/log.h"
#include "tracer/tracer_priv.h"

static size_t lower_bound(const struct tracer *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nbps;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (t->bps[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct bp *bp_entry(struct tracer *t, uint64_t addr)
{
	size_t i = lower_bound(t, addr);

	return (i < t->nbps && t->bps[i].addr == addr) ? &t->bps[i] : NULL;
}

struct bp *bp_find(struct tracer *t, uint64_t addr)
{
	struct bp *b = bp_entry(t, addr);

	return b && !b->absent ? b : NULL;
}

int bp_insert(struct tracer *t, uint64_t addr, uint8_t hook)
{
	static const uint8_t int3 = 0xcc;
	struct bp *b = bp_entry(t, addr);
	uint8_t orig;

	if (b && !b->absent) {
		if (hook)
			b->hook = hook;
		return 0;
	}
	if (proc_read(&t->proc, addr, &orig, 1) != 1 ||
	    proc_write(&t->proc, addr, &int3, 1) != 1)
		return -1;
	bool unsure = !tr_snapshot_poke(t, addr, int3);
	if (b) { /* planted again in code mapped anew */
		b->orig = orig;
		b->absent = false;
		b->unsure = true;
		if (hook)
			b->hook = hook;
		return 0;
	}
	if (t->nbps == t->capbps) {
		size_t cap = t->capbps ? 2 * t->capbps : 256;
		struct bp *p = realloc(t->bps, cap * sizeof *p);
		if (!p)
			return -1;
		t->bps = p;
		t->capbps = cap;
	}
	size_t i = lower_bound(t, addr);
	memmove(&t->bps[i + 1], &t->bps[i], (t->nbps - i) * sizeof *t->bps);
	t->bps[i] = (struct bp){ .addr = addr, .orig = orig, .hook = hook,
				 .unsure = unsure };
	t->nbps++;
	t->st.breakpoints++;
	return 0;
}

size_t bp_fetch(void *tracer, uint64_t pc, uint8_t *buf, size_t n)
{
	struct tracer *t = tracer;
	size_t got = proc_read(&t->proc, pc, buf, n);

	for (size_t i = lower_bound(t, pc);
	     i < t->nbps && t->bps[i].addr < pc + got; i++)
		if (!t->bps[i].absent)
			buf[t->bps[i].addr - pc] = t->bps[i].orig;
	return got;
}

/* A breakpoint in code mapped after the snapshot (or a checkpoint) was
 * made is not in that copy: after a restore the code is mapped again
 * without it (measured: libgcc_s, which glibc dlopens in pthread_exit,
 * ran its destructors without their events in every execution after the
 * first, and a --jobs worker replaying a prefix of its first execution
 * diverged, tests/fuzz_explore/found/jobs2_lost_outcome.c).  Such a
 * breakpoint stays known but absent, not a stop point, until the walk
 * plants it again; one read per such breakpoint per restore. */
void bp_restored(struct tracer *t)
{
	for (size_t i = 0; i < t->nbps; i++) {
		struct bp *b = &t->bps[i];
		uint8_t byte;
		if (b->unsure)
			b->absent = proc_read(&t->proc, b->addr, &byte, 1) != 1 ||
				    byte != 0xcc;
	}
}

/* Put the original bytes back in [lo, hi) (lift = true) or the int3s
 * (lift = false): an instruction may hold more than one breakpoint when
 * code jumps into its middle (glibc's "je 1f; lock; 1: cmpxchg"). */
void bp_lift(struct tracer *t, uint64_t lo, uint64_t hi, bool lift)
{
	static const uint8_t int3 = 0xcc;

	for (size_t i = lower_bound(t, lo); i < t->nbps && t->bps[i].addr < hi;
	     i++)
		if (!t->bps[i].absent)
			proc_write(&t->proc, t->bps[i].addr,
				   lift ? &t->bps[i].orig : &int3, 1);
}

bool bp_native_lifted(uint8_t hook)
{
	return hook == 0 || lib_hook(hook) || sync_hook(hook) ||
	       hook == HOOK_ATOMIC_BEGIN ||
	       hook == HOOK_ATOMIC_END || hook == HOOK_ATOMIC_CALL;
}

static int native_lift(struct tracer *t, const struct bp *b)
{
	if (t->nnlift == t->capnlift) {
		size_t cap = t->capnlift ? 2 * t->capnlift : 64;
		uint64_t *a = realloc(t->nlift, cap * sizeof *a);
		if (!a)
			return -1;
		t->nlift = a;
		t->capnlift = cap;
	}
	t->nlift[t->nnlift++] = b->addr;
	return proc_write(&t->proc, b->addr, &b->orig, 1) == 1 ? 0 : -1;
}

/* Native mode lifts its stop points lazily: one hit, one lift (a
 * native run is often a few instructions before the end; lifting every
 * breakpoint up front cost most of the 150 writes to /proc/PID/mem of an
 * execution of fib_bench_true_join).  The stop points inside the hit
 * instruction go with it: with "je 1f; lock; 1: cmpxchg" walked both
 * ways, lifting only the one at the lock prefix let the CPU decode
 * "lock int3" (SIGILL; samples/lock_jump.c). */
int bp_native_hit(struct tracer *t, const struct bp *b)
{
	const struct dec_insn *in = dcache_get(t->dc, b->addr);
	uint64_t end = b->addr + (in ? in->len : 1);

	if (native_lift(t, b) < 0)
		return -1;
	for (size_t i = lower_bound(t, b->addr + 1);
	     i < t->nbps && t->bps[i].addr < end; i++)
		if (!t->bps[i].absent && bp_native_lifted(t->bps[i].hook) &&
		    native_lift(t, &t->bps[i]) < 0)
			return -1;
	return 0;
}

void bp_native_restore(struct tracer *t)
{
	static const uint8_t int3 = 0xcc;

	for (size_t i = 0; i < t->nnlift; i++)
		proc_write(&t->proc, t->nlift[i], &int3, 1);
	t->nnlift = 0;
}
