/* hashset.c — see hashset.h. */
#include "dpor/hashset.h"

#include <stdlib.h>

static size_t home(uint64_t v, size_t cap)
{
	return (size_t)(v * 0x9e3779b97f4a7c15ull) & (cap - 1);
}

/* Kept at most half full; past HASHSET_MAX entries (or out of memory)
 * it stops growing and new hashes are no longer counted. */
static bool grow(struct hashset *s)
{
	size_t cap = s->cap ? 2 * s->cap : 1024;
	uint64_t *n;

	if (cap > 2 * HASHSET_MAX || !(n = calloc(cap, sizeof *n))) {
		s->full = true;
		return false;
	}
	for (size_t i = 0; i < s->cap; i++) {
		uint64_t v = s->slot[i];
		size_t j = home(v, cap);
		if (!v)
			continue;
		while (n[j])
			j = (j + 1) & (cap - 1);
		n[j] = v;
	}
	free(s->slot);
	s->slot = n;
	s->cap = cap;
	return true;
}

void hashset_add(struct hashset *s, uint64_t h)
{
	size_t j;

	if (!h)
		h = 1;
	if (2 * (s->n + 1) > s->cap && (s->full || !grow(s))) {
		/* full: a hash already in is still found, none is added */
		return;
	}
	j = home(h, s->cap);
	while (s->slot[j] && s->slot[j] != h)
		j = (j + 1) & (s->cap - 1);
	if (!s->slot[j]) {
		s->slot[j] = h;
		s->n++;
	}
}

void hashset_free(struct hashset *s)
{
	free(s->slot);
	*s = (struct hashset){ 0 };
}
