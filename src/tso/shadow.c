/* shadow.c — shadow writes (see shadow.h). */
#include "tso/shadow.h"

#include <stdlib.h>
#include <string.h>

#define MAX_SHADOW (1u << 24) /* larger accesses: refuse (16 MiB) */

struct saved {
	uint8_t *orig;
};

static void release(struct saved *s, int n)
{
	for (int i = 0; i < n; i++)
		free(s[i].orig);
}

static uint64_t first8(const uint8_t *p, uint64_t size)
{
	uint64_t v = 0;

	memcpy(&v, p, size < 8 ? size : 8);
	return v;
}

/* Step 2: forward buffered bytes into the read range of a; *val: the
 * first 8 bytes the instruction will read. */
static int forward(const struct sb *b, const struct dec_access *a,
		   struct saved *s, const struct tso_mem *m, uint64_t *val,
		   struct tso_fwd *fwd)
{
	const struct sb_entry *src;
	uint8_t *buf = malloc(a->size), *cov = malloc(a->size);
	size_t got;
	int r = 0;

	if (!buf || !cov) {
		free(buf);
		free(cov);
		return -1;
	}
	memcpy(buf, s->orig, a->size);
	got = sb_forward_src(b, a->addr, buf, cov, a->size, &src);
	*val = first8(buf, a->size);
	*fwd = src ? (struct tso_fwd){ src->tag, src->seq }
		   : (struct tso_fwd){ -1, 0 };
	if (got && m->write(m->ctx, a->addr, buf, a->size) != a->size)
		r = -1;
	free(buf);
	free(cov);
	return r;
}

int tso_exec(struct sb *b, struct dec_access *acc, int *nacc, uint64_t *rval,
	     struct tso_fwd *fwd, const struct tso_mem *m,
	     struct tso_store *st, int *nst)
{
	struct saved s[DEC_MAX_MEM] = { { 0 } };
	uint64_t seen[DEC_MAX_MEM] = { 0 };
	struct tso_fwd from[DEC_MAX_MEM];
	int n = *nacc, r = -1, kept = 0;

	*nst = 0;
	/* fwd[] is the caller's on every path (a faulting access returns
	 * early): left unset, it made a crash a buffer-served read of its
	 * stack garbage, and the crash missed its races with output at
	 * random (crash_after_output tso: 112 or 123 executions) */
	for (int i = 0; i < n; i++)
		from[i] = fwd[i] = (struct tso_fwd){ -1, 0 };
	for (int i = 0; i < n; i++) { /* step 1 */
		if (acc[i].size > MAX_SHADOW ||
		    !(s[i].orig = malloc(acc[i].size ? acc[i].size : 1)))
			goto out;
		if (m->read(m->ctx, acc[i].addr, s[i].orig, acc[i].size) !=
		    acc[i].size) {
			/* unmapped: the instruction faults; run it as it is */
			release(s, n);
			return m->exec(m->ctx);
		}
	}
	for (int i = 0; i < n; i++)
		if ((acc[i].rw & DEC_READ) &&
		    forward(b, &acc[i], &s[i], m, &seen[i], &from[i]) < 0)
			goto out;
	r = m->exec(m->ctx); /* step 3 */
	if (r != 0)
		goto out; /* the execution ended: memory no longer matters */
	for (int i = 0; i < n; i++) { /* step 4 */
		if (!(acc[i].rw & DEC_WRITE))
			continue;
		uint8_t *now = malloc(acc[i].size ? acc[i].size : 1);
		int tag = now ? m->tag(m->ctx, acc[i].addr, acc[i].size) : -1;
		if (tag < 0 ||
		    m->read(m->ctx, acc[i].addr, now, acc[i].size) !=
			    acc[i].size ||
		    sb_push(b, acc[i].addr, now, acc[i].size, tag) < 0) {
			free(now);
			r = -1;
			goto out;
		}
		st[*nst] = (struct tso_store){ acc[i].addr, acc[i].size,
					       first8(now, acc[i].size), tag };
		(*nst)++;
		free(now);
	}
	for (int i = n; i-- > 0;) /* step 5 */
		if (m->write(m->ctx, acc[i].addr, s[i].orig, acc[i].size) !=
		    acc[i].size)
			r = -1;
	/* Reads stay accesses even when the buffer served them: such a load
	 * is attached to its buffer entry until the entry's update (the src
	 * edge of chronological traces, TACAS'15 sec. 3), so the update and
	 * the load conflict and DPOR also tries the update first, when the
	 * load reads memory. */
	for (int i = 0; i < n; i++)
		if (acc[i].rw & DEC_READ) {
			acc[kept] = acc[i];
			acc[kept].rw = DEC_READ;
			fwd[kept] = from[i];
			rval[kept++] = seen[i];
		}
	*nacc = kept;
out:
	release(s, n);
	return r;
}
