/* schedule.h — a schedule: which thread performs each visible event.
 *
 * File format (plain text, a person can read and edit it; docs/REPLAY.md):
 *
 *   # x86smc schedule v1
 *   program: build/samples/lock_order-O0
 *   model: sc
 *   steps: 0x14 1x7 2* 1*
 *
 * Header lines are "key: value"; '#' starts a comment.  "escapes:" lines
 * list (hex) the 8-byte granules of thread stacks/TLS that other threads
 * touch, as the recording run had learned them (so that the replay sees
 * the same events from the start).  "steps:" lines
 * (there may be several) hold tokens:  T   one event of thread T;
 * TxN  N events of thread T;  T*  thread T until it blocks or exits;
 * T=V  one event of thread T, a __VERIFIER_nondet_* call, that returns
 * the value V (decimal, may be negative; files without such tokens are
 * v1 files and still parse: a call with no token returns the first value
 * of the domain).
 * Threads are numbered 0 (main), 1, 2, ... in creation order.  When the
 * steps run out, the default policy continues (run the current thread
 * until it blocks or exits, then the next one).
 */
#ifndef X86SMC_SCHEDULE_H
#define X86SMC_SCHEDULE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SCHED_UNTIL_BLOCKED 0xffffffffu

struct sched_run {
	int tid;
	uint32_t count; /* or SCHED_UNTIL_BLOCKED */
	bool has_value; /* a T=V token (count 1): the value V */
	int64_t value;
};

struct schedule {
	struct sched_run *runs;
	size_t n, cap;
	char program[512];
	char model[16];
	uint64_t *escapes; /* granule addresses */
	size_t nescapes, capescapes;
};

/* Parse text; on error returns -1 with a message naming the line (and
 * *s empty: nothing to free). */
int sched_parse(struct schedule *s, const char *text, char *err,
		size_t errsize);
int sched_load(struct schedule *s, const char *path, char *err,
	       size_t errsize);
int sched_add_escape(struct schedule *s, uint64_t addr);
/* Append one event of tid (merged into the last run). */
int sched_push(struct schedule *s, int tid);
/* Append one value choice of tid that returned v (a T=V token). */
int sched_push_value(struct schedule *s, int tid, int64_t v);
int sched_write(const struct schedule *s, FILE *f);
void sched_free(struct schedule *s);

/* Cursor over a schedule while replaying it. */
struct sched_cursor {
	const struct schedule *s;
	size_t run;
	uint32_t used;
	bool value_set;  /* the event sched_advance() consumed last was */
	int64_t value;   /* a T=V token: its value */
};
/* The thread the schedule wants next, -1 when exhausted.  *until is set
 * for a T* run. */
int sched_next(struct sched_cursor *c, bool *until);
/* Consume one event of the current run (for T* runs: call
 * sched_until_done when the thread blocked). */
void sched_advance(struct sched_cursor *c);
void sched_until_done(struct sched_cursor *c);
#endif
