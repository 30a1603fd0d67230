/* (b) FIXED (crash sleeps with the end's accesses; samples/crash_after_output.c);
 * (a) remains for --strategy optimal only.
 * found/crash_vs_output_sc.c -- under sc, a COMPLETE dpor search lacks
 * outcomes of two kinds, in a program where one thread may crash:
 *   (a) "t2 2": t3's X = 2 between t2's X = 1 and its load of X, a plain
 *       store/load race that Optimal-DPOR never reverses here (Source-DPOR
 *       does);
 *   (b) the crash of t1 after other threads' output ("t3\n"/SIGSEGV,
 *       "t2 1\nt3\n"/SIGSEGV, ...): neither dpor nor source reaches them,
 *       random sampling does.
 *
 * From fuzz_explore seed 10004 (campaign of issue 15, ffa5c3a; run.py
 * --minimize 10004 --model sc --kind dpor-missing, then by hand; checked
 * again with main at 6242291).  t1 dereferences P (SIGSEGV unless t2 has
 * set it), t2 stores and reloads X then sets P, t3 stores X; each writes
 * one line; main prints "m" and calls pthread_exit.
 *
 *   sc dpor 51 executions, complete, 7 outcomes: ""/SIGSEGV and the six
 *      orders of "t1 7", "t2 1", "t3" followed by "m" (exit 0)
 *   sc --strategy source: 75 executions, complete, 13 outcomes: also the
 *      six orders with "t2 2"
 *   sc random (--seed 3, 300 executions) reaches "t3\n"/SIGSEGV,
 *      "t2 1\nt3\n"/SIGSEGV, "t3\nt2 1\n"/SIGSEGV, "t3\nt2 2\n"/SIGSEGV
 *      and "t2 2" orders: none of the SIGSEGV ones is in either set
 *   tso dpor 45 executions, 7 outcomes.  Same numbers in 2 of 2 runs.
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static volatile char X;
static volatile int PT = 7;
static volatile int *volatile P;

static void say(const char *s, int n)
{
	if (write(1, s, (size_t)n) < 0)
		_exit(97);
}

static void *t1(void *arg)
{
	(void)arg;
	int v = *P;	/* SIGSEGV unless t2 set P first */
	say(v == 7 ? "t1 7\n" : "t1 ?\n", 5);
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
	X = 1;
	char x = X;
	P = &PT;
	say(x == 1 ? "t2 1\n" : "t2 2\n", 5);
	return NULL;
}

static void *t3(void *arg)
{
	(void)arg;
	X = 2;
	say("t3\n", 3);
	return NULL;
}

int main(void)
{
	pthread_t th[3];

	if (pthread_create(&th[0], NULL, t1, NULL) != 0 ||
	    pthread_create(&th[1], NULL, t2, NULL) != 0 ||
	    pthread_create(&th[2], NULL, t3, NULL) != 0)
		return 95;
	printf("m\n");
	pthread_exit(NULL);
}
