// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for DCN's per-packet core (include/net/aqm_dcn.h): the
 * classification of Figure 3 of "Taming the elephants", the early
 * notification probability 1 - pref/pktcount of section 3.2, the Tdec
 * decay and the anti-windup cap.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <net/aqm_dcn.h>

#define PKT(x)		((s64)(x) << AQM_PI_SHIFT)
#define MS		1000000ULL
#define CLEAR_NS	(100 * MS)

static void dcn_setup(struct kunit *test, struct aqm_dcn *d, u32 sb, u32 hb)
{
	*d = (struct aqm_dcn) { .clear_ns = CLEAR_NS, .threshold = 4 };
	KUNIT_ASSERT_EQ(test, aqm_sb_alloc(&d->sb, sb), 0);
	KUNIT_ASSERT_EQ(test, aqm_ftab_alloc(&d->hb, hb), 0);
}

static void dcn_teardown(struct aqm_dcn *d)
{
	aqm_sb_free(&d->sb);
	aqm_ftab_free(&d->hb);
}

/* Figure 3: SB counts until pktcount >= 4, then the flow is copied to HB. */
static void aqm_dcn_promotion(struct kunit *test)
{
	struct aqm_ftab_entry *e;
	struct aqm_dcn d;
	u64 t = 0;
	int i;

	dcn_setup(test, &d, 64, 16);
	for (i = 1; i <= 3; i++) {
		KUNIT_EXPECT_NULL(test, aqm_dcn_classify(&d, 0xabcd0001, t += MS));
		KUNIT_EXPECT_EQ(test, d.hb.count, 0U);
	}
	/* the 4th packet promotes its flow but is itself a non-HB packet */
	KUNIT_EXPECT_NULL(test, aqm_dcn_classify(&d, 0xabcd0001, t += MS));
	KUNIT_EXPECT_EQ(test, d.hb.count, 1U);
	KUNIT_EXPECT_EQ(test, d.promotions, 1ULL);
	e = aqm_ftab_lookup(&d.hb, 0xabcd0001);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_EQ(test, e->val, PKT(4));
	/* the SB slot was released */
	KUNIT_EXPECT_EQ(test, d.sb.tab[reciprocal_scale(0xabcd0001, 64)].count, 0U);

	/* from now on its packets are HB packets, counted in pktcount */
	e = aqm_dcn_classify(&d, 0xabcd0001, t += MS);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_EQ(test, e->val, PKT(5));
	dcn_teardown(&d);
}

/* A flow silent for more than the clearing interval starts over in SB. */
static void aqm_dcn_clearing_interval(struct kunit *test)
{
	struct aqm_dcn d;
	u64 t = 0;
	int i;

	dcn_setup(test, &d, 64, 16);
	/* 20 packets 101 ms apart: never 4 within a clearing interval */
	for (i = 0; i < 20; i++)
		KUNIT_EXPECT_NULL(test, aqm_dcn_classify(&d, 0x5000, t += CLEAR_NS + MS));
	KUNIT_EXPECT_EQ(test, d.hb.count, 0U);
	/* 99 ms apart: promoted at the 4th */
	for (i = 0; i < 4; i++)
		aqm_dcn_classify(&d, 0x5000, t += CLEAR_NS - MS);
	KUNIT_EXPECT_EQ(test, d.hb.count, 1U);
	dcn_teardown(&d);
}

/* Footnote 1: flows colliding in SB overwrite each other, O(1). */
static void aqm_dcn_sb_collision(struct kunit *test)
{
	struct aqm_dcn d;
	u64 t = 0;
	int i;

	dcn_setup(test, &d, 1, 16);	/* one slot: every flow collides */
	for (i = 0; i < 10; i++) {
		aqm_dcn_classify(&d, 0x1111, t += MS);
		aqm_dcn_classify(&d, 0x2222, t += MS);
	}
	KUNIT_EXPECT_EQ(test, d.hb.count, 0U);
	KUNIT_EXPECT_EQ(test, d.sb.overwrites, 19ULL);
	dcn_teardown(&d);
}

/* Footnote 2 aside, a full HB refuses the promotion: the flow stays in SB. */
static void aqm_dcn_hb_full(struct kunit *test)
{
	struct aqm_dcn d;
	u64 t = 0;
	int i;

	dcn_setup(test, &d, 64, 1);
	for (i = 0; i < 4; i++)
		aqm_dcn_classify(&d, 0x1000, t += MS);
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_NULL(test, aqm_dcn_classify(&d, 0x9000, t += MS));
	KUNIT_EXPECT_EQ(test, d.hb.count, 1U);
	KUNIT_EXPECT_EQ(test, d.promotions, 1ULL);
	KUNIT_EXPECT_GE(test, d.hb.full, 3ULL);
	KUNIT_EXPECT_NULL(test, aqm_ftab_lookup(&d.hb, 0x9000));
	dcn_teardown(&d);
}

/* Section 3.2: drop with probability 1 - pref/pktcount. */
static void aqm_dcn_notification_probability(struct kunit *test)
{
	/* pktcount <= pref: never */
	KUNIT_EXPECT_FALSE(test, aqm_share_hit(PKT(10), PKT(10), 0));
	KUNIT_EXPECT_FALSE(test, aqm_share_hit(PKT(10), PKT(3), 0));
	/* pktcount = 2 pref: 1/2 */
	KUNIT_EXPECT_TRUE(test, aqm_share_hit(PKT(10), PKT(20), 0x7fffffff));
	KUNIT_EXPECT_FALSE(test, aqm_share_hit(PKT(10), PKT(20), 0x80000000));
	/* pktcount = 30, pref = 10: 2/3 */
	KUNIT_EXPECT_TRUE(test, aqm_share_hit(PKT(10), PKT(30), 0xaaaaaaa9));
	KUNIT_EXPECT_FALSE(test, aqm_share_hit(PKT(10), PKT(30), 0xaaaaaaab));
	/* pref 0: always */
	KUNIT_EXPECT_TRUE(test, aqm_share_hit(0, PKT(1), U32_MAX));
	/* a negative count (decayed) or share never hits wrongly */
	KUNIT_EXPECT_FALSE(test, aqm_share_hit(PKT(1), -PKT(5), 0));
	KUNIT_EXPECT_TRUE(test, aqm_share_hit(-PKT(1), PKT(5), U32_MAX));
}

/* The rate of hits over many draws is 1 - pref/pktcount. */
static void aqm_dcn_notification_rate(struct kunit *test)
{
	u32 hits = 0, i, rnd = 12345;

	for (i = 0; i < 40000; i++) {
		rnd = rnd * 1664525 + 1013904223;	/* LCG: deterministic */
		hits += aqm_share_hit(PKT(25), PKT(100), rnd);
	}
	/* expected 30000 (3/4), 1% band */
	KUNIT_EXPECT_GE(test, hits, 29700U);
	KUNIT_EXPECT_LE(test, hits, 30300U);
}

/* Every Tdec pktcount -= pref; a negative count leaves HB. */
static void aqm_dcn_decay_test(struct kunit *test)
{
	struct aqm_ftab_entry *e;
	struct aqm_dcn d;
	u64 t = 0;
	int i;

	dcn_setup(test, &d, 64, 16);
	/* flow A: 4 + 20 packets, flow B: 4 + 2 packets */
	for (i = 0; i < 24; i++)
		aqm_dcn_classify(&d, 0xa0000000, t += MS);
	for (i = 0; i < 6; i++)
		aqm_dcn_classify(&d, 0x50000000, t += MS);
	KUNIT_EXPECT_EQ(test, d.hb.count, 2U);

	KUNIT_EXPECT_EQ(test, aqm_dcn_decay(&d, PKT(10), 1), 1U);
	KUNIT_EXPECT_EQ(test, d.removals, 1ULL);
	e = aqm_ftab_lookup(&d.hb, 0xa0000000);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_EQ(test, e->val, PKT(14));
	KUNIT_EXPECT_NULL(test, aqm_ftab_lookup(&d.hb, 0x50000000));

	/* exactly 0 stays; below leaves */
	KUNIT_EXPECT_EQ(test, aqm_dcn_decay(&d, PKT(14), 1), 0U);
	KUNIT_EXPECT_EQ(test, aqm_dcn_decay(&d, 1, 1), 1U);
	KUNIT_EXPECT_EQ(test, d.hb.count, 0U);

	/* after hours of idleness many periods decay at once, no overflow */
	for (i = 0; i < 10; i++)
		aqm_dcn_classify(&d, 0xa0000000, t += MS);
	KUNIT_EXPECT_EQ(test, aqm_dcn_decay(&d, AQM_DCN_PREF_MAX, 1000000), 1U);
	dcn_teardown(&d);
}

/* Anti-windup: pref may not rise while HB is empty. */
static void aqm_dcn_pref_cap_test(struct kunit *test)
{
	struct aqm_dcn d;
	u64 t = 0;
	int i;

	dcn_setup(test, &d, 64, 16);
	KUNIT_EXPECT_EQ(test, aqm_dcn_pref_cap(&d, PKT(37)), PKT(37));
	for (i = 0; i < 4; i++)
		aqm_dcn_classify(&d, 0x77, t += MS);
	KUNIT_EXPECT_EQ(test, aqm_dcn_pref_cap(&d, PKT(37)), AQM_DCN_PREF_MAX);
	dcn_teardown(&d);
}

static struct kunit_case aqm_dcn_cases[] = {
	KUNIT_CASE(aqm_dcn_promotion),
	KUNIT_CASE(aqm_dcn_clearing_interval),
	KUNIT_CASE(aqm_dcn_sb_collision),
	KUNIT_CASE(aqm_dcn_hb_full),
	KUNIT_CASE(aqm_dcn_notification_probability),
	KUNIT_CASE(aqm_dcn_notification_rate),
	KUNIT_CASE(aqm_dcn_decay_test),
	KUNIT_CASE(aqm_dcn_pref_cap_test),
	{}
};

static struct kunit_suite aqm_dcn_suite = {
	.name = "aqm_dcn",
	.test_cases = aqm_dcn_cases,
};

kunit_test_suite(aqm_dcn_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the DCN core of linux-aqm");
