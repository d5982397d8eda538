/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqm_qdisc.h - small helpers shared by the FIFO-based linux-aqm qdiscs
 * (pi, rem, ared, dcn, afd, blue): ratio options in netlink, the ECN
 * marking ceiling, the congestion signal of an AQM decision, byte mode's
 * mean packet length, trimming the queue to a lowered limit. Header-only:
 * no module dependency.
 */
#ifndef __NET_AQM_QDISC_H
#define __NET_AQM_QDISC_H

#include <linux/math64.h>
#include <linux/skbuff.h>
#include <net/aqm_pi.h>
#include <net/inet_ecn.h>
#include <net/netlink.h>
#include <net/sch_generic.h>
#include <uapi/linux/pkt_aqm.h>

/*
 * Ranges: small ones go in the policy (NLA_POLICY_RANGE/MIN/MAX), larger
 * ones in a struct netlink_range_validation (NLA_POLICY_FULL_RANGE), so
 * that policy dumps show them all. Those structs are not const: Linux 6.1
 * (Debian 12's kernel) takes a plain pointer there, only 6.7 and later a
 * const one, and the modules build against both.
 */

/**
 * struct aqm_ratio - a non-negative rational number, num / den
 * @num:	numerator
 * @den:	denominator; > 0 once set
 *
 * What netlink carries in a TCA_AQM_RATIO_* nest, kept as set so that a
 * dump returns exactly what was configured.
 */
struct aqm_ratio {
	u64 num;
	u64 den;
};

static const struct nla_policy aqm_ratio_policy[TCA_AQM_RATIO_MAX + 1] = {
	[TCA_AQM_RATIO_NUM]	= { .type = NLA_U64 },
	[TCA_AQM_RATIO_DEN]	= NLA_POLICY_MIN(NLA_U64, 1),
};

/* Policy entry of an option that is a ratio nest. */
#define AQM_NLA_POLICY_RATIO	NLA_POLICY_NESTED(aqm_ratio_policy)

/**
 * aqm_nla_get_ratio() - read a ratio nest that the policy has validated
 * @nla:	an attribute with policy AQM_NLA_POLICY_RATIO
 * @r:		output; left alone on error
 *
 * The policy has checked the types and den > 0; what it cannot check is
 * that both members are present. The caller names the option in extack.
 *
 * Return: 0, or -EINVAL when num or den is missing.
 */
static inline int aqm_nla_get_ratio(const struct nlattr *nla,
				    struct aqm_ratio *r)
{
	struct nlattr *tb[TCA_AQM_RATIO_MAX + 1];

	if (nla_parse_nested(tb, TCA_AQM_RATIO_MAX, nla, aqm_ratio_policy,
			     NULL) ||
	    !tb[TCA_AQM_RATIO_NUM] || !tb[TCA_AQM_RATIO_DEN])
		return -EINVAL;
	r->num = nla_get_u64(tb[TCA_AQM_RATIO_NUM]);
	r->den = nla_get_u64(tb[TCA_AQM_RATIO_DEN]);
	return 0;
}

/**
 * AQM_NLA_RATIO_OPT() - read an optional ratio option, naming it on error
 * @nla:	the option's attribute, NULL when it was not given
 * @r:		output; left alone when @nla is NULL or on error
 * @extack:	extended ack
 * @name:	the option's name, a string literal
 *
 * A macro because NL_SET_ERR_MSG_ATTR() takes a string literal.
 *
 * Return: 0, or -EINVAL when the nest lacks a member.
 */
#define AQM_NLA_RATIO_OPT(nla, r, extack, name) ({			\
	const struct nlattr *__nla = (nla);				\
	int __err = 0;							\
									\
	if (__nla && aqm_nla_get_ratio(__nla, (r))) {			\
		NL_SET_ERR_MSG_ATTR((extack), __nla,			\
			name " needs a numerator and a denominator");	\
		__err = -EINVAL;					\
	}								\
	__err;								\
})

/**
 * aqm_nla_put_ratio() - dump num / den as a ratio nest
 * @skb:	the message
 * @type:	attribute type of the nest
 * @num:	numerator
 * @den:	denominator
 *
 * Return: 0 or -EMSGSIZE (the nest is cancelled).
 */
static inline int aqm_nla_put_ratio(struct sk_buff *skb, int type, u64 num,
				    u64 den)
{
	struct nlattr *nest = nla_nest_start(skb, type);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, TCA_AQM_RATIO_NUM, num, TCA_AQM_RATIO_PAD) ||
	    nla_put_u64_64bit(skb, TCA_AQM_RATIO_DEN, den, TCA_AQM_RATIO_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * ECN marking ceiling, as in RED and PIE: with ecn, an ECT packet is
 * CE-marked instead of dropped only while the drop probability is at most
 * the ceiling; above it ECT packets are dropped like the others, so that an
 * unresponsive ECT flow cannot hold the queue. Default: PIE's 10%.
 * Probabilities are fractions of AQM_PI_ONE = 2^32 (include/net/aqm_pi.h).
 */
#define AQM_ECN_CEIL_DEF	((struct aqm_ratio){ .num = 1, .den = 10 })

/**
 * aqm_ecn_ceil_from_ratio() - the ceiling in the probability scale
 * @r:		ratio as set, den > 0
 * @ceil:	output: floor(num / den * 2^32), in [0, AQM_PI_ONE]
 *
 * Rounding down is exact for the test p <= num / den: for an integer p,
 * p <= x is the same as p <= floor(x).
 *
 * Return: 0, or -EINVAL when the ratio is above 1.
 */
static inline int aqm_ecn_ceil_from_ratio(const struct aqm_ratio *r, u64 *ceil)
{
	if (!r->den || r->num > r->den)
		return -EINVAL;
	/* num <= den: the quotient is at most 2^32 */
	*ceil = mul_u64_u64_div_u64(r->num, AQM_PI_ONE, r->den);
	return 0;
}

/**
 * aqm_nla_get_ecn_ceil() - the ecn_ceil option of a change request
 * @nla:	the TCA_*_ECN_CEIL attribute, NULL when it was not given
 * @r:		in: the ceiling as configured; out: as requested
 * @ceil:	output: @r in the probability scale (aqm_ecn_ceil_from_ratio())
 * @extack:	extended ack
 *
 * Return: 0, or -EINVAL (with a message naming ecn_ceil) for a nest
 * without both members or a ratio above 1.
 */
static inline int aqm_nla_get_ecn_ceil(const struct nlattr *nla,
				       struct aqm_ratio *r, u64 *ceil,
				       struct netlink_ext_ack *extack)
{
	int err = AQM_NLA_RATIO_OPT(nla, r, extack, "ecn_ceil");

	if (err)
		return err;
	if (aqm_ecn_ceil_from_ratio(r, ceil)) {
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "ecn_ceil must be a probability in [0, 1]");
		return -EINVAL;
	}
	return 0;
}

/**
 * aqm_share_prob_le() - is max(0, 1 - share / count) <= ceil?
 * @share:	fair share (DCN's pref, AFD's M_fair), AQM_PI_ONE = 1 packet
 * @count:	the flow's count, same unit
 * @ceil:	from aqm_ecn_ceil_from_ratio()
 *
 * The probability of aqm_share_hit() against the ceiling, without a
 * division: 1 - share/count <= ceil/2^32 <=> count - share <= count *
 * ceil / 2^32; the left side is an integer, so flooring the right side
 * changes nothing. The test is exact for @ceil; @ceil itself is the
 * configured ratio rounded down to a multiple of 2^-32, so a probability
 * at the configured ceiling, or less than 2^-32 below it, may count as
 * above it.
 */
static inline bool aqm_share_prob_le(s64 share, s64 count, u64 ceil)
{
	if (ceil >= AQM_PI_ONE || count <= share || count <= 0)
		return true;
	share = max_t(s64, share, 0);
	return (u64)(count - share) <= mul_u64_u32_shr((u64)count, (u32)ceil, 32);
}

/**
 * aqm_qdisc_signal() - the congestion signal of an AQM decision
 * @skb:	the arriving packet the decision hit
 * @sch:	the qdisc
 * @to_free:	the enqueue's list of packets to free
 * @may_mark:	ecn is on and the probability is at most the ceiling
 * @marks:	counter of CE marks
 * @drops:	counter of the drops of this reason
 *
 * Every decision counts an overlimit. An ECT packet that may be marked is
 * CE-marked and stays; any other is dropped, and the parent sees
 * NET_XMIT_CN (a drop and no packet), as with sch_red.
 *
 * Return: NET_XMIT_SUCCESS after a mark (the caller enqueues the packet),
 * NET_XMIT_CN after a drop.
 */
static inline int aqm_qdisc_signal(struct sk_buff *skb, struct Qdisc *sch,
				   struct sk_buff **to_free, bool may_mark,
				   u64 *marks, u64 *drops)
{
	qdisc_qstats_overlimit(sch);
	if (may_mark && INET_ECN_set_ce(skb)) {
		(*marks)++;
		return NET_XMIT_SUCCESS;
	}
	(*drops)++;
	qdisc_drop(skb, sch, to_free);
	return NET_XMIT_CN;
}

/*
 * Byte mode (AQM/ECN paper eq. 3) scales a packet's probability by its size
 * over the mean packet size; the mean is an EWMA with weight
 * 2^-AQM_MEAN_LEN_SHIFT of the sizes of the packets that arrive.
 */
#define AQM_MEAN_LEN_SHIFT	4

/**
 * struct aqm_mean_len - the mean packet size of byte mode
 * @mean:	mean size, 1/256 bytes
 * @recip:	2^32 / mean size, as of the last aqm_mean_len_refresh()
 */
struct aqm_mean_len {
	u32 mean;
	u32 recip;
};

/* Take the reciprocal of the mean anew: one division, not per packet. */
static inline void aqm_mean_len_refresh(struct aqm_mean_len *m)
{
	m->recip = (u32)min_t(u64, div_u64(BIT_ULL(40), m->mean ?: 1), U32_MAX);
}

static inline void aqm_mean_len_init(struct aqm_mean_len *m, u32 bytes)
{
	m->mean = bytes << 8;
	aqm_mean_len_refresh(m);
}

static inline u32 aqm_mean_len_bytes(const struct aqm_mean_len *m)
{
	return m->mean >> 8;
}

/**
 * aqm_mean_len_scale() - count an arrival and scale its probability
 * @m:		the mean
 * @p:		probability, AQM_PI_ONE = 1.0
 * @len:	the arrival's size, bytes
 *
 * Return: p * len / mean, capped at 1.0 (aqm_prob_scale_len()).
 */
static inline s64 aqm_mean_len_scale(struct aqm_mean_len *m, s64 p, u32 len)
{
	s32 delta = (s32)((len << 8) - m->mean);

	m->mean += delta >> AQM_MEAN_LEN_SHIFT;
	return aqm_prob_scale_len(p, len, m->recip);
}

/**
 * aqm_qdisc_trim_to() - drop from the head until the queue fits both limits
 * @sch:	the qdisc, tree lock held (change)
 * @max_pkts:	packets
 * @max_bytes:	bytes of backlog
 * @leave:	NULL, or called for each packet taken from sch->q (the
 *		qdisc's own per-packet accounting; a peeked packet has
 *		been dequeued already)
 *
 * Used when `change` lowers the limit. A packet a parent has peeked sits
 * in sch->gso_skb and counts in sch->q.qlen: it is the head, so it goes
 * first. Backlog and the ancestors' counters stay exact.
 *
 * Return: the number of packets dropped.
 */
static inline unsigned int
aqm_qdisc_trim_to(struct Qdisc *sch, u32 max_pkts, u32 max_bytes,
		  void (*leave)(struct Qdisc *sch, const struct sk_buff *skb))
{
	unsigned int qlen = sch->q.qlen, bytes = 0;

	while (sch->q.qlen > max_pkts || sch->qstats.backlog > max_bytes) {
		struct sk_buff *skb = __skb_dequeue(&sch->gso_skb);

		if (skb) {
			sch->q.qlen--;
		} else {
			skb = __qdisc_dequeue_head(&sch->q);
			if (leave)
				leave(sch, skb);
		}
		bytes += qdisc_pkt_len(skb);
		qdisc_qstats_backlog_dec(sch, skb);
		rtnl_qdisc_drop(skb, sch);
	}
	/*
	 * Nothing dropped: the parents are not told (a child that was empty
	 * already would be reported as emptied again, and a parent whose
	 * qlen_notify is not idempotent, as some were before 2025, would
	 * deactivate its class twice). As sch_sfb's trim.
	 */
	if (qlen != sch->q.qlen)
		qdisc_tree_reduce_backlog(sch, qlen - sch->q.qlen, bytes);
	return qlen - sch->q.qlen;
}

/* aqm_qdisc_trim_to() for a limit in packets */
static inline unsigned int aqm_qdisc_trim(struct Qdisc *sch, u32 limit)
{
	return aqm_qdisc_trim_to(sch, limit, U32_MAX, NULL);
}

/* aqm_qdisc_trim_to() for a limit in bytes */
static inline unsigned int aqm_qdisc_trim_bytes(struct Qdisc *sch, u32 limit)
{
	return aqm_qdisc_trim_to(sch, U32_MAX, limit, NULL);
}

#endif /* __NET_AQM_QDISC_H */
