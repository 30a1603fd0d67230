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
#include <time.h>

#include "dpor/dpor.h"
#include "dpor/schedule.h"
#include "report/sym.h"
#include "tracer/escape.h"
#include "tracer/proc.h"
#include "tracer/tracer.h"

enum exec_result {
	EXEC_DONE,        /* the execution ended: outcome recorded */
	EXEC_BLOCKED,     /* sleep-set blocked: abandoned */
	EXEC_RESTART,     /* the set of events changed: start over */
	EXEC_INTERRUPTED, /* SIGINT */
	EXEC_FAILED,      /* could not run / unsupported / internal */
};

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
	bool show;                     /* print each event (--replay, -vv) */
	bool hooks_tried;
	bool use_snapshots, snapshots; /* wanted; taken */
	unsigned long snapshot_forks;
	uint64_t *hashes;              /* distinct trace hashes seen */
	size_t nhashes, caphashes;
	char why[600];
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

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
		/* a return address: its line is the call's, one byte back */
		where(x, ti->wait_caller ? ti->wait_caller - 1 : 0, b,
		      sizeof b);
		if (ti->wait == TW_JOIN)
			snprintf(a, sizeof a, "joins thread %d", ti->wait_for);
		else {
			char s[128];
			where(x, ti->wait_addr, s, sizeof s);
			snprintf(a, sizeof a, "waits on %s%s", s,
				 ti->wait == TW_LOCK_PI ? " (PI lock)" : "");
		}
		len += (size_t)snprintf(e->message + len,
					sizeof e->message - len,
					" thread %d %s, called from %s;", i, a,
					b);
		if (e->pc == 0) {
			e->pc = ti->wait_caller;
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

/* The error of this execution, if any, into *e; its outcome status into
 * status.  Returns 0 (no error), 1 (error), 2 (cannot go on). */
static int judge(struct explorer *x, struct error_rec *e, char *status,
		 size_t n)
{
	const struct tr_end *end = tracer_end(x->t);
	char sn[32];

	memset(e, 0, sizeof *e);
	switch (end->kind) {
	case END_EXIT:
		snprintf(status, n, "exit %d", end->status);
		if (end->status == 0)
			return 0;
		strcpy(e->kind, "exit-code");
		snprintf(e->message, sizeof e->message,
			 "the program exited with status %d", end->status);
		e->thread = end->tid;
		return 1;
	case END_SIGNAL:
		snprintf(status, n, "signal %s",
			 signame(end->sig, sn, sizeof sn));
		describe_signal(end, e, sn);
		return 1;
	case END_DEADLOCK:
		snprintf(status, n, "deadlock");
		strcpy(e->kind, "deadlock");
		describe_deadlock(x, e);
		return 1;
	case END_STEPS:
		snprintf(status, n, "max-steps");
		return 0;
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

static int write_trace(struct explorer *x, struct error_rec *e)
{
	FILE *f;

	if (!x->o->trace_out)
		return 0;
	f = fopen(x->o->trace_out, "w");
	if (!f) {
		fprintf(stderr, "x86smc: cannot write %s\n", x->o->trace_out);
		return -1;
	}
	schedule_header(x);
	sched_write(&x->done, f);
	fclose(f);
	snprintf(e->trace_file, sizeof e->trace_file, "%s", x->o->trace_out);
	return 0;
}

/* Keep the error if it is new (by kind and location) or has fewer
 * preemptions than the one of its kind already kept. */
static void record_error(struct explorer *x, struct error_rec *e)
{
	for (size_t i = 0; i < x->res->nerrors; i++) {
		struct error_rec *o = &x->res->errors[i];
		if (strcmp(o->kind, e->kind) || strcmp(o->location, e->location))
			continue;
		if (e->preemptions < o->preemptions) {
			if (i == 0)
				write_trace(x, e);
			if (i != 0)
				e->trace_file[0] = 0;
			*o = *e;
		}
		return;
	}
	struct error_rec *n = results_add_error(x->res);
	if (!n)
		return;
	if (x->res->nerrors == 1)
		write_trace(x, e);
	*n = *e;
}

static int conclude(struct explorer *x)
{
	struct error_rec e;
	char status[48];
	size_t olen;
	const char *out = tracer_output(x->t, 1, &olen);
	int r = judge(x, &e, status, sizeof status);

	if (r == 2)
		return 2;
	if (r == 1) {
		/* a deadlock's pc is a return address: show the call */
		bool ret = tracer_end(x->t)->kind == END_DEADLOCK && e.pc;
		where(x, e.pc - ret, e.location, sizeof e.location);
		e.preemptions = x->dpor ? dpor_preemptions(x->dpor) : 0;
		record_error(x, &e);
	}
	char *witness = NULL;
	size_t wlen = 0;
	FILE *w = open_memstream(&witness, &wlen);
	schedule_header(x);
	if (w) {
		sched_write(&x->done, w);
		fclose(w);
	}
	results_add_outcome(x->res, out, olen, status, witness);
	free(witness);
	return r;
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
	x->res->sanity_checked += st.sanity_checked;
	x->res->sanity_mismatches += st.sanity_mismatches;
}

static int install_hooks(struct explorer *x)
{
	uint64_t a;

	if (!x->hooks_tried) { /* the layout is the same every execution */
		x->sym = sym_load(tracer_pid(x->t));
		x->hooks_tried = true;
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
	return 0;
}

/* The threads that can perform an event now.  Every runnable thread's
 * pending event is computed first: a thread may turn out blocked (a join
 * of a live thread), and the enabled set must be exact for the tree. */
static uint64_t runnable(struct explorer *x)
{
	uint64_t m = 0;

	for (int i = 0; i < tracer_nthreads(x->t) && !tracer_ended(x->t); i++) {
		bool buffered = tracer_buffered(x->t, i);
		if (buffered) /* its update thread can flush */
			m |= 1ull << (TR_AUX_BASE + i);
		if (tracer_status(x->t, i) != TS_RUNNABLE)
			continue;
		const struct tr_thread_info *ti = tracer_thread(x->t, i);
		if (ti->status != TS_RUNNABLE)
			continue;
		if (buffered && ev_needs_drain(&ti->pending))
			continue; /* waits for its buffer to drain */
		m |= 1ull << i;
	}
	return tracer_ended(x->t) ? 0 : m;
}

/* The thread a schedule file wants now: -1 exhausted, -2 misfit. */
static int replay_pick(struct explorer *x, uint64_t enabled)
{
	bool until;
	int want;

	while ((want = sched_next(&x->replay, &until)) >= 0) {
		if (enabled & (1ull << want))
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

/* Which thread performs event k.  -1: sleep-set blocked, -2: failure. */
static int pick(struct explorer *x, unsigned k, uint64_t enabled)
{
	int want = -1;

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
			      (x->cur >= 0 && (enabled >> x->cur & 1))
				      ? x->cur
				      : -1);
	if (tid == -2)
		snprintf(x->why, sizeof x->why,
			 "internal error: the replayed prefix does not fit "
			 "(the target is not deterministic?)");
	return tid;
}

static enum exec_result step_loop(struct explorer *x)
{
	struct tr_event ev;
	unsigned k = 0;

	while (!tracer_ended(x->t)) {
		if (proc_interrupted())
			return EXEC_INTERRUPTED;
		uint64_t enabled = runnable(x);
		if (tracer_ended(x->t))
			break;
		if (!enabled) {
			if (tracer_timeout_one(x->t) < 0)
				tracer_set_deadlock(x->t);
			continue;
		}
		int tid = pick(x, k, enabled);
		if (tid == -1)
			return EXEC_BLOCKED;
		if (tid < 0)
			return EXEC_FAILED;
		if (tid >= TR_AUX_BASE) {
			tracer_flush(x->t, tid - TR_AUX_BASE, &ev);
		} else {
			x->cur = tid;
			tracer_step(x->t, tid, &ev);
		}
		if (ev.kind == EV_NONE) { /* it blocked before any event */
			dpor_retract(x->dpor, k);
			continue;
		}
		if (x->o->sanity && dpor_check(x->dpor) < 0)
			fprintf(stderr, "x86smc: sanity: dpor_check failed at "
				"event %u\n", k);
		if (dpor_executed(x->dpor, k, &ev) < 0) {
			snprintf(x->why, sizeof x->why, "internal error: the "
				 "replayed prefix diverged at event %u (the "
				 "target is not deterministic?)", k);
			return EXEC_FAILED;
		}
		sched_push(&x->done, tid);
		k++;
		x->res->events++;
		if (x->show)
			print_event(x, x->res->events, &ev);
	}
	return EXEC_DONE;
}

static void note_hash(struct explorer *x)
{
	uint64_t h = dpor_trace_hash(x->dpor);

	if (getenv("X86SMC_DEBUG_HASH")) {
		fprintf(stderr, "hash %016lx:", (unsigned long)h);
		for (unsigned k = 0; k < dpor_length(x->dpor); k++)
			fprintf(stderr, " %d", dpor_thread_at(x->dpor, k));
		fputc('\n', stderr);
	}
	for (size_t i = 0; i < x->nhashes; i++)
		if (x->hashes[i] == h)
			return;
	if (x->nhashes == x->caphashes) {
		size_t cap = x->caphashes ? 2 * x->caphashes : 64;
		uint64_t *n = realloc(x->hashes, cap * sizeof *n);
		if (!n)
			return;
		x->hashes = n;
		x->caphashes = cap;
	}
	x->hashes[x->nhashes++] = h;
}

/* Start an execution: the first one (and every one without snapshots)
 * launches the program; later ones continue from the fork snapshot taken
 * when control started. */
static int begin(struct explorer *x)
{
	struct tracer_opts to = { .cpu = -1, .max_steps = x->o->max_steps,
				  .escapes = &x->escapes,
				  .tso = x->o->model == MODEL_TSO,
				  .sanity = x->o->sanity };

	if (x->t && x->snapshots)
		return tracer_restore(x->t);
	if (x->t) {
		account(x);
		tracer_free(x->t);
	}
	x->t = tracer_new(&to);
	if (!x->t)
		return -1;
	if (tracer_start(x->t, x->o->argv) < 0) {
		snprintf(x->why, sizeof x->why, "the program could not be run");
		return -1;
	}
	if (!tracer_ended(x->t) &&
	    (install_hooks(x) < 0 || tracer_go(x->t) < 0))
		return -1;
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
	if (r == EXEC_DONE && tracer_new_escapes(x->t) && !x->o->replay)
		r = EXEC_RESTART; /* its events were not all seen */
	if (r == EXEC_DONE) {
		int j = conclude(x);
		if (j == 2)
			r = EXEC_FAILED;
		*err = j == 1;
		note_hash(x);
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

	if (o->max_executions &&
	    x->res->executions + x->res->blocked_executions >=
		    o->max_executions)
		return true;
	return o->timeout > 0 && now() - t0 >= o->timeout;
}

static void cover_note(struct explorer *x, bool complete, bool interrupted,
		       unsigned restarts)
{
	struct results *r = x->res;

	if (x->o->replay)
		snprintf(r->note, sizeof r->note,
			 "one execution of the schedule in %s", x->o->replay);
	else if (complete)
		snprintf(r->note, sizeof r->note,
			 "all %lu execution classes explored (%s, %zu distinct "
			 "happens-before traces, %u restart%s after new "
			 "escapes, %s)",
			 r->executions, r->strategy, x->nhashes, restarts,
			 restarts == 1 ? "" : "s",
			 x->snapshots ? "fork snapshots" : "re-execution");
	else
		snprintf(r->note, sizeof r->note,
			 "%s after %lu executions: NOT all interleavings "
			 "were explored",
			 interrupted ? "interrupted" : "stopped", r->executions);
}

int explore(const struct options *o, struct results *res)
{
	struct explorer x = { .o = o, .res = res };
	struct schedule replay = { 0 };
	bool complete = false, interrupted = false, failed = false, err;
	double t0 = now();
	unsigned restarts = 0;

	res->program = o->argv[0];
	res->model = model_name(o->model);
	res->strategy = o->replay ? "replay"
			: o->strategy == STRAT_EXHAUSTIVE ? "exhaustive"
							  : "dpor";
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
	x.show = o->replay != NULL || o->verbose > 1;
	x.use_snapshots = !getenv("X86SMC_NO_SNAPSHOTS");
	res->sanity = o->sanity;
	x.dpor = dpor_new(o->strategy == STRAT_EXHAUSTIVE, o->preemptions);
	if (!x.dpor)
		return 2;
	for (;;) {
		enum exec_result r = one_execution(&x, &err);
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
		if (r == EXEC_BLOCKED)
			res->blocked_executions++;
		else
			res->executions++;
		if (o->replay || (err && !o->keep_going))
			break;
		if (!dpor_next(x.dpor)) {
			complete = true;
			break;
		}
		if (limit_reached(&x, t0) || proc_interrupted()) {
			interrupted = proc_interrupted();
			break;
		}
	}
	res->complete = complete;
	res->elapsed_s = now() - t0;
	res->traces = x.nhashes;
	cover_note(&x, complete, interrupted, restarts);
	if (failed)
		fprintf(stderr, "x86smc: %s\n", x.why);
	if (x.t) {
		account(&x);
		tracer_free(x.t);
	}
	sched_free(&replay);
	sched_free(&x.done);
	dpor_free(x.dpor);
	esc_free(&x.escapes);
	free(x.hashes);
	if (x.sym)
		sym_free(x.sym);
	if (res->nerrors)
		return 1;
	if (failed)
		return 2;
	return complete || o->replay ? 0 : 3;
}
