/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqm_rate.h - departure rate of a FIFO qdisc, measured while its queue is
 * busy, for the qdiscs whose queue target is a time (dcn's and afd's
 * target). Header-only: no module dependency.
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
 * packet carries in its qdisc_skb_cb the time it was enqueued. When a packet
 * leaves that was already queued when the one before it left, the link was
 * busy the whole time between the two departures, and that interval is one
 * packet's service time. A sample sums such intervals until it holds at
 * least AQM_RATE_PKTS of them and AQM_RATE_SPAN_NS of busy time, and the
 * estimate is the ratio of two averages of the samples, each with weight
 * 1/8 (AQM_RATE_EWMA_SHIFT):
 *
 *   rate = avg(packets of a sample) / avg(busy time of a sample)
 *
 * Idle time never enters a sample: a packet that found the queue empty
 * starts no interval. This is what PIE measures over a cycle of dequeued
 * bytes that begins with a queue of 16 KB (RFC 8033, section 5.2), taken
 * here from any busy stretch, even a short one, which matters at low rates
 * where a queue held at the target is only a few packets long. (The
 * packets' sojourn times would not do: a packet that found n packets ahead
 * waits n service times plus part of the one under way, so n / sojourn
 * reads the rate low, by a third at n = 1.)
 *
 * Bursts. A parent shaper or a NIC can release packets in bursts: htb
 * sends its bucket (15 KB by default) back to back when its timer fires
 * late, a driver's bulk dequeue a batch. A sample that falls inside a burst
 * reads many times the link, and the time before the burst, counted as
 * busy, goes to the sample after it. An average of the samples' rates
 * weighs the short sample as much as the long one and reads high (16
 * departures 10 us apart, in bursts of 40 that leave every 48 ms on a
 * 10 Mbit/s link, averaged 66 to 89 times the link's 833 packets/s;
 * KUnit aqm_dcn_rate_bursts). Averaging packets and time apart weighs each
 * sample by its time, and the span makes a sample long enough to hold a
 * burst and the wait around it: 10 ms, over a shaper's bucket at 10 Mbit/s
 * (12 ms) and many a scheduler's timer slack. With packets of 1500 bytes
 * a sample is the span above 19.2 Mbit/s (833 packets at 1 Gbit/s) and
 * the AQM_RATE_PKTS departures below it.
 *
 * Units: packets per second in fixed point with AQM_RATE_SHIFT = 8
 * fractional bits (1/256 packet/s). Cost per packet: one ktime read at
 * enqueue (the qdisc already takes one) and two compares and adds at
 * dequeue; one division per sample.
 */
#ifndef __NET_AQM_RATE_H
#define __NET_AQM_RATE_H

#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/skbuff.h>
#include <linux/time64.h>
#include <net/sch_generic.h>

#define AQM_RATE_SHIFT		8
#define AQM_RATE_EWMA_SHIFT	3
#define AQM_RATE_PKTS		16
#define AQM_RATE_SPAN_NS	(10 * NSEC_PER_MSEC)

/**
 * struct aqm_rate_cb - what a packet carries in qdisc_skb_cb()->data
 * @enq_ns:	ktime_get_ns() at enqueue
 */
struct aqm_rate_cb {
	u64 enq_ns;
};

/**
 * struct aqm_rate - departure rate estimate of one queue
 * @pps:	packets per second, 2^-AQM_RATE_SHIFT units; 0: no sample yet
 * @samples:	samples taken
 * @last_ns:	time of the last departure
 * @busy_ns:	busy intervals summed since the last sample
 * @avg_pkts:	average packets of a sample, 2^-(AQM_RATE_SHIFT +
 *		AQM_RATE_EWMA_SHIFT) units
 * @avg_ns:	average busy time of a sample, 2^-AQM_RATE_EWMA_SHIFT ns
 * @busy_pkts:	number of the busy intervals since the last sample
 */
struct aqm_rate {
	u64 pps;
	u64 samples;
	u64 last_ns;
	u64 busy_ns;
	u64 avg_pkts;
	u64 avg_ns;
	u32 busy_pkts;
};

static inline struct aqm_rate_cb *aqm_rate_cb(const struct sk_buff *skb)
{
	qdisc_cb_private_validate(skb, sizeof(struct aqm_rate_cb));
	return (struct aqm_rate_cb *)qdisc_skb_cb(skb)->data;
}

/**
 * aqm_rate_enqueue() - stamp a packet as it joins the queue
 * @skb:	the packet
 * @now:	ktime_get_ns()
 */
static inline void aqm_rate_enqueue(struct sk_buff *skb, u64 now)
{
	aqm_rate_cb(skb)->enq_ns = now;
}

/**
 * aqm_rate_dequeue() - account a departure
 * @r:		the estimate
 * @skb:	the leaving packet, stamped by aqm_rate_enqueue()
 * @now:	ktime_get_ns()
 */
static inline void aqm_rate_dequeue(struct aqm_rate *r,
				    const struct sk_buff *skb, u64 now)
{
	if (aqm_rate_cb(skb)->enq_ns <= r->last_ns && now > r->last_ns) {
		/* queued when the previous packet left: a busy interval */
		r->busy_ns += now - r->last_ns;
		if (++r->busy_pkts >= AQM_RATE_PKTS &&
		    r->busy_ns >= AQM_RATE_SPAN_NS) {
			if (!r->samples) {
				r->avg_pkts = (u64)r->busy_pkts <<
					      (AQM_RATE_SHIFT + AQM_RATE_EWMA_SHIFT);
				r->avg_ns = r->busy_ns << AQM_RATE_EWMA_SHIFT;
			} else {
				r->avg_pkts += ((u64)r->busy_pkts << AQM_RATE_SHIFT) -
					       (r->avg_pkts >> AQM_RATE_EWMA_SHIFT);
				r->avg_ns += r->busy_ns -
					     (r->avg_ns >> AQM_RATE_EWMA_SHIFT);
			}
			r->pps = mul_u64_u64_div_u64(r->avg_pkts, NSEC_PER_SEC,
						     r->avg_ns);
			r->samples++;
			r->busy_ns = 0;
			r->busy_pkts = 0;
		}
	}
	r->last_ns = now;
}

/**
 * aqm_rate_dequeue_head() - the head of a FIFO qdisc, its departure counted
 * @sch:	the qdisc, whose packets were stamped by aqm_rate_enqueue()
 * @r:		its estimate
 * @now:	ktime_get_ns()
 *
 * Return: the packet, or NULL when the queue is empty.
 */
static inline struct sk_buff *aqm_rate_dequeue_head(struct Qdisc *sch,
						    struct aqm_rate *r, u64 now)
{
	struct sk_buff *skb = qdisc_dequeue_head(sch);

	if (skb)
		aqm_rate_dequeue(r, skb, now);
	return skb;
}

/**
 * aqm_rate_packets() - packets that leave in @ns at the estimated rate
 * @r:		the estimate
 * @ns:		a time, ns
 *
 * Return: @ns * rate, rounded down; 0 before the first sample.
 */
static inline u64 aqm_rate_packets(const struct aqm_rate *r, u64 ns)
{
	return mul_u64_u64_div_u64(r->pps, ns,
				   (u64)NSEC_PER_SEC << AQM_RATE_SHIFT);
}

/**
 * aqm_rate_qref() - a queue target in packets for a target in time
 * @r:		the estimate
 * @target_us:	queue target, us; 0: none, @qref is the target
 * @qref:	target in packets without a time target, and until the rate
 *		is measured
 * @qref_min:	least target a time target converts to, packets
 * @limit:	the queue's limit, packets: the target stays below it
 *
 * Return: @target_us * the rate, in [min(@qref_min, limit - 1), limit - 1];
 * @qref (below the limit with a time target) before the first sample or
 * without a time target.
 */
static inline u32 aqm_rate_qref(const struct aqm_rate *r, u32 target_us,
				u32 qref, u32 qref_min, u32 limit)
{
	u32 hi = max_t(u32, limit, 2) - 1;
	u64 pkts;

	if (!target_us)
		return qref;
	if (!r->samples)
		return min(qref, hi);
	pkts = aqm_rate_packets(r, (u64)target_us * NSEC_PER_USEC);
	return clamp_t(u64, pkts, min(qref_min, hi), hi);
}

#endif /* __NET_AQM_RATE_H */
