/* Schedule files with value choices (T=V tokens, docs/REPLAY.md), and
 * the value branches of the DPOR tree (dpor_value). */
#include <stdlib.h>
#include <string.h>

#include "dpor/dpor.h"
#include "dpor/schedule.h"
#include "unit.h"

static void test_value_tokens(void)
{
	struct schedule s;
	char err[128], *text = NULL;
	size_t len = 0;

	CU_ASSERT_EQUAL_FATAL(sched_parse(&s, "steps: 0x2 1=3 1=-7 1 2*\n", err,
					  sizeof err), 0);
	CU_ASSERT_EQUAL(s.n, 5);
	CU_ASSERT(s.runs[1].has_value && s.runs[1].value == 3);
	CU_ASSERT(s.runs[2].has_value && s.runs[2].value == -7);
	CU_ASSERT(!s.runs[3].has_value && s.runs[3].count == 1);
	FILE *f = open_memstream(&text, &len);
	CU_ASSERT_EQUAL(sched_write(&s, f), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "steps: 0x2 1=3 1=-7 1 2*\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "T=V"));
	free(text);

	/* the cursor says which event consumed a value token */
	struct sched_cursor c = { .s = &s };
	bool until;
	CU_ASSERT_EQUAL(sched_next(&c, &until), 0);
	sched_advance(&c);
	CU_ASSERT(!c.value_set);
	sched_advance(&c);
	CU_ASSERT_EQUAL(sched_next(&c, &until), 1);
	sched_advance(&c);
	CU_ASSERT(c.value_set && c.value == 3);
	sched_free(&s);
}

static void test_value_push(void)
{
	struct schedule s = { 0 };

	sched_push(&s, 1);
	sched_push_value(&s, 1, 5); /* never merged into a run */
	sched_push(&s, 1);
	sched_push(&s, 1);
	CU_ASSERT_EQUAL(s.n, 3);
	CU_ASSERT_EQUAL(s.runs[2].count, 2);
	sched_free(&s);
}

static void test_value_bad(void)
{
	struct schedule s;
	char err[128];

	CU_ASSERT_EQUAL(sched_parse(&s, "steps: 1=\n", err, sizeof err), -1);
	CU_ASSERT_EQUAL(sched_parse(&s, "steps: 1=x\n", err, sizeof err), -1);
	CU_ASSERT_EQUAL(sched_parse(&s, "steps: 1=2x3\n", err, sizeof err), -1);
	CU_ASSERT_EQUAL(sched_parse(&s, "steps: 1=99999999999999999999\n", err,
				    sizeof err), -1);
}

/* One thread whose only event is a choice among 3 values: the tree
 * explores 3 executions, one per value, in order. */
static void test_dpor_values(void)
{
	struct dpor *d = dpor_new(false, -1);
	struct tr_event ev = { .tid = 0, .kind = EV_NONDET, .sysno = -1 };
	int seen[3] = { 0 }, runs = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	do {
		CU_ASSERT_EQUAL(dpor_choose(d, 0, ts_one(0), 0), 0);
		int i = dpor_value(d, 0, 3);
		CU_ASSERT(i >= 0 && i < 3);
		if (i >= 0 && i < 3)
			seen[i]++;
		ev.value = i;
		CU_ASSERT_EQUAL(dpor_executed(d, 0, &ev), 0);
		runs++;
	} while (dpor_next(d) && runs < 10);
	CU_ASSERT_EQUAL(runs, 3);
	CU_ASSERT(seen[0] == 1 && seen[1] == 1 && seen[2] == 1);
	dpor_free(d);
}

static CU_TestInfo tests[] = {
	{ "value tokens", test_value_tokens },
	{ "value push", test_value_push },
	{ "bad value tokens", test_value_bad },
	{ "dpor value branches", test_dpor_values },
	CU_TEST_INFO_NULL,
};
UNIT_SUITE("sched", NULL, NULL, tests);
