/* dpor.c — Source-DPOR with sleep sets over the events of re-executed
 * schedules (see dpor.h for the model). */
#include "dpor/dpor.h"

#include <stdlib.h>
#include <string.h>

#include "dpor/dpor_priv.h"
#include "tracer/log.h"


struct dpor *dpor_new(bool exhaustive, long preemption_bound)
{
	struct dpor *d = calloc(1, sizeof *d);

	if (!d)
		return NULL;
	d->exhaustive = exhaustive;
	d->bound = preemption_bound;
	d->max_tmo = 1;
	d->wfree = -1;
	dpor_reset(d);
	return d;
}

/* ---- granule index ---- */

static size_t gm_slot(const struct gmap *m, uint64_t key)
{
	size_t i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 13) & (m->cap - 1);

	while (m->key[i] && m->key[i] != key + 1)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void gm_free(struct gmap *m);

static int gm_grow(struct gmap *m)
{
	struct gmap n = { .n = m->n };

	n.cap = m->cap ? 2 * m->cap : 4096;
	n.key = calloc(n.cap, sizeof *n.key);
	n.all = malloc(n.cap * sizeof *n.all);
	n.wr = malloc(n.cap * sizeof *n.wr);
	n.ball = malloc(n.cap * 8 * sizeof *n.ball);
	n.bwr = malloc(n.cap * 8 * sizeof *n.bwr);
	n.mask = malloc(n.cap * sizeof *n.mask);
	if (!n.key || !n.all || !n.wr || !n.ball || !n.bwr || !n.mask) {
		gm_free(&n);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->key[i])
			continue;
		size_t s = gm_slot(&n, m->key[i] - 1);
		n.key[s] = m->key[i];
		n.all[s] = m->all[i];
		n.wr[s] = m->wr[i];
		memcpy(n.ball + 8 * s, m->ball + 8 * i, 8 * sizeof *n.ball);
		memcpy(n.bwr + 8 * s, m->bwr + 8 * i, 8 * sizeof *n.bwr);
		n.mask[s] = m->mask[i];
	}
	gm_free(m);
	*m = n;
	return 0;
}

/* The slot of key, created if need be (-1: out of memory). */
static long gm_get(struct gmap *m, uint64_t key)
{
	size_t s;

	if (2 * (m->n + 1) > m->cap && gm_grow(m) < 0)
		return -1;
	s = gm_slot(m, key);
	if (!m->key[s]) {
		m->key[s] = key + 1;
		m->all[s] = m->wr[s] = -1;
		for (int b = 0; b < 8; b++)
			m->ball[8 * s + b] = m->bwr[8 * s + b] = -1;
		m->mask[s] = ts_empty();
		m->n++;
	}
	return (long)s;
}

static long gm_find(const struct gmap *m, uint64_t key)
{
	size_t s;

	if (!m->cap)
		return -1;
	s = gm_slot(m, key);
	return m->key[s] ? (long)s : -1;
}

static void gm_free(struct gmap *m)
{
	free(m->key);
	free(m->all);
	free(m->wr);
	free(m->ball);
	free(m->bwr);
	free(m->mask);
}

static void gm_clear(struct gmap *m)
{
	if (m->key)
		memset(m->key, 0, m->cap * sizeof *m->key);
	m->n = 0;
}

/* (granule, thread) as one key: user granules are below 2^45, the
 * futex and once queues' below 2^54, and the pseudo-locations'
 * (EV_ADDR_FD, EV_ADDR_KERNEL) near 2^61 keep distinct low 56 bits:
 * they stay apart after the shift. */
_Static_assert(MAXT <= 256, "gt_key: a thread id in 8 bits");
static uint64_t gt_key(uint64_t gran, int tid)
{
	return gran << 8 | (uint64_t)tid;
}

/* The bytes of granule gran that [addr, addr + size) touches (a size of
 * 0 counts as 1, as the granule loops do). */
static uint8_t gran_bytes(uint64_t gran, uint64_t addr, uint64_t size)
{
	uint64_t lo = gran << 3, hi = lo + 8, end = addr + (size ? size : 1);
	uint64_t a = addr > lo ? addr : lo, b = end < hi ? end : hi;
	uint8_t m = 0;

	for (uint64_t x = a; x < b; x++)
		m |= (uint8_t)(1u << (x - lo));
	return m;
}

static int gi_add(struct gindex *g, uint64_t gran, uint8_t bytes,
		  unsigned node, int tid, bool write)
{
	long sg, st;

	if (g->nent == g->capent) {
		size_t cap = g->capent ? 2 * g->capent : 4096;
		int32_t *a = realloc(g->enode, cap * sizeof *a);
		if (!a)
			return -1;
		g->enode = a;
		if (!(a = realloc(g->enext_all, cap * sizeof *a)))
			return -1;
		g->enext_all = a;
		if (!(a = realloc(g->enext_wr, cap * sizeof *a)))
			return -1;
		g->enext_wr = a;
		uint8_t *m = realloc(g->emask, cap);
		if (!m)
			return -1;
		g->emask = m;
		g->capent = cap;
	}
	sg = gm_get(&g->by_gran, gran);
	st = gm_get(&g->by_thread, gt_key(gran, tid));
	if (sg < 0 || st < 0)
		return -1;
	ts_add(&g->by_gran.mask[sg], tid);
	g->enode[g->nent] = (int32_t)node;
	g->enext_all[g->nent] = g->by_thread.all[st];
	g->by_thread.all[st] = (int32_t)g->nent;
	g->enext_wr[g->nent] = write ? g->by_thread.wr[st] : -1;
	if (write)
		g->by_thread.wr[st] = (int32_t)g->nent;
	g->emask[g->nent] = bytes;
	for (int b = 0; b < 8; b++) {
		if (!(bytes & 1u << b))
			continue;
		g->by_thread.ball[8 * st + b] = (int32_t)g->nent;
		if (write)
			g->by_thread.bwr[8 * st + b] = (int32_t)g->nent;
	}
	g->nent++;
	return 0;
}

/* The first entry from e on (older) that touches byte b and is not
 * node's, -1 if none. */
static int32_t gi_next_byte(const struct gindex *g, int32_t e, int b,
			    const int32_t *next, int32_t node)
{
	while (e >= 0 && (!(g->emask[e] & 1u << b) || g->enode[e] == node))
		e = next[e];
	return e;
}

/* Node node of thread tid became stutter (dpor_stutter): its entries on
 * granule gran leave the index, so that no walk steps over them again
 * (a writer waking a spinning thread N times walked its N stutter
 * iterations at each write).  They are the newest of (gran, tid): every
 * later event of tid is stutter too and left before it. */
static void gi_drop(struct gindex *g, uint64_t gran, int tid, int32_t node)
{
	struct gmap *m = &g->by_thread;
	long st = gm_find(m, gt_key(gran, tid));

	if (st < 0)
		return;
	while (m->all[st] >= 0 && g->enode[m->all[st]] == node)
		m->all[st] = g->enext_all[m->all[st]];
	while (m->wr[st] >= 0 && g->enode[m->wr[st]] == node)
		m->wr[st] = g->enext_wr[m->wr[st]];
	for (int b = 0; b < 8; b++) {
		int32_t *a = &m->ball[8 * st + b], *w = &m->bwr[8 * st + b];
		if (*a >= 0 && g->enode[*a] == node)
			*a = gi_next_byte(g, g->enext_all[*a], b,
					  g->enext_all, node);
		if (*w >= 0 && g->enode[*w] == node)
			*w = gi_next_byte(g, g->enext_wr[*w], b,
					  g->enext_wr, node);
	}
}

static void gi_clear(struct gindex *g)
{
	gm_clear(&g->by_gran);
	gm_clear(&g->by_thread);
	g->nent = 0;
}

static void derived_reset(struct dpor *d)
{
	/* the rows beyond the widths were never written (see_id) */
	memset(d->last, 0, d->wl * sizeof *d->last);
	memset(d->incoming, 0, d->wl * sizeof *d->incoming);
	memset(d->last + TR_AUX_BASE, 0, d->wa * sizeof *d->last);
	memset(d->incoming + TR_AUX_BASE, 0, d->wa * sizeof *d->incoming);
	memset(d->last_update, 0, d->wa * sizeof *d->last_update);
	for (int i = 0; i < TR_AUX_BASE; i++) {
		d->pend[i].head = d->pend[i].n = 0;
		d->owner[i] = -1;
		d->upd[i] = 0;
	}
	memset(d->count, 0, sizeof d->count);
	for (int i = 0; i < MAXT; i++)
		d->lastev[i] = -1;
	gi_clear(&d->gi);
	d->nbig = 0;
	memset(d->tmo, 0, sizeof d->tmo);
}

void dpor_reset(struct dpor *d)
{
	static uint64_t trees;

	d->serial = ++trees;
	for (unsigned i = 0; i < d->n; i++)
		free(d->nodes[i].sleep);
	d->n = 0;
	d->nwt = 0; /* every wakeup tree goes with the nodes */
	d->nwr = 0;
	d->wfree = -1;
	d->target = 0;
	d->floor = 0;
	d->nout = 0;
	derived_reset(d);
}

void dpor_free(struct dpor *d)
{
	if (!d)
		return;
	dpor_reset(d);
	free(d->nodes);
	gm_free(&d->gi.by_gran);
	gm_free(&d->gi.by_thread);
	free(d->gi.enode);
	free(d->gi.enext_all);
	free(d->gi.enext_wr);
	free(d->gi.emask);
	free(d->big);
	free(d->stamp);
	free(d->cand);
	free(d->clk);
	free(d->out);
	wut_free_all(d);
	for (int i = 0; i < TR_AUX_BASE; i++) {
		free(d->pend[i].q);
		free(d->updn[i].node);
	}
	free(d);
}

uint32_t dpor_updates_before(const struct dpor *d, int s, unsigned k)
{
	const unsigned *a = d->updn[s].node;
	uint32_t lo = 0, hi = d->upd[s];

	while (lo < hi) { /* the first update at node k or later */
		uint32_t mid = lo + (hi - lo) / 2;
		if (a[mid] < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* ---- vector clocks ---- */

/* Only ids below d->wl and slots below d->wa have non-zero entries
 * (see_id). */
static void vc_join(const struct dpor *d, struct vc *a, const struct vc *b)
{
	for (int i = 0; i < d->wl; i++)
		if (b->c[i] > a->c[i])
			a->c[i] = b->c[i];
	for (int i = TR_AUX_BASE; i < TR_AUX_BASE + d->wa; i++)
		if (b->c[i] > a->c[i])
			a->c[i] = b->c[i];
}

/* Id t appears in the execution: the clocks' widths grow to hold it.
 * They never shrink, so every entry beyond them is 0 in every clock. */
static void see_id(struct dpor *d, int t)
{
	if (t >= 0 && t < TR_AUX_BASE && t >= d->wl)
		d->wl = t + 1;
	else if (t >= TR_AUX_BASE && t < MAXT && t - TR_AUX_BASE >= d->wa)
		d->wa = t - TR_AUX_BASE + 1;
}

/* Does event node a happen before the event whose clock is c? */
bool dpor_hb(const struct dpor *d, unsigned a, const struct vc *c)
{
	const struct node *na = &d->nodes[a];

	return c->c[na->ev.tid] >= na->idx;
}

/* Entry t of node k's clock. */
static uint32_t node_clock(const struct dpor *d, unsigned k, int t)
{
	const struct node *n = &d->nodes[k];

	if (t >= 0 && t < n->cl)
		return d->clk[n->coff + t];
	t -= TR_AUX_BASE;
	return t >= 0 && t < n->ca ? d->clk[n->coff + n->cl + t] : 0;
}

bool dpor_hb_node(const struct dpor *d, unsigned a, unsigned k)
{
	const struct node *na = &d->nodes[a];

	return node_clock(d, k, na->ev.tid) >= na->idx;
}

static void vc_join_node(const struct dpor *d, struct vc *a, unsigned k)
{
	const struct node *n = &d->nodes[k];
	const uint32_t *b = d->clk + n->coff;

	for (int i = 0; i < n->cl; i++)
		if (b[i] > a->c[i])
			a->c[i] = b[i];
	b += n->cl;
	for (int i = 0; i < n->ca; i++)
		if (b[i] > a->c[TR_AUX_BASE + i])
			a->c[TR_AUX_BASE + i] = b[i];
}

/* Node k's clock becomes c (its ids in use), after node k-1's. */
static int store_clock(struct dpor *d, unsigned k, const struct vc *c)
{
	struct node *n = &d->nodes[k];
	const struct node *p = k ? &d->nodes[k - 1] : NULL;
	size_t off = p ? (size_t)p->coff + p->cl + p->ca : 0;
	size_t need = off + (size_t)d->wl + (size_t)d->wa;

	if (need > UINT32_MAX)
		return -1;
	if (need > d->capclk) {
		size_t cap = d->capclk ? 2 * d->capclk : 4096;
		while (cap < need)
			cap *= 2;
		uint32_t *x = realloc(d->clk, cap * sizeof *x);
		if (!x)
			return -1;
		d->clk = x;
		d->capclk = cap;
	}
	n->coff = (uint32_t)off;
	n->cl = (uint16_t)d->wl;
	n->ca = (uint16_t)d->wa;
	memcpy(d->clk + off, c->c, d->wl * sizeof *c->c);
	memcpy(d->clk + off + d->wl, c->c + TR_AUX_BASE,
	       d->wa * sizeof *c->c);
	return 0;
}

/* c becomes node k's clock. */
static void load_clock(const struct dpor *d, unsigned k, struct vc *c)
{
	memset(c, 0, sizeof *c);
	vc_join_node(d, c, k);
}

/* ---- conflicts ---- */

static bool acc_conflict(const struct dec_access *a, const struct dec_access *b)
{
	if (!((a->rw | b->rw) & DEC_WRITE))
		return false;
	return a->addr < b->addr + b->size && b->addr < a->addr + a->size;
}

/* Is access i of ev a read its thread's buffer served, from a store whose
 * update has not happened yet?  Such a read is attached to the buffer
 * entry until its update (the src edge of chronological traces, TACAS'15
 * sec. 3): a write of another thread before that update is coherence-
 * before the store it read, so the two commute.  After the update it
 * conflicts like any read (the update's successors in coherence).
 * (spin_tas-O2 under tso: 1194 executions for 750 under sc without this,
 * every remote write being tried on both sides of such reads.) */
static bool buffered_read(const struct dpor *d, const struct tr_event *ev,
			  int i)
{
	uint32_t q = ev->fwd_seq[i];

	return q && ev->fwd_slot[i] < TR_AUX_BASE &&
	       d->upd[ev->fwd_slot[i]] < q;
}

/* Is u the update of a buffer of thread p (tso/pso)? */
static bool own_update(const struct dpor *d, const struct tr_event *u, int p)
{
	return u->kind == EV_UPDATE && u->tid >= TR_AUX_BASE &&
	       d->owner[u->tid - TR_AUX_BASE] == p;
}

/* Is access i of a the tid word of a thread's exit or join (acc[0] of
 * both, region.c), and access j of b that of another thread's?  glibc
 * reuses a joined thread's stack, and with it the address of its tid
 * word, for a thread created later: the exit of that one and the join of
 * the first touch the same word, but the second could only have it after
 * the join (through the stack cache, which is no event): no race.  As a
 * race it was reversed into executions where the stack was fresh and the
 * two did not meet, each ending sleep-set blocked (samples/
 * wakeup_notdep.c: 35 executions + 9 blocked, now + 0). */
/* The thread whose tid word a thread's exit or join touches, or -1. */
static int tid_word_thread(const struct tr_event *e)
{
	if (e->kind == EV_EXIT)
		return e->tid;
	if (e->kind == EV_JOIN && e->region == RG_JOIN)
		return e->child;
	return -1;
}

static bool other_tid_word(const struct tr_event *a, int i,
			   const struct tr_event *b, int j)
{
	int ta = tid_word_thread(a), tb = tid_word_thread(b);

	return !i && !j && ta >= 0 && tb >= 0 && ta != tb;
}

bool dpor_ev_conflict(const struct dpor *d, const struct tr_event *a,
		      const struct tr_event *b)
{
	if (a->tid == b->tid)
		return true;
	/* the end conflicts through its accesses (ev_end_accesses) */
	/* A thread's events commute with the updates of its own buffers:
	 * a load reads the same bytes from the buffer before the update as
	 * from memory after it, its stores only enter the buffer, and what
	 * needs an empty buffer is ordered after the updates by its clock.
	 * (Treating them as a race made dpor explore each position of an
	 * update around its own thread's loads: join_value took 4
	 * executions under tso for 1 under sc.) */
	if (own_update(d, a, b->tid) || own_update(d, b, a->tid))
		return false;
	/* two locked adds whose order their threads cannot tell */
	if (ev_commute(a, b, EVO_ANY))
		return false;
	for (int i = 0; i < a->nacc; i++) {
		if (buffered_read(d, a, i))
			continue;
		for (int j = 0; j < b->nacc; j++)
			if (!buffered_read(d, b, j) &&
			    acc_conflict(&a->acc[i], &b->acc[j]) &&
			    !other_tid_word(a, i, b, j))
				return true;
	}
	return false;
}

static int ensure_scratch(struct dpor *d, unsigned n)
{
	if (n <= d->capstamp)
		return 0;
	unsigned cap = d->capstamp ? 2 * d->capstamp : 1024;
	while (cap < n)
		cap *= 2;
	unsigned *s = realloc(d->stamp, cap * sizeof *s);
	if (!s)
		return -1;
	d->stamp = s;
	memset(d->stamp + d->capstamp, 0xff,
	       (cap - d->capstamp) * sizeof *s);
	s = realloc(d->cand, cap * sizeof *s);
	if (!s)
		return -1;
	d->cand = s;
	d->capstamp = cap;
	return 0;
}

/* Is event i a candidate race of j (a conflicting event of another
 * thread; force: taken as one)?  Each i is looked at once per
 * candidates() call.  Two locked adds that commute (ev_commute) are
 * passed over by granule_walk before: only they can commute, and only
 * there (the accesses of big events are no locked adds). */
static bool consider(struct dpor *d, unsigned i, unsigned j, unsigned *nc,
		     bool force)
{
	const struct tr_event *a = &d->nodes[i].ev, *b = &d->nodes[j].ev;

	if (d->stamp[i] == d->visit || a->tid == b->tid)
		return false;
	d->stamp[i] = d->visit;
	if (!force && !dpor_ev_conflict(d, a, b))
		return false;
	d->cand[(*nc)++] = i;
	return true;
}

#define COMMUTE_WALK 8

static int cmp_desc(const void *x, const void *y)
{
	unsigned a = *(const unsigned *)x, b = *(const unsigned *)y;

	return a < b ? 1 : a > b ? -1 : 0;
}

/* The events on granule g that may race with j, given c, the clock j
 * has before its conflicts (it grows with each conflicting event found:
 * those happen before j).  For each other thread, its events there are
 * walked newest first until the first that conflicts with j (a
 * candidate: every older event of the thread happens before it, so
 * before j) or that happens before c (so does every older one: program
 * order).  A read of j only conflicts with writes: it walks the chains
 * of writing events.  This keeps the walk to about one event per thread,
 * whatever the length of the execution (issue 16: a loop of 20,000
 * increments cost 47 s when every event looked at all the earlier ones
 * on its granule). */
static void granule_walk(struct dpor *d, uint64_t g, uint8_t bytes,
			 unsigned j, bool write, tset unwalked,
			 struct vc *c, unsigned *nc)
{
	const struct gindex *gi = &d->gi;
	long sg = gm_find(&gi->by_gran, g);
	tset mask = sg >= 0 ? ts_minus(gi->by_gran.mask[sg], unwalked)
			    : ts_empty();

	for (int t = ts_first(mask); t >= 0; t = ts_next(mask, t + 1)) {
		long st = gm_find(&gi->by_thread, gt_key(g, t));
		const int32_t *head = st < 0 ? NULL
				      : (write ? gi->by_thread.ball
					       : gi->by_thread.bwr) + 8 * st;
		int32_t e = -1;
		/* the newest of t's entries here that touch j's bytes:
		 * entries of other bytes are no conflict (int fields side by
		 * side: each thread's writes walked all the other's) */
		for (int b = 0; head && b < 8; b++)
			if (bytes & 1u << b && head[b] > e)
				e = head[b];
		unsigned adds = 0; /* locked adds passed over that commute */
		for (; e >= 0; e = write ? gi->enext_all[e] : gi->enext_wr[e]) {
			unsigned i = (unsigned)gi->enode[e];
			if (!(gi->emask[e] & bytes))
				continue;
			if (d->nodes[i].stutter)
				continue; /* a spin iteration: no race */
			if (dpor_hb(d, i, c))
				break;
			/* after COMMUTE_WALK of them, the next is taken as a
			 * race: a race too many costs a branch, a walk
			 * over every add of a long loop cost every event */
			bool cm = ev_commute(&d->nodes[i].ev, &d->nodes[j].ev,
					     EVO_ORDERED);
			if (cm && ++adds <= COMMUTE_WALK)
				continue;
			if (consider(d, i, j, nc, cm)) {
				vc_join_node(d, c, i);
				break;
			}
		}
	}
}

/* Earlier events of other threads that conflict with event j and may
 * race with it (see granule_walk; c: j's clock before its conflicts),
 * newest first. */
static unsigned candidates(struct dpor *d, unsigned j, const struct vc *c0)
{
	const struct tr_event *ev = &d->nodes[j].ev;
	struct vc c = *c0;
	unsigned nc = 0;
	int p = ev->tid;
	/* not walked: j's own thread, and a thread and the updates of its
	 * own buffers, which never conflict (dpor_ev_conflict): walking them
	 * cost one step per store the thread ever made there */
	tset unwalked = ts_one(p);

	if (p >= TR_AUX_BASE && d->owner[p - TR_AUX_BASE] >= 0 &&
	    ev->kind == EV_UPDATE)
		ts_add(&unwalked, d->owner[p - TR_AUX_BASE]);
	for (int s = 0; s < d->wa && p < TR_AUX_BASE; s++)
		if (d->owner[s] == p)
			ts_add(&unwalked, TR_AUX_BASE + s);
	if (++d->visit == 0) { /* wrapped: forget every stamp */
		memset(d->stamp, 0xff, d->capstamp * sizeof *d->stamp);
		d->visit = 1;
	}
	for (int k = 0; k < ev->nacc; k++) {
		const struct dec_access *a = &ev->acc[k];
		if (a->size > BIG_ACCESS) {
			for (unsigned i = 0; i < j; i++)
				consider(d, i, j, &nc, false);
			continue;
		}
		uint64_t last = a->size ? a->addr + a->size - 1 : a->addr;
		for (uint64_t g = a->addr >> 3; g <= last >> 3; g++)
			granule_walk(d, g, gran_bytes(g, a->addr, a->size), j,
				     a->rw & DEC_WRITE, unwalked, &c, &nc);
	}
	for (unsigned b = 0; b < d->nbig; b++)
		consider(d, d->big[b], j, &nc, false);
	qsort(d->cand, nc, sizeof *d->cand, cmp_desc);
	return nc;
}

/* (*a)[n] = j, growing *a (capacity *cap) as needed. */
static int push_index(unsigned **a, unsigned *cap, unsigned n, unsigned j)
{
	if (n == *cap) {
		unsigned c = *cap ? 2 * *cap : 16;
		unsigned *b = realloc(*a, c * sizeof *b);
		if (!b)
			return -1;
		*a = b;
		*cap = c;
	}
	(*a)[n] = j;
	return 0;
}

static int index_event(struct dpor *d, unsigned j)
{
	const struct tr_event *ev = &d->nodes[j].ev;

	/* a stutter event races with nothing later (granule_walk): it is
	 * not indexed by granule (d->big keeps every big access) */
	bool stutter = d->nodes[j].stutter;

	for (int k = 0; k < ev->nacc; k++) {
		const struct dec_access *a = &ev->acc[k];
		if (a->size > BIG_ACCESS) {
			if (push_index(&d->big, &d->capbig, d->nbig, j) < 0)
				return -1;
			d->nbig++;
			continue;
		}
		uint64_t last = a->size ? a->addr + a->size - 1 : a->addr;
		for (uint64_t g = a->addr >> 3; g <= last >> 3 && !stutter; g++)
			if (gi_add(&d->gi, g, gran_bytes(g, a->addr, a->size),
				   j, ev->tid, a->rw & DEC_WRITE) < 0)
				return -1;
	}
	return 0;
}

/* ---- Source-DPOR: races and backtrack sets ---- */

/* Initials of v = notdep(i).j (Alg. 1 lines 6-8): threads whose first
 * event in v has no happens-before predecessor in v.  If any event of
 * thread r in v precedes f, r's first event in v does (program order), so
 * comparing with each thread's first event in v suffices. */
static tset initials(const struct dpor *d, unsigned i, unsigned j)
{
	int32_t first[MAXT];
	tset seen = ts_empty(), init = ts_empty();

	for (unsigned k = i + 1; k <= j; k++) {
		const struct node *nk = &d->nodes[k];
		int q = nk->ev.tid;
		if (k < j && dpor_hb_node(d, i, k))
			continue; /* not in notdep(i) */
		if (q < 0 || q >= MAXT || ts_has(seen, q))
			continue;
		bool minimal = true;
		for (int r = ts_first(seen); r >= 0 && minimal;
		     r = ts_next(seen, r + 1))
			if (dpor_hb_node(d, (unsigned)first[r], k))
				minimal = false;
		ts_add(&seen, q);
		first[q] = (int32_t)k;
		if (minimal)
			ts_add(&init, q);
	}
	return init;
}

/* Alg. 1 lines 6-8 at node n: unless an initial is in its backtrack set
 * already, add p if it is one, else any initial.  Returns whether the
 * set grew. */
static bool add_backtrack(struct node *n, tset init, int p)
{
	tset old = n->backtrack;

	if (ts_meets(init, n->backtrack))
		return false;
	if (ts_none(init)) /* no initial is enabled there: conservative */
		n->backtrack = ts_or(n->backtrack, n->enabled);
	else if (ts_has(init, p))
		ts_add(&n->backtrack, p);
	else
		ts_add(&n->backtrack, ts_first(init));
	return !ts_eq(n->backtrack, old);
}

/* Add a reversal at node i (add_backtrack); a node of a --jobs prefix
 * belongs to another task, which is told of it (dpor_take_races). */
static void backtrack_at(struct dpor *d, unsigned i, tset init, int p)
{
	if (d->exhaustive || !add_backtrack(&d->nodes[i], init, p) ||
	    i >= d->floor)
		return;
	if (d->nout == d->capout) {
		unsigned cap = d->capout ? 2 * d->capout : 16;
		struct dpor_race *o = realloc(d->out, cap * sizeof *o);
		if (!o)
			return;
		d->out = o;
		d->capout = cap;
	}
	d->out[d->nout++] = (struct dpor_race){ i, p, init };
}

/* A call on the futex word *w that could only happen once the word let
 * it (sync.c): a contended word lock or a fast path's cmpxchg, which
 * waited for 0 (*once false: what let it go on was the holder's store of
 * 0), or a guard's acquire or a pthread_once that found the work done
 * or not started (*once true: any write of another thread)? */
static bool word_waiter(const struct tr_event *ev, uint64_t *w, bool *once)
{
	uint8_t op = ev->sync_op;
	bool lock = (ev->kind == EV_SYNC && op == HOOK_SYNC_WORD_LOCK) ||
		    (ev->kind == EV_RMW && op == HOOK_SYNC_WORD_FAST);

	*once = ev->kind == EV_SYNC &&
		(op == HOOK_SYNC_GUARD_ACQUIRE || op == HOOK_SYNC_ONCE ||
		 op == HOOK_SYNC_RUST_ONCE || op == HOOK_SYNC_RUST_ONCE_Q);
	if (!lock && !*once)
		return false;
	*w = ev->acc[0].addr;
	return true;
}

/* The 32-bit word at w that ev read (read) or wrote, when an access of
 * ev covers it within its first 8 bytes (rval, wval); else -1. */
static int64_t word_value(const struct tr_event *ev, uint64_t w, bool read)
{
	for (int a = 0; a < ev->nacc; a++) {
		const struct dec_access *x = &ev->acc[a];
		if (!(x->rw & (read ? DEC_READ : DEC_WRITE)) || w < x->addr ||
		    w + 4 > x->addr + x->size || w + 4 > x->addr + 8)
			continue;
		uint64_t v = read ? ev->rval[a] : ev->wval[a];
		return (uint32_t)(v >> (8 * (w - x->addr)));
	}
	return -1;
}

/* Did ev take lock obj: a pthread lock, try or timed lock that took it
 * (its result 0), a condvar wait's relock (ev_acquires), a word lock that
 * waited, a guard it found free, a locked instruction that read 0 at
 * obj and wrote another value (a fast path, glibc's pthread_once)? */
static bool takes(const struct tr_event *ev, uint64_t obj)
{
	uint64_t o;
	bool once;

	if (ev->kind == EV_SYNC && sync_lock_call(ev->sync_op))
		return ev->acc[0].addr == obj && ev->rval[0] == 0;
	if (ev_acquires(ev, &o))
		return o == obj;
	if (word_waiter(ev, &o, &once))
		return o == obj &&
		       (!once || (ev->sync_op == HOOK_SYNC_GUARD_ACQUIRE &&
				  ev->rval[0] == 0));
	return ev->kind == EV_RMW && word_value(ev, obj, true) == 0 &&
	       word_value(ev, obj, false) > 0;
}

/* The event by which i's thread (the thread whose buffer i's update
 * empties) took lock obj before it released it at i (its chain on obj's
 * granule, newest first); -1 if none. */
static long acquiring(const struct dpor *d, unsigned i, uint64_t obj,
		      bool claim)
{
	const struct gindex *gi = &d->gi;
	int tid = d->nodes[i].ev.tid;

	if (tid >= TR_AUX_BASE)
		tid = d->owner[tid - TR_AUX_BASE];
	if (tid < 0)
		return -1;
	long st = gm_find(&gi->by_thread, gt_key(obj >> 3, tid));

	for (int32_t e = st < 0 ? -1 : gi->by_thread.all[st]; e >= 0;
	     e = gi->enext_all[e]) {
		unsigned k = (unsigned)gi->enode[e];
		const struct tr_event *ev = &d->nodes[k].ev;
		if (k < i && (claim ? ev_writes(ev, EV_ADDR_ONCEQ(obj), 1)
				    : takes(ev, obj)))
			return (long)k;
	}
	return -1;
}

/* Is timeout event k one the search chose while another thread could
 * run (the ones --max-timeouts bounds)? */
static bool chosen_timeout(const struct node *n)
{
	return n->ev.kind == EV_TIMEOUT &&
	       ts_any(ts_minus(n->enabled, n->tmask));
}

static bool sync_is(const struct tr_event *ev, uint8_t op)
{
	return ev->kind == EV_SYNC && ev->sync_op == op;
}

/* Thread u's newest event before node i with an access to obj's granule
 * (its chain there, newest first); -1 if none. */
static long newest_of(const struct dpor *d, int u, uint64_t obj, unsigned i)
{
	const struct gindex *gi = &d->gi;
	long st = gm_find(&gi->by_thread, gt_key(obj >> 3, u));

	for (int32_t e = st < 0 ? -1 : gi->by_thread.all[st]; e >= 0;
	     e = gi->enext_all[e])
		if ((unsigned)gi->enode[e] < i)
			return gi->enode[e];
	return -1;
}

/* The threads with accesses to obj's granule. */
static tset threads_on(const struct dpor *d, uint64_t obj)
{
	long sg = gm_find(&d->gi.by_gran, obj >> 3);

	return sg >= 0 ? d->gi.by_gran.mask[sg] : ts_empty();
}

/* The newest event before node i on obj's granule, of any thread; -1 if
 * none. */
static long newest_on(const struct dpor *d, unsigned i, uint64_t obj)
{
	tset m = threads_on(d, obj);
	long best = -1;

	for (int t = ts_first(m); t >= 0; t = ts_next(m, t + 1)) {
		long k = newest_of(d, t, obj, i);
		if (k > best)
			best = k;
	}
	return best;
}

static bool timed_lock(const struct tr_event *ev)
{
	return sync_is(ev, HOOK_SYNC_MUTEX_TIMEDLOCK);
}

/* A rwlock's read lock (pthread_rwlock_rdlock, a try that took it)? */
static bool read_lock(const struct tr_event *ev)
{
	return ev->kind == EV_SYNC &&
	       (ev->sync_op == HOOK_SYNC_RW_RDLOCK ||
		ev->sync_op == HOOK_SYNC_RW_TRYRDLOCK);
}

/* The event whose race with j is to be reversed when j conflicts with
 * event i: i itself, or the lock that began i's critical section (below).
 */
static unsigned race_target(const struct dpor *d, unsigned i, unsigned j)
{
	uint64_t obj;

	/* A lock that waited for another thread's unlock cannot be moved
	 * before that unlock, only before the lock the other thread took
	 * for that critical section: the race to reverse is with that one
	 * (the try variants can fail instead: they keep the race).  A
	 * rwlock's read lock does not wait for another reader's unlock:
	 * both can hold it, so that race is reversed as it is. */
	if (ev_acquires(&d->nodes[j].ev, &obj) &&
	    ev_releases(&d->nodes[i].ev, obj)) {
		long k = acquiring(d, i, obj, false);
		if (k >= 0 && !(read_lock(&d->nodes[j].ev) &&
				read_lock(&d->nodes[k].ev)))
			i = (unsigned)k;
	}
	/* A sem_wait that found the value 0 at a post (it could not run
	 * before it) is reversed with the wait that took the value to 0:
	 * there it could have taken the unit instead (two threads using a
	 * semaphore as a lock; before 2026-11-28 the race was reversed
	 * with the post only, where the wait could not run: 1 order of
	 * 2 explored, a deadlock of a wait without its post missed). */
	if (sync_is(&d->nodes[j].ev, HOOK_SYNC_SEM_WAIT) &&
	    sync_is(&d->nodes[i].ev, HOOK_SYNC_SEM_POST) &&
	    d->nodes[i].ev.acc[0].addr == d->nodes[j].ev.acc[0].addr &&
	    d->nodes[i].ev.rval[0] == 0) {
		long k = newest_on(d, i, d->nodes[i].ev.acc[0].addr);
		if (k >= 0 && sync_is(&d->nodes[k].ev, HOOK_SYNC_SEM_WAIT) &&
		    d->nodes[k].ev.acc[0].addr == d->nodes[i].ev.acc[0].addr)
			i = (unsigned)k;
	}
	/* The same for a call on a futex word that waited until another
	 * thread's write let it go on (word_waiter): the race is with the
	 * event by which that thread took the word (for a Rust Once, its
	 * claim: std's compare-exchange that follows it cannot be reached
	 * by the other thread's call, which waits for the claim). */
	bool once;
	if (word_waiter(&d->nodes[j].ev, &obj, &once) &&
	    (once ? ev_writes(&d->nodes[i].ev, obj, 4)
		  : word_value(&d->nodes[i].ev, obj, false) == 0)) {
		uint8_t op = d->nodes[j].ev.sync_op;
		long k = acquiring(d, i, obj,
				   op == HOOK_SYNC_RUST_ONCE ||
					   op == HOOK_SYNC_RUST_ONCE_Q);
		if (k >= 0)
			i = (unsigned)k;
	}
	return i;
}

/* Reverse the race of node i with the newer node j. */
static void reverse(struct dpor *d, unsigned i, unsigned j)
{
	struct node *ni = &d->nodes[i];
	int p = d->nodes[j].ev.tid;

	pr_debug("race %u(T%d %#lx) - %u(T%d %#lx)", i, ni->ev.tid,
		 (unsigned long)ni->ev.pc, j, p,
		 (unsigned long)d->nodes[j].ev.pc);
	if (d->optimal) {
		/* a race inside the replayed prefix was inserted when its
		 * second event was new, with the notdep of that execution
		 * (JACM'17 inserts it again with each execution's; skipping
		 * that lost nothing in fuzz-peers K..P2 under sc, 1,599
		 * counts equal to GenMC's and Nidhugg's) */
		if (j >= d->target && !d->exhaustive)
			wut_race(d, i, j);
		return;
	}
	backtrack_at(d, i, ts_and(initials(d, i, j), ni->enabled), p);
}

/* A race's candidate i (analyse) whose lock-rule target happens before j
 * without it: reversed with i only (a timed lock, race()). */
#define NOT_TARGET (1u << 31)

static void race(struct dpor *d, unsigned i, unsigned j)
{
	bool only_i = i & NOT_TARGET;

	i &= ~NOT_TARGET;
	/* a join cannot come before the exit of the thread it joins: the
	 * race (exit, join) has no reversal (only the joins's and the
	 * exit's own races do) */
	if (d->nodes[j].ev.kind == EV_JOIN && d->nodes[i].ev.kind == EV_EXIT)
		return;
	unsigned t = race_target(d, i, j);
	if (!only_i)
		reverse(d, t, j);
	/* a timed lock moved before the unlock can also wait there and
	 * give up (ETIMEDOUT) while the other thread holds the lock: that
	 * race is kept too (the sync fuzzer's min-timedlock: r0=2 r1=9) */
	if (t != i && timed_lock(&d->nodes[j].ev))
		reverse(d, i, j);
}

/* Event j ended the timed waits of ev.woke_timed: each of those threads
 * was enabled at j with its timeout (explore.c, timed_out_able), which
 * conflicts with j (the object both touch).  A race, so the search also
 * lets the wait time out before j.  Its second event is the timeout that
 * did not happen: no notdep to carry, the sequence is that one event. */
static bool timeout_allowed(struct dpor *d, int w);

static void timed_races(struct dpor *d, unsigned j)
{
	struct node *nj = &d->nodes[j];
	const struct tr_event *ev = &nj->ev;

	tset m = ts_and(ev->woke_timed, nj->enabled);

	for (int w = ts_first(m); w >= 0; w = ts_next(m, w + 1)) {
		struct tr_event to = { .tid = w, .kind = EV_TIMEOUT,
				       .sysno = -1, .nacc = ev->nacc ? 1 : 0 };
		if (ev->nacc)
			to.acc[0] = (struct dec_access){
				ev->acc[0].addr, ev->acc[0].size,
				DEC_READ | DEC_WRITE, DEC_MEM_EXPLICIT };
		pr_debug("timed race %u(T%d) - timeout of T%d", j, ev->tid, w);
		if (!timeout_allowed(d, w))
			continue;
		if (!d->optimal)
			backtrack_at(d, j, ts_one(w), w);
		else if (j >= d->target)
			wut_event(d, j, &to);
	}
}

static int vcq_push(struct vcq *q, const struct vc *c)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 8;
		struct vc *n = malloc(cap * sizeof *n);
		if (!n)
			return -1;
		for (size_t i = 0; i < q->n; i++)
			n[i] = q->q[(q->head + i) % q->cap];
		free(q->q);
		q->q = n;
		q->cap = cap;
		q->head = 0;
	}
	q->q[(q->head + q->n++) % q->cap] = *c;
	return 0;
}

static const struct vc *vcq_pop(struct vcq *q)
{
	const struct vc *c;

	if (!q->n)
		return NULL;
	c = &q->q[q->head];
	q->head = (q->head + 1) % q->cap;
	q->n--;
	return c;
}

/* The newest write to the bytes of a (at most 8 bytes) before node j, if
 * one event wrote them all last, else -1. */
static long last_writer(const struct dpor *d, const struct dec_access *a,
			unsigned j)
{
	const struct gindex *gi = &d->gi;
	uint64_t last = a->addr + a->size - 1;
	long w = -2;

	for (uint64_t g = a->addr >> 3; g <= last >> 3; g++) {
		uint8_t bytes = gran_bytes(g, a->addr, a->size);
		long sg = gm_find(&gi->by_gran, g), nb[8];
		for (int b = 0; b < 8; b++)
			nb[b] = -1; /* byte b's newest writer */
		tset m = sg >= 0 ? gi->by_gran.mask[sg] : ts_empty();
		for (int t = ts_first(m); t >= 0; t = ts_next(m, t + 1)) {
			long st = gm_find(&gi->by_thread, gt_key(g, t));
			for (int b = 0; b < 8 && st >= 0; b++) {
				int32_t e = gi->by_thread.bwr[8 * st + b];
				if (bytes >> b & 1 && e >= 0 &&
				    gi->enode[e] > nb[b])
					nb[b] = gi->enode[e];
			}
		}
		for (int b = 0; b < 8; b++) {
			if (!(bytes >> b & 1))
				continue;
			if (nb[b] < 0 || (w != -2 && nb[b] != w))
				return -1;
			w = nb[b];
		}
	}
	for (unsigned x = 0; x < d->nbig && w >= 0; x++) {
		const struct tr_event *e = &d->nodes[d->big[x]].ev;
		if (d->big[x] <= (unsigned)w || d->big[x] >= j)
			continue;
		for (int k = 0; k < e->nacc; k++)
			if ((e->acc[k].rw & DEC_WRITE) &&
			    acc_conflict(&e->acc[k], a))
				return -1;
	}
	return w;
}

/* tso/pso: a read of memory whose bytes its thread's own store q wrote
 * there last (by q's update) reads q wherever it runs after q: in the
 * chronological traces of TACAS'15 it is a read at q's update, like one
 * the buffer served (fwd_seq).  Marked so, wakeup.c places it right when
 * a reversal moves it before that update, where the buffer serves it;
 * taken as a read of memory there, it conflicted with the other
 * thread's updates before it, a tree branch of that read was no weak
 * initial of a sequence it covers, and the sequence's branch ended
 * sleep-set blocked (samples/peterson.c under tso: 24 + 2). */
static void mark_own_reads(struct dpor *d, unsigned j)
{
	struct tr_event *ev = &d->nodes[j].ev;
	int p = ev->tid;
	bool updated = false;

	for (int s = 0; s < d->wa && !updated; s++)
		updated = d->owner[s] == p && d->upd[s];
	if (!updated || ev->kind == EV_UPDATE)
		return;
	for (int i = 0; i < ev->nacc; i++) {
		const struct dec_access *a = &ev->acc[i];
		if (!(a->rw & DEC_READ) || ev->fwd_seq[i] || !a->size ||
		    a->size > 8 || a->addr >= EV_ADDR_FD)
			continue;
		long u = last_writer(d, a, j);
		if (u < 0)
			continue;
		const struct tr_event *ue = &d->nodes[u].ev;
		int s = ue->tid - TR_AUX_BASE;
		if (ue->kind != EV_UPDATE || s < 0 || s >= TR_AUX_BASE ||
		    d->owner[s] != p)
			continue;
		ev->fwd_seq[i] = dpor_updates_before(d, s, (unsigned)u) + 1;
		ev->fwd_slot[i] = (uint8_t)s;
	}
}

/* Clock of event j, its races, and the edges it creates. */
static int analyse(struct dpor *d, unsigned j)
{
	struct node *nj = &d->nodes[j];
	const struct tr_event *ev = &nj->ev;
	int p = ev->tid;
	struct vc c;
	unsigned nc, nr = 0;

	see_id(d, p);
	if (ev->kind == EV_SPAWN)
		see_id(d, ev->child);
	for (int k = 0; k < ev->nst && p < TR_AUX_BASE; k++)
		see_id(d, TR_AUX_BASE + ev->st[k].slot);
	for (int w = ts_first(ev->woke); w >= 0; w = ts_next(ev->woke, w + 1))
		see_id(d, w);
	c = d->last[p];
	if (d->optimal && p < TR_AUX_BASE)
		mark_own_reads(d, j);

	vc_join(d, &c, &d->incoming[p]);
	memset(&d->incoming[p], 0, sizeof d->incoming[p]);
	/* TSO: an event that waits for an empty buffer comes after the
	 * update that emptied it; an update comes after its own store */
	if (p < TR_AUX_BASE && ev_needs_drain(ev))
		for (int s = 0; s < d->wa; s++)
			if (d->owner[s] == p)
				vc_join(d, &c, &d->last_update[s]);
	if (ev->kind == EV_UPDATE && p >= TR_AUX_BASE) {
		const struct vc *st = vcq_pop(&d->pend[p - TR_AUX_BASE]);
		if (st)
			vc_join(d, &c, st);
	}
	if (ensure_scratch(d, j + 1) < 0)
		return -1;
	nc = candidates(d, j, &c);
	/* newest first: an older event ordered through a newer one is no
	 * race (it is in the clock already) */
	for (unsigned k = 0; k < nc; k++) {
		unsigned i = d->cand[k], t = race_target(d, i, j);
		/* a race; keep for later -- unless the lock it reverses
		 * with happens before j without i (j woken by a signal in
		 * that critical section: moved before the lock, j could not
		 * run, and the branch ended sleep-set blocked; condvar_pc
		 * under tso, 1,436 blocked in 100 s) */
		if (!dpor_hb(d, i, &c) && (t == i || !dpor_hb(d, t, &c)))
			d->cand[nr++] = i;
		else if (!dpor_hb(d, i, &c) && timed_lock(&nj->ev))
			d->cand[nr++] = i | NOT_TARGET; /* race() */
		vc_join_node(d, &c, i);
	}
	nj->idx = ++d->count[p];
	c.c[p] = nj->idx;
	if (store_clock(d, j, &c) < 0)
		return -1;
	d->last[p] = c;
	d->lastev[p] = (int32_t)j;
	if (ev->kind == EV_SPAWN && ev->child > 0 && ev->child < MAXT)
		vc_join(d, &d->incoming[ev->child], &c);
	for (int k = 0; k < ev->nst && p < TR_AUX_BASE; k++) {
		int s = ev->st[k].slot;
		if (s >= TR_AUX_BASE || vcq_push(&d->pend[s], &c) < 0)
			return -1;
		d->owner[s] = (int16_t)p;
	}
	if (ev->kind == EV_UPDATE && p >= TR_AUX_BASE) {
		struct updn *u = &d->updn[p - TR_AUX_BASE];
		if (push_index(&u->node, &u->cap, d->upd[p - TR_AUX_BASE],
			       j) < 0)
			return -1;
		d->last_update[p - TR_AUX_BASE] = c;
		d->upd[p - TR_AUX_BASE]++;
	}
	for (int w = ts_first(ev->woke); w >= 0; w = ts_next(ev->woke, w + 1))
		vc_join(d, &d->incoming[w], &c);
	for (unsigned k = 0; k < nr; k++)
		race(d, d->cand[k], j);
	if (ts_any(ev->woke_timed) && !d->exhaustive)
		timed_races(d, j);
	/* a timeout the search chose while another thread could run */
	if (chosen_timeout(nj) && p < MAXT && d->tmo[p] < UINT8_MAX)
		d->tmo[p]++;
	return index_event(d, j);
}

void dpor_set_last(struct dpor *d, tset last)
{
	d->last_mask = last;
}

void dpor_set_ends(struct dpor *d, tset ends)
{
	d->end_mask = ends;
}

void dpor_set_max_timeouts(struct dpor *d, unsigned n)
{
	d->max_tmo = n;
}

unsigned long dpor_take_timeouts_pruned(struct dpor *d)
{
	unsigned long n = d->tmo_pruned;

	d->tmo_pruned = 0;
	return n;
}

/* May the search explore thread w's timeout here (the bound on the
 * timeouts of a thread in an execution)?  Counts the ones it may not. */
static bool timeout_allowed(struct dpor *d, int w)
{
	if (d->tmo[w] < d->max_tmo)
		return true;
	d->tmo_pruned++;
	return false;
}

bool dpor_covered(const struct dpor *d, int tid)
{
	struct vc c = d->last[tid];

	vc_join(d, &c, &d->incoming[tid]);
	for (int q = 0; q < MAXT; q = id_next(d, q)) {
		/* a thread's own updates commute with its events */
		bool own = q >= TR_AUX_BASE && d->owner[q - TR_AUX_BASE] == tid;
		if (q != tid && !own && d->count[q] > c.c[q])
			return false;
	}
	return true;
}

/* The races of the event at k as the end of the process: with what the
 * program showed outside before it (output, syscalls), as an EV_END's
 * accesses do (ev_end_accesses).  A crash or an abort in the middle of a
 * thread's events ends the process like exit_group does. */
static void end_races(struct dpor *d, unsigned k)
{
	struct node *n = &d->nodes[k];
	struct tr_event saved = n->ev;
	struct vc c;
	unsigned nc, nr = 0;

	load_clock(d, k, &c);
	ev_end_accesses(n->ev.acc, &n->ev.nacc);
	/* the end's accesses read no buffer: what the event's own accesses
	 * had in these fields must not make them buffer-served reads
	 * (buffered_read) */
	for (int i = 0; i < n->ev.nacc; i++) {
		n->ev.rval[i] = n->ev.wval[i] = 0;
		n->ev.fwd_seq[i] = 0;
		n->ev.fwd_slot[i] = 0;
	}
	if (ensure_scratch(d, k + 1) == 0) {
		nc = candidates(d, k, &c);
		for (unsigned x = 0; x < nc; x++) {
			unsigned i = d->cand[x];
			if (!dpor_hb(d, i, &c))
				d->cand[nr++] = i;
			vc_join_node(d, &c, i);
		}
		for (unsigned x = 0; x < nr; x++)
			race(d, d->cand[x], k);
	}
	n->ev = saved;
}

/* A node whose event ended the process in the middle of its thread (a
 * crash, an abort; n->ended): as the sleeper its thread becomes when the
 * other branches there are explored, the event must wake at what could
 * show the end in another place -- output, syscalls, another end -- as
 * well as at what could change the event itself (a write to what the
 * faulting instruction read).  Its own accesses and the end's, then.
 * (With only its own, t1 crashing after t3's output was never explored:
 * the crash slept through the output, found/crash_vs_output_sc.c.)  When
 * they do not fit, the copy conflicts with every access: a sleeper that
 * never sleeps is redundant, not unsound.  Returns n->ev or *buf. */
const struct tr_event *sleeper_event(const struct node *n,
				     struct tr_event *buf)
{
	struct dec_access end[2];
	int nend;

	if (!n->ended)
		return &n->ev;
	*buf = n->ev;
	ev_end_accesses(end, &nend);
	if (buf->nacc + nend > EV_MAX_ACC) {
		end[0] = (struct dec_access){ 0, UINT64_MAX,
					      DEC_READ | DEC_WRITE, 0 };
		nend = 1;
		buf->nacc = 0;
	}
	for (int i = 0; i < nend; i++) {
		int j = buf->nacc++;
		buf->acc[j] = end[i];
		buf->rval[j] = buf->wval[j] = 0;
		buf->fwd_seq[j] = 0;
		buf->fwd_slot[j] = 0;
	}
	return buf;
}

void dpor_ended(struct dpor *d, unsigned k)
{
	const struct node *n;

	if (k >= d->n || !d->nodes[k].executed)
		return;
	/* the exit of the last thread is no end in the middle of a
	 * thread: every other one had exited, nothing it cut short.  Taken
	 * as one (end_races), it raced with the others' output, and the
	 * reversal put it before an output of a thread that then never
	 * exited first: the branch ended blocked (crash_after_output, 10 of
	 * its blocked executions).  (An exit with another thread still able
	 * to run, a crash in a TLS destructor, is an end in the middle.) */
	const struct node *e = &d->nodes[k];
	bool last_exit = e->ev.kind == EV_EXIT &&
			 ts_none(ts_minus(e->enabled, ts_one(e->chosen)));
	if (e->ev.kind != EV_END && !last_exit) {
		end_races(d, k);
		d->nodes[k].ended = true;
	}
	n = &d->nodes[k];
	tset m = ts_minus(n->enabled, ts_one(n->chosen));
	for (int t = ts_first(m); t >= 0; t = ts_next(m, t + 1))
		if (ts_has(d->last_mask, t) && !timeout_allowed(d, t))
			continue; /* a timeout beyond the bound */
		else if (d->optimal)
			wut_pending(d, k, t);
		else
			backtrack_at(d, k, ts_one(t), t);
}

/* Thread p ended the execution blocked on the lock at obj (a mutex, a
 * rwlock, a semaphore, a futex word lock), its call no event.  That call
 * conflicts with the events by which the other threads hold obj now (each
 * thread whose newest event on obj took it): moved before such an event,
 * p takes obj instead.  Without these races a thread that was never let
 * in was never tried first: main returning while t1 still waits for the
 * mutex t0 kept, t1's assertion behind that lock was "complete, no error"
 * in 1 execution (samples/lock_kept.c, before 2026-11-28). */
void dpor_blocked(struct dpor *d, int p, uint64_t obj)
{
	tset m = threads_on(d, obj);
	long last = p >= 0 && p < MAXT ? d->lastev[p] : -1;

	if (d->exhaustive || p < 0 || p >= TR_AUX_BASE)
		return;
	for (int u = ts_first(m); u >= 0; u = ts_next(m, u + 1)) {
		long nk = u == p || u >= TR_AUX_BASE ? -1
						     : newest_of(d, u, obj, d->n);
		if (nk < 0)
			continue;
		unsigned k = (unsigned)nk;
		const struct tr_event *ek = &d->nodes[k].ev;
		if (!d->nodes[k].executed ||
		    !(takes(ek, obj) || (sync_is(ek, HOOK_SYNC_SEM_WAIT) &&
					 ek->acc[0].addr == obj)))
			continue;
		if (last > (long)k) {
			/* p's events after k, if they do not depend on it,
			 * go before it, and p then calls the lock there */
			if (dpor_hb_node(d, k, (unsigned)last))
				continue;
			if (d->optimal)
				wut_race(d, k, (unsigned)last);
			else
				backtrack_at(d, k,
					     ts_and(initials(d, k,
							     (unsigned)last),
						    d->nodes[k].enabled),
					     p);
		} else if (ts_has(d->nodes[k].enabled, p)) {
			/* p waited at its call already: it can go first */
			if (d->optimal)
				wut_pending(d, k, p);
			else
				backtrack_at(d, k, ts_one(p), p);
		}
	}
}

/* ---- the tree ---- */

static bool asleep(const struct node *n, int tid)
{
	for (int i = 0; i < n->nsleep; i++)
		if (n->sleep[i].tid == tid)
			return true;
	return false;
}

tset dpor_sleep_mask(const struct node *n)
{
	tset m = ts_empty();

	for (int i = 0; i < n->nsleep; i++)
		ts_add(&m, n->sleep[i].tid);
	return m;
}

static int add_sleeper(struct node *n, int tid, bool done,
		       const struct tr_event *ev)
{
	if (asleep(n, tid))
		return 0;
	if (n->nsleep == n->capsleep) {
		int cap = n->capsleep ? 2 * n->capsleep : 4;
		struct sleeper *s = realloc(n->sleep, (size_t)cap * sizeof *s);
		if (!s)
			return -1;
		n->sleep = s;
		n->capsleep = cap;
	}
	n->sleep[n->nsleep++] = (struct sleeper){ tid, done, *ev };
	return 0;
}

static struct node *new_node(struct dpor *d)
{
	if (d->n == d->cap) {
		unsigned cap = d->cap ? 2 * d->cap : 1024;
		struct node *n = realloc(d->nodes, cap * sizeof *n);
		if (!n)
			return NULL;
		d->nodes = n;
		d->cap = cap;
	}
	struct node *n = &d->nodes[d->n++];
	memset(n, 0, sizeof *n);
	n->chosen = -1;
	n->wroot = n->wcur = -1;
	return n;
}

/* Sleep set on entry of the node after prev (Alg. 1 line 9): the
 * sleepers of prev whose next event is independent of prev's event.  A
 * sleeper whose read its own buffer served stays asleep through that
 * buffer's update: the read is one at the update's place wherever it
 * runs before it (wakeup.c as_seen), and later writes wake it. */
static int inherit_sleep(const struct dpor *d, struct node *n,
			 const struct node *prev)
{
	for (int i = 0; i < prev->nsleep; i++) {
		const struct sleeper *s = &prev->sleep[i];
		struct tr_event e = s->ev;
		if (s->tid == prev->chosen)
			continue;
		if (ev_commute(&e, &prev->ev, EVO_FRONT))
			/* its values after prev's add */
			ev_commute_rebase(&e, &s->ev, &prev->ev, true);
		else if (dpor_ev_conflict(d, &s->ev, &prev->ev))
			continue;
		if (add_sleeper(n, s->tid, false, &e) < 0)
			return -1;
	}
	return 0;
}

/* Would choosing t at node k (whose enabled set is known) preempt the
 * thread that performed event k - 1?  A switch away from a thread that
 * could go on is a preemption; update threads count like the others. */
static unsigned preempts(const struct dpor *d, unsigned k, int t)
{
	int prev;

	if (k == 0)
		return 0;
	prev = d->nodes[k - 1].chosen;
	return t != prev && ts_has(d->nodes[k].enabled, prev);
}

/* The threads node k may choose under the preemption bound. */
static tset allowed(struct dpor *d, unsigned k, tset cand)
{
	tset ok = ts_empty();

	if (d->bound < 0)
		return cand;
	for (int t = ts_first(cand); t >= 0; t = ts_next(cand, t + 1))
		if (d->nodes[k].pre + preempts(d, k, t) <= (unsigned long)d->bound)
			ts_add(&ok, t);
	if (!ts_eq(ok, cand))
		d->pruned = true;
	return ok;
}

bool dpor_pruned(const struct dpor *d)
{
	return d->pruned;
}

/* Every thread that could run at n is asleep, and one of them sleeps with
 * the end of the process (a crash or an abort it reached at a node above,
 * where the branch it sleeps in let others run first): it ends the
 * execution here instead.  What ran meanwhile is no execution seen
 * before -- the end came there before any of it -- and the search needed
 * to run it, to see its races with what came before the end; blocked, it
 * was an execution counted as wasted (crash_first: 2 + 1, now 3 + 0).
 * Its thread leaves n's sleep set.  Returns it as a set, or none. */
static tset wake_end(struct node *n, tset enabled)
{
	for (int i = 0; i < n->nsleep; i++) {
		int t = n->sleep[i].tid;
		if (!ts_has(enabled, t) || !ev_ends(&n->sleep[i].ev))
			continue;
		n->sleep[i] = n->sleep[--n->nsleep];
		return ts_one(t);
	}
	return ts_empty();
}

int dpor_choose(struct dpor *d, unsigned k, tset enabled, int prefer)
{
	struct node *n;
	tset cand;

	if (k < d->n) { /* replayed prefix, or the branch to take */
		n = &d->nodes[k];
		if (!ts_has(enabled, n->chosen))
			return -2;
		return n->chosen;
	}
	if (k != d->n)
		return -2;
	n = new_node(d);
	if (!n)
		return -2;
	n->enabled = enabled;
	n->tmask = d->last_mask;
	n->pre = k ? d->nodes[k - 1].pre +
			     preempts(d, k - 1, d->nodes[k - 1].chosen)
		   : 0;
	if (!d->exhaustive && k > 0 &&
	    inherit_sleep(d, n, &d->nodes[k - 1]) < 0)
		return -2;
	cand = allowed(d, k, ts_minus(enabled, dpor_sleep_mask(n)));
	if (ts_none(cand) && !d->exhaustive)
		cand = allowed(d, k, wake_end(n, enabled));
	/* A timeout is taken last (below), but it is taken: when every
	 * other thread that could run is asleep here, it is the way on.
	 * (Blocking such an execution, as x86smc did before, lost the ones
	 * where the timed-out thread then races with an asleep thread's
	 * event: a reversal puts only the thread at the race, and the
	 * timeout comes some events later; samples/spin_futex_giveup.c:
	 * "complete, no error" after 12 executions.) */
	if (ts_none(cand)) {
		pr_debug("blocked at %u: enabled %#lx asleep %#lx", k,
			 (unsigned long)ts_word(enabled, 0),
			 (unsigned long)ts_word(dpor_sleep_mask(n), 0));
		return -1; /* sleep-set blocked (or nothing within the bound) */
	}
	/* Optimal-DPOR: the branch of the node above guides this one */
	n->chosen = d->optimal ? wut_enter(d, k, cand) : -1;
	if (n->chosen < 0) {
		/* a timeout only when nothing else may run: the search
		 * reaches the others where a wake-up ended a timed wait */
		tset first = ts_minus(cand, d->last_mask);
		if (ts_none(first))
			first = cand;
		if (ts_any(ts_minus(first, d->end_mask)))
			first = ts_minus(first, d->end_mask);
		n->chosen = ts_has(first, prefer) ? prefer : ts_first(first);
	}
	n->backtrack = d->exhaustive ? cand : ts_one(n->chosen);
	return n->chosen;
}

void dpor_retract(struct dpor *d, unsigned k)
{
	if (k + 1 == d->n && k >= d->target && !d->nodes[k].executed) {
		if (d->optimal)
			wut_retract(d, k);
		free(d->nodes[k].sleep);
		d->n--;
	}
}

static bool same_event(const struct tr_event *a, const struct tr_event *b)
{
	return a->tid == b->tid && a->pc == b->pc && a->kind == b->kind &&
	       a->nacc == b->nacc &&
	       (a->nacc == 0 || a->acc[0].addr == b->acc[0].addr);
}

int dpor_executed(struct dpor *d, unsigned k, const struct tr_event *ev)
{
	struct node *n;

	if (k >= d->n)
		return -1;
	n = &d->nodes[k];
	if (k < d->target && n->executed && !same_event(&n->ev, ev)) {
		pr_debug("replay diverged at event %u: was T%d %s pc %#lx "
			 "%d acc (%#lx), now T%d %s pc %#lx %d acc (%#lx)", k,
			 n->ev.tid, ev_kind_name(n->ev.kind),
			 (unsigned long)n->ev.pc, n->ev.nacc,
			 (unsigned long)(n->ev.nacc ? n->ev.acc[0].addr : 0),
			 ev->tid, ev_kind_name(ev->kind),
			 (unsigned long)ev->pc, ev->nacc,
			 (unsigned long)(ev->nacc ? ev->acc[0].addr : 0));
		return -2;
	}
	n->ev = *ev;
	n->ended = false;
	n->executed = true;
	n->stutter = false;
	return analyse(d, k);
}

/* Node j's entries leave the index (it became stutter: gi_drop). */
static void unindex_event(struct dpor *d, unsigned j)
{
	const struct tr_event *ev = &d->nodes[j].ev;

	for (int k = 0; k < ev->nacc; k++) {
		const struct dec_access *a = &ev->acc[k];
		if (a->size > BIG_ACCESS)
			continue; /* d->big keeps it (a whole-memory access) */
		uint64_t last = a->size ? a->addr + a->size - 1 : a->addr;
		for (uint64_t g = a->addr >> 3; g <= last >> 3; g++)
			gi_drop(&d->gi, g, ev->tid, (int32_t)j);
	}
}

void dpor_stutter(struct dpor *d, unsigned k, int tid, int n)
{
	for (unsigned j = k < d->n ? k : d->n; j-- > 0 && n > 0;) {
		struct node *nj = &d->nodes[j];
		if (!nj->executed || nj->ev.tid != tid)
			continue;
		if (!nj->stutter)
			unindex_event(d, j);
		nj->stutter = true;
		nj->stutter_at = k;
		n--;
	}
}

int dpor_value(struct dpor *d, unsigned k, unsigned nvalues)
{
	struct node *n;

	if (k >= d->n || nvalues == 0 || nvalues > UINT16_MAX)
		return -1;
	n = &d->nodes[k];
	if (n->nvalues == 0) { /* first time here: the first value */
		n->nvalues = (uint16_t)nvalues;
		n->vidx = 0;
	}
	return n->nvalues == nvalues ? n->vidx : -1;
}

int dpor_next_task(struct dpor *d)
{
	if (d->optimal)
		wut_flush(d);
	/* a task's branch node (floor - 1) is its own for the values of
	 * its thread's event, not for other threads */
	while (d->n > 0 && d->n >= d->floor) {
		unsigned k = d->n - 1;
		struct node *n = &d->nodes[k];
		if (n->executed && n->vidx + 1 < n->nvalues) {
			/* the same thread, its next value (dpor_value) */
			n->vidx++;
			n->executed = false;
			d->target = k;
			derived_reset(d);
			return DPOR_NEXT;
		}
		if (k + 1 == d->floor)
			break;
		n->nvalues = n->vidx = 0;
		if (n->executed) {
			ts_add(&n->done, n->chosen);
			struct tr_event buf;
			if (!d->exhaustive)
				add_sleeper(n, n->chosen, true,
					    sleeper_event(n, &buf));
			n->executed = false; /* a wait comes back here */
		}
		/* a given-away branch's event joins the sleep set before
		 * the next branch here, as if it had been explored here */
		if (ts_any(n->noev))
			return DPOR_WAIT;
		tset cand = ts_minus(n->enabled, n->done);
		if (!d->exhaustive)
			cand = ts_minus(cand, dpor_sleep_mask(n));
		cand = allowed(d, k, d->optimal ? cand
						: ts_and(cand, n->backtrack));
		int t = !d->optimal ? ts_first(cand) : wut_next(d, k, cand);
		if (t >= 0) {
			n->chosen = t;
			d->target = k;
			derived_reset(d);
			return DPOR_NEXT;
		}
		if (ts_any(n->stolen)) /* races there may add branches here */
			return DPOR_WAIT;
		wut_free_node(d, n);
		free(n->sleep);
		d->n--;
	}
	d->target = 0;
	return DPOR_DONE;
}

bool dpor_next(struct dpor *d)
{
	return dpor_next_task(d) == DPOR_NEXT;
}

/* ---- --jobs: subtrees as tasks ---- */

/* Can node k's thread t be given away?  Only where the branch taken
 * there is explored or being explored with a known event, and no other
 * given-away branch's event is missing: the new task's sleep set is then
 * what the sequential search would have had. */
static tset stealable(struct dpor *d, unsigned k)
{
	const struct node *n = &d->nodes[k];
	tset cand;

	if (n->chosen < 0 || ts_any(n->noev) ||
	    !(n->executed || ts_has(n->done, n->chosen)))
		return ts_empty();
	cand = ts_minus(ts_and(n->backtrack, n->enabled), n->done);
	ts_del(&cand, n->chosen);
	if (!d->exhaustive)
		cand = ts_minus(cand, dpor_sleep_mask(n));
	return ts_any(cand) ? allowed(d, k, cand) : ts_empty();
}

static void put(uint8_t **p, const void *v, size_t n)
{
	memcpy(*p, v, n);
	*p += n;
}

static void get(const uint8_t **p, void *v, size_t n)
{
	memcpy(v, *p, n);
	*p += n;
}

/* A subtree blob: exhaustive, bound, the number of nodes, then per node
 * enabled, backtrack, done, tmask, pre, nvalues, vidx, chosen, and the last
 * node's sleepers (tid, done, event). */
#define NODE_BYTES (4 * sizeof(tset) + 4 + 2 + 2 + 4)

size_t dpor_steal(struct dpor *d, void **blob, int *tid)
{
	unsigned k;
	tset cand = ts_empty();

	*blob = NULL;
	for (k = d->floor; k < d->n && ts_none(cand); k++)
		cand = stealable(d, k);
	if (ts_none(cand))
		return 0;
	k--;
	struct node *n = &d->nodes[k];
	int t = ts_first(cand);
	bool cur = !ts_has(n->done, n->chosen); /* being explored */
	int nsl = n->nsleep + cur;
	size_t len = 16 + (size_t)(k + 1) * NODE_BYTES + 4 +
		     (size_t)nsl * (4 + 1 + sizeof(struct tr_event));
	uint8_t *b = malloc(len), *p = b;
	if (!b)
		return 0;
	uint32_t nn = k + 1, ns = (uint32_t)nsl;
	uint8_t ex = d->exhaustive;
	int64_t bound = d->bound;
	put(&p, &ex, 1);
	p += 3;
	put(&p, &nn, 4);
	put(&p, &bound, 8);
	for (unsigned i = 0; i <= k; i++) {
		const struct node *m = &d->nodes[i];
		int32_t c = i == k ? t : m->chosen;
		put(&p, &m->enabled, sizeof(tset));
		put(&p, &m->backtrack, sizeof(tset));
		put(&p, &m->done, sizeof(tset));
		put(&p, &m->tmask, sizeof(tset));
		put(&p, &m->pre, 4);
		put(&p, i == k ? &(uint16_t){ 0 } : &m->nvalues, 2);
		put(&p, i == k ? &(uint16_t){ 0 } : &m->vidx, 2);
		put(&p, &c, 4);
	}
	put(&p, &ns, 4);
	for (int i = 0; i < nsl; i++) {
		/* the branch taken now comes before t, as in the sequential
		 * order: it sleeps in t's subtree like an explored one */
		const struct sleeper *s = i < n->nsleep ? &n->sleep[i] : NULL;
		int32_t st = s ? s->tid : n->chosen;
		uint8_t dn = s ? s->done : 1;
		put(&p, &st, 4);
		put(&p, &dn, 1);
		struct tr_event buf;
		put(&p, s ? &s->ev : sleeper_event(n, &buf),
		    sizeof(struct tr_event));
	}
	ts_add(&n->done, t);
	ts_add(&n->stolen, t);
	ts_add(&n->noev, t);
	*blob = b;
	*tid = t;
	return (size_t)(p - b);
}

struct dpor *dpor_load(const void *blob, size_t len)
{
	const uint8_t *p = blob, *end = p + len;
	uint8_t ex;
	uint32_t nn, ns;
	int64_t bound;
	struct dpor *d;

	if (len < 16)
		return NULL;
	get(&p, &ex, 1);
	p += 3;
	get(&p, &nn, 4);
	get(&p, &bound, 8);
	if (nn == 0 || (size_t)(end - p) < (size_t)nn * NODE_BYTES + 4)
		return NULL;
	d = dpor_new(ex, bound);
	if (!d)
		return NULL;
	for (unsigned i = 0; i < nn; i++) {
		struct node *m = new_node(d);
		int32_t c;
		if (!m)
			goto bad;
		get(&p, &m->enabled, sizeof(tset));
		get(&p, &m->backtrack, sizeof(tset));
		get(&p, &m->done, sizeof(tset));
		get(&p, &m->tmask, sizeof(tset));
		get(&p, &m->pre, 4);
		get(&p, &m->nvalues, 2);
		get(&p, &m->vidx, 2);
		get(&p, &c, 4);
		if (c < 0 || c >= MAXT || !ts_has(m->enabled, c))
			goto bad;
		m->chosen = c;
	}
	get(&p, &ns, 4);
	if ((size_t)(end - p) != (size_t)ns * (4 + 1 + sizeof(struct tr_event)))
		goto bad;
	for (unsigned i = 0; i < ns; i++) {
		int32_t st;
		uint8_t dn;
		struct tr_event ev;
		get(&p, &st, 4);
		get(&p, &dn, 1);
		get(&p, &ev, sizeof ev);
		if (st < 0 || st >= MAXT ||
		    add_sleeper(&d->nodes[nn - 1], st, dn, &ev) < 0)
			goto bad;
	}
	d->floor = nn;
	d->target = nn - 1;
	return d;
bad:
	dpor_free(d);
	return NULL;
}

void dpor_set_optimal(struct dpor *d, bool on)
{
	d->optimal = on && !d->exhaustive && d->bound < 0 && d->n == 0;
}

unsigned dpor_floor(const struct dpor *d)
{
	return d->floor;
}

unsigned dpor_take_races(struct dpor *d, struct dpor_race *out,
			 unsigned max)
{
	unsigned n = d->nout < max ? d->nout : max;

	if (!n)
		return 0;
	memcpy(out, d->out, n * sizeof *out);
	memmove(d->out, d->out + n, (d->nout - n) * sizeof *out);
	d->nout -= n;
	return n;
}

bool dpor_apply_race(struct dpor *d, const struct dpor_race *r)
{
	if (r->depth >= d->n || d->exhaustive)
		return false;
	return add_backtrack(&d->nodes[r->depth], r->init, r->tid);
}

int dpor_sleeper(struct dpor *d, unsigned depth, int tid,
		 const struct tr_event *ev)
{
	if (depth >= d->n || tid < 0 || tid >= MAXT)
		return -1;
	struct node *n = &d->nodes[depth];
	ts_del(&n->noev, tid);
	return d->exhaustive ? 0 : add_sleeper(n, tid, true, ev);
}

void dpor_subtree_done(struct dpor *d, unsigned depth, int tid)
{
	if (depth < d->n && tid >= 0 && tid < MAXT) {
		ts_del(&d->nodes[depth].stolen, tid);
		ts_del(&d->nodes[depth].noev, tid);
	}
}

unsigned dpor_prefix(const struct dpor *d)
{
	return d->target;
}

int dpor_resume(struct dpor *d, unsigned depth)
{
	if (depth > d->target)
		return -1;
	for (unsigned j = 0; j < depth; j++) {
		if (!d->nodes[j].executed)
			return -1;
		if (d->nodes[j].stutter_at > depth) /* found later on */
			d->nodes[j].stutter = false;
	}
	for (unsigned j = 0; j < depth; j++)
		if (analyse(d, j) < 0)
			return -1;
	return 0;
}

uint64_t dpor_serial(const struct dpor *d)
{
	return d->serial;
}

bool dpor_timeout_beyond(struct dpor *d, unsigned k, int tid,
			 tset enabled)
{
	if (d->exhaustive || ts_none(ts_minus(enabled, d->last_mask)) ||
	    tid >= MAXT || timeout_allowed(d, tid))
		return false;
	if (k < d->n && d->nodes[k].chosen == tid) /* not again here */
		ts_add(&d->nodes[k].done, tid);
	return true;
}

double dpor_explored(const struct dpor *d)
{
	double f = 0, share = 1;

	for (unsigned k = d->floor; k < d->n; k++) {
		const struct node *n = &d->nodes[k];
		tset cur = ts_one(n->chosen); /* none if -1 */
		int all = ts_count(ts_or(ts_or(n->backtrack, n->done), cur));
		if (!all)
			break;
		share /= all;
		f += share * ts_count(ts_minus(n->done, cur));
	}
	return f;
}

double dpor_path_leaves(const struct dpor *d)
{
	double p = 1;

	for (unsigned k = 0; k < d->n && d->nodes[k].executed; k++) {
		const struct node *n = &d->nodes[k];
		tset cur = ts_one(n->chosen); /* none if -1 */
		p *= ts_count(ts_or(ts_or(n->backtrack, n->done), cur)) *
		     (n->nvalues > 1 ? n->nvalues : 1);
	}
	return p;
}

unsigned dpor_length(const struct dpor *d)
{
	unsigned n = d->n;

	while (n > 0 && !d->nodes[n - 1].executed)
		n--;
	return n;
}

int dpor_thread_at(const struct dpor *d, unsigned k)
{
	return k < d->n ? d->nodes[k].chosen : -1;
}

const struct tr_event *dpor_event(const struct dpor *d, unsigned k)
{
	return k < d->n && d->nodes[k].executed ? &d->nodes[k].ev : NULL;
}

tset dpor_enabled(const struct dpor *d, unsigned k)
{
	return k < d->n ? d->nodes[k].enabled : ts_empty();
}

int dpor_preemptions(const struct dpor *d)
{
	int p = 0;

	for (unsigned k = 1; k < d->n && d->nodes[k].executed; k++) {
		int prev = d->nodes[k - 1].chosen;
		if (d->nodes[k].chosen != prev &&
		    ts_has(d->nodes[k].enabled, prev))
			p++;
	}
	return p;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

uint64_t dpor_trace_hash(const struct dpor *d)
{
	uint64_t sum = 0;

	if (log_verbose > 2)
		for (unsigned k = 0; k < d->n && d->nodes[k].executed; k++) {
			const struct node *n = &d->nodes[k];
			fprintf(stderr, "  ev%u T%d#%u %s woke=%lx clock", k,
				n->ev.tid, n->idx, ev_kind_name(n->ev.kind),
				(unsigned long)ts_word(n->ev.woke, 0));
			for (int t = 0; t < 4; t++)
				fprintf(stderr, " %u", node_clock(d, k, t));
			fputc('\n', stderr);
		}
	/* a sum of per-event hashes: independent of the interleaving;
	 * each event's clock is its set of happens-before predecessors */
	for (unsigned k = 0; k < d->n && d->nodes[k].executed; k++) {
		const struct node *n = &d->nodes[k];
		uint64_t h = mix(mix(n->ev.tid, n->idx), n->ev.pc);
		if (n->ev.kind == EV_NONDET) /* inputs make other traces */
			h = mix(h, (uint64_t)n->ev.value);
		for (int t = 0; t < MAXT; t = id_next(d, t))
			if (node_clock(d, k, t))
				h = mix(h, ((uint64_t)t << 32) |
					       node_clock(d, k, t));
		sum += h;
	}
	return sum;
}

int dpor_check(const struct dpor *d)
{
	for (unsigned k = 0; k < d->n; k++) {
		const struct node *n = &d->nodes[k];
		if (n->chosen < 0 || !ts_has(n->enabled, n->chosen))
			return -1;
		if (ts_any(ts_minus(n->done, n->enabled)))
			return -1;
		if (n->executed && n->ev.tid != n->chosen)
			return -1;
	}
	return 0;
}
