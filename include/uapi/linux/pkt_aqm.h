/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * pkt_aqm.h - netlink ABI of the linux-aqm qdiscs (dcn, pi, rem, ared,
 * riops, afd, blue; sfb keeps upstream's TCA_SFB_* ABI from pkt_sched.h and
 * extends it here).
 *
 * Conventions shared by every qdisc of the project:
 *  - options are nested under TCA_OPTIONS (NLA_F_NESTED), one enum per
 *    qdisc, TCA_<NAME>_UNSPEC = 0; once released, attributes are never
 *    renumbered, only appended;
 *  - times are u32 microseconds;
 *  - rationals (controller gains, BLUE's deltas, the ECN ceilings) travel
 *    as a nest of two u64 attributes, TCA_AQM_RATIO_NUM / TCA_AQM_RATIO_DEN
 *    (64 bits each, so that gains of 1e-8 per byte keep their digits), and
 *    what tc sets is what it prints back;
 *  - probabilities in xstats are u32 fractions of 2^32: the value is
 *    prob / 2^32, and 1.0, which does not fit, saturates at 0xffffffff;
 *  - each qdisc exports a fixed struct tc_<name>_xstats.
 *
 * Documentation/netlink/specs/tc-aqm.yaml describes the same attributes
 * for netlink tools; scripts/tests/test_spec.py keeps the two in step.
 */
#ifndef _UAPI_LINUX_PKT_AQM_H
#define _UAPI_LINUX_PKT_AQM_H

#include <linux/types.h>

/* A non-negative rational number num / den: the nest of every TCA_*_A,
 * TCA_*_B, TCA_BLUE_DELTA* and TCA_*_ECN_CEIL attribute. Both members are
 * required in a request.
 */
enum {
	TCA_AQM_RATIO_UNSPEC,
	TCA_AQM_RATIO_NUM,	/* u64: numerator */
	TCA_AQM_RATIO_DEN,	/* u64: denominator, > 0 */
	TCA_AQM_RATIO_PAD,
	__TCA_AQM_RATIO_MAX
};

#define TCA_AQM_RATIO_MAX	(__TCA_AQM_RATIO_MAX - 1)

/* PI: proportional-integral AQM (Hollot et al.; AQM/ECN paper eq. 1, 3) */
enum {
	TCA_PI_UNSPEC,
	TCA_PI_LIMIT,		/* u32, packets: hard queue limit */
	TCA_PI_QREF,		/* u32, packets (bytes in bytemode): target */
	TCA_PI_A,		/* ratio: gain on q(k) - qref */
	TCA_PI_B,		/* ratio: gain on q(k-1) - qref */
	TCA_PI_TUPDATE,		/* u32, us: sampling period T */
	TCA_PI_ECN,		/* u8, 0 or 1: CE-mark ECT packets */
	TCA_PI_ECN_CEIL,	/* ratio in [0, 1]: mark only while p <= it */
	TCA_PI_BYTEMODE,	/* u8, 0 or 1: queue in bytes, eq. 3 */
	TCA_PI_RATE,		/* u64, bytes/s: design rule link rate C */
	TCA_PI_RTT,		/* u32, us: design rule largest RTT R+ */
	TCA_PI_FLOWS,		/* u32: design rule smallest flow count N- */
	TCA_PI_AVPKT,		/* u32, bytes: packet size for C in packets */
	TCA_PI_DESIGNED,	/* u8, dump only: a, b came from the rule */
	TCA_PI_PAD,
	__TCA_PI_MAX
};

#define TCA_PI_MAX	(__TCA_PI_MAX - 1)

/**
 * struct tc_pi_xstats - PI statistics
 * @prob:		drop/mark probability before the bytemode scaling,
 *			fraction of 2^32 (saturates at 0xffffffff for 1.0)
 * @qlen_sampled:	queue length at the last sample (packets or bytes)
 * @mean_pktlen:	mean size of enqueued packets, bytes (bytemode)
 * @pad:		zero
 * @samples:		controller samples taken
 * @early_drops:	packets dropped by the controller
 * @forced_drops:	packets dropped because the queue was at limit
 * @marks:		ECT packets CE-marked instead of dropped (at most
 *			ecn_ceil; above it ECT packets count in @early_drops)
 */
struct tc_pi_xstats {
	__u32	prob;
	__u32	qlen_sampled;
	__u32	mean_pktlen;
	__u32	pad;
	__u64	samples;
	__u64	early_drops;
	__u64	forced_drops;
	__u64	marks;
};

/* REM: Random Exponential Marking (Athuraliya et al.; AQM/ECN paper eq. 2) */
enum {
	TCA_REM_UNSPEC,
	TCA_REM_LIMIT,		/* u32, packets: hard queue limit */
	TCA_REM_QREF,		/* u32, packets (bytes in bytemode): target b* */
	TCA_REM_GAMMA,		/* ratio: price step gamma */
	TCA_REM_ALPHA,		/* ratio: weight alpha of the queue mismatch */
	TCA_REM_PHI,		/* ratio > 1: base phi of 1 - phi^-price */
	TCA_REM_TUPDATE,	/* u32, us: price update period */
	TCA_REM_RATE,		/* u64, bytes/s: link capacity c, 0 = from the queue */
	TCA_REM_ECN,		/* u8, 0 or 1: CE-mark ECT packets */
	TCA_REM_ECN_CEIL,	/* ratio in [0, 1]: mark only while m <= it */
	TCA_REM_BYTEMODE,	/* u8, 0 or 1: queue in bytes, eq. 3 */
	TCA_REM_AVPKT,		/* u32, bytes: packet size for rate and price */
	TCA_REM_PAD,
	__TCA_REM_MAX
};

#define TCA_REM_MAX	(__TCA_REM_MAX - 1)

/**
 * struct tc_rem_xstats - REM statistics
 * @prob:		marking probability 1 - phi^-price before the bytemode
 *			scaling, fraction of 2^32 (saturates at 0xffffffff)
 * @qlen_sampled:	queue length at the last update (packets or bytes)
 * @mean_pktlen:	mean size of enqueued packets, bytes (bytemode)
 * @pad:		zero
 * @price:		the price, fraction of 2^32 (price * 2^32)
 * @samples:		price updates taken
 * @early_drops:	packets dropped by REM
 * @forced_drops:	packets dropped because the queue was at limit
 * @marks:		ECT packets CE-marked instead of dropped (at most
 *			ecn_ceil; above it ECT packets count in @early_drops)
 */
struct tc_rem_xstats {
	__u32	prob;
	__u32	qlen_sampled;
	__u32	mean_pktlen;
	__u32	pad;
	__u64	price;
	__u64	samples;
	__u64	early_drops;
	__u64	forced_drops;
	__u64	marks;
};

/* ARED: Adaptive RED with the gentle region, packet or byte mode (Floyd et
 * al. 2001, as run in the AQM/ECN paper)
 */
enum {
	TCA_ARED_UNSPEC,
	TCA_ARED_LIMIT,		/* u32, packets: hard queue limit */
	TCA_ARED_QTH_MIN,	/* u32, packets (bytes in bytemode): min_th, 0 = from target */
	TCA_ARED_QTH_MAX,	/* u32, same unit: max_th, 0 = 3 min_th */
	TCA_ARED_TARGET,	/* u32, us: target delay for min_th */
	TCA_ARED_MAX_P,		/* ratio in (0, 1]: max_p, initial when adaptive */
	TCA_ARED_ADAPTIVE,	/* u8, 0 or 1: AIMD on max_p */
	TCA_ARED_INTERVAL,	/* u32, us: adaptation interval */
	TCA_ARED_GENTLE,	/* u8, 0 or 1: the gentle region to 2 max_th */
	TCA_ARED_BYTEMODE,	/* u8, 0 or 1: queue in bytes, eq. 3 */
	TCA_ARED_ECN,		/* u8, 0 or 1: CE-mark ECT packets below max_th */
	TCA_ARED_ECN_GENTLE,	/* u8, 0 or 1: mark in the gentle region too */
	TCA_ARED_RATE,		/* u64, bytes/s: link rate C for w and min_th */
	TCA_ARED_AVPKT,		/* u32, bytes: packet size for C in packets */
	TCA_ARED_PAD,
	__TCA_ARED_MAX
};

#define TCA_ARED_MAX	(__TCA_ARED_MAX - 1)

/**
 * struct tc_ared_xstats - ARED statistics
 * @prob:		p_b at the last arrival, before the bytemode scaling,
 *			fraction of 2^32 (saturates at 0xffffffff)
 * @max_p:		current max_p, fraction of 2^32
 * @qavg:		average queue (packets or bytes), rounded down
 * @min_th:		min_th in use (packets or bytes)
 * @max_th:		max_th in use
 * @mean_pktlen:	mean size of enqueued packets, bytes (bytemode)
 * @adapts:		steps of max_p taken by the adaptation
 * @early_drops:	packets dropped with p_b below 1
 * @hard_drops:		packets dropped with p_b = 1 (avg above 2 max_th, or
 *			above max_th without the gentle region)
 * @forced_drops:	packets dropped because the queue was at limit
 * @marks:		ECT packets CE-marked instead of dropped
 */
struct tc_ared_xstats {
	__u32	prob;
	__u32	max_p;
	__u32	qavg;
	__u32	min_th;
	__u32	max_th;
	__u32	mean_pktlen;
	__u64	adapts;
	__u64	early_drops;
	__u64	hard_drops;
	__u64	forced_drops;
	__u64	marks;
};

/* DCN: Differential Congestion Notification ("Taming the elephants") */
enum {
	TCA_DCN_UNSPEC,
	TCA_DCN_LIMIT,		/* u32, packets: hard queue limit */
	TCA_DCN_QREF,		/* u32, packets: target of the pref controller */
	TCA_DCN_A,		/* ratio: gain on q(k-1) - qref */
	TCA_DCN_B,		/* ratio: gain on q(k) - qref, > a */
	TCA_DCN_TUPDATE,	/* u32, us: controller sampling period */
	TCA_DCN_TDEC,		/* u32, us: pktcount decay period */
	TCA_DCN_CLEAR,		/* u32, us: SB clearing interval */
	TCA_DCN_THRESHOLD,	/* u32, packets: SB count that moves to HB */
	TCA_DCN_SB_SIZE,	/* u32: SB slots */
	TCA_DCN_HB_SIZE,	/* u32: HB capacity, flows */
	TCA_DCN_ECN,		/* u8, 0 or 1: CE-mark ECT packets */
	TCA_DCN_ECN_CEIL,	/* ratio in [0, 1]: mark only while p <= it */
	TCA_DCN_UNUSED,		/* retired (a dump padding once): refused */
	TCA_DCN_TARGET,		/* u32, us: queue target in time; 0: qref */
	TCA_DCN_FLOOR,		/* ratio, 0 or in [1/64, 1]: share an HB flow keeps */
	TCA_DCN_HOLDOFF,	/* u32, us: one notification per flow per holdoff */
	TCA_DCN_QREF_MIN,	/* u32, packets: least qref a time target gives */
	__TCA_DCN_MAX
};

#define TCA_DCN_MAX	(__TCA_DCN_MAX - 1)

/**
 * struct tc_dcn_xstats - DCN statistics
 * @pref:		fair share, packets per Tdec, in 1/256 packets
 * @qlen_sampled:	queue length at the last controller sample, packets
 * @hb_flows:		flows in HB now
 * @hb_hwm:		most flows in HB at once
 * @hb_capacity:	HB capacity, flows
 * @sb_size:		SB slots
 * @promotions:		flows moved from SB to HB
 * @removals:		flows removed from HB (pktcount went negative)
 * @early_drops:	HB packets dropped by the early notification
 * @forced_drops:	packets dropped because the queue was at limit
 * @marks:		HB packets CE-marked instead of dropped
 * @hb_full:		promotions refused because HB was full
 * @sb_overwrites:	SB slots taken over by a colliding flow
 * @memory:		bytes allocated for SB and HB
 * @samples:		controller samples taken
 * @qref:		queue target in use, packets (target * rate, or qref)
 * @over_pref:		HB flows whose pktcount is above pref now
 * @rate:		measured departure rate, packets/s, in 1/256 packets
 * @penalty_drops:	early drops at a drop probability of 1/2 or more
 *			(pktcount >= 2 pref): flows held to at most half of
 *			what they send
 * @held:		notifications withheld by the holdoff (the flow was
 *			notified less than a holdoff ago, below 4 pref)
 *
 * qref to penalty_drops came with the time target and the floor, held with
 * the holdoff; a dump from an older module is shorter.
 */
struct tc_dcn_xstats {
	__u32	pref;
	__u32	qlen_sampled;
	__u32	hb_flows;
	__u32	hb_hwm;
	__u32	hb_capacity;
	__u32	sb_size;
	__u64	promotions;
	__u64	removals;
	__u64	early_drops;
	__u64	forced_drops;
	__u64	marks;
	__u64	hb_full;
	__u64	sb_overwrites;
	__u64	memory;
	__u64	samples;
	__u32	qref;
	__u32	over_pref;
	__u64	rate;
	__u64	penalty_drops;
	__u64	held;
};

/* AFD: Approximate Fair Dropping (Pan, Breslau, Prabhakar, Shenker, 2003) */
enum {
	TCA_AFD_UNSPEC,
	TCA_AFD_LIMIT,		/* u32, packets: hard queue limit */
	TCA_AFD_QREF,		/* u32, packets: Q_target of the m_fair controller */
	TCA_AFD_ALPHA,		/* ratio: gain on Q(t-1) - Q_target */
	TCA_AFD_BETA,		/* ratio: gain on Q(t) - Q_target, > alpha */
	TCA_AFD_TUPDATE,	/* u32, us: controller sampling period */
	TCA_AFD_SHADOW,		/* u32: shadow buffer size b, sampled arrivals */
	TCA_AFD_SAMPLE,		/* u32: s, an arrival is sampled with prob. 1/s */
	TCA_AFD_FLOWS,		/* u32: flow table capacity, <= b */
	TCA_AFD_BYTEMODE,	/* u8, 0 or 1: m_i counts bytes, not packets */
	TCA_AFD_AVPKT,		/* u32, bytes: m_fair's entry size in bytemode */
	TCA_AFD_ECN,		/* u8, 0 or 1: CE-mark ECT packets */
	TCA_AFD_ECN_CEIL,	/* ratio in [0, 1]: mark only while d_i <= it */
	TCA_AFD_TARGET,		/* u32, us: queue target in time; 0: qref */
	TCA_AFD_HOLD,		/* u8, 0 or 1: the time target's anti-windup */
	__TCA_AFD_MAX
};

#define TCA_AFD_MAX	(__TCA_AFD_MAX - 1)

/**
 * struct tc_afd_xstats - AFD statistics
 * @m_fair:		fair share, in m_i's unit (sampled packets, or
 *			sampled bytes in bytemode), in 1/256 units
 * @qlen_sampled:	queue length at the last controller sample, packets
 * @shadow_len:		sampled arrivals in the shadow buffer now
 * @shadow_size:	shadow buffer size b
 * @flows:		flows with an arrival in the shadow buffer now
 * @flows_hwm:		most flows tracked at once
 * @flows_capacity:	flow table capacity
 * @samples:		controller samples taken
 * @sampled:		arrivals copied into the shadow buffer
 * @untracked:		sampled arrivals of a new flow while the flow table
 *			was full (kept in the buffer, counted for no flow)
 * @early_drops:	packets dropped with probability (1 - m_fair/m_i)+
 * @forced_drops:	packets dropped because the queue was at limit
 * @marks:		ECT packets CE-marked instead of dropped (at most
 *			ecn_ceil; above it ECT packets count in @early_drops)
 * @memory:		bytes allocated for the shadow buffer and flow table
 * @qref:		queue target in use, packets (target * rate, or qref)
 * @rate:		measured departure rate, packets/s, in 1/256 packets
 *
 * qref and rate came with the time target; a dump from an older module is
 * shorter.
 */
struct tc_afd_xstats {
	__u64	m_fair;
	__u32	qlen_sampled;
	__u32	shadow_len;
	__u32	shadow_size;
	__u32	flows;
	__u32	flows_hwm;
	__u32	flows_capacity;
	__u64	samples;
	__u64	sampled;
	__u64	untracked;
	__u64	early_drops;
	__u64	forced_drops;
	__u64	marks;
	__u64	memory;
	__u32	qref;
	__u32	pad;
	__u64	rate;
};

/* RIO-PS: RED with In and Out, Preferential treatment to Short flows (Guo
 * and Matta 2001), as the DCN paper compares it: a flow's first packets are
 * IN, the rest OUT, and RIO's two RED curves judge them at one queue
 */
enum {
	TCA_RIOPS_UNSPEC,
	TCA_RIOPS_LIMIT,	/* u32, packets: hard queue limit */
	TCA_RIOPS_SHORT,	/* u32, packets: a flow's first packets that are IN */
	TCA_RIOPS_TIMEOUT,	/* u32, us: silence after which a flow starts again */
	TCA_RIOPS_FLOWS,	/* u32: slots of the flows' packet counts */
	TCA_RIOPS_IN_QTH_MIN,	/* u32, packets: min_th of IN, on avg_in */
	TCA_RIOPS_IN_QTH_MAX,	/* u32, packets: max_th of IN, > min */
	TCA_RIOPS_IN_MAX_P,	/* ratio in (0, 1]: max_p of IN */
	TCA_RIOPS_OUT_QTH_MIN,	/* u32, packets: min_th of OUT, on avg_total */
	TCA_RIOPS_OUT_QTH_MAX,	/* u32, packets: max_th of OUT, > min */
	TCA_RIOPS_OUT_MAX_P,	/* ratio in (0, 1]: max_p of OUT */
	TCA_RIOPS_GENTLE,	/* u8, 0 or 1: both curves rise to 1 at 2 max_th */
	TCA_RIOPS_ECN,		/* u8, 0 or 1: CE-mark ECT packets */
	TCA_RIOPS_ECN_CEIL,	/* ratio in [0, 1]: mark only while p_b <= it */
	TCA_RIOPS_RATE,		/* u64, bytes/s: link rate C for the EWMA weight */
	TCA_RIOPS_AVPKT,	/* u32, bytes: packet size for C in packets */
	TCA_RIOPS_PAD,
	__TCA_RIOPS_MAX
};

#define TCA_RIOPS_MAX	(__TCA_RIOPS_MAX - 1)

/**
 * struct tc_riops_xstats - RIO-PS statistics
 * @prob_in:		p_b of the last IN arrival, fraction of 2^32
 *			(saturates at 0xffffffff)
 * @prob_out:		p_b of the last OUT arrival, fraction of 2^32
 * @qavg_in:		avg_in, IN packets, rounded down
 * @qavg:		avg_total, packets, rounded down
 * @in_qlen:		IN packets in the queue now
 * @flows:		slots of the flows' packet counts
 * @memory:		bytes of the flows' packet counts
 * @overwrites:		times a flow's count was lost to another flow's
 * @in_pkts:		packets classified IN (GSO packets count once)
 * @out_pkts:		packets classified OUT
 * @early_drops_in:	IN packets dropped with p_b below 1
 * @early_drops_out:	OUT packets dropped with p_b below 1
 * @hard_drops:		packets dropped with p_b = 1 (their curve's average
 *			above max_th, or 2 max_th with gentle)
 * @forced_drops:	packets dropped because the queue was at limit
 * @marks:		ECT packets CE-marked instead of dropped
 */
struct tc_riops_xstats {
	__u32	prob_in;
	__u32	prob_out;
	__u32	qavg_in;
	__u32	qavg;
	__u32	in_qlen;
	__u32	flows;
	__u64	memory;
	__u64	overwrites;
	__u64	in_pkts;
	__u64	out_pkts;
	__u64	early_drops_in;
	__u64	early_drops_out;
	__u64	hard_drops;
	__u64	forced_drops;
	__u64	marks;
};

/* BLUE (Feng et al., "The BLUE active queue management algorithms", Fig. 3) */
enum {
	TCA_BLUE_UNSPEC,
	TCA_BLUE_LIMIT,		/* u32, packets: hard limit (0 in dump: bytelimit) */
	TCA_BLUE_BYTELIMIT,	/* u32, bytes: hard limit (0 in dump: limit) */
	TCA_BLUE_THRESHOLD,	/* u32, the limit's unit: L, 0 = off */
	TCA_BLUE_DELTA1,	/* ratio in (0, 1]: increment */
	TCA_BLUE_DELTA2,	/* ratio in (0, 1]: decrement */
	TCA_BLUE_FREEZE,	/* u32, us: freeze_time */
	TCA_BLUE_RANDOMIZE,	/* u8, 0 or 1: random freeze_time */
	TCA_BLUE_ECN,		/* u8, 0 or 1: CE-mark ECT packets */
	TCA_BLUE_ECN_CEIL,	/* ratio in [0, 1]: mark only while p_m <= it */
	__TCA_BLUE_MAX
};

#define TCA_BLUE_MAX	(__TCA_BLUE_MAX - 1)

/**
 * struct tc_blue_xstats - BLUE statistics
 * @p_m:		marking/dropping probability, fraction of 2^32
 *			(saturates at 0xffffffff for 1.0)
 * @pad:		zero
 * @increments:		times p_m rose by delta1 (loss or Q_len > L events)
 * @decrements:		times p_m fell by delta2 (idle events)
 * @early_drops:	packets dropped with probability p_m
 * @overflow_drops:	packets dropped at the hard limit (incl. a lowered one)
 * @marks:		ECT packets CE-marked with probability p_m
 * @idle_us:		time the queue spent empty, microseconds
 */
struct tc_blue_xstats {
	__u32	p_m;
	__u32	pad;
	__u64	increments;
	__u64	decrements;
	__u64	early_drops;
	__u64	overflow_drops;
	__u64	marks;
	__u64	idle_us;
};

/*
 * SFB (Feng et al., section IV): upstream's ABI is kept as it is in
 * <linux/pkt_sched.h>: TCA_SFB_UNSPEC = 0, TCA_SFB_PARMS = 1 carrying
 * struct tc_sfb_qopt (same fields, units and defaults), and struct
 * tc_sfb_xstats at the head of the xstats. The paper's additions follow
 * TCA_SFB_PARMS; without them the qdisc behaves as Linux's sfb.
 */
enum {
	TCA_SFB_AQM_LEVELS = 2,	/* u32 in [1, 16]: L, default 8 */
	TCA_SFB_AQM_BINS,	/* u32, power of two in [2, 4096]: N per level, default 16 */
	TCA_SFB_AQM_PENALTY_BYTES, /* u64, bytes/s, < 2^32: byte rate of penalized flows, 0 = off */
	TCA_SFB_AQM_PENALTY_BYTES_BURST, /* u32, bytes: its burst */
	TCA_SFB_AQM_WARM_ALL,	/* u8, 0 or 1: every arrival warms the standby bins */
	TCA_SFB_AQM_DEC_EMPTIED, /* u8, 0 or 1: a bin that empties lowers p_m too */
	TCA_SFB_AQM_PAD,	/* padding of the u64 TCA_SFB_AQM_PENALTY_BYTES */
	TCA_SFB_AQM_WARM_RAISE,	/* u8, 0 or 1: a penalized arrival raises its standby bins */
	/* SFRED (section IV-A): per-bin RED with adaptive max_p for BLUE */
	TCA_SFB_AQM_RED,	/* u8, 0 or 1: SFRED instead of SFB's BLUE bins */
	TCA_SFB_AQM_RED_MIN,	/* u32, packets of a bin: min_th, below max */
	TCA_SFB_AQM_RED_MAX,	/* u32, packets of a bin: max_th, at most 32767 */
	TCA_SFB_AQM_RED_MAX_P,	/* ratio in (0, 1]: a fresh bin's max_p */
	TCA_SFB_AQM_RED_CEIL,	/* ratio in (0, 1]: max_p rises while at most this */
	TCA_SFB_AQM_RED_INTERVAL, /* u32, us: adaptation interval, 0: max_p fixed */
	TCA_SFB_AQM_RED_WLOG,	/* u32 in [0, 16]: a bin's EWMA weight is 2^-wlog */
	TCA_SFB_AQM_RED_GENTLE,	/* u8, 0 or 1: p_b rises to 1 between max and 2 max */
	__TCA_SFB_AQM_MAX
};

#define TCA_SFB_AQM_MAX		(__TCA_SFB_AQM_MAX - 1)
#define TCA_SFB_AQM_LEVELS_MAX	16

/**
 * struct tc_sfb_aqm_xstats - what follows struct tc_sfb_xstats in the
 * xstats of our sfb (a tc that knows only Linux's struct reads its head),
 * at byte sizeof(struct tc_sfb_xstats) = 36, without padding, the same on
 * every architecture: copy it out with memcpy (its u64 are not aligned)
 * @levels:	L
 * @bins:	N, bins per level
 * @penalized:	flows penalized (p_min = 1) in the last second, counted in a
 *		table of 256 flow ids (flows that share a slot count once)
 * @pad:	zero
 * @penalty_drops_bytes: penalized packets dropped by the byte bucket
 * @memory:	bytes of bins and state
 * @polluted:	bins at p_m = 1 per level of the active set (first @levels)
 */
struct tc_sfb_aqm_xstats {
	__u32	levels;
	__u32	bins;
	__u32	penalized;
	__u32	pad;
	__u64	penalty_drops_bytes;
	__u64	memory;
	__u32	polluted[TCA_SFB_AQM_LEVELS_MAX];
};

#endif /* _UAPI_LINUX_PKT_AQM_H */
