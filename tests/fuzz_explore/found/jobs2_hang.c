/*
 * found/jobs2_hang.c -- --jobs 2 under pso made no progress: 0 executions
 * in 40 s, then "x86smc: a --jobs worker did not stop within 3 s: killed, its
 * results are lost" / "stopped by --timeout 40 s" (exit 3, complete false).
 *
 * fuzz_explore seed 3016 (857a208), not minimised: seen once, while the
 * machine was very busy (load average about 7); 0 of 46 later runs (pso and
 * tso, --jobs 2) failed.  --jobs 1: 1 execution, complete, 0.1 s.
 *
 *   x86smc --model pso --keep-going --jobs 2 --timeout 40 PROG
 *       expected: exit 0, complete, 1 execution (as --jobs 1)
 *       got (once): exit 3, 0 executions, 43 s
 * A second time with seed 3180 (tso, --jobs 2): all 12 executions done, then
 * no exit until the 40 s --timeout (exit 3, complete false); 12 reruns took
 * 0.1-0.2 s (but 10-12 executions: jobs-count).
 */
/* x86smc fuzz_explore program: seed 3016, class plain, features: atomic end_join_all fence mutex small struct */
#include <assert.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* An observation, folded to 16 bits (exact below 65521), and four of them
 * packed in a thread's return value. */
#define FOLD(v) ((unsigned long)(v) % 65521UL)
#define PACK(a, b, c, d) ((void *)(FOLD(a) | FOLD(b) << 16 | FOLD(c) << 32 | FOLD(d) << 48))
#define UNP(p, k) (((unsigned long)(p) >> (16 * (k))) & 0xffff)

/* A thread that main does not join prints its own line, formatted on its
 * stack (no shared memory touched) and written with one write(2). */
static __attribute__((noinline, unused)) void report(int t, long a, long b, long c, long d, int n)
{
	char buf[96];
	long v[4] = { a, b, c, d };
	int len = 0;

	buf[len++] = 't';
	buf[len++] = (char)('0' + t);
	buf[len++] = ':';
	for (int i = 0; i < n; i++) {
		unsigned long x = FOLD(v[i]);
		char tmp[8];
		int k = 0;

		do {
			tmp[k++] = (char)('0' + x % 10);
			x /= 10;
		} while (x);
		while (k)
			buf[len++] = tmp[--k];
		if (i + 1 < n)
			buf[len++] = ',';
	}
	buf[len++] = '\n';
	if (write(1, buf, (size_t)len) < 0)
		_exit(97);
}

static volatile long X;
static volatile char Y;
static struct { volatile char a; volatile short b; volatile int c; volatile long d; } S;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

static void *t1(void *arg)
{
	long r0 = 0, r1 = 0, r2 = 0, r3 = 0;

	(void)arg;
	r0 = __atomic_load_n(&S.a, __ATOMIC_RELAXED);
	pthread_mutex_lock(&M);
	r1 = __atomic_exchange_n(&S.a, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&M);
	return PACK(r0, r1, r2, r3);
}

static void *t2(void *arg)
{
	long r0 = 0, r1 = 0, r2 = 0, r3 = 0;

	(void)arg;
	X = 8242240712303841794L;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return PACK(r0, r1, r2, r3);
}

int main(void)
{
	pthread_t th[4];
	void *ret[4] = { 0 };
	long r0 = 0, r1 = 0;

	if (pthread_create(&th[1], NULL, t1, NULL) != 0)
		return 95;
	if (pthread_create(&th[2], NULL, t2, NULL) != 0)
		return 95;
	pthread_join(th[2], &ret[2]);
	pthread_join(th[1], &ret[1]);
	printf("m: t2: t1:%lu,%lu\n", UNP(ret[1], 0), UNP(ret[1], 1));
	(void)r0;
	(void)r1;
	(void)ret;
	return 0;
}
