// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for ARED's core (include/net/aqm_ared.h, net/sched/aqm_ared.c):
 * Floyd et al.'s EWMA weight and idle decay, the gentle RED curve, RED's
 * drop spacing and the AIMD adaptation of max_p, with known answers worked
 * out from the formulas in the header.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/time64.h>
#include <net/aqm_ared.h>

#define AVG(x)		((u64)(x) << AQM_ARED_AVG_SHIFT)
#define P(num, den)	((s64)div_u64((u64)(num) << 32, (den)))
#define INTERVAL	(500 * NSEC_PER_MSEC)

/* w = 1 - exp(-1/C) */
static void aqm_ared_weight_known(struct kunit *test)
{
	/* C = 1250 packets/s (10 Mbit/s of 1000 bytes): 7.99680e-4 */
	KUNIT_EXPECT_LE(test, abs((s64)aqm_ared_weight(1250) - 3434599), 2);
	/* C = 1: 1 - 1/e */
	KUNIT_EXPECT_LE(test, abs((s64)aqm_ared_weight(1) - 2714937127LL), 2);
	/* very fast links keep a non-zero weight */
	KUNIT_EXPECT_GT(test, aqm_ared_weight(100000000), 0);
}

static void ared_setup(struct kunit *test, struct aqm_ared_params *p,
		       struct aqm_ared_vars *v, bool gentle)
{
	/* min_th 10, max_th 30: target band 18..22 */
	KUNIT_ASSERT_EQ(test, aqm_ared_params_set(p, 10, 30, 1250, INTERVAL,
						  gentle), 0);
	aqm_ared_vars_init(v, p, P(1, 10), 0);
}

static void aqm_ared_params_rejects(struct kunit *test)
{
	struct aqm_ared_params p = { .min_th = 7 };

	KUNIT_EXPECT_EQ(test, aqm_ared_params_set(&p, 30, 30, 1250, 0, true),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, aqm_ared_params_set(&p, 30, 10, 1250, 0, true),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, p.min_th, 7);
}

/* The gentle curve at known points, max_p = 0.1. */
static void aqm_ared_curve(struct kunit *test)
{
	static const struct {
		u32 avg;
		s64 gentle, plain;	/* p_b, 1/1000 */
	} pts[] = {
		{ 5, 0, 0 },
		{ 10, 0, 0 },
		{ 20, 50, 50 },		/* half way: max_p / 2 */
		{ 29, 95, 95 },
		{ 30, 100, 1000 },	/* max_th: max_p, or 1 without gentle */
		{ 45, 550, 1000 },	/* 0.1 + 0.9 * 15 / 30 */
		{ 59, 970, 1000 },	/* 0.1 + 0.9 * 29 / 30 */
		{ 60, 1000, 1000 },	/* 2 max_th */
		{ 500, 1000, 1000 },
	};
	struct aqm_ared_params gp, pp;
	struct aqm_ared_vars v;
	int i;

	ared_setup(test, &gp, &v, true);
	ared_setup(test, &pp, &v, false);
	for (i = 0; i < ARRAY_SIZE(pts); i++) {
		v.avg = AVG(pts[i].avg);
		/* exact up to the rounding of 2^32 / delta: 2^-24 */
		KUNIT_EXPECT_LE_MSG(test, abs(aqm_ared_prob(&gp, &v) -
					      P(pts[i].gentle, 1000)), 256,
				    "gentle, avg %u", pts[i].avg);
		KUNIT_EXPECT_LE_MSG(test, abs(aqm_ared_prob(&pp, &v) -
					      P(pts[i].plain, 1000)), 256,
				    "plain, avg %u", pts[i].avg);
	}
}

/* p_a = p_b / (1 - count p_b): with the largest random number a drop
 * still comes on the 1/p_b-th arrival, with 0 on the first.
 */
static void aqm_ared_spacing(struct kunit *test)
{
	struct aqm_ared_params p;
	struct aqm_ared_vars v;
	int i;

	ared_setup(test, &p, &v, true);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_FALSE_MSG(test, aqm_ared_hit(&v, P(1, 4), U32_MAX),
				       "arrival %d", i);
	KUNIT_EXPECT_TRUE(test, aqm_ared_hit(&v, P(1, 4), U32_MAX));
	KUNIT_EXPECT_EQ(test, v.count, 0);
	/* after a drop the next arrival has p_a = p_b / (1 - p_b) = 1/3 */
	KUNIT_EXPECT_TRUE(test, aqm_ared_hit(&v, P(1, 4), P(1, 3) - 8));
	KUNIT_EXPECT_FALSE(test, aqm_ared_hit(&v, P(1, 4), P(1, 3) + 8));
	/* the first arrival over min_th has p_a = p_b */
	KUNIT_EXPECT_FALSE(test, aqm_ared_hit(&v, 0, 0));
	KUNIT_EXPECT_EQ(test, v.count, -1);
	KUNIT_EXPECT_FALSE(test, aqm_ared_hit(&v, P(1, 4), P(1, 4) + 8));
	KUNIT_EXPECT_EQ(test, v.count, 0);
	/* p_b = 1 always hits */
	KUNIT_EXPECT_TRUE(test, aqm_ared_hit(&v, AQM_PI_ONE, U32_MAX));
}

/* avg <- avg + w (q - avg), and exp(-t) over t idle seconds. */
static void aqm_ared_average(struct kunit *test)
{
	struct aqm_ared_params p;
	struct aqm_ared_vars v;

	ared_setup(test, &p, &v, true);
	p.w = 1U << 30;		/* w = 1/4 */
	v.avg = 0;
	aqm_ared_avg_update(&p, &v, 100);
	KUNIT_EXPECT_EQ(test, v.avg, AVG(25));
	aqm_ared_avg_update(&p, &v, 100);
	KUNIT_EXPECT_EQ(test, v.avg, AVG(175) / 4);
	aqm_ared_avg_update(&p, &v, 0);
	KUNIT_EXPECT_EQ(test, v.avg, AVG(525) / 16);

	v.avg = AVG(100);
	v.idle_since = NSEC_PER_SEC;
	aqm_ared_idle_end(&p, &v, 2 * NSEC_PER_SEC);
	/* 100 / e = 36.788 */
	KUNIT_EXPECT_LE(test, abs((s64)v.avg - 2410935), 64);
	KUNIT_EXPECT_EQ(test, v.idle_since, 0);
	/* past 2^32 ns: 100 exp(-6) = 0.24788 */
	v.avg = AVG(100);
	v.idle_since = NSEC_PER_SEC;
	aqm_ared_idle_end(&p, &v, 7 * NSEC_PER_SEC);
	KUNIT_EXPECT_LE(test, abs((s64)v.avg - 16245), 16);
	v.avg = AVG(100);
	v.idle_since = 1;
	aqm_ared_idle_end(&p, &v, 40 * NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, v.avg, 0);
}

/* Floyd et al.'s AIMD, one interval at a time and caught up. */
static void aqm_ared_adaptation(struct kunit *test)
{
	struct aqm_ared_params p;
	struct aqm_ared_vars v;
	s64 maxp;
	int i;

	ared_setup(test, &p, &v, true);
	v.idle_since = 0;

	/* nothing before the interval ends */
	v.avg = AVG(25);
	aqm_ared_adapt(&p, &v, INTERVAL - 1);
	KUNIT_EXPECT_EQ(test, v.max_p, P(1, 10));

	/* above the band: + min(0.01, max_p / 4) = 0.01 */
	aqm_ared_adapt(&p, &v, INTERVAL);
	KUNIT_EXPECT_EQ(test, v.max_p, P(1, 10) + AQM_ARED_MAXP_MIN);

	/* in the band: no step */
	v.avg = AVG(20);
	aqm_ared_adapt(&p, &v, 2 * INTERVAL);
	KUNIT_EXPECT_EQ(test, v.max_p, P(1, 10) + AQM_ARED_MAXP_MIN);
	KUNIT_EXPECT_EQ(test, v.adapts, 1);

	/* below it: * 0.9 */
	v.avg = AVG(15);
	maxp = v.max_p;
	aqm_ared_adapt(&p, &v, 3 * INTERVAL);
	KUNIT_EXPECT_EQ(test, v.max_p, div_u64(maxp * 9, 10));

	/* ten intervals at once with the same average: ten steps */
	v.avg = AVG(25);
	maxp = v.max_p;
	aqm_ared_adapt(&p, &v, 13 * INTERVAL);
	KUNIT_EXPECT_EQ(test, v.max_p, maxp + 10 * AQM_ARED_MAXP_MIN);

	/* a long overload: max_p stops just above 0.5 */
	for (i = 14; i < 200; i++)
		aqm_ared_adapt(&p, &v, i * INTERVAL);
	KUNIT_EXPECT_GT(test, v.max_p, AQM_ARED_MAXP_MAX);
	KUNIT_EXPECT_LE(test, v.max_p, AQM_ARED_MAXP_MAX + AQM_ARED_MAXP_MIN);

	/* a long idle period decays the average: max_p falls to 0.01 in at
	 * most AQM_ARED_CATCH_UP steps, whatever the idle time
	 */
	v.idle_since = 200ULL * INTERVAL;
	maxp = v.adapts;
	aqm_ared_adapt(&p, &v, 20000ULL * INTERVAL);
	KUNIT_EXPECT_LT(test, v.max_p, AQM_ARED_MAXP_MIN);
	KUNIT_EXPECT_GE(test, v.max_p, div_u64(AQM_ARED_MAXP_MIN * 9, 10));
	KUNIT_EXPECT_LE(test, v.adapts - maxp, AQM_ARED_CATCH_UP);
	KUNIT_EXPECT_EQ(test, v.next_adapt, 20001ULL * INTERVAL);
}

static struct kunit_case aqm_ared_cases[] = {
	KUNIT_CASE(aqm_ared_weight_known),
	KUNIT_CASE(aqm_ared_params_rejects),
	KUNIT_CASE(aqm_ared_curve),
	KUNIT_CASE(aqm_ared_spacing),
	KUNIT_CASE(aqm_ared_average),
	KUNIT_CASE(aqm_ared_adaptation),
	{}
};

static struct kunit_suite aqm_ared_suite = {
	.name = "aqm_ared",
	.test_cases = aqm_ared_cases,
};

kunit_test_suite(aqm_ared_suite);

MODULE_DESCRIPTION("KUnit tests for ARED's core (linux-aqm)");
MODULE_LICENSE("GPL");
