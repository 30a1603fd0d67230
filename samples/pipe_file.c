/* pipe_file.c — kernel state that fork snapshots share (issue 15, hole
 * 10).  Before the threads start, main fills a pipe with "abc" and opens
 * this program's own file; then one thread reads a byte from each while
 * the other sets x.  Every execution is forked from the same snapshot,
 * and a forked process shares the pipe and the file offset with it: each
 * execution must find the pipe and the offset as they were, so every
 * outcome reads 'a' and the file's first byte (0x7f of "\177ELF").
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: a 7f 0
// outcome sc tso pso: exit 0: a 7f 1
#include <fcntl.h>
#include <unistd.h>
#include "common.h"

static int fds[2], file;
static volatile int x;

static void *reader(void *arg)
{
	unsigned char c = '?', d = '?';

	(void)arg;
	if (read(fds[0], &c, 1) != 1 || read(file, &d, 1) != 1)
		return NULL;
	printf("%c %x %d\n", c, d, x);
	return NULL;
}

static void *setter(void *arg)
{
	(void)arg;
	x = 1;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b;

	(void)argc;
	if (pipe(fds) != 0 || write(fds[1], "abc", 3) != 3)
		return 1;
	file = open(argv[0], O_RDONLY);
	if (file < 0)
		return 1;
	xcreate(&a, reader, NULL);
	xcreate(&b, setter, NULL);
	xjoin(a);
	xjoin(b);
	return 0;
}
