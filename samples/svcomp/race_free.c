/* svcomp/race_free.c — shared data that never races (--races).
 *
 * Every way two threads may touch the same bytes is ordered here:
 *   - main writes `config` before creating the workers; they read it;
 *   - the workers add to `total` under a mutex;
 *   - they count with __atomic_fetch_add (locked instructions) only;
 *   - each writes its own half of a malloc'd buffer, and its own byte of
 *     `flags` (adjacent bytes, no byte in common);
 *   - a worker writes its slot on main's stack; main reads it after the
 *     join;
 *   - main reads everything after joining.
 * The monitor reports no race; under no-data-race the answer is true.
 */
// expect sc: ok
// expect tso: ok
// x86smc: --races
// svcomp no-data-race: true
#include "../common.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int config, total, count;
static char flags[2];
static int *buf;

struct arg {
	int id;
	int *slot;
};

static void *worker(void *p)
{
	struct arg *a = p;

	pthread_mutex_lock(&m);
	*(volatile int *)&total += *(volatile int *)&config;
	pthread_mutex_unlock(&m);
	__atomic_fetch_add(&count, 1, __ATOMIC_SEQ_CST);
	((volatile int *)buf)[a->id * 2] = a->id;
	((volatile int *)buf)[a->id * 2 + 1] = a->id;
	((volatile char *)flags)[a->id] = 1;
	*(volatile int *)a->slot = a->id + 10;
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	int slots[2] = { 0, 0 };
	struct arg args[2] = { { 0, &slots[0] }, { 1, &slots[1] } };

	config = 3;
	buf = malloc(4 * sizeof *buf);
	for (int i = 0; i < 2; i++)
		xcreate(&t[i], worker, &args[i]);
	for (int i = 0; i < 2; i++)
		xjoin(t[i]);
	printf("total %d count %d flags %d%d slots %d %d buf %d\n", total,
	       count, flags[0], flags[1], slots[0], slots[1], buf[3]);
	free(buf);
	return 0;
}
