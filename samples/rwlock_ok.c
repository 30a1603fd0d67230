/* rwlock_ok.c — 1 writer bumps a pair (a, b) under the write lock, keeping
 * a == b; 1 reader asserts a == b under the read lock (it sees 0,0 or 1,1,
 * never a half-done update).  Main prints "a = 1, b = 1" in every
 * interleaving.  (rwlock.c is the bigger one.)
 */
// x86smc: --max-executions 30
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "common.h"

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static int a, b;

static void *writer(void *arg)
{
	(void)arg;
	pthread_rwlock_wrlock(&rw);
	a++;
	b++;
	pthread_rwlock_unlock(&rw);
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	pthread_rwlock_rdlock(&rw);
	int x = a, y = b;
	pthread_rwlock_unlock(&rw);
	assert(x == y);
	return NULL;
}

int main(void)
{
	pthread_t w, r;

	xcreate(&r, reader, NULL);
	xcreate(&w, writer, NULL);
	xjoin(w);
	xjoin(r);
	assert(a == 1 && b == 1);
	printf("a = %d, b = %d\n", a, b);
	return 0;
}
