/* results.h — what an exploration found: outcomes, errors, counters; and
 * its two renderings, the human summary and the JSON summary (keys in
 * DESIGN.md, "Interface contract"). */
#ifndef X86SMC_RESULTS_H
#define X86SMC_RESULTS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct outcome {
	char *out;          /* stdout bytes of the execution */
	size_t len;
	char status[48];    /* "exit 0", "signal SIGABRT", "deadlock", ... */
	unsigned long count;
	char *witness;      /* schedule of the first execution with it */
};

struct error_rec {
	char kind[24];      /* assertion, crash, deadlock, livelock, exit-code,
			     * signal, max-steps */
	char message[1024];
	int thread;
	uint64_t pc;
	char location[256];
	int preemptions;
	bool by_sample;     /* found by a PCT sample beside the search */
	char trace_file[512];
	char *trace;        /* the rendered execution (report/trace.h),
			     * malloc'd, owned by the results; may be NULL */
	char *schedule;     /* its schedule file text (--trace-out),
			     * malloc'd, may be NULL */
	/* --dot/--svg and --sarif, for the reported error (errors[0]):
	 * its execution as a happens-before graph (report/dot.h), and the
	 * SARIF members "locations" and "codeFlows" of its result
	 * (report/sarif.h); malloc'd, may be NULL */
	char *dot, *sarif;
	char *witness;      /* --witness: the reported error's violation
			     * witness (report/witness.h), malloc'd, or NULL */
};

/* Under tso/pso: a store→load reordering in the reported error's trace
 * (trace.h, struct trace_reorder), located. */
struct reorder_rec {
	int thread;
	uint64_t store_pc, load_pc;
	uint64_t fence_pc;          /* the last store before the load */
	bool store_store;           /* pso: "load" is a later store */
	bool recheck;               /* found re-checking with fences */
	char store[200], load[200]; /* "store+0x12 (dekker.c:29)" */
	char fence_at[200];         /* fence_pc, located */
};

/* The fence suggestion for the reported error (tso/pso). */
#define MAX_FENCES 8
struct fence_rec {
	bool ran;              /* the check ran */
	const char *sc;        /* the error under sc: "impossible",
				* "possible", "unknown" (not complete) */
	char sc_detail[160];
	int nfences;           /* suggested: an MFENCE after each */
	uint64_t pc[MAX_FENCES];
	char at[MAX_FENCES][200];
	int verified;          /* 1 the error is gone (complete), 0 an
				* error remains, -1 unknown (limits) */
	char recheck[400];     /* what the re-check found, in words */
	double seconds;        /* the check's time (not in elapsed_s) */
	double budget;         /* --fence-check: its budget (s) */
	char status[64];       /* "verified", "refuted", "not verified
				* within N s", "interrupted" */
};

struct results {
	const char *program, *model, *strategy;
	bool complete;
	unsigned long executions, blocked_executions, assume_blocked;
	/* executions cut where the only thread that could go on would have
	 * timed out beyond --max-timeouts (the others asleep): the bound's,
	 * not sleep-set blocked ones */
	unsigned long timeout_cut;
	struct error_rec *errors;
	size_t nerrors;
	struct outcome *outcomes;
	size_t noutcomes;
	double elapsed_s;
	uint64_t events, ptrace_stops;
	uint64_t replayed;      /* events of replayed schedule prefixes */
	uint64_t checkpoints;   /* checkpoints taken (forks of the target) */
	int jobs;               /* --jobs: workers */
	unsigned long traces;   /* distinct happens-before classes seen */
	long preemption_bound;  /* icb, --preemptions: the bound, -1 none */
	unsigned long max_steps_cut; /* executions ended by --max-steps */
	unsigned long threads_cut;   /* ended at the thread limit */
	unsigned long timeouts_pruned; /* timeout branches beyond
					* --max-timeouts, not explored */
	uint64_t pso_shared;    /* pso stores that shared a FIFO with
				 * another location (out of buffers) */
	uint64_t spin_live;     /* counted spins whose counter was read
				 * after the loop (tracer/spin.h) */
	bool sanity;            /* --sanity ran: the two counts below */
	uint64_t sanity_checked, sanity_mismatches;
	char note[256];     /* what was covered, in words */
	/* --estimate: the executions Knuth's estimator expects (0: not
	 * run), from how many probes in how many seconds, and the search's
	 * time at the probes' pace */
	double estimate, estimate_s, estimate_probe_s;
	unsigned estimate_probes;
	/* PCT samples run beside the search (explore.c, pct_sample); which
	 * error one of them found: error_rec.by_sample */
	unsigned long samples;
	/* --robustness: outcomes impossible under sc (pointers into
	 * outcomes[]), NULL-terminated; robust_checked: it ran */
	bool robust_checked;
	const struct outcome **non_sc;
	size_t nnon_sc;
	/* tso/pso: the reorderings in errors[0]'s trace, and the fence
	 * check (fence.ran) */
	struct reorder_rec reorders[4];
	int nreorders;
	struct fence_rec fence;
	bool head_shown;    /* errors[0]'s report was printed before the
			     * fence check (report_head) */
	char *trace;        /* --replay of an execution without error: its
			     * rendered trace (malloc'd) */
	int handoff_pid;    /* --replay --gdb / --core: the stopped process
			     * at the failure (tracer_handoff), 0: none */
	/* __VERIFIER_nondet_* values drawn from a domain smaller than
	 * their type (one bit per enum tr_nondet); the functions of that
	 * family the program defines and x86smc does not model */
	uint32_t nondet_bounded;
	char nondet_unmodelled[96];
	/* --property (report/svcomp.h): its name (NULL: none), and the
	 * answer svcomp_answer() gives */
	const char *property;
	char answer[8], answer_result[40], answer_reason[512];
};

/* Every execution run (each kind once): what --max-executions counts, and
 * the index the random strategies seed an execution with. */
static inline unsigned long results_runs(const struct results *r)
{
	return r->executions + r->blocked_executions + r->assume_blocked +
	       r->timeout_cut;
}

/* Count one execution's outcome (merged with an equal one); witness: the
 * schedule text of the execution (kept for the first one), may be NULL. */
int results_add_outcome(struct results *r, const char *out, size_t len,
			const char *status, const char *witness);
const struct outcome *results_find_outcome(const struct results *r,
					   const struct outcome *o);
struct error_rec *results_add_error(struct results *r);
/* Keep error e (copied; its trace and schedule are not) if it is new by
 * kind and location, or has fewer preemptions than the one of its kind
 * already kept (which it replaces, freeing its trace and schedule).
 * Returns the record, or NULL if e was not kept. */
struct error_rec *results_keep_error(struct results *r,
				     const struct error_rec *e);
void results_free(struct results *r);

void report_text(const struct results *r, FILE *f, bool outcomes);
/* errors[0]'s error line and trace, before the fence check runs (the
 * user sees the bug at once); report_text then goes on after them. */
void report_head(struct results *r, FILE *f);
int report_json(const struct results *r, FILE *f);
/* A JSON string literal of n bytes (escaped; invalid UTF-8 as \u00XX). */
void json_string(FILE *f, const char *s, size_t n);
#endif
