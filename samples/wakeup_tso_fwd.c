/* wakeup_tso_fwd.c — a read its own store buffer serves is a read at the
 * place of that store's update.  t1 stores 1 to Y and reads it back; t2
 * stores 2 to Y and increments it (a locked RMW: it waits for its own
 * store's update); main reads Y once.
 *
 * Under tso t1's read is served by its buffer until t1's update: wherever
 * it runs before the update it reads 1, and it can see t2's increment
 * only after that update.  Optimal-DPOR's weak-initial test judged the
 * read as of the end of the execution (update done: a read of memory
 * that conflicts with t2's update) rather than where the reversal put
 * the update, built a branch "t2's store, t2's update" beside t1's read,
 * and then let that branch and t1 asleep each stand for the other's
 * reversal: "m:1 t1:2 t2:1" and "m:2 t1:2 t2:1" were never run (28
 * executions, 16 of 18 outcomes, "complete"; fuzz-peers seed 4409 cut
 * down).  wakeup.c as_seen places the read at its update: 24 executions,
 * the 24 classes Source-DPOR and GenMC count.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// x86smc: --keep-going
// outcome sc tso pso: exit 0: m:0 t1:1 t2:1
// outcome sc tso pso: exit 0: m:0 t1:1 t2:2
// outcome sc tso pso: exit 0: m:0 t1:2 t2:1
// outcome sc tso pso: exit 0: m:0 t1:2 t2:2
// outcome sc tso pso: exit 0: m:0 t1:3 t2:2
// outcome sc tso pso: exit 0: m:1 t1:1 t2:1
// outcome sc tso pso: exit 0: m:1 t1:1 t2:2
// outcome sc tso pso: exit 0: m:1 t1:2 t2:1
// outcome sc tso pso: exit 0: m:1 t1:2 t2:2
// outcome sc tso pso: exit 0: m:1 t1:3 t2:2
// outcome sc tso pso: exit 0: m:2 t1:1 t2:1
// outcome sc tso pso: exit 0: m:2 t1:1 t2:2
// outcome sc tso pso: exit 0: m:2 t1:2 t2:1
// outcome sc tso pso: exit 0: m:2 t1:2 t2:2
// outcome sc tso pso: exit 0: m:2 t1:3 t2:2
// outcome sc tso pso: exit 0: m:3 t1:1 t2:2
// outcome sc tso pso: exit 0: m:3 t1:2 t2:2
// outcome sc tso pso: exit 0: m:3 t1:3 t2:2
#include "common.h"
#include <stdatomic.h>
#include <stdio.h>

static atomic_int Y;

static void *t1(void *arg)
{
	(void)arg;
	atomic_store_explicit(&Y, 1, memory_order_relaxed);
	return (void *)(long)atomic_load_explicit(&Y, memory_order_relaxed);
}

static void *t2(void *arg)
{
	(void)arg;
	atomic_store_explicit(&Y, 2, memory_order_relaxed);
	return (void *)(long)atomic_fetch_add_explicit(&Y, 1,
						       memory_order_relaxed);
}

int main(void)
{
	pthread_t th[2];
	void *r1, *r2;

	xcreate(&th[0], t1, NULL);
	xcreate(&th[1], t2, NULL);
	int m = atomic_load_explicit(&Y, memory_order_relaxed);
	if (pthread_join(th[0], &r1) != 0 || pthread_join(th[1], &r2) != 0)
		return 96;
	printf("m:%d t1:%ld t2:%ld\n", m, (long)r1, (long)r2);
	return 0;
}
