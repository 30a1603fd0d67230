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
 * run into (tracer.c, run_region; region_hit: lifted up front later).
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

struct bp *bp_find(struct tracer *t, uint64_t addr)
{
	size_t i = lower_bound(t, addr);

	return (i < t->nbps && t->bps[i].addr == addr) ? &t->bps[i] : NULL;
}

int bp_insert(struct tracer *t, uint64_t addr, uint8_t hook)
{
	static const uint8_t int3 = 0xcc;
	struct bp *b = bp_find(t, addr);
	uint8_t orig;

	if (b) {
		if (hook)
			b->hook = hook;
		return 0;
	}
	if (proc_read(&t->proc, addr, &orig, 1) != 1 ||
	    proc_write(&t->proc, addr, &int3, 1) != 1)
		return -1;
	tr_snapshot_poke(t, addr, int3);
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
	t->bps[i] = (struct bp){ .addr = addr, .orig = orig, .hook = hook };
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
		buf[t->bps[i].addr - pc] = t->bps[i].orig;
	return got;
}

/* Put the original bytes back in [lo, hi) (lift = true) or the int3s
 * (lift = false): an instruction may hold more than one breakpoint when
 * code jumps into its middle (glibc's "je 1f; lock; 1: cmpxchg"). */
void bp_lift(struct tracer *t, uint64_t lo, uint64_t hi, bool lift)
{
	static const uint8_t int3 = 0xcc;

	for (size_t i = lower_bound(t, lo); i < t->nbps && t->bps[i].addr < hi;
	     i++)
		proc_write(&t->proc, t->bps[i].addr,
			   lift ? &t->bps[i].orig : &int3, 1);
}

bool bp_native_lifted(uint8_t hook)
{
	return hook == 0 || lib_hook(hook) || sync_hook(hook) ||
	       hook == HOOK_ATOMIC_BEGIN ||
	       hook == HOOK_ATOMIC_END || hook == HOOK_ATOMIC_CALL;
}

void bp_lift_plain(struct tracer *t, bool lift)
{
	static const uint8_t int3 = 0xcc;

	for (size_t i = 0; i < t->nbps; i++)
		if (bp_native_lifted(t->bps[i].hook))
			proc_write(&t->proc, t->bps[i].addr,
				   lift ? &t->bps[i].orig : &int3, 1);
}
