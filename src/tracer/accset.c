/* accset.c — sets of at most DEC_MAX_MEM access ranges (atomic sections,
 * syscalls and library calls whose accesses are more than an event
 * holds).  Joining ranges can only add conflicts, never hide one. */
#include "tracer/tracer_priv.h"

static uint64_t end_of(const struct dec_access *a)
{
	return a->addr + a->size;
}

/* The bytes between a and b (0 if they touch or overlap). */
static uint64_t gap(const struct dec_access *a, const struct dec_access *b)
{
	if (a->addr >= end_of(b))
		return a->addr - end_of(b);
	if (b->addr >= end_of(a))
		return b->addr - end_of(a);
	return 0;
}

void acc_merge(struct dec_access *v, int *n, const struct dec_access *a)
{
	int best = -1;

	if (!a->size)
		return;
	for (int i = 0; i < *n && best < 0; i++)
		if (v[i].rw == a->rw && gap(&v[i], a) == 0)
			best = i;
	if (best < 0 && *n < DEC_MAX_MEM) {
		v[*n] = *a;
		v[(*n)++].kind = DEC_MEM_EXPLICIT;
		return;
	}
	if (best < 0) { /* full: the closest range grows */
		best = 0;
		for (int i = 1; i < *n; i++)
			if (gap(&v[i], a) < gap(&v[best], a))
				best = i;
	}
	uint64_t lo = v[best].addr < a->addr ? v[best].addr : a->addr;
	uint64_t hi = end_of(&v[best]) > end_of(a) ? end_of(&v[best])
						    : end_of(a);
	v[best].addr = lo;
	v[best].size = hi - lo;
	v[best].rw |= a->rw;
}
