/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqm_qdisc.h - small helpers shared by the FIFO-based linux-aqm qdiscs
 * (pi, dcn, afd, blue). Header-only: no module dependency.
 */
#ifndef __NET_AQM_QDISC_H
#define __NET_AQM_QDISC_H

#include <linux/skbuff.h>
#include <net/netlink.h>
#include <net/sch_generic.h>

/**
 * struct aqm_nla_range - accepted values of one numeric netlink option
 * @min:	smallest value
 * @max:	largest value
 * @msg:	extack message naming the option and its range
 */
struct aqm_nla_range {
	u64 min;
	u64 max;
	const char *msg;
};

/**
 * aqm_nla_check_range() - range check of a u8/u32/u64 option
 * @attr:	the attribute (its type indexes @ranges)
 * @ranges:	per-type ranges; entries without @msg are not checked
 * @n:		number of entries of @ranges
 * @extack:	gets @msg and the attribute on failure
 *
 * The body of each qdisc's NLA_POLICY_VALIDATE_FN callback, so that the
 * policy table keeps the ranges and a rejection names the option, which
 * the generic "integer out of range" of NLA_POLICY_RANGE does not.
 *
 * Return: 0 or -EINVAL.
 */
static inline int aqm_nla_check_range(const struct nlattr *attr,
				      const struct aqm_nla_range *ranges,
				      unsigned int n,
				      struct netlink_ext_ack *extack)
{
	unsigned int type = nla_type(attr);
	u64 v;

	if (type >= n || !ranges[type].msg)
		return 0;
	switch (nla_len(attr)) {
	case sizeof(u8):
		v = nla_get_u8(attr);
		break;
	case sizeof(u32):
		v = nla_get_u32(attr);
		break;
	case sizeof(u64):
		v = nla_get_u64(attr);
		break;
	default:
		goto bad;
	}
	if (v >= ranges[type].min && v <= ranges[type].max)
		return 0;
bad:
	/* NL_SET_ERR_MSG_ATTR() takes only string literals */
	NL_SET_BAD_ATTR(extack, attr);
	if (extack)
		extack->_msg = ranges[type].msg;
	return -EINVAL;
}

/**
 * aqm_qdisc_trim_to() - drop from the head until the queue fits both limits
 * @sch:	the qdisc, tree lock held (change)
 * @max_pkts:	packets
 * @max_bytes:	bytes of backlog
 *
 * Used when `change` lowers the limit. A packet a parent has peeked sits
 * in sch->gso_skb and counts in sch->q.qlen: it is the head, so it goes
 * first. Backlog and the ancestors' counters stay exact.
 *
 * Return: the number of packets dropped.
 */
static inline unsigned int aqm_qdisc_trim_to(struct Qdisc *sch, u32 max_pkts,
					     u32 max_bytes)
{
	unsigned int qlen = sch->q.qlen, bytes = 0;

	while (sch->q.qlen > max_pkts || sch->qstats.backlog > max_bytes) {
		struct sk_buff *skb = __skb_dequeue(&sch->gso_skb);

		if (skb)
			sch->q.qlen--;
		else
			skb = __qdisc_dequeue_head(&sch->q);
		bytes += qdisc_pkt_len(skb);
		qdisc_qstats_backlog_dec(sch, skb);
		rtnl_qdisc_drop(skb, sch);
	}
	qdisc_tree_reduce_backlog(sch, qlen - sch->q.qlen, bytes);
	return qlen - sch->q.qlen;
}

/* aqm_qdisc_trim_to() for a limit in packets */
static inline unsigned int aqm_qdisc_trim(struct Qdisc *sch, u32 limit)
{
	return aqm_qdisc_trim_to(sch, limit, U32_MAX);
}

/* aqm_qdisc_trim_to() for a limit in bytes */
static inline unsigned int aqm_qdisc_trim_bytes(struct Qdisc *sch, u32 limit)
{
	return aqm_qdisc_trim_to(sch, U32_MAX, limit);
}

#endif /* __NET_AQM_QDISC_H */
