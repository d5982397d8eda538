// SPDX-License-Identifier: GPL-2.0
/*
 * sch_ared.c - Adaptive RED with the gentle region, in packet or byte mode.
 *
 * S. Floyd, R. Gummadi, S. Shenker, "Adaptive RED: an algorithm for
 * increasing the robustness of RED's active queue management", 2001, as
 * L. Le, J. Aikat, K. Jeffay, F. D. Smith ran it beside PI and REM in "The
 * effects of active queue management and explicit congestion notification
 * on web performance" (the AQM/ECN paper, sections II and IV-V): RED's
 * average queue and drop curve with the gentle region (max_p to 1 between
 * max_th and 2 max_th), max_p adapted by AIMD every 0.5 s toward a target
 * band, and byte mode (queue in bytes, each packet's probability scaled by
 * its size over the mean, eq. 3).
 *
 * Linux's red has the adaptation but neither the gentle region nor byte
 * mode's per-packet scaling; this qdisc has all three, and the paper's
 * "new gentle" ECN forwarding as an option (ecn_gentle: ECT packets are
 * marked, not dropped, in the gentle region too).
 *
 * Thresholds are given, or derived as Floyd et al. recommend from a target
 * delay and the link rate C: min_th = max(5 packets, target * C / 2),
 * max_th = 3 min_th. The EWMA weight is w = 1 - exp(-1/C).
 *
 * Accounting, as sch_red: every early drop or CE mark counts an overlimit;
 * AQM drops return NET_XMIT_CN, a drop at `limit` NET_XMIT_DROP. The
 * average, the curve and the adaptation live in the library
 * (include/net/aqm_ared.h); adaptation runs lazily from enqueue, dequeue
 * and stats dumps: no timer.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <net/aqm_ared.h>
#include <net/aqm_compat.h>
#include <net/aqm_pi.h>
#include <net/aqm_qdisc.h>
#include <net/inet_ecn.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include <uapi/linux/pkt_aqm.h>

#define ARED_DEF_LIMIT		1000
#define ARED_DEF_TARGET		5000		/* us: Floyd et al.'s 5 ms */
#define ARED_DEF_INTERVAL	500000		/* us: Floyd et al.'s 0.5 s */
#define ARED_DEF_RATE		1250000ULL	/* bytes/s: 10 Mbit/s */
#define ARED_DEF_AVPKT		1000
#define ARED_MIN_PKTS		5		/* the smallest derived min_th */
#define ARED_DEF_MAX_P		((struct aqm_ratio){ .num = 1, .den = 10 })
/* arrivals between two refreshes of 2^32 / mean length (bytemode) */
#define ARED_RECIP_EVERY	16

/**
 * struct ared_cfg - what netlink set
 * @rate:	link rate C, bytes/s
 * @max_p:	max_p as set (the initial one when adaptive)
 * @limit:	hard limit, packets
 * @min_th:	min_th as set, queue units; 0: from @target_us
 * @max_th:	max_th as set; 0: 3 min_th
 * @target_us:	target delay that derives min_th
 * @interval_us: adaptation interval
 * @avpkt:	bytes per packet for C in packets
 * @adaptive:	AIMD on max_p
 * @gentle:	the gentle region
 * @bytemode:	queue in bytes, per-packet probability by size
 * @ecn:	mark ECT packets instead of dropping them (below max_th)
 * @ecn_gentle:	mark them in the gentle region too
 */
struct ared_cfg {
	u64 rate;
	struct aqm_ratio max_p;
	u32 limit;
	u32 min_th;
	u32 max_th;
	u32 target_us;
	u32 interval_us;
	u32 avpkt;
	bool adaptive;
	bool gentle;
	bool bytemode;
	bool ecn;
	bool ecn_gentle;
};

/**
 * struct ared_sched_data - per-qdisc state
 * @cfg:	configuration as set
 * @params:	thresholds, weight and interval derived from @cfg
 * @vars:	average, max_p, count, idle and adaptation state
 * @max_p:	cfg.max_p as a fraction of 2^32
 * @prob:	p_b at the last arrival, fraction of 2^32
 * @len:	mean packet length (bytemode), its reciprocal refreshed
 *		every ARED_RECIP_EVERY arrivals
 * @mean_age:	arrivals since init, modulo 2^16 (when to refresh)
 * @stats:	counters exported in tc_ared_xstats
 */
struct ared_sched_data {
	struct ared_cfg cfg;
	struct aqm_ared_params params;
	struct aqm_ared_vars vars;
	u64 max_p;
	s64 prob;
	struct aqm_mean_len len;
	u16 mean_age;
	struct tc_ared_xstats stats;
};

/* The queue the average follows: bytes of backlog in bytemode, else packets. */
static u32 ared_queue(const struct Qdisc *sch, bool bytemode)
{
	return bytemode ? sch->qstats.backlog : sch->q.qlen;
}

static int ared_qdisc_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			      struct sk_buff **to_free)
{
	struct ared_sched_data *q = qdisc_priv(sch);
	struct aqm_ared_vars *v = &q->vars;
	u64 now = ktime_get_ns();
	s64 pb, p;
	int ret;

	aqm_ared_adapt(&q->params, v, now);
	if (v->idle_since)
		aqm_ared_idle_end(&q->params, v, now);
	aqm_ared_avg_update(&q->params, v, ared_queue(sch, q->cfg.bytemode));

	if (unlikely(sch->q.qlen >= READ_ONCE(sch->limit))) {
		q->stats.forced_drops++;
		return qdisc_drop(skb, sch, to_free);
	}

	pb = aqm_ared_prob(&q->params, v);
	q->prob = pb;
	p = pb;
	/* p_b = 1 drops every packet, whatever its size */
	if (q->cfg.bytemode && pb < AQM_PI_ONE) {
		/* one division per ARED_RECIP_EVERY arrivals, not per packet */
		if (!(++q->mean_age % ARED_RECIP_EVERY))
			aqm_mean_len_refresh(&q->len);
		p = aqm_mean_len_scale(&q->len, pb, qdisc_pkt_len(skb));
	}
	if (aqm_ared_hit(v, p, get_random_u32())) {
		/* below max_th p_b <= max_p; above it, the gentle region
		 * marks only with ecn_gentle, and p_b = 1 never marks
		 */
		bool markable = pb < AQM_PI_ONE &&
			(v->avg < ((u64)q->params.max_th << AQM_ARED_AVG_SHIFT) ||
			 q->cfg.ecn_gentle);

		ret = aqm_qdisc_signal(skb, sch, to_free, q->cfg.ecn && markable,
				       &q->stats.marks,
				       pb < AQM_PI_ONE ? &q->stats.early_drops :
							 &q->stats.hard_drops);
		if (ret) {
			/*
			 * The arrival ended the idle period, but the queue
			 * is as empty as before: it goes on from now. Else,
			 * with avg at 2 max_th (p_b = 1) after a burst, every
			 * arrival would be dropped into an empty queue that
			 * no dequeue marks idle again, and avg would fall by
			 * w per arrival only: TCP in its RTO backoff would
			 * wait for minutes (4 TCP flows through the defaults
			 * stalled so once in check-distro on Debian 12).
			 */
			if (!sch->q.qlen)
				v->idle_since = now ?: 1;
			return ret;
		}
	}
	return qdisc_enqueue_tail(skb, sch);
}

static struct sk_buff *ared_qdisc_dequeue(struct Qdisc *sch)
{
	struct ared_sched_data *q = qdisc_priv(sch);
	u64 now = ktime_get_ns();
	struct sk_buff *skb;

	aqm_ared_adapt(&q->params, &q->vars, now);
	skb = qdisc_dequeue_head(sch);
	/* idle from when the queue empties: under htb an empty class is
	 * not asked again, so waiting for a dequeue that finds nothing (as
	 * sch_red does) would never start the decay there
	 */
	if (!sch->q.qlen && !q->vars.idle_since)
		q->vars.idle_since = now ?: 1;
	return skb;
}

static AQM_NLA_RANGE_CONST struct netlink_range_validation ared_limit_range = {
	.min = 1, .max = 1 << 20,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation ared_th_range = {
	.min = 0, .max = (1U << 31) - 1,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation ared_target_range = {
	.min = 10, .max = 10 * USEC_PER_SEC,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation ared_interval_range = {
	.min = USEC_PER_MSEC, .max = 60 * USEC_PER_SEC,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation ared_rate_range = {
	.min = 1000, .max = 1ULL << 40,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation ared_avpkt_range = {
	.min = 40, .max = 65535,
};

static const struct nla_policy ared_policy[TCA_ARED_MAX + 1] = {
	[TCA_ARED_LIMIT]      = NLA_POLICY_FULL_RANGE(NLA_U32, &ared_limit_range),
	[TCA_ARED_QTH_MIN]    = NLA_POLICY_FULL_RANGE(NLA_U32, &ared_th_range),
	[TCA_ARED_QTH_MAX]    = NLA_POLICY_FULL_RANGE(NLA_U32, &ared_th_range),
	[TCA_ARED_TARGET]     = NLA_POLICY_FULL_RANGE(NLA_U32, &ared_target_range),
	[TCA_ARED_MAX_P]      = AQM_NLA_POLICY_RATIO,
	[TCA_ARED_ADAPTIVE]   = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_ARED_INTERVAL]   = NLA_POLICY_FULL_RANGE(NLA_U32, &ared_interval_range),
	[TCA_ARED_GENTLE]     = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_ARED_BYTEMODE]   = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_ARED_ECN]	      = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_ARED_ECN_GENTLE] = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_ARED_RATE]	      = NLA_POLICY_FULL_RANGE(NLA_U64, &ared_rate_range),
	[TCA_ARED_AVPKT]      = NLA_POLICY_FULL_RANGE(NLA_U32, &ared_avpkt_range),
};

/* min_th and max_th in queue units: as set, or from the target delay. */
static void ared_thresholds(const struct ared_cfg *c, u32 *min_th, u32 *max_th)
{
	u64 unit = c->bytemode ? 1 : c->avpkt;
	u64 min = c->min_th;

	if (!min) {
		/* target * C / 2, C in queue units per second */
		min = div64_u64(c->rate * c->target_us, 2 * USEC_PER_SEC * unit);
		min = max_t(u64, min, ARED_MIN_PKTS * (c->bytemode ? c->avpkt : 1));
	}
	*min_th = min_t(u64, min, (1U << 31) - 1);
	*max_th = c->max_th ?: (u32)min_t(u64, 3 * min, (1U << 31) - 1);
}

/* Parameters and max_p from @c; nothing is changed on error. */
static int ared_derive(const struct ared_cfg *c, struct aqm_ared_params *p,
		       u64 *max_p, const struct nlattr *const *tb,
		       struct netlink_ext_ack *extack)
{
	u64 interval = c->adaptive ? (u64)c->interval_us * NSEC_PER_USEC : 0;
	u32 min_th, max_th;

	ared_thresholds(c, &min_th, &max_th);
	if (max_th <= min_th) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_ARED_QTH_MAX] ?: tb[TCA_ARED_QTH_MIN],
				    "max must be above min");
		return -EINVAL;
	}
	if (!c->bytemode && max_th >= c->limit) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_ARED_QTH_MAX] ?: tb[TCA_ARED_LIMIT],
				    "max must be below limit");
		return -EINVAL;
	}
	if (!c->max_p.num || c->max_p.num > c->max_p.den) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_ARED_MAX_P],
				    "max_p must be a probability in (0, 1]");
		return -EINVAL;
	}
	*max_p = mul_u64_u64_div_u64(c->max_p.num, AQM_PI_ONE, c->max_p.den);
	if (!*max_p) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_ARED_MAX_P],
				    "max_p must be at least 2^-32");
		return -EINVAL;
	}
	/* C in packets per second for the weight */
	return aqm_ared_params_set(p, min_th, max_th,
				   max_t(u64, div_u64(c->rate, c->avpkt), 1),
				   interval, c->gentle);
}

static int ared_change(struct Qdisc *sch, struct nlattr *opt,
		       struct netlink_ext_ack *extack)
{
	struct ared_sched_data *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_ARED_MAX + 1];
	struct aqm_ared_params params;
	struct ared_cfg c = q->cfg;
	u64 max_p;
	int err;

	err = nla_parse_nested(tb, TCA_ARED_MAX, opt, ared_policy, extack);
	if (err < 0)
		return err;

	err = AQM_NLA_RATIO_OPT(tb[TCA_ARED_MAX_P], &c.max_p, extack, "max_p");
	if (err)
		return err;
	if (tb[TCA_ARED_LIMIT])
		c.limit = nla_get_u32(tb[TCA_ARED_LIMIT]);
	if (tb[TCA_ARED_QTH_MIN])
		c.min_th = nla_get_u32(tb[TCA_ARED_QTH_MIN]);
	if (tb[TCA_ARED_QTH_MAX])
		c.max_th = nla_get_u32(tb[TCA_ARED_QTH_MAX]);
	if (tb[TCA_ARED_TARGET])
		c.target_us = nla_get_u32(tb[TCA_ARED_TARGET]);
	if (tb[TCA_ARED_ADAPTIVE])
		c.adaptive = nla_get_u8(tb[TCA_ARED_ADAPTIVE]);
	if (tb[TCA_ARED_INTERVAL])
		c.interval_us = nla_get_u32(tb[TCA_ARED_INTERVAL]);
	if (tb[TCA_ARED_GENTLE])
		c.gentle = nla_get_u8(tb[TCA_ARED_GENTLE]);
	if (tb[TCA_ARED_BYTEMODE])
		c.bytemode = nla_get_u8(tb[TCA_ARED_BYTEMODE]);
	if (tb[TCA_ARED_ECN])
		c.ecn = nla_get_u8(tb[TCA_ARED_ECN]);
	if (tb[TCA_ARED_ECN_GENTLE])
		c.ecn_gentle = nla_get_u8(tb[TCA_ARED_ECN_GENTLE]);
	if (tb[TCA_ARED_RATE])
		c.rate = nla_get_u64(tb[TCA_ARED_RATE]);
	if (tb[TCA_ARED_AVPKT])
		c.avpkt = nla_get_u32(tb[TCA_ARED_AVPKT]);
	if (tb[TCA_ARED_BYTEMODE] && c.bytemode != q->cfg.bytemode) {
		/* the unit changed: thresholds not given now are derived */
		if (!tb[TCA_ARED_QTH_MIN])
			c.min_th = 0;
		if (!tb[TCA_ARED_QTH_MAX])
			c.max_th = 0;
	}

	err = ared_derive(&c, &params, &max_p,
			  (const struct nlattr *const *)tb, extack);
	if (err)
		return err;

	sch_tree_lock(sch);
	if (params.interval != q->params.interval)
		q->vars.next_adapt = ktime_get_ns() + params.interval;
	if (c.bytemode != q->cfg.bytemode) {
		/* the average in the new unit */
		q->vars.avg = (u64)ared_queue(sch, c.bytemode) <<
			      AQM_ARED_AVG_SHIFT;
		aqm_mean_len_init(&q->len, c.avpkt);
	}
	/* a given max_p, or a fixed one, applies at once */
	if (tb[TCA_ARED_MAX_P] || !c.adaptive)
		q->vars.max_p = max_p;
	q->cfg = c;
	q->params = params;
	q->max_p = max_p;
	WRITE_ONCE(sch->limit, c.limit);

	aqm_qdisc_trim(sch, c.limit);
	sch_tree_unlock(sch);
	return 0;
}

static int ared_init(struct Qdisc *sch, struct nlattr *opt,
		     struct netlink_ext_ack *extack)
{
	struct ared_sched_data *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_ARED_MAX + 1] = {};
	int err;

	q->cfg = (struct ared_cfg) {
		.rate = ARED_DEF_RATE,
		.max_p = ARED_DEF_MAX_P,
		.limit = ARED_DEF_LIMIT,
		.target_us = ARED_DEF_TARGET,
		.interval_us = ARED_DEF_INTERVAL,
		.avpkt = ARED_DEF_AVPKT,
		.adaptive = true,
		.gentle = true,
	};
	aqm_mean_len_init(&q->len, ARED_DEF_AVPKT);
	sch->limit = ARED_DEF_LIMIT;
	err = ared_derive(&q->cfg, &q->params, &q->max_p,
			  (const struct nlattr *const *)tb, extack);
	if (err)
		return err;
	if (opt) {
		err = ared_change(sch, opt, extack);
		if (err)
			return err;
	}
	aqm_ared_vars_init(&q->vars, &q->params, q->max_p, ktime_get_ns());
	return 0;
}

static int ared_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct ared_sched_data *q = qdisc_priv(sch);
	const struct ared_cfg *c = &q->cfg;
	struct nlattr *opts;

	opts = nla_nest_start(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (nla_put_u32(skb, TCA_ARED_LIMIT, READ_ONCE(sch->limit)) ||
	    nla_put_u32(skb, TCA_ARED_QTH_MIN, q->params.min_th) ||
	    nla_put_u32(skb, TCA_ARED_QTH_MAX, q->params.max_th) ||
	    nla_put_u32(skb, TCA_ARED_TARGET, c->target_us) ||
	    aqm_nla_put_ratio(skb, TCA_ARED_MAX_P, c->max_p.num, c->max_p.den) ||
	    nla_put_u8(skb, TCA_ARED_ADAPTIVE, c->adaptive) ||
	    nla_put_u32(skb, TCA_ARED_INTERVAL, c->interval_us) ||
	    nla_put_u8(skb, TCA_ARED_GENTLE, c->gentle) ||
	    nla_put_u8(skb, TCA_ARED_BYTEMODE, c->bytemode) ||
	    nla_put_u8(skb, TCA_ARED_ECN, c->ecn) ||
	    nla_put_u8(skb, TCA_ARED_ECN_GENTLE, c->ecn_gentle) ||
	    nla_put_u64_64bit(skb, TCA_ARED_RATE, c->rate, TCA_ARED_PAD) ||
	    nla_put_u32(skb, TCA_ARED_AVPKT, c->avpkt))
		goto nla_put_failure;
	return nla_nest_end(skb, opts);

nla_put_failure:
	nla_nest_cancel(skb, opts);
	return -EMSGSIZE;
}

static int ared_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct ared_sched_data *q = qdisc_priv(sch);
	struct tc_ared_xstats st;

	/* called without the qdisc lock (since Linux 4.14) */
	sch_tree_lock(sch);
	aqm_ared_adapt(&q->params, &q->vars, ktime_get_ns());
	st = q->stats;
	st.prob = (u32)min_t(s64, q->prob, U32_MAX);
	st.max_p = (u32)min_t(u64, q->vars.max_p, U32_MAX);
	st.qavg = (u32)min_t(u64, q->vars.avg >> AQM_ARED_AVG_SHIFT, U32_MAX);
	st.min_th = q->params.min_th;
	st.max_th = q->params.max_th;
	st.mean_pktlen = aqm_mean_len_bytes(&q->len);
	st.adapts = q->vars.adapts;
	sch_tree_unlock(sch);
	return gnet_stats_copy_app(d, &st, sizeof(st));
}

static void ared_reset(struct Qdisc *sch)
{
	struct ared_sched_data *q = qdisc_priv(sch);

	qdisc_reset_queue(sch);
	aqm_ared_vars_init(&q->vars, &q->params, q->max_p, ktime_get_ns());
	q->prob = 0;
}

static struct Qdisc_ops ared_qdisc_ops __read_mostly = {
	.id		= "ared",
	.priv_size	= sizeof(struct ared_sched_data),
	.enqueue	= ared_qdisc_enqueue,
	.dequeue	= ared_qdisc_dequeue,
	.peek		= qdisc_peek_dequeued,
	.init		= ared_init,
	.reset		= ared_reset,
	.change		= ared_change,
	.dump		= ared_dump,
	.dump_stats	= ared_dump_stats,
	.owner		= THIS_MODULE,
};

MODULE_ALIAS_NET_SCH("ared");

static int __init ared_module_init(void)
{
	return register_qdisc(&ared_qdisc_ops);
}

static void __exit ared_module_exit(void)
{
	unregister_qdisc(&ared_qdisc_ops);
}

module_init(ared_module_init);
module_exit(ared_module_exit);

MODULE_DESCRIPTION("Adaptive RED with the gentle region and byte mode");
MODULE_LICENSE("GPL");
