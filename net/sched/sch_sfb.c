// SPDX-License-Identifier: GPL-2.0
/*
 * sch_sfb.c - Stochastic Fair BLUE, a drop-in for Linux's own sch_sfb.
 *
 * W. Feng, D. Kandlur, D. Saha, K. Shin, "The BLUE active queue management
 * algorithms", IEEE/ACM Transactions on Networking 10(4), 2002, section IV.
 *
 * A FIFO (the child qdisc, a pfifo of `limit` packets by default) guarded by
 * L levels of N accounting bins (Fig. 14). Each arrival is hashed into one
 * bin per level; a bin counts the packets of its flows in the queue and
 * keeps a BLUE probability p_m, raised by `increment` when an arrival finds
 * `bin_size` packets in the bin and lowered by `decrement` when it finds the
 * bin empty. A flow's p_min, the least p_m of its L bins, stays low for a
 * responsive flow: it may share bins with nonresponsive flows, but rarely
 * all L of them (with M nonresponsive flows, probability
 * [1 - (1 - 1/N)^M]^L, eq. (1)). p_min = 1 marks a flow nonresponsive: its
 * packets pass only within penalty_rate (and penalty_bytes, if set); other
 * packets are CE-marked with probability p_min, or dropped (not ECT, or
 * p_min above 1/2: Linux's rule). An arrival whose bins all hold `max`
 * packets is dropped. Every rehash_interval the hash functions change and
 * the bins start over; during the last warmup_time before that, a second
 * set of bins under the next functions is warmed so that nonresponsive
 * flows stay limited across the switch (IV-D, double buffering).
 *
 * The per-packet core is include/net/aqm_sfb.h, whose header comment says
 * what Linux does and where the paper differs. What this qdisc does that
 * Linux's sch_sfb (6.12) does not:
 *  - L and N are options (TCA_SFB_AQM_LEVELS, TCA_SFB_AQM_BINS; 8 and 16
 *    by default, as Linux), the hashes independent keyed siphashes of a
 *    per-instance flow id, and at a switch the old bins are reset (the
 *    paper), not only re-keyed;
 *  - the penalty is an exact token bucket, optionally with a byte rate
 *    (the paper's "fixed amount of bandwidth"); Linux's refills only when
 *    empty and discards fractions of a token;
 *  - every early drop and mark counts an overlimit (Linux: only the drops
 *    at limit, max and the penalty);
 *  - `change` keeps the queue, the child and the bins (Linux purges the
 *    queue, replaces the child by a new pfifo and zeroes the bins); a
 *    lowered limit reaches a pfifo child, and the excess is dropped from
 *    the head. A graft resets the bins, whose counts the old child took.
 *  - SFRED (section IV-A), with `red`: the same bins, hashes, moving hash
 *    and penalty, but each bin keeps RED state on its own count (an EWMA,
 *    the gentle RED curve, a max_p adapted by Floyd et al.'s AIMD) in
 *    place of BLUE's p_m; p_min is the least p_b of the flow's bins and
 *    is used as BLUE's is. The paper describes SFRED in one paragraph;
 *    the choices are in include/net/aqm_sfb.h and tc-sfb(8). Turning it
 *    on or off in a change starts the bins over.
 * Options, counters and the queue follow Linux otherwise; the differences
 * in detail are where they happen, below.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/siphash.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <net/aqm_compat.h>
#include <net/aqm_flow.h>
#include <net/aqm_qdisc.h>
#include <net/aqm_sfb.h>
#include <net/inet_ecn.h>
#include <net/netlink.h>
#include <net/pkt_cls.h>
#include <net/pkt_sched.h>
#include <uapi/linux/pkt_aqm.h>

/* SFRED's adaptation interval: 0 (max_p fixed) or 1 ms to 60 s, as ared's */
#define SFB_RED_INTERVAL_MIN_US	1000
#define SFB_RED_INTERVAL_MAX_US	60000000

/* bins a stats dump walks per hold of the tree lock: Linux's whole walk */
#define SFB_STATS_STEP		128

/* "penalized" in the xstats: flows with p_min = 1 in the last second */
#define SFB_PENALIZED_BITS	8
#define SFB_PENALIZED_SLOTS	BIT(SFB_PENALIZED_BITS)
#define SFB_PENALIZED_NS	NSEC_PER_SEC

/**
 * struct sfb_cfg - what netlink set
 * @qopt:		TCA_SFB_PARMS as set, with one exception: a limit of 0
 *			is replaced by the device's txqueuelen (as Linux
 *			dumps it). increment and decrement in 1/65536;
 *			rehash_interval and warmup_time in ms
 * @levels:		L, in [1, AQM_SFB_LEVELS_MAX]
 * @bins:		N, a power of two in [AQM_SFB_BINS_MIN, AQM_SFB_BINS_MAX]
 * @penalty_bytes:	bytes/s of the penalty's byte bucket; 0: none
 * @penalty_bytes_burst: bytes, that bucket's size
 * @warm_raise:	during warm-up a penalized arrival raises p_m of its
 *			standby bins (AQM_SFB_WARM_RAISE)
 * @warm_all:		every arrival warms the standby bins, not only those
 *			of penalized flows
 * @dec_emptied:	a bin whose count falls to 0 lowers its p_m too
 * @red:		SFRED: per-bin RED with adaptive max_p (AQM_SFB_RED)
 * @red_min:		its min_th, packets of a bin
 * @red_max:		its max_th, packets of a bin, above @red_min
 * @red_max_p:		a fresh bin's max_p, in (0, 1]
 * @red_ceil:		max_p rises while at most this, in (0, 1]
 * @red_interval_us:	adaptation interval, us; 0: max_p fixed
 * @red_wlog:		EWMA weight 2^-@red_wlog per arrival to a bin
 * @red_gentle:		p_b rises to 1 between max_th and 2 max_th
 */
struct sfb_cfg {
	struct tc_sfb_qopt qopt;
	u32 levels;
	u32 bins;
	u32 penalty_bytes;
	u32 penalty_bytes_burst;
	bool warm_all;
	bool warm_raise;
	bool dec_emptied;
	bool red;
	u32 red_min;
	u32 red_max;
	struct aqm_ratio red_max_p;
	struct aqm_ratio red_ceil;
	u32 red_interval_us;
	u32 red_wlog;
	bool red_gentle;
};

/**
 * struct sfb_stats - counters, those of struct tc_sfb_xstats as Linux keeps
 * them (u32, wrapping)
 * @earlydrop:		dropped with probability p_min (not ECT, or p_min
 *			above 1/2)
 * @penaltydrop:	packets of penalized flows refused by the penalty
 * @bucketdrop:		dropped because all bins of the flow held max packets
 * @queuedrop:		dropped at limit (arrivals, and the excess of a lowered
 *			limit)
 * @childdrop:		dropped by the child qdisc at enqueue
 * @marked:		CE-marked with probability p_min
 * @penalty_bytes_drops: of @penaltydrop, those the byte bucket refused
 */
struct sfb_stats {
	u32 earlydrop;
	u32 penaltydrop;
	u32 bucketdrop;
	u32 queuedrop;
	u32 childdrop;
	u32 marked;
	u64 penalty_bytes_drops;
};

/**
 * struct sfb_sched_data - per-qdisc state
 * @qdisc:		the child qdisc; NULL until init succeeds
 * @filter_list:	filters attached to the qdisc: when there are any, a
 *			packet's flow id is the minor of its class
 * @block:		their block
 * @cfg:		configuration as set
 * @sfb:		bins, rehash clock and penalty buckets
 * @key:		per-instance key of the flow id (aqm_flow_id())
 * @stats:		counters
 * @penalized:		per slot (hash_32(flow id, SFB_PENALIZED_BITS)), time
 *			of the last arrival with p_min = 1 of a flow of the
 *			slot, ns; 0: none yet. A slot stands for one flow,
 *			so the slot itself identifies it and no id is kept;
 *			flows sharing a slot count once
 */
struct sfb_sched_data {
	struct Qdisc *qdisc;
	struct tcf_proto __rcu *filter_list;
	struct tcf_block *block;
	struct sfb_cfg cfg;
	struct aqm_sfb sfb;
	siphash_key_t key;
	struct sfb_stats stats;
	u64 penalized[SFB_PENALIZED_SLOTS];
};

/*
 * A queued packet's struct aqm_sfb_cb: at the END of the qdisc cb's private
 * area. Linux keeps its hashes at the start, where codel, fq_codel, pie,
 * fq_pie, cake, fq, netem and Linux's sfb keep theirs: as a child, any of
 * them would overwrite them before this qdisc reads them back at dequeue.
 */
#define SFB_CB_OFFSET	(QDISC_CB_PRIV_LEN - sizeof(struct aqm_sfb_cb))

/*
 * The qdisc's clock: CLOCK_MONOTONIC at the tick's resolution, as Linux's
 * sfb runs on jiffies. Everything it times is coarse (the rehash interval
 * and warm-up, SFRED's 0.5 s adaptation interval, the last second of
 * penalized flows, a penalty bucket refilled at rates of packets per
 * second) and there is no freeze time, so a clock read per packet need not
 * cost a TSC read and its scaling.
 */
static u64 sfb_now(void)
{
	return ktime_get_coarse_ns();
}

static struct aqm_sfb_cb *sfb_cb(const struct sk_buff *skb)
{
	qdisc_cb_private_validate(skb, QDISC_CB_PRIV_LEN);
	return (struct aqm_sfb_cb *)(qdisc_skb_cb(skb)->data + SFB_CB_OFFSET);
}

/*
 * Linux's rule once a packet is hit with probability p_min < 1, with the
 * same draw: above 1/2 it is dropped instead of marked with probability
 * 2 (p_min - 1/2) (a flow marked that often is unresponsive, or the link
 * badly congested). rnd < p_min < 1: no overflow.
 */
static bool sfb_drop_not_mark(s64 p_min, u32 rnd)
{
	const s64 half = AQM_BLUE_ONE / 2;

	return p_min > half && (u64)rnd < 2 * (u64)(p_min - half);
}

/*
 * The penalty (Fig. 14's ratelimit()) for a packet of a penalized flow, of
 * LEN bytes in SEGS segments. Return: true when it is to be dropped.
 */
static bool sfb_penalty_drop(struct sfb_sched_data *q, u32 len, u32 segs,
			     u64 now)
{
	const struct aqm_sfb_penalty *pen = &q->sfb.penalty;

	if (aqm_sfb_penalty_pass(&q->sfb.penalty, len, segs, now))
		return false;
	q->stats.penaltydrop++;
	/* the packet bucket had its tokens: the byte bucket refused */
	if (pen->byte.rate && pen->pkt.rate && pen->pkt.burst &&
	    aqm_sfb_tb_ready(&pen->pkt, (u64)segs * AQM_SFB_TOKEN))
		q->stats.penalty_bytes_drops++;
	return true;
}

/*
 * With filters attached the flow id is the minor of the class they choose,
 * as in Linux. A packet no filter takes is dropped (Linux, sfq); one an
 * action takes is not ours. Return: false when the packet goes no further,
 * *qerr telling how.
 */
static bool sfb_classify(struct sk_buff *skb, struct tcf_proto *fl, int *qerr,
			 u32 *id)
{
	struct tcf_result res;
	int result;

	result = tcf_classify_qdisc(skb, fl, &res, false);
	if (result < 0)
		return false;
#ifdef CONFIG_NET_CLS_ACT
	switch (result) {
	case TC_ACT_STOLEN:
	case TC_ACT_QUEUED:
	case TC_ACT_TRAP:
		*qerr = NET_XMIT_SUCCESS | __NET_XMIT_STOLEN;
		fallthrough;
	case TC_ACT_SHOT:
		return false;
	}
#endif
	*id = TC_H_MIN(res.classid);
	return true;
}

static int sfb_enqueue(struct sk_buff *skb, struct Qdisc *sch,
		       struct sk_buff **to_free)
{
	struct sfb_sched_data *q = qdisc_priv(sch);
	int ret = NET_XMIT_SUCCESS | __NET_XMIT_BYPASS;
	/* the child may free or segment skb: its length first */
	unsigned int len = qdisc_pkt_len(skb);
	struct aqm_sfb *s = &q->sfb;
	struct aqm_sfb_res res;
	struct tcf_proto *fl;
	u32 id, rnd;
	u64 now;

	if (unlikely(sch->q.qlen >= q->cfg.qopt.limit)) {
		qdisc_qstats_overlimit(sch);
		q->stats.queuedrop++;
		goto congestion_drop;
	}

	now = sfb_now();
	aqm_sfb_tick(s, now);

	fl = rcu_dereference_bh(q->filter_list);
	if (fl) {
		if (!sfb_classify(skb, fl, &ret, &id)) {
			if (ret & __NET_XMIT_BYPASS)
				qdisc_qstats_drop(sch);
			__qdisc_drop(skb, to_free);
			return ret;
		}
	} else {
		id = aqm_flow_id(skb, &q->key);
	}

	aqm_sfb_arrive(s, id, now, &res);
	if (aqm_sfb_penalized(&res))
		q->penalized[hash_32(id, SFB_PENALIZED_BITS)] = now;

	if (unlikely(res.minqlen >= q->cfg.qopt.max)) {
		/* as Linux, it warms no standby bin; but with warm_raise a
		 * penalized one raises them still
		 */
		if (aqm_sfb_warm_at_max(s, &res))
			aqm_sfb_warm(s, now, &res);
		qdisc_qstats_overlimit(sch);
		q->stats.bucketdrop++;
		goto congestion_drop;
	}
	aqm_sfb_warm(s, now, &res);

	if (unlikely(aqm_sfb_penalized(&res))) {
		u32 segs = skb_is_gso(skb) ?
			   max_t(u32, skb_shinfo(skb)->gso_segs, 1) : 1;

		if (sfb_penalty_drop(q, len, segs, now)) {
			qdisc_qstats_overlimit(sch);
			goto congestion_drop;
		}
		goto enqueue;
	}

	/* no draw when nothing can be hit (p_min 0: every empty bin) */
	rnd = res.p_min > 0 ? get_random_u32() : 0;
	if (unlikely(aqm_prob_hit(res.p_min, rnd))) {
		qdisc_qstats_overlimit(sch);
		if (sfb_drop_not_mark(res.p_min, rnd) || !INET_ECN_set_ce(skb)) {
			q->stats.earlydrop++;
			goto congestion_drop;
		}
		q->stats.marked++;
	}

enqueue:
	*sfb_cb(skb) = res.cb;
	ret = qdisc_enqueue(skb, q->qdisc, to_free);
	/* skb may be gone */
	if (likely(ret == NET_XMIT_SUCCESS)) {
		sch->qstats.backlog += len;
		sch->q.qlen++;
		aqm_sfb_add(s, &res);
	} else if (net_xmit_drop_count(ret)) {
		q->stats.childdrop++;
		qdisc_qstats_drop(sch);
	}
	return ret;

congestion_drop:
	qdisc_drop(skb, sch, to_free);
	return NET_XMIT_CN;
}

/* A packet left the child: out of sch's counters and of its bins. */
static void sfb_unqueue(struct Qdisc *sch, struct sfb_sched_data *q,
			struct sk_buff *skb)
{
	u64 now = 0;

	qdisc_qstats_backlog_dec(sch, skb);
	sch->q.qlen--;
	/* only a bin that empties needs the time */
	if (q->sfb.params.flags & AQM_SFB_DEC_EMPTIED)
		now = sfb_now();
	aqm_sfb_remove(&q->sfb, sfb_cb(skb), now);
}

static struct sk_buff *sfb_dequeue(struct Qdisc *sch)
{
	struct sfb_sched_data *q = qdisc_priv(sch);
	struct sk_buff *skb;

	skb = qdisc_dequeue_peeked(q->qdisc);
	if (skb) {
		qdisc_bstats_update(sch, skb);
		sfb_unqueue(sch, q, skb);
	}
	return skb;
}

static struct sk_buff *sfb_peek(struct Qdisc *sch)
{
	struct sfb_sched_data *q = qdisc_priv(sch);

	return q->qdisc->ops->peek(q->qdisc);
}

/*
 * A lowered limit: drop from the head until the queue fits, keeping every
 * counter exact (the child counts these packets as dequeued). A child that
 * holds its packets back (a shaper) stops the trim early; arrivals are
 * refused until the queue is below the limit. Tree lock held.
 */
static void sfb_trim(struct Qdisc *sch, struct sfb_sched_data *q, u32 limit)
{
	unsigned int pkts = 0, bytes = 0;

	while (sch->q.qlen > limit) {
		struct sk_buff *skb = qdisc_dequeue_peeked(q->qdisc);

		if (!skb)
			break;
		pkts++;
		bytes += qdisc_pkt_len(skb);
		sfb_unqueue(sch, q, skb);
		q->stats.queuedrop++;
		rtnl_qdisc_drop(skb, sch);
	}
	/* never with 0: it would notify the parents of an empty child */
	if (pkts)
		qdisc_tree_reduce_backlog(sch, pkts, bytes);
}

static void sfb_reset(struct Qdisc *sch)
{
	struct sfb_sched_data *q = qdisc_priv(sch);

	/* also called when init failed: nothing may be there */
	if (q->qdisc)
		qdisc_reset(q->qdisc);
	if (q->sfb.bins)
		aqm_sfb_reset(&q->sfb, sfb_now(), NULL);
}

static void sfb_destroy(struct Qdisc *sch)
{
	struct sfb_sched_data *q = qdisc_priv(sch);

	/* also called when init failed: each may be NULL */
	tcf_block_put(q->block);
	qdisc_put(q->qdisc);
	aqm_sfb_free(&q->sfb);
}

/* not const: Linux 6.1's NLA_POLICY_FULL_RANGE() takes a plain pointer */
static AQM_NLA_RANGE_CONST struct netlink_range_validation sfb_penalty_bytes_range = {
	.min = 0, .max = U32_MAX,
};

static AQM_NLA_RANGE_CONST struct netlink_range_validation sfb_red_interval_range = {
	.max = SFB_RED_INTERVAL_MAX_US,
};

/*
 * TCA_SFB_PARMS as Linux: at least the struct (a longer one is accepted and
 * its tail ignored), every value accepted. The parse is Linux's too
 * (nla_parse_nested_deprecated): tc sends TCA_OPTIONS without
 * NLA_F_NESTED. The attributes added after it are validated strictly.
 */
static const struct nla_policy sfb_policy[TCA_SFB_AQM_MAX + 1] = {
	[TCA_SFB_UNSPEC]		  = { .strict_start_type =
						TCA_SFB_AQM_LEVELS },
	[TCA_SFB_PARMS]			  = { .len = sizeof(struct tc_sfb_qopt) },
	[TCA_SFB_AQM_LEVELS]		  = NLA_POLICY_RANGE(NLA_U32, 1,
							     AQM_SFB_LEVELS_MAX),
	[TCA_SFB_AQM_BINS]		  = NLA_POLICY_RANGE(NLA_U32,
							     AQM_SFB_BINS_MIN,
							     AQM_SFB_BINS_MAX),
	/* u64 in the ABI, u32 in struct aqm_sfb_tb: 34 Gbit/s at most */
	[TCA_SFB_AQM_PENALTY_BYTES]	  =
		NLA_POLICY_FULL_RANGE(NLA_U64, &sfb_penalty_bytes_range),
	[TCA_SFB_AQM_PENALTY_BYTES_BURST] = { .type = NLA_U32 },
	[TCA_SFB_AQM_WARM_ALL]		  = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_SFB_AQM_WARM_RAISE]	  = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_SFB_AQM_DEC_EMPTIED]	  = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_SFB_AQM_RED]		  = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_SFB_AQM_RED_MIN]		  =
		NLA_POLICY_MAX(NLA_U32, AQM_SFB_RED_TH_MAX - 1),
	[TCA_SFB_AQM_RED_MAX]		  =
		NLA_POLICY_RANGE(NLA_U32, 1, AQM_SFB_RED_TH_MAX),
	[TCA_SFB_AQM_RED_MAX_P]		  = AQM_NLA_POLICY_RATIO,
	[TCA_SFB_AQM_RED_CEIL]		  = AQM_NLA_POLICY_RATIO,
	[TCA_SFB_AQM_RED_INTERVAL]	  =
		NLA_POLICY_FULL_RANGE(NLA_U32, &sfb_red_interval_range),
	[TCA_SFB_AQM_RED_WLOG]		  =
		NLA_POLICY_MAX(NLA_U32, AQM_SFB_RED_WLOG_MAX),
	[TCA_SFB_AQM_RED_GENTLE]	  = NLA_POLICY_MAX(NLA_U8, 1),
};

/* Linux's defaults (tc-sfb(8)); limit 0: the device's txqueuelen */
static const struct tc_sfb_qopt sfb_default_qopt = {
	.rehash_interval = AQM_SFB_DEF_REHASH_MS,
	.warmup_time	 = AQM_SFB_DEF_WARMUP_MS,
	.max		 = AQM_SFB_DEF_MAX,
	.bin_size	 = AQM_SFB_DEF_BIN_SIZE,
	.increment	 = AQM_SFB_DEF_INCREMENT,
	.decrement	 = AQM_SFB_DEF_DECREMENT,
	.limit		 = 0,
	.penalty_rate	 = AQM_SFB_DEF_PENALTY_RATE,
	.penalty_burst	 = AQM_SFB_DEF_PENALTY_BURST,
};

/* A ratio in (0, 1] (sfb_red_check()) as a fraction of 2^32. */
static u64 sfb_prob(const struct aqm_ratio *r)
{
	return mul_u64_u64_div_u64(r->num, AQM_BLUE_ONE, r->den);
}

/* A probability the bins can hold: in (0, 1] and not below 2^-32. */
static bool sfb_prob_ok(const struct aqm_ratio *r)
{
	return r->num && r->num <= r->den && sfb_prob(r);
}

/*
 * SFRED's options, with or without red (they are kept for when it is
 * turned on): thresholds ordered, probabilities in (0, 1] and not below
 * 2^-32, the interval 0 or at least 1 ms; with red, none of BLUE's own
 * policies. Return: 0, or -EINVAL with a message.
 */
static int sfb_red_check(const struct sfb_cfg *c, struct nlattr **tb,
			 struct netlink_ext_ack *extack)
{
	if (c->red_max <= c->red_min) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_SFB_AQM_RED_MAX] ?:
				    tb[TCA_SFB_AQM_RED_MIN],
				    "red_max must be above red_min");
		return -EINVAL;
	}
	if (!sfb_prob_ok(&c->red_max_p)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_SFB_AQM_RED_MAX_P],
				    "red_max_p must be a probability in [2^-32, 1]");
		return -EINVAL;
	}
	if (!sfb_prob_ok(&c->red_ceil)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_SFB_AQM_RED_CEIL],
				    "red_ceil must be a probability in [2^-32, 1]");
		return -EINVAL;
	}
	if (c->red_interval_us && c->red_interval_us < SFB_RED_INTERVAL_MIN_US) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_SFB_AQM_RED_INTERVAL],
				    "red_interval must be 0 or at least 1 ms");
		return -EINVAL;
	}
	if (c->red && (c->warm_raise || c->dec_emptied)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_SFB_AQM_RED] ?:
				    tb[TCA_SFB_AQM_WARM_RAISE] ?:
				    tb[TCA_SFB_AQM_DEC_EMPTIED],
				    "warm_raise and dec_emptied act on BLUE's p_m: not with red");
		return -EINVAL;
	}
	return 0;
}

/*
 * The bins' rules from a configuration. Linux takes any u32 in
 * TCA_SFB_PARMS, and so does this: an increment or decrement above 1.0
 * saturates at 1.0 (Linux's u32 sum wraps there); a decrement of 0 never
 * lowers p_m, and an arrival into an empty bin is then no loss event even
 * with bin_size 0 (Linux tests qlen == 0 first).
 */
static void sfb_params(const struct sfb_cfg *c, struct aqm_sfb_params *p)
{
	const struct tc_sfb_qopt *o = &c->qopt;

	aqm_sfb_params_default(p);
	p->blue.delta1 = aqm_sfb_prob_from16(o->increment);
	p->blue.delta2 = aqm_sfb_prob_from16(o->decrement);
	p->bin_size = o->bin_size;
	p->rehash_ns = (u64)o->rehash_interval * NSEC_PER_MSEC;
	p->warmup_ns = (u64)o->warmup_time * NSEC_PER_MSEC;
	if (c->warm_all)
		p->flags |= AQM_SFB_WARM_ALL;
	if (c->warm_raise)
		p->flags |= AQM_SFB_WARM_RAISE;
	if (c->dec_emptied)
		p->flags |= AQM_SFB_DEC_EMPTIED;
	if (c->red) {
		/* sfb_red_check() passed: ordered, in range */
		p->flags |= AQM_SFB_RED;
		aqm_ared_curve_set(&p->red.curve, c->red_min, c->red_max,
				   c->red_gentle);
		p->red.curve.interval = (u64)c->red_interval_us *
					NSEC_PER_USEC;
		p->red.max_p = sfb_prob(&c->red_max_p);
		p->red.ceil = sfb_prob(&c->red_ceil);
		p->red.wlog = c->red_wlog;
	}
	if (!p->blue.delta2) {
		/* aqm_blue_decrement() divides by delta2 */
		p->flags &= ~(AQM_SFB_DEC_ARRIVAL | AQM_SFB_DEC_EMPTIED);
		p->bin_size = max(p->bin_size, 1U);
	}
}

static bool sfb_penalty_changed(const struct sfb_cfg *a,
				const struct sfb_cfg *b)
{
	return a->qopt.penalty_rate != b->qopt.penalty_rate ||
	       a->qopt.penalty_burst != b->qopt.penalty_burst ||
	       a->penalty_bytes != b->penalty_bytes ||
	       a->penalty_bytes_burst != b->penalty_bytes_burst;
}

/*
 * init (@init) and change. Every check and allocation comes before the
 * tree lock: nothing changes when one fails. A request without
 * TCA_SFB_PARMS keeps those options (Linux refuses it); TCA_SFB_AQM_*
 * options left out keep their values.
 */
static int sfb_configure(struct Qdisc *sch, struct nlattr *opt, bool init,
			 struct netlink_ext_ack *extack)
{
	struct sfb_sched_data *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_SFB_AQM_MAX + 1] = {};
	struct aqm_sfb fresh = {}, old = {};
	struct Qdisc *child = NULL;
	struct aqm_sfb_params params;
	struct sfb_cfg c = q->cfg;
	bool new_bins, new_penalty;
	int err;
	u64 now;

	if (opt) {
		err = nla_parse_nested_deprecated(tb, TCA_SFB_AQM_MAX, opt,
						  sfb_policy, extack);
		if (err < 0)
			return -EINVAL;
	}
	if (init) {
		c = (struct sfb_cfg) {
			.qopt = sfb_default_qopt,
			.levels = AQM_SFB_DEF_LEVELS,
			.bins = AQM_SFB_DEF_BINS,
			.red_min = AQM_SFB_RED_DEF_MIN,
			.red_max = AQM_SFB_RED_DEF_MAX,
			.red_max_p = { .num = 1, .den = 10 },
			.red_ceil = { .num = 1, .den = 1 },
			.red_interval_us = AQM_SFB_RED_DEF_INTERVAL_MS *
					   USEC_PER_MSEC,
			.red_wlog = AQM_SFB_RED_DEF_WLOG,
			.red_gentle = true,
		};
	}
	if (tb[TCA_SFB_PARMS])
		memcpy(&c.qopt, nla_data(tb[TCA_SFB_PARMS]), sizeof(c.qopt));
	if (init || tb[TCA_SFB_PARMS]) {
		if (!c.qopt.limit)
			c.qopt.limit = READ_ONCE(qdisc_dev(sch)->tx_queue_len);
	}
	if (tb[TCA_SFB_AQM_LEVELS])
		c.levels = nla_get_u32(tb[TCA_SFB_AQM_LEVELS]);
	if (tb[TCA_SFB_AQM_BINS]) {
		c.bins = nla_get_u32(tb[TCA_SFB_AQM_BINS]);
		if (!is_power_of_2(c.bins)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_SFB_AQM_BINS],
					    "bins must be a power of two");
			return -EINVAL;
		}
	}
	if (tb[TCA_SFB_AQM_PENALTY_BYTES])
		c.penalty_bytes = nla_get_u64(tb[TCA_SFB_AQM_PENALTY_BYTES]);
	if (tb[TCA_SFB_AQM_PENALTY_BYTES_BURST])
		c.penalty_bytes_burst =
			nla_get_u32(tb[TCA_SFB_AQM_PENALTY_BYTES_BURST]);
	if (tb[TCA_SFB_AQM_WARM_ALL])
		c.warm_all = nla_get_u8(tb[TCA_SFB_AQM_WARM_ALL]);
	if (tb[TCA_SFB_AQM_WARM_RAISE])
		c.warm_raise = nla_get_u8(tb[TCA_SFB_AQM_WARM_RAISE]);
	if (tb[TCA_SFB_AQM_DEC_EMPTIED])
		c.dec_emptied = nla_get_u8(tb[TCA_SFB_AQM_DEC_EMPTIED]);
	if (tb[TCA_SFB_AQM_RED])
		c.red = nla_get_u8(tb[TCA_SFB_AQM_RED]);
	if (tb[TCA_SFB_AQM_RED_MIN])
		c.red_min = nla_get_u32(tb[TCA_SFB_AQM_RED_MIN]);
	if (tb[TCA_SFB_AQM_RED_MAX])
		c.red_max = nla_get_u32(tb[TCA_SFB_AQM_RED_MAX]);
	if (AQM_NLA_RATIO_OPT(tb[TCA_SFB_AQM_RED_MAX_P], &c.red_max_p, extack,
			      "red_max_p") ||
	    AQM_NLA_RATIO_OPT(tb[TCA_SFB_AQM_RED_CEIL], &c.red_ceil, extack,
			      "red_ceil"))
		return -EINVAL;
	if (tb[TCA_SFB_AQM_RED_INTERVAL])
		c.red_interval_us = nla_get_u32(tb[TCA_SFB_AQM_RED_INTERVAL]);
	if (tb[TCA_SFB_AQM_RED_WLOG])
		c.red_wlog = nla_get_u32(tb[TCA_SFB_AQM_RED_WLOG]);
	if (tb[TCA_SFB_AQM_RED_GENTLE])
		c.red_gentle = nla_get_u8(tb[TCA_SFB_AQM_RED_GENTLE]);
	err = sfb_red_check(&c, tb, extack);
	if (err)
		return err;

	/* a byte bucket smaller than a packet would refuse all of them */
	if (c.penalty_bytes &&
	    c.penalty_bytes_burst < psched_mtu(qdisc_dev(sch))) {
		NL_SET_ERR_MSG_ATTR(extack,
				    tb[TCA_SFB_AQM_PENALTY_BYTES_BURST] ?:
				    tb[TCA_SFB_AQM_PENALTY_BYTES],
				    "penalty_bytes_burst must hold a packet of the device's MTU");
		return -EINVAL;
	}

	sfb_params(&c, &params);
	now = sfb_now();

	new_bins = init || c.levels != q->cfg.levels || c.bins != q->cfg.bins;
	if (new_bins) {
		err = aqm_sfb_alloc(&fresh, c.levels, c.bins, now);
		if (err) {
			NL_SET_ERR_MSG(extack, "sfb: no memory for the bins");
			return err;
		}
	}

	/* at init, and when the child was deleted (grafted as noop_qdisc,
	 * which drops everything): a new pfifo, as Linux's change makes
	 */
	if (init || q->qdisc == &noop_qdisc) {
		child = fifo_create_dflt(sch, &pfifo_qdisc_ops, c.qopt.limit,
					 extack);
		if (IS_ERR(child)) {
			aqm_sfb_free(&fresh);
			return PTR_ERR(child);
		}
	} else if (c.qopt.limit != q->cfg.qopt.limit &&
		   q->qdisc->ops == &pfifo_qdisc_ops) {
		/* a pfifo child, ours or grafted, follows sfb's limit in
		 * packets (as sch_tbf's fifo follows tbf's); other children
		 * keep theirs
		 */
		err = fifo_set_limit(q->qdisc, c.qopt.limit);
		if (err) {
			NL_SET_ERR_MSG(extack, "sfb: cannot pass the limit to the child");
			aqm_sfb_free(&fresh);
			return err;
		}
	}

	if (child)
		qdisc_hash_add(child, true);

	sch_tree_lock(sch);
	/* noop_qdisc, the only child replaced here, is built in: no put */
	if (child)
		q->qdisc = child;
	if (new_bins) {
		/* packets counted in the old bins may still be queued */
		aqm_sfb_inherit(&fresh, &q->sfb);
		old = q->sfb;
		q->sfb = fresh;
	}
	new_penalty = new_bins || sfb_penalty_changed(&c, &q->cfg);
	if (params.rehash_ns != q->sfb.params.rehash_ns ||
	    params.warmup_ns != q->sfb.params.warmup_ns)
		q->sfb.warming = false;	/* the next arrival decides */
	/* BLUE's bins and SFRED's hold different state: start them over */
	if (!new_bins && c.red != q->cfg.red)
		aqm_sfb_reset(&q->sfb, now, NULL);
	if (params.red.curve.interval != q->sfb.params.red.curve.interval)
		q->sfb.red_next = now + params.red.curve.interval;
	q->sfb.params = params;
	if (new_penalty)
		aqm_sfb_penalty_init(&q->sfb.penalty, c.qopt.penalty_rate,
				     c.qopt.penalty_burst, c.penalty_bytes,
				     c.penalty_bytes_burst, now);
	q->cfg = c;
	if (!init)
		sfb_trim(sch, q, c.qopt.limit);
	sch_tree_unlock(sch);

	aqm_sfb_free(&old);
	return 0;
}

static int sfb_change(struct Qdisc *sch, struct nlattr *opt,
		      struct netlink_ext_ack *extack)
{
	return sfb_configure(sch, opt, false, extack);
}

static int sfb_init(struct Qdisc *sch, struct nlattr *opt,
		    struct netlink_ext_ack *extack)
{
	struct sfb_sched_data *q = qdisc_priv(sch);
	int err;

	err = tcf_block_get(&q->block, &q->filter_list, sch, extack);
	if (err)
		return err;
	/* aqm_flow_key_init() without the module dependency */
	get_random_bytes(&q->key, sizeof(q->key));
	return sfb_configure(sch, opt, true, extack);
}

static int sfb_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct sfb_sched_data *q = qdisc_priv(sch);
	const struct sfb_cfg *c = &q->cfg;
	struct nlattr *opts;

	/* no NLA_F_NESTED, as Linux */
	opts = nla_nest_start_noflag(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (nla_put(skb, TCA_SFB_PARMS, sizeof(c->qopt), &c->qopt) ||
	    nla_put_u32(skb, TCA_SFB_AQM_LEVELS, c->levels) ||
	    nla_put_u32(skb, TCA_SFB_AQM_BINS, c->bins) ||
	    nla_put_u64_64bit(skb, TCA_SFB_AQM_PENALTY_BYTES, c->penalty_bytes,
			      TCA_SFB_AQM_PAD) ||
	    nla_put_u32(skb, TCA_SFB_AQM_PENALTY_BYTES_BURST,
			c->penalty_bytes_burst) ||
	    nla_put_u8(skb, TCA_SFB_AQM_WARM_ALL, c->warm_all) ||
	    nla_put_u8(skb, TCA_SFB_AQM_WARM_RAISE, c->warm_raise) ||
	    nla_put_u8(skb, TCA_SFB_AQM_DEC_EMPTIED, c->dec_emptied) ||
	    nla_put_u8(skb, TCA_SFB_AQM_RED, c->red) ||
	    nla_put_u32(skb, TCA_SFB_AQM_RED_MIN, c->red_min) ||
	    nla_put_u32(skb, TCA_SFB_AQM_RED_MAX, c->red_max) ||
	    aqm_nla_put_ratio(skb, TCA_SFB_AQM_RED_MAX_P, c->red_max_p.num,
			      c->red_max_p.den) ||
	    aqm_nla_put_ratio(skb, TCA_SFB_AQM_RED_CEIL, c->red_ceil.num,
			      c->red_ceil.den) ||
	    nla_put_u32(skb, TCA_SFB_AQM_RED_INTERVAL, c->red_interval_us) ||
	    nla_put_u32(skb, TCA_SFB_AQM_RED_WLOG, c->red_wlog) ||
	    nla_put_u8(skb, TCA_SFB_AQM_RED_GENTLE, c->red_gentle))
		goto nla_put_failure;
	return nla_nest_end(skb, opts);

nla_put_failure:
	nla_nest_cancel(skb, opts);
	return -EMSGSIZE;
}

/* Flows with p_min = 1 in the last second (slots written since). */
static u32 sfb_penalized(const struct sfb_sched_data *q, u64 now)
{
	u32 i, n = 0;

	for (i = 0; i < SFB_PENALIZED_SLOTS; i++) {
		u64 t = q->penalized[i];

		/* t may be a little after now (another CPU's clock) */
		if (t && t + SFB_PENALIZED_NS > now)
			n++;
	}
	return n;
}

/*
 * The xstats: struct tc_sfb_xstats, filled as Linux fills it, then struct
 * tc_sfb_aqm_xstats at byte sizeof(struct tc_sfb_xstats) without padding
 * (uapi/linux/pkt_aqm.h).
 */
static int sfb_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct sfb_sched_data *q = qdisc_priv(sch);
	u8 buf[sizeof(struct tc_sfb_xstats) +
	       sizeof(struct tc_sfb_aqm_xstats)];
	struct tc_sfb_aqm_xstats ax = {};
	struct tc_sfb_xstats st = {};
	struct aqm_sfb_stats bs = {};
	u32 l, pos = 0, nbins;

	/*
	 * Called without the qdisc lock: the bins change under it. Up to
	 * 65536 of them: the walk takes the lock for SFB_STATS_STEP bins at a
	 * time (with bottom halves off, as long as Linux's walk of 128), and
	 * lets the packets through between steps. The bins stay allocated:
	 * only a change under RTNL, which dumps hold too, replaces them.
	 */
	nbins = q->sfb.levels * q->sfb.nbins;
	sch_tree_lock(sch);
	while ((pos = aqm_sfb_stats_walk(&q->sfb, &bs, pos,
					 SFB_STATS_STEP)) < nbins) {
		sch_tree_unlock(sch);
		ASSERT_RTNL();
		sch_tree_lock(sch);
	}
	aqm_sfb_stats_end(&q->sfb, &bs);
	st.earlydrop = q->stats.earlydrop;
	st.penaltydrop = q->stats.penaltydrop;
	st.bucketdrop = q->stats.bucketdrop;
	st.queuedrop = q->stats.queuedrop;
	st.childdrop = q->stats.childdrop;
	st.marked = q->stats.marked;
	st.maxqlen = bs.maxqlen;
	st.maxprob = aqm_sfb_prob16(bs.max_p);
	st.avgprob = aqm_sfb_prob16(bs.avg_p);
	ax.levels = q->sfb.levels;
	ax.bins = q->sfb.nbins;
	ax.penalized = sfb_penalized(q, sfb_now());
	ax.penalty_drops_bytes = q->stats.penalty_bytes_drops;
	ax.memory = sizeof(*q) + aqm_sfb_mem(&q->sfb);
	for (l = 0; l < q->sfb.levels; l++)
		ax.polluted[l] = bs.full[l];
	sch_tree_unlock(sch);

	memcpy(buf, &st, sizeof(st));
	memcpy(buf + sizeof(st), &ax, sizeof(ax));
	return gnet_stats_copy_app(d, buf, sizeof(buf));
}

/*
 * As Linux's: the child is grafted at :1, but no class is dumped, so that
 * `tc class show` answers for a drop-in what it answers for Linux's sfb
 * (nothing: the walk stops at the refused dump, whatever its error; Linux
 * returns -ENOSYS, which checkpatch reserves for syscalls).
 */
static int sfb_dump_class(struct Qdisc *sch, unsigned long cl,
			  struct sk_buff *skb, struct tcmsg *tcm)
{
	return -EOPNOTSUPP;
}

/*
 * The old child's packets go (qdisc_replace()), and with them the bins'
 * counts: the bins start over, as at reset, in the same critical section.
 * Linux keeps the counts of the purged packets for ever.
 */
static int sfb_graft(struct Qdisc *sch, unsigned long arg, struct Qdisc *new,
		     struct Qdisc **old, struct netlink_ext_ack *extack)
{
	struct sfb_sched_data *q = qdisc_priv(sch);

	if (!new)
		new = &noop_qdisc;

	sch_tree_lock(sch);
	*old = q->qdisc;
	q->qdisc = new;
	qdisc_purge_queue(*old);
	aqm_sfb_reset(&q->sfb, sfb_now(), NULL);
	sch_tree_unlock(sch);
	return 0;
}

static struct Qdisc *sfb_leaf(struct Qdisc *sch, unsigned long arg)
{
	struct sfb_sched_data *q = qdisc_priv(sch);

	return q->qdisc;
}

static unsigned long sfb_find(struct Qdisc *sch, u32 classid)
{
	return 1;
}

static void sfb_walk(struct Qdisc *sch, struct qdisc_walker *walker)
{
	/* tc_qdisc_stats_dump(), which Linux 6.1 lacks */
	if (walker->stop)
		return;
	if (walker->count >= walker->skip && walker->fn(sch, 1, walker) < 0) {
		walker->stop = 1;
		return;
	}
	walker->count++;
}

static struct tcf_block *sfb_tcf_block(struct Qdisc *sch, unsigned long cl,
				       struct netlink_ext_ack *extack)
{
	struct sfb_sched_data *q = qdisc_priv(sch);

	return cl ? NULL : q->block;
}

static unsigned long sfb_bind(struct Qdisc *sch, unsigned long parent,
			      u32 classid)
{
	return 0;
}

static void sfb_unbind(struct Qdisc *sch, unsigned long arg)
{
}

/* no .change or .delete: -EOPNOTSUPP, where Linux returns -ENOSYS */
static const struct Qdisc_class_ops sfb_class_ops = {
	.graft		= sfb_graft,
	.leaf		= sfb_leaf,
	.find		= sfb_find,
	.walk		= sfb_walk,
	.tcf_block	= sfb_tcf_block,
	.bind_tcf	= sfb_bind,
	.unbind_tcf	= sfb_unbind,
	.dump		= sfb_dump_class,
};

static struct Qdisc_ops sfb_qdisc_ops __read_mostly = {
	.id		= "sfb",
	.priv_size	= sizeof(struct sfb_sched_data),
	.cl_ops		= &sfb_class_ops,
	.enqueue	= sfb_enqueue,
	.dequeue	= sfb_dequeue,
	.peek		= sfb_peek,
	.init		= sfb_init,
	.reset		= sfb_reset,
	.destroy	= sfb_destroy,
	.change		= sfb_change,
	.dump		= sfb_dump,
	.dump_stats	= sfb_dump_stats,
	.owner		= THIS_MODULE,
};

MODULE_ALIAS_NET_SCH("sfb");

static int __init sfb_module_init(void)
{
	int err = register_qdisc(&sfb_qdisc_ops);

	/* the kind "sfb" is taken: Linux's sch_sfb (or a built-in one) */
	if (err == -EEXIST)
		pr_err("Linux's sch_sfb is loaded and holds the kind \"sfb\": unload it first (rmmod sch_sfb)\n");
	return err;
}

static void __exit sfb_module_exit(void)
{
	unregister_qdisc(&sfb_qdisc_ops);
}

module_init(sfb_module_init);
module_exit(sfb_module_exit);

MODULE_DESCRIPTION("Stochastic Fair BLUE (Feng et al.), linux-aqm");
MODULE_VERSION("linux-aqm");	/* how tc's q_sfb tells it from Linux's sch_sfb */
MODULE_LICENSE("GPL");
