/* test_sym.c — symbolization of a live, stopped process.
 *
 * The unit-test binary forks a child that stops itself; the
 * child has the parent's layout (fork), so the parent's own addresses of
 * functions and variables are the child's, and dl_iterate_phdr() gives the
 * exact load bias of each object to compare with.  The test binary must be
 * built with -g (DWARF lines of this file are checked).
 *
 * Then a small program compiled here with -no-pie (an
 * ET_EXEC with a zero bias, the other half of the bias rule), run, then
 * run again with its file unlinked (the " (deleted)" case).
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/sym.h"
#include "unit.h"

/* One line long, so every instruction of it is on PROBE_LINE whatever the
 * optimisation level. */
__attribute__((noinline, used))
static int test_sym_probe(int x) { return x * 3 + 1; } enum { PROBE_LINE = __LINE__ };

/* A shorter alias with leading underscores: traces must show the plain
 * name. */
__attribute__((noinline, used)) static int test_sym_aliased(int x)
{
	return x - 7;
}
__attribute__((alias("test_sym_aliased"), used)) static int __tsa(int);

static long test_sym_data[3] = { 1, 2, 3 };
/* Big enough that its end lies in the anonymous mapping after the file's
 * last page: the .bss tail must still belong to the executable. */
static char test_sym_bss[1 << 20];

static pid_t child = -1;
static struct symtab *st;

static int stop_self_child(void)
{
	int status;

	child = fork();
	if (child == 0) {
		raise(SIGSTOP);
		_exit(0);
	}
	if (child < 0 || waitpid(child, &status, WUNTRACED) != child ||
	    !WIFSTOPPED(status))
		return -1;
	return 0;
}

static void reap(pid_t *pid)
{
	if (*pid > 0) {
		kill(*pid, SIGKILL);
		waitpid(*pid, NULL, 0);
	}
	*pid = -1;
}

struct bias_query {
	const char *suffix; /* "" for the executable */
	uint64_t bias;
	int found;
};

static int bias_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct bias_query *q = arg;
	size_t n = strlen(info->dlpi_name), m = strlen(q->suffix);

	(void)size;
	if (q->found || n < m || strcmp(info->dlpi_name + n - m, q->suffix))
		return 0;
	q->bias = info->dlpi_addr;
	q->found = 1;
	return 1;
}

/* Load bias of the object whose name ends with suffix, as ld.so knows it. */
static uint64_t bias_of(const char *suffix)
{
	struct bias_query q = { suffix, 0, 0 };

	dl_iterate_phdr(bias_cb, &q);
	CU_ASSERT(q.found);
	return q.bias;
}

static const char *self_name(void)
{
	static char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);

	path[n > 0 ? n : 0] = '\0';
	return strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
}

static void *libc_sym(const char *name)
{
	void *h = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	void *p = h ? dlsym(h, name) : NULL;

	if (h)
		dlclose(h);
	return p;
}

static void test_loaded(void)
{
	CU_ASSERT_FATAL(st != NULL);
	CU_ASSERT_PTR_NULL(sym_load(INT_MAX));
}

static void test_exe_function(void)
{
	uint64_t a = (uint64_t)(uintptr_t)test_sym_probe;
	struct sym_info si;

	CU_ASSERT_FATAL(st != NULL);
	CU_ASSERT_EQUAL_FATAL(sym_lookup(st, a + 1, &si), 0);
	CU_ASSERT_STRING_EQUAL(si.func, "test_sym_probe");
	CU_ASSERT_EQUAL(si.func_off, 1);
	CU_ASSERT_STRING_EQUAL(si.object, self_name());
	CU_ASSERT_EQUAL(si.obj_off, a + 1 - bias_of(""));
	CU_ASSERT_PTR_NOT_NULL_FATAL(si.file);
	CU_ASSERT_STRING_EQUAL(si.file, "test_sym.c");
	CU_ASSERT_EQUAL(si.line, PROBE_LINE);
	/* a local (static) function is found by name too */
	CU_ASSERT_EQUAL(sym_addr(st, "test_sym_probe"), a);
}

static void test_exe_text(void)
{
	uint64_t a = (uint64_t)(uintptr_t)test_sym_probe;
	char buf[128], want[128];
	struct sym_info si;

	CU_ASSERT_FATAL(st != NULL);
	snprintf(want, sizeof want, "test_sym_probe (test_sym.c:%d)",
		 PROBE_LINE);
	CU_ASSERT_STRING_EQUAL(sym_describe(st, a, buf, sizeof buf), want);
	snprintf(want, sizeof want, "test_sym_probe+0x2 (test_sym.c:%d)",
		 PROBE_LINE);
	CU_ASSERT_STRING_EQUAL(sym_describe(st, a + 2, buf, sizeof buf), want);
	snprintf(want, sizeof want, "test_sym.c:%d", PROBE_LINE);
	CU_ASSERT_STRING_EQUAL(sym_location(st, a, buf, sizeof buf), want);
	CU_ASSERT_EQUAL(sym_lookup(st, (uintptr_t)test_sym_aliased, &si), 0);
	CU_ASSERT_STRING_EQUAL(si.func, "test_sym_aliased");
	CU_ASSERT_EQUAL(sym_addr(st, "__tsa"), (uintptr_t)test_sym_aliased);
	/* truncation: always terminated, never overrun */
	memset(buf, 'x', sizeof buf);
	CU_ASSERT_STRING_EQUAL(sym_describe(st, a, buf, 5), "test");
	CU_ASSERT_EQUAL(buf[5], 'x');
	CU_ASSERT_PTR_EQUAL(sym_describe(st, a, buf, 0), buf);
	CU_ASSERT_EQUAL(buf[0], 't');
}

static void test_exe_data(void)
{
	uint64_t d = (uint64_t)(uintptr_t)test_sym_data;
	uint64_t b = (uint64_t)(uintptr_t)test_sym_bss;
	char buf[128];
	struct sym_info si;

	CU_ASSERT_FATAL(st != NULL);
	CU_ASSERT_STRING_EQUAL(sym_describe(st, d + 8, buf, sizeof buf),
			       "test_sym_data+0x8");
	CU_ASSERT_STRING_EQUAL(sym_describe(st, d, buf, sizeof buf),
			       "test_sym_data");
	CU_ASSERT_STRING_EQUAL(sym_describe(st, b + sizeof test_sym_bss - 1,
					    buf, sizeof buf),
			       "test_sym_bss+0xfffff");
	CU_ASSERT_EQUAL(sym_addr(st, "test_sym_data"), d);
	/* data has no line; the object is still the executable */
	CU_ASSERT_EQUAL(sym_lookup(st, d + 8, &si), 0);
	CU_ASSERT_PTR_NULL(si.file);
	CU_ASSERT_EQUAL(si.line, 0);
	CU_ASSERT_STRING_EQUAL(si.object, self_name());
}

static void test_libc(void)
{
	void *getpid_p = libc_sym("getpid");
	uint64_t g = (uint64_t)(uintptr_t)getpid_p;
	char buf[128];
	struct sym_info si;

	CU_ASSERT_FATAL(st != NULL && getpid_p != NULL);
	CU_ASSERT_EQUAL(sym_addr(st, "getpid"), g);
	CU_ASSERT_EQUAL(sym_addr(st, "malloc"),
			(uint64_t)(uintptr_t)libc_sym("malloc"));
	/* two versions at two addresses: the default one, as dlsym says */
	CU_ASSERT_EQUAL(sym_addr(st, "pthread_cond_wait"),
			(uint64_t)(uintptr_t)libc_sym("pthread_cond_wait"));
	CU_ASSERT_EQUAL(sym_addr(st, "__assert_fail"),
			(uint64_t)(uintptr_t)libc_sym("__assert_fail"));
	/* getpid is a WEAK alias of GLOBAL __getpid: the plain name wins */
	CU_ASSERT_STRING_EQUAL(sym_describe(st, g, buf, sizeof buf), "getpid");
	CU_ASSERT_EQUAL_FATAL(sym_lookup(st, g + 3, &si), 0);
	CU_ASSERT_STRING_EQUAL(si.object, "libc.so.6");
	CU_ASSERT_EQUAL(si.obj_off, g + 3 - bias_of("/libc.so.6"));
	CU_ASSERT_EQUAL(si.func_off, 3);
	CU_ASSERT_EQUAL(sym_addr(st, "no_such_symbol_x86smc"), 0);
}

static void test_vdso(void)
{
	uint64_t base = getauxval(AT_SYSINFO_EHDR);
	uint64_t a;
	char buf[128];
	struct sym_info si;

	CU_ASSERT_FATAL(st != NULL && base != 0);
	CU_ASSERT_EQUAL_FATAL(sym_lookup(st, base + 16, &si), 0);
	CU_ASSERT_STRING_EQUAL(si.object, "[vdso]");
	CU_ASSERT_EQUAL(si.obj_off, 16);
	a = sym_addr(st, "__vdso_getcpu");
	CU_ASSERT(a > base && a < base + 0x10000);
	/* getcpu is a WEAK alias of __vdso_getcpu */
	CU_ASSERT_STRING_EQUAL(sym_describe(st, a + 1, buf, sizeof buf),
			       "getcpu+0x1");
}

static void test_unknown(void)
{
	void *heap = malloc(16);
	char buf[64], want[64];
	struct sym_info si;

	CU_ASSERT_FATAL(st != NULL);
	CU_ASSERT_EQUAL(sym_lookup(st, 0x1000, &si), -1);
	CU_ASSERT_PTR_NULL(si.object);
	CU_ASSERT_PTR_NULL(si.func);
	CU_ASSERT_EQUAL(si.obj_off, 0);
	CU_ASSERT_STRING_EQUAL(sym_describe(st, 0x1000, buf, sizeof buf),
			       "0x1000");
	snprintf(want, sizeof want, "%p", heap);
	CU_ASSERT_STRING_EQUAL(sym_location(st, (uintptr_t)heap, buf,
					    sizeof buf), want);
	free(heap);
	CU_ASSERT_EQUAL(sym_check(st), 0);
}


/* A -no-pie program, compiled by the suite's init. */

static const char nonpie_src[] =
	"#include <signal.h>\n"
	"#include <stdio.h>\n"
	"long target_data[4] = { 1, 2, 3, 4 };\n"
	"int target_fn(int x) { return x + 1; }\n" /* line 4 */
	"int main(void)\n"
	"{\n"
	"\tprintf(\"%p %p %p\\n\", (void *)target_fn, (void *)target_data,\n"
	"\t       (void *)main);\n"
	"\tfflush(stdout);\n"
	"\traise(SIGSTOP);\n"
	"\treturn target_fn(0);\n"
	"}\n";
enum { TARGET_LINE = 4, MAIN_LINE = 6 };

static char dir[] = "/tmp/x86smc-sym-XXXXXX";
static char bin[sizeof dir + 16];

static void build_nonpie(void)
{
	char src[sizeof dir + 16], cmd[3 * sizeof dir + 96];
	FILE *f;

	if (!mkdtemp(dir))
		return;
	snprintf(src, sizeof src, "%s/nonpie.c", dir);
	snprintf(bin, sizeof bin, "%s/nonpie", dir);
	f = fopen(src, "w");
	if (!f)
		return;
	fputs(nonpie_src, f);
	fclose(f);
	/* One section per function, packed: the line sequence of main starts
	 * at the very address where that of target_fn ends. */
	snprintf(cmd, sizeof cmd,
		 "cc -no-pie -O0 -g -ffunction-sections -falign-functions=1 "
		 "-o %s %s 2>/dev/null",
		 bin, src);
	if (system(cmd) != 0)
		bin[0] = '\0';
	unlink(src);
}

static void remove_nonpie(void)
{
	if (bin[0])
		unlink(bin);
	rmdir(dir);
}

/* Addresses the -no-pie program prints before it stops itself. */
struct np {
	uint64_t fn, data, main;
};

static int read_np(int fd, struct np *np)
{
	FILE *f = fdopen(fd, "r");
	void *p[3] = { NULL, NULL, NULL };

	if (!f) {
		close(fd);
		return -1;
	}
	if (fscanf(f, "%p %p %p", &p[0], &p[1], &p[2]) != 3)
		p[0] = NULL;
	fclose(f);
	*np = (struct np){ (uintptr_t)p[0], (uintptr_t)p[1], (uintptr_t)p[2] };
	return p[0] ? 0 : -1;
}

/* Run bin until it stops itself; -1 if it does not get there. */
static pid_t run_nonpie(struct np *np)
{
	int fds[2], status;
	pid_t pid;

	if (!bin[0] || pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		execl(bin, bin, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	if (read_np(fds[0], np) || pid < 0) {
		reap(&pid);
		return -1;
	}
	if (waitpid(pid, &status, WUNTRACED) != pid || !WIFSTOPPED(status))
		reap(&pid);
	return pid;
}

static void check_nonpie(struct symtab *t, const struct np *np)
{
	char buf[128], want[128];
	struct sym_info si;

	CU_ASSERT_EQUAL(sym_addr(t, "target_fn"), np->fn);
	snprintf(want, sizeof want, "target_fn (nonpie.c:%d)", TARGET_LINE);
	CU_ASSERT_STRING_EQUAL(sym_describe(t, np->fn, buf, sizeof buf), want);
	/* main's sequence starts where target_fn's ends */
	snprintf(want, sizeof want, "main (nonpie.c:%d)", MAIN_LINE);
	CU_ASSERT_STRING_EQUAL(sym_describe(t, np->main, buf, sizeof buf),
			       want);
	/* .fini comes after the last sequence of nonpie.c: no line */
	CU_ASSERT_STRING_EQUAL(sym_describe(t, sym_addr(t, "_fini"), buf,
					    sizeof buf),
			       "_fini");
	CU_ASSERT_STRING_EQUAL(sym_describe(t, np->data + 16, buf, sizeof buf),
			       "target_data+0x10");
	CU_ASSERT_EQUAL(sym_lookup(t, np->fn, &si), 0);
	CU_ASSERT_EQUAL(si.obj_off, np->fn); /* ET_EXEC: bias 0 */
	CU_ASSERT_STRING_EQUAL(si.object, "nonpie");
	CU_ASSERT_EQUAL(sym_check(t), 0);
}

static void test_nonpie(void)
{
	struct np np;
	pid_t pid;
	struct symtab *t;

	CU_ASSERT_FATAL(bin[0] != '\0'); /* cc -no-pie worked */
	pid = run_nonpie(&np);
	CU_ASSERT_FATAL(pid > 0);
	CU_ASSERT(np.fn >= 0x400000 && np.fn < 0x1000000); /* really not PIE */
	t = sym_load(pid);
	CU_ASSERT_PTR_NOT_NULL(t);
	if (t)
		check_nonpie(t, &np);
	sym_free(t);
	reap(&pid);
}

/* Can this process open the target's map_files (needs privileges)? */
static int map_files_ok(pid_t pid, uint64_t addr)
{
	char name[64], line[512];
	unsigned long long lo, hi;
	int ok = 0;
	FILE *f;

	snprintf(name, sizeof name, "/proc/%d/maps", (int)pid);
	f = fopen(name, "r");
	while (f && !ok && fgets(line, sizeof line, f)) {
		int fd;

		if (sscanf(line, "%llx-%llx", &lo, &hi) != 2 || addr < lo ||
		    addr >= hi)
			continue;
		snprintf(name, sizeof name, "/proc/%d/map_files/%llx-%llx",
			 (int)pid, lo, hi);
		fd = open(name, O_RDONLY);
		ok = fd >= 0;
		if (fd >= 0)
			close(fd);
	}
	if (f)
		fclose(f);
	return ok;
}

static void test_deleted(void)
{
	struct np np;
	pid_t pid;
	struct symtab *t;
	struct sym_info si;

	CU_ASSERT_FATAL(bin[0] != '\0');
	pid = run_nonpie(&np);
	CU_ASSERT_FATAL(pid > 0);
	unlink(bin);
	bin[0] = '\0';
	t = sym_load(pid);
	CU_ASSERT_PTR_NOT_NULL(t);
	if (t && sym_lookup(t, np.fn, &si) == 0) {
		CU_ASSERT_STRING_EQUAL(si.object, "nonpie");
	} else {
		CU_FAIL("the deleted executable is not an object");
	}
	if (t && map_files_ok(pid, np.fn)) {
		check_nonpie(t, &np);
	} else if (t) {
		CU_ASSERT_EQUAL(sym_addr(t, "target_fn"), 0);
	}
	sym_free(t);
	reap(&pid);
}

static int init(void)
{
	if (stop_self_child() == 0)
		st = sym_load(child);
	build_nonpie();
	return 0; /* the tests assert what they need */
}

static int clean(void)
{
	sym_free(st);
	st = NULL;
	reap(&child);
	remove_nonpie();
	return 0;
}

static CU_TestInfo tests[] = {
	{ "load", test_loaded },
	{ "exe_function", test_exe_function },
	{ "exe_text", test_exe_text },
	{ "exe_data", test_exe_data },
	{ "libc", test_libc },
	{ "vdso", test_vdso },
	{ "unknown", test_unknown },
	{ "nonpie", test_nonpie },
	{ "deleted", test_deleted },
	CU_TEST_INFO_NULL,
};
UNIT_SUITE("sym", init, clean, tests)
