/* options.h — every option of x86smc in one struct, filled by
 * opts_parse() and passed down (no option lives in a global). */
#ifndef X86SMC_OPTIONS_H
#define X86SMC_OPTIONS_H
#include <stdbool.h>
#include <stdint.h>

#define X86SMC_VERSION "0.1.0"

enum model { MODEL_SC, MODEL_TSO, MODEL_PSO };
/* --property FILE.prp (SV-COMP, docs/SVCOMP.md): which errors are
 * violations; the others end a path */
enum property { PROP_NONE, PROP_UNREACH_CALL, PROP_NO_DATA_RACE };
enum strategy { STRAT_DEFAULT, STRAT_DPOR, STRAT_EXHAUSTIVE, STRAT_ICB,
		STRAT_RANDOM, STRAT_PCT, STRAT_SOURCE, STRAT_OPTIMAL };

struct options {
	enum model model;
	enum strategy strategy;
	long preemptions;               /* -1: unbounded */
	unsigned long max_executions;   /* 0: unlimited */
	unsigned long max_steps;        /* per execution, 0: unlimited */
	double timeout;                 /* seconds, 0: none */
	unsigned long min_runs; /* executions before --timeout applies (the
				 * fence check's searches) */
	bool keep_going, outcomes, robustness, sanity;
	bool no_timeouts; /* timed waits time out only when nothing runs */
	bool profile;     /* --profile: report/profile.c */
	bool estimate;    /* --estimate: probes before the search */
	bool no_samples;  /* --no-samples: no PCT samples beside dpor */
	int max_threads;  /* --max-threads: logical threads (0: x86smc's 128) */
	double fence_check; /* --fence-check: budget in s, 0 off, -1 default */
	long max_timeouts; /* a thread's timeouts in a row explored (1) */
	const char *json, *trace_out, *replay, *nondet_domain;
	int jobs;
	uint64_t seed;
	int verbose;
	char **argv;                    /* PROGRAM ARGS..., NULL-terminated */
	/* --assume-fence ADDR (repeatable): an MFENCE is simulated right
	 * after the instruction at ADDR (hex pc or symbol+offset) */
#define MAX_ASSUMED_FENCES 16
	const char *assume_fence[MAX_ASSUMED_FENCES];
	int nassume_fence;
	/* --nondet-domain LO..HI|V,V,...: the values every
	 * __VERIFIER_nondet_* call (but _bool: 0, 1) returns in turn;
	 * default 0..1 */
#define MAX_NONDET_VALUES 256
	int64_t nondet_val[MAX_NONDET_VALUES];
	int nnondet;
	/* the library policy (docs/LIBRARY.md): --atomic-call NAME runs
	 * every call of the function NAME as one step (like a
	 * __VERIFIER_atomic_ function); --no-atomic-call NAME explores NAME
	 * instruction by instruction, "all": the whole built-in policy */
#define MAX_ATOMIC_CALLS 32
	const char *atomic_call[MAX_ATOMIC_CALLS];
	int natomic_call;
	const char *no_atomic_call[MAX_ATOMIC_CALLS];
	int nno_atomic_call;
	bool sync_instructions; /* --sync instructions: pthread calls
				 * explored as glibc's code (default:
				 * one event each, src/tracer/sync.c) */
	bool nested; /* an exploration x86smc runs itself (the fence
		      * check): no progress line, no nested checks */
	bool frames_all; /* --frames all: every frame of each trace step
			  * (default user: the program's own, collapsed) */
	bool gdb;          /* --replay FILE --gdb: hand the stopped process
			    * at the failing instruction to gdb */
	const char *core;  /* --replay FILE --core F: write a core file of
			    * it there */
	/* the reported error's execution as a happens-before graph:
	 * --dot FILE (Graphviz DOT), --svg FILE (rendered by dot -Tsvg);
	 * --sarif FILE: SARIF 2.1.0 results ("-" = stdout for all three) */
	const char *dot, *svg, *sarif;
	/* --property FILE (its name; main.c reads it into property),
	 * --races: the data-race monitor (on under no-data-race),
	 * --witness FILE: a violation witness (format 2.0, YAML) */
	const char *property_file, *witness;
	enum property property;
	bool races;
	/* output oracles (issue 17): --expect-exit N (the status a correct
	 * run ends with; default 0), --expect-stdout FILE, --expect-file
	 * PATH=GOLDEN: an execution that ends otherwise is an error of kind
	 * exit-code or wrong-output */
	long expect_exit;
	const char *expect_stdout;
#define MAX_EXPECT_FILES 8
	const char *expect_path[MAX_EXPECT_FILES];
	const char *expect_golden[MAX_EXPECT_FILES];
	int nexpect_files;
	bool version; /* --version: opts_parse returned 1, main prints it */
	bool mpi;     /* --mpi: join an MPI job (dist.h) even when its
		       * environment does not say so */
};

/* Parse argv.  Returns 0 (run), 1 (help/version printed: exit 0), or -1
 * with a one-line message in err (exit 2). */
int opts_parse(int argc, char **argv, struct options *o, char *err,
	       int errsize);
void opts_usage(void);
const char *model_name(enum model m);
const char *strategy_name(enum strategy s);
#endif
