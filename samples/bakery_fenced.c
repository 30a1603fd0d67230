/* bakery_fenced.c — bakery.c with the MFENCEs TSO needs: after raising
 * choosing[me] (before reading the other's ticket) and after lowering it
 * (which also makes number[me] visible before the other's flags are
 * read).  No error under SC or TSO.  PSO still breaks it: there the
 * two stores number[me] = 1 + n and choosing[me] = 0 can reach memory in
 * the opposite order (two locations, two FIFOs), so the other thread can
 * see choosing[me] == 0 with number[me] still 0 and walk in; PSO needs a
 * store-store fence between them too.
 */
// expect sc: ok
// expect tso: ok
// expect pso: assertion
#include "common.h"
#define FENCE() __asm__ volatile("mfence" ::: "memory")
#include "bakery.c"
