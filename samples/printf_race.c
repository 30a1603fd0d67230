/* printf_race.c — a stdio call run as one step reads the program memory
 * its arguments point to (issue 15, hole 7): main prints the shared
 * strings G and H with printf while a thread changes G[0], then H[1]; a
 * second thread prints "n" if printf's %n has stored the count.  Every
 * order of the three is an outcome; under pso the two stores of the
 * thread may also reach memory in the other order.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: 1 2.5 3.50 xy ab
// outcome sc tso pso: exit 0: 1 2.5 3.50 xy Bb
// outcome sc tso pso: exit 0: 1 2.5 3.50 xY Bb
// outcome sc tso pso: exit 0: 1 2.5 3.50 xy ab\nn
// outcome sc tso pso: exit 0: 1 2.5 3.50 xy Bb\nn
// outcome sc tso pso: exit 0: 1 2.5 3.50 xY Bb\nn
// outcome pso: exit 0: 1 2.5 3.50 xY ab
// outcome pso: exit 0: 1 2.5 3.50 xY ab\nn
#include "common.h"

static char G[4] = "ab";
static char H[4] = "xy";
static volatile int N;

static void *change(void *arg)
{
	(void)arg;
	G[0] = 'B';
	H[1] = 'Y';
	return NULL;
}

static void *count(void *arg)
{
	(void)arg;
	if (N)
		puts("n");
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	int n = 0;

	xcreate(&a, change, NULL);
	xcreate(&b, count, NULL);
	/* a long double and doubles before the strings: the argument
	 * walk must skip them right */
	printf("%d %.1Lf %.2f %s %s%n\n", 1, (long double)2.5, 3.5, H, G, &n);
	N = n;
	xjoin(a);
	xjoin(b);
	return 0;
}
