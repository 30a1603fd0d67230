/* svcomp/race_overlap.c — a data race of accesses that only partly
 * overlap (--races).
 *
 * main writes a 4-byte int at offset 0 of a struct; the worker writes
 * the byte at offset 2 through a char pointer: two bytes in common, a
 * race (the worker's write of offset 4, `tag`, touches none of main's
 * bytes and is no race on its own).
 */
// expect sc: data-race
// x86smc: --races
#include "../common.h"

static struct {
	int word;
	char tag;
} s;

static void *worker(void *arg)
{
	(void)arg;
	*(volatile char *)&s.tag = 1;
	((volatile char *)&s.word)[2] = 1;
	return NULL;
}

int main(void)
{
	pthread_t t;

	xcreate(&t, worker, NULL);
	*(volatile int *)&s.word = 5;
	xjoin(t);
	printf("word = %#x\n", s.word);
	return 0;
}
