/* determinism.c — everything a program reads from its environment that
 * changes from run to run natively: time(), clock_gettime (REALTIME,
 * MONOTONIC), gettimeofday (all through the vDSO natively), getrandom,
 * rdtsc/rdtscp, getpid, gettid, plus a nanosleep and a timed wait that
 * times out (the clock must reach its deadline).  Main prints one line
 * before it creates threads (x86smc runs it natively then), two threads
 * print one line each (under control), main prints one more after the
 * joins (native again).  Under x86smc every line must be the same in every
 * run of x86smc and in a --replay of a schedule; the per-thread values
 * (pid, tid, random bytes) are the same in every interleaving, the clock
 * values depend on the order of the reads (one global virtual clock).
 * With the argument "fail" main exits with status 1 at the end, so that
 * --trace-out writes a schedule (tests/e2e: the determinism case).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "common.h"

#include <errno.h>
#include <semaphore.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

static long ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000L + ts->tv_nsec;
}

/* One line of everything; checks what must hold whatever the values. */
static void report(const char *who)
{
	struct timespec rt, mono, mono2;
	struct timeval tv;
	unsigned long long r = 0, tsc, tscp;
	unsigned aux;
	char line[256];
	time_t t;
	int n;

	t = time(NULL);
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	gettimeofday(&tv, NULL);
	if (getrandom(&r, sizeof r, 0) != sizeof r)
		r = 0;
	tsc = __rdtsc();
	tscp = __rdtscp(&aux);
	clock_gettime(CLOCK_MONOTONIC, &mono2);
	assert(ns(&mono2) > ns(&mono)); /* monotonic */
	assert(tscp >= tsc);
	/* formatted on the stack, one write: stdio's shared buffer would
	 * add hundreds of events to explore */
	n = snprintf(line, sizeof line, "%s pid=%d tid=%ld rnd=%016llx | "
		     "time=%ld rt=%ld.%09ld mono=%ld.%09ld tod=%ld.%06ld "
		     "tsc=%llu tscp=%llu\n",
		     who, (int)getpid(), (long)syscall(SYS_gettid), r, (long)t,
		     (long)rt.tv_sec, rt.tv_nsec, (long)mono.tv_sec,
		     mono.tv_nsec, (long)tv.tv_sec, (long)tv.tv_usec, tsc, tscp);
	if (write(1, line, (size_t)n) != n)
		exit(2);
}

static void *worker(void *arg)
{
	report(arg);
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec a, b, nap = { 1, 500000000 }, deadline;
	pthread_t t1, t2;
	sem_t never;

	report("main");
	clock_gettime(CLOCK_MONOTONIC, &a);
	nanosleep(&nap, NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	assert(ns(&b) - ns(&a) >= ns(&nap)); /* the clock counts sleeps */
	sem_init(&never, 0, 0);
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_nsec += 250000000;
	if (deadline.tv_nsec >= 1000000000) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000;
	}
	assert(sem_timedwait(&never, &deadline) == -1 && errno == ETIMEDOUT);
	clock_gettime(CLOCK_REALTIME, &b);
	assert(ns(&b) >= ns(&deadline)); /* a timeout moves the clock too */
	xcreate(&t1, worker, "T1");
	xcreate(&t2, worker, "T2");
	xjoin(t1);
	xjoin(t2);
	report("end");
	return argc > 1 && strcmp(argv[1], "fail") == 0;
}
