/* fork.c — starts another process after creating a thread (with the
 * argument "early": before).  x86smc checks one multi-threaded process and
 * refuses fork/vfork/exec with a message. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void *worker(void *arg)
{
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t;
	pid_t pid;

	if (argc > 1 && strcmp(argv[1], "early") == 0 && fork() == 0)
		_exit(0);
	pthread_create(&t, NULL, worker, NULL);
	pid = fork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	pthread_join(t, NULL);
	return 0;
}
