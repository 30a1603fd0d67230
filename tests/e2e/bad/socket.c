/* socket.c — a thread reads a socket that main filled before the threads
 * started: what one execution reads cannot be put back for the next
 * (src/tracer/fdstate.c), so x86smc refuses it, naming the socket. */
#include <pthread.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

static int sv[2];

static void *reader(void *arg)
{
	char c = '?';

	(void)arg;
	if (read(sv[0], &c, 1) == 1)
		printf("%c\n", c);
	return NULL;
}

int main(void)
{
	pthread_t t;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0 ||
	    write(sv[1], "abc", 3) != 3)
		return 1;
	pthread_create(&t, NULL, reader, NULL);
	pthread_join(t, NULL);
	return 0;
}
