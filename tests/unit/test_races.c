/* The data-race monitor (src/dpor/races.h) on hand-made event
 * sequences: what is a race, what synchronisation orders. */
#include <string.h>

#include "dpor/races.h"
#include "unit.h"

static struct tr_event mem(int tid, uint64_t addr, uint64_t size, int rw)
{
	struct tr_event e;

	memset(&e, 0, sizeof e);
	e.tid = tid;
	e.kind = EV_MEM;
	e.pc = 0x1000 + (uint64_t)tid;
	e.nacc = 1;
	e.acc[0] = (struct dec_access){ addr, size, (uint8_t)rw, 0 };
	return e;
}

static struct tr_event spawn(int tid, int child)
{
	struct tr_event e;

	memset(&e, 0, sizeof e);
	e.tid = tid;
	e.kind = EV_SPAWN;
	e.child = child;
	return e;
}

static struct tr_event sync_ev(int tid, uint8_t kind, uint64_t obj)
{
	struct tr_event e = mem(tid, obj, 8, DEC_READ | DEC_WRITE);

	e.kind = kind;
	return e;
}

/* Feed evs[0..n); the index of the event completing the first race, or
 * -1. */
static int first_race(const struct tr_event *evs, unsigned n,
		      struct race *out)
{
	struct races *m = races_new();
	int at = -1;

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	for (unsigned k = 0; k < n && at < 0; k++)
		if (races_event(m, k, &evs[k], out) == 1)
			at = (int)k;
	races_free(m);
	return at;
}

static void test_plain_race(void)
{
	struct tr_event e[] = { spawn(0, 1), mem(0, 0x500, 4, DEC_WRITE),
				mem(1, 0x500, 4, DEC_READ) };
	struct race r;

	CU_ASSERT_EQUAL(first_race(e, 3, &r), 2);
	CU_ASSERT_EQUAL(r.a.tid, 0);
	CU_ASSERT_TRUE(r.a.write);
	CU_ASSERT_EQUAL(r.b.tid, 1);
	CU_ASSERT_FALSE(r.b.write);
	CU_ASSERT_EQUAL(r.a.addr, 0x500);
}

static void test_reads_do_not_race(void)
{
	struct tr_event e[] = { spawn(0, 1), mem(0, 0x500, 4, DEC_READ),
				mem(1, 0x500, 4, DEC_READ) };
	struct race r;

	CU_ASSERT_EQUAL(first_race(e, 3, &r), -1);
}

static void test_create_orders(void)
{
	/* written before the spawn: the child's read comes after it */
	struct tr_event e[] = { mem(0, 0x500, 4, DEC_WRITE), spawn(0, 1),
				mem(1, 0x500, 4, DEC_READ) };
	struct race r;

	CU_ASSERT_EQUAL(first_race(e, 3, &r), -1);
}

static void test_partial_overlap(void)
{
	struct tr_event e[] = { spawn(0, 1), mem(0, 0x500, 4, DEC_WRITE),
				mem(1, 0x504, 1, DEC_WRITE),
				mem(1, 0x503, 2, DEC_WRITE) };
	struct race r;

	CU_ASSERT_EQUAL(first_race(e, 4, &r), 3); /* not the adjacent byte */
	CU_ASSERT_EQUAL(r.a.addr, 0x503);
}

static void test_lock_orders(void)
{
	/* T0: write; unlock(m).  T1: lock(m); write: ordered */
	struct tr_event e[] = { spawn(0, 1), mem(0, 0x500, 4, DEC_WRITE),
				sync_ev(0, EV_SYNC, 0x900),
				sync_ev(1, EV_SYNC, 0x900),
				mem(1, 0x500, 4, DEC_WRITE) };
	struct race r;

	CU_ASSERT_EQUAL(first_race(e, 5, &r), -1);
	/* another object orders nothing */
	e[3] = sync_ev(1, EV_SYNC, 0x940);
	CU_ASSERT_EQUAL(first_race(e, 5, &r), 4);
}

static void test_atomics(void)
{
	/* two locked RMWs of one location: no race, and they order */
	struct tr_event e[] = { spawn(0, 1), mem(0, 0x600, 4, DEC_WRITE),
				sync_ev(0, EV_RMW, 0x500),
				sync_ev(1, EV_RMW, 0x500),
				mem(1, 0x600, 4, DEC_READ) };
	struct race r;

	CU_ASSERT_EQUAL(first_race(e, 5, &r), -1);
	/* a locked write and a plain read of it: a race (one not atomic) */
	struct tr_event f[] = { spawn(0, 1), sync_ev(0, EV_RMW, 0x500),
				mem(1, 0x500, 8, DEC_READ) };
	CU_ASSERT_EQUAL(first_race(f, 3, &r), 2);
	CU_ASSERT_TRUE(r.a.atomic);
	CU_ASSERT_FALSE(r.b.atomic);
}

static void test_join_orders(void)
{
	/* T1 writes and exits (its tid word 0x700); T0 joins, then reads */
	struct tr_event e[] = { spawn(0, 1), mem(1, 0x500, 4, DEC_WRITE),
				sync_ev(1, EV_EXIT, 0x700),
				sync_ev(0, EV_JOIN, 0x700),
				mem(0, 0x500, 4, DEC_READ) };
	struct race r;

	CU_ASSERT_EQUAL(first_race(e, 5, &r), -1);
}

static CU_TestInfo tests[] = {
	{ "plain write/read race", test_plain_race },
	{ "reads do not race", test_reads_do_not_race },
	{ "thread creation orders", test_create_orders },
	{ "partial overlap, adjacent bytes", test_partial_overlap },
	{ "a mutex orders", test_lock_orders },
	{ "locked instructions", test_atomics },
	{ "exit and join order", test_join_orders },
	CU_TEST_INFO_NULL,
};
UNIT_SUITE("races", NULL, NULL, tests);
