/* The error trace on synthetic events (no symbols: every step is shown):
 * store buffers replayed from the events, stale reads, preemptions, and
 * the store→load / store→store reorderings behind the fence check. */
#include <stdlib.h>
#include <string.h>

#include "report/trace.h"
#include "unit.h"

#define A 0x601000ull
#define B 0x601004ull

static struct tr_event mem(int tid, uint64_t pc, uint64_t addr, uint8_t rw,
			   uint64_t val)
{
	struct tr_event e = { .tid = tid, .kind = EV_MEM, .pc = pc,
			      .sysno = -1, .nacc = 1 };

	e.acc[0] = (struct dec_access){ addr, 4, rw, 0 };
	e.rval[0] = e.wval[0] = val;
	return e;
}

/* A buffered store into slot s. */
static struct tr_event store(int tid, uint64_t pc, uint64_t addr, int s,
			     uint64_t val)
{
	struct tr_event e = { .tid = tid, .kind = EV_MEM, .pc = pc,
			      .sysno = -1, .nst = 1 };

	e.st[0] = (struct tr_store){ addr, 4, (uint8_t)s, val };
	return e;
}

static struct tr_event update(int s, uint64_t addr, uint64_t val)
{
	struct tr_event e = mem(TR_AUX_BASE + s, 0, addr, DEC_WRITE, val);

	e.kind = EV_UPDATE;
	return e;
}

/* Dekker under tso: both stores buffered, both loads read 0. */
static void dekker(struct tr_event *ev, tset *en)
{
	ev[0] = store(1, 0x100, A, 1, 1);
	ev[1] = mem(1, 0x110, B, DEC_READ, 0);
	ev[2] = store(2, 0x200, B, 2, 1);
	ev[3] = mem(2, 0x210, A, DEC_READ, 0);
	ev[4] = update(1, A, 1);
	ev[5] = update(2, B, 1);
	for (int k = 0; k < 6; k++) {
		en[k] = ts_range(1, 3);
		ts_add(&en[k], TR_AUX_BASE + 1);
		ts_add(&en[k], TR_AUX_BASE + 2);
	}
}

static void test_render(void)
{
	struct tr_event ev[6];
	tset en[6];
	struct trace_env env = { 0 };
	struct trace_in in = { .model = "tso", .ev = ev, .enabled = en,
			       .n = 6, .status = "exit 0" };
	char *t;

	dekker(ev, en);
	t = trace_render(&env, &in);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "buffer 0x601000 (heap) = 1"));
	/* step 4 reads A past T1's buffered store of step 1 */
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "<- stale: T1's 0x601000 (heap) = 1 "
					 "(step 1) still buffered"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "T1+"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "reaches memory (buffered at step 3)"));
	/* T1 could go on at step 3: a preemption */
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "-- preemption: T1 could go on, T2 "
					 "runs --"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "end: exit 0, no error"));
	free(t);
}

static void test_reorders(void)
{
	struct tr_event ev[6];
	tset en[6];
	struct trace_env env = { 0 };
	struct trace_in in = { .model = "tso", .ev = ev, .enabled = en,
			       .n = 6 };
	struct trace_reorder r[4];

	dekker(ev, en);
	/* T1's store of A is overtaken by its load of B, and T2 reads A in
	 * the window; T2's store of B is seen by nobody while buffered */
	CU_ASSERT_EQUAL_FATAL(trace_reorders(&env, &in, r, 4), 1);
	CU_ASSERT_EQUAL(r[0].thread, 1);
	CU_ASSERT_EQUAL(r[0].store, 0);
	CU_ASSERT_EQUAL(r[0].load, 1);
	CU_ASSERT_EQUAL(r[0].seen, 3);
	CU_ASSERT_EQUAL(r[0].fence_pc, 0x100);
	CU_ASSERT(!r[0].store_store);
}

/* The fence goes after the last store before the load (Peterson's turn
 * store), and pso's store→store reordering puts one after the store. */
static void test_fence_position(void)
{
	struct tr_event ev[8];
	struct trace_env env = { 0 };
	struct trace_in in = { .model = "pso", .ev = ev, .n = 6 };
	struct trace_reorder r[4];

	ev[0] = store(1, 0x100, A, 1, 1);     /* flag */
	ev[1] = store(1, 0x108, A + 8, 2, 1); /* turn */
	ev[2] = mem(1, 0x110, B, DEC_READ, 0);
	ev[3] = mem(2, 0x210, A, DEC_READ, 0);
	ev[4] = mem(2, 0x218, B, DEC_WRITE, 1);
	ev[5] = update(1, A, 1);
	CU_ASSERT_EQUAL_FATAL(trace_reorders(&env, &in, r, 4), 1);
	CU_ASSERT_EQUAL(r[0].store_pc, 0x100);
	CU_ASSERT_EQUAL(r[0].fence_pc, 0x108);

	/* pso: turn (slot 2) reaches memory before flag (slot 1) while
	 * another thread reads flag and writes turn */
	ev[0] = store(1, 0x100, A, 1, 1);
	ev[1] = store(1, 0x108, A + 8, 2, 1);
	ev[2] = update(2, A + 8, 1);
	ev[3] = mem(2, 0x210, A, DEC_READ, 0);
	ev[4] = mem(2, 0x218, A + 8, DEC_WRITE, 2);
	ev[5] = update(1, A, 1);
	CU_ASSERT_EQUAL_FATAL(trace_reorders(&env, &in, r, 4), 1);
	CU_ASSERT(r[0].store_store);
	CU_ASSERT_EQUAL(r[0].fence_pc, 0x100);
	CU_ASSERT_EQUAL(r[0].load, 1);
}

/* T2 spins reading A: the first turn printed, the rest one line; a turn
 * that differs (the value read) ends the fold, and one extra turn is
 * printed as it is.  (Without symbols the where column is the pc: turns
 * of an unrolled loop fold only where it names the same source line.) */
static void test_loop_fold(void)
{
	struct tr_event ev[16];
	struct trace_env env = { 0 };
	struct trace_in in = { .model = "sc", .ev = ev, .status = "exit 0" };
	size_t n = 0;
	char *t;

	ev[n++] = mem(1, 0x100, B, DEC_WRITE, 1);
	for (int k = 0; k < 5; k++) {
		ev[n++] = mem(2, 0x200, A, DEC_READ, 0);
		ev[n++] = mem(2, 0x208, B, DEC_READ, 1);
	}
	ev[n++] = mem(2, 0x300, A, DEC_READ, 1); /* the turn that exits */
	ev[n++] = mem(1, 0x110, A, DEC_WRITE, 1);
	in.n = n;
	t = trace_render(&env, &in);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "... the same 2 steps 4 more times "
					 "(steps 4-11)"));
	CU_ASSERT_PTR_NULL(strstr(t, "\n     4  T2"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "\n    12  T2"));
	free(t);

	/* two turns: nothing folded */
	in.n = 5;
	t = trace_render(&env, &in);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_PTR_NULL(strstr(t, "the same"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "\n     5  T2"));
	free(t);
}

static CU_TestInfo tests[] = {
	{ "loop_fold", test_loop_fold },
	{ "render", test_render },
	{ "reorders", test_reorders },
	{ "fence_position", test_fence_position },
	CU_TEST_INFO_NULL,
};
UNIT_SUITE("trace", NULL, NULL, tests);
