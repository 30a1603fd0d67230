/* sequential.c — a program that never creates a thread.  x86smc has nothing
 * to interleave: it should run it once, natively, and report its single
 * outcome (verdict ok), not refuse it.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "common.h"

static unsigned fib(unsigned n)
{
	unsigned a = 0, b = 1;
	while (n--) {
		unsigned t = a + b;
		a = b;
		b = t;
	}
	return a;
}

int main(void)
{
	unsigned f = fib(20);
	assert(f == 6765);
	printf("fib(20) = %u\n", f);
	return 0;
}
