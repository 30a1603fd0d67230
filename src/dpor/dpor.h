/* dpor.h — the exploration tree of Source-DPOR with sleep sets (Abdulla,
 * Aronis, Jonsson, Sagonas, "Optimal Dynamic Partial Order Reduction",
 * POPL 2014, Algorithm 1), of Optimal-DPOR with wakeup trees (the same
 * authors, JACM 2017; dpor_set_optimal, wakeup.c), and of the exhaustive
 * strategy (every interleaving, no reduction: the oracle the tests
 * compare DPOR with).
 *
 * The explorer runs one execution at a time.  At every scheduling point k
 * it asks dpor_choose() which thread performs the k-th event, and reports
 * the event with dpor_executed().  When the execution is over,
 * dpor_next() picks the next branch (the deepest node whose backtrack set
 * holds a thread not yet explored and not asleep) and the explorer starts
 * a new execution, which replays the schedule prefix up to that node.
 *
 * Happens-before: vector clocks over the events of the current
 * execution.  Event j of thread p is ordered after p's previous event
 * (program order), after the event that spawned p, after the event that
 * woke p (futex wake, exit waking a joiner) and after every earlier event
 * it conflicts with.  Two events of different threads conflict when their
 * access sets overlap with at least one write (futex words, the output of
 * an fd, "the kernel" are locations too), or when one of them ends the
 * process.  A race is a pair (i, j) of conflicting events of different
 * threads with no happens-before path from i to j other than their
 * conflict; for each race, Source-DPOR (Alg. 1, lines 4-8) makes sure that
 * some initial of notdep(i).j is in the backtrack set at i's node.
 */
#ifndef X86SMC_DPOR_H
#define X86SMC_DPOR_H

#include <stdbool.h>
#include <stdint.h>

#include "tracer/tracer.h"

struct dpor;

struct dpor *dpor_new(bool exhaustive, long preemption_bound);
void dpor_free(struct dpor *d);

/* Optimal-DPOR with wakeup trees (JACM'17; dpor_priv.h, wakeup.c)
 * instead of Source-DPOR's backtrack sets: on a new tree without a
 * preemption bound, for one worker (--jobs splits Source-DPOR trees). */
void dpor_set_optimal(struct dpor *d, bool on);

/* Thread to run at scheduling point k, given the runnable threads;
 * prefer: the current thread (the default policy keeps it).  Returns -1
 * when every runnable thread is asleep (a sleep-set-blocked execution:
 * abandon it), -2 when the replayed prefix does not fit (the target is
 * not deterministic). */
int dpor_choose(struct dpor *d, unsigned k, tset enabled, int prefer);

/* Undo dpor_choose(k) when the chosen thread performed no event (it
 * blocked while running natively). */
void dpor_retract(struct dpor *d, unsigned k);

/* The event performed at point k (by the thread dpor_choose returned). */
int dpor_executed(struct dpor *d, unsigned k, const struct tr_event *ev);

/* Does every later event of thread tid happen after every event so far
 * (its clock covers the last event of every other thread and buffer)?
 * Then none of them can race with an earlier event, and the tracer may
 * run tid without events once it is the only live thread. */
bool dpor_covered(const struct dpor *d, int tid);

/* The process ended after the event at point k (exit_group, a crash, an
 * abort, reach_error) while other threads could still run: their pending
 * events are disabled by it, so each conflicts with it.  Reversing those
 * races (Source-DPOR, POPL'14 Alg. 1 lines 4-8, with notdep(k).e = e)
 * puts each thread enabled at point k into its backtrack set: a thread
 * that never ran, or a buffer never flushed, must get its turn before
 * the end. */
void dpor_ended(struct dpor *d, unsigned k);
/* The execution ended with thread p blocked on the lock at obj (a mutex,
 * rwlock, semaphore or futex word lock): its call races with the events
 * by which the other threads hold obj. */
void dpor_blocked(struct dpor *d, int p, uint64_t obj);

/* Threads (mask) whose event at the next dpor_choose is a timeout: a
 * new node takes them only when no other thread is allowed. */
void dpor_set_last(struct dpor *d, tset last);

/* Threads (mask) whose event at the next dpor_choose ends the process
 * (exit_group, a failed assertion, reach_error): a free choice takes
 * them only when no other thread may run.  An end that comes first kills
 * the threads that could still run, and each of them is then tried
 * before it (dpor_ended): a branch that ends sleep-set blocked unless
 * the thread shows something outside; run after them, the end cuts
 * nothing and only races with what they show. */
void dpor_set_ends(struct dpor *d, tset ends);

/* Explore executions in which each thread times out at most n times
 * while another thread could have run (a timeout when nothing else can
 * run is not counted); the timeout branches the bound left out since
 * the last call (the search is then not complete). */
void dpor_set_max_timeouts(struct dpor *d, unsigned n);
unsigned long dpor_take_timeouts_pruned(struct dpor *d);

/* The share of the tree explored so far, as if every node had as many
 * branches below each of its alternatives as the current path shows
 * (Knuth's estimate): for progress lines only.  Meaningful where the
 * backtrack sets are the alternatives (exhaustive, icb, source). */
double dpor_explored(const struct dpor *d);
/* Would thread tid's timeout now, while a thread of enabled that does
 * not time out could run, go beyond the bound (counted if so)?  Whatever
 * chose it (a replayed prefix, a reversal's sequence): the execution is
 * then cut, as sleep-set blocked. */
bool dpor_timeout_beyond(struct dpor *d, unsigned k, int tid,
			 tset enabled);

/* Thread tid blocked in a spin loop after the event at point k - 1: its
 * last n events were an iteration that changed nothing (tracer.h,
 * struct tr_stutter).  A later write is not explored before them: the
 * woken thread reads again, which gives the same executions. */
void dpor_stutter(struct dpor *d, unsigned k, int tid, int n);

/* The event chosen at point k is a value choice (EV_NONDET) among
 * nvalues values: the index of the value to return.  The node explores
 * every index (dpor_next tries the next one before any other thread
 * there); the event itself is thread-local, so it races with nothing.
 * -1: the replayed prefix does not fit. */
int dpor_value(struct dpor *d, unsigned k, unsigned nvalues);

/* After an execution (complete or abandoned): prepare the next one.
 * Returns false when the exploration is complete. */
bool dpor_next(struct dpor *d);

/* --jobs (parallel.c): the tree is split into tasks, each a subtree
 * explored by one worker with its own struct dpor.  A task's nodes below
 * its floor are its prefix: replayed, never branched at; they belong to
 * the task it was split from (its parent), which is told of the races
 * found with their events, of the event the new task performed at the
 * branch node (for the sleep sets there), and of the subtree's end; a
 * node does not move on before it has heard both (DPOR_WAIT). */
enum { DPOR_DONE, DPOR_NEXT, DPOR_WAIT };
int dpor_next_task(struct dpor *d);

/* Give away the unexplored branch nearest the root: a blob for
 * dpor_load() (the new tree's floor - 1 is its depth) and its thread;
 * 0 if there is none (*blob NULL, else malloc'd). */
size_t dpor_steal(struct dpor *d, void **blob, int *tid);
struct dpor *dpor_load(const void *blob, size_t len);
unsigned dpor_floor(const struct dpor *d);

/* A race of an event of this task with an event of its prefix. */
struct dpor_race {
	uint32_t depth;
	int32_t tid;     /* the thread of the later event */
	tset init;       /* the initials at depth (Alg. 1 line 6) */
};
unsigned dpor_take_races(struct dpor *d, struct dpor_race *out,
			 unsigned max);
/* At the owner of r->depth: true if its backtrack set grew. */
bool dpor_apply_race(struct dpor *d, const struct dpor_race *r);
/* The given-away branch (depth, tid) performed ev first. */
int dpor_sleeper(struct dpor *d, unsigned depth, int tid,
		 const struct tr_event *ev);
/* ... and its whole subtree has been explored. */
void dpor_subtree_done(struct dpor *d, unsigned depth, int tid);

/* Forget the tree (the set of events changed): start over. */
void dpor_reset(struct dpor *d);

/* The leaves of the tree, were every subtree of a node like the one of
 * the current path: the product over its nodes of their branches (the
 * threads to explore there, times the values of a value choice).  For
 * --estimate (Knuth's estimator) after one execution of a new tree. */
double dpor_path_leaves(const struct dpor *d);

/* The number of points of the current execution replayed from the
 * previous one (its choices are fixed). */
unsigned dpor_prefix(const struct dpor *d);
/* The execution continues from a checkpoint taken after its first depth
 * events (depth <= dpor_prefix): analyse them as if just performed,
 * from the events the tree kept. */
int dpor_resume(struct dpor *d, unsigned depth);
/* Which tree this is: a number no other tree of the process (and no
 * earlier state of this one before dpor_reset) has. */
uint64_t dpor_serial(const struct dpor *d);

/* The thread chosen at each point of the current execution. */
unsigned dpor_length(const struct dpor *d);
int dpor_thread_at(const struct dpor *d, unsigned k);
/* The event performed at point k (NULL if none) and the threads that
 * were enabled there (for the error trace, src/report/trace.h). */
const struct tr_event *dpor_event(const struct dpor *d, unsigned k);
tset dpor_enabled(const struct dpor *d, unsigned k);
/* Preemptions in the current execution: switches away from a thread that
 * could have continued. */
int dpor_preemptions(const struct dpor *d);
/* Did the preemption bound exclude a choice (the search was not
 * complete without it)? */
bool dpor_pruned(const struct dpor *d);

/* A hash of the current execution's happens-before (its Mazurkiewicz
 * trace): equal for executions that differ only in the order of
 * independent events. */
uint64_t dpor_trace_hash(const struct dpor *d);

/* Invariant checker (debug builds, --sanity). */
int dpor_check(const struct dpor *d);

#endif
