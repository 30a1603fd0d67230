/* found/optimal_sc_escape_exit.c -- Optimal-DPOR (--strategy dpor, the
 * default) under sc reports a COMPLETE search that never lets t1 write
 * through the escaped pointer before t2 reads its local back: no outcome
 * with "t2 6".
 *
 * From fuzz_explore seed 10008 (campaign of issue 15, ffa5c3a; run.py
 * --minimize 10008 --model sc --kind dpor-missing, then by hand).  t2
 * publishes the address of a local (5), reads it back and waits for t1's
 * acknowledgement; t1 writes 6 through the pointer if it is there yet;
 * main prints and returns without joining (the end of the process races
 * with both threads' output).
 *
 *   sc  dpor (Optimal): 43 executions, complete, 11 outcomes, none "t2 6"
 *   sc  --strategy source: 119 executions, complete, 19 outcomes: the
 *       same 11 plus 8 with "t2 6" ("t2 6\nt1\nm\n", "m\nt2 6\n", ...)
 *   tso dpor: 138 executions, 19 outcomes; tso source: 136, 19
 *   sc random (--seed 1, 300 executions) reaches "t2 6\nt1\nm\n".
 *   Same counts in 2 of 2 runs each.
 *
 * With main joining both threads before printing, dpor and source agree
 * (16 executions, 4 outcomes, "t2 6" included): the end of the process
 * racing with the threads is part of it.
 *
 * FIXED in 4c15bbc (119 executions, 19 outcomes, as Source-DPOR): the
 * end of the process (main's exit_group), asleep, passed as a weak
 * initial of the reversal; it commutes with nothing of another thread
 * now (src/dpor/wakeup.c ends(); samples/wakeup_end.c).
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static volatile long *volatile E;
static volatile int ACK;

static void *t1(void *arg)
{
	(void)arg;
	volatile long *p = E;
	if (p)
		*p = 6;
	ACK = 1;
	if (write(1, "t1\n", 3) < 0)
		_exit(97);
	return NULL;
}

static void *t2(void *arg)
{
	volatile long loc[1024];
	char buf[] = "t2 0\n";

	(void)arg;
	loc[512] = 5;
	E = &loc[512];
	buf[3] = (char)('0' + loc[512]);
	while (!ACK)
		;
	if (write(1, buf, 5) < 0)
		_exit(97);
	return NULL;
}

int main(void)
{
	pthread_t th[2];

	if (pthread_create(&th[0], NULL, t1, NULL) != 0 ||
	    pthread_create(&th[1], NULL, t2, NULL) != 0)
		return 95;
	printf("m\n");
	return 0;
}
