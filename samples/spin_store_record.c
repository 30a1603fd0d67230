/* spin_store_record.c — the spin lock of SCTBench's CHESS work-stealing
 * queues (WorkStealQueueWithState.h): every try writes the thread's state
 * record (pc 0, then pc 1 and the retry count before sleep(0)) and
 * exchanges the lock word.  Two threads take the lock twice each around
 * a plain counter increment.  The record makes each iteration store, so
 * x86smc did not take the loop for a wait and ran executions to
 * --max-steps (10 of 17 in 89 s); now an iteration that leaves the
 * record as the one before left it is a wait (docs/EXPLORATION.md, "Loops
 * that store").  The lock is correct in every model (the exchange is a
 * full barrier; under pso the release is an xchg too).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// x86smc: --keep-going
// outcome sc tso pso: exit 0: counter 4
#include <unistd.h>

#include "common.h"

struct record {
	int pc;
	long retries;
};

static long lock;
static int counter;
static struct record rec[2];

static void acquire(int self)
{
	long retries = 0;

	for (;;) {
		rec[self].pc = 0;
		rec[self].retries = retries;
		if (__atomic_exchange_n(&lock, 1, __ATOMIC_SEQ_CST) == 0)
			return;
		retries++;
		rec[self].pc = 1;
		rec[self].retries = retries;
		sleep(0);
		retries = 0;
	}
}

static void release(void)
{
	__atomic_exchange_n(&lock, 0, __ATOMIC_SEQ_CST);
}

static void *worker(void *arg)
{
	int self = (int)(long)arg;

	for (int i = 0; i < 2; i++) {
		acquire(self);
		counter++;
		release();
	}
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	xcreate(&a, worker, (void *)0L);
	xcreate(&b, worker, (void *)1L);
	xjoin(a);
	xjoin(b);
	printf("counter %d\n", counter);
	return 0;
}
