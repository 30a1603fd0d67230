/* main.c — options → one struct → explore → report. */
#include <signal.h>
#include <stdio.h>
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
	r = explore(&o, &res);
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
