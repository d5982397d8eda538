// SPDX-License-Identifier: GPL-2.0
/*
 * aqmstat_kinds.c - decoders of the qdisc-specific statistics (xstats) that
 * aqmstat knows: the project's pi, rem, ared, riops, dcn, afd and blue
 * (include/uapi/linux/pkt_aqm.h), Linux's sfb, red, pie, codel, fq_codel
 * and hhf (<linux/pkt_sched.h>), and the project's sfb (Linux's sfb's
 * xstats, then its own from pkt_aqm.h).
 *
 * Keys are those of `tc -s -j qdisc show` where tc prints the field, else
 * the member's name in the C struct, so that a record can be set beside
 * tc's output key by key. Every member is emitted on every sample (tc
 * leaves some out while they are zero), so that a kind's columns are fixed.
 * Probabilities are printed as fractions in [0, 1], scaled as tc scales
 * them.
 */
#include <string.h>

#include <linux/pkt_sched.h>
#include <linux/pkt_aqm.h>

#include "aqmstat.h"

/*
 * The payload into a zeroed struct of the size this build knows: a shorter
 * one (an older kernel) leaves the members it lacks at 0, a longer one (a
 * newer kernel, which only appends) is cut.
 */
#define XS_LOAD(st, data, len) do {					\
	memset(&(st), 0, sizeof(st));					\
	memcpy(&(st), (data), (len) < sizeof(st) ? (len) : sizeof(st));	\
} while (0)

/* the project's u32 probabilities: 0xffffffff stands for 1.0 */
static double aqm_prob(uint32_t p)
{
	return p == UINT32_MAX ? 1.0 : (double)p / 4294967296.0;
}

static void dec_pi(struct rec *r, const void *data, size_t len)
{
	struct tc_pi_xstats st;

	XS_LOAD(st, data, len);
	rec_dbl(r, "prob", aqm_prob(st.prob));
	rec_u64(r, "qlen_sampled", st.qlen_sampled);
	rec_u64(r, "mean_pktlen", st.mean_pktlen);
	rec_u64(r, "samples", st.samples);
	rec_u64(r, "early_drops", st.early_drops);
	rec_u64(r, "forced_drops", st.forced_drops);
	rec_u64(r, "marks", st.marks);
}

static void dec_rem(struct rec *r, const void *data, size_t len)
{
	struct tc_rem_xstats st;

	XS_LOAD(st, data, len);
	rec_dbl(r, "prob", aqm_prob(st.prob));
	rec_u64(r, "qlen_sampled", st.qlen_sampled);
	rec_u64(r, "mean_pktlen", st.mean_pktlen);
	/* the price travels in 1/2^32 packets (of avpkt bytes in bytemode) */
	rec_dbl(r, "price", (double)st.price / 4294967296.0);
	rec_u64(r, "samples", st.samples);
	rec_u64(r, "early_drops", st.early_drops);
	rec_u64(r, "forced_drops", st.forced_drops);
	rec_u64(r, "marks", st.marks);
}

static void dec_ared(struct rec *r, const void *data, size_t len)
{
	struct tc_ared_xstats st;

	XS_LOAD(st, data, len);
	rec_dbl(r, "prob", aqm_prob(st.prob));
	rec_dbl(r, "max_p", aqm_prob(st.max_p));
	rec_u64(r, "qavg", st.qavg);
	rec_u64(r, "min_th", st.min_th);
	rec_u64(r, "max_th", st.max_th);
	rec_u64(r, "mean_pktlen", st.mean_pktlen);
	rec_u64(r, "adapts", st.adapts);
	rec_u64(r, "early_drops", st.early_drops);
	rec_u64(r, "hard_drops", st.hard_drops);
	rec_u64(r, "forced_drops", st.forced_drops);
	rec_u64(r, "marks", st.marks);
}

static void dec_riops(struct rec *r, const void *data, size_t len)
{
	struct tc_riops_xstats st;

	XS_LOAD(st, data, len);
	rec_dbl(r, "prob_in", aqm_prob(st.prob_in));
	rec_dbl(r, "prob_out", aqm_prob(st.prob_out));
	rec_u64(r, "qavg_in", st.qavg_in);
	rec_u64(r, "qavg", st.qavg);
	rec_u64(r, "in_qlen", st.in_qlen);
	rec_u64(r, "flows", st.flows);
	rec_u64(r, "memory", st.memory);
	rec_u64(r, "overwrites", st.overwrites);
	rec_u64(r, "in_pkts", st.in_pkts);
	rec_u64(r, "out_pkts", st.out_pkts);
	rec_u64(r, "early_drops_in", st.early_drops_in);
	rec_u64(r, "early_drops_out", st.early_drops_out);
	rec_u64(r, "hard_drops", st.hard_drops);
	rec_u64(r, "forced_drops", st.forced_drops);
	rec_u64(r, "marks", st.marks);
}

static void dec_dcn(struct rec *r, const void *data, size_t len)
{
	struct tc_dcn_xstats st;

	XS_LOAD(st, data, len);
	/* pref travels in 1/256 packets */
	rec_dbl(r, "pref", st.pref / 256.0);
	rec_u64(r, "qlen_sampled", st.qlen_sampled);
	rec_u64(r, "samples", st.samples);
	rec_u64(r, "hb_flows", st.hb_flows);
	rec_u64(r, "hb_hwm", st.hb_hwm);
	rec_u64(r, "hb_capacity", st.hb_capacity);
	rec_u64(r, "sb_size", st.sb_size);
	rec_u64(r, "memory", st.memory);
	rec_u64(r, "promotions", st.promotions);
	rec_u64(r, "removals", st.removals);
	rec_u64(r, "hb_full", st.hb_full);
	rec_u64(r, "sb_overwrites", st.sb_overwrites);
	rec_u64(r, "early_drops", st.early_drops);
	rec_u64(r, "forced_drops", st.forced_drops);
	rec_u64(r, "marks", st.marks);
	rec_u64(r, "qref", st.qref);
	/* the departure rate travels in 1/256 packets per second */
	rec_dbl(r, "rate", st.rate / 256.0);
	rec_u64(r, "over_pref", st.over_pref);
	rec_u64(r, "penalty_drops", st.penalty_drops);
	rec_u64(r, "held", st.held);
}

static void dec_afd(struct rec *r, const void *data, size_t len)
{
	struct tc_afd_xstats st;

	XS_LOAD(st, data, len);
	/* m_fair travels in 1/256 of m_i's unit (packets, or bytes) */
	rec_dbl(r, "m_fair", st.m_fair / 256.0);
	rec_u64(r, "qlen_sampled", st.qlen_sampled);
	rec_u64(r, "samples", st.samples);
	rec_u64(r, "shadow_len", st.shadow_len);
	rec_u64(r, "shadow_size", st.shadow_size);
	rec_u64(r, "sampled", st.sampled);
	rec_u64(r, "flows", st.flows);
	rec_u64(r, "flows_hwm", st.flows_hwm);
	rec_u64(r, "flows_capacity", st.flows_capacity);
	rec_u64(r, "untracked", st.untracked);
	rec_u64(r, "memory", st.memory);
	rec_u64(r, "early_drops", st.early_drops);
	rec_u64(r, "forced_drops", st.forced_drops);
	rec_u64(r, "marks", st.marks);
	rec_u64(r, "qref", st.qref);
	/* the departure rate travels in 1/256 packets per second */
	rec_dbl(r, "rate", st.rate / 256.0);
}

static void dec_blue(struct rec *r, const void *data, size_t len)
{
	struct tc_blue_xstats st;

	XS_LOAD(st, data, len);
	rec_dbl(r, "p_m", aqm_prob(st.p_m));
	rec_u64(r, "increments", st.increments);
	rec_u64(r, "decrements", st.decrements);
	rec_u64(r, "idle_us", st.idle_us);
	rec_u64(r, "early_drops", st.early_drops);
	rec_u64(r, "overflow_drops", st.overflow_drops);
	rec_u64(r, "marks", st.marks);
}

/* per level, in the order of struct tc_sfb_aqm_xstats.polluted */
static const char *const sfb_polluted[TCA_SFB_AQM_LEVELS_MAX] = {
	"polluted_0", "polluted_1", "polluted_2", "polluted_3",
	"polluted_4", "polluted_5", "polluted_6", "polluted_7",
	"polluted_8", "polluted_9", "polluted_10", "polluted_11",
	"polluted_12", "polluted_13", "polluted_14", "polluted_15",
};

/*
 * Linux's struct tc_sfb_xstats, all that Linux's sfb sends; the project's
 * sfb appends struct tc_sfb_aqm_xstats at byte sizeof(struct tc_sfb_xstats),
 * unpadded: its fields only when the payload goes past Linux's struct.
 */
static void dec_sfb(struct rec *r, const void *data, size_t len)
{
	struct tc_sfb_aqm_xstats ax;
	struct tc_sfb_xstats st;
	size_t l;

	XS_LOAD(st, data, len);
	rec_u64(r, "earlydrop", st.earlydrop);
	rec_u64(r, "penaltydrop", st.penaltydrop);
	rec_u64(r, "bucketdrop", st.bucketdrop);
	rec_u64(r, "queuedrop", st.queuedrop);
	rec_u64(r, "childdrop", st.childdrop);
	rec_u64(r, "marked", st.marked);
	rec_u64(r, "maxqlen", st.maxqlen);
	/* the bins' probabilities are fractions of SFB_MAX_PROB */
	rec_dbl(r, "maxprob", (double)st.maxprob / SFB_MAX_PROB);
	rec_dbl(r, "avgprob", (double)st.avgprob / SFB_MAX_PROB);
	if (len <= sizeof(st))
		return;
	XS_LOAD(ax, (const unsigned char *)data + sizeof(st), len - sizeof(st));
	rec_u64(r, "levels", ax.levels);
	rec_u64(r, "bins", ax.bins);
	rec_u64(r, "penalized", ax.penalized);
	rec_u64(r, "penalty_drops_bytes", ax.penalty_drops_bytes);
	rec_u64(r, "memory", ax.memory);
	/* every level, used or not: a kind's columns are fixed */
	for (l = 0; l < ARRAY_SIZE(sfb_polluted); l++)
		rec_u64(r, sfb_polluted[l], ax.polluted[l]);
}

static void dec_red(struct rec *r, const void *data, size_t len)
{
	struct tc_red_xstats st;

	XS_LOAD(st, data, len);
	rec_u64(r, "marked", st.marked);
	rec_u64(r, "early", st.early);
	rec_u64(r, "pdrop", st.pdrop);
	rec_u64(r, "other", st.other);
}

static void dec_pie(struct rec *r, const void *data, size_t len)
{
	struct tc_pie_xstats st;

	XS_LOAD(st, data, len);
	/* a fraction of the u64 range, as tc prints it */
	rec_dbl(r, "prob", (double)st.prob / (double)UINT64_MAX);
	rec_u64(r, "delay", st.delay);	/* microseconds */
	rec_bool(r, "dq_rate_estimating", st.dq_rate_estimating);
	rec_u64(r, "avg_dq_rate", st.avg_dq_rate);
	rec_u64(r, "pkts_in", st.packets_in);
	rec_u64(r, "overlimit", st.overlimit);
	rec_u64(r, "dropped", st.dropped);
	rec_u64(r, "maxq", st.maxq);
	rec_u64(r, "ecn_mark", st.ecn_mark);
}

static void dec_codel(struct rec *r, const void *data, size_t len)
{
	struct tc_codel_xstats st;

	XS_LOAD(st, data, len);
	rec_u64(r, "count", st.count);
	rec_u64(r, "lastcount", st.lastcount);
	rec_u64(r, "ldelay", st.ldelay);	/* microseconds */
	rec_bool(r, "dropping", st.dropping);
	rec_s64(r, "drop_next", st.drop_next);	/* us, relative to now */
	rec_u64(r, "maxpacket", st.maxpacket);
	rec_u64(r, "ecn_mark", st.ecn_mark);
	rec_u64(r, "drop_overlimit", st.drop_overlimit);
	rec_u64(r, "ce_mark", st.ce_mark);
}

static void dec_fq_codel(struct rec *r, const void *data, size_t len)
{
	struct tc_fq_codel_xstats st;
	const struct tc_fq_codel_qd_stats *q = &st.qdisc_stats;

	XS_LOAD(st, data, len);
	/* a qdisc dump carries the qdisc variant; anything else is not ours */
	if (st.type != TCA_FQ_CODEL_XSTATS_QDISC)
		return;
	rec_u64(r, "maxpacket", q->maxpacket);
	rec_u64(r, "drop_overlimit", q->drop_overlimit);
	rec_u64(r, "new_flow_count", q->new_flow_count);
	rec_u64(r, "ecn_mark", q->ecn_mark);
	rec_u64(r, "ce_mark", q->ce_mark);
	rec_u64(r, "memory_used", q->memory_usage);
	rec_u64(r, "drop_overmemory", q->drop_overmemory);
	rec_u64(r, "new_flows_len", q->new_flows_len);
	rec_u64(r, "old_flows_len", q->old_flows_len);
}

static void dec_hhf(struct rec *r, const void *data, size_t len)
{
	struct tc_hhf_xstats st;

	XS_LOAD(st, data, len);
	rec_u64(r, "drop_overlimit", st.drop_overlimit);
	rec_u64(r, "hh_overlimit", st.hh_overlimit);
	rec_u64(r, "tot_hh", st.hh_tot_count);
	rec_u64(r, "cur_hh", st.hh_cur_count);
}

static const struct aqm_kind aqm_kinds[] = {
	{ "pi", dec_pi, "marks", { "prob", "qlen_sampled" } },
	{ "rem", dec_rem, "marks", { "prob", "price", "qlen_sampled" } },
	{ "ared", dec_ared, "marks", { "prob", "max_p", "qavg" } },
	{ "riops", dec_riops, "marks", { "prob_out", "prob_in", "qavg" } },
	{ "dcn", dec_dcn, "marks", { "pref", "hb_flows", "qref" } },
	{ "afd", dec_afd, "marks", { "m_fair", "flows", "qlen_sampled" } },
	{ "blue", dec_blue, "marks", { "p_m" } },
	{ "sfb", dec_sfb, "marked", { "avgprob", "maxprob", "penalized" } },
	{ "red", dec_red, "marked", { "early", "pdrop" } },
	{ "pie", dec_pie, "ecn_mark", { "prob", "delay" } },
	{ "codel", dec_codel, "ecn_mark", { "ldelay", "count", "dropping" } },
	{ "fq_codel", dec_fq_codel, "ecn_mark",
	  { "new_flows_len", "old_flows_len" } },
	{ "hhf", dec_hhf, NULL, { "cur_hh", "tot_hh" } },
};

const struct aqm_kind *aqm_kind_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(aqm_kinds); i++)
		if (!strcmp(aqm_kinds[i].name, name))
			return &aqm_kinds[i];
	return NULL;
}
