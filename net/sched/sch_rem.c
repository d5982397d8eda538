// SPDX-License-Identifier: GPL-2.0
/*
 * sch_rem.c - Random Exponential Marking.
 *
 * S. Athuraliya, V. H. Li, S. H. Low, Q. Yin, "REM: active queue
 * management", IEEE Network 15(3), 2001, as run beside PI and ARED in
 * L. Le, J. Aikat, K. Jeffay, F. D. Smith, "The effects of active queue
 * management and explicit congestion notification on web performance"
 * (the AQM/ECN paper, section II).
 *
 * A FIFO whose arriving packets are dropped (or CE-marked with ecn) with
 * probability m = 1 - phi^(-p), p a congestion "price" updated every T from
 * the queue mismatch and the rate mismatch (AQM/ECN paper eq. 2):
 *
 *   p(k+1) = max(0, p(k) + gamma (alpha (b(k) - b*) + x(k) - c))
 *
 * b the queue, b* its target (qref), x the arrivals during the last period
 * and c what the link sends in one (rate * T). Without a rate, the rate
 * mismatch is estimated from the queue, x(k) - c = b(k) - b(k-1), as the
 * paper notes REM may ("the rate mismatch can be detected by comparing the
 * instantaneous queue length with its previous sampled value"): the price
 * then follows the PI law with a = gamma (1 + alpha), b = gamma.
 *
 * Units: the price is in packets, as in REM. In bytemode b, b*, x and c
 * are bytes over avpkt, and each packet's probability is scaled by its
 * size over the mean packet size (eq. 3), as sch_pi does. In packet mode
 * b and b* are packets, and x and c still bytes over avpkt: c is the
 * rate's bytes, so x counts the arrivals' bytes too, and x - c is 0 at
 * full load whatever the packets' size or segments (counting packets
 * against c in packets of avpkt bytes held the queue (1514 / avpkt - 1) T
 * / alpha above qref with full-size frames: 10.3 ms with avpkt 1000).
 *
 * The price update is the library's PI controller with an input
 * (aqm_pi_sample_in()), run lazily from enqueue, dequeue and stats dumps:
 * no timer. Each update also computes m (aqm_rem_prob()); per packet there
 * is one ktime read, one compare and the Bernoulli trial.
 *
 * Accounting, as sch_pi and sch_red: every early drop or CE mark counts an
 * overlimit; an early drop returns NET_XMIT_CN, a drop at `limit`
 * NET_XMIT_DROP. GSO packets are not segmented (as sch_pi).
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/random.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <net/aqm_compat.h>
#include <net/aqm_pi.h>
#include <net/aqm_qdisc.h>
#include <net/aqm_exp.h>
#include <net/inet_ecn.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include <uapi/linux/pkt_aqm.h>

#define REM_DEF_LIMIT	1000
#define REM_DEF_QREF	24		/* packets: the AQM/ECN paper's target */
#define REM_DEF_AVPKT	1000
#define REM_DEF_TUPDATE	2000		/* us */
/* REM's parameters: gamma 0.001, alpha 0.1, phi 1.001 */
#define REM_DEF_GAMMA	((struct aqm_ratio){ .num = 1, .den = 1000 })
#define REM_DEF_ALPHA	((struct aqm_ratio){ .num = 1, .den = 10 })
#define REM_DEF_PHI	((struct aqm_ratio){ .num = 1001, .den = 1000 })
/* the rate mismatch is carried in 1/256 queue units, so that a capacity
 * of 2.5 packets per period stays 2.5
 */
#define REM_IN_SHIFT	8

/**
 * struct rem_cfg - what netlink set
 * @rate:	link capacity c, bytes/s; 0: the rate mismatch from the queue
 * @gamma:	price step
 * @alpha:	weight of the queue mismatch
 * @phi:	base of the marking function, > 1
 * @ecn_ceil:	largest probability at which ECT packets are marked
 * @limit:	hard limit, packets
 * @qref:	target queue b*, packets or bytes; 0: REM_DEF_QREF packets
 * @tupdate_us:	price update period
 * @avpkt:	bytes per packet: of @rate in packet mode, of one packet of
 *		price in bytemode
 * @ecn:	mark ECT packets instead of dropping them
 * @bytemode:	queue measured in bytes, per-packet probability by size
 */
struct rem_cfg {
	u64 rate;
	struct aqm_ratio gamma;
	struct aqm_ratio alpha;
	struct aqm_ratio phi;
	struct aqm_ratio ecn_ceil;
	u32 limit;
	u32 qref;
	u32 tupdate_us;
	u32 avpkt;
	bool ecn;
	bool bytemode;
};

/**
 * struct rem_sched_data - per-qdisc state
 * @cfg:	configuration as set
 * @params:	the price controller derived from @cfg
 * @vars:	its state; vars.x is the price, AQM_PI_ONE = 1 packet
 * @log2phi:	log2(phi), Q32
 * @cap:	c: queue units one period sends, 2^-REM_IN_SHIFT units
 * @prob:	m = 1 - phi^-price, AQM_PI_ONE = 1.0, from the last update
 * @ecn_ceil:	cfg.ecn_ceil in the scale of @prob
 * @arrivals:	x: bytes that arrived since the last update
 * @len:	mean packet length (bytemode), its reciprocal refreshed
 *		every update
 * @stats:	counters exported in tc_rem_xstats
 */
struct rem_sched_data {
	struct rem_cfg cfg;
	struct aqm_pi_params params;
	struct aqm_pi_vars vars;
	u64 log2phi;
	u64 cap;
	s64 prob;
	u64 ecn_ceil;
	u64 arrivals;
	struct aqm_mean_len len;
	struct tc_rem_xstats stats;
};

/* The controller's queue: bytes of backlog in bytemode, else packets. */
static u32 rem_queue(const struct Qdisc *sch, bool bytemode)
{
	return bytemode ? sch->qstats.backlog : sch->q.qlen;
}

/* Take the updates due now; call before the queue changes. */
static void rem_advance(struct Qdisc *sch, struct rem_sched_data *q)
{
	const struct aqm_pi_params *p = &q->params;
	struct aqm_pi_vars *v = &q->vars;
	u64 now = ktime_get_ns(), n;
	s64 in_first = 0, in_rest = 0;

	if (likely(now < v->next))
		return;
	n = aqm_pi_due(p, v, now);
	if (q->cfg.rate) {
		/* x - c for the period that just ended (every arrival since
		 * the last update fell in it: an arrival takes the updates
		 * due before counting itself), then -c for each idle one
		 */
		u64 x = q->arrivals << REM_IN_SHIFT;

		/* bytes over avpkt in packet mode: one division a period */
		if (!q->cfg.bytemode)
			x = div_u64(x, q->cfg.avpkt);
		in_first = (s64)x - (s64)q->cap;
		in_rest = -(s64)q->cap;
	}
	q->arrivals = 0;
	aqm_pi_sample_in(p, v, rem_queue(sch, q->cfg.bytemode), n, in_first,
			 in_rest);
	q->prob = aqm_rem_prob(v->x, q->log2phi);
	if (q->cfg.bytemode)
		aqm_mean_len_refresh(&q->len);
}

static int rem_qdisc_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			     struct sk_buff **to_free)
{
	struct rem_sched_data *q = qdisc_priv(sch);
	u32 len = qdisc_pkt_len(skb);
	s64 p;
	int ret;

	rem_advance(sch, q);
	/* x counts what is offered, dropped or not, in bytes */
	q->arrivals += len;

	if (unlikely(sch->q.qlen >= READ_ONCE(sch->limit))) {
		q->stats.forced_drops++;
		return qdisc_drop(skb, sch, to_free);
	}

	p = q->prob;
	if (q->cfg.bytemode)
		p = aqm_mean_len_scale(&q->len, p, len);
	if (p > 0 && aqm_prob_hit(p, get_random_u32())) {
		ret = aqm_qdisc_signal(skb, sch, to_free,
				       q->cfg.ecn && p <= q->ecn_ceil,
				       &q->stats.marks, &q->stats.early_drops);
		if (ret)
			return ret;
	}
	return qdisc_enqueue_tail(skb, sch);
}

static struct sk_buff *rem_qdisc_dequeue(struct Qdisc *sch)
{
	struct rem_sched_data *q = qdisc_priv(sch);

	rem_advance(sch, q);
	return qdisc_dequeue_head(sch);
}

static AQM_NLA_RANGE_CONST struct netlink_range_validation rem_limit_range = {
	.min = 1, .max = 1 << 20,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation rem_tupdate_range = {
	.min = 100, .max = USEC_PER_SEC,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation rem_avpkt_range = {
	.min = 40, .max = 65535,
};

/* up to 2^40 bytes/s (8.8 Tbit/s): rate * T * 2^8 stays below 2^63 */
static AQM_NLA_RANGE_CONST struct netlink_range_validation rem_rate_range = {
	.min = 0, .max = 1ULL << 40,
};

static const struct nla_policy rem_policy[TCA_REM_MAX + 1] = {
	[TCA_REM_LIMIT]	   = NLA_POLICY_FULL_RANGE(NLA_U32, &rem_limit_range),
	[TCA_REM_QREF]	   = NLA_POLICY_MIN(NLA_U32, 1),
	[TCA_REM_GAMMA]	   = AQM_NLA_POLICY_RATIO,
	[TCA_REM_ALPHA]	   = AQM_NLA_POLICY_RATIO,
	[TCA_REM_PHI]	   = AQM_NLA_POLICY_RATIO,
	[TCA_REM_TUPDATE]  = NLA_POLICY_FULL_RANGE(NLA_U32, &rem_tupdate_range),
	[TCA_REM_RATE]	   = NLA_POLICY_FULL_RANGE(NLA_U64, &rem_rate_range),
	[TCA_REM_ECN]	   = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_REM_ECN_CEIL] = AQM_NLA_POLICY_RATIO,
	[TCA_REM_BYTEMODE] = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_REM_AVPKT]	   = NLA_POLICY_FULL_RANGE(NLA_U32, &rem_avpkt_range),
};

static u32 rem_qref(const struct rem_cfg *c)
{
	if (c->qref)
		return c->qref;
	return c->bytemode ? REM_DEF_QREF * c->avpkt : REM_DEF_QREF;
}

/*
 * gain * num / (den * div) in the controller's scale, or -ERANGE when it is
 * not below AQM_PI_GAIN_MAX or a non-zero ratio rounds to 0. gain < 2^63,
 * num / den < 2^15.
 */
static int rem_gain(u64 gain, const struct aqm_ratio *r, u64 div, u64 *out)
{
	u64 den;

	if (check_mul_overflow(r->den, div, &den))
		return -ERANGE;
	/* the quotient must fit 63 bits: gain * num < 2^63 * den */
	if (fls64(gain) + fls64(r->num) > 63 + fls64(den) - 1)
		return -ERANGE;
	*out = mul_u64_u64_div_u64(gain, r->num, den);
	return *out || !r->num ? 0 : -ERANGE;
}

/**
 * struct rem_derived - what a configuration gives the datapath
 * @params:	the price controller
 * @log2phi:	log2(phi), Q32
 * @cap:	c in 2^-REM_IN_SHIFT queue units per period
 * @ecn_ceil:	the ECN ceiling in the probability scale
 */
struct rem_derived {
	struct aqm_pi_params params;
	u64 log2phi;
	u64 cap;
	u64 ecn_ceil;
};

/* Everything the datapath needs from @c; nothing is changed on error. */
static int rem_derive(const struct rem_cfg *c, struct rem_derived *d,
		      const struct nlattr *const *tb,
		      struct netlink_ext_ack *extack)
{
	u64 unit = c->bytemode ? c->avpkt : 1, gamma;
	struct aqm_ratio opa;
	u32 qref = rem_qref(c);

	if (!c->bytemode && qref >= c->limit) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_REM_QREF],
				    "qref must be below limit");
		return -EINVAL;
	}
	if (aqm_rem_log2_ratio(c->phi.num, c->phi.den, &d->log2phi)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_REM_PHI],
				    "phi must be above 1 + 8.3e-8 and below 16");
		return -EINVAL;
	}
	if (aqm_pi_gain_from_ratio(c->gamma.num, c->gamma.den, &gamma) ||
	    !gamma) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_REM_GAMMA],
				    "gamma must be a ratio in (0, 32768)");
		return -EINVAL;
	}
	if (div64_u64(c->alpha.num, c->alpha.den) >= BIT_ULL(15)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_REM_ALPHA],
				    "alpha must be a ratio below 32768");
		return -EINVAL;
	}

	d->params = (struct aqm_pi_params) {
		.tupdate = (u64)c->tupdate_us * NSEC_PER_USEC,
		.x_min = 0,
		.x_max = aqm_rem_price_max(d->log2phi),
		.qref = qref,
	};
	d->cap = 0;
	if (c->rate) {
		/* p += gamma alpha (b - b*) + gamma (x - c) */
		if (rem_gain(gamma, &c->alpha, unit, &d->params.g_new) ||
		    rem_gain(gamma, &(struct aqm_ratio){ 1, 1 },
			     unit << REM_IN_SHIFT, &d->params.g_in))
			goto range;
		/* c = rate * T in 2^-REM_IN_SHIFT queue units: bytes in
		 * bytemode, else packets of avpkt bytes
		 */
		d->cap = mul_u64_u64_div_u64(c->rate << REM_IN_SHIFT,
					     d->params.tupdate,
					     NSEC_PER_SEC *
					     (c->bytemode ? 1 : c->avpkt));
	} else {
		/* x - c = b(k) - b(k-1): the PI law, a = gamma (1 + alpha) */
		if (check_add_overflow(c->alpha.num, c->alpha.den, &opa.num))
			goto range;
		opa.den = c->alpha.den;
		if (rem_gain(gamma, &opa, unit, &d->params.g_new) ||
		    rem_gain(gamma, &(struct aqm_ratio){ 1, 1 }, unit,
			     &d->params.g_old))
			goto range;
	}
	if (aqm_ecn_ceil_from_ratio(&c->ecn_ceil, &d->ecn_ceil)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_REM_ECN_CEIL],
				    "ecn_ceil must be a probability in [0, 1]");
		return -EINVAL;
	}
	return 0;

range:
	NL_SET_ERR_MSG_ATTR(extack, tb[TCA_REM_GAMMA] ?: tb[TCA_REM_ALPHA],
			    "gamma and alpha give a price step out of range");
	return -EINVAL;
}

static int rem_change(struct Qdisc *sch, struct nlattr *opt,
		      struct netlink_ext_ack *extack)
{
	struct rem_sched_data *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_REM_MAX + 1];
	struct rem_cfg c = q->cfg;
	struct rem_derived d;
	int err;

	err = nla_parse_nested(tb, TCA_REM_MAX, opt, rem_policy, extack);
	if (err < 0)
		return err;

	err = AQM_NLA_RATIO_OPT(tb[TCA_REM_GAMMA], &c.gamma, extack, "gamma");
	if (err)
		return err;
	err = AQM_NLA_RATIO_OPT(tb[TCA_REM_ALPHA], &c.alpha, extack, "alpha");
	if (err)
		return err;
	err = AQM_NLA_RATIO_OPT(tb[TCA_REM_PHI], &c.phi, extack, "phi");
	if (err)
		return err;
	err = AQM_NLA_RATIO_OPT(tb[TCA_REM_ECN_CEIL], &c.ecn_ceil, extack,
				"ecn_ceil");
	if (err)
		return err;
	if (tb[TCA_REM_LIMIT])
		c.limit = nla_get_u32(tb[TCA_REM_LIMIT]);
	if (tb[TCA_REM_QREF])
		c.qref = nla_get_u32(tb[TCA_REM_QREF]);
	if (tb[TCA_REM_TUPDATE])
		c.tupdate_us = nla_get_u32(tb[TCA_REM_TUPDATE]);
	if (tb[TCA_REM_RATE])
		c.rate = nla_get_u64(tb[TCA_REM_RATE]);
	if (tb[TCA_REM_ECN])
		c.ecn = nla_get_u8(tb[TCA_REM_ECN]);
	if (tb[TCA_REM_BYTEMODE])
		c.bytemode = nla_get_u8(tb[TCA_REM_BYTEMODE]);
	if (tb[TCA_REM_AVPKT])
		c.avpkt = nla_get_u32(tb[TCA_REM_AVPKT]);
	if (tb[TCA_REM_BYTEMODE] && !tb[TCA_REM_QREF] &&
	    c.bytemode != q->cfg.bytemode)
		c.qref = 0;	/* the unit changed: back to the default */

	err = rem_derive(&c, &d, (const struct nlattr *const *)tb, extack);
	if (err)
		return err;

	sch_tree_lock(sch);
	if (d.params.tupdate != q->params.tupdate)
		q->vars.next = ktime_get_ns() + d.params.tupdate;
	if (c.bytemode != q->cfg.bytemode) {
		/* b(k-1) and x in the new unit, or the next update sees a
		 * jump
		 */
		q->vars.qold = rem_queue(sch, c.bytemode);
		q->arrivals = 0;
		aqm_mean_len_init(&q->len, c.avpkt);
	}
	q->cfg = c;
	q->params = d.params;
	q->log2phi = d.log2phi;
	q->cap = d.cap;
	q->ecn_ceil = d.ecn_ceil;
	/* a new phi or a lower ceiling on the price applies at once */
	q->vars.x = min(q->vars.x, q->params.x_max);
	q->prob = aqm_rem_prob(q->vars.x, q->log2phi);
	WRITE_ONCE(sch->limit, c.limit);

	aqm_qdisc_trim(sch, c.limit);
	sch_tree_unlock(sch);
	return 0;
}

static int rem_init(struct Qdisc *sch, struct nlattr *opt,
		    struct netlink_ext_ack *extack)
{
	struct rem_sched_data *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_REM_MAX + 1] = {};
	struct rem_derived d;
	int err;

	q->cfg = (struct rem_cfg) {
		.limit = REM_DEF_LIMIT,
		.tupdate_us = REM_DEF_TUPDATE,
		.avpkt = REM_DEF_AVPKT,
		.gamma = REM_DEF_GAMMA,
		.alpha = REM_DEF_ALPHA,
		.phi = REM_DEF_PHI,
		.ecn_ceil = AQM_ECN_CEIL_DEF,
	};
	aqm_mean_len_init(&q->len, REM_DEF_AVPKT);
	sch->limit = REM_DEF_LIMIT;
	err = rem_derive(&q->cfg, &d, (const struct nlattr *const *)tb, extack);
	if (err)
		return err;
	q->params = d.params;
	q->log2phi = d.log2phi;
	q->cap = d.cap;
	q->ecn_ceil = d.ecn_ceil;
	if (opt) {
		err = rem_change(sch, opt, extack);
		if (err)
			return err;
	}
	aqm_pi_vars_init(&q->vars, &q->params, 0, ktime_get_ns());
	q->prob = 0;
	return 0;
}

static int rem_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct rem_sched_data *q = qdisc_priv(sch);
	const struct rem_cfg *c = &q->cfg;
	struct nlattr *opts;

	opts = nla_nest_start(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (nla_put_u32(skb, TCA_REM_LIMIT, READ_ONCE(sch->limit)) ||
	    nla_put_u32(skb, TCA_REM_QREF, q->params.qref) ||
	    aqm_nla_put_ratio(skb, TCA_REM_GAMMA, c->gamma.num, c->gamma.den) ||
	    aqm_nla_put_ratio(skb, TCA_REM_ALPHA, c->alpha.num, c->alpha.den) ||
	    aqm_nla_put_ratio(skb, TCA_REM_PHI, c->phi.num, c->phi.den) ||
	    nla_put_u32(skb, TCA_REM_TUPDATE, c->tupdate_us) ||
	    nla_put_u64_64bit(skb, TCA_REM_RATE, c->rate, TCA_REM_PAD) ||
	    nla_put_u8(skb, TCA_REM_ECN, c->ecn) ||
	    aqm_nla_put_ratio(skb, TCA_REM_ECN_CEIL, c->ecn_ceil.num,
			      c->ecn_ceil.den) ||
	    nla_put_u8(skb, TCA_REM_BYTEMODE, c->bytemode) ||
	    nla_put_u32(skb, TCA_REM_AVPKT, c->avpkt))
		goto nla_put_failure;
	return nla_nest_end(skb, opts);

nla_put_failure:
	nla_nest_cancel(skb, opts);
	return -EMSGSIZE;
}

static int rem_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct rem_sched_data *q = qdisc_priv(sch);
	struct tc_rem_xstats st;

	/* called without the qdisc lock (since Linux 4.14): the lazy update
	 * must not race with enqueue and dequeue
	 */
	sch_tree_lock(sch);
	rem_advance(sch, q);
	st = q->stats;
	st.prob = (u32)min_t(s64, q->prob, U32_MAX);
	st.qlen_sampled = q->vars.qold;
	st.mean_pktlen = aqm_mean_len_bytes(&q->len);
	st.price = q->vars.x;
	st.samples = q->vars.samples;
	sch_tree_unlock(sch);
	return gnet_stats_copy_app(d, &st, sizeof(st));
}

static void rem_reset(struct Qdisc *sch)
{
	struct rem_sched_data *q = qdisc_priv(sch);

	qdisc_reset_queue(sch);
	aqm_pi_vars_init(&q->vars, &q->params, 0, ktime_get_ns());
	q->prob = 0;
	q->arrivals = 0;
}

static struct Qdisc_ops rem_qdisc_ops __read_mostly = {
	.id		= "rem",
	.priv_size	= sizeof(struct rem_sched_data),
	.enqueue	= rem_qdisc_enqueue,
	.dequeue	= rem_qdisc_dequeue,
	.peek		= qdisc_peek_dequeued,
	.init		= rem_init,
	.reset		= rem_reset,
	.change		= rem_change,
	.dump		= rem_dump,
	.dump_stats	= rem_dump_stats,
	.owner		= THIS_MODULE,
};

MODULE_ALIAS_NET_SCH("rem");

static int __init rem_module_init(void)
{
	return register_qdisc(&rem_qdisc_ops);
}

static void __exit rem_module_exit(void)
{
	unregister_qdisc(&rem_qdisc_ops);
}

module_init(rem_module_init);
module_exit(rem_module_exit);

MODULE_DESCRIPTION("Random Exponential Marking AQM (Athuraliya et al.)");
MODULE_LICENSE("GPL");
