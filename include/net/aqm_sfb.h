/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqm_sfb.h - the per-packet core of Stochastic Fair BLUE (SFB): bins,
 * hashing, the moving hash with double buffering, the penalty rate limiter
 * and the statistics. Header-only, like aqm_blue.h, on whose rules every bin
 * runs. The qdisc (sch_sfb.c) owns the queue, the netlink ABI and the drop
 * and mark decisions; it calls the functions below under its qdisc lock.
 *
 * W. Feng, D. Kandlur, D. Saha, K. Shin, "The BLUE active queue management
 * algorithms", IEEE/ACM ToN 10(4), 2002, section IV.
 *
 * The algorithm (Fig. 14): L levels of N bins, one independent hash of the
 * flow per level. Each bin B[l][n] holds a packet count qlen and a BLUE
 * probability p_m. On an arrival, at every level l with bin n = h_l(flow):
 *
 *   if B[l][n].qlen > bin_size:  p_m += delta (a loss event of the bin)
 *   else if B[l][n].qlen == 0:   p_m -= delta
 *   p_min = min over l of B[l][h_l].p_m
 *   p_min == 1: the flow is nonresponsive: rate-limit it;
 *   else mark/drop with probability p_min.
 *
 * A responsive flow shares some of its L bins with nonresponsive flows but
 * rarely all of them: with M nonresponsive flows it is misclassified with
 * probability (equation (1), N bins per level)
 *
 *   p = [1 - (1 - 1/N)^M]^L.
 *
 * Moving hash (IV-D): every rehash interval the bins are reset and the hash
 * functions change, so a responsive flow is not misclassified for ever; the
 * double-buffered variant warms a second set of bins, hashed with the next
 * functions, before the switch, so that nonresponsive flows are still rate-
 * limited right after it instead of being "on parole".
 *
 * What Linux's net/sched/sch_sfb.c (6.12) does, and where it differs:
 *
 *  - L = 8, N = 16, fixed: one 32-bit keyed hash (siphash of the flow, one
 *    key per bin set) cut into eight 4-bit bin indices. Bins count packets
 *    (u16, saturating); p_mark is in 1/0xFFFF, SFB_MAX_PROB = 0xFFFF is "1", and
 *    additions and subtractions saturate in [0, 0xFFFF]. No freeze time.
 *  - On an arrival, per level of the active set: qlen == 0: p_mark -=
 *    decrement; else qlen >= bin_size: p_mark += increment (the paper has
 *    qlen > bin_size and also drops the packet there). qlen is the count
 *    before the arrival. p_min is taken after these updates; minqlen is the
 *    least qlen of the flow's bins, and the packet is dropped when minqlen
 *    >= max (bucketdrop). The decrement happens only there, on an arrival
 *    that finds its bin empty (Fig. 14), not when a bin empties at dequeue.
 *  - p_min >= SFB_MAX_PROB: "inelastic": rate-limited (below); else a random
 *    mark with probability p_min (dropped instead with probability
 *    2 (p_min - 1/2) when p_min > 1/2, or when not ECN-capable).
 *  - A packet adds 1 to the qlen of its bins only when it is actually
 *    enqueued, and removes it at dequeue; the per-set hashes are kept in the
 *    skb's qdisc cb for that.
 *  - Penalty: one token bucket shared by all inelastic flows, penalty_rate
 *    packets/s and penalty_burst packets, starting full; 0 in either drops
 *    every inelastic packet. It refills only when empty, from jiffies, the
 *    age capped at 10 s, and restarts its clock at every refill, discarding
 *    the fraction: inelastic arrivals closer than 1/penalty_rate apart never
 *    earn a token.
 *  - Rehash (rehash_interval, default 600 s) and double buffering
 *    (warmup_time, default 60 s): checked on every enqueue. Once the time
 *    since the last switch exceeds rehash_interval - warmup_time, double
 *    buffering is on; once it exceeds rehash_interval, the active set's key
 *    is renewed, the other set becomes active and double buffering stops.
 *    While double buffering, only an inelastic packet (p_min = 1 in the
 *    active set) that passed the bucket-drop check (minqlen >= max) is
 *    hashed into the standby set: its standby bins get the same arrival
 *    rules, and if it is enqueued it is counted in their qlen too. Other
 *    packets never touch the standby set. This is the paper's
 *    text ("any time a flow is classified as nonresponsive, it is hashed
 *    using the second set ... and the marking probabilities of the
 *    corresponding bins in the warmup set are updated"), which does not say
 *    when warm-up starts.
 *    As we read it, a consequence: a rate-limited flow has few packets
 *    queued, so its standby bins rarely reach bin_size, and when they are
 *    empty its arrivals lower them: warm-up raises them only while that
 *    flow keeps bin_size packets in the queue.
 *  - At a switch Linux does not clear the old active set: its qlen drain
 *    through the hashes kept in the queued packets, but its p_mark stay, now
 *    under a new key, like extra polluted bins after the next switch. The
 *    paper resets the bins; this header resets the old set (see below).
 *  - Statistics: maxqlen, maxprob and avgprob (1/0xFFFF) by a walk over
 *    the active set's 128 bins at dump time, under the qdisc's lock.
 *
 * This header:
 *
 *  - L in [1, AQM_SFB_LEVELS_MAX = 16], N a power of two in
 *    [AQM_SFB_BINS_MIN = 2, AQM_SFB_BINS_MAX = 4096], chosen at allocation;
 *    defaults L = 8, N = 16 as Linux. Level l of set b takes log2(N) bits of
 *    siphash_2u32(id, w, key_b), w = l / (64 / log2(N)): disjoint bits of a
 *    keyed PRF, so the L hashes are independent, and every set has its own
 *    128-bit key. At most 4 siphash calls per set (L = 16, N = 4096), one
 *    for the defaults. The input is the qdisc's 32-bit flow id
 *    (aqm_flow_id(), or a classifier's result): two flows with the same id
 *    share all their bins in both sets.
 *  - A bin is a struct aqm_blue_vars (p_m, 2^-32 units, AQM_BLUE_ONE = 1)
 *    and a packet count. Increment: an arrival that finds qlen >= bin_size
 *    is a loss event of the bin, aqm_blue_increment() (Linux's comparison;
 *    the paper's qlen > bin_size is bin_size + 1 here). Decrement,
 *    aqm_blue_decrement(), on either or both events, chosen by flags:
 *    AQM_SFB_DEC_ARRIVAL, an arrival that finds its bin empty (Fig. 14 and
 *    Linux), AQM_SFB_DEC_EMPTIED, a bin whose count drops to 0 at dequeue or
 *    drop (the paper's text: "If the number of packets drops to zero, p_m is
 *    decreased"). Both respect BLUE's freeze_time when one is set; Linux
 *    has none, nor has Fig. 14, and neither has sch_sfb (freeze_us 0: every
 *    event moves p_m, a saturating add or subtract, no clock, no
 *    division). A flow is penalized when p_min is exactly
 *    AQM_BLUE_ONE.
 *  - Rehash: aqm_sfb_tick() on every arrival, with Linux's timing (switch
 *    once rehash_ns has passed since the last switch, warm during the last
 *    warmup_ns before it), in ns from the caller. At a switch the old active
 *    set gets a new key and is reset: O(1), every bin carries the generation
 *    of its set and a bin of an older generation reads as empty (the table
 *    is cleared for real once per 2^32 resets of a set, when the generation
 *    wraps). Packets still queued that were counted in the reset set are not
 *    removed from it (see the cb below).
 *  - Double buffering, three policies (flags). Under each, the standby
 *    set is touched by aqm_sfb_warm(), which the owner calls after its
 *    bucket-drop check (minqlen >= max), as Linux warms after that check:
 *    a packet dropped at max warms nothing, one that the penalty or an
 *    early drop refuses has warmed; except that under AQM_SFB_WARM_RAISE
 *    a penalized packet dropped at max warms too (aqm_sfb_warm_at_max()).
 *    0 (Linux, the paper's text): during warm-up only arrivals whose p_min
 *    in the active set is 1 are hashed into the standby set, get the arrival
 *    rules there, and are counted there if admitted: Linux's rule, with one
 *    difference: with filters, Linux hashes a packet into the standby set
 *    by its skb flow hash (skb_get_hash_perturb()), not by the class the
 *    filters chose as in the active set, so after the switch the flow's
 *    bins are not those it warmed; here the flow id is used in both sets.
 *    AQM_SFB_WARM_RAISE: during warm-up a penalized arrival raises p_m of
 *    its standby bins by delta1 (a loss event there), whatever their qlen:
 *    the paper's "the marking probabilities of the corresponding bins in
 *    the warmup set are updated" read as raised. Under the rules above a
 *    rate-limited flow has almost no packet queued, so its standby bins
 *    never reach bin_size and its arrivals lower them instead: in the
 *    dumbbell (selftests/net/sfb.sh) neither Linux's policy nor
 *    AQM_SFB_WARM_ALL kept a flood limited across a switch. Every
 *    penalized arrival raises, also one dropped at max: where the flow
 *    shares its bins with many others they often hold max packets, and a
 *    raise only per packet that got past max left the standby bins below 1
 *    at a switch (sfb.sh under load, make check of 2026-11-28: 1.56 x the
 *    penalty's allowance in the 3 s around it).
 *    AQM_SFB_WARM_ALL: during warm-up every arrival does so, so the standby
 *    set runs the whole algorithm in parallel under its new key, and its
 *    counts are those of all packets admitted since warm-up began. (A
 *    reading of IV-D in which the warm-up set is simply run; the paper's
 *    sentence restricts it to flows classified nonresponsive.) With
 *    AQM_SFB_WARM_RAISE too, penalized arrivals raise their standby bins
 *    and the others get the arrival rules there.
 *  - Penalty: a packet bucket (Linux's penalty_rate/penalty_burst, 0 drops
 *    all) and optionally a byte bucket (the paper's "fixed amount of
 *    bandwidth"), shared by all penalized flows; a packet passes only if
 *    every configured bucket holds its cost, and then pays in all. Tokens
 *    are kept in 10^-9 token units, so no fraction is lost, and no elapsed
 *    time overflows.
 *
 * SFRED (section IV-A's last paragraph: "apply Adaptive RED's max_p ...
 * a per-bin max_p value is kept and updated according to the behavior of
 * flows which map into the bin"), with AQM_SFB_RED: the same bins, hashes,
 * moving hash, double buffering and penalty, but each bin holds RED state
 * on its own count instead of a BLUE p_m. The paper gives no more than
 * that sentence; this header chooses, and sch_sfb.c's man page says so:
 *  - per bin, an EWMA of its count, taken on each arrival to the bin
 *    before it is counted: avg += (qlen - avg) / 2^wlog (RED's per-arrival
 *    average; no idle correction: a bin that saw no arrival keeps its
 *    average, and an arrival that finds it empty samples 0);
 *  - p_b of the bin from the gentle RED curve on that average
 *    (aqm_ared_prob(): min_th, max_th and up to 1 at 2 max_th, or 1 from
 *    max_th without gentle), with the bin's own max_p;
 *  - max_p per bin adapted by Floyd et al.'s AIMD (aqm_ared_step()): at
 *    most one step per interval, taken at the bin's first arrival in that
 *    interval (intervals are counted on one clock for all bins:
 *    aqm_sfb_tick()), so a bin that sees no arrival keeps its max_p; it
 *    rises while it is at most red.ceil (default 1: the paper's SFRED
 *    needs max_p to reach 1, where Floyd's ARED stops at 0.5);
 *  - p_min is the least p_b of the flow's bins and takes BLUE's place in
 *    everything else: p_min = 1 penalizes the flow, else the packet is
 *    marked or dropped with probability p_min; a reset bin starts with
 *    average 0 and max_p red.max_p.
 * The BLUE-only policies (AQM_SFB_DEC_EMPTIED, AQM_SFB_WARM_RAISE) are
 * refused with it; warm-up gives standby bins the RED arrival rules.
 *
 * The packet's cb (struct aqm_sfb_cb, 8 bytes of qdisc_skb_cb's 20-byte
 * data): the flow id and a tag: the sets the packet was counted in (2 bits)
 * and the number of switches at its arrival (30 bits, modulo 2^30). At
 * dequeue the bins are hashed again from the id, in the sets where the
 * packet is still counted: the set that was active at its arrival until the
 * next switch, the standby set until the one after. (Bin indices would not
 * fit: 16 levels x 2 sets x 12 bits is 48 bytes.) A tag is misread only if
 * 2^30 switches, at most one per arrival, happen while the packet is
 * queued. aqm_sfb_reset() invalidates every tag.
 *
 * Use, under the qdisc lock (as Linux's sch_sfb does):
 *
 *   enqueue:  aqm_sfb_tick(s, now); aqm_sfb_arrive(s, id, now, &res);
 *             res.minqlen >= max: drop;
 *             aqm_sfb_warm(s, now, &res);
 *             aqm_sfb_penalized(&res): drop unless
 *               aqm_sfb_penalty_pass(&s->penalty, len, segs, now);
 *             else aqm_prob_hit(res.p_min, get_random_u32()): mark or drop;
 *             admitted: res.cb into the skb's cb, aqm_sfb_add(s, &res).
 *   dequeue, or drop of a queued packet: aqm_sfb_remove(s, cb, now).
 *   queue purged: aqm_sfb_reset(s, now, NULL); new L or N: alloc a new
 *             state, aqm_sfb_inherit() from the old one, free the old
 *             (the queue may stay). Dump: aqm_sfb_stats_walk() a bounded
 *             number of bins at a time, aqm_sfb_stats_end(),
 *             aqm_sfb_prob16() (or aqm_sfb_stats() for the whole set).
 *
 * Units: p_m, p_min and deltas in 2^-32 (AQM_BLUE_ONE = 1.0, as aqm_pi.h:
 * aqm_prob_hit(p_min, rnd) draws the mark); qlen, bin_size and max in
 * packets; time in ns; rates in packets/s and bytes/s.
 *
 * Cost per packet: aqm_sfb_arrive() hashes the flow into the active set
 * and visits its L bins, aqm_sfb_warm() as much in the standby set while
 * warming; aqm_sfb_add() L or 2 L bins;
 * aqm_sfb_remove() visits as many, hashing again only when the indices did
 * not fit in the cb (L log2(N) > 32, or counted in both sets while
 * warming); aqm_sfb_tick() and the
 * penalty O(1). No division on any of them: without a freeze time (as
 * sch_sfb runs them) BLUE's updates are saturating adds and subtracts; with
 * one, aqm_blue_decrement() takes up to two div64 per decrement event. Only
 * the stats walk visits a whole set, at dump time.
 *
 * Memory: 24 bytes per bin, 2 L N bins (kvcalloc at allocation): 6 KiB for
 * the defaults, 3 MiB at L = 16, N = 4096.
 */
#ifndef __NET_AQM_SFB_H
#define __NET_AQM_SFB_H

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/random.h>
#include <linux/siphash.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <linux/types.h>
#include <net/aqm_ared.h>
#include <net/aqm_blue.h>
#include <net/sch_generic.h>

#define AQM_SFB_LEVELS_MAX	16
#define AQM_SFB_BINS_MIN	2
#define AQM_SFB_BINS_MAX	4096

/* Linux's sch_sfb defaults (struct tc_sfb_qopt) */
#define AQM_SFB_DEF_LEVELS	8
#define AQM_SFB_DEF_BINS	16
#define AQM_SFB_DEF_MAX		25		/* packets */
#define AQM_SFB_DEF_BIN_SIZE	20		/* packets */
#define AQM_SFB_DEF_INCREMENT	66	/* 1/0xFFFF: (0xFFFF + 500) / 1000 */
#define AQM_SFB_DEF_DECREMENT	11	/* 1/0xFFFF: (0xFFFF + 3000) / 6000 */
#define AQM_SFB_DEF_REHASH_MS	600000
#define AQM_SFB_DEF_WARMUP_MS	60000
#define AQM_SFB_DEF_PENALTY_RATE	10	/* packets/s */
#define AQM_SFB_DEF_PENALTY_BURST	20	/* packets */

/*
 * Linux's probability unit: 1/0xFFFF, 0xFFFF (SFB_MAX_PROB) being 1.0: tc
 * sends increment p as p * 0xFFFF and reads maxprob back the same way
 */
#define AQM_SFB_PROB16_MAX	0xFFFF

/* flags of struct aqm_sfb_params */
#define AQM_SFB_DEC_ARRIVAL	BIT(0)	/* arrival into an empty bin: p_m -= */
#define AQM_SFB_DEC_EMPTIED	BIT(1)	/* bin count drops to 0: p_m -= */
#define AQM_SFB_WARM_ALL	BIT(2)	/* warm-up: every arrival, not only
					 * penalized ones (Linux)
					 */
#define AQM_SFB_WARM_RAISE	BIT(3)	/* warm-up: a penalized arrival
					 * raises p_m of its standby bins
					 * (IV-D's "updated"), qlen or not
					 */
#define AQM_SFB_RED		BIT(4)	/* SFRED: per-bin RED with adaptive
					 * max_p instead of BLUE's p_m
					 */
#define AQM_SFB_FLAGS		GENMASK(4, 0)

/* SFRED's defaults: thresholds in packets of a bin, per-arrival weight */
#define AQM_SFB_RED_DEF_MIN	5
#define AQM_SFB_RED_DEF_MAX	10	/* gentle: p_b reaches 1 at 20, bin_size */
#define AQM_SFB_RED_DEF_WLOG	4
#define AQM_SFB_RED_DEF_INTERVAL_MS	500	/* Floyd et al. */
#define AQM_SFB_RED_WLOG_MAX	16
/* a bin's average is Q16 in a u32: thresholds below 2^15, 2 max_th < 2^16 */
#define AQM_SFB_RED_TH_MAX	32767

/*
 * struct aqm_sfb_cb.tag: bits 0-1 the sets, bit 2 AQM_SFB_TAG_IDX (@id holds
 * the bin indices, not the flow id), bits 3-31 switches mod 2^29
 */
#define AQM_SFB_TAG_SETS	GENMASK(1, 0)
#define AQM_SFB_TAG_IDX		BIT(2)
#define AQM_SFB_TAG_SHIFT	3
#define AQM_SFB_SWAPS_MASK	GENMASK(28, 0)

/* One token of struct aqm_sfb_tb.tokens */
#define AQM_SFB_TOKEN		NSEC_PER_SEC

/**
 * struct aqm_sfb_params - configuration of the bins and the rehash
 * @blue:	per-bin BLUE rules: @blue.delta1 the increment, @blue.delta2
 *		the decrement, 2^-32 units in [1, AQM_BLUE_ONE];
 *		@blue.freeze_us in [0, U32_MAX - 1] us (0: none);
 *		@blue.randomize
 * @bin_size:	packets: an arrival that finds at least @bin_size packets in
 *		a bin is a loss event of that bin (p_m += delta1)
 * @rehash_ns:	ns between two switches of the bin sets (moving hash,
 *		IV-D); 0: never
 * @warmup_ns:	ns before a switch during which the standby set is warmed
 *		(double buffering); 0: none; >= @rehash_ns: always
 * @flags:	AQM_SFB_DEC_ARRIVAL, AQM_SFB_DEC_EMPTIED, AQM_SFB_WARM_ALL,
 *		AQM_SFB_WARM_RAISE, AQM_SFB_RED
 * @red:	with AQM_SFB_RED (SFRED), per bin: @red.curve the thresholds
 *		and gentle region (aqm_ared_curve_set(); packets of the bin,
 *		max_th <= AQM_SFB_RED_TH_MAX) and the adaptation interval in
 *		ns (0: max_p fixed); @red.max_p a reset bin's max_p and
 *		@red.ceil the bound of its rise, 2^-32 units in (0,
 *		AQM_BLUE_ONE]; @red.wlog the EWMA weight 2^-wlog, wlog <=
 *		AQM_SFB_RED_WLOG_MAX
 */
struct aqm_sfb_red_params {
	struct aqm_ared_params curve;
	u64 max_p;
	u64 ceil;
	u32 wlog;
};

struct aqm_sfb_params {
	struct aqm_blue_params blue;
	struct aqm_sfb_red_params red;
	u32 bin_size;
	u64 rehash_ns;
	u64 warmup_ns;
	u32 flags;
};

/**
 * struct aqm_sfb_red_bin - a bin's RED state (SFRED, AQM_SFB_RED)
 * @avg:	EWMA of the bin's count, 2^-AQM_ARED_AVG_SHIFT packets
 * @max_p:	the bin's max_p, 2^-31 units (2^31 is 1), rounded up
 * @epoch:	adaptation interval (struct aqm_sfb.red_epoch) of its last
 *		step, or of its reset
 * @pad:	zero
 */
struct aqm_sfb_red_bin {
	u32 avg;
	u32 max_p;
	u32 epoch;
	u32 pad;
};

/**
 * struct aqm_sfb_bin - one accounting bin B[l][n] (24 bytes)
 * @blue:	BLUE (the default): its probability, @blue.p_m in 2^-32
 *		units, in [0, AQM_BLUE_ONE], and the end of its freeze
 *		interval, ns
 * @red:	with AQM_SFB_RED (SFRED) instead: its RED state
 * @qlen:	packets counted in the bin and still queued
 * @gen:	generation of its set when last written; another value means
 *		the bin was reset since: qlen 0, p_m 0 (RED: average 0,
 *		max_p red.max_p)
 */
struct aqm_sfb_bin {
	union {
		struct aqm_blue_vars blue;
		struct aqm_sfb_red_bin red;
	};
	u32 qlen;
	u32 gen;
};

static_assert(sizeof(struct aqm_sfb_red_bin) == sizeof(struct aqm_blue_vars));

static_assert(sizeof(struct aqm_sfb_bin) == 24);

/**
 * struct aqm_sfb_set - one set of L x N bins (a buffer of IV-D)
 * @key:	siphash key of the set's L hash functions
 * @gen:	current generation, never 0: bins of another generation are
 *		empty
 */
struct aqm_sfb_set {
	siphash_key_t key;
	u32 gen;
};

/**
 * struct aqm_sfb_tb - token bucket of the penalty box
 * @tokens:	tokens held, in 1/AQM_SFB_TOKEN (10^-9) token units, at
 *		most @burst * AQM_SFB_TOKEN; below 0 after a packet larger
 *		than the bucket took it full (a debt the rate repays)
 * @t_ns:	time of the last refill, ns
 * @rate:	tokens per second (packets/s or bytes/s)
 * @burst:	most tokens held (packets or bytes)
 */
struct aqm_sfb_tb {
	s64 tokens;
	u64 t_ns;
	u32 rate;
	u32 burst;
};

/**
 * struct aqm_sfb_penalty - rate limit of the flows with p_min = 1
 * @pkt:	packets/s and a burst in packets (Linux's penalty_rate and
 *		penalty_burst); rate or burst 0: no penalized packet passes
 * @byte:	bytes/s and a burst in bytes; rate 0: not used
 */
struct aqm_sfb_penalty {
	struct aqm_sfb_tb pkt;
	struct aqm_sfb_tb byte;
};

/**
 * struct aqm_sfb - SFB state: two sets of L x N bins and the rehash clock
 * @bins:	2 * @levels * @nbins bins, set b level l bin n at
 *		(b * @levels + l) * @nbins + n; NULL when not allocated
 * @levels:	L, in [1, AQM_SFB_LEVELS_MAX]
 * @nbins:	N, a power of two in [AQM_SFB_BINS_MIN, AQM_SFB_BINS_MAX]
 * @shift:	log2(@nbins), bits of hash per level
 * @per_word:	levels per 64-bit hash word, 64 / @shift
 * @params:	configuration; the owner may change it between packets
 * @set:	the two sets; the active one is @swaps & 1
 * @swaps:	switches since allocation, plus 2 per aqm_sfb_reset()
 * @warming:	double buffering: the standby set is being warmed
 * @rehash_ns:	time of the last switch (or reset), ns
 * @penalty:	rate limit of penalized flows
 * @red_epoch:	SFRED: adaptation intervals since allocation (mod 2^32)
 * @red_next:	SFRED: end of the current interval, ns
 */
struct aqm_sfb {
	struct aqm_sfb_bin *bins;
	u32 levels;
	u32 nbins;
	u32 shift;
	u32 per_word;
	struct aqm_sfb_params params;
	struct aqm_sfb_set set[2];
	u32 swaps;
	bool warming;
	u64 rehash_ns;
	struct aqm_sfb_penalty penalty;
	u32 red_epoch;
	u64 red_next;
};

/**
 * struct aqm_sfb_cb - what a queued packet carries (8 bytes)
 * @id:		its flow id; with AQM_SFB_TAG_IDX, its L bin indices in the one
 *		set it is counted in, level l at bits [l shift, (l + 1) shift)
 * @tag:	AQM_SFB_TAG_SETS: the sets it is counted in (bit b: set b);
 *		AQM_SFB_TAG_IDX; above AQM_SFB_TAG_SHIFT: @swaps at its arrival,
 *		mod 2^29
 *
 * The indices are kept when they fit in 32 bits (L log2(N) <= 32: the
 * default 8 x 16 and Linux's fixed layout) and the packet is counted in one
 * set, so that its departure need not hash again (Linux's sfb keeps its
 * hashes in the cb too); the flow id otherwise, hashed again at departure.
 */
struct aqm_sfb_cb {
	u32 id;
	u32 tag;
};

static_assert(sizeof(struct aqm_sfb_cb) == 8);
static_assert(sizeof(struct aqm_sfb_cb) <= QDISC_CB_PRIV_LEN);

/**
 * struct aqm_sfb_res - what aqm_sfb_arrive() finds for a packet
 * @p_min:	least p_m of the flow's bins in the active set, after this
 *		arrival's updates, 2^-32 units; AQM_BLUE_ONE: penalized
 * @minqlen:	least count of the flow's bins in the active set, packets,
 *		before this arrival (Linux drops when it is >= max)
 * @maxqlen:	largest such count (the paper drops when it is > bin_size)
 * @id:		the flow id
 * @cb:		for the packet's qdisc cb, if it is admitted
 * @idx:	bin index per set and level (valid for the sets in @cb.tag)
 */
struct aqm_sfb_res {
	s64 p_min;
	u32 minqlen;
	u32 maxqlen;
	u32 id;
	struct aqm_sfb_cb cb;
	u16 idx[2][AQM_SFB_LEVELS_MAX];
};

/**
 * struct aqm_sfb_stats - the active set at a stats dump
 * @max_p:	largest p_m (SFRED: p_b), 2^-32 units (Linux's maxprob)
 * @avg_p:	mean p_m (SFRED: p_b) over the L N bins, 2^-32 units,
 *		rounded down (Linux's avgprob)
 * @maxqlen:	largest bin count, packets (Linux's maxqlen)
 * @pkts:	packets counted in the set (the sum of one level's counts)
 * @full:	per level, bins at p_m (SFRED: p_b) = AQM_BLUE_ONE (polluted
 *		bins)
 * @sum:	sum of the p_m (p_b) walked so far, for @avg_p
 *
 * A walk in steps (aqm_sfb_stats_walk()) may see a switch of the sets or a
 * reset between two steps: each bin is read as it is when its step runs.
 */
struct aqm_sfb_stats {
	s64 max_p;
	s64 avg_p;
	u32 maxqlen;
	u64 pkts;
	u32 full[AQM_SFB_LEVELS_MAX];
	u64 sum;
};

/**
 * aqm_sfb_prob_from16() - a probability in Linux's unit in 2^-32 units
 * @q16:	probability in 1/0xFFFF (tc_sfb_qopt increment, decrement)
 *
 * Return: @q16 * 2^32 / 0xFFFF rounded to nearest, at most AQM_BLUE_ONE:
 * 0xFFFF (or more) is exactly 1.0, so that `increment 1` penalizes a flow
 * at its first loss event, as in Linux (where p_mark saturates at
 * SFB_MAX_PROB). Configuration time only (one division).
 */
static inline u64 aqm_sfb_prob_from16(u32 q16)
{
	if (q16 >= AQM_SFB_PROB16_MAX)
		return AQM_BLUE_ONE;
	return div_u64(((u64)q16 << 32) + AQM_SFB_PROB16_MAX / 2,
		       AQM_SFB_PROB16_MAX);
}

/**
 * aqm_sfb_prob16() - a p_m in Linux's unit, for tc_sfb_xstats
 * @p:	probability, 2^-32 units, in [0, AQM_BLUE_ONE]
 *
 * Return: @p * 0xFFFF / 2^32 rounded to nearest, in [0,
 * AQM_SFB_PROB16_MAX]: 1.0 reads 0xFFFF as in Linux, and a value set by
 * aqm_sfb_prob_from16() reads back unchanged.
 */
static inline u32 aqm_sfb_prob16(s64 p)
{
	u64 v = clamp_t(s64, p, 0, AQM_BLUE_ONE);

	/* v <= 2^32: the product is below 2^48 */
	return (v * AQM_SFB_PROB16_MAX + BIT_ULL(31)) >> 32;
}

/**
 * aqm_sfb_params_default() - Linux's defaults
 * @p:	configuration to fill
 *
 * bin_size 20, increment 66/0xFFFF, decrement 11/0xFFFF (tc_sfb_qopt's
 * defaults), no freeze time (as Linux), no randomization,
 * rehash every 600 s with 60 s of warm-up, decrement on arrival into an
 * empty bin, Linux's warm-up policy. SFRED's (used with AQM_SFB_RED): min_th
 * 5 and max_th 10 packets with the gentle region (p_b reaches 1 at 20, the
 * bin_size), max_p 0.1 rising up to 1 every 0.5 s, weight 1/16.
 */
static inline void aqm_sfb_params_default(struct aqm_sfb_params *p)
{
	*p = (struct aqm_sfb_params) {
		.blue = {
			.delta1 = aqm_sfb_prob_from16(AQM_SFB_DEF_INCREMENT),
			.delta2 = aqm_sfb_prob_from16(AQM_SFB_DEF_DECREMENT),
			.freeze_us = 0,
		},
		.red = {
			.curve.interval = (u64)AQM_SFB_RED_DEF_INTERVAL_MS *
					  NSEC_PER_MSEC,
			.max_p = AQM_BLUE_ONE / 10,
			.ceil = AQM_BLUE_ONE,
			.wlog = AQM_SFB_RED_DEF_WLOG,
		},
		.bin_size = AQM_SFB_DEF_BIN_SIZE,
		.rehash_ns = (u64)AQM_SFB_DEF_REHASH_MS * NSEC_PER_MSEC,
		.warmup_ns = (u64)AQM_SFB_DEF_WARMUP_MS * NSEC_PER_MSEC,
		.flags = AQM_SFB_DEC_ARRIVAL,
	};
	/* constant, ordered thresholds: it cannot fail */
	aqm_ared_curve_set(&p->red.curve, AQM_SFB_RED_DEF_MIN,
			   AQM_SFB_RED_DEF_MAX, true);
}

/**
 * aqm_sfb_params_check() - whether a configuration is usable
 * @p:	configuration
 *
 * Return: 0, or -EINVAL when a delta is outside [1, AQM_BLUE_ONE], the
 * freeze time above U32_MAX - 1 us, or @p->flags has unknown bits;
 * with AQM_SFB_RED, also when a BLUE-only policy is set, the thresholds are
 * not ordered or above AQM_SFB_RED_TH_MAX, max_p or ceil is outside (0,
 * AQM_BLUE_ONE] or wlog above AQM_SFB_RED_WLOG_MAX.
 */
static inline int aqm_sfb_params_check(const struct aqm_sfb_params *p)
{
	const struct aqm_sfb_red_params *r = &p->red;

	if (!p->blue.delta1 || p->blue.delta1 > AQM_BLUE_ONE ||
	    !p->blue.delta2 || p->blue.delta2 > AQM_BLUE_ONE ||
	    p->blue.freeze_us == U32_MAX ||
	    (p->flags & ~AQM_SFB_FLAGS))
		return -EINVAL;
	if (!(p->flags & AQM_SFB_RED))
		return 0;
	if ((p->flags & (AQM_SFB_DEC_EMPTIED | AQM_SFB_WARM_RAISE)) ||
	    r->curve.max_th <= r->curve.min_th ||
	    r->curve.max_th > AQM_SFB_RED_TH_MAX ||
	    !r->max_p || r->max_p > AQM_BLUE_ONE ||
	    !r->ceil || r->ceil > AQM_BLUE_ONE ||
	    r->wlog > AQM_SFB_RED_WLOG_MAX)
		return -EINVAL;
	return 0;
}

/**
 * aqm_sfb_active() - index of the active set
 * @s:	SFB state
 *
 * Return: 0 or 1.
 */
static inline u32 aqm_sfb_active(const struct aqm_sfb *s)
{
	return s->swaps & 1;
}

/**
 * aqm_sfb_bin_at() - address of a bin, whatever its generation
 * @s:	allocated SFB state
 * @b:	set, 0 or 1
 * @l:	level, < @s->levels
 * @n:	bin, < @s->nbins
 *
 * Return: &B_b[l][n].
 */
static inline struct aqm_sfb_bin *aqm_sfb_bin_at(const struct aqm_sfb *s,
						 u32 b, u32 l, u32 n)
{
	return &s->bins[(((size_t)b * s->levels + l) << s->shift) + n];
}

/**
 * aqm_sfb_bin_live() - whether a bin belongs to its set's generation
 * @s:		SFB state
 * @b:		set of @bin
 * @bin:	bin
 *
 * Return: false when the bin was reset since it was last written (it then
 * reads as qlen 0, p_m 0).
 */
static inline bool aqm_sfb_bin_live(const struct aqm_sfb *s, u32 b,
				    const struct aqm_sfb_bin *bin)
{
	return bin->gen == s->set[b].gen;
}

/**
 * aqm_sfb_red_p31() - a probability in a RED bin's unit
 * @p:	probability, 2^-32 units, in [0, AQM_BLUE_ONE]
 *
 * Return: @p in 2^-31 units, rounded up (2^-32, the least max_p netlink
 * takes, stays above 0), at most 2^31.
 */
static inline u32 aqm_sfb_red_p31(u64 p)
{
	return (u32)((min_t(u64, p, AQM_BLUE_ONE) + 1) >> 1);
}

/**
 * aqm_sfb_bin() - a bin, made current before it is written
 * @s:	allocated SFB state
 * @b:	set
 * @l:	level
 * @n:	bin
 *
 * A bin of an older generation becomes empty (qlen 0, p_m 0, free to
 * change at once) in the current one.
 *
 * Return: &B_b[l][n].
 */
/* aqm_sfb_bin()'s reset of a bin of an older generation, out of line */
static noinline void aqm_sfb_bin_renew(const struct aqm_sfb *s,
				       struct aqm_sfb_bin *bin, u32 gen)
{
	if (s->params.flags & AQM_SFB_RED)
		bin->red = (struct aqm_sfb_red_bin) {
			.max_p = aqm_sfb_red_p31(s->params.red.max_p),
			.epoch = s->red_epoch,
		};
	else
		aqm_blue_vars_init(&bin->blue, 0);
	bin->qlen = 0;
	bin->gen = gen;
}

/*
 * aqm_sfb_fresh() - aqm_sfb_bin() on a bin's address: the loops over the L
 * levels step a row pointer by N and read the set's generation once
 */
static __always_inline struct aqm_sfb_bin *
aqm_sfb_fresh(const struct aqm_sfb *s, struct aqm_sfb_bin *bin, u32 gen)
{
	if (unlikely(bin->gen != gen))
		aqm_sfb_bin_renew(s, bin, gen);
	return bin;
}

static inline struct aqm_sfb_bin *aqm_sfb_bin(struct aqm_sfb *s, u32 b,
					      u32 l, u32 n)
{
	return aqm_sfb_fresh(s, aqm_sfb_bin_at(s, b, l, n), s->set[b].gen);
}

/**
 * aqm_sfb_red_vars() - a RED bin as aqm_ared.h's state, for its functions
 * @bin:	the bin (AQM_SFB_RED)
 *
 * Return: its average and max_p (2^-32 units); the rest is zero.
 */
static inline struct aqm_ared_vars aqm_sfb_red_vars(const struct aqm_sfb_bin *bin)
{
	return (struct aqm_ared_vars) {
		.avg = bin->red.avg,
		.max_p = (u64)bin->red.max_p << 1,
	};
}

/**
 * aqm_sfb_bin_prob() - the probability a bin gives its flows
 * @s:		SFB state
 * @bin:	a current bin of @s
 *
 * Return: p_m (BLUE), or with AQM_SFB_RED the bin's p_b on the gentle RED
 * curve at its average with its max_p; 2^-32 units, in [0, AQM_BLUE_ONE].
 */
static inline s64 aqm_sfb_bin_prob(const struct aqm_sfb *s,
				   const struct aqm_sfb_bin *bin)
{
	struct aqm_ared_vars v;

	if (!(s->params.flags & AQM_SFB_RED))
		return bin->blue.p_m;
	v = aqm_sfb_red_vars(bin);
	return aqm_ared_prob(&s->params.red.curve, &v);
}

/**
 * aqm_sfb_clear_set() - reset every bin of a set, O(1)
 * @s:	allocated SFB state
 * @b:	set
 *
 * Starts a new generation. When the generation wraps (once per 2^32
 * resets of the set) the set is cleared for real, so that no bin left
 * untouched that long comes back to life.
 */
static inline void aqm_sfb_clear_set(struct aqm_sfb *s, u32 b)
{
	if (unlikely(++s->set[b].gen == 0)) {
		memset(aqm_sfb_bin_at(s, b, 0, 0), 0,
		       sizeof(*s->bins) * s->levels * s->nbins);
		s->set[b].gen = 1;
	}
}

/**
 * aqm_sfb_hash() - the L bins of a flow in one set
 * @s:		allocated SFB state
 * @b:		set
 * @id:		flow id
 * @idx:	output: @s->levels bin indices, each < @s->nbins
 *
 * Level l is bits [(l % per_word) * shift, + shift) of
 * siphash_2u32(@id, l / per_word, set key): independent keyed hashes, one
 * siphash call per @s->per_word levels.
 */
static inline void aqm_sfb_hash(const struct aqm_sfb *s, u32 b, u32 id,
				u16 *idx)
{
	u32 levels = s->levels, shift = s->shift, mask = s->nbins - 1;
	u32 l, k = 0, w = 0;
	u64 h = 0;

	for (l = 0; l < levels; l++) {
		if (!k) {
			h = siphash_2u32(id, w++, &s->set[b].key);
			k = s->per_word;
		}
		idx[l] = h & mask;
		h >>= shift;
		k--;
	}
}

/**
 * aqm_sfb_clear() - reset both sets, with new keys
 * @s:		allocated SFB state
 * @now:	current time, ns: the rehash interval starts again
 * @keys:	the two sets' keys, or NULL for random ones
 */
static inline void aqm_sfb_clear(struct aqm_sfb *s, u64 now,
				 const siphash_key_t *keys)
{
	u32 b;

	for (b = 0; b < 2; b++) {
		if (keys)
			s->set[b].key = keys[b];
		else
			get_random_bytes(&s->set[b].key, sizeof(s->set[b].key));
		aqm_sfb_clear_set(s, b);
	}
	s->warming = false;
	s->rehash_ns = now;
}

/**
 * aqm_sfb_reset() - empty every bin: the queue was purged
 * @s:		allocated SFB state
 * @now:	current time, ns: the rehash interval starts again
 * @keys:	the two sets' keys (reproducible runs, tests), or NULL for
 *		random ones
 *
 * O(1). Every packet counted before is forgotten: its later
 * aqm_sfb_remove() changes nothing (@swaps moves by 2, so the tags of
 * packets still queued match neither set). The active set stays the same.
 */
static inline void aqm_sfb_reset(struct aqm_sfb *s, u64 now,
				 const siphash_key_t *keys)
{
	s->swaps += 2;
	aqm_sfb_clear(s, now, keys);
}

/**
 * aqm_sfb_alloc() - allocate L x N bins in each of the two sets
 * @s:		SFB state, unallocated
 * @levels:	L, in [1, AQM_SFB_LEVELS_MAX]
 * @nbins:	N, a power of two in [AQM_SFB_BINS_MIN, AQM_SFB_BINS_MAX]
 * @now:	current time, ns
 *
 * kvcalloc(GFP_KERNEL), configuration time only. On success every bin is
 * empty, the keys random, set 0 active, @s->params Linux's defaults and the
 * penalty Linux's (10 packets/s, burst 20, full; no byte bucket).
 *
 * Return: 0; -EINVAL for sizes out of range (nothing allocated, @s left
 * alone); -ENOMEM.
 */
static inline int aqm_sfb_alloc(struct aqm_sfb *s, u32 levels, u32 nbins,
				u64 now)
{
	struct aqm_sfb_bin *bins;

	if (!levels || levels > AQM_SFB_LEVELS_MAX ||
	    nbins < AQM_SFB_BINS_MIN || nbins > AQM_SFB_BINS_MAX ||
	    !is_power_of_2(nbins))
		return -EINVAL;
	bins = kvcalloc(2 * levels * nbins, sizeof(*bins), GFP_KERNEL);
	if (!bins)
		return -ENOMEM;
	memset(s, 0, sizeof(*s));
	s->bins = bins;
	s->levels = levels;
	s->nbins = nbins;
	s->shift = ilog2(nbins);
	s->per_word = 64 / s->shift;
	aqm_sfb_params_default(&s->params);
	aqm_sfb_clear(s, now, NULL);
	s->penalty.pkt = (struct aqm_sfb_tb) {
		.rate = AQM_SFB_DEF_PENALTY_RATE,
		.burst = AQM_SFB_DEF_PENALTY_BURST,
		.tokens = (u64)AQM_SFB_DEF_PENALTY_BURST * AQM_SFB_TOKEN,
		.t_ns = now,
	};
	s->penalty.byte.t_ns = now;
	s->red_next = now + s->params.red.curve.interval;
	return 0;
}

/**
 * aqm_sfb_inherit() - take the place of an older state, its packets queued
 * @s:		newly allocated SFB state (another L or N)
 * @old:	the state it replaces
 *
 * Packets counted in @old may still be queued: their aqm_sfb_remove() must
 * change nothing in @s. @s->swaps continues from @old's plus 2, as in
 * aqm_sfb_reset(), so that their tags match neither set; the active set
 * keeps its index.
 */
static inline void aqm_sfb_inherit(struct aqm_sfb *s,
				   const struct aqm_sfb *old)
{
	s->swaps = old->swaps + 2;
}

/**
 * aqm_sfb_free() - free the bins
 * @s:	SFB state; may be unallocated, and is left unallocated
 */
static inline void aqm_sfb_free(struct aqm_sfb *s)
{
	kvfree(s->bins);
	s->bins = NULL;
}

/**
 * aqm_sfb_mem() - bytes allocated for the bins
 * @s:	SFB state
 *
 * Return: 2 * L * N * 24, 0 when not allocated.
 */
static inline size_t aqm_sfb_mem(const struct aqm_sfb *s)
{
	return s->bins ? 2 * (size_t)s->levels * s->nbins * sizeof(*s->bins)
		       : 0;
}

/**
 * aqm_sfb_swap() - switch the sets (moving hash, IV-D)
 * @s:		allocated SFB state
 * @now:	current time, ns: the next rehash interval starts
 * @key:	new key of the old active set, or NULL for a random one
 *
 * The standby set, warmed or not, becomes active. The old active set is
 * reset (O(1)) with its new key and becomes the standby set; packets still
 * queued are no longer counted in it. Warming stops, unless warmup_ns >=
 * rehash_ns (then it never stops).
 */
static inline void aqm_sfb_swap(struct aqm_sfb *s, u64 now,
				const siphash_key_t *key)
{
	u32 old = aqm_sfb_active(s);

	if (key)
		s->set[old].key = *key;
	else
		get_random_bytes(&s->set[old].key, sizeof(s->set[old].key));
	aqm_sfb_clear_set(s, old);
	s->swaps++;
	s->rehash_ns = now;
	s->warming = s->params.warmup_ns &&
		     s->params.warmup_ns >= s->params.rehash_ns;
}

/**
 * aqm_sfb_tick() - the rehash clock, on every arrival before
 *		    aqm_sfb_arrive()
 * @s:		allocated SFB state
 * @now:	current time, ns
 *
 * With rehash_ns = R and warmup_ns = W, and t the time since the last
 * switch: t >= R: switch (aqm_sfb_swap(), random key); else t >= R - W:
 * warm the standby set. Nothing when R is 0. Linux's timing, in ns. With
 * AQM_SFB_RED it also counts SFRED's adaptation intervals.
 *
 * Return: true when the sets were switched.
 */
static inline bool aqm_sfb_tick(struct aqm_sfb *s, u64 now)
{
	u64 r = s->params.rehash_ns, w = s->params.warmup_ns, t;
	u64 iv = s->params.red.curve.interval;

	/* SFRED's clock: intervals that ended, one division per interval */
	if ((s->params.flags & AQM_SFB_RED) && iv && now >= s->red_next) {
		u64 n = div64_u64(now - s->red_next, iv) + 1;

		s->red_epoch += (u32)n;
		s->red_next += n * iv;
	}
	if (!r)
		return false;
	t = now > s->rehash_ns ? now - s->rehash_ns : 0;
	if (t >= r) {
		aqm_sfb_swap(s, now, NULL);
		return true;
	}
	if (w && w >= r - t)
		s->warming = true;
	return false;
}

/**
 * aqm_sfb_arrival_rules() - Fig. 14's per-level updates of one bin
 * @s:		SFB state
 * @bin:	the arriving packet's bin, current
 * @now:	current time, ns
 *
 * With AQM_SFB_DEC_ARRIVAL, an empty bin: p_m -= delta2; otherwise, qlen >=
 * bin_size: p_m += delta1 (both subject to freeze_time, clamped to [0, 1]).
 * With AQM_SFB_RED instead (SFRED): the bin's first arrival in an
 * adaptation interval takes one AIMD step on its max_p from its average,
 * then its average takes the count as a sample.
 */
/* BLUE's half of aqm_sfb_arrival_rules() */
static __always_inline void aqm_sfb_blue_rules(const struct aqm_sfb_params *p,
					       struct aqm_sfb_bin *bin, u64 now)
{
	if ((p->flags & AQM_SFB_DEC_ARRIVAL) && !bin->qlen)
		aqm_blue_decrement(&p->blue, &bin->blue, now);
	else if (bin->qlen >= p->bin_size)
		aqm_blue_increment(&p->blue, &bin->blue, now);
}

static inline void aqm_sfb_arrival_rules(const struct aqm_sfb *s,
					 struct aqm_sfb_bin *bin, u64 now)
{
	const struct aqm_sfb_params *p = &s->params;

	if (p->flags & AQM_SFB_RED) {
		struct aqm_sfb_red_bin *r = &bin->red;
		u32 q = min_t(u32, bin->qlen, U16_MAX) << AQM_ARED_AVG_SHIFT;

		if (r->epoch != s->red_epoch && p->red.curve.interval) {
			struct aqm_ared_vars v = aqm_sfb_red_vars(bin);

			aqm_ared_step(&p->red.curve, &v, r->avg, p->red.ceil);
			r->max_p = aqm_sfb_red_p31(v.max_p);
			r->epoch = s->red_epoch;
		}
		/* avg += (q - avg) / 2^wlog, both below 2^32 */
		if (q >= r->avg)
			r->avg += (q - r->avg) >> p->red.wlog;
		else
			r->avg -= (r->avg - q) >> p->red.wlog;
		return;
	}
	aqm_sfb_blue_rules(p, bin, now);
}

/**
 * aqm_sfb_arrive() - an arrival: Fig. 14's enqueue() up to p_min
 * @s:		allocated SFB state, after aqm_sfb_tick()
 * @id:		the packet's flow id
 * @now:	current time, ns
 * @res:	output: p_min, min and max bin counts, the cb and the bins
 *
 * Hashes the flow into the active set, applies the arrival rules to its L
 * bins and takes p_min and the counts; the packet's cb counts it in the
 * active set only. The standby set is aqm_sfb_warm()'s. Counts change
 * only by aqm_sfb_add(): a packet the owner drops is not counted, though
 * its bins' p_m moved (as in Linux). The owner then decides: minqlen >=
 * max, bucket drop; else aqm_sfb_warm(), then aqm_sfb_penalized(),
 * aqm_sfb_penalty_pass(); else mark or drop with probability p_min
 * (aqm_prob_hit()).
 */
static inline void aqm_sfb_arrive(struct aqm_sfb *s, u32 id, u64 now,
				  struct aqm_sfb_res *res)
{
	u32 a = aqm_sfb_active(s), gen = s->set[a].gen, l;
	u32 levels = s->levels, nbins = s->nbins, shift = s->shift;
	struct aqm_sfb_bin *row = aqm_sfb_bin_at(s, a, 0, 0);
	u32 minq = U32_MAX, maxq = 0, packed = 0;
	/* the cb keeps the L indices when they fit in 32 bits */
	bool pack = levels * shift <= 32;
	const u16 *idx = res->idx[a];
	s64 p_min = S64_MAX;

	aqm_sfb_hash(s, a, id, res->idx[a]);
	if (likely(!(s->params.flags & AQM_SFB_RED))) {
		/* BLUE's bins: their p_m is the probability */
		for (l = 0; l < levels; l++, row += nbins) {
			struct aqm_sfb_bin *bin = aqm_sfb_fresh(s, row + idx[l],
								gen);

			minq = min(minq, bin->qlen);
			maxq = max(maxq, bin->qlen);
			aqm_sfb_blue_rules(&s->params, bin, now);
			p_min = min(p_min, bin->blue.p_m);
			if (pack)
				packed |= (u32)idx[l] << (l * shift);
		}
	} else {
		for (l = 0; l < levels; l++, row += nbins) {
			struct aqm_sfb_bin *bin = aqm_sfb_fresh(s, row + idx[l],
								gen);

			minq = min(minq, bin->qlen);
			maxq = max(maxq, bin->qlen);
			aqm_sfb_arrival_rules(s, bin, now);
			p_min = min(p_min, aqm_sfb_bin_prob(s, bin));
			if (pack)
				packed |= (u32)idx[l] << (l * shift);
		}
	}
	res->p_min = p_min;
	res->minqlen = minq;
	res->maxqlen = maxq;
	res->id = id;
	res->cb.tag = s->swaps << AQM_SFB_TAG_SHIFT | BIT(a);
	if (pack) {
		res->cb.id = packed;
		res->cb.tag |= AQM_SFB_TAG_IDX;
	} else {
		res->cb.id = id;
	}
}

/**
 * aqm_sfb_warm() - double buffering: the arrival in the standby set
 * @s:		allocated SFB state, with no aqm_sfb_tick() since
 *		aqm_sfb_arrive()
 * @now:	current time, ns
 * @res:	the packet's aqm_sfb_arrive() result; its cb then counts the
 *		packet in the standby set too when it was hashed there
 *
 * For a packet the owner did not drop at max, before the penalty and the
 * mark: Linux's sfb warms only after its bucket-drop check, so a packet
 * dropped there warms nothing. While warming, a penalized packet (p_min =
 * 1, Linux) or, with AQM_SFB_WARM_ALL, any packet is hashed into the
 * standby set. There a penalized one with AQM_SFB_WARM_RAISE raises p_m of
 * its L bins by delta1 (a loss event of each, subject to freeze_time),
 * whatever their counts; otherwise the bins get the arrival rules. If
 * admitted, aqm_sfb_add() counts it there too. Nothing when not warming.
 */
static inline void aqm_sfb_warm(struct aqm_sfb *s, u64 now,
				struct aqm_sfb_res *res)
{
	bool pen = res->p_min >= AQM_BLUE_ONE, raise;
	u32 b = aqm_sfb_active(s) ^ 1, gen = s->set[b].gen, l;

	if (!s->warming || !(pen || (s->params.flags & AQM_SFB_WARM_ALL)))
		return;
	/* a penalized packet is a loss event of its standby bins */
	raise = pen && (s->params.flags & AQM_SFB_WARM_RAISE);
	aqm_sfb_hash(s, b, res->id, res->idx[b]);
	/* counted in two sets: the departure hashes the flow id again */
	res->cb.id = res->id;
	res->cb.tag &= ~AQM_SFB_TAG_IDX;
	for (l = 0; l < s->levels; l++) {
		struct aqm_sfb_bin *bin =
			aqm_sfb_fresh(s, aqm_sfb_bin_at(s, b, l, res->idx[b][l]),
				      gen);

		if (raise)
			aqm_blue_increment(&s->params.blue, &bin->blue, now);
		else
			aqm_sfb_arrival_rules(s, bin, now);
	}
	res->cb.tag |= BIT(b);
}

/**
 * aqm_sfb_penalized() - whether the flow is rate-limited
 * @res:	result of aqm_sfb_arrive()
 *
 * Return: true when p_min is 1: every bin of the flow is polluted.
 */
static inline bool aqm_sfb_penalized(const struct aqm_sfb_res *res)
{
	return res->p_min >= AQM_BLUE_ONE;
}

/**
 * aqm_sfb_warm_at_max() - does an arrival dropped at max still warm?
 * @s:		SFB state
 * @res:	its aqm_sfb_arrive() result
 *
 * Return: true for a penalized arrival under AQM_SFB_WARM_RAISE (a
 * penalized arrival raises its standby bins whatever happens to it); the
 * owner then calls aqm_sfb_warm() before it drops the packet. False
 * otherwise, as in Linux.
 */
static inline bool aqm_sfb_warm_at_max(const struct aqm_sfb *s,
				       const struct aqm_sfb_res *res)
{
	return (s->params.flags & AQM_SFB_WARM_RAISE) &&
	       aqm_sfb_penalized(res);
}

/**
 * aqm_sfb_counted() - the sets in which a packet is still counted
 * @s:		SFB state
 * @tag:	the packet's struct aqm_sfb_cb.tag
 *
 * The set active at its arrival holds it until the next switch, the
 * standby set until the one after.
 *
 * Return: a mask of sets, bit b for set b.
 */
static inline u32 aqm_sfb_counted(const struct aqm_sfb *s, u32 tag)
{
	u32 then = tag >> AQM_SFB_TAG_SHIFT;
	u32 d = (s->swaps - then) & AQM_SFB_SWAPS_MASK;

	if (d == 0)
		return tag & AQM_SFB_TAG_SETS;
	if (d == 1)
		return tag & BIT((then & 1) ^ 1);
	return 0;
}

/**
 * aqm_sfb_add() - the packet was admitted: count it in its bins
 * @s:		allocated SFB state
 * @res:	its aqm_sfb_arrive() result (and aqm_sfb_warm()'s), with no
 *		aqm_sfb_tick() between
 *
 * Adds 1 to its L bins in the active set, and in the standby set when it
 * was hashed there.
 */
static inline void aqm_sfb_add(struct aqm_sfb *s,
			       const struct aqm_sfb_res *res)
{
	u32 sets = aqm_sfb_counted(s, res->cb.tag), b, l;
	u32 levels = s->levels, nbins = s->nbins;

	for (b = 0; b < 2; b++) {
		struct aqm_sfb_bin *row;
		u32 gen;

		if (!(sets & BIT(b)))
			continue;
		row = aqm_sfb_bin_at(s, b, 0, 0);
		gen = s->set[b].gen;
		for (l = 0; l < levels; l++, row += nbins) {
			struct aqm_sfb_bin *bin =
				aqm_sfb_fresh(s, row + res->idx[b][l], gen);

			if (bin->qlen < U32_MAX)
				bin->qlen++;
		}
	}
}

/**
 * aqm_sfb_remove() - a counted packet left: dequeued or dropped
 * @s:		allocated SFB state
 * @cb:		its cb
 * @now:	current time, ns
 *
 * Finds its bins in the sets where it is still counted (from the indices
 * in the cb, or by hashing its flow id again) and takes 1 from each; with
 * AQM_SFB_DEC_EMPTIED a bin whose count drops to 0 gets BLUE's idle event
 * (p_m -= delta2 unless frozen).
 *
 * A count already at 0 stays 0, silently, as in Linux: a qdisc cannot
 * always know whether a packet it dequeues was counted. A child qdisc may
 * queue a packet while returning NET_XMIT_CN (pfifo_head_drop), segment a
 * counted GSO packet, or overwrite the cb (a child sfb or choke).
 */
static inline void aqm_sfb_remove(struct aqm_sfb *s,
				  const struct aqm_sfb_cb *cb, u64 now)
{
	u32 sets = aqm_sfb_counted(s, cb->tag), b, l;
	u32 levels = s->levels, nbins = s->nbins, shift = s->shift;
	bool packed_idx = cb->tag & AQM_SFB_TAG_IDX;
	u16 idx[AQM_SFB_LEVELS_MAX];

	for (b = 0; b < 2; b++) {
		/* the one set it was counted in, L log2(N) <= 32: its bins */
		u32 packed = cb->id;
		struct aqm_sfb_bin *row;
		u32 gen;

		if (!(sets & BIT(b)))
			continue;
		row = aqm_sfb_bin_at(s, b, 0, 0);
		gen = s->set[b].gen;
		if (!packed_idx)
			aqm_sfb_hash(s, b, cb->id, idx);
		for (l = 0; l < levels; l++, row += nbins) {
			u32 n = packed_idx ? packed & (nbins - 1) : idx[l];
			struct aqm_sfb_bin *bin = aqm_sfb_fresh(s, row + n, gen);

			packed >>= shift;
			if (!bin->qlen)
				continue;
			if (!--bin->qlen &&
			    (s->params.flags & AQM_SFB_DEC_EMPTIED))
				aqm_blue_decrement(&s->params.blue, &bin->blue,
						   now);
		}
	}
}

/**
 * aqm_sfb_lookup() - p_min of a flow in one set, changing nothing
 * @s:		allocated SFB state
 * @b:		set (aqm_sfb_active() for the one in use)
 * @id:		flow id
 * @minqlen:	output, may be NULL: least count of its bins, packets
 *
 * Return: least p_m of the flow's bins in set @b, 2^-32 units.
 */
static inline s64 aqm_sfb_lookup(const struct aqm_sfb *s, u32 b, u32 id,
				 u32 *minqlen)
{
	u16 idx[AQM_SFB_LEVELS_MAX];
	u32 l, q = U32_MAX;
	s64 p = S64_MAX;

	aqm_sfb_hash(s, b, id, idx);
	for (l = 0; l < s->levels; l++) {
		const struct aqm_sfb_bin *bin = aqm_sfb_bin_at(s, b, l, idx[l]);
		bool live = aqm_sfb_bin_live(s, b, bin);

		p = min(p, live ? aqm_sfb_bin_prob(s, bin) : 0);
		q = min(q, live ? bin->qlen : 0);
	}
	if (minqlen)
		*minqlen = q;
	return p;
}

/**
 * aqm_sfb_stats_walk() - one step of the walk over the active set
 * @s:		allocated SFB state
 * @st:		accumulated so far (zeroed before the first step)
 * @pos:	first bin of the step, level * N + bin; 0 to start
 * @count:	bins to visit at most, at least 1
 *
 * The owner holds its lock for one step and may release it between steps
 * (sch_sfb walks L N up to 65536 bins), as long as @s stays allocated.
 *
 * Return: where the next step starts; L N once the set is walked.
 */
static inline u32 aqm_sfb_stats_walk(const struct aqm_sfb *s,
				     struct aqm_sfb_stats *st, u32 pos,
				     u32 count)
{
	u32 a = aqm_sfb_active(s), end = s->levels * s->nbins;

	end = pos + min(count, end - min(pos, end));
	for (; pos < end; pos++) {
		u32 l = pos >> s->shift, n = pos & (s->nbins - 1);
		const struct aqm_sfb_bin *bin = aqm_sfb_bin_at(s, a, l, n);
		s64 p;

		if (!aqm_sfb_bin_live(s, a, bin))
			continue;
		p = aqm_sfb_bin_prob(s, bin);
		st->max_p = max(st->max_p, p);
		st->maxqlen = max(st->maxqlen, bin->qlen);
		/* L N <= 2^16 bins of at most 2^32: no overflow */
		st->sum += p;
		if (p >= AQM_BLUE_ONE)
			st->full[l]++;
		if (!l)
			st->pkts += bin->qlen;
	}
	return end;
}

/**
 * aqm_sfb_stats_end() - the mean, once every bin is walked
 * @s:	SFB state
 * @st:	the walk's result
 */
static inline void aqm_sfb_stats_end(const struct aqm_sfb *s,
				     struct aqm_sfb_stats *st)
{
	st->avg_p = div_u64(st->sum, s->levels * s->nbins);
}

/**
 * aqm_sfb_stats() - walk the whole active set at once
 * @s:	allocated SFB state
 * @st:	output
 *
 * O(L N): at dump time only, never per packet.
 */
static inline void aqm_sfb_stats(const struct aqm_sfb *s,
				 struct aqm_sfb_stats *st)
{
	memset(st, 0, sizeof(*st));
	aqm_sfb_stats_walk(s, st, 0, s->levels * s->nbins);
	aqm_sfb_stats_end(s, st);
}

/**
 * aqm_sfb_penalty_init() - configure the penalty buckets, both full
 * @pen:	penalty box
 * @pps:	packets per second; 0: no penalized packet passes
 * @pkt_burst:	packets; 0: no penalized packet passes
 * @bps:	bytes per second; 0: no byte bucket
 * @byte_burst:	bytes; 0 (with @bps): no penalized packet passes
 * @now:	current time, ns
 */
static inline void aqm_sfb_penalty_init(struct aqm_sfb_penalty *pen, u32 pps,
					u32 pkt_burst, u32 bps,
					u32 byte_burst, u64 now)
{
	pen->pkt = (struct aqm_sfb_tb) {
		.rate = pps,
		.burst = pkt_burst,
		.tokens = (s64)pkt_burst * AQM_SFB_TOKEN,
		.t_ns = now,
	};
	pen->byte = (struct aqm_sfb_tb) {
		.rate = bps,
		.burst = byte_burst,
		.tokens = (s64)byte_burst * AQM_SFB_TOKEN,
		.t_ns = now,
	};
}

/**
 * aqm_sfb_tb_refill() - add the tokens earned since the last refill
 * @tb:		token bucket
 * @now:	current time, ns; a time before the last refill adds nothing
 *
 * tokens = min(burst, tokens + rate * elapsed), exactly, in 10^-9 token
 * units: burst * 10^9 < 2^63, a debt is at most one packet's cost (below
 * 2^63 - burst * 10^9), and rate * elapsed is checked for overflow (any
 * elapsed time up to U64_MAX ns fills the bucket).
 */
static inline void aqm_sfb_tb_refill(struct aqm_sfb_tb *tb, u64 now)
{
	s64 cap = (s64)tb->burst * AQM_SFB_TOKEN;
	u64 add;

	if (now <= tb->t_ns)
		return;
	if (tb->tokens >= cap ||
	    check_mul_overflow(now - tb->t_ns, (u64)tb->rate, &add) ||
	    add >= (u64)(cap - tb->tokens))
		tb->tokens = cap;
	else
		tb->tokens += (s64)add;
	tb->t_ns = now;
}

/**
 * aqm_sfb_tb_ready() - may a packet of @cost take from @tb?
 * @tb:		token bucket, refilled
 * @cost:	the packet's tokens, 10^-9 units
 *
 * It may when the bucket holds @cost, or is full when @cost is more than
 * the bucket can hold: it then takes the bucket into debt. Without that, a
 * GSO packet (BIG TCP: up to 512 KB, or 64 KB) larger than the burst would
 * never pass, and its flow would starve for good.
 */
static inline bool aqm_sfb_tb_ready(const struct aqm_sfb_tb *tb, u64 cost)
{
	return tb->tokens >= 0 &&
	       (u64)tb->tokens >= min_t(u64, cost,
					(u64)tb->burst * AQM_SFB_TOKEN);
}

/**
 * aqm_sfb_penalty_pass() - may a penalized packet enter?
 * @pen:	penalty box
 * @len:	the packet's length, bytes (for the byte bucket)
 * @segs:	the segments it carries (1, or a GSO packet's gso_segs)
 * @now:	current time, ns
 *
 * The packet passes when the packet bucket holds @segs tokens and, if it
 * is used, the byte bucket @len tokens (or a bucket is full and smaller
 * than the packet: aqm_sfb_tb_ready()); then it takes them from both. One
 * box for all penalized flows, as in Linux; penalty_rate counts segments,
 * as on the wire, so that GSO does not multiply it.
 *
 * Return: true when it passes, false when it is to be dropped.
 */
static inline bool aqm_sfb_penalty_pass(struct aqm_sfb_penalty *pen, u32 len,
					u32 segs, u64 now)
{
	u64 pcost = (u64)max(segs, 1U) * AQM_SFB_TOKEN;
	u64 bcost = (u64)len * AQM_SFB_TOKEN;
	bool bytes = pen->byte.rate;

	if (!pen->pkt.rate || !pen->pkt.burst || (bytes && !pen->byte.burst))
		return false;
	aqm_sfb_tb_refill(&pen->pkt, now);
	if (bytes)
		aqm_sfb_tb_refill(&pen->byte, now);
	if (!aqm_sfb_tb_ready(&pen->pkt, pcost) ||
	    (bytes && !aqm_sfb_tb_ready(&pen->byte, bcost)))
		return false;
	pen->pkt.tokens -= (s64)pcost;
	if (bytes)
		pen->byte.tokens -= (s64)bcost;
	return true;
}

#endif /* __NET_AQM_SFB_H */
