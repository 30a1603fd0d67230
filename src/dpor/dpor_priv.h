/* dpor_priv.h — the inside of struct dpor, shared by dpor.c (the tree,
 * clocks, races) and wakeup.c (Optimal-DPOR's wakeup trees) only. */
#ifndef X86SMC_DPOR_PRIV_H
#define X86SMC_DPOR_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "dpor/dpor.h"

#define MAXT TR_MAX_THREADS
#define BIG_ACCESS 4096 /* larger accesses are not indexed by granule */

struct vc {
	uint32_t c[MAXT];
};

struct sleeper {
	int tid;
	bool done; /* explored here (else: asleep on entry) */
	struct tr_event ev;
};

/* Does e end the process (exit_group, or a crash or an abort with the
 * end's accesses, dpor.c sleeper_event)? */
static inline bool ev_ends(const struct tr_event *e)
{
	if (e->kind == EV_END)
		return true;
	for (int i = 0; i < e->nacc; i++)
		if (e->acc[i].addr == EV_ADDR_FD && e->acc[i].size >= EV_NFDS)
			return true;
	return false;
}

struct node {
	tset enabled, backtrack, done;
	tset tmask;         /* enabled threads whose event was a timeout */
	struct sleeper *sleep; /* entry sleep set, then explored threads */
	int nsleep, capsleep;
	int chosen;
	bool executed;
	uint32_t pre;  /* preemptions before this node's choice */
	uint16_t nvalues, vidx; /* the chosen thread's event is a value
				 * choice (EV_NONDET): values to explore,
				 * the one taken (dpor_value) */
	struct tr_event ev;
	bool ended; /* ev ended the process mid-thread (sleeper_event) */
	uint32_t idx; /* 1-based index of the event in its thread */
	/* the event's clock (analyse): its entries of the logical ids
	 * [0, cl) and of the update slots [0, ca), at d->clk[coff..]; the
	 * others are 0.  Nodes are analysed in order, so node k's entries
	 * follow node k-1's (store_clock): 4 bytes an id in use, not 4 of
	 * each of the MAXT a struct vc holds */
	uint32_t coff;
	uint16_t cl, ca;
	/* --jobs: threads whose subtree here was given to another task
	 * (dpor_steal): not finished yet, and their event not known yet
	 * (dpor_sleeper); this node waits for both before it moves on */
	tset stolen, noev;
	/* Optimal-DPOR (wakeup.c): the branches still to explore from here
	 * (a sibling list of wakeup-tree nodes, -1: none), and the one
	 * being explored (its children guide the nodes below, -1 if the
	 * choice was free) */
	int32_t wroot, wcur;
	/* the event was a spin-loop iteration that changed nothing, as the
	 * execution found out when its thread blocked there (dpor_stutter)
	 * after stutter_at events: later events do not race with it */
	bool stutter;
	uint32_t stutter_at;
};

/* A wakeup-tree node: a thread's event, its sibling and its first
 * child (indices into struct dpor .wt, -1: none). */
struct wt {
	int32_t child, sibling;
	struct tr_event ev;
};

/* The accesses of the current execution by location: for each 8-byte
 * granule, the threads with events there (by_gran), and for each
 * (granule, thread), its events there newest first, all of them and the
 * writing ones (by_thread).  Kept so that finding an event's races costs
 * about one look per thread (granule_walk), not one per earlier event. */
struct gmap {
	uint64_t *key; /* key + 1, 0 = empty */
	int32_t *all, *wr; /* by_thread: chain heads */
	/* by_thread: per byte of the granule, the newest entry of the
	 * chain (all, writing) that touches it: slot * 8 + byte */
	int32_t *ball, *bwr;
	tset *mask;        /* by_gran: threads */
	size_t cap, n;
};

/* Entry e: an event's access to one granule (enode[e]: its node), the
 * bytes of the granule it touches (emask[e]), the next older entry of
 * the same (granule, thread), all and writing (enext_*). */
struct gindex {
	struct gmap by_gran, by_thread;
	int32_t *enode, *enext_all, *enext_wr;
	uint8_t *emask;
	size_t nent, capent;
};

struct dpor {
	bool exhaustive;
	bool optimal;      /* wakeup trees (wakeup.c), else backtrack sets */
	long bound;        /* preemption bound, -1: none */
	bool pruned;       /* the bound excluded a choice somewhere */
	struct node *nodes;
	unsigned n, cap;   /* nodes[0..n) exist */
	unsigned target;   /* first node whose choice is not replayed */
	/* derived from the events of the current execution */
	struct vc last[MAXT], incoming[MAXT];
	/* tso/pso, per buffer (slot: update thread TR_AUX_BASE + slot) */
	struct vc last_update[TR_AUX_BASE]; /* its last update's clock */
	struct vcq {                        /* clocks of its buffered     */
		struct vc *q;               /* stores, oldest first: the  */
		size_t head, n, cap;        /* k-th update follows only   */
	} pend[TR_AUX_BASE];                /* the k-th store             */
	int16_t owner[TR_AUX_BASE];         /* whose stores, -1: unused   */
	uint32_t upd[TR_AUX_BASE];          /* its updates so far         */
	struct updn {                       /* its updates' nodes, upd[]  */
		unsigned *node;             /* of them, in order: where   */
		unsigned cap;               /* wakeup.c places a read its */
	} updn[TR_AUX_BASE];                /* buffer served              */
	uint32_t count[MAXT];
	/* 1 + the largest logical thread id and update slot seen (dpor.c
	 * see_id): the clocks' entries in use */
	int wl, wa;
	uint32_t *clk;     /* the nodes' clocks (struct node coff) */
	size_t capclk;
	int32_t lastev[MAXT]; /* node of each thread's last event, -1 */
	struct gindex gi;
	unsigned *big;        /* nodes with a big access */
	unsigned nbig, capbig;
	unsigned *stamp;      /* dedupe of candidates, per node: the visit */
	unsigned visit;       /* of the current candidates() call */
	unsigned *cand;
	unsigned capstamp;
	/* --jobs: a subtree task explores nodes [floor, n); the nodes
	 * below are its prefix, owned by other tasks; races with their
	 * events are collected in out[] for their owners */
	uint64_t serial;   /* this tree, among every tree of the process */
	unsigned floor;
	struct dpor_race *out;
	unsigned nout, capout;
	/* wakeup-tree nodes (wakeup.c), with a free list */
	struct wt *wt;
	int32_t nwt, capwt, wfree;
	/* Optimal-DPOR: the races of the current execution, inserted when
	 * it ends (wut_flush), when notdep(e) is known in full */
	struct wrace { unsigned i, j; } *wr;
	unsigned nwr, capwr;
	tset last_mask;     /* dpor_set_last: timeouts, taken last */
	tset end_mask;      /* dpor_set_ends: ends of the process, free
			     * choices take them after the other threads */
	/* timeouts (dpor_set_max_timeouts): a thread's timeouts chosen
	 * while another thread could run (derived), the bound, and how
	 * many timeout branches the bound left out */
	uint8_t tmo[MAXT];
	unsigned max_tmo;
	unsigned long tmo_pruned;
};


/* The id after q among those the clocks hold (0 first; MAXT: none). */
static inline int id_next(const struct dpor *d, int q)
{
	q++;
	if (q >= d->wl && q < TR_AUX_BASE)
		q = TR_AUX_BASE;
	return q < TR_AUX_BASE + d->wa ? q : MAXT;
}

/* dpor.c */
/* The updates of buffer slot s among nodes [0, k) of the execution. */
uint32_t dpor_updates_before(const struct dpor *d, int s, unsigned k);
bool dpor_hb(const struct dpor *d, unsigned a, const struct vc *c);
/* Does event node a happen before event node k (analysed)? */
bool dpor_hb_node(const struct dpor *d, unsigned a, unsigned k);
bool dpor_ev_conflict(const struct dpor *d, const struct tr_event *a,
		      const struct tr_event *b);
tset dpor_sleep_mask(const struct node *n);
/* n's event, with the end's accesses if it ended the process in the
 * middle of its thread (n->ended): n->ev or *buf. */
const struct tr_event *sleeper_event(const struct node *n,
				     struct tr_event *buf);

/* wakeup.c — Optimal-DPOR (Abdulla, Aronis, Jonsson, Sagonas, "Source
 * Sets: A Foundation for Optimal Dynamic Partial Order Reduction", JACM
 * 2017, Sec. 6): each node keeps a wakeup tree of sequences still to
 * explore from it instead of a backtrack set. */
/* Race (i, j) of the current execution: noted, and when the execution
 * has ended (wut_flush), v = notdep(i).j is inserted at node i unless a
 * thread asleep there is a weak initial of v (then its exploration
 * covers v).  notdep(i) is every later event of the whole execution that
 * does not happen after i, not only those before j (JACM'17 Alg. 2). */
void wut_race(struct dpor *d, unsigned i, unsigned j);
void wut_flush(struct dpor *d);
/* Thread t, enabled at node k, could still have run before the end of
 * the process there (its event is not known: it conflicts with all). */
void wut_pending(struct dpor *d, unsigned k, int t);
/* The one-event sequence e (a thread's timeout) at node k, unless a
 * thread asleep there covers it. */
void wut_event(struct dpor *d, unsigned k, const struct tr_event *e);
/* Node k (new) takes its wakeup tree from node k - 1's branch; returns
 * the thread its leftmost branch starts with, usable now (enabled,
 * awake, allowed: mask ok), or -1. */
int wut_enter(struct dpor *d, unsigned k, tset ok);
/* Does the branch node k - 1 follows go on with a thread of ok? */
bool wut_guides(const struct dpor *d, unsigned k, tset ok);
/* Node k's next branch (its tree's leftmost usable one): the thread, or
 * -1 when none is left.  Frees the branch just explored. */
int wut_next(struct dpor *d, unsigned k, tset ok);
/* Node k performed no event after all (dpor_retract): give its branch
 * back to node k - 1. */
void wut_retract(struct dpor *d, unsigned k);
void wut_free_node(struct dpor *d, struct node *n);
void wut_free_all(struct dpor *d);

#endif
