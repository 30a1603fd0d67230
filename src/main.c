/* main.c — options → one struct → explore → report. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dpor/explore.h"
#include "options.h"
#include "report/results.h"
#include "tracer/log.h"
#include "tracer/proc.h"

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

static int check_program(const char *path)
{
	if (access(path, F_OK) != 0) {
		fprintf(stderr, "x86smc: %s: no such file\n", path);
		return -1;
	}
	if (access(path, X_OK) != 0) {
		fprintf(stderr, "x86smc: %s: not executable\n", path);
		return -1;
	}
	return 0;
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

int main(int argc, char **argv)
{
	struct options o;
	struct results res = { 0 };
	char err[256];
	int r;

	r = opts_parse(argc, argv, &o, err, sizeof err);
	if (r != 0) {
		if (r < 0)
			fprintf(stderr, "x86smc: %s\n", err);
		return r < 0 ? 2 : 0;
	}
	if (o.model == MODEL_PSO || o.jobs != 1 ||
	    o.strategy == STRAT_ICB || o.strategy == STRAT_RANDOM) {
		fprintf(stderr, "x86smc: --model %s / --strategy %s / --jobs "
				"are not implemented yet\n",
			model_name(o.model), strategy_name(o.strategy));
		return 2;
	}
	if (check_program(o.argv[0]) < 0)
		return 2;
	signal(SIGPIPE, SIG_IGN);
	proc_catch_interrupts();
	log_verbose = o.verbose;
	proc_pin_self(-1);
	if (o.robustness) {
		o.keep_going = true; /* every outcome of the weak model */
		if (o.model == MODEL_SC)
			o.model = MODEL_TSO;
	}
	r = explore(&o, &res);
	if (o.robustness && r != 2 && !proc_interrupted()) {
		int rr = robustness(&o, &res);
		if (rr == 1 || (rr != 0 && r == 0))
			r = rr;
	}
	if (r != 2 || res.executions > 0 || proc_interrupted()) {
		FILE *human = (o.json && strcmp(o.json, "-") == 0) ? stderr
								  : stdout;
		report_text(&res, human, o.outcomes);
		if (write_json(&o, &res) < 0 && r == 0)
			r = 2;
	}
	results_free(&res);
	return r;
}
