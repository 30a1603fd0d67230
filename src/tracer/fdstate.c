/* fdstate.c — the kernel state a fork snapshot shares with its copies.
 *
 * fork() copies the descriptor table, not the open files behind it: a
 * snapshot, its checkpoints and every execution forked from them share
 * each file offset and each pipe's contents.  An execution that reads 3
 * bytes of a file or a pipe would leave the next one 3 bytes further
 * (issue 15, hole 10).  So with every snapshot and checkpoint we save, for
 * the descriptors open then (3 and up: 0 is /dev/null, 1 and 2 are
 * captured), what a later execution could change:
 *   - a regular file or block device: its offset, set back on restore
 *     (the tracer takes a copy of the descriptor with pidfd_getfd, which
 *     shares the open file, and lseeks it);
 *   - a pipe or FIFO it can read: its unread bytes, put back on restore
 *     (drained, then written again through /proc/PID/fd/N opened for
 *     writing);
 *   - anything else readable (a socket, a terminal, a character device):
 *     nothing can be put back.  Reading it under control ends the
 *     execution as unsupported, naming the object (fdstate_refuses).
 * A file's contents written by an execution are not restored (its size
 * and bytes stay as the last execution left them): docs/LIMITS.md. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tracer/tracer_priv.h"

enum fd_kind { FD_FILE, FD_PIPE, FD_OTHER };

struct fd_saved {
	int fd;
	enum fd_kind kind;
	off_t pos;   /* FD_FILE */
	char *data;  /* FD_PIPE: its unread bytes */
	size_t len;
	char what[80]; /* FD_OTHER: what it is, for the message */
};

static int target_fd(int pidfd, int fd)
{
	return (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
}

/* "pos:" and "flags:" of /proc/PID/fdinfo/FD. */
static int fdinfo(pid_t pid, int fd, long long *pos, int *flags)
{
	char path[64], line[128];
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/fdinfo/%d", pid, fd);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		sscanf(line, "pos: %lld", pos);
		sscanf(line, "flags: %o", (unsigned *)flags);
	}
	fclose(f);
	return 0;
}

/* Read the n unread bytes of the pipe behind rfd (they are there: no
 * blocking). */
static char *drain(int rfd, size_t n)
{
	char *b = malloc(n ? n : 1);
	size_t got = 0;

	while (b && got < n) {
		ssize_t r = read(rfd, b + got, n - got);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	return b;
}

static size_t unread(int fd)
{
	int n = 0;

	return ioctl(fd, FIONREAD, &n) == 0 && n > 0 ? (size_t)n : 0;
}

/* Write b[0..n) into the pipe fd of pid, through a new write end. */
static int refill(pid_t pid, int fd, const char *b, size_t n)
{
	char path[64];
	size_t done = 0;
	int w;

	if (!n)
		return 0;
	snprintf(path, sizeof path, "/proc/%d/fd/%d", pid, fd);
	w = open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK);
	if (w < 0)
		return -1;
	while (done < n) {
		ssize_t r = write(w, b + done, n - done);
		if (r <= 0)
			break;
		done += (size_t)r;
	}
	close(w);
	return done == n ? 0 : -1;
}

static int save_one(struct fdstate *s, pid_t pid, int pidfd, int fd)
{
	char path[64], link[80] = "";
	long long pos = 0;
	int flags = 0, acc;
	struct fd_saved v = { .fd = fd };
	struct stat st;

	snprintf(path, sizeof path, "/proc/%d/fd/%d", pid, fd);
	if (readlink(path, link, sizeof link - 1) < 0 ||
	    stat(path, &st) < 0 || fdinfo(pid, fd, &pos, &flags) < 0)
		return 0; /* closed meanwhile, or not ours to see */
	acc = flags & O_ACCMODE;
	if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)) {
		v.kind = FD_FILE;
		v.pos = (off_t)pos;
	} else if (S_ISFIFO(st.st_mode) && acc != O_WRONLY) {
		int r = target_fd(pidfd, fd);
		if (r < 0)
			return -1;
		v.kind = FD_PIPE;
		v.len = unread(r);
		v.data = drain(r, v.len);
		close(r);
		if (!v.data || refill(pid, fd, v.data, v.len) < 0) {
			free(v.data);
			return -1;
		}
	} else if (acc != O_WRONLY && !S_ISFIFO(st.st_mode) &&
		   strcmp(link, "/dev/null") && strcmp(link, "/dev/zero") &&
		   strcmp(link, "/dev/urandom") && strcmp(link, "/dev/random")) {
		v.kind = FD_OTHER;
		snprintf(v.what, sizeof v.what, "%s", link);
	} else {
		return 0;
	}
	struct fd_saved *n = realloc(s->v, (size_t)(s->n + 1) * sizeof *n);
	if (!n) {
		free(v.data);
		return -1;
	}
	s->v = n;
	s->v[s->n++] = v;
	return 0;
}

int fdstate_capture(struct fdstate *s, pid_t pid)
{
	char path[64];
	struct dirent *e;
	DIR *d;
	int pidfd, r = 0;

	memset(s, 0, sizeof *s);
	snprintf(path, sizeof path, "/proc/%d/fd", pid);
	d = opendir(path);
	if (!d)
		return -1;
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	while (r == 0 && (e = readdir(d))) {
		int fd = atoi(e->d_name);
		if (e->d_name[0] == '.' || fd < 3)
			continue;
		r = pidfd < 0 ? -1 : save_one(s, pid, pidfd, fd);
	}
	closedir(d);
	if (pidfd >= 0)
		close(pidfd);
	return r;
}

int fdstate_restore(const struct fdstate *s, pid_t pid)
{
	int pidfd, r = 0;

	if (!s->n)
		return 0;
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0)
		return -1;
	for (int i = 0; i < s->n && r == 0; i++) {
		const struct fd_saved *v = &s->v[i];
		int fd;
		if (v->kind == FD_OTHER)
			continue;
		fd = target_fd(pidfd, v->fd);
		if (fd < 0)
			continue; /* closed in the snapshot since: nothing */
		if (v->kind == FD_FILE && lseek(fd, v->pos, SEEK_SET) < 0)
			r = -1;
		if (v->kind == FD_PIPE) {
			free(drain(fd, unread(fd)));
			r = refill(pid, v->fd, v->data, v->len);
		}
		close(fd);
	}
	close(pidfd);
	return r;
}

const char *fdstate_refuses(const struct fdstate *s, int fd)
{
	for (int i = 0; i < s->n; i++)
		if (s->v[i].fd == fd && s->v[i].kind == FD_OTHER)
			return s->v[i].what;
	return NULL;
}

void fdstate_free(struct fdstate *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->v[i].data);
	free(s->v);
	memset(s, 0, sizeof *s);
}
