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
	const uint64_t *enabled;   /* threads enabled before each, or NULL */
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

#endif
