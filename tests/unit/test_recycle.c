/* Restores in place (tracer/recycle.c) on two real processes: a copy c
 * and a process p that wrote since; after rc_restore_memory p's memory is
 * c's again, pages p touched first included. */
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tracer/recycle.h"
#include "unit.h"

#define NPAGES 64
static unsigned char area[NPAGES * 4096] __attribute__((aligned(4096)));
static volatile unsigned char marker[4096] __attribute__((aligned(4096)));

/* A child that sets what: then waits to be killed. */
static pid_t child(int what, int pipefd)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	if (what == 1) { /* p: writes a page c has and one nobody touched */
		memset((void *)marker, 0xbb, sizeof marker);
		area[7 * 4096] = 0x77;
	}
	if (write(pipefd, "x", 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

static bool read_at(pid_t pid, const volatile void *addr, void *buf,
		    size_t n)
{
	struct iovec l = { buf, n }, r = { (void *)addr, n };

	return process_vm_readv(pid, &l, 1, &r, 1, 0) == (ssize_t)n;
}

static void test_maps_lines(void)
{
	struct rc_maps m = { 0 };
	bool saw_area = false, saw_stack = false;

	CU_ASSERT_EQUAL_FATAL(rc_maps_read(&m, getpid()), 0);
	CU_ASSERT(m.n > 5);
	for (int i = 0; i < m.n; i++) {
		const struct rc_line *l = &m.l[i];
		CU_ASSERT(l->lo < l->hi);
		if (l->lo <= (uint64_t)(uintptr_t)area &&
		    (uint64_t)(uintptr_t)area < l->hi) {
			saw_area = true;
			CU_ASSERT(l->wpriv);
		}
		if (memmem(m.text + l->off, l->len, "[stack]", 7)) {
			saw_stack = true;
			CU_ASSERT(l->special && l->wpriv && !l->anon);
		}
	}
	CU_ASSERT(saw_area && saw_stack);
	rc_maps_free(&m);
}

static void test_restore_pages(void)
{
	int fds[2];
	char x;
	struct proc p = { 0 }, c = { 0 };
	struct rc_maps cm = { 0 };
	struct rc_ctx ctx;
	const char *why = NULL;
	unsigned char got[4096], page7 = 1;

	memset((void *)marker, 0xaa, sizeof marker);
	CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);
	c.pid = child(0, fds[1]);
	p.pid = child(1, fds[1]);
	CU_ASSERT_FATAL(c.pid > 0 && p.pid > 0);
	CU_ASSERT_EQUAL(read(fds[0], &x, 1), 1);
	CU_ASSERT_EQUAL(read(fds[0], &x, 1), 1);
	CU_ASSERT(read_at(p.pid, marker, got, sizeof got) && got[0] == 0xbb);
	CU_ASSERT_EQUAL_FATAL(rc_maps_read(&cm, c.pid), 0);
	ctx = (struct rc_ctx){ .p = &p, .c = &c, .cmaps = &cm };
	/* the same map: nothing to inject (syscall_pc 0 is never used) */
	CU_ASSERT_EQUAL(rc_restore_memory(&ctx, &why), 0);
	CU_ASSERT(ctx.pages >= 2);
	CU_ASSERT(read_at(p.pid, marker, got, sizeof got));
	CU_ASSERT(got[0] == 0xaa && got[4095] == 0xaa);
	CU_ASSERT(read_at(p.pid, &area[7 * 4096], &page7, 1) && page7 == 0);
	rc_maps_free(&ctx.pmaps);
	rc_maps_free(&cm);
	kill(p.pid, SIGKILL);
	kill(c.pid, SIGKILL);
	waitpid(p.pid, NULL, 0);
	waitpid(c.pid, NULL, 0);
	close(fds[0]);
	close(fds[1]);
}

static CU_TestInfo tests[] = {
	{ "maps_lines", test_maps_lines },
	{ "restore_pages", test_restore_pages },
	CU_TEST_INFO_NULL,
};
UNIT_SUITE("recycle", NULL, NULL, tests)
