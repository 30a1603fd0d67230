/* tset.h — a set of thread ids (logical threads and update threads), a
 * fixed-size bitmap: bit t is id t, ids 0 .. TS_BITS-1.
 *
 * The search keeps several per event (enabled, explored, backtrack
 * threads) and the tracer one per event (the threads it woke), so the
 * set is a plain value: passed and returned by copy, compared with
 * ts_eq, never allocated.  Every operation takes ids in range; ts_has
 * of an id out of range is false and ts_add of one is a no-op, so a
 * caller never writes outside the words. */
#ifndef X86SMC_TSET_H
#define X86SMC_TSET_H

#include <stdbool.h>
#include <stdint.h>

#define TS_WORDS 4
#define TS_BITS (64 * TS_WORDS)

typedef struct {
	uint64_t w[TS_WORDS];
} tset;

static inline tset ts_empty(void)
{
	return (tset){ { 0 } };
}

static inline bool ts_has(tset s, int t)
{
	return t >= 0 && t < TS_BITS && (s.w[t >> 6] >> (t & 63) & 1);
}

static inline void ts_add(tset *s, int t)
{
	if (t >= 0 && t < TS_BITS)
		s->w[t >> 6] |= 1ull << (t & 63);
}

static inline void ts_del(tset *s, int t)
{
	if (t >= 0 && t < TS_BITS)
		s->w[t >> 6] &= ~(1ull << (t & 63));
}

static inline tset ts_one(int t)
{
	tset s = ts_empty();

	ts_add(&s, t);
	return s;
}

/* Ids [lo, hi). */
static inline tset ts_range(int lo, int hi)
{
	tset s = ts_empty();

	for (int k = 0; k < TS_WORDS; k++) {
		int a = lo - 64 * k, b = hi - 64 * k;
		uint64_t m;

		a = a < 0 ? 0 : a;
		b = b > 64 ? 64 : b;
		if (a >= b)
			continue;
		m = b == 64 ? ~0ull : (1ull << b) - 1;
		s.w[k] = m & ~((1ull << a) - 1);
	}
	return s;
}

static inline tset ts_or(tset a, tset b)
{
	for (int k = 0; k < TS_WORDS; k++)
		a.w[k] |= b.w[k];
	return a;
}

static inline tset ts_and(tset a, tset b)
{
	for (int k = 0; k < TS_WORDS; k++)
		a.w[k] &= b.w[k];
	return a;
}

/* a without b's ids */
static inline tset ts_minus(tset a, tset b)
{
	for (int k = 0; k < TS_WORDS; k++)
		a.w[k] &= ~b.w[k];
	return a;
}

static inline bool ts_any(tset s)
{
	uint64_t o = 0;

	for (int k = 0; k < TS_WORDS; k++)
		o |= s.w[k];
	return o != 0;
}

static inline bool ts_none(tset s)
{
	return !ts_any(s);
}

/* Do a and b share an id? */
static inline bool ts_meets(tset a, tset b)
{
	return ts_any(ts_and(a, b));
}

static inline bool ts_eq(tset a, tset b)
{
	for (int k = 0; k < TS_WORDS; k++)
		if (a.w[k] != b.w[k])
			return false;
	return true;
}

static inline int ts_count(tset s)
{
	int n = 0;

	for (int k = 0; k < TS_WORDS; k++)
		n += __builtin_popcountll(s.w[k]);
	return n;
}

/* The smallest id in s greater than or equal to from; -1 if none.
 * Iterate: for (int t = ts_next(s, 0); t >= 0; t = ts_next(s, t + 1)). */
static inline int ts_next(tset s, int from)
{
	if (from < 0)
		from = 0;
	for (int k = from >> 6; k < TS_WORDS; k++) {
		uint64_t w = s.w[k];

		if (k == from >> 6)
			w &= ~0ull << (from & 63);
		if (w)
			return 64 * k + __builtin_ctzll(w);
	}
	return -1;
}

static inline int ts_first(tset s)
{
	return ts_next(s, 0);
}

/* The first 64 ids as a word (a report column, a hash). */
static inline uint64_t ts_word(tset s, int k)
{
	return k >= 0 && k < TS_WORDS ? s.w[k] : 0;
}

#endif
