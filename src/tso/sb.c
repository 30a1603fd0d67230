/* sb.c — store buffers (see sb.h). */
#include "tso/sb.h"

#include <stdlib.h>
#include <string.h>

static struct sb_entry *at(const struct sb *b, size_t i)
{
	return &b->e[(b->head + i) % b->cap];
}

static void hold(struct sb *b, int tag, int d)
{
	if (tag < 0 || tag >= SB_MAX_TAGS)
		return;
	b->held[tag] += (uint32_t)d;
	if (b->held[tag])
		ts_add(&b->tags, tag);
	else
		ts_del(&b->tags, tag);
}

static int grow(struct sb *b)
{
	size_t cap = b->cap ? 2 * b->cap : 8;
	struct sb_entry *e = malloc(cap * sizeof *e);

	if (!e)
		return -1;
	for (size_t i = 0; i < b->n; i++)
		e[i] = *at(b, i);
	free(b->e);
	b->e = e;
	b->cap = cap;
	b->head = 0;
	return 0;
}

int sb_push(struct sb *b, uint64_t addr, const uint8_t *bytes, uint64_t size,
	    int tag)
{
	uint8_t *copy;

	if (b->n == b->cap && grow(b) < 0)
		return -1;
	copy = malloc(size ? size : 1);
	if (!copy)
		return -1;
	memcpy(copy, bytes, size);
	*at(b, b->n) = (struct sb_entry){
		addr, size, copy, tag,
		tag >= 0 && tag < SB_MAX_TAGS ? ++b->pushed[tag] : 0
	};
	b->n++;
	hold(b, tag, 1);
	return 0;
}

const struct sb_entry *sb_front(const struct sb *b)
{
	return b->n ? at(b, 0) : NULL;
}

void sb_pop(struct sb *b)
{
	if (!b->n)
		return;
	hold(b, at(b, 0)->tag, -1);
	free(at(b, 0)->bytes);
	b->head = (b->head + 1) % b->cap;
	b->n--;
}

const struct sb_entry *sb_at(const struct sb *b, size_t i)
{
	return i < b->n ? at(b, i) : NULL;
}

static size_t find_tag(const struct sb *b, int tag)
{
	size_t i = 0;

	while (i < b->n && at(b, i)->tag != tag)
		i++;
	return i;
}

const struct sb_entry *sb_front_tag(const struct sb *b, int tag)
{
	size_t i = find_tag(b, tag);

	return i < b->n ? at(b, i) : NULL;
}

void sb_pop_tag(struct sb *b, int tag)
{
	size_t i = find_tag(b, tag);

	if (i == b->n)
		return;
	hold(b, tag, -1);
	free(at(b, i)->bytes);
	for (; i > 0; i--) /* close the gap from the old side */
		*at(b, i) = *at(b, i - 1);
	b->head = (b->head + 1) % b->cap;
	b->n--;
}

int sb_overlaps(const struct sb *b, uint64_t addr, uint64_t size,
		int (*fn)(const struct sb_entry *e, void *arg), void *arg)
{
	for (size_t k = b->n; k-- > 0;) {
		const struct sb_entry *e = at(b, k);
		int r;
		if (e->addr < addr + size && addr < e->addr + e->size &&
		    (r = fn(e, arg)) != 0)
			return r;
	}
	return 0;
}

size_t sb_forward_src(const struct sb *b, uint64_t addr, uint8_t *buf,
		      uint8_t *covered, size_t n, const struct sb_entry **src)
{
	const struct sb_entry *oldest = NULL;
	size_t got = 0;

	memset(covered, 0, n);
	for (size_t k = b->n; k-- > 0 && got < n;) { /* newest first */
		const struct sb_entry *e = at(b, k);
		uint64_t lo = e->addr > addr ? e->addr : addr;
		uint64_t hi = e->addr + e->size < addr + n ? e->addr + e->size
							   : addr + n;
		for (uint64_t a = lo; a < hi; a++) {
			size_t i = (size_t)(a - addr);
			if (covered[i])
				continue;
			buf[i] = e->bytes[a - e->addr];
			covered[i] = 1;
			got++;
			oldest = e;
		}
	}
	if (src)
		*src = got == n ? oldest : NULL;
	return got;
}

size_t sb_forward(const struct sb *b, uint64_t addr, uint8_t *buf,
		  uint8_t *covered, size_t n)
{
	return sb_forward_src(b, addr, buf, covered, n, NULL);
}

void sb_clear(struct sb *b)
{
	while (b->n)
		sb_pop(b);
}

void sb_free(struct sb *b)
{
	sb_clear(b);
	free(b->e);
	memset(b, 0, sizeof *b);
}

int sb_check(const struct sb *b)
{
	uint32_t held[SB_MAX_TAGS] = { 0 };
	tset tags = ts_empty();

	if (b->n > b->cap || (b->cap && b->head >= b->cap))
		return -1;
	for (size_t i = 0; i < b->n; i++) {
		const struct sb_entry *e = at(b, i);
		if (!e->bytes || e->addr + e->size < e->addr)
			return -1;
		if (e->tag >= 0 && e->tag < SB_MAX_TAGS) {
			held[e->tag]++;
			ts_add(&tags, e->tag);
		}
	}
	return ts_eq(tags, b->tags) && !memcmp(held, b->held, sizeof held)
		       ? 0
		       : -1;
}

int sb_copy(struct sb *dst, const struct sb *src)
{
	*dst = (struct sb){ 0 };
	for (size_t i = 0; i < src->n; i++) {
		const struct sb_entry *e = at(src, i);
		if (sb_push(dst, e->addr, e->bytes, e->size, e->tag) < 0)
			return -1;
		at(dst, i)->seq = e->seq;
	}
	memcpy(dst->pushed, src->pushed, sizeof dst->pushed);
	return 0;
}
