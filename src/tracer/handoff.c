/* handoff.c — the replayed failure given to gdb or written as a core
 * file (handoff.h). */
#include "tracer/handoff.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tracer/tracer_priv.h"

pid_t tracer_handoff(struct tracer *t, int tid)
{
	if (t->proc.pid <= 0 || tid < 0 || tid >= t->nthreads ||
	    t->th[tid].info.status == TS_EXITED)
		return -1; /* the process is gone, or so is the thread */
	if (tr_load(t, tid) < 0)
		return -1;
	/* stopped in a syscall x86smc emulated: not to be restarted */
	t->th[tid].regs.orig_rax = (unsigned long)-1;
	t->regs_dirty = true;
	if (tr_sync_regs(t) < 0)
		return -1;
	bp_lift(t, 0, UINT64_MAX, true); /* the original bytes back */
	return proc_detach(&t->proc, SIGSTOP);
}

/* Run argv as a child and wait for it (quiet: its output to /dev/null);
 * its exit status, or -1. */
static int run(char *const argv[], bool quiet)
{
	int ws;
	pid_t c = fork();

	if (c < 0)
		return -1;
	if (c == 0) {
		int null = quiet ? open("/dev/null", O_WRONLY) : -1;
		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		signal(SIGINT, SIG_DFL);
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(c, &ws, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
}

static void end(pid_t pid)
{
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, __WALL) < 0 && errno == EINTR)
		;
}

int handoff_debug(pid_t pid, bool gdb, const char *core)
{
	char spid[24], cmd[300];
	int r = 0;

	snprintf(spid, sizeof spid, "%d", (int)pid);
	if (core) {
		snprintf(cmd, sizeof cmd, "generate-core-file %s", core);
		char *argv[] = { "gdb", "-batch", "-nx", "-p", spid, "-ex", cmd,
				 NULL };
		r = run(argv, true);
		if (r == 0)
			fprintf(stderr, "x86smc: core file of the failure "
					"written to %s\n", core);
		else
			fprintf(stderr, "x86smc: --core: gdb could not write %s "
					"(%s)\n", core, r == 127
					? "gdb is not installed" : "gdb failed");
	} else if (gdb && isatty(0) && isatty(1)) {
		char *argv[] = { "gdb", "-q", "-p", spid, NULL };
		signal(SIGINT, SIG_IGN); /* ^C is gdb's */
		r = run(argv, false);
		if (r == 127)
			fprintf(stderr, "x86smc: --gdb: gdb is not installed "
					"(run: gdb -p %s)\n", spid);
	} else if (gdb) {
		fprintf(stderr, "x86smc: process %s is stopped at the failure; "
				"debug it with: gdb -p %s\n"
				"x86smc: waiting until it ends (kill %s)\n",
			spid, spid, spid);
		while (waitpid(pid, NULL, __WALL) < 0 && errno == EINTR)
			;
		return 0;
	}
	end(pid);
	return r == 0 ? 0 : -1;
}
