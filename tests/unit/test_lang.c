/* What C++ and Rust runtimes print when they fail (report/lang.h), and
 * C++/Rust names demangled (report/symelf.h through libiberty). */
#include <string.h>

#include "report/lang.h"
#include "unit.h"

static void test_panic_old(void)
{
	const char err[] = "some output\nthread 'main' panicked at 'attempt to "
			   "subtract with overflow', src/main.rs:5:13\nnote: "
			   "run with `RUST_BACKTRACE=1` environment variable "
			   "to display a backtrace\n";
	char out[256];

	CU_ASSERT_EQUAL_FATAL(lang_panic_message(err, strlen(err), out,
						 sizeof out), 0);
	CU_ASSERT_STRING_EQUAL(out, "thread 'main' panicked at src/main.rs:5:"
				    "13: attempt to subtract with overflow");
}

static void test_panic_new(void)
{
	const char err[] = "thread '<unnamed>' panicked at src/lib.rs:12:9:\n"
			   "two\nlines\nnote: run with `RUST_BACKTRACE=1` ...\n";
	char out[256];

	CU_ASSERT_EQUAL_FATAL(lang_panic_message(err, strlen(err), out,
						 sizeof out), 0);
	CU_ASSERT_STRING_EQUAL(out, "thread '<unnamed>' panicked at "
				    "src/lib.rs:12:9: two lines");
}

static void test_panic_id(void)
{
	const char err[] = "\nthread '<unnamed>' (3) panicked at a.rs:2:5:\n"
			   "boom\nnote: run with `RUST_BACKTRACE=1` ...\n";
	char out[256];

	CU_ASSERT_EQUAL_FATAL(lang_panic_message(err, strlen(err), out,
						 sizeof out), 0);
	CU_ASSERT_STRING_EQUAL(out, "thread '<unnamed>' (3) panicked at "
				    "a.rs:2:5: boom");
}

static void test_panic_none(void)
{
	char out[64];

	CU_ASSERT_EQUAL(lang_panic_message("nothing\n", 8, out, sizeof out),
			-1);
	CU_ASSERT_EQUAL(lang_panic_message("thread 'x' pan", 14, out,
					   sizeof out), -1);
	/* too small a buffer truncates, never overflows */
	const char err[] = "thread 'main' panicked at 'boom', a.rs:1:1\n";
	CU_ASSERT_EQUAL(lang_panic_message(err, strlen(err), out, 8), 0);
	CU_ASSERT_EQUAL(strlen(out), 7);
}

static void test_terminate(void)
{
	const char err[] = "terminate called after throwing an instance of "
			   "'std::runtime_error'\n  what():  out of stock\n";
	const char none[] = "terminate called without an active exception\n";
	char out[256];

	CU_ASSERT_EQUAL_FATAL(lang_terminate_message(err, strlen(err), out,
						     sizeof out), 0);
	CU_ASSERT_STRING_EQUAL(out, "terminate called after throwing an "
				    "instance of 'std::runtime_error': "
				    "what(): out of stock");
	CU_ASSERT_EQUAL_FATAL(lang_terminate_message(none, strlen(none), out,
						     sizeof out), 0);
	CU_ASSERT_STRING_EQUAL(out, "terminate called without an active "
				    "exception");
	CU_ASSERT_EQUAL(lang_terminate_message("x", 1, out, sizeof out), -1);
}

static CU_TestInfo tests[] = {
	{ "panic, Rust before 1.73", test_panic_old },
	{ "panic, Rust 1.73 and later", test_panic_new },
	{ "panic, thread ids (Rust 1.88)", test_panic_id },
	{ "no panic, short buffer", test_panic_none },
	{ "std::terminate", test_terminate },
	CU_TEST_INFO_NULL,
};

UNIT_SUITE("lang", NULL, NULL, tests);
