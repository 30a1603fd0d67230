/* alarm.c — a SIGALRM from alarm() while two threads run: the kernel's
 * timer, not the program's code, sends it, and x86smc does not model
 * timer signals.  It must say so (exit 2), not report the signal as the
 * program's crash ("killed by SIGALRM", a false error before). */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static volatile sig_atomic_t fired;

static void on_alarm(int sig)
{
	(void)sig;
	fired = 1;
}

static void *idle(void *arg)
{
	(void)arg;
	return NULL;
}

int main(void)
{
	pthread_t t;

	signal(SIGALRM, on_alarm);
	pthread_create(&t, NULL, idle, NULL);
	alarm(1);
	while (!fired)
		pause();
	pthread_join(t, NULL);
	printf("fired\n");
	return 0;
}
