/* wakeup.c — Optimal-DPOR's wakeup trees (Abdulla, Aronis, Jonsson,
 * Sagonas, "Source Sets: A Foundation for Optimal Dynamic Partial Order
 * Reduction", JACM 64(4) 2017, Sec. 6, Alg. 2).
 *
 * Source-DPOR (POPL'14 Alg. 1) reverses a race (e, e') by adding *one*
 * initial of v = notdep(e).e' to the backtrack set at e; the execution
 * that branch starts may then drift away from v and end up equivalent to
 * one already explored, which the sleep set cuts off as a blocked
 * execution.  Optimal-DPOR keeps v itself: each node holds a wakeup tree,
 * an ordered tree of sequences still to explore from it, and an
 * execution started from a branch follows that branch's events first.
 * Every explored execution is then a new Mazurkiewicz trace and none is
 * sleep-set blocked.
 *
 * Here a node's tree is the sibling list .wroot of its branches not yet
 * taken; the branch being explored is .wcur, whose children become the
 * next node's tree when that node is created (wut_enter).  A sequence v
 * is a list of events; a thread p is a *weak initial* of v after a node
 * (WI) if p has an event in v that no earlier event of v happens before,
 * or p has no event in v and its next event conflicts with none of v's.
 * Inserting v (JACM'17 Def. 6.2): walk down from the node's tree, taking
 * at each level the first child whose thread is a weak initial of what is
 * left of v; that child's event leaves v; a leaf reached means v is
 * covered already; when no child fits, what is left of v becomes a new
 * last branch there. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "dpor/dpor_priv.h"

/* The longest v handled exactly; a longer one is cut there (its tail is
 * left to the branch's free choices: fewer guided steps) and inserted
 * even when a sleeping thread is a weak initial of what is left: a
 * redundant branch, never a lost one. */
#define VMAX 1024

/* An event whose thread's next event is not known (it could still have
 * run before the end of the process): it conflicts with every access. */
static struct tr_event unknown_event(int tid)
{
	struct tr_event e;

	memset(&e, 0, sizeof e);
	e.tid = tid;
	e.sysno = -1;
	e.kind = EV_MEM;
	e.nacc = 1;
	e.acc[0] = (struct dec_access){ 0, UINT64_MAX, DEC_READ | DEC_WRITE,
					0 };
	return e;
}

/* ---- the node pool ---- */

static int32_t wt_new(struct dpor *d, const struct tr_event *ev)
{
	int32_t i;

	if (d->wfree >= 0) {
		i = d->wfree;
		d->wfree = d->wt[i].sibling;
	} else {
		if (d->nwt == d->capwt) {
			int32_t cap = d->capwt ? 2 * d->capwt : 256;
			struct wt *w = realloc(d->wt, (size_t)cap * sizeof *w);
			if (!w)
				return -1;
			d->wt = w;
			d->capwt = cap;
		}
		i = d->nwt++;
	}
	d->wt[i] = (struct wt){ -1, -1, *ev };
	return i;
}

/* Free node i and its subtree (not its siblings). */
static void wt_free(struct dpor *d, int32_t i)
{
	int32_t c = d->wt[i].child;

	while (c >= 0) {
		int32_t s = d->wt[c].sibling;
		wt_free(d, c);
		c = s;
	}
	d->wt[i].child = -1;
	d->wt[i].sibling = d->wfree;
	d->wfree = i;
}

static void wt_free_list(struct dpor *d, int32_t i)
{
	while (i >= 0) {
		int32_t s = d->wt[i].sibling;
		wt_free(d, i);
		i = s;
	}
}

void wut_free_node(struct dpor *d, struct node *n)
{
	wt_free_list(d, n->wroot);
	if (n->wcur >= 0)
		wt_free(d, n->wcur);
	n->wroot = n->wcur = -1;
}

void wut_free_all(struct dpor *d)
{
	free(d->wr);
	d->wr = NULL;
	d->nwr = d->capwr = 0;
	free(d->wt);
	d->wt = NULL;
	d->nwt = d->capwt = 0;
	d->wfree = -1;
}

/* ---- sequences ---- */

struct seq {
	const struct tr_event *e[VMAX];
	int n;
	/* tso: v runs after the nodes before node at and the events a
	 * walk down a wakeup tree took before it (insert): the updates of
	 * those events, per buffer */
	unsigned at;
	uint32_t up[TR_AUX_BASE];
	/* e[x]'s own copy when its values were moved (seq_rebase), else
	 * NULL; freed with seq_free */
	struct tr_event *own[VMAX];
};

/* e[x], a conditional locked add (commute.c), with by's add put before
 * it (add) or taken out: its values as v runs it. */
static void seq_rebase(struct seq *v, int x, const struct tr_event *by,
		       bool add)
{
	struct tr_event e;

	if (!ev_commute_rebase(&e, v->e[x], by, add))
		return;
	if (!v->own[x] && !(v->own[x] = malloc(sizeof e)))
		return; /* out of memory: as for wt_new, nothing better */
	*v->own[x] = e;
	v->e[x] = v->own[x];
}

/* e[x], if a conditional add, as an ordinary write: too many adds left
 * v to move its values (insert_race); more conflicts, none lost. */
static void seq_plain(struct seq *v, int x)
{
	if (!ev_commute_conditional(v->e[x]) ||
	    (!v->own[x] && !(v->own[x] = malloc(sizeof *v->own[x]))))
		return;
	*v->own[x] = *v->e[x];
	v->own[x]->value = 0;
	v->e[x] = v->own[x];
}

static void seq_free(struct seq *v)
{
	for (int x = 0; x < v->n; x++)
		free(v->own[x]);
}

/* Does u, an event of e's thread's update thread, come before e in a
 * way no conflict says?  An event that waits for an empty buffer (its
 * clock orders it after the update: with the two commuting, a v with the
 * update before a thread's lock put the lock first, where it could not
 * run, and the branch was dropped; seed 3298, samples/wakeup_drain.c).
 * Any event of the update thread: the pending one of dpor_ended is an
 * unknown_event, not an EV_UPDATE.  A read e's buffer served is no such
 * event: as_seen places it at its update. */
static bool own_dep(const struct dpor *d, const struct tr_event *u,
		    const struct tr_event *e)
{
	int slot = u->tid - TR_AUX_BASE;

	if (slot < 0 || slot >= TR_AUX_BASE || d->owner[slot] != e->tid)
		return false;
	return ev_needs_drain(e);
}

/* Do a and b not commute, for weak initials?  Besides their conflicts:
 * an end commutes with nothing of another thread, it disables them (its
 * accesses conflict only with output and syscalls, which is right for
 * the races and the sleep sets -- nothing sees a plain access after the
 * end -- but a sleeping end taken as a weak initial of v says "exploring
 * the end here covers v", and v's events never run after it:
 * samples/wakeup_end.c, found/optimal_sc_escape_exit.c); and own_dep. */
static bool wconflict(const struct dpor *d, const struct tr_event *a,
		      const struct tr_event *b)
{
	return dpor_ev_conflict(d, a, b) || ev_ends(a) || ev_ends(b) ||
	       own_dep(d, a, b) || own_dep(d, b, a);
}

/* The buffer slot whose update e is, or -1. */
static int update_slot(const struct tr_event *e)
{
	return e->kind == EV_UPDATE && e->tid >= TR_AUX_BASE &&
			       e->tid < 2 * TR_AUX_BASE
		       ? e->tid - TR_AUX_BASE
		       : -1;
}

/* The position in v of the update of store q of buffer s (v->n if it
 * comes after v), or -1 if it came before v. */
static int update_at(const struct dpor *d, const struct seq *v, int s,
		     uint32_t q)
{
	uint32_t n = dpor_updates_before(d, s, v->at) + v->up[s];

	if (n >= q)
		return -1;
	for (int x = 0; x < v->n; x++)
		if (update_slot(v->e[x]) == s && ++n == q)
			return x;
	return v->n;
}

/* ep, a sleeping or branching thread's next event run before v (tso,
 * TACAS'15 chronological traces): a read its own buffer serves reads the
 * store's value wherever it runs before that store's update, so it is a
 * read at the update's place -- no conflict with v's events before the
 * update (their writes are coherence-before it), nor with the update, a
 * read of memory for v's events after it; once the update came before
 * v, a read of memory.  at[i]: for such a read acc[i], the update's
 * position in v (update_at), else -1.  Returns whether ep has one. */
static bool fwd_places(const struct dpor *d, const struct seq *v,
		       const struct tr_event *ep, int *at)
{
	bool fwd = false;

	for (int i = 0; i < ep->nacc; i++) {
		at[i] = ep->fwd_seq[i] ? update_at(d, v, ep->fwd_slot[i],
						   ep->fwd_seq[i])
				       : -1;
		fwd |= at[i] >= 0;
	}
	return fwd;
}

/* *buf: e with only the accesses in mask want, each a read of memory
 * now (no buffer serves it: that was what left the others out). */
static const struct tr_event *with_accesses(const struct tr_event *e,
					    unsigned want,
					    struct tr_event *buf)
{
	int keep = 0;

	*buf = *e;
	for (int i = 0; i < e->nacc; i++) {
		if (!(want >> i & 1))
			continue;
		buf->acc[keep] = e->acc[i];
		buf->rval[keep] = e->rval[i];
		buf->wval[keep] = e->wval[i];
		buf->fwd_seq[keep] = 0;
		buf->fwd_slot[keep] = 0;
		keep++;
	}
	buf->nacc = keep;
	return buf;
}

/* ep as v->e[x] sees it (fwd_places): *buf, ep without the reads
 * placed at an update at or after x (before the update: no conflict),
 * the other reads as reads of memory.  *kept: the accesses *buf holds
 * (~0u: none built yet); it is built again only when that set changes
 * along v. */
static const struct tr_event *as_seen(const struct tr_event *ep,
				      const int *at, int x,
				      struct tr_event *buf, unsigned *kept)
{
	unsigned want = 0;

	for (int i = 0; i < ep->nacc; i++)
		if (at[i] < x)
			want |= 1u << i;
	if (want == *kept)
		return buf;
	*kept = want;
	return with_accesses(ep, want, buf);
}

/* v->e[x] as it runs in v: a read its thread's buffer serves there --
 * the update of the store it read comes later in v, or after v -- is
 * no access another thread's write conflicts with (the src edge of
 * TACAS'15, dpor.c buffered_read; that one judges by the updates of the
 * execution at hand, which at a race's insertion has run them all).
 * Taken as a read of memory, t2's buffered load of X made t1's exchange
 * of X no weak initial of t2's events though the sleep set had let t1
 * sleep through them: the branch went beside t1's, not under it, later
 * sequences under t1 were covered by that branch's leaf, which t1 slept
 * through, and 9 outcomes were lost
 * (samples/wakeup_tso_bufread.c). */
static const struct tr_event *in_seq(const struct dpor *d,
				     const struct seq *v, int x,
				     struct tr_event *buf)
{
	const struct tr_event *e = v->e[x];
	unsigned want = 0;
	bool served = false;

	for (int i = 0; i < e->nacc; i++)
		if (e->fwd_seq[i] && update_at(d, v, e->fwd_slot[i],
					       e->fwd_seq[i]) > x)
			served = true; /* the buffer serves it */
		else
			want |= 1u << i;
	return served ? with_accesses(e, want, buf) : e;
}

/* Does b, after a in a sequence, happen after it by an edge that is no
 * conflict (dpor.c analyse): a spawn and its child, a wake-up and the
 * thread it woke, a store and an update of its buffer (any later one:
 * an edge too many makes a redundant branch, one too few a lost one)? */
static bool edge(const struct dpor *d, const struct tr_event *a,
		 const struct tr_event *b)
{
	int s = update_slot(b);

	if (a->kind == EV_SPAWN && a->child == b->tid)
		return true;
	if (ts_has(a->woke, b->tid))
		return true;
	if (s >= 0 && d->owner[s] == a->tid)
		for (int k = 0; k < a->nst; k++)
			if (a->st[k].slot == s)
				return true;
	return false;
}

/* Is thread p, whose next event is ep, a weak initial of v? */
static bool weak_initial(const struct dpor *d, const struct seq *v,
			 const struct tr_event *ep)
{
	int p = ep->tid;

	for (int f = 0; f < v->n; f++) {
		if (v->e[f]->tid != p)
			continue;
		/* any path to it inside v ends with a direct edge from an
		 * earlier event of v (p has none before f).  Not the
		 * clocks of the execution v comes from: they order v's
		 * events through events outside v too (t2's store before
		 * t1's lock through t3's exchange and unlock, though v has
		 * neither): a thread asleep there was no weak initial, the
		 * branch redundant (samples/wakeup_drain.c: 2 executions
		 * sleep-set blocked) */
		struct tr_event fb, xb;
		const struct tr_event *ef = in_seq(d, v, f, &fb);
		for (int x = 0; x < f; x++) {
			const struct tr_event *ex = in_seq(d, v, x, &xb);
			if ((!ev_commute(ex, ef, EVO_ORDERED) &&
			     wconflict(d, ex, ef)) ||
			    edge(d, ex, ef))
				return false;
		}
		return true;
	}
	int at[EV_MAX_ACC];
	bool fwd = fwd_places(d, v, ep, at);
	struct tr_event buf, xb;
	unsigned kept = ~0u;
	for (int x = 0; x < v->n; x++) {
		const struct tr_event *e =
			fwd ? as_seen(ep, at, x, &buf, &kept) : ep;
		const struct tr_event *ex = in_seq(d, v, x, &xb);
		if (!ev_commute(e, ex, EVO_FRONT) && wconflict(d, e, ex))
			return false;
	}
	return true;
}

/* v without thread p's first event (if it has one), which ep, p's
 * next event, runs before it: the conditional adds of v it moved in
 * front of see its add (commute.c). */
static void drop(struct seq *v, const struct tr_event *ep)
{
	int f = 0;

	while (f < v->n && v->e[f]->tid != ep->tid)
		f++;
	for (int x = 0; x < f; x++)
		seq_rebase(v, x, ep, true);
	if (f == v->n)
		return;
	free(v->own[f]);
	memmove(&v->e[f], &v->e[f + 1],
		(size_t)(v->n - f - 1) * sizeof v->e[0]);
	memmove(&v->own[f], &v->own[f + 1],
		(size_t)(v->n - f - 1) * sizeof v->own[0]);
	v->own[--v->n] = NULL;
}

/* Insert v into the tree whose first branch is *root (JACM'17 Def.
 * 6.2).  Indices, not pointers, into d->wt: wt_new may move it. */
static void insert(struct dpor *d, int32_t *root, struct seq *v)
{
	int32_t parent = -1, c, last = -1, prev = -1; /* -1: *root's list */

	for (;;) {
		for (c = parent < 0 ? *root : d->wt[parent].child; c >= 0;
		     c = d->wt[c].sibling)
			if (weak_initial(d, v, &d->wt[c].ev))
				break;
		if (c < 0)
			break;
		if (d->wt[c].child < 0)
			return; /* a leaf: any continuation covers v */
		int s = update_slot(&d->wt[c].ev);
		if (s >= 0)
			v->up[s]++;
		drop(v, &d->wt[c].ev);
		if (!v->n)
			return;
		parent = c;
	}
	/* what is left of v: a new last branch of parent */
	for (c = parent < 0 ? *root : d->wt[parent].child; c >= 0;
	     c = d->wt[c].sibling)
		last = c;
	for (int x = 0; x < v->n; x++) {
		int32_t w = wt_new(d, v->e[x]);
		if (w < 0)
			return;
		if (prev >= 0)
			d->wt[prev].child = w;
		else if (last >= 0)
			d->wt[last].sibling = w;
		else if (parent >= 0)
			d->wt[parent].child = w;
		else
			*root = w;
		prev = w;
	}
}

/* Is v covered by a thread asleep at node n (its exploration there, or
 * before n, covers every execution that starts with v)? */
static bool asleep_initial(const struct dpor *d, const struct node *n,
			   const struct seq *v)
{
	for (int s = 0; s < n->nsleep; s++)
		if (weak_initial(d, v, &n->sleep[s].ev))
			return true;
	return false;
}

void wut_race(struct dpor *d, unsigned i, unsigned j)
{
	if (d->nwr == d->capwr) {
		unsigned cap = d->capwr ? 2 * d->capwr : 64;
		struct wrace *w = realloc(d->wr, cap * sizeof *w);
		if (!w)
			return;
		d->wr = w;
		d->capwr = cap;
	}
	d->wr[d->nwr++] = (struct wrace){ i, j };
}

/* X86SMC_DEBUG_WUT: each race's sequence and what became of it, and
 * the trees the branches enter (to find where a branch went wrong). */
static bool debugging(void)
{
	static int on = -1;

	if (on < 0)
		on = getenv("X86SMC_DEBUG_WUT") != NULL;
	return on;
}

static void debug_race(const struct dpor *d, unsigned i, unsigned j,
		       const struct seq *v, bool covered)
{
	const struct node *ni = &d->nodes[i];

	fprintf(stderr, "race %u(T%d %s) %u(T%d %s) asleep:", i, ni->ev.tid,
		ev_kind_name(ni->ev.kind), j, d->nodes[j].ev.tid,
		ev_kind_name(d->nodes[j].ev.kind));
	for (int s = 0; s < ni->nsleep; s++)
		fprintf(stderr, " T%d", ni->sleep[s].ev.tid);
	fprintf(stderr, " v:");
	for (int x = 0; x < v->n; x++)
		fprintf(stderr, " %d", v->e[x]->tid);
	fprintf(stderr, " %s\n", covered ? "covered" : "to insert");
}

static void insert_race(struct dpor *d, unsigned i, unsigned j)
{
	struct seq v = { .n = 0, .at = i };
	unsigned node_of[VMAX]; /* v.e[x] is node node_of[x]'s */
	struct node *ni = &d->nodes[i];
	bool cut = false;
	struct tr_event end; /* the node that ended the process (the last) */

	/* notdep(i).j as notdep(i) before j, j, then notdep(i) after j:
	 * the same trace (what comes after j and not after i does not
	 * conflict with j), and a cut keeps j */
	for (unsigned k = i + 1; k < d->n; k++) {
		if (k != j && (!d->nodes[k].executed ||
			       dpor_hb_node(d, i, k)))
			continue;
		/* but not an end after j: it happens after none of v's
		 * plain accesses, and forced into v it ends the branch while
		 * threads could still run, each of them then tried before it
		 * in an execution that ends sleep-set blocked (a free choice
		 * takes the end last: dpor_set_ends; SV-COMP's triangular
		 * shape blocked 5 executions of 6) */
		if (k > j && d->nodes[k].ev.kind == EV_END)
			continue;
		if (v.n == VMAX || (k < j && v.n == VMAX - 1)) {
			cut = true;
			if (k > j)
				break;
			continue;
		}
		/* a crash in v ends the process there: with the end's
		 * accesses (crash_after_output lost its crashes after
		 * output, and "t2 2") */
		node_of[v.n] = k;
		v.e[v.n++] = sleeper_event(&d->nodes[k], &end);
	}
	/* v's conditional adds ran after i and after the adds of theirs
	 * that happen after i, all left out of v: without them */
	unsigned out[64], nout = 0;
	bool many = false;
	for (unsigned y = i; v.n && y < node_of[v.n - 1] && !many; y++) {
		if (!ev_commute_conditional(&d->nodes[y].ev) ||
		    (y != i && (y == j || !d->nodes[y].executed ||
				!dpor_hb_node(d, i, y))))
			continue;
		if (nout == 64)
			many = true;
		else
			out[nout++] = y;
	}
	for (int x = 0; x < v.n && (nout || many); x++)
		if (many)
			seq_plain(&v, x);
		else
			for (unsigned o = 0; o < nout && out[o] < node_of[x] &&
					     ev_commute_conditional(v.e[x]); o++)
				seq_rebase(&v, x, &d->nodes[out[o]].ev,
					   false);
	/* a thread asleep at i that is a weak initial of v covers it --
	 * of the whole v only: of a shorter one it says nothing (v up to
	 * j only lost classes, found/optimal_tso_lost_class.c) */
	bool covered = !cut && asleep_initial(d, ni, &v);
	if (debugging())
		debug_race(d, i, j, &v, covered);
	if (!covered)
		insert(d, &ni->wroot, &v);
	seq_free(&v);
}

void wut_flush(struct dpor *d)
{
	for (unsigned r = 0; r < d->nwr; r++)
		if (d->wr[r].j < d->n)
			insert_race(d, d->wr[r].i, d->wr[r].j);
	d->nwr = 0;
}

void wut_event(struct dpor *d, unsigned k, const struct tr_event *e)
{
	struct seq v = { .n = 1, .at = k };
	struct node *n = &d->nodes[k];

	v.e[0] = e;
	if (!asleep_initial(d, n, &v))
		insert(d, &n->wroot, &v);
}

void wut_pending(struct dpor *d, unsigned k, int t)
{
	struct tr_event e = unknown_event(t);

	wut_event(d, k, &e);
}

/* Take node n's first branch whose thread is in ok: it becomes .wcur;
 * branches before it that cannot be taken are dropped (a thread asleep
 * there has covered them).  Returns the thread or -1. */
static int take(struct dpor *d, struct node *n, tset ok)
{
	while (n->wroot >= 0) {
		int32_t c = n->wroot;
		int t = d->wt[c].ev.tid;
		n->wroot = d->wt[c].sibling;
		d->wt[c].sibling = -1;
		if (ts_has(ok, t)) {
			n->wcur = c;
			return t;
		}
		if (debugging())
			fprintf(stderr, "branch T%d dropped (not enabled)\n",
				t);
		wt_free(d, c);
	}
	return -1;
}

bool wut_guides(const struct dpor *d, unsigned k, tset ok)
{
	const struct node *prev = k ? &d->nodes[k - 1] : NULL;

	if (!d->optimal || !prev || prev->wcur < 0)
		return false;
	for (int32_t c = d->wt[prev->wcur].child; c >= 0; c = d->wt[c].sibling)
		if (ts_has(ok, d->wt[c].ev.tid))
			return true;
	return false;
}

int wut_enter(struct dpor *d, unsigned k, tset ok)
{
	struct node *n = &d->nodes[k], *prev = k ? &d->nodes[k - 1] : NULL;

	n->wroot = n->wcur = -1;
	if (prev && prev->wcur >= 0) { /* the branch's rest guides n */
		n->wroot = d->wt[prev->wcur].child;
		d->wt[prev->wcur].child = -1;
	}
	if (debugging() && n->wroot >= 0) {
		fprintf(stderr, "enter %u:", k);
		for (int32_t c = n->wroot; c >= 0; c = d->wt[c].sibling)
			fprintf(stderr, " T%d%s", d->wt[c].ev.tid,
				d->wt[c].child >= 0 ? "+" : "");
		fputc('\n', stderr);
	}
	return take(d, n, ok);
}

int wut_next(struct dpor *d, unsigned k, tset ok)
{
	struct node *n = &d->nodes[k];


	if (n->wcur >= 0) {
		wt_free(d, n->wcur);
		n->wcur = -1;
	}
	return take(d, n, ok);
}

void wut_retract(struct dpor *d, unsigned k)
{
	struct node *n = &d->nodes[k], *prev = k ? &d->nodes[k - 1] : NULL;

	if (n->wcur >= 0) { /* put the branch back in front */
		d->wt[n->wcur].sibling = n->wroot;
		n->wroot = n->wcur;
		n->wcur = -1;
	}
	if (prev && prev->wcur >= 0 && d->wt[prev->wcur].child < 0)
		d->wt[prev->wcur].child = n->wroot;
	else
		wt_free_list(d, n->wroot);
	n->wroot = -1;
}
