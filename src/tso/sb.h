/* sb.h — the store buffers of one thread: stores not yet visible to
 * other threads.  Under x86-TSO they form one FIFO; under PSO one FIFO per
 * location.  Both are kept as one list in program order whose entries
 * carry a tag (the buffer they belong to: tso tags all entries alike), so
 * that forwarding is the same for both: the newest entry covering a byte.
 *
 * Ownership: one struct sb per logical thread, owned by the tracer.  Its
 * entries are pushed when the thread performs a plain store (the store
 * event) and popped by the thread's auxiliary *update thread* (the update
 * event: the oldest entry is written to memory).  The thread's own loads
 * forward from it byte by byte, newest entry first (sb_forward), so a
 * 4-byte load over a buffered 1-byte store takes that byte from the
 * buffer and the other three from memory.  Locked instructions, MFENCE,
 * syscalls and thread operations wait until it is empty.
 */
#ifndef X86SMC_SB_H
#define X86SMC_SB_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracer/tset.h"

/* tags: the update threads' slots (tracer.h: TR_MAX_THREADS -
 * TR_AUX_BASE of them) */
#define SB_MAX_TAGS (TS_BITS / 2)

struct sb_entry {
	uint64_t addr;
	uint64_t size;
	uint8_t *bytes;
	int tag;
	uint32_t seq; /* 1 for the first store its tag ever held, then 2.. */
};

struct sb {
	struct sb_entry *e; /* ring of cap entries, n used from head */
	size_t head, n, cap;
	uint32_t pushed[SB_MAX_TAGS]; /* stores pushed per tag */
	uint32_t held[SB_MAX_TAGS];   /* entries held now, per tag */
	tset tags;                    /* the tags with held[tag] > 0 */
};

int sb_push(struct sb *b, uint64_t addr, const uint8_t *bytes,
	    uint64_t size, int tag) __attribute__((warn_unused_result));
/* The oldest entry (NULL if empty); sb_pop frees it. */
const struct sb_entry *sb_front(const struct sb *b);
void sb_pop(struct sb *b);
/* The oldest entry with tag (NULL if none); sb_pop_tag removes it. */
const struct sb_entry *sb_front_tag(const struct sb *b, int tag);
void sb_pop_tag(struct sb *b, int tag);
/* The entries (newest first) that overlap [addr, addr+size): call fn on
 * each; stops when fn returns non-zero and returns that. */
int sb_overlaps(const struct sb *b, uint64_t addr, uint64_t size,
		int (*fn)(const struct sb_entry *e, void *arg), void *arg);
/* The tags the buffer holds entries of, as a set (tags < SB_MAX_TAGS;
 * O(1), however long the buffer: a thread may buffer 100,000 stores). */
static inline tset sb_tags(const struct sb *b)
{
	return b->tags;
}
/* Entry i, 0 = oldest (i < b->n). */
const struct sb_entry *sb_at(const struct sb *b, size_t i);
static inline bool sb_empty(const struct sb *b)
{
	return b->n == 0;
}
/* For each byte of [addr, addr+n) held by the buffer, put the newest
 * buffered value in buf[i] and set covered[i]; returns how many bytes
 * were covered. */
size_t sb_forward(const struct sb *b, uint64_t addr, uint8_t *buf,
		  uint8_t *covered, size_t n);
/* Like sb_forward; when every byte came from the buffer, *src is the
 * oldest entry that served one (the load reads buffered values until that
 * entry's update), else NULL. */
size_t sb_forward_src(const struct sb *b, uint64_t addr, uint8_t *buf,
		      uint8_t *covered, size_t n, const struct sb_entry **src);
void sb_clear(struct sb *b);
void sb_free(struct sb *b);
/* dst (empty) becomes a copy of src, entries and counters. */
int sb_copy(struct sb *dst, const struct sb *src)
	__attribute__((warn_unused_result));
/* Invariant checker (--sanity): sizes, ring bounds. */
int sb_check(const struct sb *b);
#endif
