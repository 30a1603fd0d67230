/* common.h — shared by the samples.  Every sample states its own expected
 * verdict in a header comment, one line per memory model, read by the e2e
 * harness (tests/e2e/run.sh):
 *
 *   // expect sc:  ok
 *   // expect tso: assertion
 *   // expect pso: assertion
 *
 * Optional, the exact set of outcomes under some models, one line each:
 *   // outcome sc tso: exit 0: LINE   stdout LINE + "\n" (several lines
 *                                    joined by \n, or none), status
 *                                    exit N or signal SIGNAME
 * Verdicts: ok, assertion, crash, deadlock, livelock, exit-code, verifier-error
 * (reach_error).  Optional lines:  // args: A B C   arguments to pass
 *                                 // x86smc: --opt  extra x86smc options
 */
#ifndef X86SMC_SAMPLE_COMMON_H
#define X86SMC_SAMPLE_COMMON_H
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static inline void xcreate(pthread_t *t, void *(*f)(void *), void *arg)
{
	if (pthread_create(t, NULL, f, arg) != 0) {
		perror("pthread_create");
		exit(99);
	}
}

static inline void xjoin(pthread_t t)
{
	if (pthread_join(t, NULL) != 0) {
		perror("pthread_join");
		exit(99);
	}
}
#endif
