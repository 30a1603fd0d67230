/* Locked adds that commute (tracer/commute.c): blind adds always, the
 * drops of a reference count while none reaches zero, and the values a
 * sleeper or a moved sequence sees (EVO_FRONT, ev_commute_rebase). */
#include <string.h>

#include "tracer/tracer_priv.h"
#include "unit.h"

#define NONE 0xff /* no condition read */
#define CC_NE 5
#define CC_LE 14

/* A locked op (DEC_ALU_*) of width w at addr, with condition cc on the
 * flags of the result, that changed old into new. */
static struct tr_event add(int tid, uint64_t addr, uint8_t op, unsigned w,
			   uint8_t cc, uint64_t old, uint64_t new)
{
	struct tr_event e;

	memset(&e, 0, sizeof e);
	e.tid = tid;
	e.kind = EV_RMW;
	e.nacc = 1;
	e.acc[0] = (struct dec_access){ addr, w, DEC_READ | DEC_WRITE, 0 };
	e.rval[0] = old;
	e.wval[0] = new;
	e.value = EV_CADD | op | (int64_t)w << 8 | (int64_t)cc << 16;
	return e;
}

static void test_blind_adds_commute(void)
{
	struct tr_event a = add(1, 0x1000, DEC_ALU_ADD, 4, NONE, 5, 6);
	struct tr_event b = add(2, 0x1000, DEC_ALU_SUB, 4, NONE, 6, 3);
	struct tr_event c = add(2, 0x1004, DEC_ALU_ADD, 4, NONE, 0, 1);
	struct tr_event w = b;

	CU_ASSERT(ev_commute(&a, &b, EVO_ANY));
	CU_ASSERT(ev_commute(&b, &a, EVO_FRONT));
	CU_ASSERT(!ev_commute(&a, &c, EVO_ANY)); /* another location */
	w.value = 0; /* a locked add whose flags are read otherwise */
	CU_ASSERT(!ev_commute(&a, &w, EVO_ORDERED));
}

/* Three drops of a count of 3 in one execution: the two that leave it
 * above zero commute, the one that reaches zero conflicts with both. */
static void test_drops_ordered(void)
{
	struct tr_event d1 = add(1, 0x2000, DEC_ALU_SUB, 8, CC_NE, 3, 2);
	struct tr_event d2 = add(2, 0x2000, DEC_ALU_SUB, 8, CC_NE, 2, 1);
	struct tr_event d3 = add(3, 0x2000, DEC_ALU_SUB, 8, CC_NE, 1, 0);

	CU_ASSERT(ev_commute(&d1, &d2, EVO_ORDERED));
	CU_ASSERT(!ev_commute(&d2, &d3, EVO_ORDERED));
	CU_ASSERT(!ev_commute(&d1, &d3, EVO_ORDERED));
	/* values of unrelated states prove nothing */
	CU_ASSERT(!ev_commute(&d1, &d2, EVO_ANY));
}

/* A sleeper's values are those of the state the running event started
 * from: d1 asleep (3 -> 2) through d2 (3 -> 2) still leaves 2 -> 1,
 * then through d3 (2 -> 1) it would reach zero: woken. */
static void test_sleeper_shifted(void)
{
	struct tr_event s = add(1, 0x2000, DEC_ALU_SUB, 8, CC_NE, 3, 2);
	struct tr_event d2 = add(2, 0x2000, DEC_ALU_SUB, 8, CC_NE, 3, 2);
	struct tr_event d3 = add(3, 0x2000, DEC_ALU_SUB, 8, CC_NE, 2, 1);

	CU_ASSERT(ev_commute(&s, &d2, EVO_FRONT));
	CU_ASSERT(ev_commute_rebase(&s, &s, &d2, true));
	CU_ASSERT_EQUAL(s.rval[0], 2);
	CU_ASSERT_EQUAL(s.wval[0], 1);
	CU_ASSERT(!ev_commute(&s, &d3, EVO_FRONT));
}

/* An add taken out from before a conditional one, and put back. */
static void test_rebase(void)
{
	struct tr_event i = add(1, 0x2000, DEC_ALU_SUB, 8, CC_NE, 3, 2);
	struct tr_event e = add(2, 0x2000, DEC_ALU_SUB, 8, CC_NE, 2, 1);
	struct tr_event blind = add(3, 0x2000, DEC_ALU_ADD, 8, NONE, 1, 2);
	struct tr_event o;

	CU_ASSERT(ev_commute_rebase(&o, &e, &i, false));
	CU_ASSERT_EQUAL(o.rval[0], 3);
	CU_ASSERT_EQUAL(o.wval[0], 2);
	CU_ASSERT(ev_commute_rebase(&o, &o, &i, true));
	CU_ASSERT_EQUAL(o.rval[0], 2);
	CU_ASSERT(!ev_commute_rebase(&o, &e, &blind, false));
}

/* Arc::clone's `lock inc; jle` (overflow check): two increments far from
 * the sign bit commute; at the edge they do not. */
static void test_signed_condition(void)
{
	struct tr_event a = add(1, 0x3000, DEC_ALU_INC, 8, CC_LE, 1, 2);
	struct tr_event b = add(2, 0x3000, DEC_ALU_INC, 8, CC_LE, 2, 3);
	struct tr_event x = add(1, 0x3000, DEC_ALU_INC, 8, CC_LE,
				0xffffffffffffffffull, 0);
	struct tr_event y = add(2, 0x3000, DEC_ALU_INC, 8, CC_LE, 0, 1);

	CU_ASSERT(ev_commute(&a, &b, EVO_ORDERED));
	CU_ASSERT(!ev_commute(&x, &y, EVO_ORDERED)); /* 0 is <= 0, 1 not */
}

static CU_TestInfo tests[] = {
	{ "blind_adds_commute", test_blind_adds_commute },
	{ "drops_ordered", test_drops_ordered },
	{ "sleeper_shifted", test_sleeper_shifted },
	{ "rebase", test_rebase },
	{ "signed_condition", test_signed_condition },
	CU_TEST_INFO_NULL,
};
UNIT_SUITE("commute", NULL, NULL, tests)
