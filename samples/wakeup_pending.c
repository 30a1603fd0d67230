/* wakeup_pending.c — a thread that could still run when the process
 * ended is tried there, its store buffer's update too.  t1 reads X, stores
 * 1 twice and fetch-adds X, asserting it did not read 1; t2 stores 2 and
 * reads X twice; main stores 3.  An assertion failure ends the process
 * with t2's update still pending.
 *
 * At the end, each thread that could still run is a branch there (its
 * event unknown: it conflicts with everything).  t2, asleep there with
 * a read its own buffer served, was taken as a weak initial of "t2's
 * update, unknown" (the read skips conflicts while its store is in the
 * buffer), so the update never ran before the failing fetch-add: the
 * executions where it does, and t2 then reads what t1 wrote, were lost
 * (fuzz-peers seed 3234: 2 of 27 outcomes missing under tso, which sc
 * reaches).
 */
// expect sc: assertion
// expect tso: assertion
// expect pso: assertion
// x86smc: --keep-going
// outcome sc tso pso: exit 0: t1:0,2 t2:2,2
// outcome sc tso pso: exit 0: t1:0,2 t2:2,3
// outcome sc tso pso: exit 0: t1:0,2 t2:3,3
// outcome sc tso pso: exit 0: t1:0,3 t2:1,1
// outcome sc tso pso: exit 0: t1:0,3 t2:1,3
// outcome sc tso pso: exit 0: t1:0,3 t2:1,4
// outcome sc tso pso: exit 0: t1:0,3 t2:2,1
// outcome sc tso pso: exit 0: t1:0,3 t2:2,2
// outcome sc tso pso: exit 0: t1:0,3 t2:2,3
// outcome sc tso pso: exit 0: t1:0,3 t2:2,4
// outcome sc tso pso: exit 0: t1:0,3 t2:3,3
// outcome sc tso pso: exit 0: t1:0,3 t2:3,4
// outcome sc tso pso: exit 0: t1:0,3 t2:4,4
// outcome sc tso pso: exit 0: t1:2,3 t2:1,1
// outcome sc tso pso: exit 0: t1:2,3 t2:1,3
// outcome sc tso pso: exit 0: t1:2,3 t2:1,4
// outcome sc tso pso: exit 0: t1:2,3 t2:2,1
// outcome sc tso pso: exit 0: t1:2,3 t2:2,2
// outcome sc tso pso: exit 0: t1:2,3 t2:2,3
// outcome sc tso pso: exit 0: t1:2,3 t2:2,4
// outcome sc tso pso: exit 0: t1:2,3 t2:3,3
// outcome sc tso pso: exit 0: t1:2,3 t2:3,4
// outcome sc tso pso: exit 0: t1:2,3 t2:4,4
// outcome sc tso pso: exit 0: t1:3,2 t2:2,2
// outcome sc tso pso: exit 0: t1:3,2 t2:2,3
// outcome sc tso pso: exit 0: t1:3,2 t2:3,3
// outcome sc tso pso: signal SIGABRT: 
#include "common.h"
#include <assert.h>
#include <stdatomic.h>
#include <stdio.h>

static atomic_int X;

static void *t1(void *arg)
{
	long r0, r1;

	(void)arg;
	r0 = atomic_load_explicit(&X, memory_order_seq_cst);
	for (int i = 0; i < 2; i++)
		atomic_store_explicit(&X, 1, memory_order_relaxed);
	r1 = atomic_fetch_add_explicit(&X, 1, memory_order_seq_cst);
	assert(r1 != 1);
	return (void *)(r0 | r1 << 8);
}

static void *t2(void *arg)
{
	long r0, r1;

	(void)arg;
	atomic_store_explicit(&X, 2, memory_order_release);
	r0 = atomic_load_explicit(&X, memory_order_relaxed);
	r1 = atomic_load_explicit(&X, memory_order_acquire);
	return (void *)(r0 | r1 << 8);
}

int main(void)
{
	pthread_t th[2];
	void *r1, *r2;

	xcreate(&th[0], t1, NULL);
	xcreate(&th[1], t2, NULL);
	atomic_store_explicit(&X, 3, memory_order_release);
	if (pthread_join(th[0], &r1) != 0 || pthread_join(th[1], &r2) != 0)
		return 96;
	printf("t1:%ld,%ld t2:%ld,%ld\n", (long)r1 & 0xff, (long)r1 >> 8,
	       (long)r2 & 0xff, (long)r2 >> 8);
	return 0;
}
