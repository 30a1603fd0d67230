/* dot.c — the happens-before graph of an execution in Graphviz DOT, and
 * its SVG through `dot -Tsvg` (see dot.h). */
#include "report/dot.h"

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "decode/decode.h"

#define NT TR_MAX_THREADS
#define NSLOT (TR_MAX_THREADS - TR_AUX_BASE)
#define LOOKBACK 5000  /* earlier events a conflict is looked for in */
#define MAXIN 8        /* spawn and wake sources pending for a thread */
#define LINE 90        /* longest line of a node's label */

enum ekind { E_SPAWN, E_WAKE, E_JOIN, E_FLUSH, E_DRAIN, E_CONFLICT };

/* An edge between events (from < to). */
struct edge {
	size_t from, to;
	uint8_t kind;
	char label[96];
};

struct cand {
	size_t ev;
	uint8_t kind;
};

/* Happens-before over the events, recomputed as dpor.h describes it. */
struct hb {
	const struct trace_env *env;
	const struct trace_in *in;
	const struct trace_steps *s;
	uint32_t (*clock)[NT]; /* per event */
	uint32_t count[NT];    /* events of each thread so far */
	long last[NT];         /* each thread's last event, -1 */
	int owner[NSLOT];      /* thread of each buffer, -1 */
	long last_update[NSLOT];
	uint32_t upd[NSLOT];   /* updates of each buffer so far */
	struct cand incoming[NT][MAXIN]; /* spawn, wakes: for the next event */
	int nin[NT];
	struct cand *cand;
	size_t ncand;
	struct edge *e;
	size_t ne, cap;
};

/* ---- happens-before ---- */

static bool own_update(const struct hb *h, const struct tr_event *u, int p)
{
	int s = u->tid - TR_AUX_BASE;

	return u->kind == EV_UPDATE && s >= 0 && s < NSLOT &&
	       h->owner[s] == p;
}

/* A read its own buffer served from a store not yet in memory commutes
 * with other threads' writes (dpor.c, buffered_read: TACAS'15 sec. 3). */
static bool buffered_read(const struct hb *h, const struct tr_event *ev,
			  int i)
{
	uint32_t q = ev->fwd_seq[i];

	return q && ev->fwd_slot[i] < NSLOT && h->upd[ev->fwd_slot[i]] < q;
}

/* Do the earlier event a and b conflict (dpor_ev_conflict's rule)?  If
 * so, label: what the edge a → b means ("rf flag"). */
static bool conflict(const struct hb *h, const struct tr_event *a,
		     const struct tr_event *b, char *label, size_t n)
{
	if (own_update(h, a, b->tid) || own_update(h, b, a->tid))
		return false;
	for (int i = 0; i < a->nacc; i++) {
		const struct dec_access *x = &a->acc[i];
		if (buffered_read(h, a, i))
			continue;
		for (int j = 0; j < b->nacc; j++) {
			const struct dec_access *y = &b->acc[j];
			char at[160];
			if (buffered_read(h, b, j) ||
			    !((x->rw | y->rw) & DEC_WRITE) ||
			    x->addr >= y->addr + y->size ||
			    y->addr >= x->addr + x->size)
				continue;
			if (label)
				snprintf(label, n, "%s %s",
					 !(x->rw & DEC_WRITE)  ? "fr"
					 : (y->rw & DEC_READ) ? "rf"
							      : "ww",
					 trace_data_text(h->env,
							 x->addr > y->addr
								 ? x->addr
								 : y->addr,
							 at, sizeof at));
			return true;
		}
	}
	return false;
}

static void add_cand(struct hb *h, size_t ev, uint8_t kind)
{
	h->cand[h->ncand++] = (struct cand){ ev, kind };
}

static int add_edge(struct hb *h, size_t from, size_t to, uint8_t kind)
{
	static const char *const names[] = {
		[E_SPAWN] = "creates", [E_WAKE] = "wakes", [E_JOIN] = "join",
		[E_FLUSH] = "flush",   [E_DRAIN] = "drained",
	};
	struct edge *e;

	if (h->ne == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 64;
		struct edge *v = realloc(h->e, cap * sizeof *v);
		if (!v)
			return -1;
		h->e = v;
		h->cap = cap;
	}
	e = &h->e[h->ne++];
	*e = (struct edge){ from, to, kind, "" };
	if (kind == E_CONFLICT)
		conflict(h, &h->in->ev[from], &h->in->ev[to], e->label,
			 sizeof e->label);
	else
		snprintf(e->label, sizeof e->label, "%s", names[kind]);
	return 0;
}

/* Newest first; for one event, spawn and wake-up before buffer edges
 * before conflicts (the reason the edge is labelled with). */
static int by_event_desc(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->ev != y->ev)
		return x->ev < y->ev ? 1 : -1;
	return (int)x->kind - (int)y->kind;
}

/* The sources of event j that may order it after other threads' events
 * (c: its clock so far; an event already in it is no source). */
static void sources(struct hb *h, size_t j, const uint32_t *c)
{
	const struct tr_event *ev = &h->in->ev[j];
	int p = ev->tid;

	h->ncand = 0;
	for (int k = 0; k < h->nin[p]; k++)
		add_cand(h, h->incoming[p][k].ev, h->incoming[p][k].kind);
	h->nin[p] = 0;
	if (p < TR_AUX_BASE && ev_needs_drain(ev))
		for (int s = 0; s < NSLOT; s++)
			if (h->owner[s] == p && h->last_update[s] >= 0)
				add_cand(h, (size_t)h->last_update[s], E_DRAIN);
	if (ev->kind == EV_UPDATE && h->s->src[j] >= 0)
		add_cand(h, (size_t)h->s->src[j], E_FLUSH);
	for (size_t i = j; i-- > 0 && j - i <= LOOKBACK;) {
		int q = h->in->ev[i].tid;
		if (q != p && q >= 0 && q < NT && c[q] < h->clock[i][q] &&
		    conflict(h, &h->in->ev[i], ev, NULL, 0))
			add_cand(h, i, E_CONFLICT);
	}
}

static void wake(struct hb *h, int t, size_t j, uint8_t kind)
{
	if (t < 0 || t >= NT)
		return;
	if (h->nin[t] == MAXIN) { /* keep the newest */
		memmove(h->incoming[t], h->incoming[t] + 1,
			(MAXIN - 1) * sizeof h->incoming[t][0]);
		h->nin[t]--;
	}
	h->incoming[t][h->nin[t]++] = (struct cand){ j, kind };
}

/* Clock of event j and the edges into it: newest source first, an
 * older one ordered through a newer is implied (dpor.c, analyse). */
static int analyse(struct hb *h, size_t j)
{
	const struct tr_event *ev = &h->in->ev[j];
	int p = ev->tid;
	uint32_t *c = h->clock[j];

	if (p < 0 || p >= NT)
		return 0;
	if (h->last[p] >= 0)
		memcpy(c, h->clock[h->last[p]], sizeof h->clock[0]);
	sources(h, j, c);
	qsort(h->cand, h->ncand, sizeof *h->cand, by_event_desc);
	for (size_t k = 0; k < h->ncand; k++) {
		size_t i = h->cand[k].ev;
		int q = h->in->ev[i].tid;
		if ((k && h->cand[k - 1].ev == i) || c[q] >= h->clock[i][q])
			continue;
		if (add_edge(h, i, j, h->cand[k].kind) < 0)
			return -1;
		for (int t = 0; t < NT; t++)
			if (h->clock[i][t] > c[t])
				c[t] = h->clock[i][t];
	}
	c[p] = ++h->count[p];
	h->last[p] = (long)j;
	if (ev->kind == EV_SPAWN)
		wake(h, ev->child, j, E_SPAWN);
	for (int w = ts_first(ev->woke); w >= 0 && w < NT;
	     w = ts_next(ev->woke, w + 1))
		wake(h, w, j, ev->kind == EV_EXIT ? E_JOIN : E_WAKE);
	for (int k = 0; k < ev->nst && p < TR_AUX_BASE; k++)
		if (ev->st[k].slot < NSLOT)
			h->owner[ev->st[k].slot] = p;
	if (ev->kind == EV_UPDATE && p >= TR_AUX_BASE) {
		h->last_update[p - TR_AUX_BASE] = (long)j;
		h->upd[p - TR_AUX_BASE]++;
	}
	return 0;
}

static int hb_edges(struct hb *h)
{
	size_t n = h->in->n ? h->in->n : 1;

	h->clock = calloc(n, sizeof *h->clock);
	h->cand = malloc((LOOKBACK + NT + MAXIN + 2) * sizeof *h->cand);
	if (!h->clock || !h->cand)
		return -1;
	for (int t = 0; t < NT; t++)
		h->last[t] = -1;
	for (int s = 0; s < NSLOT; s++) {
		h->owner[s] = -1;
		h->last_update[s] = -1;
	}
	for (size_t j = 0; j < h->in->n; j++)
		if (analyse(h, j) < 0)
			return -1;
	return 0;
}

/* ---- the graph ---- */

/* The column of a trace line: thread t, or its buffer (t + NT). */
static int column(const struct trace_step *s)
{
	int t = s->thread >= 0 && s->thread < NT ? s->thread : NT - 1;

	return s->update ? t + NT : t;
}

/* A DOT string's contents: quotes and backslashes escaped, newlines as
 * \n, each line cut at LINE characters. */
static void put_text(FILE *f, const char *s)
{
	int col = 0;

	for (; *s; s++) {
		if (*s == '\n') {
			fputs("\\n", f);
			col = 0;
			continue;
		}
		if (col == LINE) {
			fputs("...", f);
			while (s[1] && s[1] != '\n')
				s++;
			continue;
		}
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
		col++;
	}
}

/* An effect with one item a line ("read x = 0\n<- stale: ..."). */
static void put_effect(FILE *f, const char *effect)
{
	char *e = strdup(effect), *p;

	if (!e)
		return;
	while ((p = strstr(e, "  "))) {
		*p = '\n';
		memmove(p + 1, p + 2, strlen(p + 2) + 1);
	}
	if ((p = strstr(e, " (buffered at")))
		*p = '\n';
	put_text(f, e);
	free(e);
}

struct gctx {
	FILE *f;
	const struct trace_in *in;
	const struct trace_steps *s;
	uint8_t *mark;   /* per line: highlighted */
	long fail_line;  /* the failing thread's last line, -1 */
};

static void put_node(struct gctx *g, size_t i)
{
	const struct trace_step *st = &g->s->v[i];
	FILE *f = g->f;

	fprintf(f, "    s%zu [", i);
	if (st->n > 1)
		fprintf(f, "style=\"rounded,dashed\", fontcolor=\"#555555\", ");
	if (g->mark[i] || (long)i == g->fail_line)
		fprintf(f, "color=\"#d01c1c\", penwidth=2, fillcolor=\"%s\", ",
			(long)i == g->fail_line ? "#ffd0d0" : "#ffecec");
	fputs("label=\"", f);
	if (st->n > 1) {
		fprintf(f, "%zu-%zu\\n", st->first + 1, st->first + st->n);
		put_text(f, st->effect);
	} else {
		fprintf(f, "%zu%s", st->first + 1,
			st->preempted ? " (preemption)" : "");
		if (!st->update) {
			fputs(": ", f);
			put_text(f, st->where);
		}
		if (st->insn[0]) {
			fputs("\\n", f);
			put_text(f, st->insn);
		}
		if (st->effect[0]) {
			fputs("\\n", f);
			put_effect(f, st->effect);
		}
	}
	fputs("\", tooltip=\"", f);
	fprintf(f, "step %zu: ", st->first + 1);
	put_text(f, st->where);
	fputs("  ", f);
	put_text(f, st->insn);
	fputs("\"];\n", f);
}

static void put_columns(struct gctx *g)
{
	/* T0, T0+, T1, T1+, ...: buffers next to their threads */
	for (int t = 0; t < NT; t++)
		for (int u = 0; u < 2; u++) {
			int col = t + u * NT;
			bool any = false;
			for (size_t i = 0; i < g->s->n; i++) {
				if (column(&g->s->v[i]) != col)
					continue;
				if (!any)
					fprintf(g->f,
						"  subgraph cluster_%d {\n"
						"    label=\"T%d%s\";\n",
						col, t, u ? "+ (store buffer)"
							  : t == 0 ? " (main)"
								   : "");
				any = true;
				put_node(g, i);
			}
			if (any)
				fputs("  }\n", g->f);
		}
}

/* Program order: each line to the next of its column. */
static void put_program_order(struct gctx *g)
{
	long last[2 * NT];

	for (int c = 0; c < 2 * NT; c++)
		last[c] = -1;
	for (size_t i = 0; i < g->s->n; i++) {
		int c = column(&g->s->v[i]);
		if (last[c] >= 0)
			fprintf(g->f, "  s%ld -> s%zu [weight=10];\n", last[c],
				i);
		last[c] = (long)i;
	}
}

static const char *edge_style(uint8_t kind)
{
	switch (kind) {
	case E_SPAWN: case E_WAKE: case E_JOIN:
		return "color=\"#1f6fb4\", fontcolor=\"#1f6fb4\", penwidth=1.5";
	case E_FLUSH: case E_DRAIN:
		return "color=\"#6a6a6a\", fontcolor=\"#6a6a6a\", "
		       "style=dashed";
	default:
		return "color=\"#2a8a2a\", fontcolor=\"#2a8a2a\"";
	}
}

/* The happens-before edges between columns, one per pair of lines. */
static void put_hb(struct gctx *g, const struct hb *h)
{
	for (size_t k = 0; k < h->ne; k++) {
		const struct edge *e = &h->e[k];
		size_t a = g->s->step_of[e->from], b = g->s->step_of[e->to];
		bool dup = false;
		if (a == b || column(&g->s->v[a]) == column(&g->s->v[b]))
			continue;
		for (size_t m = 0; m < k && !dup; m++)
			dup = g->s->step_of[h->e[m].from] == a &&
			      g->s->step_of[h->e[m].to] == b;
		if (dup)
			continue;
		fprintf(g->f, "  s%zu -> s%zu [%s, label=\"", a, b,
			edge_style(e->kind));
		put_text(g->f, e->label);
		fputs("\"];\n", g->f);
	}
}

/* Stale reads and the fence check's reorderings: red, no constraint on
 * the layout (they are no happens-before edges). */
static void put_highlights(struct gctx *g, const struct trace_env *env)
{
	struct trace_reorder r[4];
	int nr = strcmp(g->in->model, "sc") ? trace_reorders(env, g->in, r, 4)
					    : 0;

	for (size_t k = 0; k < g->in->n; k++) {
		long s = g->s->stale[k];
		if (s < 0)
			continue;
		fprintf(g->f, "  s%zu -> s%zu [color=\"#d01c1c\", fontcolor="
			      "\"#d01c1c\", style=\"dashed,bold\", "
			      "constraint=false, label=\"stale read\"];\n",
			g->s->step_of[s], g->s->step_of[k]);
	}
	for (int i = 0; i < nr; i++) {
		size_t a = g->s->step_of[r[i].store];
		size_t b = g->s->step_of[r[i].load];
		if (g->s->stale[r[i].load] == (long)r[i].store)
			continue;
		fprintf(g->f, "  s%zu -> s%zu [color=\"#d01c1c\", fontcolor="
			      "\"#d01c1c\", style=\"dashed,bold\", "
			      "constraint=false, label=\"reordered: %s "
			      "first\"];\n",
			a, b, r[i].store_store ? "store" : "load");
	}
}

/* What thread t of a deadlock waits for, from the error's message
 * ("...: thread 1 waits for mutex B, called from ...; ..."). */
static const char *blocked_on(const char *msg, int t, char *b, size_t n)
{
	char key[32];
	const char *p, *end;

	snprintf(key, sizeof key, "thread %d ", t);
	for (p = msg; (p = strstr(p, key)); p++) {
		if (p != msg && p[-1] != ' ')
			continue;
		if (p - msg >= 2 && p[-2] != ':' && p[-2] != ';')
			continue;
		p += strlen(key);
		end = p + strcspn(p, ",;");
		snprintf(b, n, "%.*s", (int)(end - p), p);
		return b;
	}
	return "blocked";
}

/* The failure: an octagon below the failing thread's last line; a
 * deadlock's below every thread still alive. */
static void put_failure(struct gctx *g)
{
	const struct error_rec *e = g->in->err;
	char *t = strdup(g->s->failure ? g->s->failure : "failure"), *p;
	long last[NT];
	bool dead = e && (strcmp(e->kind, "deadlock") == 0 ||
			  strcmp(e->kind, "livelock") == 0);

	/* its lines, without their indentation */
	for (p = t; p && (p = strchr(p, '\n'));) {
		size_t sp = strspn(++p, " ");
		memmove(p, p + sp, strlen(p + sp) + 1);
	}
	if (t && (p = strrchr(t, '\n')) && !p[1])
		*p = 0;
	fputs("  failure [shape=octagon, style=filled, fillcolor=\"#ffd0d0\", "
	      "color=\"#d01c1c\", penwidth=2, label=\"",
	      g->f);
	put_text(g->f, t ? t : "failure");
	fputs("\"];\n", g->f);
	free(t);
	for (int i = 0; i < NT; i++)
		last[i] = -1;
	for (size_t i = 0; i < g->s->n; i++)
		if (!g->s->v[i].update && g->s->v[i].thread >= 0 &&
		    g->s->v[i].thread < NT)
			last[g->s->v[i].thread] = (long)i;
	for (int th = 0; th < NT; th++) {
		const struct trace_step *st;
		if (last[th] < 0)
			continue;
		st = &g->s->v[last[th]];
		if (dead && g->in->ev[st->first + st->n - 1].kind != EV_EXIT) {
			char what[96];
			fprintf(g->f, "  s%ld -> failure [color=\"#d01c1c\", "
				      "style=dashed, label=\"",
				last[th]);
			put_text(g->f, blocked_on(e->message, th, what,
						  sizeof what));
			fputs("\"];\n", g->f);
		}
		else if (!dead && e && th == e->thread)
			fprintf(g->f, "  s%ld -> failure [color=\"#d01c1c\", "
				      "penwidth=2];\n",
				last[th]);
	}
}

static void mark_lines(struct gctx *g, const struct trace_env *env)
{
	const struct error_rec *e = g->in->err;
	struct trace_reorder r[4];
	int nr = strcmp(g->in->model, "sc") ? trace_reorders(env, g->in, r, 4)
					    : 0;

	g->fail_line = -1;
	for (size_t k = 0; k < g->in->n; k++)
		if (g->s->stale[k] >= 0) {
			g->mark[g->s->step_of[k]] = 1;
			g->mark[g->s->step_of[g->s->stale[k]]] = 1;
		}
	for (int i = 0; i < nr; i++) {
		g->mark[g->s->step_of[r[i].store]] = 1;
		g->mark[g->s->step_of[r[i].load]] = 1;
	}
	if (!e || strcmp(e->kind, "deadlock") == 0)
		return;
	for (size_t i = 0; i < g->s->n; i++)
		if (!g->s->v[i].update && g->s->v[i].thread == e->thread)
			g->fail_line = (long)i;
}

static void put_graph(struct gctx *g, const struct trace_env *env,
		      const struct hb *h)
{
	const struct error_rec *e = g->in->err;
	FILE *f = g->f;

	fputs("digraph x86smc {\n"
	      "  graph [fontname=\"Helvetica,Arial,sans-serif\", fontsize=13, "
	      "labelloc=t, newrank=true, nodesep=0.25, ranksep=0.3, "
	      "label=\"",
	      f);
	if (e)
		fprintf(f, "%s in T%d at ", e->kind, e->thread);
	if (e)
		put_text(f, e->location);
	fprintf(f, "%smodel %s, %zu step%s, %d preemption%s\"];\n",
		e ? "\\n" : "", g->in->model, g->in->n,
		g->in->n == 1 ? "" : "s", g->in->preemptions,
		g->in->preemptions == 1 ? "" : "s");
	fputs("  node [shape=box, style=\"rounded,filled\", fillcolor=white, "
	      "fontname=\"monospace\", fontsize=10];\n"
	      "  edge [fontname=\"Helvetica,Arial,sans-serif\", fontsize=9, "
	      "color=\"#999999\", arrowsize=0.7];\n",
	      f);
	mark_lines(g, env);
	put_columns(g);
	put_program_order(g);
	put_hb(g, h);
	put_highlights(g, env);
	put_failure(g);
	fputs("}\n", f);
}

char *dot_render(const struct trace_env *env, const struct trace_in *in)
{
	struct trace_steps s;
	struct hb h = { .env = env, .in = in, .s = &s };
	struct gctx g = { .in = in, .s = &s };
	char *text = NULL;
	size_t len = 0;

	if (trace_steps(env, in, &s) < 0)
		return NULL;
	if (hb_edges(&h) == 0 && (g.mark = calloc(s.n + 1, 1)) &&
	    (g.f = open_memstream(&text, &len))) {
		put_graph(&g, env, &h);
		fclose(g.f);
	}
	free(g.mark);
	free(h.clock);
	free(h.cand);
	free(h.e);
	trace_steps_free(&s);
	return text;
}

/* ---- SVG ---- */

extern char **environ;

int dot_svg(const char *dot, const char *path)
{
	char *argv[] = { "dot", "-Tsvg", "-o", (char *)path, NULL };
	posix_spawn_file_actions_t fa;
	int fd[2], st, r;
	pid_t pid;
	size_t len = strlen(dot);

	if (pipe(fd) < 0)
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd[0], 0);
	posix_spawn_file_actions_addclose(&fa, fd[1]);
	r = posix_spawnp(&pid, "dot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[0]);
	if (r != 0) {
		close(fd[1]);
		return r == ENOENT ? 1 : -1;
	}
	for (size_t off = 0; off < len;) {
		ssize_t w = write(fd[1], dot + off, len - off);
		if (w <= 0 && errno != EINTR)
			break;
		off += w > 0 ? (size_t)w : 0;
	}
	close(fd[1]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		return 1;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "x86smc: --svg %s: dot -Tsvg failed\n", path);
		return -1;
	}
	return 0;
}
