/* signals.c — installs handlers; a thread signals the main thread
 * (pthread_kill) and main signals itself (raise) before and after.  Each
 * handler runs when expected in every interleaving; the program ends
 * normally: x86smc must model it (verdict ok), not refuse it. */
#include <assert.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static volatile sig_atomic_t got_usr1, got_usr2;
static pthread_t main_thread;

static void on_usr1(int sig)
{
	(void)sig;
	got_usr1++;
}

static void on_usr2(int sig)
{
	(void)sig;
	got_usr2++;
}

static void *worker(void *arg)
{
	pthread_kill(main_thread, SIGUSR1);
	return arg;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	pthread_t t;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGUSR2, on_usr2);
	raise(SIGUSR2);
	assert(got_usr2 == 1);
	main_thread = pthread_self();
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL); /* the handler has run by the time it returns */
	assert(got_usr1 == 1);
	raise(SIGUSR2);
	assert(got_usr2 == 2);
	printf("handlers ran: usr1 %d usr2 %d\n", (int)got_usr1, (int)got_usr2);
	return 0;
}
