/* szymanski_fenced.c — szymanski.c with an MFENCE after every flag store.
 * No error under any model.
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "common.h"
#define FENCE() __asm__ volatile("mfence" ::: "memory")
#include "szymanski.c"
