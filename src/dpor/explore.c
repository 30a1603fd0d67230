/* explore.c — drive executions of the target.
 *
 * One execution: start the target, then repeatedly pick a runnable
 * thread (from the replayed schedule, else the default policy: keep
 * running the current thread until it blocks or exits, then the next one
 * in id order) and let it perform one visible event.  When no thread can
 * run, a timed wait times out if there is one, else it is a deadlock. */
#include "dpor/explore.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dpor/schedule.h"
#include "report/sym.h"
#include "tracer/proc.h"
#include "tracer/tracer.h"

struct exec_ctx {
	const struct options *o;
	struct results *res;
	struct tracer *t;
	struct symtab *sym;
	struct schedule done;    /* what this execution did */
	struct sched_cursor replay;
	int cur;
	char diverged[256];
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int default_pick(struct exec_ctx *c)
{
	int n = tracer_nthreads(c->t);

	for (int k = 0; k < n; k++) {
		int tid = (c->cur + k) % n;
		if (tracer_status(c->t, tid) == TS_RUNNABLE)
			return tid;
	}
	return -1;
}

/* The thread to run next, -1 if none can run, -2 if the replayed
 * schedule cannot be followed. */
static int pick(struct exec_ctx *c)
{
	bool until;
	int want;

	while ((want = sched_next(&c->replay, &until)) >= 0) {
		if (want < tracer_nthreads(c->t) &&
		    tracer_status(c->t, want) == TS_RUNNABLE)
			return want;
		if (until && want < tracer_nthreads(c->t)) {
			sched_until_done(&c->replay); /* it blocked: next */
			continue;
		}
		snprintf(c->diverged, sizeof c->diverged,
			 "the schedule does not fit this program: thread %d "
			 "cannot run at event %zu",
			 want, c->done.n ? (size_t)c->res->events : 0);
		return -2;
	}
	return default_pick(c);
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

static void where(struct exec_ctx *c, uint64_t pc, char *buf, size_t n)
{
	if (c->sym && pc)
		sym_describe(c->sym, pc, buf, n);
	else
		snprintf(buf, n, "%#lx", (unsigned long)pc);
}

static void describe_deadlock(struct exec_ctx *c, struct error_rec *e)
{
	size_t len = 0;
	char a[160], b[160];

	len += (size_t)snprintf(e->message, sizeof e->message,
				"every live thread is blocked:");
	for (int i = 0; i < tracer_nthreads(c->t); i++) {
		const struct tr_thread_info *ti = tracer_thread(c->t, i);
		if (ti->status != TS_BLOCKED || len >= sizeof e->message)
			continue;
		/* a return address: its line is the call's, one byte back */
		where(c, ti->wait_caller ? ti->wait_caller - 1 : 0, b,
		      sizeof b);
		if (ti->wait == TW_JOIN)
			snprintf(a, sizeof a, "joins thread %d", ti->wait_for);
		else {
			char s[128];
			where(c, ti->wait_addr, s, sizeof s);
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

/* Turn the end of the execution into an outcome and maybe an error.
 * Returns 0, 1 (error), 2 (unsupported / internal). */
static int conclude(struct exec_ctx *c)
{
	const struct tr_end *end = tracer_end(c->t);
	char status[48], sn[32];
	struct error_rec *e = NULL;
	size_t olen, elen;
	const char *out = tracer_output(c->t, 1, &olen);
	const char *err = tracer_output(c->t, 2, &elen);

	switch (end->kind) {
	case END_EXIT:
		snprintf(status, sizeof status, "exit %d", end->status);
		if (end->status != 0 && (e = results_add_error(c->res))) {
			strcpy(e->kind, "exit-code");
			snprintf(e->message, sizeof e->message,
				 "the program exited with status %d",
				 end->status);
			e->thread = end->tid;
		}
		break;
	case END_SIGNAL:
		snprintf(status, sizeof status, "signal %s",
			 signame(end->sig, sn, sizeof sn));
		if (!(e = results_add_error(c->res)))
			break;
		e->thread = end->tid;
		e->pc = end->pc;
		if (end->sig == SIGABRT) {
			strcpy(e->kind, "assertion");
			if (end->asserted)
				e->pc = end->assert_call;
			snprintf(e->message, sizeof e->message, "%s",
				 end->asserted ? end->message
					       : "abort() was called");
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
			snprintf(e->message, sizeof e->message,
				 "killed by %s", sn);
		}
		break;
	case END_DEADLOCK:
		snprintf(status, sizeof status, "deadlock");
		if ((e = results_add_error(c->res))) {
			strcpy(e->kind, "deadlock");
			describe_deadlock(c, e);
		}
		break;
	case END_STEPS:
		snprintf(status, sizeof status, "max-steps");
		break;
	case END_INTERRUPTED:
		return 3; /* an unfinished execution has no outcome */
	default:
		fprintf(stderr, "x86smc: %s: %s\n",
			end->kind == END_UNSUPPORTED ? "unsupported"
						     : "internal error",
			end->message);
		return 2;
	}
	(void)err;
	(void)elen;
	if (e) /* a deadlock's pc is a return address: show the call */
		where(c, e->pc - (end->kind == END_DEADLOCK && e->pc), e->location,
		      sizeof e->location);
	results_add_outcome(c->res, out, olen, status);
	return e ? 1 : 0;
}

static void print_event(struct exec_ctx *c, unsigned long n,
			const struct tr_event *ev)
{
	char loc[200];

	where(c, ev->pc, loc, sizeof loc);
	fprintf(stderr, "%6lu  T%d  %-8s %s", n, ev->tid,
		ev_kind_name(ev->kind), loc);
	for (int i = 0; i < ev->nacc; i++)
		fprintf(stderr, "  %s%s %#lx/%lu",
			ev->acc[i].rw & DEC_READ ? "R" : "",
			ev->acc[i].rw & DEC_WRITE ? "W" : "",
			(unsigned long)ev->acc[i].addr,
			(unsigned long)ev->acc[i].size);
	if (ev->sysno >= 0)
		fprintf(stderr, "  syscall %ld", ev->sysno);
	fputc('\n', stderr);
}

static int install_hooks(struct exec_ctx *c)
{
	uint64_t a;

	c->sym = sym_load(tracer_pid(c->t));
	if (!c->sym)
		return 0;
	a = sym_addr(c->sym, "__assert_fail");
	if (a && tracer_add_hook(c->t, a, HOOK_ASSERT_FAIL) < 0)
		return -1;
	return 0;
}

/* One execution, stepping until the target ends. */
static int run_steps(struct exec_ctx *c, bool show)
{
	struct tr_event ev;

	while (!tracer_ended(c->t)) {
		if (proc_interrupted())
			return 3;
		int tid = pick(c);
		if (tid == -2)
			return 2;
		if (tid < 0) {
			if (tracer_timeout_one(c->t) < 0)
				tracer_set_deadlock(c->t);
			continue;
		}
		c->cur = tid;
		if (c->replay.s && sched_next(&c->replay, &(bool){ 0 }) == tid)
			sched_advance(&c->replay);
		sched_push(&c->done, tid);
		c->res->events++;
		tracer_step(c->t, tid, &ev);
		if (show && ev.kind != EV_NONE)
			print_event(c, c->res->events, &ev);
	}
	return 0;
}

static int write_trace(struct exec_ctx *c, struct error_rec *e)
{
	FILE *f;

	if (!c->o->trace_out)
		return 0;
	f = fopen(c->o->trace_out, "w");
	if (!f) {
		fprintf(stderr, "x86smc: cannot write %s\n", c->o->trace_out);
		return -1;
	}
	snprintf(c->done.program, sizeof c->done.program, "%s",
		 c->o->argv[0]);
	snprintf(c->done.model, sizeof c->done.model, "%s",
		 model_name(c->o->model));
	sched_write(&c->done, f);
	fclose(f);
	snprintf(e->trace_file, sizeof e->trace_file, "%s", c->o->trace_out);
	return 0;
}

static int one_execution(struct exec_ctx *c, const struct schedule *replay)
{
	struct tracer_opts to = { .cpu = -1, .max_steps = c->o->max_steps };
	struct tracer_stats st;
	int r = 2;

	c->t = tracer_new(&to);
	if (!c->t)
		return 2;
	c->replay.s = replay;
	if (tracer_start(c->t, c->o->argv) < 0)
		goto out;
	if (!tracer_ended(c->t) && install_hooks(c) < 0)
		goto out;
	r = run_steps(c, c->o->replay != NULL || c->o->verbose > 1);
	if (r == 2) {
		fprintf(stderr, "x86smc: replay: %s\n", c->diverged);
		goto out;
	}
	if (r == 3 || tracer_end(c->t)->kind == END_INTERRUPTED) {
		r = 3;
		goto out;
	}
	c->res->executions++;
	size_t before = c->res->nerrors;
	r = conclude(c);
	if (r == 1 && c->res->nerrors > before)
		write_trace(c, &c->res->errors[before]);
	if (tracer_end(c->t)->kind == END_STEPS && r == 0)
		r = 3;
out:
	tracer_stats(c->t, &st);
	c->res->ptrace_stops += st.ptrace_stops;
	tracer_free(c->t);
	c->t = NULL;
	return r;
}

int explore(const struct options *o, struct results *res)
{
	struct exec_ctx c = { .o = o, .res = res };
	struct schedule replay = { 0 };
	double t0 = now();
	char err[256];
	int r;

	res->program = o->argv[0];
	res->model = model_name(o->model);
	res->strategy = o->replay ? "replay" : strategy_name(o->strategy);
	if (o->replay && sched_load(&replay, o->replay, err, sizeof err) < 0) {
		fprintf(stderr, "x86smc: %s\n", err);
		return 2;
	}
	r = one_execution(&c, o->replay ? &replay : NULL);
	res->elapsed_s = now() - t0;
	if (proc_interrupted()) {
		snprintf(res->note, sizeof res->note,
			 "interrupted after %lu execution(s)", res->executions);
		r = res->nerrors ? 1 : 3;
	} else
		snprintf(res->note, sizeof res->note,
			 "one execution of the %s schedule",
			 o->replay ? "replayed" : "default");
	sched_free(&replay);
	sched_free(&c.done);
	if (c.sym)
		sym_free(c.sym);
	return r;
}
