// SPDX-License-Identifier: GPL-2.0
/*
 * sch_pi.c - Proportional-Integral AQM.
 *
 * C. V. Hollot, V. Misra, D. Towsley, W. Gong, "On designing improved
 * controllers for AQM routers supporting TCP flows", INFOCOM 2001, as
 * studied in L. Le, J. Aikat, K. Jeffay, F. D. Smith, "The effects of
 * active queue management and explicit congestion notification on web
 * performance" (the AQM/ECN paper).
 *
 * A FIFO whose arriving packets are dropped (or CE-marked with ecn) with a
 * probability p that a PI controller updates every T from the sampled
 * queue length q (AQM/ECN paper eq. 1):
 *
 *   p(kT) = p((k-1)T) + a (q(kT) - qref) - b (q((k-1)T) - qref)
 *
 * In bytemode q and qref are in bytes and each packet's probability is
 * scaled by its size over the mean packet size (eq. 3), so SYNs and pure
 * ACKs are rarely dropped. Packets beyond `limit` are always dropped.
 *
 * Accounting, as sch_red: every early drop or CE mark counts an overlimit;
 * an early drop returns NET_XMIT_CN, a drop at `limit` NET_XMIT_DROP.
 * GSO packets are not segmented: `limit` is in packets, so one cannot
 * overflow an empty queue, and in bytemode its probability is scaled by
 * its size (capped at 1.0), about the chance that one of its segments
 * would be hit.
 *
 * a, b and T are given, or derived from the link rate, the largest RTT and
 * the smallest number of flows by Hollot's design rule (aqm_pi_design()).
 * The controller runs lazily from enqueue, dequeue and stats dumps: no
 * timer (include/net/aqm_pi.h).
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <net/aqm_compat.h>
#include <net/aqm_pi.h>
#include <net/aqm_qdisc.h>
#include <net/inet_ecn.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include <uapi/linux/pkt_aqm.h>

#define PI_DEF_LIMIT	1000
#define PI_DEF_QREF	24		/* packets: the paper's smaller target */
#define PI_DEF_AVPKT	1000
/* Design defaults: Hollot's example, C = 3750 pkt/s (30 Mbit/s of
 * 1000-byte packets), R+ = 246 ms, N- = 60: a = 1.85e-5, b = 1.85e-5.
 */
#define PI_DEF_RATE	3750000ULL	/* bytes/s */
#define PI_DEF_RTT_US	246000
#define PI_DEF_FLOWS	60

/**
 * struct pi_cfg - what netlink set
 * @rate:	design rule link rate, bytes/s
 * @a:		gain on q(k) - qref as set; den == 0: derived
 * @b:		gain on q(k-1) - qref as set; den == 0: derived
 * @ecn_ceil:	largest probability at which ECT packets are marked
 * @limit:	hard limit, packets
 * @qref:	target queue, packets or bytes; 0: PI_DEF_QREF packets
 * @tupdate_us:	sampling period; 0: R+/40
 * @rtt_us:	design rule largest RTT
 * @flows:	design rule smallest number of flows
 * @avpkt:	bytes per packet to turn @rate into packets/s
 * @ecn:	mark ECT packets instead of dropping them
 * @bytemode:	queue measured in bytes, per-packet probability by size
 */
struct pi_cfg {
	u64 rate;
	struct aqm_ratio a;
	struct aqm_ratio b;
	struct aqm_ratio ecn_ceil;
	u32 limit;
	u32 qref;
	u32 tupdate_us;
	u32 rtt_us;
	u32 flows;
	u32 avpkt;
	bool ecn;
	bool bytemode;
};

/**
 * struct pi_sched_data - per-qdisc state
 * @cfg:	configuration as set
 * @params:	controller configuration derived from @cfg
 * @vars:	controller state; vars.x is the probability, AQM_PI_ONE = 1.0
 * @len:	mean packet length (bytemode), its reciprocal refreshed
 *		every sample
 * @ecn_ceil:	cfg.ecn_ceil in the scale of vars.x
 * @designed:	a and b came from the design rule
 * @stats:	counters exported in tc_pi_xstats
 */
struct pi_sched_data {
	struct pi_cfg cfg;
	struct aqm_pi_params params;
	struct aqm_pi_vars vars;
	struct aqm_mean_len len;
	u64 ecn_ceil;
	bool designed;
	struct tc_pi_xstats stats;
};

/* The controller's queue: bytes of backlog in bytemode, else packets. */
static u32 pi_queue(const struct Qdisc *sch, bool bytemode)
{
	return bytemode ? sch->qstats.backlog : sch->q.qlen;
}

static u32 pi_qlen(const struct Qdisc *sch, const struct pi_sched_data *q)
{
	return pi_queue(sch, q->cfg.bytemode);
}

/* Take the samples due now; call before the queue changes. */
static void pi_advance(struct Qdisc *sch, struct pi_sched_data *q)
{
	if (!aqm_pi_advance(&q->params, &q->vars, pi_qlen(sch, q),
			    ktime_get_ns()))
		return;
	if (q->cfg.bytemode)
		aqm_mean_len_refresh(&q->len);
}

static int pi_qdisc_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			    struct sk_buff **to_free)
{
	struct pi_sched_data *q = qdisc_priv(sch);
	s64 p;
	int ret;

	pi_advance(sch, q);

	if (unlikely(sch->q.qlen >= READ_ONCE(sch->limit))) {
		q->stats.forced_drops++;
		return qdisc_drop(skb, sch, to_free);
	}

	p = q->vars.x;
	if (q->cfg.bytemode)
		p = aqm_mean_len_scale(&q->len, p, qdisc_pkt_len(skb));
	if (p > 0 && aqm_prob_hit(p, get_random_u32())) {
		ret = aqm_qdisc_signal(skb, sch, to_free,
				       q->cfg.ecn && p <= q->ecn_ceil,
				       &q->stats.marks, &q->stats.early_drops);
		if (ret)
			return ret;
	}
	return qdisc_enqueue_tail(skb, sch);
}

static struct sk_buff *pi_qdisc_dequeue(struct Qdisc *sch)
{
	struct pi_sched_data *q = qdisc_priv(sch);

	pi_advance(sch, q);
	return qdisc_dequeue_head(sch);
}

static AQM_NLA_RANGE_CONST struct netlink_range_validation pi_limit_range = {
	.min = 1, .max = 1 << 20,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation pi_tupdate_range = {
	.min = 100, .max = USEC_PER_SEC,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation pi_rtt_range = {
	.min = USEC_PER_MSEC, .max = 10 * USEC_PER_SEC,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation pi_flows_range = {
	.min = 1, .max = 65535,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation pi_avpkt_range = {
	.min = 40, .max = 65535,
};

static const struct nla_policy pi_policy[TCA_PI_MAX + 1] = {
	[TCA_PI_LIMIT]	 = NLA_POLICY_FULL_RANGE(NLA_U32, &pi_limit_range),
	[TCA_PI_QREF]	 = NLA_POLICY_MIN(NLA_U32, 1),
	[TCA_PI_A]	 = AQM_NLA_POLICY_RATIO,
	[TCA_PI_B]	 = AQM_NLA_POLICY_RATIO,
	[TCA_PI_TUPDATE] = NLA_POLICY_FULL_RANGE(NLA_U32, &pi_tupdate_range),
	[TCA_PI_ECN]	 = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_PI_ECN_CEIL] = AQM_NLA_POLICY_RATIO,
	[TCA_PI_BYTEMODE] = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_PI_RATE]	 = NLA_POLICY_MIN(NLA_U64, 1),
	[TCA_PI_RTT]	 = NLA_POLICY_FULL_RANGE(NLA_U32, &pi_rtt_range),
	[TCA_PI_FLOWS]	 = NLA_POLICY_FULL_RANGE(NLA_U32, &pi_flows_range),
	[TCA_PI_AVPKT]	 = NLA_POLICY_FULL_RANGE(NLA_U32, &pi_avpkt_range),
	[TCA_PI_DESIGNED] = { .type = NLA_REJECT },
};

static u32 pi_qref(const struct pi_cfg *c)
{
	if (c->qref)
		return c->qref;
	return c->bytemode ? PI_DEF_QREF * c->avpkt : PI_DEF_QREF;
}

/* Controller parameters from a configuration; nothing is changed on error. */
static int pi_params(const struct pi_cfg *c, struct aqm_pi_params *p,
		     bool *designed, struct netlink_ext_ack *extack)
{
	struct aqm_pi_design d = {
		.rtt_us = c->rtt_us,
		.flows = c->flows,
		.tupdate = (u64)c->tupdate_us * NSEC_PER_USEC,
	};
	u32 qref = pi_qref(c);

	if (!c->bytemode && qref >= c->limit) {
		NL_SET_ERR_MSG_MOD(extack, "qref must be below limit");
		return -EINVAL;
	}

	*p = (struct aqm_pi_params) {
		.x_min = 0,
		.x_max = AQM_PI_ONE,
		.qref = qref,
	};

	if (c->a.den) {
		if (aqm_pi_gain_from_ratio(c->a.num, c->a.den, &p->g_new)) {
			NL_SET_ERR_MSG_MOD(extack, "a must be a ratio below 32768");
			return -EINVAL;
		}
		if (aqm_pi_gain_from_ratio(c->b.num, c->b.den, &p->g_old)) {
			NL_SET_ERR_MSG_MOD(extack, "b must be a ratio below 32768");
			return -EINVAL;
		}
		if (p->g_new <= p->g_old) {
			NL_SET_ERR_MSG_MOD(extack,
					   "a must be greater than b (a - b is the integral gain)");
			return -EINVAL;
		}
		p->tupdate = d.tupdate ?: (u64)c->rtt_us * NSEC_PER_USEC / 40;
		*designed = false;
		return 0;
	}

	d.rate = div_u64(c->rate, c->avpkt);
	if (aqm_pi_design(&d)) {
		NL_SET_ERR_MSG_MOD(extack,
				   "rate, rtt, flows and tupdate give no stable PI controller: set a and b");
		return -EINVAL;
	}
	p->g_new = d.g_new;
	p->g_old = d.g_old;
	if (c->bytemode) {
		/* the design is per packet; the queue is in bytes */
		p->g_new = div_u64(p->g_new, c->avpkt);
		p->g_old = div_u64(p->g_old, c->avpkt);
		/* at high rates the per-byte gains fall below the resolution
		 * and round to no integral part (1 Gbit/s: 139 and 139)
		 */
		if (p->g_new <= p->g_old) {
			NL_SET_ERR_MSG_MOD(extack,
					   "in bytemode the designed gains round to no integral part at this rate: set a and b, or use packet mode");
			return -EINVAL;
		}
	}
	p->tupdate = d.tupdate;
	*designed = true;
	return 0;
}

static int pi_change(struct Qdisc *sch, struct nlattr *opt,
		     struct netlink_ext_ack *extack)
{
	struct pi_sched_data *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_PI_MAX + 1];
	struct aqm_pi_params params;
	struct pi_cfg c = q->cfg;
	bool designed;
	u64 ecn_ceil;
	int err;

	err = nla_parse_nested(tb, TCA_PI_MAX, opt, pi_policy, extack);
	if (err < 0)
		return err;

	if (!!tb[TCA_PI_A] != !!tb[TCA_PI_B]) {
		NL_SET_ERR_MSG_MOD(extack, "a and b must be given together");
		return -EINVAL;
	}
	err = AQM_NLA_RATIO_OPT(tb[TCA_PI_A], &c.a, extack, "a");
	if (err)
		return err;
	err = AQM_NLA_RATIO_OPT(tb[TCA_PI_B], &c.b, extack, "b");
	if (err)
		return err;
	err = aqm_nla_get_ecn_ceil(tb[TCA_PI_ECN_CEIL], &c.ecn_ceil, &ecn_ceil, extack);
	if (err)
		return err;
	if (tb[TCA_PI_LIMIT])
		c.limit = nla_get_u32(tb[TCA_PI_LIMIT]);
	if (tb[TCA_PI_QREF])
		c.qref = nla_get_u32(tb[TCA_PI_QREF]);
	if (tb[TCA_PI_TUPDATE])
		c.tupdate_us = nla_get_u32(tb[TCA_PI_TUPDATE]);
	if (tb[TCA_PI_ECN])
		c.ecn = nla_get_u8(tb[TCA_PI_ECN]);
	if (tb[TCA_PI_BYTEMODE])
		c.bytemode = nla_get_u8(tb[TCA_PI_BYTEMODE]);
	if (tb[TCA_PI_RATE])
		c.rate = nla_get_u64(tb[TCA_PI_RATE]);
	if (tb[TCA_PI_RTT])
		c.rtt_us = nla_get_u32(tb[TCA_PI_RTT]);
	if (tb[TCA_PI_FLOWS])
		c.flows = nla_get_u32(tb[TCA_PI_FLOWS]);
	if (tb[TCA_PI_AVPKT])
		c.avpkt = nla_get_u32(tb[TCA_PI_AVPKT]);
	if (tb[TCA_PI_A]) {
		/* a and b as set, not derived */
	} else if (tb[TCA_PI_RATE] || tb[TCA_PI_RTT] || tb[TCA_PI_FLOWS] ||
		   tb[TCA_PI_AVPKT] || tb[TCA_PI_BYTEMODE]) {
		/* new design inputs: derive a and b again */
		c.a.den = 0;
		c.b.den = 0;
	}
	if (tb[TCA_PI_BYTEMODE] && !tb[TCA_PI_QREF] &&
	    c.bytemode != q->cfg.bytemode)
		c.qref = 0;	/* the unit changed: back to the default */

	err = pi_params(&c, &params, &designed, extack);
	if (err)
		return err;

	sch_tree_lock(sch);
	if (params.tupdate != q->params.tupdate)
		q->vars.next = ktime_get_ns() + params.tupdate;
	if (c.bytemode != q->cfg.bytemode) {
		/* q(k-1) in the new unit, or the next sample sees a jump */
		q->vars.qold = pi_queue(sch, c.bytemode);
		aqm_mean_len_init(&q->len, c.avpkt);
	}
	q->cfg = c;
	q->params = params;
	q->designed = designed;
	q->ecn_ceil = ecn_ceil;
	WRITE_ONCE(sch->limit, c.limit);

	aqm_qdisc_trim(sch, c.limit);
	sch_tree_unlock(sch);
	return 0;
}

static int pi_init(struct Qdisc *sch, struct nlattr *opt,
		   struct netlink_ext_ack *extack)
{
	struct pi_sched_data *q = qdisc_priv(sch);
	int err;

	q->cfg = (struct pi_cfg) {
		.limit = PI_DEF_LIMIT,
		.rate = PI_DEF_RATE,
		.rtt_us = PI_DEF_RTT_US,
		.flows = PI_DEF_FLOWS,
		.avpkt = PI_DEF_AVPKT,
		.ecn_ceil = AQM_ECN_CEIL_DEF,
	};
	aqm_mean_len_init(&q->len, PI_DEF_AVPKT);
	sch->limit = PI_DEF_LIMIT;
	err = pi_params(&q->cfg, &q->params, &q->designed, extack);
	if (err)
		return err;
	err = aqm_ecn_ceil_from_ratio(&q->cfg.ecn_ceil, &q->ecn_ceil);
	if (err)
		return err;
	if (opt) {
		err = pi_change(sch, opt, extack);
		if (err)
			return err;
	}
	aqm_pi_vars_init(&q->vars, &q->params, 0, ktime_get_ns());
	return 0;
}

/* A gain as set, or the derived one as gain / 2^AQM_PI_GAIN_SHIFT. */
static int pi_put_gain(struct sk_buff *skb, int type,
		       const struct aqm_ratio *set, u64 gain)
{
	if (!set->den)
		return aqm_nla_put_ratio(skb, type, gain,
					 BIT_ULL(AQM_PI_GAIN_SHIFT));
	return aqm_nla_put_ratio(skb, type, set->num, set->den);
}

static int pi_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct pi_sched_data *q = qdisc_priv(sch);
	const struct pi_cfg *c = &q->cfg;
	struct nlattr *opts;

	opts = nla_nest_start(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (nla_put_u32(skb, TCA_PI_LIMIT, READ_ONCE(sch->limit)) ||
	    nla_put_u32(skb, TCA_PI_QREF, q->params.qref) ||
	    pi_put_gain(skb, TCA_PI_A, &c->a, q->params.g_new) ||
	    pi_put_gain(skb, TCA_PI_B, &c->b, q->params.g_old) ||
	    nla_put_u32(skb, TCA_PI_TUPDATE,
			(u32)div_u64(q->params.tupdate, NSEC_PER_USEC)) ||
	    nla_put_u8(skb, TCA_PI_ECN, c->ecn) ||
	    aqm_nla_put_ratio(skb, TCA_PI_ECN_CEIL, c->ecn_ceil.num,
			      c->ecn_ceil.den) ||
	    nla_put_u8(skb, TCA_PI_BYTEMODE, c->bytemode) ||
	    nla_put_u64_64bit(skb, TCA_PI_RATE, c->rate, TCA_PI_PAD) ||
	    nla_put_u32(skb, TCA_PI_RTT, c->rtt_us) ||
	    nla_put_u32(skb, TCA_PI_FLOWS, c->flows) ||
	    nla_put_u32(skb, TCA_PI_AVPKT, c->avpkt) ||
	    nla_put_u8(skb, TCA_PI_DESIGNED, q->designed))
		goto nla_put_failure;
	return nla_nest_end(skb, opts);

nla_put_failure:
	nla_nest_cancel(skb, opts);
	return -EMSGSIZE;
}

static int pi_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct pi_sched_data *q = qdisc_priv(sch);
	struct tc_pi_xstats st;

	/* called without the qdisc lock (since Linux 4.14): the lazy
	 * controller update must not race with enqueue and dequeue
	 */
	sch_tree_lock(sch);
	pi_advance(sch, q);
	st = q->stats;
	st.prob = (u32)min_t(s64, q->vars.x, U32_MAX);
	st.qlen_sampled = q->vars.qold;
	st.mean_pktlen = aqm_mean_len_bytes(&q->len);
	st.samples = q->vars.samples;
	sch_tree_unlock(sch);
	return gnet_stats_copy_app(d, &st, sizeof(st));
}

static void pi_reset(struct Qdisc *sch)
{
	struct pi_sched_data *q = qdisc_priv(sch);

	qdisc_reset_queue(sch);
	aqm_pi_vars_init(&q->vars, &q->params, 0, ktime_get_ns());
}

static struct Qdisc_ops pi_qdisc_ops __read_mostly = {
	.id		= "pi",
	.priv_size	= sizeof(struct pi_sched_data),
	.enqueue	= pi_qdisc_enqueue,
	.dequeue	= pi_qdisc_dequeue,
	.peek		= qdisc_peek_dequeued,
	.init		= pi_init,
	.reset		= pi_reset,
	.change		= pi_change,
	.dump		= pi_dump,
	.dump_stats	= pi_dump_stats,
	.owner		= THIS_MODULE,
};

MODULE_ALIAS_NET_SCH("pi");

static int __init pi_module_init(void)
{
	return register_qdisc(&pi_qdisc_ops);
}

static void __exit pi_module_exit(void)
{
	unregister_qdisc(&pi_qdisc_ops);
}

module_init(pi_module_init);
module_exit(pi_module_exit);

MODULE_DESCRIPTION("Proportional-Integral AQM (Hollot et al.)");
MODULE_LICENSE("GPL");
