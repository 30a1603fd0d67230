/* section_wake.c — a thread woken inside an atomic section does not run
 * its rest at once: other threads can come first.
 *
 * T0 takes a token inside __VERIFIER_atomic_take(): when none is there yet
 * it waits in sem_wait, inside the section.  T1 puts turn = 1 and posts the
 * token in one section; T2 writes turn = 2.  When T0 had to wait, T1's post
 * wakes it, and T2's write can still come before the rest of T0's section
 * reads turn: "waited 1 got 2".  The rest of a section is an event of its
 * own (tracer/section.c); a woken section once ran alone, and this outcome
 * was never explored.  That is how x86smc runs Rust's channels (their send
 * and recv are sections, docs/LIBRARY.md): a receiver woken by one sender
 * always got that sender's message though another send could come first.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: waited 0 got 1
// outcome sc tso pso: exit 0: waited 0 got 2
// outcome sc tso pso: exit 0: waited 1 got 1
// outcome sc tso pso: exit 0: waited 1 got 2
#include <semaphore.h>

#include "common.h"

static sem_t token;
static int turn, got, waited;

__attribute__((noipa)) void __VERIFIER_atomic_take(void)
{
	if (sem_trywait(&token) != 0) {
		waited = 1;
		sem_wait(&token);
	}
	got = *(volatile int *)&turn;
}

__attribute__((noipa)) void __VERIFIER_atomic_give(void)
{
	*(volatile int *)&turn = 1;
	sem_post(&token);
}

static void *giver(void *arg)
{
	(void)arg;
	__VERIFIER_atomic_give();
	return NULL;
}

static void *writer(void *arg)
{
	(void)arg;
	*(volatile int *)&turn = 2;
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	sem_init(&token, 0, 0);
	xcreate(&a, giver, NULL);
	xcreate(&b, writer, NULL);
	__VERIFIER_atomic_take();
	xjoin(a);
	xjoin(b);
	printf("waited %d got %d\n", waited, got);
	return 0;
}
