/* wakeup_notdep.c — a reversal must carry everything the execution did
 * that does not depend on the race, not only what came before its second
 * event.  main fetch-adds Y; t1's helper stores X then Y; t3 exchanges X
 * twice, a helper thread storing Z after each exchange (the first one
 * joined); t2 fetch-adds Z and, if it read 0, exchanges it.
 *
 * "m:2 t3:1 t2:7" needs t3's first exchange, the helper's X and Y, main's
 * fetch-add, the first Z, t2, then t3's second exchange.  Optimal-DPOR
 * (JACM'17 Alg. 2) reverses a race (e, e') with v = notdep(e).e', where
 * notdep(e) is every event of the whole execution after e that does not
 * happen after e.  x86smc's wakeup trees took the events up to e' only:
 * the shorter v let main, asleep at e, pass as its weak initial ("main's
 * exploration covers v"), and the reversal of (t3's second exchange, the
 * helper's store of X) was dropped: 7 of 8 outcomes, "complete", under sc
 * and tso (Nidhugg 0.4 --optimal finds it).  The races are now inserted
 * when the execution ends, with notdep in full.  The same shape with
 * store buffers instead of helper threads was
 * tests/fuzz_explore/found/optimal_tso_lost_class.c.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// x86smc: --keep-going
// outcome sc tso pso: exit 0: m:0 t3:1 t2:0
// outcome sc tso pso: exit 0: m:0 t3:1 t2:7
// outcome sc tso pso: exit 0: m:0 t3:6 t2:0
// outcome sc tso pso: exit 0: m:0 t3:6 t2:7
// outcome sc tso pso: exit 0: m:2 t3:1 t2:0
// outcome sc tso pso: exit 0: m:2 t3:1 t2:7
// outcome sc tso pso: exit 0: m:2 t3:6 t2:0
// outcome sc tso pso: exit 0: m:2 t3:6 t2:7
#include "common.h"
#include <stdatomic.h>
#include <stdio.h>

static atomic_int X, Y, Z;

static void *xy(void *arg)
{
	(void)arg;
	atomic_store(&X, 1);
	atomic_store(&Y, 2);
	return NULL;
}

static void *z7(void *arg)
{
	(void)arg;
	atomic_store(&Z, 7);
	return NULL;
}

static void *t1(void *arg)
{
	pthread_t t;

	(void)arg;
	xcreate(&t, xy, NULL);
	xjoin(t);
	return NULL;
}

static void *t2(void *arg)
{
	long r = atomic_fetch_add(&Z, 1);

	(void)arg;
	if (r == 0)
		atomic_exchange(&Z, 3);
	return (void *)r;
}

static void *t3(void *arg)
{
	long r = 0;
	pthread_t t;

	(void)arg;
	r = atomic_exchange(&X, 6);
	xcreate(&t, z7, NULL);
	xjoin(t);
	r = atomic_exchange(&X, 6);
	xcreate(&t, z7, NULL);
	return (void *)r;
}

int main(void)
{
	pthread_t th[3];
	void *r2, *r3;

	xcreate(&th[0], t1, NULL);
	xcreate(&th[1], t2, NULL);
	xcreate(&th[2], t3, NULL);
	int m = atomic_fetch_add(&Y, 2);
	xjoin(th[0]);
	if (pthread_join(th[2], &r3) != 0 || pthread_join(th[1], &r2) != 0)
		return 96;
	printf("m:%d t3:%ld t2:%ld\n", m, (long)r3, (long)r2);
	return 0;
}
