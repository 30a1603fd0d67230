/* explore.c — drive the executions of the target.
 *
 * Strategies dpor (the default) and exhaustive: dpor.c decides the thread
 * at every scheduling point; each execution starts the target afresh and
 * replays the schedule prefix of the branch being explored (re-execution;
 * fork snapshots are the planned optimization, docs/EXPLORATION.md).
 * --replay runs one execution of a schedule file.
 *
 * When no thread can run, a timed wait times out if there is one (the
 * virtual clock jumps), else the execution is a deadlock. */
#include "dpor/explore.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "dpor/dpor.h"
#include "dpor/explore_int.h"
#include "dpor/hooks.h"
#include "dpor/lang.h"
#include "dpor/parallel.h"
#include "dpor/races.h"
#include "dpor/schedule.h"
#include "dist/dist.h"
#include "report/dot.h"
#include "report/sarif.h"
#include "report/svcomp.h"
#include "report/witness.h"
#include "report/sym.h"
#include "report/trace.h"
#include "tracer/escape.h"
#include "tracer/log.h"
#include "tracer/proc.h"
#include "tracer/prof.h"
#include "tracer/tracer.h"

/* Checkpoints (docs/PERFORMANCE.md, "Snapshot policy"): a fork of the
 * target along the current path, CP_GAP events after the last one plus a
 * quarter of its depth (so a very long execution takes a few dozen, not
 * one per CP_GAP events), at most CP_MAX alive; an execution continues
 * from the deepest one within its replayed prefix instead of replaying
 * the prefix from the start.  Also one at the execution's branch point
 * (dpor_prefix) when CP_BRANCH_GAP events or more lie since the last. */
#define CP_GAP 24
#define CP_MAX 32
#define CP_BRANCH_GAP 8 /* replayed events a branch checkpoint saves */
#define CP_STOP_GAP 40  /* stops since the last checkpoint that make one
			 * worth a fork (~10 us a stop, ~400 us a fork) */
#define FENCE_MIN 0.1    /* the fence check's default budget (s): at */
#define FENCE_MAX 10.0   /* least, at most (a quarter of the search) */
#define FENCE_RUNS 64    /* and each of its searches runs at least this
			  * many executions, whatever the time */
#define PCT_MAX_DEPTH 8 /* bug depth d: d - 1 priority change points */
#define PCT_DEPTH 3

struct explorer {
	const struct options *o;
	struct results *res;
	struct symtab *sym;
	struct escape_set escapes;
	struct dpor *dpor;
	struct schedule done;          /* schedule of the current execution */
	struct sched_cursor replay;    /* --replay */
	struct tracer *t;
	int cur;
	bool show;                     /* print each event (-vv) */
	bool progress;                 /* progress line on stderr (a tty) */
	double last_progress;
	bool hooks_tried;
	bool use_snapshots, snapshots; /* wanted; taken */
	unsigned long snapshot_forks;
	struct hashset hs;             /* distinct trace hashes seen */
	bool debug_hash;               /* X86SMC_DEBUG_HASH: print them */
	bool optimal;                  /* the search is Optimal-DPOR's */
	int cpu;                       /* to pin the tracer to, -1: current */
	bool use_cps;                  /* checkpoints (X86SMC_NO_CHECKPOINTS) */
	uint64_t cp_stops; /* the tracer's stops at the last checkpoint (or
			    * the execution's start) */
	struct {                       /* live checkpoints of the tree cp_tree, */
		unsigned depth;        /* by depth: taken after that many  */
		struct tr_checkpoint *c; /* events of the current path   */
	} cp[CP_MAX];
	int ncp;
	uint64_t cp_tree;              /* dpor_serial of their tree */
	unsigned start_k;              /* events the execution resumed after */
	volatile int *abort;           /* --jobs: set when to stop at once */
	char why[600];
	/* --strategy random / pct: the generator, and PCT's priorities */
	uint64_t rng;
	int prio[TR_MAX_THREADS];      /* pct: higher runs first */
	unsigned change[PCT_MAX_DEPTH]; /* pct: steps where the running */
	int nchange;                   /* thread drops to priority i */
	unsigned last_len;             /* events of the previous execution */
	long bound;                    /* icb: the current bound */
	bool bound_done;               /* every execution within it ran */
	struct races *races;           /* --races: the monitor (races.h) */
	bool probing;                  /* --estimate: random choices */
	bool sampling;                 /* a PCT sample beside the search */
	unsigned long stream;          /* its seeds' stream (a --jobs worker) */
};

static const char *signame(int sig, char *buf, size_t n)
{
	const char *a = sigabbrev_np(sig);

	if (a)
		snprintf(buf, n, "SIG%s", a);
	else
		snprintf(buf, n, "signal %d", sig);
	return buf;
}

static void where(struct explorer *x, uint64_t pc, char *buf, size_t n)
{
	if (x->sym && pc)
		sym_describe(x->sym, pc, buf, n);
	else
		snprintf(buf, n, "%#lx", (unsigned long)pc);
}

/* ---- outcome and error of one execution ---- */

/* -v: where each live thread was when --max-steps cut the execution (a
 * loop no await detection caught is usually one of these). */
static void log_cut(struct explorer *x)
{
	char b[160];

	for (int i = 0; i < tracer_nthreads(x->t); i++) {
		const struct tr_thread_info *ti = tracer_thread(x->t, i);
		if (ti->status == TS_EXITED || !ti->pending_known)
			continue;
		where(x, ti->pending.pc, b, sizeof b);
		pr_debug("cut: thread %d %s at %s", i,
			 ti->status == TS_BLOCKED ? "blocked" : "runnable", b);
	}
}

static void describe_deadlock(struct explorer *x, struct error_rec *e)
{
	size_t len = 0;
	char a[160], b[160];

	len += (size_t)snprintf(e->message, sizeof e->message,
				"every live thread is blocked:");
	for (int i = 0; i < tracer_nthreads(x->t); i++) {
		const struct tr_thread_info *ti = tracer_thread(x->t, i);
		if (ti->status != TS_BLOCKED || len >= sizeof e->message)
			continue;
		/* a return address: its line is the call's, one byte back;
		 * the program's own call if the stack unwinds to one (Rust's
		 * std is in the executable: its futex_wait is no answer) */
		uint64_t caller = tracer_user_pc(x->t, i);
		if (!caller)
			caller = ti->wait_caller;
		where(x, caller ? caller - 1 : 0, b, sizeof b);
		if (ti->wait == TW_JOIN)
			snprintf(a, sizeof a, "joins thread %d", ti->wait_for);
		else if (ti->wait == TW_AWAIT) {
			/* a spin loop: where, and what it keeps reading */
			size_t k = 0;
			char s[128];
			where(x, ti->wait_pc, b, sizeof b);
			k += (size_t)snprintf(a, sizeof a, "%s",
					      ti->nawait
						      ? "spins reading"
						      : "loops for ever on its "
							"own data (reads nothing "
							"shared)");
			for (int j = 0; j < ti->nawait && k < sizeof a; j++) {
				where(x, ti->await_addr[j], s, sizeof s);
				k += (size_t)snprintf(a + k, sizeof a - k,
						      "%s %s", j ? "," : "", s);
			}
			len += (size_t)snprintf(e->message + len,
						sizeof e->message - len,
						" thread %d %s, at %s;", i, a,
						b);
			if (e->pc == 0) {
				e->pc = ti->wait_pc;
				e->thread = i;
			}
			continue;
		} else {
			static const char *const what[] = {
				[TW_MUTEX] = "waits for mutex ",
				[TW_COND] = "waits on condition variable ",
				[TW_SEM] = "waits on semaphore ",
				[TW_BARRIER] = "waits at barrier ",
				[TW_RWLOCK] = "waits for rwlock ",
				[TW_WORD_LOCK] = "waits for mutex ",
				[TW_ONCE] = "waits for the initialisation of ",
				[TW_LOCK_PI] = "waits for PI lock ",
				[TW_SIGWAIT] = "waits for a signal (sigwait) ",
			};
			char s[128];
			where(x, ti->wait_addr, s, sizeof s);
			snprintf(a, sizeof a, "%s%s",
				 what[ti->wait] ? what[ti->wait] : "waits on ",
				 s);
		}
		len += (size_t)snprintf(e->message + len,
					sizeof e->message - len,
					" thread %d %s, called from %s;", i, a,
					b);
		if (e->pc == 0) {
			e->pc = caller;
			e->thread = i;
		}
	}
}

static void describe_signal(const struct tr_end *end, struct error_rec *e,
			    const char *sn)
{
	e->thread = end->tid;
	e->pc = end->pc;
	if (end->sig == SIGABRT) {
		strcpy(e->kind, "assertion");
		if (end->asserted)
			e->pc = end->assert_call;
		snprintf(e->message, sizeof e->message, "%s",
			 end->asserted ? end->message : "abort() was called");
	} else if (end->sig == SIGSEGV || end->sig == SIGBUS ||
		   end->sig == SIGFPE || end->sig == SIGILL ||
		   end->sig == SIGTRAP) {
		strcpy(e->kind, "crash");
		snprintf(e->message, sizeof e->message,
			 "%s at pc %#lx, faulting address %#lx", sn,
			 (unsigned long)end->pc,
			 (unsigned long)end->fault_addr);
	} else {
		strcpy(e->kind, "signal");
		snprintf(e->message, sizeof e->message, "killed by %s", sn);
	}
}

/* __VERIFIER_error() or reach_error() was called. */
static void describe_error_call(struct explorer *x, const struct tr_end *end,
				struct error_rec *e)
{
	struct sym_info si = { 0 };

	strcpy(e->kind, "verifier-error");
	e->thread = end->tid;
	e->pc = end->pc;
	if (x->sym)
		sym_lookup(x->sym, end->callee, &si);
	snprintf(e->message, sizeof e->message, "%s() was called",
		 si.func ? si.func : "__VERIFIER_error");
}

/* Does "got" (n bytes) equal the file golden?  Else a message. */
static bool same_as(const char *got, size_t n, const char *golden,
		    const char *what, char *msg, size_t m)
{
	FILE *f = fopen(golden, "rb");
	size_t i = 0;
	int c;

	if (!f) {
		snprintf(msg, m, "cannot read %s", golden);
		return false;
	}
	while ((c = getc(f)) != EOF && i < n && got[i] == (char)c)
		i++;
	fclose(f);
	if (c == EOF && i == n)
		return true;
	snprintf(msg, m, "%s differs from %s at byte %zu (%s)", what, golden,
		 i, i == n ? "it is shorter" : c == EOF ? "it is longer"
							: "another byte");
	return false;
}

/* --expect-stdout, --expect-file: a run that exited as expected but
 * printed or wrote something else is an error of kind wrong-output. */
static int wrong_output(struct explorer *x, struct error_rec *e,
			const struct tr_end *end)
{
	const struct options *o = x->o;
	char msg[sizeof e->message];
	size_t n = 0;
	bool ok = true;

	if (o->expect_stdout) {
		const char *out = tracer_output(x->t, 1, &n);
		ok = same_as(out, n, o->expect_stdout, "stdout", msg,
			     sizeof msg);
	}
	for (int i = 0; ok && i < o->nexpect_files; i++) {
		char *buf = NULL;
		FILE *f = fopen(o->expect_path[i], "rb");
		FILE *mem = open_memstream(&buf, &n);
		int c;
		if (f && mem)
			while ((c = getc(f)) != EOF)
				putc(c, mem);
		if (mem)
			fclose(mem);
		if (f)
			fclose(f);
		ok = f && buf && same_as(buf, n, o->expect_golden[i],
					 o->expect_path[i], msg, sizeof msg);
		if (!f)
			snprintf(msg, sizeof msg, "%s was not written",
				 o->expect_path[i]);
		free(buf);
	}
	if (ok)
		return 0;
	strcpy(e->kind, "wrong-output");
	snprintf(e->message, sizeof e->message, "%s", msg);
	e->thread = end->tid;
	e->pc = end->pc; /* where it ended */
	return 1;
}

/* The error of this execution, if any, into *e; its outcome status into
 * status.  Returns 0 (no error), 1 (error), 2 (cannot go on), 3 (an
 * infeasible execution: a failed __VERIFIER_assume; no outcome). */
static int judge(struct explorer *x, struct error_rec *e, char *status,
		 size_t n)
{
	const struct tr_end *end = tracer_end(x->t);
	char sn[32], obj[160];

	memset(e, 0, sizeof *e);
	/* an end (an error, an exit) while a thread was held at the thread
	 * limit: the executions where it created more threads before that
	 * end were not explored (an infeasible one left out nothing) */
	if (end->kind != END_THREADS && end->kind != END_ASSUME &&
	    tracer_limit_held(x->t))
		x->res->threads_cut++;
	if (lang_judge(x->t, x->sym, e, status, n)) /* C++, Rust runtimes */
		return 1;
	switch (end->kind) {
	case END_EXIT:
		snprintf(status, n, "exit %d", end->status);
		if (end->status == x->o->expect_exit)
			return wrong_output(x, e, end);
		strcpy(e->kind, "exit-code");
		snprintf(e->message, sizeof e->message,
			 "the program exited with status %d%s", end->status,
			 x->o->expect_exit ? " (--expect-exit)" : "");
		e->thread = end->tid;
		return 1;
	case END_SIGNAL:
		snprintf(status, n, "signal %s",
			 signame(end->sig, sn, sizeof sn));
		describe_signal(end, e, sn);
		return 1;
	case END_DEADLOCK:
	case END_LIVELOCK:
		snprintf(status, n, "%s", end->kind == END_LIVELOCK
						  ? "livelock"
						  : "deadlock");
		strcpy(e->kind, status);
		describe_deadlock(x, e);
		return 1;
	case END_STEPS:
		snprintf(status, n, "max-steps");
		x->res->max_steps_cut++; /* the search is not complete */
		if (log_verbose)
			log_cut(x);
		return 0;
	case END_THREADS:
		snprintf(status, n, "thread-limit");
		x->res->threads_cut++; /* the search is not complete */
		return 0;
	case END_ASSUME:
		snprintf(status, n, "assume-blocked");
		return 3;
	case END_ERROR_CALL:
		snprintf(status, n, "verifier-error");
		describe_error_call(x, end, e);
		return 1;
	case END_MISUSE: /* a pthread object misused (tracer/sync.c) */
		snprintf(status, n, "misuse");
		strcpy(e->kind, "misuse");
		where(x, end->fault_addr, obj, sizeof obj);
		snprintf(e->message, sizeof e->message, "%s (%s)",
			 end->message, obj);
		e->thread = end->tid;
		e->pc = end->pc;
		return 1;
	default:
		snprintf(x->why, sizeof x->why, "%s: %s",
			 end->kind == END_UNSUPPORTED ? "unsupported"
						      : "internal error",
			 end->message);
		return 2;
	}
}

/* The header of the current execution's schedule: what --replay needs
 * besides the steps. */
static void schedule_header(struct explorer *x)
{
	snprintf(x->done.program, sizeof x->done.program, "%s",
		 x->o->argv[0]);
	snprintf(x->done.model, sizeof x->done.model, "%s",
		 model_name(x->o->model));
	x->done.nescapes = 0;
	for (size_t i = 0; i < x->escapes.cap; i++)
		if (x->escapes.slot[i])
			sched_add_escape(&x->done, (x->escapes.slot[i] - 1) << 3);
}

/* --trace-out: the reported error's schedule. */
static int write_trace(const struct options *o, struct error_rec *e)
{
	FILE *f;

	if (!o->trace_out || !e->schedule)
		return 0;
	f = fopen(o->trace_out, "w");
	if (!f) {
		fprintf(stderr, "x86smc: cannot write %s\n", o->trace_out);
		return -1;
	}
	fputs(e->schedule, f);
	fclose(f);
	snprintf(e->trace_file, sizeof e->trace_file, "%s", o->trace_out);
	return 0;
}

/* Keep the error if it is new (by kind and location) or has fewer
 * preemptions than the one of its kind already kept; schedule: its
 * execution's (copied).  Returns the record it was kept in, or NULL. */
static struct error_rec *record_error(struct explorer *x,
				      struct error_rec *e,
				      const char *schedule)
{
	struct error_rec *o;

	e->by_sample = x->sampling;
	o = results_keep_error(x->res, e);

	if (!o)
		return NULL;
	o->schedule = schedule ? strdup(schedule) : NULL;
	if (o == x->res->errors)
		write_trace(x->o, o);
	return o;
}

/* ---- the rendered trace (report/trace.h) ---- */

static int env_owner(void *ctx, uint64_t a, bool *tls)
{
	return tracer_mem_owner(ctx, a, tls);
}

static size_t env_insn(void *ctx, uint64_t pc, uint8_t *buf, size_t n)
{
	return tracer_insn(ctx, pc, buf, n);
}

/* The current execution's events for the renderer (free in->ev and
 * in->enabled). */
static int trace_input(struct explorer *x, struct trace_in *in,
		       const struct error_rec *e, const char *status)
{
	unsigned n = dpor_length(x->dpor), m = 0;
	struct tr_event *ev = malloc((n ? n : 1) * sizeof *ev);
	tset *en = malloc((n ? n : 1) * sizeof *en);
	const struct tr_end *end = tracer_end(x->t);

	if (!ev || !en) {
		free(ev);
		free(en);
		return -1;
	}
	for (unsigned k = 0; k < n; k++)
		if (dpor_event(x->dpor, k)) {
			ev[m] = *dpor_event(x->dpor, k);
			en[m++] = dpor_enabled(x->dpor, k);
		}
	*in = (struct trace_in){ .model = model_name(x->o->model), .ev = ev,
				 .enabled = en, .n = m,
				 .preemptions = dpor_preemptions(x->dpor),
				 .err = e, .status = status, .sig = end->sig,
				 .fault_addr = end->fault_addr };
	return 0;
}

/* tso/pso: the reorderings in the reported error's trace. */
static void note_reorders(struct explorer *x, const struct trace_env *env,
			  const struct trace_in *in)
{
	struct trace_reorder r[4];
	int n = x->o->model == MODEL_SC ? 0 : trace_reorders(env, in, r, 4);

	x->res->nreorders = n;
	for (int i = 0; i < n; i++) {
		struct reorder_rec *o = &x->res->reorders[i];
		o->thread = r[i].thread;
		o->store_pc = r[i].store_pc;
		o->load_pc = r[i].load_pc;
		o->fence_pc = r[i].fence_pc;
		o->store_store = r[i].store_store;
		o->recheck = false;
		where(x, r[i].store_pc, o->store, sizeof o->store);
		where(x, r[i].load_pc, o->load, sizeof o->load);
		where(x, r[i].fence_pc, o->fence_at, sizeof o->fence_at);
	}
}

/* Render the current execution: into the reported error's record, or
 * (kept NULL: a replay without error) into the results. */
static void note_trace(struct explorer *x, struct error_rec *kept,
		       const char *status)
{
	struct trace_env env = { x->sym, env_owner, env_insn, x->t,
				 x->o->frames_all };
	struct trace_in in;
	char *text;

	if (trace_input(x, &in, kept, status) < 0)
		return;
	text = trace_render(&env, &in);
	if (kept) {
		free(kept->trace);
		kept->trace = text;
		note_reorders(x, &env, &in);
	} else {
		free(x->res->trace);
		x->res->trace = text;
	}
	free((void *)in.ev);
	free((void *)in.enabled);
}

/* --dot/--svg, --sarif (main.c writes them; not for the fence check's
 * own explorations): the reported error's execution as a graph and as
 * SARIF code flows, and the source location of every other error. */
static void note_views(struct explorer *x, struct error_rec *kept,
		       const char *status)
{
	const struct options *o = x->o;
	struct trace_env env = { x->sym, env_owner, env_insn, x->t,
				 o->frames_all };
	struct trace_in in;

	if (o->nested || !(o->dot || o->svg || o->sarif))
		return;
	free(kept->dot);
	free(kept->sarif);
	kept->dot = kept->sarif = NULL;
	if (kept != x->res->errors) {
		kept->sarif = o->sarif ? sarif_note(&env, NULL, kept) : NULL;
		return;
	}
	if (trace_input(x, &in, kept, status) < 0)
		return;
	kept->dot = o->dot || o->svg ? dot_render(&env, &in) : NULL;
	kept->sarif = o->sarif ? sarif_note(&env, &in, kept) : NULL;
	free((void *)in.ev);
	free((void *)in.enabled);
}

/* The bytes of a race: a symbol, else whose stack or the heap. */
static void race_data(struct explorer *x, uint64_t a, char *buf, size_t n)
{
	bool tls = false;
	int owner = tracer_mem_owner(x->t, a, &tls);

	where(x, a, buf, n);
	if (buf[0] != '0')
		return; /* a symbol */
	if (owner >= 0)
		snprintf(buf, n, "%#lx (%s of thread %d)", (unsigned long)a,
			 tls ? "the TLS" : "the stack", owner);
	else
		snprintf(buf, n, "%#lx (heap or other memory)",
			 (unsigned long)a);
}

/* --races: the first data race of the current execution into *e
 * (races.h); 1 if there is one. */
static int race_check(struct explorer *x, struct error_rec *e)
{
	unsigned n = dpor_length(x->dpor);
	struct race rc;
	char a[200], b[200], d[200];

	if (!x->races && !(x->races = races_new()))
		return 0;
	races_reset(x->races);
	for (unsigned k = 0; k < n; k++) {
		const struct tr_event *ev = dpor_event(x->dpor, k);
		if (ev && races_event(x->races, k, ev, &rc) == 1)
			break;
		if (k + 1 == n)
			return 0;
	}
	if (!n)
		return 0;
	memset(e, 0, sizeof *e);
	strcpy(e->kind, "data-race");
	e->thread = rc.b.tid;
	e->pc = rc.b.pc;
	where(x, rc.a.pc, a, sizeof a);
	where(x, rc.b.pc, b, sizeof b);
	race_data(x, rc.a.addr, d, sizeof d);
	snprintf(e->message, sizeof e->message,
		 "thread %d %s %s at %s, and thread %d %s it at %s, with no "
		 "synchronisation between them (%s%s)",
		 rc.a.tid, rc.a.write ? "writes" : "reads", d, a, rc.b.tid,
		 rc.b.write ? "writes" : "reads", b,
		 rc.a.atomic || rc.b.atomic ? "one access atomic, "
					    : "both plain, ",
		 rc.a.write && rc.b.write ? "write-write" : "read-write");
	return 1;
}

/* --witness: the reported error's violation witness (report/witness.h). */
static void note_witness(struct explorer *x, struct error_rec *kept,
			 const char *status)
{
	struct trace_env env = { x->sym, env_owner, env_insn, x->t,
				 x->o->frames_all };
	struct trace_in in;

	if (x->o->nested || trace_input(x, &in, kept, status) < 0)
		return;
	free(kept->witness);
	kept->witness = witness_note(&env, &in, kept, x->o->property);
	free((void *)in.ev);
	free((void *)in.enabled);
}

/* Record error e of the current execution; the first one kept is the
 * reported one: its trace is rendered. */
static void keep(struct explorer *x, struct error_rec *e, const char *witness,
		 const char *status)
{
	/* a deadlock's pc is a return address: show the call */
	bool ret = tracer_end(x->t)->kind == END_DEADLOCK && e->pc &&
		   strcmp(e->kind, "deadlock") == 0;
	if (e->pc)
		where(x, e->pc - ret, e->location, sizeof e->location);
	else /* exit-code, wrong-output: no instruction to point at */
		snprintf(e->location, sizeof e->location, "the end");
	e->preemptions = x->dpor ? dpor_preemptions(x->dpor) : 0;
	struct error_rec *kept = record_error(x, e, witness);
	if (kept && kept == x->res->errors) /* the reported one */
		note_trace(x, kept, status);
	if (kept)
		note_views(x, kept, status);
	if (kept && kept == x->res->errors && x->o->witness)
		note_witness(x, kept, status);
}

static int conclude(struct explorer *x)
{
	struct error_rec e, race;
	char status[48];
	size_t olen;
	const char *out = tracer_output(x->t, 1, &olen);
	int r = judge(x, &e, status, sizeof status);
	enum property prop = x->o->property;
	bool racy;
	char *witness = NULL;
	size_t wlen = 0;

	if (r == 2)
		return 2;
	/* --property: what is no violation of it ends a path (svcomp.h) */
	if (r == 1 && prop && !svcomp_violation(prop, e.kind))
		r = 0;
	racy = x->o->races && race_check(x, &race) &&
	       (!prop || svcomp_violation(prop, "data-race"));
	if (r == 3 && !racy) { /* infeasible: no outcome */
		if (x->o->replay)
			note_trace(x, NULL, status);
		return 3;
	}
	FILE *w = open_memstream(&witness, &wlen);
	schedule_header(x);
	if (w) {
		sched_write(&x->done, w);
		fclose(w);
	}
	if (racy)
		keep(x, &race, witness, status);
	if (r == 1)
		keep(x, &e, witness, status);
	else if (x->o->replay && !racy)
		note_trace(x, NULL, status);
	results_add_outcome(x->res, out, olen, status, witness);
	free(witness);
	return racy ? 1 : r;
}

/* ---- one execution ---- */

static void print_event(struct explorer *x, unsigned long n,
			const struct tr_event *ev)
{
	char loc[200];

	where(x, ev->pc, loc, sizeof loc);
	fprintf(stderr, "%6lu  T%d  %-8s %s", n, ev->tid,
		ev_kind_name(ev->kind), loc);
	for (int i = 0; i < ev->nacc; i++) {
		if (ev->acc[i].addr >= EV_ADDR_FD)
			continue;
		fprintf(stderr, "  %s%s %#lx/%lu",
			ev->acc[i].rw & DEC_READ ? "R" : "",
			ev->acc[i].rw & DEC_WRITE ? "W" : "",
			(unsigned long)ev->acc[i].addr,
			(unsigned long)ev->acc[i].size);
	}
	if (ev->sysno >= 0)
		fprintf(stderr, "  syscall %ld", ev->sysno);
	fputc('\n', stderr);
}

/* Add the ptrace stops of the tracer about to be freed to the total. */
static void account(struct explorer *x)
{
	struct tracer_stats st;

	tracer_stats(x->t, &st);
	x->res->ptrace_stops += st.ptrace_stops;
	x->snapshot_forks += st.snapshots;
	x->res->checkpoints += st.checkpoints;
	x->res->sanity_checked += st.sanity_checked;
	x->res->sanity_mismatches += st.sanity_mismatches;
	x->res->pso_shared += st.pso_shared;
	x->res->spin_live += st.spin_live;
}

static int install_hooks(struct explorer *x)
{
	uint64_t a;

	if (!x->hooks_tried) { /* the layout is the same every execution */
		x->sym = sym_load(tracer_pid(x->t));
		x->hooks_tried = true;
		if (x->sym) /* for the honest answer (report/svcomp.h) */
			hooks_unmodelled(x->sym, x->res->nondet_unmodelled,
					 sizeof x->res->nondet_unmodelled);
	}
	if (!x->sym)
		return 0;
	static const struct {
		const char *name;
		enum tr_hook hook;
	} hooks[] = {
		{ "__assert_fail", HOOK_ASSERT_FAIL },
		{ "pthread_create", HOOK_PTHREAD_CREATE },
		{ "pthread_join", HOOK_PTHREAD_JOIN },
		{ "pthread_exit", HOOK_PTHREAD_EXIT },
	};
	for (size_t i = 0; i < sizeof hooks / sizeof hooks[0]; i++) {
		a = sym_addr(x->sym, hooks[i].name);
		if (a && tracer_add_hook(x->t, a, hooks[i].hook) < 0)
			return -1;
	}
	if (hooks_conventions(x->t, x->sym) < 0 ||
	    hooks_sync(x->t, x->sym, x->o) < 0 ||
	    lang_install(x->t, x->sym) < 0) /* C++, Rust runtimes */
		return -1;
	return hooks_library(x->t, x->sym, x->o, x->why, sizeof x->why);
}

/* Can thread i time out now (its next event, EV_TIMEOUT)?  A timed wait
 * may time out whenever it is blocked (--no-timeouts: only when no
 * thread can run, tracer_timeout_one); the explorer takes that branch
 * last (dpor_set_last) and explores it where a wake-up ended the wait
 * (dpor.c, timed_races). */
static bool timed_out_able(struct explorer *x, int i)
{
	const struct tr_thread_info *ti;

	if (x->o->no_timeouts || i >= TR_AUX_BASE)
		return false;
	ti = tracer_thread(x->t, i);
	return ti && ti->status == TS_BLOCKED && ti->timed;
}

/* The threads that can perform an event now, and in *timed those of them
 * whose event is a timeout.  Every runnable thread's pending event is
 * computed first: a thread may turn out blocked (a join of a live
 * thread), and the enabled set must be exact for the tree. */
static tset runnable(struct explorer *x, tset *timed)
{
	/* the update threads of non-empty buffers can flush */
	tset u = tracer_update_mask(x->t), m = ts_empty();

	for (int s = ts_first(u); s >= 0; s = ts_next(u, s + 1))
		ts_add(&m, TR_AUX_BASE + s);
	*timed = ts_empty();
	for (int i = 0; i < tracer_nthreads(x->t) && !tracer_ended(x->t); i++) {
		bool buffered = tracer_buffered(x->t, i);
		if (timed_out_able(x, i)) {
			ts_add(timed, i); /* its event: the timeout */
			continue;
		}
		if (tracer_status(x->t, i) != TS_RUNNABLE)
			continue;
		const struct tr_thread_info *ti = tracer_thread(x->t, i);
		if (ti->status != TS_RUNNABLE)
			continue;
		if (buffered && ev_needs_drain(&ti->pending))
			continue; /* waits for its buffer to drain */
		ts_add(&m, i);
	}
	/* a thread paused inside an atomic section runs alone */
	m = ts_or(m, *timed);
	int ex = tracer_ended(x->t) ? -1 : tracer_exclusive(x->t);
	if (ex >= 0)
		m = ts_and(m, ts_one(ex));
	if (tracer_ended(x->t))
		m = ts_empty();
	*timed = ts_and(*timed, m);
	return m;
}

/* The threads of enabled whose next event ends the process. */
static tset ends_of(struct explorer *x, tset enabled)
{
	tset e = ts_empty();

	for (int i = ts_first(enabled); i >= 0 && i < TR_AUX_BASE;
	     i = ts_next(enabled, i + 1)) {
		const struct tr_thread_info *ti = tracer_thread(x->t, i);
		if (ti && ti->pending.kind == EV_END)
			ts_add(&e, i);
	}
	return e;
}

/* The thread a schedule file wants now: -1 exhausted, -2 misfit. */
static int replay_pick(struct explorer *x, tset enabled)
{
	bool until;
	int want;

	while ((want = sched_next(&x->replay, &until)) >= 0) {
		if (ts_has(enabled, want))
			return want;
		if (until && want < tracer_nthreads(x->t)) {
			sched_until_done(&x->replay); /* it blocked: next */
			continue;
		}
		snprintf(x->why, sizeof x->why,
			 "replay: the schedule does not fit this program: "
			 "thread %d cannot run at event %zu",
			 want, (size_t)dpor_length(x->dpor));
		return -2;
	}
	return -1;
}

/* splitmix64: the random and pct strategies' generator (reproducible
 * from --seed). */
static uint64_t rnd(struct explorer *x)
{
	uint64_t z = (x->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* PCT (Burckhardt et al., ASPLOS 2010) for one execution: random
 * distinct priorities >= d for the threads (update threads included),
 * and d - 1 random steps where the running thread drops to 1..d-1. */
static void pct_begin(struct explorer *x)
{
	unsigned len = x->last_len ? x->last_len : 100;

	for (int t = 0; t < TR_MAX_THREADS; t++)
		x->prio[t] = PCT_DEPTH + (int)(rnd(x) % 1000000);
	x->nchange = PCT_DEPTH - 1;
	for (int i = 0; i < x->nchange; i++)
		x->change[i] = 1 + (unsigned)(rnd(x) % len);
}

/* The thread the random or pct strategy wants at step k (-1: any). */
static int strategy_pick(struct explorer *x, unsigned k, tset enabled)
{
	int best = -1, n = ts_count(enabled);

	if (x->o->strategy == STRAT_RANDOM || x->probing) {
		int r = (int)(rnd(x) % (uint64_t)n);
		for (int t = ts_first(enabled); t >= 0;
		     t = ts_next(enabled, t + 1))
			if (r-- == 0)
				return t;
	}
	if (x->o->strategy != STRAT_PCT && !x->sampling)
		return -1;
	for (int i = 0; i < x->nchange; i++)
		if (x->change[i] == k && x->cur >= 0)
			x->prio[x->cur] = i + 1; /* below every initial one */
	for (int t = ts_first(enabled); t >= 0; t = ts_next(enabled, t + 1))
		if (best < 0 || x->prio[t] > x->prio[best])
			best = t;
	return best;
}

/* Which thread performs event k.  -1: sleep-set blocked, -2: failure. */
static int pick(struct explorer *x, unsigned k, tset enabled)
{
	int want = -1;

	if (!x->replay.s && (x->o->strategy == STRAT_RANDOM ||
			     x->o->strategy == STRAT_PCT || x->probing ||
			     x->sampling))
		x->cur = strategy_pick(x, k, enabled);

	if (x->replay.s) {
		want = replay_pick(x, enabled);
		if (want == -2)
			return -2;
		if (want >= 0) {
			sched_advance(&x->replay);
			/* the tree follows the schedule file */
			x->cur = want;
		}
	}
	int tid = dpor_choose(x->dpor, k, enabled,
			      ts_has(enabled, x->cur)
				      ? x->cur
				      : -1);
	if (tid == -2)
		snprintf(x->why, sizeof x->why,
			 "internal error: the replayed prefix does not fit "
			 "(the target is not deterministic?)");
	return tid;
}

/* Branch i of n at event k: the tree's (dpor_value: each is a branch), or
 * a random one (--strategy random, pct, a sample).  -1, said in x->why,
 * when the replayed prefix does not fit. */
static int choose_index(struct explorer *x, unsigned k, unsigned n,
			const char *what)
{
	int i;

	if (x->o->strategy == STRAT_RANDOM || x->o->strategy == STRAT_PCT ||
	    x->sampling)
		i = (int)(rnd(x) % n);
	else
		i = dpor_value(x->dpor, k, n);
	if (i < 0)
		snprintf(x->why, sizeof x->why, "internal error: the replayed "
			 "prefix does not fit at event %u (%s)", k, what);
	return i;
}

/* Which waiter a pthread_cond_signal wakes, when more than one waits:
 * a choice like a nondet value's (index into the waiters, oldest
 * first; the schedule keeps it as T=V). */
static int choose_waiter(struct explorer *x, unsigned k,
			 const struct tr_thread_info *ti, bool from_file)
{
	unsigned n = tracer_cond_waiters(x->t, ti->pending.acc[0].addr);
	int i = 0;

	if (n > 1 && from_file)
		i = x->replay.value >= 0 && x->replay.value < (int64_t)n
			    ? (int)x->replay.value
			    : 0;
	else if (n > 1)
		i = choose_index(x, k, n, "a condvar signal's waiter");
	if (i < 0)
		return -1;
	tracer_set_value(x->t, i);
	return 0;
}

/* Thread tid performs event k: if it is a __VERIFIER_nondet_* call,
 * tell the tracer the value to return: the tree's (every value of the
 * domain is a branch, dpor_value), a random one (--strategy random,
 * pct), or the schedule file's (--replay: any value). */
static int choose_value(struct explorer *x, unsigned k, int tid)
{
	const struct tr_thread_info *ti = tracer_thread(x->t, tid);
	const int64_t *vals;
	bool from_file = x->replay.s && x->replay.value_set;
	unsigned n;
	int i;

	x->replay.value_set = false; /* a T=V token is for this event only */
	if (ti && ti->pending.kind == EV_SYNC &&
	    ti->pending.sync_op == HOOK_SYNC_COND_SIGNAL)
		return choose_waiter(x, k, ti, from_file);
	if (!ti || ti->pending.kind != EV_NONDET)
		return 0;
	n = hooks_domain(x->o, &ti->pending, &vals);
	if (!from_file && !hooks_domain_complete(x->o, &ti->pending))
		x->res->nondet_bounded |= 1u << ti->pending.nondet;
	i = choose_index(x, k, n, "a value choice");
	if (i < 0)
		return -1;
	tracer_set_value(x->t, from_file ? x->replay.value : vals[i]);
	return 0;
}

/* Take a checkpoint at point k if the last one is far enough back (when
 * CP_MAX are alive, the one closest to its predecessor goes).  Not while
 * stopping: an interrupted fork would leave the target half done. */
static void checkpoint(struct explorer *x, unsigned k)
{
	unsigned last = x->ncp ? x->cp[x->ncp - 1].depth : 0;
	struct tr_checkpoint *c;

	/* and at the branch point, where the siblings of this execution
	 * and its subtree start (--profile, dekker sc: a replayed event
	 * costs ~43 us, a fork ~200 us; 2.38 -> 2.17 s) */
	unsigned branch = x->dpor ? dpor_prefix(x->dpor) : 0;
	bool at_branch = k == branch && k >= last + CP_BRANCH_GAP;
	/* events that cost many stops each (an atomic section, a library
	 * call run by steps) count by their stops: replaying them costs
	 * more than a fork long before CP_GAP events */
	struct tracer_stats st;
	tracer_stats(x->t, &st);
	bool costly = k > last && st.ptrace_stops >= x->cp_stops + CP_STOP_GAP;
	if (!x->use_cps || (k < last + CP_GAP + last / 4 && !at_branch &&
			    !costly) ||
	    proc_interrupted() || (x->abort && *x->abort))
		return;
	if (x->ncp == CP_MAX) {
		int drop = 0;
		for (int i = 1; i < x->ncp; i++)
			if (x->cp[i].depth - x->cp[i - 1].depth <
			    x->cp[drop].depth - (drop ? x->cp[drop - 1].depth : 0))
				drop = i;
		tracer_checkpoint_free(x->t, x->cp[drop].c);
		memmove(&x->cp[drop], &x->cp[drop + 1],
			(size_t)(x->ncp - drop - 1) * sizeof x->cp[0]);
		x->ncp--;
	}
	c = tracer_checkpoint(x->t);
	if (!c)
		return;
	x->cp[x->ncp].depth = k;
	x->cp[x->ncp++].c = c;
	x->cp_stops = st.ptrace_stops;
	x->cp_tree = dpor_serial(x->dpor);
}

/* Threads that blocked in a spin loop: their last iteration is stutter
 * for the search (dpor_stutter), after the k events so far. */
static void stutters(struct explorer *x, unsigned k)
{
	struct tr_stutter s;

	while (tracer_take_stutter(x->t, &s))
		if (x->o->strategy != STRAT_EXHAUSTIVE)
			dpor_stutter(x->dpor, k, s.tid, s.n);
}

/* Did the execution end the way a program ends (its other threads, if
 * any, cut short), rather than by being stuck or stopped by x86smc? */
static bool ends_process(enum tr_end_kind k)
{
	return k == END_EXIT || k == END_SIGNAL || k == END_ERROR_CALL ||
	       k == END_MISUSE;
}

/* Threads the execution ended with blocked on a lock (dpor_blocked). */
static void blocked_races(struct explorer *x)
{
	for (int tid = 0; tid < TR_AUX_BASE; tid++) {
		const struct tr_thread_info *ti = tracer_thread(x->t, tid);
		if (!ti)
			break;
		if (ti->status == TS_BLOCKED &&
		    (ti->wait == TW_MUTEX || ti->wait == TW_RWLOCK ||
		     ti->wait == TW_SEM || ti->wait == TW_WORD_LOCK))
			dpor_blocked(x->dpor, tid, ti->wait_addr);
	}
}

static enum exec_result step_loop(struct explorer *x)
{
	struct tr_event ev;
	unsigned k = x->start_k;
	struct tracer_stats st;

	tracer_stats(x->t, &st);
	x->cp_stops = st.ptrace_stops;
	while (!tracer_ended(x->t)) {
		if (proc_interrupted() || (x->abort && *x->abort))
			return EXEC_INTERRUPTED;
		tset last;
		tset enabled = runnable(x, &last);
		stutters(x, k);
		if (tracer_ended(x->t))
			break;
		if (ts_any(enabled))
			checkpoint(x, k);
		if (ts_none(enabled)) {
			if (tracer_timeout_one(x->t) < 0)
				tracer_set_deadlock(x->t);
			continue;
		}
		/* a schedule file or a sampling strategy chooses itself */
		bool own = x->replay.s || x->o->strategy == STRAT_RANDOM ||
			   x->o->strategy == STRAT_PCT;
		dpor_set_last(x->dpor, own ? ts_empty() : last);
		dpor_set_ends(x->dpor, own ? ts_empty() : ends_of(x, enabled));
		int tid = pick(x, k, enabled);
		if (tid == -1)
			return EXEC_BLOCKED;
		if (tid < 0)
			return EXEC_FAILED;
		if (tid >= TR_AUX_BASE) {
			tracer_flush(x->t, tid - TR_AUX_BASE, &ev);
		} else if (ts_has(last, tid)) {
			if (dpor_timeout_beyond(x->dpor, k, tid, enabled))
				return EXEC_TIMEOUT_CUT;
			x->cur = tid;
			tracer_timeout(x->t, tid, &ev);
		} else {
			x->cur = tid;
			if (choose_value(x, k, tid) < 0)
				return EXEC_FAILED;
			tracer_allow_native(x->t,
					    dpor_covered(x->dpor, tid));
			/* --profile: a step of the prefix is replay */
			int pp = prof_enter(k < dpor_prefix(x->dpor) &&
							    k >= x->start_k
						    ? PROF_REPLAY
						    : PROF_OWN);
			tracer_step(x->t, tid, &ev);
			prof_leave(pp);
		}
		if (ev.kind == EV_NONE) { /* it blocked before any event */
			dpor_retract(x->dpor, k);
			continue;
		}
		if (x->o->sanity && dpor_check(x->dpor) < 0)
			fprintf(stderr, "x86smc: sanity: dpor_check failed at "
				"event %u\n", k);
		int pd = prof_enter(PROF_DPOR);
		int de = dpor_executed(x->dpor, k, &ev);
		prof_leave(pd);
		if (de < 0) {
			snprintf(x->why, sizeof x->why, "internal error: the "
				 "replayed prefix diverged at event %u (the "
				 "target is not deterministic?)", k);
			return EXEC_FAILED;
		}
		stutters(x, k + 1);
		if (ev.kind == EV_NONDET)
			sched_push_value(&x->done, tid, ev.value);
		else if (ev.kind == EV_SYNC && ev.value > 0 &&
			 ev.sync_op == HOOK_SYNC_COND_SIGNAL)
			sched_push_value(&x->done, tid, ev.value - 1);
		else
			sched_push(&x->done, tid);
		k++;
		x->res->events++;
		if (x->show)
			print_event(x, x->res->events, &ev);
	}
	if (k > 0 && ends_process(tracer_end(x->t)->kind)) {
		int pd = prof_enter(PROF_DPOR);
		dpor_ended(x->dpor, k - 1);
		prof_leave(pd);
	}
	if (k > 0)
		blocked_races(x);
	return EXEC_DONE;
}

/* X86SMC_DEBUG_HASH: the thread of each event of the execution. */
static void print_threads(struct explorer *x, const char *label)
{
	fputs(label, stderr);
	for (unsigned k = 0; k < dpor_length(x->dpor); k++)
		fprintf(stderr, " %d", dpor_thread_at(x->dpor, k));
	fputc('\n', stderr);
}

static void note_hash(struct explorer *x)
{
	uint64_t h = dpor_trace_hash(x->dpor);

	if (x->debug_hash) {
		char label[32];
		snprintf(label, sizeof label, "hash %016lx:",
			 (unsigned long)h);
		print_threads(x, label);
	}
	hashset_add(&x->hs, h);
}

/* "0x5555555551a9" or "store+0x12" (a symbol, as traces print it, the
 * "(file:line)" part left out); 0 if unknown. */
static uint64_t resolve_code(struct explorer *x, const char *s)
{
	const char *plus = strrchr(s, '+');
	uint64_t a, off = 0;
	char name[256], *end;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		a = strtoull(s, &end, 16);
		return *end ? 0 : a;
	}
	snprintf(name, sizeof name, "%.*s",
		 plus ? (int)(plus - s) : (int)strlen(s), s);
	if (plus) {
		off = strtoull(plus + 1, &end, 0);
		if (*end || end == plus + 1)
			return 0;
	}
	a = x->sym ? sym_addr(x->sym, name) : 0;
	return a ? a + off : 0;
}

/* --assume-fence: tell the tracer where MFENCEs are simulated. */
static int assume_fences(struct explorer *x)
{
	for (int i = 0; i < x->o->nassume_fence; i++) {
		const char *s = x->o->assume_fence[i];
		uint64_t pc = resolve_code(x, s);
		struct sym_info si = { 0 };
		int r;
		if (!pc) {
			snprintf(x->why, sizeof x->why, "--assume-fence %s: no "
				 "such address (a hex pc or symbol+offset; a "
				 "demangled name must be unambiguous)", s);
			return -1;
		}
		if (x->sym)
			sym_lookup(x->sym, pc, &si);
		r = tracer_assume_fence(x->t, pc,
					si.func ? pc - si.func_off : 0);
		if (r < 0) {
			snprintf(x->why, sizeof x->why, "--assume-fence %s: %s",
				 s, r == -2 ? "not the start of an instruction"
					    : "cannot place a stop point there");
			return -1;
		}
	}
	return 0;
}

/* Forget the checkpoints an execution cannot use: all of them if the
 * tree is not theirs, else those deeper than its replayed prefix. */
static void drop_checkpoints(struct explorer *x)
{
	unsigned prefix = x->dpor ? dpor_prefix(x->dpor) : 0;

	while (x->ncp && (!x->dpor || x->cp_tree != dpor_serial(x->dpor) ||
			  x->cp[x->ncp - 1].depth > prefix))
		tracer_checkpoint_free(x->t, x->cp[--x->ncp].c);
}

/* dpor_next, as --profile sees it */
static bool dpor_next_timed(struct dpor *d)
{
	int pp = prof_enter(PROF_DPOR);
	bool r = dpor_next(d);

	prof_leave(pp);
	return r;
}

/* Continue from the deepest usable checkpoint, else from the snapshot;
 * the schedule so far is the tree's. */
static int resume(struct explorer *x)
{
	unsigned d;

	drop_checkpoints(x);
	if (!x->ncp)
		return tracer_restore(x->t);
	d = x->cp[x->ncp - 1].depth;
	if (tracer_resume(x->t, x->cp[x->ncp - 1].c) < 0) {
		snprintf(x->why, sizeof x->why, "cannot continue from a "
			 "checkpoint (fork of the target failed)");
		return -1;
	}
	if (dpor_resume(x->dpor, d) < 0) { /* not this tree's: forget them */
		while (x->ncp)
			tracer_checkpoint_free(x->t, x->cp[--x->ncp].c);
		return tracer_restore(x->t);
	}
	for (unsigned k = 0; k < d; k++) {
		const struct tr_event *ev = dpor_event(x->dpor, k);
		int tid = dpor_thread_at(x->dpor, k);
		if (ev && ev->kind == EV_NONDET)
			sched_push_value(&x->done, tid, ev->value);
		else
			sched_push(&x->done, tid);
		if (tid < TR_AUX_BASE)
			x->cur = tid;
	}
	x->start_k = d;
	return 0;
}

/* Start an execution: the first one (and every one without snapshots)
 * launches the program; later ones continue from the fork snapshot taken
 * when control started. */
static int begin(struct explorer *x)
{
	struct tracer_opts to = { .cpu = x->cpu, .max_steps = x->o->max_steps,
				  .escapes = &x->escapes,
				  .tso = x->o->model != MODEL_SC,
				  .pso = x->o->model == MODEL_PSO,
				  .sanity = x->o->sanity,
				  .max_threads = x->o->max_threads };

	x->start_k = 0;
	if (x->t && x->snapshots)
		return resume(x);
	if (x->t) {
		account(x);
		tracer_free(x->t);
		x->ncp = 0; /* its checkpoints went with it */
	}
	x->t = tracer_new(&to);
	if (!x->t)
		return -1;
	int pp = prof_enter(PROF_LAUNCH);
	if (tracer_start(x->t, x->o->argv) < 0) {
		prof_leave(pp);
		snprintf(x->why, sizeof x->why, "the program could not be run");
		return -1;
	}
	if (!tracer_ended(x->t) &&
	    (install_hooks(x) < 0 || assume_fences(x) < 0 ||
	     tracer_go(x->t) < 0)) {
		prof_leave(pp);
		return -1;
	}
	prof_leave(pp);
	if (!tracer_ended(x->t) && x->use_snapshots && x->sym &&
	    tracer_snapshot(x->t, sym_addr(x->sym, "syscall")) == 0)
		x->snapshots = true;
	return 0;
}

/* Run one execution; returns its enum exec_result and, through *err,
 * whether it ended in an error. */
static enum exec_result one_execution(struct explorer *x, bool *err)
{
	enum exec_result r = EXEC_FAILED;

	*err = false;
	sched_free(&x->done);
	x->cur = 0;
	if (begin(x) < 0)
		goto out;
	r = step_loop(x);
	if (r == EXEC_DONE && tracer_end(x->t)->kind == END_INTERRUPTED)
		r = EXEC_INTERRUPTED;
	/* its events were not all seen, and the tree holds events of the
	 * old set: whatever the execution's end (a sleep-set-blocked one
	 * too: --jobs found the next execution of the same tree diverging
	 * then, a 'non-deterministic' target under load) */
	if ((r == EXEC_DONE || r == EXEC_BLOCKED ||
	     r == EXEC_TIMEOUT_CUT) &&
	    x->t && tracer_new_escapes(x->t) && !x->o->replay)
		r = EXEC_RESTART;
	if (r == EXEC_DONE) {
		int j = conclude(x);
		if (j == 2)
			r = EXEC_FAILED;
		if (j == 3)
			r = EXEC_ASSUME;
		*err = j == 1;
		if (j != 3) /* the classes of feasible executions */
			note_hash(x);
		if (*err && x->o->replay && (x->o->gdb || x->o->core))
			x->res->handoff_pid = /* handoff.h */
				tracer_handoff(x->t, x->res->errors[0].thread);
	}
out:
	if (x->t)
		tracer_finish(x->t);
	return r;
}

/* ---- the exploration ---- */

static bool limit_reached(const struct explorer *x, double t0)
{
	const struct options *o = x->o;

	if (o->max_executions && results_runs(x->res) >= o->max_executions)
		return true;
	return o->timeout > 0 && results_runs(x->res) >= o->min_runs &&
	       clock_s() - t0 >= o->timeout;
}

static void cover_note(struct explorer *x, bool complete, bool interrupted,
		       unsigned restarts)
{
	struct results *r = x->res;

	if (x->o->replay)
		snprintf(r->note, sizeof r->note,
			 "one execution of the schedule in %s", x->o->replay);
	else if (!complete && x->bound_done)
		snprintf(r->note, sizeof r->note,
			 "every execution with at most %ld preemption%s "
			 "explored (%lu executions, %s): %s with at most %ld "
			 "preemption%s; executions with more were not explored",
			 x->bound, x->bound == 1 ? "" : "s", r->executions,
			 r->strategy, r->nerrors ? "errors" : "no error",
			 x->bound, x->bound == 1 ? "" : "s");
	else if (complete)
		snprintf(r->note, sizeof r->note,
			 "all %lu execution classes explored (%s%s, %zu "
			 "distinct happens-before traces, %u restart%s after "
			 "new escapes, %s)",
			 r->executions, r->strategy,
			 !strcmp(r->strategy, "dpor")
				 ? (x->optimal ? ": optimal" : ": source")
			 : !strcmp(r->strategy, "optimal") && !x->optimal
				 ? ": source"
				 : "",
			 x->hs.n, restarts,
			 restarts == 1 ? "" : "s",
			 x->snapshots ? "fork snapshots" : "re-execution");
	else if (r->threads_cut &&
		 (x->o->keep_going || !r->nerrors || interrupted))
		/* (stopped at its first error: that note, below, says
		 * more) */
		snprintf(r->note, sizeof r->note,
			 "%lu of %lu executions were cut when the program "
			 "created more than %d threads (%s): what they did "
			 "next was NOT explored", r->threads_cut,
			 r->executions,
			 x->o->max_threads ? x->o->max_threads : TR_AUX_BASE,
			 x->o->max_threads ? "--max-threads"
					   : "x86smc's limit");
	else if (r->max_steps_cut)
		snprintf(r->note, sizeof r->note,
			 "%lu of %lu executions were cut at --max-steps %lu "
			 "(a loop no await detection caught?): what they did "
			 "next was NOT explored",
			 r->max_steps_cut, r->executions, x->o->max_steps);
	else if (r->nerrors && !interrupted && !x->o->keep_going &&
		 r->errors[0].by_sample)
		snprintf(r->note, sizeof r->note,
			 "stopped at the first error, found by PCT sample %lu "
			 "beside the search (after %lu executions of it): the "
			 "rest was NOT explored (--keep-going explores it)",
			 r->samples, results_runs(r));
	else if (r->nerrors && !interrupted && !x->o->keep_going)
		snprintf(r->note, sizeof r->note,
			 "stopped at the first error, in execution %lu: the "
			 "rest was NOT explored (--keep-going explores it)",
			 results_runs(r));
	else if (r->timeouts_pruned && !interrupted &&
		 !(x->o->max_executions &&
		   r->executions >= x->o->max_executions))
		snprintf(r->note, sizeof r->note,
			 "every execution in which no thread times out more "
			 "than %ld time%s while another could run explored "
			 "(%lu executions, %s); %lu branches with more were "
			 "NOT explored (--max-timeouts N raises the bound)",
			 x->o->max_timeouts, x->o->max_timeouts == 1 ? "" : "s",
			 r->executions, r->strategy, r->timeouts_pruned);
	else if (r->spin_live)
		snprintf(r->note, sizeof r->note,
			 "%lu executions (%s): a spin loop taken for a counted "
			 "spin read its counter after the loop %lu times: the "
			 "executions before that stood for ones they may not "
			 "cover: NOT complete",
			 r->executions, r->strategy,
			 (unsigned long)r->spin_live);
	else if (r->pso_shared)
		snprintf(r->note, sizeof r->note,
			 "pso: %lu stores were kept in order with other "
			 "buffered stores (a thread's 17th or later location "
			 "shares a FIFO; a store over two locations waits for "
			 "an empty buffer): their reorderings were NOT "
			 "explored", (unsigned long)r->pso_shared);
	else
		snprintf(r->note, sizeof r->note,
			 "%s after %lu execution%s: NOT all interleavings "
			 "were explored",
			 interrupted ? "interrupted" : "stopped", r->executions,
			 r->executions == 1 ? "" : "s");
}

/* The progress line: only on a terminal, at most four times a second;
 * last: erase it. */
static void progress(struct explorer *x, double t0, bool last)
{
	const struct results *r = x->res;
	double t = clock_s();

	if (!x->progress || (!last && t - x->last_progress < 0.25))
		return;
	x->last_progress = t;
	if (last) {
		fputs("\r\033[K", stderr);
		return;
	}
	fprintf(stderr, "\r\033[K%lu executions, %.0f/s, depth %u, %zu "
			"error%s", r->executions + r->blocked_executions,
		(double)(r->executions + r->blocked_executions) /
			(t - t0 > 1e-3 ? t - t0 : 1e-3),
		dpor_length(x->dpor), r->nerrors, r->nerrors == 1 ? "" : "s");
	if (x->bound >= 0)
		fprintf(stderr, ", preemption bound %ld", x->bound);
	/* --estimate: how far along the estimate (rough) */
	if (r->estimate > 0 && x->o->strategy != STRAT_EXHAUSTIVE) {
		double f = (double)r->executions / r->estimate;
		double left = f > 0 && f < 1 ? (t - t0) * (1 - f) / f : 0;
		fprintf(stderr, ", ~%.0f%% of the estimate", 100 * f);
		if (left > 0)
			fprintf(stderr, ", ~%.0f %s left",
				left < 120 ? left : left / 60,
				left < 120 ? "s" : "min");
	}
	/* where the branches of a node are known up front: what is left */
	if ((x->o->strategy == STRAT_EXHAUSTIVE ||
	     x->o->strategy == STRAT_ICB) && x->dpor) {
		double f = dpor_explored(x->dpor);
		if (f > 0.001 && f < 1) {
			double left = (t - t0) * (1 - f) / f;
			fprintf(stderr, ", ~%.0f%% of this tree, ~%.0f %s left",
				100 * f, left < 120 ? left : left / 60,
				left < 120 ? "s" : "min");
		} else if (f > 0 && f <= 0.001) {
			fprintf(stderr, ", <0.1%% of this tree");
		}
	}
}

/* ---- the fence check (tso/pso) ---- */

static bool same_error(const struct error_rec *a, const struct error_rec *b)
{
	return strcmp(a->kind, b->kind) == 0 &&
	       strcmp(a->location, b->location) == 0;
}

/* What is left of the fence check's budget (s), at least a little: a
 * nested search with --timeout 0 would have none. */
static double budget_left(const struct results *res, double t0)
{
	double left = res->fence.budget - (clock_s() - t0);

	return left > 0.001 ? left : 0.001;
}

/* Can sc reach the reported error?  Fills fence->sc; true if it can. */
static bool sc_reaches(const struct options *o, struct results *res,
		       double t0)
{
	struct options so = *o;
	struct results sr = { 0 };
	bool found = false;

	so.model = MODEL_SC;
	so.nested = true;
	so.keep_going = false; /* the first error is usually the one */
	so.trace_out = so.json = NULL;
	so.nassume_fence = 0;
	so.timeout = budget_left(res, t0);
	so.min_runs = o->fence_check < 0 ? FENCE_RUNS : 0;
	explore(&so, &sr);
	if (sr.nerrors && !same_error(&sr.errors[0], &res->errors[0]) &&
	    clock_s() - t0 < res->fence.budget) {
		results_free(&sr); /* another error: look at all of them */
		so.keep_going = true;
		so.timeout = budget_left(res, t0);
		explore(&so, &sr);
	}
	for (size_t i = 0; i < sr.nerrors; i++)
		found |= same_error(&sr.errors[i], &res->errors[0]);
	res->fence.sc = found ? "possible" : sr.complete ? "impossible"
							 : "unknown";
	if (found)
		snprintf(res->fence.sc_detail, sizeof res->fence.sc_detail,
			 "found in %lu sc execution%s", sr.executions,
			 sr.executions == 1 ? "" : "s");
	else
		snprintf(res->fence.sc_detail, sizeof res->fence.sc_detail,
			 "checked: %lu execution%s under sc, %s",
			 sr.executions, sr.executions == 1 ? "" : "s",
			 sr.complete ? "complete" : "not complete");
	results_free(&sr);
	return found;
}

/* Add the stores of reorderings to the fences; returns how many new. */
static int add_fences(struct explorer *x, struct fence_rec *f,
		      const struct results *r)
{
	int added = 0;

	for (int i = 0; i < r->nreorders && f->nfences < MAX_FENCES; i++) {
		bool dup = false;
		for (int j = 0; j < f->nfences; j++)
			dup |= f->pc[j] == r->reorders[i].fence_pc;
		if (dup)
			continue;
		f->pc[f->nfences] = r->reorders[i].fence_pc;
		snprintf(f->at[f->nfences], sizeof f->at[0], "%s",
			 r->reorders[i].fence_at);
		f->nfences++;
		added++;
		if (r != x->res && x->res->nreorders < 4) { /* say why */
			struct reorder_rec *o =
				&x->res->reorders[x->res->nreorders++];
			*o = r->reorders[i];
			o->recheck = true;
		}
	}
	return added;
}

/* Explore again with the suggested fences assumed; a new reordering in
 * the error found then adds its fence too (a few rounds). */
static void verify_fences(struct explorer *x, struct fence_rec *f,
			  double t0)
{
	char pcs[MAX_FENCES][24];
	struct options fo = *x->o;

	fo.nested = true;
	fo.keep_going = false;
	fo.trace_out = fo.json = NULL;
	fo.min_runs = x->o->fence_check < 0 ? FENCE_RUNS : 0;
	for (int round = 0; round < 3; round++) {
		struct results fr = { 0 };
		fo.timeout = budget_left(x->res, t0);
		fo.nassume_fence = x->o->nassume_fence;
		for (int i = 0; i < f->nfences &&
				fo.nassume_fence < MAX_ASSUMED_FENCES; i++) {
			snprintf(pcs[i], sizeof pcs[i], "%#lx",
				 (unsigned long)f->pc[i]);
			fo.assume_fence[fo.nassume_fence++] = pcs[i];
		}
		explore(&fo, &fr);
		if (!fr.nerrors) {
			f->verified = fr.complete ? 1 : -1;
			snprintf(f->recheck, sizeof f->recheck, "%s (%lu "
				 "executions, %s)", fr.complete ? "the error "
				 "disappears: no error" : "no error found, but "
				 "the exploration did not complete",
				 fr.executions, fr.complete ? "complete"
							    : "not complete");
		} else if (round == 2 || !add_fences(x, f, &fr)) {
			f->verified = 0;
			snprintf(f->recheck, sizeof f->recheck, "an error "
				 "remains: %s at %s (%lu executions)",
				 fr.errors[0].kind, fr.errors[0].location,
				 fr.executions);
		} else {
			results_free(&fr);
			continue;
		}
		results_free(&fr);
		return;
	}
}

/* An error under tso/pso with a store→load reordering in its trace: is
 * it impossible under sc, and does an MFENCE after the store fix it? */
static void fence_check(struct explorer *x)
{
	const struct options *o = x->o;
	struct results *res = x->res;

	if (o->nested || o->replay || o->model == MODEL_SC ||
	    !res->nerrors || !res->nreorders || proc_interrupted() ||
	    o->fence_check == 0)
		return;
	/* the bug now, its fence later: the report's head is out before
	 * the check's searches run */
	report_head(res, o->json && strcmp(o->json, "-") == 0 ? stderr
							      : stdout);
	double t0 = clock_s();

	struct fence_rec *f = &res->fence;
	f->ran = true;
	f->verified = -1;
	/* --fence-check SECONDS; by default a quarter of the search so far
	 * (issue 24), within FENCE_MIN..FENCE_MAX s, and FENCE_RUNS
	 * executions a search (below).  A floor of 0.5 s cost the time to
	 * the first bug of Nidhugg's dekker 0.09 -> 0.6 s for a check that
	 * could not end there anyway (1,462 executions under sc). */
	f->budget = o->fence_check > 0 ? o->fence_check
				       : res->elapsed_s / 4;
	if (o->fence_check < 0)
		f->budget = f->budget < FENCE_MIN   ? FENCE_MIN
			    : f->budget > FENCE_MAX ? FENCE_MAX
						    : f->budget;
	/* By default each search of the check runs FENCE_RUNS executions
	 * whatever the time, so that the check of a small program ends
	 * the same on a loaded machine (the demo's dekker: 3 executions
	 * under sc, then the re-check), and the re-check runs after the
	 * budget if sc came out complete (a small program) */
	if (!sc_reaches(o, res, t0) && !proc_interrupted()) {
		add_fences(x, f, res); /* the suggestion, verified or not */
		if (clock_s() - t0 < f->budget ||
		    (o->fence_check < 0 && strcmp(f->sc, "impossible") == 0))
			verify_fences(x, f, t0);
	}
	f->seconds = clock_s() - t0;
	if (proc_interrupted())
		snprintf(f->status, sizeof f->status, "interrupted");
	else if (strcmp(f->sc, "possible") == 0)
		snprintf(f->status, sizeof f->status, "not a store-buffer bug");
	else if (f->verified == 1)
		snprintf(f->status, sizeof f->status, "verified");
	else if (f->verified == 0)
		snprintf(f->status, sizeof f->status, "refuted");
	else
		snprintf(f->status, sizeof f->status,
			 "not verified within %g s", f->budget);
}

/* ---- the explorer as a service (explore_int.h) ---- */

static void explorer_init(struct explorer *x, const struct options *o,
			  struct results *res, int cpu)
{
	*x = (struct explorer){ .o = o, .res = res, .cpu = cpu };
	x->show = o->verbose > 1;
	x->use_snapshots = !getenv("X86SMC_NO_SNAPSHOTS");
	x->use_cps = !getenv("X86SMC_NO_CHECKPOINTS") && !o->replay &&
		     o->strategy != STRAT_RANDOM && o->strategy != STRAT_PCT;
	x->debug_hash = getenv("X86SMC_DEBUG_HASH") != NULL;
	x->rng = o->seed;
}

void explorer_stop(struct explorer *x)
{
	if (x->t) {
		account(x);
		tracer_free(x->t);
		x->t = NULL;
	}
	x->ncp = 0;
}

static void explorer_fini(struct explorer *x)
{
	explorer_stop(x);
	sched_free(&x->done);
	esc_free(&x->escapes);
	hashset_free(&x->hs);
	races_free(x->races);
	x->races = NULL;
	if (x->sym)
		sym_free(x->sym);
	x->sym = NULL;
}

/* Execution number index (from 0) of the current tree, counted in the
 * results.  random and pct seed each execution from --seed and its
 * number, so that --jobs runs the same executions. */
static enum exec_result run(struct explorer *x, unsigned long index,
			    bool *err)
{
	enum strategy s = x->o->strategy;
	enum exec_result r;

	if ((s == STRAT_RANDOM || s == STRAT_PCT) && !x->o->replay) {
		x->rng = x->o->seed + index * 0xd1b54a32d192ed03ull;
		rnd(x);
		if (s == STRAT_PCT)
			pct_begin(x);
	}
	unsigned prefix = x->dpor ? dpor_prefix(x->dpor) : 0;
	if (x->dpor)
		dpor_set_max_timeouts(x->dpor, (unsigned)x->o->max_timeouts);
	r = one_execution(x, err);
	if (x->dpor) /* timeout branches beyond --max-timeouts */
		x->res->timeouts_pruned += dpor_take_timeouts_pruned(x->dpor);
	if (x->dpor && r != EXEC_FAILED) {
		unsigned len = dpor_length(x->dpor);
		unsigned rep = prefix < len ? prefix : len;
		x->res->replayed += rep > x->start_k ? rep - x->start_k : 0;
	}
	if (r == EXEC_BLOCKED && x->debug_hash)
		print_threads(x, "blocked:");
	if (r == EXEC_BLOCKED)
		x->res->blocked_executions++;
	else if (r == EXEC_ASSUME)
		x->res->assume_blocked++;
	else if (r == EXEC_TIMEOUT_CUT)
		x->res->timeout_cut++;
	else if (r == EXEC_DONE)
		x->res->executions++;
	if (r == EXEC_DONE || r == EXEC_BLOCKED || r == EXEC_ASSUME ||
	    r == EXEC_TIMEOUT_CUT)
		x->last_len = dpor_length(x->dpor);
	return r;
}

struct explorer *explorer_new(const struct options *o, struct results *res,
			      int cpu, volatile int *abort)
{
	struct explorer *x = malloc(sizeof *x);

	if (!x)
		return NULL;
	explorer_init(x, o, res, cpu);
	x->abort = abort;
	res->program = o->argv[0];
	res->model = model_name(o->model);
	return x;
}

enum exec_result explorer_run(struct explorer *x, struct dpor *d,
			      unsigned long index, bool *err)
{
	x->dpor = d;
	return run(x, index, err);
}

const char *explorer_why(const struct explorer *x)
{
	return x->why;
}

struct escape_set *explorer_escapes(struct explorer *x)
{
	return &x->escapes;
}

const struct hashset *explorer_hashes(const struct explorer *x)
{
	return &x->hs;
}

bool explorer_snapshots(const struct explorer *x)
{
	return x->snapshots;
}

void explorer_free(struct explorer *x)
{
	if (x) {
		explorer_fini(x);
		free(x);
	}
}

/* ---- shallow bugs first: PCT samples beside the search ---- */

#define SAMPLE_AFTER 1000 /* executions of the search before the first */
#define SAMPLE_EVERY 8    /* then one sample per this many, */
#define SAMPLE_LONG 10000 /* and after this many one per SAMPLE_EVERY_LONG */
#define SAMPLE_EVERY_LONG 4

/* Depth-first DPOR can spend its whole budget deep in one corner of the
 * tree while a bug needs two or three preemptions near its root
 * (SCTBench's reorder_N and wronglock: pct finds them in 1-4,000
 * executions, dpor not in 300 s).  So after SAMPLE_AFTER executions the
 * search runs one PCT execution (--strategy pct's, depth 3) every
 * SAMPLE_EVERY (SAMPLE_EVERY_LONG once it is SAMPLE_LONG executions
 * long: the longer the search, the likelier a shallow bug it missed),
 * in a tree of its own: its error is the search's (kept
 * with its schedule, replayable), its outcome counts, but it is not an
 * execution of the search's count nor a class, and the search goes on
 * where it was: complete means what it meant.  Seeded from --seed and
 * the sample's number, so a run is repeatable.  Under --jobs each worker
 * samples so, counting its own executions (explorer_sample);
 * --no-samples turns it off. */
static bool sample_due(const struct explorer *x, unsigned long n)
{
	enum strategy s = x->o->strategy;

	return !x->o->no_samples && !x->o->replay &&
	       (s == STRAT_DEFAULT || s == STRAT_SOURCE ||
		s == STRAT_OPTIMAL) &&
	       n + 1 >= SAMPLE_AFTER &&
	       (n + 1) % (n + 1 >= SAMPLE_LONG ? SAMPLE_EVERY_LONG
					       : SAMPLE_EVERY) == 0;
}

/* An execution beside the search (a PCT sample, an --estimate probe)
 * runs in a tree of its own, without checkpoints, and its classes are
 * not the search's: aside_enter sets that up, aside_leave puts the
 * search back. */
struct aside {
	struct dpor *search;
	struct hashset hs;
	bool cps;
};

static bool aside_enter(struct explorer *x, struct aside *a, bool exhaustive)
{
	*a = (struct aside){ x->dpor, x->hs, x->use_cps };
	x->dpor = dpor_new(exhaustive, -1);
	if (!x->dpor) {
		x->dpor = a->search;
		return false;
	}
	x->hs = (struct hashset){ 0 };
	x->use_cps = false;
	return true;
}

static void aside_leave(struct explorer *x, const struct aside *a)
{
	dpor_free(x->dpor);
	x->dpor = a->search;
	hashset_free(&x->hs);
	x->hs = a->hs;
	x->use_cps = a->cps;
}

/* One PCT sample; EXEC_RESTART: it found new escapes, the search must
 * start over as after one of its own executions. */
static enum exec_result pct_sample(struct explorer *x, bool *err)
{
	struct results *res = x->res;
	unsigned long e = res->executions, b = res->blocked_executions,
		      a = res->assume_blocked, c = res->timeout_cut,
		      n = res->samples;
	struct aside as;

	if (!aside_enter(x, &as, true))
		return EXEC_FAILED;
	x->sampling = true;
	x->rng = x->o->seed + (n + 1) * 0x9e3779b97f4a7c15ull +
		 x->stream * 0xd1b54a32d192ed03ull;
	pct_begin(x);
	enum exec_result r = run(x, n, err);
	x->sampling = false;
	aside_leave(x, &as);
	res->executions = e;
	res->blocked_executions = b;
	res->assume_blocked = a;
	res->timeout_cut = c;
	res->samples = n + 1;
	return r;
}

enum exec_result explorer_sample(struct explorer *x, unsigned long n,
				 unsigned long stream, bool *err)
{
	x->stream = stream;
	return sample_due(x, n) ? pct_sample(x, err) : EXEC_DONE;
}

/* ---- --estimate ---- */

#define EST_PROBES 200  /* probes at most, */
#define EST_SECONDS 2.0 /* for this long at most (at least EST_MIN) */
#define EST_MIN 3

/* --estimate: Knuth's estimator of the search's size (D. E. Knuth,
 * "Estimating the efficiency of backtrack programs", Math. Comp. 1975).
 * A probe is the first execution of a new tree whose every choice is a
 * random enabled thread; the races it shows give each node of its path
 * its branches, and their product is the number of leaves were every
 * subtree like the probe's (dpor_path_leaves).  The mean over the probes
 * estimates the executions, their mean time (each from the start, no
 * checkpoint) the time per execution.  Rough: later executions find
 * races no probe shows, sleep sets cut branches.  The probes' outcomes,
 * errors and classes are not the search's. */
static void estimate(struct explorer *x, bool exhaustive)
{
	struct results *res = x->res, scratch = { 0 };
	struct aside as;
	bool err;
	double sum = 0, t = clock_s();
	unsigned n = 0;

	if (!aside_enter(x, &as, exhaustive))
		return;
	x->res = &scratch;
	x->probing = true;
	for (unsigned i = 0; n < EST_PROBES &&
			     (n < EST_MIN || clock_s() - t < EST_SECONDS);
	     i++) {
		x->rng = x->o->seed + (i + 1) * 0xd1b54a32d192ed03ull;
		enum exec_result r = run(x, i, &err);
		if (r == EXEC_FAILED || r == EXEC_INTERRUPTED ||
		    proc_interrupted())
			break;
		if (r != EXEC_RESTART) { /* else escapes learnt: again */
			sum += dpor_path_leaves(x->dpor);
			n++;
		}
		dpor_reset(x->dpor);
	}
	t = clock_s() - t;
	aside_leave(x, &as);
	results_free(&scratch);
	x->res = res;
	x->probing = false;
	if (!n)
		return;
	res->estimate = sum / n;
	res->estimate_probes = n;
	res->estimate_probe_s = t;
	res->estimate_s = res->estimate * t / n;
	fprintf(stderr, "x86smc: estimate: ~%.3g executions, ~%.3g s at the "
			"probes' pace (%u probes in %.1f s; Knuth's estimator, "
			"rough)\n",
		res->estimate, res->estimate_s, n, t);
}

/* ---- the exploration ---- */

int explore(const struct options *o, struct results *res)
{
	struct explorer x;
	struct schedule replay = { 0 };
	bool complete = false, interrupted = false, failed = false, err;
	bool lost = false;
	double t0 = clock_s();
	unsigned restarts = 0;

	explorer_init(&x, o, res, -1);
	res->program = o->argv[0];
	res->model = model_name(o->model);
	res->strategy = o->replay ? "replay"
			: o->strategy == STRAT_DEFAULT ? "dpor"
						       : strategy_name(o->strategy);
	if (o->replay) {
		char e[256];
		if (sched_load(&replay, o->replay, e, sizeof e) < 0) {
			fprintf(stderr, "x86smc: %s\n", e);
			return 2;
		}
		x.replay.s = &replay;
		for (size_t i = 0; i < replay.nescapes; i++)
			esc_add(&x.escapes, replay.escapes[i], 8);
	}
	x.progress = !o->nested && !o->replay && isatty(2);
	x.last_progress = t0;
	res->sanity = o->sanity;
	res->jobs = o->replay ? 1 : o->jobs * dist_size();
	/* icb: bounded searches with 0, 1, ... top preemptions; random and
	 * pct: one tree per execution, thrown away after it */
	bool icb = o->strategy == STRAT_ICB;
	bool sample = o->strategy == STRAT_RANDOM || o->strategy == STRAT_PCT;
	bool exhaustive = o->strategy == STRAT_EXHAUSTIVE || icb || sample;
	long top = icb && o->preemptions < 0 ? 2 : o->preemptions;
	x.bound = icb ? 0 : sample ? -1 : o->preemptions;
	res->preemption_bound = x.bound;
	if (o->estimate && !o->nested && dist_rank() == 0)
		estimate(&x, exhaustive);
	/* MPI: the ranks take the user's search; nested ones (the fence
	 * check) stay on rank 0 */
	if ((o->jobs > 1 || (dist_size() > 1 && !o->nested)) && !o->replay) {
		explorer_stop(&x); /* the workers run their own tracers */
		struct par_outcome po = { 0 };
		parallel_explore(o, res, &x.hs, exhaustive, x.bound, top, &po);
		complete = po.complete && !po.lost;
		interrupted = po.interrupted;
		lost = po.lost;
		failed = po.failed;
		restarts = po.restarts;
		x.bound = po.bound;
		x.bound_done = po.bound_done;
		x.snapshots = po.snapshots;
		res->preemption_bound = x.bound;
		snprintf(x.why, sizeof x.why, "%s", po.why);
		goto done;
	}
	x.dpor = dpor_new(exhaustive, x.bound);
	if (!x.dpor)
		return 2;
	/* dpor (the default) and optimal: Optimal-DPOR with wakeup trees
	 * under sc and tso, Source-DPOR under pso; source: Source-DPOR.
	 * Not under pso: its update threads are numbered in the order the
	 * execution first buffers a store at a location, so a wakeup
	 * sequence's update thread can be another buffer after a reversal
	 * (it lost outcomes of litmus n1).  (--jobs splits Source-DPOR
	 * trees.) */
	x.optimal = (o->model == MODEL_SC || o->model == MODEL_TSO) &&
		    (o->strategy == STRAT_OPTIMAL ||
		     o->strategy == STRAT_DEFAULT ||
		     o->strategy == STRAT_DPOR) &&
		    !exhaustive && x.bound < 0;
	dpor_set_optimal(x.dpor, x.optimal);
	for (;;) {
		unsigned long n = results_runs(res);
		enum exec_result r = run(&x, n, &err);
		if (r == EXEC_FAILED && proc_interrupted())
			r = EXEC_INTERRUPTED; /* a ptrace call cut short */
		if (r == EXEC_FAILED) {
			failed = true;
			break;
		}
		if (r == EXEC_INTERRUPTED) {
			interrupted = true;
			break;
		}
		if (r == EXEC_RESTART && !o->replay) {
			dpor_reset(x.dpor);
			restarts++;
			continue;
		}
		progress(&x, t0, false);
		if (o->replay || (err && !o->keep_going))
			break;
		if (sample_due(&x, n)) {
			r = pct_sample(&x, &err);
			if (r == EXEC_FAILED || r == EXEC_INTERRUPTED) {
				failed = r == EXEC_FAILED && !proc_interrupted();
				interrupted = !failed;
				break;
			}
			if (err && !o->keep_going)
				break;
			if (r == EXEC_RESTART) { /* the sample grew the escapes */
				dpor_reset(x.dpor);
				restarts++;
				continue;
			}
		}
		if (sample) {
			dpor_reset(x.dpor);
			if (!o->max_executions && n + 1 >= EXPLORE_RANDOM_EXECUTIONS)
				break;
		} else if (!dpor_next_timed(x.dpor)) {
			bool pruned = dpor_pruned(x.dpor);
			if (icb && pruned && x.bound < top) {
				dpor_free(x.dpor); /* the next bound */
				x.bound++;
				res->preemption_bound = x.bound;
				x.dpor = dpor_new(true, x.bound);
				if (!x.dpor) {
					failed = true;
					snprintf(x.why, sizeof x.why,
						 "out of memory");
					break;
				}
				continue;
			}
			complete = !pruned;
			x.bound_done = x.bound >= 0;
			break;
		}
		if (limit_reached(&x, t0) || proc_interrupted()) {
			interrupted = proc_interrupted();
			break;
		}
	}
done:
	progress(&x, t0, true);
	explorer_stop(&x); /* its tracer's counts (pso_shared) are in res */
	if (res->max_steps_cut) /* what those executions did next is unknown */
		complete = x.bound_done = false;
	if (res->pso_shared) /* reorderings of stores in a shared FIFO */
		complete = x.bound_done = false;
	if (res->spin_live) /* woken at one iteration stood for all */
		complete = x.bound_done = false;
	if (res->timeouts_pruned) /* more timeouts in a row */
		complete = x.bound_done = false;
	if (res->threads_cut) /* what they did after the limit is unknown */
		complete = x.bound_done = false;
	res->complete = complete;
	res->elapsed_s = clock_s() - t0;
	res->traces = x.hs.n;
	cover_note(&x, complete, interrupted, restarts);
	if (failed)
		fprintf(stderr, "x86smc: %s\n", x.why);
	if ((o->jobs > 1 || dist_size() > 1) && !o->nested && res->nerrors)
		write_trace(o, &res->errors[0]);
	if (!lost) { /* a search that lost a rank: report, no more work */
		int pp = prof_enter(PROF_FENCE);
		fence_check(&x);
		prof_leave(pp);
	}
	sched_free(&replay);
	dpor_free(x.dpor);
	explorer_fini(&x);
	if (res->nerrors)
		return 1;
	if (failed)
		return 2;
	return complete || o->replay ? 0 : 3;
}
