/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqm_afd.h - the per-packet core of AFD, Approximate Fair Dropping (R. Pan,
 * L. Breslau, B. Prabhakar, S. Shenker, "Approximate fairness through
 * differential dropping", ACM CCR 33(2), 2003), on the shared shadow buffer
 * (include/net/aqm_flow.h) and PI controller (include/net/aqm_pi.h).
 *
 * AFD estimates each flow's arrival rate from a shadow buffer of the last b
 * sampled arrivals (an arrival is sampled with probability 1/s): m_i, the
 * flow's share of those samples, is proportional to its rate. A packet of
 * flow i is dropped (or CE-marked) with probability
 *
 *   d_i = (1 - m_fair / m_i)+
 *
 * so that a flow arriving at m_i > m_fair is left m_i (1 - d_i) = m_fair,
 * the fair share, and a flow below it is never dropped. m_fair is the
 * output of a PI controller on the queue length, sampled every T:
 *
 *   m_fair(t) = m_fair(t-1) + alpha (Q(t-1) - Q_target)
 *                           - beta (Q(t) - Q_target),   beta > alpha,
 *
 * the "falling" form of include/net/aqm_pi.h with g_new = beta and
 * g_old = alpha: m_fair falls while the queue is above its target and
 * while it grows.
 *
 * Units. m_fair is kept in shadow-buffer entries, in the controller's
 * fixed point (AQM_PI_ONE = 1 entry), whatever the counting: alpha and
 * beta are entries per packet of queue error, as in the published
 * implementations (alpha = 1.7, beta = 1.8 at 160 Hz). m_i is in the
 * owner's unit: sampled packets (a GSO packet weighs its segments), or
 * sampled bytes in bytemode, where one entry of m_fair stands for @unit =
 * avpkt bytes. The decision compares both at a scale of 2^16 per unit of
 * m_i, without a division:
 *
 *   share = m_fair * unit / 2^16,  count = m_i * 2^16,
 *
 * and aqm_share_hit() draws d_i = 1 - share/count exactly. m_fair <= 2^61
 * and unit < 2^17 keep share below 2^62; m_i < 2^46 (b <= 2^16 arrivals of
 * at most AQM_AFD_WEIGHT_MAX each) keeps count below 2^62.
 *
 * Clamp. m_fair is kept in [0, max(b, the buffer's total weight / unit)]
 * entries: at the top no flow can be dropped (m_i never exceeds the
 * total), and the controller cannot wind up past it while the link is
 * uncongested, so it starts falling at once when a queue builds.
 */
#ifndef __NET_AQM_AFD_H
#define __NET_AQM_AFD_H

#include <linux/math.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/types.h>
#include <net/aqm_flow.h>
#include <net/aqm_pi.h>
#include <net/aqm_qdisc.h>

/* m_i's scale in the decision: 2^16 per packet or byte */
#define AQM_AFD_SCALE_SHIFT	16
/* Largest weight of one sampled arrival (bytes or segments): 2^29 */
#define AQM_AFD_WEIGHT_MAX	BIT(29)
/* Largest m_fair, entries: keeps the controller's x within AQM_PI_SAT */
#define AQM_AFD_FAIR_MAX	((s64)BIT_ULL(61))

/**
 * aqm_afd_share() - m_fair in the decision's scale
 * @m_fair:	fair share, entries, AQM_PI_ONE = 1 entry, >= 0
 * @unit:	m_i units per entry (1 for packets, avpkt bytes), < 2^17
 *
 * Return: m_fair * unit * 2^16 (m_i's unit scaled by 2^AQM_AFD_SCALE_SHIFT).
 */
static inline s64 aqm_afd_share(s64 m_fair, u32 unit)
{
	return (s64)mul_u64_u32_shr((u64)max_t(s64, m_fair, 0), unit,
				    AQM_PI_SHIFT - AQM_AFD_SCALE_SHIFT);
}

/**
 * struct aqm_afd_sides - the two sides of the decision, in one scale
 * @share:	m_fair * unit * 2^16, aqm_afd_share()
 * @count:	m_i * 2^16
 */
struct aqm_afd_sides {
	s64 share;
	s64 count;
};

/**
 * aqm_afd_over() - is the flow above its share, d_i > 0?
 * @m_fair:	fair share, entries, AQM_PI_ONE = 1 entry
 * @unit:	m_i units per entry
 * @m_i:	the flow's weight in the shadow buffer, < 2^46
 * @s:		output, set when m_fair is below AQM_AFD_FAIR_MAX: the sides
 *		for aqm_share_hit() and aqm_share_prob_le()
 *
 * The enqueue asks this first and draws a random number only when it is
 * true (most packets on a fair link are of flows under their share), then
 * decides on @s without computing the share again.
 *
 * Return: true exactly when aqm_afd_hit() can be true, i.e. when it is for
 * rnd 0.
 */
static inline bool aqm_afd_over(s64 m_fair, u32 unit, u64 m_i,
				struct aqm_afd_sides *s)
{
	/* the saturated controller stands for a share no flow reaches */
	if (m_fair >= AQM_AFD_FAIR_MAX)
		return false;
	s->share = aqm_afd_share(m_fair, unit);
	s->count = (s64)(m_i << AQM_AFD_SCALE_SHIFT);
	return s->count > s->share;
}

/**
 * aqm_afd_hit() - AFD's drop decision, d_i = (1 - m_fair / m_i)+
 * @m_fair:	fair share, entries, AQM_PI_ONE = 1 entry
 * @unit:	m_i units per entry
 * @m_i:	the flow's weight in the shadow buffer, < 2^46
 * @rnd:	a uniform random u32
 *
 * Return: true with probability d_i; never when m_i <= m_fair * unit, nor
 * when m_fair is at AQM_AFD_FAIR_MAX, which aqm_afd_fair_cap() returns for a
 * buffer heavier than 2^29 entries.
 */
static inline bool aqm_afd_hit(s64 m_fair, u32 unit, u64 m_i, u32 rnd)
{
	struct aqm_afd_sides s;

	return aqm_afd_over(m_fair, unit, m_i, &s) &&
	       aqm_share_hit(s.share, s.count, rnd);
}

/**
 * aqm_afd_prob_le() - is d_i at most the ECN ceiling?
 * @m_fair:	fair share, entries, AQM_PI_ONE = 1 entry
 * @unit:	m_i units per entry
 * @m_i:	the flow's weight in the shadow buffer, < 2^46
 * @ceil:	from aqm_ecn_ceil_from_ratio()
 */
static inline bool aqm_afd_prob_le(s64 m_fair, u32 unit, u64 m_i, u64 ceil)
{
	return aqm_share_prob_le(aqm_afd_share(m_fair, unit),
				 (s64)(m_i << AQM_AFD_SCALE_SHIFT), ceil);
}

/**
 * aqm_afd_fair_cap() - the largest m_fair
 * @sh:		shadow buffer
 * @unit:	m_i units per entry, > 0
 *
 * Return: the larger of b entries and the buffer's total weight / unit,
 * AQM_PI_ONE = 1 entry, at most AQM_AFD_FAIR_MAX. m_i never exceeds the
 * total, so at the cap no flow is dropped; b is the paper's bound for
 * packet counting, the total the bound when GSO packets or bytes weigh
 * more. Called once per controller sample, not per packet.
 */
static inline s64 aqm_afd_fair_cap(const struct aqm_shadow *sh, u32 unit)
{
	u32 rem;
	u64 q;

	/* total / unit >= 2^29 entries: the controller's saturation */
	if (sh->total >= (u64)unit << (61 - AQM_PI_SHIFT))
		return AQM_AFD_FAIR_MAX;
	/*
	 * total / unit rounded up to 2^-32 entry, so that m_fair * unit at
	 * the cap is never below the total (rounding down would leave the
	 * heaviest flow a drop probability of about 2^-32 m_i). q < 2^29 and
	 * rem < unit < 2^17: no product overflows.
	 */
	q = div_u64_rem(sh->total, unit, &rem);
	q = (q << AQM_PI_SHIFT) + DIV_ROUND_UP_ULL((u64)rem << AQM_PI_SHIFT, unit);
	return max_t(s64, q, (s64)sh->size << AQM_PI_SHIFT);
}

#endif /* __NET_AQM_AFD_H */
