/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqm_qdisc.h - small helpers shared by the FIFO-based linux-aqm qdiscs
 * (pi, dcn, afd, blue). Header-only: no module dependency.
 */
#ifndef __NET_AQM_QDISC_H
#define __NET_AQM_QDISC_H

#include <linux/skbuff.h>
#include <net/sch_generic.h>

/**
 * aqm_qdisc_trim() - drop from the head until the queue fits @limit
 * @sch:	the qdisc, tree lock held (change)
 * @limit:	packets
 *
 * Used when `change` lowers the limit. A packet a parent has peeked sits
 * in sch->gso_skb and counts in sch->q.qlen: it is the head, so it goes
 * first. Backlog and the ancestors' counters stay exact.
 *
 * Return: the number of packets dropped.
 */
static inline unsigned int aqm_qdisc_trim(struct Qdisc *sch, u32 limit)
{
	unsigned int qlen = sch->q.qlen, bytes = 0;

	while (sch->q.qlen > limit) {
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

#endif /* __NET_AQM_QDISC_H */
