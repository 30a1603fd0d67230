/* wakeup_drain.c — what waits for an empty store buffer comes after the
 * buffer's update, though the two do not conflict.  t1 stores X (buffered
 * under tso) and then exchanges X inside a mutex; t3 reads X and then
 * exchanges it inside the same mutex; t2 stores X.  Under tso, t1's lock
 * (a locked instruction) cannot run before its buffer is empty.
 *
 * A wakeup sequence "t2's update, ..., t1's update, t1's lock" was
 * inserted below a branch where t1's lock came first: the two commute
 * for the weak-initial test (a thread's events and its own buffer's
 * updates are no race, dpor.c own_update), so t1 passed as a weak
 * initial of the sequence; at that node t1 could not run and the branch
 * was dropped: 3 of 22 outcomes missing under tso, "complete" (fuzz-peers
 * seed 3298).  For weak initials the update now conflicts with its
 * thread's events that need an empty buffer (wakeup.c, own_dep()), and
 * order inside a sequence follows the clocks of the execution it comes
 * from (a spawn before its child, a store before its update).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// x86smc: --keep-going
// outcome sc tso pso: exit 0: t3:0,0 t1:1
// outcome sc tso pso: exit 0: t3:0,0 t1:3
// outcome sc tso pso: exit 0: t3:0,1 t1:3
// outcome sc tso pso: exit 0: t3:0,1 t1:4
// outcome sc tso pso: exit 0: t3:0,2 t1:1
// outcome sc tso pso: exit 0: t3:0,2 t1:3
// outcome sc tso pso: exit 0: t3:0,3 t1:1
// outcome sc tso pso: exit 0: t3:0,3 t1:4
// outcome sc tso pso: exit 0: t3:1,1 t1:3
// outcome sc tso pso: exit 0: t3:1,1 t1:4
// outcome sc tso pso: exit 0: t3:1,2 t1:1
// outcome sc tso pso: exit 0: t3:1,2 t1:3
// outcome sc tso pso: exit 0: t3:1,3 t1:1
// outcome sc tso pso: exit 0: t3:1,3 t1:4
// outcome sc tso pso: exit 0: t3:2,2 t1:1
// outcome sc tso pso: exit 0: t3:2,2 t1:3
// outcome sc tso pso: exit 0: t3:2,3 t1:1
// outcome sc tso pso: exit 0: t3:3,1 t1:4
// outcome sc tso pso: exit 0: t3:3,2 t1:1
// outcome sc tso pso: exit 0: t3:3,2 t1:3
// outcome sc tso pso: exit 0: t3:3,3 t1:1
// outcome sc tso pso: exit 0: t3:3,3 t1:4
#include "common.h"
#include <stdatomic.h>
#include <stdio.h>

static atomic_int X;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

static void *t1(void *arg)
{
	long r;

	(void)arg;
	atomic_store_explicit(&X, 1, memory_order_release);
	pthread_mutex_lock(&M);
	r = atomic_exchange_explicit(&X, 2, memory_order_seq_cst);
	pthread_mutex_unlock(&M);
	return (void *)r;
}

static void *t2(void *arg)
{
	(void)arg;
	atomic_store_explicit(&X, 3, memory_order_relaxed);
	atomic_thread_fence(memory_order_seq_cst);
	return NULL;
}

static void *t3(void *arg)
{
	long r0, r1;

	(void)arg;
	r0 = atomic_load_explicit(&X, memory_order_relaxed);
	pthread_mutex_lock(&M);
	r1 = atomic_exchange_explicit(&X, 4, memory_order_relaxed);
	pthread_mutex_unlock(&M);
	return (void *)(r0 | r1 << 8);
}

int main(void)
{
	pthread_t th[3];
	void *r1, *r3;

	xcreate(&th[0], t1, NULL);
	xcreate(&th[1], t2, NULL);
	xcreate(&th[2], t3, NULL);
	if (pthread_join(th[2], &r3) != 0 || pthread_join(th[0], &r1) != 0)
		return 96;
	xjoin(th[1]);
	printf("t3:%ld,%ld t1:%ld\n", (long)r3 & 0xff, (long)r3 >> 8, (long)r1);
	return 0;
}
