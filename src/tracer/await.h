/* await.h — spin loops as waits (the binary-level form of Nidhugg's
 * spin-loop-to-assume; docs/EVENTS.md, "Spin loops").
 *
 * A thread whose loop iteration only read shared memory (a locked
 * instruction that wrote back the value it read counts as a read) and
 * that comes back to the same pc with the same registers and the same
 * stack, while every location it read still holds the value it read,
 * would repeat that iteration forever: it is *waiting*.  It is blocked
 * (TW_AWAIT) until an event writes one of those locations with another
 * value (a store under sc, an update under tso/pso, a locked
 * instruction, ...); the waking event happens before its next event.
 * When every live thread is blocked and one of them awaits, the program
 * can never make progress: a livelock.
 *
 * An iteration may also store to shared memory (a retry counter, a state
 * record: `rec->pc = 0; ... rec->pc = 1; sleep(0);`) if the next
 * iteration stores to the same locations and leaves them as the one
 * before left them: it takes one more iteration to see that.  Those
 * locations are then watched like the ones read: another thread's
 * store there that changes them wakes the thread.
 */
#ifndef X86SMC_AWAIT_H
#define X86SMC_AWAIT_H
#include <stdbool.h>
#include <stdint.h>
#include <sys/user.h>

#include "tracer/spin.h"

#define AW_MAX_READS 32  /* distinct locations one iteration may read */
#define AW_MAX_EVENTS 256 /* events one iteration may have */
#define AW_MAX_WRITES 8   /* distinct locations one iteration may store to */
#define AW_MAX_RETURNS 8  /* returns to the window's first pc followed */

struct await_read {
	uint64_t addr;
	uint32_t size;
	uint64_t val; /* first 8 bytes, as the thread saw them */
	int at;       /* the window's event that read it last (1-based) */
};

struct await_write {
	uint64_t addr;
	uint32_t size;
	uint64_t val; /* (prev) first 8 bytes at the iteration's end */
	int at;       /* the window's event that stored there last */
};

/* The iteration being watched, per thread. */
struct await_win {
	bool on;
	uint64_t pc0;                  /* its first event's pc */
	struct user_regs_struct regs0; /* the registers there */
	uint64_t stack0;               /* hash of the used stack there */
	int nev, nreads;
	struct await_read reads[AW_MAX_READS];
	/* its plain stores (locations), and the previous iteration's, with
	 * their values where it ended (prev_ok: that iteration closed at
	 * pc0 in the same state but for them, right before this one) */
	int nwrites, nprev;
	struct await_write writes[AW_MAX_WRITES], prev[AW_MAX_WRITES];
	bool prev_ok;
	/* pc0 came back in another call or state (a helper called twice
	 * an iteration: at -O0 every std::vector access): those returns
	 * (stack and registers hashed, events then).  Any: pc0 is in the
	 * loop, a pc met again no longer moves the window; coming back to
	 * one of them closes an iteration from there */
	int narr;
	struct await_return {
		uint64_t stack, regs;
		int nev;
	} arr[AW_MAX_RETURNS];
	uint64_t pcs[AW_MAX_EVENTS]; /* pcs of its events so far */
	bool counted; /* it waits in a counted spin (spin.h): it may give up */
	bool drew;    /* the iteration drew a value (EV_NONDET): when nothing
		       * else can run, the path is infeasible, not a livelock
		       * (tracer_set_deadlock): other values go on */
	bool runout;  /* giving up: running its last iterations now */
	uint64_t nc_pc;    /* the last loop head (and its differing */
	uint32_t nc_seeds; /* registers) spin.h found no counted spin at */
	/* after a counted spin's wait, until it is left: watched once out
	 * (tracer.c, spin_watch) */
	bool armed;
	uint32_t watch;       /* registers that must be overwritten unread */
	uint32_t watch_steps; /* instructions stepped for it */
	struct spin_loop loop;
};

struct tracer;
struct lthread;
struct tr_event;

/* th performed ev: extend or end its iteration. */
void await_after_event(struct tracer *t, struct lthread *th,
		       const struct tr_event *ev);
/* th's pending event is known (th is the current thread): start an
 * iteration there, or block th if it closes a waiting one.  Returns true
 * if th was blocked. */
bool await_at_pending(struct tracer *t, struct lthread *th);
/* ev was performed: wake the waiting threads whose locations it changed
 * (their bits go to t->woken). */
void await_wake(struct tracer *t, const struct tr_event *ev);
/* Forget th's iteration (its state changed behind the events' back). */
void await_reset(struct lthread *th);
#endif
