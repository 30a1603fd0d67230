/* explicit_sched.c — threads created with PTHREAD_EXPLICIT_SCHED (NSPR
 * does this for every thread: SCTBench's RADBench bug6), their policy
 * read back, their CPU set asked.  glibc's pthread_create then holds the
 * new thread until it has called sched_setscheduler on the thread's tid;
 * pthread_getschedparam and pthread_getaffinity_np ask the kernel about
 * a tid too.  x86smc's tids are logical ones the kernel does not know:
 * before sys_sched emulated these calls, the create failed inside
 * pthread_create and x86smc reported a false deadlock after one event.
 *
 * Two such threads each read their own policy, priority and CPU set
 * and add 1 to x without a lock: x = 1 or 2.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: policy 0 prio 0 cpus 1 x=1
// outcome sc tso pso: exit 0: policy 0 prio 0 cpus 1 x=2
#define _GNU_SOURCE
#include "common.h"
#include <sched.h>

static volatile int x;
static int policy[2] = { -1, -1 }, prio[2] = { -1, -1 }, cpus[2];

/* each thread asks about itself (alive): a thread that has exited has no
 * tid any more, and asking the kernel about it fails (ESRCH) */
static void *add(void *arg)
{
	int i = (int)(long)arg;
	struct sched_param sp;
	cpu_set_t set;

	if (pthread_getschedparam(pthread_self(), &policy[i], &sp) == 0)
		prio[i] = sp.sched_priority;
	CPU_ZERO(&set);
	if (pthread_getaffinity_np(pthread_self(), sizeof set, &set) == 0)
		cpus[i] = CPU_COUNT(&set) >= 1;
	x = x + 1;
	return NULL;
}

int main(void)
{
	pthread_attr_t a;
	pthread_t t[2];
	struct sched_param sp = { .sched_priority = 0 };

	pthread_attr_init(&a);
	pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&a, SCHED_OTHER);
	pthread_attr_setschedparam(&a, &sp);
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], &a, add, (void *)(long)i) != 0)
			return 99;
	for (int i = 0; i < 2; i++)
		xjoin(t[i]);
	printf("policy %d prio %d cpus %d x=%d\n", policy[0] | policy[1],
	       prio[0] | prio[1], cpus[0] & cpus[1], x);
	return 0;
}
