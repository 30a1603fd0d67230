/* profile.c — --profile: where the wall time of a search went.
 *
 * The parts are measured exclusively (tracer/prof.h), so they add up to
 * the whole.  The floor is what an execution cannot cost less than with
 * this design: its ptrace stops at the round trip measured here on a
 * child that only stops, and one fork (the restore it starts from) at
 * the mean fork cost of this run. */
#include "report/profile.h"

#include "clock.h"
#include "tracer/prof.h"

static const struct {
	const char *key, *what;
} parts[PROF_NPARTS] = {
	[PROF_OWN] = { "own_s", "x86smc's own work (decode, emulate, "
				"bookkeeping)" },
	[PROF_WAIT] = { "wait_s", "waiting for stops (the target runs, "
				  "the stop)" },
	[PROF_PTRACE] = { "ptrace_s", "ptrace requests (registers, cont, "
				      "step)" },
	[PROF_MEM] = { "memory_s", "the target's memory read and written" },
	[PROF_DPOR] = { "dpor_s", "race analysis, backtrack and sleep sets" },
	[PROF_LAUNCH] = { "launch_s", "launch: exec, start-up, native "
				      "prefix" },
	[PROF_FORK] = { "fork_s", "forks: snapshot restores, checkpoints" },
	[PROF_KILL] = { "kill_s", "ending executions (kill, reap)" },
	[PROF_REPLAY] = { "replay_s", "replay of prefixes no fork saved" },
	[PROF_FENCE] = { "fence_check_s", "the fence check's searches" },
	[PROF_REPORT] = { "report_s", "reports (traces, JSON, SARIF, DOT)" },
	[PROF_RECYCLE] = { "recycle_s", "restores without a fork (recycle)" },
};

/* The parts up to now, with the current one's running time. */
static void snapshot(uint64_t ns[PROF_NPARTS], uint64_t *total)
{
	uint64_t now = clock_ns();

	for (int i = 0; i < PROF_NPARTS; i++)
		ns[i] = prof.ns[i];
	ns[prof.cur] += now - prof.t;
	*total = now - prof.start;
}

void profile_json(FILE *f)
{
	uint64_t ns[PROF_NPARTS], total;

	if (!prof.on)
		return;
	snapshot(ns, &total);
	fprintf(f, "  \"profile\": {\"total_s\": %.4f", (double)total / 1e9);
	for (int i = 0; i < PROF_NPARTS; i++)
		fprintf(f, ", \"%s\": %.4f", parts[i].key,
			(double)ns[i] / 1e9);
	fprintf(f, ", \"forks\": %lu},\n", (unsigned long)prof.n[PROF_FORK]);
}

void profile_print(FILE *f, const struct results *r)
{
	uint64_t ns[PROF_NPARTS], total;
	unsigned long ex = results_runs(r);

	if (!prof.on)
		return;
	snapshot(ns, &total);
	double stop = prof_stop_cost();
	double t = (double)total / 1e9;
	fprintf(f, "profile: %.3f s, %lu executions, %lu events, %lu ptrace "
		   "stops, %lu forks\n",
		t, ex, (unsigned long)r->events,
		(unsigned long)r->ptrace_stops,
		(unsigned long)prof.n[PROF_FORK]);
	fprintf(f, "  %-52s %9s %6s %12s %9s\n", "part", "seconds", "share",
		"per exec", "entered");
	for (int i = 0; i < PROF_NPARTS; i++) {
		double s = (double)ns[i] / 1e9;
		if (ns[i] == 0)
			continue;
		fprintf(f, "  %-52s %9.3f %5.1f%% %9.1f us %9lu\n",
			parts[i].what, s, t > 0 ? 100 * s / t : 0,
			ex ? 1e6 * s / ex : 0, (unsigned long)prof.n[i]);
	}
	if (stop <= 0 || !ex)
		return;
	double fork = prof.n[PROF_FORK]
			      ? (double)ns[PROF_FORK] / 1e9 / prof.n[PROF_FORK]
			      : 0;
	/* an execution starts from a restore in place where it could
	 * (recycle.c): the cheaper of the two is the floor's */
	double rec = prof.n[PROF_RECYCLE] ? (double)ns[PROF_RECYCLE] / 1e9 /
						    prof.n[PROF_RECYCLE]
					  : 0;
	bool in_place = rec > 0 && (fork == 0 || rec < fork);
	double start = in_place ? rec : fork;
	double floor = (double)r->ptrace_stops * stop / 1e9 + ex * start;
	double search = t - (double)(ns[PROF_FENCE] + ns[PROF_REPORT]) / 1e9;
	fprintf(f, "  floor: %lu stops x %.1f us (one stop, measured now) + "
		   "%lu %s x %.1f us (this run's mean) = %.3f s;\n"
		   "  the search (without fence check and reports) took "
		   "%.3f s, %.1fx the floor\n",
		(unsigned long)r->ptrace_stops, stop / 1e3, ex,
		in_place ? "restores in place" : "forks", start * 1e6,
		floor, search, floor > 0 ? search / floor : 0);
}
