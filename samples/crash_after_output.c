/* crash_after_output.c — a thread that may crash, beside threads that
 * write.  t1 reads P and dereferences it: it crashes (SIGSEGV) unless t2
 * has set P first.  The crash can come after any of the other threads'
 * lines, and each of those executions is a different outcome: the crash
 * ends the process like exit_group, so it conflicts with every write.
 *
 * Before the fix dpor found the crash only before all output ("" /
 * SIGSEGV, 7 outcomes of 20): when the other branches at the crash were
 * explored, t1 slept there with the faulting load as its event, which
 * conflicts with no output, and slept through t3's write to the end
 * (issue 15; tests/fuzz_explore/found/crash_vs_output_sc.c).
 */
// expect sc: crash
// expect tso: crash
// expect pso: crash
// x86smc: --keep-going
// outcome sc tso pso: signal SIGSEGV:
// outcome sc tso pso: signal SIGSEGV: t2 1
// outcome sc tso pso: signal SIGSEGV: t2 2
// outcome sc tso pso: signal SIGSEGV: t3
// outcome sc tso pso: signal SIGSEGV: t2 1\nt3
// outcome sc tso pso: signal SIGSEGV: t2 2\nt3
// outcome sc tso pso: signal SIGSEGV: t3\nt2 1
// outcome sc tso pso: signal SIGSEGV: t3\nt2 2
// outcome sc tso pso: exit 0: t1 7\nt2 1\nt3\nm
// outcome sc tso pso: exit 0: t1 7\nt3\nt2 1\nm
// outcome sc tso pso: exit 0: t2 1\nt1 7\nt3\nm
// outcome sc tso pso: exit 0: t2 1\nt3\nt1 7\nm
// outcome sc tso pso: exit 0: t3\nt1 7\nt2 1\nm
// outcome sc tso pso: exit 0: t3\nt2 1\nt1 7\nm
// outcome sc tso pso: exit 0: t1 7\nt2 2\nt3\nm
// outcome sc tso pso: exit 0: t1 7\nt3\nt2 2\nm
// outcome sc tso pso: exit 0: t2 2\nt1 7\nt3\nm
// outcome sc tso pso: exit 0: t2 2\nt3\nt1 7\nm
// outcome sc tso pso: exit 0: t3\nt1 7\nt2 2\nm
// outcome sc tso pso: exit 0: t3\nt2 2\nt1 7\nm
#include "common.h"
#include <unistd.h>

static volatile char X;
static volatile int PT = 7;
static volatile int *volatile P;

static void say(const char *s, int n)
{
	if (write(1, s, (size_t)n) < 0)
		_exit(97);
}

static void *t1(void *arg)
{
	(void)arg;
	int v = *P; /* SIGSEGV unless t2 set P first */
	say(v == 7 ? "t1 7\n" : "t1 ?\n", 5);
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
	X = 1;
	char x = X;
	P = &PT;
	say(x == 1 ? "t2 1\n" : "t2 2\n", 5);
	return NULL;
}

static void *t3(void *arg)
{
	(void)arg;
	X = 2;
	say("t3\n", 3);
	return NULL;
}

int main(void)
{
	pthread_t th[3];

	xcreate(&th[0], t1, NULL);
	xcreate(&th[1], t2, NULL);
	xcreate(&th[2], t3, NULL);
	printf("m\n");
	pthread_exit(NULL);
}
