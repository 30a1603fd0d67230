/* hashset.h — the set of distinct happens-before trace hashes seen (the
 * "hb classes" count), bounded so that memory does not grow with the
 * number of executions. */
#ifndef X86SMC_HASHSET_H
#define X86SMC_HASHSET_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HASHSET_MAX (1u << 20) /* distinct hashes kept, at most (8 MB) */

struct hashset {
	uint64_t *slot; /* open addressing, 0 marks a free slot */
	size_t n, cap;
	bool full;      /* HASHSET_MAX reached: n is a lower bound */
};

void hashset_add(struct hashset *s, uint64_t h);
void hashset_free(struct hashset *s);
#endif
