// SPDX-License-Identifier: GPL-2.0
/*
 * sch_afd.c - Approximate Fair Dropping.
 *
 * R. Pan, L. Breslau, B. Prabhakar, S. Shenker, "Approximate fairness
 * through differential dropping", ACM SIGCOMM CCR 33(2), 2003; described in
 * section 2 of Le et al., "Differential congestion notification: taming
 * the elephants", ICNP 2004, which measures DCN against it.
 *
 * A FIFO that drops each flow in proportion to how far it sends above the
 * fair share. Every arrival is copied into a shadow buffer of the last b
 * sampled arrivals with probability 1/s; m_i, the flow's weight in that
 * buffer (sampled packets, or bytes with bytemode), estimates its arrival
 * rate. A packet of flow i is dropped, or CE-marked with ecn, with
 * probability d_i = (1 - m_fair / m_i)+, m_fair being the output of a PI
 * controller on the queue length sampled every T:
 *
 *   m_fair(t) = m_fair(t-1) + alpha (Q(t-1) - Q_target)
 *                           - beta (Q(t) - Q_target),   beta > alpha
 *
 * The arithmetic is include/net/aqm_afd.h; the shadow buffer and its flow
 * table include/net/aqm_flow.h; the controller include/net/aqm_pi.h. The
 * controller runs lazily from enqueue, dequeue and stats dumps: no timer.
 *
 * The default target is a time (ours, tc-afd(8)): Q_target = target * the
 * queue's measured departure rate (include/net/aqm_rate.h), and m_fair
 * follows the relative law of include/net/aqm_rel.h, whose gains come
 * from the target, instead of the absolute law above. The absolute law
 * moves m_fair by alpha entries per packet of queue error whatever m_fair
 * is; m_fair is about b over the flows above it, so with many flows the
 * loop's relative gain grows until m_fair swings to 0 (measured: 32 UDP
 * floods beside 40 TCP flows). "qref N" sets a target in packets and the
 * paper's law with alpha and beta. The relative law runs with its
 * anti-windup (aqm_rel.hold): while the queue is above the target but
 * already falling, m_fair takes only the proportional step, so that the
 * queue a start-up overshoot left does not keep cutting m_fair while it
 * drains (measured without it: m_fair 0.4 entries, a tenth of the share,
 * and the link idle for 12 s while the integral brought it back).
 * "nohold" turns it off (TCA_AFD_HOLD), to study the law without it.
 *
 * What is ours (tc-afd(8)): the oldest sampled arrival leaves the shadow
 * buffer, not a random one; m_fair is clamped to [0, the buffer's total
 * weight]; a flow table smaller than b ("flows") leaves the arrivals of
 * flows beyond it uncounted; in packet mode a GSO packet weighs its
 * segments.
 *
 * Accounting, as sch_red: every early drop or mark counts an overlimit;
 * an early drop returns NET_XMIT_CN, a drop at the hard limit
 * NET_XMIT_DROP. limit and Q are in packets (skbs).
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <net/aqm_afd.h>
#include <net/aqm_compat.h>
#include <net/aqm_qdisc.h>
#include <net/aqm_rate.h>
#include <net/aqm_rel.h>
#include <net/inet_ecn.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include <uapi/linux/pkt_aqm.h>

/* The published implementations' controller: alpha 1.7, beta 1.8 entries
 * per packet of queue error at 160 Hz. Q_target: the DCN paper's best for
 * AFD (240 packets at 100 Mbit/s, section 5). The rest is ours
 * (tc-afd(8)).
 */
#define AFD_DEF_ALPHA_NUM	17
#define AFD_DEF_ALPHA_DEN	10
#define AFD_DEF_BETA_NUM	18
#define AFD_DEF_BETA_DEN	10
#define AFD_DEF_TUPDATE_US	6250
#define AFD_DEF_QREF		240
#define AFD_DEF_LIMIT		1000
#define AFD_DEF_SHADOW		1000
#define AFD_DEF_SAMPLE		1
#define AFD_DEF_AVPKT		1000
/* ours: the DCN paper's Q_target in time, 240 packets at its 100 Mbit/s
 * (1500-byte packets: 28.8 ms)
 */
#define AFD_DEF_TARGET_US	29000
/* the least Q_target the time target converts to, packets */
#define AFD_QREF_MIN		2

/**
 * struct afd_cfg - what netlink set
 * @alpha:	gain on Q(t-1) - Q_target
 * @beta:	gain on Q(t) - Q_target, greater than @alpha
 * @ecn_ceil:	largest d_i at which ECT packets are marked
 * @limit:	hard limit, packets
 * @qref:	Q_target, packets, below @limit, when @target_us is 0 (and
 *		until the departure rate is measured)
 * @target_us:	Q_target in time, us; 0: @qref and the paper's law
 * @tupdate_us:	controller sampling period
 * @shadow:	shadow buffer size b, sampled arrivals
 * @sample:	s: an arrival is sampled with probability 1/s
 * @flows:	flow table capacity, <= @shadow; 0: @shadow
 * @avpkt:	bytes one entry of m_fair stands for, in bytemode
 * @bytemode:	m_i counts bytes instead of packets
 * @ecn:	mark ECT packets instead of dropping them
 * @hold:	the relative law's anti-windup (aqm_rel.hold), on by default;
 *		no effect with @qref's law
 */
struct afd_cfg {
	struct aqm_ratio alpha;
	struct aqm_ratio beta;
	struct aqm_ratio ecn_ceil;
	u32 limit;
	u32 qref;
	u32 target_us;
	u32 tupdate_us;
	u32 shadow;
	u32 sample;
	u32 flows;
	u32 avpkt;
	bool bytemode;
	bool ecn;
	bool hold;
};

/**
 * struct afd_sched_data - per-qdisc state
 * @cfg:	configuration as set
 * @params:	m_fair controller; vars.x is m_fair, AQM_PI_ONE = 1 entry
 * @vars:	m_fair controller state
 * @sh:		shadow buffer and its flow table
 * @rate:	departure rate, for the time target
 * @rel:	gains of the relative law, with the time target
 * @key:	per-instance flow hash key
 * @unit:	m_i units per entry of m_fair: 1, or avpkt in bytemode
 * @ecn_ceil:	cfg.ecn_ceil as a fraction of AQM_PI_ONE
 * @stats:	counters exported in tc_afd_xstats
 */
struct afd_sched_data {
	struct afd_cfg cfg;
	struct aqm_pi_params params;
	struct aqm_pi_vars vars;
	struct aqm_shadow sh;
	struct aqm_rate rate;
	struct aqm_rel rel;
	siphash_key_t key;
	u32 unit;
	u64 ecn_ceil;
	struct tc_afd_xstats stats;
};

/* b when the flow table's capacity was left to follow it */
static u32 afd_flows(const struct afd_cfg *c)
{
	return c->flows ? c->flows : c->shadow;
}

/*
 * m_i's weight of one arrival: its bytes in bytemode, else its segments (a
 * GSO packet stands for gso_segs packets on the wire).
 */
static u32 afd_weight(const struct afd_sched_data *q, const struct sk_buff *skb)
{
	u32 w;

	if (q->cfg.bytemode)
		w = qdisc_pkt_len(skb);
	else
		w = skb_is_gso(skb) ? skb_shinfo(skb)->gso_segs : 1;
	return clamp_t(u32, w, 1, AQM_AFD_WEIGHT_MAX);
}

/* m_fair starts at its cap, b entries: nothing is dropped until a queue
 * builds
 */
static void afd_vars_init(struct afd_sched_data *q)
{
	q->params.x_max = aqm_afd_fair_cap(&q->sh, q->unit);
	aqm_pi_vars_init(&q->vars, &q->params, q->params.x_max, ktime_get_ns());
}

/* Controller samples due now; before the queue changes. */
static void afd_advance(struct Qdisc *sch, struct afd_sched_data *q, u64 now)
{
	u64 n;

	if (likely(now < q->vars.next))
		return;
	q->params.x_max = aqm_afd_fair_cap(&q->sh, q->unit);
	if (!q->cfg.target_us) {
		aqm_pi_catch_up(&q->params, &q->vars, sch->q.qlen, now);
		return;
	}
	q->params.qref = aqm_rate_qref(&q->rate, q->cfg.target_us, q->cfg.qref,
				       AFD_QREF_MIN, READ_ONCE(sch->limit));
	n = aqm_pi_due(&q->params, &q->vars, now);
	aqm_rel_sample(&q->rel, &q->vars, q->params.x_max, sch->q.qlen,
		       q->params.qref, n);
}

static int afd_qdisc_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			     struct sk_buff **to_free)
{
	struct afd_sched_data *q = qdisc_priv(sch);
	u32 id = aqm_flow_id(skb, &q->key);
	u64 now = ktime_get_ns();
	struct aqm_afd_sides sides;
	u64 m_i;
	int ret;

	afd_advance(sch, q, now);

	/* the shadow buffer samples arrivals, also one the limit drops */
	if (q->cfg.sample == 1 || !get_random_u32_below(q->cfg.sample)) {
		m_i = aqm_shadow_add(&q->sh, id, afd_weight(q, skb));
		q->stats.sampled++;
	} else {
		m_i = aqm_shadow_count(&q->sh, id);
	}

	if (unlikely(sch->q.qlen >= READ_ONCE(sch->limit))) {
		q->stats.forced_drops++;
		return qdisc_drop(skb, sch, to_free);
	}

	/* no random draw for a flow under its share (most, on a fair link),
	 * and the share computed once: aqm_afd_hit() and aqm_afd_prob_le()
	 * on the sides aqm_afd_over() found
	 */
	if (aqm_afd_over(q->vars.x, q->unit, m_i, &sides) &&
	    aqm_share_hit(sides.share, sides.count, get_random_u32())) {
		ret = aqm_qdisc_signal(skb, sch, to_free, q->cfg.ecn &&
				       aqm_share_prob_le(sides.share,
							 sides.count,
							 q->ecn_ceil),
				       &q->stats.marks, &q->stats.early_drops);
		if (ret)
			return ret;
	}
	aqm_rate_enqueue(skb, now);
	return qdisc_enqueue_tail(skb, sch);
}

static struct sk_buff *afd_qdisc_dequeue(struct Qdisc *sch)
{
	struct afd_sched_data *q = qdisc_priv(sch);
	u64 now = ktime_get_ns();

	afd_advance(sch, q, now);
	return aqm_rate_dequeue_head(sch, &q->rate, now);
}

static AQM_NLA_RANGE_CONST struct netlink_range_validation afd_qlen_range = {
	.min = 1, .max = 1 << 20,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation afd_target_range = {
	.min = 0, .max = USEC_PER_SEC,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation afd_tupdate_range = {
	.min = 100, .max = USEC_PER_SEC,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation afd_shadow_range = {
	.min = 1, .max = AQM_SHADOW_MAX,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation afd_sample_range = {
	.min = 1, .max = 65536,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation afd_flows_range = {
	.min = 0, .max = AQM_SHADOW_MAX,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation afd_avpkt_range = {
	.min = 40, .max = 65535,
};

static const struct nla_policy afd_policy[TCA_AFD_MAX + 1] = {
	[TCA_AFD_LIMIT]	   = NLA_POLICY_FULL_RANGE(NLA_U32, &afd_qlen_range),
	[TCA_AFD_QREF]	   = NLA_POLICY_FULL_RANGE(NLA_U32, &afd_qlen_range),
	[TCA_AFD_ALPHA]	   = AQM_NLA_POLICY_RATIO,
	[TCA_AFD_BETA]	   = AQM_NLA_POLICY_RATIO,
	[TCA_AFD_TUPDATE]  = NLA_POLICY_FULL_RANGE(NLA_U32, &afd_tupdate_range),
	[TCA_AFD_SHADOW]   = NLA_POLICY_FULL_RANGE(NLA_U32, &afd_shadow_range),
	[TCA_AFD_SAMPLE]   = NLA_POLICY_FULL_RANGE(NLA_U32, &afd_sample_range),
	[TCA_AFD_FLOWS]	   = NLA_POLICY_FULL_RANGE(NLA_U32, &afd_flows_range),
	[TCA_AFD_BYTEMODE] = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_AFD_AVPKT]	   = NLA_POLICY_FULL_RANGE(NLA_U32, &afd_avpkt_range),
	[TCA_AFD_ECN]	   = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_AFD_ECN_CEIL] = AQM_NLA_POLICY_RATIO,
	[TCA_AFD_TARGET]   = NLA_POLICY_FULL_RANGE(NLA_U32, &afd_target_range),
	[TCA_AFD_HOLD]	   = NLA_POLICY_MAX(NLA_U8, 1),
};

/* Controller parameters from a configuration; nothing is changed on error. */
static int afd_params(const struct afd_cfg *c, struct nlattr **tb,
		      struct aqm_pi_params *p, struct netlink_ext_ack *extack)
{
	/* with a time target, qref is only the start and is kept below limit */
	if (!c->target_us && c->qref >= c->limit) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_AFD_QREF] ?: tb[TCA_AFD_LIMIT],
				    "qref must be below limit");
		return -EINVAL;
	}
	if (c->flows > c->shadow) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_AFD_FLOWS] ?: tb[TCA_AFD_SHADOW],
				    "flows must be at most the shadow buffer size");
		return -EINVAL;
	}
	*p = (struct aqm_pi_params) {
		.tupdate = (u64)c->tupdate_us * NSEC_PER_USEC,
		.x_min = 0,
		.x_max = AQM_AFD_FAIR_MAX,
		.qref = min(c->qref, max_t(u32, c->limit, 2) - 1),
		.falling = true,
	};
	/* the newest sample takes beta, the previous one alpha */
	if (aqm_pi_gain_from_ratio(c->beta.num, c->beta.den, &p->g_new)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_AFD_BETA],
				    "beta must be a ratio below 32768");
		return -EINVAL;
	}
	if (aqm_pi_gain_from_ratio(c->alpha.num, c->alpha.den, &p->g_old)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_AFD_ALPHA],
				    "alpha must be a ratio below 32768");
		return -EINVAL;
	}
	if (p->g_old >= p->g_new) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_AFD_ALPHA] ?: tb[TCA_AFD_BETA],
				    "alpha must be less than beta (beta - alpha is the integral gain)");
		return -EINVAL;
	}
	return 0;
}

static int afd_change(struct Qdisc *sch, struct nlattr *opt,
		      struct netlink_ext_ack *extack)
{
	struct afd_sched_data *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_AFD_MAX + 1];
	struct aqm_shadow sh = {}, old_sh = {};
	struct aqm_pi_params params;
	struct afd_cfg c = q->cfg;
	bool first = !q->sh.ring;
	bool resize;
	u64 ecn_ceil;
	int err;

	if (opt) {
		err = nla_parse_nested(tb, TCA_AFD_MAX, opt, afd_policy, extack);
		if (err < 0)
			return err;
	} else {
		memset(tb, 0, sizeof(tb));
	}

	if (tb[TCA_AFD_QREF] && tb[TCA_AFD_TARGET] &&
	    nla_get_u32(tb[TCA_AFD_TARGET])) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_AFD_TARGET],
				    "give either qref (packets) or target (time), not both");
		return -EINVAL;
	}
	if (tb[TCA_AFD_LIMIT])
		c.limit = nla_get_u32(tb[TCA_AFD_LIMIT]);
	if (tb[TCA_AFD_QREF]) {
		/* a target in packets replaces the time target */
		c.qref = nla_get_u32(tb[TCA_AFD_QREF]);
		c.target_us = 0;
	}
	if (tb[TCA_AFD_TARGET])
		c.target_us = nla_get_u32(tb[TCA_AFD_TARGET]);
	err = AQM_NLA_RATIO_OPT(tb[TCA_AFD_ALPHA], &c.alpha, extack, "alpha");
	if (err)
		return err;
	err = AQM_NLA_RATIO_OPT(tb[TCA_AFD_BETA], &c.beta, extack, "beta");
	if (err)
		return err;
	err = aqm_nla_get_ecn_ceil(tb[TCA_AFD_ECN_CEIL], &c.ecn_ceil, &ecn_ceil,
				   extack);
	if (err)
		return err;
	if (tb[TCA_AFD_TUPDATE])
		c.tupdate_us = nla_get_u32(tb[TCA_AFD_TUPDATE]);
	if (tb[TCA_AFD_SHADOW])
		c.shadow = nla_get_u32(tb[TCA_AFD_SHADOW]);
	if (tb[TCA_AFD_SAMPLE])
		c.sample = nla_get_u32(tb[TCA_AFD_SAMPLE]);
	if (tb[TCA_AFD_FLOWS])
		c.flows = nla_get_u32(tb[TCA_AFD_FLOWS]);
	if (tb[TCA_AFD_BYTEMODE])
		c.bytemode = nla_get_u8(tb[TCA_AFD_BYTEMODE]);
	if (tb[TCA_AFD_AVPKT])
		c.avpkt = nla_get_u32(tb[TCA_AFD_AVPKT]);
	if (tb[TCA_AFD_ECN])
		c.ecn = nla_get_u8(tb[TCA_AFD_ECN]);
	if (tb[TCA_AFD_HOLD])
		c.hold = nla_get_u8(tb[TCA_AFD_HOLD]);

	err = afd_params(&c, tb, &params, extack);
	if (err)
		return err;

	/* a new buffer first: a failed allocation changes nothing. Its
	 * counts are in the old unit, so a new bytemode starts empty too.
	 */
	resize = first || c.shadow != q->cfg.shadow ||
		 afd_flows(&c) != afd_flows(&q->cfg) ||
		 c.bytemode != q->cfg.bytemode;
	if (resize && aqm_shadow_alloc(&sh, c.shadow, afd_flows(&c))) {
		NL_SET_ERR_MSG_MOD(extack, "no memory for the shadow buffer");
		return -ENOMEM;
	}

	sch_tree_lock(sch);
	if (resize) {
		old_sh = q->sh;
		q->sh = sh;
		/* counters of the old table carry over */
		q->sh.counts.full += old_sh.counts.full;
	}
	if (c.tupdate_us != q->cfg.tupdate_us)
		q->vars.next = ktime_get_ns() + params.tupdate;
	if (!first)	/* the cap of the last sample */
		params.x_max = q->params.x_max;
	q->params = params;
	aqm_rel_gains(&q->rel, (u64)c.target_us * NSEC_PER_USEC,
		      params.tupdate);
	q->rel.hold = c.hold;
	q->unit = c.bytemode ? c.avpkt : 1;
	q->ecn_ceil = ecn_ceil;
	q->cfg = c;
	WRITE_ONCE(sch->limit, c.limit);
	aqm_qdisc_trim(sch, c.limit);
	sch_tree_unlock(sch);

	aqm_shadow_free(&old_sh);
	return 0;
}

static int afd_init(struct Qdisc *sch, struct nlattr *opt,
		    struct netlink_ext_ack *extack)
{
	struct afd_sched_data *q = qdisc_priv(sch);
	int err;

	q->cfg = (struct afd_cfg) {
		.alpha = { AFD_DEF_ALPHA_NUM, AFD_DEF_ALPHA_DEN },
		.beta = { AFD_DEF_BETA_NUM, AFD_DEF_BETA_DEN },
		.ecn_ceil = AQM_ECN_CEIL_DEF,
		.limit = AFD_DEF_LIMIT,
		.qref = AFD_DEF_QREF,
		.target_us = AFD_DEF_TARGET_US,
		.tupdate_us = AFD_DEF_TUPDATE_US,
		.shadow = AFD_DEF_SHADOW,
		.sample = AFD_DEF_SAMPLE,
		.avpkt = AFD_DEF_AVPKT,
		.hold = true,
	};
	aqm_flow_key_init(&q->key);
	sch->limit = AFD_DEF_LIMIT;
	q->unit = 1;
	/* without options, change() still allocates the buffer */
	err = afd_change(sch, opt, extack);
	if (err)
		return err;
	afd_vars_init(q);
	return 0;
}

static void afd_destroy(struct Qdisc *sch)
{
	struct afd_sched_data *q = qdisc_priv(sch);

	aqm_shadow_free(&q->sh);
}

static void afd_reset(struct Qdisc *sch)
{
	struct afd_sched_data *q = qdisc_priv(sch);

	qdisc_reset_queue(sch);
	if (q->sh.ring)
		aqm_shadow_reset(&q->sh);
	q->rate = (struct aqm_rate) {};
	afd_vars_init(q);
}

static int afd_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct afd_sched_data *q = qdisc_priv(sch);
	const struct afd_cfg *c = &q->cfg;
	struct nlattr *opts;

	opts = nla_nest_start(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (nla_put_u32(skb, TCA_AFD_LIMIT, READ_ONCE(sch->limit)) ||
	    nla_put_u32(skb, TCA_AFD_QREF, c->qref) ||
	    aqm_nla_put_ratio(skb, TCA_AFD_ALPHA, c->alpha.num, c->alpha.den) ||
	    aqm_nla_put_ratio(skb, TCA_AFD_BETA, c->beta.num, c->beta.den) ||
	    nla_put_u32(skb, TCA_AFD_TUPDATE, c->tupdate_us) ||
	    nla_put_u32(skb, TCA_AFD_SHADOW, c->shadow) ||
	    nla_put_u32(skb, TCA_AFD_SAMPLE, c->sample) ||
	    nla_put_u32(skb, TCA_AFD_FLOWS, c->flows) ||
	    nla_put_u8(skb, TCA_AFD_BYTEMODE, c->bytemode) ||
	    nla_put_u32(skb, TCA_AFD_AVPKT, c->avpkt) ||
	    nla_put_u8(skb, TCA_AFD_ECN, c->ecn) ||
	    aqm_nla_put_ratio(skb, TCA_AFD_ECN_CEIL, c->ecn_ceil.num,
			      c->ecn_ceil.den) ||
	    nla_put_u32(skb, TCA_AFD_TARGET, c->target_us) ||
	    nla_put_u8(skb, TCA_AFD_HOLD, c->hold))
		goto nla_put_failure;
	return nla_nest_end(skb, opts);

nla_put_failure:
	nla_nest_cancel(skb, opts);
	return -EMSGSIZE;
}

static int afd_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct afd_sched_data *q = qdisc_priv(sch);
	struct tc_afd_xstats st;

	/* called without the qdisc lock */
	sch_tree_lock(sch);
	afd_advance(sch, q, ktime_get_ns());
	st = q->stats;
	/* m_fair in m_i's unit, 1/256: x * unit / 2^24, x <= 2^61 */
	st.m_fair = mul_u64_u32_shr((u64)max_t(s64, q->vars.x, 0), q->unit,
				    AQM_PI_SHIFT - 8);
	st.qlen_sampled = q->vars.qold;
	st.shadow_len = q->sh.len;
	st.shadow_size = q->sh.size;
	st.flows = q->sh.counts.count;
	st.flows_hwm = q->sh.counts.hwm;
	st.flows_capacity = q->sh.counts.capacity;
	st.samples = q->vars.samples;
	st.untracked = q->sh.counts.full;
	st.memory = aqm_shadow_mem(&q->sh);
	st.qref = q->params.qref;
	st.rate = q->rate.pps;
	sch_tree_unlock(sch);
	return gnet_stats_copy_app(d, &st, sizeof(st));
}

static struct Qdisc_ops afd_qdisc_ops __read_mostly = {
	.id		= "afd",
	.priv_size	= sizeof(struct afd_sched_data),
	.enqueue	= afd_qdisc_enqueue,
	.dequeue	= afd_qdisc_dequeue,
	.peek		= qdisc_peek_dequeued,
	.init		= afd_init,
	.reset		= afd_reset,
	.destroy	= afd_destroy,
	.change		= afd_change,
	.dump		= afd_dump,
	.dump_stats	= afd_dump_stats,
	.owner		= THIS_MODULE,
};

MODULE_ALIAS_NET_SCH("afd");

static int __init afd_module_init(void)
{
	return register_qdisc(&afd_qdisc_ops);
}

static void __exit afd_module_exit(void)
{
	unregister_qdisc(&afd_qdisc_ops);
}

module_init(afd_module_init);
module_exit(afd_module_exit);

MODULE_DESCRIPTION("Approximate Fair Dropping AQM");
MODULE_LICENSE("GPL");
