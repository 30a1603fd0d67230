/* sys.c — the syscalls of logical threads, one table row per syscall
 * x86smc emulates or treats specially (strace's syscallent.h habit).
 *
 * Under control, a syscall is a visible event found *before* its syscall
 * instruction runs (a stop point of the walk).  Emulated syscalls never
 * reach the kernel: the result goes to rax and rip moves past the
 * instruction, with no extra stop.  PASS rows (and any syscall not in the
 * table) run in the kernel (tr_exec_insn single-steps the instruction).
 * Before the second thread exists (sys_native) only the few syscalls of
 * the seccomp filter stop, and are emulated at their seccomp stop.
 */
#include <errno.h>
#include <linux/futex.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "tracer/determ.h"
#include "tracer/log.h"
#include "tracer/tracer_priv.h"

enum sys_action { SA_PASS, SA_EMULATE, SA_UNSUPPORTED };

struct sys_ctx {
	struct tracer *t;
	struct lthread *th;
	struct tr_event *ev;
	long a[6];
	long nr;
};

/* An emulation handler returns the syscall's result (-errno on error) or
 * SYS_NORETURN (tracer_priv.h) when it set the thread's state itself. */
typedef long (*sys_fn)(struct sys_ctx *c);

struct sys_row {
	const char *name;
	uint8_t kind;          /* event kind (enum ev_kind) */
	enum sys_action action;
	sys_fn fn;
	bool maps_change;      /* may change the memory map */
	bool local;            /* affects only the calling thread: no event,
				* performed while the thread advances */
};

static long sys_write(struct sys_ctx *c);
static long sys_writev(struct sys_ctx *c);
static long sys_clone(struct sys_ctx *c);
static long sys_exit(struct sys_ctx *c);
static long sys_exit_group(struct sys_ctx *c);
static long sys_gettid(struct sys_ctx *c);
static long sys_getpid(struct sys_ctx *c);
static long sys_set_tid_address(struct sys_ctx *c);
static long sys_set_robust_list(struct sys_ctx *c);
static long sys_enosys(struct sys_ctx *c);
static long sys_zero(struct sys_ctx *c);
static long sys_tgkill(struct sys_ctx *c);
static long sys_tkill(struct sys_ctx *c);
static long sys_kill(struct sys_ctx *c);
static long sys_futex(struct sys_ctx *c);
static long sys_sigtimedwait(struct sys_ctx *c);
static long sys_forks(struct sys_ctx *c);
static long sys_det(struct sys_ctx *c);
static long sys_sched(struct sys_ctx *c);

/* One row per syscall x86smc treats specially; the rest pass through as
 * serializing events.  .local rows touch only the calling thread: they
 * are performed while it advances and are no event. */
static const struct sys_row table[] = {
	[SYS_write] = { .name = "write", .kind = EV_OUTPUT, .action = SA_EMULATE, .fn = sys_write },
	[SYS_writev] = { .name = "writev", .kind = EV_OUTPUT, .action = SA_EMULATE, .fn = sys_writev },
	[SYS_clone] = { .name = "clone", .kind = EV_SPAWN, .action = SA_EMULATE, .fn = sys_clone },
	[SYS_clone3] = { .name = "clone3", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_enosys, .local = true },
	[SYS_fork] = { .name = "fork", .kind = EV_SYSCALL, .action = SA_UNSUPPORTED, .fn = sys_forks },
	[SYS_vfork] = { .name = "vfork", .kind = EV_SYSCALL, .action = SA_UNSUPPORTED, .fn = sys_forks },
	[SYS_execve] = { .name = "execve", .kind = EV_SYSCALL, .action = SA_UNSUPPORTED, .fn = sys_forks },
	[SYS_execveat] = { .name = "execveat", .kind = EV_SYSCALL, .action = SA_UNSUPPORTED, .fn = sys_forks },
	[SYS_exit] = { .name = "exit", .kind = EV_EXIT, .action = SA_EMULATE, .fn = sys_exit },
	[SYS_exit_group] = { .name = "exit_group", .kind = EV_END, .action = SA_EMULATE, .fn = sys_exit_group },
	[SYS_gettid] = { .name = "gettid", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_gettid, .local = true },
	[SYS_getpid] = { .name = "getpid", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_getpid, .local = true },
	[SYS_set_tid_address] = { .name = "set_tid_address", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_set_tid_address, .local = true },
	[SYS_set_robust_list] = { .name = "set_robust_list", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_set_robust_list, .local = true },
	[SYS_rseq] = { .name = "rseq", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_enosys, .local = true },
	[SYS_tgkill] = { .name = "tgkill", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_tgkill },
	[SYS_tkill] = { .name = "tkill", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_tkill },
	[SYS_kill] = { .name = "kill", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_kill },
	[SYS_sched_yield] = { .name = "sched_yield", .kind = EV_YIELD, .action = SA_EMULATE, .fn = sys_zero },
	/* determ.h: a virtual clock, randomness and ids */
	[SYS_nanosleep] = { .name = "nanosleep", .kind = EV_YIELD, .action = SA_EMULATE, .fn = sys_det },
	[SYS_clock_nanosleep] = { .name = "clock_nanosleep", .kind = EV_YIELD, .action = SA_EMULATE, .fn = sys_det },
	[SYS_time] = { .name = "time", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_det, .local = true },
	[SYS_gettimeofday] = { .name = "gettimeofday", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_det, .local = true },
	[SYS_clock_gettime] = { .name = "clock_gettime", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_det, .local = true },
	[SYS_times] = { .name = "times", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_det, .local = true },
	[SYS_getrandom] = { .name = "getrandom", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_det, .local = true },
	[SYS_getcpu] = { .name = "getcpu", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_det, .local = true },
	[SYS_getppid] = { .name = "getppid", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_det, .local = true },
	[SYS_futex] = { .name = "futex", .kind = EV_FUTEX, .action = SA_EMULATE, .fn = sys_futex },
	[SYS_rt_sigtimedwait] = { .name = "rt_sigtimedwait", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_sigtimedwait },
	[SYS_rt_sigprocmask] = { .name = "rt_sigprocmask", .kind = EV_SYSCALL, .action = SA_PASS, .local = true },
	/* per-thread state the kernel keeps and no other thread changes:
	 * every Rust thread sets an alternate signal stack and asks its
	 * affinity (pthread_getattr_np) when it starts */
	[SYS_sigaltstack] = { .name = "sigaltstack", .kind = EV_SYSCALL, .action = SA_PASS, .local = true },
	/* a thread's policy, priority and CPUs: its tid is a logical one
	 * the kernel does not know (sys_sched) */
	[SYS_sched_getaffinity] = { .name = "sched_getaffinity", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_sched, .local = true },
	[SYS_sched_setaffinity] = { .name = "sched_setaffinity", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_sched, .local = true },
	[SYS_sched_setscheduler] = { .name = "sched_setscheduler", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_sched, .local = true },
	[SYS_sched_getscheduler] = { .name = "sched_getscheduler", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_sched, .local = true },
	[SYS_sched_setparam] = { .name = "sched_setparam", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_sched, .local = true },
	[SYS_sched_getparam] = { .name = "sched_getparam", .kind = EV_SYSCALL, .action = SA_EMULATE, .fn = sys_sched, .local = true },
	[SYS_mmap] = { .name = "mmap", .kind = EV_SYSCALL, .action = SA_PASS, .maps_change = true },
	[SYS_munmap] = { .name = "munmap", .kind = EV_SYSCALL, .action = SA_PASS, .maps_change = true },
	[SYS_mprotect] = { .name = "mprotect", .kind = EV_SYSCALL, .action = SA_PASS, .maps_change = true },
	[SYS_mremap] = { .name = "mremap", .kind = EV_SYSCALL, .action = SA_PASS, .maps_change = true },
	[SYS_brk] = { .name = "brk", .kind = EV_SYSCALL, .action = SA_PASS, .maps_change = true },
	[SYS_madvise] = { .name = "madvise", .kind = EV_SYSCALL, .action = SA_PASS, .maps_change = true },
};

#define NROWS ((long)(sizeof table / sizeof table[0]))

static const struct sys_row *row(long nr)
{
	static const struct sys_row pass = { .kind = EV_SYSCALL,
					     .action = SA_PASS };

	if (nr >= 0 && nr < NROWS && table[nr].name)
		return &table[nr];
	return &pass;
}

static void args(const struct user_regs_struct *r, long a[6])
{
	a[0] = (long)r->rdi;
	a[1] = (long)r->rsi;
	a[2] = (long)r->rdx;
	a[3] = (long)r->r10;
	a[4] = (long)r->r8;
	a[5] = (long)r->r9;
}

/* ---- output capture ---- */

static int out_append(struct tracer *t, int fd, const char *p, size_t n)
{
	struct output *o = &t->out[fd];

	if (o->len + n > o->cap) {
		size_t cap = o->cap ? o->cap : 4096;
		while (cap < o->len + n)
			cap *= 2;
		char *b = realloc(o->buf, cap + 1);
		if (!b)
			return -1;
		o->buf = b;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
	o->buf[o->len] = 0;
	return 0;
}

static long capture(struct tracer *t, int fd, uint64_t addr, size_t n)
{
	char buf[4096];
	size_t done = 0;

	while (done < n) {
		size_t k = n - done < sizeof buf ? n - done : sizeof buf;
		size_t got = proc_read(&t->proc, addr + done, buf, k);
		if (out_append(t, fd, buf, got) < 0)
			return -ENOMEM;
		done += got;
		if (got < k)
			return done ? (long)done : -EFAULT;
	}
	return (long)done;
}

static bool captured_fd(long fd)
{
	return fd == 1 || fd == 2;
}

static long sys_write(struct sys_ctx *c)
{
	return capture(c->t, (int)c->a[0], (uint64_t)c->a[1],
		       (size_t)c->a[2]);
}

static long sys_writev(struct sys_ctx *c)
{
	long total = 0;

	for (long i = 0; i < c->a[2] && i < 1024; i++) {
		struct iovec v;
		if (proc_read(&c->t->proc, (uint64_t)c->a[1] + 16 * i, &v,
			      16) != 16)
			return total ? total : -EFAULT;
		long r = capture(c->t, (int)c->a[0], (uint64_t)v.iov_base,
				 v.iov_len);
		if (r < 0)
			return total ? total : r;
		total += r;
	}
	return total;
}

/* ---- threads ---- */

static void thread_ranges(struct tracer *t, struct lthread *th,
			  uint64_t sp)
{
	const struct map_region *r;

	t->maps.stale = true;
	r = maps_find(&t->maps, t->proc.pid, sp - 8);
	if (r) {
		th->stack_lo = r->lo;
		th->stack_hi = r->hi;
	}
	r = maps_find(&t->maps, t->proc.pid, th->regs.fs_base);
	if (r) {
		th->tls_lo = r->lo;
		th->tls_hi = r->hi;
	}
}

#define THREAD_FLAGS                                                      \
	(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | \
	 CLONE_SYSVSEM)
#define THREAD_OPTIONAL                                                   \
	(CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID |        \
	 CLONE_CHILD_SETTID)

/* clone of a thread → a new logical thread.  Called with the parent's
 * registers positioned after the syscall instruction. */
static long sys_clone(struct sys_ctx *c)
{
	struct tracer *t = c->t;
	unsigned long flags = (unsigned long)c->a[0];
	struct lthread *ch;
	uint32_t tid32;

	if ((flags & THREAD_FLAGS) != THREAD_FLAGS ||
	    (flags & ~(THREAD_FLAGS | THREAD_OPTIONAL | 0xff)) != 0) {
		if (!(flags & CLONE_VM))
			return sys_forks(c);
		if (!(flags & CLONE_THREAD)) {
			tr_end_unsupported(t, "clone with flags %#lx starts a "
					      "process that shares memory "
					      "(vfork, posix_spawn): x86smc "
					      "checks one multi-threaded "
					      "process", flags);
			return SYS_NORETURN;
		}
		tr_end_unsupported(t, "clone with flags %#lx is not a thread "
				      "x86smc can model", flags);
		return SYS_NORETURN;
	}
	ch = tr_new_thread(t);
	if (!ch) { /* cut here, like --max-steps: the search goes on */
		if (t->end.kind == END_NONE) {
			t->end.kind = END_THREADS;
			t->end.tid = c->th->info.tid;
		}
		return SYS_NORETURN;
	}
	if (proc_getxstate(&t->proc, ch->xstate) < 0)
		return -EAGAIN;
	ch->regs = c->th->regs;
	ch->regs.rax = 0;
	ch->regs.rsp = (uint64_t)c->a[1];
	ch->regs.orig_rax = (unsigned long)-1;
	if (flags & CLONE_SETTLS)
		ch->regs.fs_base = (uint64_t)c->a[4];
	ch->sigmask = c->th->sigmask;
	tid32 = (uint32_t)ch->info.os_tid;
	if (flags & CLONE_PARENT_SETTID)
		proc_write(&t->proc, (uint64_t)c->a[2], &tid32, 4);
	if (flags & CLONE_CHILD_SETTID)
		proc_write(&t->proc, (uint64_t)c->a[3], &tid32, 4);
	if (flags & CLONE_CHILD_CLEARTID)
		ch->clear_child_tid = (uint64_t)c->a[3];
	if (c->th->region == RG_CREATE && t->next_start_routine) {
		/* glibc's start-up of the thread runs without events up to
		 * its start routine (tracer.h, RG_START) */
		ch->region = RG_START;
		ch->start_routine = t->next_start_routine;
		bp_insert(t, ch->start_routine, 0);
		c->th->region_child = ch->info.tid;
	}
	thread_ranges(t, ch, ch->regs.rsp);
	c->ev->child = ch->info.tid;
	if (c->th->stack_hi == 0) /* the first clone: the parent's ranges */
		thread_ranges(t, c->th, c->th->regs.rsp);
	if (t->native)
		tr_leave_native(t);
	return ch->info.os_tid;
}

static int live_threads(const struct tracer *t)
{
	int n = 0;

	for (int i = 0; i < t->nthreads; i++)
		n += t->th[i].info.status != TS_EXITED;
	return n;
}

static long sys_exit(struct sys_ctx *c)
{
	struct tracer *t = c->t;
	struct lthread *th = c->th;
	uint32_t zero = 0;

	th->info.status = TS_EXITED;
	th->need_advance = false;
	if (th->clear_child_tid) {
		proc_write(&t->proc, th->clear_child_tid, &zero, 4);
		futex_wake(t, th->clear_child_tid, 1, ~0u);
	}
	join_wake(t, th);
	if (live_threads(t) == 0) {
		t->end.kind = END_EXIT;
		t->end.status = (int)(c->a[0] & 0xff);
		t->end.tid = th->info.tid;
	}
	return SYS_NORETURN;
}

static long sys_exit_group(struct sys_ctx *c)
{
	c->t->end.kind = END_EXIT;
	c->t->end.status = (int)(c->a[0] & 0xff);
	c->t->end.tid = c->th->info.tid;
	return SYS_NORETURN;
}

static long sys_gettid(struct sys_ctx *c)
{
	return c->th->info.os_tid;
}

static long sys_getpid(struct sys_ctx *c)
{
	return c->t->vpid;
}

static long sys_set_tid_address(struct sys_ctx *c)
{
	c->th->clear_child_tid = (uint64_t)c->a[0];
	return c->th->info.os_tid;
}

static long sys_set_robust_list(struct sys_ctx *c)
{
	c->th->robust_list = (uint64_t)c->a[0];
	return 0;
}

static long sys_enosys(struct sys_ctx *c)
{
	(void)c;
	return -ENOSYS;
}

static long sys_zero(struct sys_ctx *c)
{
	(void)c;
	return 0;
}

static long sys_det(struct sys_ctx *c)
{
	return det_syscall(c->t, c->th, c->nr, c->a);
}

static long sys_forks(struct sys_ctx *c)
{
	tr_end_unsupported(c->t, "the program starts another process "
				 "(fork/vfork/exec): x86smc checks one "
				 "multi-threaded process");
	return SYS_NORETURN;
}

/* ---- signals between logical threads ---- */

/* A thread that waits must run its handler: one spinning on a flag
 * (the handler may set it) and one in a futex wait (EINTR) become
 * runnable; the signal's event happens before their next one. */
static void wake_for_signal(struct tracer *t, struct lthread *o)
{
	if (o->info.status != TS_BLOCKED)
		return;
	if (o->info.wait == TW_AWAIT) {
		o->info.status = TS_RUNNABLE;
		o->info.wait = TW_NONE;
		await_reset(o);
		ts_add(&t->woken, o->info.tid);
	} else {
		futex_interrupt(t, o);
	}
}

/* Thread th takes signal sig from its queue (sigwait & co): the
 * syscall's result, and its siginfo_t at info (if not 0) as the kernel
 * fills it for a tgkill: si_signo, si_code SI_TKILL, si_pid. */
static long take_signal(struct tracer *t, struct lthread *th, int sig,
			uint64_t info)
{
	siginfo_t si;

	th->sigpending &= ~(1ull << (sig - 1));
	if (info) {
		memset(&si, 0, sizeof si);
		si.si_signo = sig;
		si.si_code = SI_TKILL;
		si.si_pid = (pid_t)t->vpid;
		if (proc_write(&t->proc, info, &si, sizeof si) != sizeof si)
			return -EFAULT;
	}
	return sig;
}

/* The live logical thread whose tid the program sees is tid, or -1. */
static int live_thread(const struct tracer *t, long tid)
{
	for (int i = 0; i < t->nthreads; i++)
		if (t->th[i].info.os_tid == tid &&
		    t->th[i].info.status != TS_EXITED)
			return i;
	return -1;
}

static long queue_signal(struct tracer *t, long tid, long sig)
{
	int i = live_thread(t, tid);
	struct lthread *o = i >= 0 ? &t->th[i] : NULL;

	if (!o)
		return -ESRCH;
	if (sig == 0)
		return 0;
	if (sig < 1 || sig > 64)
		return -EINVAL;
	o->sigpending |= 1ull << (sig - 1);
	if (o->info.status == TS_BLOCKED && o->info.wait == TW_SIGWAIT &&
	    (o->sigwait_set >> (sig - 1) & 1))
		futex_resume(t, o, take_signal(t, o, (int)sig,
						o->sigwait_info));
	else if ((1ull << (sig - 1)) & ~o->sigmask)
		wake_for_signal(t, o);
	return 0;
}

/* The scheduling calls about one thread: sched_{set,get}scheduler,
 * sched_{set,get}param, sched_{set,get}affinity.  glibc makes them with
 * the thread's tid (pthread_create with PTHREAD_EXPLICIT_SCHED sets the
 * new thread's policy before it may start, pthread_setschedparam,
 * pthread_getaffinity_np), which is a logical tid the kernel does not
 * know: passed through, they failed with ESRCH (NSPR's threads in
 * RADBench bug6 then never started: a false deadlock) or reached another
 * process.  x86smc's scheduler is the only one and pins the target to
 * one CPU, so a policy or a priority changes nothing: it is checked as
 * the kernel checks it and kept for the getters; a thread's CPU set is
 * the target's. */
static long sys_sched(struct sys_ctx *c)
{
	struct tracer *t = c->t;
	struct lthread *th = NULL;
	int prio = 0;

	if (c->a[0] < 0)
		return -EINVAL;
	for (int i = 0; i < t->nthreads && !th; i++)
		if (t->th[i].info.status != TS_EXITED &&
		    (c->a[0] == 0 ? &t->th[i] == c->th
				  : t->th[i].info.os_tid == c->a[0]))
			th = &t->th[i];
	if (!th)
		return -ESRCH;
	switch (c->nr) {
	case SYS_sched_getaffinity: {
		uint8_t set[128];
		long n = syscall(SYS_sched_getaffinity, t->proc.pid,
				 sizeof set, set);
		if (n < 0)
			return -errno;
		if ((unsigned long)c->a[1] < (unsigned long)n ||
		    (c->a[1] & 7))
			return -EINVAL;
		if (proc_write(&t->proc, (uint64_t)c->a[2], set, (size_t)n) !=
		    (size_t)n)
			return -EFAULT;
		return n;
	}
	case SYS_sched_setaffinity:
		return 0; /* the target stays where x86smc pinned it */
	case SYS_sched_getscheduler:
		return th->sched_policy;
	case SYS_sched_getparam:
		return proc_write(&t->proc, (uint64_t)c->a[1],
				  &th->sched_prio, 4) == 4
			       ? 0
			       : -EFAULT;
	default:
		break;
	}
	/* setscheduler (pid, policy, param), setparam (pid, param) */
	long policy = c->nr == SYS_sched_setscheduler ? c->a[1]
						       : th->sched_policy;
	uint64_t param = (uint64_t)(c->nr == SYS_sched_setscheduler ? c->a[2]
								    : c->a[1]);
	if (!param || proc_read(&t->proc, param, &prio, 4) != 4)
		return -EFAULT;
	policy &= ~(long)SCHED_RESET_ON_FORK;
	if (policy == SCHED_FIFO || policy == SCHED_RR) {
		if (prio < 1 || prio > 99)
			return -EINVAL;
	} else if (policy == SCHED_NORMAL || policy == SCHED_BATCH ||
		   policy == SCHED_IDLE) {
		if (prio != 0)
			return -EINVAL;
	} else {
		return -EINVAL;
	}
	th->sched_policy = (int)policy;
	th->sched_prio = prio;
	return 0;
}

static long sys_tgkill(struct sys_ctx *c)
{
	if (c->a[0] != c->t->vpid)
		return -ESRCH;
	return queue_signal(c->t, c->a[1], c->a[2]);
}

static long sys_tkill(struct sys_ctx *c)
{
	return queue_signal(c->t, c->a[0], c->a[1]);
}

static long sys_kill(struct sys_ctx *c)
{
	if (c->a[0] == c->t->vpid || c->a[0] == 0)
		return queue_signal(c->t, c->th->info.os_tid, c->a[1]);
	tr_end_unsupported(c->t, "kill(%ld, %ld): signals to other "
				 "processes are not modelled",
			   c->a[0], c->a[1]);
	return SYS_NORETURN;
}

static long sys_futex(struct sys_ctx *c)
{
	return futex_op(c->t, c->th, c->ev);
}

/* rt_sigtimedwait(set, info, timeout, sigsetsize): sigwait, sigwaitinfo,
 * sigtimedwait.  Signals reach logical threads only through the tracer
 * (queue_signal), never the kernel's queue: a signal of the set already
 * queued for the thread is taken at once, else the thread blocks until
 * one is sent to it (a timed wait when timeout is given: its timeout is
 * an outcome the search explores, EAGAIN). */
static long sys_sigtimedwait(struct sys_ctx *c)
{
	struct tracer *t = c->t;
	struct lthread *th = c->th;
	uint64_t set = 0, deadline, ready;
	bool expired;
	long r;

	if (c->a[3] != 8)
		return -EINVAL;
	if (proc_read(&t->proc, (uint64_t)c->a[0], &set, 8) != 8)
		return -EFAULT;
	set &= ~(1ull << (SIGKILL - 1) | 1ull << (SIGSTOP - 1));
	ready = th->sigpending & set;
	if (ready)
		return take_signal(t, th, __builtin_ctzll(ready) + 1,
				   (uint64_t)c->a[1]);
	r = det_futex_deadline(t, FUTEX_WAIT, (uint64_t)c->a[2], &deadline,
			       &expired);
	if (r < 0)
		return r;
	if (expired)
		return -EAGAIN;
	futex_block(t, th, TW_SIGWAIT, 0, c->a[2] != 0);
	th->wait_deadline = deadline;
	th->sigwait_set = set;
	th->sigwait_info = (uint64_t)c->a[1];
	return SYS_NORETURN;
}

/* ---- entry points ---- */

/* The pending event of a thread stopped before a syscall instruction. */
/* A read from a descriptor that was open at the snapshot and whose
 * state cannot be put back for the next execution (fdstate.c): refused,
 * naming it, rather than explored wrong. */
static bool refused_read(struct tracer *t, struct lthread *th, long nr,
			 const long a[6])
{
	const char *what;

	if (nr != SYS_read && nr != SYS_readv && nr != SYS_pread64 &&
	    nr != SYS_preadv && nr != SYS_preadv2 && nr != SYS_recvfrom &&
	    nr != SYS_recvmsg)
		return false;
	what = tr_snapshot_refuses(t, (int)a[0]);
	if (!what)
		return false;
	tr_end_unsupported(t, "thread %d reads %s (fd %ld), open before the "
			      "threads started: what one execution reads "
			      "from it is gone for the next (only regular "
			      "files and pipes are put back)",
			   th->info.tid, what, a[0]);
	return true;
}

/* The logical thread a tgkill, tkill or kill of syscall nr sends its
 * signal to (queue_signal), or -1. */
static int kill_target(const struct tracer *t, long nr, const long a[6])
{
	long tid;

	if (nr == SYS_tgkill && a[0] == t->vpid)
		tid = a[1];
	else if (nr == SYS_tkill)
		tid = a[0];
	else if (nr == SYS_kill && (a[0] == t->vpid || a[0] == 0))
		tid = t->th[t->cur].info.os_tid;
	else
		return -1;
	return live_thread(t, tid);
}

int sys_classify(struct tracer *t, struct lthread *th, struct tr_event *ev)
{
	long nr = (long)th->regs.rax;
	const struct sys_row *rw = row(nr);
	struct dec_access mem[EV_MAX_ACC];
	long a[6];
	int nmem, target;

	args(&th->regs, a);
	ev->sysno = nr;
	ev->kind = rw->kind;
	if (rw->kind == EV_OUTPUT && !captured_fd(a[0]))
		ev->kind = EV_SYSCALL;
	ev->fd = ev->kind == EV_OUTPUT ? (int)a[0] : 0;
	if (refused_read(t, th, nr, a))
		return 1;
	/* the user memory it copies from or to: its accesses (sysmem.c) */
	nmem = sysmem_accesses(t, nr, a, mem);
	if (rw->local) {
		/* performed by sys_local() as the thread advances, unless
		 * it fills memory another thread can see: then it is an
		 * event that writes there */
		tr_add_shared(t, th, ev, mem, nmem);
		return ev->nacc > 0;
	}
	switch (ev->kind) {
	case EV_FUTEX:
		futex_accesses(a, ev);
		break;
	case EV_OUTPUT:
		ev->nacc = 1;
		ev->acc[0] = (struct dec_access){ EV_ADDR_FD + (uint64_t)a[0],
						  1, DEC_WRITE, 0 };
		break;
	case EV_EXIT:
		if (th->clear_child_tid) {
			ev->nacc = 1;
			ev->acc[0] = (struct dec_access){ th->clear_child_tid,
							  4, DEC_WRITE, 0 };
		}
		break;
	case EV_SPAWN:
		if ((unsigned long)a[0] & CLONE_PARENT_SETTID) {
			ev->nacc = 1;
			ev->acc[0] = (struct dec_access){ (uint64_t)a[2], 4,
							  DEC_WRITE, 0 };
		}
		break;
	case EV_SYSCALL:
		ev->nacc = 0;
		target = kill_target(t, nr, a);
		if (target >= 0) /* first: what timed_races copies */
			ev->acc[ev->nacc++] = (struct dec_access){
				EV_ADDR_SIGQ(target), 1, DEC_READ | DEC_WRITE,
				0 };
		ev->acc[ev->nacc++] = (struct dec_access){
			EV_ADDR_KERNEL, 1, DEC_READ | DEC_WRITE, 0 };
		break;
	case EV_END:
		ev_end_accesses(ev->acc, &ev->nacc);
		break;
	default:
		break;
	}
	if (ev->kind == EV_OUTPUT || ev->kind == EV_SYSCALL)
		tr_add_shared(t, th, ev, mem, nmem);
	return 1;
}

/* A thread-local syscall of the current thread, performed without an
 * event.  Returns 0 or 1 (execution ended) or -1. */
int sys_local(struct tracer *t, struct lthread *th, struct tr_event *ev)
{
	return sys_perform(t, th, ev);
}

static bool emulated(const struct sys_row *rw, const long a[6])
{
	if (rw->action != SA_EMULATE)
		return rw->action == SA_UNSUPPORTED;
	if (rw->kind == EV_OUTPUT)
		return captured_fd(a[0]);
	return true;
}

static long run_row(struct tracer *t, struct lthread *th, long nr,
		    struct tr_event *ev)
{
	struct sys_ctx c = { t, th, ev, { 0 }, nr };

	args(&th->regs, c.a);
	return row(nr)->fn(&c);
}

/* The syscalls that change nothing of the process a restore in the same
 * process would miss (recycle.c): they read, change the memory map (which
 * the restore compares), the signal mask (restored) or a file offset
 * (restored as for a fork, fdstate.c).  The seccomp filter lets these run
 * without a stop; every other syscall not in its list stops, so that
 * tr_kernel_syscall sees it even in native mode. */
static const int neutral[] = {
	SYS_read, SYS_write, SYS_readv, SYS_writev, SYS_pread64,
	SYS_pwrite64, SYS_preadv, SYS_pwritev, SYS_preadv2, SYS_pwritev2,
	SYS_lseek, SYS_fstat, SYS_stat, SYS_lstat, SYS_newfstatat,
	SYS_statx, SYS_statfs, SYS_fstatfs, SYS_access, SYS_faccessat,
	SYS_faccessat2, SYS_readlink, SYS_readlinkat, SYS_getcwd,
	SYS_getdents64, SYS_uname, SYS_getuid, SYS_geteuid, SYS_getgid,
	SYS_getegid, SYS_getgroups, SYS_getresuid, SYS_getresgid,
	SYS_getpgrp, SYS_getpgid, SYS_getsid, SYS_getrlimit, SYS_getrusage,
	SYS_sysinfo, SYS_getpriority, SYS_mmap, SYS_munmap, SYS_mprotect,
	SYS_mremap, SYS_brk, SYS_madvise, SYS_mincore, SYS_msync,
	SYS_rt_sigprocmask, SYS_rt_sigreturn, SYS_rt_sigpending,
	SYS_poll, SYS_ppoll, SYS_select, SYS_pselect6, SYS_epoll_wait,
	SYS_epoll_pwait, SYS_fsync, SYS_fdatasync,
};

bool sys_kernel_neutral(long nr)
{
	for (size_t i = 0; i < sizeof neutral / sizeof neutral[0]; i++)
		if (neutral[i] == nr)
			return true;
	return false;
}

const int *sys_neutral_list(int *n)
{
	*n = (int)(sizeof neutral / sizeof neutral[0]);
	return neutral;
}

/* Perform the pending syscall event of the current thread th. */
int sys_perform(struct tracer *t, struct lthread *th, struct tr_event *ev)
{
	const struct sys_row *rw = row(ev->sysno);
	long a[6], res;
	int r;

	args(&th->regs, a);
	if (!emulated(rw, a)) {
		r = tr_exec_insn(t); /* tr_kernel_syscall at its seccomp stop */
		if (r == 0 && rw->maps_change)
			t->maps.stale = true;
		if (r == 0 && ev->sysno == SYS_rt_sigprocmask)
			r = proc_getsigmask(&t->proc, &th->sigmask);
		return r;
	}
	th->regs.rip += 2; /* past the syscall instruction */
	t->regs_dirty = true;
	res = run_row(t, th, ev->sysno, ev);
	if (res != SYS_NORETURN)
		th->regs.rax = (uint64_t)res;
	return 0;
}

/* One live thread signalling itself (abort's raise): with the real pid
 * for the virtual ids, the kernel can deliver it as usual; the signal
 * mask, untraced in native mode, is then the kernel's business. */
static bool self_signal(struct tracer *t, struct lthread *th, long nr)
{
	struct user_regs_struct *r = &th->regs;
	long me = th->info.os_tid, real = t->proc.pid;

	if (nr == SYS_tgkill && (long)r->rdi == t->vpid && (long)r->rsi == me)
		r->rdi = r->rsi = (unsigned long)real;
	else if (nr == SYS_tkill && (long)r->rdi == me)
		r->rdi = (unsigned long)real;
	else if (nr == SYS_kill && ((long)r->rdi == t->vpid || r->rdi == 0))
		r->rdi = (unsigned long)real;
	else
		return false;
	t->regs_dirty = true;
	return tr_sync_regs(t) == 0;
}

/* A seccomp stop while one thread runs free (t->native): emulate the
 * syscalls the filter traces, for the current thread.  Returns 0 to let it
 * run on, 1 when it must stop (the execution ended or the thread blocked),
 * 2 for a clone (the caller rewinds it: it becomes a spawn event under
 * control), -1 on failure.  When it stops,
 * the syscall stop is left with one single step (tracer.c invariant). */
/* The filter marks the syscalls of another ABI (int 0x80 and sysenter:
 * i386; x32) with SECCOMP_RET_DATA 0xffff (proc.c): their numbers mean
 * other calls, and x86smc models none of them.  At a seccomp stop: ends
 * the execution as unsupported and returns true for those. */
bool sys_foreign_abi(struct tracer *t)
{
	struct user_regs_struct r;

	if (proc_geteventmsg(&t->proc) != 0xffff)
		return false;
	if (proc_getregs(&t->proc, &r) < 0)
		r.orig_rax = (unsigned long)-1;
	tr_end_unsupported(t, "a system call of another ABI (int 0x80 or "
			      "sysenter: i386, or x32), number %#lx: x86smc "
			      "models x86-64 syscalls only",
			   (unsigned long)r.orig_rax);
	return true;
}

/* A lone thread's sigwait: the tracer's if a signal of its set is
 * queued with the tracer (sent while other threads ran), else the
 * kernel's, which holds what the thread sent itself (self_signal). */
static bool native_sigwait_ours(struct tracer *t, struct lthread *th)
{
	uint64_t set = 0;

	if (proc_read(&t->proc, th->regs.rdi, &set, 8) != 8)
		return false;
	return (th->sigpending & set) != 0;
}

int sys_at_seccomp(struct tracer *t)
{
	struct lthread *th = &t->th[t->cur];
	struct tr_event ev = { 0 };
	struct proc_stop s2;
	long nr, res;

	if (sys_foreign_abi(t))
		return 1;
	if (proc_getregs(&t->proc, &th->regs) < 0)
		return -1;
	nr = (long)th->regs.orig_rax;
	/* the kernel runs it: a write to a file; a signal to itself, which
	 * the kernel delivers honouring the real mask; a sigwait for what
	 * is in the kernel's queue */
	if (!emulated(row(nr), (long[6]){ (long)th->regs.rdi }) ||
	    (t->native && self_signal(t, th, nr)) ||
	    (t->native && nr == SYS_rt_sigtimedwait &&
	     !native_sigwait_ours(t, th))) {
		tr_kernel_syscall(t, nr);
		return 0;
	}
	if (nr == SYS_clone && proc_getsigmask(&t->proc, &th->sigmask) < 0)
		return -1;
	if (nr == SYS_clone && th->region == RG_NONE)
		return 2; /* becomes a spawn event under control */
	res = run_row(t, th, nr, &ev);
	th->regs.orig_rax = (unsigned long)-1;
	if (res != SYS_NORETURN)
		th->regs.rax = (uint64_t)res;
	t->regs_dirty = true;
	if (t->end.kind != END_NONE)
		return 1;
	if (tr_sync_regs(t) < 0)
		return -1;
	if ((t->native || th->region != RG_NONE) &&
	    th->info.status == TS_RUNNABLE)
		return 0; /* resume from the seccomp stop */
	if (proc_step(&t->proc, 0) < 0 || proc_wait(&t->proc, false, &s2) < 0)
		return -1;
	if (s2.kind != PROC_TRAP)
		return tr_handle_stop_signal(t, &s2) ? 1 : -1;
	return proc_getregs(&t->proc, &th->regs) < 0 ? -1 : 1;
}
