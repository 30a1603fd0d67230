/*
 * found/exh_prefix_not_fit.c -- exhaustive (--jobs 1) stopped with an
 * internal error once: "x86smc: internal error: the replayed prefix does not
 * fit (the target is not deterministic?)" (exit 2).
 *
 * fuzz_explore seed 3011, compiled with -O2 (857a208), not minimised: seen
 * once, while the machine was very busy; 0 of 18 later runs (6 idle, 12
 * beside two spinning shells) failed: 1870 executions, complete.
 *
 *   x86smc --model pso --keep-going --strategy exhaustive --max-executions 2000 --timeout 20 PROG
 *       expected: exit 0, complete (1870 executions, 1 hb class)
 *       got (once): exit 2 with the message above
 * A second time on seed 3090 (-O0, an escape of a local and a spin on
 * its acknowledgement; pso exhaustive stopped so after 274 executions);
 * 8 reruns of that went to 2000 executions without error.  Both times
 * pso, exhaustive, --jobs 1, on a busy machine.
 */
/* x86smc fuzz_explore program: seed 3011, class plain, features: atomic end_join_all pexit struct */
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

static struct { volatile char a; volatile short b; volatile int c; volatile long d; } S;
static volatile char X;
static volatile long Y;
static volatile int Z;

static void *t1(void *arg)
{
	long r0 = 0, r1 = 0, r2 = 0, r3 = 0;

	(void)arg;
	r0 = __atomic_fetch_add(&S.b, 1, __ATOMIC_SEQ_CST);
	return PACK(r0, r1, r2, r3);
}

static void *t2(void *arg)
{
	long r0 = 0, r1 = 0, r2 = 0, r3 = 0;

	(void)arg;
	Y = 8169900539465765121L;
	return PACK(r0, r1, r2, r3);
}

static void *t3(void *arg)
{
	long r0 = 0, r1 = 0, r2 = 0, r3 = 0;

	(void)arg;
	r0 = __atomic_exchange_n(&S.d, 8242240712303841794L, __ATOMIC_SEQ_CST);
	pthread_exit(PACK(r0, r1, r2, r3));
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
	if (pthread_create(&th[3], NULL, t3, NULL) != 0)
		return 95;
	pthread_join(th[2], &ret[2]);
	pthread_join(th[3], &ret[3]);
	pthread_join(th[1], &ret[1]);
	printf("m: t2: t3:%lu t1:%lu\n", UNP(ret[3], 0), UNP(ret[1], 0));
	(void)r0;
	(void)r1;
	(void)ret;
	return 0;
}
