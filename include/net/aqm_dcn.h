/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqm_dcn.h - the per-packet core of DCN, Differential Congestion
 * Notification ("Taming the elephants", Figure 3 and sections 3.1-3.2),
 * built on the library's flow tables. Header-only so that sch_dcn and its
 * KUnit suite run the same code.
 *
 * Classification (section 3.1, Figure 3): a packet of a flow in HB is
 * counted in HB and is eligible for early notification. Any other packet is
 * enqueued and counted in SB, where a colliding flow overwrites the slot
 * and a count is reset after a clearing interval of silence; a flow whose
 * SB count reaches the threshold (4 in Figure 3) is copied to HB with that
 * count. If HB is full the flow stays in SB (counted by the table).
 *
 * Notification (section 3.2): an HB packet is dropped or marked with
 * probability 1 - pref / pktcount (aqm_dcn_hit()), pktcount being the
 * flow's packets in the current Tdec period.
 *
 * What pktcount counts (the floor). Section 3.2 counts the packets that
 * "have arrived at the router", dropped ones too; section 3.1 says HB
 * stores "the count of the number of forwarded packets". With arrivals
 * (floor 0) a flow that keeps sending s > pref packets per Tdec gains
 * s - pref every period, its count grows without bound and its drop
 * probability tends to 1: an unresponsive flow is cut off. Counting the
 * forwarded packets only, each as 1/floor (@fwd_inc), the count of such a
 * flow settles where s * (pref / count) / floor = pref, i.e. count =
 * s / floor, and the flow keeps floor * pref packets per Tdec, whatever it
 * sends: with floor 1 exactly the fair share. A flow below floor * pref
 * still decays out of HB as before. Every Tdec each pktcount
 * decreases by pref and a flow whose pktcount goes negative leaves HB.
 * The decrease is lazy, as Figure 3 draws it ("Has Tdec elapsed since last
 * decrease? Decrease pktcount by pref"): a flow's packet first takes
 * pref for every Tdec boundary passed since the flow was last decreased
 * (aqm_ftab_age()), and a flow found negative is treated as gone from HB.
 * Flows that stopped sending are deleted by the table's bounded sweep,
 * AQM_FTAB_SWEEP slots per packet and per Tdec step (aqm_flow.h), and a
 * stats dump completes a round (aqm_dcn_settle()) so that the number of
 * HB flows it shows leaves out the expired ones. With a
 * constant pref the counts are exactly those of decreasing every flow at
 * every boundary; a flow aged after pref changed takes the pref of that
 * moment for the boundaries it missed.
 *
 * pref and pktcount are in packets, fixed point with AQM_PI_SHIFT
 * fractional bits (one packet = AQM_PI_ONE), the scale of the PI
 * controller that computes pref.
 *
 * Anti-windup (ours; the paper is silent): pref may not rise while HB is
 * empty (conditional integration). Once congestion ends, pref rises until
 * the flows' pktcounts decay below zero and they leave HB; from then on it
 * stays there instead of climbing without bound on an idle link, which
 * would delay the reaction to the next congestion by as long as it takes to
 * come back down (measured: 120 -> 1900 packets in 4 s of idleness).
 */
#ifndef __NET_AQM_DCN_H
#define __NET_AQM_DCN_H

#include <linux/minmax.h>
#include <net/aqm_flow.h>
#include <net/aqm_pi.h>
#include <net/aqm_rel.h>

/**
 * struct aqm_dcn - DCN tables and per-flow state
 * @sb:		scoreboard of flows not in HB
 * @hb:		high-bandwidth flows; entry val = pktcount (AQM_PI_ONE = 1),
 *		time stamp = last notification: allocated with a time stamp
 *		(aqm_ftab_alloc() with @stamped true, 24 bytes per slot)
 * @clear_ns:	clearing interval, ns
 * @threshold:	SB count that moves a flow to HB
 * @fwd_inc:	what a forwarded HB packet adds to pktcount, AQM_PI_ONE /
 *		floor; 0: every arrival adds AQM_PI_ONE (floor 0, section 3.2)
 * @holdoff_ns:	least time between two notifications of a flow below
 *		4 pref (aqm_dcn_held()); 0: none, the paper
 * @promotions:	flows moved from SB to HB
 * @removals:	flows removed from HB by the decay (counted when the sweep
 *		deletes them, or when a flow found expired is promoted again)
 */
struct aqm_dcn {
	struct aqm_sb sb;
	struct aqm_ftab hb;
	u64 clear_ns;
	u32 threshold;
	s64 fwd_inc;
	u64 holdoff_ns;
	u64 promotions;
	u64 removals;
};

/* Smallest floor other than 0: 1/64, so that @fwd_inc <= 2^38. */
#define AQM_DCN_FLOOR_MIN_INV	64

/**
 * aqm_dcn_fwd_inc() - @fwd_inc for a floor of @num / @den
 * @num:	numerator; 0 for arrival counting
 * @den:	denominator, > 0
 *
 * The caller has checked 1/AQM_DCN_FLOOR_MIN_INV <= floor <= 1 (or 0).
 *
 * Return: AQM_PI_ONE * den / num, or 0 when @num is 0.
 */
static inline s64 aqm_dcn_fwd_inc(u64 num, u64 den)
{
	return num ? (s64)mul_u64_u64_div_u64(AQM_PI_ONE, den, num) : 0;
}

/**
 * aqm_dcn_classify() - Figure 3 up to the drop decision
 * @d:		DCN state
 * @id:		flow id of the arriving packet (aqm_flow_id())
 * @now:	arrival time, ns
 * @pref:	current pref, for the decrease of pktcount (clamped at 0)
 *
 * One sweep step over HB first (its deletions move entries), then the
 * lookup. O(AQM_FTAB_SWEEP) whatever the size of HB.
 *
 * Return: the packet's HB entry, its pktcount decreased for the Tdec
 * boundaries it missed and, with arrival counting, counting this packet
 * (with a floor, aqm_dcn_forwarded() counts it once it is forwarded);
 * NULL when the packet is a non-HB packet, which is never dropped early
 * (also the packet that promotes its flow).
 */
static inline struct aqm_ftab_entry *aqm_dcn_classify(struct aqm_dcn *d,
						      u32 id, u64 now, s64 pref)
{
	s64 dec = max_t(s64, pref, 0);
	struct aqm_ftab_entry *e;
	bool expired = false;
	u32 count;

	d->removals += aqm_ftab_sweep(&d->hb, dec, AQM_FTAB_SWEEP);
	e = aqm_ftab_lookup(&d->hb, id);
	if (e) {
		if (!aqm_ftab_age(&d->hb, e, dec)) {
			if (!d->fwd_inc)
				e->val += AQM_PI_ONE;
			return e;
		}
		/* negative at a boundary since its last packet: gone from HB */
		expired = true;
	}
	count = aqm_sb_hit(&d->sb, id, now, d->clear_ns);
	if (count >= d->threshold) {
		/* an expired entry is still there: insert returns it */
		e = aqm_ftab_insert(&d->hb, id);
		if (e) {
			/* SB's packets were all forwarded */
			e->val = d->fwd_inc ? (s64)count * d->fwd_inc :
					      (s64)count << AQM_PI_SHIFT;
			aqm_sb_forget(&d->sb, id);
			d->promotions++;
			d->removals += expired;
		}
	}
	return NULL;
}

/**
 * aqm_dcn_count() - the pktcount an HB packet is judged by
 * @d:		DCN state
 * @e:		the packet's entry, from aqm_dcn_classify()
 *
 * Return: pktcount with this packet: with a floor, counted as if forwarded.
 */
static inline s64 aqm_dcn_count(const struct aqm_dcn *d,
				const struct aqm_ftab_entry *e)
{
	return e->val + d->fwd_inc;
}

/**
 * aqm_dcn_may_hit() - can section 3.2's trial hit the packet at all?
 * @d:		DCN state
 * @e:		the packet's entry, from aqm_dcn_classify()
 * @pref:	current pref
 *
 * Return: true when aqm_dcn_count() is above max(pref, 0); otherwise
 * aqm_dcn_hit() is false whatever its random number, so the owner draws
 * none (most HB flows, on a link they share fairly).
 */
static inline bool aqm_dcn_may_hit(const struct aqm_dcn *d,
				   const struct aqm_ftab_entry *e, s64 pref)
{
	return aqm_dcn_count(d, e) > max_t(s64, pref, 0);
}

/**
 * aqm_dcn_hit() - section 3.2's trial for an HB packet
 * @d:		DCN state
 * @e:		the packet's entry, from aqm_dcn_classify()
 * @pref:	current pref
 * @rnd:	a uniform random u32
 *
 * Return: true with probability 1 - pref / aqm_dcn_count(): notify.
 */
static inline bool aqm_dcn_hit(const struct aqm_dcn *d,
			       const struct aqm_ftab_entry *e, s64 pref, u32 rnd)
{
	return aqm_share_hit(pref, aqm_dcn_count(d, e), rnd);
}

/**
 * aqm_dcn_forwarded() - an HB packet was enqueued (CE-marked or not)
 * @d:		DCN state
 * @e:		its entry
 *
 * With a floor the count grows by @fwd_inc, saturating at AQM_PI_SAT
 * (2^29 packets, reached only by a flow that sends more than 2^23 packets
 * per Tdec at the smallest floor); with arrival counting
 * aqm_dcn_classify() has counted the packet already.
 */
static inline void aqm_dcn_forwarded(const struct aqm_dcn *d,
				     struct aqm_ftab_entry *e)
{
	e->val = min_t(s64, e->val + d->fwd_inc, AQM_PI_SAT);
}

/**
 * aqm_dcn_penalty() - is the flow held to at most half of what it sends?
 * @d:		DCN state
 * @e:		the packet's entry, from aqm_dcn_classify()
 * @pref:	current pref
 *
 * Return: true when aqm_dcn_count() is at least 2 pref, i.e. the drop
 * probability 1 - pref / pktcount is 1/2 or more.
 */
static inline bool aqm_dcn_penalty(const struct aqm_dcn *d,
				   const struct aqm_ftab_entry *e, s64 pref)
{
	return aqm_dcn_count(d, e) / 2 >= max_t(s64, pref, 0);
}

/* pktcount from which the holdoff no longer applies, in pref */
#define AQM_DCN_HOLDOFF_EXEMPT	4

/*
 * The holdoff (ours; the paper is silent). A TCP sender halves its window
 * once per round trip however many of its packets are dropped or marked in
 * it; with 1 - pref / pktcount a flow at 1.5 pref loses a third of its
 * window in one round trip, and every drop after the first is loss that
 * buys no further slowing (and, in a short window, a timeout). So after
 * notifying a flow, DCN withholds its next notifications for @holdoff_ns,
 * about one round trip, unless the flow is at AQM_DCN_HOLDOFF_EXEMPT = 4
 * times pref or more, where it is not slowing down: the bounded penalty of
 * the floor still holds for flows that ignore notifications (their count
 * climbs to 4 pref, where every hit drops again, and stays about there,
 * so in the long run they keep floor * pref as before). Measured on the
 * emulated WAN with web traffic on 10 Mbit/s (tc-dcn(8)): with a holdoff
 * of 100 ms exempting flows from twice pref the loss fell from 6.88% to
 * 5.37% at 90% load and from 9.48% to 7.88% at 105%; three quarters of
 * the remaining early drops were on flows between 2 and 4 pref (TCP flows
 * just out of slow start), and exempting from 4 pref took it from 5.16%
 * to 3.07% and from 7.89% to 4.84%, with the same response times.
 */

/**
 * aqm_dcn_held() - is this notification withheld by the holdoff?
 * @d:		DCN state
 * @e:		the packet's entry, from aqm_dcn_classify()
 * @pref:	current pref
 * @now:	arrival time, ns
 *
 * Return: true when the flow was notified less than @d->holdoff_ns ago
 * (aqm_dcn_notified()) and is below AQM_DCN_HOLDOFF_EXEMPT times pref.
 */
static inline bool aqm_dcn_held(const struct aqm_dcn *d,
				const struct aqm_ftab_entry *e, s64 pref, u64 now)
{
	u64 t = aqm_ftab_t(e);

	return d->holdoff_ns && t && now - t < d->holdoff_ns &&
	       aqm_dcn_count(d, e) / AQM_DCN_HOLDOFF_EXEMPT < max_t(s64, pref, 0);
}

/**
 * aqm_dcn_notified() - the flow of @e was dropped or marked at @now
 * @e:		its entry (HB has time stamps, see struct aqm_dcn)
 * @now:	time, ns (0 is taken as never)
 */
static inline void aqm_dcn_notified(struct aqm_ftab_entry *e, u64 now)
{
	aqm_ftab_set_t(e, now);
}

/* Largest pref: 2^20 packets per Tdec, far above any link's share. */
#define AQM_DCN_PREF_MAX	((s64)1 << (20 + AQM_PI_SHIFT))

/**
 * aqm_dcn_pref_seed() - pref once the link's rate is measured
 * @pref:	current pref, AQM_PI_ONE = 1 packet
 * @init:	the first pref (the owner's limit), same unit
 * @link:	packets the link sends in one Tdec at the measured rate
 *
 * pref starts at limit packets per Tdec, so that no flow is notified
 * before the controller acts; that holds while the link sends at most
 * limit packets in a Tdec (660 at 10 Mbit/s with 1514-byte frames and
 * Tdec 800 ms, against the default limit 1000). On a faster link limit is
 * below one flow's full rate (1.5% of it at 1 Gbit/s), and a lone flow
 * promoted to HB would be held to it until the controller raised pref,
 * which its relative law does slowly (computed: about 47 s at 1 Gbit/s
 * with a 10 ms target, 16 s with 29 ms).
 * So once the rate is measured pref becomes at least the link's packets
 * per Tdec, where that is more than @init: the start the paper's limit
 * was meant to give, scaled to the link; slower links are left as they
 * were (ours; the paper, at 100 Mbit/s with its own limit, does not say).
 *
 * Return: the new pref, at most AQM_DCN_PREF_MAX.
 */
static inline s64 aqm_dcn_pref_seed(s64 pref, s64 init, u64 link)
{
	s64 l;

	if (link >= (u64)AQM_DCN_PREF_MAX >> AQM_PI_SHIFT)
		l = AQM_DCN_PREF_MAX;
	else
		l = (s64)link << AQM_PI_SHIFT;
	return l > init ? max(pref, l) : pref;
}

/**
 * aqm_dcn_pref_cap() - upper bound of pref for the next samples
 * @d:		DCN state
 * @pref:	current pref
 *
 * Return: AQM_DCN_PREF_MAX while HB holds a flow, else @pref itself, so
 * that pref can fall but not rise (anti-windup, see above).
 */
static inline s64 aqm_dcn_pref_cap(const struct aqm_dcn *d, s64 pref)
{
	return d->hb.count ? AQM_DCN_PREF_MAX : pref;
}

/**
 * aqm_dcn_tick() - @periods Tdec periods ended: pktcount -= pref each
 * @d:		DCN state
 * @pref:	fair share, AQM_PI_ONE = 1 packet (clamped at 0)
 * @periods:	Tdec periods elapsed, >= 1 (more than one after idleness)
 *
 * O(AQM_FTAB_SWEEP): the flows are decreased lazily (aqm_ftab_tick()).
 *
 * Return: the number of flows the sweep step removed from HB.
 */
static inline u32 aqm_dcn_tick(struct aqm_dcn *d, s64 pref, u64 periods)
{
	u32 gone = aqm_ftab_tick(&d->hb, max_t(s64, pref, 0), periods);

	d->removals += gone;
	return gone;
}

/**
 * aqm_dcn_settle() - bring every HB flow up to date (statistics dumps)
 * @d:		DCN state
 * @pref:	fair share, AQM_PI_ONE = 1 packet (clamped at 0)
 *
 * One full round of the sweep: every flow is decreased for the Tdec
 * boundaries it missed and the expired ones leave HB, so that @d->hb.count
 * and @d->removals are what the eager decay would show. O(slots): for a
 * stats dump (a few microseconds per thousand slots), never per packet.
 *
 * Return: the number of flows removed.
 */
static inline u32 aqm_dcn_settle(struct aqm_dcn *d, s64 pref)
{
	u32 gone = aqm_ftab_sweep(&d->hb, max_t(s64, pref, 0),
				  d->hb.mask + 1 + d->hb.count);

	d->removals += gone;
	return gone;
}

/**
 * aqm_dcn_over() - HB flows whose pktcount is above pref (statistics dumps)
 * @d:		DCN state, settled (aqm_dcn_settle())
 * @pref:	fair share, AQM_PI_ONE = 1 packet
 *
 * O(slots): for a stats dump, never per packet.
 *
 * Return: the number of HB flows being notified now.
 */
static inline u32 aqm_dcn_over(const struct aqm_dcn *d, s64 pref)
{
	u32 i, n = 0;

	if (!d->hb.slots)
		return 0;
	for (i = 0; i <= d->hb.mask; i++) {
		const struct aqm_ftab_entry *e = aqm_ftab_slot(&d->hb, i);

		n += (e->stamp & AQM_FTAB_USED) && e->val > pref;
	}
	return n;
}

#endif /* __NET_AQM_DCN_H */
