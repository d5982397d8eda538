// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the BLUE update rules (include/net/aqm_blue.h), Fig. 3 of
 * Feng et al., "The BLUE active queue management algorithms":
 *
 *   loss event (overflow, or Q_len > L): p_m += delta1 unless frozen
 *   idle event (queue empty, link idle): p_m -= delta2 unless frozen
 *
 * with p_m in [0, 1] and at most one change per freeze_time. Known answers
 * use deltas that are exact binary fractions (1/4, 1/16), so p_m must match
 * to the last bit, and the paper's own values (Table II, the testbed's
 * delta1 = 0.01, delta2 = 0.001, freeze_time = 50 ms).
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <net/aqm_blue.h>

/* n / 16 in p_m units */
#define SIXTEENTHS(n)	((s64)(n) << (AQM_BLUE_SHIFT - 4))
#define MS(x)		((u64)(x) * NSEC_PER_MSEC)
#define T0		MS(1000)	/* any start time */

static void blue_setup(struct aqm_blue_params *p, u64 delta1, u64 delta2,
		       u32 freeze_us, bool randomize)
{
	*p = (struct aqm_blue_params) {
		.delta1 = delta1,
		.delta2 = delta2,
		.freeze_us = freeze_us,
		.randomize = randomize,
	};
}

/* Rationals to fixed point: rounded up, exact for 64-bit terms. */
static void aqm_blue_delta_ratio(struct kunit *test)
{
	u64 d = 0;

	/* the testbed: 0.01 * 2^32 = 42949672.96, 0.001 * 2^32 = 4294967.296 */
	KUNIT_EXPECT_EQ(test, aqm_blue_delta_from_ratio(1, 100, &d), 0);
	KUNIT_EXPECT_EQ(test, d, 42949673ULL);
	KUNIT_EXPECT_EQ(test, aqm_blue_delta_from_ratio(1, 1000, &d), 0);
	KUNIT_EXPECT_EQ(test, d, 4294968ULL);
	/* Table II: 0.0025 and 0.00025 as tc sends them, 0.02 and 0.002 */
	KUNIT_EXPECT_EQ(test, aqm_blue_delta_from_ratio(25, 10000, &d), 0);
	KUNIT_EXPECT_EQ(test, d, 10737419ULL);
	KUNIT_EXPECT_EQ(test, aqm_blue_delta_from_ratio(25, 100000, &d), 0);
	KUNIT_EXPECT_EQ(test, d, 1073742ULL);
	KUNIT_EXPECT_EQ(test, aqm_blue_delta_from_ratio(2, 100, &d), 0);
	KUNIT_EXPECT_EQ(test, d, 85899346ULL);
	KUNIT_EXPECT_EQ(test, aqm_blue_delta_from_ratio(2, 1000, &d), 0);
	KUNIT_EXPECT_EQ(test, d, 8589935ULL);
	/* exact binary fractions stay exact */
	KUNIT_EXPECT_EQ(test, aqm_blue_delta_from_ratio(1, 4, &d), 0);
	KUNIT_EXPECT_EQ(test, d, 1ULL << 30);
	KUNIT_EXPECT_EQ(test, aqm_blue_delta_from_ratio(3, 3, &d), 0);
	KUNIT_EXPECT_EQ(test, d, (u64)AQM_BLUE_ONE);
	/* 64-bit terms: long division, no overflow */
	KUNIT_EXPECT_EQ(test, aqm_blue_delta_from_ratio(U64_MAX - 1, U64_MAX, &d), 0);
	KUNIT_EXPECT_EQ(test, d, (u64)AQM_BLUE_ONE);
	/* 2^62 / (2^64 - 1) is a hair above 1/4: rounded up */
	KUNIT_EXPECT_EQ(test, aqm_blue_delta_from_ratio(1ULL << 62, U64_MAX, &d), 0);
	KUNIT_EXPECT_EQ(test, d, (1ULL << 30) + 1);
	KUNIT_EXPECT_EQ(test, aqm_blue_delta_from_ratio(1ULL << 61, 1ULL << 63, &d), 0);
	KUNIT_EXPECT_EQ(test, d, 1ULL << 30);
	KUNIT_EXPECT_EQ(test, aqm_blue_delta_from_ratio(1, U64_MAX, &d), 0);
	KUNIT_EXPECT_EQ(test, d, 1ULL);

	/* outside (0, 1]: refused, output untouched */
	d = 42;
	KUNIT_EXPECT_EQ(test, aqm_blue_delta_from_ratio(0, 1, &d), -EINVAL);
	KUNIT_EXPECT_EQ(test, aqm_blue_delta_from_ratio(2, 1, &d), -EINVAL);
	KUNIT_EXPECT_EQ(test, aqm_blue_delta_from_ratio(1, 0, &d), -EINVAL);
	KUNIT_EXPECT_EQ(test, aqm_blue_delta_from_ratio(U64_MAX, U64_MAX - 1, &d),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, d, 42ULL);
}

/*
 * delta1 = 1/4, delta2 = 1/16, freeze_time = 10 ms: a sequence of events
 * worked out by hand from Fig. 3.
 */
static void aqm_blue_known_answer(struct kunit *test)
{
	static const struct {
		u32 ms;		/* event time after T0 */
		bool loss;	/* loss event, else idle event */
		bool moved;	/* p_m changed */
		s64 p;		/* p_m after the event, in 1/16 */
	} seq[] = {
		{ 0, true, true, 4 },		/* free to change at init */
		{ 5, true, false, 4 },		/* frozen until 10 ms */
		{ 10, true, true, 8 },
		{ 20, false, true, 7 },
		{ 25, false, false, 7 },	/* frozen until 30 ms */
		{ 29, true, false, 7 },
		{ 30, true, true, 11 },
		{ 40, true, true, 15 },
		{ 50, true, true, 16 },		/* 19/16 clamped to 1.0 */
		{ 60, true, false, 16 },	/* already 1.0 */
		{ 65, false, false, 16 },	/* the loss at 60 froze it */
		{ 70, false, true, 15 },
		{ 1000, false, true, 14 },	/* one idle event: one step */
	};
	struct aqm_blue_params p;
	struct aqm_blue_vars v;
	int i;

	blue_setup(&p, 1ULL << 30, 1ULL << 28, 10000, false);
	aqm_blue_vars_init(&v, T0);
	KUNIT_EXPECT_EQ(test, v.p_m, 0LL);

	for (i = 0; i < ARRAY_SIZE(seq); i++) {
		u64 now = T0 + MS(seq[i].ms);
		bool moved = seq[i].loss ? aqm_blue_increment(&p, &v, now) :
					   aqm_blue_decrement(&p, &v, now);

		KUNIT_EXPECT_EQ_MSG(test, moved, seq[i].moved, "event %d", i);
		KUNIT_EXPECT_EQ_MSG(test, v.p_m, SIXTEENTHS(seq[i].p),
				    "event %d", i);
	}
}

/*
 * The testbed's values: delta1 = 0.01 takes p_m from 0 to 1.0 in exactly
 * 100 loss events, delta2 = 0.001 back to 0 in exactly 1000 idle events,
 * one per freeze_time of 50 ms (5 s up, 50 s down).
 */
static void aqm_blue_testbed_values(struct kunit *test)
{
	struct aqm_blue_params p;
	struct aqm_blue_vars v;
	u64 now = T0;
	int i;

	blue_setup(&p, 0, 0, 50000, false);
	KUNIT_ASSERT_EQ(test, aqm_blue_delta_from_ratio(1, 100, &p.delta1), 0);
	KUNIT_ASSERT_EQ(test, aqm_blue_delta_from_ratio(1, 1000, &p.delta2), 0);
	aqm_blue_vars_init(&v, now);

	for (i = 0; i < 99; i++, now += MS(50))
		KUNIT_EXPECT_TRUE(test, aqm_blue_increment(&p, &v, now));
	KUNIT_EXPECT_EQ(test, v.p_m, 99LL * 42949673);
	KUNIT_EXPECT_TRUE(test, aqm_blue_increment(&p, &v, now));
	KUNIT_EXPECT_EQ(test, v.p_m, AQM_BLUE_ONE);

	for (i = 0; i < 999; i++) {
		now += MS(50);
		KUNIT_EXPECT_TRUE(test, aqm_blue_decrement(&p, &v, now));
	}
	KUNIT_EXPECT_EQ(test, v.p_m, AQM_BLUE_ONE - 999LL * 4294968);
	KUNIT_EXPECT_GT(test, v.p_m, 0LL);
	now += MS(50);
	KUNIT_EXPECT_TRUE(test, aqm_blue_decrement(&p, &v, now));
	KUNIT_EXPECT_EQ(test, v.p_m, 0LL);
}

/* A second event within freeze_time changes nothing, of either kind. */
static void aqm_blue_freeze_time(struct kunit *test)
{
	struct aqm_blue_params p;
	struct aqm_blue_vars v;
	u64 f = MS(50);

	blue_setup(&p, 1ULL << 30, 1ULL << 28, 50000, false);
	aqm_blue_vars_init(&v, T0);
	KUNIT_ASSERT_TRUE(test, aqm_blue_increment(&p, &v, T0));
	KUNIT_EXPECT_EQ(test, v.next, T0 + f);

	/* a burst of losses within the freeze interval: one step only */
	KUNIT_EXPECT_FALSE(test, aqm_blue_increment(&p, &v, T0));
	KUNIT_EXPECT_FALSE(test, aqm_blue_increment(&p, &v, T0 + 1));
	KUNIT_EXPECT_FALSE(test, aqm_blue_increment(&p, &v, T0 + f - 1));
	KUNIT_EXPECT_FALSE(test, aqm_blue_decrement(&p, &v, T0 + f - 1));
	KUNIT_EXPECT_EQ(test, aqm_blue_idle(&p, &v, T0, T0 + f - 1), 0ULL);
	KUNIT_EXPECT_EQ(test, v.p_m, SIXTEENTHS(4));
	/* a refused event does not extend the freeze */
	KUNIT_EXPECT_EQ(test, v.next, T0 + f);

	/* exactly freeze_time later: the next change */
	KUNIT_EXPECT_TRUE(test, aqm_blue_increment(&p, &v, T0 + f));
	KUNIT_EXPECT_EQ(test, v.p_m, SIXTEENTHS(8));
	KUNIT_EXPECT_EQ(test, v.next, T0 + 2 * f);
	KUNIT_EXPECT_FALSE(test, aqm_blue_decrement(&p, &v, T0 + 2 * f - 1));
	KUNIT_EXPECT_TRUE(test, aqm_blue_decrement(&p, &v, T0 + 2 * f));
	KUNIT_EXPECT_EQ(test, v.p_m, SIXTEENTHS(7));
}

/* Randomized freeze intervals lie in [F/2, 3F/2] with mean F. */
static void aqm_blue_random_freeze(struct kunit *test)
{
	struct aqm_blue_params p;
	struct aqm_blue_vars v;
	u64 f = MS(50), sum = 0, lo = U64_MAX, hi = 0, now = T0;
	int i;

	blue_setup(&p, 1, 1, 50000, true);
	/* the bounds, at microsecond granularity */
	KUNIT_EXPECT_EQ(test, aqm_blue_freeze_ns(&p, 0), f / 2);
	KUNIT_EXPECT_EQ(test, aqm_blue_freeze_ns(&p, U32_MAX), 3 * f / 2);
	KUNIT_EXPECT_EQ(test, aqm_blue_freeze_ns(&p, 1U << 31),
			f / 2 + 25000 * NSEC_PER_USEC);
	/* an odd freeze_time keeps its half exact in ns */
	p.freeze_us = 1001;
	KUNIT_EXPECT_EQ(test, aqm_blue_freeze_ns(&p, 0), 500500ULL);
	KUNIT_EXPECT_EQ(test, aqm_blue_freeze_ns(&p, U32_MAX), 1501500ULL);
	/* the largest freeze_time the qdisc accepts, 10 s */
	p.freeze_us = 10000000;
	KUNIT_EXPECT_EQ(test, aqm_blue_freeze_ns(&p, U32_MAX), 15ULL * NSEC_PER_SEC);
	/* without randomize the random number is ignored */
	p.freeze_us = 50000;
	p.randomize = false;
	KUNIT_EXPECT_EQ(test, aqm_blue_freeze_ns(&p, 0), f);
	KUNIT_EXPECT_EQ(test, aqm_blue_freeze_ns(&p, U32_MAX), f);

	/* the update rules draw with get_random_u32() */
	p.randomize = true;
	aqm_blue_vars_init(&v, now);
	for (i = 0; i < 1000; i++) {
		u64 d;

		KUNIT_ASSERT_TRUE(test, aqm_blue_increment(&p, &v, now) ||
				  v.p_m == AQM_BLUE_ONE);
		d = v.next - now;
		lo = min(lo, d);
		hi = max(hi, d);
		sum += d;
		now = v.next;
	}
	KUNIT_EXPECT_GE(test, lo, f / 2);
	KUNIT_EXPECT_LE(test, hi, 3 * f / 2);
	/* spread: 1000 uniform draws span most of [F/2, 3F/2] */
	KUNIT_EXPECT_LT(test, lo, f * 6 / 10);
	KUNIT_EXPECT_GT(test, hi, f * 14 / 10);
	/* the mean is F within 3% (standard error 0.9%) */
	KUNIT_EXPECT_GE(test, sum / 1000, f * 97 / 100);
	KUNIT_EXPECT_LE(test, sum / 1000, f * 103 / 100);
}

/*
 * Idle decay from elapsed time: the decrements a link polled all along
 * would have taken, applied at once, equal those taken step by step.
 */
static void aqm_blue_idle_decay(struct kunit *test)
{
	struct aqm_blue_params p;
	struct aqm_blue_vars lazy, step;
	u64 t, since, f = MS(10);
	int i;

	blue_setup(&p, 1ULL << 30, 1ULL << 28, 10000, false);
	aqm_blue_vars_init(&lazy, T0);
	for (i = 0; i < 4; i++)		/* p_m = 1.0 at T0 + 30 ms */
		aqm_blue_increment(&p, &lazy, T0 + i * f);
	KUNIT_ASSERT_EQ(test, lazy.p_m, AQM_BLUE_ONE);
	step = lazy;

	/* the queue empties at T0 + 33 ms, still frozen until T0 + 40 ms */
	since = T0 + MS(33);
	KUNIT_EXPECT_EQ(test, aqm_blue_idle(&p, &lazy, since, since), 0ULL);
	/* nothing at all comes until T0 + 95 ms: steps at 40, 50, ..., 90 */
	KUNIT_EXPECT_EQ(test, aqm_blue_idle(&p, &lazy, since, T0 + MS(95)), 6ULL);
	KUNIT_EXPECT_EQ(test, lazy.p_m, SIXTEENTHS(10));
	KUNIT_EXPECT_EQ(test, lazy.next, T0 + MS(100));
	/* again at the same time, or before the next step: no change */
	KUNIT_EXPECT_EQ(test, aqm_blue_idle(&p, &lazy, since, T0 + MS(95)), 0ULL);
	KUNIT_EXPECT_EQ(test, aqm_blue_idle(&p, &lazy, since, T0 + MS(99)), 0ULL);
	KUNIT_EXPECT_EQ(test, lazy.p_m, SIXTEENTHS(10));

	/* the same idle period polled every millisecond */
	for (t = since; t <= T0 + MS(99); t += MS(1))
		aqm_blue_decrement(&p, &step, t);
	KUNIT_EXPECT_EQ(test, step.p_m, lazy.p_m);
	KUNIT_EXPECT_EQ(test, step.next, lazy.next);

	/* and on to zero: 10 more steps, then it stays there */
	KUNIT_EXPECT_EQ(test, aqm_blue_idle(&p, &lazy, since, T0 + MS(1000)), 10ULL);
	KUNIT_EXPECT_EQ(test, lazy.p_m, 0LL);
	for (t = T0 + MS(100); t <= T0 + MS(1000); t += MS(1))
		aqm_blue_decrement(&p, &step, t);
	KUNIT_EXPECT_EQ(test, step.p_m, 0LL);
	KUNIT_EXPECT_EQ(test, step.next, lazy.next);

	/* a queue that empties when free to change: one step at once */
	aqm_blue_vars_init(&lazy, T0);
	aqm_blue_increment(&p, &lazy, T0);
	since = T0 + MS(500);
	KUNIT_EXPECT_EQ(test, aqm_blue_idle(&p, &lazy, since, since), 1ULL);
	KUNIT_EXPECT_EQ(test, lazy.p_m, SIXTEENTHS(3));
	KUNIT_EXPECT_EQ(test, lazy.next, since + f);
	/* the busy time before @since counts for nothing */
	KUNIT_EXPECT_EQ(test, aqm_blue_idle(&p, &lazy, since, since + MS(25)), 2ULL);
	KUNIT_EXPECT_EQ(test, lazy.p_m, SIXTEENTHS(1));
}

/* Hours of idleness: closed form, saturates at 0, no overflow. */
static void aqm_blue_idle_hours(struct kunit *test)
{
	struct aqm_blue_params p;
	struct aqm_blue_vars v;
	u64 hour = 3600ULL * NSEC_PER_SEC;

	/* the smallest delta2 (2^-32) and freeze_time (1 ms): 3.6e7 steps
	 * in 10 hours leave p_m just below 1.0
	 */
	blue_setup(&p, AQM_BLUE_ONE, 1, 1000, false);
	aqm_blue_vars_init(&v, T0);
	aqm_blue_increment(&p, &v, T0);
	KUNIT_ASSERT_EQ(test, v.p_m, AQM_BLUE_ONE);
	KUNIT_EXPECT_EQ(test, aqm_blue_idle(&p, &v, T0, T0 + 10 * hour),
			36000000ULL);
	KUNIT_EXPECT_EQ(test, v.p_m, AQM_BLUE_ONE - 36000000);
	KUNIT_EXPECT_EQ(test, v.next, T0 + 10 * hour + MS(1));

	/* 2000 hours more: 7.2e9 steps > 2^32 = 4294967296 - 3.6e7 left */
	KUNIT_EXPECT_EQ(test, aqm_blue_idle(&p, &v, T0, T0 + 2010 * hour),
			(u64)AQM_BLUE_ONE - 36000000);
	KUNIT_EXPECT_EQ(test, v.p_m, 0LL);

	/* the testbed's 0.001 per 50 ms from 1.0 after 4 hours: 0 */
	blue_setup(&p, AQM_BLUE_ONE, 4294968, 50000, false);
	aqm_blue_vars_init(&v, T0);
	aqm_blue_increment(&p, &v, T0);
	KUNIT_EXPECT_EQ(test, aqm_blue_idle(&p, &v, T0, T0 + 4 * hour), 1000ULL);
	KUNIT_EXPECT_EQ(test, v.p_m, 0LL);

	/* a clock centuries ahead: n * f and n * delta2 do not wrap */
	blue_setup(&p, AQM_BLUE_ONE, 1, 1000, true);
	aqm_blue_vars_init(&v, T0);
	aqm_blue_increment(&p, &v, T0);
	KUNIT_EXPECT_EQ(test, aqm_blue_idle(&p, &v, T0, U64_MAX / 2),
			(u64)AQM_BLUE_ONE);
	KUNIT_EXPECT_EQ(test, v.p_m, 0LL);
	KUNIT_EXPECT_GT(test, v.next, U64_MAX / 2 - MS(1));
	KUNIT_EXPECT_LE(test, v.next, U64_MAX / 2 + MS(2));
}

/* p_m stays in [0, 1.0] at both ends, with the largest deltas too. */
static void aqm_blue_clamp(struct kunit *test)
{
	struct aqm_blue_params p;
	struct aqm_blue_vars v;
	u64 now = T0;

	blue_setup(&p, AQM_BLUE_ONE, AQM_BLUE_ONE, 1000, false);
	aqm_blue_vars_init(&v, now);
	/* at 0, an idle event moves nothing but still freezes */
	KUNIT_EXPECT_FALSE(test, aqm_blue_decrement(&p, &v, now));
	KUNIT_EXPECT_EQ(test, v.p_m, 0LL);
	KUNIT_EXPECT_EQ(test, v.next, now + MS(1));
	now += MS(1);
	KUNIT_EXPECT_TRUE(test, aqm_blue_increment(&p, &v, now));
	KUNIT_EXPECT_EQ(test, v.p_m, AQM_BLUE_ONE);
	now += MS(1);
	KUNIT_EXPECT_FALSE(test, aqm_blue_increment(&p, &v, now));
	KUNIT_EXPECT_EQ(test, v.p_m, AQM_BLUE_ONE);
	now += MS(1);
	KUNIT_EXPECT_TRUE(test, aqm_blue_decrement(&p, &v, now));
	KUNIT_EXPECT_EQ(test, v.p_m, 0LL);

	/* 3/4 + 3/4 stops at 1.0, 1/4 - 3/4 at 0 */
	blue_setup(&p, 3ULL << 30, 3ULL << 30, 1000, false);
	aqm_blue_vars_init(&v, now);
	v.p_m = SIXTEENTHS(4);
	KUNIT_EXPECT_TRUE(test, aqm_blue_decrement(&p, &v, now));
	KUNIT_EXPECT_EQ(test, v.p_m, 0LL);
	now += MS(1);
	aqm_blue_increment(&p, &v, now);
	now += MS(1);
	aqm_blue_increment(&p, &v, now);
	KUNIT_EXPECT_EQ(test, v.p_m, AQM_BLUE_ONE);
	/* and the idle closed form stops at 0 with the exact step count */
	KUNIT_EXPECT_EQ(test, aqm_blue_idle(&p, &v, now, now + MS(100)), 2ULL);
	KUNIT_EXPECT_EQ(test, v.p_m, 0LL);
}

/* Loss events: overflow, and the Q_len > L variant of Fig. 3. */
static void aqm_blue_threshold(struct kunit *test)
{
	struct aqm_blue_params p;
	struct aqm_blue_vars v;
	u64 t;

	/* packets: limit 10, L 5 */
	KUNIT_EXPECT_EQ(test, aqm_blue_classify(0, 1, 10, 5), AQM_BLUE_NONE);
	KUNIT_EXPECT_EQ(test, aqm_blue_classify(5, 1, 10, 5), AQM_BLUE_NONE);
	KUNIT_EXPECT_EQ(test, aqm_blue_classify(6, 1, 10, 5), AQM_BLUE_ABOVE_L);
	KUNIT_EXPECT_EQ(test, aqm_blue_classify(9, 1, 10, 5), AQM_BLUE_ABOVE_L);
	KUNIT_EXPECT_EQ(test, aqm_blue_classify(10, 1, 10, 5), AQM_BLUE_OVERFLOW);
	/* L off: only overflow is a loss event */
	KUNIT_EXPECT_EQ(test, aqm_blue_classify(9, 1, 10, 0), AQM_BLUE_NONE);
	KUNIT_EXPECT_EQ(test, aqm_blue_classify(10, 1, 10, 0), AQM_BLUE_OVERFLOW);
	/* bytes: a packet overflows when it does not fit */
	KUNIT_EXPECT_EQ(test, aqm_blue_classify(1500, 1500, 3000, 0), AQM_BLUE_NONE);
	KUNIT_EXPECT_EQ(test, aqm_blue_classify(1501, 1500, 3000, 0),
			AQM_BLUE_OVERFLOW);
	KUNIT_EXPECT_EQ(test, aqm_blue_classify(1501, 40, 3000, 1500),
			AQM_BLUE_ABOVE_L);
	KUNIT_EXPECT_EQ(test, aqm_blue_classify(U32_MAX, U32_MAX, U32_MAX, 0),
			AQM_BLUE_OVERFLOW);

	/* a queue held at 8 > L = 5 with no loss at all, one arrival per ms
	 * for 100 ms, freeze_time 10 ms: 10 increments of 1/16
	 */
	blue_setup(&p, 1ULL << 28, 1ULL << 28, 10000, false);
	aqm_blue_vars_init(&v, T0);
	for (t = T0; t < T0 + MS(100); t += MS(1))
		if (aqm_blue_classify(8, 1, 10, 5) != AQM_BLUE_NONE)
			aqm_blue_increment(&p, &v, t);
	KUNIT_EXPECT_EQ(test, v.p_m, SIXTEENTHS(10));
	/* at L it no longer rises */
	for (; t < T0 + MS(200); t += MS(1))
		if (aqm_blue_classify(5, 1, 10, 5) != AQM_BLUE_NONE)
			aqm_blue_increment(&p, &v, t);
	KUNIT_EXPECT_EQ(test, v.p_m, SIXTEENTHS(10));
}

static struct kunit_case aqm_blue_cases[] = {
	KUNIT_CASE(aqm_blue_delta_ratio),
	KUNIT_CASE(aqm_blue_known_answer),
	KUNIT_CASE(aqm_blue_testbed_values),
	KUNIT_CASE(aqm_blue_freeze_time),
	KUNIT_CASE(aqm_blue_random_freeze),
	KUNIT_CASE(aqm_blue_idle_decay),
	KUNIT_CASE(aqm_blue_idle_hours),
	KUNIT_CASE(aqm_blue_clamp),
	KUNIT_CASE(aqm_blue_threshold),
	{}
};

static struct kunit_suite aqm_blue_suite = {
	.name = "aqm_blue",
	.test_cases = aqm_blue_cases,
};

kunit_test_suite(aqm_blue_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the linux-aqm BLUE update rules");
