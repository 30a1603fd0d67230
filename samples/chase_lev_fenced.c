/* chase_lev_fenced.c — chase_lev.c with the MFENCE pop() needs between
 * publishing the new bottom and reading top.  No error under SC, TSO or
 * PSO (push()'s two stores, which PSO could reorder, happen before the
 * thief exists; pop()'s stores to bottom are ordered by the fence and by
 * being to one location).
 */
// expect sc: ok
// expect tso: ok
// expect pso: ok
#include "common.h"
#define POP_FENCE() __asm__ volatile("mfence" ::: "memory")
#include "chase_lev.c"
