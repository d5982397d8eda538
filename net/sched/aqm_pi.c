// SPDX-License-Identifier: GPL-2.0
/*
 * aqm_pi.c - discrete PI controller shared by the linux-aqm qdiscs.
 *
 * See include/net/aqm_pi.h for the control law and its fixed-point scales.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/time64.h>
#include <net/aqm_pi.h>

/**
 * aqm_pi_gain_from_ratio() - convert a rational gain to the controller scale
 * @num:	numerator
 * @den:	denominator, > 0
 * @gain:	result, num / den * 2^AQM_PI_GAIN_SHIFT, rounded down
 *
 * Return: 0, -EINVAL when @den is 0, -ERANGE when num / den >= 2^15.
 */
int aqm_pi_gain_from_ratio(u64 num, u64 den, u64 *gain)
{
	if (!den)
		return -EINVAL;
	if (div64_u64(num, den) >= BIT_ULL(63 - AQM_PI_GAIN_SHIFT))
		return -ERANGE;
	*gain = mul_u64_u64_div_u64(num, BIT_ULL(AQM_PI_GAIN_SHIFT), den);
	return 0;
}
EXPORT_SYMBOL_GPL(aqm_pi_gain_from_ratio);

/* gain * err in 2^-AQM_PI_SHIFT units, saturated at +-AQM_PI_SAT. */
static s64 aqm_pi_term(u64 gain, s64 err)
{
	u64 mag = err < 0 ? -(u64)err : (u64)err;
	u64 t;

	if (!gain || !mag)
		return 0;
	/* product < 2^77, so after the shift t < 2^61 */
	if (fls64(gain) + fls64(mag) > 61 + AQM_PI_GAIN_SHIFT - AQM_PI_SHIFT)
		t = AQM_PI_SAT;
	else
		t = mul_u64_u64_shr(gain, mag, AQM_PI_GAIN_SHIFT - AQM_PI_SHIFT);
	return err < 0 ? -(s64)t : (s64)t;
}

/**
 * aqm_pi_vars_init() - start a controller
 * @vars:	state to initialise
 * @params:	configuration
 * @x0:		initial output, clamped to [x_min, x_max]
 * @now:	current time, ns; the first sample is due at @now + T
 *
 * The queue is taken as empty at start: q(-1) = 0.
 */
void aqm_pi_vars_init(struct aqm_pi_vars *vars,
		      const struct aqm_pi_params *params, s64 x0, u64 now)
{
	vars->x = clamp(x0, params->x_min, params->x_max);
	vars->qold = 0;
	vars->samples = 0;
	vars->next = now + params->tupdate;
}
EXPORT_SYMBOL_GPL(aqm_pi_vars_init);

/**
 * aqm_pi_sample_in() - apply @nsamples consecutive samples that all saw @q,
 * with an exogenous input
 * @params:	controller configuration
 * @vars:	controller state
 * @q:		queue length seen by every one of the samples
 * @nsamples:	number of samples, >= 1
 * @in_first:	input u of the first sample (queue units, signed)
 * @in_rest:	input u of each of the others
 *
 * Each sample adds g_in * u to the PI law: REM's rate mismatch (arrivals
 * minus capacity over the interval, AQM/ECN paper eq. 2). The first sample
 * uses q(k-1) = vars->qold; the others see q(k) = q(k-1) = @q and the same
 * input, so each moves x by the same step, (g_new - g_old) * e +
 * g_in * @in_rest, of one sign: clamping once after them equals clamping
 * after each, and their sum is applied in closed form.
 */
void aqm_pi_sample_in(const struct aqm_pi_params *params,
		      struct aqm_pi_vars *vars, u32 q, u64 nsamples,
		      s64 in_first, s64 in_rest)
{
	s64 e = (s64)q - params->qref;
	s64 eold = (s64)vars->qold - params->qref;
	s64 d, x;

	/* three terms of at most 2^61 each: no overflow, then bounded so
	 * that x + d cannot overflow either
	 */
	d = aqm_pi_term(params->g_new, e) - aqm_pi_term(params->g_old, eold) +
	    aqm_pi_term(params->g_in, in_first);
	d = clamp(d, -2 * AQM_PI_SAT, 2 * AQM_PI_SAT);
	if (params->falling)
		d = -d;
	x = clamp(vars->x + d, params->x_min, params->x_max);

	if (nsamples > 1) {
		u64 steps = nsamples - 1;
		u64 room, step;

		/* (g_new - g_old) * e, without two saturated terms cancelling */
		if (params->g_new >= params->g_old)
			d = aqm_pi_term(params->g_new - params->g_old, e);
		else
			d = -aqm_pi_term(params->g_old - params->g_new, e);
		d += aqm_pi_term(params->g_in, in_rest);
		if (params->falling)
			d = -d;
		if (d > 0) {
			room = params->x_max - x;
			step = d;
		} else {
			room = x - params->x_min;
			step = -(u64)d;
		}
		if (step && steps > div64_u64(room, step))
			x = d > 0 ? params->x_max : params->x_min;
		else if (step)
			x += d > 0 ? (s64)(steps * step) : -(s64)(steps * step);
	}

	vars->x = x;
	vars->qold = q;
	vars->samples += nsamples;
}
EXPORT_SYMBOL_GPL(aqm_pi_sample_in);

/**
 * aqm_pi_sample() - apply @nsamples consecutive samples that all saw @q
 * @params:	controller configuration
 * @vars:	controller state
 * @q:		queue length seen by every one of the samples
 * @nsamples:	number of samples, >= 1
 *
 * The PI law alone: aqm_pi_sample_in() with no input.
 */
void aqm_pi_sample(const struct aqm_pi_params *params,
		   struct aqm_pi_vars *vars, u32 q, u64 nsamples)
{
	aqm_pi_sample_in(params, vars, q, nsamples, 0, 0);
}
EXPORT_SYMBOL_GPL(aqm_pi_sample);

/**
 * aqm_pi_catch_up() - take all samples due at @now (slow path of advance)
 * @params:	configuration
 * @vars:	state, with vars->next <= @now
 * @q:		queue length since the previous call
 * @now:	current time, ns
 */
void aqm_pi_catch_up(const struct aqm_pi_params *params,
		     struct aqm_pi_vars *vars, u32 q, u64 now)
{
	aqm_pi_sample(params, vars, q, aqm_pi_due(params, vars, now));
}
EXPORT_SYMBOL_GPL(aqm_pi_catch_up);

/**
 * aqm_pi_design() - gains and sampling period from Hollot's PI design rule
 * @d:	rate, rtt_us, flows and optionally tupdate in; g_new, g_old and
 *	tupdate out (see include/net/aqm_pi.h for the derivation)
 *
 * Runs at configuration time only.
 *
 * Return: 0, or -ERANGE when the inputs are out of range or give no stable
 * controller (fewer than 1/40 packet per flow per round trip, a sampling
 * period so long that b would not be positive, or a bandwidth-delay
 * product so large that a - b is below 2^-48 per packet).
 */
int aqm_pi_design(struct aqm_pi_design *d)
{
	u64 rc_us, u, uhi, u2, s24, t, base, corr, two_n;

	if (!d->rate || d->rate > BIT_ULL(28) ||
	    d->rtt_us < 1000 || d->rtt_us > 10000000 ||
	    !d->flows || d->flows > 65535)
		return -ERANGE;
	if (!d->tupdate)
		d->tupdate = (u64)d->rtt_us * NSEC_PER_USEC / 40;

	two_n = 2ULL * d->flows;
	rc_us = d->rate * d->rtt_us;		/* R*C in 10^-6 packets */
	/* u = 2N / RC < 80, or b would be negative with T = R/40 */
	if (two_n * USEC_PER_SEC >= 80 * rc_us)
		return -ERANGE;
	u = mul_u64_u64_div_u64(two_n * USEC_PER_SEC, BIT_ULL(32), rc_us);
	/* S = sqrt(1 + u^2): Q32 argument shifted to Q48, root in Q24 */
	uhi = u >> 16;
	s24 = int_sqrt64((BIT_ULL(32) + uhi * uhi) << 16);
	u2 = mul_u64_u64_shr(u, u, 32);			/* Q32 */
	t = mul_u64_u64_shr(u2, s24, 24);		/* S u^2, Q32 */
	/* base = S u^2 / RC in gain units: t * 2^16 * 10^6 / (R C) */
	if (fls64(t) + 16 + 20 > fls64(rc_us) + 61)
		return -ERANGE;
	base = mul_u64_u64_div_u64(t, BIT_ULL(16) * USEC_PER_SEC, rc_us);
	/* u T / (2R), Q32, must stay below 1 for b > 0 */
	corr = mul_u64_u64_div_u64(u, d->tupdate, 2000ULL * d->rtt_us);
	if (corr >= BIT_ULL(32))
		return -ERANGE;
	corr = mul_u64_u64_shr(base, corr, 32);
	/* a huge R*C leaves no integral gain (a - b) at this scale */
	if (!corr)
		return -ERANGE;
	d->g_new = base + corr;
	d->g_old = base - corr;
	return 0;
}
EXPORT_SYMBOL_GPL(aqm_pi_design);
