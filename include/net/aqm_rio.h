/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqm_rio.h - RIO-PS, RED with In and Out and Preferential treatment to
 * Short flows (L. Guo, I. Matta, "The war between mice and elephants",
 * ICNP 2001), the differential comparator of the DCN paper ("Taming the
 * elephants", section 2 and Figure 8), with the edge's classification and
 * the core's RIO at one queue.
 *
 * Classification (RIO-PS's edge router): the first @short packets of a
 * flow are IN ("short"), the later ones OUT ("long"); a flow silent for
 * longer than the timeout starts again. The per-flow packet counts live in
 * the library's scoreboard (include/net/aqm_flow.h, DCN's SB): one slot per
 * hash value, so a flow whose slot another flow takes starts again too
 * (counted in the scoreboard's overwrites). A GSO packet counts its
 * segments and is IN when its first segment is.
 *
 * RIO (D. Clark, W. Fang, "Explicit allocation of best-effort packet
 * delivery service", 1998): two RED curves at one FIFO queue. Every arrival
 * moves avg_total, the EWMA of the whole queue; an IN arrival also moves
 * avg_in, the EWMA of the IN packets in the queue. An IN packet is tested
 * against the IN curve (min_in, max_in, max_p_in) at avg_in, an OUT packet
 * against the OUT curve at avg_total. The curves, the EWMA, the idle decay
 * and the spacing of drops are ARED's (include/net/aqm_ared.h) with max_p
 * fixed; avg_total decays while the queue is empty, avg_in while it holds
 * no IN packet.
 */
#ifndef __NET_AQM_RIO_H
#define __NET_AQM_RIO_H

#include <linux/types.h>
#include <net/aqm_ared.h>
#include <net/aqm_flow.h>

/**
 * struct aqm_rio - the two RED instances of RIO
 * @in:		the IN curve, on avg_in
 * @out:	the OUT curve, on avg_total
 * @in_v:	avg_in, the IN drops' spacing count, idle state
 * @out_v:	avg_total, the OUT drops' spacing count, idle state
 */
struct aqm_rio {
	struct aqm_ared_params in;
	struct aqm_ared_params out;
	struct aqm_ared_vars in_v;
	struct aqm_ared_vars out_v;
};

/**
 * aqm_rio_classify() - count a packet of flow @id, say whether it is IN
 * @sb:		scoreboard of the flows' packet counts
 * @id:		flow id (aqm_flow_id())
 * @now:	arrival time, ns
 * @timeout:	silence after which a flow starts again, ns
 * @segs:	the packet's segments (1, or a GSO packet's)
 * @short_pkts:	packets of a flow that are IN
 *
 * Return: true when the packet's first segment is among its flow's first
 * @short_pkts packets.
 */
static inline bool aqm_rio_classify(struct aqm_sb *sb, u32 id, u64 now,
				    u64 timeout, u32 segs, u32 short_pkts)
{
	u32 n = max(segs, 1U);

	/* the count before this packet: its first segment is number + 1 */
	return aqm_sb_add(sb, id, now, timeout, n) - n < short_pkts;
}

/**
 * aqm_rio_idle_end() - decay the averages over the idle periods that end
 * @r:		RIO state
 * @in:		the arrival is IN
 * @now:	current time, ns
 *
 * avg_total decays over the time the whole queue was empty; avg_in over
 * the time no IN packet was queued, and only when an IN packet arrives
 * (avg_in is sampled on IN arrivals only, as in RIO).
 */
static inline void aqm_rio_idle_end(struct aqm_rio *r, bool in, u64 now)
{
	if (r->out_v.idle_since)
		aqm_ared_idle_end(&r->out, &r->out_v, now);
	if (in && r->in_v.idle_since)
		aqm_ared_idle_end(&r->in, &r->in_v, now);
}

/**
 * aqm_rio_idle_start() - the queue went empty
 * @r:		RIO state
 * @now:	current time, ns
 */
static inline void aqm_rio_idle_start(struct aqm_rio *r, u64 now)
{
	r->out_v.idle_since = now ?: 1;
	if (!r->in_v.idle_since)
		r->in_v.idle_since = now ?: 1;
}

/**
 * aqm_rio_in_idle_start() - the last IN packet left the queue
 * @r:		RIO state
 * @now:	current time, ns
 */
static inline void aqm_rio_in_idle_start(struct aqm_rio *r, u64 now)
{
	if (!r->in_v.idle_since)
		r->in_v.idle_since = now ?: 1;
}

/**
 * aqm_rio_prob() - move the averages for an arrival, give its p_b
 * @r:		RIO state
 * @in:		the arrival is IN
 * @qlen:	packets in the queue before it
 * @in_qlen:	IN packets among them
 *
 * Return: p_b of the arrival's curve, fraction of AQM_PI_ONE.
 */
static inline s64 aqm_rio_prob(struct aqm_rio *r, bool in, u32 qlen,
			       u32 in_qlen)
{
	aqm_ared_avg_update(&r->out, &r->out_v, qlen);
	if (!in)
		return aqm_ared_prob(&r->out, &r->out_v);
	aqm_ared_avg_update(&r->in, &r->in_v, in_qlen);
	return aqm_ared_prob(&r->in, &r->in_v);
}

#endif /* __NET_AQM_RIO_H */
