/* CUnit runner: runs every suite registered with UNIT_SUITE(), or only
 * those named on the command line.  Exits non-zero on any failure. */
#include <stdio.h>
#include <string.h>
#include <CUnit/Basic.h>
#include "unit.h"

#define MAX_SUITES 64
static CU_SuiteInfo suites[MAX_SUITES + 1];
static int nsuites;

void unit_add_suite(const char *name, CU_InitializeFunc init,
		    CU_CleanupFunc clean, CU_TestInfo *tests)
{
	if (nsuites == MAX_SUITES) {
		fprintf(stderr, "unit: too many suites\n");
		return;
	}
	suites[nsuites++] = (CU_SuiteInfo){ (char *)name, init, clean, NULL,
					    NULL, tests };
}

static int wanted(const char *name, int argc, char **argv)
{
	if (argc < 2)
		return 1;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	CU_SuiteInfo sel[MAX_SUITES + 1];
	int n = 0;

	for (int i = 0; i < nsuites; i++)
		if (wanted(suites[i].pName, argc, argv))
			sel[n++] = suites[i];
	sel[n] = (CU_SuiteInfo)CU_SUITE_INFO_NULL;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	if (CU_register_suites(sel) != CUE_SUCCESS) {
		fprintf(stderr, "unit: %s\n", CU_get_error_msg());
		return 2;
	}
	CU_basic_set_mode(CU_BRM_NORMAL);
	CU_basic_run_tests();
	unsigned failed = CU_get_number_of_failures() +
			  CU_get_number_of_tests_failed();
	unsigned run = CU_get_number_of_tests_run();
	CU_cleanup_registry();
	return (failed || run == 0) ? 1 : 0;
}
