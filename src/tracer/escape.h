/* escape.h — which 8-byte granules of thread-private memory (a thread's
 * stack and TLS mappings) another thread has touched.
 *
 * An access by thread T to its own stack/TLS is invisible (no event)
 * until some other thread accesses the same granule; from then on the
 * granule is *escaped* and every access to it is an event.  The set
 * outlives one execution (the explorer owns it and restarts the search
 * when it grows, so that all executions agree on what is an event). */
#ifndef X86SMC_ESCAPE_H
#define X86SMC_ESCAPE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct escape_set {
	uint64_t *slot; /* open addressing, granule+1 (0 = empty) */
	size_t cap, n;
};

bool esc_contains(const struct escape_set *s, uint64_t addr, uint64_t size);
/* Mark [addr, addr+size); returns how many granules were new. */
size_t esc_add(struct escape_set *s, uint64_t addr, uint64_t size);
void esc_free(struct escape_set *s);
#endif
