/* determ.c — a deterministic environment: virtual clock, PRNG, pid, TSC
 * (the rules and their limits are in determ.h and docs/DETERMINISM.md). */
#include "tracer/determ.h"

#include <errno.h>
#include <linux/futex.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tracer/log.h"
#include "tracer/tracer_priv.h"

#define NS 1000000000ull
#define AT_NULL_ 0
#define AT_IGNORE_ 1
#define AT_RANDOM_ 25
#define AT_SYSINFO_EHDR_ 33

static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* ---- the exec stop: auxiliary vector ---- */

/* The initial stack: argc, argv[], NULL, envp[], NULL, auxv pairs.  Find
 * the address of the first auxv pair. */
static uint64_t auxv_addr(struct tracer *t, uint64_t sp)
{
	uint64_t argc, w;
	uint64_t p;

	if (proc_read(&t->proc, sp, &argc, 8) != 8 || argc > (1u << 20))
		return 0;
	p = sp + 8 * (argc + 2); /* past argc, argv[], NULL */
	for (int i = 0; i < (1 << 20); i++, p += 8) {
		if (proc_read(&t->proc, p, &w, 8) != 8)
			return 0;
		if (w == 0)
			return p + 8;
	}
	return 0;
}

static void tsc_probe_fault(int sig)
{
	(void)sig;
	_exit(0);
}

/* Whether rdtsc faults after PR_SET_TSC here: some hypervisors accept the
 * prctl and never fault (seen on one kind of VM of this workplace), and
 * then the program reads the real counter, natively and under control.
 * Checked once under -v, in a child (docs/DETERMINISM.md). */
static void tsc_check(void)
{
	static bool done;
	int ws = 0;
	pid_t pid;

	if (done || !log_verbose) /* a fork at start-up: for -v only */
		return;
	done = true;
	pid = fork();
	if (pid == 0) {
		uint32_t lo, hi;
		signal(SIGSEGV, tsc_probe_fault);
		if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0) < 0)
			_exit(1);
		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
		(void)lo;
		(void)hi;
		_exit(1); /* it did not fault */
	}
	if (pid > 0 && waitpid(pid, &ws, 0) == pid && WIFEXITED(ws) &&
	    WEXITSTATUS(ws) == 1)
		pr_debug("rdtsc does not fault on this machine (PR_SET_TSC "
			 "has no effect): the program reads the real time "
			 "stamp counter, which differs from run to run");
}

int det_start(struct tracer *t)
{
	struct user_regs_struct r;
	uint64_t av[2], p, seed[2];

	t->clock_ns = DET_MONO_START_NS;
	tsc_check();
	if (proc_getregs(&t->proc, &r) < 0 || !(p = auxv_addr(t, r.rsp)))
		return -1;
	for (int i = 0; i < 64; i++, p += 16) {
		if (proc_read(&t->proc, p, av, 16) != 16)
			return -1;
		if (av[0] == AT_NULL_)
			return 0;
		if (av[0] == AT_SYSINFO_EHDR_) {
			av[0] = AT_IGNORE_;
			if (proc_write(&t->proc, p, av, 8) != 8)
				return -1;
		} else if (av[0] == AT_RANDOM_ && av[1]) {
			seed[0] = splitmix64(DET_SEED);
			seed[1] = splitmix64(seed[0]);
			if (proc_write(&t->proc, av[1], seed, 16) != 16)
				return -1;
		}
	}
	return -1;
}

/* ---- the virtual clock ---- */

/* One read of the clock: it advances first, so no two reads are equal. */
static uint64_t tick(struct tracer *t)
{
	t->clock_ns += DET_TICK_NS;
	return t->clock_ns;
}

void det_clock_reach(struct tracer *t, uint64_t deadline)
{
	if (deadline > t->clock_ns)
		t->clock_ns = deadline;
}

/* Value of clock id at monotonic time mono (false: no such clock). */
static bool clock_value(long id, uint64_t mono, int64_t *v)
{
	switch (id) {
	case CLOCK_REALTIME:
	case CLOCK_REALTIME_COARSE:
	case CLOCK_TAI:
	case CLOCK_REALTIME_ALARM:
		*v = (int64_t)(mono + DET_REALTIME_BASE_S * NS);
		return true;
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_MONOTONIC_COARSE:
	case CLOCK_BOOTTIME:
	case CLOCK_BOOTTIME_ALARM:
		*v = (int64_t)mono;
		return true;
	default:
		/* the CPU clocks: process, thread, and the negative ids of
		 * another process's or thread's */
		if (id != CLOCK_PROCESS_CPUTIME_ID &&
		    id != CLOCK_THREAD_CPUTIME_ID && id >= 0)
			return false;
		*v = (int64_t)(mono - DET_MONO_START_NS);
		return true;
	}
}

/* Monotonic time of value v of clock id (the inverse, for deadlines). */
static uint64_t to_mono(long id, int64_t v)
{
	int64_t at0 = 0;

	clock_value(id, 0, &at0);
	return v > at0 ? (uint64_t)(v - at0) : 0;
}

static int64_t realtime(uint64_t mono)
{
	int64_t v = 0;

	clock_value(CLOCK_REALTIME, mono, &v);
	return v;
}

static long put(struct tracer *t, uint64_t addr, const void *v, size_t n)
{
	if (!addr)
		return 0;
	return proc_write(&t->proc, addr, v, n) == n ? 0 : -EFAULT;
}

static long read_timespec(struct tracer *t, uint64_t addr, int64_t *ns)
{
	struct timespec ts;

	if (proc_read(&t->proc, addr, &ts, sizeof ts) != sizeof ts)
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= (long)NS)
		return -EINVAL;
	if ((uint64_t)ts.tv_sec > (uint64_t)INT64_MAX / NS - 1)
		*ns = INT64_MAX;
	else
		*ns = (int64_t)ts.tv_sec * (int64_t)NS + ts.tv_nsec;
	return 0;
}

static long sys_clock_gettime(struct tracer *t, const long a[6])
{
	struct timespec ts;
	int64_t v;

	if (!clock_value(a[0], t->clock_ns, &v))
		return -EINVAL;
	clock_value(a[0], tick(t), &v);
	ts.tv_sec = v / (int64_t)NS;
	ts.tv_nsec = v % (int64_t)NS;
	return put(t, (uint64_t)a[1], &ts, sizeof ts);
}

static long sys_gettimeofday(struct tracer *t, const long a[6])
{
	int64_t v = realtime(tick(t));
	struct timeval tv = { v / (int64_t)NS, (v % (int64_t)NS) / 1000 };
	int tz[2] = { 0, 0 };

	if (put(t, (uint64_t)a[0], &tv, sizeof tv) < 0 ||
	    put(t, (uint64_t)a[1], tz, sizeof tz) < 0)
		return -EFAULT;
	return 0;
}

static long sys_time(struct tracer *t, const long a[6])
{
	int64_t s = realtime(tick(t)) / (int64_t)NS;

	if (put(t, (uint64_t)a[0], &s, sizeof s) < 0)
		return -EFAULT;
	return (long)s;
}

/* times(): clock ticks (USER_HZ = 100) of virtual CPU time. */
static long sys_times(struct tracer *t, const long a[6])
{
	uint64_t now = tick(t);
	long cpu[4] = { (long)((now - DET_MONO_START_NS) / (NS / 100)), 0, 0,
			0 };

	if (put(t, (uint64_t)a[0], cpu, sizeof cpu) < 0)
		return -EFAULT;
	return (long)(now / (NS / 100));
}

/* nanosleep and clock_nanosleep return at once; the clock moves on. */
static long sleep_for(struct tracer *t, long id, bool abs, uint64_t req)
{
	int64_t ns, v;
	long r = read_timespec(t, req, &ns);

	if (r < 0)
		return r;
	if (!clock_value(id, 0, &v))
		return -EINVAL;
	if (abs)
		det_clock_reach(t, to_mono(id, ns));
	else if ((uint64_t)ns < UINT64_MAX - t->clock_ns)
		t->clock_ns += (uint64_t)ns;
	return 0;
}

static long sys_nanosleep(struct tracer *t, const long a[6])
{
	return sleep_for(t, CLOCK_MONOTONIC, false, (uint64_t)a[0]);
}

static long sys_clock_nanosleep(struct tracer *t, const long a[6])
{
	return sleep_for(t, a[0], a[1] & TIMER_ABSTIME, (uint64_t)a[2]);
}

long det_futex_deadline(struct tracer *t, long op, uint64_t timeout,
			uint64_t *deadline, bool *expired)
{
	int cmd = (int)(op & FUTEX_CMD_MASK);
	long id = (op & FUTEX_CLOCK_REALTIME) ? CLOCK_REALTIME
					      : CLOCK_MONOTONIC;
	int64_t ns;
	long r;

	*deadline = 0;
	*expired = false;
	if (!timeout)
		return 0;
	r = read_timespec(t, timeout, &ns);
	if (r < 0)
		return r;
	if (cmd == FUTEX_WAIT) { /* relative */
		*deadline = t->clock_ns + (uint64_t)ns;
		*expired = ns == 0;
		return 0;
	}
	if (cmd == FUTEX_LOCK_PI) /* absolute, always CLOCK_REALTIME */
		id = CLOCK_REALTIME;
	*deadline = to_mono(id, ns);
	*expired = *deadline <= t->clock_ns;
	return 0;
}

/* ---- randomness, ids ---- */

static long sys_getrandom(struct tracer *t, struct lthread *th,
			  const long a[6])
{
	uint64_t buf[64];
	size_t len = (size_t)a[1], done = 0;

	if (a[2] & ~7L) /* GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE */
		return -EINVAL;
	if (len > 33554431) /* MAX_RW_COUNT, as the kernel caps it */
		len = 33554431;
	while (done < len) {
		size_t n = len - done < sizeof buf ? len - done : sizeof buf;
		for (size_t i = 0; i < (n + 7) / 8; i++)
			buf[i] = splitmix64(DET_SEED ^
					    ((uint64_t)th->info.tid << 48) ^
					    th->rand_words++);
		if (proc_write(&t->proc, (uint64_t)a[0] + done, buf, n) != n)
			return done ? (long)done : -EFAULT;
		done += n;
	}
	return (long)done;
}

static long sys_getcpu(struct tracer *t, const long a[6])
{
	unsigned zero = 0;

	if (put(t, (uint64_t)a[0], &zero, 4) < 0 ||
	    put(t, (uint64_t)a[1], &zero, 4) < 0)
		return -EFAULT;
	return 0;
}

const int det_traced_syscalls[] = {
	SYS_time, SYS_gettimeofday, SYS_clock_gettime, SYS_times,
	SYS_nanosleep, SYS_clock_nanosleep, SYS_getrandom, SYS_getcpu,
	SYS_getppid,
};
const int det_ntraced_syscalls =
	(int)(sizeof det_traced_syscalls / sizeof det_traced_syscalls[0]);

long det_syscall(struct tracer *t, struct lthread *th, long nr,
		 const long a[6])
{
	switch (nr) {
	case SYS_time: return sys_time(t, a);
	case SYS_gettimeofday: return sys_gettimeofday(t, a);
	case SYS_clock_gettime: return sys_clock_gettime(t, a);
	case SYS_times: return sys_times(t, a);
	case SYS_nanosleep: return sys_nanosleep(t, a);
	case SYS_clock_nanosleep: return sys_clock_nanosleep(t, a);
	case SYS_getrandom: return sys_getrandom(t, th, a);
	case SYS_getcpu: return sys_getcpu(t, a);
	case SYS_getppid: return DET_VPID - 1;
	default: return -ENOSYS;
	}
}

/* ---- rdtsc / rdtscp ---- */

bool det_tsc_stop(struct tracer *t, const struct proc_stop *st)
{
	struct lthread *th = &t->th[t->cur];
	const struct dec_insn *in;
	uint8_t code[16];
	siginfo_t si;
	uint64_t tsc;
	bool rdtscp;

	if (st->kind != PROC_SIGNAL || st->sig != SIGSEGV)
		return false;
	memset(&si, 0, sizeof si);
	if (proc_getsiginfo(&t->proc, &si) < 0 || si.si_code != SI_KERNEL ||
	    proc_getregs(&t->proc, &th->regs) < 0)
		return false;
	in = dcache_get(t->dc, th->regs.rip);
	if (!in || in->cls != DEC_SERIALIZE || in->len < 2 ||
	    bp_fetch(t, th->regs.rip, code, in->len) != in->len)
		return false;
	rdtscp = in->len >= 3 && code[in->len - 3] == 0x0f &&
		 code[in->len - 2] == 0x01 && code[in->len - 1] == 0xf9;
	if (!rdtscp && !(code[in->len - 2] == 0x0f && code[in->len - 1] == 0x31))
		return false;
	tsc = tick(t);
	th->regs.rax = tsc & 0xffffffffu;
	th->regs.rdx = tsc >> 32;
	if (rdtscp)
		th->regs.rcx = 0; /* IA32_TSC_AUX */
	th->regs.rip += in->len;
	t->regs_dirty = true;
	return tr_sync_regs(t) == 0;
}
