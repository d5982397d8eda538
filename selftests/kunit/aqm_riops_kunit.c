// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for RIO-PS's core (include/net/aqm_rio.h) and the
 * scoreboard's count of a GSO packet's segments (aqm_sb_add(),
 * net/sched/aqm_flow.c): the IN / OUT classification by a flow's packet
 * count, through GSO packets, the timeout, collisions and saturation; RIO's
 * two curves on their two averages, which arrivals move which average, and
 * the idle decay of both. The known answers are worked out from the
 * formulas in include/net/aqm_rio.h and include/net/aqm_ared.h, with
 * sch_riops.c's default curves: IN (40, 70, 0.02) on avg_in, OUT
 * (10, 30, 0.1) on avg_total, 20 IN packets per flow, a 1 s timeout.
 */
#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/time64.h>
#include <net/aqm_ared.h>
#include <net/aqm_flow.h>
#include <net/aqm_rio.h>

#include "aqm_kunit.h"

#define AVG(x)		((u64)(x) << AQM_ARED_AVG_SHIFT)
#define P(num, den)	((s64)div_u64((u64)(num) << 32, (den)))
/* p_b is exact up to the rounding of 2^32 / delta and 2^32 / max_th */
#define P_TOL		256
#define SHORT		20
#define TIMEOUT		NSEC_PER_SEC
/* scoreboard of 16 slots: the slot is the top 4 bits */
#define SB16(slot, n)	(((u32)(slot) << 28) | (n))

/* one packet of flow @id at @now, short 20, timeout 1 s: is it IN? */
static bool rio_in(struct aqm_sb *sb, u32 id, u64 now)
{
	return aqm_rio_classify(sb, id, now, TIMEOUT, 1, SHORT);
}

/* a GSO packet of @segs segments of flow @id at @now: is it IN? */
static bool rio_in_gso(struct aqm_sb *sb, u32 id, u64 now, u32 segs)
{
	return aqm_rio_classify(sb, id, now, TIMEOUT, segs, SHORT);
}

/* ====================================================================== */
/* classification                                                         */

/* A flow's packets 1..20 are IN, 21 and later OUT; flows count apart. */
static void aqm_rio_classify_first_packets(struct kunit *test)
{
	struct aqm_sb *sb = aqm_kunit_sb_new(test, 16);
	u32 a = SB16(2, 7), b = SB16(9, 7), c = SB16(11, 7);
	u64 t = 1000;
	int i;

	for (i = 1; i <= SHORT; i++)
		KUNIT_EXPECT_TRUE_MSG(test, rio_in(sb, a, t + i), "packet %d", i);
	KUNIT_EXPECT_FALSE(test, rio_in(sb, a, t + 21));
	for (i = 22; i <= 100; i++)
		KUNIT_EXPECT_FALSE_MSG(test, rio_in(sb, a, t + i), "packet %d", i);
	KUNIT_EXPECT_EQ(test, sb->tab[2].count, 100);

	/* another flow has a count of its own */
	KUNIT_EXPECT_TRUE(test, rio_in(sb, b, t + 101));
	KUNIT_EXPECT_EQ(test, sb->tab[9].count, 1);
	KUNIT_EXPECT_FALSE(test, rio_in(sb, a, t + 102));
	KUNIT_EXPECT_EQ(test, sb->overwrites, 0);

	/* short 1: a flow's first packet alone is IN */
	KUNIT_EXPECT_TRUE(test, aqm_rio_classify(sb, c, t, TIMEOUT, 1, 1));
	KUNIT_EXPECT_FALSE(test, aqm_rio_classify(sb, c, t + 1, TIMEOUT, 1, 1));
}

/* A GSO packet counts its segments and is IN when its first segment is. */
static void aqm_rio_classify_gso(struct kunit *test)
{
	struct aqm_sb *sb = aqm_kunit_sb_new(test, 16);
	u32 a = SB16(1, 1), b = SB16(2, 1), c = SB16(3, 1), d = SB16(4, 1);
	u32 e = SB16(5, 1);
	int i;

	/* 17 packets, then 5 segments as the 18th..22nd: IN; the 23rd OUT */
	for (i = 1; i <= 17; i++)
		KUNIT_EXPECT_TRUE(test, rio_in(sb, a, i));
	KUNIT_EXPECT_TRUE(test, rio_in_gso(sb, a, 18, 5));
	KUNIT_EXPECT_EQ(test, sb->tab[1].count, 22);
	KUNIT_EXPECT_FALSE(test, rio_in(sb, a, 19));
	KUNIT_EXPECT_EQ(test, sb->tab[1].count, 23);

	/* first segment the 20th, the last IN one: IN; the next packet OUT */
	for (i = 1; i <= 19; i++)
		KUNIT_EXPECT_TRUE(test, rio_in(sb, b, i));
	KUNIT_EXPECT_TRUE(test, rio_in_gso(sb, b, 20, 5));
	KUNIT_EXPECT_FALSE(test, rio_in(sb, b, 21));
	KUNIT_EXPECT_EQ(test, sb->tab[2].count, 25);

	/* first segment the 21st: OUT */
	for (i = 1; i <= 20; i++)
		KUNIT_EXPECT_TRUE(test, rio_in(sb, c, i));
	KUNIT_EXPECT_FALSE(test, rio_in_gso(sb, c, 21, 2));
	KUNIT_EXPECT_EQ(test, sb->tab[3].count, 22);

	/* a flow's first packet of 64 segments: IN, and all of them count */
	KUNIT_EXPECT_TRUE(test, rio_in_gso(sb, d, 1, 64));
	KUNIT_EXPECT_EQ(test, sb->tab[4].count, 64);
	KUNIT_EXPECT_FALSE(test, rio_in(sb, d, 2));

	/* 0 segments count as one packet, in both functions */
	KUNIT_EXPECT_TRUE(test, rio_in_gso(sb, e, 1, 0));
	KUNIT_EXPECT_EQ(test, sb->tab[5].count, 1);
	KUNIT_EXPECT_EQ(test, aqm_sb_add(sb, e, 2, TIMEOUT, 0), 2);
	/* aqm_sb_add() returns the count including the packets added */
	KUNIT_EXPECT_EQ(test, aqm_sb_add(sb, e, 3, TIMEOUT, 3), 5);
	KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, e, 4, TIMEOUT), 6);
	KUNIT_EXPECT_EQ(test, sb->overwrites, 0);
}

/* short 0: every packet is OUT, a flow's first and a fresh one's too. */
static void aqm_rio_classify_short_zero(struct kunit *test)
{
	struct aqm_sb *sb = aqm_kunit_sb_new(test, 16);
	u32 a = SB16(6, 2), b = SB16(7, 2);
	int i;

	for (i = 1; i <= 30; i++)
		KUNIT_EXPECT_FALSE_MSG(test, aqm_rio_classify(sb, a, i, TIMEOUT,
							      1, 0),
				       "packet %d", i);
	KUNIT_EXPECT_FALSE(test, aqm_rio_classify(sb, b, 1, TIMEOUT, 5, 0));
	/* after the timeout the flow starts again, still OUT */
	KUNIT_EXPECT_FALSE(test, aqm_rio_classify(sb, a, 30 + TIMEOUT + 1,
						  TIMEOUT, 1, 0));
	KUNIT_EXPECT_EQ(test, sb->tab[6].count, 1);
}

/* A silence longer than the timeout starts a flow again; one of exactly
 * the timeout does not.
 */
static void aqm_rio_classify_timeout(struct kunit *test)
{
	struct aqm_sb *sb = aqm_kunit_sb_new(test, 16);
	u32 a = SB16(6, 3);
	u64 t = 5000;
	int i;

	for (i = 0; i < 25; i++)
		rio_in(sb, a, t + i * 1000);
	t += 24 * 1000;
	KUNIT_EXPECT_EQ(test, sb->tab[6].count, 25);

	/* exactly the timeout: the flow goes on, OUT */
	t += TIMEOUT;
	KUNIT_EXPECT_FALSE(test, rio_in(sb, a, t));
	KUNIT_EXPECT_EQ(test, sb->tab[6].count, 26);

	/* one ns more: IN again, its count from 1, 20 IN packets again */
	t += TIMEOUT + 1;
	KUNIT_EXPECT_TRUE(test, rio_in(sb, a, t));
	KUNIT_EXPECT_EQ(test, sb->tab[6].count, 1);
	for (i = 2; i <= SHORT; i++)
		KUNIT_EXPECT_TRUE_MSG(test, rio_in(sb, a, t + i), "packet %d", i);
	KUNIT_EXPECT_FALSE(test, rio_in(sb, a, t + SHORT + 1));
	t += SHORT + 1;

	/* a clock read slightly behind (another CPU) is no silence */
	KUNIT_EXPECT_FALSE(test, rio_in(sb, a, t - 10));
	t -= 10;

	/* a GSO packet after the timeout: IN, counting its segments */
	t += TIMEOUT + 1;
	KUNIT_EXPECT_TRUE(test, rio_in_gso(sb, a, t, 30));
	KUNIT_EXPECT_EQ(test, sb->tab[6].count, 30);
	KUNIT_EXPECT_FALSE(test, rio_in(sb, a, t + 1));

	/* a restart is no overwrite */
	KUNIT_EXPECT_EQ(test, sb->overwrites, 0);
}

/* Two flows in the one slot of a 1-slot scoreboard restart each other. */
static void aqm_rio_classify_collision(struct kunit *test)
{
	struct aqm_sb *sb = aqm_kunit_sb_new(test, 1);
	u32 a = 1, b = U32_MAX;
	int i;

	for (i = 1; i <= 25; i++)
		rio_in(sb, a, i);
	KUNIT_EXPECT_FALSE(test, rio_in(sb, a, 26));
	KUNIT_EXPECT_EQ(test, sb->overwrites, 0);

	/* b takes the slot: a count of its own from 1, IN */
	KUNIT_EXPECT_TRUE(test, rio_in(sb, b, 27));
	KUNIT_EXPECT_EQ(test, sb->overwrites, 1);
	KUNIT_EXPECT_EQ(test, sb->tab[0].id, b);
	KUNIT_EXPECT_EQ(test, sb->tab[0].count, 1);

	/* a comes back: IN again, although it sent 26 packets */
	KUNIT_EXPECT_TRUE(test, rio_in(sb, a, 28));
	KUNIT_EXPECT_EQ(test, sb->overwrites, 2);
	KUNIT_EXPECT_EQ(test, sb->tab[0].count, 1);

	/* taking turns, each restarts the other: both stay IN for ever */
	for (i = 0; i < 2 * SHORT; i++)
		KUNIT_EXPECT_TRUE_MSG(test, rio_in(sb, i % 2 ? a : b, 29 + i),
				      "turn %d", i);
	KUNIT_EXPECT_EQ(test, sb->overwrites, 2 + 2 * SHORT);

	/* a GSO packet overwrites once, and its segments count */
	KUNIT_EXPECT_TRUE(test, rio_in_gso(sb, b, 100, 5));
	KUNIT_EXPECT_EQ(test, sb->overwrites, 3 + 2 * SHORT);
	KUNIT_EXPECT_EQ(test, sb->tab[0].count, 5);
	for (i = 6; i <= SHORT; i++)
		KUNIT_EXPECT_TRUE_MSG(test, rio_in(sb, b, 100 + i), "packet %d", i);
	KUNIT_EXPECT_FALSE(test, rio_in(sb, b, 100 + SHORT + 1));
	KUNIT_EXPECT_EQ(test, sb->overwrites, 3 + 2 * SHORT);
}

/* The count saturates at U32_MAX: a long flow never wraps back to IN. */
static void aqm_rio_count_saturates(struct kunit *test)
{
	struct aqm_sb *sb = aqm_kunit_sb_new(test, 16);
	u32 a = SB16(7, 9), b = SB16(7, 10), c = SB16(8, 1);

	KUNIT_EXPECT_EQ(test, aqm_sb_add(sb, a, 1, TIMEOUT, U32_MAX - 3),
			U32_MAX - 3);
	/* a wrapped count would be 1 */
	KUNIT_EXPECT_EQ(test, aqm_sb_add(sb, a, 2, TIMEOUT, 5), U32_MAX);
	KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, a, 3, TIMEOUT), U32_MAX);
	KUNIT_EXPECT_EQ(test, aqm_sb_add(sb, a, 4, TIMEOUT, U32_MAX), U32_MAX);
	KUNIT_EXPECT_EQ(test, sb->tab[7].count, U32_MAX);

	/* saturated, the flow stays OUT, with or without GSO */
	KUNIT_EXPECT_FALSE(test, rio_in(sb, a, 5));
	KUNIT_EXPECT_FALSE(test, rio_in_gso(sb, a, 6, 64));
	KUNIT_EXPECT_EQ(test, sb->tab[7].count, U32_MAX);

	/* its slot is held: another flow there is an overwrite */
	KUNIT_EXPECT_TRUE(test, rio_in(sb, b, 7));
	KUNIT_EXPECT_EQ(test, sb->overwrites, 1);

	/* a saturated flow still starts again after the timeout */
	KUNIT_EXPECT_EQ(test, aqm_sb_add(sb, c, 10, TIMEOUT, U32_MAX), U32_MAX);
	KUNIT_EXPECT_FALSE(test, rio_in(sb, c, 10 + TIMEOUT));
	KUNIT_EXPECT_TRUE(test, rio_in(sb, c, 10 + 2 * TIMEOUT + 1));
	KUNIT_EXPECT_EQ(test, sb->tab[8].count, 1);
}

/* ====================================================================== */
/* RIO                                                                    */

/* sch_riops.c's default curves; both averages 0, the queue idle */
static void rio_setup(struct kunit *test, struct aqm_rio *r, u64 pps,
		      bool gentle)
{
	KUNIT_ASSERT_EQ(test, aqm_ared_params_set(&r->in, 40, 70, pps, 0,
						  gentle), 0);
	KUNIT_ASSERT_EQ(test, aqm_ared_params_set(&r->out, 10, 30, pps, 0,
						  gentle), 0);
	aqm_ared_vars_init(&r->in_v, &r->in, P(1, 50), 0);
	aqm_ared_vars_init(&r->out_v, &r->out, P(1, 10), 0);
}

/* An IN arrival moves avg_in and avg_total, an OUT arrival avg_total. */
static void aqm_rio_averages(struct kunit *test)
{
	struct aqm_rio r;
	int i;

	/* w = 1/2: exact steps */
	rio_setup(test, &r, 1250, true);
	r.in.w = 1U << 31;
	r.out.w = 1U << 31;

	/* OUT, 10 queued of which 4 IN: avg_total 5, avg_in untouched */
	aqm_rio_prob(&r, false, 10, 4);
	KUNIT_EXPECT_EQ(test, r.out_v.avg, AVG(5));
	KUNIT_EXPECT_EQ(test, r.in_v.avg, 0);
	/* IN at the same queue: both move, each toward its own sample */
	aqm_rio_prob(&r, true, 10, 4);
	KUNIT_EXPECT_EQ(test, r.out_v.avg, AVG(15) / 2);
	KUNIT_EXPECT_EQ(test, r.in_v.avg, AVG(2));
	/* OUT at an empty queue: avg_total falls, avg_in stays */
	aqm_rio_prob(&r, false, 0, 0);
	KUNIT_EXPECT_EQ(test, r.out_v.avg, AVG(15) / 4);
	KUNIT_EXPECT_EQ(test, r.in_v.avg, AVG(2));
	/* IN with no IN packet queued: avg_in falls too */
	aqm_rio_prob(&r, true, 3, 0);
	KUNIT_EXPECT_EQ(test, r.out_v.avg, AVG(27) / 8);
	KUNIT_EXPECT_EQ(test, r.in_v.avg, AVG(1));
	/* the spacing counts are aqm_ared_hit()'s, not moved here */
	KUNIT_EXPECT_EQ(test, r.in_v.count, -1);
	KUNIT_EXPECT_EQ(test, r.out_v.count, -1);

	/* C = 1 packet/s: w = 1 - 1/e, one arrival moves the average by
	 * 63.2% of the way: 10 (1 - 1/e) = 6.3212 packets
	 */
	rio_setup(test, &r, 1, true);
	KUNIT_EXPECT_EQ(test, r.out.w, aqm_ared_weight(1));
	KUNIT_EXPECT_LE(test, abs((s64)r.out.w - 2714937127LL), 2);
	aqm_rio_prob(&r, false, 10, 0);
	KUNIT_EXPECT_LE(test, abs((s64)r.out_v.avg - 414266), 8);
	KUNIT_EXPECT_EQ(test, r.in_v.avg, 0);
	/* and follows the queue within 20 arrivals (e^-20) */
	for (i = 0; i < 20; i++)
		aqm_rio_prob(&r, true, 10, 10);
	KUNIT_EXPECT_LE(test, AVG(10) - r.out_v.avg, 2);
	KUNIT_EXPECT_LE(test, AVG(10) - r.in_v.avg, 2);
}

/* Both curves at known points: the arrival's queue equals the average,
 * which the arrival then leaves where it is.
 */
static void aqm_rio_curves(struct kunit *test)
{
	static const struct {
		u32 avg;
		s64 gentle, plain;	/* p_b, 1/10000 */
	} out_pts[] = {
		{ 0, 0, 0 },
		{ 5, 0, 0 },
		{ 10, 0, 0 },			/* out_min */
		{ 20, 500, 500 },		/* 0.1 * 10 / 20 */
		{ 25, 750, 750 },		/* 0.1 * 15 / 20 */
		{ 29, 950, 950 },
		{ 30, 1000, 10000 },		/* out_max: max_p, or 1 */
		{ 31, 1300, 10000 },		/* 0.1 + 0.9 * 1 / 30 */
		{ 45, 5500, 10000 },		/* 1.5 out_max: 0.1 + 0.9 / 2 */
		{ 59, 9700, 10000 },		/* 0.1 + 0.9 * 29 / 30 */
		{ 60, 10000, 10000 },		/* 2 out_max */
		{ 200, 10000, 10000 },
	}, in_pts[] = {
		{ 0, 0, 0 },
		{ 39, 0, 0 },
		{ 40, 0, 0 },			/* in_min */
		{ 55, 100, 100 },		/* 0.02 * 15 / 30 */
		{ 64, 160, 160 },		/* 0.02 * 24 / 30 */
		{ 70, 200, 10000 },		/* in_max */
		{ 105, 5100, 10000 },		/* 1.5 in_max: 0.02 + 0.98 / 2 */
		{ 139, 9860, 10000 },		/* 0.02 + 0.98 * 69 / 70 */
		{ 140, 10000, 10000 },		/* 2 in_max */
		{ 1000, 10000, 10000 },
	};
	struct aqm_rio g, p;
	int i;

	rio_setup(test, &g, 1250, true);
	rio_setup(test, &p, 1250, false);
	for (i = 0; i < ARRAY_SIZE(out_pts); i++) {
		u32 q = out_pts[i].avg;

		g.out_v.avg = AVG(q);
		p.out_v.avg = AVG(q);
		KUNIT_EXPECT_LE_MSG(test, abs(aqm_rio_prob(&g, false, q, 0) -
					      P(out_pts[i].gentle, 10000)),
				    P_TOL, "OUT gentle, avg_total %u", q);
		KUNIT_EXPECT_LE_MSG(test, abs(aqm_rio_prob(&p, false, q, 0) -
					      P(out_pts[i].plain, 10000)),
				    P_TOL, "OUT plain, avg_total %u", q);
		KUNIT_EXPECT_EQ(test, g.out_v.avg, AVG(q));
	}
	/* IN on avg_in, whatever avg_total (here the same: OUT's p would
	 * be 1 from 60 on)
	 */
	for (i = 0; i < ARRAY_SIZE(in_pts); i++) {
		u32 q = in_pts[i].avg;

		g.in_v.avg = AVG(q);
		g.out_v.avg = AVG(q);
		p.in_v.avg = AVG(q);
		p.out_v.avg = AVG(q);
		KUNIT_EXPECT_LE_MSG(test, abs(aqm_rio_prob(&g, true, q, q) -
					      P(in_pts[i].gentle, 10000)),
				    P_TOL, "IN gentle, avg_in %u", q);
		KUNIT_EXPECT_LE_MSG(test, abs(aqm_rio_prob(&p, true, q, q) -
					      P(in_pts[i].plain, 10000)),
				    P_TOL, "IN plain, avg_in %u", q);
		KUNIT_EXPECT_EQ(test, g.in_v.avg, AVG(q));
		KUNIT_EXPECT_EQ(test, g.out_v.avg, AVG(q));
	}
}

/* At one moment, OUT and IN arrivals each get their own curve's p. */
static void aqm_rio_in_and_out(struct kunit *test)
{
	struct aqm_rio r;

	rio_setup(test, &r, 1250, true);
	/* avg_total 25 between out_min and out_max, avg_in 20 below in_min */
	r.out_v.avg = AVG(25);
	r.in_v.avg = AVG(20);
	KUNIT_EXPECT_LE(test, abs(aqm_rio_prob(&r, false, 25, 20) -
				  P(75, 1000)), P_TOL);
	KUNIT_EXPECT_EQ(test, aqm_rio_prob(&r, true, 25, 20), 0);
	KUNIT_EXPECT_LE(test, abs(aqm_rio_prob(&r, false, 25, 20) -
				  P(75, 1000)), P_TOL);

	/* avg_total past 2 out_max: every OUT arrival dropped, IN ones not */
	r.out_v.avg = AVG(100);
	r.in_v.avg = AVG(39);
	KUNIT_EXPECT_EQ(test, aqm_rio_prob(&r, false, 100, 39), AQM_PI_ONE);
	KUNIT_EXPECT_EQ(test, aqm_rio_prob(&r, true, 100, 39), 0);

	/* both at 50: IN 0.02 * 10 / 30, OUT 0.1 + 0.9 * 20 / 30 */
	r.out_v.avg = AVG(50);
	r.in_v.avg = AVG(50);
	KUNIT_EXPECT_LE(test, abs(aqm_rio_prob(&r, true, 50, 50) -
				  P(2, 300)), P_TOL);
	KUNIT_EXPECT_LE(test, abs(aqm_rio_prob(&r, false, 50, 50) -
				  P(7, 10)), P_TOL);
}

/* Both averages decay by exp(-t) over t idle seconds, whatever C. */
static void aqm_rio_idle_decay(struct kunit *test)
{
	static const u64 pps[] = { 1, 1250, 100000 };
	u64 t0 = 5 * NSEC_PER_SEC;
	struct aqm_rio r;
	int i;

	for (i = 0; i < ARRAY_SIZE(pps); i++) {
		rio_setup(test, &r, pps[i], true);
		/* a queue that was busy until t0 (init leaves it idle) */
		r.out_v.idle_since = 0;
		r.in_v.idle_since = 0;
		r.out_v.avg = AVG(100);
		r.in_v.avg = AVG(50);
		aqm_rio_idle_start(&r, t0);
		KUNIT_EXPECT_EQ(test, r.out_v.idle_since, t0);
		KUNIT_EXPECT_EQ(test, r.in_v.idle_since, t0);
		aqm_rio_idle_end(&r, true, t0 + NSEC_PER_SEC);
		/* 100 / e = 36.788, 50 / e = 18.394, within 1% */
		KUNIT_EXPECT_LE_MSG(test, abs((s64)r.out_v.avg - 2410935),
				    24109, "avg_total, C %llu", pps[i]);
		KUNIT_EXPECT_LE_MSG(test, abs((s64)r.in_v.avg - 1205467),
				    12055, "avg_in, C %llu", pps[i]);
		KUNIT_EXPECT_EQ(test, r.out_v.idle_since, 0);
		KUNIT_EXPECT_EQ(test, r.in_v.idle_since, 0);
	}

	/* two seconds: exp(-2), 100 * 0.135335 = 13.534 */
	r.out_v.avg = AVG(100);
	r.in_v.avg = AVG(100);
	aqm_rio_idle_start(&r, t0);
	aqm_rio_idle_end(&r, true, t0 + 2 * NSEC_PER_SEC);
	KUNIT_EXPECT_LE(test, abs((s64)r.out_v.avg - 886933), 8869);
	KUNIT_EXPECT_LE(test, abs((s64)r.in_v.avg - 886933), 8869);

	/* an idle period that starts at time 0 is one all the same */
	aqm_rio_idle_start(&r, 0);
	KUNIT_EXPECT_NE(test, r.out_v.idle_since, 0);
	KUNIT_EXPECT_NE(test, r.in_v.idle_since, 0);

	/* 60 packets, OUT's p 1, before 1 s of idle: 22.07 after, so an
	 * arrival at the empty queue gets 0.1 * (22.05 - 10) / 20 = 0.0603
	 * and an IN one 0
	 */
	rio_setup(test, &r, 1250, true);
	r.out_v.idle_since = 0;
	r.in_v.idle_since = 0;
	r.out_v.avg = AVG(60);
	r.in_v.avg = AVG(60);
	KUNIT_EXPECT_EQ(test, aqm_ared_prob(&r.out, &r.out_v), AQM_PI_ONE);
	aqm_rio_idle_start(&r, t0);
	aqm_rio_idle_end(&r, true, t0 + NSEC_PER_SEC);
	KUNIT_EXPECT_LE(test, abs(aqm_rio_prob(&r, false, 0, 0) -
				  P(603, 10000)), P(1, 1000));
	KUNIT_EXPECT_EQ(test, aqm_rio_prob(&r, true, 0, 0), 0);
}

/*
 * avg_in decays over the time no IN packet was queued, at the next IN
 * arrival: an OUT arrival in between neither decays it nor ends that idle
 * period, and the queue emptying later does not restart it.
 */
static void aqm_rio_in_idle(struct kunit *test)
{
	u64 t0 = 5 * NSEC_PER_SEC;
	struct aqm_rio r;

	rio_setup(test, &r, 1250, true);
	r.in_v.idle_since = 0;
	r.out_v.idle_since = 0;
	r.in_v.avg = AVG(50);
	r.out_v.avg = AVG(100);
	aqm_rio_in_idle_start(&r, t0);
	aqm_rio_idle_end(&r, false, t0 + NSEC_PER_SEC / 2);
	KUNIT_EXPECT_EQ(test, r.in_v.avg, AVG(50));
	KUNIT_EXPECT_EQ(test, r.in_v.idle_since, t0);
	KUNIT_EXPECT_EQ(test, r.out_v.avg, AVG(100));
	aqm_rio_idle_start(&r, t0 + NSEC_PER_SEC / 2);
	KUNIT_EXPECT_EQ(test, r.in_v.idle_since, t0);
	/* one second after the last IN packet left: 50 / e */
	aqm_rio_idle_end(&r, true, t0 + NSEC_PER_SEC);
	KUNIT_EXPECT_LE(test, abs((s64)r.in_v.avg - 1205467), 12055);
	KUNIT_EXPECT_EQ(test, r.in_v.idle_since, 0);
	/* and avg_total over its own half second: 100 / sqrt(e) = 60.65 */
	KUNIT_EXPECT_LE(test, abs((s64)r.out_v.avg - 3974959), 39750);
}

static struct kunit_case aqm_riops_cases[] = {
	KUNIT_CASE(aqm_rio_classify_first_packets),
	KUNIT_CASE(aqm_rio_classify_gso),
	KUNIT_CASE(aqm_rio_classify_short_zero),
	KUNIT_CASE(aqm_rio_classify_timeout),
	KUNIT_CASE(aqm_rio_classify_collision),
	KUNIT_CASE(aqm_rio_count_saturates),
	KUNIT_CASE(aqm_rio_averages),
	KUNIT_CASE(aqm_rio_curves),
	KUNIT_CASE(aqm_rio_in_and_out),
	KUNIT_CASE(aqm_rio_idle_decay),
	KUNIT_CASE(aqm_rio_in_idle),
	{}
};

static struct kunit_suite aqm_riops_suite = {
	.name = "aqm_riops",
	.test_cases = aqm_riops_cases,
};

kunit_test_suite(aqm_riops_suite);

MODULE_DESCRIPTION("KUnit tests for RIO-PS's core (linux-aqm)");
MODULE_LICENSE("GPL");
