/* sysmem.c — the user memory a syscall reads or writes.
 *
 * A syscall that copies to or from the program's memory (read into a
 * buffer, write from one, a struct timespec filled in, an iovec array) is
 * an access of those bytes by its thread, at the moment of the call: a
 * race with another thread's load or store is a race like any other
 * (issue 15, hole 6).  One row per syscall, by its arguments (strace's
 * syscallent habit); the sizes are what the call may touch at most (a
 * read of 4096 bytes that returns 3 is an access of 4096: more conflicts,
 * never fewer).  Syscalls not listed touch no user memory that another
 * thread could see, or are refused elsewhere. */
#include <sys/syscall.h>
#include <sys/uio.h>

#include "tracer/tracer_priv.h"

enum how {
	M_NONE,
	M_LEN,   /* [a[ptr], a[ptr] + a[len]) */
	M_FIXED, /* [a[ptr], a[ptr] + size), skipped if a[ptr] is NULL */
	M_IOV,   /* a[ptr] is an iovec array of a[len] entries */
	M_MSG,   /* a[ptr] is a struct msghdr: its iovecs */
	M_NMEMB, /* [a[ptr], a[ptr] + a[len] * size) */
};

struct buf {
	uint8_t how, ptr, len, rw;
	uint16_t size;
};

#define R DEC_READ
#define W DEC_WRITE
#define RW (DEC_READ | DEC_WRITE)

static const struct buf table[][2] = {
	[SYS_read] = { { M_LEN, 1, 2, W, 0 } },
	[SYS_write] = { { M_LEN, 1, 2, R, 0 } },
	[SYS_pread64] = { { M_LEN, 1, 2, W, 0 } },
	[SYS_pwrite64] = { { M_LEN, 1, 2, R, 0 } },
	[SYS_readv] = { { M_IOV, 1, 2, W, 0 } },
	[SYS_writev] = { { M_IOV, 1, 2, R, 0 } },
	[SYS_preadv] = { { M_IOV, 1, 2, W, 0 } },
	[SYS_pwritev] = { { M_IOV, 1, 2, R, 0 } },
	[SYS_preadv2] = { { M_IOV, 1, 2, W, 0 } },
	[SYS_pwritev2] = { { M_IOV, 1, 2, R, 0 } },
	[SYS_recvfrom] = { { M_LEN, 1, 2, W, 0 }, { M_FIXED, 4, 0, W, 128 } },
	[SYS_sendto] = { { M_LEN, 1, 2, R, 0 }, { M_FIXED, 4, 0, R, 128 } },
	[SYS_recvmsg] = { { M_MSG, 1, 0, W, 0 } },
	[SYS_sendmsg] = { { M_MSG, 1, 0, R, 0 } },
	[SYS_getrandom] = { { M_LEN, 0, 1, W, 0 } },
	[SYS_time] = { { M_FIXED, 0, 0, W, 8 } },
	[SYS_gettimeofday] = { { M_FIXED, 0, 0, W, 16 },
			       { M_FIXED, 1, 0, W, 8 } },
	[SYS_clock_gettime] = { { M_FIXED, 1, 0, W, 16 } },
	[SYS_clock_getres] = { { M_FIXED, 1, 0, W, 16 } },
	[SYS_times] = { { M_FIXED, 0, 0, W, 32 } },
	[SYS_getcpu] = { { M_FIXED, 0, 0, W, 4 }, { M_FIXED, 1, 0, W, 4 } },
	[SYS_nanosleep] = { { M_FIXED, 0, 0, R, 16 },
			    { M_FIXED, 1, 0, W, 16 } },
	[SYS_clock_nanosleep] = { { M_FIXED, 2, 0, R, 16 },
				  { M_FIXED, 3, 0, W, 16 } },
	[SYS_pipe] = { { M_FIXED, 0, 0, W, 8 } },
	[SYS_pipe2] = { { M_FIXED, 0, 0, W, 8 } },
	[SYS_fstat] = { { M_FIXED, 1, 0, W, 144 } },
	[SYS_stat] = { { M_FIXED, 1, 0, W, 144 } },
	[SYS_lstat] = { { M_FIXED, 1, 0, W, 144 } },
	[SYS_newfstatat] = { { M_FIXED, 2, 0, W, 144 } },
	[SYS_statx] = { { M_FIXED, 4, 0, W, 256 } },
	[SYS_getcwd] = { { M_LEN, 0, 1, W, 0 } },
	[SYS_readlink] = { { M_LEN, 1, 2, W, 0 } },
	[SYS_readlinkat] = { { M_LEN, 2, 3, W, 0 } },
	[SYS_uname] = { { M_FIXED, 0, 0, W, 390 } },
	[SYS_sysinfo] = { { M_FIXED, 0, 0, W, 112 } },
	[SYS_getrusage] = { { M_FIXED, 1, 0, W, 144 } },
	[SYS_poll] = { { M_NMEMB, 0, 1, RW, 8 } },
	[SYS_ppoll] = { { M_NMEMB, 0, 1, RW, 8 } },
	[SYS_epoll_wait] = { { M_NMEMB, 1, 2, W, 12 } },
	[SYS_epoll_pwait] = { { M_NMEMB, 1, 2, W, 12 } },
	[SYS_select] = { { M_FIXED, 1, 0, RW, 128 }, { M_FIXED, 2, 0, RW, 128 } },
	[SYS_getdents64] = { { M_LEN, 1, 2, W, 0 } },
	[SYS_sched_getaffinity] = { { M_LEN, 2, 1, W, 0 } },
	[SYS_prlimit64] = { { M_FIXED, 3, 0, W, 16 } },
	[SYS_getrlimit] = { { M_FIXED, 1, 0, W, 16 } },
	[SYS_rt_sigaction] = { { M_FIXED, 2, 0, W, 32 } },
	[SYS_rt_sigprocmask] = { { M_FIXED, 2, 0, W, 8 } },
};

#define NROWS ((long)(sizeof table / sizeof table[0]))
#define MAX_IOV 64

static void add(struct dec_access *out, int *n, uint64_t addr, uint64_t size,
		uint8_t rw)
{
	struct dec_access a = { addr, size, rw, DEC_MEM_EXPLICIT };

	if (addr && size)
		acc_merge(out, n, EV_MAX_ACC, &a);
}

static void iovecs(struct tracer *t, uint64_t iov, uint64_t cnt, uint8_t rw,
		   struct dec_access *out, int *n)
{
	struct iovec v[MAX_IOV];

	if (cnt > MAX_IOV)
		cnt = MAX_IOV; /* the kernel's UIO_MAXIOV is 1024: beyond 64,
				* the array itself still covers them */
	add(out, n, iov, cnt * sizeof v[0], R);
	if (!cnt || proc_read(&t->proc, iov, v, cnt * sizeof v[0]) !=
			    cnt * sizeof v[0])
		return;
	for (uint64_t i = 0; i < cnt; i++)
		add(out, n, (uint64_t)v[i].iov_base, v[i].iov_len, rw);
}

int sysmem_accesses(struct tracer *t, long nr, const long a[6],
		    struct dec_access *out)
{
	int n = 0;

	if (nr < 0 || nr >= NROWS)
		return 0;
	for (int i = 0; i < 2; i++) {
		const struct buf *b = &table[nr][i];
		uint64_t p = (uint64_t)a[b->ptr], msg[4];
		switch (b->how) {
		case M_LEN:
			add(out, &n, p, (uint64_t)a[b->len], b->rw);
			break;
		case M_FIXED:
			add(out, &n, p, b->size, b->rw);
			break;
		case M_NMEMB:
			add(out, &n, p, (uint64_t)a[b->len] * b->size, b->rw);
			break;
		case M_IOV:
			iovecs(t, p, (uint64_t)a[b->len], b->rw, out, &n);
			break;
		case M_MSG: /* msg_name, msg_namelen, msg_iov, msg_iovlen */
			add(out, &n, p, 56, R);
			if (p && proc_read(&t->proc, p, msg, sizeof msg) ==
					 sizeof msg)
				iovecs(t, msg[2], msg[3], b->rw, out, &n);
			break;
		default:
			break;
		}
	}
	return n;
}
