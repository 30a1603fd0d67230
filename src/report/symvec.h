/* symvec.h — the growable-array helper shared by sym.c, symelf.c and
 * symline.c.  Private to src/report/. */
#ifndef X86SMC_SYMVEC_H
#define X86SMC_SYMVEC_H

#include <stdlib.h>

/* Make room for need elements of elem bytes in *p (capacity *cap),
 * doubling; 0, or -1 with *p untouched when out of memory. */
static inline int symvec_grow(void **p, size_t *cap, size_t need,
			      size_t elem)
{
	size_t c = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	q = realloc(*p, c * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

#endif
