/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqm_ared.h - Adaptive RED with the gentle region, as the AQM/ECN paper
 * ran it (its "ARED": S. Floyd, R. Gummadi, S. Shenker, "Adaptive RED: an
 * algorithm for increasing the robustness of RED's active queue
 * management", 2001, with the gentle refinement), in packet or byte mode.
 *
 * The average queue, an EWMA updated on every arrival:
 *
 *   avg <- avg + w (q - avg),   w = 1 - exp(-1/C)
 *
 * C the link rate in packets/s (Floyd et al.'s rule, a time constant of
 * one second); after an idle period of t seconds avg decays by
 * (1 - w)^(t C) = exp(-t), as if t C empty samples had been taken.
 *
 * The drop probability of the gentle RED curve (AQM/ECN paper, section II):
 *
 *   avg < min_th:                0
 *   min_th <= avg < max_th:      p_b = max_p (avg - min_th) / (max_th - min_th)
 *   max_th <= avg < 2 max_th:    p_b = max_p + (1 - max_p) (avg - max_th) / max_th
 *   2 max_th <= avg:             1
 *
 * without the gentle region every arrival above max_th is dropped. In byte
 * mode p_b is scaled by the packet's size over the mean packet size (the
 * AQM/ECN paper's eq. 3). Drops are spaced as in RED: with `count` the
 * arrivals since the last drop, p_a = p_b / (1 - count p_b).
 *
 * Adaptation (Floyd et al., AIMD): every interval (0.5 s), if avg is above
 * min_th + 0.6 (max_th - min_th) and max_p <= 0.5, max_p += min(0.01,
 * max_p / 4); if avg is below min_th + 0.4 (max_th - min_th) and
 * max_p >= 0.01, max_p *= 0.9. Lazy: an arrival or departure takes the
 * intervals that have ended; intervals in which nothing arrived or left saw
 * the same (decaying) average and take the same step, at most
 * AQM_ARED_CATCH_UP of them (the steps reach a bound of max_p sooner).
 *
 * Scales: avg is u64 in 2^-AQM_ARED_AVG_SHIFT queue units (packets, or
 * bytes in byte mode); probabilities and w are fractions of AQM_PI_ONE
 * (2^32).
 */
#ifndef __NET_AQM_ARED_H
#define __NET_AQM_ARED_H

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/types.h>
#include <net/aqm_pi.h>

#define AQM_ARED_AVG_SHIFT	16
/* max_p's bounds and steps (Floyd et al. 2001), Q32 */
#define AQM_ARED_PCT		((u64)(AQM_PI_ONE / 100))
#define AQM_ARED_MAXP_MIN	AQM_ARED_PCT		/* 0.01 */
#define AQM_ARED_MAXP_MAX	(50 * AQM_ARED_PCT)	/* 0.5 */
/* 0.01 to 0.5 by the smallest increase, or back by 0.9: about 60 steps */
#define AQM_ARED_CATCH_UP	64

/**
 * struct aqm_ared_params - configuration of one ARED instance
 * @min_th:	min_th, queue units (packets or bytes)
 * @max_th:	max_th, queue units, > @min_th
 * @w:		EWMA weight w = 1 - exp(-1/C), fraction of 2^32, > 0
 * @inv_delta:	2^32 / (max_th - min_th), rounded down
 * @inv_max:	2^32 / max_th, rounded down
 * @interval:	adaptation interval, ns (0: max_p is fixed)
 * @gentle:	the gentle region between max_th and 2 max_th
 */
struct aqm_ared_params {
	u32 min_th;
	u32 max_th;
	u32 w;
	u64 inv_delta;
	u64 inv_max;
	u64 interval;
	bool gentle;
};

/**
 * struct aqm_ared_vars - state of one ARED instance
 * @avg:	average queue, 2^-AQM_ARED_AVG_SHIFT queue units
 * @max_p:	current max_p, fraction of 2^32
 * @count:	arrivals since the last drop or mark while avg >= min_th;
 *		-1 below min_th
 * @idle_since:	time the queue went empty, ns; 0 while it is not
 * @next_adapt:	end of the current adaptation interval, ns
 * @adapts:	adaptation steps taken (up or down)
 */
struct aqm_ared_vars {
	u64 avg;
	u64 max_p;
	s32 count;
	u64 idle_since;
	u64 next_adapt;
	u64 adapts;
};

/**
 * aqm_ared_curve_set() - the thresholds of the RED curve, no weight
 * @p:		configuration to fill: min_th, max_th, inv_delta, inv_max and
 *		gentle; w and interval are left as they are
 * @min_th:	queue units
 * @max_th:	queue units, > @min_th and < 2^31
 * @gentle:	the gentle region between max_th and 2 max_th
 *
 * For owners that keep their own average (sfb's per-bin RED, SFRED):
 * aqm_ared_prob() and aqm_ared_step() need no more.
 *
 * Return: 0, or -EINVAL (@p unchanged).
 */
static inline int aqm_ared_curve_set(struct aqm_ared_params *p, u32 min_th,
				     u32 max_th, bool gentle)
{
	if (max_th <= min_th || max_th >= BIT(31))
		return -EINVAL;
	p->min_th = min_th;
	p->max_th = max_th;
	p->inv_delta = div_u64(BIT_ULL(32), max_th - min_th);
	p->inv_max = div_u64(BIT_ULL(32), max_th);
	p->gentle = gentle;
	return 0;
}

/**
 * aqm_ared_step() - one AIMD step on max_p from an average (Floyd et al.)
 * @p:		configuration (the thresholds)
 * @v:		state: its max_p moves
 * @avg:	the average that ends the interval, 2^-AQM_ARED_AVG_SHIFT
 *		queue units
 * @ceil:	max_p rises only while it is at most @ceil (Floyd's 0.5,
 *		AQM_ARED_MAXP_MAX); it never passes 1
 *
 * Above the target band (min_th + 0.6 (max_th - min_th)): max_p += min(0.01,
 * max_p / 4); below it (min_th + 0.4 (max_th - min_th)), while max_p >=
 * 0.01: max_p *= 0.9. Two divisions: once per interval, not per packet.
 *
 * Return: true when max_p moved.
 */
static inline bool aqm_ared_step(const struct aqm_ared_params *p,
				 struct aqm_ared_vars *v, u64 avg, u64 ceil)
{
	u64 delta = (u64)(p->max_th - p->min_th) << AQM_ARED_AVG_SHIFT;
	u64 base = (u64)p->min_th << AQM_ARED_AVG_SHIFT;

	if (avg > base + div_u64(delta * 3, 5) && v->max_p <= ceil) {
		v->max_p = min_t(u64, AQM_PI_ONE, v->max_p +
				 min_t(u64, AQM_ARED_MAXP_MIN, v->max_p / 4));
		return true;
	}
	if (avg < base + div_u64(delta * 2, 5) &&
	    v->max_p >= AQM_ARED_MAXP_MIN) {
		v->max_p = div_u64(v->max_p * 9, 10);
		return true;
	}
	return false;
}

/* w = 1 - exp(-1/C) for a link of @pps packets/s, > 0 */
u32 aqm_ared_weight(u64 pps);
int aqm_ared_params_set(struct aqm_ared_params *p, u32 min_th, u32 max_th,
			u64 pps, u64 interval, bool gentle);
void aqm_ared_vars_init(struct aqm_ared_vars *v,
			const struct aqm_ared_params *p, u64 max_p, u64 now);
void aqm_ared_idle_end(const struct aqm_ared_params *p,
		       struct aqm_ared_vars *v, u64 now);
void aqm_ared_adapt(const struct aqm_ared_params *p, struct aqm_ared_vars *v,
		    u64 now);

/**
 * aqm_ared_avg_update() - one EWMA step on an arrival
 * @p:		configuration
 * @v:		state
 * @q:		the instantaneous queue, queue units
 *
 * Call aqm_ared_idle_end() first when the queue was idle.
 */
static inline void aqm_ared_avg_update(const struct aqm_ared_params *p,
				       struct aqm_ared_vars *v, u32 q)
{
	u64 target = (u64)q << AQM_ARED_AVG_SHIFT;

	/* |target - avg| < 2^48 and w < 2^32: the product fits 128 bits */
	if (target >= v->avg)
		v->avg += mul_u64_u32_shr(target - v->avg, p->w, 32);
	else
		v->avg -= mul_u64_u32_shr(v->avg - target, p->w, 32);
}

/**
 * aqm_ared_prob() - the gentle RED curve at the current average
 * @p:		configuration
 * @v:		state
 *
 * Return: p_b as a fraction of AQM_PI_ONE, in [0, AQM_PI_ONE].
 */
static inline s64 aqm_ared_prob(const struct aqm_ared_params *p,
				const struct aqm_ared_vars *v)
{
	u64 min = (u64)p->min_th << AQM_ARED_AVG_SHIFT;
	u64 max = (u64)p->max_th << AQM_ARED_AVG_SHIFT;
	u64 frac;

	if (v->avg < min)
		return 0;
	if (v->avg < max) {
		/* (avg - min_th) / delta, Q32: below 1 */
		frac = mul_u64_u64_shr(v->avg - min, p->inv_delta,
				       AQM_ARED_AVG_SHIFT);
		return (s64)mul_u64_u64_shr(v->max_p, min_t(u64, frac, U32_MAX),
					    32);
	}
	if (!p->gentle || v->avg >= 2 * max)
		return AQM_PI_ONE;
	frac = mul_u64_u64_shr(v->avg - max, p->inv_max, AQM_ARED_AVG_SHIFT);
	return (s64)(v->max_p + mul_u64_u64_shr(AQM_PI_ONE - v->max_p,
						min_t(u64, frac, U32_MAX), 32));
}

/**
 * aqm_ared_hit() - RED's spaced Bernoulli trial
 * @v:		state; its count moves
 * @pb:		p_b of this packet (after any byte-mode scaling)
 * @rnd:	a uniform random u32
 *
 * Drops with p_a = p_b / (1 - count p_b), and surely once count p_b >= 1,
 * without a division: rnd / 2^32 < p_b / (1 - c) <=> rnd (1 - c) < p_b 2^32
 * with c = count p_b.
 *
 * Return: true to drop or mark; count restarts then.
 */
static inline bool aqm_ared_hit(struct aqm_ared_vars *v, s64 pb, u32 rnd)
{
	u64 c;

	if (pb <= 0) {
		v->count = -1;
		return false;
	}
	if (v->count < S32_MAX)
		v->count++;
	/* count < 2^31 and pb <= 2^32: no overflow */
	c = (u64)v->count * (u64)pb;
	if (pb >= AQM_PI_ONE || c >= AQM_PI_ONE ||
	    mul_u64_u32_shr(AQM_PI_ONE - c, rnd, 32) < (u64)pb) {
		v->count = 0;
		return true;
	}
	return false;
}

#endif /* __NET_AQM_ARED_H */
