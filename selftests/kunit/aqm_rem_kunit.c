// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for REM's parts of the library: the price-to-probability
 * map 1 - phi^(-price) (include/net/aqm_rem.h) and the PI controller's
 * input term that carries REM's rate mismatch (aqm_pi_sample_in(),
 * AQM/ECN paper eq. 2).
 *
 * Known answers: log2 and 2^-k values computed to 30 digits and floored
 * to the fixed-point scale; prices with phi = 2, where 1 - 2^-price is
 * exact in binary.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/random.h>
#include <net/aqm_pi.h>
#include <net/aqm_exp.h>

#define PKT(x)		((s64)(x) << AQM_PI_SHIFT)
#define GAIN(n, s)	((u64)(n) << (AQM_PI_GAIN_SHIFT - (s)))
#define T_NS		2000000ULL

static void aqm_rem_log2_known(struct kunit *test)
{
	static const struct {
		u64 num, den, log2;
	} cases[] = {
		{ 2, 1, 1ULL << 32 },
		{ 4, 1, 2ULL << 32 },
		{ 3, 1, 6807362105ULL },	/* log2(3) = 1.5849625007... */
		{ 3, 2, 2512394809ULL },	/* log2(1.5) = 0.5849625007... */
		{ 1001, 1000, 6193231ULL },	/* REM's phi: 0.0014419741... */
		{ 15, 1, 16779967337ULL },	/* log2(15) = 3.9068905956... */
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		u64 l = 0;

		KUNIT_ASSERT_EQ(test, aqm_rem_log2_ratio(cases[i].num,
							 cases[i].den, &l), 0);
		KUNIT_EXPECT_EQ_MSG(test, l, cases[i].log2, "log2(%llu/%llu)",
				    cases[i].num, cases[i].den);
	}
}

static void aqm_rem_log2_rejects(struct kunit *test)
{
	u64 l = 42;

	/* phi must be above 1: 1 - phi^-p would never rise */
	KUNIT_EXPECT_EQ(test, aqm_rem_log2_ratio(1, 1, &l), -EINVAL);
	KUNIT_EXPECT_EQ(test, aqm_rem_log2_ratio(999, 1000, &l), -EINVAL);
	KUNIT_EXPECT_EQ(test, aqm_rem_log2_ratio(5, 0, &l), -EINVAL);
	/* at 16 and above, log2 no longer fits the checks on the price */
	KUNIT_EXPECT_EQ(test, aqm_rem_log2_ratio(16, 1, &l), -ERANGE);
	/* so close to 1 that the price at m = 1 would pass 2^61 */
	KUNIT_EXPECT_EQ(test, aqm_rem_log2_ratio(1000000001ULL, 1000000000ULL,
						 &l), -ERANGE);
	KUNIT_EXPECT_EQ(test, l, 42);
	KUNIT_EXPECT_EQ(test, aqm_rem_log2_ratio(10000001, 10000000, &l), 0);
}

/* phi = 2: m = 1 - 2^-price, exact in binary for these prices. */
static void aqm_rem_prob_phi2(struct kunit *test)
{
	static const struct {
		s64 price;	/* in 1/2 packets */
		s64 m;		/* 2^-32 units, the exact value rounded up */
	} cases[] = {
		{ 0, 0 },
		{ 1, 1257966797 },	/* 1 - 2^-0.5 */
		{ 2, 1LL << 31 },	/* 1 - 1/2 */
		{ 4, 3LL << 30 },	/* 1 - 1/4 */
		{ 7, 3915342234 },	/* 1 - 2^-3.5 */
		{ 62, (1LL << 32) - 2 },	/* 1 - 2^-31 */
		{ 64, 1LL << 32 },	/* 2^-32 and below: 1.0 */
		{ 200, 1LL << 32 },
	};
	u64 l;
	int i;

	KUNIT_ASSERT_EQ(test, aqm_rem_log2_ratio(2, 1, &l), 0);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, aqm_rem_prob(cases[i].price << 31, l),
				    cases[i].m, "price %lld/2", cases[i].price);
	KUNIT_EXPECT_EQ(test, aqm_rem_prob(-PKT(3), l), 0);
	KUNIT_EXPECT_EQ(test, aqm_rem_price_max(l), PKT(32));
}

/* REM's phi = 1.001: m = 1/2 at price ln 2 / ln 1.001 = 693.49369641...,
 * and m rises with the price.
 */
static void aqm_rem_prob_rem_phi(struct kunit *test)
{
	s64 half = PKT(693) + 2120409964LL;	/* .49369641682 * 2^32 */
	s64 p, m, prev = -1;
	u64 l;

	KUNIT_ASSERT_EQ(test, aqm_rem_log2_ratio(1001, 1000, &l), 0);
	m = aqm_rem_prob(half, l);
	/* log2(1.001) in Q32 is rounded down by 1.5e-7 of itself */
	KUNIT_EXPECT_LE(test, abs(m - (1LL << 31)), 1LL << 12);
	/* 1 - 1.001^-1 = 0.000999000999 */
	KUNIT_EXPECT_LE(test, abs(aqm_rem_prob(PKT(1), l) - 4290677LL), 2);
	for (p = 0; p <= aqm_rem_price_max(l); p += PKT(97)) {
		m = aqm_rem_prob(p, l);
		KUNIT_EXPECT_GE(test, m, prev);
		prev = m;
	}
	KUNIT_EXPECT_EQ(test, aqm_rem_prob(aqm_rem_price_max(l), l),
			AQM_PI_ONE);
	/* 32 / log2(1.001) = 22191.8... packets */
	KUNIT_EXPECT_EQ(test, aqm_rem_price_max(l) >> AQM_PI_SHIFT, 22191);
}

static void rem_setup(struct aqm_pi_params *p, u64 g_new, u64 g_old,
		      u64 g_in, u32 qref)
{
	*p = (struct aqm_pi_params) {
		.g_new = g_new,
		.g_old = g_old,
		.g_in = g_in,
		.tupdate = T_NS,
		.x_min = 0,
		.x_max = PKT(1000),
		.qref = qref,
	};
}

/* g_new = 1/8 on the queue error, g_in = 1/16 on the input: eq. 2 with
 * gamma alpha = 1/8 and gamma = 1/16, worked out by hand.
 */
static void aqm_rem_price_known_answer(struct kunit *test)
{
	static const struct {
		u32 q;
		s64 in;
		s64 x;	/* expected price after the update, 1/16 packets */
	} seq[] = {
		{ 20, 8, 28 },	/* 10/8 + 8/16 = 1.75 */
		{ 20, 0, 48 },	/* + 1.25 -> 3 */
		{ 10, -16, 32 },	/* + 0 - 1 -> 2 */
		{ 2, -4, 12 },	/* - 1 - 0.25 -> 0.75 */
		{ 0, -40, 0 },	/* - 1.25 - 2.5: held at 0, [.]^+ */
		{ 30, 0, 40 },	/* + 2.5 */
	};
	struct aqm_pi_params p;
	struct aqm_pi_vars v;
	int i;

	rem_setup(&p, GAIN(1, 3), 0, GAIN(1, 4), 10);
	aqm_pi_vars_init(&v, &p, 0, 0);
	for (i = 0; i < ARRAY_SIZE(seq); i++) {
		aqm_pi_sample_in(&p, &v, seq[i].q, 1, seq[i].in, 0);
		KUNIT_EXPECT_EQ_MSG(test, v.x, (s64)seq[i].x << (AQM_PI_SHIFT - 4),
				    "update %d", i);
	}
}

/* The closed form of n idle updates equals n single ones, clamps included. */
static void aqm_rem_price_closed_form(struct kunit *test)
{
	static const struct {
		u32 q;
		s64 in_first, in_rest;
		u64 n;
	} cases[] = {
		{ 30, 5, -1, 7 },	/* rising: +20/8 + 5/16, then 2.5 - 1/16 */
		{ 10, 3, -9, 40 },	/* falling to 0 on the capacity term */
		{ 200, 0, 0, 1000 },	/* rising to x_max */
		{ 4, -2, -3, 3 },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct aqm_pi_params p;
		struct aqm_pi_vars a, b;
		u64 k;

		rem_setup(&p, GAIN(1, 3), 0, GAIN(1, 4), 10);
		aqm_pi_vars_init(&a, &p, PKT(5), 0);
		aqm_pi_vars_init(&b, &p, PKT(5), 0);
		aqm_pi_sample_in(&p, &a, cases[i].q, cases[i].n,
				 cases[i].in_first, cases[i].in_rest);
		aqm_pi_sample_in(&p, &b, cases[i].q, 1, cases[i].in_first, 0);
		for (k = 1; k < cases[i].n; k++)
			aqm_pi_sample_in(&p, &b, cases[i].q, 1,
					 cases[i].in_rest, 0);
		KUNIT_EXPECT_EQ_MSG(test, a.x, b.x, "case %d", i);
		KUNIT_EXPECT_EQ(test, a.samples, b.samples);
	}
}

/*
 * The AQM/ECN paper: REM "is similar to PI because the rate mismatch can
 * be detected by comparing the instantaneous queue length with its
 * previous sampled value". With x - c = b(k) - b(k-1) as the input, eq. 2
 * is the PI law with a = gamma (1 + alpha), b = gamma: sch_rem without a
 * rate runs the latter. Both forms, fed the same queue, stay equal.
 */
static void aqm_rem_queue_form_is_pi(struct kunit *test)
{
	struct aqm_pi_params rate_form, pi_form;
	struct aqm_pi_vars a, b;
	u32 q, qold = 0;
	int i;

	/* gamma = 1/16, alpha = 1/2 */
	rem_setup(&rate_form, GAIN(1, 5), 0, GAIN(1, 4), 40);
	rem_setup(&pi_form, GAIN(3, 5), GAIN(1, 4), 0, 40);
	aqm_pi_vars_init(&a, &rate_form, PKT(300), 0);
	aqm_pi_vars_init(&b, &pi_form, PKT(300), 0);
	for (i = 0; i < 500; i++) {
		q = get_random_u32_below(120);
		aqm_pi_sample_in(&rate_form, &a, q, 1, (s64)q - qold, 0);
		aqm_pi_sample(&pi_form, &b, q, 1);
		qold = q;
		KUNIT_ASSERT_EQ_MSG(test, a.x, b.x, "update %d", i);
	}
}

static struct kunit_case aqm_rem_cases[] = {
	KUNIT_CASE(aqm_rem_log2_known),
	KUNIT_CASE(aqm_rem_log2_rejects),
	KUNIT_CASE(aqm_rem_prob_phi2),
	KUNIT_CASE(aqm_rem_prob_rem_phi),
	KUNIT_CASE(aqm_rem_price_known_answer),
	KUNIT_CASE(aqm_rem_price_closed_form),
	KUNIT_CASE(aqm_rem_queue_form_is_pi),
	{}
};

static struct kunit_suite aqm_rem_suite = {
	.name = "aqm_rem",
	.test_cases = aqm_rem_cases,
};

kunit_test_suite(aqm_rem_suite);

MODULE_DESCRIPTION("KUnit tests for REM's price and probability (linux-aqm)");
MODULE_LICENSE("GPL");
