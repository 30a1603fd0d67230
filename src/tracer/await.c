/* await.c — spin loops as waits (see await.h). */
#include "tracer/await.h"

#include <stdlib.h>
#include <string.h>

#include "tracer/log.h"
#include "tracer/spin.h"
#include "tracer/tracer_priv.h"

#define STACK_HASHED (64u << 10) /* bytes above rsp that are compared */
#define RED_ZONE 128

void await_reset(struct lthread *th)
{
	th->aw.on = false;
}

/* X86SMC_NO_COUNTED_SPINS=1: no loop is taken for a counted spin, each
 * iteration's reads are events (for comparisons with checkers that count
 * every iteration: tests/bench/peers.py, docs/PERFORMANCE.md). */
static bool no_counted_spins(void)
{
	static int off = -1;

	if (off < 0)
		off = getenv("X86SMC_NO_COUNTED_SPINS") != NULL;
	return off;
}

/* A hash of n bytes, eight a step (the stack is hashed at every await
 * window's start: byte by byte it was 4 % of dekker's whole search). */
static uint64_t hash_bytes(const uint8_t *buf, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, buf + i, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	for (; i < n; i++)
		h = (h ^ buf[i]) * 1099511628211ull;
	return h ^ n;
}

/* A hash of the thread's used stack: [rsp - red zone, stack top),
 * which for a thread created by glibc also holds its TLS.  Private
 * stores are not events, so this is how a loop counter kept in memory
 * (at -O0) shows that the iteration was not the same. */
uint64_t await_stack_hash(struct tracer *t, const struct lthread *th,
			  const struct user_regs_struct *r)
{
	static uint8_t buf[STACK_HASHED];
	uint64_t lo = r->rsp - RED_ZONE, hi = th->stack_hi;

	if (!hi || hi <= lo)
		return 0;
	if (hi - lo > STACK_HASHED)
		hi = lo + STACK_HASHED;
	return hash_bytes(buf, proc_read(&t->proc, lo, buf,
					 (size_t)(hi - lo)));
}

/* Do [a, a+an) and [b, b+bn) share a byte? */
static bool overlap(uint64_t a, uint64_t an, uint64_t b, uint64_t bn)
{
	return a < b + bn && b < a + an;
}

/* The first 8 bytes at [addr, addr+size) as thread th would read them:
 * memory under its own buffered stores. */
static uint64_t seen(struct tracer *t, const struct lthread *th,
		     uint64_t addr, uint32_t size)
{
	uint8_t buf[8] = { 0 }, cov[8];
	size_t n = size < 8 ? size : 8;
	uint64_t v = 0;

	proc_read(&t->proc, addr, buf, n);
	sb_forward(&th->sb, addr, buf, cov, n);
	memcpy(&v, buf, n);
	return v;
}

/* Do the locations th's iteration read, and those the one before it
 * stored to, hold what they held then? */
static bool unchanged(struct tracer *t, const struct lthread *th)
{
	for (int i = 0; i < th->aw.nreads; i++) {
		const struct await_read *r = &th->aw.reads[i];
		if (seen(t, th, r->addr, r->size) != r->val)
			return false;
	}
	for (int i = 0; th->aw.prev_ok && i < th->aw.nprev; i++) {
		const struct await_write *p = &th->aw.prev[i];
		if (seen(t, th, p->addr, p->size) != p->val)
			return false;
	}
	return true;
}

/* The iteration stored val to [addr, addr+size). */
static bool add_write(struct await_win *w, uint64_t addr, uint64_t size,
		      uint64_t val)
{
	if (size > 8)
		return false; /* values are kept up to 8 bytes */
	for (int i = 0; i < w->nwrites; i++)
		if (w->writes[i].addr == addr && w->writes[i].size == size) {
			w->writes[i].val = val;
			w->writes[i].at = w->nev;
			return true;
		}
	for (int i = 0; i < w->nwrites; i++)
		if (overlap(addr, size, w->writes[i].addr, w->writes[i].size))
			return false; /* overlapping ranges: not followed */
	if (w->nwrites == AW_MAX_WRITES)
		return false;
	w->writes[w->nwrites++] = (struct await_write){ addr,
							(uint32_t)size, val,
							w->nev };
	return true;
}

/* A read of [addr, addr+size) that saw val: -1 if it reads a location
 * the iteration stored to but not that store's value (another thread's
 * store came between: the iteration is not one the thread would repeat
 * alone), 1 if it read back its own store, 0 if the iteration did not
 * store there. */
static int own_read(const struct await_win *w, uint64_t addr, uint64_t size,
		    uint64_t val)
{
	for (int i = 0; i < w->nwrites; i++) {
		const struct await_write *x = &w->writes[i];
		if (overlap(addr, size, x->addr, x->size))
			return x->addr == addr && x->size == size &&
					       x->val == val
				       ? 1
				       : -1;
	}
	return 0;
}

/* Did the iteration store to the same locations as the one before (its
 * values were compared by unchanged())? */
static bool same_stores(const struct await_win *w)
{
	if (!w->prev_ok || w->nwrites != w->nprev)
		return false;
	for (int i = 0; i < w->nwrites; i++) {
		bool found = false;
		for (int j = 0; j < w->nprev && !found; j++)
			found = w->prev[j].addr == w->writes[i].addr &&
				w->prev[j].size == w->writes[i].size;
		if (!found)
			return false;
	}
	return true;
}

static bool add_read(struct await_win *w, uint64_t addr, uint32_t size,
		     uint64_t val)
{
	for (int i = 0; i < w->nreads; i++)
		if (w->reads[i].addr == addr && w->reads[i].size == size &&
		    w->reads[i].val == val) {
			w->reads[i].at = w->nev;
			return true;
		}
	if (w->nreads == AW_MAX_READS)
		return false;
	w->reads[w->nreads++] = (struct await_read){ addr, size, val,
						     w->nev };
	return true;
}

/* Does ev leave shared memory as it was, so far as its accesses show?
 * Its reads go into the iteration. */
static bool only_reads(struct await_win *w, const struct tr_event *ev)
{
	/* pause, sched_yield, nanosleep: yields (CHESS's good samaritan) */
	if (ev->kind == EV_YIELD || ev->kind == EV_FENCE)
		return true;
	/* a value drawn (__VERIFIER_nondet_*): an iteration that comes back
	 * to the same state with the values it drew would do so again; the
	 * other values are explored where it drew them (SV-COMP's qrcu:
	 * `while (1) { myidx = idx; if (nondet()) break; ... }` ran every
	 * execution to --max-steps) */
	if (ev->kind == EV_NONDET) {
		w->drew = true;
		return true;
	}
	if (ev->region || ev->sysno >= 0)
		return false;
	if (ev->kind != EV_MEM && ev->kind != EV_RMW)
		return false;
	for (int i = 0; i < ev->nacc; i++) {
		const struct dec_access *a = &ev->acc[i];
		if (a->size > 8)
			return false; /* values are kept up to 8 bytes */
		/* what it read: a value of the iteration's state, unless it
		 * reads back what the iteration itself stored */
		if (a->rw & DEC_READ) {
			int own = own_read(w, a->addr, a->size, ev->rval[i]);
			if (own < 0 ||
			    (own == 0 && !add_read(w, a->addr,
						   (uint32_t)a->size,
						   ev->rval[i])))
				return false;
		}
		/* a store, or a locked instruction that changed the value:
		 * the next iteration may undo it (await_at_pending) */
		if ((a->rw & DEC_WRITE) &&
		    (!(a->rw & DEC_READ) || ev->rval[i] != ev->wval[i] ||
		     own_read(w, a->addr, a->size, ev->rval[i]) > 0) &&
		    !add_write(w, a->addr, a->size, ev->wval[i]))
			return false;
	}
	/* tso/pso: the stores it put into its buffer */
	for (int i = 0; i < ev->nst; i++)
		if (!add_write(w, ev->st[i].addr, ev->st[i].size,
			       ev->st[i].val))
			return false;
	return true;
}

void await_after_event(struct tracer *t, struct lthread *th,
		       const struct tr_event *ev)
{
	struct await_win *w = &th->aw;

	(void)t;
	if (!w->on)
		return;
	if (++w->nev > AW_MAX_EVENTS || !only_reads(w, ev))
		w->on = false;
}

/* Where th's pending event is, for telling the loop's events apart: its
 * pc, or for a drawn value the return address into the caller (two
 * __VERIFIER_nondet_int() calls of one iteration are at the same pc, the
 * function's; taken for the loop's head, the second restarted the window
 * at every iteration and qrcu's loop never closed) */
static uint64_t site(const struct lthread *th)
{
	const struct tr_event *p = &th->info.pending;

	return th->info.pending_known && p->kind == EV_NONDET && p->caller
		       ? p->caller
		       : th->regs.rip;
}

/* A window starts at th's pending event, whose stack hashes to stack. */
static void start_hashed(struct lthread *th, uint64_t stack)
{
	struct await_win *w = &th->aw;

	w->on = true;
	w->pc0 = site(th);
	w->regs0 = th->regs;
	w->stack0 = stack;
	w->nev = 0;
	w->nreads = 0;
	w->nwrites = 0;
	w->prev_ok = false;
	w->narr = 0;
	w->drew = false;
	w->pcs[0] = w->pc0;
}

static void start(struct tracer *t, struct lthread *th)
{
	/* hashed now, not lazily at the first return to pc0: waiting one
	 * more iteration to hash there doubled the executions of the spin
	 * samples (spin_tas 750 -> 1776, seqlock 173 -> 367), the extra
	 * reads racing with everything; this read is cheaper */
	start_hashed(th, await_stack_hash(t, th, &th->regs));
}

/* Registers now against the iteration's start: true if they differ at
 * most in GPRs and status flags, those in *seeds (bit i: GPR i in the
 * decoder's numbering, bit 16: the flags). */
static bool same_but(const struct user_regs_struct *a,
		     const struct user_regs_struct *b, uint32_t *seeds)
{
	const unsigned long long *gp[16][2] = {
		{ &a->rax, &b->rax }, { &a->rcx, &b->rcx }, { &a->rdx, &b->rdx },
		{ &a->rbx, &b->rbx }, { &a->rsp, &b->rsp }, { &a->rbp, &b->rbp },
		{ &a->rsi, &b->rsi }, { &a->rdi, &b->rdi }, { &a->r8, &b->r8 },
		{ &a->r9, &b->r9 },   { &a->r10, &b->r10 }, { &a->r11, &b->r11 },
		{ &a->r12, &b->r12 }, { &a->r13, &b->r13 }, { &a->r14, &b->r14 },
		{ &a->r15, &b->r15 },
	};
	const unsigned long long status = 0x8d5; /* CF PF AF ZF SF OF */
	struct user_regs_struct x = *a, y = *b;

	*seeds = 0;
	for (int i = 0; i < 16; i++)
		if (*gp[i][0] != *gp[i][1])
			*seeds |= 1u << i;
	if ((a->eflags ^ b->eflags) & status)
		*seeds |= 1u << 16;
	/* everything else must be equal */
	x.rax = y.rax; x.rcx = y.rcx; x.rdx = y.rdx; x.rbx = y.rbx;
	x.rsp = y.rsp; x.rbp = y.rbp; x.rsi = y.rsi; x.rdi = y.rdi;
	x.r8 = y.r8; x.r9 = y.r9; x.r10 = y.r10; x.r11 = y.r11;
	x.r12 = y.r12; x.r13 = y.r13; x.r14 = y.r14; x.r15 = y.r15;
	x.eflags = (x.eflags & ~status) | (y.eflags & status);
	return memcmp(&x, &y, sizeof x) == 0;
}

static bool close_at(struct tracer *t, struct lthread *th, int nev,
		     uint32_t seeds, uint64_t stack);

bool await_at_pending(struct tracer *t, struct lthread *th)
{
	struct await_win *w = &th->aw;
	uint32_t seeds = 0;

	if (w->runout)
		return false; /* a counted spin running out: threads.c */
	if (!w->on) {
		start(t, th);
		return false;
	}
	if (w->nev == 0)
		return false;
	if (site(th) != w->pc0) {
		/* a pc seen before in this window: the loop's head may be
		 * here, not where the window began (before the loop) --
		 * unless pc0 came back already: it is in the loop */
		for (int i = 1; !w->narr && i < w->nev && i < AW_MAX_EVENTS;
		     i++)
			if (w->pcs[i] == site(th)) {
				start(t, th);
				return false;
			}
		if (w->nev < AW_MAX_EVENTS)
			w->pcs[w->nev] = site(th);
		return false;
	}
	/* back at the iteration's start: the same state, or one that
	 * differs only in a counter (spin.c)? */
	if (!same_but(&th->regs, &w->regs0, &seeds)) {
		start(t, th);
		return false;
	}
	uint64_t stack = await_stack_hash(t, th, &th->regs);
	if (stack != w->stack0) {
		/* pc0 in another call (a helper called twice an iteration)
		 * or in another state (what a call left below rsp the first
		 * time round): the window goes on, and a pc met again no
		 * longer moves it.  A return in the state of an earlier one
		 * closes an iteration from there. */
		uint64_t regs = hash_bytes((const uint8_t *)&th->regs,
					   sizeof th->regs);
		for (int i = 0; i < w->narr; i++)
			if (w->arr[i].stack == stack && w->arr[i].regs == regs)
				return close_at(t, th, w->nev - w->arr[i].nev,
						0, stack);
		if (w->narr < AW_MAX_RETURNS)
			w->arr[w->narr++] = (struct await_return){ stack, regs,
								   w->nev };
		return false;
	}
	return close_at(t, th, w->nev, seeds, stack);
}

/* The iteration of th's window that ends here, its last nev events,
 * came back to the state it began in, but for the registers in seeds:
 * block th if it waits.  stack: the hash of its stack now (a window
 * that does not close starts anew here). */
static bool close_at(struct tracer *t, struct lthread *th, int nev,
		     uint32_t seeds, uint64_t stack)
{
	struct await_win *w = &th->aw;
	int from = w->nev - nev, n = 0; /* the iteration: events after it */

	/* only what the iteration itself read and stored (a window that
	 * began before it also holds what was read before); a store
	 * before it stays as a read of the value stored, since the
	 * iteration may have read it back (own_read) */
	bool full = false;
	for (int i = 0; i < w->nreads; i++)
		if (w->reads[i].at > from)
			w->reads[n++] = w->reads[i];
	w->nreads = n;
	n = 0;
	for (int i = 0; i < w->nwrites; i++) {
		const struct await_write *x = &w->writes[i];
		if (x->at > from)
			w->writes[n++] = *x;
		else
			full |= !add_read(w, x->addr, x->size, x->val);
	}
	w->nwrites = n;
	if (full || !w->nreads || !unchanged(t, th)) {
		start_hashed(th, stack);
		return false;
	}
	/* it stored: waiting only if the next iteration, from this same
	 * state, stores to the same locations and leaves them as they are
	 * now (a counter in a register besides: not taken for a wait) */
	if (w->nwrites && (seeds || !same_stores(w))) {
		struct await_write keep[AW_MAX_WRITES];
		int n = w->nwrites;
		for (int i = 0; i < n; i++) {
			keep[i] = w->writes[i];
			keep[i].val = seen(t, th, keep[i].addr, keep[i].size);
		}
		start_hashed(th, stack);
		if (!seeds) {
			memcpy(w->prev, keep, (size_t)n * sizeof keep[0]);
			w->nprev = n;
			w->prev_ok = true;
		}
		return false;
	}
	w->counted = false;
	if (seeds) {
		int npcs = nev < AW_MAX_EVENTS ? nev : AW_MAX_EVENTS;
		if (no_counted_spins() ||
		    w->nreads > DEC_MAX_MEM || /* its timeout reads them all */
		    (w->nc_pc == w->pc0 && w->nc_seeds == seeds) ||
		    !spin_counted(t, th, seeds, w->pcs, npcs, &w->loop)) {
			w->nc_pc = w->pc0; /* not again at every iteration */
			w->nc_seeds = seeds;
			start_hashed(th, stack);
			return false;
		}
		w->counted = true;
		pr_debug("T%d: counted spin at %#lx (registers %#x)",
			 th->info.tid, (unsigned long)w->pc0, seeds);
	}
	th->info.status = TS_BLOCKED;
	th->info.wait = TW_AWAIT;
	th->info.wait_pc = w->pc0;
	/* the iteration's events changed nothing: the explorer treats them
	 * as stutter (tracer_take_stutter) */
	if (t->nstutter < TR_MAX_THREADS)
		t->stutter[t->nstutter++] = (struct tr_stutter){ th->info.tid,
								  nev };
	th->info.wait_addr = w->reads[0].addr;
	/* a counted spin may also give up (run out): a timeout */
	th->info.timed = w->counted;
	if (w->counted) {
		th->wait_deadline = 0;
		th->wait_seq = ++t->wait_seq;
		w->armed = true; /* watched once out of the loop */
		w->watch = 0;
	}
	th->info.nawait = 0;
	for (int i = 0; i < w->nreads && i < 4; i++)
		th->info.await_addr[th->info.nawait++] = w->reads[i].addr;
	t->st.awaits++;
	return true;
}

static bool touches(const struct await_win *w, const struct dec_access *a)
{
	for (int i = 0; i < w->nreads; i++)
		if (overlap(a->addr, a->size, w->reads[i].addr,
			    w->reads[i].size))
			return true;
	for (int i = 0; w->prev_ok && i < w->nprev; i++)
		if (overlap(a->addr, a->size, w->prev[i].addr,
			    w->prev[i].size))
			return true;
	return false;
}

void await_wake(struct tracer *t, const struct tr_event *ev)
{
	sync_word_written(t, ev); /* the other waits on a word (sync.c) */
	for (int i = 0; i < t->nthreads; i++) {
		struct lthread *th = &t->th[i];
		bool hit = false;
		if (th->info.status != TS_BLOCKED || th->info.wait != TW_AWAIT)
			continue;
		/* what a region or a syscall wrote is not all in its
		 * accesses: look at every location then */
		bool opaque = ev->region || ev->sysno >= 0;
		for (int k = 0; k < ev->nacc && !hit; k++)
			hit = (ev->acc[k].rw & DEC_WRITE) &&
			      touches(&th->aw, &ev->acc[k]);
		if (!(hit || opaque) || unchanged(t, th))
			continue;
		th->info.status = TS_RUNNABLE;
		th->info.wait = TW_NONE;
		th->aw.on = false;
		ts_add(&t->woken, i);
	}
}
