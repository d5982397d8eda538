// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites for the shared PI controller (include/net/aqm_pi.h) and the
 * time target's relative law on its state (include/net/aqm_rel.h).
 *
 * Known answers are computed by hand from
 *   x(k) = x(k-1) + g_new * (q(k) - qref) - g_old * (q(k-1) - qref)
 * with gains that are exact binary fractions, so the fixed-point result must
 * match to the last bit.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <net/aqm_pi.h>
#include <net/aqm_rel.h>

#define PKT(x)		((s64)(x) << AQM_PI_SHIFT)
/* n / 2^s packets in x units */
#define FRAC(n, s)	((s64)(n) << (AQM_PI_SHIFT - (s)))
#define GAIN(n, s)	((u64)(n) << (AQM_PI_GAIN_SHIFT - (s)))
#define T_NS		6250000ULL	/* 160 Hz */
#define MS		1000000ULL
/* the relative law's cap in its tests: 2^20 packets, dcn's */
#define REL_CAP		((s64)1 << (20 + AQM_PI_SHIFT))

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
 * DCN section 3.2 / AFD: the fair share falls while the queue is above
 * qref. sch_dcn passes its gains a < b as g_old = a and g_new = b; the DCN
 * paper prints a on the newest sample and b on the previous one, whose
 * proportional part has the other sign (include/net/aqm_pi.h).
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

	/* 64-bit terms keep tiny per-byte gains: 1.2e-8 * 2^48 = 3377699.7 */
	KUNIT_EXPECT_EQ(test, aqm_pi_gain_from_ratio(12, 1000000000, &g), 0);
	KUNIT_EXPECT_EQ(test, g, 3377699ULL);
	KUNIT_EXPECT_EQ(test, aqm_pi_gain_from_ratio(1852731907ULL,
						     100000000000000ULL, &g), 0);
	KUNIT_EXPECT_EQ(test, g, 5214976703ULL);
	/* a gain dumped as g / 2^48 converts back to itself */
	KUNIT_EXPECT_EQ(test, aqm_pi_gain_from_ratio(5214976703ULL,
						     BIT_ULL(AQM_PI_GAIN_SHIFT), &g), 0);
	KUNIT_EXPECT_EQ(test, g, 5214976703ULL);

	g = 42;
	KUNIT_EXPECT_EQ(test, aqm_pi_gain_from_ratio(1, 0, &g), -EINVAL);
	KUNIT_EXPECT_EQ(test, aqm_pi_gain_from_ratio(32768, 1, &g), -ERANGE);
	KUNIT_EXPECT_EQ(test, aqm_pi_gain_from_ratio(U32_MAX, 2, &g), -ERANGE);
	KUNIT_EXPECT_EQ(test, aqm_pi_gain_from_ratio(U64_MAX, U64_MAX / 32768, &g),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, g, 42ULL);
}

/* gain as a real number in 1e-8 units (1.8527e-5 -> 1852) */
static u64 gain_e8(u64 g)
{
	return mul_u64_u64_shr(g, 100000000ULL, AQM_PI_GAIN_SHIFT);
}

/*
 * Hollot et al.'s example: C = 3750 pkt/s, N = 60, R = 246 ms. The rule
 * gives a = 1.8527e-5, b = 1.8467e-5 (formula evaluated in doubles); the
 * paper prints 1.822e-5 and 1.816e-5 at 160 Hz: within 2%.
 */
static void aqm_pi_design_hollot(struct kunit *test)
{
	struct aqm_pi_design d = {
		.rate = 3750, .rtt_us = 246000, .flows = 60,
	};

	KUNIT_ASSERT_EQ(test, aqm_pi_design(&d), 0);
	/* T = R/40 = 6.15 ms: 162.6 Hz */
	KUNIT_EXPECT_EQ(test, d.tupdate, 6150000ULL);
	KUNIT_EXPECT_EQ(test, NSEC_PER_SEC / d.tupdate, 162ULL);
	/* a, b in 1e-8 units: 1852.73 and 1846.72 */
	KUNIT_EXPECT_GE(test, gain_e8(d.g_new), 1852ULL);
	KUNIT_EXPECT_LE(test, gain_e8(d.g_new), 1853ULL);
	KUNIT_EXPECT_GE(test, gain_e8(d.g_old), 1846ULL);
	KUNIT_EXPECT_LE(test, gain_e8(d.g_old), 1847ULL);
	/* within 2% of the paper's a = 1.822e-5 and b = 1.816e-5 */
	KUNIT_EXPECT_LE(test, gain_e8(d.g_new) * 100, 1822ULL * 102);
	KUNIT_EXPECT_GE(test, gain_e8(d.g_new) * 100, 1822ULL * 98);
	KUNIT_EXPECT_LE(test, gain_e8(d.g_old) * 100, 1816ULL * 102);
	KUNIT_EXPECT_GE(test, gain_e8(d.g_old) * 100, 1816ULL * 98);
	/* integral gain a - b = K T = 6.0e-8 as in the paper (1e-9 units) */
	KUNIT_EXPECT_EQ(test,
			mul_u64_u64_shr(d.g_new - d.g_old, 10000000000ULL,
					AQM_PI_GAIN_SHIFT) / 10, 60ULL);

	/* at 170 Hz a and b move apart, their mean stays */
	d.tupdate = NSEC_PER_SEC / 170;
	KUNIT_ASSERT_EQ(test, aqm_pi_design(&d), 0);
	KUNIT_EXPECT_GT(test, d.g_new, d.g_old);
	KUNIT_EXPECT_EQ(test, (gain_e8(d.g_new) + gain_e8(d.g_old)) / 2, 1849ULL);
}

/* More flows or a longer RTT need a gentler controller; nonsense is refused. */
static void aqm_pi_design_limits(struct kunit *test)
{
	struct aqm_pi_design base = {
		.rate = 833, .rtt_us = 100000, .flows = 4,
	};
	struct aqm_pi_design d = base;
	u64 g;

	KUNIT_ASSERT_EQ(test, aqm_pi_design(&d), 0);
	g = d.g_new;
	d = base;
	d.rtt_us = 200000;
	KUNIT_ASSERT_EQ(test, aqm_pi_design(&d), 0);
	KUNIT_EXPECT_LT(test, d.g_new, g);

	d = base;
	d.rate = 0;
	KUNIT_EXPECT_EQ(test, aqm_pi_design(&d), -ERANGE);
	d = base;
	d.rtt_us = 999;
	KUNIT_EXPECT_EQ(test, aqm_pi_design(&d), -ERANGE);
	d = base;
	d.flows = 0;
	KUNIT_EXPECT_EQ(test, aqm_pi_design(&d), -ERANGE);
	d = base;
	d.flows = 65536;
	KUNIT_EXPECT_EQ(test, aqm_pi_design(&d), -ERANGE);
	/* 10 flows sharing 10 pkt/s over 1 ms: u = 2000 */
	d = (struct aqm_pi_design){ .rate = 10, .rtt_us = 1000, .flows = 10 };
	KUNIT_EXPECT_EQ(test, aqm_pi_design(&d), -ERANGE);
	/* u = 0.096: b > 0 needs T < 2R/u = 2.08 s; 3 s makes b negative */
	d = base;
	d.tupdate = 3ULL * NSEC_PER_SEC;
	KUNIT_EXPECT_EQ(test, aqm_pi_design(&d), -ERANGE);
	d.tupdate = 2ULL * NSEC_PER_SEC;
	KUNIT_EXPECT_EQ(test, aqm_pi_design(&d), 0);
	/* 1 Gbit/s of 1500-byte packets, 200 ms, 100 flows: a - b = 2.6e-12 */
	d = (struct aqm_pi_design){
		.rate = 83333, .rtt_us = 200000, .flows = 100,
	};
	KUNIT_EXPECT_EQ(test, aqm_pi_design(&d), 0);
	KUNIT_EXPECT_GT(test, d.g_new - d.g_old, 500ULL);
	/* the largest inputs leave no integral gain at 2^-48: refused */
	d = (struct aqm_pi_design){
		.rate = 1 << 28, .rtt_us = 10000000, .flows = 65535,
	};
	KUNIT_EXPECT_EQ(test, aqm_pi_design(&d), -ERANGE);
}

/* AQM/ECN paper eq. 3: byte-mode probability scales with packet size. */
static void aqm_pi_bytemode_prob(struct kunit *test)
{
	u32 recip = (u32)div_u64(BIT_ULL(32), 1000);	/* mean 1000 bytes */
	s64 p = AQM_PI_ONE / 10;

	s64 tol = p >> 20;	/* recip is rounded down: 1e-6 relative */

	/* a mean-sized packet keeps p; a 40-byte ACK gets 4% of it */
	KUNIT_EXPECT_LE(test, abs(aqm_prob_scale_len(p, 1000, recip) - p), tol);
	KUNIT_EXPECT_LE(test, abs(aqm_prob_scale_len(p, 40, recip) - p / 25), tol);
	/* 1500 bytes: 1.5 p; a 64 KiB GSO packet saturates at 1.0 */
	KUNIT_EXPECT_LE(test, abs(aqm_prob_scale_len(p, 1500, recip) - p * 3 / 2), tol);
	KUNIT_EXPECT_EQ(test, aqm_prob_scale_len(p, 65536, recip), AQM_PI_ONE);
	KUNIT_EXPECT_EQ(test, aqm_prob_scale_len(0, 1500, recip), 0LL);
}

static void aqm_pi_prob_hit(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, aqm_prob_hit(0, 0));
	KUNIT_EXPECT_FALSE(test, aqm_prob_hit(-5, 0));
	KUNIT_EXPECT_TRUE(test, aqm_prob_hit(AQM_PI_ONE, U32_MAX));
	KUNIT_EXPECT_TRUE(test, aqm_prob_hit(AQM_PI_ONE / 4, 0x3fffffff));
	KUNIT_EXPECT_FALSE(test, aqm_prob_hit(AQM_PI_ONE / 4, 0x40000000));
}

static struct kunit_case aqm_pi_cases[] = {
	KUNIT_CASE(aqm_pi_known_answer),
	KUNIT_CASE(aqm_pi_falling_sign),
	KUNIT_CASE(aqm_pi_clamp),
	KUNIT_CASE(aqm_pi_idle_catch_up),
	KUNIT_CASE(aqm_pi_no_overflow),
	KUNIT_CASE(aqm_pi_gain_ratio),
	KUNIT_CASE(aqm_pi_design_hollot),
	KUNIT_CASE(aqm_pi_design_limits),
	KUNIT_CASE(aqm_pi_bytemode_prob),
	KUNIT_CASE(aqm_pi_prob_hit),
	{}
};

static struct kunit_suite aqm_pi_suite = {
	.name = "aqm_pi",
	.test_cases = aqm_pi_cases,
};

/*
 * The time target's relative law (include/net/aqm_rel.h), which dcn and afd
 * run: its own suite, beside the controller whose variables it shares.
 */
/* The relative law's gains from the target: a = 4.2 T_q, b - a = 9 T_q T. */
static void aqm_rel_gains_test(struct kunit *test)
{
	struct aqm_rel g;

	aqm_rel_gains(&g, 10 * MS, 10 * MS);
	/* 0.042 and 0.0009 of 2^32, rounded down */
	KUNIT_EXPECT_EQ(test, g.a, 180388626ULL);
	KUNIT_EXPECT_EQ(test, g.b - g.a, 3865470ULL);
	/* twice the target: a twice, b - a twice */
	aqm_rel_gains(&g, 20 * MS, 10 * MS);
	KUNIT_EXPECT_EQ(test, g.a, 360777252ULL);
	KUNIT_EXPECT_EQ(test, g.b - g.a, 7730941ULL);
}

static void rel_vars(struct aqm_pi_vars *v, s64 x, u32 qold)
{
	*v = (struct aqm_pi_vars) { .x = x, .qold = qold };
}

/*
 * The relative law: pref(k) = pref(k-1) (1 - b r(k) + a r(k-1)). At the
 * target nothing moves; a queue of twice the target takes b of pref; the
 * same queues move a small and a large pref by the same fraction.
 */
static void aqm_rel_law(struct kunit *test)
{
	struct aqm_pi_vars v, w;
	struct aqm_rel g;

	aqm_rel_gains(&g, 10 * MS, 10 * MS);
	rel_vars(&v, PKT(40), 8);
	aqm_rel_sample(&g, &v, REL_CAP, 8, 8, 1);
	KUNIT_EXPECT_EQ(test, v.x, PKT(40));
	KUNIT_EXPECT_EQ(test, v.samples, 1ULL);
	aqm_rel_sample(&g, &v, REL_CAP, 16, 8, 1);
	/* r = 1: pref / (1 + b), to the rounding of the Q32 factor */
	KUNIT_EXPECT_LE(test, abs(v.x - (s64)mul_u64_u64_div_u64(PKT(40), AQM_PI_ONE,
								 AQM_PI_ONE + g.b)), 64LL);
	KUNIT_EXPECT_EQ(test, v.qold, 16U);

	/*
	 * A burst that comes and goes (8, 100, 8 packets for a target of 8)
	 * leaves pref where it was but for the integral part (b - a) r =
	 * 0.0104: the step down and the step up cancel. With 1 - d for a
	 * factor it lost a quarter (x 0.51, then x 1.48).
	 */
	rel_vars(&v, PKT(40), 8);
	aqm_rel_sample(&g, &v, REL_CAP, 100, 8, 1);
	KUNIT_EXPECT_LT(test, v.x, PKT(40) * 7 / 10);
	aqm_rel_sample(&g, &v, REL_CAP, 8, 8, 1);
	KUNIT_EXPECT_GT(test, v.x, PKT(40) * 98 / 100);
	KUNIT_EXPECT_LT(test, v.x, PKT(40) * 995 / 1000);

	/* scale free: 10 and 10000 packets follow the same fractions */
	rel_vars(&v, PKT(10), 0);
	rel_vars(&w, PKT(10000), 0);
	aqm_rel_sample(&g, &v, REL_CAP, 30, 8, 1);
	aqm_rel_sample(&g, &w, REL_CAP, 30, 8, 1);
	aqm_rel_sample(&g, &v, REL_CAP, 3, 8, 5);
	aqm_rel_sample(&g, &w, REL_CAP, 3, 8, 5);
	KUNIT_EXPECT_LT(test, v.x, PKT(10));
	/* equal to the rounding of a few products (2^-32 packet each) */
	KUNIT_EXPECT_LE(test, abs(div64_s64(w.x, 1000) - v.x), 16LL);
}

/*
 * Samples missed at one queue length, in closed form, equal the samples
 * taken one by one (to 2^-20 of pref); a burst moves pref by a factor of
 * at most 1.5 per sample; pref stays above AQM_REL_XMIN; with HB empty (the cap at
 * pref) an idle link does not raise it.
 */
static void aqm_rel_catch_up(struct kunit *test)
{
	struct aqm_pi_vars v, w;
	struct aqm_rel g;
	s64 diff;
	int i;

	aqm_rel_gains(&g, 10 * MS, 10 * MS);
	rel_vars(&v, PKT(25), 12);
	rel_vars(&w, PKT(25), 12);
	aqm_rel_sample(&g, &v, REL_CAP, 0, 8, 301);
	for (i = 0; i < 301; i++)
		aqm_rel_sample(&g, &w, REL_CAP, 0, 8, 1);
	KUNIT_EXPECT_EQ(test, v.samples, 301ULL);
	diff = v.x - w.x;
	KUNIT_EXPECT_LE(test, abs(diff), w.x >> 20);
	/* (1 + 0.0009)^300 (1.31) after a first step of 1 + b + a/2 */
	KUNIT_EXPECT_GT(test, v.x, PKT(25) * 13 / 10);
	KUNIT_EXPECT_LT(test, v.x, PKT(25) * 14 / 10);

	/* the largest queue divides pref by 1.5, not to 0 */
	rel_vars(&v, PKT(150), 8);
	aqm_rel_sample(&g, &v, REL_CAP, 1000, 8, 1);
	KUNIT_EXPECT_LE(test, abs(v.x - PKT(100)), 256LL);
	/* from 0 (the paper's law may leave it there) it restarts at XMIN */
	rel_vars(&v, 0, 8);
	aqm_rel_sample(&g, &v, REL_CAP, 1000, 8, 1000);
	KUNIT_EXPECT_EQ(test, v.x, AQM_REL_XMIN);
	/* anti-windup: HB empty, idle for 10 s */
	rel_vars(&v, PKT(30), 0);
	aqm_rel_sample(&g, &v, PKT(30), 0, 8, 1000);
	KUNIT_EXPECT_EQ(test, v.x, PKT(30));
}

static struct kunit_case aqm_rel_cases[] = {
	KUNIT_CASE(aqm_rel_gains_test),
	KUNIT_CASE(aqm_rel_law),
	KUNIT_CASE(aqm_rel_catch_up),
	{}
};

static struct kunit_suite aqm_rel_suite = {
	.name = "aqm_rel",
	.test_cases = aqm_rel_cases,
};

kunit_test_suites(&aqm_pi_suite, &aqm_rel_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the linux-aqm PI controller and the relative law");
