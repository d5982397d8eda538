/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqm_blue.h - the BLUE marking probability p_m, shared by the linux-aqm
 * blue qdisc and, per bin, by sfb.
 *
 * W. Feng, D. Kandlur, D. Saha, K. Shin, "The BLUE active queue management
 * algorithms", IEEE/ACM ToN 10(4), 2002, section III, Fig. 3:
 *
 *   upon packet loss (or Q_len > L) event:
 *     if (now - last_update) > freeze_time:
 *       p_m := p_m + delta1;  last_update := now
 *   upon link idle event:
 *     if (now - last_update) > freeze_time:
 *       p_m := p_m - delta2;  last_update := now
 *
 * p_m is clamped to [0, 1]. The paper suggests randomizing freeze_time to
 * avoid global synchronization; with @randomize every interval is drawn
 * uniformly from [freeze_time / 2, 3 freeze_time / 2], mean freeze_time.
 *
 * The state keeps the end of the current freeze interval (@next) instead of
 * last_update, so that a change is allowed at now >= next: at nanosecond
 * resolution ">=" and the paper's ">" are the same rule, and ">=" makes an
 * idle queue lose exactly one delta2 per full freeze_time.
 *
 * Idle decay without a timer: while no packet at all comes the owner gets
 * no event, so the decrements that a polled idle link would have taken are
 * applied in closed form, from elapsed time, on the next enqueue, dequeue
 * or stats dump (aqm_blue_idle()). Hours of idleness cost one division and
 * end at p_m = 0 without overflow.
 *
 * Fixed point: p_m is an s64 in units of 2^-AQM_BLUE_SHIFT, AQM_BLUE_ONE
 * = 2^32 = 1.0 (the scale of include/net/aqm_pi.h, so aqm_prob_hit() takes
 * it as is). delta1 and delta2 are u64 in the same unit, in [1, 2^32],
 * rounded up from the configured rational (aqm_blue_delta_from_ratio()) so
 * that delta = 1/n reaches 1.0 (or 0) in exactly n steps, as in real
 * arithmetic: 0.01 is 42949673, 0.001 is 4294968.
 *
 * Memory: struct aqm_blue_params 24 bytes, struct aqm_blue_vars 16 bytes.
 */
#ifndef __NET_AQM_BLUE_H
#define __NET_AQM_BLUE_H

#include <linux/errno.h>
#include <linux/math.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/random.h>
#include <linux/time64.h>
#include <linux/types.h>
#include <net/aqm_pi.h>

#define AQM_BLUE_SHIFT		AQM_PI_SHIFT
#define AQM_BLUE_ONE		AQM_PI_ONE

/**
 * struct aqm_blue_params - configuration of one BLUE probability
 * @delta1:	increment on a loss event, 2^-AQM_BLUE_SHIFT units, in
 *		[1, AQM_BLUE_ONE]
 * @delta2:	decrement on an idle event, same unit and range
 * @freeze_us:	freeze_time, the least time between two changes of p_m,
 *		microseconds, in [0, U32_MAX - 1]; 0: none, every event
 *		moves p_m (Linux's sch_sfb, the paper's Fig. 14)
 * @randomize:	draw every freeze interval from [freeze_time / 2,
 *		3 freeze_time / 2] instead of using freeze_time itself
 */
struct aqm_blue_params {
	u64 delta1;
	u64 delta2;
	u32 freeze_us;
	bool randomize;
};

/**
 * struct aqm_blue_vars - state of one BLUE probability
 * @p_m:	marking/dropping probability, 2^-AQM_BLUE_SHIFT units,
 *		in [0, AQM_BLUE_ONE]
 * @next:	end of the current freeze interval, ns (the owner's clock,
 *		ktime_get_ns()): p_m does not change before it
 */
struct aqm_blue_vars {
	s64 p_m;
	u64 next;
};

/**
 * aqm_blue_vars_init() - p_m = 0, free to change at once
 * @vars:	state to initialize
 * @now:	current time, ns
 */
static inline void aqm_blue_vars_init(struct aqm_blue_vars *vars, u64 now)
{
	vars->p_m = 0;
	vars->next = now;
}

/**
 * aqm_blue_delta_from_ratio() - delta1 or delta2 from a rational num / den
 * @num:	numerator, > 0
 * @den:	denominator, >= @num
 * @delta:	output: ceil(num / den * 2^AQM_BLUE_SHIFT), in [1, AQM_BLUE_ONE]
 *
 * Exact for any 64-bit @num and @den (long division, 32 steps); used at
 * configuration time only. @delta is left alone on error.
 *
 * Return: 0, or -EINVAL when the ratio is not in (0, 1].
 */
static inline int aqm_blue_delta_from_ratio(u64 num, u64 den, u64 *delta)
{
	u64 q, r;
	int i;

	if (!num || num > den)
		return -EINVAL;
	/* num <= den: the integer part is 1 when num == den, else 0 */
	q = num == den;
	r = q ? 0 : num;
	for (i = 0; i < AQM_BLUE_SHIFT; i++) {
		bool carry = r >> 63;

		r <<= 1;
		q <<= 1;
		if (carry || r >= den) {
			r -= den;
			q |= 1;
		}
	}
	*delta = q + !!r;
	return 0;
}

/**
 * aqm_blue_freeze_ns() - length of the next freeze interval
 * @params:	configuration
 * @rnd:	a uniform random u32 (used with @params->randomize only)
 *
 * Return: freeze_time in ns, or with @params->randomize a value uniform in
 * [freeze_time / 2, 3 freeze_time / 2] at microsecond granularity.
 */
static inline u64 aqm_blue_freeze_ns(const struct aqm_blue_params *params,
				     u32 rnd)
{
	u64 f = (u64)params->freeze_us * NSEC_PER_USEC;

	if (!params->randomize)
		return f;
	return f / 2 + (u64)reciprocal_scale(rnd, params->freeze_us + 1) *
		       NSEC_PER_USEC;
}

static inline u64 aqm_blue_next_freeze(const struct aqm_blue_params *params)
{
	return aqm_blue_freeze_ns(params,
				  params->randomize ? get_random_u32() : 0);
}

/**
 * enum aqm_blue_event - what an arrival means for p_m
 * @AQM_BLUE_NONE:	nothing
 * @AQM_BLUE_ABOVE_L:	the queue is above the threshold L: a loss event
 *			of the paper's variant; the packet may still enter
 * @AQM_BLUE_OVERFLOW:	the queue is full: the packet is dropped, a loss
 *			event
 */
enum aqm_blue_event {
	AQM_BLUE_NONE,
	AQM_BLUE_ABOVE_L,
	AQM_BLUE_OVERFLOW,
};

/**
 * aqm_blue_classify() - the event an arrival raises
 * @qlen:	queue length before the arrival, packets or bytes
 * @len:	the arrival in the same unit: 1 packet, or its size in bytes
 * @limit:	hard limit, same unit
 * @threshold:	L, same unit; 0: off
 *
 * Overflow when @qlen + @len exceeds @limit (for packets: qlen >= limit),
 * Q_len > L otherwise (Fig. 3).
 *
 * Return: an enum aqm_blue_event.
 */
static inline enum aqm_blue_event
aqm_blue_classify(u32 qlen, u32 len, u32 limit, u32 threshold)
{
	if ((u64)qlen + len > limit)
		return AQM_BLUE_OVERFLOW;
	if (threshold && qlen > threshold)
		return AQM_BLUE_ABOVE_L;
	return AQM_BLUE_NONE;
}

/**
 * aqm_blue_increment() - a loss event: queue overflow, or queue above L
 * @params:	configuration
 * @vars:	state
 * @now:	current time, ns
 *
 * p_m += delta1, clamped at 1.0, unless p_m changed less than a freeze
 * interval ago. As in the paper, an event that finds p_m already at 1.0
 * still starts a new freeze interval.
 *
 * Return: true when p_m moved.
 */
static inline bool aqm_blue_increment(const struct aqm_blue_params *params,
				      struct aqm_blue_vars *vars, u64 now)
{
	s64 old = vars->p_m;

	if (params->freeze_us) {
		if (now < vars->next)
			return false;
		vars->next = now + aqm_blue_next_freeze(params);
	}
	vars->p_m = min_t(s64, old + (s64)params->delta1, AQM_BLUE_ONE);
	return vars->p_m != old;
}

/**
 * aqm_blue_idle() - idle events of a queue empty since @since
 * @params:	configuration
 * @vars:	state
 * @since:	time the queue became empty, ns, <= @now
 * @now:	current time, ns
 *
 * The owner calls this when the queue becomes empty (@since == @now: one
 * idle event, p_m -= delta2 unless frozen) and whenever it runs while the
 * queue is still empty (enqueue, dequeue, stats dump). A link polled all
 * along would have taken one decrement at each end of a freeze interval
 * inside [@since, @now]: the first at max(next, @since), then one every
 * freeze_time (the mean interval when randomized). Those are applied here
 * in closed form, so calling again at the same @now changes nothing.
 * p_m saturates at 0; nothing overflows for any @now - @since. Without a
 * freeze time (@params->freeze_us 0) a call is one event, whatever @since:
 * a saturating subtraction, no division (aqm_blue_decrement(), sfb).
 *
 * Return: the number of decrements that moved p_m.
 */
static inline u64 aqm_blue_idle(const struct aqm_blue_params *params,
				struct aqm_blue_vars *vars, u64 since, u64 now)
{
	u64 f = (u64)params->freeze_us * NSEC_PER_USEC;
	u64 first = max(vars->next, since);
	u64 n, to_zero;

	if (!f) {
		if (vars->p_m <= 0)
			return 0;
		vars->p_m = max_t(s64, vars->p_m - (s64)params->delta2, 0);
		return 1;
	}
	if (now < first)
		return 0;
	n = div64_u64(now - first, f) + 1;
	/* (n - 1) * f <= now - first: no overflow */
	vars->next = first + (n - 1) * f + aqm_blue_next_freeze(params);
	if (vars->p_m <= 0)
		return 0;
	/* p_m <= 2^32 and delta2 >= 1: to_zero <= 2^32 */
	to_zero = DIV64_U64_ROUND_UP((u64)vars->p_m, params->delta2);
	if (n >= to_zero) {
		vars->p_m = 0;
		return to_zero;
	}
	/* n < to_zero, so n * delta2 < p_m: no overflow */
	vars->p_m -= (s64)(n * params->delta2);
	return n;
}

/**
 * aqm_blue_decrement() - one idle event (queue empty, link idle) at @now
 * @params:	configuration
 * @vars:	state
 * @now:	current time, ns
 *
 * p_m -= delta2, clamped at 0, unless p_m changed less than a freeze
 * interval ago.
 *
 * Return: true when p_m moved.
 */
static inline bool aqm_blue_decrement(const struct aqm_blue_params *params,
				      struct aqm_blue_vars *vars, u64 now)
{
	return aqm_blue_idle(params, vars, now, now) != 0;
}

#endif /* __NET_AQM_BLUE_H */
