/* trace.h — one execution (the reported error's) rendered for a person,
 * and the store→load reorderings in it (the fence suggestion).
 * How to read the output: docs/TRACES.md.
 *
 * Input: the events of the execution in the order they were performed
 * (struct tr_event, tracer.h), the threads enabled before each one (to
 * mark preemptions), and how the execution ended.  The renderer asks the
 * target nothing itself: symbols come from a struct symtab, the rest
 * through the callbacks of struct trace_env (the explorer wires them to
 * the tracer), so it works after the target is gone.
 *
 * What is shown, per step: number, thread (Tn; "Tn+" is the store buffer
 * of Tn: its update events), where (function and file:line, or the
 * caller's for pthread_create/join/exit), the instruction (Capstone, Intel
 * syntax), and its effect: accesses with symbolized address and value,
 * stores entering a store buffer, updates leaving it, loads that read
 * memory while another thread's store to that location was still
 * buffered ("stale"), threads created / joined / exiting.
 *
 * What is folded: a step is shown when its code is in the executable,
 * when it conflicts with a step of another thread (same bytes, one a
 * write; data inside libraries does not count), when it creates, joins or
 * ends a thread, writes output, is a fence, or is the last step of its
 * thread.  Runs of other steps of one thread (its buffer's updates
 * included) become one line "... N steps of Tn in f, g, ...".  A switch
 * away from a thread that could have continued is marked as a
 * preemption.  The failure comes last.
 */
#ifndef X86SMC_TRACE_H
#define X86SMC_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/results.h"
#include "report/sym.h"
#include "tracer/tracer.h"

struct trace_env {
	struct symtab *sym; /* NULL: raw addresses */
	/* the thread whose stack (*tls false) or TLS holds addr, or -1 */
	int (*owner)(void *ctx, uint64_t addr, bool *tls);
	/* the bytes of the instruction at pc, 0 if unknown */
	size_t (*insn)(void *ctx, uint64_t pc, uint8_t *buf, size_t n);
	void *ctx;
	bool frames_all; /* --frames all: every frame of a step */
};

struct trace_in {
	const char *model;         /* "sc", "tso", "pso" */
	const struct tr_event *ev; /* the steps, in execution order */
	const tset *enabled;       /* threads enabled before each, or NULL */
	size_t n;
	int preemptions;
	const struct error_rec *err; /* NULL: the execution had no error */
	const char *status;          /* how it ended ("exit 0", ...) */
	int sig;                     /* crash: the signal */
	uint64_t fault_addr;         /* crash: si_addr */
};

/* The text of the trace (malloc'd, ends with a newline), or NULL. */
char *trace_render(const struct trace_env *env, const struct trace_in *in);

/* A store→load reordering that TSO/PSO allow and SC does not (or, under
 * PSO, store→store: see store_store): thread
 * `thread` buffered a store (step `store`) and, while it was still in its
 * buffer, performed a load (step `load`) of another location that another
 * thread writes; and another thread accessed the store's location in that
 * window (step `seen`: it read the older value, or wrote before it), so
 * the delay is observable.  An MFENCE after the last store the thread
 * buffered before the load (the instruction at fence_pc) forbids it. */
struct trace_reorder {
	int thread;
	size_t store, load, seen;
	uint64_t store_pc, load_pc, fence_pc;
	bool store_store; /* pso: `load` is a later store of the thread
			   * that reached memory first; the fence goes
			   * right after the store */
};

/* The reorderings of the execution, one per distinct (fence pc, load
 * pc), in order of the store; at most max.  Returns how many. */
int trace_reorders(const struct trace_env *env, const struct trace_in *in,
		   struct trace_reorder *out, int max);

/* A line of the program's source: the frame --frames user shows. */
struct trace_src {
	const char *func, *file; /* file: basename, NULL if unknown */
	const char *path;        /* as DWARF names it (sym_path), or NULL */
	int line;
};

/* Where error e is in the program's source (for a deadlock, whose pc is
 * a return address, the call); false if it has no line. */
bool trace_error_source(const struct trace_env *env,
			const struct error_rec *e, struct trace_src *out);

/* The trace as data, for its other renderings (the happens-before graph,
 * dot.h; SARIF code flows, sarif.h): the same lines the text shows, each
 * a step or a folded run of one thread's steps, with the same texts. */
struct trace_step {
	size_t first, n;  /* events [first, first + n) of trace_in.ev; n > 1:
			   * a folded run ("... 7 steps of T1 in f") */
	int thread;       /* its logical thread (an update: its buffer's) */
	bool update;      /* only update events (Tn+) */
	bool preempted;   /* a preemption comes right before it */
	char *where;      /* as the text shows them; a folded run: where ""
			   * and insn "", effect "... 7 steps of T1 in f" */
	char *insn;
	char *effect;     /* "buffer flag = 1", "read flag = 0  <- stale:
			   * ..." (without the text's leading blanks) */
	/* the program's own source line of a step (an update: none) */
	struct trace_src src;
};

struct trace_steps {
	struct trace_step *v;
	size_t n;
	size_t *step_of; /* [event] the index in v of its line */
	long *src;       /* [event] an update: the event that buffered its
			  * store, else -1 */
	long *stale;     /* [event] a load that read past another thread's
			  * buffered store ("<- stale"): that store's
			  * event, else -1 */
	char *failure;   /* the failure as the text ends ("failure: ...",
			  * lines), or NULL */
};

/* Fill *out (free with trace_steps_free); 0, or -1 out of memory. */
int trace_steps(const struct trace_env *env, const struct trace_in *in,
		struct trace_steps *out);
void trace_steps_free(struct trace_steps *s);

/* A data address as traces show it ("flag+0x4", "0x7ffd... (stack of
 * T1)", "(heap)"): fills buf, returns it. */
const char *trace_data_text(const struct trace_env *env, uint64_t addr,
			    char *buf, size_t n);

#endif
