/* oom.c — exhausts its memory: the address space is limited (RLIMIT_AS,
 * 64 MB above what it uses) and a thread allocates 1 MB blocks until
 * malloc fails, then asserts.  x86smc must report the assertion and leave
 * nothing behind. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

static long vm_size(void)
{
	long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%ld", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	return pages * 4096;
}

static void *hog(void *arg)
{
	long mb = 0;

	(void)arg;
	while (malloc(1 << 20))
		mb++;
	assert(mb < 0 && "out of memory");
	return NULL;
}

int main(void)
{
	struct rlimit rl;
	pthread_t t;

	/* the thread's stack (8 MB) and its malloc arena are inside too */
	rl.rlim_cur = rl.rlim_max = (rlim_t)vm_size() + (80l << 20);
	setrlimit(RLIMIT_AS, &rl);
	pthread_create(&t, NULL, hog, NULL);
	pthread_join(t, NULL);
	return 0;
}
