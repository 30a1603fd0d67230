/* races.c — the data-race monitor (races.h). */
#include "dpor/races.h"

#include <stdlib.h>
#include <string.h>

#define NT TR_AUX_BASE /* logical threads; update threads are not watched */
#define SYNC_GRANULES 8 /* granules of one access an event syncs on */

struct clock {
	uint32_t c[NT];
};

/* One access as the shadow keeps it: its epoch (thread, own clock). */
struct epoch {
	uint8_t tid, atomic, used;
	uint32_t clk;
	uint64_t pc;
};

struct cell {
	struct epoch w;
	struct epoch r[RACE_READERS];
};

/* Open addressing, linear probing; key 0 is free (address 0 is never
 * accessed; a granule key is addr | 1). */
struct map {
	uint64_t *key;
	void *val;
	size_t cap, n, size; /* size: bytes of one value */
};

struct races {
	struct clock th[NT];
	struct map shadow; /* byte address → struct cell */
	struct map sync;   /* granule → struct clock released there */
};

static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

static int map_init(struct map *m, size_t cap, size_t size)
{
	m->key = calloc(cap, sizeof *m->key);
	m->val = calloc(cap, size);
	m->cap = cap;
	m->n = 0;
	m->size = size;
	return m->key && m->val ? 0 : -1;
}

static void map_free(struct map *m)
{
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof *m);
}

static size_t slot(const struct map *m, uint64_t key)
{
	size_t i = mix(key) & (m->cap - 1);

	while (m->key[i] && m->key[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static int map_grow(struct map *m)
{
	struct map n;

	if (map_init(&n, m->cap * 2, m->size) < 0) {
		map_free(&n);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++)
		if (m->key[i]) {
			size_t j = slot(&n, m->key[i]);
			n.key[j] = m->key[i];
			memcpy((char *)n.val + j * n.size,
			       (char *)m->val + i * m->size, m->size);
			n.n++;
		}
	map_free(m);
	*m = n;
	return 0;
}

/* The value of key, created zeroed if new; NULL out of memory. */
static void *map_get(struct map *m, uint64_t key)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap && map_grow(m) < 0)
		return NULL;
	i = slot(m, key);
	if (!m->key[i]) {
		m->key[i] = key;
		m->n++;
	}
	return (char *)m->val + i * m->size;
}

struct races *races_new(void)
{
	struct races *m = calloc(1, sizeof *m);

	if (!m || map_init(&m->shadow, 1024, sizeof(struct cell)) < 0 ||
	    map_init(&m->sync, 64, sizeof(struct clock)) < 0) {
		races_free(m);
		return NULL;
	}
	races_reset(m);
	return m;
}

void races_free(struct races *m)
{
	if (!m)
		return;
	map_free(&m->shadow);
	map_free(&m->sync);
	free(m);
}

static void map_clear(struct map *m)
{
	memset(m->key, 0, m->cap * sizeof *m->key);
	memset(m->val, 0, m->cap * m->size);
	m->n = 0;
}

void races_reset(struct races *m)
{
	map_clear(&m->shadow);
	map_clear(&m->sync);
	memset(m->th, 0, sizeof m->th);
	m->th[0].c[0] = 1; /* the main thread */
}

static void join(struct clock *a, const struct clock *b)
{
	for (int i = 0; i < NT; i++)
		if (b->c[i] > a->c[i])
			a->c[i] = b->c[i];
}

/* Does access e happen before thread t's next event? */
static bool before(const struct races *m, const struct epoch *e, int t)
{
	return e->tid == t || e->clk <= m->th[t].c[e->tid];
}

/* Do e and the access (t, atomic) of thread t race? */
static bool races_with(const struct races *m, const struct epoch *e, int t,
		       bool atomic)
{
	return e->used && !before(m, e, t) && !(e->atomic && atomic);
}

static void found(struct race *out, const struct epoch *e, bool ewrite,
		  uint64_t addr, int t, uint64_t pc, bool write, bool atomic)
{
	out->a = (struct race_access){ e->tid, e->pc, addr, ewrite,
				       e->atomic };
	out->b = (struct race_access){ t, pc, addr, write, atomic };
}

/* One byte accessed by thread t: check, then record. */
static int byte(struct races *m, int t, uint64_t addr, uint64_t pc,
		bool write, bool atomic, struct race *out)
{
	struct cell *c = map_get(&m->shadow, addr);
	struct epoch me = { (uint8_t)t, atomic, 1, m->th[t].c[t], pc };
	int r = 0, free_r = -1, oldest = 0;

	if (!c)
		return -1;
	if (races_with(m, &c->w, t, atomic)) {
		found(out, &c->w, true, addr, t, pc, write, atomic);
		r = 1;
	}
	for (int i = 0; i < RACE_READERS; i++) {
		struct epoch *e = &c->r[i];
		if (write && !r && races_with(m, e, t, atomic)) {
			found(out, e, false, addr, t, pc, write, atomic);
			r = 1;
		}
		if (e->used && (e->tid == t || (write && before(m, e, t))))
			e->used = 0; /* superseded */
		if (!e->used && free_r < 0)
			free_r = i;
		if (e->used && e->clk < c->r[oldest].clk)
			oldest = i;
	}
	if (write)
		c->w = me;
	else
		c->r[free_r >= 0 ? free_r : oldest] = me;
	return r;
}

static int access(struct races *m, int t, uint64_t addr, uint64_t size,
		  uint64_t pc, bool write, bool atomic, struct race *out)
{
	int r = 0;

	if (size > RACE_MAX_BYTES)
		size = RACE_MAX_BYTES;
	for (uint64_t i = 0; i < size && r == 0; i++)
		r = byte(m, t, addr + i, pc, write, atomic, out);
	return r;
}

/* Acquire, then (after the accesses) release, on the granules of ev's
 * accesses. */
static int sync_on(struct races *m, int t, const struct tr_event *ev,
		   bool release)
{
	for (int i = 0; i < ev->nacc; i++) {
		uint64_t g0 = ev->acc[i].addr >> 3;
		uint64_t g1 = (ev->acc[i].addr + (ev->acc[i].size ? ev->acc[i].size : 1) - 1) >> 3;
		for (uint64_t g = g0; g <= g1 && g < g0 + SYNC_GRANULES; g++) {
			struct clock *l = map_get(&m->sync, (g << 3) | 1);
			if (!l)
				return -1;
			if (release)
				join(l, &m->th[t]);
			else
				join(&m->th[t], l);
		}
	}
	return 0;
}

static bool synchronises(const struct tr_event *ev)
{
	switch (ev->kind) {
	case EV_SYNC: case EV_FUTEX: case EV_EXIT: case EV_JOIN:
	case EV_CALL: case EV_OUTPUT: case EV_RMW: case EV_ATOMIC:
		return true;
	default:
		return false;
	}
}

/* The plain or atomic accesses the monitor checks in ev. */
static int check(struct races *m, int t, const struct tr_event *ev,
		 struct race *out)
{
	bool atomic = ev->kind == EV_RMW || ev->kind == EV_ATOMIC;
	int r = 0;

	if (ev->kind != EV_MEM && ev->kind != EV_SPAWN && !atomic)
		return 0;
	for (int i = 0; i < ev->nacc && r == 0; i++) {
		const struct dec_access *a = &ev->acc[i];
		if ((a->rw & DEC_READ) &&
		    (r = access(m, t, a->addr, a->size, ev->pc, false, atomic,
				out)))
			break;
		if (a->rw & DEC_WRITE)
			r = access(m, t, a->addr, a->size, ev->pc, true, atomic,
				   out);
	}
	for (int i = 0; i < ev->nst && r == 0; i++) /* tso/pso: buffered */
		r = access(m, t, ev->st[i].addr, ev->st[i].size, ev->pc, true,
			   atomic, out);
	return r;
}

int races_event(struct races *m, unsigned k, const struct tr_event *ev,
		struct race *out)
{
	int t = ev->tid, r;
	bool sync = synchronises(ev);

	if (t < 0 || t >= NT)
		return 0; /* an update thread: the store was checked */
	if (sync && sync_on(m, t, ev, false) < 0)
		return -1;
	r = check(m, t, ev, out);
	if (r == 1)
		out->event = k;
	if (sync && sync_on(m, t, ev, true) < 0)
		return -1;
	if (ev->kind == EV_SPAWN && ev->child > 0 && ev->child < NT) {
		join(&m->th[ev->child], &m->th[t]);
		m->th[ev->child].c[ev->child]++;
	}
	for (int w = ts_first(ev->woke); w >= 0 && w < NT;
	     w = ts_next(ev->woke, w + 1))
		if (w != t)
			join(&m->th[w], &m->th[t]);
	if (sync || ev->kind == EV_SPAWN || ts_any(ev->woke))
		m->th[t].c[t]++; /* what follows is not released yet */
	return r;
}
