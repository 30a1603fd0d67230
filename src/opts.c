/* opts.c — the command line (interface contract in DESIGN.md). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "tracer/tracer.h"

static const char *const models[] = { "sc", "tso", "pso" };
static const char *const strategies[] = { "default", "dpor", "exhaustive",
					   "icb", "random", "pct", "source",
					   "optimal" };

const char *model_name(enum model m)
{
	return models[m];
}

const char *strategy_name(enum strategy s)
{
	return strategies[s];
}

void opts_usage(void)
{
	puts("usage: x86smc [options] [--] PROGRAM [ARGS...]\n"
	     "  --model sc|tso|pso          memory model (default tso)\n"
	     "  --strategy dpor|source|optimal|exhaustive|icb|random|pct\n"
	     "                              dpor (default) = optimal: "
	     "Optimal-DPOR\n"
	     "                              (wakeup trees) under sc and "
	     "tso, Source-DPOR\n"
	     "                              under pso and --jobs; source: "
	     "Source-DPOR;\n"
	     "                              exhaustive: "
	     "every\n"
	     "                              interleaving; icb: by preemptions "
	     "0..N (default 2);\n"
	     "                              random, pct: sampled executions "
	     "(--seed S,\n"
	     "                              --max-executions, default 1000)\n"
	     "  --preemptions N             preemption bound (icb; also "
	     "dpor, exhaustive)\n"
	     "  --seed S                    random and pct: the generator's "
	     "seed (default 0)\n"
	     "  --max-executions N  --timeout SECONDS\n"
	     "  --max-threads N             threads an execution may create "
	     "(default and\n"
	     "                              at most 128): the execution is "
	     "cut there (exit 3)\n"
	     "  --max-steps N               events per execution (default "
	     "100000, 0 = none)\n"
	     "  --keep-going                do not stop at the first error\n"
	     "  --no-timeouts               a timed wait times out only when "
	     "no thread can\n"
	     "                              run (default: whenever it could, "
	     "docs/EVENTS.md)\n"
	     "  --max-timeouts N            timeouts of a thread per execution "
	     "explored (1)\n"
	     "  --outcomes                  print the table of outcomes\n"
	     "  --json FILE                 JSON summary (- = stdout)\n"
	     "  --trace-out FILE            write the first error's schedule\n"
	     "  --replay FILE               re-run that schedule\n"
	     "  --dot FILE  --svg FILE      the first error's execution as a "
	     "happens-before\n"
	     "                              graph: Graphviz DOT, or SVG "
	     "(needs dot)\n"
	     "  --sarif FILE                SARIF 2.1.0 results (code "
	     "scanning, CI)\n"
	     "  --assume-fence ADDR         simulate an MFENCE right after "
	     "the instruction\n"
	     "                              at ADDR (hex pc or symbol+off; "
	     "repeatable)\n"
	     "  --atomic-call NAME          run each call of function NAME as "
	     "one step\n"
	     "  --no-atomic-call NAME|all   explore NAME (a malloc or stdio "
	     "function) by\n"
	     "                              instruction (docs/LIBRARY.md; "
	     "both repeatable)\n"
	     "  --nondet-domain LO..HI|V,V,...\n"
	     "                              values every __VERIFIER_nondet_* "
	     "call returns in\n"
	     "                              turn (default 0..1; _bool: 0..1; "
	     "at most 256)\n"
	     "  --sync calls|instructions   pthread mutexes, condvars, "
	     "semaphores, barriers,\n"
	     "                              rwlocks as one event per call "
	     "(default), or\n"
	     "                              glibc's code instruction by "
	     "instruction\n"
	     "  --frames user|all           trace steps: the program's own "
	     "frame (default)\n"
	     "                              or every inlined and calling "
	     "frame\n"
	     "  --gdb  --core FILE          with --replay: hand the process "
	     "stopped at the\n"
	     "                              failing instruction to gdb, or "
	     "write its core\n"
	     "  --property FILE.prp         SV-COMP property (unreach-call, "
	     "no-data-race):\n"
	     "                              only its violations are errors; "
	     "prints the answer\n"
	     "                              true|false|unknown "
	     "(docs/SVCOMP.md)\n"
	     "  --races                     data-race monitor (error kind "
	     "data-race)\n"
	     "  --witness FILE              SV-COMP violation witness "
	     "(format 2.0, YAML)\n"
	     "  --expect-exit N             the exit status of a correct run "
	     "(default 0)\n"
	     "  --expect-stdout FILE        stdout must equal FILE, else "
	     "wrong-output\n"
	     "  --expect-file PATH=GOLDEN   at the end PATH must equal GOLDEN "
	     "(repeatable)\n"
	     "  --jobs N                    parallel workers (per MPI rank "
	     "under mpirun)\n"
	     "  --mpi                       join an MPI job even if its "
	     "environment is unknown\n"
	     "  --fence-check off|SECONDS   after a tso/pso error: is it "
	     "possible under sc,\n"
	     "                              does the suggested fence fix it "
	     "(default budget:\n"
	     "                              a quarter of the search, 0.1-10 "
	     "s)\n"
	     "  --profile                   where the time went: stops, forks, "
	     "replay, analysis\n"
	     "                              (stderr, JSON \"profile\"; "
	     "docs/PERFORMANCE.md)\n"
	     "  --no-samples                no PCT samples beside the dpor "
	     "search (one per 8\n"
	     "                              executions after the first 1000, "
	     "per 4 after 10000)\n"
	     "  --estimate                  before the search, estimate its "
	     "executions and time\n"
	     "                              (random probes, Knuth's estimator; "
	     "JSON \"estimate\")\n"
	     "  --robustness  --sanity\n"
	     "  -v (verbose)  -h/--help  --version\n"
	     "exit status: 0 no error, 1 error found, 2 usage error or the "
	     "target could not be run, 3 stopped by a limit;\n"
	     "  under --property: 0 true, 1 false, 3 unknown");
}

static int parse_ulong(const char *s, unsigned long *v)
{
	char *end;

	errno = 0;
	if (!s || *s == '-' || *s == 0)
		return -1;
	*v = strtoul(s, &end, 10);
	return (errno || *end) ? -1 : 0;
}

static int parse_long(const char *s, const char **end, int64_t *v)
{
	char *e;

	errno = 0;
	*v = strtoll(s, &e, 10);
	*end = e;
	return (errno || e == s) ? -1 : 0;
}

/* --nondet-domain: "LO..HI" or "V,V,..." (distinct values, in the order
 * they are explored). */
static int parse_domain(const char *s, struct options *o)
{
	const char *p = s, *end;
	int64_t lo, hi;

	o->nnondet = 0;
	if (parse_long(s, &end, &lo) < 0)
		return -1;
	if (end[0] == '.' && end[1] == '.') {
		if (parse_long(end + 2, &end, &hi) < 0 || *end || hi < lo ||
		    (uint64_t)hi - (uint64_t)lo >= MAX_NONDET_VALUES)
			return -1;
		for (uint64_t n = (uint64_t)hi - (uint64_t)lo + 1; n; n--)
			o->nondet_val[o->nnondet++] = hi - (int64_t)(n - 1);
		return 0;
	}
	for (;;) {
		if (parse_long(p, &end, &lo) < 0 ||
		    o->nnondet == MAX_NONDET_VALUES)
			return -1;
		for (int i = 0; i < o->nnondet; i++)
			if (o->nondet_val[i] == lo)
				return -1;
		o->nondet_val[o->nnondet++] = lo;
		if (*end == 0)
			return 0;
		if (*end != ',')
			return -1;
		p = end + 1;
	}
}

static int pick(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

enum { O_MODEL = 256, O_STRATEGY, O_PREEMPT, O_MAXEXEC, O_TIMEOUT,
       O_MAXSTEPS, O_KEEP, O_OUTCOMES, O_JSON, O_TRACEOUT, O_REPLAY, O_JOBS,
       O_ROBUST, O_NONDET, O_SANITY, O_VERSION, O_SEED, O_FENCE,
       O_ATOMIC_CALL, O_NO_ATOMIC_CALL, O_SYNC, O_FRAMES, O_GDB, O_CORE,
       O_DOT, O_SVG, O_SARIF, O_NO_TIMEOUTS, O_PROFILE, O_FENCE_CHECK, O_MAX_TIMEOUTS, O_PROPERTY,
       O_RACES, O_WITNESS, O_EXPECT_EXIT, O_EXPECT_STDOUT, O_EXPECT_FILE,
       O_MPI, O_ESTIMATE, O_NO_SAMPLES, O_MAX_THREADS };

static const struct option longopts[] = {
	{ "model", required_argument, 0, O_MODEL },
	{ "strategy", required_argument, 0, O_STRATEGY },
	{ "preemptions", required_argument, 0, O_PREEMPT },
	{ "max-executions", required_argument, 0, O_MAXEXEC },
	{ "timeout", required_argument, 0, O_TIMEOUT },
	{ "max-steps", required_argument, 0, O_MAXSTEPS },
	{ "keep-going", no_argument, 0, O_KEEP },
	{ "no-timeouts", no_argument, 0, O_NO_TIMEOUTS },
	{ "profile", no_argument, 0, O_PROFILE },
	{ "estimate", no_argument, 0, O_ESTIMATE },
	{ "no-samples", no_argument, 0, O_NO_SAMPLES },
	{ "max-threads", required_argument, 0, O_MAX_THREADS },
	{ "fence-check", required_argument, 0, O_FENCE_CHECK },
	{ "max-timeouts", required_argument, 0, O_MAX_TIMEOUTS },
	{ "outcomes", no_argument, 0, O_OUTCOMES },
	{ "json", required_argument, 0, O_JSON },
	{ "trace-out", required_argument, 0, O_TRACEOUT },
	{ "replay", required_argument, 0, O_REPLAY },
	{ "jobs", required_argument, 0, O_JOBS },
	{ "mpi", no_argument, 0, O_MPI },
	{ "robustness", no_argument, 0, O_ROBUST },
	{ "nondet-domain", required_argument, 0, O_NONDET },
	{ "sanity", no_argument, 0, O_SANITY },
	{ "seed", required_argument, 0, O_SEED },
	{ "assume-fence", required_argument, 0, O_FENCE },
	{ "atomic-call", required_argument, 0, O_ATOMIC_CALL },
	{ "no-atomic-call", required_argument, 0, O_NO_ATOMIC_CALL },
	{ "sync", required_argument, 0, O_SYNC },
	{ "frames", required_argument, 0, O_FRAMES },
	{ "gdb", no_argument, 0, O_GDB },
	{ "core", required_argument, 0, O_CORE },
	{ "dot", required_argument, 0, O_DOT },
	{ "svg", required_argument, 0, O_SVG },
	{ "sarif", required_argument, 0, O_SARIF },
	{ "property", required_argument, 0, O_PROPERTY },
	{ "races", no_argument, 0, O_RACES },
	{ "witness", required_argument, 0, O_WITNESS },
	{ "expect-exit", required_argument, 0, O_EXPECT_EXIT },
	{ "expect-stdout", required_argument, 0, O_EXPECT_STDOUT },
	{ "expect-file", required_argument, 0, O_EXPECT_FILE },
	{ "help", no_argument, 0, 'h' },
	{ "version", no_argument, 0, O_VERSION },
	{ 0, 0, 0, 0 },
};

static const char *opt_name(int c)
{
	for (const struct option *l = longopts; l->name; l++)
		if (l->val == c)
			return l->name;
	return "?";
}

static int set(struct options *o, int c, const char *arg, char *err,
	       int errsize)
{
	unsigned long v = 0;
	int i;

	switch (c) {
	case O_MODEL:
		if ((i = pick(arg, models, 3)) < 0)
			goto bad;
		o->model = (enum model)i;
		return 0;
	case O_STRATEGY:
		i = pick(arg, strategies,
			 (int)(sizeof strategies / sizeof strategies[0]));
		if (i < 1)
			goto bad;
		o->strategy = (enum strategy)i;
		return 0;
	case O_PREEMPT:
		if (parse_ulong(arg, &v) < 0)
			goto bad;
		o->preemptions = (long)v;
		return 0;
	case O_MAXEXEC:
		if (parse_ulong(arg, &o->max_executions) < 0)
			goto bad;
		return 0;
	case O_MAXSTEPS:
		if (parse_ulong(arg, &o->max_steps) < 0)
			goto bad;
		return 0;
	case O_MAX_THREADS: /* x86smc holds TR_AUX_BASE logical threads */
		if (parse_ulong(arg, &v) < 0 || v < 1 || v > TR_AUX_BASE)
			goto bad;
		o->max_threads = (int)v;
		return 0;
	case O_MAX_TIMEOUTS:
		if (parse_ulong(arg, &v) < 0 || v > 255)
			goto bad;
		o->max_timeouts = (long)v;
		return 0;
	case O_JOBS:
		if (parse_ulong(arg, &v) < 0 || v < 1 || v > 256)
			goto bad;
		o->jobs = (int)v;
		return 0;
	case O_MPI:
		o->mpi = true;
		return 0;
	case O_SEED:
		if (parse_ulong(arg, &v) < 0)
			goto bad;
		o->seed = v;
		return 0;
	case O_TIMEOUT: {
		char *end;
		o->timeout = strtod(arg, &end);
		if (*end || o->timeout < 0 || arg == end)
			goto bad;
		return 0;
	}
	case O_SYNC:
		if (strcmp(arg, "calls") && strcmp(arg, "instructions"))
			goto bad;
		o->sync_instructions = arg[0] == 'i';
		return 0;
	case O_FRAMES:
		if (strcmp(arg, "user") && strcmp(arg, "all"))
			goto bad;
		o->frames_all = arg[0] == 'a';
		return 0;
	case O_GDB: o->gdb = true; return 0;
	case O_CORE:
		if (!*arg)
			goto bad;
		o->core = arg;
		return 0;
	case O_DOT: case O_SVG: case O_SARIF:
		if (!*arg)
			goto bad;
		*(c == O_DOT ? &o->dot : c == O_SVG ? &o->svg : &o->sarif) = arg;
		return 0;
	case O_PROPERTY: case O_WITNESS:
		if (!*arg)
			goto bad;
		*(c == O_PROPERTY ? &o->property_file : &o->witness) = arg;
		return 0;
	case O_RACES: o->races = true; return 0;
	case O_EXPECT_EXIT:
		if (parse_ulong(arg, &v) < 0 || v > 255)
			goto bad;
		o->expect_exit = (long)v;
		return 0;
	case O_EXPECT_STDOUT:
		if (!*arg)
			goto bad;
		o->expect_stdout = arg;
		return 0;
	case O_EXPECT_FILE: {
		const char *eq = strchr(arg, '=');
		if (!eq || eq == arg || !eq[1] ||
		    o->nexpect_files == MAX_EXPECT_FILES)
			goto bad;
		char *path = strndup(arg, (size_t)(eq - arg));
		if (!path)
			goto bad;
		o->expect_path[o->nexpect_files] = path;
		o->expect_golden[o->nexpect_files++] = eq + 1;
		return 0;
	}
	case O_KEEP: o->keep_going = true; return 0;
	case O_NO_TIMEOUTS: o->no_timeouts = true; return 0;
	case O_PROFILE: o->profile = true; return 0;
	case O_ESTIMATE: o->estimate = true; return 0;
	case O_NO_SAMPLES: o->no_samples = true; return 0;
	case O_FENCE_CHECK: {
		char *end;
		if (strcmp(arg, "off") == 0) {
			o->fence_check = 0;
			return 0;
		}
		o->fence_check = strtod(arg, &end);
		if (*end || arg == end || !(o->fence_check > 0))
			goto bad;
		return 0;
	}
	case O_OUTCOMES: o->outcomes = true; return 0;
	case O_ROBUST: o->robustness = true; return 0;
	case O_SANITY: o->sanity = true; return 0;
	case O_JSON: o->json = arg; return 0;
	case O_TRACEOUT: o->trace_out = arg; return 0;
	case O_REPLAY: o->replay = arg; return 0;
	case O_NONDET:
		if (parse_domain(arg, o) < 0)
			goto bad;
		o->nondet_domain = arg;
		return 0;
	case O_FENCE:
		if (!*arg || o->nassume_fence == MAX_ASSUMED_FENCES)
			goto bad;
		o->assume_fence[o->nassume_fence++] = arg;
		return 0;
	case O_ATOMIC_CALL:
		if (!*arg || o->natomic_call == MAX_ATOMIC_CALLS)
			goto bad;
		o->atomic_call[o->natomic_call++] = arg;
		return 0;
	case O_NO_ATOMIC_CALL:
		if (!*arg || o->nno_atomic_call == MAX_ATOMIC_CALLS)
			goto bad;
		o->no_atomic_call[o->nno_atomic_call++] = arg;
		return 0;
	case 'v': o->verbose++; return 0;
	default:
		snprintf(err, (size_t)errsize, "unknown option (see --help)");
		return -1;
	}
bad:
	snprintf(err, (size_t)errsize, "invalid value '%s' for --%s", arg,
		 opt_name(c));
	return -1;
}

int opts_parse(int argc, char **argv, struct options *o, char *err,
	       int errsize)
{
	int c;
	bool model_given = false;

	memset(o, 0, sizeof *o);
	o->model = MODEL_TSO;
	o->strategy = STRAT_DEFAULT;
	o->preemptions = -1;
	o->max_timeouts = 1;
	o->jobs = 1;
	o->fence_check = -1;
	o->max_steps = 100000; /* an execution longer than this is cut */
	o->nondet_val[0] = 0;  /* --nondet-domain 0..1 */
	o->nondet_val[1] = 1;
	o->nnondet = 2;
	optind = 0; /* glibc: a full reset (1 would resume a previous
		     * call's half-scanned "-vh" cluster) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+hv", longopts, NULL)) != -1) {
		if (c == 'h') {
			opts_usage();
			return 1;
		}
		if (c == O_VERSION) { /* main prints it: the decoders' too */
			o->version = true;
			return 1;
		}
		if (c == '?' || c == ':') {
			snprintf(err, (size_t)errsize,
				 "unknown or incomplete option '%s' (see "
				 "--help)", argv[optind - 1]);
			return -1;
		}
		if (set(o, c, optarg, err, errsize) < 0)
			return -1;
		model_given |= c == O_MODEL;
	}
	if (o->property_file && !model_given)
		o->model = MODEL_SC; /* SV-COMP's semantics */
	if ((o->gdb || o->core) && !o->replay) {
		snprintf(err, (size_t)errsize, "--%s needs --replay FILE (the "
			 "schedule to run to the failure)",
			 o->gdb ? "gdb" : "core");
		return -1;
	}
	if (o->estimate && (o->strategy == STRAT_RANDOM ||
			    o->strategy == STRAT_PCT || o->strategy == STRAT_ICB ||
			    o->replay)) {
		snprintf(err, (size_t)errsize, "--estimate estimates a dpor, "
			 "source, optimal or exhaustive search (random and pct "
			 "run --max-executions, icb one tree per bound)");
		return -1;
	}
	if (o->profile && o->jobs > 1) {
		snprintf(err, (size_t)errsize, "--profile measures one "
			 "process: use it with --jobs 1");
		return -1;
	}
	if (optind >= argc) {
		snprintf(err, (size_t)errsize, "no program given (see --help)");
		return -1;
	}
	o->argv = &argv[optind];
	return 0;
}
