// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for AFD's core (include/net/aqm_afd.h): the rate estimate
 * m_i from the shadow buffer, the drop decision d_i = (1 - m_fair/m_i)+,
 * its ECN ceiling, the fair-share controller
 *   m_fair(t) = m_fair(t-1) + alpha (Q(t-1) - qref) - beta (Q(t) - qref)
 * (Pan et al., CCR 2003) and its clamp, up to the largest buffer; and
 * why the time target's relative law (include/net/aqm_rel.h) replaces it
 * by default.
 *
 * Probabilities are measured without randomness: a sweep of N values of
 * rnd, one in the middle of each of N equal cells of [0, 2^32), hits
 * exactly d * N times whenever d * N is an integer (the decision is exact,
 * and a cell's middle is at least half a cell away from d).
 */
#include <kunit/test.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <net/aqm_afd.h>
#include <net/aqm_qdisc.h>
#include <net/aqm_rel.h>

#include "aqm_kunit.h"

#define PKT(x)		((s64)(x) << AQM_PI_SHIFT)
#define T_NS		6250000ULL	/* tupdate 6.25 ms, 160 Hz */
#define QREF		240

/* rnd in the middle of cell @k of @n */
static u32 cell(u32 k, u32 n)
{
	return div_u64(((u64)2 * k + 1) << 31, n);
}

/* how many of the @n sweep values of rnd aqm_afd_hit() drops */
static u32 sweep(s64 m_fair, u32 unit, u64 m_i, u32 n)
{
	u32 k, hits = 0;

	for (k = 0; k < n; k++)
		hits += aqm_afd_hit(m_fair, unit, m_i, cell(k, n));
	return hits;
}

static u64 ceil_of(struct kunit *test, u64 num, u64 den)
{
	struct aqm_ratio r = { .num = num, .den = den };
	u64 c;

	KUNIT_EXPECT_EQ(test, aqm_ecn_ceil_from_ratio(&r, &c), 0);
	return c;
}

/* ====================================================================== */
/* the estimator                                                          */

/*
 * Three flows at rates 1 : 2 : 5 (a period of 8 arrivals) into b = 80:
 * every window of 80 consecutive arrivals holds 10 periods, so once the
 * buffer is full m_i is exactly 10, 20 and 50 after every arrival, the
 * rates in units of b / 8 arrivals.
 */
static void aqm_afd_estimator_packets(struct kunit *test)
{
	static const u32 flow[8] = { 2, 1, 2, 0, 2, 1, 2, 2 };
	static const u64 want[3] = { 10, 20, 50 };
	struct aqm_shadow *sh = aqm_kunit_shadow_new(test, 80, 80);
	u32 ids[3] = { 0x11110000, 0x22220000, 0x33330000 };
	u32 n, f;

	for (n = 0; n < 800; n++) {
		u64 m = aqm_shadow_add(sh, ids[flow[n % 8]], 1);

		if (n < 79)
			continue;
		KUNIT_ASSERT_EQ_MSG(test, m, want[flow[n % 8]], "arrival %u", n);
		for (f = 0; f < 3; f++)
			KUNIT_ASSERT_EQ(test, aqm_shadow_count(sh, ids[f]),
					want[f]);
		KUNIT_ASSERT_EQ(test, sh->total, 80);
	}

	/* GSO: the same arrivals, flow 0's packets of 4 segments each */
	aqm_shadow_reset(sh);
	for (n = 0; n < 160; n++)
		aqm_shadow_add(sh, ids[flow[n % 8]], flow[n % 8] ? 1 : 4);
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, ids[0]), 40);
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, ids[1]), 20);
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, ids[2]), 50);
	KUNIT_EXPECT_EQ(test, sh->total, 110);
}

/* bytemode: m_i is the flow's bytes among the last b sampled arrivals */
static void aqm_afd_estimator_bytes(struct kunit *test)
{
	static const u32 flow[8] = { 2, 1, 2, 0, 2, 1, 2, 2 };
	static const u32 len[3] = { 1500, 500, 40 };
	struct aqm_shadow *sh = aqm_kunit_shadow_new(test, 80, 80);
	u32 ids[3] = { 0x11110000, 0x22220000, 0x33330000 };
	u32 n;

	for (n = 0; n < 83; n++)
		aqm_shadow_add(sh, ids[flow[n % 8]], len[flow[n % 8]]);
	/* 10 periods: 10 x 1500, 20 x 500, 50 x 40 bytes */
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, ids[0]), 15000);
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, ids[1]), 10000);
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, ids[2]), 2000);
	KUNIT_EXPECT_EQ(test, sh->total, 27000);
	/* avpkt 1000: 27 entries of bytes, below b = 80 */
	KUNIT_EXPECT_EQ(test, aqm_afd_fair_cap(sh, 1000), PKT(80));
	/* avpkt 40: 675 entries */
	KUNIT_EXPECT_EQ(test, aqm_afd_fair_cap(sh, 40), PKT(675));
}

/* ====================================================================== */
/* the decision d_i = (1 - m_fair / m_i)+                                 */

/* A flow at or below the fair share is never dropped, whatever rnd. */
static void aqm_afd_hit_below_fair(struct kunit *test)
{
	static const u32 rnds[] = { 0, 1, 1U << 31, U32_MAX - 1, U32_MAX };
	u32 i;

	for (i = 0; i < ARRAY_SIZE(rnds); i++) {
		u32 r = rnds[i];

		KUNIT_EXPECT_FALSE(test, aqm_afd_hit(PKT(5), 1, 0, r));
		KUNIT_EXPECT_FALSE(test, aqm_afd_hit(PKT(5), 1, 1, r));
		KUNIT_EXPECT_FALSE(test, aqm_afd_hit(PKT(5), 1, 5, r));
		/* m_fair 5 entries of 1000 bytes */
		KUNIT_EXPECT_FALSE(test, aqm_afd_hit(PKT(5), 1000, 5, r));
		KUNIT_EXPECT_FALSE(test, aqm_afd_hit(PKT(5), 1000, 4999, r));
		KUNIT_EXPECT_FALSE(test, aqm_afd_hit(PKT(5), 1000, 5000, r));
		/* 2.5 entries: 2 packets are below, 2500 bytes at it */
		KUNIT_EXPECT_FALSE(test, aqm_afd_hit(PKT(5) / 2, 1, 2, r));
		KUNIT_EXPECT_FALSE(test, aqm_afd_hit(PKT(5) / 2, 1000, 2500,
						     r));
		/* no sample of the flow in the buffer: m_i = 0 */
		KUNIT_EXPECT_FALSE(test, aqm_afd_hit(0, 1, 0, r));
	}
}

/*
 * aqm_afd_over() is the enqueue's test before it draws: exactly when
 * aqm_afd_hit() can be true. Over a grid of shares, units and weights
 * around the boundary: over with rnd 0 it hits, not over it never does.
 */
static void aqm_afd_over_gates_hit(struct kunit *test)
{
	static const s64 fairs[] = { S64_MIN, -PKT(3), 0, 1, PKT(1) / 2, PKT(1),
				     PKT(5) / 2, PKT(5), PKT(1000000),
				     AQM_AFD_FAIR_MAX - 1, AQM_AFD_FAIR_MAX };
	static const u32 units[] = { 1, 40, 1000, 65535 };
	static const u32 rnds[] = { 0, 1, 1U << 31, U32_MAX };
	u32 f, u, k, r, over = 0;

	for (f = 0; f < ARRAY_SIZE(fairs); f++) {
		for (u = 0; u < ARRAY_SIZE(units); u++) {
			s64 edge = aqm_afd_share(fairs[f], units[u]) >>
				   AQM_AFD_SCALE_SHIFT;

			for (k = 0; k < 6; k++) {
				/* m_i around the share: edge - 2 .. edge + 3 */
				u64 m_i = max_t(s64, edge + k - 2, 0);
				struct aqm_afd_sides s = {};
				bool o = aqm_afd_over(fairs[f], units[u], m_i,
						      &s);

				over += o;
				KUNIT_EXPECT_EQ(test, o,
						aqm_afd_hit(fairs[f], units[u],
							    m_i, 0));
				for (r = 0; r < ARRAY_SIZE(rnds); r++) {
					bool h = aqm_afd_hit(fairs[f], units[u],
							     m_i, rnds[r]);

					/* the enqueue's path on the sides */
					KUNIT_EXPECT_EQ(test, h, o &&
							aqm_share_hit(s.share,
								      s.count,
								      rnds[r]));
				}
				if (o)
					KUNIT_EXPECT_EQ(test,
							aqm_share_prob_le(s.share,
									  s.count,
									  1ULL << 31),
							aqm_afd_prob_le(fairs[f],
									units[u],
									m_i,
									1ULL << 31));
			}
		}
	}
	/* the grid has both sides */
	KUNIT_EXPECT_GT(test, over, 0);
	KUNIT_EXPECT_LT(test, over, ARRAY_SIZE(fairs) * ARRAY_SIZE(units) * 6);
}

/* The boundaries: m_fair 0 (or below) drops always, just above never. */
static void aqm_afd_hit_bounds(struct kunit *test)
{
	static const u32 rnds[] = { 0, 1, 1U << 31, U32_MAX - 1, U32_MAX };
	u32 i;

	for (i = 0; i < ARRAY_SIZE(rnds); i++) {
		u32 r = rnds[i];

		/* d = 1 */
		KUNIT_EXPECT_TRUE(test, aqm_afd_hit(0, 1, 1, r));
		KUNIT_EXPECT_TRUE(test, aqm_afd_hit(0, 65535, 1, r));
		KUNIT_EXPECT_TRUE(test, aqm_afd_hit(0, 1, 1000000, r));
		/* a controller output below 0 counts as 0 */
		KUNIT_EXPECT_TRUE(test, aqm_afd_hit(-PKT(3), 1, 1, r));
		KUNIT_EXPECT_TRUE(test, aqm_afd_hit(S64_MIN, 1000, 1, r));
		/* d = 1/1000001: rnd < 2^32 / 1000001 = 4294.97 */
		KUNIT_EXPECT_EQ(test, aqm_afd_hit(PKT(1000000), 1, 1000001, r),
				r < 4295);
	}
	KUNIT_EXPECT_TRUE(test, aqm_afd_hit(PKT(1000000), 1, 1000001, 4294));
	KUNIT_EXPECT_FALSE(test, aqm_afd_hit(PKT(1000000), 1, 1000001, 4295));
	/*
	 * The smallest d of the byte scale: m_fair 5000 bytes, m_i 5001,
	 * d = 1/5001, hits for rnd < 2^32 / 5001 = 858821.7
	 */
	KUNIT_EXPECT_TRUE(test, aqm_afd_hit(PKT(5), 1000, 5001, 0));
	KUNIT_EXPECT_TRUE(test, aqm_afd_hit(PKT(5), 1000, 5001, 858821));
	KUNIT_EXPECT_FALSE(test, aqm_afd_hit(PKT(5), 1000, 5001, 858822));
	/* d = 1 - 1/6 in packets: rnd < 5/6 2^32 = 3579139413.3 */
	KUNIT_EXPECT_TRUE(test, aqm_afd_hit(PKT(1), 1, 6, 3579139413U));
	KUNIT_EXPECT_FALSE(test, aqm_afd_hit(PKT(1), 1, 6, 3579139414U));
}

/* d_i = 1 - m_fair/m_i exactly: the flow is left m_fair. */
static void aqm_afd_hit_fractions(struct kunit *test)
{
	u64 m;

	/* m_i = 2 m_fair: 1/2; 4 m_fair: 3/4 (the paper's 1 - m_fair/m_i) */
	KUNIT_EXPECT_EQ(test, sweep(PKT(3), 1, 6, 4096), 2048);
	KUNIT_EXPECT_EQ(test, sweep(PKT(3), 1, 12, 4096), 3072);
	KUNIT_EXPECT_EQ(test, sweep(PKT(3), 1, 3, 4096), 0);
	KUNIT_EXPECT_EQ(test, sweep(PKT(3), 1, 4, 4096), 1024);
	KUNIT_EXPECT_EQ(test, sweep(0, 1, 4, 4096), 4096);
	/* 5 m_fair: 4/5 of 5120 */
	KUNIT_EXPECT_EQ(test, sweep(PKT(10), 1, 50, 5120), 4096);

	/* every flow above m_fair keeps m_i (1 - d_i) = m_fair */
	for (m = 11; m <= 200; m += 7) {
		u32 n = m * 64;

		KUNIT_EXPECT_EQ_MSG(test, (n - sweep(PKT(10), 1, m, n)) * m,
				    10ULL * n, "m_i %llu", m);
	}

	/* bytemode, avpkt 1000: m_fair 3 entries are 3000 bytes */
	KUNIT_EXPECT_EQ(test, sweep(PKT(3), 1000, 6000, 4096), 2048);
	KUNIT_EXPECT_EQ(test, sweep(PKT(3), 1000, 12000, 4096), 3072);
	KUNIT_EXPECT_EQ(test, sweep(PKT(3), 1000, 4000, 4096), 1024);
	KUNIT_EXPECT_EQ(test, sweep(PKT(3), 1000, 3000, 4096), 0);
	/* the same answers as packets scaled by avpkt, rnd by rnd */
	for (m = 1; m <= 40; m++) {
		u32 k, differ = 0;

		for (k = 0; k < 1024; k++)
			differ += aqm_afd_hit(PKT(7), 1000, m * 1000,
					      cell(k, 1024)) !=
				  aqm_afd_hit(PKT(7), 1, m, cell(k, 1024));
		KUNIT_EXPECT_EQ_MSG(test, differ, 0, "m_i %llu", m);
	}

	/* a fractional m_fair of 2.5 entries: not 2, not 3 */
	KUNIT_EXPECT_EQ(test, sweep(PKT(5) / 2, 1, 5, 4096), 2048);
	KUNIT_EXPECT_EQ(test, sweep(PKT(5) / 2, 1, 10, 4096), 3072);
	/* d = 1 - 2.5/3 = 1/6 */
	KUNIT_EXPECT_EQ(test, sweep(PKT(5) / 2, 1, 3, 3072), 512);
	KUNIT_EXPECT_EQ(test, sweep(PKT(5) / 2, 1000, 3000, 3072), 512);
	KUNIT_EXPECT_EQ(test, sweep(PKT(5) / 2, 1000, 2500, 3072), 0);
	/* 2.5 entries of 40 bytes are 100 bytes: m_i 400 bytes, 3/4 */
	KUNIT_EXPECT_EQ(test, sweep(PKT(5) / 2, 40, 400, 4096), 3072);
}

/* The ECN ceiling: mark while d_i <= ceil, drop above. */
static void aqm_afd_prob_le_ceiling(struct kunit *test)
{
	u64 c01 = ceil_of(test, 1, 10), c05 = ceil_of(test, 1, 2);
	u64 c1 = ceil_of(test, 1, 1), c0 = ceil_of(test, 0, 1);

	/* 0.1: m_fair 10, d = 1/11 below, 1/6 above */
	KUNIT_EXPECT_TRUE(test, aqm_afd_prob_le(PKT(10), 1, 10, c01));
	KUNIT_EXPECT_TRUE(test, aqm_afd_prob_le(PKT(10), 1, 11, c01));
	KUNIT_EXPECT_FALSE(test, aqm_afd_prob_le(PKT(10), 1, 12, c01));
	KUNIT_EXPECT_FALSE(test, aqm_afd_prob_le(PKT(10), 1, 20, c01));
	KUNIT_EXPECT_TRUE(test, aqm_afd_prob_le(PKT(10), 1000, 11000, c01));
	KUNIT_EXPECT_FALSE(test, aqm_afd_prob_le(PKT(10), 1000, 12000, c01));

	/* 0.5 is exact in the scale: d = 1/2 is at the ceiling */
	KUNIT_EXPECT_TRUE(test, aqm_afd_prob_le(PKT(10), 1, 19, c05));
	KUNIT_EXPECT_TRUE(test, aqm_afd_prob_le(PKT(10), 1, 20, c05));
	KUNIT_EXPECT_FALSE(test, aqm_afd_prob_le(PKT(10), 1, 21, c05));
	KUNIT_EXPECT_TRUE(test, aqm_afd_prob_le(PKT(10), 1000, 20000, c05));
	KUNIT_EXPECT_FALSE(test, aqm_afd_prob_le(PKT(10), 1000, 20001, c05));
	KUNIT_EXPECT_TRUE(test, aqm_afd_prob_le(PKT(5) / 2, 1, 5, c05));
	KUNIT_EXPECT_FALSE(test, aqm_afd_prob_le(PKT(5) / 2, 1, 6, c05));
	KUNIT_EXPECT_FALSE(test, aqm_afd_prob_le(0, 1, 1, c05));

	/* 1: every d */
	KUNIT_EXPECT_TRUE(test, aqm_afd_prob_le(0, 1, 1, c1));
	KUNIT_EXPECT_TRUE(test, aqm_afd_prob_le(-PKT(1), 1, 1000000, c1));
	KUNIT_EXPECT_TRUE(test, aqm_afd_prob_le(PKT(1), 1000, 1U << 30, c1));

	/* 0: only d = 0 */
	KUNIT_EXPECT_TRUE(test, aqm_afd_prob_le(PKT(5), 1000, 5000, c0));
	KUNIT_EXPECT_FALSE(test, aqm_afd_prob_le(PKT(5), 1000, 5001, c0));
	KUNIT_EXPECT_TRUE(test, aqm_afd_prob_le(PKT(5), 1, 0, c0));
}

/* ====================================================================== */
/* the controller                                                         */

/* sch_afd's controller: falling PI, g_new = beta, g_old = alpha */
static void afd_pi_setup(struct kunit *test, struct aqm_pi_params *p)
{
	*p = (struct aqm_pi_params) {
		.tupdate = T_NS,
		.x_min = 0,
		.x_max = AQM_AFD_FAIR_MAX,
		.qref = QREF,
		.falling = true,
	};
	KUNIT_ASSERT_EQ(test, aqm_pi_gain_from_ratio(18, 10, &p->g_new), 0);
	KUNIT_ASSERT_EQ(test, aqm_pi_gain_from_ratio(17, 10, &p->g_old), 0);
}

/*
 * m_fair(t) = m_fair(t-1) + 1.7 (Q(t-1) - 240) - 1.8 (Q(t) - 240), in
 * entries. The gains are 1.7 and 1.8 rounded down to 2^-48 and each term
 * to 2^-32 entry, so a result may be below the real one by a few 2^-32 of
 * an entry per sample (never above it: see the known answer below).
 */
static void near(struct kunit *test, s64 x, s64 want)
{
	KUNIT_EXPECT_LE_MSG(test, x, want, "want %lld", want >> AQM_PI_SHIFT);
	KUNIT_EXPECT_GE_MSG(test, x, want - 32, "want %lld",
			    want >> AQM_PI_SHIFT);
}

static void aqm_afd_controller(struct kunit *test)
{
	struct aqm_pi_params p;
	struct aqm_pi_vars v;

	afd_pi_setup(test, &p);

	/* above target and growing: 500 + 1.7 * 60 - 1.8 * 100 = 422 */
	v = (struct aqm_pi_vars){ .x = PKT(500), .qold = 300 };
	aqm_pi_sample(&p, &v, 340, 1);
	near(test, v.x, PKT(422));
	/* above and constant: the integral part, (1.7 - 1.8) * 100 */
	aqm_pi_sample(&p, &v, 340, 1);
	near(test, v.x, PKT(412));
	/* below and falling: 412 + 1.7 * 100 + 1.8 * 40 = 654 */
	aqm_pi_sample(&p, &v, 200, 1);
	near(test, v.x, PKT(654));
	/* below and constant: + 0.1 * 40 */
	aqm_pi_sample(&p, &v, 200, 1);
	near(test, v.x, PKT(658));
	/* ten more samples below: + 10 * 4, in closed form */
	aqm_pi_sample(&p, &v, 200, 10);
	near(test, v.x, PKT(698));
	KUNIT_EXPECT_EQ(test, v.samples, 14);

	/*
	 * One sample from the start (Q(-1) = 0) with the queue at its
	 * target: m_fair = 1000 + 1.7 * (0 - 240) - 0 = 592 entries. 1.7 is
	 * 1.7 * 2^48 rounded down, so 1.7 * 240 is 408 - 2^-32 exactly.
	 */
	aqm_pi_vars_init(&v, &p, PKT(1000), 0);
	KUNIT_EXPECT_FALSE(test, aqm_pi_advance(&p, &v, QREF, T_NS - 1));
	KUNIT_EXPECT_EQ(test, v.x, PKT(1000));
	KUNIT_EXPECT_TRUE(test, aqm_pi_advance(&p, &v, QREF, T_NS));
	KUNIT_EXPECT_EQ(test, v.x, PKT(592) + 1);
	KUNIT_EXPECT_EQ(test, v.samples, 1);
	KUNIT_EXPECT_EQ(test, v.next, 2 * T_NS);
	/* then at its target: nothing moves */
	KUNIT_EXPECT_TRUE(test, aqm_pi_advance(&p, &v, QREF, 5 * T_NS));
	KUNIT_EXPECT_EQ(test, v.x, PKT(592) + 1);
	KUNIT_EXPECT_EQ(test, v.samples, 5);
}

/*
 * The clamp: below target m_fair rises to max(b, total/unit) and stops
 * there (no wind-up), so the first samples with a queue bring it down.
 */
static void aqm_afd_controller_cap(struct kunit *test)
{
	struct aqm_shadow *sh = aqm_kunit_shadow_new(test, 100, 100);
	struct aqm_pi_params p;
	struct aqm_pi_vars v, nocap;
	u32 n;

	for (n = 0; n < 100; n++)
		aqm_shadow_add(sh, 0x40000000, 1);
	afd_pi_setup(test, &p);
	p.x_max = aqm_afd_fair_cap(sh, 1);
	KUNIT_ASSERT_EQ(test, p.x_max, PKT(100));

	/* an idle link, 1000 samples: + 24 entries each (0.1 * 240) */
	v = (struct aqm_pi_vars){ .x = PKT(99) };
	nocap = v;
	aqm_pi_sample(&p, &v, 0, 1000);
	KUNIT_EXPECT_EQ(test, v.x, PKT(100));
	/* the only flow holds the whole buffer and is not dropped */
	KUNIT_EXPECT_EQ(test, sweep(v.x, 1, 100, 4096), 0);

	/* a queue of 250: 100 - 1.7 * 240 - 1.8 * 10 < 0, so 0 */
	aqm_pi_sample(&p, &v, 250, 1);
	KUNIT_EXPECT_EQ(test, v.x, 0);
	KUNIT_EXPECT_EQ(test, sweep(v.x, 1, 100, 4096), 4096);

	/* without the cap the idle time winds m_fair up past 24000 */
	p.x_max = AQM_AFD_FAIR_MAX;
	aqm_pi_sample(&p, &nocap, 0, 1000);
	aqm_pi_sample(&p, &nocap, 250, 1);
	KUNIT_EXPECT_GT(test, nocap.x, PKT(23000));
}

/*
 * The time target's relative law (include/net/aqm_rel.h) as sch_afd runs
 * it by default: target 29 ms, samples every 6.25 ms, a = 4.2/s * 29 ms =
 * 0.1218 and b - a = 9/s^2 * 29 ms * 6.25 ms = 0.00163. The same relative
 * queue errors move m_fair by the same factor whether it is 10 entries
 * (about 100 flows in b = 1000) or 1000 (one flow); under the paper's
 * absolute law the same queue step that takes 4% off 1000 entries takes
 * 10 entries to 0, where every arrival of every flow is dropped.
 */
static void aqm_afd_relative_law(struct kunit *test)
{
	/* a cap neither reaches */
	const s64 cap = PKT(1 << 20);
	static const u32 qs[] = { 48, 48, 12, 30, 240, 24, 0 };
	struct aqm_pi_vars few = { .x = PKT(10), .qold = 24 };
	struct aqm_pi_vars one = { .x = PKT(1000), .qold = 24 };
	struct aqm_pi_params p;
	struct aqm_rel g;
	u32 i;

	aqm_rel_gains(&g, 29000000, T_NS);
	/* a = 0.1218, b = 0.12343125, Q32, to a part in 10^6 */
	KUNIT_EXPECT_EQ(test, (g.a * 1000000 + AQM_PI_ONE / 2) >> AQM_PI_SHIFT,
			121800);
	KUNIT_EXPECT_EQ(test, (g.b * 1000000 + AQM_PI_ONE / 2) >> AQM_PI_SHIFT,
			123431);

	/* the queue doubles its target of 24: r = 1, m_fair / (1 + b) */
	aqm_rel_sample(&g, &one, cap, 48, 24, 1);
	KUNIT_EXPECT_EQ(test, (one.x * 10) >> AQM_PI_SHIFT, 8901);

	aqm_rel_sample(&g, &few, cap, 48, 24, 1);
	for (i = 1; i < ARRAY_SIZE(qs); i++) {
		aqm_rel_sample(&g, &few, cap, qs[i], 24, 1);
		aqm_rel_sample(&g, &one, cap, qs[i], 24, 1);
		/* one = 100 few, to a part in 10^6 */
		KUNIT_EXPECT_LE(test, abs(one.x - 100 * few.x),
				div_s64(one.x, 1000000) + 100);
		KUNIT_EXPECT_GT(test, few.x, 0);
	}

	/*
	 * sch_afd's anti-windup: above the target and falling, only the
	 * proportional part: 240 -> 200 packets, r 9 -> 7.33, x (1 + a 5/3);
	 * the plain law adds the integral step (d = b r - a rold = -0.191).
	 * Above and standing, or rising, the integral acts as before.
	 */
	one = (struct aqm_pi_vars){ .x = PKT(1000), .qold = 240 };
	few = one;
	g.hold = true;
	aqm_rel_sample(&g, &one, cap, 200, 24, 1);
	KUNIT_EXPECT_LE(test, abs(((one.x * 100) >> AQM_PI_SHIFT) - 120300), 2);
	g.hold = false;
	aqm_rel_sample(&g, &few, cap, 200, 24, 1);
	KUNIT_EXPECT_LE(test, abs(((few.x * 100) >> AQM_PI_SHIFT) - 119104), 2);
	g.hold = true;
	aqm_rel_sample(&g, &one, cap, 200, 24, 1);
	aqm_rel_sample(&g, &few, cap, 200, 24, 1);
	KUNIT_EXPECT_LT(test, one.x, PKT(1203));
	KUNIT_EXPECT_LT(test, few.x, PKT(1191));

	/* the paper's law, qref 24: 10 - 1.8 * 24 < 0: every packet drops */
	afd_pi_setup(test, &p);
	p.qref = 24;
	few = (struct aqm_pi_vars){ .x = PKT(10), .qold = 24 };
	one = (struct aqm_pi_vars){ .x = PKT(1000), .qold = 24 };
	aqm_pi_sample(&p, &few, 48, 1);
	aqm_pi_sample(&p, &one, 48, 1);
	KUNIT_EXPECT_EQ(test, few.x, 0);
	KUNIT_EXPECT_EQ(test, sweep(few.x, 1, 1, 4096), 4096);
	KUNIT_EXPECT_GT(test, one.x, PKT(956));
}

/* ====================================================================== */
/* the cap, and the largest buffer                                        */

/* max(b entries, total / unit), at most AQM_AFD_FAIR_MAX */
static void aqm_afd_fair_cap_values(struct kunit *test)
{
	struct aqm_shadow *sh = aqm_kunit_shadow_new(test, 10, 10);
	struct aqm_shadow fake = { .size = 10 };
	u32 n;

	/* empty: b */
	KUNIT_EXPECT_EQ(test, aqm_afd_fair_cap(sh, 1), PKT(10));
	KUNIT_EXPECT_EQ(test, aqm_afd_fair_cap(sh, 1000), PKT(10));
	for (n = 0; n < 10; n++)
		aqm_shadow_add(sh, 0x50000000 + n, 1);
	KUNIT_EXPECT_EQ(test, aqm_afd_fair_cap(sh, 1), PKT(10));
	/* GSO: 10 sampled packets of 4 segments */
	for (n = 0; n < 10; n++)
		aqm_shadow_add(sh, 0x50000000 + n, 4);
	KUNIT_EXPECT_EQ(test, sh->total, 40);
	KUNIT_EXPECT_EQ(test, aqm_afd_fair_cap(sh, 1), PKT(40));
	/* bytemode: 10 x 1500 bytes, avpkt 1000: 15 entries */
	for (n = 0; n < 10; n++)
		aqm_shadow_add(sh, 0x50000000, 1500);
	KUNIT_EXPECT_EQ(test, aqm_afd_fair_cap(sh, 1000), PKT(15));
	/* 9 x 1500 + 2000 bytes: 15.5 entries */
	aqm_shadow_add(sh, 0x50000000, 2000);
	KUNIT_EXPECT_EQ(test, aqm_afd_fair_cap(sh, 1000), PKT(31) / 2);
	/* 10 x 100 bytes: 1 entry, below b */
	for (n = 0; n < 10; n++)
		aqm_shadow_add(sh, 0x50000000, 100);
	KUNIT_EXPECT_EQ(test, aqm_afd_fair_cap(sh, 1000), PKT(10));
	KUNIT_EXPECT_EQ(test, aqm_afd_fair_cap(sh, 40), PKT(25));

	/* where the cap saturates: total / unit = 2^29 entries */
	fake.total = BIT_ULL(29) - 1;
	KUNIT_EXPECT_EQ(test, aqm_afd_fair_cap(&fake, 1), PKT(BIT(29) - 1));
	fake.total = BIT_ULL(29);
	KUNIT_EXPECT_EQ(test, aqm_afd_fair_cap(&fake, 1), AQM_AFD_FAIR_MAX);
	KUNIT_EXPECT_EQ(test, AQM_AFD_FAIR_MAX, PKT(BIT(29)));
	fake.total = (u64)65535 << 29;
	KUNIT_EXPECT_EQ(test, aqm_afd_fair_cap(&fake, 65535), AQM_AFD_FAIR_MAX);
	fake.total--;
	KUNIT_EXPECT_LT(test, aqm_afd_fair_cap(&fake, 65535), AQM_AFD_FAIR_MAX);
	KUNIT_EXPECT_GT(test, aqm_afd_fair_cap(&fake, 65535),
			AQM_AFD_FAIR_MAX - PKT(1));
	/* the largest b, empty */
	fake = (struct aqm_shadow){ .size = AQM_SHADOW_MAX };
	KUNIT_EXPECT_EQ(test, aqm_afd_fair_cap(&fake, 1), PKT(AQM_SHADOW_MAX));
}

/*
 * aqm_afd.h: "at the top no flow can be dropped (m_i never exceeds the
 * total)". A flow that holds the whole buffer, m_i = total, against m_fair
 * at the cap, for every rnd that could make it hit.
 */
static void afd_cap_no_drop(struct kunit *test, u32 size, u64 total, u32 unit)
{
	struct aqm_shadow fake = { .size = size, .total = total };
	s64 cap = aqm_afd_fair_cap(&fake, unit);
	u32 r;

	/* the smallest rnd hits first: 0..15 and the sweep cover it */
	for (r = 0; r < 16; r++)
		KUNIT_EXPECT_FALSE_MSG(test, aqm_afd_hit(cap, unit, total, r),
				       "total %llu unit %u rnd %u", total,
				       unit, r);
	KUNIT_EXPECT_EQ_MSG(test, sweep(cap, unit, total, 1024), 0,
			    "total %llu unit %u", total, unit);
}

static void aqm_afd_cap_no_drop(struct kunit *test)
{
	afd_cap_no_drop(test, 10, 10, 1);
	afd_cap_no_drop(test, 10, 40, 1);
	afd_cap_no_drop(test, 10, 15000, 1000);
	/* total / unit not a multiple of 2^-32 entry */
	afd_cap_no_drop(test, 10, 15001, 1000);
	afd_cap_no_drop(test, 1000, 1000 * 1500 + 7, 1000);
	afd_cap_no_drop(test, 10, 123457, 40);
	/* the largest totals: b = 2^16 arrivals of 2^29 */
	afd_cap_no_drop(test, AQM_SHADOW_MAX,
			(u64)AQM_SHADOW_MAX * AQM_AFD_WEIGHT_MAX, 1);
	afd_cap_no_drop(test, AQM_SHADOW_MAX,
			(u64)AQM_SHADOW_MAX * AQM_AFD_WEIGHT_MAX, 65535);
}

/*
 * The largest table and buffer, b = flows = 2^16, filled with arrivals of
 * the largest weight: m_i and the total are exact at 2^45 and the decision
 * keeps its precision at m_i << 16 = 2^61.
 */
static void aqm_afd_max_sizes(struct kunit *test)
{
	struct aqm_shadow *sh = aqm_kunit_shadow_new(test, AQM_SHADOW_MAX,
						       AQM_SHADOW_MAX);
	const u64 w = AQM_AFD_WEIGHT_MAX, top = (u64)AQM_SHADOW_MAX * w;
	u64 c05 = ceil_of(test, 1, 2), c06 = ceil_of(test, 6, 10);
	u32 a = 0x7fff0001, n;

	for (n = 0; n < AQM_SHADOW_MAX; n++)
		KUNIT_ASSERT_EQ(test, aqm_shadow_add(sh, a, w), (n + 1) * w);
	KUNIT_EXPECT_EQ(test, sh->total, top);
	KUNIT_EXPECT_EQ(test, top, BIT_ULL(45));
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, a), top);
	KUNIT_EXPECT_EQ(test, aqm_afd_fair_cap(sh, 1), AQM_AFD_FAIR_MAX);
	KUNIT_EXPECT_EQ(test, aqm_afd_fair_cap(sh, 65535), AQM_AFD_FAIR_MAX);

	/* m_fair 0: always; m_fair 2^28 entries of 32768 bytes: 3/4 */
	KUNIT_EXPECT_TRUE(test, aqm_afd_hit(0, 1, top, U32_MAX));
	KUNIT_EXPECT_TRUE(test, aqm_afd_hit(0, 65535, top, U32_MAX));
	KUNIT_EXPECT_EQ(test, sweep(PKT(BIT(28)), 32768, top, 4096), 3072);
	/* 2^28 entries of 65535 bytes: d = 1/2 + 2^-17 */
	KUNIT_EXPECT_EQ(test, sweep(PKT(BIT(28)), 65535, top, 4096), 2048);
	KUNIT_EXPECT_FALSE(test, aqm_afd_prob_le(PKT(BIT(28)), 65535, top,
						 c05));
	KUNIT_EXPECT_TRUE(test, aqm_afd_prob_le(PKT(BIT(28)), 65535, top,
						c06));
	KUNIT_EXPECT_FALSE(test, aqm_afd_prob_le(0, 1, top, c05));

	/* 2^16 new flows replace a's arrivals, one each: a full table */
	for (n = 0; n < AQM_SHADOW_MAX; n++)
		KUNIT_ASSERT_EQ(test, aqm_shadow_add(sh, (n << 16) | 0x8000, w),
				w);
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, a), 0);
	KUNIT_EXPECT_EQ(test, sh->counts.count, AQM_SHADOW_MAX);
	KUNIT_EXPECT_EQ(test, sh->counts.full, 0);
	KUNIT_EXPECT_EQ(test, sh->total, top);
	/* one more new flow: its arrival replaces flow 0's, so it fits */
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, a, w), w);
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, 0x8000), 0);
	KUNIT_EXPECT_EQ(test, sh->counts.full, 0);
	/* each flow holds 2^29 = m_fair at the cap: never dropped */
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, a), w);
	KUNIT_EXPECT_FALSE(test, aqm_afd_hit(AQM_AFD_FAIR_MAX, 1, w, 0));
	KUNIT_EXPECT_EQ(test, sweep(AQM_AFD_FAIR_MAX, 1, w, 4096), 0);
	/* half of it: 1/2 */
	KUNIT_EXPECT_EQ(test, sweep(AQM_AFD_FAIR_MAX / 2, 1, w, 4096), 2048);
	KUNIT_EXPECT_TRUE(test, aqm_afd_hit(0, 1, w, U32_MAX));
}

static struct kunit_case aqm_afd_cases[] = {
	KUNIT_CASE(aqm_afd_estimator_packets),
	KUNIT_CASE(aqm_afd_estimator_bytes),
	KUNIT_CASE(aqm_afd_hit_below_fair),
	KUNIT_CASE(aqm_afd_hit_bounds),
	KUNIT_CASE(aqm_afd_over_gates_hit),
	KUNIT_CASE(aqm_afd_hit_fractions),
	KUNIT_CASE(aqm_afd_prob_le_ceiling),
	KUNIT_CASE(aqm_afd_controller),
	KUNIT_CASE(aqm_afd_controller_cap),
	KUNIT_CASE(aqm_afd_relative_law),
	KUNIT_CASE(aqm_afd_fair_cap_values),
	KUNIT_CASE(aqm_afd_cap_no_drop),
	KUNIT_CASE(aqm_afd_max_sizes),
	{}
};

static struct kunit_suite aqm_afd_suite = {
	.name = "aqm_afd",
	.test_cases = aqm_afd_cases,
};

kunit_test_suites(&aqm_afd_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for AFD's estimator, decision and controller");
