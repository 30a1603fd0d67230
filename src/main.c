/* main.c — options → one struct → explore → report. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "decode/decode.h"
#include "dist/dist.h"
#include "dpor/explore.h"
#include "dpor/parallel.h"
#include "dpor/schedule.h"
#include "options.h"
#include "report/dot.h"
#include "report/profile.h"
#include "report/results.h"
#include "report/sarif.h"
#include "report/svcomp.h"
#include "tracer/handoff.h"
#include "tracer/log.h"
#include "tracer/proc.h"
#include "tracer/prof.h"
#include "tracer/target.h"

static int write_json(const struct options *o, const struct results *r)
{
	FILE *f;
	int rc;

	if (!o->json)
		return 0;
	f = strcmp(o->json, "-") == 0 ? stdout : fopen(o->json, "w");
	if (!f) {
		fprintf(stderr, "x86smc: cannot write %s\n", o->json);
		return -1;
	}
	rc = report_json(r, f);
	if (f != stdout)
		fclose(f);
	return rc;
}

/* --sarif FILE: written whatever was found (no result: no error). */
static int write_sarif(const struct options *o, const struct results *r)
{
	FILE *f;
	int rc;

	if (!o->sarif)
		return 0;
	if (!(f = fopen(o->sarif, "w"))) {
		fprintf(stderr, "x86smc: cannot write %s\n", o->sarif);
		return -1;
	}
	rc = sarif_write(f, r, X86SMC_VERSION);
	if (fclose(f) != 0)
		rc = -1;
	return rc;
}

/* --witness FILE: the reported violation's witness; none for a program
 * without one (a correctness answer needs none): a note on stderr. */
static int write_witness(const struct options *o, const struct results *r)
{
	const struct error_rec *e = r->nerrors ? &r->errors[0] : NULL;
	FILE *f;

	if (!o->witness)
		return 0;
	if (!e || !e->witness) {
		fprintf(stderr, "x86smc: --witness: %s, %s not written\n",
			e ? "the error has no source line" : "no violation",
			o->witness);
		return 0;
	}
	if (!(f = fopen(o->witness, "w")) || fputs(e->witness, f) < 0 ||
	    fclose(f) != 0) {
		fprintf(stderr, "x86smc: cannot write %s\n", o->witness);
		return -1;
	}
	return 0;
}

/* --dot FILE, --svg FILE: the reported error's happens-before graph.
 * Without an error, or without Graphviz for --svg, a note on stderr
 * and nothing written: the run's verdict stands. */
static int write_graph(const struct options *o, const struct results *r)
{
	const char *dot = r->nerrors ? r->errors[0].dot : NULL;
	FILE *f;

	if (!o->dot && !o->svg)
		return 0;
	if (!dot) {
		fprintf(stderr, "x86smc: --%s: no error trace to draw, %s not "
				"written\n",
			o->dot ? "dot" : "svg", o->dot ? o->dot : o->svg);
		return 0;
	}
	if (o->dot) {
		if (!(f = fopen(o->dot, "w")) || fputs(dot, f) < 0 ||
		    fclose(f) != 0) {
			fprintf(stderr, "x86smc: cannot write %s\n", o->dot);
			return -1;
		}
	}
	if (o->svg && dot_svg(dot, o->svg) == 1)
		fprintf(stderr, "x86smc: --svg: Graphviz's dot is not "
				"installed (Debian: apt-get install "
				"graphviz), %s not written\n",
			o->svg);
	return 0;
}

static void print_version(void)
{
	char libs[200];

	printf("x86smc %s\n%s\n", X86SMC_VERSION,
	       dec_lib_versions(libs, sizeof libs));
}

static int check_program(const char *path)
{
	struct target_info info;
	char msg[600];

	if (target_check(path, &info, msg, sizeof msg) < 0) {
		fprintf(stderr, "x86smc: %s: %s\n", path, msg);
		return -1;
	}
	return 0;
}

/* -v: x86smc's own peak memory and CPU time (make bench's soak line reads
 * the peak to show it does not grow with the number of executions). */
static void report_resources(const struct options *o)
{
	struct rusage ru;

	if (!o->verbose || getrusage(RUSAGE_SELF, &ru) != 0)
		return;
	fprintf(stderr, "x86smc: resources: max RSS %ld KB, user %.2f s, "
			"sys %.2f s\n",
		ru.ru_maxrss,
		(double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
		(double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
}

/* --replay: the file must parse and belong to this program and model
 * (explore() loads it again to run it). */
static int check_replay(const struct options *o)
{
	struct schedule s;
	const char *want, *got;
	char err[600];
	int r = -1;

	if (!o->replay)
		return 0;
	if (sched_load(&s, o->replay, err, sizeof err) < 0) {
		if (strstr(err, o->replay)) /* it names the file */
			fprintf(stderr, "x86smc: --replay: %s\n", err);
		else
			fprintf(stderr, "x86smc: --replay %s: %s\n", o->replay,
				err);
		return -1;
	}
	want = strrchr(o->argv[0], '/') ? strrchr(o->argv[0], '/') + 1
					: o->argv[0];
	got = strrchr(s.program, '/') ? strrchr(s.program, '/') + 1
				      : s.program;
	if (s.model[0] && strcmp(s.model, model_name(o->model)) != 0)
		fprintf(stderr, "x86smc: --replay: %s was recorded under "
				"--model %s, not %s\n",
			o->replay, s.model, model_name(o->model));
	else if (s.program[0] && strcmp(want, got) != 0)
		fprintf(stderr, "x86smc: --replay: %s is a schedule of %s, "
				"not of %s\n",
			o->replay, s.program, o->argv[0]);
	else
		r = 0;
	sched_free(&s);
	return r;
}

/* --robustness: the outcomes of the model asked for that sc cannot
 * produce, each with the schedule of one execution reaching it. */
static int robustness(const struct options *o, struct results *res)
{
	struct options sc = *o;
	struct results base = { 0 };
	int r;

	sc.model = MODEL_SC;
	sc.trace_out = NULL;
	sc.keep_going = true;
	r = explore(&sc, &base);
	if (r == 2 || (r == 3 && !base.complete)) {
		fprintf(stderr, "x86smc: robustness: the sc exploration did "
				"not complete (%s)\n", base.note);
		results_free(&base);
		return r;
	}
	res->robust_checked = true;
	res->non_sc = calloc(res->noutcomes + 1, sizeof *res->non_sc);
	for (size_t i = 0; res->non_sc && i < res->noutcomes; i++)
		if (!results_find_outcome(&base, &res->outcomes[i]))
			res->non_sc[res->nnon_sc++] = &res->outcomes[i];
	results_free(&base);
	return res->nnon_sc ? 1 : 0;
}

/* --property: the answer, and the exit status it gives (0 true, 1 false,
 * 3 unknown; 2 stays 2: the program could not be run). */
static int answer(const struct options *o, struct results *res, int r)
{
	svcomp_answer(o, res);
	if (r == 2) { /* the search failed: the line above says why */
		snprintf(res->answer, sizeof res->answer, "unknown");
		snprintf(res->answer_result, sizeof res->answer_result,
			 "unknown");
		snprintf(res->answer_reason, sizeof res->answer_reason,
			 "x86smc could not go on (the message above says why)");
		return 2;
	}
	return res->answer[0] == 't' ? 0 : res->answer[0] == 'f' ? 1 : 3;
}

/* An MPI rank other than 0 (dist.h): its workers serve rank 0's
 * searches; it prints nothing, and its exit status is 0 (mpirun's is
 * rank 0's). */
static int serve(struct options *o, int parsed)
{
	if (parsed == 0) {
		signal(SIGPIPE, SIG_IGN);
		proc_catch_interrupts();
		if (proc_set_deadline(o->timeout) == 0) {
			log_verbose = o->verbose;
			parallel_serve(o);
		}
	}
	dist_end(0, false);
	return 0;
}

static int run(struct options *o);

int main(int argc, char **argv)
{
	struct options o;
	char err[256];
	int r, rank;

	r = opts_parse(argc, argv, &o, err, sizeof err);
	/* options derived from others: on every MPI rank alike */
	if (r == 0 && o.property_file &&
	    svcomp_read_property(o.property_file, &o.property, err,
				 sizeof err) < 0)
		r = -1;
	if (r == 0 && o.property == PROP_NO_DATA_RACE)
		o.races = true;
	rank = dist_init(&argc, &argv, r == 0 && o.mpi);
	if (rank > 0)
		return serve(&o, r);
	if (r != 0) {
		if (r < 0)
			fprintf(stderr, "x86smc: %s\n", err);
		else if (o.version)
			print_version();
		r = r < 0 ? 2 : 0;
	} else {
		r = run(&o);
	}
	return rank == 0 ? parallel_ranks_end(r) : r;
}

static int run(struct options *o_)
{
	struct options o = *o_;
	struct results res = { 0 };
	int r;

	if (check_program(o.argv[0]) < 0 || check_replay(&o) < 0)
		return 2;
	signal(SIGPIPE, SIG_IGN);
	proc_catch_interrupts();
	if (proc_set_deadline(o.timeout) < 0) {
		fprintf(stderr, "x86smc: --timeout: cannot set a timer\n");
		return 2;
	}
	log_verbose = o.verbose;
	if (o.profile)
		prof_begin();
	/* --jobs, MPI: each worker pins itself */
	if (o.jobs == 1 && dist_size() == 1)
		proc_pin_self(-1);
	if (o.robustness) {
		o.keep_going = true; /* every outcome of the weak model */
		if (o.model == MODEL_SC)
			o.model = MODEL_TSO;
	}
	r = explore(&o, &res);
	if (proc_deadline_passed())
		fprintf(stderr, "x86smc: stopped by --timeout %g s\n", o.timeout);
	if (o.robustness && r != 2 && !proc_interrupted()) {
		int rr = robustness(&o, &res);
		if (rr == 1 || (rr != 0 && r == 0))
			r = rr;
	}
	if (r != 2 || res.executions > 0 || proc_interrupted()) {
		FILE *human = (o.json && strcmp(o.json, "-") == 0) ? stderr
								  : stdout;
		int pp = prof_enter(PROF_REPORT);
		if (o.property)
			r = answer(&o, &res, r);
		report_text(&res, human, o.outcomes);
		svcomp_print(&res, human);
		if (write_json(&o, &res) < 0 && r == 0)
			r = 2;
		if ((write_sarif(&o, &res) < 0 || write_graph(&o, &res) < 0 ||
		     write_witness(&o, &res) < 0) &&
		    r == 0)
			r = 2;
		prof_leave(pp);
		fflush(human);
		profile_print(stderr, &res);
	}
	if (o.gdb || o.core) { /* after the report: it may exec gdb */
		if (res.handoff_pid <= 0)
			fprintf(stderr, "x86smc: --%s: the replayed execution "
					"left no process at a failure\n",
				o.core ? "core" : "gdb");
		else if (handoff_debug(res.handoff_pid, o.gdb, o.core) < 0 &&
			 r != 2)
			r = 2;
	}
	results_free(&res);
	report_resources(&o);
	return r;
}
