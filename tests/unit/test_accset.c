/* Access sets of sections, syscalls and library calls (tracer/accset.c):
 * joining ranges may only add conflicts, never lose a byte, and never
 * joins a pseudo-location (fd, kernel, futex queue) with memory. */
#include "tracer/tracer_priv.h"
#include "unit.h"

static struct dec_access acc(uint64_t addr, uint64_t size, uint8_t rw)
{
	return (struct dec_access){ addr, size, rw, 0 };
}

/* Is [addr, addr + size) covered, with rw, by a range of v[0..n)? */
static bool covered(const struct dec_access *v, int n, uint64_t addr,
		    uint64_t size, uint8_t rw)
{
	for (int i = 0; i < n; i++)
		if (v[i].addr <= addr && addr + size <= v[i].addr + v[i].size &&
		    (v[i].rw & rw) == rw)
			return true;
	return false;
}

static void test_touching_same_direction(void)
{
	struct dec_access v[4], a;
	int n = 0;

	a = acc(0x1000, 8, DEC_WRITE);
	acc_merge(v, &n, 4, &a);
	a = acc(0x1008, 8, DEC_WRITE);
	acc_merge(v, &n, 4, &a);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_EQUAL(v[0].addr, 0x1000);
	CU_ASSERT_EQUAL(v[0].size, 16);
	a = acc(0x1010, 8, DEC_READ); /* touching, other direction: apart */
	acc_merge(v, &n, 4, &a);
	CU_ASSERT_EQUAL(n, 2);
}

static void test_full_joins_closest_pair(void)
{
	struct dec_access v[3], in[] = {
		acc(0x1000, 8, DEC_READ), acc(0x9000, 8, DEC_WRITE),
		acc(0x1020, 4, DEC_READ), acc(0x50000, 8, DEC_WRITE),
	};
	int n = 0;

	for (int i = 0; i < 4; i++)
		acc_merge(v, &n, 3, &in[i]);
	CU_ASSERT_EQUAL(n, 3);
	for (int i = 0; i < 4; i++)
		CU_ASSERT(covered(v, n, in[i].addr, in[i].size, in[i].rw));
	/* 0x1000 and 0x1020 (32 bytes apart) were joined, not 0x9000 */
	CU_ASSERT(covered(v, n, 0x1000, 0x24, DEC_READ));
	CU_ASSERT(!covered(v, n, 0x1000, 0x8008, DEC_READ));
}

static void test_pseudo_kept_apart(void)
{
	struct dec_access v[2], a;
	int n = 0;
	uint64_t q = EV_ADDR_FUTEXQ(0x7ffff7dabd70ull);

	a = acc(0x7ffff7dabd70ull, 4, DEC_READ | DEC_WRITE);
	acc_merge(v, &n, 2, &a);
	a = acc(q, 4, DEC_READ | DEC_WRITE);
	acc_merge(v, &n, 2, &a);
	/* full: a third memory range joins the memory one, not the queue */
	a = acc(0x5555555aebd8ull, 4, DEC_READ | DEC_WRITE);
	acc_merge(v, &n, 2, &a);
	CU_ASSERT_EQUAL(n, 2);
	for (int i = 0; i < n; i++) {
		bool hi = v[i].addr >= 1ull << 47;
		CU_ASSERT(!hi || v[i].size == 4);
		CU_ASSERT(hi || v[i].addr + v[i].size <= 1ull << 47);
	}
	CU_ASSERT(covered(v, n, q, 4, DEC_READ | DEC_WRITE));
	CU_ASSERT(covered(v, n, 0x5555555aebd8ull, 4, DEC_READ | DEC_WRITE));
}

static CU_TestInfo tests[] = {
	{ "touching_same_direction", test_touching_same_direction },
	{ "full_joins_closest_pair", test_full_joins_closest_pair },
	{ "pseudo_kept_apart", test_pseudo_kept_apart },
	CU_TEST_INFO_NULL,
};
UNIT_SUITE("accset", NULL, NULL, tests)
