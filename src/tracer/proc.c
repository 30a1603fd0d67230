/* proc.c — ptrace, seccomp and memory access for one traced process. */
#include "tracer/proc.h"
#include "tracer/prof.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tracer/log.h"

#ifndef NT_X86_XSTATE
#define NT_X86_XSTATE 0x202
#endif

static volatile sig_atomic_t watchdog_fired, interrupted, deadline_passed;
static unsigned watchdog_ms;

static void on_alarm(int sig)
{
	(void)sig;
	watchdog_fired = 1;
}

/* The last resort after an interrupt or the --timeout: a search that has
 * not ended HARD_STOP_SECONDS later (the report is printed within seconds:
 * the fence check's budget is at most 10 s) ends the process, exit 3; its
 * traced processes die with it (PTRACE_O_EXITKILL), --jobs workers too
 * (PR_SET_PDEATHSIG).  Never seen to fire: it keeps a wait nobody thought
 * of from hanging a batch run (fuzz-explore E seed 20650, pso, ran 30 s
 * past its --timeout under load and was killed by the fuzzer). */
#define HARD_STOP_SECONDS 60
#define STR_(x) #x
#define STR(x) STR_(x)
static timer_t hard_timer;
static volatile sig_atomic_t hard_ready, hard_armed;

static void on_hard_stop(int sig)
{
	static const char msg[] =
		"x86smc: still running " STR(HARD_STOP_SECONDS) " s after "
		"the interrupt or the "
		"--timeout: stopped without a report (an x86smc bug)\n";

	(void)sig;
	(void)!write(2, msg, sizeof msg - 1);
	_exit(3);
}

static void arm_hard_stop(void)
{
	struct itimerspec when = { { 0, 0 }, { HARD_STOP_SECONDS, 0 } };

	if (hard_ready && !hard_armed) {
		hard_armed = 1;
		timer_settime(hard_timer, 0, &when, NULL); /* signal-safe */
	}
}

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
	arm_hard_stop();
}

void proc_catch_interrupts(void)
{
	struct sigaction sa = { .sa_handler = on_interrupt };
	struct sigaction hard = { .sa_handler = on_hard_stop };
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL,
			       .sigev_signo = SIGRTMIN + 2 };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigemptyset(&hard.sa_mask);
	if (!hard_ready && sigaction(SIGRTMIN + 2, &hard, NULL) == 0 &&
	    timer_create(CLOCK_MONOTONIC, &ev, &hard_timer) == 0)
		hard_ready = 1;
}

bool proc_interrupted(void)
{
	return interrupted;
}

static void on_deadline(int sig)
{
	(void)sig;
	deadline_passed = 1;
	interrupted = 1;
	arm_hard_stop();
}

int proc_set_deadline(double seconds)
{
	struct sigaction sa = { .sa_handler = on_deadline };
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL };
	struct itimerspec when = { { 0, 0 }, { 0, 0 } };
	timer_t timer;

	if (seconds <= 0)
		return 0;
	ev.sigev_signo = SIGRTMIN + 1;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a waitpid in progress returns EINTR */
	if (sigaction(SIGRTMIN + 1, &sa, NULL) < 0 ||
	    timer_create(CLOCK_MONOTONIC, &ev, &timer) < 0)
		return -1;
	when.it_value.tv_sec = (time_t)seconds;
	when.it_value.tv_nsec = (long)((seconds - (double)(time_t)seconds) *
				       1e9);
	if (when.it_value.tv_sec == 0 && when.it_value.tv_nsec == 0)
		when.it_value.tv_nsec = 1;
	return timer_settime(timer, 0, &when, NULL);
}

bool proc_deadline_passed(void)
{
	return deadline_passed;
}

void proc_set_watchdog(unsigned seconds)
{
	proc_set_watchdog_ms(seconds * 1000);
}

void proc_set_watchdog_ms(unsigned ms)
{
	static bool installed; /* once: this is called around every event */
	struct sigaction sa = { .sa_handler = on_alarm };

	watchdog_ms = ms;
	if (installed || !ms)
		return;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: waitpid gets EINTR */
	installed = sigaction(SIGALRM, &sa, NULL) == 0;
}

static void arm(unsigned ms)
{
	struct itimerval it = { .it_value = { ms / 1000,
					      (long)(ms % 1000) * 1000 } };

	setitimer(ITIMER_REAL, &it, NULL);
}

int proc_pin_self(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		cpu = sched_getcpu();
	if (cpu < 0)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof set, &set);
}

/* The filter: RET_TRACE for the listed syscalls, ERRNO(ENOSYS) for the
 * enosys ones (answered without a stop), ALLOW for the allowed ones and,
 * without an allow list, for the rest; with one, the rest is traced too
 * (data 0xfffe: sys.c sees every syscall that is not neutral).  Other
 * syscall ABIs (int 0x80, x32) are traced too, with data 0xffff, so that
 * the tracer can refuse them instead of missing them. */
static int install_filter(const int *nrs, int n, const int *enosys,
			  int nenosys, const int *allow, int nallow)
{
	struct sock_filter f[6 + 2 * 512];
	int k = 0;

	if (n + nenosys + nallow > 500)
		return -1;
	f[k++] = (struct sock_filter)BPF_STMT(
		BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
					      AUDIT_ARCH_X86_64, 1, 0);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
					      SECCOMP_RET_TRACE | 0xffff);
	f[k++] = (struct sock_filter)BPF_STMT(
		BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	/* x32 syscalls: numbers with bit 30 set, also refused */
	f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K,
					      0x40000000u, 0, 1);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
					      SECCOMP_RET_TRACE | 0xffff);
	for (int i = 0; i < nenosys; i++) {
		unsigned nr = (unsigned)enosys[i];
		f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						      nr, 0, 1);
		f[k++] = (struct sock_filter)BPF_STMT(
			BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS);
	}
	for (int i = 0; i < n; i++) {
		f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						      (unsigned)nrs[i], 0, 1);
		f[k++] = (struct sock_filter)BPF_STMT(
			BPF_RET | BPF_K, SECCOMP_RET_TRACE | (nrs[i] & 0xffff));
	}
	for (int i = 0; i < nallow; i++) {
		f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						      (unsigned)allow[i], 0, 1);
		f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						      SECCOMP_RET_ALLOW);
	}
	f[k++] = (struct sock_filter)BPF_STMT(
		BPF_RET | BPF_K,
		nallow ? SECCOMP_RET_TRACE | 0xfffe : SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = (unsigned short)k, .filter = f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

/* In the child, between fork and exec.  Reports a failure to the parent
 * as an errno value on the CLOEXEC pipe. */
static void __attribute__((noreturn))
child(char *const argv[], const struct proc_launch_opts *o, int errfd,
      pid_t tracer)
{
	int err;

	/* until PTRACE_SEIZE (then PTRACE_O_EXITKILL), nothing else ties
	 * this child to its tracer: die with it, even if it is already
	 * gone (a --jobs worker killed at this moment) */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != tracer)
		_exit(127);
	setpgid(0, 0); /* a terminal's ^C is for x86smc, not the target */
	/* every disposition SIG_DFL, as the tracer's shadow of them starts
	 * (recycle.c): an ignored one would survive the exec */
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
	personality(ADDR_NO_RANDOMIZE);
	if (o->cpu >= 0)
		proc_pin_self(o->cpu);
	for (char *const *e = o->envp_extra; e && *e; e++)
		putenv(*e);
	int null = open("/dev/null", O_RDONLY);
	if (null >= 0) {
		dup2(null, 0);
		if (null != 0)
			close(null);
	}
	raise(SIGSTOP); /* wait for PTRACE_SEIZE */
	if (install_filter(o->trace_nrs, o->ntrace_nrs, o->enosys_nrs,
			   o->nenosys_nrs, o->allow_nrs, o->nallow_nrs) < 0) {
		err = -errno;
		goto fail;
	}
	/* rdtsc/rdtscp fault from the exec on, ld.so's included (the
	 * tracer emulates them: determ.h) */
	if (o->trap_tsc && prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0) < 0) {
		err = -errno;
		goto fail;
	}
	execv(argv[0], argv);
	err = errno;
fail:
	if (write(errfd, &err, sizeof err) < 0)
		_exit(126);
	_exit(127);
}

static int seize(struct proc *p)
{
	long opts = PTRACE_O_EXITKILL | PTRACE_O_TRACESECCOMP |
		    PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK |
		    PTRACE_O_TRACEVFORK | PTRACE_O_TRACEEXEC;
	int st;

	if (waitpid(p->pid, &st, WSTOPPED) != p->pid || !WIFSTOPPED(st))
		return -1;
	if (ptrace(PTRACE_SEIZE, p->pid, 0, opts) < 0)
		return -1;
	kill(p->pid, SIGCONT);
	return 0;
}

/* Run the child up to its exec event, passing the startup stops. */
static int run_to_exec(struct proc *p)
{
	struct proc_stop st;

	for (;;) {
		if (proc_wait(p, false, &st) < 0)
			return -1;
		switch (st.kind) {
		case PROC_EVENT:
			if (st.event == PTRACE_EVENT_EXEC)
				return 0;
			break;
		case PROC_EXITED:
		case PROC_KILLED:
		case PROC_GONE:
		case PROC_TIMEOUT:
			return -1;
		default:
			break;
		}
		if (proc_cont(p, 0) < 0)
			return -1;
	}
}

static int open_mem(struct proc *p)
{
	char path[64];

	snprintf(path, sizeof path, "/proc/%d/mem", p->pid);
	p->memfd = open(path, O_RDWR | O_CLOEXEC);
	return p->memfd < 0 ? -1 : 0;
}

static size_t probe_xsize(struct proc *p)
{
	static char buf[16384];
	struct iovec iov = { buf, sizeof buf };

	if (ptrace(PTRACE_GETREGSET, p->pid, NT_X86_XSTATE, &iov) < 0)
		return 0;
	return iov.iov_len;
}

int proc_launch(struct proc *p, char *const argv[],
		const struct proc_launch_opts *o)
{
	int pfd[2], err = 0;

	memset(p, 0, sizeof *p);
	p->memfd = -1;
	p->last_kind = -1;
	pid_t me = getpid();

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -1;
	p->pid = fork();
	if (p->pid < 0)
		return -1;
	if (p->pid == 0)
		child(argv, o, pfd[1], me);
	close(pfd[1]);
	if (seize(p) < 0 || run_to_exec(p) < 0) {
		ssize_t n = read(pfd[0], &err, sizeof err);
		close(pfd[0]);
		if (n == sizeof err && err < 0)
			fprintf(stderr, "x86smc: cannot set up the target "
					"(seccomp filter, PR_SET_TSC): %s\n",
				strerror(-err));
		else if (n == sizeof err)
			fprintf(stderr, "x86smc: cannot execute %s: %s\n",
				argv[0], strerror(err));
		else
			fprintf(stderr, "x86smc: %s did not start under "
					"ptrace\n", argv[0]);
		proc_kill(p);
		return -1;
	}
	close(pfd[0]);
	if (open_mem(p) < 0 || (p->xsize = probe_xsize(p)) == 0) {
		fprintf(stderr, "x86smc: cannot access the memory or the "
				"XSTATE of the target\n");
		proc_kill(p);
		return -1;
	}
	return 0;
}

static void decode_status(int ws, pid_t pid, struct proc_stop *st)
{
	memset(st, 0, sizeof *st);
	st->pid = pid;
	if (WIFEXITED(ws)) {
		st->kind = PROC_EXITED;
		st->status = WEXITSTATUS(ws);
	} else if (WIFSIGNALED(ws)) {
		st->kind = PROC_KILLED;
		st->sig = WTERMSIG(ws);
	} else {
		int ev = ws >> 16;
		st->sig = WSTOPSIG(ws);
		st->event = ev;
		if (ev == PTRACE_EVENT_SECCOMP)
			st->kind = PROC_SECCOMP;
		else if (ev == PTRACE_EVENT_STOP)
			st->kind = PROC_GROUP;
		else if (ev != 0)
			st->kind = PROC_EVENT;
		else if (st->sig == SIGTRAP)
			st->kind = PROC_TRAP;
		else
			st->kind = PROC_SIGNAL;
	}
}

static int req(struct proc *p, enum __ptrace_request r, void *addr,
	       void *data);

int proc_wait(struct proc *p, bool any, struct proc_stop *st)
{
	int ws;
	pid_t r;

	watchdog_fired = 0;
	if (watchdog_ms)
		arm(watchdog_ms);
	int pp = prof_enter(PROF_WAIT);
	do {
		r = interrupted ? -1 : waitpid(any ? -1 : p->pid, &ws, __WALL);
	} while (r < 0 && errno == EINTR && !watchdog_fired && !interrupted);
	prof_leave(pp);
	if (watchdog_ms)
		arm(0);
	if (r < 0) {
		memset(st, 0, sizeof *st);
		st->kind = interrupted		    ? PROC_INTR
			   : (errno == EINTR) ? PROC_TIMEOUT
					      : PROC_GONE;
		return 0;
	}
	p->stops++;
	decode_status(ws, r, st);
	if (r == p->pid)
		p->last_kind = (int)st->kind;
	if (st->kind == PROC_GROUP && p->stale_interrupts > 0 && !any &&
	    p->last_req) {
		/* an earlier interrupt's stop: not what the caller waits
		 * for; the tracee did nothing yet, resume it as before */
		p->stale_interrupts--;
		if (req(p, (enum __ptrace_request)p->last_req, 0, 0) < 0)
			return -1;
		return proc_wait(p, any, st);
	}
	return 0;
}

/* Requests that only read or set the stopped process's registers and
 * state: the others may run it, so the window is written back first. */
static bool runs_nothing(enum __ptrace_request r)
{
	return r == PTRACE_GETREGS || r == PTRACE_SETREGS ||
	       r == PTRACE_GETREGSET || r == PTRACE_SETREGSET ||
	       r == PTRACE_GETSIGMASK || r == PTRACE_SETSIGMASK ||
	       r == PTRACE_GETSIGINFO || r == PTRACE_GETEVENTMSG;
}

static int req(struct proc *p, enum __ptrace_request r, void *addr,
	       void *data)
{
	if (!runs_nothing(r) && proc_flush(p) < 0)
		return -1;
	int pp = prof_enter(PROF_PTRACE);
	long rc = ptrace(r, p->pid, addr, data);

	prof_leave(pp);
	if (rc == 0)
		return 0;
	if (errno != ESRCH)
		pr_err("ptrace(%d, %d): %s", (int)r, p->pid, strerror(errno));
	return -1;
}

int proc_cont(struct proc *p, int sig)
{
	p->last_req = PTRACE_CONT;
	return req(p, PTRACE_CONT, 0, (void *)(long)sig);
}

void proc_interrupt_lost(struct proc *p)
{
	p->stale_interrupts++;
}

int proc_interrupt(struct proc *p)
{
	return req(p, PTRACE_INTERRUPT, 0, 0);
}

int proc_step(struct proc *p, int sig)
{
	p->last_req = PTRACE_SINGLESTEP;
	return req(p, PTRACE_SINGLESTEP, 0, (void *)(long)sig);
}

int proc_getregs(struct proc *p, struct user_regs_struct *r)
{
	return req(p, PTRACE_GETREGS, 0, r);
}

int proc_setregs(struct proc *p, const struct user_regs_struct *r)
{
	return req(p, PTRACE_SETREGS, 0, (void *)r);
}

int proc_getxstate(struct proc *p, void *buf)
{
	struct iovec iov = { buf, p->xsize };
	return req(p, PTRACE_GETREGSET, (void *)NT_X86_XSTATE, &iov);
}

int proc_setxstate(struct proc *p, const void *buf)
{
	struct iovec iov = { (void *)buf, p->xsize };
	return req(p, PTRACE_SETREGSET, (void *)NT_X86_XSTATE, &iov);
}

int proc_getsigmask(struct proc *p, uint64_t *mask)
{
	return req(p, PTRACE_GETSIGMASK, (void *)sizeof *mask, mask);
}

int proc_setsigmask(struct proc *p, uint64_t mask)
{
	return req(p, PTRACE_SETSIGMASK, (void *)sizeof mask, &mask);
}

int proc_getsiginfo(struct proc *p, void *si)
{
	return req(p, PTRACE_GETSIGINFO, 0, si);
}

long proc_geteventmsg(struct proc *p)
{
	unsigned long msg = 0;

	if (req(p, PTRACE_GETEVENTMSG, 0, &msg) < 0)
		return -1;
	return (long)msg;
}

static bool in_cache(const struct proc_cache *c, pid_t pid, uint64_t addr,
		     size_t n)
{
	return c->pid && c->pid == pid && addr >= c->lo &&
	       addr + n <= c->lo + c->n && addr + n >= addr;
}

static bool overlaps_cache(const struct proc_cache *c, pid_t pid,
			   uint64_t addr, size_t n)
{
	return c->pid && c->pid == pid && addr < c->lo + c->n &&
	       c->lo < addr + n;
}

bool proc_cached(const struct proc *p, uint64_t addr, size_t n)
{
	return in_cache(&p->cache, p->pid, addr, n);
}

int proc_flush(struct proc *p)
{
	struct proc_cache *c = &p->cache;
	int r = 0;

	if (c->pid && c->pid == p->pid && c->dhi > c->dlo) {
		int pp = prof_enter(PROF_MEM);
		size_t n = c->dhi - c->dlo;
		if (pwrite(p->memfd, c->b + c->dlo, n,
			   (off_t)(c->lo + c->dlo)) != (ssize_t)n)
			r = -1;
		prof_leave(pp);
	}
	c->pid = 0;
	c->dlo = c->dhi = 0;
	return r;
}

bool proc_cache_load(struct proc *p, uint64_t addr, size_t n)
{
	struct proc_cache *c = &p->cache;

	if (proc_flush(p) < 0 || n > PROC_CACHE_MAX || !n ||
	    (addr >> 12) != ((addr + n - 1) >> 12))
		return false;
	struct iovec local = { c->b, n };
	struct iovec remote = { (void *)addr, n };
	int pp = prof_enter(PROF_MEM);
	ssize_t r = process_vm_readv(p->pid, &local, 1, &remote, 1, 0);
	prof_leave(pp);
	if (r != (ssize_t)n)
		return false;
	c->pid = p->pid;
	c->lo = addr;
	c->n = (uint32_t)n;
	c->dlo = c->dhi = 0;
	return true;
}

size_t proc_read(struct proc *p, uint64_t addr, void *buf, size_t n)
{
	if (in_cache(&p->cache, p->pid, addr, n)) {
		memcpy(buf, p->cache.b + (addr - p->cache.lo), n);
		return n;
	}
	if (overlaps_cache(&p->cache, p->pid, addr, n) && proc_flush(p) < 0)
		return 0;
	struct iovec local = { buf, n };
	struct iovec remote = { (void *)addr, n };
	int pp = prof_enter(PROF_MEM);
	ssize_t r = process_vm_readv(p->pid, &local, 1, &remote, 1, 0);

	if (r < 0 && p->memfd >= 0) /* e.g. a page without read permission */
		r = pread(p->memfd, buf, n, (off_t)addr);
	prof_leave(pp);
	return r < 0 ? 0 : (size_t)r;
}

size_t proc_write(struct proc *p, uint64_t addr, const void *buf, size_t n)
{
	struct proc_cache *c = &p->cache;

	if (in_cache(c, p->pid, addr, n)) {
		uint32_t lo = (uint32_t)(addr - c->lo), hi = lo + (uint32_t)n;
		memcpy(c->b + lo, buf, n);
		if (c->dhi <= c->dlo) {
			c->dlo = lo;
			c->dhi = hi;
		} else {
			c->dlo = lo < c->dlo ? lo : c->dlo;
			c->dhi = hi > c->dhi ? hi : c->dhi;
		}
		return n;
	}
	if (overlaps_cache(c, p->pid, addr, n) && proc_flush(p) < 0)
		return 0;
	int pp = prof_enter(PROF_MEM);
	ssize_t r = pwrite(p->memfd, buf, n, (off_t)addr);

	prof_leave(pp);
	return r < 0 ? 0 : (size_t)r;
}

pid_t proc_detach(struct proc *p, int sig)
{
	pid_t pid = p->pid;

	if (pid <= 0 || proc_flush(p) < 0 ||
	    ptrace(PTRACE_DETACH, pid, 0, (void *)(long)sig) < 0)
		return -1;
	if (p->memfd >= 0)
		close(p->memfd);
	p->memfd = -1;
	p->pid = 0;
	return pid;
}

int proc_attach_pid(struct proc *p, pid_t pid)
{
	if (p->memfd >= 0)
		close(p->memfd);
	p->pid = pid;
	p->cache.pid = 0; /* another process: a copied window is not its */
	p->stale_interrupts = 0; /* another process */
	p->last_kind = -1;
	return open_mem(p);
}

void proc_kill(struct proc *p)
{
	int ws;

	if (p->pid <= 0)
		return;
	int pp = prof_enter(PROF_KILL);
	p->cache.pid = 0; /* nothing to write back into a dead process */
	kill(p->pid, SIGKILL);
	for (;;) { /* reap it, whatever signal interrupts the wait */
		pid_t r = waitpid(p->pid, &ws, __WALL);
		if (r < 0 && errno == EINTR)
			continue;
		if (r != p->pid || WIFEXITED(ws) || WIFSIGNALED(ws))
			break;
	}
	if (p->memfd >= 0)
		close(p->memfd);
	p->memfd = -1;
	p->pid = 0;
	prof_leave(pp);
}

int proc_leave_seccomp(struct proc *p)
{
	struct user_regs_struct r;
	struct proc_stop st;

	if (proc_getregs(p, &r) < 0)
		return -1;
	r.orig_rax = (unsigned long)-1;
	if (proc_setregs(p, &r) < 0 || proc_step(p, 0) < 0 ||
	    proc_wait(p, false, &st) < 0)
		return -1;
	return st.kind == PROC_TRAP ? 0 : -1;
}

int proc_syscall(struct proc *p, uint64_t syscall_pc, long nr,
		 const long a[6], long *ret)
{
	struct user_regs_struct r;
	struct proc_stop st;

	if (proc_getregs(p, &r) < 0)
		return -1;
	r.rax = (unsigned long)nr;
	r.orig_rax = (unsigned long)-1; /* a pending syscall is skipped */
	r.rdi = (unsigned long)a[0];
	r.rsi = (unsigned long)a[1];
	r.rdx = (unsigned long)a[2];
	r.r10 = (unsigned long)a[3];
	r.r8 = (unsigned long)a[4];
	r.r9 = (unsigned long)a[5];
	r.rip = syscall_pc;
	if (proc_setregs(p, &r) < 0)
		return -1;
	/* from a seccomp stop the first step only leaves the skipped
	 * syscall (a trap still at syscall_pc); a traced nr stops at its
	 * seccomp stop first */
	for (int i = 0; i < 4; i++) {
		if (proc_step(p, 0) < 0 || proc_wait(p, false, &st) < 0)
			return -1;
		if (st.kind == PROC_SECCOMP)
			continue;
		if (st.kind != PROC_TRAP || proc_getregs(p, &r) < 0)
			return -1;
		if (r.rip == syscall_pc + 2) {
			*ret = (long)r.rax;
			return 0;
		}
		if (r.rip != syscall_pc)
			return -1;
		r.rax = (unsigned long)nr; /* -ENOSYS of the skipped one */
		if (proc_setregs(p, &r) < 0)
			return -1;
	}
	return -1;
}

/* Fork the stopped process p by injecting clone(SIGCHLD|CLONE_PARENT) at
 * a syscall instruction (syscall_pc): the copy is a child of the tracer,
 * auto-attached (PTRACE_O_TRACEFORK) and stopped; p's registers are
 * restored.  Returns the copy's pid, or -1. */
pid_t proc_fork(struct proc *p, uint64_t syscall_pc)
{
	struct user_regs_struct saved, r;
	struct proc_stop st;
	pid_t child = -1;
	int ws;

	if (proc_getregs(p, &saved) < 0)
		return -1;
	r = saved;
	r.rax = SYS_clone;
	r.orig_rax = (unsigned long)-1;
	r.rdi = SIGCHLD | CLONE_PARENT;
	r.rsi = r.rdx = r.r10 = r.r8 = 0;
	r.rip = syscall_pc;
	if (proc_setregs(p, &r) < 0)
		return -1;
	for (int i = 0; i < 4 && child < 0; i++) {
		if (proc_step(p, 0) < 0 || proc_wait(p, false, &st) < 0)
			goto out;
		if (st.kind == PROC_SECCOMP)
			continue; /* the filter traces clone: let it run */
		if (st.kind == PROC_EVENT && (st.event == PTRACE_EVENT_FORK ||
					      st.event == PTRACE_EVENT_CLONE))
			child = (pid_t)proc_geteventmsg(p);
		else
			goto out;
	}
	if (child < 0 || proc_step(p, 0) < 0 || proc_wait(p, false, &st) < 0 ||
	    st.kind != PROC_TRAP)
		goto fail;
	if (waitpid(child, &ws, __WALL) != child || !WIFSTOPPED(ws))
		goto fail;
	p->stops += 1;
	goto out;
fail:
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, &ws, __WALL);
	}
	child = -1;
out:
	proc_setregs(p, &saved);
	return child;
}
