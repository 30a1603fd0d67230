/* accset.c — sets of at most cap (EV_MAX_ACC) access ranges (atomic sections,
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

/* Pseudo-locations (fds, the kernel, futex queues: tracer.h) lie above
 * every user address; a range joining one with memory would cover the
 * stacks and mappings in between. */
static bool pseudo(const struct dec_access *a)
{
	return a->addr >= 1ull << 47;
}

/* The bytes between a and b if they may be joined, else UINT64_MAX. */
static uint64_t join_gap(const struct dec_access *a,
			 const struct dec_access *b)
{
	return pseudo(a) == pseudo(b) ? gap(a, b) : UINT64_MAX;
}

static void join(struct dec_access *v, const struct dec_access *a)
{
	uint64_t lo = v->addr < a->addr ? v->addr : a->addr;
	uint64_t hi = end_of(v) > end_of(a) ? end_of(v) : end_of(a);

	v->addr = lo;
	v->size = hi - lo;
	v->rw |= a->rw;
}

void acc_merge(struct dec_access *v, int *n, int cap,
	       const struct dec_access *a)
{
	int bi = -1, bj = -1;
	uint64_t best = UINT64_MAX;

	if (!a->size)
		return;
	for (int i = 0; i < *n; i++)
		if (v[i].rw == a->rw && gap(&v[i], a) == 0 &&
		    pseudo(&v[i]) == pseudo(a)) {
			join(&v[i], a);
			return;
		}
	if (*n < cap) {
		v[*n] = *a;
		v[(*n)++].kind = DEC_MEM_EXPLICIT;
		return;
	}
	/* full: join the two closest ranges of v and a (of one kind) */
	for (int i = 0; i < *n; i++) {
		uint64_t g = join_gap(&v[i], a);
		if (g < best) {
			best = g;
			bi = i;
			bj = -1;
		}
		for (int j = i + 1; j < *n; j++)
			if ((g = join_gap(&v[i], &v[j])) < best) {
				best = g;
				bi = i;
				bj = j;
			}
	}
	if (bi < 0) { /* nothing of a's kind: the closest of any kind */
		bi = 0;
		for (int i = 1; i < *n; i++)
			if (gap(&v[i], a) < gap(&v[bi], a))
				bi = i;
	}
	if (bj < 0) {
		join(&v[bi], a);
		return;
	}
	join(&v[bi], &v[bj]); /* a takes the freed place */
	v[bj] = *a;
	v[bj].kind = DEC_MEM_EXPLICIT;
}
