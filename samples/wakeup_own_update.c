/* wakeup_own_update.c — a read from the thread's own store buffer is not
 * the same event after the buffer's update.  Three threads store 1, 2, 3
 * to Z (relaxed: buffered under tso); t1 then reads Z back; main reads Z
 * once.  The reads-from classes: the order of the three updates times
 * what each read sees, 48 of them (GenMC 0.11 and Nidhugg 0.4 count 48
 * under sc and tso).
 *
 * t1's read before its own update reads 1 from its buffer; x86smc treats
 * the pair as commuting (same value either way, dpor.c own_update).  But
 * after the update the read is one from memory, which can see a later
 * update of another thread.  Optimal-DPOR, asked whether t1 asleep with
 * its buffered read was a weak initial of a reversal containing t1's
 * update, said yes and dropped it: under tso 44 executions, "complete"
 * (fuzz-peers seed 3198).  For weak initials the update now conflicts
 * with its thread's buffered reads (wakeup.c, own_dep()).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// x86smc: --keep-going
#include "common.h"
#include <stdatomic.h>
#include <stdio.h>

static atomic_int Z;

static void *t1(void *arg)
{
	(void)arg;
	atomic_store_explicit(&Z, 1, memory_order_relaxed);
	return (void *)(long)atomic_load_explicit(&Z, memory_order_relaxed);
}

static void *t2(void *arg)
{
	(void)arg;
	atomic_store_explicit(&Z, 2, memory_order_relaxed);
	return NULL;
}

static void *t3(void *arg)
{
	(void)arg;
	atomic_store_explicit(&Z, 3, memory_order_relaxed);
	return NULL;
}

int main(void)
{
	pthread_t th[3];
	void *r1;

	xcreate(&th[0], t1, NULL);
	xcreate(&th[1], t2, NULL);
	xcreate(&th[2], t3, NULL);
	int m = atomic_load_explicit(&Z, memory_order_acquire);
	xjoin(th[2]);
	if (pthread_join(th[0], &r1) != 0)
		return 96;
	xjoin(th[1]);
	printf("m:%d t1:%ld\n", m, (long)r1);
	return 0;
}
