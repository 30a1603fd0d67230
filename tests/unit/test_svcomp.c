/* SV-COMP property files and answers (src/report/svcomp.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/svcomp.h"
#include "unit.h"

static int read_text(const char *text, enum property *p)
{
	char path[] = "/tmp/x86smc-unit-prp-XXXXXX", err[300];
	int fd = mkstemp(path), r;

	if (fd < 0)
		return -2;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		close(fd);
		unlink(path);
		return -2;
	}
	close(fd);
	r = svcomp_read_property(path, p, err, sizeof err);
	unlink(path);
	return r;
}

static void test_property_files(void)
{
	enum property p = PROP_NONE;

	CU_ASSERT_EQUAL(read_text("CHECK( init(main()), LTL(G ! call(reach_error())) )\n\n", &p), 0);
	CU_ASSERT_EQUAL(p, PROP_UNREACH_CALL);
	CU_ASSERT_EQUAL(read_text("CHECK( init(main()), LTL(G ! data-race) )\n", &p), 0);
	CU_ASSERT_EQUAL(p, PROP_NO_DATA_RACE);
	CU_ASSERT_EQUAL(read_text("CHECK( init(main()), LTL(F end) )\n", &p), -1);
	CU_ASSERT_EQUAL(read_text("CHECK( init(main()), LTL(G valid-free) )\n"
				  "CHECK( init(main()), LTL(G valid-deref) )\n", &p), -1);
	CU_ASSERT_TRUE(svcomp_violation(PROP_UNREACH_CALL, "verifier-error"));
	CU_ASSERT_FALSE(svcomp_violation(PROP_UNREACH_CALL, "assertion"));
	CU_ASSERT_FALSE(svcomp_violation(PROP_UNREACH_CALL, "data-race"));
	CU_ASSERT_TRUE(svcomp_violation(PROP_NO_DATA_RACE, "data-race"));
	CU_ASSERT_FALSE(svcomp_violation(PROP_NO_DATA_RACE, "verifier-error"));
	CU_ASSERT_TRUE(svcomp_violation(PROP_NONE, "assertion"));
}

/* The answer for results with the given outcome statuses. */
static const char *answer(struct options *o, bool complete, uint32_t bounded,
			  const char *const *statuses, const char *error)
{
	static struct results r;

	results_free(&r);
	r.complete = complete;
	r.nondet_bounded = bounded;
	snprintf(r.note, sizeof r.note, "stopped");
	for (int i = 0; statuses && statuses[i]; i++)
		results_add_outcome(&r, "", 0, statuses[i], NULL);
	if (error)
		snprintf(results_add_error(&r)->kind, 24, "%s", error);
	svcomp_answer(o, &r);
	return r.answer_result;
}

static void test_answers(void)
{
	struct options o;
	const char *benign[] = { "exit 0", "exit 1", "signal SIGABRT",
				 "deadlock", "livelock", NULL };
	const char *crash[] = { "exit 0", "signal SIGSEGV", NULL };

	memset(&o, 0, sizeof o);
	o.property = PROP_UNREACH_CALL;
	o.nnondet = 2;
	CU_ASSERT_STRING_EQUAL(answer(&o, true, 0, benign, NULL), "true");
	CU_ASSERT_STRING_EQUAL(answer(&o, false, 0, benign, NULL), "unknown");
	CU_ASSERT_STRING_EQUAL(answer(&o, true, 1u << 5, benign, NULL), "unknown");
	CU_ASSERT_STRING_EQUAL(answer(&o, true, 0, crash, NULL), "unknown");
	CU_ASSERT_STRING_EQUAL(answer(&o, false, 1u << 5, crash, "verifier-error"),
			       "false(unreach-call)");
	o.property = PROP_NO_DATA_RACE;
	CU_ASSERT_STRING_EQUAL(answer(&o, true, 0, benign, "data-race"),
			       "false(no-data-race)");
	answer(&o, true, 0, NULL, NULL); /* free the last one */
}

static CU_TestInfo tests[] = {
	{ "property files", test_property_files },
	{ "answers", test_answers },
	CU_TEST_INFO_NULL,
};
UNIT_SUITE("svcomp", NULL, NULL, tests);
