/* parallel.c — --jobs N: parallel Source-DPOR by work stealing.
 *
 * The x86smc process becomes a coordinator that traces nothing; it forks
 * N workers, each with its own tracer, target and fork snapshot, pinned
 * to its own CPU.  The exploration tree is split into tasks: a task is
 * a subtree, explored by one worker depth-first with its own struct dpor
 * exactly as the sequential search would (dpor.h, dpor_steal).  An idle
 * worker gets a task split off a busy one: the unexplored branch nearest
 * the root of the victim's tree, taken between two executions.
 *
 * What the sequential search would have done across the cut is done by
 * messages, routed by the coordinator to the task that owns the node:
 * - a race between an event of the new task and one of its prefix adds a
 *   backtrack point in the owner's node (Alg. 1 lines 6-8, applied to the
 *   owner's own backtrack set);
 * - the event the new task performed at its branch node joins the
 *   owner's sleep set there, before the owner takes another branch there
 *   (until then that node waits);
 * - the owner does not leave the branch node before the new task's whole
 *   subtree is explored (races found there may add branches to it).
 * So every race is handled where the sequential search handles it, and
 * sleep sets are those of one sequential order; what differs is which
 * of several equivalent initials a backtrack set gets, hence executions
 * within a few percent of --jobs 1, and the same outcomes and verdicts.
 *
 * Executions are counted in shared memory: the --max-executions budget
 * (an execution is started only within it), and the numbering that
 * seeds random and pct executions (so --jobs runs the same ones).
 * Each worker collects outcomes, errors and trace hashes itself; at the
 * end they are merged here.  If a new escaped location changes the set
 * of events (EXEC_RESTART), every worker drops its tasks and the search
 * starts over, as the sequential one does. */
#include "dpor/parallel.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "dpor/dpor.h"
#include "dpor/explore_int.h"
#include "dist/dist.h"
#include "tracer/log.h"
#include "tracer/proc.h"

/* Shared by the coordinator (or an MPI rank's relay) and the workers of
 * one machine (MAP_SHARED). */
struct shared {
	unsigned long started; /* executions begun here */
	unsigned long base;    /* MPI: begun by the other ranks, last heard */
	unsigned stride, offset; /* execution i here is number
				  * i * stride + offset (MPI: ranks, rank) */
	volatile int stop;     /* stop at once (abort the execution) */
	volatile int limit;    /* the budget is spent: stop after it */
};

/* Between MPI ranks (dist.h): the relay of rank r > 0 forks its --jobs
 * workers and carries their socket bytes; the coordinator on rank 0
 * sees them as workers r * jobs + i. */
enum link {
	L_START = 1, /* 0 -> r: a search begins: u8 model, u8 keep_going */
	L_BYTES,     /* both ways: u32 worker, the bytes of its socket */
	L_GONE,      /* r -> 0: u32 worker, its socket closed */
	L_STATE,     /* 0 -> r: u64 executions begun elsewhere, u8 stop,
		      * u8 limit; r -> 0: u64 begun there, u8 stop, u8 limit */
	L_QUIT,      /* 0 -> r: no more searches */
};

/* A rank not heard from for this long (s) is lost; relays send their
 * state at least every RANK_BEAT s.  5 s was too short on a loaded
 * machine: make check beside a fuzz campaign and a peer build (load 8 on
 * 2 CPUs) lost two live ranks of peterson's 0.1 s search (2026-11-28). */
#define RANK_SILENCE 30.0
#define RANK_BEAT 0.25
#define NAP_MAX 2

enum msg {
	/* worker -> coordinator; payloads start with the epoch (u32) */
	W_IDLE = 1,   /* u64 messages received */
	W_ITEM,       /* epoch, and if any: u64 id, item */
	W_NEWTASK,    /* epoch, u64 id (a task split off locally) */
	W_RACE,       /* epoch, u64 owner task, struct dpor_race */
	W_SLEEPER,    /* epoch, u64 owner, u32 depth, i32 tid, event */
	W_DONE,       /* epoch, u64 owner, u32 depth, i32 tid, u64 id,
		       * u8 pruned */
	W_RESTART,    /* epoch, u64 escaped addresses */
	W_FAILED,     /* why, text */
	W_RESULTS,    /* the worker's results (pack_results) */
	/* coordinator -> worker */
	C_ITEM = 32,  /* epoch, u64 id, item */
	C_STEAL,      /* epoch */
	C_RACE,       /* the W_ payloads, to the owner */
	C_SLEEPER,
	C_DONE,
	C_RESET,      /* epoch, u64 escaped addresses */
	C_END,
};

/* An item: u8 root; root: u8 exhaustive, i64 bound; else u32 nanc,
 * nanc x (u64 id, u32 floor) ancestors nearest first, i32 branch
 * thread, dpor_steal blob. */

/* ---- byte buffers and messages ---- */

struct buf {
	uint8_t *p;
	size_t n, cap, off; /* off: read position, or bytes written */
	bool bad;           /* out of memory, or read past the end */
};

static void put(struct buf *b, const void *v, size_t n)
{
	if (b->bad || !n)
		return;
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->n + n)
			cap *= 2;
		uint8_t *p = realloc(b->p, cap);
		if (!p) {
			b->bad = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, v, n);
	b->n += n;
}

static void put32(struct buf *b, uint32_t v) { put(b, &v, 4); }
static void put64(struct buf *b, uint64_t v) { put(b, &v, 8); }

static void put_str(struct buf *b, const char *s)
{
	uint64_t n = s ? strlen(s) : UINT64_MAX;

	put64(b, n);
	if (s)
		put(b, s, n);
}

static void get(struct buf *b, void *v, size_t n)
{
	if (b->bad || b->n - b->off < n) {
		b->bad = true;
		memset(v, 0, n);
		return;
	}
	memcpy(v, b->p + b->off, n);
	b->off += n;
}

static uint32_t get32(struct buf *b)
{
	uint32_t v;

	get(b, &v, 4);
	return v;
}

static uint64_t get64(struct buf *b)
{
	uint64_t v;

	get(b, &v, 8);
	return v;
}

/* A malloc'd string, or NULL. */
static char *get_str(struct buf *b)
{
	uint64_t n = get64(b);
	char *s;

	if (n == UINT64_MAX || b->bad || b->n - b->off < n)
		return NULL;
	s = malloc(n + 1);
	if (s) {
		memcpy(s, b->p + b->off, n);
		s[n] = 0;
	}
	b->off += n;
	return s;
}

static void buf_free(struct buf *b)
{
	free(b->p);
	*b = (struct buf){ 0 };
}

static int io_all(int fd, void *p, size_t n, bool rd)
{
	uint8_t *c = p;

	while (n) {
		ssize_t k = rd ? read(fd, c, n) : write(fd, c, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && errno == EAGAIN) {
			struct pollfd pf = { fd, rd ? POLLIN : POLLOUT, 0 };
			poll(&pf, 1, 100);
			continue;
		}
		if (k <= 0)
			return -1;
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Append a framed message (u32 type, u32 length, payload) to b. */
static void frame(struct buf *b, uint32_t type, const void *p, size_t n)
{
	put32(b, type);
	put32(b, (uint32_t)n);
	put(b, p, n);
}

static int send_msg(int fd, uint32_t type, const struct buf *pl)
{
	struct buf b = { 0 };
	int r;

	frame(&b, type, pl ? pl->p : NULL, pl ? pl->n : 0);
	r = b.bad ? -1 : io_all(fd, b.p, b.n, false);
	buf_free(&b);
	return r;
}

/* Read one message: its type, its payload into *pl (replaced). */
static int recv_msg(int fd, uint32_t *type, struct buf *pl)
{
	uint32_t h[2];

	buf_free(pl);
	if (io_all(fd, h, sizeof h, true) < 0)
		return -1;
	*type = h[0];
	pl->p = malloc(h[1] ? h[1] : 1);
	if (!pl->p)
		return -1;
	pl->n = pl->cap = h[1];
	return io_all(fd, pl->p, h[1], true);
}

/* ---- the worker ---- */

struct anc {
	uint64_t id;
	uint32_t floor;
};

enum { T_READY, T_NEXT, T_WAIT };

struct task {
	uint64_t id;
	struct dpor *d;
	struct anc *anc; /* the tasks owning its prefix, nearest first */
	uint32_t nanc;
	int tid;         /* its thread at the branch node, -1: the root */
	int state;       /* T_READY: a branch is chosen; T_NEXT: ask
			  * dpor_next_task; T_WAIT: for a message */
	bool told;       /* its branch event went to the parent */
};

struct worker {
	const struct options *o;
	int w, fd;
	struct shared *sh;
	struct explorer *x;
	struct results res;
	struct task *tasks;
	int ntasks, captasks;
	uint64_t seq;      /* task ids made here */
	uint32_t epoch;
	uint64_t received; /* messages from the coordinator */
	uint64_t idle_at;  /* received when W_IDLE was sent, +1; 0 busy */
	bool resetting;    /* W_RESTART sent, C_RESET not yet here */
	bool end, sample, sampled_all;
};

static void task_free(struct task *t)
{
	dpor_free(t->d);
	free(t->anc);
}

static struct task *add_task(struct worker *k, uint64_t id)
{
	if (k->ntasks == k->captasks) {
		int cap = k->captasks ? 2 * k->captasks : 8;
		struct task *t = realloc(k->tasks, (size_t)cap * sizeof *t);
		if (!t)
			return NULL;
		k->tasks = t;
		k->captasks = cap;
	}
	struct task *t = &k->tasks[k->ntasks++];
	*t = (struct task){ .id = id, .tid = -1, .state = T_READY };
	return t;
}

static void drop_task(struct worker *k, struct task *t)
{
	task_free(t);
	*t = k->tasks[--k->ntasks];
}

static struct task *find_task(struct worker *k, uint64_t id)
{
	for (int i = 0; i < k->ntasks; i++)
		if (k->tasks[i].id == id)
			return &k->tasks[i];
	return NULL;
}

/* The task owning node depth of t's prefix. */
static uint64_t owner_of(const struct task *t, uint32_t depth)
{
	for (uint32_t i = 0; i < t->nanc; i++)
		if (t->anc[i].floor <= depth)
			return t->anc[i].id;
	return 0;
}

static void send_k(struct worker *k, uint32_t type, const struct buf *b)
{
	if (send_msg(k->fd, type, b) < 0)
		k->end = true; /* the coordinator is gone */
}

/* Split a branch off one of the tasks (the one nearest the root first)
 * into an item. */
static bool split(struct worker *k, bool waiting_only, uint64_t *id,
		  struct buf *item)
{
	struct task *best = NULL;
	void *blob = NULL;
	unsigned floor = 0;
	int tid;
	size_t n = 0;

	/* tasks by floor: every task with floor >= the last one tried */
	for (;;) {
		struct task *next = NULL;
		for (int i = 0; i < k->ntasks; i++) {
			struct task *t = &k->tasks[i];
			unsigned f = dpor_floor(t->d);
			if ((waiting_only && t->state != T_WAIT) ||
			    (best && (f < floor || (f == floor && t <= best))))
				continue;
			if (!next || f < dpor_floor(next->d))
				next = t;
		}
		if (!next)
			return false;
		best = next;
		floor = dpor_floor(best->d);
		n = dpor_steal(best->d, &blob, &tid);
		if (n)
			break;
	}
	*id = ((uint64_t)(k->w + 1) << 40) | ++k->seq;
	put(item, &(uint8_t){ 0 }, 1);
	put32(item, best->nanc + 1);
	put64(item, best->id);
	put32(item, floor);
	for (uint32_t i = 0; i < best->nanc; i++) {
		put64(item, best->anc[i].id);
		put32(item, best->anc[i].floor);
	}
	put32(item, (uint32_t)tid);
	put(item, blob, n);
	free(blob);
	return !item->bad;
}

/* A task from an item (b positioned at it). */
static struct task *load_item(struct worker *k, uint64_t id, struct buf *b)
{
	uint8_t root;
	struct task *t;

	get(b, &root, 1);
	if (b->bad || !(t = add_task(k, id)))
		return NULL;
	if (root) {
		uint8_t ex;
		int64_t bound;
		get(b, &ex, 1);
		get(b, &bound, 8);
		t->d = b->bad ? NULL : dpor_new(ex, bound);
	} else {
		t->nanc = get32(b);
		t->anc = calloc(t->nanc ? t->nanc : 1, sizeof *t->anc);
		for (uint32_t i = 0; t->anc && i < t->nanc && !b->bad; i++) {
			t->anc[i].id = get64(b);
			t->anc[i].floor = get32(b);
		}
		t->tid = (int32_t)get32(b);
		t->d = b->bad || !t->anc ? NULL
			: dpor_load(b->p + b->off, b->n - b->off);
	}
	if (!t->d) {
		drop_task(k, t);
		return NULL;
	}
	return t;
}

static void escapes_put(struct worker *k, struct buf *b)
{
	const struct escape_set *e = explorer_escapes(k->x);

	for (size_t i = 0; i < e->cap; i++)
		if (e->slot[i])
			put64(b, (e->slot[i] - 1) << 3);
}

static void handle(struct worker *k, uint32_t type, struct buf *b)
{
	uint32_t epoch = get32(b);
	struct buf r = { 0 };
	struct task *t;
	uint64_t id;

	k->received++;
	if (type == C_END) {
		k->end = true;
		return;
	}
	if (type == C_RESET) {
		struct escape_set *e = explorer_escapes(k->x);
		size_t got = (b->n - b->off) / 8;
		k->epoch = epoch;
		while (k->ntasks)
			drop_task(k, &k->tasks[0]);
		while (b->n - b->off >= 8)
			esc_add(e, get64(b), 8);
		/* escapes the coordinator has not heard of (this worker's
		 * own W_RESTART crossed another one): tell it, and take no
		 * task until every worker has the same set (a task replayed
		 * with another set of events diverges) */
		k->resetting = e->n > got;
		if (k->resetting) {
			put32(&r, k->epoch);
			escapes_put(k, &r);
			send_k(k, W_RESTART, &r);
			buf_free(&r);
		}
		return;
	}
	if (epoch != k->epoch)
		return; /* about tasks dropped by a reset */
	switch (type) {
	case C_ITEM:
		id = get64(b);
		if (!load_item(k, id, b)) {
			put_str(&r, "internal error: a task could not be "
				    "loaded (out of memory?)");
			send_k(k, W_FAILED, &r);
			k->sh->stop = 1;
		}
		break;
	case C_STEAL:
		put32(&r, k->epoch);
		if (!k->resetting) {
			struct buf item = { 0 };
			if (split(k, false, &id, &item)) {
				put64(&r, id);
				put(&r, item.p, item.n);
			}
			buf_free(&item);
		}
		send_k(k, W_ITEM, &r);
		break;
	case C_RACE:
	case C_SLEEPER:
	case C_DONE:
		t = find_task(k, get64(b));
		if (!t)
			break;
		if (type == C_RACE) {
			struct dpor_race rc;
			get(b, &rc, sizeof rc);
			if (!b->bad && dpor_apply_race(t->d, &rc) &&
			    t->state == T_WAIT)
				t->state = T_NEXT;
			break;
		}
		uint32_t depth = get32(b);
		int tid = (int32_t)get32(b);
		if (type == C_SLEEPER) {
			struct tr_event ev;
			get(b, &ev, sizeof ev);
			if (!b->bad)
				dpor_sleeper(t->d, depth, tid, &ev);
		} else {
			dpor_subtree_done(t->d, depth, tid);
		}
		if (t->state == T_WAIT)
			t->state = T_NEXT;
		break;
	}
	buf_free(&r);
}

/* Handle the coordinator's messages: those waiting (timeout 0), or the
 * next one to come (timeout in ms). */
static void poll_msgs(struct worker *k, int timeout)
{
	struct buf b = { 0 };
	uint32_t type;

	for (;;) {
		struct pollfd pf = { k->fd, POLLIN, 0 };
		if (poll(&pf, 1, timeout) <= 0)
			break;
		if (recv_msg(k->fd, &type, &b) < 0) {
			k->end = true;
			break;
		}
		handle(k, type, &b);
		timeout = 0;
	}
	buf_free(&b);
}

/* A ready task, the newest first; tasks done on the way are reported. */
static struct task *pick(struct worker *k)
{
	for (int i = k->ntasks - 1; i >= 0; i--) {
		struct task *t = &k->tasks[i];
		if (t->state == T_NEXT) {
			int r = dpor_next_task(t->d);
			t->state = r == DPOR_NEXT ? T_READY : T_WAIT;
			if (r == DPOR_DONE) {
				struct buf b = { 0 };
				unsigned f = dpor_floor(t->d);
				put32(&b, k->epoch);
				put64(&b, t->tid >= 0 ? owner_of(t, f - 1) : 0);
				put32(&b, f ? f - 1 : 0);
				put32(&b, (uint32_t)t->tid);
				put64(&b, t->id);
				put(&b, &(uint8_t){ dpor_pruned(t->d) }, 1);
				send_k(k, W_DONE, &b);
				buf_free(&b);
				drop_task(k, t);
				i = k->ntasks; /* the array moved */
				continue;
			}
		}
		if (t->state == T_READY)
			return t;
	}
	return NULL;
}

/* After an execution of t: its races with its prefix, and its first
 * event at the branch node, to their owners. */
static void report(struct worker *k, struct task *t)
{
	struct dpor_race rc[64];
	unsigned n;
	struct buf b = { 0 };

	while ((n = dpor_take_races(t->d, rc, 64)) > 0)
		for (unsigned i = 0; i < n; i++) {
			b.n = 0;
			put32(&b, k->epoch);
			put64(&b, owner_of(t, rc[i].depth));
			put(&b, &rc[i], sizeof rc[i]);
			send_k(k, W_RACE, &b);
		}
	unsigned f = dpor_floor(t->d);
	const struct tr_event *ev = f ? dpor_event(t->d, f - 1) : NULL;
	if (!t->told && t->tid >= 0 && ev) {
		b.n = 0;
		put32(&b, k->epoch);
		put64(&b, owner_of(t, f - 1));
		put32(&b, f - 1);
		put32(&b, (uint32_t)t->tid);
		put(&b, ev, sizeof *ev);
		send_k(k, W_SLEEPER, &b);
		t->told = true;
	}
	buf_free(&b);
}

/* The explorer could not run an execution: tell the coordinator why,
 * and stop. */
static void worker_failed(struct worker *k)
{
	struct buf b = { 0 };

	put_str(&b, explorer_why(k->x));
	send_k(k, W_FAILED, &b);
	buf_free(&b);
	k->sh->stop = 1;
}

/* The escapes grew: every tree starts over (a new epoch). */
static void worker_restart(struct worker *k)
{
	struct buf b = { 0 };

	put32(&b, k->epoch);
	escapes_put(k, &b);
	send_k(k, W_RESTART, &b);
	buf_free(&b);
	k->resetting = true;
}

/* Run one execution: of task t, or (t NULL) a random/pct sample. */
static void execute(struct worker *k, struct task *t)
{
	const struct options *o = k->o;
	unsigned long i = __atomic_fetch_add(&k->sh->started, 1,
					     __ATOMIC_SEQ_CST);
	unsigned long budget = o->max_executions;
	unsigned long num = i * k->sh->stride + k->sh->offset;
	struct dpor *d = t ? t->d : NULL;
	bool err;

	if (k->sample && !budget)
		budget = EXPLORE_RANDOM_EXECUTIONS;
	if (budget && i + k->sh->base >= budget) {
		if (k->sample)
			k->sampled_all = true;
		else
			k->sh->limit = 1;
		return;
	}
	if (!d && !(d = dpor_new(true, -1))) {
		k->sh->stop = 1;
		return;
	}
	enum exec_result r = explorer_run(k->x, d, num, &err);
	if (!t)
		dpor_free(d);
	if (r == EXEC_FAILED && (proc_interrupted() || k->sh->stop))
		r = EXEC_INTERRUPTED; /* a ptrace call cut short */
	if (r == EXEC_FAILED) {
		worker_failed(k);
		return;
	}
	if (r == EXEC_RESTART || r == EXEC_INTERRUPTED)
		__atomic_fetch_sub(&k->sh->started, 1, __ATOMIC_SEQ_CST);
	if (r == EXEC_INTERRUPTED)
		return;
	if (r == EXEC_RESTART) {
		if (t) /* samples: each tree is thrown away anyway */
			worker_restart(k);
		return;
	}
	if (err && !o->keep_going)
		k->sh->stop = 1;
	if (t) {
		report(k, t);
		t->state = T_NEXT;
	}
	/* shallow bugs first: this worker's PCT samples beside its share */
	if (t && !k->sh->stop) {
		const struct results *w = &k->res;
		bool serr = false;
		r = explorer_sample(k->x,
				    results_runs(w) - 1,
				    (unsigned long)k->w * 4096 + k->sh->offset,
				    &serr);
		if (r == EXEC_FAILED && !proc_interrupted())
			worker_failed(k);
		else if (r == EXEC_RESTART) /* it grew the escapes */
			worker_restart(k);
		else if (serr && !o->keep_going)
			k->sh->stop = 1;
	}
}

/* Pack what the worker found for merge(). */
static void pack_results(struct worker *k, struct buf *b)
{
	const struct results *r = &k->res;
	const struct hashset *hs = explorer_hashes(k->x);
	uint64_t n[] = { r->executions, r->blocked_executions,
			 r->assume_blocked, r->events, r->ptrace_stops,
			 r->max_steps_cut, r->pso_shared, r->sanity_checked,
			 r->sanity_mismatches, explorer_snapshots(k->x),
			 r->replayed, r->checkpoints, r->nondet_bounded,
			 r->timeouts_pruned, r->threads_cut, r->samples,
			 r->spin_live, r->timeout_cut };

	put(b, n, sizeof n);
	put(b, r->nondet_unmodelled, sizeof r->nondet_unmodelled);
	put64(b, r->noutcomes);
	for (size_t i = 0; i < r->noutcomes; i++) {
		const struct outcome *o = &r->outcomes[i];
		put64(b, o->len);
		put(b, o->out, o->len);
		put(b, o->status, sizeof o->status);
		put64(b, o->count);
		put_str(b, o->witness);
	}
	put64(b, r->nerrors);
	for (size_t i = 0; i < r->nerrors; i++) {
		put(b, &r->errors[i], sizeof r->errors[i]);
		put_str(b, r->errors[i].trace);
		put_str(b, r->errors[i].schedule);
		put_str(b, r->errors[i].dot);
		put_str(b, r->errors[i].sarif);
		put_str(b, r->errors[i].witness);
	}
	put32(b, (uint32_t)r->nreorders);
	put(b, r->reorders, sizeof r->reorders);
	put64(b, hs->n);
	for (size_t i = 0; i < hs->cap; i++)
		if (hs->slot[i])
			put64(b, hs->slot[i]);
}

static int worker_main(const struct options *o, int w, int cpu, int fd,
		       struct shared *sh)
{
	struct worker k = { .o = o, .w = w, .fd = fd, .sh = sh };
	struct buf b = { 0 };

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	proc_pin_self(cpu);
	k.sample = o->strategy == STRAT_RANDOM || o->strategy == STRAT_PCT;
	k.x = explorer_new(o, &k.res, cpu, &sh->stop);
	if (!k.x)
		return 1;
	while (!k.end && !sh->stop && !sh->limit && !proc_interrupted()) {
		struct task *t = NULL;
		uint64_t id;
		poll_msgs(&k, 0);
		if (k.end)
			break;
		if (k.sample && !k.sampled_all) {
			execute(&k, NULL);
			continue;
		}
		if (!k.resetting && !(t = pick(&k))) {
			/* split a waiting task's branch off, for myself */
			struct buf item = { 0 };
			if (split(&k, true, &id, &item)) {
				item.off = 0;
				t = load_item(&k, id, &item);
				b.n = 0;
				put32(&b, k.epoch);
				put64(&b, id);
				send_k(&k, W_NEWTASK, &b);
			}
			buf_free(&item);
		}
		if (!t) {
			if (k.idle_at != k.received + 1) {
				b.n = 0;
				put64(&b, k.received);
				send_k(&k, W_IDLE, &b);
				k.idle_at = k.received + 1;
			}
			poll_msgs(&k, 50);
			continue;
		}
		k.idle_at = 0;
		execute(&k, t);
	}
	b.n = 0;
	b.bad = false;
	explorer_stop(k.x); /* its target ends, its stops are counted */
	pack_results(&k, &b);
	explorer_free(k.x);
	send_msg(fd, W_RESULTS, &b);
	buf_free(&b);
	for (int i = 0; i < k.ntasks; i++)
		task_free(&k.tasks[i]);
	free(k.tasks);
	results_free(&k.res);
	return 0;
}

/* ---- the coordinator ---- */

struct wk {
	pid_t pid;
	int fd;             /* its socket; -1: on another rank */
	int rank, lw;       /* its rank, and its number there */
	struct buf in;      /* another rank's: bytes of partial messages */
	struct buf out;     /* queued messages; out.off: bytes written */
	uint64_t sent;      /* messages queued to it */
	uint64_t acked;     /* received, by its last W_IDLE */
	bool idle, steal, gone;
	double dry;         /* a steal found nothing: not before */
	struct buf results; /* its W_RESULTS */
	bool has_results;
};

struct route {
	uint64_t id;
	int w;
};

struct coord {
	const struct options *o;
	struct results *res;
	struct hashset *hs;
	struct shared *sh;
	struct wk *w;
	int n;
	struct route *routes;
	size_t nroutes, caproutes;
	struct buf *queue; /* items no worker has taken yet */
	size_t nqueue, capqueue;
	uint32_t epoch;
	uint64_t next_root;
	bool exhaustive, pruned, sample;
	long bound;
	struct par_outcome *po;
	struct escape_set esc; /* the union of every worker's escapes */
	struct pollfd *pf;
	struct traffic { uint64_t n, bytes; } traffic[64]; /* by type */
	/* MPI: workers r * per + i live on rank r */
	int nranks, per;
	int nap; /* ms between MPI probes: 1 after a message, doubling up
		  * to NAP_MAX while none comes (a probe costs CPU) */
	struct rank_state *ranks;
};

struct rank_state {
	double heard;      /* its last message */
	uint64_t started;  /* executions begun there */
	uint64_t base;     /* ... elsewhere, as last told */
	uint8_t flags;     /* stop | limit << 1, as last told */
	double sent;       /* when last told */
	bool lost;
};

static bool ranks_lost; /* a rank died in this job: abort at the end */
static void ranks_start(struct coord *c, const struct options *wo);

static void to_worker(struct coord *c, int i, uint32_t type,
		      const struct buf *pl)
{
	struct wk *w = &c->w[i];

	if (w->gone)
		return;
	frame(&w->out, type, pl ? pl->p : NULL, pl ? pl->n : 0);
	c->traffic[type % 64].n++;
	c->traffic[type % 64].bytes += 8 + (pl ? pl->n : 0);
	w->sent++;
	w->idle = false;
}

/* Another rank's worker: its queued bytes in one message to its relay. */
static void flush_remote(struct wk *w)
{
	struct buf b = { 0 };

	if (w->out.n == 0)
		return;
	put32(&b, L_BYTES);
	put32(&b, (uint32_t)w->lw);
	put(&b, w->out.p, w->out.n);
	/* a send fails to a dead rank: ranks_sync finds it silent */
	if (b.bad || dist_send(w->rank, b.p, b.n) < 0)
		b.n = 0;
	buf_free(&b);
	w->out.n = w->out.off = 0;
}

static void flush_out(struct wk *w)
{
	if (w->fd < 0) {
		flush_remote(w);
		return;
	}
	while (w->out.off < w->out.n) {
		ssize_t k = write(w->fd, w->out.p + w->out.off,
				  w->out.n - w->out.off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && errno == EAGAIN)
			return;
		if (k <= 0) { /* it is gone: what it was told does not
			       * matter any more */
			w->out.off = w->out.n;
			break;
		}
		w->out.off += (size_t)k;
	}
	w->out.n = w->out.off = 0;
}

static void route_set(struct coord *c, uint64_t id, int w)
{
	for (size_t i = 0; i < c->nroutes; i++)
		if (c->routes[i].id == id) {
			c->routes[i].w = w;
			return;
		}
	if (c->nroutes == c->caproutes) {
		size_t cap = c->caproutes ? 2 * c->caproutes : 64;
		struct route *r = realloc(c->routes, cap * sizeof *r);
		if (!r)
			return;
		c->routes = r;
		c->caproutes = cap;
	}
	c->routes[c->nroutes++] = (struct route){ id, w };
}

static int route_get(struct coord *c, uint64_t id, bool remove)
{
	for (size_t i = 0; i < c->nroutes; i++)
		if (c->routes[i].id == id) {
			int w = c->routes[i].w;
			if (remove)
				c->routes[i] = c->routes[--c->nroutes];
			return w;
		}
	return -1;
}

/* The whole tree (a new round: icb's next bound, or after a reset) as
 * one task, to worker 0. */
static void start_root(struct coord *c)
{
	struct buf b = { 0 };
	uint64_t id = ++c->next_root;
	int64_t bound = c->bound;

	put32(&b, c->epoch);
	put64(&b, id);
	put(&b, &(uint8_t){ 1 }, 1);
	put(&b, &(uint8_t){ c->exhaustive }, 1);
	put(&b, &bound, 8);
	route_set(c, id, 0);
	to_worker(c, 0, C_ITEM, &b);
	buf_free(&b);
	c->pruned = false;
}

/* Idle, and has seen every message sent to it (one of them may have
 * given it work). */
static bool is_idle(const struct wk *w)
{
	return w->idle && w->acked == w->sent;
}

static bool all_idle(const struct coord *c)
{
	for (int i = 0; i < c->n; i++) {
		const struct wk *w = &c->w[i];
		if (!w->gone && (!is_idle(w) || w->steal))
			return false;
	}
	return c->nqueue == 0;
}

/* Idle workers get queued items, or a busy worker is asked to split. */
static void assign(struct coord *c)
{
	int want = 0, asked = 0;
	double t = clock_s();

	for (int i = 0; i < c->n; i++) {
		struct wk *w = &c->w[i];
		if (w->gone || !is_idle(w))
			continue;
		if (c->nqueue) {
			struct buf *q = &c->queue[--c->nqueue];
			uint64_t id;
			memcpy(&id, q->p + 4, 8);
			route_set(c, id, i);
			to_worker(c, i, C_ITEM, q);
			buf_free(q);
			continue;
		}
		want++;
	}
	for (int i = 0; i < c->n; i++)
		asked += c->w[i].steal;
	for (int i = 0; i < c->n && asked < want && !c->sample; i++) {
		struct wk *w = &c->w[i];
		if (w->gone || is_idle(w) || w->steal || t < w->dry)
			continue;
		struct buf b = { 0 };
		put32(&b, c->epoch);
		to_worker(c, i, C_STEAL, &b);
		buf_free(&b);
		w->steal = true;
		asked++;
	}
}

static void enqueue(struct coord *c, struct buf *b)
{
	if (c->nqueue == c->capqueue) {
		size_t cap = c->capqueue ? 2 * c->capqueue : 8;
		struct buf *q = realloc(c->queue, cap * sizeof *q);
		if (!q)
			return;
		c->queue = q;
		c->capqueue = cap;
	}
	c->queue[c->nqueue++] = *b;
	*b = (struct buf){ 0 };
}

static void fail(struct coord *c, const char *why)
{
	if (!c->po->failed)
		snprintf(c->po->why, sizeof c->po->why, "%s", why);
	c->po->failed = true;
	c->sh->stop = 1;
}

static void coord_msg(struct coord *c, int i, uint32_t type, struct buf *b)
{
	struct wk *w = &c->w[i];
	uint32_t epoch;
	uint64_t dest;
	int to;

	c->traffic[type % 64].n++;
	c->traffic[type % 64].bytes += 8 + b->n;
	if (type == W_RESULTS) {
		w->results = *b;
		*b = (struct buf){ 0 };
		w->has_results = true;
		return;
	}
	if (type == W_IDLE) {
		w->acked = get64(b);
		w->idle = true;
		return;
	}
	if (type == W_FAILED) {
		char *why = get_str(b);
		fail(c, why ? why : "a worker failed");
		free(why);
		return;
	}
	epoch = get32(b);
	if (type == W_ITEM) {
		w->steal = false;
		if (epoch != c->epoch || b->n == 4) {
			w->dry = clock_s() + 0.002;
			return;
		}
		enqueue(c, b);
		return;
	}
	if (type == W_RESTART) {
		/* escapes only grow: keep the union, and reset everybody
		 * when it grows (or when a current worker asks: it waits) */
		size_t grew = 0;
		while (b->n - b->off >= 8)
			grew += esc_add(&c->esc, get64(b), 8);
		if (!grew && epoch != c->epoch)
			return; /* its escapes are in the reset sent since */
	} else if (epoch != c->epoch) {
		return; /* from before a reset */
	}
	switch (type) {
	case W_NEWTASK:
		route_set(c, get64(b), i);
		break;
	case W_RESTART: {
		struct buf r = { 0 };
		c->epoch++;
		c->po->restarts++;
		c->nroutes = 0;
		while (c->nqueue)
			buf_free(&c->queue[--c->nqueue]);
		put32(&r, c->epoch);
		for (size_t e = 0; e < c->esc.cap; e++)
			if (c->esc.slot[e])
				put64(&r, (c->esc.slot[e] - 1) << 3);
		for (int j = 0; j < c->n; j++)
			to_worker(c, j, C_RESET, &r);
		buf_free(&r);
		start_root(c);
		break;
	}
	case W_RACE:
	case W_SLEEPER:
	case W_DONE:
		dest = get64(b);
		if (type == W_DONE) {
			uint64_t id;
			uint8_t pruned;
			b->off += 8; /* depth, tid */
			id = get64(b);
			get(b, &pruned, 1);
			c->pruned |= pruned;
			route_get(c, id, true);
			if (!dest)
				break; /* the root: nobody waits for it */
		}
		to = route_get(c, dest, false);
		if (to < 0) {
			fail(c, "internal error: --jobs: a message for a task "
				"nobody owns");
			break;
		}
		to_worker(c, to, type - W_RACE + C_RACE, b);
		break;
	}
}

/* A worker is gone without its results: under --jobs the search failed;
 * on another rank the search cannot complete (its tasks are lost), and
 * silent: that rank is dead (the job is aborted at the end). */
static void worker_lost(struct coord *c, struct wk *w, bool silent)
{
	bool had = w->gone || w->has_results;

	w->gone = true;
	if (had)
		return;
	if (w->fd >= 0) {
		fail(c, "a --jobs worker died");
		return;
	}
	if (!c->ranks[w->rank].lost)
		fprintf(stderr, "x86smc: %s MPI rank %d: the search is not "
			"complete\n", silent ? "no word from" : "a worker died on",
			w->rank);
	c->ranks[w->rank].lost = true;
	ranks_lost |= silent;
	c->po->lost = true;
	c->sh->stop = 1;
}

/* Bytes of a worker on another rank: the whole messages among them. */
static void remote_bytes(struct coord *c, int i, const void *p, size_t n)
{
	struct wk *w = &c->w[i];
	struct buf pl = { 0 };
	uint32_t h[2];

	put(&w->in, p, n);
	while (!w->in.bad && w->in.n - w->in.off >= sizeof h) {
		memcpy(h, w->in.p + w->in.off, sizeof h);
		if (w->in.n - w->in.off - sizeof h < h[1])
			break;
		buf_free(&pl);
		put(&pl, w->in.p + w->in.off + sizeof h, h[1]);
		w->in.off += sizeof h + h[1];
		coord_msg(c, i, h[0], &pl);
	}
	if (w->in.bad || pl.bad) {
		worker_lost(c, w, false);
	} else {
		memmove(w->in.p, w->in.p + w->in.off, w->in.n - w->in.off);
		w->in.n -= w->in.off;
		w->in.off = 0;
	}
	buf_free(&pl);
}

static void rank_msg(struct coord *c, int from, struct buf *b)
{
	struct rank_state *rs = &c->ranks[from];
	uint32_t kind = get32(b), lw;
	uint8_t f[2];

	rs->heard = clock_s();
	if (kind == L_STATE) {
		rs->started = get64(b);
		get(b, f, 2);
		if (!b->bad && f[0])
			c->sh->stop = 1;
		if (!b->bad && f[1])
			c->sh->limit = 1;
		return;
	}
	lw = get32(b);
	if (b->bad || lw >= (uint32_t)c->per || c->w[from * c->per + (int)lw].gone)
		return;
	if (kind == L_GONE)
		worker_lost(c, &c->w[from * c->per + (int)lw], false);
	else if (kind == L_BYTES)
		remote_bytes(c, from * c->per + (int)lw, b->p + b->off,
			     b->n - b->off);
}

/* The other ranks' messages that have arrived: how many. */
static int ranks_poll(struct coord *c)
{
	void *p;
	size_t n;
	int from, got = 0;

	while (dist_recv(0, &from, &p, &n) == 1) {
		struct buf b = { .p = p, .n = n, .cap = n };
		if (from > 0 && from < c->nranks)
			rank_msg(c, from, &b);
		buf_free(&b);
		got++;
	}
	return got;
}

/* Has a worker whose socket there is open (its relay beats). */
static bool rank_busy(const struct coord *c, int r)
{
	for (int i = r * c->per; i < (r + 1) * c->per; i++)
		if (!c->w[i].gone)
			return true;
	return false;
}

/* Tell each rank whether to stop, and under a budget (--max-executions,
 * random, pct) what the others began (at most every 10 ms); at least
 * every RANK_BEAT s (its relay's sign of life).  A silent rank is lost. */
static void ranks_sync(struct coord *c)
{
	uint64_t all = 0;
	double t = clock_s();
	bool budget = c->o->max_executions || c->sample;

	for (int r = 1; r < c->nranks; r++)
		all += c->ranks[r].started;
	c->sh->base = all;
	for (int r = 1; r < c->nranks; r++) {
		struct rank_state *rs = &c->ranks[r];
		uint8_t f = (c->sh->stop != 0) | (c->sh->limit != 0) << 1;
		uint64_t base = c->sh->started + all - rs->started;
		struct buf b = { 0 };
		if (rs->lost || !rank_busy(c, r))
			continue;
		if (t - rs->heard > RANK_SILENCE) {
			for (int i = r * c->per; i < (r + 1) * c->per; i++)
				worker_lost(c, &c->w[i], true);
			continue;
		}
		if (f == rs->flags && t < rs->sent + RANK_BEAT &&
		    (!budget || base == rs->base || t < rs->sent + 0.01))
			continue;
		put32(&b, L_STATE);
		put64(&b, base);
		put(&b, (uint8_t[]){ f & 1, f >> 1 }, 2);
		if (!b.bad && dist_send(r, b.p, b.n) == 0) {
			rs->base = base;
			rs->flags = f;
			rs->sent = t;
		}
		buf_free(&b);
	}
}

/* Wait for the workers' messages (timeout in ms) and handle them. */
static void coord_poll(struct coord *c, int timeout)
{
	struct pollfd *pf = c->pf;
	struct buf b = { 0 };
	uint32_t type;

	for (int i = 0; i < c->n; i++) {
		struct wk *w = &c->w[i];
		pf[i] = (struct pollfd){ w->gone ? -1 : w->fd, POLLIN, 0 };
		if (w->out.n > w->out.off && w->fd >= 0)
			pf[i].events |= POLLOUT;
	}
	/* dist_recv has no file descriptor to poll */
	if (c->nranks > 1 && timeout > c->nap)
		timeout = c->nap;
	int got = poll(pf, (nfds_t)c->n, timeout);
	if (got > 0) {
		for (int i = 0; i < c->n; i++) {
			struct wk *w = &c->w[i];
			if (pf[i].revents & POLLOUT)
				flush_out(w);
			if (!(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (recv_msg(w->fd, &type, &b) < 0) {
				worker_lost(c, w, false);
				continue;
			}
			coord_msg(c, i, type, &b);
		}
	}
	buf_free(&b);
	if (c->nranks > 1) {
		got += ranks_poll(c);
		c->nap = got > 0 ? 1 : c->nap < NAP_MAX ? 2 * c->nap : NAP_MAX;
		ranks_sync(c);
	}
}

static void merge(struct coord *c, struct buf *b)
{
	struct results *r = c->res;
	uint64_t n[18];
	bool lead = false; /* this worker's errors[0] is the reported one */

	get(b, n, sizeof n);
	get(b, r->nondet_unmodelled, sizeof r->nondet_unmodelled);
	r->nondet_unmodelled[sizeof r->nondet_unmodelled - 1] = 0;
	r->nondet_bounded |= (uint32_t)n[12];
	r->executions += n[0];
	r->blocked_executions += n[1];
	r->assume_blocked += n[2];
	r->events += n[3];
	r->ptrace_stops += n[4];
	r->max_steps_cut += n[5];
	r->pso_shared += n[6];
	r->sanity_checked += n[7];
	r->sanity_mismatches += n[8];
	c->po->snapshots |= n[9] != 0;
	r->replayed += n[10];
	r->checkpoints += n[11];
	r->timeouts_pruned += n[13];
	r->threads_cut += n[14];
	r->samples += n[15];
	r->spin_live += n[16];
	r->timeout_cut += n[17];
	for (uint64_t i = get64(b); i > 0 && !b->bad; i--) {
		struct outcome o = { 0 };
		o.len = get64(b);
		if (b->bad || b->n - b->off < o.len)
			break;
		o.out = (char *)b->p + b->off;
		b->off += o.len;
		get(b, o.status, sizeof o.status);
		o.status[sizeof o.status - 1] = 0;
		o.count = get64(b);
		char *wit = get_str(b);
		const struct outcome *have = results_find_outcome(r, &o);
		if (have) {
			((struct outcome *)have)->count += o.count;
		} else if (results_add_outcome(r, o.out, o.len, o.status,
					       wit) == 0) {
			r->outcomes[r->noutcomes - 1].count = o.count;
		}
		free(wit);
	}
	for (uint64_t i = get64(b); i > 0 && !b->bad; i--) {
		struct error_rec e;
		get(b, &e, sizeof e);
		e.kind[sizeof e.kind - 1] = e.location[sizeof e.location - 1] = 0;
		e.trace = get_str(b);
		e.schedule = get_str(b);
		e.dot = get_str(b);
		e.sarif = get_str(b);
		e.witness = get_str(b);
		struct error_rec *o = NULL;
		for (size_t j = 0; j < r->nerrors && !o; j++)
			if (!strcmp(r->errors[j].kind, e.kind) &&
			    !strcmp(r->errors[j].location, e.location))
				o = &r->errors[j];
		if (o && (e.preemptions >= o->preemptions ||
			  (o->trace && !e.trace))) {
			free(e.trace);
			free(e.schedule);
			free(e.dot);
			free(e.sarif);
			free(e.witness);
			continue;
		}
		if (o) {
			free(o->trace);
			free(o->schedule);
			free(o->dot);
			free(o->sarif);
			free(o->witness);
		} else if (!(o = results_add_error(r))) {
			free(e.trace);
			free(e.schedule);
			free(e.dot);
			free(e.sarif);
			free(e.witness);
			continue;
		}
		*o = e;
		o->trace_file[0] = 0;
		if (o == r->errors && e.trace)
			lead = true;
	}
	int nre = (int32_t)get32(b);
	struct reorder_rec re[4];
	get(b, re, sizeof re);
	if (lead && !b->bad && nre >= 0 && nre <= 4) {
		memcpy(r->reorders, re, sizeof re);
		r->nreorders = nre;
	}
	for (uint64_t i = get64(b); i > 0 && !b->bad; i--)
		hashset_add(c->hs, get64(b));
}

/* Fork this machine's workers: c->w[0 .. c->per - 1], numbered from
 * first (worker numbers make task ids unique in the job) and pinned to
 * this rank's share of the CPUs. */
/* -v: what the coordinator's sockets (and the network, under MPI)
 * carried, by message type (docs/DISTRIBUTED.md). */
static void print_traffic(const struct coord *c)
{
	static const char *name[64] = {
		[W_IDLE] = "idle", [W_ITEM] = "stolen task", [W_NEWTASK] = "new task",
		[W_RACE] = "race", [W_SLEEPER] = "sleeper", [W_DONE] = "done",
		[W_RESTART] = "restart", [W_FAILED] = "failed",
		[W_RESULTS] = "results", [C_ITEM] = "task sent",
		[C_STEAL] = "steal request", [C_RACE] = "race routed",
		[C_SLEEPER] = "sleeper routed", [C_DONE] = "done routed",
		[C_RESET] = "reset", [C_END] = "end",
	};
	uint64_t n = 0, bytes = 0;

	for (int t = 0; t < 64; t++) {
		const struct traffic *f = &c->traffic[t];
		if (!f->n)
			continue;
		n += f->n;
		bytes += f->bytes;
		fprintf(stderr, "x86smc: traffic: %-14s %8lu messages %10lu "
			"bytes (%lu per message)\n", name[t] ? name[t] : "?",
			(unsigned long)f->n, (unsigned long)f->bytes,
			(unsigned long)(f->bytes / f->n));
	}
	fprintf(stderr, "x86smc: traffic: %lu messages, %lu bytes, %d workers "
		"on %d rank%s\n", (unsigned long)n, (unsigned long)bytes, c->n,
		c->nranks, c->nranks == 1 ? "" : "s");
}

static int spawn(struct coord *c, const struct options *wo, int first)
{
	int share = dist_local_rank() * c->per;
	cpu_set_t set;
	int cpus[CPU_SETSIZE], ncpus = 0;

	if (sched_getaffinity(0, sizeof set, &set) == 0)
		for (int i = 0; i < CPU_SETSIZE; i++)
			if (CPU_ISSET(i, &set))
				cpus[ncpus++] = i;
	if (!ncpus)
		cpus[ncpus++] = 0;
	fflush(stdout);
	fflush(stderr);
	for (int i = 0; i < c->per; i++) {
		int sv[2];
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
			return -1;
		pid_t parent = getpid(), pid = fork();
		if (pid < 0) {
			close(sv[0]);
			close(sv[1]);
			return -1;
		}
		if (pid == 0) {
			/* die with the coordinator, even if it is already gone
			 * (SIGKILLed before this line: seen under load, a
			 * worker left exploring for ever) */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(1);
			close(sv[0]);
			for (int j = 0; j < i; j++)
				close(c->w[j].fd);
			_exit(worker_main(wo, first + i,
					  cpus[(share + i) % ncpus], sv[1],
					  c->sh));
		}
		close(sv[1]);
		fcntl(sv[0], F_SETFL, fcntl(sv[0], F_GETFL) | O_NONBLOCK);
		c->w[i].pid = pid;
		c->w[i].fd = sv[0];
	}
	return 0;
}

void parallel_explore(const struct options *o, struct results *res,
		      struct hashset *hs, bool exhaustive, long bound,
		      long top, struct par_outcome *po)
{
	struct options wo = *o;
	struct coord c = { .o = o, .res = res, .hs = hs, .po = po,
			   .exhaustive = exhaustive, .bound = bound };
	bool finished = false;

	c.sample = o->strategy == STRAT_RANDOM || o->strategy == STRAT_PCT;
	c.per = o->jobs < 256 ? o->jobs : 256;
	c.nranks = o->nested ? 1 : dist_size();
	c.n = c.per * c.nranks;
	po->bound = bound;
	wo.trace_out = wo.json = NULL; /* the coordinator writes them */
	c.sh = mmap(NULL, sizeof *c.sh, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	c.w = calloc((size_t)c.n, sizeof *c.w);
	c.pf = calloc((size_t)c.n, sizeof *c.pf);
	c.ranks = calloc((size_t)c.nranks, sizeof *c.ranks);
	if (c.sh == MAP_FAILED || !c.w || !c.pf || !c.ranks) {
		fail(&c, "--jobs: out of memory");
		c.sh = NULL;
		goto out;
	}
	c.sh->stride = (unsigned)c.nranks;
	c.nap = 1;
	for (int i = 0; i < c.n; i++)
		c.w[i] = (struct wk){ .fd = -1, .rank = i / c.per,
				      .lw = i % c.per };
	ranks_start(&c, &wo);
	if (spawn(&c, &wo, 0) < 0) {
		fail(&c, "--jobs: cannot start the workers");
		goto collect;
	}
	if (!c.sample)
		start_root(&c);
	for (;;) {
		if (proc_interrupted()) {
			po->interrupted = true;
			c.sh->stop = 1;
		}
		if (c.sh->stop || c.sh->limit)
			break;
		if (all_idle(&c)) {
			/* the tree is explored: the next icb bound, or done */
			if (o->strategy == STRAT_ICB && c.pruned &&
			    c.bound < top) {
				c.bound++;
				po->bound = c.bound;
				start_root(&c);
				continue;
			}
			finished = true;
			break;
		}
		assign(&c);
		for (int i = 0; i < c.n; i++)
			flush_out(&c.w[i]);
		coord_poll(&c, 20);
	}
	po->complete = finished && !c.sample && !c.pruned && !po->failed;
	po->bound_done = finished && !c.sample && c.bound >= 0;
collect:
	for (int i = 0; i < c.n; i++) {
		to_worker(&c, i, C_END, NULL);
		if (!c.w[i].pid && !c.w[i].rank)
			c.w[i].gone = true; /* never started */
	}
	/* A worker finishes its execution first: on a loaded machine that
	 * takes what it takes (a slow worker is not a dead one; one that
	 * dies closes its socket: coord_poll).  Only when stopping (SIGINT,
	 * --timeout) a worker gets 3 s, then is killed (its target and
	 * checkpoints die with it: PTRACE_O_EXITKILL). */
	double deadline = -1;
	for (;;) {
		bool waiting = false;
		/* another rank's worker: until its socket closed there
		 * (the next search must not hear of this one) */
		for (int i = 0; i < c.n; i++)
			waiting |= !c.w[i].gone &&
				   (!c.w[i].has_results || c.w[i].fd < 0);
		if (!waiting)
			break;
		/* (mpirun kills what is left 1 s after its SIGTERM) */
		if (deadline < 0 && (po->interrupted || proc_interrupted()))
			deadline = clock_s() + (c.nranks > 1 ? 0.3 : 3);
		if (deadline >= 0 && clock_s() > deadline) {
			for (int i = 0; i < c.n; i++)
				if (!c.w[i].gone && !c.w[i].has_results) {
					if (c.w[i].pid > 0)
						kill(c.w[i].pid, SIGKILL);
					c.w[i].gone = true;
				}
			fprintf(stderr, "x86smc: a worker did not stop within "
				"%s s: its results are lost\n",
				c.nranks > 1 ? "0.3" : "3");
			po->complete = false;
			break;
		}
		for (int i = 0; i < c.n; i++)
			flush_out(&c.w[i]);
		coord_poll(&c, 100);
	}
	for (int i = 0; i < c.n; i++) {
		struct wk *w = &c.w[i];
		if (w->has_results)
			merge(&c, &w->results);
		buf_free(&w->results);
		buf_free(&w->in);
		buf_free(&w->out);
		if (w->pid > 0) {
			close(w->fd);
			while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
	}
	if (log_verbose)
		print_traffic(&c);
out:
	while (c.nqueue)
		buf_free(&c.queue[--c.nqueue]);
	free(c.queue);
	free(c.routes);
	esc_free(&c.esc);
	free(c.w);
	free(c.pf);
	free(c.ranks);
	if (c.sh)
		munmap(c.sh, sizeof *c.sh);
}

/* ---- MPI: the other ranks ---- */

static void ranks_start(struct coord *c, const struct options *wo)
{
	struct buf b = { 0 };

	put32(&b, L_START);
	put(&b, (uint8_t[]){ (uint8_t)wo->model, wo->keep_going }, 2);
	for (int r = 1; r < c->nranks; r++) {
		c->ranks[r].heard = clock_s();
		if (b.bad || dist_send(r, b.p, b.n) < 0)
			for (int i = r * c->per; i < (r + 1) * c->per; i++)
				worker_lost(c, &c->w[i], true);
	}
	buf_free(&b);
}

/* A relay: this rank's workers (struct coord holds only them here). */
struct relay {
	struct coord c;
	double heard, told; /* rank 0's last message; our last state */
	unsigned long started; /* as last told */
	uint8_t flags;
	bool budget; /* executions begun matter (ranks_sync) */
	int nap, got; /* as struct coord's nap; messages this round */
};

static void relay_send(uint32_t kind, int lw, const void *p, size_t n)
{
	struct buf b = { 0 };

	put32(&b, kind);
	if (lw >= 0)
		put32(&b, (uint32_t)lw);
	put(&b, p, n);
	/* rank 0 gone: it goes silent, relay_serve stops */
	if (b.bad || dist_send(0, b.p, b.n) < 0)
		b.n = 0;
	buf_free(&b);
}

/* Rank 0's messages during a search; false: L_QUIT. */
static bool relay_recv(struct relay *y)
{
	struct coord *c = &y->c;
	void *p;
	size_t n;
	int from;
	bool more = true;

	while (dist_recv(0, &from, &p, &n) == 1) {
		struct buf b = { .p = p, .n = n, .cap = n };
		uint32_t kind = get32(&b), lw;
		uint8_t f[2];
		y->heard = clock_s();
		if (kind == L_QUIT)
			more = false;
		if (kind == L_STATE) {
			c->sh->base = get64(&b);
			get(&b, f, 2);
			if (!b.bad && f[0])
				c->sh->stop = 1;
			if (!b.bad && f[1])
				c->sh->limit = 1;
		}
		if (kind == L_BYTES && (lw = get32(&b)) < (uint32_t)c->per &&
		    !b.bad && !c->w[lw].gone)
			put(&c->w[lw].out, b.p + b.off, b.n - b.off);
		buf_free(&b);
		y->got++;
	}
	return more;
}

/* Our state to rank 0: when it changes (executions begun: only under a
 * budget, at most every 10 ms) and every RANK_BEAT s. */
static void relay_state(struct relay *y)
{
	struct shared *sh = y->c.sh;
	uint8_t f = (sh->stop != 0) | (sh->limit != 0) << 1;
	double t = clock_s();
	struct buf b = { 0 };

	if (f == y->flags && t < y->told + RANK_BEAT &&
	    (!y->budget || sh->started == y->started || t < y->told + 0.01))
		return;
	put64(&b, sh->started);
	put(&b, (uint8_t[]){ f & 1, f >> 1 }, 2);
	relay_send(L_STATE, -1, b.p, b.n);
	buf_free(&b);
	y->told = t;
	y->flags = f;
	y->started = sh->started;
}

/* Bytes from worker lw to rank 0; its socket closing, as L_GONE. */
static void relay_read(struct relay *y, int lw)
{
	struct wk *w = &y->c.w[lw];
	uint8_t p[65536];
	ssize_t k = read(w->fd, p, sizeof p);

	if (k < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (k > 0) {
		relay_send(L_BYTES, lw, p, (size_t)k);
		y->got++;
		return;
	}
	w->gone = true;
	relay_send(L_GONE, lw, NULL, 0);
}

/* One search: relay until every worker has ended.  false: rank 0 said
 * L_QUIT or is lost. */
static bool relay_search(struct relay *y)
{
	struct coord *c = &y->c;
	double deadline = -1;
	bool more = true;

	for (;;) {
		int live = 0;
		for (int i = 0; i < c->per; i++) {
			struct wk *w = &c->w[i];
			c->pf[i] = (struct pollfd){ w->gone ? -1 : w->fd,
						    POLLIN, 0 };
			if (w->out.n > w->out.off)
				c->pf[i].events |= POLLOUT;
			live += !w->gone;
		}
		if (!live)
			break;
		poll(c->pf, (nfds_t)c->per, y->nap);
		y->got = 0;
		for (int i = 0; i < c->per; i++) {
			if (c->pf[i].revents & POLLOUT)
				flush_out(&c->w[i]);
			if (c->pf[i].revents & (POLLIN | POLLHUP | POLLERR))
				relay_read(y, i);
		}
		more &= relay_recv(y);
		y->nap = y->got ? 1 : y->nap < NAP_MAX ? 2 * y->nap : NAP_MAX;
		relay_state(y);
		/* SIGTERM (mpirun ending the job), rank 0 gone: the workers
		 * stop at once, and get 1 s */
		if (proc_interrupted() || !more ||
		    clock_s() - y->heard > RANK_SILENCE) {
			c->sh->stop = 1;
			if (deadline < 0)
				deadline = clock_s() + 1;
		}
		if (deadline >= 0 && clock_s() > deadline)
			for (int i = 0; i < c->per; i++)
				if (!c->w[i].gone) {
					kill(c->w[i].pid, SIGKILL);
					c->w[i].gone = true;
				}
	}
	return more && !proc_interrupted() && clock_s() - y->heard <= RANK_SILENCE;
}

/* Wait for L_START (true, with its options) or L_QUIT. */
static bool relay_wait(struct relay *y, struct options *wo)
{
	while (!proc_interrupted()) {
		void *p;
		size_t n;
		int from;
		if (dist_recv(100, &from, &p, &n) != 1)
			continue;
		struct buf b = { .p = p, .n = n, .cap = n };
		uint32_t kind = get32(&b);
		uint8_t f[2];
		get(&b, f, 2);
		buf_free(&b);
		if (kind == L_QUIT)
			return false;
		if (kind == L_START) {
			wo->model = (enum model)f[0];
			wo->keep_going = f[1];
			y->heard = clock_s();
			return true;
		}
	}
	return false;
}

void parallel_serve(const struct options *o)
{
	struct options wo = *o;
	struct relay y = { 0 };
	struct coord *c = &y.c;
	bool more = true;

	wo.trace_out = wo.json = NULL;
	y.budget = o->max_executions || o->strategy == STRAT_RANDOM ||
		   o->strategy == STRAT_PCT;
	c->per = o->jobs < 256 ? o->jobs : 256;
	c->w = calloc((size_t)c->per, sizeof *c->w);
	c->pf = calloc((size_t)c->per, sizeof *c->pf);
	while (more && c->w && c->pf && relay_wait(&y, &wo)) {
		c->sh = mmap(NULL, sizeof *c->sh, PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (c->sh == MAP_FAILED)
			break;
		c->sh->stride = (unsigned)dist_size();
		c->sh->offset = (unsigned)dist_rank();
		memset(c->w, 0, (size_t)c->per * sizeof *c->w);
		y.started = 0;
		y.flags = 0;
		y.told = 0;
		y.nap = 1;
		if (spawn(c, &wo, dist_rank() * c->per) < 0)
			for (int i = 0; i < c->per; i++)
				if (!c->w[i].pid) {
					c->w[i].gone = true;
					relay_send(L_GONE, i, NULL, 0);
				}
		more = relay_search(&y);
		for (int i = 0; i < c->per; i++) {
			struct wk *w = &c->w[i];
			buf_free(&w->out);
			if (w->pid > 0) {
				close(w->fd);
				while (waitpid(w->pid, NULL, 0) < 0 &&
				       errno == EINTR)
					;
			}
		}
		munmap(c->sh, sizeof *c->sh);
	}
	free(c->w);
	free(c->pf);
}

int parallel_ranks_end(int status)
{
	struct buf b = { 0 };

	put32(&b, L_QUIT);
	for (int r = 1; r < dist_size() && !b.bad; r++)
		if (dist_send(r, b.p, b.n) < 0)
			ranks_lost = true;
	buf_free(&b);
	dist_end(status, ranks_lost);
	return status;
}
