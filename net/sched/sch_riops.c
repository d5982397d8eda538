// SPDX-License-Identifier: GPL-2.0
/*
 * sch_riops.c - RIO-PS: RED with In and Out and Preferential treatment to
 * Short flows.
 *
 * L. Guo, I. Matta, "The war between mice and elephants", ICNP 2001, the
 * differential scheme the DCN paper ("Taming the elephants", sections 2 and
 * 5, Figure 8) measures DCN against. In RIO-PS an edge router keeps
 * per-flow state and marks the first few packets of each flow IN and the
 * rest OUT; the bottleneck runs RIO (Clark and Fang), which drops OUT
 * packets earlier and more often than IN ones, so that short flows lose
 * fewer packets and avoid timeouts. Here both halves run at one queue: the
 * qdisc counts each flow's packets itself (the library's scoreboard), so
 * it needs no edge router and no DSCP.
 *
 * The per-packet core is include/net/aqm_rio.h, on ARED's EWMA, curves and
 * spacing (include/net/aqm_ared.h) with max_p fixed. The defaults are a
 * choice, not the inventors' values (the papers this project holds do not
 * give them): 20 IN packets per flow, flows forgotten after 1 s of
 * silence, IN judged at avg_in on (40, 70, 0.02) and OUT at avg_total on
 * (10, 30, 0.1), both with the gentle region. tc-riops(8) says how to set
 * them.
 *
 * Accounting, as sch_red: every early drop or CE mark counts an overlimit;
 * AQM drops return NET_XMIT_CN, a drop at `limit` NET_XMIT_DROP. Each
 * queued packet remembers its class in its qdisc cb, so that the count of
 * IN packets in the queue (avg_in's sample) stays exact through dequeue,
 * a lowered limit and reset. No timer: the idle decay runs from enqueue
 * (avg_in's over the time no IN packet was queued, at the next IN arrival).
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <net/aqm_ared.h>
#include <net/aqm_compat.h>
#include <net/aqm_flow.h>
#include <net/aqm_pi.h>
#include <net/aqm_qdisc.h>
#include <net/aqm_rio.h>
#include <net/inet_ecn.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include <uapi/linux/pkt_aqm.h>

#define RIOPS_DEF_LIMIT		1000
#define RIOPS_DEF_SHORT		20
#define RIOPS_DEF_TIMEOUT	USEC_PER_SEC	/* us */
#define RIOPS_DEF_FLOWS		4096
#define RIOPS_DEF_IN_MIN	40
#define RIOPS_DEF_IN_MAX	70
#define RIOPS_DEF_IN_MAX_P	((struct aqm_ratio){ .num = 1, .den = 50 })
#define RIOPS_DEF_OUT_MIN	10
#define RIOPS_DEF_OUT_MAX	30
#define RIOPS_DEF_OUT_MAX_P	((struct aqm_ratio){ .num = 1, .den = 10 })
#define RIOPS_DEF_RATE		1250000ULL	/* bytes/s: 10 Mbit/s */
#define RIOPS_DEF_AVPKT		1000
#define RIOPS_TH_MAX		BIT(20)

/**
 * struct riops_cfg - what netlink set
 * @rate:	link rate C, bytes/s, for the EWMA weight
 * @in_max_p:	max_p of the IN curve
 * @out_max_p:	max_p of the OUT curve
 * @ecn_ceil:	marking ceiling as set
 * @limit:	hard limit, packets
 * @short_pkts:	packets of a flow that are IN
 * @timeout_us:	silence after which a flow starts again
 * @flows:	scoreboard slots
 * @in_min:	min_th of IN, packets of avg_in
 * @in_max:	max_th of IN
 * @out_min:	min_th of OUT, packets of avg_total
 * @out_max:	max_th of OUT
 * @avpkt:	bytes per packet for C in packets
 * @gentle:	the gentle region on both curves
 * @ecn:	mark ECT packets instead of dropping them
 */
struct riops_cfg {
	u64 rate;
	struct aqm_ratio in_max_p;
	struct aqm_ratio out_max_p;
	struct aqm_ratio ecn_ceil;
	u32 limit;
	u32 short_pkts;
	u32 timeout_us;
	u32 flows;
	u32 in_min;
	u32 in_max;
	u32 out_min;
	u32 out_max;
	u32 avpkt;
	bool gentle;
	bool ecn;
};

/**
 * struct riops_sched_data - per-qdisc state
 * @cfg:	configuration as set
 * @rio:	the two curves and their averages
 * @sb:		the flows' packet counts
 * @key:	flow hash key
 * @in_max_p:	cfg.in_max_p as a fraction of 2^32
 * @out_max_p:	cfg.out_max_p as a fraction of 2^32
 * @ecn_ceil:	cfg.ecn_ceil as a fraction of 2^32
 * @timeout:	cfg.timeout_us in ns
 * @prob_in:	p_b of the last IN arrival
 * @prob_out:	p_b of the last OUT arrival
 * @in_qlen:	IN packets in the queue (not a packet a parent peeked,
 *		which has left it)
 * @stats:	counters exported in tc_riops_xstats
 */
struct riops_sched_data {
	struct riops_cfg cfg;
	struct aqm_rio rio;
	struct aqm_sb sb;
	siphash_key_t key;
	u64 in_max_p;
	u64 out_max_p;
	u64 ecn_ceil;
	u64 timeout;
	s64 prob_in;
	s64 prob_out;
	u32 in_qlen;
	struct tc_riops_xstats stats;
};

/* the class of a queued packet, in its qdisc cb */
struct riops_skb_cb {
	bool in;
};

static struct riops_skb_cb *riops_skb_cb(const struct sk_buff *skb)
{
	qdisc_cb_private_validate(skb, sizeof(struct riops_skb_cb));
	return (struct riops_skb_cb *)qdisc_skb_cb(skb)->data;
}

/* a queued packet leaves (dequeue or a lowered limit) */
static void riops_leave(struct Qdisc *sch, const struct sk_buff *skb)
{
	struct riops_sched_data *q = qdisc_priv(sch);

	if (riops_skb_cb(skb)->in && !--q->in_qlen)
		aqm_rio_in_idle_start(&q->rio, ktime_get_ns());
}

/*
 * A dropped arrival ended the idle periods (aqm_rio_idle_end) but left the
 * queue, or its IN part, as empty as before: they go on from now.
 */
static void riops_idle_again(struct riops_sched_data *q,
			     const struct Qdisc *sch, bool in, u64 now)
{
	if (!sch->q.qlen)
		aqm_rio_idle_start(&q->rio, now);
	else if (in && !q->in_qlen)
		aqm_rio_in_idle_start(&q->rio, now);
}

static int riops_qdisc_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			       struct sk_buff **to_free)
{
	struct riops_sched_data *q = qdisc_priv(sch);
	struct aqm_rio *r = &q->rio;
	u64 now = ktime_get_ns();
	u32 segs = skb_is_gso(skb) ? skb_shinfo(skb)->gso_segs : 1;
	bool in;
	s64 pb;
	int ret;

	in = aqm_rio_classify(&q->sb, aqm_flow_id(skb, &q->key), now,
			      q->timeout, segs, q->cfg.short_pkts);
	aqm_rio_idle_end(r, in, now);
	if (in)
		q->stats.in_pkts++;
	else
		q->stats.out_pkts++;

	/* every arrival is a sample of the averages, as in RED */
	pb = aqm_rio_prob(r, in, sch->q.qlen, q->in_qlen);
	if (in)
		q->prob_in = pb;
	else
		q->prob_out = pb;

	if (unlikely(sch->q.qlen >= READ_ONCE(sch->limit))) {
		q->stats.forced_drops++;
		riops_idle_again(q, sch, in, now);
		return qdisc_drop(skb, sch, to_free);
	}
	if (aqm_ared_hit(in ? &r->in_v : &r->out_v, pb, get_random_u32())) {
		u64 *early = in ? &q->stats.early_drops_in :
				  &q->stats.early_drops_out;

		ret = aqm_qdisc_signal(skb, sch, to_free,
				       q->cfg.ecn && pb < AQM_PI_ONE &&
				       (u64)pb <= q->ecn_ceil,
				       &q->stats.marks,
				       pb < AQM_PI_ONE ? early : &q->stats.hard_drops);
		if (ret) {
			riops_idle_again(q, sch, in, now);
			return ret;
		}
	}
	riops_skb_cb(skb)->in = in;
	if (in)
		q->in_qlen++;
	return qdisc_enqueue_tail(skb, sch);
}

static struct sk_buff *riops_qdisc_dequeue(struct Qdisc *sch)
{
	struct riops_sched_data *q = qdisc_priv(sch);
	struct sk_buff *skb;

	skb = qdisc_dequeue_head(sch);
	if (!skb)
		return NULL;
	riops_leave(sch, skb);
	/* idle from when the queue empties (an empty htb class is not
	 * asked again: see sch_ared.c)
	 */
	if (!sch->q.qlen && !q->rio.out_v.idle_since)
		aqm_rio_idle_start(&q->rio, ktime_get_ns());
	return skb;
}

static AQM_NLA_RANGE_CONST struct netlink_range_validation riops_limit_range = {
	.min = 1, .max = 1 << 20,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation riops_short_range = {
	.min = 0, .max = U32_MAX,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation riops_timeout_range = {
	.min = USEC_PER_MSEC, .max = 3600 * USEC_PER_SEC,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation riops_flows_range = {
	.min = 1, .max = AQM_SB_MAX,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation riops_th_range = {
	.min = 0, .max = RIOPS_TH_MAX,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation riops_rate_range = {
	.min = 1000, .max = 1ULL << 40,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation riops_avpkt_range = {
	.min = 40, .max = 65535,
};

static const struct nla_policy riops_policy[TCA_RIOPS_MAX + 1] = {
	[TCA_RIOPS_LIMIT]	= NLA_POLICY_FULL_RANGE(NLA_U32, &riops_limit_range),
	[TCA_RIOPS_SHORT]	= NLA_POLICY_FULL_RANGE(NLA_U32, &riops_short_range),
	[TCA_RIOPS_TIMEOUT]	= NLA_POLICY_FULL_RANGE(NLA_U32, &riops_timeout_range),
	[TCA_RIOPS_FLOWS]	= NLA_POLICY_FULL_RANGE(NLA_U32, &riops_flows_range),
	[TCA_RIOPS_IN_QTH_MIN]	= NLA_POLICY_FULL_RANGE(NLA_U32, &riops_th_range),
	[TCA_RIOPS_IN_QTH_MAX]	= NLA_POLICY_FULL_RANGE(NLA_U32, &riops_th_range),
	[TCA_RIOPS_IN_MAX_P]	= AQM_NLA_POLICY_RATIO,
	[TCA_RIOPS_OUT_QTH_MIN]	= NLA_POLICY_FULL_RANGE(NLA_U32, &riops_th_range),
	[TCA_RIOPS_OUT_QTH_MAX]	= NLA_POLICY_FULL_RANGE(NLA_U32, &riops_th_range),
	[TCA_RIOPS_OUT_MAX_P]	= AQM_NLA_POLICY_RATIO,
	[TCA_RIOPS_GENTLE]	= NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_RIOPS_ECN]		= NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_RIOPS_ECN_CEIL]	= AQM_NLA_POLICY_RATIO,
	[TCA_RIOPS_RATE]	= NLA_POLICY_FULL_RANGE(NLA_U64, &riops_rate_range),
	[TCA_RIOPS_AVPKT]	= NLA_POLICY_FULL_RANGE(NLA_U32, &riops_avpkt_range),
};

/* a max_p ratio in (0, 1] as a fraction of 2^32 */
static int riops_max_p(const struct aqm_ratio *r, u64 *p, bool in,
		       const struct nlattr *nla, struct netlink_ext_ack *extack)
{
	if (!r->num || r->num > r->den) {
		if (in)
			NL_SET_ERR_MSG_ATTR(extack, nla,
					    "in_max_p must be a probability in (0, 1]");
		else
			NL_SET_ERR_MSG_ATTR(extack, nla,
					    "out_max_p must be a probability in (0, 1]");
		return -EINVAL;
	}
	*p = mul_u64_u64_div_u64(r->num, AQM_PI_ONE, r->den);
	if (!*p) {
		if (in)
			NL_SET_ERR_MSG_ATTR(extack, nla,
					    "in_max_p must be at least 2^-32");
		else
			NL_SET_ERR_MSG_ATTR(extack, nla,
					    "out_max_p must be at least 2^-32");
		return -EINVAL;
	}
	return 0;
}

/* Both curves from @c; nothing is changed on error. */
static int riops_derive(const struct riops_cfg *c, struct aqm_rio *r,
			u64 *in_max_p, u64 *out_max_p,
			const struct nlattr *const *tb,
			struct netlink_ext_ack *extack)
{
	u64 pps = max_t(u64, div_u64(c->rate, c->avpkt), 1);
	int err;

	if (c->in_max <= c->in_min) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_RIOPS_IN_QTH_MAX] ?:
				    tb[TCA_RIOPS_IN_QTH_MIN],
				    "in_max must be above in_min");
		return -EINVAL;
	}
	if (c->out_max <= c->out_min) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_RIOPS_OUT_QTH_MAX] ?:
				    tb[TCA_RIOPS_OUT_QTH_MIN],
				    "out_max must be above out_min");
		return -EINVAL;
	}
	err = riops_max_p(&c->in_max_p, in_max_p, true, tb[TCA_RIOPS_IN_MAX_P],
			  extack);
	if (err)
		return err;
	err = riops_max_p(&c->out_max_p, out_max_p, false,
			  tb[TCA_RIOPS_OUT_MAX_P], extack);
	if (err)
		return err;
	err = aqm_ared_params_set(&r->in, c->in_min, c->in_max, pps, 0,
				  c->gentle);
	if (err)
		return err;
	return aqm_ared_params_set(&r->out, c->out_min, c->out_max, pps, 0,
				   c->gentle);
}

static int riops_change(struct Qdisc *sch, struct nlattr *opt,
			struct netlink_ext_ack *extack)
{
	struct riops_sched_data *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_RIOPS_MAX + 1];
	struct aqm_sb sb = {}, old_sb = {};
	struct riops_cfg c = q->cfg;
	u64 in_max_p, out_max_p, ecn_ceil;
	struct aqm_rio rio = {};
	bool resize;
	int err;

	if (opt) {
		err = nla_parse_nested(tb, TCA_RIOPS_MAX, opt, riops_policy,
				       extack);
		if (err < 0)
			return err;
	} else {
		memset(tb, 0, sizeof(tb));
	}

	err = AQM_NLA_RATIO_OPT(tb[TCA_RIOPS_IN_MAX_P], &c.in_max_p, extack,
				"in_max_p");
	if (err)
		return err;
	err = AQM_NLA_RATIO_OPT(tb[TCA_RIOPS_OUT_MAX_P], &c.out_max_p, extack,
				"out_max_p");
	if (err)
		return err;
	err = aqm_nla_get_ecn_ceil(tb[TCA_RIOPS_ECN_CEIL], &c.ecn_ceil,
				   &ecn_ceil, extack);
	if (err)
		return err;
	if (tb[TCA_RIOPS_LIMIT])
		c.limit = nla_get_u32(tb[TCA_RIOPS_LIMIT]);
	if (tb[TCA_RIOPS_SHORT])
		c.short_pkts = nla_get_u32(tb[TCA_RIOPS_SHORT]);
	if (tb[TCA_RIOPS_TIMEOUT])
		c.timeout_us = nla_get_u32(tb[TCA_RIOPS_TIMEOUT]);
	if (tb[TCA_RIOPS_FLOWS])
		c.flows = nla_get_u32(tb[TCA_RIOPS_FLOWS]);
	if (tb[TCA_RIOPS_IN_QTH_MIN])
		c.in_min = nla_get_u32(tb[TCA_RIOPS_IN_QTH_MIN]);
	if (tb[TCA_RIOPS_IN_QTH_MAX])
		c.in_max = nla_get_u32(tb[TCA_RIOPS_IN_QTH_MAX]);
	if (tb[TCA_RIOPS_OUT_QTH_MIN])
		c.out_min = nla_get_u32(tb[TCA_RIOPS_OUT_QTH_MIN]);
	if (tb[TCA_RIOPS_OUT_QTH_MAX])
		c.out_max = nla_get_u32(tb[TCA_RIOPS_OUT_QTH_MAX]);
	if (tb[TCA_RIOPS_GENTLE])
		c.gentle = nla_get_u8(tb[TCA_RIOPS_GENTLE]);
	if (tb[TCA_RIOPS_ECN])
		c.ecn = nla_get_u8(tb[TCA_RIOPS_ECN]);
	if (tb[TCA_RIOPS_RATE])
		c.rate = nla_get_u64(tb[TCA_RIOPS_RATE]);
	if (tb[TCA_RIOPS_AVPKT])
		c.avpkt = nla_get_u32(tb[TCA_RIOPS_AVPKT]);

	err = riops_derive(&c, &rio, &in_max_p, &out_max_p,
			   (const struct nlattr *const *)tb, extack);
	if (err)
		return err;

	/* a new table first: a failed allocation changes nothing */
	resize = !q->sb.tab || c.flows != q->cfg.flows;
	if (resize && aqm_sb_alloc(&sb, c.flows)) {
		NL_SET_ERR_MSG_MOD(extack, "no memory for the flows' counts");
		return -ENOMEM;
	}

	sch_tree_lock(sch);
	if (resize) {
		old_sb = q->sb;
		q->sb = sb;
		q->sb.overwrites += old_sb.overwrites;
	}
	/* the curves change, the averages and counts stay */
	q->rio.in = rio.in;
	q->rio.out = rio.out;
	q->rio.in_v.max_p = in_max_p;
	q->rio.out_v.max_p = out_max_p;
	q->in_max_p = in_max_p;
	q->out_max_p = out_max_p;
	q->ecn_ceil = ecn_ceil;
	q->timeout = (u64)c.timeout_us * NSEC_PER_USEC;
	q->cfg = c;
	WRITE_ONCE(sch->limit, c.limit);
	aqm_qdisc_trim_to(sch, c.limit, U32_MAX, riops_leave);
	sch_tree_unlock(sch);

	aqm_sb_free(&old_sb);
	return 0;
}

static int riops_init(struct Qdisc *sch, struct nlattr *opt,
		      struct netlink_ext_ack *extack)
{
	struct riops_sched_data *q = qdisc_priv(sch);
	u64 now = ktime_get_ns();
	int err;

	q->cfg = (struct riops_cfg) {
		.rate = RIOPS_DEF_RATE,
		.in_max_p = RIOPS_DEF_IN_MAX_P,
		.out_max_p = RIOPS_DEF_OUT_MAX_P,
		.ecn_ceil = AQM_ECN_CEIL_DEF,
		.limit = RIOPS_DEF_LIMIT,
		.short_pkts = RIOPS_DEF_SHORT,
		.timeout_us = RIOPS_DEF_TIMEOUT,
		.flows = RIOPS_DEF_FLOWS,
		.in_min = RIOPS_DEF_IN_MIN,
		.in_max = RIOPS_DEF_IN_MAX,
		.out_min = RIOPS_DEF_OUT_MIN,
		.out_max = RIOPS_DEF_OUT_MAX,
		.avpkt = RIOPS_DEF_AVPKT,
		.gentle = true,
	};
	aqm_flow_key_init(&q->key);
	sch->limit = RIOPS_DEF_LIMIT;
	/* without options, change() still allocates the table */
	err = riops_change(sch, opt, extack);
	if (err)
		return err;
	aqm_ared_vars_init(&q->rio.in_v, &q->rio.in, q->in_max_p, now);
	aqm_ared_vars_init(&q->rio.out_v, &q->rio.out, q->out_max_p, now);
	return 0;
}

static void riops_destroy(struct Qdisc *sch)
{
	struct riops_sched_data *q = qdisc_priv(sch);

	aqm_sb_free(&q->sb);
}

static int riops_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct riops_sched_data *q = qdisc_priv(sch);
	const struct riops_cfg *c = &q->cfg;
	struct nlattr *opts;

	opts = nla_nest_start(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (nla_put_u32(skb, TCA_RIOPS_LIMIT, READ_ONCE(sch->limit)) ||
	    nla_put_u32(skb, TCA_RIOPS_SHORT, c->short_pkts) ||
	    nla_put_u32(skb, TCA_RIOPS_TIMEOUT, c->timeout_us) ||
	    nla_put_u32(skb, TCA_RIOPS_FLOWS, c->flows) ||
	    nla_put_u32(skb, TCA_RIOPS_IN_QTH_MIN, c->in_min) ||
	    nla_put_u32(skb, TCA_RIOPS_IN_QTH_MAX, c->in_max) ||
	    aqm_nla_put_ratio(skb, TCA_RIOPS_IN_MAX_P, c->in_max_p.num,
			      c->in_max_p.den) ||
	    nla_put_u32(skb, TCA_RIOPS_OUT_QTH_MIN, c->out_min) ||
	    nla_put_u32(skb, TCA_RIOPS_OUT_QTH_MAX, c->out_max) ||
	    aqm_nla_put_ratio(skb, TCA_RIOPS_OUT_MAX_P, c->out_max_p.num,
			      c->out_max_p.den) ||
	    nla_put_u8(skb, TCA_RIOPS_GENTLE, c->gentle) ||
	    nla_put_u8(skb, TCA_RIOPS_ECN, c->ecn) ||
	    aqm_nla_put_ratio(skb, TCA_RIOPS_ECN_CEIL, c->ecn_ceil.num,
			      c->ecn_ceil.den) ||
	    nla_put_u64_64bit(skb, TCA_RIOPS_RATE, c->rate, TCA_RIOPS_PAD) ||
	    nla_put_u32(skb, TCA_RIOPS_AVPKT, c->avpkt))
		goto nla_put_failure;
	return nla_nest_end(skb, opts);

nla_put_failure:
	nla_nest_cancel(skb, opts);
	return -EMSGSIZE;
}

static u32 riops_prob_u32(s64 p)
{
	return (u32)clamp_t(s64, p, 0, U32_MAX);
}

static int riops_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct riops_sched_data *q = qdisc_priv(sch);
	struct tc_riops_xstats st;

	/* called without the qdisc lock (since Linux 4.14) */
	sch_tree_lock(sch);
	st = q->stats;
	st.prob_in = riops_prob_u32(q->prob_in);
	st.prob_out = riops_prob_u32(q->prob_out);
	st.qavg_in = (u32)min_t(u64, q->rio.in_v.avg >> AQM_ARED_AVG_SHIFT,
				U32_MAX);
	st.qavg = (u32)min_t(u64, q->rio.out_v.avg >> AQM_ARED_AVG_SHIFT,
			     U32_MAX);
	st.in_qlen = q->in_qlen;
	st.flows = q->sb.size;
	st.memory = aqm_sb_mem(&q->sb);
	st.overwrites = q->sb.overwrites;
	sch_tree_unlock(sch);
	return gnet_stats_copy_app(d, &st, sizeof(st));
}

static void riops_reset(struct Qdisc *sch)
{
	struct riops_sched_data *q = qdisc_priv(sch);
	u64 now = ktime_get_ns();

	qdisc_reset_queue(sch);
	q->in_qlen = 0;
	aqm_ared_vars_init(&q->rio.in_v, &q->rio.in, q->in_max_p, now);
	aqm_ared_vars_init(&q->rio.out_v, &q->rio.out, q->out_max_p, now);
	aqm_sb_reset(&q->sb);
	q->prob_in = 0;
	q->prob_out = 0;
}

static struct Qdisc_ops riops_qdisc_ops __read_mostly = {
	.id		= "riops",
	.priv_size	= sizeof(struct riops_sched_data),
	.enqueue	= riops_qdisc_enqueue,
	.dequeue	= riops_qdisc_dequeue,
	.peek		= qdisc_peek_dequeued,
	.init		= riops_init,
	.reset		= riops_reset,
	.destroy	= riops_destroy,
	.change		= riops_change,
	.dump		= riops_dump,
	.dump_stats	= riops_dump_stats,
	.owner		= THIS_MODULE,
};

MODULE_ALIAS_NET_SCH("riops");

static int __init riops_module_init(void)
{
	return register_qdisc(&riops_qdisc_ops);
}

static void __exit riops_module_exit(void)
{
	unregister_qdisc(&riops_qdisc_ops);
}

module_init(riops_module_init);
module_exit(riops_module_exit);

MODULE_DESCRIPTION("RIO-PS: RED with In and Out, preferential treatment to short flows");
MODULE_LICENSE("GPL");
