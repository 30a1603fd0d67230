/* svcomp/race_global.c — a data race on a global (--races).
 *
 * Both threads increment `hits`: main under a mutex, the worker without
 * taking it.  The mutex orders nothing between them: the worker's read
 * and write race with main's.  The monitor reports kind data-race with
 * both accesses and their lines; under the property no-data-race the
 * answer is false.
 */
// expect sc: data-race
// expect tso: data-race
// x86smc: --races
// svcomp no-data-race: false
#include "../common.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int hits;

static void *worker(void *arg)
{
	(void)arg;
	*(volatile int *)&hits += 1; /* no lock */
	return NULL;
}

int main(void)
{
	pthread_t t;

	xcreate(&t, worker, NULL);
	pthread_mutex_lock(&m);
	*(volatile int *)&hits += 1;
	pthread_mutex_unlock(&m);
	xjoin(t);
	printf("hits = %d\n", hits);
	return 0;
}
