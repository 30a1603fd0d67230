/* trace.c — the error trace for a person, and the store→load
 * reorderings in it (see trace.h for what is shown and folded). */
#include "report/trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/decode.h"

#define NSLOTS (TR_MAX_THREADS - TR_AUX_BASE)
#define NTH TR_AUX_BASE  /* logical threads */
#define MAXIDX 256       /* bytes of one access indexed for conflicts */
#define WINDOW 10000     /* steps a reordering is looked for in */

/* The stores of one buffer, oldest first: (step, index in its st[]). */
struct fifo {
	struct pend {
		size_t k;
		int i;
	} *v;
	size_t head, n, cap;
};

/* Bytes each thread read / wrote in one 8-byte granule. */
struct gent {
	uint64_t key; /* granule + 1, 0 = empty */
	uint8_t r[NTH], w[NTH];
};

struct tctx {
	const struct trace_env *env;
	const struct trace_in *in;
	FILE *f;
	int owner[NSLOTS];   /* thread of each buffer, -1 */
	struct fifo q[NSLOTS];
	long *src;           /* update step k: the step that buffered it */
	long *stale;         /* step k read past this buffered store step */
	int *stale_i;        /* ... its st[] entry */
	long *flush;         /* [k * DEC_MAX_MEM + i]: the update, or -1 */
	uint8_t *shown;      /* enum shown */
	struct gent *g;      /* open addressing, cap a power of two */
	size_t gcap, gn;
};

/* ---- helpers ---- */

static bool overlap(uint64_t a, uint64_t as, uint64_t b, uint64_t bs)
{
	return a < b + bs && b < a + as;
}

static uint64_t masked(uint64_t v, uint64_t size)
{
	return size >= 8 ? v : v & ((1ull << (8 * size)) - 1);
}

static int fifo_push(struct fifo *q, size_t k, int i)
{
	if (q->head + q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 16;
		struct pend *v = realloc(q->v, cap * sizeof *v);
		if (!v)
			return -1;
		q->v = v;
		q->cap = cap;
	}
	q->v[q->head + q->n++] = (struct pend){ k, i };
	return 0;
}

static const struct pend *fifo_pop(struct fifo *q)
{
	if (!q->n)
		return NULL;
	q->n--;
	return &q->v[q->head++];
}

/* The thread an event belongs to: an update is its buffer's thread's. */
static int who(const struct tctx *c, const struct tr_event *ev)
{
	int s = ev->tid - TR_AUX_BASE;

	if (ev->tid < TR_AUX_BASE)
		return ev->tid;
	return s < NSLOTS ? c->owner[s] : -1;
}

static const struct tr_store *st_of(const struct tctx *c, size_t k, int i)
{
	return &c->in->ev[k].st[i];
}

/* ---- pass 1: the store buffers, replayed from the events ---- */

/* A buffered store of another thread that the read (addr, size) of
 * thread tid reads past: its step, or -1. */
static long read_past(struct tctx *c, int tid, uint64_t addr,
		      uint64_t size, int *which)
{
	for (int s = 0; s < NSLOTS; s++) {
		const struct fifo *q = &c->q[s];
		if (c->owner[s] < 0 || c->owner[s] == tid)
			continue;
		for (size_t j = q->head; j < q->head + q->n; j++) {
			const struct tr_store *st = st_of(c, q->v[j].k, q->v[j].i);
			if (overlap(addr, size, st->addr, st->size)) {
				*which = q->v[j].i;
				return (long)q->v[j].k;
			}
		}
	}
	return -1;
}

static void on_update(struct tctx *c, size_t k, const struct tr_event *ev)
{
	int s = ev->tid - TR_AUX_BASE;
	const struct pend *p = s < NSLOTS ? fifo_pop(&c->q[s]) : NULL;

	if (!p)
		return;
	c->src[k] = (long)p->k;
	c->flush[p->k * DEC_MAX_MEM + (size_t)p->i] = (long)k;
}

/* An event that waits for an empty buffer finds its buffers drained
 * (by updates, or without events when the tracer drained them). */
static void on_drain(struct tctx *c, size_t k, int tid)
{
	const struct pend *p;

	for (int s = 0; s < NSLOTS; s++)
		while (c->owner[s] == tid && (p = fifo_pop(&c->q[s])))
			c->flush[p->k * DEC_MAX_MEM + (size_t)p->i] = (long)k;
}

static int simulate(struct tctx *c)
{
	for (size_t k = 0; k < c->in->n; k++) {
		const struct tr_event *ev = &c->in->ev[k];
		if (ev->kind == EV_UPDATE) {
			on_update(c, k, ev);
			continue;
		}
		if (ev->tid >= TR_AUX_BASE)
			continue;
		if (ev_needs_drain(ev))
			on_drain(c, k, ev->tid);
		for (int i = 0; i < ev->nacc && c->stale[k] < 0; i++)
			if (ev->acc[i].rw & DEC_READ)
				c->stale[k] = read_past(c, ev->tid, ev->acc[i].addr,
							ev->acc[i].size,
							&c->stale_i[k]);
		for (int i = 0; i < ev->nst; i++) {
			int s = ev->st[i].slot;
			if (s >= NSLOTS || fifo_push(&c->q[s], k, i) < 0)
				return -1;
			c->owner[s] = ev->tid;
		}
	}
	return 0;
}

/* ---- pass 2: which steps conflict with another thread's ---- */

static struct gent *gfind(struct tctx *c, uint64_t gran, bool add)
{
	size_t m = c->gcap - 1;
	size_t i = (size_t)((gran * 0x9e3779b97f4a7c15ull) >> 20) & m;

	for (; c->g[i].key; i = (i + 1) & m)
		if (c->g[i].key == gran + 1)
			return &c->g[i];
	if (!add)
		return NULL;
	c->g[i].key = gran + 1;
	c->gn++;
	return &c->g[i];
}

static int ggrow(struct tctx *c)
{
	struct gent *old = c->g;
	size_t ocap = c->gcap;

	c->gcap = ocap ? 2 * ocap : 1024;
	c->g = calloc(c->gcap, sizeof *c->g);
	if (!c->g)
		return -1;
	c->gn = 0;
	for (size_t i = 0; i < ocap; i++)
		if (old[i].key)
			*gfind(c, old[i].key - 1, true) = old[i];
	free(old);
	return 0;
}

/* Does this address count for conflicts?  Data inside libraries (stdio
 * buffers, malloc arenas, libc locks) is their business. */
static bool counts(const struct tctx *c, uint64_t addr)
{
	struct sym_info si;

	if (addr >= EV_ADDR_FD)
		return false;
	if (!c->env->sym || sym_lookup(c->env->sym, addr, &si) < 0)
		return true;
	return sym_in_exe(c->env->sym, addr);
}

/* Byte mask of [addr, addr + size) within granule gran. */
static uint8_t gmask(uint64_t gran, uint64_t addr, uint64_t size)
{
	uint8_t m = 0;

	for (int b = 0; b < 8; b++) {
		uint64_t a = (gran << 3) + (uint64_t)b;
		if (a >= addr && a < addr + size)
			m |= (uint8_t)(1u << b);
	}
	return m;
}

static int note(struct tctx *c, int tid, uint64_t addr, uint64_t size,
		uint8_t rw)
{
	if (tid < 0 || tid >= NTH || !size || !counts(c, addr))
		return 0;
	if (size > MAXIDX)
		size = MAXIDX;
	for (uint64_t g = addr >> 3; g <= (addr + size - 1) >> 3; g++) {
		if (2 * (c->gn + 1) > c->gcap && ggrow(c) < 0)
			return -1;
		struct gent *e = gfind(c, g, true);
		uint8_t m = gmask(g, addr, size);
		if (rw & DEC_READ)
			e->r[tid] |= m;
		if (rw & DEC_WRITE)
			e->w[tid] |= m;
	}
	return 0;
}

static int index_all(struct tctx *c)
{
	if (ggrow(c) < 0)
		return -1;
	for (size_t k = 0; k < c->in->n; k++) {
		const struct tr_event *ev = &c->in->ev[k];
		int t = who(c, ev);
		for (int i = 0; i < ev->nacc; i++)
			if (note(c, t, ev->acc[i].addr, ev->acc[i].size,
				 ev->acc[i].rw) < 0)
				return -1;
		for (int i = 0; i < ev->nst; i++)
			if (note(c, t, ev->st[i].addr, ev->st[i].size,
				 DEC_WRITE) < 0)
				return -1;
	}
	return 0;
}

/* Does (addr, size, rw) of thread tid conflict with another thread's
 * access?  want_write: only with another thread's write. */
static bool conflicts(struct tctx *c, int tid, uint64_t addr, uint64_t size,
		      uint8_t rw)
{
	if (tid < 0 || tid >= NTH || !size || !counts(c, addr))
		return false;
	if (size > MAXIDX)
		size = MAXIDX;
	for (uint64_t g = addr >> 3; g <= (addr + size - 1) >> 3; g++) {
		const struct gent *e = gfind(c, g, false);
		uint8_t m = gmask(g, addr, size);
		for (int u = 0; e && u < NTH; u++) {
			if (u == tid)
				continue;
			if ((rw & DEC_WRITE) && (m & (e->r[u] | e->w[u])))
				return true;
			if ((rw & DEC_READ) && (m & e->w[u]))
				return true;
		}
	}
	return false;
}

static bool step_conflicts(struct tctx *c, size_t k)
{
	const struct tr_event *ev = &c->in->ev[k];
	int t = who(c, ev);

	for (int i = 0; i < ev->nacc; i++)
		if (conflicts(c, t, ev->acc[i].addr, ev->acc[i].size,
			      ev->acc[i].rw))
			return true;
	for (int i = 0; i < ev->nst; i++)
		if (conflicts(c, t, ev->st[i].addr, ev->st[i].size, DEC_WRITE))
			return true;
	return false;
}

/* ---- pass 3: which steps are shown ---- */

enum shown {
	HIDDEN = 0,
	CODE,  /* only because its code is the program's */
	SHOWN, /* because it matters to other threads (trace.h) */
};
#define KEEP 3 /* of a long run of CODE steps: the first and last few */

static uint64_t where_pc(const struct tr_event *ev)
{
	return (ev->region || ev->kind == EV_NONDET ||
		ev->kind == EV_ATOMIC) && ev->caller
		       ? ev->caller - 1
		       : ev->pc;
}

/* Is the code at pc the program's own (a frame of it, inlined calls
 * included, is user source; or it is in the executable without line
 * information: there is nothing better to show)? */
static bool user_code(const struct tctx *c, uint64_t pc)
{
	struct sym_frame f[SYM_MAX_FRAMES];
	int n = sym_frames(c->env->sym, pc, f, SYM_MAX_FRAMES);

	for (int i = 0; i < n; i++)
		if (f[i].user)
			return true;
	return sym_in_exe(c->env->sym, pc) && (n == 0 || !f[0].file);
}

static bool always_shown(const struct tr_event *ev)
{
	switch (ev->kind) {
	case EV_SPAWN: case EV_EXIT: case EV_JOIN: case EV_OUTPUT:
	case EV_END: case EV_FENCE: case EV_NONDET: case EV_ATOMIC:
	case EV_SYNC: case EV_TIMEOUT:
		return true;
	default:
		return ev->fenced;
	}
}

static void choose_shown(struct tctx *c)
{
	const struct trace_in *in = c->in;
	bool last_seen[TR_MAX_THREADS] = { false };

	for (size_t k = in->n; k-- > 0;) {
		const struct tr_event *ev = &in->ev[k];
		bool last = ev->tid < TR_MAX_THREADS && !last_seen[ev->tid];
		if (ev->tid < TR_MAX_THREADS)
			last_seen[ev->tid] = true;
		if ((last && ev->tid < TR_AUX_BASE) || always_shown(ev) ||
		    c->stale[k] >= 0 || step_conflicts(c, k))
			c->shown[k] = SHOWN;
		else if (c->env->sym && ev->kind != EV_UPDATE &&
			 user_code(c, where_pc(ev)))
			c->shown[k] = CODE;
	}
	/* an update is shown with the store it completes, and the store
	 * with its update (the buffer's part of the story) */
	for (size_t k = 0; k < in->n; k++) {
		long s = c->src[k];
		uint8_t m = s < 0 ? HIDDEN : c->shown[s] > c->shown[k]
						     ? c->shown[s]
						     : c->shown[k];
		if (s >= 0)
			c->shown[s] = c->shown[k] = m;
	}
	if (!c->env->sym) /* nothing to tell code apart: show everything */
		memset(c->shown, SHOWN, in->n * sizeof *c->shown);
}

/* A long run of one thread's CODE steps (a loop over private data, say)
 * keeps its first and last KEEP steps; the middle is folded. */
static void thin_runs(struct tctx *c)
{
	size_t n = c->in->n, k = 0;

	while (k < n) {
		if (c->shown[k] != CODE) {
			k++;
			continue;
		}
		int t = who(c, &c->in->ev[k]);
		size_t e = k + 1;
		while (e < n && c->shown[e] == CODE &&
		       who(c, &c->in->ev[e]) == t)
			e++;
		for (size_t j = k + KEEP; e - k > 3 * KEEP && j < e - KEEP; j++)
			c->shown[j] = HIDDEN;
		k = e;
	}
}

/* ---- pass 4: text ---- */

static void tname(const struct tctx *c, const struct tr_event *ev, char *b,
		  size_t n)
{
	if (ev->tid < TR_AUX_BASE)
		snprintf(b, n, "T%d", ev->tid);
	else
		snprintf(b, n, "T%d+", who(c, ev));
}

/* ---- where a step is: its frames ---- */

#define MAX_CHAIN (SYM_MAX_FRAMES * 2)

/* A frame and the code address it stands for (for the "func+0x1a" form
 * when it has no line). */
struct cframe {
	struct sym_frame f;
	uint64_t pc;
};

/* The frames of the code at pc (inlined calls, then the function), then
 * those of each call around it (the event's return addresses, each
 * looked up one byte back: the call's line). */
static int chain(const struct tctx *c, uint64_t pc, const uint64_t *ret,
		 int nret, struct cframe *out)
{
	struct sym_frame f[SYM_MAX_FRAMES];
	int n = 0;

	for (int r = -1; r < nret && n < MAX_CHAIN; r++) {
		uint64_t a = r < 0 ? pc : ret[r] - 1;
		int k;

		if (r >= 0 && !ret[r])
			break;
		k = sym_frames(c->env->sym, a, f, SYM_MAX_FRAMES);
		if (k == 0)
			break; /* an unknown return address: stop there */
		for (int i = 0; i < k && n < MAX_CHAIN; i++)
			out[n++] = (struct cframe){ f[i], a };
	}
	return n;
}

/* "func (file.c:42)", or without a line "func+0x1a" / "lib.so+0x8e1f0" */
static size_t frame_text(const struct tctx *c, const struct cframe *f,
			 char *b, size_t n)
{
	int w;

	if (f->f.file && f->f.func)
		w = snprintf(b, n, "%s (%s:%d)", f->f.func, f->f.file,
			     f->f.line);
	else if (f->f.file)
		w = snprintf(b, n, "%s:%d", f->f.file, f->f.line);
	else
		w = (int)strlen(sym_describe(c->env->sym, f->pc, b, n));
	return w < 0 ? 0 : (size_t)w < n ? (size_t)w : n - 1;
}

/* The frames of a step (ret: its return addresses; NULL, 0 if none):
 * under --frames user the first frame of the program's own code, and
 * when the function around it is the program's too, the line of that
 * call ("store (dekker.c:29) from thread:43"); without such a frame the
 * innermost one.  Under --frames all every frame, innermost first,
 * joined by " from ". */
static const char *where_text(const struct tctx *c, uint64_t pc,
			      const uint64_t *ret, int nret, char *b,
			      size_t n)
{
	struct cframe f[MAX_CHAIN];
	int k, u = 0;
	size_t len;

	if (!c->env->sym || (k = chain(c, pc, ret, nret, f)) == 0) {
		snprintf(b, n, "%#" PRIx64, pc);
		return b;
	}
	if (c->env->frames_all) {
		len = frame_text(c, &f[0], b, n);
		for (int i = 1; i < k && len + 7 < n; i++) {
			len += (size_t)snprintf(b + len, n - len, " from ");
			len += frame_text(c, &f[i], b + len, n - len);
		}
		return b;
	}
	while (u < k && !f[u].f.user)
		u++;
	if (u == k)
		u = 0;
	len = frame_text(c, &f[u], b, n);
	if (f[u].f.user && u + 1 < k && f[u + 1].f.user && len + 1 < n) {
		const struct sym_frame *p = &f[u + 1].f;
		if (strcmp(p->file, f[u].f.file) == 0)
			snprintf(b + len, n - len, " from %s:%d",
				 p->func ? p->func : "?", p->line);
		else
			snprintf(b + len, n - len, " from %s (%s:%d)",
				 p->func ? p->func : "?", p->file, p->line);
	}
	return b;
}

/* The return addresses of ev that lie beyond where_pc(ev) (a region
 * event is shown at its caller: its first return address). */
static int step_rets(const struct tr_event *ev, const uint64_t **ret)
{
	int skip = where_pc(ev) != ev->pc && ev->ret[0] == ev->caller;

	*ret = ev->ret + skip;
	return TR_RETS - skip;
}

/* A data address: "flag+0x4", "0x7ffd... (stack of T1)", ... */
static const char *data_text(const struct tctx *c, uint64_t a, char *b,
			     size_t n)
{
	struct sym_info si;
	bool tls = false;
	int t;

	if (a < 0x10000)
		snprintf(b, n, "0x%" PRIx64 " (null page)", a);
	else if (a >= EV_ADDR_KERNEL)
		snprintf(b, n, "the kernel");
	else if (a >= EV_ADDR_SIGQ(0))
		snprintf(b, n, "the signals sent to T%d",
			 (int)(a - EV_ADDR_SIGQ(0)));
	else if (a >= EV_ADDR_FD)
		snprintf(b, n, "fd %d", (int)(a - EV_ADDR_FD));
	else if (c->env->sym && sym_lookup(c->env->sym, a, &si) == 0)
		sym_describe(c->env->sym, a, b, n);
	else if (c->env->owner &&
		 (t = c->env->owner(c->env->ctx, a, &tls)) >= 0)
		snprintf(b, n, "%#" PRIx64 " (%s of T%d)", a,
			 tls ? "TLS" : "stack", t);
	else
		snprintf(b, n, "%#" PRIx64 " (heap)", a);
	return b;
}

static void value_text(uint64_t v, uint64_t size, char *b, size_t n)
{
	v = masked(v, size);
	if (size > 8)
		snprintf(b, n, "%#" PRIx64 "...", v);
	else if (v < 0x10000)
		snprintf(b, n, "%" PRIu64, v);
	else
		snprintf(b, n, "%#" PRIx64, v);
}

static void insn_text(const struct tctx *c, const struct tr_event *ev,
		      char *b, size_t n)
{
	static const char *const region[] = {
		[RG_CREATE] = "pthread_create", [RG_JOIN] = "pthread_join",
		[RG_EXIT] = "pthread_exit", [RG_START] = NULL,
	};
	uint8_t code[16];
	size_t len = 0;

	b[0] = 0;
	if (ev->kind == EV_UPDATE)
		return;
	if (ev->kind == EV_TIMEOUT) {
		snprintf(b, n, "(time passes)");
		return;
	}
	if (ev->kind == EV_NONDET || ev->kind == EV_ATOMIC ||
	    ev->kind == EV_CALL || ev->kind == EV_SYNC ||
	    (ev->kind == EV_END && ev->sysno < 0)) {
		/* a hooked function: its name; the rest of a section: the
		 * function its caller's direct call went to (e8 rel32) */
		struct sym_info si;
		uint64_t f = ev->pc;
		const char *how = "call";
		if (ev->kind == EV_ATOMIC && !ev->region && ev->caller) {
			how = "resumes";
			if (c->env->insn &&
			    c->env->insn(c->env->ctx, ev->caller - 5, code,
					 5) == 5 &&
			    code[0] == 0xe8) {
				int32_t rel;
				memcpy(&rel, code + 1, 4);
				f = ev->caller + (uint64_t)(int64_t)rel;
			}
		}
		if (c->env->sym && sym_lookup(c->env->sym, f, &si) == 0 &&
		    si.func)
			snprintf(b, n, "%s %s", how, si.func);
		else
			snprintf(b, n, "%s %#" PRIx64, how, f);
		return;
	}
	if (ev->region == RG_EXIT && !ev->caller)
		return;
	if (ev->region < sizeof region / sizeof region[0] &&
	    region[ev->region]) {
		snprintf(b, n, "call %s", region[ev->region]);
		return;
	}
	if (c->env->insn)
		len = c->env->insn(c->env->ctx, ev->pc, code, sizeof code);
	if (len)
		dec_format(code, len, ev->pc, b, n);
}

/* Is step k the instruction that crashed?  (Its values mean nothing.) */
static bool faults(const struct tctx *c, size_t k)
{
	const struct error_rec *e = c->in->err;

	return e && k + 1 == c->in->n && strcmp(e->kind, "crash") == 0 &&
	       c->in->ev[k].pc == e->pc;
}

static void put_access(struct tctx *c, size_t k, int i)
{
	const struct tr_event *ev = &c->in->ev[k];
	const struct dec_access *a = &ev->acc[i];
	char at[160], r[32], w[32];

	data_text(c, a->addr, at, sizeof at);
	if (faults(c, k)) {
		fprintf(c->f, "  %s %s: faults", a->rw & DEC_WRITE ? "write"
								  : "read", at);
		return;
	}
	value_text(ev->rval[i], a->size, r, sizeof r);
	value_text(ev->wval[i], a->size, w, sizeof w);
	if (a->size > 8 && !(a->rw & DEC_WRITE))
		fprintf(c->f, "  read %s (%" PRIu64 " bytes)", at, a->size);
	else if (a->size > 8)
		fprintf(c->f, "  write %s (%" PRIu64 " bytes)", at, a->size);
	else if ((a->rw & (DEC_READ | DEC_WRITE)) == (DEC_READ | DEC_WRITE))
		fprintf(c->f, "  %s %s: %s -> %s",
			ev->kind == EV_RMW ? "atomic" : "rmw", at, r, w);
	else if (a->rw & DEC_WRITE)
		fprintf(c->f, "  write %s = %s", at, w);
	else
		fprintf(c->f, "  read %s = %s", at, r);
}

static void put_stale(struct tctx *c, size_t k)
{
	const struct tr_store *st = st_of(c, (size_t)c->stale[k],
					  c->stale_i[k]);
	const struct tr_event *sev = &c->in->ev[c->stale[k]];
	char at[160], v[32];

	data_text(c, st->addr, at, sizeof at);
	value_text(st->val, st->size, v, sizeof v);
	fprintf(c->f, "  <- stale: T%d's %s = %s (step %ld) still buffered",
		sev->tid, at, v, c->stale[k] + 1);
}

static void put_stores(struct tctx *c, const struct tr_event *ev)
{
	for (int i = 0; i < ev->nst; i++) {
		char at[160], v[32];
		data_text(c, ev->st[i].addr, at, sizeof at);
		value_text(ev->st[i].val, ev->st[i].size, v, sizeof v);
		fprintf(c->f, "  buffer %s = %s", at, v);
	}
}

static void put_update(struct tctx *c, size_t k, const struct tr_event *ev)
{
	char at[160], v[32];

	if (!ev->nacc)
		return;
	data_text(c, ev->acc[0].addr, at, sizeof at);
	value_text(ev->wval[0], ev->acc[0].size, v, sizeof v);
	fprintf(c->f, "  %s = %s reaches memory", at, v);
	if (c->src[k] >= 0)
		fprintf(c->f, " (buffered at step %ld)", c->src[k] + 1);
}

static void put_thread_op(struct tctx *c, const struct tr_event *ev)
{
	bool tls;
	int t = -1;

	switch (ev->kind) {
	case EV_SPAWN:
		fprintf(c->f, "  creates T%d", ev->child);
		return;
	case EV_EXIT:
		fprintf(c->f, "  T%d exits", ev->tid);
		return;
	case EV_JOIN:
		if (ev->nacc && c->env->owner)
			t = c->env->owner(c->env->ctx, ev->acc[0].addr, &tls);
		if (t >= 0)
			fprintf(c->f, "  joins T%d", t);
		else
			fprintf(c->f, "  joins a thread");
		return;
	default:
		return;
	}
}

/* The syscalls a trace typically shows, by name. */
static const char *sys_text(long nr, char *b, size_t n)
{
	static const struct {
		long nr;
		const char *name;
	} names[] = {
		{ 1, "write" },	       { 9, "mmap" },	    { 10, "mprotect" },
		{ 11, "munmap" },      { 12, "brk" },	    { 13, "rt_sigaction" },
		{ 14, "rt_sigprocmask" }, { 24, "sched_yield" },
		{ 35, "nanosleep" },   { 39, "getpid" },    { 60, "exit" },
		{ 62, "kill" },	       { 186, "gettid" },   { 200, "tkill" },
		{ 202, "futex" },      { 228, "clock_gettime" },
		{ 231, "exit_group" }, { 234, "tgkill" },
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].nr == nr) {
			snprintf(b, n, "syscall %s", names[i].name);
			return b;
		}
	snprintf(b, n, "syscall %ld", nr);
	return b;
}

/* A pthread call run as one event (src/tracer/sync.c): what it does to
 * its object. */
static void put_sync(struct tctx *c, const struct tr_event *ev)
{
	char o[160], m[160];
	const char *what;

	data_text(c, ev->acc[0].addr, o, sizeof o);
	switch (ev->sync_op) {
	case HOOK_SYNC_MUTEX_LOCK: case HOOK_SYNC_MUTEX_TIMEDLOCK:
		what = ev->value == ETIMEDOUT ? "gives up on %s (ETIMEDOUT)"
					      : "locks %s";
		break;
	case HOOK_SYNC_MUTEX_TRYLOCK: what = "trylock %s"; break;
	case HOOK_SYNC_WORD_LOCK: what = "locks %s (contended)"; break;
	case HOOK_SYNC_GUARD_ACQUIRE:
		what = ev->rval[0] ? "finds %s initialised"
				   : "takes %s to initialise it";
		break;
	case HOOK_SYNC_GUARD_RELEASE: what = "marks %s initialised"; break;
	case HOOK_SYNC_GUARD_ABORT: what = "gives %s up"; break;
	case HOOK_SYNC_ONCE: what = "finds %s done (pthread_once)"; break;
	case HOOK_SYNC_RUST_ONCE: case HOOK_SYNC_RUST_ONCE_Q:
		what = ev->nacc == 2 ? "takes %s to run its closure (Once)"
				     : "finds %s done (Once)";
		break;
	case HOOK_SYNC_MUTEX_UNLOCK: what = "unlocks %s"; break;
	case HOOK_SYNC_MUTEX_DESTROY: what = "destroys %s"; break;
	case HOOK_SYNC_COND_WAIT: case HOOK_SYNC_COND_TIMEDWAIT:
	case HOOK_SYNC_COND_CLOCKWAIT:
		if (ev->nacc == 2) {
			data_text(c, ev->acc[1].addr, m, sizeof m);
			fprintf(c->f, "  unlocks %s, waits on %s", m, o);
			return;
		}
		what = ev->value == ETIMEDOUT ? "timed out, locks %s again"
					      : "woken, locks %s again";
		break;
	case HOOK_SYNC_COND_SIGNAL: what = "signals %s"; break;
	case HOOK_SYNC_COND_BROADCAST: what = "broadcasts %s"; break;
	case HOOK_SYNC_COND_DESTROY: what = "destroys %s"; break;
	case HOOK_SYNC_SEM_WAIT: what = "takes %s"; break;
	case HOOK_SYNC_SEM_POST: what = "posts %s"; break;
	case HOOK_SYNC_BARRIER_WAIT: what = "arrives at %s"; break;
	case HOOK_SYNC_RW_RDLOCK: case HOOK_SYNC_RW_TRYRDLOCK:
		what = "read-locks %s"; break;
	case HOOK_SYNC_RW_WRLOCK: case HOOK_SYNC_RW_TRYWRLOCK:
		what = "write-locks %s"; break;
	default: what = "unlocks %s"; break;
	}
	fputs("  ", c->f);
	fprintf(c->f, what, o);
	/* which waiter a signal woke: the search chooses when several wait */
	if (ev->sync_op == HOOK_SYNC_COND_SIGNAL && ts_any(ev->woke))
		fprintf(c->f, ", wakes T%d", ts_first(ev->woke));
}

/* A library call of the atomic policy: the streams it writes, the
 * blocks it frees or returns. */
static void put_call(struct tctx *c, const struct tr_event *ev)
{
	char at[160];

	fprintf(c->f, "  one step:");
	for (int i = 0; i < ev->nacc; i++) {
		const struct dec_access *a = &ev->acc[i];
		if (a->addr >= EV_ADDR_FD && a->size > 1)
			fprintf(c->f, "%s writes every stream", i ? "," : "");
		else if (a->addr >= EV_ADDR_FD)
			fprintf(c->f, "%s writes %s", i ? "," : "",
				data_text(c, a->addr, at, sizeof at));
		else
			fprintf(c->f, "%s block %s", i ? "," : "",
				data_text(c, a->addr, at, sizeof at));
	}
}

static void put_effect(struct tctx *c, size_t k)
{
	const struct tr_event *ev = &c->in->ev[k];
	char at[160];

	if (ev->fenced)
		fprintf(c->f, "  (after an assumed mfence)");
	switch (ev->kind) {
	case EV_UPDATE:
		put_update(c, k, ev);
		return;
	case EV_SPAWN: case EV_EXIT: case EV_JOIN:
		put_thread_op(c, ev);
		return;
	case EV_OUTPUT:
		fprintf(c->f, "  writes to %s", ev->fd == 2 ? "stderr"
							     : "stdout");
		return;
	case EV_FUTEX:
		fprintf(c->f, "  futex on %s",
			ev->nacc ? data_text(c, ev->acc[0].addr, at, sizeof at)
				 : "?");
		return;
	case EV_TIMEOUT:
		fprintf(c->f, "  its wait on %s times out",
			ev->nacc ? data_text(c, ev->acc[0].addr, at, sizeof at)
				 : "?");
		return;
	case EV_SYSCALL: case EV_END:
		if (ev->kind == EV_END && ev->sysno < 0) /* at a hook */
			fprintf(c->f, "  %s", ev->value == END_BY_ASSERT
						  ? "the assertion fails"
						  : "the error is reached");
		else
			fprintf(c->f, "  %s",
				sys_text(ev->sysno, at, sizeof at));
		return;
	case EV_NONDET:
		fprintf(c->f, "  returns %" PRId64, ev->value);
		return;
	case EV_CALL: /* abstract accesses (docs/LIBRARY.md) */
		put_call(c, ev);
		return;
	case EV_SYNC:
		put_sync(c, ev);
		return;
	case EV_ATOMIC: /* one step; its accesses, merged (tracer.h) */
		fprintf(c->f, "  %s", ev->region == RG_ATOMIC
					      ? "atomic section up to "
						"__VERIFIER_atomic_end:"
					      : ev->region == RG_CALL
						? "runs atomically:"
						: "rest of the atomic section:");
		for (int i = 0; i < ev->nacc; i++) {
			const struct dec_access *x = &ev->acc[i];
			if (x->size == UINT64_MAX) { /* paused (tracer.h) */
				fprintf(c->f, " all memory (it makes a choice)");
				continue;
			}
			fprintf(c->f, "%s %s %s", i ? "," : "",
				(x->rw & DEC_WRITE)
					? (x->rw & DEC_READ) ? "rw" : "w"
					: "r",
				data_text(c, x->addr, at, sizeof at));
			fprintf(c->f, " (%" PRIu64 " byte%s)", x->size,
				x->size == 1 ? "" : "s");
		}
		if (!ev->nacc)
			fprintf(c->f, " no shared access");
		return;
	default:
		break;
	}
	for (int i = 0; i < ev->nacc; i++)
		put_access(c, k, i);
	put_stores(c, ev);
	if (c->stale[k] >= 0)
		put_stale(c, k);
}

/* The where column of step k. */
static void step_where(const struct tctx *c, size_t k, char *b, size_t n)
{
	const struct tr_event *ev = &c->in->ev[k];

	if (ev->kind == EV_UPDATE)
		snprintf(b, n, "(store buffer)");
	else if (ev->region == RG_EXIT && !ev->caller)
		snprintf(b, n, "(start routine returns)");
	else {
		const uint64_t *ret;
		int nret = step_rets(ev, &ret);
		where_text(c, where_pc(ev), ret, nret, b, n);
	}
}

static void put_step(struct tctx *c, size_t k)
{
	const struct tr_event *ev = &c->in->ev[k];
	char th[16], where[400], insn[120];

	tname(c, ev, th, sizeof th);
	step_where(c, k, where, sizeof where);
	insn_text(c, ev, insn, sizeof insn);
	fprintf(c->f, "%6zu  %-4s %-28s %-30s", k + 1, th, where, insn);
	put_effect(c, k);
	fputc('\n', c->f);
}

/* "... 12 steps of T1 in malloc, fflush, abort" for steps [a, b). */
static void put_fold(struct tctx *c, size_t a, size_t b, int t)
{
	const char *names[3] = { NULL };
	size_t nn = 0, upd = 0;
	bool more = false;

	for (size_t k = a; k < b; k++) {
		struct sym_info si;
		const struct tr_event *ev = &c->in->ev[k];
		if (ev->kind == EV_UPDATE) {
			upd++;
			continue;
		}
		if (!c->env->sym || sym_lookup(c->env->sym, ev->pc, &si) < 0 ||
		    !si.func)
			continue;
		const char *f = si.func;
		bool dup = false;
		for (size_t j = 0; j < nn; j++)
			dup |= strcmp(names[j], f) == 0;
		if (!dup && nn < 3)
			names[nn++] = f;
		else if (!dup)
			more = true;
	}
	if (upd == b - a) {
		fprintf(c->f, "        ... %zu updates of T%d's store buffer\n",
			upd, t);
		return;
	}
	fprintf(c->f, "        ... %zu steps of T%d", b - a, t);
	for (size_t j = 0; j < nn; j++)
		fprintf(c->f, "%s%s", j ? ", " : " in ", names[j]);
	fprintf(c->f, "%s", more ? ", ..." : "");
	if (upd)
		fprintf(c->f, " (%zu of them updates of its store buffer)",
			upd);
	fputc('\n', c->f);
}

static bool preempts(const struct tctx *c, size_t k)
{
	const struct trace_in *in = c->in;
	int prev = k ? in->ev[k - 1].tid : -1;

	return in->enabled && prev >= 0 && in->ev[k].tid != prev &&
	       ts_has(in->enabled[k], prev);
}

static void put_preemption(struct tctx *c, size_t k)
{
	char a[16], b[16];

	tname(c, &c->in->ev[k - 1], a, sizeof a);
	tname(c, &c->in->ev[k], b, sizeof b);
	fprintf(c->f, "        -- preemption: %s could go on, %s runs --\n",
		a, b);
}

/* Step k as put_step prints it (NULL: out of memory). */
static char *step_line(struct tctx *c, size_t k)
{
	FILE *f = c->f;
	char *s = NULL;
	size_t len;

	if (!(c->f = open_memstream(&s, &len))) {
		c->f = f;
		return NULL;
	}
	put_step(c, k);
	fclose(c->f);
	c->f = f;
	return s;
}

/* Does step b print as step a (rendered once in *la) but for its
 * number (put_step's first 8 columns)?  Not their pcs: an unrolled
 * loop's turns are at other pcs, on the same source line. */
static bool same_step(struct tctx *c, size_t a, char **la, size_t b)
{
	const struct tr_event *x = &c->in->ev[a], *y = &c->in->ev[b];

	if (x->tid != y->tid || x->kind != y->kind || x->nacc != y->nacc ||
	    (x->nacc && x->acc[0].addr != y->acc[0].addr) ||
	    c->shown[a] != c->shown[b] || preempts(c, b))
		return false;
	if (!*la)
		*la = step_line(c, a);
	char *t = step_line(c, b);
	bool same = *la && t && strlen(*la) > 8 &&
		    strcmp(*la + 8, t + 8) == 0;
	free(t);
	return same;
}

#define LOOP_PERIOD 4 /* the longest loop body folded, in steps */

/* A loop the trace shows turn by turn (a thread spinning on a flag it
 * reads stale): the p steps from k (k shown), of one thread, repeated
 * alike right after them; the first turn is printed step by step.
 * Returns how many steps after the first p repeat them (a multiple of
 * *period), 0 unless at least two more turns do. */
static size_t repeats(struct tctx *c, size_t k, size_t *period)
{
	const struct trace_in *in = c->in;
	char *line[LOOP_PERIOD] = { NULL }; /* the first turn's, rendered */
	size_t r = 0;

	for (size_t p = 1; p <= LOOP_PERIOD && k + 3 * p <= in->n && !r;
	     p++) {
		if (in->ev[k + p].kind != in->ev[k].kind ||
		    in->ev[k + p].tid != in->ev[k].tid)
			continue; /* cheap test before rendering */
		bool body = true;
		for (size_t i = 1; i < p && body; i++)
			body = !preempts(c, k + i) &&
			       in->ev[k + i].tid == in->ev[k].tid;
		while (body && k + p + r + p <= in->n) {
			size_t i = 0;
			while (i < p &&
			       same_step(c, k + i, &line[i], k + p + r + i))
				i++;
			if (i < p)
				break;
			r += p;
		}
		if (r < 2 * p)
			r = 0;
		else
			*period = p;
	}
	for (size_t i = 0; i < LOOP_PERIOD; i++)
		free(line[i]);
	return r;
}

static void put_steps(struct tctx *c)
{
	size_t k = 0, n = c->in->n;

	while (k < n) {
		if (k && preempts(c, k))
			put_preemption(c, k);
		if (c->shown[k]) {
			size_t p, r = repeats(c, k, &p);
			if (!r) {
				put_step(c, k++);
				continue;
			}
			for (size_t i = 0; i < p; i++)
				put_step(c, k + i);
			fprintf(c->f, "        ... the same %zu step%s %zu "
				"more times (steps %zu-%zu)\n", p,
				p == 1 ? "" : "s", r / p, k + p + 1,
				k + p + r);
			k += p + r;
			continue;
		}
		int t = who(c, &c->in->ev[k]);
		size_t e = k + 1;
		while (e < n && !c->shown[e] && who(c, &c->in->ev[e]) == t &&
		       !preempts(c, e))
			e++;
		if (e - k == 1)
			put_step(c, k);
		else
			put_fold(c, k, e, t);
		k = e;
	}
}

/* ---- the failure ---- */

static void put_deadlock(struct tctx *c, const char *msg)
{
	const char *p = strchr(msg, ':');

	fprintf(c->f, "failure: deadlock: every live thread is blocked\n");
	for (p = p ? p + 1 : msg; *p;) {
		size_t len = strcspn(p, ";");
		while (*p == ' ' && len)
			p++, len--;
		if (len)
			fprintf(c->f, "  %.*s\n", (int)len, p);
		p += len;
		if (*p == ';')
			p++;
	}
}

static void put_failure(struct tctx *c)
{
	const struct error_rec *e = c->in->err;
	char where[400], at[160];

	if (!e && c->in->status &&
	    strcmp(c->in->status, "assume-blocked") == 0) {
		fprintf(c->f, "end: assume-blocked: a __VERIFIER_assume "
			      "failed, the execution is infeasible (no "
			      "error)\n");
		return;
	}
	if (!e) {
		fprintf(c->f, "end: %s, no error\n",
			c->in->status ? c->in->status : "?");
		return;
	}
	where_text(c, e->pc, NULL, 0, where, sizeof where);
	if (strcmp(e->kind, "deadlock") == 0)
		put_deadlock(c, e->message);
	else if (strcmp(e->kind, "verifier-error") == 0)
		fprintf(c->f, "failure: T%d reaches the error at %s\n  %s\n",
			e->thread, where, e->message);
	else if (strcmp(e->kind, "panic") == 0)
		fprintf(c->f, "failure: T%d panics at %s\n  %s\n", e->thread,
			where, e->message);
	else if (strcmp(e->kind, "uncaught-exception") == 0)
		fprintf(c->f, "failure: uncaught exception in T%d at %s\n  %s\n",
			e->thread, where, e->message);
	else if (strcmp(e->kind, "assertion") == 0)
		fprintf(c->f, "failure: assertion fails in T%d at %s\n  %s\n",
			e->thread, where, e->message);
	else if (strcmp(e->kind, "crash") == 0)
		fprintf(c->f, "failure: T%d crashes at %s: SIG%s, faulting "
			      "address %s\n", e->thread, where,
			sigabbrev_np(c->in->sig) ? sigabbrev_np(c->in->sig)
						 : "?",
			data_text(c, c->in->fault_addr, at, sizeof at));
	else
		fprintf(c->f, "failure: %s: %s\n", e->kind, e->message);
}

/* ---- entry points ---- */

static void tctx_free(struct tctx *c)
{
	for (int s = 0; s < NSLOTS; s++)
		free(c->q[s].v);
	free(c->src);
	free(c->stale);
	free(c->stale_i);
	free(c->flush);
	free(c->shown);
	free(c->g);
}

static int tctx_init(struct tctx *c, const struct trace_env *env,
		     const struct trace_in *in)
{
	size_t n = in->n ? in->n : 1;

	memset(c, 0, sizeof *c);
	c->env = env;
	c->in = in;
	for (int s = 0; s < NSLOTS; s++)
		c->owner[s] = -1;
	c->src = malloc(n * sizeof *c->src);
	c->stale = malloc(n * sizeof *c->stale);
	c->stale_i = calloc(n, sizeof *c->stale_i);
	c->flush = malloc(n * DEC_MAX_MEM * sizeof *c->flush);
	c->shown = calloc(n, sizeof *c->shown);
	if (!c->src || !c->stale || !c->stale_i || !c->flush || !c->shown)
		return -1;
	for (size_t k = 0; k < n; k++)
		c->src[k] = c->stale[k] = -1;
	for (size_t k = 0; k < n * DEC_MAX_MEM; k++)
		c->flush[k] = -1;
	return simulate(c);
}

char *trace_render(const struct trace_env *env, const struct trace_in *in)
{
	struct tctx c;
	char *text = NULL;
	size_t len = 0;

	if (tctx_init(&c, env, in) < 0 || index_all(&c) < 0 ||
	    !(c.f = open_memstream(&text, &len))) {
		tctx_free(&c);
		return NULL;
	}
	choose_shown(&c);
	thin_runs(&c);
	fprintf(c.f, "trace (model %s, %zu step%s, %d preemption%s%s):\n",
		in->model, in->n, in->n == 1 ? "" : "s", in->preemptions,
		in->preemptions == 1 ? "" : "s",
		strcmp(in->model, "sc") ? "; Tn+ = store buffer of Tn" : "");
	put_steps(&c);
	put_failure(&c);
	fclose(c.f);
	tctx_free(&c);
	return text;
}

/* ---- the trace as data (trace_steps) ---- */

/* What put(c, ...) prints, without leading blanks and the newline. */
static char *captured(struct tctx *c, size_t a, size_t b, int t, bool fold)
{
	FILE *saved = c->f;
	char *text = NULL, *p;
	size_t len = 0;

	if (!(c->f = open_memstream(&text, &len))) {
		c->f = saved;
		return NULL;
	}
	if (fold)
		put_fold(c, a, b, t);
	else
		put_effect(c, a);
	fclose(c->f);
	c->f = saved;
	for (p = text; *p == ' '; p++)
		;
	memmove(text, p, strlen(p) + 1);
	len = strlen(text);
	if (len && text[len - 1] == '\n')
		text[len - 1] = 0;
	return text;
}

/* The first frame of the program's own code with a line at pc (ret: the
 * calls around it), else the first with a line. */
static bool own_line(const struct tctx *c, uint64_t pc, const uint64_t *ret,
		     int nret, struct trace_src *out)
{
	struct cframe f[MAX_CHAIN];
	int n = c->env->sym ? chain(c, pc, ret, nret, f) : 0, u = -1;

	for (int i = n; i-- > 0;)
		if (f[i].f.file && (f[i].f.user || u < 0 || !f[u].f.user))
			u = i;
	if (u < 0)
		return false;
	*out = (struct trace_src){ f[u].f.func, f[u].f.file,
				   sym_path(c->env->sym, f[u].f.file),
				   f[u].f.line };
	return true;
}

static int fill_step(struct tctx *c, struct trace_step *s, size_t a,
		     size_t b, bool prem)
{
	const struct tr_event *ev = &c->in->ev[a];
	char where[400], insn[120];
	const uint64_t *ret;
	int nret;

	*s = (struct trace_step){ .first = a, .n = b - a, .thread = who(c, ev),
				  .update = true, .preempted = prem };
	for (size_t k = a; k < b; k++)
		s->update &= c->in->ev[k].kind == EV_UPDATE;
	if (b - a > 1) {
		s->where = strdup("");
		s->insn = strdup("");
		s->effect = captured(c, a, b, s->thread, true);
		return s->where && s->insn && s->effect ? 0 : -1;
	}
	step_where(c, a, where, sizeof where);
	insn_text(c, ev, insn, sizeof insn);
	s->where = strdup(where);
	s->insn = strdup(insn);
	s->effect = captured(c, a, a, 0, false);
	nret = step_rets(ev, &ret);
	if (!s->update && !(ev->region == RG_EXIT && !ev->caller))
		own_line(c, where_pc(ev), ret, nret, &s->src);
	return s->where && s->insn && s->effect ? 0 : -1;
}

/* The lines as put_steps prints them. */
static int collect_steps(struct tctx *c, struct trace_steps *out)
{
	size_t k = 0, n = c->in->n;

	while (k < n) {
		bool prem = k && preempts(c, k);
		size_t e = k + 1;
		if (!c->shown[k]) {
			int t = who(c, &c->in->ev[k]);
			while (e < n && !c->shown[e] &&
			       who(c, &c->in->ev[e]) == t && !preempts(c, e))
				e++;
		}
		if (fill_step(c, &out->v[out->n++], k, e, prem) < 0)
			return -1;
		for (; k < e; k++)
			out->step_of[k] = out->n - 1;
	}
	return 0;
}

static char *failure_text(struct tctx *c)
{
	char *text = NULL;
	size_t len = 0;

	if (!(c->f = open_memstream(&text, &len)))
		return NULL;
	put_failure(c);
	fclose(c->f);
	c->f = NULL;
	return text;
}

bool trace_error_source(const struct trace_env *env,
			const struct error_rec *e, struct trace_src *out)
{
	struct tctx c = { .env = env };

	memset(out, 0, sizeof *out);
	/* a deadlock's pc is a return address: the call (explore.c) */
	return e && e->pc &&
	       own_line(&c, e->pc - (strcmp(e->kind, "deadlock") == 0), NULL,
			0, out);
}

int trace_steps(const struct trace_env *env, const struct trace_in *in,
		struct trace_steps *out)
{
	struct tctx c;
	size_t n = in->n ? in->n : 1;
	int r = -1;

	memset(&c, 0, sizeof c);
	memset(out, 0, sizeof *out);
	out->v = calloc(n, sizeof *out->v);
	out->step_of = calloc(n, sizeof *out->step_of);
	out->src = malloc(n * sizeof *out->src);
	out->stale = malloc(n * sizeof *out->stale);
	if (out->v && out->step_of && out->src && out->stale &&
	    tctx_init(&c, env, in) == 0 && index_all(&c) == 0) {
		choose_shown(&c);
		thin_runs(&c);
		memcpy(out->src, c.src, in->n * sizeof *c.src);
		memcpy(out->stale, c.stale, in->n * sizeof *c.stale);
		if (collect_steps(&c, out) == 0 &&
		    (out->failure = failure_text(&c)))
			r = 0;
	}
	tctx_free(&c);
	if (r < 0)
		trace_steps_free(out);
	return r;
}

void trace_steps_free(struct trace_steps *s)
{
	for (size_t i = 0; s->v && i < s->n; i++) {
		free(s->v[i].where);
		free(s->v[i].insn);
		free(s->v[i].effect);
	}
	free(s->v);
	free(s->step_of);
	free(s->src);
	free(s->stale);
	free(s->failure);
	memset(s, 0, sizeof *s);
}

const char *trace_data_text(const struct trace_env *env, uint64_t addr,
			    char *buf, size_t n)
{
	struct tctx c = { .env = env };

	return data_text(&c, addr, buf, n);
}

/* Is the store st (of thread t, buffered at step s, flushed at step f
 * or never) observable: did another thread access its bytes in between?
 * Returns that step, or -1. */
static long observed(struct tctx *c, size_t s, long f, int t,
		     const struct tr_store *st)
{
	const struct trace_in *in = c->in;

	for (size_t k = s + 1; k < in->n && k < s + WINDOW &&
			       (f < 0 || (long)k < f); k++) {
		const struct tr_event *ev = &in->ev[k];
		if (who(c, ev) == t)
			continue;
		for (int i = 0; i < ev->nacc; i++)
			if (overlap(ev->acc[i].addr, ev->acc[i].size, st->addr,
				    st->size))
				return (long)k;
	}
	return -1;
}

/* The first load of thread t after step s, before step f, of a location
 * other than st's that another thread writes; *last: the last step of t
 * before it that buffered a store. */
static long overtaking_load(struct tctx *c, size_t s, long f,
			    const struct tr_store *st, size_t *last)
{
	const struct trace_in *in = c->in;
	int t = in->ev[s].tid;

	*last = s;
	for (size_t k = s + 1; k < in->n && k < s + WINDOW &&
			       (f < 0 || (long)k < f); k++) {
		const struct tr_event *ev = &in->ev[k];
		if (ev->tid != t)
			continue;
		for (int i = 0; i < ev->nacc; i++) {
			const struct dec_access *a = &ev->acc[i];
			if ((a->rw & DEC_READ) &&
			    !overlap(a->addr, a->size, st->addr, st->size) &&
			    conflicts(c, t, a->addr, a->size, DEC_READ))
				return (long)k;
		}
		if (ev->nst)
			*last = k;
	}
	return -1;
}

static bool known(const struct trace_reorder *r, int n, uint64_t fpc,
		  uint64_t lpc)
{
	for (int i = 0; i < n; i++)
		if (r[i].fence_pc == fpc && r[i].load_pc == lpc)
			return true;
	return false;
}

/* pso: a store of thread t after step s, before step f, to another
 * location that other threads access, that reached memory before step
 * s's store (flushed at f, or never). */
static long overtaking_store(struct tctx *c, size_t s, long f,
			     const struct tr_store *st)
{
	const struct trace_in *in = c->in;
	int t = in->ev[s].tid;

	for (size_t k = s + 1; k < in->n && k < s + WINDOW &&
			       (f < 0 || (long)k < f); k++) {
		const struct tr_event *ev = &in->ev[k];
		for (int j = 0; ev->tid == t && j < ev->nst; j++) {
			const struct tr_store *o = &ev->st[j];
			long f2 = c->flush[k * DEC_MAX_MEM + (size_t)j];
			if (f2 >= 0 && (f < 0 || f2 < f) &&
			    !overlap(o->addr, o->size, st->addr, st->size) &&
			    conflicts(c, t, o->addr, o->size, DEC_WRITE))
				return (long)k;
		}
	}
	return -1;
}

/* The reordering of the store st[i] of step s, if any: a later load
 * (tso, pso) or a later store (pso) of its thread overtook it. */
static bool reorder_of(struct tctx *c, size_t s, int i,
		       struct trace_reorder *r)
{
	const struct trace_in *in = c->in;
	const struct tr_store *st = st_of(c, s, i);
	long f = c->flush[s * DEC_MAX_MEM + (size_t)i];
	int t = in->ev[s].tid;
	size_t last;
	long l = overtaking_load(c, s, f, st, &last);
	bool ss = false;

	if (l < 0) { /* store→store: the fence goes right after s */
		l = overtaking_store(c, s, f, st);
		last = s;
		ss = true;
	}
	long seen = l < 0 ? -1 : observed(c, s, f, t, st);
	if (seen < 0)
		return false;
	*r = (struct trace_reorder){ .thread = t, .store = s,
				     .load = (size_t)l, .seen = (size_t)seen,
				     .store_pc = in->ev[s].pc,
				     .load_pc = in->ev[l].pc,
				     .fence_pc = in->ev[last].pc,
				     .store_store = ss };
	return true;
}

int trace_reorders(const struct trace_env *env, const struct trace_in *in,
		   struct trace_reorder *out, int max)
{
	struct tctx c;
	int n = 0;

	if (tctx_init(&c, env, in) < 0 || index_all(&c) < 0) {
		tctx_free(&c);
		return 0;
	}
	for (size_t s = 0; s < in->n && n < max; s++) {
		if (in->ev[s].tid >= TR_AUX_BASE)
			continue;
		for (int i = 0; i < in->ev[s].nst && n < max; i++) {
			struct trace_reorder r;
			if (reorder_of(&c, s, i, &r) &&
			    !known(out, n, r.fence_pc, r.load_pc))
				out[n++] = r;
		}
	}
	tctx_free(&c);
	return n;
}
