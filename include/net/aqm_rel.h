/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqm_rel.h - the relative law of a time target (ours): the controller of
 * the fair share x (dcn's pref, afd's m_fair) when the queue target is a
 * time. Header-only, on the PI controller's state (include/net/aqm_pi.h).
 *
 * The papers' controllers move the fair share by an absolute step per
 * packet of queue error (DCN's eq. for pref with a and b, AFD's m_fair with
 * alpha and beta). The fair share is about (what the constrained flows may
 * send) / (their number), so an absolute step is a relative step that
 * grows with the number of flows: with many of them the loop overshoots,
 * the share swings to 0, where every packet of every flow above it is
 * dropped, and TCP's small windows time out (measured for both: dcn's
 * queue sat empty 42% of the time; afd under 32 UDP floods beside 40 TCP
 * flows let UDP take 1.57 times its shares and left the least TCP flow
 * 0.12 of its own, tc-afd(8)).
 *
 * With a queue target in time, qref = target * the measured departure
 * rate (include/net/aqm_rate.h), the controller runs on the relative queue
 * error r = (q - qref) / qref and moves x in proportion to itself:
 *
 *   x(k) = x(k-1) * f(b r(k) - a r(k-1)),
 *   f(d) = 1 / (1 + d) for d >= 0, 1 - d for d < 0
 *
 * (f(d) is about 1 - d for small d; aqm_rel_factor() says why not 1 - d
 * itself). While the flows above the share are held at x they bring about
 * the link's rate, so a relative change of x moves the queue in proportion
 * to the rate and the queue's delay obeys a loop that depends neither on
 * the rate nor on the number of flows. For a target T_q and a sampling
 * period T, the gains that give the loop a natural frequency w0 = 3 rad/s
 * and a damping of 0.7 are
 *
 *   a = 2 * 0.7 * w0 * T_q = 4.2/s * T_q,   b - a = w0^2 * T_q * T = 9/s^2 * T_q * T
 *
 * (10 ms target, 10 ms samples: a = 0.042, b = 0.0429). r is clamped to
 * [-1, AQM_REL_RMAX] and one sample moves x by a factor of at most 1.5
 * either way (aqm_rel_factor()), so that one burst cannot crash it; x stays
 * above AQM_REL_XMIN so that it can grow back. Samples missed while the
 * queue did not change (idle periods) are applied in closed form, the
 * factor of (b - a) r to the n, by squaring.
 *
 * Anti-windup (@hold, afd's): a queue that overshot far above the target
 * drains at the rate the flows leave free, and while it drains the
 * integral step, (b - a) r with r up to AQM_REL_RMAX, keeps cutting x
 * although the arrivals are already below the link's rate: x ends far
 * below the share, and climbs back at the integral's pace on an empty
 * queue (r = -1), 0.26/s for a 29 ms target. With @hold, a sample above
 * the target (r > 0) whose queue fell since the last one (r < r(k-1))
 * takes only the proportional step a (r(k) - r(k-1)).
 *
 * Units: x is the owner's (packets for pref, shadow-buffer entries for
 * m_fair), AQM_PI_ONE = 1; gains are Q32 (AQM_PI_ONE = 1.0).
 */
#ifndef __NET_AQM_REL_H
#define __NET_AQM_REL_H

#include <linux/bitops.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/types.h>
#include <net/aqm_pi.h>

#define AQM_REL_RMAX	32
#define AQM_REL_XMIN	(AQM_PI_ONE / 16)

/**
 * struct aqm_rel - gains of the relative law
 * @a:	on r(k-1), Q32
 * @b:	on r(k), Q32, >= @a
 * @hold:	anti-windup: no integral step while the queue is above its
 *		target and falling (only the proportional part a (r(k) - r(k-1)))
 */
struct aqm_rel {
	u64 a;
	u64 b;
	bool hold;
};

/**
 * aqm_rel_gains() - the gains for a target and a sampling period
 * @g:		output
 * @target_ns:	queue target, ns, <= 1 s
 * @tupdate_ns:	sampling period, ns, <= 1 s
 */
static inline void aqm_rel_gains(struct aqm_rel *g, u64 target_ns,
				 u64 tupdate_ns)
{
	/* a = 4.2 T_q: 42 T_q[ns] 2^32 / 10^10 */
	g->a = mul_u64_u64_div_u64(target_ns * 42, AQM_PI_ONE, 10000000000ULL);
	/* b - a = 9 T_q T: T_q[ns] T[ns] 9 2^32 / 10^18, T_q T < 2^60 */
	g->b = g->a + mul_u64_u64_div_u64(target_ns * tupdate_ns, 9 * AQM_PI_ONE,
					  1000000000000000000ULL);
}

/* r = (q - qref) / qref in Q32, clamped to [-1, AQM_REL_RMAX] */
static inline s64 aqm_rel_err(u32 q, u32 qref)
{
	s64 r;

	if (!qref)
		return 0;
	r = div64_s64(((s64)q - qref) * AQM_PI_ONE, qref);
	return clamp_t(s64, r, -AQM_PI_ONE, AQM_REL_RMAX * AQM_PI_ONE);
}

/* g * r, Q32, for |g| < 2^32 and |r| <= 2^35 */
static inline s64 aqm_rel_term(u64 g, s64 r)
{
	u64 t = mul_u64_u64_shr(g, r < 0 ? -(u64)r : (u64)r, AQM_PI_SHIFT);

	return r < 0 ? -(s64)t : (s64)t;
}

/*
 * The factor of one step d, Q32: 1 / (1 + d) for d >= 0, 1 - d below, d
 * clamped to [-1/2, 1/2]. A step down and the same step up cancel, so a
 * burst that comes and goes leaves x where it was but for the integral
 * part (b - a) r. The plain factor 1 - d loses d^2 on every such pair and
 * a quarter of x on a burst of r >= 12 (x 0.5, then x 1.5): measured on
 * the emulated WAN, bursts of short flows ratcheted dcn's pref down to about 30
 * packets per Tdec and the HB flows lost 8.0% of the packets at 90% load,
 * 6.4% with the symmetric step.
 */
static inline u64 aqm_rel_factor(s64 d)
{
	d = clamp_t(s64, d, -AQM_PI_ONE / 2, AQM_PI_ONE / 2);
	if (d < 0)
		return (u64)(AQM_PI_ONE - d);
	return mul_u64_u64_div_u64(AQM_PI_ONE, AQM_PI_ONE, AQM_PI_ONE + d);
}

/* a b / 2^32 for Q32 values, saturating at 2^53 */
static inline u64 aqm_rel_mul(u64 a, u64 b)
{
	if (fls64(a) + fls64(b) > 53 + AQM_PI_SHIFT)
		return BIT_ULL(53);
	return min_t(u64, mul_u64_u64_shr(a, b, AQM_PI_SHIFT), BIT_ULL(53));
}

/* x f^n for a factor f in Q32, by squaring; at most @cap (< 2^53) */
static inline s64 aqm_rel_pow(s64 x, u64 f, u64 n, s64 cap)
{
	u64 r = AQM_PI_ONE;

	while (n) {
		if (n & 1)
			r = aqm_rel_mul(r, f);
		n >>= 1;
		if (n)
			f = aqm_rel_mul(f, f);
	}
	return min_t(s64, (s64)aqm_rel_mul((u64)x, r), cap);
}

/**
 * aqm_rel_sample() - @n samples of the relative law that all saw @q
 * @g:		gains
 * @vars:	controller state: x the fair share, qold the previous sample
 * @x_max:	upper bound of x (dcn: aqm_dcn_pref_cap(), afd: aqm_afd_fair_cap())
 * @q:		queue length at each sample, packets
 * @qref:	queue target, packets, > 0
 * @n:		number of samples, >= 1
 *
 * O(log n).
 */
static inline void aqm_rel_sample(const struct aqm_rel *g,
				  struct aqm_pi_vars *vars, s64 x_max,
				  u32 q, u32 qref, u64 n)
{
	s64 r = aqm_rel_err(q, qref);
	s64 rold = aqm_rel_err(vars->qold, qref);
	s64 x = max_t(s64, vars->x, AQM_REL_XMIN);
	s64 d;

	if (g->hold && r > 0 && r < rold)
		d = aqm_rel_term(g->a, r) - aqm_rel_term(g->a, rold);
	else
		d = aqm_rel_term(g->b, r) - aqm_rel_term(g->a, rold);
	x = aqm_rel_pow(x, aqm_rel_factor(d), 1,
			max_t(s64, x_max, AQM_REL_XMIN));
	if (n > 1) {
		/* the same r every time: the step (b - a) r */
		d = aqm_rel_term(g->b - g->a, r);
		x = aqm_rel_pow(x, aqm_rel_factor(d), n - 1,
				max_t(s64, x_max, AQM_REL_XMIN));
	}
	vars->x = clamp_t(s64, x, AQM_REL_XMIN,
			  max_t(s64, x_max, AQM_REL_XMIN));
	vars->qold = q;
	vars->samples += n;
}

#endif /* __NET_AQM_REL_H */
