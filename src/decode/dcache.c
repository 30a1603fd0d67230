/* dcache.c — decode cache keyed by instruction address.
 *
 * Open addressing with linear probing, load factor <= 1/2.  Decoded
 * instructions live in chunks that never move, so a pointer returned by
 * dcache_get() stays valid until dcache_invalidate() covers its bytes or
 * dcache_free(); invalidated entries are recycled through a free list.
 * Undecodable or unreadable addresses are not cached (the mapping may
 * change).
 */
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "decode/decode.h"

#define CHUNK 512
#define INITIAL_CAP 4096 /* slots, power of two */

struct node {
	struct dec_insn insn;
	struct node *next_free;
};

struct chunk {
	struct chunk *next;
	int used;
	struct node nodes[CHUNK];
};

struct dcache {
	dec_fetch_fn fetch;
	void *ctx;
	struct node **slot; /* NULL = empty */
	size_t cap, count;
	struct chunk *chunks;
	struct node *free_nodes;
	struct dcache_stats st;
};

static size_t hash(uint64_t pc, size_t cap)
{
	return (size_t)((pc * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

struct dcache *dcache_new(dec_fetch_fn fetch, void *ctx)
{
	struct dcache *dc = calloc(1, sizeof(*dc));

	if (!dc)
		return NULL;
	dc->fetch = fetch;
	dc->ctx = ctx;
	dc->cap = INITIAL_CAP;
	dc->slot = calloc(dc->cap, sizeof(*dc->slot));
	if (!dc->slot) {
		free(dc);
		return NULL;
	}
	return dc;
}

void dcache_free(struct dcache *dc)
{
	if (!dc)
		return;
	for (struct chunk *c = dc->chunks, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	free(dc->slot);
	free(dc);
}

static struct node *node_alloc(struct dcache *dc)
{
	struct node *n = dc->free_nodes;

	if (n) {
		dc->free_nodes = n->next_free;
		return n;
	}
	if (!dc->chunks || dc->chunks->used == CHUNK) {
		struct chunk *c = malloc(sizeof(*c));
		if (!c)
			return NULL;
		c->next = dc->chunks;
		c->used = 0;
		dc->chunks = c;
	}
	return &dc->chunks->nodes[dc->chunks->used++];
}

static void slot_put(struct node **slot, size_t cap, struct node *n)
{
	size_t i = hash(n->insn.pc, cap);

	while (slot[i])
		i = (i + 1) & (cap - 1);
	slot[i] = n;
}

/* Grow the table to capacity cap. */
static int grow(struct dcache *dc, size_t cap)
{
	struct node **slot = calloc(cap, sizeof(*slot));

	if (!slot)
		return -1;
	for (size_t i = 0; i < dc->cap; i++)
		if (dc->slot[i])
			slot_put(slot, cap, dc->slot[i]);
	free(dc->slot);
	dc->slot = slot;
	dc->cap = cap;
	return 0;
}

/* Empty slot i and re-insert the rest of its cluster, so that linear
 * probing needs no tombstones (Knuth vol. 3, 6.4 Algorithm R). */
static void slot_delete(struct dcache *dc, size_t i)
{
	size_t mask = dc->cap - 1;

	dc->slot[i] = NULL;
	dc->count--;
	for (size_t j = (i + 1) & mask; dc->slot[j]; j = (j + 1) & mask) {
		struct node *n = dc->slot[j];
		dc->slot[j] = NULL;
		slot_put(dc->slot, dc->cap, n);
	}
}

static const struct dec_insn *miss(struct dcache *dc, uint64_t pc)
{
	uint8_t buf[16];
	size_t n = dc->fetch(dc->ctx, pc, buf, sizeof(buf));
	struct node *node;
	double t0;
	int rc;

	if (n == 0)
		return NULL;
	if (2 * (dc->count + 1) > dc->cap && grow(dc, 2 * dc->cap))
		return NULL;
	node = node_alloc(dc);
	if (!node)
		return NULL;
	t0 = clock_s();
	rc = dec_decode(buf, n, pc, &node->insn);
	dc->st.decode_seconds += clock_s() - t0;
	if (rc) {
		node->next_free = dc->free_nodes;
		dc->free_nodes = node;
		return NULL;
	}
	dc->st.decoded++;
	slot_put(dc->slot, dc->cap, node);
	dc->count++;
	return &node->insn;
}

const struct dec_insn *dcache_get(struct dcache *dc, uint64_t pc)
{
	size_t i = hash(pc, dc->cap);

	dc->st.lookups++;
	for (struct node *n; (n = dc->slot[i]); i = (i + 1) & (dc->cap - 1))
		if (n->insn.pc == pc) {
			dc->st.hits++;
			return &n->insn;
		}
	return miss(dc, pc);
}

void dcache_invalidate(struct dcache *dc, uint64_t lo, uint64_t hi)
{
	for (size_t i = 0; i < dc->cap; i++) {
		struct node *n;
		/* slot_delete() may move another entry into slot i */
		while ((n = dc->slot[i]) && n->insn.pc < hi &&
		       n->insn.pc + n->insn.len > lo) {
			slot_delete(dc, i);
			n->next_free = dc->free_nodes;
			dc->free_nodes = n;
		}
	}
}

void dcache_stats(const struct dcache *dc, struct dcache_stats *out)
{
	*out = dc->st;
}
