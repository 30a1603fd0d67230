/* prof.h — --profile: where a search's wall time goes (issue 24).
 *
 * The time of the process is split into parts, exclusively: at any moment
 * one part is current, and prof_enter()/prof_leave() switch parts around
 * a piece of work.  A compound part (forks, ending an execution, replay,
 * the fence check, reports) keeps its inner work for itself: a fork's own
 * waits for stops are the fork's cost, not "waiting for stops".  Off
 * (the default) each call costs one branch. */
#ifndef X86SMC_PROF_H
#define X86SMC_PROF_H
#include <stdbool.h>
#include <stdint.h>

#include "clock.h"

enum prof_part {
	PROF_OWN,     /* x86smc's own work: decode, emulate, bookkeeping */
	PROF_WAIT,    /* waitpid for a stop: the target runs, the stop */
	PROF_PTRACE,  /* other ptrace requests (registers, cont, step) */
	PROF_MEM,     /* the target's memory read and written */
	PROF_DPOR,    /* race analysis, backtrack and sleep sets */
	PROF_LAUNCH,  /* compound: exec of the program, its native prefix */
	PROF_FORK,    /* compound: snapshot restores and checkpoints */
	PROF_KILL,    /* compound: killing and reaping an execution */
	PROF_REPLAY,  /* compound: re-running a prefix no fork saved */
	PROF_FENCE,   /* compound: the fence check's searches */
	PROF_REPORT,  /* compound: traces, JSON, SARIF, DOT */
	PROF_RECYCLE, /* compound: restores in the same process (recycle.c) */
	PROF_NPARTS
};

struct prof {
	bool on;
	int cur;
	uint64_t t; /* when cur became current (ns) */
	uint64_t ns[PROF_NPARTS], n[PROF_NPARTS];
	uint64_t start;
};

extern struct prof prof;

void prof_begin(void);

/* Make part current; returns what to give prof_leave (-1: nothing). */
static inline int prof_enter(enum prof_part part)
{
	if (!prof.on || prof.cur >= PROF_LAUNCH)
		return -1;
	uint64_t now = clock_ns();
	int prev = prof.cur;

	prof.ns[prev] += now - prof.t;
	prof.t = now;
	prof.cur = part;
	prof.n[part]++;
	return prev;
}

static inline void prof_leave(int prev)
{
	if (prev < 0)
		return;
	uint64_t now = clock_ns();

	prof.ns[prof.cur] += now - prof.t;
	prof.t = now;
	prof.cur = prev;
}

/* The cost of one ptrace stop on this CPU (ns), measured on a child
 * that stops at int3 in a loop (PTRACE_CONT + waitpid round trips); 0 if
 * it cannot be measured. */
double prof_stop_cost(void);
#endif
