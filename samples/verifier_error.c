/* verifier_error.c — __VERIFIER_error() reached, SV-COMP style.  Two
 * threads increment a shared counter with a separate load and store (no
 * lock); main calls __VERIFIER_error() when an increment was lost.  The
 * function is defined here as SV-COMP tasks do (an abort), but x86smc
 * intercepts it at its symbol whatever its body: the error has its own
 * kind, "verifier-error", located at the call.
 *
 * Every model can lose an increment (both threads load 0 before either
 * stores): the error is found under sc, tso and pso.  Natively the
 * program prints "counter = 2" (the race is rarely hit).
 */
// expect sc: verifier-error
// expect tso: verifier-error
// expect pso: verifier-error
#include "common.h"

extern void __VERIFIER_error(void);
__attribute__((noipa, noreturn)) void __VERIFIER_error(void) { abort(); }

static int counter;

static void *inc(void *arg)
{
	(void)arg;
	int v = *(volatile int *)&counter;
	*(volatile int *)&counter = v + 1;
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	xcreate(&a, inc, NULL);
	xcreate(&b, inc, NULL);
	xjoin(a);
	xjoin(b);
	if (counter != 2)
		__VERIFIER_error();
	printf("counter = %d\n", counter);
	return 0;
}
