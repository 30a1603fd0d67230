/* unit.h — CUnit suites register themselves at load time, so adding a
 * test file needs no edit elsewhere:
 *
 *   static CU_TestInfo tests[] = { {"name", fn}, CU_TEST_INFO_NULL };
 *   UNIT_SUITE("decode", NULL, NULL, tests);
 */
#ifndef X86SMC_UNIT_H
#define X86SMC_UNIT_H
#include <CUnit/CUnit.h>

void unit_add_suite(const char *name, CU_InitializeFunc init,
		    CU_CleanupFunc clean, CU_TestInfo *tests);

#define UNIT_SUITE(name, init, clean, tests)                                \
	__attribute__((constructor)) static void unit_register_(void)      \
	{                                                                    \
		unit_add_suite(name, init, clean, tests);                    \
	}
#endif
