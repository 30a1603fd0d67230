/* races.h — the data-race monitor (--races; on under SV-COMP's
 * no-data-race property), as in CHESS: it watches each execution's
 * events and reports the first data race in it.
 *
 * A data race: two accesses to overlapping bytes by different threads,
 * at least one a write, at least one not atomic, neither happening before
 * the other through synchronisation.  Atomic: a locked instruction or
 * xchg with memory (EV_RMW, which is how gcc compiles __atomic read-
 * modify-writes and seq_cst stores), and the accesses of a
 * __VERIFIER_atomic_* section (EV_ATOMIC).  A plain mov is not atomic,
 * whatever the source says (__atomic_load_n compiles to one): at the
 * binary level nothing tells them apart.
 *
 * Happens-before here is that of synchronisation only, not DPOR's
 * (which also orders every pair of conflicting accesses): vector clocks
 * over the logical threads (not the store buffers' update threads),
 * joined along
 *   - program order;
 *   - thread creation (the child starts with its parent's clock) and the
 *     wakes an event causes (a futex wake, an exit waking a joiner);
 *   - objects: an event that synchronises (pthread calls as one event,
 *     futex operations, thread exit and join, library calls run as one
 *     step -- the malloc family, stdio --, locked instructions, atomic
 *     sections) acquires the clocks released on each 8-byte granule it
 *     accesses and then releases its own clock there.  So an unlock
 *     happens before the next lock of that mutex, an exit before the
 *     join, a locked write before the locked read of it, free() before the
 *     malloc() that returns the same block.
 * Accesses are shadowed byte by byte (partial overlaps are races of the
 * bytes in common), up to RACE_MAX_BYTES of one access; per byte the
 * last write and the last read of each thread (at most RACE_READERS
 * readers; beyond, the oldest read is forgotten).
 *
 * Since DPOR explores every happens-before class of executions (its
 * happens-before is finer than this one), a race in some execution is
 * found in the explored execution of its class.  Off, the monitor costs
 * nothing and changes no count. */
#ifndef X86SMC_RACES_H
#define X86SMC_RACES_H
#include <stdbool.h>
#include <stdint.h>

#include "tracer/tracer.h"

#define RACE_MAX_BYTES 256
#define RACE_READERS 8

struct race_access {
	int tid;
	uint64_t pc;
	uint64_t addr; /* the first byte in common */
	bool write, atomic;
};

/* a: the earlier access, b: the later one (of the event that found it) */
struct race {
	struct race_access a, b;
	unsigned event;        /* b's event index in the execution */
};

struct races;

struct races *races_new(void);
void races_free(struct races *m);
/* Forget everything: a new execution begins. */
void races_reset(struct races *m);
/* The next event of the execution, its index k.  Returns 1 with *out at
 * the first race it completes, 0 if none, -1 out of memory. */
int races_event(struct races *m, unsigned k, const struct tr_event *ev,
		struct race *out);

#endif
