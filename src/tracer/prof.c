/* prof.c — --profile's state and its measure of one ptrace stop (the
 * clock: clock.h). */
#include "tracer/prof.h"

#include <errno.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"

struct prof prof;

void prof_begin(void)
{
	prof.on = true;
	prof.cur = PROF_OWN;
	prof.start = prof.t = clock_ns();
}

#define CALIBRATION_STOPS 2000

double prof_stop_cost(void)
{
	int ws;
	pid_t pid = fork();
	uint64_t t0;
	double r = 0;

	if (pid < 0)
		return 0;
	if (pid == 0) { /* stops at every int3: one round trip each */
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) == 0)
			raise(SIGSTOP);
		for (;;)
			__asm__ volatile("int3");
	}
	if (waitpid(pid, &ws, 0) != pid || !WIFSTOPPED(ws))
		goto out;
	t0 = clock_ns();
	for (int i = 0; i < CALIBRATION_STOPS; i++)
		if (ptrace(PTRACE_CONT, pid, 0, 0) < 0 ||
		    waitpid(pid, &ws, 0) != pid || !WIFSTOPPED(ws))
			goto out;
	r = (double)(clock_ns() - t0) / CALIBRATION_STOPS;
out:
	kill(pid, SIGKILL);
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	return r;
}
