/* wrong_output.c — two threads each append their letter to a shared line
 * under a mutex; the program is meant to print "ab" (a first), but
 * nothing orders the threads: the line can be "ba".  Only the output
 * shows it: --expect-stdout samples/wrong_output.expected makes such an
 * execution an error of kind wrong-output (issue 17, output oracles).
 */
// expect sc: wrong-output
// expect tso: wrong-output
// expect pso: wrong-output
// x86smc: --expect-stdout samples/wrong_output.expected
#include <string.h>
#include "common.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static char line[3];
static int len;

static void *append(void *arg)
{
	pthread_mutex_lock(&m);
	line[len++] = *(const char *)arg;
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	xcreate(&a, append, "a");
	xcreate(&b, append, "b");
	xjoin(a);
	xjoin(b);
	printf("%s\n", line);
	return 0;
}
