/* native.c — one live thread, and the start of the program: while only
 * one thread can run nothing is visible to anybody, so it runs natively
 * (breakpoints lifted as hit, only the seccomp filter's syscalls stop),
 * watched now and then by a probe for a spin loop nobody is left to end;
 * tracer_start/tracer_go launch the program and run it natively up to
 * its second thread (split from tracer.c). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>

#include "tracer/determ.h"
#include "tracer/log.h"
#include "tracer/tracer_priv.h"

#define PROBE_MS 2000     /* a lone thread runs natively this long, */
#define PROBE_EVENTS 1000 /* then this many events under control */

/* ---- one live thread: native execution ---- */

static const int traced_syscalls[] = {
	SYS_clone, SYS_fork, SYS_vfork, SYS_execve, SYS_execveat,
	SYS_write, SYS_writev, SYS_set_tid_address, SYS_futex,
	SYS_exit, SYS_gettid, SYS_getpid, SYS_tgkill, SYS_tkill, SYS_kill,
	/* emulated: the process stays, to be reused (recycle.c) */
	SYS_exit_group,
	SYS_rt_sigtimedwait, /* its signals are the tracer's (sys.c) */
	/* about a thread by its tid, a logical one (sys.c, sys_sched):
	 * pthread_create calls one inside its region */
	SYS_sched_setscheduler, SYS_sched_getscheduler, SYS_sched_setparam,
	SYS_sched_getparam, SYS_sched_setaffinity, SYS_sched_getaffinity,
};

/* Answered ENOSYS by the filter itself, without a stop (sys.c answers
 * them alike when it sees them first): glibc then creates threads with
 * clone, and runs without rseq. */
static const int enosys_syscalls[] = { SYS_clone3, SYS_rseq };

int tr_live_threads(const struct tracer *t)
{
	int n = 0;

	for (int i = 0; i < t->nthreads; i++)
		n += t->th[i].info.status != TS_EXITED;
	return n;
}

/* With one live thread nothing is visible to anybody: lift every
 * breakpoint and let it run until it creates a thread, blocks or ends. */
void tr_enter_native(struct tracer *t)
{
	tr_drain_all(t); /* nobody is left to see the order */
	t->probe_tail = false;
	for (int i = 0; i < t->nthreads; i++)
		t->th[i].section = RG_NONE; /* atomic against nobody */
	/* stop points are lifted when hit (bp_native_hit); hooks stay:
	 * pthread_create starts control, assume/nondet/error act */
	t->native = true;
}

void tr_leave_native(struct tracer *t)
{
	bp_native_restore(t);
	t->native = false;
}

/* A hook hit while running natively.  Returns 1 when control starts
 * (pthread_create), 0 to run on, -1 on failure. */
static int native_hook(struct tracer *t)
{
	struct lthread *th = &t->th[t->cur];
	struct bp *b;

	if (proc_getregs(&t->proc, &th->regs) < 0)
		return -1;
	b = bp_find(t, th->regs.rip - 1);
	if (!b)
		return 2; /* not ours */
	th->regs.rip--;
	t->regs_dirty = true;
	if (bp_native_lifted(b->hook)) /* a stop point: no use alone */
		return bp_native_hit(t, b) < 0 ? -1 : 0;
	if (b->hook == HOOK_PTHREAD_CREATE) {
		tr_leave_native(t);
		return 1;
	}
	if (b->hook == HOOK_ASSERT_FAIL)
		tr_record_assert(t, th);
	if (rt_hook(b->hook) && rt_at_hook(t, th, b->hook) < 0)
		return 1; /* a Rust panic (langrt.c) */
	int r = vf_native(t, th, b);
	if (r != 2)
		return r;
	return tr_exec_insn(t) == 0 ? 0 : 1;
}

static bool fatal_signal(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE ||
	       sig == SIGILL || sig == SIGABRT || sig == SIGTRAP;
}

/* Run the current thread natively.  Returns 0 when it stopped (execution
 * ended, thread blocked, or a new thread: t->native is then false), -1 on
 * failure. */
/* A lone thread has run natively for a while: stop it and run it under
 * control for a while (tracer_step keeps it there while probe_events
 * lasts), so that a spin loop that nobody is left to end is seen as a
 * livelock.  Returns 1 if it is stopped for that, 0 if another stop came
 * first (in *st, to be handled). */
static int probe(struct tracer *t, struct proc_stop *st)
{
	struct lthread *th = &t->th[t->cur];

	if (proc_interrupt(&t->proc) < 0 ||
	    proc_wait(&t->proc, false, st) < 0)
		return -1;
	if (st->kind != PROC_GROUP) {
		proc_interrupt_lost(&t->proc);
		return 0;
	}
	if (proc_getregs(&t->proc, &th->regs) < 0)
		return -1;
	t->probe_ms *= 2;
	t->probe_events = PROBE_EVENTS;
	t->probe_tail = true;
	tr_leave_native(t);
	return 1;
}

/* The first probe period: PROBE_MS, or X86SMC_PROBE_MS (tests make it
 * short to probe a native prefix as a loaded machine does). */
static unsigned probe_period(void)
{
	const char *e = getenv("X86SMC_PROBE_MS");
	char *end;
	unsigned long ms = e ? strtoul(e, &end, 10) : 0;

	return e && *e && !*end && ms > 0 && ms < 3600000 ? (unsigned)ms
							  : PROBE_MS;
}

int tr_run_free(struct tracer *t)
{
	struct proc_stop st;
	int sig = tr_deliverable_signal(t), r;

	if (!t->probe_ms)
		t->probe_ms = probe_period();
	for (;;) {
		if (tr_sync_regs(t) < 0 || proc_cont(&t->proc, sig) < 0)
			return -1;
		proc_set_watchdog_ms(t->probe_ms);
		r = proc_wait(&t->proc, false, &st);
		proc_set_watchdog(0);
		if (r < 0)
			return -1;
		if (st.kind == PROC_TIMEOUT && tr_live_threads(t) == 1) {
			r = probe(t, &st);
			if (r != 0)
				return r < 0 ? -1 : 0;
		}
		sig = 0;
		switch (st.kind) {
		case PROC_SECCOMP:
			r = sys_at_seccomp(t);
			if (r == 2) { /* a thread is born: control starts */
				tr_leave_native(t);
				return tr_rewind_syscall(t) < 0 ? -1 : 0;
			}
			if (r != 0)
				return r < 0 ? -1 : 0;
			sig = tr_deliverable_signal(t);
			break;
		case PROC_SIGNAL:
			if (det_tsc_stop(t, &st))
				break; /* rdtsc, emulated */
			if (fatal_signal(st.sig)) {
				tr_handle_stop_signal(t, &st);
				return 0;
			}
			sig = st.sig;
			break;
		case PROC_TRAP:
			r = native_hook(t);
			if (r < 0)
				return -1;
			if (r == 1)
				return 0;
			if (r == 2)
				sig = SIGTRAP; /* the program's own */
			break;
		case PROC_GROUP:
		case PROC_EVENT:
			break;
		default:
			tr_handle_stop_signal(t, &st);
			return 0;
		}
	}
}

static uint64_t entry_point(pid_t pid)
{
	char path[64];
	uint64_t av[2];
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/auxv", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fread(av, sizeof av, 1, f) == 1 && av[0] != 0)
		if (av[0] == 9) { /* AT_ENTRY */
			fclose(f);
			return av[1];
		}
	fclose(f);
	return 0;
}

/* From the exec stop to the program's entry point (a one-time int3). */
static int run_to_entry(struct tracer *t)
{
	uint64_t entry = entry_point(t->proc.pid);
	struct proc_stop st;
	uint8_t orig, int3 = 0xcc;

	if (!entry || proc_read(&t->proc, entry, &orig, 1) != 1 ||
	    proc_write(&t->proc, entry, &int3, 1) != 1)
		return -1;
	for (;;) {
		if (proc_cont(&t->proc, 0) < 0 ||
		    proc_wait(&t->proc, false, &st) < 0)
			return -1;
		if (st.kind == PROC_SECCOMP) {
			if (sys_at_seccomp(t) < 0)
				return -1;
			if (t->end.kind != END_NONE)
				return 0;
			continue;
		}
		if (det_tsc_stop(t, &st))
			continue; /* ld.so reads the TSC */
		if (st.kind != PROC_TRAP)
			return tr_handle_stop_signal(t, &st) ? 0 : -1;
		break;
	}
	proc_write(&t->proc, entry, &orig, 1);
	if (proc_getregs(&t->proc, &t->th[0].regs) < 0)
		return -1;
	t->th[0].regs.rip = entry;
	t->regs_dirty = true;
	return tr_sync_regs(t);
}

int tracer_start(struct tracer *t, char *const argv[])
{
	/* RUST_BACKTRACE=0: a Rust panic hook that captures a backtrace
	 * runs ~10^5 events of symbolization (docs/LANGUAGES.md).
	 * GOMP_SPINCOUNT=0: libgomp's waits spin up to 300,000 times with
	 * a counter before sleeping on a futex (no await detection for a
	 * loop whose registers change): an OpenMP lost update was cut at
	 * --max-steps after 10 s; sleeping at once, it is found (spinning
	 * is only an optimisation of the same wait) */
	static char *env[] = { "GLIBC_TUNABLES=glibc.pthread.rseq=0",
			       "LD_BIND_NOW=1", "RUST_BACKTRACE=0",
			       "GOMP_SPINCOUNT=0", NULL };
	enum { NT = sizeof traced_syscalls / sizeof traced_syscalls[0],
	       NE = sizeof enosys_syscalls / sizeof enosys_syscalls[0] };
	int nrs[NT + 16], lo_nallow = 0;
	struct proc_launch_opts lo = {
		.cpu = t->opts.cpu,
		.trace_nrs = nrs,
		.ntrace_nrs = NT + det_ntraced_syscalls,
		.enosys_nrs = enosys_syscalls,
		.nenosys_nrs = NE,
		.allow_nrs = sys_neutral_list(&lo_nallow),
		.envp_extra = env,
		.trap_tsc = true,
	};
	struct lthread *main_th;

	lo.nallow_nrs = lo_nallow;
	memcpy(nrs, traced_syscalls, sizeof traced_syscalls);
	for (int i = 0; i < det_ntraced_syscalls && i < 16; i++)
		nrs[NT + i] = det_traced_syscalls[i];
	if (proc_launch(&t->proc, argv, &lo) < 0)
		return -1;
	if (det_start(t) < 0) {
		fprintf(stderr, "x86smc: %s: no auxiliary vector at its exec "
				"(not a Linux x86-64 program?)\n", argv[0]);
		proc_kill(&t->proc);
		return -1;
	}
	t->vpid = DET_VPID;
	main_th = tr_new_thread(t);
	if (!main_th)
		return -1;
	t->native = true;
	if (proc_getregs(&t->proc, &main_th->regs) < 0 || run_to_entry(t) < 0) {
		if (t->end.kind == END_NONE)
			tr_end_internal(t, "the program did not reach its "
					   "entry point");
	}
	return 0;
}

int tracer_go(struct tracer *t)
{
	if (t->end.kind != END_NONE)
		return 0;
	if (tr_run_free(t) < 0) {
		if (t->end.kind == END_NONE)
			tr_end_internal(t, "native run failed");
		return -1;
	}
	return 0;
}
