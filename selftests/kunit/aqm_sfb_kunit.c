// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the Stochastic Fair BLUE core (include/net/aqm_sfb.h),
 * section IV of Feng et al., "The BLUE active queue management algorithms":
 * the per-bin rules of Fig. 14, p_min over the L levels, the
 * misclassification probability of equation (1), the moving hash with
 * double buffering of IV-D, the penalty rate limiter, the statistics and
 * the allocation limits; and SFRED (IV-A, AQM_SFB_RED): each bin's EWMA,
 * RED curve and adaptive max_p in place of BLUE's p_m.
 *
 * The bin sets get fixed keys, so every bin is known in advance: the
 * expected bins and flow ids below were computed with an independent
 * SipHash-2-4 (checked against the reference vector that lib/siphash_kunit.c
 * uses). Deltas are exact binary fractions, so p_m is checked to the bit.
 */
#include <kunit/test.h>
#include <linux/math.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/siphash.h>
#include <net/aqm_sfb.h>

#define US(x)		((u64)(x) * NSEC_PER_USEC)
#define MS(x)		((u64)(x) * NSEC_PER_MSEC)
#define T0		MS(1000)	/* any start time */
/* n / 16 in p_m units */
#define SIXTEENTHS(n)	((s64)(n) << (AQM_BLUE_SHIFT - 4))
#define ONE		AQM_BLUE_ONE
#define TOKEN		AQM_SFB_TOKEN

/* set 0: SipHash's reference key 00..0f; set 1: 10..1f */
static const siphash_key_t sfb_keys[2] = {
	{ { 0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL } },
	{ { 0x1716151413121110ULL, 0x1f1e1d1c1b1a1918ULL } },
};

/* a flow id; its bins with the keys above are in aqm_sfb_hash_bins */
#define FLOW_U		0x12345678U

static void sfb_free_action(void *p)
{
	aqm_sfb_free(p);
}

/* L x N bins for this test case, the fixed keys, set 0 active */
static struct aqm_sfb *sfb_new(struct kunit *test, u32 levels, u32 nbins)
{
	struct aqm_sfb *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_EQ(test, aqm_sfb_alloc(s, levels, nbins, T0), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, sfb_free_action,
							s), 0);
	aqm_sfb_reset(s, T0, sfb_keys);
	KUNIT_ASSERT_EQ(test, aqm_sfb_active(s), 0U);
	return s;
}

/* per-bin rules, no rehash */
static void sfb_rules(struct aqm_sfb *s, u32 bin_size, u64 delta1,
		      u64 delta2, u32 freeze_us, u32 flags)
{
	s->params = (struct aqm_sfb_params) {
		.blue = {
			.delta1 = delta1,
			.delta2 = delta2,
			.freeze_us = freeze_us,
		},
		.bin_size = bin_size,
		.flags = flags,
	};
}

/* p_m and count of a bin as the algorithm sees them */
static s64 bin_p(const struct aqm_sfb *s, u32 b, u32 l, u32 n)
{
	const struct aqm_sfb_bin *bin = aqm_sfb_bin_at(s, b, l, n);

	return aqm_sfb_bin_live(s, b, bin) ? bin->blue.p_m : 0;
}

static u32 bin_q(const struct aqm_sfb *s, u32 b, u32 l, u32 n)
{
	const struct aqm_sfb_bin *bin = aqm_sfb_bin_at(s, b, l, n);

	return aqm_sfb_bin_live(s, b, bin) ? bin->qlen : 0;
}

/* The bin of level l, written out from the definition, with a division. */
static u32 ref_bin(const siphash_key_t *key, u32 nbins, u32 l, u32 id)
{
	u32 shift = ilog2(nbins), per = 64 / shift;

	return (siphash_2u32(id, l / per, key) >> (l % per * shift)) &
	       (nbins - 1);
}

/* An arrival that is admitted (tick, Fig. 14 up to p_min, warm, count). */
static void sfb_in(struct aqm_sfb *s, u32 id, u64 now,
		   struct aqm_sfb_res *res)
{
	aqm_sfb_tick(s, now);
	aqm_sfb_arrive(s, id, now, res);
	aqm_sfb_warm(s, now, res);
	aqm_sfb_add(s, res);
}

/*
 * Drive a flow's bins to 1 with bin_size 1 and delta1 = 1: one packet in,
 * the next arrival finds it and raises every bin of the flow.
 */
static void sfb_pollute(struct aqm_sfb *s, u32 id, u64 *now)
{
	struct aqm_sfb_res res;

	sfb_in(s, id, *now, &res);
	*now += US(1);
	aqm_sfb_arrive(s, id, *now, &res);
	*now += US(1);
}

/* ====================================================================== */

static void aqm_sfb_alloc_limits(struct kunit *test)
{
	static const u32 bad[][2] = {
		{ 0, 16 }, { 17, 16 }, { U32_MAX, 16 }, { 8, 0 }, { 8, 1 },
		{ 8, 3 }, { 8, 24 }, { 8, 4095 }, { 8, 4097 }, { 8, 8192 },
		{ 8, U32_MAX }, { 0, 0 }, { 17, 8192 },
	};
	struct aqm_sfb *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct aqm_sfb_stats st;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, s);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, aqm_sfb_alloc(s, bad[i][0], bad[i][1],
							T0), -EINVAL,
				    "L %u N %u", bad[i][0], bad[i][1]);
	/* nothing allocated, nothing written */
	KUNIT_EXPECT_NULL(test, s->bins);
	KUNIT_EXPECT_EQ(test, aqm_sfb_mem(s), 0);
	KUNIT_EXPECT_EQ(test, s->levels, 0U);
	KUNIT_EXPECT_EQ(test, s->nbins, 0U);
	aqm_sfb_free(s);	/* unallocated: nothing to do */

	/* the smallest: 1 level of 2 bins, two sets of 24-byte bins */
	s = sfb_new(test, 1, 2);
	KUNIT_EXPECT_EQ(test, aqm_sfb_mem(s), 96);
	KUNIT_EXPECT_EQ(test, s->shift, 1U);
	KUNIT_EXPECT_EQ(test, s->per_word, 64U);
	aqm_sfb_free(s);
	KUNIT_EXPECT_NULL(test, s->bins);
	KUNIT_EXPECT_EQ(test, aqm_sfb_mem(s), 0);
	aqm_sfb_free(s);	/* twice is harmless */

	/* Linux's sizes and defaults */
	s = sfb_new(test, AQM_SFB_DEF_LEVELS, AQM_SFB_DEF_BINS);
	KUNIT_EXPECT_EQ(test, aqm_sfb_mem(s), 2 * 8 * 16 * 24);
	KUNIT_EXPECT_EQ(test, s->per_word, 16U);
	KUNIT_EXPECT_EQ(test, s->params.bin_size, 20U);
	/* 66 / 0xFFFF and 11 / 0xFFFF, rounded; no freeze time, as Linux */
	KUNIT_EXPECT_EQ(test, s->params.blue.delta1, 4325442ULL);
	KUNIT_EXPECT_EQ(test, s->params.blue.delta2, 720907ULL);
	KUNIT_EXPECT_EQ(test, s->params.blue.freeze_us, 0U);
	KUNIT_EXPECT_EQ(test, s->params.rehash_ns, 600ULL * NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, s->params.warmup_ns, 60ULL * NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, s->params.flags, (u32)AQM_SFB_DEC_ARRIVAL);
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&s->params), 0);
	KUNIT_EXPECT_EQ(test, s->penalty.pkt.rate, 10U);
	KUNIT_EXPECT_EQ(test, s->penalty.pkt.burst, 20U);
	KUNIT_EXPECT_EQ(test, s->penalty.pkt.tokens, 20 * TOKEN);
	KUNIT_EXPECT_EQ(test, s->penalty.byte.rate, 0U);

	/* the largest: 16 x 4096 x 2 bins, 3 MiB, every bin reachable */
	s = sfb_new(test, AQM_SFB_LEVELS_MAX, AQM_SFB_BINS_MAX);
	KUNIT_EXPECT_EQ(test, aqm_sfb_mem(s), 3 * 1024 * 1024);
	KUNIT_EXPECT_EQ(test, s->shift, 12U);
	KUNIT_EXPECT_EQ(test, s->per_word, 5U);
	KUNIT_EXPECT_PTR_EQ(test, (void *)s->bins,
			    (void *)aqm_sfb_bin_at(s, 0, 0, 0));
	KUNIT_EXPECT_PTR_EQ(test, (void *)(aqm_sfb_bin_at(s, 1, 15, 4095) + 1),
			    (void *)((char *)s->bins + aqm_sfb_mem(s)));
	aqm_sfb_bin(s, 1, 15, 4095)->qlen = 7;
	KUNIT_EXPECT_EQ(test, bin_q(s, 1, 15, 4095), 7U);
	/* fresh bins read empty */
	aqm_sfb_stats(s, &st);
	KUNIT_EXPECT_EQ(test, st.max_p, 0LL);
	KUNIT_EXPECT_EQ(test, st.maxqlen, 0U);
	KUNIT_EXPECT_EQ(test, st.pkts, 0ULL);
}

static void aqm_sfb_params_limits(struct kunit *test)
{
	struct aqm_sfb_params p;
	u32 i;

	aqm_sfb_params_default(&p);
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), 0);
	p.blue.delta1 = 0;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), -EINVAL);
	p.blue.delta1 = ONE + 1;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), -EINVAL);
	p.blue.delta1 = ONE;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), 0);
	p.blue.delta2 = 0;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), -EINVAL);
	p.blue.delta2 = ONE + 1;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), -EINVAL);
	p.blue.delta2 = 1;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), 0);
	p.blue.freeze_us = 0;		/* none, as Linux */
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), 0);
	p.blue.freeze_us = U32_MAX;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), -EINVAL);
	p.blue.freeze_us = U32_MAX - 1;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), 0);
	/* every BLUE policy at once; RED refuses some, aqm_sfb_red_params */
	p.flags = AQM_SFB_FLAGS & ~AQM_SFB_RED;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), 0);
	p.flags = AQM_SFB_WARM_RAISE;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), 0);
	p.flags = BIT(5);
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), -EINVAL);
	p.flags = U32_MAX;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), -EINVAL);

	/* Linux's probabilities: 1/0xFFFF units, 0xFFFF is 1.0 */
	KUNIT_EXPECT_EQ(test, aqm_sfb_prob_from16(0), 0ULL);
	KUNIT_EXPECT_EQ(test, aqm_sfb_prob_from16(1), 65537ULL);
	KUNIT_EXPECT_EQ(test, aqm_sfb_prob_from16(0xFFFE), (u64)ONE - 65537);
	/* `increment 1` is 1.0, not 0.99998 (one loss event penalizes) */
	KUNIT_EXPECT_EQ(test, aqm_sfb_prob_from16(0xFFFF), (u64)ONE);
	KUNIT_EXPECT_EQ(test, aqm_sfb_prob_from16(0x10000), (u64)ONE);
	KUNIT_EXPECT_EQ(test, aqm_sfb_prob_from16(U32_MAX), (u64)ONE);
	KUNIT_EXPECT_EQ(test, aqm_sfb_prob16(0), 0U);
	KUNIT_EXPECT_EQ(test, aqm_sfb_prob16(-5), 0U);
	KUNIT_EXPECT_EQ(test, aqm_sfb_prob16(ONE / 2), 0x8000U);
	KUNIT_EXPECT_EQ(test, aqm_sfb_prob16(32767), 0U);
	KUNIT_EXPECT_EQ(test, aqm_sfb_prob16(32769), 1U);
	KUNIT_EXPECT_EQ(test, aqm_sfb_prob16(ONE - 1), 0xFFFFU);
	KUNIT_EXPECT_EQ(test, aqm_sfb_prob16(ONE), 0xFFFFU);
	KUNIT_EXPECT_EQ(test, aqm_sfb_prob16(ONE + 5), 0xFFFFU);
	/* what tc sets reads back unchanged in the xstats */
	for (i = 0; i <= 0xFFFF; i++)
		if (aqm_sfb_prob16(aqm_sfb_prob_from16(i)) != i)
			break;
	KUNIT_EXPECT_EQ(test, i, 0x10000U);
}

/* Known bins, and the L hashes are independent and uniform. */
static void aqm_sfb_hash_bins(struct kunit *test)
{
	/* FLOW_U, L = 8, N = 16: the nibbles of 0x7dd0dc6a80e2afe3 */
	static const u16 u8a[8] = { 3, 14, 15, 10, 2, 14, 0, 8 };
	static const u16 u8b[8] = { 7, 10, 11, 8, 11, 3, 0, 12 };
	/* FLOW_U, L = 16, N = 4096: 12-bit fields of four siphash words */
	static const u16 u16a[16] = { 4067, 3626, 2688, 3526, 3536, 37, 1109,
				      1297, 1523, 330, 3021, 1911, 3006, 1789,
				      2683, 2996 };
	static const u32 sizes[][2] = {
		{ 1, 2 }, { 16, 2 }, { 16, 64 }, { 7, 1024 }, { 16, 4096 },
	};
	static u32 cnt[2][16], pair[16][16];
	struct aqm_sfb *s = sfb_new(test, 8, 16);
	u16 idx[AQM_SFB_LEVELS_MAX];
	u32 i, l, id;

	KUNIT_EXPECT_EQ(test, siphash_2u32(FLOW_U, 0, &sfb_keys[0]),
			0x7dd0dc6a80e2afe3ULL);
	aqm_sfb_hash(s, 0, FLOW_U, idx);
	for (l = 0; l < 8; l++)
		KUNIT_EXPECT_EQ_MSG(test, idx[l], u8a[l], "level %u", l);
	aqm_sfb_hash(s, 1, FLOW_U, idx);
	for (l = 0; l < 8; l++)
		KUNIT_EXPECT_EQ_MSG(test, idx[l], u8b[l], "level %u", l);

	s = sfb_new(test, 16, 4096);
	aqm_sfb_hash(s, 0, FLOW_U, idx);
	for (l = 0; l < 16; l++)
		KUNIT_EXPECT_EQ_MSG(test, idx[l], u16a[l], "level %u", l);

	/* every size: the definition, levels across several hash words */
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		s = sfb_new(test, sizes[i][0], sizes[i][1]);
		for (id = 0; id < 64; id++) {
			u32 b = id & 1, x = id * 0x9e3779b9U;

			aqm_sfb_hash(s, b, x, idx);
			for (l = 0; l < s->levels; l++)
				KUNIT_EXPECT_EQ_MSG(test, (u32)idx[l],
						    ref_bin(&sfb_keys[b],
							    s->nbins, l, x),
						    "L %u N %u level %u id %u",
						    s->levels, s->nbins, l, x);
		}
	}

	/*
	 * 16384 ids into 16 bins: 1024 per bin, sd 31; 256 (level 0, level 1)
	 * pairs: 64 per pair, sd 8. Bounds at 5 sd: uniform, and the levels
	 * (and the sets) independent.
	 */
	s = sfb_new(test, 2, 16);
	memset(pair, 0, sizeof(pair));
	memset(cnt, 0, sizeof(cnt));
	for (id = 1; id <= 16384; id++) {
		u16 other[AQM_SFB_LEVELS_MAX];

		aqm_sfb_hash(s, 0, id, idx);
		aqm_sfb_hash(s, 1, id, other);
		cnt[0][idx[0]]++;
		cnt[1][idx[1]]++;
		pair[idx[0]][idx[1]]++;
		pair[idx[0]][other[0]] += 1U << 16;
	}
	for (i = 0; i < 16; i++) {
		KUNIT_EXPECT_GE(test, cnt[0][i], 1024U - 155);
		KUNIT_EXPECT_LE(test, cnt[0][i], 1024U + 155);
		KUNIT_EXPECT_GE(test, cnt[1][i], 1024U - 155);
		KUNIT_EXPECT_LE(test, cnt[1][i], 1024U + 155);
		for (l = 0; l < 16; l++) {
			KUNIT_EXPECT_GE(test, pair[i][l] & 0xffff, 24U);
			KUNIT_EXPECT_LE(test, pair[i][l] & 0xffff, 104U);
			KUNIT_EXPECT_GE(test, pair[i][l] >> 16, 24U);
			KUNIT_EXPECT_LE(test, pair[i][l] >> 16, 104U);
		}
	}
}

/*
 * The cb keeps a packet's bin indices when they fit in 32 bits and it is
 * counted in one set, so that its departure does not hash again; the flow
 * id otherwise. Either way the departure finds the bins the arrival
 * counted: after 64 packets of 8 flows leave, every bin is empty again.
 */
static void aqm_sfb_cb_indices(struct kunit *test)
{
	static const struct {
		u32 levels, nbins;
		bool packed;
	} sizes[] = {
		{ 8, 16, true }, { 3, 1024, true }, { 1, 4096, true },
		{ 4, 256, true }, { 16, 4, true }, { 9, 16, false },
		{ 7, 1024, false }, { 16, 4096, false },
	};
	struct aqm_sfb_cb cbs[64];
	struct aqm_sfb_res r;
	struct aqm_sfb *s;
	u32 i, j, warm, b, l, n;

	/* FLOW_U, L = 8, N = 16: its eight nibbles, the hash's low word */
	s = sfb_new(test, 8, 16);
	aqm_sfb_arrive(s, FLOW_U, T0, &r);
	KUNIT_EXPECT_EQ(test, r.cb.id, 0x80e2afe3U);
	KUNIT_EXPECT_TRUE(test, r.cb.tag & AQM_SFB_TAG_IDX);

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		for (warm = 0; warm < 2; warm++) {
			s = sfb_new(test, sizes[i].levels, sizes[i].nbins);
			sfb_rules(s, 1000, ONE / 4, ONE / 16, 0,
				  AQM_SFB_DEC_ARRIVAL | AQM_SFB_WARM_ALL);
			/* every arrival into both sets while warming */
			s->warming = warm;
			for (j = 0; j < 64; j++) {
				u32 id = 0x1000 + (j % 8) * 0x9e3779b9U;

				aqm_sfb_arrive(s, id, T0, &r);
				aqm_sfb_warm(s, T0, &r);
				aqm_sfb_add(s, &r);
				cbs[j] = r.cb;
				KUNIT_EXPECT_EQ(test,
						r.cb.tag & AQM_SFB_TAG_SETS,
						warm ? 3U : 1U);
				if (sizes[i].packed && !warm) {
					KUNIT_EXPECT_TRUE(test, r.cb.tag &
							  AQM_SFB_TAG_IDX);
				} else {
					KUNIT_EXPECT_FALSE(test, r.cb.tag &
							   AQM_SFB_TAG_IDX);
					KUNIT_EXPECT_EQ(test, r.cb.id, id);
				}
			}
			for (j = 0; j < 64; j++)
				aqm_sfb_remove(s, &cbs[j], T0);
			n = 0;
			for (b = 0; b < 2; b++)
				for (l = 0; l < s->levels; l++)
					for (j = 0; j < s->nbins; j++)
						n += aqm_sfb_bin(s, b, l, j)->qlen;
			KUNIT_EXPECT_EQ_MSG(test, n, 0U, "L %u N %u warm %u",
					    s->levels, s->nbins, warm);
		}
	}
}

/*
 * Fig. 14 per bin, AQM_SFB_DEC_EMPTIED: bin_size 2, delta1 1/4, delta2
 * 1/16, freeze_time 10 ms. FLOW_U's bins: 3 and 14 (L = 2, N = 16).
 */
static void aqm_sfb_bin_rules(struct kunit *test)
{
	struct aqm_sfb *s = sfb_new(test, 2, 16);
	struct aqm_sfb_res r[3], x;
	struct aqm_sfb_stats st;
	static const struct {
		u32 ms;		/* arrival time after T0, not admitted */
		s64 p;		/* p_m of both bins after it, in 1/16 */
	} up[] = {
		{ 2, 4 },	/* frozen until 11 ms */
		{ 10, 4 },
		{ 11, 8 },
		{ 21, 12 },
		{ 30, 12 },
		{ 31, 16 },	/* 1.0: penalized */
		{ 41, 16 },	/* clamped */
	};
	int i;

	sfb_rules(s, 2, ONE / 4, ONE / 16, 10000, AQM_SFB_DEC_EMPTIED);
	aqm_sfb_arrive(s, FLOW_U, T0, &r[0]);
	KUNIT_EXPECT_EQ(test, r[0].idx[0][0], 3);
	KUNIT_EXPECT_EQ(test, r[0].idx[0][1], 14);
	KUNIT_EXPECT_EQ(test, r[0].id, FLOW_U);
	/* the indices in the cb: 3 | 14 << 4 */
	KUNIT_EXPECT_EQ(test, r[0].cb.id, 0xe3U);
	KUNIT_EXPECT_EQ(test, r[0].cb.tag & AQM_SFB_TAG_SETS, 1U);
	KUNIT_EXPECT_EQ(test, r[0].p_min, 0LL);
	KUNIT_EXPECT_EQ(test, r[0].minqlen, 0U);
	aqm_sfb_add(s, &r[0]);
	KUNIT_EXPECT_EQ(test, bin_q(s, 0, 0, 3), 1U);
	KUNIT_EXPECT_EQ(test, bin_q(s, 0, 1, 14), 1U);
	/* one packet in the bin: below bin_size */
	aqm_sfb_arrive(s, FLOW_U, T0, &r[1]);
	KUNIT_EXPECT_EQ(test, r[1].minqlen, 1U);
	KUNIT_EXPECT_EQ(test, r[1].p_min, 0LL);
	aqm_sfb_add(s, &r[1]);
	/* an arrival that finds bin_size packets: a loss event of each bin */
	aqm_sfb_arrive(s, FLOW_U, T0 + MS(1), &r[2]);
	KUNIT_EXPECT_EQ(test, r[2].minqlen, 2U);
	KUNIT_EXPECT_EQ(test, r[2].maxqlen, 2U);
	KUNIT_EXPECT_EQ(test, r[2].p_min, SIXTEENTHS(4));
	KUNIT_EXPECT_EQ(test, bin_p(s, 0, 0, 3), SIXTEENTHS(4));
	KUNIT_EXPECT_EQ(test, bin_p(s, 0, 1, 14), SIXTEENTHS(4));
	aqm_sfb_add(s, &r[2]);
	KUNIT_EXPECT_EQ(test, bin_q(s, 0, 0, 3), 3U);

	for (i = 0; i < ARRAY_SIZE(up); i++) {
		aqm_sfb_arrive(s, FLOW_U, T0 + MS(up[i].ms), &x);
		KUNIT_EXPECT_EQ_MSG(test, x.p_min, SIXTEENTHS(up[i].p),
				    "arrival at %u ms", up[i].ms);
		KUNIT_EXPECT_EQ_MSG(test, bin_p(s, 0, 1, 14), SIXTEENTHS(up[i].p),
				    "arrival at %u ms", up[i].ms);
		KUNIT_EXPECT_EQ(test, aqm_sfb_penalized(&x), up[i].p == 16);
	}
	/* nothing else moved */
	aqm_sfb_stats(s, &st);
	KUNIT_EXPECT_EQ(test, st.full[0], 1U);
	KUNIT_EXPECT_EQ(test, st.full[1], 1U);
	KUNIT_EXPECT_EQ(test, st.max_p, ONE);
	KUNIT_EXPECT_EQ(test, st.avg_p, 2 * ONE / 32);
	KUNIT_EXPECT_EQ(test, st.pkts, 3ULL);

	/* departures that leave packets in the bin: no change */
	aqm_sfb_remove(s, &r[0].cb, T0 + MS(60));
	aqm_sfb_remove(s, &r[1].cb, T0 + MS(60));
	KUNIT_EXPECT_EQ(test, bin_q(s, 0, 0, 3), 1U);
	KUNIT_EXPECT_EQ(test, bin_p(s, 0, 0, 3), ONE);
	/* the bin empties: p_m -= delta2 */
	aqm_sfb_remove(s, &r[2].cb, T0 + MS(60));
	KUNIT_EXPECT_EQ(test, bin_q(s, 0, 0, 3), 0U);
	KUNIT_EXPECT_EQ(test, bin_q(s, 0, 1, 14), 0U);
	KUNIT_EXPECT_EQ(test, bin_p(s, 0, 0, 3), SIXTEENTHS(15));
	KUNIT_EXPECT_EQ(test, bin_p(s, 0, 1, 14), SIXTEENTHS(15));
	/* an arrival into the empty bin does nothing without DEC_ARRIVAL */
	sfb_in(s, FLOW_U, T0 + MS(61), &x);
	KUNIT_EXPECT_EQ(test, x.p_min, SIXTEENTHS(15));
	/* empties again within freeze_time: frozen until 70 ms */
	aqm_sfb_remove(s, &x.cb, T0 + MS(65));
	KUNIT_EXPECT_EQ(test, bin_p(s, 0, 0, 3), SIXTEENTHS(15));
	sfb_in(s, FLOW_U, T0 + MS(66), &x);
	aqm_sfb_remove(s, &x.cb, T0 + MS(70));
	KUNIT_EXPECT_EQ(test, bin_p(s, 0, 0, 3), SIXTEENTHS(14));
	/* clamps at 0 */
	s->params.blue.delta2 = ONE;
	sfb_in(s, FLOW_U, T0 + MS(80), &x);
	aqm_sfb_remove(s, &x.cb, T0 + MS(80));
	KUNIT_EXPECT_EQ(test, bin_p(s, 0, 0, 3), 0LL);
	sfb_in(s, FLOW_U, T0 + MS(90), &x);
	aqm_sfb_remove(s, &x.cb, T0 + MS(90));
	KUNIT_EXPECT_EQ(test, bin_p(s, 0, 1, 14), 0LL);
	aqm_sfb_stats(s, &st);
	KUNIT_EXPECT_EQ(test, st.max_p, 0LL);
	KUNIT_EXPECT_EQ(test, st.maxqlen, 0U);
}

/*
 * Fig. 14 and Linux, AQM_SFB_DEC_ARRIVAL: an arrival that finds its bin
 * empty lowers p_m, else one that finds bin_size packets raises it.
 */
static void aqm_sfb_dec_arrival(struct kunit *test)
{
	struct aqm_sfb *s = sfb_new(test, 2, 16);
	struct aqm_sfb_res r[3], x;
	int i;

	sfb_rules(s, 2, ONE / 4, ONE / 16, 1000, AQM_SFB_DEC_ARRIVAL);
	/* the first arrival finds the bins empty: at 0 already */
	sfb_in(s, FLOW_U, T0, &r[0]);
	KUNIT_EXPECT_EQ(test, r[0].p_min, 0LL);
	sfb_in(s, FLOW_U, T0 + MS(1), &r[1]);
	sfb_in(s, FLOW_U, T0 + MS(2), &r[2]);
	KUNIT_EXPECT_EQ(test, r[2].p_min, SIXTEENTHS(4));
	aqm_sfb_arrive(s, FLOW_U, T0 + MS(3), &x);
	KUNIT_EXPECT_EQ(test, x.p_min, SIXTEENTHS(8));
	/* departures do not lower p_m without DEC_EMPTIED */
	for (i = 0; i < 3; i++)
		aqm_sfb_remove(s, &r[i].cb, T0 + MS(4));
	KUNIT_EXPECT_EQ(test, bin_p(s, 0, 0, 3), SIXTEENTHS(8));
	/* an arrival into the empty bins does */
	aqm_sfb_arrive(s, FLOW_U, T0 + MS(5), &x);
	KUNIT_EXPECT_EQ(test, x.p_min, SIXTEENTHS(7));
	/* frozen */
	sfb_in(s, FLOW_U, T0 + MS(5) + US(500), &r[0]);
	KUNIT_EXPECT_EQ(test, r[0].p_min, SIXTEENTHS(7));
	/* one packet in the bin: neither rule */
	aqm_sfb_arrive(s, FLOW_U, T0 + MS(10), &x);
	KUNIT_EXPECT_EQ(test, x.p_min, SIXTEENTHS(7));
	/* bin_size 0: an empty bin still decrements (Linux's else-if) ... */
	s->params.bin_size = 0;
	aqm_sfb_remove(s, &r[0].cb, T0 + MS(11));
	aqm_sfb_arrive(s, FLOW_U, T0 + MS(12), &x);
	KUNIT_EXPECT_EQ(test, x.p_min, SIXTEENTHS(6));
	/* ... and any packet in it increments */
	sfb_in(s, FLOW_U, T0 + MS(13), &r[0]);
	KUNIT_EXPECT_EQ(test, r[0].p_min, SIXTEENTHS(5));
	aqm_sfb_arrive(s, FLOW_U, T0 + MS(14), &x);
	KUNIT_EXPECT_EQ(test, x.p_min, SIXTEENTHS(9));
}

/*
 * p_min (Fig. 14, Fig. 15): a flow is penalized only when all its L bins
 * are at 1. L = 3, N = 16 with set 0's key: FLOW_U in bins (3, 14, 15);
 * flow 523 in (3, 14, 6); flow 563 in (3, 14, 15); flow 19 in (4, 1, 6).
 */
static void aqm_sfb_pmin(struct kunit *test)
{
	static const u16 bu[3] = { 3, 14, 15 }, bv[3] = { 3, 14, 6 };
	struct aqm_sfb *s = sfb_new(test, 3, 16);
	struct aqm_sfb_res r;
	u16 idx[AQM_SFB_LEVELS_MAX];
	u32 v = 0, w = 0, x = 0, id, q, l;
	u64 now = T0;

	sfb_rules(s, 1, ONE, ONE / 16, 1, AQM_SFB_DEC_EMPTIED);
	/* the first id in bins (3, 14, *) but not 15, in (3, 14, 15), and
	 * in (!3, !14, 6)
	 */
	for (id = 1; id < (1U << 20) && !(v && w && x); id++) {
		aqm_sfb_hash(s, 0, id, idx);
		if (!v && idx[0] == 3 && idx[1] == 14 && idx[2] != 15)
			v = id;
		if (!w && id != FLOW_U && idx[0] == 3 && idx[1] == 14 &&
		    idx[2] == 15)
			w = id;
		if (!x && idx[0] != 3 && idx[1] != 14 && idx[2] == 6)
			x = id;
	}
	KUNIT_EXPECT_EQ(test, v, 523U);
	KUNIT_EXPECT_EQ(test, w, 563U);
	KUNIT_EXPECT_EQ(test, x, 19U);

	sfb_in(s, FLOW_U, now, &r);
	for (l = 0; l < 3; l++)
		KUNIT_EXPECT_EQ(test, r.idx[0][l], bu[l]);
	KUNIT_EXPECT_FALSE(test, aqm_sfb_penalized(&r));
	now += US(1);
	aqm_sfb_arrive(s, FLOW_U, now, &r);
	KUNIT_EXPECT_EQ(test, r.p_min, ONE);
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalized(&r));
	for (l = 0; l < 3; l++)
		KUNIT_EXPECT_EQ(test, bin_p(s, 0, l, bu[l]), ONE);

	/* L - 1 polluted bins and one clean one: not penalized */
	KUNIT_EXPECT_EQ(test, aqm_sfb_lookup(s, 0, 523, &q), 0LL);
	KUNIT_EXPECT_EQ(test, q, 0U);
	aqm_sfb_arrive(s, 523, now, &r);
	for (l = 0; l < 3; l++)
		KUNIT_EXPECT_EQ(test, r.idx[0][l], bv[l]);
	KUNIT_EXPECT_EQ(test, r.p_min, 0LL);
	KUNIT_EXPECT_FALSE(test, aqm_sfb_penalized(&r));
	KUNIT_EXPECT_EQ(test, r.minqlen, 0U);
	KUNIT_EXPECT_EQ(test, r.maxqlen, 1U);
	/* all L bins polluted by another flow: penalized (misclassified) */
	KUNIT_EXPECT_EQ(test, aqm_sfb_lookup(s, 0, 563, &q), ONE);
	KUNIT_EXPECT_EQ(test, q, 1U);
	aqm_sfb_arrive(s, 563, now, &r);
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalized(&r));
	/* p_min is the least of the L bins: one below 1 is enough */
	aqm_sfb_bin(s, 0, 1, 14)->blue.p_m = ONE - 1;
	KUNIT_EXPECT_EQ(test, aqm_sfb_lookup(s, 0, 563, NULL), ONE - 1);
	aqm_sfb_bin(s, 0, 1, 14)->blue.p_m = ONE;
	/* flow 19 pollutes flow 523's last clean bin: now it is penalized */
	sfb_pollute(s, 19, &now);
	KUNIT_EXPECT_EQ(test, bin_p(s, 0, 2, 6), ONE);
	KUNIT_EXPECT_EQ(test, bin_p(s, 0, 0, 4), ONE);
	KUNIT_EXPECT_EQ(test, aqm_sfb_lookup(s, 0, 523, &q), ONE);
	KUNIT_EXPECT_EQ(test, q, 1U);
	/* the standby set knows nothing of it */
	KUNIT_EXPECT_EQ(test, aqm_sfb_lookup(s, 1, FLOW_U, &q), 0LL);
	KUNIT_EXPECT_EQ(test, q, 0U);
}

/* (1 - (1 - 1/N)^M)^L in 2^-32 units */
static u64 eq1(u32 levels, u32 nbins, u32 m)
{
	u64 q = ONE, p = ONE;
	u32 i;

	for (i = 0; i < m; i++)
		q = div_u64(q * (nbins - 1), nbins);
	for (i = 0; i < levels; i++)
		p = mul_u64_u64_shr(p, ONE - q, AQM_BLUE_SHIFT);
	return p;
}

/*
 * Equation (1): with M nonresponsive flows whose bins are all at 1, a
 * responsive flow is misclassified (p_min = 1) with probability
 * [1 - (1 - 1/N)^M]^L. For each (L, N, M): R = 64 placements (set keys),
 * each with M flows polluting their bins and K = 1024 other flows looked up.
 *
 * Two checks. (a) Given the placement, a flow is penalized with probability
 * prod_l (full_l / N), full_l the polluted bins of level l; over the R K
 * lookups the count of penalized flows is a sum of independent trials with
 * mean E = sum_r K prod_l (full_l / N) and variance <= E: it must lie
 * within 5 sqrt(E) + 1 of E. (b) Over placements, the fraction must be
 * equation (1) within 5 standard deviations; with X the polluted bins of a
 * level (M balls in N bins), E[(X/N)^2] = (N p1 + N (N - 1) (1 - 2 (1 -
 * 1/N)^M + (1 - 2/N)^M)) / N^2, p1 = 1 - (1 - 1/N)^M, the fraction has
 * variance (E[(X/N)^2]^L - p^2 + (p - E[(X/N)^2]^L) / K) / R: the sd in
 * the table, in ppm. Keys and ids are fixed, so the outcome is too.
 */
static void aqm_sfb_misclassification(struct kunit *test)
{
	static const struct {
		u32 levels, nbins, m;
		u32 eq1_ppm;	/* equation (1), for the reader */
		u32 sd_ppm;
	} cfg[] = {
		{ 1, 16, 4, 227523, 4465 },
		{ 2, 32, 8, 50310, 1296 },
		{ 4, 64, 32, 24556, 756 },
		{ 8, 16, 16, 29558, 1464 },
	};
	const u32 R = 64, K = 1024;
	int i;

	for (i = 0; i < ARRAY_SIZE(cfg); i++) {
		u32 levels = cfg[i].levels, nbins = cfg[i].nbins;
		struct aqm_sfb *s = sfb_new(test, levels, nbins);
		u32 bits = levels * s->shift, r, j, l;
		u64 hits = 0, e = 0, p, f_ppm, p_ppm, dev;
		u64 now = T0;

		sfb_rules(s, 1, ONE, ONE, 1, 0);
		for (r = 0; r < R; r++) {
			siphash_key_t keys[2] = {
				{ { 0x5eed0000ULL + r, ~(u64)r } },
				{ { 0x5eed1000ULL + r, (u64)r << 32 } },
			};
			struct aqm_sfb_stats st;
			u64 prod = K;

			aqm_sfb_reset(s, now, keys);
			for (j = 0; j < cfg[i].m; j++)
				sfb_pollute(s, 0x80000000U | r << 16 | j, &now);
			aqm_sfb_stats(s, &st);
			for (l = 0; l < levels; l++)
				prod *= st.full[l];
			e += prod;	/* in 1/N^L: K N^L <= 2^42 */
			for (j = 1; j <= K; j++)
				hits += aqm_sfb_lookup(s, 0, j, NULL) >= ONE;
		}
		/* (a): |hits - E| <= 5 sqrt(E) + 1, E = e / N^L */
		dev = hits << bits > e ? (hits << bits) - e : e - (hits << bits);
		KUNIT_EXPECT_LE_MSG(test, dev,
				    (5 * (u64)int_sqrt64(e >> bits) + 1) << bits,
				    "L %u N %u M %u: %llu penalized, expected %llu",
				    levels, nbins, cfg[i].m, hits, e >> bits);
		/* (b): equation (1), 5 sd */
		p = eq1(levels, nbins, cfg[i].m);
		p_ppm = mul_u64_u64_shr(p, 1000000, AQM_BLUE_SHIFT);
		KUNIT_EXPECT_EQ(test, p_ppm, (u64)cfg[i].eq1_ppm);
		f_ppm = div_u64(hits * 1000000, R * K);
		dev = f_ppm > p_ppm ? f_ppm - p_ppm : p_ppm - f_ppm;
		KUNIT_EXPECT_LE_MSG(test, dev, 5ULL * cfg[i].sd_ppm,
				    "L %u N %u M %u: %llu ppm misclassified, eq. (1) %llu ppm",
				    levels, nbins, cfg[i].m, f_ppm, p_ppm);
	}
}

/* The rehash clock: Linux's timing, in ns. */
static void aqm_sfb_rehash_timing(struct kunit *test)
{
	struct aqm_sfb *s = sfb_new(test, 8, 16);

	s->params.rehash_ns = MS(100);
	s->params.warmup_ns = MS(30);
	aqm_sfb_reset(s, T0, sfb_keys);
	KUNIT_EXPECT_FALSE(test, aqm_sfb_tick(s, T0 + MS(70) - 1));
	KUNIT_EXPECT_FALSE(test, s->warming);
	KUNIT_EXPECT_FALSE(test, aqm_sfb_tick(s, T0 + MS(70)));
	KUNIT_EXPECT_TRUE(test, s->warming);
	KUNIT_EXPECT_FALSE(test, aqm_sfb_tick(s, T0 + MS(100) - 1));
	KUNIT_EXPECT_EQ(test, aqm_sfb_active(s), 0U);
	KUNIT_EXPECT_TRUE(test, aqm_sfb_tick(s, T0 + MS(100)));
	KUNIT_EXPECT_EQ(test, aqm_sfb_active(s), 1U);
	KUNIT_EXPECT_FALSE(test, s->warming);
	/* the old active set got a new (random) key; the other kept its own */
	KUNIT_EXPECT_NE(test, memcmp(&s->set[0].key, &sfb_keys[0],
				     sizeof(sfb_keys[0])), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&s->set[1].key, &sfb_keys[1],
				     sizeof(sfb_keys[1])), 0);
	/* the next interval starts at the switch */
	KUNIT_EXPECT_FALSE(test, aqm_sfb_tick(s, T0 + MS(170) - 1));
	KUNIT_EXPECT_FALSE(test, s->warming);
	KUNIT_EXPECT_FALSE(test, aqm_sfb_tick(s, T0 + MS(170)));
	KUNIT_EXPECT_TRUE(test, s->warming);
	/* a late arrival switches once, and the interval restarts from it */
	KUNIT_EXPECT_TRUE(test, aqm_sfb_tick(s, T0 + MS(350)));
	KUNIT_EXPECT_EQ(test, aqm_sfb_active(s), 0U);
	KUNIT_EXPECT_FALSE(test, aqm_sfb_tick(s, T0 + MS(350)));
	KUNIT_EXPECT_FALSE(test, aqm_sfb_tick(s, T0 + MS(449)));
	KUNIT_EXPECT_TRUE(test, aqm_sfb_tick(s, T0 + MS(450)));
	/* a clock behind the last switch changes nothing */
	KUNIT_EXPECT_FALSE(test, aqm_sfb_tick(s, T0));
	KUNIT_EXPECT_FALSE(test, s->warming);
	/* warmup >= rehash: always warming, right after a switch too */
	s->params.warmup_ns = MS(100);
	KUNIT_EXPECT_FALSE(test, aqm_sfb_tick(s, T0 + MS(450)));
	KUNIT_EXPECT_TRUE(test, s->warming);
	KUNIT_EXPECT_TRUE(test, aqm_sfb_tick(s, T0 + MS(550)));
	KUNIT_EXPECT_TRUE(test, s->warming);
	/* no warm-up */
	s->params.warmup_ns = 0;
	aqm_sfb_reset(s, T0, sfb_keys);
	KUNIT_EXPECT_FALSE(test, aqm_sfb_tick(s, T0 + MS(100) - 1));
	KUNIT_EXPECT_FALSE(test, s->warming);
	/* rehash 0: never */
	s->params.rehash_ns = 0;
	s->params.warmup_ns = MS(30);
	KUNIT_EXPECT_FALSE(test, aqm_sfb_tick(s, U64_MAX));
	KUNIT_EXPECT_FALSE(test, s->warming);
	KUNIT_EXPECT_EQ(test, aqm_sfb_active(s), 0U);
}

/* What one double buffering run shows, see db_run(). */
struct db_out {
	s64 u_standby;		/* FLOW_U's p_min in the standby set at 99 ms */
	u32 u_standby_q;	/* and the least count of its bins there */
	bool u_after;		/* FLOW_U penalized at the switch */
	u32 t_sets[10];		/* the sets of flow 7's packets */
	u64 pkts_after;		/* packets counted in the new active set */
};

/*
 * IV-D's scenario, L = 8, N = 16, bin_size 2, delta1 1/4, freeze 1 ms,
 * rehash every 100 ms with @warmup: FLOW_U, nonresponsive, sends one packet
 * per ms and always has 4 queued (the penalty box is not in play here, see
 * aqm_sfb_penalty_*); flow 7 sends one packet every 10 ms, which leaves at
 * once. FLOW_U is penalized from 5 ms on. At 100 ms the sets switch.
 */
static void db_run(struct kunit *test, u32 flags, u64 warmup,
		   struct db_out *out)
{
	struct aqm_sfb *s = sfb_new(test, 8, 16);
	struct aqm_sfb_cb fifo[8];
	struct aqm_sfb_res r;
	struct aqm_sfb_stats st;
	u32 head = 0, tail = 0, ms;
	u64 now;

	sfb_rules(s, 2, ONE / 4, ONE / 16, 1000, flags);
	s->params.rehash_ns = MS(100);
	s->params.warmup_ns = warmup;
	aqm_sfb_reset(s, T0, sfb_keys);

	for (ms = 0; ms < 100; ms++) {
		now = T0 + MS(ms);
		KUNIT_ASSERT_FALSE(test, aqm_sfb_tick(s, now));
		aqm_sfb_arrive(s, FLOW_U, now, &r);
		aqm_sfb_warm(s, now, &r);
		if (ms >= 5)
			KUNIT_EXPECT_TRUE_MSG(test, aqm_sfb_penalized(&r),
					      "%u ms", ms);
		aqm_sfb_add(s, &r);
		fifo[tail++ % 8] = r.cb;
		if (tail - head > 4)
			aqm_sfb_remove(s, &fifo[head++ % 8], now);
		if (ms % 10 == 0) {
			aqm_sfb_arrive(s, 7, now, &r);
			aqm_sfb_warm(s, now, &r);
			KUNIT_EXPECT_FALSE(test, aqm_sfb_penalized(&r));
			aqm_sfb_add(s, &r);
			out->t_sets[ms / 10] = r.cb.tag & AQM_SFB_TAG_SETS;
			aqm_sfb_remove(s, &r.cb, now);
		}
	}
	out->u_standby = aqm_sfb_lookup(s, 1, FLOW_U, &out->u_standby_q);

	now = T0 + MS(100);
	KUNIT_EXPECT_TRUE(test, aqm_sfb_tick(s, now));
	KUNIT_EXPECT_EQ(test, aqm_sfb_active(s), 1U);
	aqm_sfb_stats(s, &st);
	out->pkts_after = st.pkts;
	aqm_sfb_arrive(s, FLOW_U, now, &r);
	out->u_after = aqm_sfb_penalized(&r);

	/* every packet leaves: no count left, none taken twice */
	while (head != tail)
		aqm_sfb_remove(s, &fifo[head++ % 8], now);
	aqm_sfb_stats(s, &st);
	KUNIT_EXPECT_EQ(test, st.pkts, 0ULL);
	KUNIT_EXPECT_EQ(test, st.maxqlen, 0U);
}

/*
 * Moving hash with double buffering (IV-D). With warm-up (40 ms), the
 * standby set already has FLOW_U's bins at 1 when the sets switch, so it
 * is still penalized right after; without, it is on "parole". FLOW_U keeps
 * bin_size packets queued here, so every policy warms its bins.
 */
static void aqm_sfb_double_buffer(struct kunit *test)
{
	static const u32 policy[] = { AQM_SFB_WARM_ALL, 0, AQM_SFB_WARM_RAISE };
	struct db_out o;
	int i, k;

	for (i = 0; i < ARRAY_SIZE(policy); i++) {
		u32 flags = policy[i] | AQM_SFB_DEC_ARRIVAL;
		u32 warm_sets = policy[i] & AQM_SFB_WARM_ALL ? 3U : 1U;

		memset(&o, 0, sizeof(o));
		db_run(test, flags, MS(40), &o);
		KUNIT_EXPECT_EQ_MSG(test, o.u_standby, ONE, "policy %#x", flags);
		/* the 4 packets queued all came during warm-up */
		KUNIT_EXPECT_EQ(test, o.u_standby_q, 4U);
		KUNIT_EXPECT_EQ(test, o.pkts_after, 4ULL);
		KUNIT_EXPECT_TRUE_MSG(test, o.u_after, "policy %#x", flags);
		/* flow 7 before warm-up: active set only; during: both sets
		 * with WARM_ALL, the active one only with Linux's policy and
		 * WARM_RAISE (flow 7 is not penalized)
		 */
		for (k = 0; k < 10; k++)
			KUNIT_EXPECT_EQ_MSG(test, o.t_sets[k],
					    k >= 6 ? warm_sets : 1U,
					    "policy %#x, %d ms", flags, 10 * k);

		memset(&o, 0, sizeof(o));
		db_run(test, flags, 0, &o);
		KUNIT_EXPECT_EQ(test, o.u_standby, 0LL);
		KUNIT_EXPECT_EQ(test, o.u_standby_q, 0U);
		KUNIT_EXPECT_EQ(test, o.pkts_after, 0ULL);
		KUNIT_EXPECT_FALSE_MSG(test, o.u_after, "policy %#x", flags);
		for (k = 0; k < 10; k++)
			KUNIT_EXPECT_EQ(test, o.t_sets[k], 1U);
	}

	/* DEC_EMPTIED instead: the same */
	memset(&o, 0, sizeof(o));
	db_run(test, AQM_SFB_DEC_EMPTIED, MS(40), &o);
	KUNIT_EXPECT_EQ(test, o.u_standby, ONE);
	KUNIT_EXPECT_TRUE(test, o.u_after);
}

/* a copy of set @b's bins, to see that nothing in it changed */
static void *set_copy(struct kunit *test, const struct aqm_sfb *s, u32 b)
{
	size_t len = sizeof(*s->bins) * s->levels * s->nbins;
	void *p = kunit_kmalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	memcpy(p, aqm_sfb_bin_at(s, b, 0, 0), len);
	return p;
}

static bool set_same(const struct aqm_sfb *s, u32 b, const void *copy)
{
	return !memcmp(copy, aqm_sfb_bin_at(s, b, 0, 0),
		       sizeof(*s->bins) * s->levels * s->nbins);
}

/*
 * AQM_SFB_WARM_RAISE against Linux's policy when the penalized flow keeps
 * fewer than bin_size packets queued, as a rate-limited flow does (IV-D;
 * selftests/net/sfb.sh). L = 8, N = 16, bin_size 2, delta1 1/4, delta2
 * 1/16, freeze 1 us, rehash every 100 ms with 40 ms of warm-up. FLOW_U's
 * bins in set 1: (7, 10, 11, 8, 11, 3, 0, 12). It has 2 packets queued
 * from before warm-up and is penalized; during warm-up one of its packets
 * passes the penalty (counted in both sets: 1 in its standby bins), three
 * do not. Its level-0 standby bin starts at 1/2, left there by another
 * flow, the others at 0.
 */
static void aqm_sfb_warm_raise(struct kunit *test)
{
	static const u16 ub[8] = { 7, 10, 11, 8, 11, 3, 0, 12 };
	static const u32 policy[] = { AQM_SFB_WARM_RAISE, 0 };
	int i, k, l;

	for (i = 0; i < ARRAY_SIZE(policy); i++) {
		u32 flags = policy[i] | AQM_SFB_DEC_ARRIVAL;
		struct aqm_sfb *s = sfb_new(test, 8, 16);
		bool raise = policy[i];
		struct aqm_sfb_res r;
		u64 now = T0;
		u32 q;
		void *c;

		sfb_rules(s, 2, ONE / 4, ONE / 16, 1, flags);
		s->params.rehash_ns = MS(100);
		s->params.warmup_ns = MS(40);
		aqm_sfb_reset(s, T0, sfb_keys);

		/* before warm-up: 2 packets queued, 4 arrivals find them */
		sfb_in(s, FLOW_U, T0, &r);
		sfb_in(s, FLOW_U, T0 + US(1), &r);
		for (k = 1; k <= 4; k++) {
			now = T0 + MS(k);
			KUNIT_EXPECT_FALSE(test, aqm_sfb_tick(s, now));
			aqm_sfb_arrive(s, FLOW_U, now, &r);
			aqm_sfb_warm(s, now, &r);
		}
		KUNIT_EXPECT_EQ(test, r.p_min, ONE);
		KUNIT_EXPECT_FALSE(test, s->warming);
		KUNIT_EXPECT_EQ(test, r.cb.tag & AQM_SFB_TAG_SETS, 1U);
		KUNIT_EXPECT_EQ(test, aqm_sfb_lookup(s, 1, FLOW_U, &q), 0LL);
		KUNIT_EXPECT_EQ(test, q, 0U);

		now = T0 + MS(60);
		KUNIT_EXPECT_FALSE(test, aqm_sfb_tick(s, now));
		KUNIT_EXPECT_TRUE(test, s->warming);
		aqm_sfb_bin(s, 1, 0, ub[0])->blue.p_m = SIXTEENTHS(8);
		c = set_copy(test, s, 1);
		/* a flow that is not penalized touches no standby bin */
		aqm_sfb_arrive(s, 7, now, &r);
		KUNIT_EXPECT_FALSE(test, aqm_sfb_warm_at_max(s, &r));
		aqm_sfb_warm(s, now, &r);
		KUNIT_EXPECT_FALSE(test, aqm_sfb_penalized(&r));
		KUNIT_EXPECT_EQ(test, r.cb.tag & AQM_SFB_TAG_SETS, 1U);
		KUNIT_EXPECT_TRUE(test, set_same(s, 1, c));
		/*
		 * a penalized packet dropped at max: Linux's policy warms
		 * nothing with it, WARM_RAISE raises its standby bins still
		 * (not done here, so that the counts below stay the same)
		 */
		aqm_sfb_arrive(s, FLOW_U, now, &r);
		KUNIT_EXPECT_TRUE(test, aqm_sfb_penalized(&r));
		KUNIT_EXPECT_EQ(test, aqm_sfb_warm_at_max(s, &r), raise);
		KUNIT_EXPECT_EQ(test, r.minqlen, 2U);
		KUNIT_EXPECT_EQ(test, r.cb.tag & AQM_SFB_TAG_SETS, 1U);
		KUNIT_EXPECT_TRUE(test, set_same(s, 1, c));

		/*
		 * Its penalized arrivals, 1 ms apart, the first admitted.
		 * WARM_RAISE: every arrival raises its standby bins by
		 * delta1. Linux's: the first finds them empty and lowers
		 * them (p_m at 0 stays 0), the others find 1 packet, below
		 * bin_size, and leave them.
		 */
		for (k = 1; k <= 4; k++) {
			now = T0 + MS(60 + k);
			KUNIT_EXPECT_FALSE(test, aqm_sfb_tick(s, now));
			aqm_sfb_arrive(s, FLOW_U, now, &r);
			KUNIT_EXPECT_TRUE(test, aqm_sfb_penalized(&r));
			aqm_sfb_warm(s, now, &r);
			KUNIT_EXPECT_EQ(test, r.cb.tag & AQM_SFB_TAG_SETS, 3U);
			if (k == 1)
				aqm_sfb_add(s, &r);
			for (l = 0; l < 8; l++) {
				KUNIT_EXPECT_EQ(test, r.idx[1][l], ub[l]);
				KUNIT_EXPECT_EQ(test, bin_q(s, 1, l, ub[l]), 1U);
			}
			KUNIT_EXPECT_EQ_MSG(test, bin_p(s, 1, 0, ub[0]),
					    SIXTEENTHS(raise ? min(8 + 4 * k, 16)
							     : 7),
					    "policy %#x, arrival %d", flags, k);
			for (l = 1; l < 8; l++)
				KUNIT_EXPECT_EQ_MSG(test, bin_p(s, 1, l, ub[l]),
						    SIXTEENTHS(raise ? 4 * k : 0),
						    "policy %#x, arrival %d, level %d",
						    flags, k, l);
		}

		/* the switch: WARM_RAISE's flow is penalized at once */
		now = T0 + MS(100);
		KUNIT_EXPECT_TRUE(test, aqm_sfb_tick(s, now));
		KUNIT_EXPECT_EQ(test, aqm_sfb_active(s), 1U);
		KUNIT_EXPECT_EQ(test, aqm_sfb_lookup(s, 1, FLOW_U, &q),
				raise ? ONE : 0LL);
		KUNIT_EXPECT_EQ(test, q, 1U);
		aqm_sfb_arrive(s, FLOW_U, now, &r);
		aqm_sfb_warm(s, now, &r);
		KUNIT_EXPECT_EQ(test, r.minqlen, 1U);
		KUNIT_EXPECT_EQ_MSG(test, r.p_min, raise ? ONE : 0LL,
				    "policy %#x", flags);
		KUNIT_EXPECT_EQ(test, aqm_sfb_penalized(&r), raise);
	}
}

/*
 * Counts across switches and resets, against a model: a packet counted in
 * a set stays counted there until that set is reset. Random arrivals,
 * departures, switches, warm-up on and off, resets; L = 2, N = 4, 8 flows,
 * so bins are shared. After every step each bin's count must match.
 */
#define ACC_MAXQ	64

struct acc_pkt {
	struct aqm_sfb_cb cb;
	u32 sets;		/* sets it was counted in */
	u32 epoch[2];		/* resets of each set before it arrived */
	u16 idx[2][2];		/* its bins, from the definition */
};

struct acc {
	struct aqm_sfb *s;
	u32 flags;
	u32 epoch[2];		/* resets of each set */
	u32 model[2][2][4];	/* expected count of every bin */
	struct acc_pkt q[ACC_MAXQ];
	u32 n;			/* packets queued */
};

/* an arrival of flow @id, admitted */
static void acc_add(struct kunit *test, struct acc *m, u32 id, u64 now)
{
	struct acc_pkt *p = &m->q[m->n++];
	u32 a = aqm_sfb_active(m->s), b, l;
	struct aqm_sfb_res r;

	aqm_sfb_arrive(m->s, id, now, &r);
	aqm_sfb_warm(m->s, now, &r);
	aqm_sfb_add(m->s, &r);
	p->cb = r.cb;
	p->sets = BIT(a);
	if (m->s->warming &&
	    ((m->flags & AQM_SFB_WARM_ALL) || r.p_min >= ONE))
		p->sets |= BIT(a ^ 1);
	KUNIT_EXPECT_EQ(test, r.cb.tag & AQM_SFB_TAG_SETS, p->sets);
	for (b = 0; b < 2; b++) {
		p->epoch[b] = m->epoch[b];
		for (l = 0; l < 2 && (p->sets & BIT(b)); l++) {
			p->idx[b][l] = ref_bin(&m->s->set[b].key, 4, l, id);
			m->model[b][l][p->idx[b][l]]++;
		}
	}
}

/* the departure of queued packet @i */
static void acc_remove(struct acc *m, u32 i, u64 now)
{
	struct acc_pkt *p = &m->q[i];
	u32 b, l;

	aqm_sfb_remove(m->s, &p->cb, now);
	for (b = 0; b < 2; b++) {
		if (!(p->sets & BIT(b)) || p->epoch[b] != m->epoch[b])
			continue;
		for (l = 0; l < 2; l++)
			m->model[b][l][p->idx[b][l]]--;
	}
	*p = m->q[--m->n];
}

/* set @b is reset */
static void acc_reset_set(struct acc *m, u32 b)
{
	m->epoch[b]++;
	memset(m->model[b], 0, sizeof(m->model[b]));
}

static void acc_check(struct kunit *test, const struct acc *m, u32 step)
{
	u32 b, l, i;

	for (b = 0; b < 2; b++)
		for (l = 0; l < 2; l++)
			for (i = 0; i < 4; i++)
				KUNIT_ASSERT_EQ_MSG(test, bin_q(m->s, b, l, i),
						    m->model[b][l][i],
						    "flags %#x step %u set %u level %u bin %u",
						    m->flags, step, b, l, i);
}

static void aqm_sfb_accounting(struct kunit *test)
{
	static const u32 flags[] = { 0, AQM_SFB_WARM_ALL,
				     AQM_SFB_WARM_ALL | AQM_SFB_DEC_EMPTIED,
				     AQM_SFB_WARM_RAISE };
	struct acc *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	struct rnd_state rs;
	int f;

	KUNIT_ASSERT_NOT_NULL(test, m);
	prandom_seed_state(&rs, 15);
	for (f = 0; f < ARRAY_SIZE(flags); f++) {
		siphash_key_t key = sfb_keys[1];
		u64 now = T0;
		u32 step;

		memset(m, 0, sizeof(*m));
		m->s = sfb_new(test, 2, 4);
		m->flags = flags[f];
		sfb_rules(m->s, 1, ONE / 2, ONE / 4, 1, flags[f]);
		for (step = 0; step < 3000; step++) {
			u32 op = prandom_u32_state(&rs) % 100;
			u32 id = prandom_u32_state(&rs) % 8;
			u32 a = aqm_sfb_active(m->s);
			struct aqm_sfb_res r;

			now += US(prandom_u32_state(&rs) % 100);
			if (op < 40 && m->n < ACC_MAXQ) {
				acc_add(test, m, id, now);
			} else if (op < 45) {
				/* dropped: p_m may move, counts do not */
				aqm_sfb_arrive(m->s, id, now, &r);
				aqm_sfb_warm(m->s, now, &r);
			} else if (op < 50) {
				/* dropped at max: not warmed */
				aqm_sfb_arrive(m->s, id, now, &r);
			} else if (op < 90 && m->n) {
				acc_remove(m, prandom_u32_state(&rs) % m->n,
					   now);
			} else if (op < 95) {
				/* a switch: the old active set is reset */
				key.key[0]++;
				aqm_sfb_swap(m->s, now, &key);
				KUNIT_EXPECT_EQ(test,
						memcmp(&m->s->set[a].key, &key,
						       sizeof(key)), 0);
				acc_reset_set(m, a);
			} else if (op < 99) {
				/* what aqm_sfb_tick() does at warm-up */
				m->s->warming = !m->s->warming;
			} else {
				aqm_sfb_reset(m->s, now, NULL);
				acc_reset_set(m, 0);
				acc_reset_set(m, 1);
			}
			acc_check(test, m, step);
		}
		while (m->n)
			acc_remove(m, m->n - 1, now);
		acc_check(test, m, step);
	}
}

/* The O(1) reset of a set, and its real clearing when generations wrap. */
static void aqm_sfb_generations(struct kunit *test)
{
	struct aqm_sfb *s = sfb_new(test, 2, 4);
	struct aqm_sfb_res r;
	struct aqm_sfb_stats st;
	u64 now = T0;

	sfb_rules(s, 1, ONE, ONE, 1, 0);
	sfb_pollute(s, FLOW_U, &now);
	KUNIT_EXPECT_EQ(test, aqm_sfb_lookup(s, 0, FLOW_U, NULL), ONE);
	/* a reset forgets the queued packet: its removal changes nothing */
	aqm_sfb_reset(s, now, sfb_keys);
	KUNIT_EXPECT_EQ(test, aqm_sfb_lookup(s, 0, FLOW_U, NULL), 0LL);
	aqm_sfb_arrive(s, FLOW_U, now, &r);
	KUNIT_EXPECT_EQ(test, r.minqlen, 0U);

	/* the generation about to wrap: the set is cleared for real */
	s->set[0].gen = U32_MAX;
	sfb_pollute(s, FLOW_U, &now);
	KUNIT_EXPECT_EQ(test, aqm_sfb_lookup(s, 0, FLOW_U, NULL), ONE);
	aqm_sfb_swap(s, now, &sfb_keys[0]);
	KUNIT_EXPECT_EQ(test, s->set[0].gen, 1U);
	KUNIT_EXPECT_EQ(test, aqm_sfb_bin_at(s, 0, 0, r.idx[0][0])->gen, 0U);
	KUNIT_EXPECT_EQ(test, aqm_sfb_bin_at(s, 0, 0, r.idx[0][0])->qlen, 0U);
	KUNIT_EXPECT_EQ(test, aqm_sfb_bin_at(s, 0, 0, r.idx[0][0])->blue.p_m,
			0LL);
	KUNIT_EXPECT_EQ(test, aqm_sfb_lookup(s, 0, FLOW_U, NULL), 0LL);
	/* and the set is usable in its new generation */
	aqm_sfb_swap(s, now, &sfb_keys[1]);
	KUNIT_EXPECT_EQ(test, aqm_sfb_active(s), 0U);
	sfb_pollute(s, FLOW_U, &now);
	KUNIT_EXPECT_EQ(test, aqm_sfb_lookup(s, 0, FLOW_U, NULL), ONE);
	aqm_sfb_stats(s, &st);
	KUNIT_EXPECT_EQ(test, st.full[0], 1U);
	KUNIT_EXPECT_EQ(test, st.pkts, 1ULL);
}

/* Linux's maxqlen, maxprob and avgprob, and the polluted bins per level. */
static void aqm_sfb_stats_dump(struct kunit *test)
{
	struct aqm_sfb *s = sfb_new(test, 2, 4);
	struct aqm_sfb_res r;
	struct aqm_sfb_stats st;
	u16 ia[AQM_SFB_LEVELS_MAX], idx[AQM_SFB_LEVELS_MAX];
	u32 b = 0, id;
	u64 now = T0;

	sfb_rules(s, 1, ONE / 2, ONE / 2, 1, 0);
	aqm_sfb_hash(s, 0, FLOW_U, ia);
	for (id = 1; id < 1000 && !b; id++) {
		aqm_sfb_hash(s, 0, id, idx);
		if (idx[0] != ia[0] && idx[1] != ia[1])
			b = id;
	}
	KUNIT_ASSERT_NE(test, b, 0U);
	/* FLOW_U's bins at 1, flow b's at 1/2, a packet of each queued */
	sfb_in(s, FLOW_U, now, &r);
	aqm_sfb_arrive(s, FLOW_U, now + US(1), &r);
	aqm_sfb_arrive(s, FLOW_U, now + US(2), &r);
	KUNIT_EXPECT_EQ(test, r.p_min, ONE);
	sfb_in(s, b, now, &r);
	aqm_sfb_arrive(s, b, now + US(1), &r);
	KUNIT_EXPECT_EQ(test, r.p_min, ONE / 2);
	sfb_in(s, b, now + US(1), &r);	/* frozen: counted, p_m unchanged */
	KUNIT_EXPECT_EQ(test, r.p_min, ONE / 2);

	aqm_sfb_stats(s, &st);
	KUNIT_EXPECT_EQ(test, st.max_p, ONE);
	KUNIT_EXPECT_EQ(test, st.avg_p, (2 * ONE + 2 * ONE / 2) / 8);
	KUNIT_EXPECT_EQ(test, aqm_sfb_prob16(st.avg_p), 3U << 13);
	KUNIT_EXPECT_EQ(test, aqm_sfb_prob16(st.max_p), 0xFFFFU);
	KUNIT_EXPECT_EQ(test, st.full[0], 1U);
	KUNIT_EXPECT_EQ(test, st.full[1], 1U);
	KUNIT_EXPECT_EQ(test, st.full[2], 0U);
	KUNIT_EXPECT_EQ(test, st.maxqlen, 2U);
	KUNIT_EXPECT_EQ(test, st.pkts, 3ULL);

	/* the walk is over the active set: after a switch it is fresh */
	aqm_sfb_swap(s, now, NULL);
	aqm_sfb_stats(s, &st);
	KUNIT_EXPECT_EQ(test, st.max_p, 0LL);
	KUNIT_EXPECT_EQ(test, st.avg_p, 0LL);
	KUNIT_EXPECT_EQ(test, st.full[0], 0U);
	KUNIT_EXPECT_EQ(test, st.pkts, 0ULL);
	/* and the old one was reset */
	aqm_sfb_swap(s, now, NULL);
	aqm_sfb_stats(s, &st);
	KUNIT_EXPECT_EQ(test, st.max_p, 0LL);
	KUNIT_EXPECT_EQ(test, st.maxqlen, 0U);
}

/*
 * The dump's walk in bounded steps (sch_sfb releases its lock between
 * them): any step size gives the whole walk's figures, and a step never
 * visits more bins than asked.
 */
static void aqm_sfb_stats_steps(struct kunit *test)
{
	static const u32 steps[] = { 1, 3, 7, 128, 1000 };
	struct aqm_sfb *s = sfb_new(test, 4, 64);
	struct aqm_sfb_stats all, st;
	struct aqm_sfb_res r;
	u32 i, id, pos, next, walks;
	u64 now = T0;

	sfb_rules(s, 1, ONE, ONE / 8, 0, AQM_SFB_DEC_ARRIVAL);
	for (id = 1; id <= 40; id++)
		sfb_in(s, id * 7919, now, &r);
	for (id = 1; id <= 5; id++)
		sfb_pollute(s, id * 104729, &now);
	aqm_sfb_stats(s, &all);
	KUNIT_ASSERT_GT(test, all.max_p, 0LL);
	KUNIT_ASSERT_GT(test, all.pkts, 0ULL);

	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		memset(&st, 0, sizeof(st));
		walks = 0;
		for (pos = 0; pos < 4 * 64; pos = next, walks++) {
			next = aqm_sfb_stats_walk(s, &st, pos, steps[i]);
			KUNIT_EXPECT_EQ(test, next, min(pos + steps[i], 256U));
		}
		aqm_sfb_stats_end(s, &st);
		KUNIT_EXPECT_EQ(test, walks, DIV_ROUND_UP(256U, steps[i]));
		KUNIT_EXPECT_EQ(test, st.max_p, all.max_p);
		KUNIT_EXPECT_EQ(test, st.avg_p, all.avg_p);
		KUNIT_EXPECT_EQ(test, st.maxqlen, all.maxqlen);
		KUNIT_EXPECT_EQ(test, st.pkts, all.pkts);
		KUNIT_EXPECT_EQ(test, st.full[0], all.full[0]);
		KUNIT_EXPECT_EQ(test, st.full[3], all.full[3]);
	}
	/* past the end: nothing walked */
	KUNIT_EXPECT_EQ(test, aqm_sfb_stats_walk(s, &st, 256, 5), 256U);
	KUNIT_EXPECT_EQ(test, aqm_sfb_stats_walk(s, &st, 300, 5), 300U);
}

/*
 * Linux's bins have no freeze time, nor have sch_sfb's (the defaults):
 * loss events in the same nanosecond each raise p_m, and `increment 1`
 * (0xFFFF) penalizes a flow at its first loss event, as in Linux.
 */
static void aqm_sfb_no_freeze(struct kunit *test)
{
	struct aqm_sfb *s = sfb_new(test, 1, 16);
	struct aqm_sfb_params p;
	struct aqm_sfb_res r;
	u32 i;

	aqm_sfb_params_default(&p);
	KUNIT_EXPECT_EQ(test, p.blue.freeze_us, 0U);
	/* bin_size 1, increment 1/4, decrement 1/8, all at one instant */
	sfb_rules(s, 1, ONE / 4, ONE / 8, 0, AQM_SFB_DEC_ARRIVAL);
	sfb_in(s, FLOW_U, T0, &r);
	for (i = 1; i <= 3; i++) {
		sfb_in(s, FLOW_U, T0, &r);
		KUNIT_EXPECT_EQ(test, r.p_min, (s64)i * ONE / 4);
	}
	/* emptied: each arrival into the empty bin lowers it, same instant */
	for (i = 0; i < 4; i++) {
		struct aqm_sfb_cb cb = r.cb;

		aqm_sfb_remove(s, &cb, T0);
	}
	aqm_sfb_arrive(s, FLOW_U, T0, &r);
	KUNIT_EXPECT_EQ(test, r.p_min, 3 * ONE / 4 - ONE / 8);
	aqm_sfb_arrive(s, FLOW_U, T0, &r);
	KUNIT_EXPECT_EQ(test, r.p_min, 3 * ONE / 4 - 2 * (ONE / 8));

	/* `increment 1`: one loss event, penalized */
	s = sfb_new(test, 1, 16);
	sfb_rules(s, 1, aqm_sfb_prob_from16(0xFFFF), ONE / 8, 0,
		  AQM_SFB_DEC_ARRIVAL);
	sfb_in(s, FLOW_U, T0, &r);
	aqm_sfb_arrive(s, FLOW_U, T0 + 1, &r);
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalized(&r));
}

/* The packet bucket: Linux's penalty_rate and penalty_burst, exactly. */
static void aqm_sfb_penalty_packets(struct kunit *test)
{
	struct aqm_sfb_penalty pen;
	u32 i, n;
	u64 t;

	/* 10 packets/s, burst 20, full */
	aqm_sfb_penalty_init(&pen, 10, 20, 0, 0, T0);
	for (i = 0; i < 20; i++)
		KUNIT_EXPECT_TRUE(test, aqm_sfb_penalty_pass(&pen, 1500, 1, T0));
	KUNIT_EXPECT_FALSE(test, aqm_sfb_penalty_pass(&pen, 1500, 1, T0));
	KUNIT_EXPECT_EQ(test, pen.pkt.tokens, 0LL);
	/* 150 ms: 1.5 tokens; one packet leaves 0.5 */
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalty_pass(&pen, 1500, 1, T0 + MS(150)));
	KUNIT_EXPECT_EQ(test, pen.pkt.tokens, TOKEN / 2);
	KUNIT_EXPECT_FALSE(test, aqm_sfb_penalty_pass(&pen, 1500, 1, T0 + MS(150)));
	/* 50 ms more: 1.0 */
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalty_pass(&pen, 1500, 1, T0 + MS(200)));
	KUNIT_EXPECT_EQ(test, pen.pkt.tokens, 0LL);
	KUNIT_EXPECT_FALSE(test, aqm_sfb_penalty_pass(&pen, 1500, 1, T0 + MS(210)));
	KUNIT_EXPECT_EQ(test, pen.pkt.tokens, TOKEN / 10);
	KUNIT_EXPECT_EQ(test, pen.pkt.t_ns, T0 + MS(210));

	/* arrivals every 10 ms keep the fraction: exactly 10 per second
	 * (Linux's limiter passes none: it restarts its clock each time)
	 */
	aqm_sfb_penalty_init(&pen, 10, 20, 0, 0, T0);
	pen.pkt.tokens = 0;
	for (n = 0, t = T0 + MS(10); t <= T0 + MS(1000); t += MS(10))
		n += aqm_sfb_penalty_pass(&pen, 100, 1, t);
	KUNIT_EXPECT_EQ(test, n, 10U);
	KUNIT_EXPECT_EQ(test, pen.pkt.tokens, 0LL);

	/* the burst caps what an idle hour earns */
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalty_pass(&pen, 100, 1,
						     T0 + 3600 * NSEC_PER_SEC));
	KUNIT_EXPECT_EQ(test, pen.pkt.tokens, 19 * TOKEN);

	/* exact to the nanotoken: 3/s for 333333333 ns is 0.999999999 */
	aqm_sfb_penalty_init(&pen, 3, 2, 0, 0, T0);
	pen.pkt.tokens = 0;
	KUNIT_EXPECT_FALSE(test, aqm_sfb_penalty_pass(&pen, 1, 1, T0 + 333333333));
	KUNIT_EXPECT_EQ(test, pen.pkt.tokens, TOKEN - 1);
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalty_pass(&pen, 1, 1, T0 + 333333334));
	KUNIT_EXPECT_EQ(test, pen.pkt.tokens, 2LL);

	/* Linux: rate 0 or burst 0 lets no penalized packet through */
	aqm_sfb_penalty_init(&pen, 0, 20, 0, 0, T0);
	KUNIT_EXPECT_FALSE(test, aqm_sfb_penalty_pass(&pen, 1, 1, T0));
	aqm_sfb_penalty_init(&pen, 10, 0, 0, 0, T0);
	KUNIT_EXPECT_FALSE(test, aqm_sfb_penalty_pass(&pen, 1, 1, T0 + MS(1000)));
	/* a clock that goes back adds nothing */
	aqm_sfb_penalty_init(&pen, 10, 2, 0, 0, T0);
	pen.pkt.tokens = 0;
	KUNIT_EXPECT_FALSE(test, aqm_sfb_penalty_pass(&pen, 1, 1, T0 - MS(500)));
	KUNIT_EXPECT_EQ(test, pen.pkt.tokens, 0LL);
	KUNIT_EXPECT_EQ(test, pen.pkt.t_ns, T0);
}

/* The byte bucket, both buckets at once. */
static void aqm_sfb_penalty_bytes(struct kunit *test)
{
	struct aqm_sfb_penalty pen;

	/* 100 packets/s burst 100, 3000 B/s burst 3000 B */
	aqm_sfb_penalty_init(&pen, 100, 100, 3000, 3000, T0);
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalty_pass(&pen, 1500, 1, T0));
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalty_pass(&pen, 1500, 1, T0));
	KUNIT_EXPECT_EQ(test, pen.byte.tokens, 0LL);
	KUNIT_EXPECT_EQ(test, pen.pkt.tokens, 98 * TOKEN);
	/* no bytes left: refused, and the packet bucket is not charged */
	KUNIT_EXPECT_FALSE(test, aqm_sfb_penalty_pass(&pen, 40, 1, T0));
	KUNIT_EXPECT_EQ(test, pen.pkt.tokens, 98 * TOKEN);
	/* 10 ms: 30 bytes, not 40 */
	KUNIT_EXPECT_FALSE(test, aqm_sfb_penalty_pass(&pen, 40, 1, T0 + MS(10)));
	KUNIT_EXPECT_EQ(test, pen.byte.tokens, 30 * TOKEN);
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalty_pass(&pen, 30, 1, T0 + MS(10)));
	KUNIT_EXPECT_EQ(test, pen.byte.tokens, 0LL);
	/* the packet bucket earned 1 in those 10 ms */
	KUNIT_EXPECT_EQ(test, pen.pkt.tokens, 98 * TOKEN);
	/* 500 ms: 1500 bytes, one full-size packet */
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalty_pass(&pen, 1500, 1,
						     T0 + MS(510)));
	KUNIT_EXPECT_FALSE(test, aqm_sfb_penalty_pass(&pen, 1, 1,
						      T0 + MS(510)));
	/* a packet larger than the byte burst takes a full bucket into debt
	 * (a BIG TCP packet is never refused for good)...
	 */
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalty_pass(&pen, 4500, 1,
						     T0 + 3600 * NSEC_PER_SEC));
	KUNIT_EXPECT_EQ(test, pen.byte.tokens, -1500 * (s64)TOKEN);
	/* ...which the rate repays before anything else passes */
	KUNIT_EXPECT_FALSE(test, aqm_sfb_penalty_pass(&pen, 1, 1,
						      T0 + 3600 * NSEC_PER_SEC +
						      MS(500)));
	KUNIT_EXPECT_EQ(test, pen.byte.tokens, 0LL);
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalty_pass(&pen, 3000, 1,
						     T0 + 3600 * NSEC_PER_SEC +
						     MS(1500)));
	KUNIT_EXPECT_EQ(test, pen.byte.tokens, 0LL);
	/* a byte bucket of 0 bytes lets nothing through */
	aqm_sfb_penalty_init(&pen, 100, 100, 3000, 0, T0);
	KUNIT_EXPECT_FALSE(test, aqm_sfb_penalty_pass(&pen, 1, 1, T0 + MS(1000)));

	/* bytes available, packets not: refused, bytes not charged */
	aqm_sfb_penalty_init(&pen, 1, 1, 3000, 3000, T0);
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalty_pass(&pen, 100, 1, T0));
	KUNIT_EXPECT_FALSE(test, aqm_sfb_penalty_pass(&pen, 100, 1, T0 + MS(1)));
	KUNIT_EXPECT_EQ(test, pen.byte.tokens, 2903 * TOKEN);
	KUNIT_EXPECT_EQ(test, pen.pkt.tokens, 1000000LL);
}

/*
 * GSO packets: penalty_rate counts segments, and a packet larger than a
 * bucket passes when the bucket is full, its cost repaid at the rate: the
 * long-run rate stays exact (Linux's charges one token per skb).
 */
static void aqm_sfb_penalty_gso(struct kunit *test)
{
	struct aqm_sfb_penalty pen;
	u64 t, bytes = 0;
	u32 n = 0;

	/* 10 packets/s, burst 20: a 5-segment packet takes 5 tokens */
	aqm_sfb_penalty_init(&pen, 10, 20, 0, 0, T0);
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalty_pass(&pen, 7500, 5, T0));
	KUNIT_EXPECT_EQ(test, pen.pkt.tokens, 15 * (s64)TOKEN);
	/* 0 segments (not set yet) count as 1 */
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalty_pass(&pen, 1500, 0, T0));
	KUNIT_EXPECT_EQ(test, pen.pkt.tokens, 14 * (s64)TOKEN);
	/* 45 segments, more than the burst: refused until the bucket is
	 * full, then passed into a debt of 25 tokens (2.5 s at 10/s)
	 */
	KUNIT_EXPECT_FALSE(test, aqm_sfb_penalty_pass(&pen, 65160, 45, T0));
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalty_pass(&pen, 65160, 45,
						     T0 + MS(600)));
	KUNIT_EXPECT_EQ(test, pen.pkt.tokens, -25 * (s64)TOKEN);
	KUNIT_EXPECT_FALSE(test, aqm_sfb_penalty_pass(&pen, 1500, 1,
						      T0 + MS(3000)));
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalty_pass(&pen, 1500, 1,
						     T0 + MS(3200)));

	/* 64 KB packets every 10 ms for 100 s through 3000 B/s, burst 3000:
	 * what passes is the rate's 300 KB, give or take a packet
	 */
	aqm_sfb_penalty_init(&pen, 1000000, 1000000, 3000, 3000, T0);
	for (t = T0; t < T0 + 100 * NSEC_PER_SEC; t += MS(10)) {
		if (aqm_sfb_penalty_pass(&pen, 65536, 45, t)) {
			bytes += 65536;
			n++;
		}
	}
	KUNIT_EXPECT_GE(test, n, 4U);
	KUNIT_EXPECT_LE(test, bytes, 3000ULL * 100 + 65536);
	KUNIT_EXPECT_GE(test, bytes, 3000ULL * 100 - 65536);
}

/* No elapsed time overflows the buckets, up to U64_MAX ns. */
static void aqm_sfb_penalty_overflow(struct kunit *test)
{
	struct aqm_sfb_penalty pen;
	struct aqm_sfb_tb tb;

	/* the largest rates and bursts, empty, from time 0 to U64_MAX */
	aqm_sfb_penalty_init(&pen, U32_MAX, U32_MAX, U32_MAX, U32_MAX, 0);
	pen.pkt.tokens = 0;
	pen.byte.tokens = 0;
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalty_pass(&pen, U32_MAX, 1, U64_MAX));
	KUNIT_EXPECT_EQ(test, pen.pkt.tokens, ((u64)U32_MAX - 1) * TOKEN);
	KUNIT_EXPECT_EQ(test, pen.byte.tokens, 0LL);
	KUNIT_EXPECT_EQ(test, pen.pkt.t_ns, U64_MAX);

	/* rate * elapsed just fits in 64 bits, or just not */
	tb = (struct aqm_sfb_tb) { .rate = U32_MAX, .burst = U32_MAX };
	aqm_sfb_tb_refill(&tb, U64_MAX / U32_MAX);
	KUNIT_EXPECT_EQ(test, tb.tokens, (u64)U32_MAX * TOKEN);
	tb = (struct aqm_sfb_tb) { .rate = U32_MAX, .burst = U32_MAX };
	aqm_sfb_tb_refill(&tb, U64_MAX / U32_MAX + 1);
	KUNIT_EXPECT_EQ(test, tb.tokens, (u64)U32_MAX * TOKEN);
	/* 1 ns at the largest rate: exact */
	tb = (struct aqm_sfb_tb) { .rate = U32_MAX, .burst = U32_MAX };
	aqm_sfb_tb_refill(&tb, 1);
	KUNIT_EXPECT_EQ(test, tb.tokens, (u64)U32_MAX);
	/* rate 1 token/s over 2^64 - 2 ns: 1.8e10 tokens, capped at 5 */
	tb = (struct aqm_sfb_tb) { .rate = 1, .burst = 5, .t_ns = 1 };
	aqm_sfb_tb_refill(&tb, U64_MAX - 1);
	KUNIT_EXPECT_EQ(test, tb.tokens, 5 * TOKEN);
	/* one ns short of a token, from far in the future */
	tb = (struct aqm_sfb_tb) { .rate = 1, .burst = 5,
				   .t_ns = U64_MAX - NSEC_PER_SEC };
	aqm_sfb_tb_refill(&tb, U64_MAX - 1);
	KUNIT_EXPECT_EQ(test, tb.tokens, TOKEN - 1);
	/* a burst lowered below the tokens held: capped */
	tb.burst = 0;
	aqm_sfb_tb_refill(&tb, U64_MAX);
	KUNIT_EXPECT_EQ(test, tb.tokens, 0ULL);
}

/* ====================================================================== */
/* SFRED (IV-A's per-bin RED with adaptive max_p, AQM_SFB_RED) */

/* an average of x packets, Q16 (struct aqm_sfb_red_bin.avg) */
#define PKTS(x)		((u32)(x) << AQM_ARED_AVG_SHIFT)
/* a bin's max_p is kept in 2^-31 units: 1/4 there */
#define QUARTER31	BIT(29)

/*
 * L x N bins in SFRED mode: min_th 5, max_th 10 packets with the gentle
 * region (p_b 1 from 20), a fresh bin's max_p 1/4 (QUARTER31 in the bin),
 * ceil 1, wlog 16 (an average less than a packet from the bin's count
 * stays put: (q - avg) >> 16 is 0), intervals of 100 ms from T0 (the
 * first ends at T0 + 100 ms, as sch_sfb sets it), no rehash.
 */
static struct aqm_sfb *sfred_new(struct kunit *test, u32 levels, u32 nbins)
{
	struct aqm_sfb *s = sfb_new(test, levels, nbins);
	struct aqm_sfb_red_params *r = &s->params.red;

	s->params.flags = AQM_SFB_RED;
	s->params.rehash_ns = 0;
	s->params.warmup_ns = 0;
	KUNIT_ASSERT_EQ(test, aqm_ared_curve_set(&r->curve, 5, 10, true), 0);
	r->curve.interval = MS(100);
	r->max_p = ONE / 4;
	r->ceil = ONE;
	r->wlog = 16;
	KUNIT_ASSERT_EQ(test, aqm_sfb_params_check(&s->params), 0);
	s->red_next = T0 + MS(100);
	KUNIT_ASSERT_EQ(test, s->red_epoch, 0U);
	return s;
}

/* a bin of the active set, made current, with this average and count */
static struct aqm_sfb_bin *red_set(struct aqm_sfb *s, u32 l, u32 n, u32 avg,
				   u32 qlen)
{
	struct aqm_sfb_bin *bin = aqm_sfb_bin(s, aqm_sfb_active(s), l, n);

	bin->red.avg = avg;
	bin->qlen = qlen;
	return bin;
}

/* the RED state of a bin of set 0, whatever its generation */
static const struct aqm_sfb_red_bin *red_at(const struct aqm_sfb *s, u32 l,
					    u32 n)
{
	return &aqm_sfb_bin_at(s, 0, l, n)->red;
}

/* an arrival, not counted: the counts stay as the test set them */
static void red_arrive(struct aqm_sfb *s, u32 id, u64 now,
		       struct aqm_sfb_res *res)
{
	aqm_sfb_tick(s, now);
	aqm_sfb_arrive(s, id, now, res);
}

/* AQM_SFB_RED's parameters are checked with the flag only. */
static void aqm_sfb_red_params(struct kunit *test)
{
	struct aqm_sfb_params p, d;

	aqm_sfb_params_default(&d);
	/* the defaults: 5 and 10 packets, gentle, 0.1 up to 1, 500 ms, 1/16 */
	KUNIT_EXPECT_EQ(test, d.red.curve.min_th, 5U);
	KUNIT_EXPECT_EQ(test, d.red.curve.max_th, 10U);
	KUNIT_EXPECT_TRUE(test, d.red.curve.gentle);
	KUNIT_EXPECT_EQ(test, d.red.curve.inv_delta, 858993459ULL);
	KUNIT_EXPECT_EQ(test, d.red.curve.inv_max, 429496729ULL);
	KUNIT_EXPECT_EQ(test, d.red.curve.interval, MS(500));
	KUNIT_EXPECT_EQ(test, d.red.max_p, (u64)ONE / 10);
	KUNIT_EXPECT_EQ(test, d.red.ceil, (u64)ONE);
	KUNIT_EXPECT_EQ(test, d.red.wlog, 4U);
	KUNIT_EXPECT_EQ(test, d.flags & AQM_SFB_RED, 0U);

	p = d;
	p.flags |= AQM_SFB_RED;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), 0);
	p.flags = AQM_SFB_RED | AQM_SFB_DEC_ARRIVAL | AQM_SFB_WARM_ALL;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), 0);
	/* BLUE's own policies act on p_m: refused with RED */
	p.flags = AQM_SFB_RED | AQM_SFB_DEC_EMPTIED;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), -EINVAL);
	p.flags = AQM_SFB_RED | AQM_SFB_WARM_RAISE;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), -EINVAL);
	p.flags = AQM_SFB_FLAGS;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), -EINVAL);
	p.flags = AQM_SFB_RED | BIT(5);
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), -EINVAL);
	p.flags = AQM_SFB_RED;

	/* thresholds: ordered, max_th <= AQM_SFB_RED_TH_MAX */
	p.red.curve.max_th = 5;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), -EINVAL);
	p.red.curve.max_th = 4;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), -EINVAL);
	p.red.curve.max_th = 6;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), 0);
	KUNIT_EXPECT_EQ(test, aqm_ared_curve_set(&p.red.curve, 0, 1, false), 0);
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), 0);
	KUNIT_EXPECT_EQ(test, aqm_ared_curve_set(&p.red.curve, 5,
						 AQM_SFB_RED_TH_MAX, true), 0);
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), 0);
	KUNIT_EXPECT_EQ(test, aqm_ared_curve_set(&p.red.curve, 5,
						 AQM_SFB_RED_TH_MAX + 1, true),
			0);
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), -EINVAL);
	p.red.curve = d.red.curve;

	/* max_p and ceil in (0, 1] */
	p.red.max_p = 0;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), -EINVAL);
	p.red.max_p = ONE + 1;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), -EINVAL);
	p.red.max_p = ONE;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), 0);
	p.red.max_p = 1;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), 0);
	p.red.ceil = 0;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), -EINVAL);
	p.red.ceil = ONE + 1;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), -EINVAL);
	p.red.ceil = 1;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), 0);
	p.red.ceil = ONE;

	/* wlog up to 16; interval 0 (max_p fixed) is valid */
	p.red.wlog = AQM_SFB_RED_WLOG_MAX + 1;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), -EINVAL);
	p.red.wlog = AQM_SFB_RED_WLOG_MAX;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), 0);
	p.red.wlog = 0;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), 0);
	p.red.curve.interval = 0;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), 0);

	/* without the flag the red fields are not looked at */
	p.red = (struct aqm_sfb_red_params) {
		.curve = { .min_th = 7, .max_th = 7 },
		.max_p = 0,
		.ceil = ONE + 1,
		.wlog = 99,
	};
	p.flags = AQM_SFB_DEC_EMPTIED | AQM_SFB_WARM_RAISE;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), 0);
	p.red.curve.max_th = AQM_SFB_RED_TH_MAX + 1;
	p.flags = 0;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), 0);
	p.flags = AQM_SFB_RED;
	KUNIT_EXPECT_EQ(test, aqm_sfb_params_check(&p), -EINVAL);
}

/*
 * A reset bin in RED mode reads avg 0, max_p red.max_p in 2^-31 units
 * rounded up ((red.max_p + 1) >> 1, aqm_sfb_red_p31()) and the current
 * red_epoch: after the allocation, a switch and a reset. The bins are
 * reset lazily: the values are those at its first touch.
 */
static void aqm_sfb_red_reset(struct kunit *test)
{
	struct aqm_sfb *s = sfb_new(test, 2, 16);
	const struct aqm_sfb_red_bin *r;
	struct aqm_sfb_bin *bin;
	struct aqm_sfb_res res;
	u32 l;

	/* the allocation: epoch 0, the first interval ends at T0 + 500 ms */
	KUNIT_EXPECT_EQ(test, s->red_epoch, 0U);
	KUNIT_EXPECT_EQ(test, s->red_next, T0 + MS(500));
	s->params.flags |= AQM_SFB_RED;
	KUNIT_ASSERT_EQ(test, aqm_sfb_params_check(&s->params), 0);
	/* (1250 - 500) / 500 + 1 = 2 intervals ended */
	aqm_sfb_tick(s, T0 + MS(1250));
	KUNIT_EXPECT_EQ(test, s->red_epoch, 2U);

	/* the default max_p, 2^32 / 10 = 429496729, halved up: 214748365 */
	bin = aqm_sfb_bin(s, 0, 0, 3);
	KUNIT_EXPECT_EQ(test, bin->red.avg, 0U);
	KUNIT_EXPECT_EQ(test, bin->red.max_p, 214748365U);
	KUNIT_EXPECT_EQ(test, bin->red.epoch, 2U);
	KUNIT_EXPECT_EQ(test, bin->red.pad, 0U);
	KUNIT_EXPECT_EQ(test, bin->qlen, 0U);
	KUNIT_EXPECT_EQ(test, aqm_sfb_bin_prob(s, bin), 0LL);
	/*
	 * Its first arrival is in the interval of its reset: no step (avg 0
	 * is below min_th + 0.4 (max_th - min_th) and max_p >= 0.01, so a
	 * step would lower it).
	 */
	aqm_sfb_arrive(s, FLOW_U, T0 + MS(1250), &res);
	KUNIT_EXPECT_EQ(test, res.p_min, 0LL);
	for (l = 0; l < 2; l++) {
		r = red_at(s, l, res.idx[0][l]);
		KUNIT_EXPECT_EQ(test, r->max_p, 214748365U);
		KUNIT_EXPECT_EQ(test, r->epoch, 2U);
		KUNIT_EXPECT_EQ(test, r->avg, 0U);
	}

	/* FLOW_U's bins polluted, then a switch resets set 0 */
	for (l = 0; l < 2; l++) {
		bin = red_set(s, l, res.idx[0][l], PKTS(20), 20);
		bin->red.max_p = 12345;
	}
	KUNIT_EXPECT_EQ(test, aqm_sfb_lookup(s, 0, FLOW_U, NULL), ONE);
	aqm_sfb_swap(s, T0 + MS(1250), &sfb_keys[0]);
	KUNIT_EXPECT_EQ(test, aqm_sfb_active(s), 1U);
	KUNIT_EXPECT_EQ(test, aqm_sfb_lookup(s, 0, FLOW_U, NULL), 0LL);
	aqm_sfb_tick(s, T0 + MS(1500));
	KUNIT_EXPECT_EQ(test, s->red_epoch, 3U);
	/* red.max_p as it is at the first touch: 1 is 2^31 in a bin */
	s->params.red.max_p = ONE;
	for (l = 0; l < 2; l++) {
		bin = aqm_sfb_bin(s, 0, l, res.idx[0][l]);
		KUNIT_EXPECT_EQ(test, bin->red.avg, 0U);
		KUNIT_EXPECT_EQ(test, bin->red.max_p, (u32)BIT(31));
		KUNIT_EXPECT_EQ(test, bin->red.epoch, 3U);
		KUNIT_EXPECT_EQ(test, bin->qlen, 0U);
	}

	/* the active set 1 written, then a reset */
	aqm_sfb_arrive(s, FLOW_U, T0 + MS(1500), &res);
	for (l = 0; l < 2; l++) {
		bin = red_set(s, l, res.idx[1][l], PKTS(20), 20);
		bin->red.max_p = 12345;
		bin->red.epoch = 0;
	}
	KUNIT_EXPECT_EQ(test, aqm_sfb_lookup(s, 1, FLOW_U, NULL), ONE);
	aqm_sfb_reset(s, T0 + MS(1600), sfb_keys);
	KUNIT_EXPECT_EQ(test, aqm_sfb_active(s), 1U);
	KUNIT_EXPECT_EQ(test, aqm_sfb_lookup(s, 1, FLOW_U, NULL), 0LL);
	/* the least red.max_p, 2^-32, is 2^-31 in a bin, not 0 */
	s->params.red.max_p = 1;
	for (l = 0; l < 2; l++) {
		bin = aqm_sfb_bin(s, 1, l, res.idx[1][l]);
		KUNIT_EXPECT_EQ(test, bin->red.avg, 0U);
		KUNIT_EXPECT_EQ(test, bin->red.max_p, 1U);
		KUNIT_EXPECT_EQ(test, bin->red.epoch, 3U);
		KUNIT_EXPECT_EQ(test, bin->qlen, 0U);
	}
}

/*
 * The EWMA: an arrival into a bin of count q moves its average by exactly
 * (q 2^16 - avg) >> wlog toward q (the difference rounded down, so a
 * falling average rounds up), from the count before the arrival; q
 * saturates at 65535 packets. L = 2, N = 16: FLOW_U's bins 3 and 14, both
 * checked; interval 0: no AIMD step.
 */
static void aqm_sfb_red_ewma(struct kunit *test)
{
	static const struct {
		u32 wlog, qlen, avg, after;
	} ew[] = {
		{ 2, 2, PKTS(10), PKTS(8) },		/* - (8 << 16) >> 2 */
		{ 2, 2, PKTS(10) + 1, PKTS(8) + 1 },	/* - 524289 >> 2 */
		{ 2, 1, 1, 16384 },			/* + 65535 >> 2 */
		{ 4, 3, 0, 12288 },			/* + (3 << 16) >> 4 */
		{ 4, 0, PKTS(10), 614400 },		/* - 655360 >> 4 */
		{ 16, 1, 0, 1 },
		{ 16, 0, 65535, 65535 },		/* 65535 >> 16 = 0 */
		{ 0, 7, 12345, PKTS(7) },		/* the sample itself */
		/* 65535 packets and more: (u32)65535 << 16 */
		{ 0, 65535, 0, PKTS(65535) },
		{ 0, 65536, 0, PKTS(65535) },
		{ 0, U32_MAX, 0, PKTS(65535) },
		/* unsaturated, 70000 << 16 would wrap to 0x11700000 */
		{ 4, 70000, PKTS(65535), PKTS(65535) },
		{ 1, U32_MAX, PKTS(65535) - 2, PKTS(65535) - 1 },
		{ 4, 0, PKTS(65535), 4026470400U },	/* - 0xFFFF0000 >> 4 */
	};
	struct aqm_sfb *s = sfred_new(test, 2, 16);
	static const u16 bu[2] = { 3, 14 };
	struct aqm_sfb_res r;
	int i, l;

	s->params.red.curve.interval = 0;
	s->params.red.wlog = 2;
	/* admitted arrivals: the sample is the count found, 0, 1, 2 */
	sfb_in(s, FLOW_U, T0, &r);
	KUNIT_EXPECT_EQ(test, r.idx[0][0], bu[0]);
	KUNIT_EXPECT_EQ(test, r.idx[0][1], bu[1]);
	for (l = 0; l < 2; l++) {
		KUNIT_EXPECT_EQ(test, red_at(s, l, bu[l])->avg, 0U);
		KUNIT_EXPECT_EQ(test, bin_q(s, 0, l, bu[l]), 1U);
	}
	sfb_in(s, FLOW_U, T0 + US(1), &r);
	for (l = 0; l < 2; l++)
		KUNIT_EXPECT_EQ(test, red_at(s, l, bu[l])->avg, 16384U);
	/* 16384 + (131072 - 16384) >> 2 = 16384 + 28672 */
	sfb_in(s, FLOW_U, T0 + US(2), &r);
	for (l = 0; l < 2; l++)
		KUNIT_EXPECT_EQ(test, red_at(s, l, bu[l])->avg, 45056U);

	for (i = 0; i < ARRAY_SIZE(ew); i++) {
		s->params.red.wlog = ew[i].wlog;
		for (l = 0; l < 2; l++)
			red_set(s, l, bu[l], ew[i].avg, ew[i].qlen);
		aqm_sfb_arrive(s, FLOW_U, T0 + MS(1), &r);
		for (l = 0; l < 2; l++) {
			KUNIT_EXPECT_EQ_MSG(test, red_at(s, l, bu[l])->avg,
					    ew[i].after,
					    "wlog %u qlen %u avg %u, level %d",
					    ew[i].wlog, ew[i].qlen, ew[i].avg, l);
			/* the arrival alone does not count the packet */
			KUNIT_EXPECT_EQ(test, bin_q(s, 0, l, bu[l]), ew[i].qlen);
		}
	}
}

/*
 * p_b on the RED curve at a bin's average, min_th 5, max_th 10, the bin's
 * max_p m = 1/4 (2^30 in 2^-32 units). inv_delta = floor(2^32 / 5) =
 * 858993459, inv_max = floor(2^32 / 10) = 429496729; frac is (avg -
 * min_th) inv_delta (below max_th) or (avg - max_th) inv_max (gentle),
 * rounded down to 2^-32:
 *  6:		frac 858993459, p = floor(m frac / 2^32) = floor(214748364.75)
 *  7.5:	frac = floor(2.5 inv_delta) = 2^31 - 1: p = floor(2^29 - 1/4),
 *		m / 2 less one unit
 *  10 - 2^-16:	frac = 4294954187, p = floor(frac / 4)
 *  10:		gentle: frac 0, p = m; steep: 1
 *  12:		frac = 2 inv_max = 858993458: p = m + floor(3 2^30 frac /
 *		2^32) = 2^30 + floor(644245093.5)
 *  20 - 2^-16:	frac = 4294960736, p = 2^30 + floor(3 frac / 4)
 */
static void aqm_sfb_red_curve(struct kunit *test)
{
	static const struct {
		u32 avg;
		s64 gentle, steep;
	} pb[] = {
		{ 0, 0, 0 },
		{ PKTS(5) - 1, 0, 0 },
		{ PKTS(5), 0, 0 },
		{ PKTS(6), 214748364, 214748364 },
		{ PKTS(15) / 2, ONE / 8 - 1, ONE / 8 - 1 },
		{ PKTS(10) - 1, 1073738546, 1073738546 },
		{ PKTS(10), ONE / 4, ONE },
		{ PKTS(12), 1717986917, ONE },
		{ PKTS(20) - 1, 4294962376LL, ONE },
		{ PKTS(20), ONE, ONE },
		{ PKTS(65535), ONE, ONE },
	};
	static const u16 bu[3] = { 3, 14, 15 };
	/* three averages, 20, 7.5 and 12, with counts that keep them */
	static const u32 avg3[3] = { PKTS(20), PKTS(15) / 2, PKTS(12) };
	static const u32 q3[3] = { 20, 7, 12 };
	struct aqm_sfb *s = sfred_new(test, 3, 16);
	struct aqm_sfb_bin *bin;
	struct aqm_sfb_res r;
	u32 q;
	int i, k, l;

	s->params.red.curve.interval = 0;
	/* every bin of FLOW_U below min_th: p_min 0, not marked */
	for (l = 0; l < 3; l++)
		red_set(s, l, bu[l], PKTS(5) - 1, 4);
	KUNIT_EXPECT_EQ(test, aqm_sfb_lookup(s, 0, FLOW_U, &q), 0LL);
	KUNIT_EXPECT_EQ(test, q, 4U);
	aqm_sfb_arrive(s, FLOW_U, T0, &r);
	for (l = 0; l < 3; l++) {
		KUNIT_EXPECT_EQ(test, r.idx[0][l], bu[l]);
		KUNIT_EXPECT_EQ(test, red_at(s, l, bu[l])->avg, PKTS(5) - 1);
		KUNIT_EXPECT_EQ(test, red_at(s, l, bu[l])->max_p, QUARTER31);
	}
	KUNIT_EXPECT_EQ(test, r.p_min, 0LL);
	KUNIT_EXPECT_FALSE(test, aqm_sfb_penalized(&r));

	/* one bin along the curve, gentle, then without the gentle region */
	bin = aqm_sfb_bin(s, 0, 0, bu[0]);
	for (i = 0; i < ARRAY_SIZE(pb); i++) {
		bin->red.avg = pb[i].avg;
		KUNIT_EXPECT_EQ_MSG(test, aqm_sfb_bin_prob(s, bin), pb[i].gentle,
				    "gentle, avg %u", pb[i].avg);
	}
	KUNIT_ASSERT_EQ(test, aqm_ared_curve_set(&s->params.red.curve, 5, 10,
						 false), 0);
	for (i = 0; i < ARRAY_SIZE(pb); i++) {
		bin->red.avg = pb[i].avg;
		KUNIT_EXPECT_EQ_MSG(test, aqm_sfb_bin_prob(s, bin), pb[i].steep,
				    "not gentle, avg %u", pb[i].avg);
	}
	KUNIT_ASSERT_EQ(test, aqm_ared_curve_set(&s->params.red.curve, 5, 10,
						 true), 0);

	/* p_min is the least p_b of the L bins, wherever it is */
	for (k = 0; k < 3; k++) {
		for (l = 0; l < 3; l++)
			red_set(s, l, bu[l], avg3[(l + k) % 3], q3[(l + k) % 3]);
		KUNIT_EXPECT_EQ_MSG(test, aqm_sfb_lookup(s, 0, FLOW_U, &q),
				    ONE / 8 - 1, "rotation %d", k);
		KUNIT_EXPECT_EQ(test, q, 7U);
		aqm_sfb_arrive(s, FLOW_U, T0 + MS(1), &r);
		KUNIT_EXPECT_EQ_MSG(test, r.p_min, ONE / 8 - 1, "rotation %d",
				    k);
		KUNIT_EXPECT_EQ(test, r.minqlen, 7U);
		KUNIT_EXPECT_EQ(test, r.maxqlen, 20U);
		KUNIT_EXPECT_FALSE(test, aqm_sfb_penalized(&r));
	}
	/* with the 7.5 bin at 12 instead, the least is 12's */
	red_set(s, 0, bu[0], PKTS(12), 12);
	red_set(s, 1, bu[1], PKTS(20), 20);
	red_set(s, 2, bu[2], PKTS(12), 12);
	KUNIT_EXPECT_EQ(test, aqm_sfb_lookup(s, 0, FLOW_U, NULL), 1717986917LL);
}

/*
 * Floyd's AIMD on each bin's max_p, one step per bin per interval at its
 * first arrival in it, from the average before that arrival. min_th 5,
 * max_th 10: max_p rises above 5 + 0.6 * 5 = 8 packets (avg > 524288),
 * falls below 7 (avg < 458752). L = 8, N = 16: FLOW_U's bins (3, 14, 15,
 * 10, 2, 14, 0, 8), all at max_p 1/4 (2^30 in 2^-32 units, 2^29 in the
 * bin's 2^-31). Rise: + min(0.01, max_p / 4) = + 42949672: 1116691496,
 * 1159641168, 1202590840, stored halved (even: exact). Fall: * 0.9,
 * rounded down, then halved up into the bin: floor(2^30 9 / 10) =
 * 966367641, stored 483183821 (966367642 in 2^-32); then floor(869730877.8)
 * = 869730877, stored 434865439 (869730878); then floor(782757790.2),
 * stored 391378895. wlog 16 keeps every average where it is set.
 */
static void aqm_sfb_red_adapt(struct kunit *test)
{
	enum { M = QUARTER31, R1 = 558345748, R2 = 579820584, R3 = 601295420,
	       F1 = 483183821, F2 = 434865439, F3 = 391378895 };
	static const u16 bu[8] = { 3, 14, 15, 10, 2, 14, 0, 8 };
	static const struct {
		u32 avg;
		u32 qlen;	/* within a packet below avg */
		u32 p[3];	/* max_p after the steps of intervals 1, 2, 7 */
	} lv[8] = {
		{ PKTS(9), 9, { R1, R2, R3 } },
		{ PKTS(6), 6, { F1, F2, F3 } },
		{ PKTS(15) / 2, 7, { M, M, M } },	/* in the band */
		{ PKTS(8), 8, { M, M, M } },		/* not above 8 */
		{ PKTS(8) + 1, 8, { R1, R2, R3 } },
		{ PKTS(7), 7, { M, M, M } },		/* not below 7 */
		{ PKTS(7) - 1, 6, { F1, F2, F3 } },
		{ PKTS(20), 20, { R1, R2, R3 } },	/* p_b 1 */
	};
	struct aqm_sfb *s = sfred_new(test, 8, 16);
	struct aqm_sfb_res r;
	int i, l;

	for (l = 0; l < 8; l++)
		red_set(s, l, bu[l], lv[l].avg, lv[l].qlen);
	/* interval 0 [T0, T0 + 100 ms): the bins' own, no step */
	red_arrive(s, FLOW_U, T0 + MS(50), &r);
	aqm_sfb_tick(s, T0 + MS(100) - 1);
	KUNIT_EXPECT_EQ(test, s->red_epoch, 0U);
	for (l = 0; l < 8; l++) {
		KUNIT_EXPECT_EQ(test, r.idx[0][l], bu[l]);
		KUNIT_EXPECT_EQ(test, red_at(s, l, bu[l])->max_p, (u32)M);
	}

	/* interval 1: one step at the first arrival, none at the others */
	red_arrive(s, FLOW_U, T0 + MS(100), &r);
	KUNIT_EXPECT_EQ(test, s->red_epoch, 1U);
	KUNIT_EXPECT_EQ(test, s->red_next, T0 + MS(200));
	for (i = 0; i < 10; i++) {
		/* 9 more, the last at T0 + 200 ms - 1 ns */
		if (i)
			red_arrive(s, FLOW_U, T0 + MS(200) - 1 - MS(9 - i), &r);
		KUNIT_EXPECT_EQ(test, s->red_epoch, 1U);
		for (l = 0; l < 8; l++) {
			KUNIT_EXPECT_EQ_MSG(test, red_at(s, l, bu[l])->max_p,
					    lv[l].p[0], "level %d, arrival %d",
					    l, i);
			KUNIT_EXPECT_EQ(test, red_at(s, l, bu[l])->epoch, 1U);
			KUNIT_EXPECT_EQ(test, red_at(s, l, bu[l])->avg,
					lv[l].avg);
		}
	}
	/* interval 2 */
	red_arrive(s, FLOW_U, T0 + MS(200), &r);
	red_arrive(s, FLOW_U, T0 + MS(250), &r);
	KUNIT_EXPECT_EQ(test, s->red_epoch, 2U);
	for (l = 0; l < 8; l++)
		KUNIT_EXPECT_EQ_MSG(test, red_at(s, l, bu[l])->max_p,
				    lv[l].p[1], "level %d", l);

	/*
	 * One tick at T0 + 750 ms: the intervals that ended at 300, 400, 500,
	 * 600 and 700 ms, (750 - 300) / 100 + 1 = 5, with one division; the
	 * bins then take one step, not five.
	 */
	aqm_sfb_tick(s, T0 + MS(750));
	KUNIT_EXPECT_EQ(test, s->red_epoch, 7U);
	KUNIT_EXPECT_EQ(test, s->red_next, T0 + MS(800));
	for (l = 0; l < 8; l++)
		KUNIT_EXPECT_EQ(test, red_at(s, l, bu[l])->max_p, lv[l].p[1]);
	red_arrive(s, FLOW_U, T0 + MS(750), &r);
	red_arrive(s, FLOW_U, T0 + MS(799), &r);
	KUNIT_EXPECT_EQ(test, s->red_epoch, 7U);
	for (l = 0; l < 8; l++) {
		KUNIT_EXPECT_EQ_MSG(test, red_at(s, l, bu[l])->max_p,
				    lv[l].p[2], "level %d", l);
		KUNIT_EXPECT_EQ(test, red_at(s, l, bu[l])->epoch, 7U);
	}

	/*
	 * The step reads the average before the arrival's sample: level 3 at
	 * 8 packets exactly with 20 queued and wlog 0: no rise in interval
	 * 8, where its average becomes 20; a rise in interval 9.
	 */
	s->params.red.wlog = 0;
	red_set(s, 3, bu[3], PKTS(8), 20);
	red_arrive(s, FLOW_U, T0 + MS(800), &r);
	KUNIT_EXPECT_EQ(test, s->red_epoch, 8U);
	KUNIT_EXPECT_EQ(test, red_at(s, 3, bu[3])->max_p, (u32)M);
	KUNIT_EXPECT_EQ(test, red_at(s, 3, bu[3])->avg, PKTS(20));
	red_arrive(s, FLOW_U, T0 + MS(900), &r);
	KUNIT_EXPECT_EQ(test, s->red_epoch, 9U);
	KUNIT_EXPECT_EQ(test, red_at(s, 3, bu[3])->max_p, (u32)R1);
}

/*
 * max_p's bounds: with ceil 1 it never passes 1 (2^31 in a bin); with a
 * ceil it rises while at most the ceil, so once past it, it stops (and
 * still falls); interval 0 keeps max_p fixed. L = 2, N = 16: FLOW_U's
 * bins 3 and 14, both at 9 packets (above the band) unless said.
 */
static void aqm_sfb_red_ceil(struct kunit *test)
{
	struct aqm_sfb *s = sfred_new(test, 2, 16);
	struct aqm_sfb_bin *b0, *b1;
	struct aqm_sfb_res r;
	u32 e;

	b0 = red_set(s, 0, 3, PKTS(9), 9);
	b1 = red_set(s, 1, 14, PKTS(9), 9);
	/* ceil 1: 1 - 1000 2^-32 and 1 both end at 1, and stay */
	b0->red.max_p = (ONE - 1000) >> 1;
	b1->red.max_p = ONE >> 1;
	red_arrive(s, FLOW_U, T0 + MS(100), &r);
	KUNIT_EXPECT_EQ(test, b0->red.max_p, (u32)BIT(31));
	KUNIT_EXPECT_EQ(test, b1->red.max_p, (u32)BIT(31));
	red_arrive(s, FLOW_U, T0 + MS(200), &r);
	KUNIT_EXPECT_EQ(test, s->red_epoch, 2U);
	KUNIT_EXPECT_EQ(test, b0->red.max_p, (u32)BIT(31));
	KUNIT_EXPECT_EQ(test, b1->red.max_p, (u32)BIT(31));
	/* p_b with max_p 1 at 9 packets: frac = floor(4 inv_delta) */
	KUNIT_EXPECT_EQ(test, r.p_min, 3435973836LL);

	/*
	 * ceil 1/2 (2^31): at the ceil it rises once, 2^31 + 42949672 =
	 * 2190433320 (stored 1095216660), then no more; a max_p 2 units
	 * above the ceil does not rise.
	 */
	s->params.red.ceil = ONE / 2;
	b0->red.max_p = BIT(30);
	b1->red.max_p = BIT(30) + 1;
	red_arrive(s, FLOW_U, T0 + MS(300), &r);
	KUNIT_EXPECT_EQ(test, b0->red.max_p, 1095216660U);
	KUNIT_EXPECT_EQ(test, b1->red.max_p, (u32)BIT(30) + 1);
	red_arrive(s, FLOW_U, T0 + MS(400), &r);
	KUNIT_EXPECT_EQ(test, s->red_epoch, 4U);
	KUNIT_EXPECT_EQ(test, b0->red.max_p, 1095216660U);
	KUNIT_EXPECT_EQ(test, b1->red.max_p, (u32)BIT(30) + 1);
	/* the ceiling bounds the rise only: floor((2^31 + 2) 0.9) =
	 * 1932735285, halved up
	 */
	b1->red.avg = PKTS(6);
	b1->qlen = 6;
	red_arrive(s, FLOW_U, T0 + MS(500), &r);
	KUNIT_EXPECT_EQ(test, b0->red.max_p, 1095216660U);
	KUNIT_EXPECT_EQ(test, b1->red.max_p, 966367643U);

	/*
	 * Interval 0: the clock stops and no bin steps, even one whose
	 * epoch is not the current one.
	 */
	s->params.red.ceil = ONE;
	s->params.red.curve.interval = 0;
	e = s->red_epoch;
	b0->red.epoch = e - 1;
	b1->red.epoch = e - 1;
	red_arrive(s, FLOW_U, T0 + 10 * NSEC_PER_SEC, &r);
	red_arrive(s, FLOW_U, T0 + 20 * NSEC_PER_SEC, &r);
	KUNIT_EXPECT_EQ(test, s->red_epoch, e);
	KUNIT_EXPECT_EQ(test, s->red_next, T0 + MS(600));
	KUNIT_EXPECT_EQ(test, b0->red.max_p, 1095216660U);
	KUNIT_EXPECT_EQ(test, b1->red.max_p, 966367643U);
	KUNIT_EXPECT_EQ(test, b0->red.epoch, e - 1);
	KUNIT_EXPECT_EQ(test, b1->red.epoch, e - 1);
}

/*
 * A flow all of whose bins give p_b = 1 is penalized; one that shares
 * only some of them is not, until its last bin gives 1 too. L = 3, N =
 * 16, set 0 (aqm_sfb_pmin): FLOW_U in (3, 14, 15), flow 523 in (3, 14,
 * 6), flow 563 in (3, 14, 15). Interval 0.
 */
static void aqm_sfb_red_penalty(struct kunit *test)
{
	static const u16 bu[3] = { 3, 14, 15 };
	struct aqm_sfb *s = sfred_new(test, 3, 16);
	struct aqm_sfb_res r;
	int l;

	s->params.red.curve.interval = 0;
	for (l = 0; l < 3; l++)
		red_set(s, l, bu[l], PKTS(20), 20);
	aqm_sfb_arrive(s, FLOW_U, T0, &r);
	KUNIT_EXPECT_EQ(test, r.p_min, ONE);
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalized(&r));
	/* misclassified: all its bins are FLOW_U's */
	aqm_sfb_arrive(s, 563, T0, &r);
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalized(&r));
	KUNIT_EXPECT_EQ(test, aqm_sfb_lookup(s, 0, 563, NULL), ONE);

	/* 523's third bin is fresh: p_b 0 */
	aqm_sfb_arrive(s, 523, T0, &r);
	KUNIT_EXPECT_EQ(test, r.idx[0][2], 6);
	KUNIT_EXPECT_EQ(test, r.p_min, 0LL);
	KUNIT_EXPECT_FALSE(test, aqm_sfb_penalized(&r));
	/* just below 2 max_th: 4294962376, see aqm_sfb_red_curve */
	red_set(s, 2, 6, PKTS(20) - 1, 19);
	aqm_sfb_arrive(s, 523, T0, &r);
	KUNIT_EXPECT_EQ(test, r.p_min, 4294962376LL);
	KUNIT_EXPECT_FALSE(test, aqm_sfb_penalized(&r));
	red_set(s, 2, 6, PKTS(20), 20);
	aqm_sfb_arrive(s, 523, T0, &r);
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalized(&r));

	/* without the gentle region, 10 packets in every bin is enough */
	KUNIT_ASSERT_EQ(test, aqm_ared_curve_set(&s->params.red.curve, 5, 10,
						 false), 0);
	for (l = 0; l < 3; l++)
		red_set(s, l, bu[l], PKTS(10), 10);
	aqm_sfb_arrive(s, FLOW_U, T0, &r);
	KUNIT_EXPECT_TRUE(test, aqm_sfb_penalized(&r));
	red_set(s, 1, bu[1], PKTS(10) - 1, 9);
	aqm_sfb_arrive(s, FLOW_U, T0, &r);
	KUNIT_EXPECT_EQ(test, r.p_min, 1073738546LL);
	KUNIT_EXPECT_FALSE(test, aqm_sfb_penalized(&r));
}

/*
 * aqm_sfb_stats() reports p_b in RED mode, not the bins' max_p. L = 2, N =
 * 16, all bins at max_p 1/4 unless said.
 */
static void aqm_sfb_red_stats(struct kunit *test)
{
	struct aqm_sfb *s = sfred_new(test, 2, 16);
	struct aqm_sfb_stats st;
	struct aqm_sfb_bin *bin;

	s->params.red.curve.interval = 0;
	/* p_b 2^29 - 1 (7.5 packets), and 0 from a bin of max_p 1 */
	red_set(s, 0, 3, PKTS(15) / 2, 3);
	bin = red_set(s, 1, 14, 0, 3);
	bin->red.max_p = BIT(31);
	aqm_sfb_stats(s, &st);
	KUNIT_EXPECT_EQ(test, st.max_p, ONE / 8 - 1);
	/* floor((2^29 - 1) / 32) */
	KUNIT_EXPECT_EQ(test, st.avg_p, 16777215LL);
	KUNIT_EXPECT_EQ(test, st.full[0], 0U);
	KUNIT_EXPECT_EQ(test, st.full[1], 0U);
	KUNIT_EXPECT_EQ(test, st.maxqlen, 3U);
	KUNIT_EXPECT_EQ(test, st.pkts, 3ULL);

	/*
	 * Two bins at p_b 1 (20 packets), one at m = 2^30 (10 packets,
	 * gentle), one of max_p 1 at 4 packets (p_b 0): (2 2^32 + 2^30) / 32
	 */
	red_set(s, 0, 3, PKTS(20), 3);
	red_set(s, 1, 14, PKTS(20), 3);
	red_set(s, 1, 2, PKTS(10), 5);
	bin = red_set(s, 0, 5, PKTS(4), 4);
	bin->red.max_p = BIT(31);
	aqm_sfb_stats(s, &st);
	KUNIT_EXPECT_EQ(test, st.max_p, ONE);
	KUNIT_EXPECT_EQ(test, st.avg_p, 301989888LL);
	KUNIT_EXPECT_EQ(test, st.full[0], 1U);
	KUNIT_EXPECT_EQ(test, st.full[1], 1U);
	KUNIT_EXPECT_EQ(test, st.full[2], 0U);
	KUNIT_EXPECT_EQ(test, st.maxqlen, 5U);
	KUNIT_EXPECT_EQ(test, st.pkts, 7ULL);
}

/*
 * BLUE mode with SFRED's parameters in place but not the flag: an arrival
 * into a bin at bin_size raises p_m by delta1, and aqm_sfb_tick() does
 * not count intervals. Linux's defaults: bin_size 20, delta1 66/65536,
 * freeze 1 us.
 */
static void aqm_sfb_red_off(struct kunit *test)
{
	struct aqm_sfb *s = sfb_new(test, 2, 16);
	/* the default increment, 66 / 0xFFFF (4325442 in 2^-32) */
	const s64 inc = aqm_sfb_prob_from16(AQM_SFB_DEF_INCREMENT);
	struct aqm_sfb_res r;

	KUNIT_ASSERT_EQ(test, s->params.flags, (u32)AQM_SFB_DEC_ARRIVAL);
	aqm_sfb_bin(s, 0, 0, 3)->qlen = 20;
	aqm_sfb_bin(s, 0, 1, 14)->qlen = 20;
	KUNIT_EXPECT_FALSE(test, aqm_sfb_tick(s, T0 + MS(2000)));
	KUNIT_EXPECT_EQ(test, s->red_epoch, 0U);
	KUNIT_EXPECT_EQ(test, s->red_next, T0 + MS(500));
	aqm_sfb_arrive(s, FLOW_U, T0 + MS(2000), &r);
	KUNIT_EXPECT_EQ(test, r.p_min, inc);
	KUNIT_EXPECT_EQ(test, bin_p(s, 0, 0, 3), inc);
	KUNIT_EXPECT_EQ(test, bin_p(s, 0, 1, 14), inc);
	aqm_sfb_arrive(s, FLOW_U, T0 + MS(2000) + US(1), &r);
	KUNIT_EXPECT_EQ(test, r.p_min, 2 * inc);
	/* below bin_size: neither rule */
	aqm_sfb_bin(s, 0, 0, 3)->qlen = 19;
	aqm_sfb_arrive(s, FLOW_U, T0 + MS(2000) + US(2), &r);
	KUNIT_EXPECT_EQ(test, bin_p(s, 0, 0, 3), 2 * inc);
	KUNIT_EXPECT_EQ(test, bin_p(s, 0, 1, 14), 3 * inc);
}

static struct kunit_case aqm_sfb_cases[] = {
	KUNIT_CASE(aqm_sfb_alloc_limits),
	KUNIT_CASE(aqm_sfb_params_limits),
	KUNIT_CASE(aqm_sfb_hash_bins),
	KUNIT_CASE(aqm_sfb_cb_indices),
	KUNIT_CASE(aqm_sfb_bin_rules),
	KUNIT_CASE(aqm_sfb_dec_arrival),
	KUNIT_CASE(aqm_sfb_pmin),
	KUNIT_CASE(aqm_sfb_misclassification),
	KUNIT_CASE(aqm_sfb_rehash_timing),
	KUNIT_CASE(aqm_sfb_double_buffer),
	KUNIT_CASE(aqm_sfb_warm_raise),
	KUNIT_CASE(aqm_sfb_accounting),
	KUNIT_CASE(aqm_sfb_generations),
	KUNIT_CASE(aqm_sfb_stats_dump),
	KUNIT_CASE(aqm_sfb_stats_steps),
	KUNIT_CASE(aqm_sfb_no_freeze),
	KUNIT_CASE(aqm_sfb_penalty_packets),
	KUNIT_CASE(aqm_sfb_penalty_bytes),
	KUNIT_CASE(aqm_sfb_penalty_gso),
	KUNIT_CASE(aqm_sfb_penalty_overflow),
	KUNIT_CASE(aqm_sfb_red_params),
	KUNIT_CASE(aqm_sfb_red_reset),
	KUNIT_CASE(aqm_sfb_red_ewma),
	KUNIT_CASE(aqm_sfb_red_curve),
	KUNIT_CASE(aqm_sfb_red_adapt),
	KUNIT_CASE(aqm_sfb_red_ceil),
	KUNIT_CASE(aqm_sfb_red_penalty),
	KUNIT_CASE(aqm_sfb_red_stats),
	KUNIT_CASE(aqm_sfb_red_off),
	{}
};

static struct kunit_suite aqm_sfb_suite = {
	.name = "aqm_sfb",
	.test_cases = aqm_sfb_cases,
};

kunit_test_suite(aqm_sfb_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the linux-aqm Stochastic Fair BLUE core");
