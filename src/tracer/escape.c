/* escape.c — a hash set of escaped 8-byte granules. */
#include "tracer/escape.h"

#include <stdlib.h>

static size_t slot_of(const struct escape_set *s, uint64_t g)
{
	size_t i = (size_t)((g * 0x9e3779b97f4a7c15ull) >> 17) & (s->cap - 1);

	while (s->slot[i] && s->slot[i] != g + 1)
		i = (i + 1) & (s->cap - 1);
	return i;
}

static bool has(const struct escape_set *s, uint64_t g)
{
	return s->cap && s->slot[slot_of(s, g)] == g + 1;
}

static int grow(struct escape_set *s)
{
	struct escape_set n = { calloc(s->cap ? 2 * s->cap : 256, 8),
				s->cap ? 2 * s->cap : 256, s->n };

	if (!n.slot)
		return -1;
	for (size_t i = 0; i < s->cap; i++)
		if (s->slot[i])
			n.slot[slot_of(&n, s->slot[i] - 1)] = s->slot[i];
	free(s->slot);
	*s = n;
	return 0;
}

bool esc_contains(const struct escape_set *s, uint64_t addr, uint64_t size)
{
	uint64_t last = size ? addr + size - 1 : addr;

	if (!s || s->n == 0)
		return false;
	for (uint64_t g = addr >> 3; g <= last >> 3; g++)
		if (has(s, g))
			return true;
	return false;
}

size_t esc_add(struct escape_set *s, uint64_t addr, uint64_t size)
{
	uint64_t last = size ? addr + size - 1 : addr;
	size_t added = 0;

	for (uint64_t g = addr >> 3; g <= last >> 3; g++) {
		if (has(s, g))
			continue;
		if (2 * (s->n + 1) > s->cap && grow(s) < 0)
			return added;
		s->slot[slot_of(s, g)] = g + 1;
		s->n++;
		added++;
	}
	return added;
}

void esc_free(struct escape_set *s)
{
	free(s->slot);
	s->slot = NULL;
	s->cap = s->n = 0;
}
