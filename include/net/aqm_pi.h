/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqm_pi.h - discrete proportional-integral controller shared by the
 * linux-aqm qdiscs (pi, dcn, afd).
 *
 * The controller is the discrete PI law of Hollot et al. ("On designing
 * improved controllers for AQM routers supporting TCP flows", INFOCOM 2001),
 * eq. 1 of the AQM/ECN web-performance paper:
 *
 *   x(k) = x(k-1) + g_new * e(k) - g_old * e(k-1),   e(k) = q(k) - qref
 *
 * sampled every T (Tupdate). With g_new > g_old the output rises while the
 * queue is above qref (integral part, (g_new - g_old) * e) and rises faster
 * while the queue grows (proportional part, g_old * (e(k) - e(k-1))). pi uses
 * it as a drop probability.
 *
 * A "falling" controller applies the same law with the opposite sign, so its
 * output is a fair share that falls while the queue is above qref or growing:
 *
 *   x(k) = x(k-1) - g_new * e(k) + g_old * e(k-1)
 *
 * This is DCN's pref update (DCN paper section 3.2) as sch_dcn runs it:
 * the paper's gains a < b are passed as g_old = a (on the previous sample)
 * and g_new = b (on the newest). The paper prints them the other way round,
 *
 *   pref(k) = pref(k-1) + a * e(k) - b * e(k-1),   a < b,
 *
 * a on the newest sample and b on the previous one: the same integral part
 * (a - b) * e, but a proportional part a * (e(k) - e(k-1)) that raises the
 * share while the queue grows. sch_dcn keeps the falling form above, in
 * which both parts lower the share while the queue is long or growing (see
 * sch_dcn.c). AFD's fair share M_fair (Pan et al.) falls the same way.
 *
 * Fixed point:
 *  - x is an s64 in units of 2^-AQM_PI_SHIFT (a probability of 1.0 is
 *    AQM_PI_ONE = 2^32; a share of 3 packets is 3 << 32).
 *  - gains are u64 in units of 2^-AQM_PI_GAIN_SHIFT per queue unit
 *    (packet or byte), i.e. real gain * 2^48. Hollot's a = 1.822e-5 per
 *    packet is 5128474075; a gain of 1/1500 per byte is 187649984473.
 *    Gains are set from rationals num/den (netlink carries the rational so
 *    that tc prints back exactly what was set), at most 2^15.
 *  - q and qref are u32 (packets or bytes), so |e| < 2^32; each product is
 *    saturated at 2^61 before the sum, and x_min/x_max must lie in
 *    [-2^61, 2^61], so nothing overflows.
 *
 * Sampling is lazy: the owner calls aqm_pi_advance() on every enqueue and
 * dequeue (before the queue changes) and from dump. Between two calls the
 * queue length cannot change, so every sample missed while the link was idle
 * saw the same queue; they are applied in closed form, also after hours of
 * silence, without a timer. Cost per packet when no sample is due: one
 * ktime read and one compare.
 *
 * Design rule (aqm_pi_design()): Hollot et al. model N TCP flows with round
 * trip R through a link of C packets/s as the plant
 *   P(s) = (C^2 / 2N) e^(-sR) / ((s + 2N / (R^2 C)) (s + 1/R))
 * and choose C_PI(s) = K (s/m + 1) / s with the zero m = 2N / (R^2 C) on
 * the TCP pole and the unity-gain crossover wg = m, which gives
 *   K = wg sqrt(1 + (wg R)^2) (2N)^2 / (R C)^3.
 * The bilinear transform with period T yields the discrete law above with
 *   a = K (1/m + T/2),  b = K (1/m - T/2).
 * With u = 2N / (RC) this is a = S u^2 / (RC) (1 + u T / 2R), b the same
 * with a minus, S = sqrt(1 + u^2): integer arithmetic on u, RC and S only.
 * T defaults to R/40 (Hollot's example, C = 3750 pkt/s, N = 60, R = 246 ms,
 * samples at 163 Hz; the paper used 160 Hz). For that example the rule
 * gives a = 1.853e-5 and b = 1.847e-5: the paper prints 1.822e-5 and
 * 1.816e-5 from a K rounded to 9.64e-6 where the formula gives 9.78e-6;
 * a - b, the integral gain, is 6.0e-8 in both.
 *
 * Memory: struct aqm_pi_params 56 bytes, struct aqm_pi_vars 32 bytes.
 */
#ifndef __NET_AQM_PI_H
#define __NET_AQM_PI_H

#include <linux/bits.h>
#include <linux/types.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#define AQM_PI_SHIFT		32
#define AQM_PI_ONE		((s64)BIT_ULL(AQM_PI_SHIFT))
#define AQM_PI_GAIN_SHIFT	48
/* Largest real gain: 2^15 per queue unit. */
#define AQM_PI_GAIN_MAX		BIT_ULL(63)
/* Bound on |x| and on each product term. */
#define AQM_PI_SAT		((s64)BIT_ULL(61))

/**
 * struct aqm_pi_params - configuration of one PI controller
 * @g_new:	gain on the newest error e(k), real gain * 2^AQM_PI_GAIN_SHIFT
 * @g_old:	gain on the previous error e(k-1), same scale
 * @g_in:	gain on an exogenous input u(k) (aqm_pi_sample_in()), same
 *		scale; 0 for the PI law alone
 * @tupdate:	sampling period T in nanoseconds, > 0
 * @x_min:	lower clamp of the output, 2^-AQM_PI_SHIFT units
 * @x_max:	upper clamp of the output, 2^-AQM_PI_SHIFT units
 * @qref:	target queue length, packets or bytes (the owner's unit)
 * @falling:	true: output falls while the queue is above @qref (fair share)
 */
struct aqm_pi_params {
	u64 g_new;
	u64 g_old;
	u64 g_in;
	u64 tupdate;
	s64 x_min;
	s64 x_max;
	u32 qref;
	bool falling;
};

/**
 * struct aqm_pi_vars - state of one PI controller
 * @x:		output x(k), 2^-AQM_PI_SHIFT units, within [x_min, x_max]
 * @next:	time of the next sample, ns (ktime_get_ns() clock)
 * @samples:	number of samples taken since init
 * @qold:	queue length at the previous sample, q(k-1)
 */
struct aqm_pi_vars {
	s64 x;
	u64 next;
	u64 samples;
	u32 qold;
};

/**
 * struct aqm_pi_design - inputs and outputs of Hollot's design rule
 * @rate:	link rate C, packets per second, in [1, 2^28]
 * @rtt_us:	largest round-trip time R+, microseconds, in [1000, 10^7]
 * @flows:	smallest number of flows N-, in [1, 65535]
 * @tupdate:	sampling period T in ns; 0 on input picks R/40
 * @g_new:	output: a, per packet, 2^-AQM_PI_GAIN_SHIFT units
 * @g_old:	output: b, per packet, same scale
 */
struct aqm_pi_design {
	u64 rate;
	u32 rtt_us;
	u32 flows;
	u64 tupdate;
	u64 g_new;
	u64 g_old;
};

int aqm_pi_design(struct aqm_pi_design *d);
int aqm_pi_gain_from_ratio(u64 num, u64 den, u64 *gain);
void aqm_pi_vars_init(struct aqm_pi_vars *vars,
		      const struct aqm_pi_params *params, s64 x0, u64 now);
void aqm_pi_sample(const struct aqm_pi_params *params,
		   struct aqm_pi_vars *vars, u32 q, u64 nsamples);
void aqm_pi_sample_in(const struct aqm_pi_params *params,
		      struct aqm_pi_vars *vars, u32 q, u64 nsamples,
		      s64 in_first, s64 in_rest);
void aqm_pi_catch_up(const struct aqm_pi_params *params,
		     struct aqm_pi_vars *vars, u32 q, u64 now);

/**
 * aqm_pi_due() - count the samples due at @now and move past them
 * @params:	controller configuration (its tupdate)
 * @vars:	controller state, with vars->next <= @now
 * @now:	current time, ns
 *
 * For an owner that applies its own law to the samples (sch_dcn's
 * relative law); aqm_pi_catch_up() applies the PI law.
 *
 * Return: the number of samples due, >= 1.
 */
static inline u64 aqm_pi_due(const struct aqm_pi_params *params,
			     struct aqm_pi_vars *vars, u64 now)
{
	u64 n = div64_u64(now - vars->next, params->tupdate) + 1;

	vars->next += n * params->tupdate;
	return n;
}

/**
 * aqm_pi_advance() - take every sample that is due at @now
 * @params:	controller configuration
 * @vars:	controller state
 * @q:		queue length since the previous call (packets or bytes)
 * @now:	current time, ns
 *
 * Call before the queue changes. Returns true when the output moved.
 */
static inline bool aqm_pi_advance(const struct aqm_pi_params *params,
				  struct aqm_pi_vars *vars, u32 q, u64 now)
{
	if (likely(now < vars->next))
		return false;
	aqm_pi_catch_up(params, vars, q, now);
	return true;
}

/**
 * aqm_prob_scale_len() - byte-mode probability (AQM/ECN paper eq. 3)
 * @p:		probability, AQM_PI_ONE = 1.0
 * @len:	size of this packet, bytes
 * @recip_mean:	2^32 / mean packet size (reciprocal_value of the owner)
 *
 * p_b = p * len / mean, capped at 1.0: small packets (SYNs, pure ACKs)
 * are rarely dropped. One multiplication chain, no division.
 */
static inline s64 aqm_prob_scale_len(s64 p, u32 len, u32 recip_mean)
{
	/* p <= 2^32 and len < 2^17, so p * len < 2^49 */
	u64 pb = mul_u64_u32_shr((u64)p * len, recip_mean, 32);

	return pb > AQM_PI_ONE ? AQM_PI_ONE : (s64)pb;
}

/**
 * aqm_prob_hit() - Bernoulli trial with probability @p
 * @p:		probability, AQM_PI_ONE = 1.0
 * @rnd:	a uniform random u32 (get_random_u32())
 *
 * True with probability p: rnd < p * 2^32 / AQM_PI_ONE, so p = 0 never
 * and p = 1.0 always hits.
 */
static inline bool aqm_prob_hit(s64 p, u32 rnd)
{
	return (u64)rnd < (u64)max_t(s64, p, 0);
}

/**
 * aqm_share_hit() - Bernoulli trial with probability max(0, 1 - share/count)
 * @share:	fair share, >= 0 (DCN's pref, AFD's M_fair)
 * @count:	the flow's count in the same units (DCN's pktcount, AFD's m_i)
 * @rnd:	a uniform random u32
 *
 * DCN section 3.2 and AFD drop a flow's packet with probability
 * 1 - share/count when count exceeds the share. Instead of dividing:
 * rnd < (1 - share/count) 2^32  <=>  count * rnd / 2^32 < count - share,
 * exact because the right side is an integer.
 */
static inline bool aqm_share_hit(s64 share, s64 count, u32 rnd)
{
	if (count <= share || count <= 0)
		return false;
	share = max_t(s64, share, 0);
	return mul_u64_u32_shr((u64)count, rnd, 32) < (u64)(count - share);
}

#endif /* __NET_AQM_PI_H */
