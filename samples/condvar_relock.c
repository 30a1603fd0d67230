/* condvar_relock.c — condvar_pc.c cut down (2 producers, 2 consumers, one
 * item each, a 2-slot ring): a consumer's pthread_cond_wait returns by
 * locking the mutex again, after another thread's unlock.  That relock
 * races with the lock that began the other critical section -- unless
 * the consumer was woken by a signal sent inside that very section: then
 * it happens after that lock through the wake-up, and moved before it,
 * it could not run (dpor.c race_target).  Reversed anyway, each such
 * branch ended sleep-set blocked under tso: 48 executions + 16 blocked,
 * now 48 + 0 (tests/e2e/counts.txt).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
// outcome sc tso pso: exit 0: consumed 2 items, sum 32
#include "common.h"
#define ITEMS 1
#include "condvar_pc.c"
