/* pso_wide_store.c — a 16-byte store over two 8-byte fields whose older
 * stores may still be buffered.  Under pso the two fields are two
 * locations with a FIFO each, and no one FIFO can order the wide store
 * after both: the store waits for an empty buffer (the explorer flushes
 * the FIFOs first, as update events), one pso order of many, so the
 * search reports itself not complete (e2e bad/pso-wide-store, exit 3).
 * Before, the execution ended with "unsupported: pso: a 16-byte store
 * ... overlaps buffered stores to two locations" (exit 2), which glibc's
 * stdio reached under pso (fuzz_explore seeds 3005 and 3047, printf).
 *
 * The writer goes through the states (x, y) = (0,0) (1,0) (1,2) (3,4);
 * the reader loads x, then y: 7 outcomes under sc and tso.
 */
// expect sc: ok
// expect tso: ok
// outcome sc tso: exit 0: 0 0
// outcome sc tso: exit 0: 0 2
// outcome sc tso: exit 0: 0 4
// outcome sc tso: exit 0: 1 0
// outcome sc tso: exit 0: 1 2
// outcome sc tso: exit 0: 1 4
// outcome sc tso: exit 0: 3 4
#include "common.h"
#include <emmintrin.h>

static struct {
	volatile long x, y;
} __attribute__((aligned(16))) A;
static long rx, ry;

static void *writer(void *arg)
{
	(void)arg;
	A.x = 1;
	A.y = 2;
	_mm_storeu_si128((__m128i *)(void *)&A, _mm_set_epi64x(4, 3));
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	rx = A.x;
	ry = A.y;
	return NULL;
}

int main(void)
{
	pthread_t w, r;

	xcreate(&w, writer, NULL);
	xcreate(&r, reader, NULL);
	xjoin(w);
	xjoin(r);
	printf("%ld %ld\n", rx, ry);
	return 0;
}
