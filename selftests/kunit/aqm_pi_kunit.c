// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the shared PI controller (include/net/aqm_pi.h).
 *
 * Known answers are computed by hand from
 *   x(k) = x(k-1) + g_new * (q(k) - qref) - g_old * (q(k-1) - qref)
 * with gains that are exact binary fractions, so the fixed-point result must
 * match to the last bit.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <net/aqm_pi.h>

#define PKT(x)		((s64)(x) << AQM_PI_SHIFT)
/* n / 2^s packets in x units */
#define FRAC(n, s)	((s64)(n) << (AQM_PI_SHIFT - (s)))
#define GAIN(n, s)	((u64)(n) << (AQM_PI_GAIN_SHIFT - (s)))
#define T_NS		6250000ULL	/* 160 Hz */

static void pi_setup(struct aqm_pi_params *p, u64 g_new, u64 g_old,
		     u32 qref, s64 x_max, bool falling)
{
	*p = (struct aqm_pi_params) {
		.g_new = g_new,
		.g_old = g_old,
		.tupdate = T_NS,
		.x_min = 0,
		.x_max = x_max,
		.qref = qref,
		.falling = falling,
	};
}

/* g_new = 1/8, g_old = 1/16, qref = 10: a sequence worked out by hand. */
static void aqm_pi_known_answer(struct kunit *test)
{
	static const struct {
		u32 q;
		s64 x;	/* expected x after the sample, in 1/8 packets */
	} seq[] = {
		{ 20, 15 },	/* e=10, e_old=-10: +10/8 + 10/16 = 1.875 */
		{ 20, 20 },	/* e=10, e_old=10:  +10/8 - 10/16 -> 2.5 */
		{ 14, 19 },	/* e=4,  e_old=10:  +4/8 - 10/16  -> 2.375 */
		{ 10, 17 },	/* e=0,  e_old=4:   -4/16         -> 2.125 */
		{ 2, 9 },	/* e=-8, e_old=0:   -8/8          -> 1.125 */
		{ 2, 5 },	/* e=-8, e_old=-8:  -1 + 0.5      -> 0.625 */
	};
	struct aqm_pi_params p;
	struct aqm_pi_vars v;
	int i;

	pi_setup(&p, GAIN(1, 3), GAIN(1, 4), 10, PKT(100), false);
	aqm_pi_vars_init(&v, &p, 0, 0);
	KUNIT_EXPECT_EQ(test, v.next, T_NS);

	for (i = 0; i < ARRAY_SIZE(seq); i++) {
		aqm_pi_sample(&p, &v, seq[i].q, 1);
		KUNIT_EXPECT_EQ_MSG(test, v.x, FRAC(seq[i].x, 3),
				    "sample %d", i);
		KUNIT_EXPECT_EQ(test, v.qold, seq[i].q);
	}
	KUNIT_EXPECT_EQ(test, v.samples, ARRAY_SIZE(seq));
}

/*
 * DCN section 3.2 / AFD: pref falls while the queue is above qref, with the
 * papers' a (old sample) < b (new sample) passed as g_old < g_new.
 */
static void aqm_pi_falling_sign(struct kunit *test)
{
	struct aqm_pi_params p;
	struct aqm_pi_vars v;
	s64 prev;
	int i;

	pi_setup(&p, GAIN(1, 3), GAIN(1, 4), 24, PKT(1000), true);
	aqm_pi_vars_init(&v, &p, PKT(50), 0);

	/* queue sits at qref: from q(-1) = 0 the first sample moves x down
	 * by g_old * qref (the queue grew), then x stays put
	 */
	aqm_pi_sample(&p, &v, 24, 1);
	KUNIT_EXPECT_EQ(test, v.x, PKT(50) - FRAC(24, 4));
	prev = v.x;
	aqm_pi_sample(&p, &v, 24, 1);
	KUNIT_EXPECT_EQ(test, v.x, prev);

	/* held above qref: falls every sample by (b - a) * e = 16/16 */
	for (i = 0; i < 5; i++) {
		prev = v.x;
		aqm_pi_sample(&p, &v, 40, 1);
		KUNIT_EXPECT_LT(test, v.x, prev);
	}
	KUNIT_EXPECT_EQ(test, prev - v.x, PKT(1));

	/* held below qref: rises */
	aqm_pi_sample(&p, &v, 8, 1);
	prev = v.x;
	aqm_pi_sample(&p, &v, 8, 1);
	KUNIT_EXPECT_EQ(test, v.x - prev, PKT(1));

	/* the rising form with the same gains moves the other way */
	p.falling = false;
	prev = v.x;
	aqm_pi_sample(&p, &v, 40, 1);
	KUNIT_EXPECT_GT(test, v.x, prev);
}

/* A drop probability saturates at 1.0 and at 0, and comes back. */
static void aqm_pi_clamp(struct kunit *test)
{
	struct aqm_pi_params p;
	struct aqm_pi_vars v;
	int i;

	pi_setup(&p, GAIN(1, 2), GAIN(1, 3), 10, AQM_PI_ONE, false);
	aqm_pi_vars_init(&v, &p, 0, 0);
	for (i = 0; i < 20; i++)
		aqm_pi_sample(&p, &v, 100, 1);
	KUNIT_EXPECT_EQ(test, v.x, AQM_PI_ONE);

	/* one sample at qref from q(k-1)=100: -1/8 * 90 -> 1 - 11.25 -> 0 */
	aqm_pi_sample(&p, &v, 10, 1);
	KUNIT_EXPECT_EQ(test, v.x, 0LL);
	aqm_pi_sample(&p, &v, 0, 1);
	KUNIT_EXPECT_EQ(test, v.x, 0LL);

	/* x0 outside the range is clamped at init */
	aqm_pi_vars_init(&v, &p, -PKT(3), 0);
	KUNIT_EXPECT_EQ(test, v.x, 0LL);
	aqm_pi_vars_init(&v, &p, PKT(3), 0);
	KUNIT_EXPECT_EQ(test, v.x, AQM_PI_ONE);
}

/*
 * Idle link: samples missed while no packet came are applied from elapsed
 * time, and equal taking them one by one.
 */
static void aqm_pi_idle_catch_up(struct kunit *test)
{
	struct aqm_pi_params p;
	struct aqm_pi_vars lazy, step;
	int i;

	pi_setup(&p, GAIN(3, 10), GAIN(1, 10), 24, PKT(500), true);
	aqm_pi_vars_init(&lazy, &p, PKT(10), 0);
	aqm_pi_vars_init(&step, &p, PKT(10), 0);
	aqm_pi_sample(&p, &lazy, 60, 1);
	aqm_pi_sample(&p, &step, 60, 1);

	/* not due yet: nothing moves */
	KUNIT_EXPECT_FALSE(test, aqm_pi_advance(&p, &lazy, 0, T_NS - 1));
	KUNIT_EXPECT_EQ(test, lazy.samples, 1ULL);

	/* 1000 samples due at once, the queue was empty all along */
	KUNIT_EXPECT_TRUE(test, aqm_pi_advance(&p, &lazy, 0, 1000 * T_NS + 7));
	for (i = 0; i < 1000; i++)
		aqm_pi_sample(&p, &step, 0, 1);
	KUNIT_EXPECT_EQ(test, lazy.x, step.x);
	KUNIT_EXPECT_EQ(test, lazy.samples, 1001ULL);
	KUNIT_EXPECT_EQ(test, lazy.next, 1001 * T_NS);
	KUNIT_EXPECT_GT(test, lazy.x, PKT(10));

	/* a day of silence saturates at x_max without overflow */
	aqm_pi_advance(&p, &lazy, 0, 86400ULL * NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, lazy.x, PKT(500));
	KUNIT_EXPECT_GT(test, lazy.next, 86400ULL * NSEC_PER_SEC);
	KUNIT_EXPECT_LE(test, lazy.next, 86400ULL * NSEC_PER_SEC + T_NS);
}

/* Extreme queues (2^32 - 1 bytes) and gains saturate instead of wrapping. */
static void aqm_pi_no_overflow(struct kunit *test)
{
	struct aqm_pi_params p;
	struct aqm_pi_vars v;

	pi_setup(&p, AQM_PI_GAIN_MAX - 1, AQM_PI_GAIN_MAX - 2, 0,
		 AQM_PI_SAT, false);
	p.x_min = -AQM_PI_SAT;
	aqm_pi_vars_init(&v, &p, 0, 0);
	aqm_pi_sample(&p, &v, U32_MAX, 1);
	KUNIT_EXPECT_EQ(test, v.x, AQM_PI_SAT);
	aqm_pi_sample(&p, &v, U32_MAX, 1ULL << 40);
	KUNIT_EXPECT_EQ(test, v.x, AQM_PI_SAT);

	/* (g_new - g_old) * e = 65535 units a sample: 2^50 samples cross
	 * the whole range down to x_min
	 */
	p.falling = true;
	aqm_pi_sample(&p, &v, U32_MAX, 1ULL << 50);
	KUNIT_EXPECT_EQ(test, v.x, -AQM_PI_SAT);

	/* 2^20 packets over a qref of 24 with Hollot's gains stays exact */
	KUNIT_ASSERT_EQ(test, aqm_pi_gain_from_ratio(1822, 100000000, &p.g_new), 0);
	KUNIT_ASSERT_EQ(test, aqm_pi_gain_from_ratio(1816, 100000000, &p.g_old), 0);
	p.falling = false;
	p.qref = 24;
	p.x_min = 0;
	p.x_max = AQM_PI_ONE;
	aqm_pi_vars_init(&v, &p, 0, 0);
	aqm_pi_sample(&p, &v, 1 << 20, 1);
	KUNIT_EXPECT_EQ(test, v.x, AQM_PI_ONE);
}

static void aqm_pi_gain_ratio(struct kunit *test)
{
	u64 g = 0;

	/* 1.822e-5 * 2^48 = 5128474075.7 */
	KUNIT_EXPECT_EQ(test, aqm_pi_gain_from_ratio(1822, 100000000, &g), 0);
	KUNIT_EXPECT_EQ(test, g, 5128474075ULL);
	KUNIT_EXPECT_EQ(test, aqm_pi_gain_from_ratio(1, 8, &g), 0);
	KUNIT_EXPECT_EQ(test, g, GAIN(1, 3));
	KUNIT_EXPECT_EQ(test, aqm_pi_gain_from_ratio(0, 1, &g), 0);
	KUNIT_EXPECT_EQ(test, g, 0ULL);
	/* largest accepted: just under 2^15 */
	KUNIT_EXPECT_EQ(test, aqm_pi_gain_from_ratio(32767, 1, &g), 0);
	KUNIT_EXPECT_EQ(test, g, GAIN(32767, 0));

	g = 42;
	KUNIT_EXPECT_EQ(test, aqm_pi_gain_from_ratio(1, 0, &g), -EINVAL);
	KUNIT_EXPECT_EQ(test, aqm_pi_gain_from_ratio(32768, 1, &g), -ERANGE);
	KUNIT_EXPECT_EQ(test, aqm_pi_gain_from_ratio(U32_MAX, 2, &g), -ERANGE);
	KUNIT_EXPECT_EQ(test, g, 42ULL);
}

static struct kunit_case aqm_pi_cases[] = {
	KUNIT_CASE(aqm_pi_known_answer),
	KUNIT_CASE(aqm_pi_falling_sign),
	KUNIT_CASE(aqm_pi_clamp),
	KUNIT_CASE(aqm_pi_idle_catch_up),
	KUNIT_CASE(aqm_pi_no_overflow),
	KUNIT_CASE(aqm_pi_gain_ratio),
	{}
};

static struct kunit_suite aqm_pi_suite = {
	.name = "aqm_pi",
	.test_cases = aqm_pi_cases,
};

kunit_test_suite(aqm_pi_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the linux-aqm PI controller");
