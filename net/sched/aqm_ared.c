// SPDX-License-Identifier: GPL-2.0
/*
 * aqm_ared.c - Adaptive RED's configuration, idle decay and adaptation.
 *
 * See include/net/aqm_ared.h for the algorithm and its scales.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/math64.h>
#include <linux/time64.h>
#include <net/aqm_ared.h>
#include <net/aqm_exp.h>

/**
 * aqm_ared_weight() - Floyd et al.'s EWMA weight for a link rate
 * @pps:	link rate C, packets per second, >= 1
 *
 * w = 1 - exp(-1/C) = 1 - 2^(-log2(e) / C).
 *
 * Return: w as a fraction of 2^32, at least 1.
 */
u32 aqm_ared_weight(u64 pps)
{
	u64 w = AQM_PI_ONE - aqm_exp2_neg(div64_u64(AQM_LOG2E_Q32, pps ?: 1));

	return clamp_t(u64, w, 1, U32_MAX);
}
EXPORT_SYMBOL_GPL(aqm_ared_weight);

/**
 * aqm_ared_params_set() - fill a configuration
 * @p:		output; left alone on error
 * @min_th:	min_th, queue units
 * @max_th:	max_th, queue units, > @min_th, < 2^31
 * @pps:	link rate C, packets per second, for the EWMA weight
 * @interval:	adaptation interval in ns, 0 for a fixed max_p
 * @gentle:	the gentle region
 *
 * Return: 0, or -EINVAL when the thresholds are not ordered.
 */
int aqm_ared_params_set(struct aqm_ared_params *p, u32 min_th, u32 max_th,
			u64 pps, u64 interval, bool gentle)
{
	int err = aqm_ared_curve_set(p, min_th, max_th, gentle);

	if (err)
		return err;
	p->w = aqm_ared_weight(pps);
	p->interval = interval;
	return 0;
}
EXPORT_SYMBOL_GPL(aqm_ared_params_set);

/**
 * aqm_ared_vars_init() - start with an empty, idle queue
 * @v:		state
 * @p:		configuration
 * @max_p:	initial max_p, fraction of 2^32, in (0, 1]
 * @now:	current time, ns
 */
void aqm_ared_vars_init(struct aqm_ared_vars *v,
			const struct aqm_ared_params *p, u64 max_p, u64 now)
{
	*v = (struct aqm_ared_vars) {
		.max_p = max_p,
		.count = -1,
		.idle_since = now ?: 1,
		.next_adapt = now + p->interval,
	};
}
EXPORT_SYMBOL_GPL(aqm_ared_vars_init);

/**
 * aqm_ared_idle_end() - decay the average over an idle period that ends
 * @p:		configuration
 * @v:		state, v->idle_since != 0
 * @now:	current time, ns
 *
 * avg *= (1 - w)^(t C) = exp(-t) = 2^(-t log2(e)), t the idle seconds.
 */
void aqm_ared_idle_end(const struct aqm_ared_params *p,
		       struct aqm_ared_vars *v, u64 now)
{
	u64 t = now > v->idle_since ? now - v->idle_since : 0;
	u64 k, decay;

	v->idle_since = 0;
	/* an uncongested queue idles between most arrivals with nothing to
	 * decay: skip the division
	 */
	if (!v->avg)
		return;
	/* more than 32 s: exp(-t) < 2^-46, nothing is left */
	if (t >= 32ULL * NSEC_PER_SEC) {
		v->avg = 0;
		return;
	}
	/* t seconds times log2(e), Q32: t < 2^35 ns, so the product fits
	 * 128 bits and the quotient 64
	 */
	k = mul_u64_u64_div_u64(t, AQM_LOG2E_Q32, NSEC_PER_SEC);
	decay = aqm_exp2_neg(k);
	v->avg = mul_u64_u64_shr(v->avg, decay, 32);
}
EXPORT_SYMBOL_GPL(aqm_ared_idle_end);

/**
 * aqm_ared_adapt() - take the adaptation steps of the intervals that ended
 * @p:		configuration (interval 0: nothing to do)
 * @v:		state
 * @now:	current time, ns
 *
 * Call on every arrival and departure before the average moves. The first
 * interval that ended saw the average as it is; the later ones ended with
 * nothing arriving or leaving, with the average decaying if the queue was
 * idle: each takes its step from the average decayed to its end. At most
 * AQM_ARED_CATCH_UP steps are taken, so the work is bounded; with a
 * constant average, the first interval that takes no step ends them.
 */
void aqm_ared_adapt(const struct aqm_ared_params *p, struct aqm_ared_vars *v,
		    u64 now)
{
	u64 n, i, avg = v->avg, end = v->next_adapt;

	if (!p->interval || now < v->next_adapt)
		return;
	n = div64_u64(now - v->next_adapt, p->interval) + 1;
	v->next_adapt += n * p->interval;
	for (i = 0; i < min_t(u64, n, AQM_ARED_CATCH_UP); i++) {
		if (v->idle_since && end > v->idle_since) {
			struct aqm_ared_vars tmp = *v;

			aqm_ared_idle_end(p, &tmp, end);
			avg = tmp.avg;
		}
		if (aqm_ared_step(p, v, avg, AQM_ARED_MAXP_MAX))
			v->adapts++;
		else if (!v->idle_since)
			break;	/* the same average: no later step moves */
		end += p->interval;
	}
}
EXPORT_SYMBOL_GPL(aqm_ared_adapt);
