/* nondet_loop.c — a reader that polls a shared index until an input tells
 * it to stop (SV-COMP's qrcu: `while (1) { myidx = idx; if
 * (__VERIFIER_nondet_int()) break; }`), beside an updater that flips the
 * index.  The bug: the reader leaves with the old index after the
 * updater has flipped it and checked that no reader uses the old one.
 *
 * Each iteration that draws 0 comes back to the same state, so the loop
 * is a wait (docs/EVENTS.md, "Spin loops"): it goes on when the index
 * changes, and the value 1 is explored where it was drawn.  Before, every
 * execution drew 0 in its deepest iteration until --max-steps (100000
 * events): "1 of 1 executions cut", no verdict.
 */
// expect sc: verifier-error
// expect tso: verifier-error
// expect pso: verifier-error
#include "common.h"

extern int __VERIFIER_nondet_int(void);
__attribute__((noipa)) int __VERIFIER_nondet_int(void) { return 0; }
__attribute__((noipa, noreturn)) void reach_error(void) { abort(); }

static volatile int idx;     /* the index readers use */
static volatile int inuse[2]; /* readers inside, per index */
static volatile int checked; /* the updater saw no reader on index 0 */

static void *reader(void *arg)
{
	int my;

	(void)arg;
	while (1) {
		my = idx;
		if (__VERIFIER_nondet_int())
			break;
	}
	__atomic_fetch_add(&inuse[my], 1, __ATOMIC_SEQ_CST);
	if (my == 0 && checked)
		reach_error(); /* inside on an index the updater retired */
	return NULL;
}

static void *updater(void *arg)
{
	(void)arg;
	idx = 1;
	if (__atomic_load_n(&inuse[0], __ATOMIC_SEQ_CST) == 0)
		checked = 1;
	return NULL;
}

int main(void)
{
	pthread_t r, u;

	pthread_create(&r, NULL, reader, NULL);
	pthread_create(&u, NULL, updater, NULL);
	pthread_join(r, NULL);
	pthread_join(u, NULL);
	return 0;
}
