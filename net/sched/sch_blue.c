// SPDX-License-Identifier: GPL-2.0
/*
 * sch_blue.c - BLUE active queue management.
 *
 * W. Feng, D. Kandlur, D. Saha, K. Shin, "The BLUE active queue management
 * algorithms", IEEE/ACM Transactions on Networking 10(4), 2002, section III.
 *
 * A FIFO whose arriving packets are dropped (or CE-marked with ecn) with a
 * probability p_m that is driven by packet loss and link idleness instead
 * of by the queue length (Fig. 3):
 *
 *  - a packet that finds the queue at its hard limit (`limit` packets or
 *    `bytelimit` bytes) is dropped and raises p_m by delta1; with a
 *    threshold L, every arrival that finds more than L queued raises it too
 *    (the paper's variant that keeps room for bursts and bounds the delay);
 *  - a queue that becomes empty, or stays empty, lowers p_m by delta2;
 *  - p_m changes at most once per freeze_time, optionally randomized to
 *    [freeze_time / 2, 3 freeze_time / 2] against global synchronization.
 *
 * The update rules live in include/net/aqm_blue.h (shared with sfb). An
 * empty queue decays p_m from elapsed time on the next enqueue, dequeue or
 * stats dump: no timer. Drops at the hard limit, drops and marks with
 * probability p_m are counted apart; early_drops + overflow_drops equals
 * the qdisc's drop count.
 *
 * Accounting, as sch_red: every drop or CE mark with probability p_m
 * counts an overlimit; such a drop returns NET_XMIT_CN, a drop at the hard
 * limit NET_XMIT_DROP. A GSO packet larger than bytelimit is segmented
 * (blue_segment()); with a limit in packets a GSO packet is one packet
 * and is queued whole.
 */
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <net/aqm_blue.h>
#include <net/aqm_compat.h>
#include <net/aqm_qdisc.h>
#include <net/inet_ecn.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include <uapi/linux/pkt_aqm.h>

#define BLUE_DEF_LIMIT		1000		/* packets */
#define BLUE_DEF_FREEZE_US	50000		/* the paper's testbed: 50 ms */
#define BLUE_MAX_LIMIT		BIT(20)		/* packets */
#define BLUE_MIN_BYTELIMIT	1500
#define BLUE_MAX_BYTELIMIT	BIT(30)

/**
 * struct blue_cfg - what netlink set
 * @delta1:	increment of p_m per loss event, as set (the paper's testbed
 *		value 1/100 by default)
 * @delta2:	decrement of p_m per idle event, as set (1/1000)
 * @limit:	hard limit in packets; 0 when @bytelimit is used
 * @bytelimit:	hard limit in bytes; 0 when @limit is used
 * @threshold:	L, in the unit of the limit; 0: off
 * @freeze_us:	freeze_time, microseconds
 * @randomize:	random freeze intervals
 * @ecn:	mark ECT packets instead of dropping them
 * @ecn_ceil:	largest p_m at which ECT packets are marked
 */
struct blue_cfg {
	struct aqm_ratio delta1;
	struct aqm_ratio delta2;
	struct aqm_ratio ecn_ceil;
	u32 limit;
	u32 bytelimit;
	u32 threshold;
	u32 freeze_us;
	bool randomize;
	bool ecn;
};

/**
 * struct blue_sched_data - per-qdisc state
 * @cfg:	configuration as set
 * @params:	update rule parameters derived from @cfg
 * @vars:	p_m (AQM_BLUE_ONE = 1.0) and the end of the freeze interval
 * @idle_since:	time the queue became empty, ns; valid while it is empty
 * @idle_ns:	time spent empty before @idle_since, ns
 * @ecn_ceil:	cfg.ecn_ceil in the scale of p_m
 * @stats:	counters exported in tc_blue_xstats
 */
struct blue_sched_data {
	struct blue_cfg cfg;
	struct aqm_blue_params params;
	struct aqm_blue_vars vars;
	u64 idle_since;
	u64 idle_ns;
	u64 ecn_ceil;
	struct tc_blue_xstats stats;
};

static void blue_loss_event(struct blue_sched_data *q, u64 now)
{
	if (aqm_blue_increment(&q->params, &q->vars, now))
		q->stats.increments++;
}

/* Idle events due while the queue has been empty; call only then. */
static void blue_idle_decay(struct blue_sched_data *q, u64 now)
{
	q->stats.decrements += aqm_blue_idle(&q->params, &q->vars,
					     q->idle_since, now);
}

static int blue_enqueue_one(struct sk_buff *skb, struct Qdisc *sch,
			    struct sk_buff **to_free)
{
	struct blue_sched_data *q = qdisc_priv(sch);
	const struct blue_cfg *c = &q->cfg;
	enum aqm_blue_event ev;
	bool empty = !sch->q.qlen;
	u64 now = ktime_get_ns();
	int ret;

	if (empty)
		blue_idle_decay(q, now);

	if (c->bytelimit)
		ev = aqm_blue_classify(sch->qstats.backlog, qdisc_pkt_len(skb),
				       c->bytelimit, c->threshold);
	else
		ev = aqm_blue_classify(sch->q.qlen, 1, c->limit, c->threshold);
	if (ev != AQM_BLUE_NONE)
		blue_loss_event(q, now);
	if (unlikely(ev == AQM_BLUE_OVERFLOW)) {
		q->stats.overflow_drops++;
		return qdisc_drop(skb, sch, to_free);
	}

	if (q->vars.p_m > 0 && aqm_prob_hit(q->vars.p_m, get_random_u32())) {
		ret = aqm_qdisc_signal(skb, sch, to_free,
				       c->ecn && q->vars.p_m <= q->ecn_ceil,
				       &q->stats.marks, &q->stats.early_drops);
		if (ret)
			return ret;
	}
	if (empty)
		q->idle_ns += now - q->idle_since;
	return qdisc_enqueue_tail(skb, sch);
}

/*
 * A GSO packet larger than bytelimit would overflow even an empty queue
 * and raise p_m: its segments go through BLUE one by one instead, as
 * sch_tbf does for packets over its burst. The parent counts the GSO
 * packet as one packet of its full length; qdisc_tree_reduce_backlog()
 * turns that into the segments that were queued.
 */
static int blue_segment(struct sk_buff *skb, struct Qdisc *sch,
			struct sk_buff **to_free)
{
	netdev_features_t features = netif_skb_features(skb);
	unsigned int len = 0, prev_len = qdisc_pkt_len(skb);
	struct sk_buff *segs, *nskb;
	int ret = NET_XMIT_DROP, nb = 0;

	segs = skb_gso_segment(skb, features & ~NETIF_F_GSO_MASK);
	if (IS_ERR_OR_NULL(segs))
		return qdisc_drop(skb, sch, to_free);

	skb_list_walk_safe(segs, segs, nskb) {
		unsigned int seg_len = segs->len;
		int r;

		skb_mark_not_on_list(segs);
		qdisc_skb_cb(segs)->pkt_len = seg_len;
		r = blue_enqueue_one(segs, sch, to_free);
		if (r == NET_XMIT_SUCCESS) {
			nb++;
			len += seg_len;
		} else if (ret == NET_XMIT_DROP) {
			ret = r;	/* NET_XMIT_CN if a segment saw one */
		}
	}
	if (nb > 0) {
		qdisc_tree_reduce_backlog(sch, 1 - nb, prev_len - len);
		consume_skb(skb);
		return NET_XMIT_SUCCESS;
	}
	/* every segment was dropped and counted: the parent drops one */
	kfree_skb(skb);
	return ret;
}

static int blue_qdisc_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			      struct sk_buff **to_free)
{
	struct blue_sched_data *q = qdisc_priv(sch);
	u32 bytelimit = q->cfg.bytelimit;

	if (unlikely(bytelimit && qdisc_pkt_len(skb) > bytelimit &&
		     skb_is_gso(skb) &&
		     skb_gso_validate_mac_len(skb, bytelimit)))
		return blue_segment(skb, sch, to_free);
	return blue_enqueue_one(skb, sch, to_free);
}

static struct sk_buff *blue_qdisc_dequeue(struct Qdisc *sch)
{
	struct blue_sched_data *q = qdisc_priv(sch);
	u64 now = ktime_get_ns();
	struct sk_buff *skb;

	if (!sch->q.qlen) {
		blue_idle_decay(q, now);
		return NULL;
	}
	skb = qdisc_dequeue_head(sch);
	if (!sch->q.qlen) {
		/* the queue becomes empty: an idle event */
		q->idle_since = now;
		blue_idle_decay(q, now);
	}
	return skb;
}

static AQM_NLA_RANGE_CONST struct netlink_range_validation blue_limit_range = {
	.min = 1, .max = BLUE_MAX_LIMIT,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation blue_bytelimit_range = {
	.min = BLUE_MIN_BYTELIMIT, .max = BLUE_MAX_BYTELIMIT,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation blue_freeze_range = {
	.min = USEC_PER_MSEC, .max = 10 * USEC_PER_SEC,
};

static const struct nla_policy blue_policy[TCA_BLUE_MAX + 1] = {
	[TCA_BLUE_LIMIT]     = NLA_POLICY_FULL_RANGE(NLA_U32, &blue_limit_range),
	[TCA_BLUE_BYTELIMIT] = NLA_POLICY_FULL_RANGE(NLA_U32, &blue_bytelimit_range),
	[TCA_BLUE_THRESHOLD] = { .type = NLA_U32 },
	[TCA_BLUE_DELTA1]    = AQM_NLA_POLICY_RATIO,
	[TCA_BLUE_DELTA2]    = AQM_NLA_POLICY_RATIO,
	[TCA_BLUE_FREEZE]    = NLA_POLICY_FULL_RANGE(NLA_U32, &blue_freeze_range),
	[TCA_BLUE_RANDOMIZE] = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_BLUE_ECN]	     = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_BLUE_ECN_CEIL]  = AQM_NLA_POLICY_RATIO,
};

/* Update rule parameters from a configuration; nothing changes on error.
 * @tb: the request's options, for extack (NULL in init)
 */
static int blue_params(const struct blue_cfg *c, struct aqm_blue_params *p,
		       struct nlattr **tb, struct netlink_ext_ack *extack)
{
	if (c->threshold && c->limit && c->threshold >= c->limit) {
		NL_SET_ERR_MSG_MOD(extack, "threshold must be below limit (0: off)");
		return -EINVAL;
	}
	if (c->threshold && c->bytelimit && c->threshold >= c->bytelimit) {
		NL_SET_ERR_MSG_MOD(extack, "threshold must be below bytelimit (0: off)");
		return -EINVAL;
	}
	*p = (struct aqm_blue_params) {
		.freeze_us = c->freeze_us,
		.randomize = c->randomize,
	};
	if (aqm_blue_delta_from_ratio(c->delta1.num, c->delta1.den,
				      &p->delta1)) {
		NL_SET_ERR_MSG_ATTR(extack, tb ? tb[TCA_BLUE_DELTA1] : NULL,
				    "delta1 must be a ratio in (0, 1]");
		return -EINVAL;
	}
	if (aqm_blue_delta_from_ratio(c->delta2.num, c->delta2.den,
				      &p->delta2)) {
		NL_SET_ERR_MSG_ATTR(extack, tb ? tb[TCA_BLUE_DELTA2] : NULL,
				    "delta2 must be a ratio in (0, 1]");
		return -EINVAL;
	}
	return 0;
}

static int blue_change(struct Qdisc *sch, struct nlattr *opt,
		       struct netlink_ext_ack *extack)
{
	struct blue_sched_data *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_BLUE_MAX + 1];
	struct aqm_blue_params params;
	struct blue_cfg c = q->cfg;
	unsigned int dropped;
	u64 now, ecn_ceil;
	bool empty;
	int err;

	err = nla_parse_nested(tb, TCA_BLUE_MAX, opt, blue_policy, extack);
	if (err < 0)
		return err;

	if (tb[TCA_BLUE_LIMIT] && tb[TCA_BLUE_BYTELIMIT]) {
		NL_SET_ERR_MSG_MOD(extack, "limit and bytelimit are exclusive");
		return -EINVAL;
	}
	if (tb[TCA_BLUE_LIMIT]) {
		c.limit = nla_get_u32(tb[TCA_BLUE_LIMIT]);
		c.bytelimit = 0;
	}
	if (tb[TCA_BLUE_BYTELIMIT]) {
		c.bytelimit = nla_get_u32(tb[TCA_BLUE_BYTELIMIT]);
		c.limit = 0;
	}
	if (tb[TCA_BLUE_THRESHOLD])
		c.threshold = nla_get_u32(tb[TCA_BLUE_THRESHOLD]);
	else if (!c.bytelimit != !q->cfg.bytelimit)
		c.threshold = 0;	/* the unit changed: back to off */
	err = AQM_NLA_RATIO_OPT(tb[TCA_BLUE_DELTA1], &c.delta1, extack, "delta1");
	if (err)
		return err;
	err = AQM_NLA_RATIO_OPT(tb[TCA_BLUE_DELTA2], &c.delta2, extack, "delta2");
	if (err)
		return err;
	err = aqm_nla_get_ecn_ceil(tb[TCA_BLUE_ECN_CEIL], &c.ecn_ceil, &ecn_ceil, extack);
	if (err)
		return err;
	if (tb[TCA_BLUE_FREEZE])
		c.freeze_us = nla_get_u32(tb[TCA_BLUE_FREEZE]);
	if (tb[TCA_BLUE_RANDOMIZE])
		c.randomize = nla_get_u8(tb[TCA_BLUE_RANDOMIZE]);
	if (tb[TCA_BLUE_ECN])
		c.ecn = nla_get_u8(tb[TCA_BLUE_ECN]);

	err = blue_params(&c, &params, tb, extack);
	if (err)
		return err;

	sch_tree_lock(sch);
	now = ktime_get_ns();
	empty = !sch->q.qlen;
	if (empty)	/* idle time so far counts with the old rule */
		blue_idle_decay(q, now);
	if (params.freeze_us != q->params.freeze_us ||
	    params.randomize != q->params.randomize)
		q->vars.next = min(q->vars.next,
				   now + aqm_blue_next_freeze(&params));
	q->cfg = c;
	q->params = params;
	q->ecn_ceil = ecn_ceil;

	if (c.bytelimit)
		dropped = aqm_qdisc_trim_bytes(sch, c.bytelimit);
	else
		dropped = aqm_qdisc_trim(sch, c.limit);
	q->stats.overflow_drops += dropped;
	if (!empty && !sch->q.qlen)
		q->idle_since = now;
	sch_tree_unlock(sch);
	return 0;
}

static int blue_init(struct Qdisc *sch, struct nlattr *opt,
		     struct netlink_ext_ack *extack)
{
	struct blue_sched_data *q = qdisc_priv(sch);
	u64 now = ktime_get_ns();
	int err;

	q->cfg = (struct blue_cfg) {
		.delta1 = { .num = 1, .den = 100 },
		.delta2 = { .num = 1, .den = 1000 },
		.limit = BLUE_DEF_LIMIT,
		.freeze_us = BLUE_DEF_FREEZE_US,
		.ecn_ceil = AQM_ECN_CEIL_DEF,
	};
	err = blue_params(&q->cfg, &q->params, NULL, extack);
	if (err)
		return err;
	err = aqm_ecn_ceil_from_ratio(&q->cfg.ecn_ceil, &q->ecn_ceil);
	if (err)
		return err;
	aqm_blue_vars_init(&q->vars, now);
	q->idle_since = now;
	if (opt)
		return blue_change(sch, opt, extack);
	return 0;
}

static int blue_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct blue_sched_data *q = qdisc_priv(sch);
	const struct blue_cfg *c = &q->cfg;
	struct nlattr *opts;

	opts = nla_nest_start(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (nla_put_u32(skb, TCA_BLUE_LIMIT, c->limit) ||
	    nla_put_u32(skb, TCA_BLUE_BYTELIMIT, c->bytelimit) ||
	    nla_put_u32(skb, TCA_BLUE_THRESHOLD, c->threshold) ||
	    aqm_nla_put_ratio(skb, TCA_BLUE_DELTA1, c->delta1.num,
			      c->delta1.den) ||
	    aqm_nla_put_ratio(skb, TCA_BLUE_DELTA2, c->delta2.num,
			      c->delta2.den) ||
	    nla_put_u32(skb, TCA_BLUE_FREEZE, c->freeze_us) ||
	    nla_put_u8(skb, TCA_BLUE_RANDOMIZE, c->randomize) ||
	    nla_put_u8(skb, TCA_BLUE_ECN, c->ecn) ||
	    aqm_nla_put_ratio(skb, TCA_BLUE_ECN_CEIL, c->ecn_ceil.num,
			      c->ecn_ceil.den))
		goto nla_put_failure;
	return nla_nest_end(skb, opts);

nla_put_failure:
	nla_nest_cancel(skb, opts);
	return -EMSGSIZE;
}

static int blue_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct blue_sched_data *q = qdisc_priv(sch);
	struct tc_blue_xstats st;
	u64 now, idle;

	/* called without the qdisc lock (since Linux 4.14): the lazy idle
	 * decay must not race with enqueue and dequeue
	 */
	sch_tree_lock(sch);
	now = ktime_get_ns();
	idle = q->idle_ns;
	if (!sch->q.qlen) {
		blue_idle_decay(q, now);
		idle += now - q->idle_since;
	}
	st = q->stats;
	st.p_m = (u32)min_t(s64, q->vars.p_m, U32_MAX);
	st.idle_us = div_u64(idle, NSEC_PER_USEC);
	sch_tree_unlock(sch);
	return gnet_stats_copy_app(d, &st, sizeof(st));
}

static void blue_reset(struct Qdisc *sch)
{
	struct blue_sched_data *q = qdisc_priv(sch);
	u64 now = ktime_get_ns();

	if (!sch->q.qlen)
		q->idle_ns += now - q->idle_since;
	qdisc_reset_queue(sch);
	aqm_blue_vars_init(&q->vars, now);
	q->idle_since = now;
}

static struct Qdisc_ops blue_qdisc_ops __read_mostly = {
	.id		= "blue",
	.priv_size	= sizeof(struct blue_sched_data),
	.enqueue	= blue_qdisc_enqueue,
	.dequeue	= blue_qdisc_dequeue,
	.peek		= qdisc_peek_head,
	.init		= blue_init,
	.reset		= blue_reset,
	.change		= blue_change,
	.dump		= blue_dump,
	.dump_stats	= blue_dump_stats,
	.owner		= THIS_MODULE,
};

MODULE_ALIAS_NET_SCH("blue");

static int __init blue_module_init(void)
{
	return register_qdisc(&blue_qdisc_ops);
}

static void __exit blue_module_exit(void)
{
	unregister_qdisc(&blue_qdisc_ops);
}

module_init(blue_module_init);
module_exit(blue_module_exit);

MODULE_DESCRIPTION("BLUE active queue management (Feng et al.)");
MODULE_LICENSE("GPL");
