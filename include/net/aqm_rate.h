/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqm_rate.h - departure rate of a FIFO qdisc from its packets' sojourn
 * times, for the qdiscs whose queue target is a time (dcn's target; afd can
 * use it the same way). Header-only: no module dependency.
 *
 * A queue target in packets suits one link rate only (24 packets are 2.9 ms
 * at 100 Mbit/s and 72 ms at 4 Mbit/s). With a target in time the owner
 * converts it to packets with the rate at which its queue drains:
 *
 *   qref = target * rate
 *
 * and keeps running its controller on the queue length in packets.
 *
 * The rate is measured, not configured: the link may be shaped by a parent
 * (htb, tbf), shared with sibling classes or change with the medium. Every
 * packet carries in its qdisc_skb_cb the time it was enqueued and the number
 * of packets ahead of it then. When it leaves, those packets have all left
 * before it and the link was busy with them the whole time (the packet was
 * waiting behind them), so
 *
 *   sample = ahead / sojourn     (packets per second)
 *
 * is the departure rate over its stay. This is the measurement PIE makes
 * over a cycle of dequeued bytes (RFC 8033, section 5.2), taken here from
 * every packet that found a queue, which matters at low rates where a
 * queue held at the target is only a few packets long and PIE's 16 KB
 * cycles rarely start. A packet that found the queue empty gives no sample.
 * The samples are averaged with weight 1/16 (AQM_RATE_EWMA_SHIFT).
 *
 * Units: packets per second in fixed point with AQM_RATE_SHIFT = 8
 * fractional bits (1/256 packet/s); ahead < 2^21 and 10^9 < 2^30 keep the
 * sample's numerator below 2^59. Cost per packet: one ktime read at enqueue
 * (the qdisc already takes one), one division per dequeue of a packet that
 * found a queue.
 */
#ifndef __NET_AQM_RATE_H
#define __NET_AQM_RATE_H

#include <linux/build_bug.h>
#include <linux/math64.h>
#include <linux/skbuff.h>
#include <linux/time64.h>
#include <net/sch_generic.h>

#define AQM_RATE_SHIFT		8
#define AQM_RATE_EWMA_SHIFT	4

/**
 * struct aqm_rate_cb - what a packet carries in qdisc_skb_cb()->data
 * @enq_ns:	ktime_get_ns() at enqueue
 * @ahead:	packets in the queue when it was enqueued
 */
struct aqm_rate_cb {
	u64 enq_ns;
	u32 ahead;
};

/**
 * struct aqm_rate - departure rate estimate of one queue
 * @pps:	packets per second, 2^-AQM_RATE_SHIFT units; 0: no sample yet
 * @samples:	samples taken
 */
struct aqm_rate {
	u64 pps;
	u64 samples;
};

static inline struct aqm_rate_cb *aqm_rate_cb(const struct sk_buff *skb)
{
	qdisc_cb_private_validate(skb, sizeof(struct aqm_rate_cb));
	return (struct aqm_rate_cb *)qdisc_skb_cb(skb)->data;
}

/**
 * aqm_rate_enqueue() - stamp a packet as it joins the queue
 * @skb:	the packet
 * @qlen:	packets in the queue before it
 * @now:	ktime_get_ns()
 */
static inline void aqm_rate_enqueue(struct sk_buff *skb, u32 qlen, u64 now)
{
	struct aqm_rate_cb *cb = aqm_rate_cb(skb);

	cb->enq_ns = now;
	cb->ahead = qlen;
}

/**
 * aqm_rate_sample() - the departure rate over one packet's stay
 * @ahead:	packets ahead of it at enqueue, > 0
 * @sojourn_ns:	its time in the queue, > 0
 *
 * Return: @ahead / @sojourn_ns in packets per second, 2^-AQM_RATE_SHIFT
 * units.
 */
static inline u64 aqm_rate_sample(u32 ahead, u64 sojourn_ns)
{
	ahead = min_t(u32, ahead, BIT(21) - 1);
	return div64_u64(((u64)ahead * NSEC_PER_SEC) << AQM_RATE_SHIFT,
			 sojourn_ns);
}

/**
 * aqm_rate_dequeue() - take the sample of a leaving packet
 * @r:		the estimate
 * @skb:	the packet, stamped by aqm_rate_enqueue()
 * @now:	ktime_get_ns()
 */
static inline void aqm_rate_dequeue(struct aqm_rate *r,
				    const struct sk_buff *skb, u64 now)
{
	const struct aqm_rate_cb *cb = aqm_rate_cb(skb);
	u64 s;

	if (!cb->ahead || now <= cb->enq_ns)
		return;
	s = aqm_rate_sample(cb->ahead, now - cb->enq_ns);
	if (!r->samples)
		r->pps = s;
	else if (s >= r->pps)
		r->pps += (s - r->pps) >> AQM_RATE_EWMA_SHIFT;
	else
		r->pps -= (r->pps - s) >> AQM_RATE_EWMA_SHIFT;
	r->samples++;
}

/**
 * aqm_rate_packets() - packets that leave in @ns at the estimated rate
 * @r:		the estimate
 * @ns:		a time, ns, below 2^34 (17 s)
 *
 * Return: @ns * rate, rounded down; 0 before the first sample.
 */
static inline u64 aqm_rate_packets(const struct aqm_rate *r, u64 ns)
{
	/* pps < 2^(30 + AQM_RATE_SHIFT) for any rate below 10^9 packets/s */
	return mul_u64_u64_div_u64(r->pps, ns,
				   (u64)NSEC_PER_SEC << AQM_RATE_SHIFT);
}

#endif /* __NET_AQM_RATE_H */
