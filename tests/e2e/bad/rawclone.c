/* rawclone.c — a thread, then clone(CLONE_VM) without CLONE_THREAD: a
 * process sharing memory, which x86smc cannot model. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>

static char stack[65536] __attribute__((aligned(16)));

static int child(void *arg)
{
	return arg != NULL;
}

static void *worker(void *arg)
{
	return arg;
}

int main(void)
{
	pthread_t t;
	int pid;

	pthread_create(&t, NULL, worker, NULL);
	pid = clone(child, stack + sizeof stack, CLONE_VM | SIGCHLD, NULL);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	pthread_join(t, NULL);
	return 0;
}
