/* Store buffer: FIFO order, byte-granular forwarding (newest first). */
#include <string.h>

#include "tso/sb.h"
#include "unit.h"

static void test_fifo(void)
{
	struct sb b = { 0 };
	uint8_t one = 1, two = 2;

	CU_ASSERT_EQUAL(sb_push(&b, 0x1000, &one, 1, 0), 0);
	CU_ASSERT_EQUAL(sb_push(&b, 0x2000, &two, 1, 0), 0);
	CU_ASSERT_EQUAL(sb_front(&b)->addr, 0x1000);
	sb_pop(&b);
	CU_ASSERT_EQUAL(sb_front(&b)->addr, 0x2000);
	CU_ASSERT_EQUAL(sb_check(&b), 0);
	sb_pop(&b);
	CU_ASSERT(sb_empty(&b));
	CU_ASSERT_PTR_NULL(sb_front(&b));
	sb_free(&b);
}

static void test_forward_partial(void)
{
	struct sb b = { 0 };
	uint8_t old4[4] = { 0x11, 0x22, 0x33, 0x44 }, new1 = 0xaa;
	uint8_t buf[4] = { 0 }, cov[4];

	/* a 4-byte store, then a 1-byte store over its second byte */
	CU_ASSERT_EQUAL(sb_push(&b, 0x1000, old4, 4, 0), 0);
	CU_ASSERT_EQUAL(sb_push(&b, 0x1001, &new1, 1, 0), 0);
	CU_ASSERT_EQUAL(sb_forward(&b, 0x1000, buf, cov, 4), 4);
	CU_ASSERT_EQUAL(buf[0], 0x11);
	CU_ASSERT_EQUAL(buf[1], 0xaa); /* the newest wins */
	CU_ASSERT_EQUAL(buf[3], 0x44);
	sb_pop(&b); /* the 4-byte store leaves */
	memset(buf, 0, 4);
	CU_ASSERT_EQUAL(sb_forward(&b, 0x1000, buf, cov, 4), 1);
	CU_ASSERT(!cov[0] && cov[1] && !cov[2] && !cov[3]);
	CU_ASSERT_EQUAL(buf[1], 0xaa);
	sb_free(&b);
}

static void test_ring_growth(void)
{
	struct sb b = { 0 };

	for (uint8_t i = 0; i < 40; i++) {
		CU_ASSERT_EQUAL(sb_push(&b, 0x1000 + i, &i, 1, 0), 0);
		if (i % 3 == 0)
			sb_pop(&b);
	}
	CU_ASSERT_EQUAL(b.n, 26);
	CU_ASSERT_EQUAL(sb_front(&b)->addr, 0x1000 + 14);
	CU_ASSERT_EQUAL(sb_check(&b), 0);
	sb_free(&b);
}

/* PSO: per-tag FIFOs inside one list; forwarding still newest-first
 * over all tags, and removing from the middle keeps the others' order
 * (also across the ring's wrap-around). */
static void test_tags(void)
{
	struct sb b = { 0 };
	uint8_t v[6] = { 1, 2, 3, 4, 5, 6 }, buf[1], cov[1];

	for (int i = 0; i < 5; i++) { /* move head so that the ring wraps */
		CU_ASSERT_EQUAL(sb_push(&b, 0x10, v, 1, 9), 0);
		sb_pop(&b);
	}
	CU_ASSERT_EQUAL(sb_push(&b, 0x1000, &v[0], 1, 0), 0); /* x=1 */
	CU_ASSERT_EQUAL(sb_push(&b, 0x2000, &v[1], 1, 1), 0); /* y=2 */
	CU_ASSERT_EQUAL(sb_push(&b, 0x1000, &v[2], 1, 0), 0); /* x=3 */
	CU_ASSERT_EQUAL(sb_push(&b, 0x2000, &v[3], 1, 1), 0); /* y=4 */
	CU_ASSERT_EQUAL(sb_push(&b, 0x3000, &v[4], 1, 2), 0); /* z=5 */
	CU_ASSERT_EQUAL(sb_front_tag(&b, 1)->bytes[0], 2);
	sb_pop_tag(&b, 1);
	CU_ASSERT_EQUAL(sb_front_tag(&b, 1)->bytes[0], 4);
	CU_ASSERT_EQUAL(sb_front_tag(&b, 0)->bytes[0], 1);
	CU_ASSERT_PTR_NULL(sb_front_tag(&b, 7));
	sb_pop_tag(&b, 2);
	CU_ASSERT_EQUAL(b.n, 3);
	CU_ASSERT_EQUAL(sb_at(&b, 0)->bytes[0], 1);
	CU_ASSERT_EQUAL(sb_at(&b, 1)->bytes[0], 3);
	CU_ASSERT_EQUAL(sb_at(&b, 2)->bytes[0], 4);
	CU_ASSERT_EQUAL(sb_forward(&b, 0x1000, buf, cov, 1), 1);
	CU_ASSERT_EQUAL(buf[0], 3);
	sb_pop_tag(&b, 0);
	sb_pop_tag(&b, 0);
	CU_ASSERT_EQUAL(sb_forward(&b, 0x1000, buf, cov, 1), 0);
	CU_ASSERT_EQUAL(sb_front(&b)->bytes[0], 4);
	CU_ASSERT_EQUAL(sb_check(&b), 0);
	sb_free(&b);
}

static CU_TestInfo tests[] = {
	{ "tags", test_tags },
	{ "fifo", test_fifo },
	{ "forward_partial", test_forward_partial },
	{ "ring_growth", test_ring_growth },
	CU_TEST_INFO_NULL,
};
UNIT_SUITE("sb", NULL, NULL, tests)
