/* recycle.c — continue from a checkpoint in the process that ran the last
 * execution, without a fork.
 *
 * On these VMs a fork of the target, its first writes (copy on write)
 * and its exit cost ~0.3-0.6 ms, a third to a half of a short execution
 * (docs/PERFORMANCE.md).  The process that ran the execution is still
 * there, stopped; what makes it differ from the checkpoint c it should
 * continue from is known:
 *   - its memory map: mappings made since c are unmapped (a thread's
 *     stack); a mapping of c changed or gone, and the caller forks;
 *   - the pages of c's private writable mappings: each one present in
 *     either process is copied from c (process_vm_readv from the stopped
 *     copy, process_vm_writev into the process) — no dirty tracking (this
 *     kernel has no soft-dirty bits), but a small program has a few dozen
 *     such pages;
 *   - registers, XSTATE and the signal mask (snapshot.c);
 *   - kernel state: file offsets and pipes as for a fork (fdstate.c);
 *     anything else a syscall may have changed (a descriptor opened, a
 *     handler installed) makes the caller fork (tr_kernel_diverged).
 * X86SMC_RECYCLE_CHECK=1 compares every private mapping of both
 * processes after each restore (tests). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "tracer/log.h"
#include "tracer/recycle.h"

#define PAGE 4096ul
#define PM_PRESENT (1ull << 63)
#define PM_SWAPPED (1ull << 62)
#define RC_IOV 512 /* pages per process_vm_readv/writev */

bool rc_env(const char *name)
{
	const char *e = getenv(name);

	return e && *e && strcmp(e, "0") != 0;
}

/* Room for one more element of elem bytes in *v (*n used, *cap). */
static int room(void *v, int n, int *cap, size_t elem)
{
	void **p = v;

	if (n < *cap)
		return 0;
	int c = *cap ? 2 * *cap : 64;
	void *q = realloc(*p, (size_t)c * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

static int push_line(struct rc_maps *m, const struct rc_line *l)
{
	if (room(&m->l, m->n, &m->capl, sizeof *m->l) < 0)
		return -1;
	m->l[m->n++] = *l;
	return 0;
}

/* One line of /proc/PID/maps: "lo-hi perms offset dev inode  name". */
static int parse_line(struct rc_maps *m, size_t off, size_t len)
{
	const char *s = m->text + off;
	struct rc_line l = { .off = off, .len = len };
	char perms[8] = "";
	unsigned long lo, hi, pgoff, inode;
	unsigned maj, min;
	int name = 0;

	if (sscanf(s, "%lx-%lx %7s %lx %x:%x %lu %n", &lo, &hi, perms, &pgoff,
		   &maj, &min, &inode, &name) < 7)
		return -1;
	l.anon = inode == 0 && (name == 0 || (size_t)name >= len);
	l.prot = (perms[0] == 'r' ? PROT_READ : 0) |
		 (perms[1] == 'w' ? PROT_WRITE : 0) |
		 (perms[2] == 'x' ? PROT_EXEC : 0);
	l.lo = lo;
	l.hi = hi;
	l.wpriv = perms[1] == 'w' && perms[3] == 'p';
	l.priv = perms[3] == 'p';
	l.readable = perms[0] == 'r';
	l.special = memchr(s, '[', len) != NULL; /* [stack], [vdso], ... */
	return push_line(m, &l);
}

int rc_maps_read(struct rc_maps *m, pid_t pid)
{
	char path[64];
	int fd;
	ssize_t r;

	snprintf(path, sizeof path, "/proc/%d/maps", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	m->len = 0;
	m->n = 0;
	m->have_present = false;
	for (;;) {
		if (m->cap - m->len < 4096) {
			size_t cap = m->cap ? 2 * m->cap : 16384;
			char *t = realloc(m->text, cap);
			if (!t) {
				close(fd);
				return -1;
			}
			m->text = t;
			m->cap = cap;
		}
		r = read(fd, m->text + m->len, m->cap - m->len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		m->len += (size_t)r;
	}
	close(fd);
	if (r < 0)
		return -1;
	m->text[m->len] = '\0';
	for (size_t at = 0; at < m->len;) {
		const char *nl = memchr(m->text + at, '\n', m->len - at);
		size_t end = nl ? (size_t)(nl - m->text) : m->len;
		if (end > at && parse_line(m, at, end - at) < 0)
			return -1;
		at = end + 1;
	}
	return 0;
}

void rc_maps_free(struct rc_maps *m)
{
	free(m->text);
	free(m->l);
	free(m->present.r);
	memset(m, 0, sizeof *m);
}

static bool same_line(const struct rc_maps *a, const struct rc_line *x,
		      const struct rc_maps *b, const struct rc_line *y)
{
	return x->len == y->len &&
	       memcmp(a->text + x->off, b->text + y->off, x->len) == 0;
}

/* Unmap [lo, hi) in p by a syscall injected at pc. */
static int unmap(struct proc *p, uint64_t pc, uint64_t lo, uint64_t hi)
{
	long a[6] = { (long)lo, (long)(hi - lo) }, ret;

	return proc_syscall(p, pc, SYS_munmap, a, &ret) < 0 || ret != 0
		       ? -1
		       : 0;
}

static bool is_heap(const struct rc_maps *m, const struct rc_line *l)
{
	return l->special && memmem(m->text + l->off, l->len, "[heap]", 6);
}

/* p's program break set to end (its heap grew since c, or appeared). */
static int set_brk(struct proc *p, uint64_t pc, uint64_t end)
{
	long a[6] = { (long)end }, ret;

	return proc_syscall(p, pc, SYS_brk, a, &ret) < 0 || ret != (long)end
		       ? -1
		       : 0;
}

/* Map [y->lo, y->hi) in p again, anonymous and private as in c (glibc
 * unmaps the stacks of exited threads beyond its cache); its pages come
 * from c like the others'. */
static int remap(struct proc *p, uint64_t pc, const struct rc_line *y)
{
	long a[6] = { (long)y->lo, (long)(y->hi - y->lo), y->prot,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1,
		      0 },
	     ret;

	return proc_syscall(p, pc, SYS_mmap, a, &ret) < 0 ||
			       ret != (long)y->lo
		       ? -1
		       : 0;
}

/* Make p's map c's: every mapping of c is in p, the same line; the
 * others are unmapped, anonymous ones of c p lost are mapped again.
 * Returns 0 (done), 1 (changed: compare again) or -1 with *why. */
static int match_maps(struct proc *p, const struct rc_maps *pm,
		      const struct rc_maps *cm, uint64_t pc, const char **why)
{
	int i = 0, j = 0, changed = 0;
	uint64_t ulo = 0, uhi = 0; /* a run of p's extra mappings */

	while (i < pm->n || j < cm->n) {
		const struct rc_line *x = i < pm->n ? &pm->l[i] : NULL;
		const struct rc_line *y = j < cm->n ? &cm->l[j] : NULL;
		if (x && y && x->lo == y->lo) {
			if (!same_line(pm, x, cm, y) && is_heap(pm, x) &&
			    is_heap(cm, y)) {
				if (set_brk(p, pc, y->hi) < 0) {
					*why = "brk failed";
					return -1;
				}
				changed = 1;
			} else if (!same_line(pm, x, cm, y)) {
				pr_debug("recycle: %.*s is %.*s now",
					 (int)y->len, cm->text + y->off,
					 (int)x->len, pm->text + x->off);
				*why = "a mapping changed";
				return -1;
			}
			i++, j++;
			continue;
		}
		if (!x || (y && y->lo < x->lo)) {
			if (!y->anon || !y->priv || (x && x->lo < y->hi)) {
				*why = "a mapping is gone";
				return -1;
			}
			if (remap(p, pc, y) < 0) {
				*why = "mmap failed";
				return -1;
			}
			changed = 1;
			j++;
			continue;
		}
		/* x is p's alone: it must not reach into c's next one */
		if (is_heap(pm, x) && (!y || x->hi <= y->lo)) {
			if (set_brk(p, pc, x->lo) < 0) { /* c had none */
				*why = "brk failed";
				return -1;
			}
			changed = 1;
			i++;
			continue;
		}
		if (x->special || (y && x->hi > y->lo)) {
			pr_debug("recycle: the process has %.*s", (int)x->len,
				 pm->text + x->off);
			*why = "a mapping grew or a special one appeared";
			return -1;
		}
		if (uhi && uhi != x->lo) {
			if (unmap(p, pc, ulo, uhi) < 0) {
				*why = "munmap failed";
				return -1;
			}
			changed = 1;
			uhi = 0;
		}
		if (!uhi)
			ulo = x->lo;
		uhi = x->hi;
		i++;
	}
	if (uhi && unmap(p, pc, ulo, uhi) < 0) {
		*why = "munmap failed";
		return -1;
	}
	return changed || uhi;
}

/* PAGEMAP_SCAN (Linux 6.7): the present pages of a range as a few
 * ranges, where /proc/PID/pagemap gives 8 bytes per page (an 8 MB thread
 * stack: 16 KB a read, most of a restore's time).  Declared here:
 * Debian 12's headers predate it. */
struct rc_page_region {
	uint64_t start, end, categories;
};
struct rc_scan_arg {
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages,
		category_inverted, category_mask, category_anyof_mask,
		return_mask;
};
#define RC_PAGEMAP_SCAN _IOWR('f', 16, struct rc_scan_arg)
#define RC_PAGE_IS_PRESENT (1u << 3)
#define RC_PAGE_IS_SWAPPED (1u << 4)
#define RC_SCAN_VEC 64

static int push_range(struct rc_ranges *v, uint64_t lo, uint64_t hi)
{
	if (v->n && v->r[v->n - 1].hi == lo) {
		v->r[v->n - 1].hi = hi;
		return 0;
	}
	if (room(&v->r, v->n, &v->cap, sizeof *v->r) < 0)
		return -1;
	v->r[v->n++] = (struct rc_range){ lo, hi };
	return 0;
}

static int scan_present(int fd, uint64_t lo, uint64_t hi,
			struct rc_ranges *out)
{
	struct rc_page_region vec[RC_SCAN_VEC];
	struct rc_scan_arg a = {
		.size = sizeof a, .start = lo, .end = hi,
		.vec = (uint64_t)(uintptr_t)vec, .vec_len = RC_SCAN_VEC,
		.category_anyof_mask = RC_PAGE_IS_PRESENT | RC_PAGE_IS_SWAPPED,
		.return_mask = RC_PAGE_IS_PRESENT | RC_PAGE_IS_SWAPPED,
	};

	while (a.start < hi) {
		long n = ioctl(fd, RC_PAGEMAP_SCAN, &a);
		if (n < 0)
			return -1;
		for (long i = 0; i < n; i++)
			if (push_range(out, vec[i].start, vec[i].end) < 0)
				return -1;
		if (a.walk_end <= a.start)
			return -1;
		a.start = a.walk_end;
	}
	return 0;
}

/* Without PAGEMAP_SCAN: 8 bytes of /proc/PID/pagemap per page. */
static int read_present(int fd, uint64_t lo, uint64_t hi,
			struct rc_ranges *out)
{
	uint64_t v[1024];

	for (uint64_t at = lo; at < hi;) {
		uint64_t n = (hi - at) / PAGE > 1024 ? 1024 : (hi - at) / PAGE;
		size_t want = n * sizeof *v, got = 0;
		while (got < want) {
			ssize_t r = pread(fd, (char *)v + got, want - got,
					  (off_t)((at / PAGE) * sizeof *v +
						  got));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				return -1;
			got += (size_t)r;
		}
		for (uint64_t i = 0; i < n; i++)
			if ((v[i] & (PM_PRESENT | PM_SWAPPED)) &&
			    push_range(out, at + i * PAGE,
				       at + (i + 1) * PAGE) < 0)
				return -1;
		at += n * PAGE;
	}
	return 0;
}

static int present(int fd, uint64_t lo, uint64_t hi, struct rc_ranges *out)
{
	/* X86SMC_NO_PAGEMAP_SCAN=1: the fallback, as on a kernel before
	 * 6.7 (tests) */
	static int no_scan = -1;

	if (no_scan < 0)
		no_scan = rc_env("X86SMC_NO_PAGEMAP_SCAN");
	if (!no_scan) {
		int n = out->n;
		if (scan_present(fd, lo, hi, out) == 0)
			return 0;
		if (errno != ENOTTY && errno != EINVAL && errno != ENOSYS)
			return -1;
		no_scan = 1; /* an older kernel */
		out->n = n;
	}
	return read_present(fd, lo, hi, out);
}

/* The remote iovecs of a batch of pages, and the buffer they go through. */
struct batch {
	struct iovec rem[RC_IOV];
	int n;
	size_t bytes;
	uint8_t *buf; /* RC_IOV pages */
};

static int flush_batch(struct batch *b, pid_t from, pid_t to)
{
	struct iovec loc = { b->buf, b->bytes };

	if (!b->n)
		return 0;
	if (process_vm_readv(from, &loc, 1, b->rem, (unsigned long)b->n, 0) !=
		    (ssize_t)b->bytes ||
	    process_vm_writev(to, &loc, 1, b->rem, (unsigned long)b->n, 0) !=
		    (ssize_t)b->bytes)
		return -1;
	b->n = 0;
	b->bytes = 0;
	return 0;
}

static int add_page(struct batch *b, uint64_t addr, pid_t from, pid_t to)
{
	if (b->n && (uint64_t)b->rem[b->n - 1].iov_base +
				    b->rem[b->n - 1].iov_len == addr &&
	    b->bytes + PAGE <= RC_IOV * PAGE) {
		b->rem[b->n - 1].iov_len += PAGE;
		b->bytes += PAGE;
		return 0;
	}
	if ((b->n == RC_IOV || b->bytes + PAGE > RC_IOV * PAGE) &&
	    flush_batch(b, from, to) < 0)
		return -1;
	b->rem[b->n++] = (struct iovec){ (void *)addr, PAGE };
	b->bytes += PAGE;
	return 0;
}

/* Copy into p the pages of c's ranges cr[0..ncr) and of p's pr[0..npr)
 * (both sorted): every page present in either. */
static int copy_union(struct rc_ctx *x, const struct rc_range *cr, int ncr,
		      const struct rc_range *pr, int npr, struct batch *b)
{
	int i = 0, j = 0;
	uint64_t done = 0; /* pages below are queued */

	while (i < ncr || j < npr) {
		const struct rc_range *r;
		if (j >= npr || (i < ncr && cr[i].lo <= pr[j].lo))
			r = &cr[i++];
		else
			r = &pr[j++];
		for (uint64_t at = r->lo > done ? r->lo : done; at < r->hi;
		     at += PAGE) {
			if (add_page(b, at, x->c->pid, x->p->pid) < 0)
				return -1;
			x->pages++;
		}
		if (r->hi > done)
			done = r->hi;
	}
	return 0;
}

/* A mapping of the program's: not [vvar], [vdso] and the like. */
static bool ours(const struct rc_maps *m, const struct rc_line *y)
{
	const char *s = m->text + y->off;

	return !y->special || memmem(s, y->len, "[stack]", 7) ||
	       memmem(s, y->len, "[heap]", 6);
}

static int open_pagemap(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof path, "/proc/%d/pagemap", pid);
	return open(path, O_RDONLY | O_CLOEXEC);
}

/* c's present pages in its private writable mappings (c never changes:
 * once). */
static int c_present(struct rc_ctx *x)
{
	struct rc_maps *cm = x->cmaps;
	int fd;

	if (cm->have_present)
		return 0;
	fd = open_pagemap(x->c->pid);
	if (fd < 0)
		return -1;
	cm->present.n = 0;
	for (int j = 0; j < cm->n; j++) {
		struct rc_line *y = &cm->l[j];
		y->first = cm->present.n;
		if (y->wpriv && ours(cm, y) &&
		    present(fd, y->lo, y->hi, &cm->present) < 0) {
			close(fd);
			return -1;
		}
		y->count = cm->present.n - y->first;
	}
	close(fd);
	cm->have_present = true;
	return 0;
}

/* The dispositions x->sig[] and the alternate signal stack set in p:
 * each struct written into the first page c has present (restored
 * after), then rt_sigaction or sigaltstack injected. */
static int set_sigactions(struct rc_ctx *x)
{
	const struct rc_ranges *cp = &x->cmaps->present;
	long ret;

	if (!x->nsig && !x->set_altstack)
		return 0;
	if (!cp->n)
		return -1;
	if (x->set_altstack) {
		long a[6] = { (long)cp->r[0].lo, 0 };
		struct iovec l = { x->altstack, sizeof x->altstack },
			     r = { (void *)cp->r[0].lo, sizeof x->altstack };
		if (process_vm_writev(x->p->pid, &l, 1, &r, 1, 0) !=
			    (ssize_t)sizeof x->altstack ||
		    proc_syscall(x->p, x->syscall_pc, SYS_sigaltstack, a,
				 &ret) < 0 ||
		    ret != 0)
			return -1;
	}
	for (int i = 0; i < x->nsig; i++) {
		long a[6] = { x->sig[i], (long)cp->r[0].lo, 0, 8 };
		struct iovec l = { x->act[i], sizeof x->act[i] },
			     r = { (void *)cp->r[0].lo, sizeof x->act[i] };
		if (process_vm_writev(x->p->pid, &l, 1, &r, 1, 0) !=
			    (ssize_t)sizeof x->act[i] ||
		    proc_syscall(x->p, x->syscall_pc, SYS_rt_sigaction, a,
				 &ret) < 0 ||
		    ret != 0)
			return -1;
	}
	return 0;
}

int rc_restore_memory(struct rc_ctx *x, const char **why)
{
	struct batch *b = NULL;
	struct rc_ranges pr = { 0 };
	int r = -1, fd = -1;

	*why = "out of memory";
	x->pages = 0;
	if (rc_maps_read(&x->pmaps, x->p->pid) < 0) {
		*why = "cannot read the process's maps";
		return -1;
	}
	r = match_maps(x->p, &x->pmaps, x->cmaps, x->syscall_pc, why);
	if (r > 0) { /* what it changed must give c's lines exactly */
		if (rc_maps_read(&x->pmaps, x->p->pid) < 0)
			return -1;
		r = match_maps(x->p, &x->pmaps, x->cmaps, x->syscall_pc, why);
		if (r > 0)
			*why = "the map differs after munmap and mmap";
	}
	if (r != 0)
		return -1;
	r = -1;
	b = malloc(sizeof *b);
	if (!b || !(b->buf = malloc(RC_IOV * PAGE)))
		goto out;
	b->n = 0;
	b->bytes = 0;
	*why = "cannot read a pagemap or copy a page";
	fd = open_pagemap(x->p->pid);
	if (fd < 0 || c_present(x) < 0)
		goto out;
	if (set_sigactions(x) < 0) {
		*why = "cannot set a signal's disposition back";
		goto out;
	}
	for (int j = 0; j < x->cmaps->n; j++) {
		const struct rc_line *y = &x->cmaps->l[j];
		if (!y->wpriv || !ours(x->cmaps, y))
			continue;
		pr.n = 0;
		if (present(fd, y->lo, y->hi, &pr) < 0 ||
		    copy_union(x, x->cmaps->present.r + y->first, y->count,
			       pr.r, pr.n, b) < 0)
			goto out;

	}
	if (flush_batch(b, x->c->pid, x->p->pid) < 0)
		goto out;
	r = 0;
out:
	if (fd >= 0)
		close(fd);
	free(pr.r);
	if (b)
		free(b->buf);
	free(b);
	return r;
}

/* Compare [lo, hi) of p and c; -1 (logged) at the first difference. */
static int compare(struct rc_ctx *x, const struct rc_line *y, uint64_t lo,
		   uint64_t hi, uint8_t *a, uint8_t *b, size_t cap)
{
	for (uint64_t at = lo; at < hi; at += cap) {
		size_t n = hi - at < cap ? hi - at : cap;
		struct iovec la = { a, n }, lb = { b, n }, r = { (void *)at, n };
		if (process_vm_readv(x->p->pid, &la, 1, &r, 1, 0) !=
			    (ssize_t)n ||
		    process_vm_readv(x->c->pid, &lb, 1, &r, 1, 0) !=
			    (ssize_t)n)
			continue; /* guard pages and the like */
		for (size_t i = 0; i < n; i++)
			if (a[i] != b[i]) {
				pr_err("recycle check: %#lx differs (%02x, "
				       "checkpoint %02x) in %.*s",
				       (unsigned long)(at + i), a[i], b[i],
				       (int)y->len, x->cmaps->text + y->off);
				return -1;
			}
	}
	return 0;
}

/* X86SMC_RECYCLE_CHECK: every readable private mapping of c byte for byte
 * against p's (of a writable one, the pages present in either: reading
 * the others would make them present). */
int rc_check(struct rc_ctx *x)
{
	size_t cap = 1 << 20;
	uint8_t *a = malloc(cap), *b = malloc(cap);
	struct rc_ranges pr = { 0 };
	int bad = !a || !b, fd = open_pagemap(x->p->pid);

	for (int j = 0; fd >= 0 && j < x->cmaps->n && !bad; j++) {
		const struct rc_line *y = &x->cmaps->l[j];
		if (!y->readable || !y->priv || !ours(x->cmaps, y))
			continue;
		if (!y->wpriv) {
			bad = compare(x, y, y->lo, y->hi, a, b, cap) < 0;
			continue;
		}
		pr.n = 0;
		if (present(fd, y->lo, y->hi, &pr) < 0) {
			bad = 1;
			break;
		}
		for (int k = 0; k < pr.n && !bad; k++)
			bad = compare(x, y, pr.r[k].lo, pr.r[k].hi, a, b,
				      cap) < 0;
		for (int k = 0; k < y->count && !bad; k++) {
			const struct rc_range *r =
				&x->cmaps->present.r[y->first + k];
			bad = compare(x, y, r->lo, r->hi, a, b, cap) < 0;
		}
	}
	if (fd >= 0)
		close(fd);
	free(pr.r);
	free(a);
	free(b);
	return bad || fd < 0 ? -1 : 0;
}
