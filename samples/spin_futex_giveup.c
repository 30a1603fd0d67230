/* spin_futex_giveup.c — spin_futex.c with a bug only a spin that runs
 * out reaches: a thread whose 100 reads all saw the lock held goes in
 * anyway, and an increment is lost.  x86smc must explore the spin giving
 * up (the counted spin's timeout), not only its being woken.
 */
// expect sc: assertion
// expect tso: assertion
// expect pso: assertion
#include "common.h"
#define ENTER_ON_GIVE_UP 1
#include "spin_futex.c"
