/* SPDX-License-Identifier: GPL-2.0 */
/*
 * q_dcn.c - tc plugin for the linux-aqm DCN qdisc (see tc-dcn(8)).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utils.h"
#include "tc_util.h"
#include "aqm_util.h"

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... dcn [ limit PACKETS ] [ target TIME | qref PACKETS ]\n"
		"               [ qref_min PACKETS ]\n"
		"               [ a GAIN ] [ b GAIN ] [ floor SHARE ] [ holdoff TIME ]\n"
		"               [ tupdate TIME ] [ tdec TIME ] [ clear TIME ]\n"
		"               [ threshold PACKETS ] [ sb_size SLOTS ] [ hb_size FLOWS ]\n"
		"               [ ecn | noecn ] [ ecn_ceil PROB ]\n"
		"GAIN is a decimal (0.05) or a ratio (1/20), a < b; PROB one in [0, 1];\n"
		"SHARE 0 (no floor) or in [1/64, 1]. qref sets a target in packets\n"
		"instead of the time target; qref_min is the least target in packets\n"
		"that the time target converts to.\n"
		"Defaults: limit 1000p target 29ms (qref 24p until the rate is known)\n"
		"          qref_min 2p\n"
		"          a 1/20 b 1/12 floor 1 holdoff 100ms (0: none)\n"
		"          tupdate 10ms tdec 800ms clear 100ms\n"
		"          threshold 4p sb_size 4096 hb_size 2048 noecn\n"
		"          ecn_ceil 0.5\n");
}

static const struct aqm_u32_opt dcn_u32_opts[] = {
	{ "limit", TCA_DCN_LIMIT, AQM_UNIT_PACKETS, 1, 1 << 20 },
	{ "qref", TCA_DCN_QREF, AQM_UNIT_PACKETS, 1, 1 << 20 },
	{ "target", TCA_DCN_TARGET, AQM_UNIT_TIME, 0, 1000000 },
	{ "qref_min", TCA_DCN_QREF_MIN, AQM_UNIT_PACKETS, 1, 1 << 20 },
	{ "holdoff", TCA_DCN_HOLDOFF, AQM_UNIT_TIME, 0, 1000000 },
	{ "tupdate", TCA_DCN_TUPDATE, AQM_UNIT_TIME, 100, 1000000 },
	{ "tdec", TCA_DCN_TDEC, AQM_UNIT_TIME, 1000, 60000000 },
	{ "clear", TCA_DCN_CLEAR, AQM_UNIT_TIME, 1000, 60000000 },
	{ "threshold", TCA_DCN_THRESHOLD, AQM_UNIT_PACKETS, 1, 65535 },
	{ "sb_size", TCA_DCN_SB_SIZE, AQM_UNIT_COUNT, 1, 262144 },
	{ "hb_size", TCA_DCN_HB_SIZE, AQM_UNIT_COUNT, 1, 65536 },
};

static int dcn_parse_opt(AQM_QU_CONST struct qdisc_util *qu, int argc,
			 char **argv, struct nlmsghdr *n, const char *dev)
{
	__u32 vals[TCA_DCN_MAX + 1] = {};
	bool set[TCA_DCN_MAX + 1] = {};
	struct aqm_ecn_opts eo = AQM_ECN_OPTS_INIT;
	struct aqm_ratio a = {}, b = {}, floor = {};
	struct rtattr *tail;
	int r;

	while (argc > 0) {
		if ((r = aqm_u32_opt_parse(dcn_u32_opts,
					   ARRAY_SIZE(dcn_u32_opts), &argc,
					   &argv, vals, set))) {
			if (r < 0)
				return -1;
		} else if (strcmp(*argv, "a") == 0) {
			NEXT_ARG();
			if (aqm_parse_ratio_opt(&a, "a", *argv))
				return -1;
			set[TCA_DCN_A] = true;
		} else if (strcmp(*argv, "b") == 0) {
			NEXT_ARG();
			if (aqm_parse_ratio_opt(&b, "b", *argv))
				return -1;
			set[TCA_DCN_B] = true;
		} else if (strcmp(*argv, "floor") == 0) {
			NEXT_ARG();
			if (aqm_parse_prob_opt(&floor, "floor", *argv, true))
				return -1;
			if (floor.num && floor.num < (floor.den - 1) / 64 + 1) {
				fprintf(stderr,
					"Illegal \"floor\": must be 0 or in [1/64, 1]\n");
				return -1;
			}
			set[TCA_DCN_FLOOR] = true;
		} else if ((r = aqm_parse_ecn_word(&eo, &argc, &argv))) {
			if (r < 0)
				return -1;
		} else if (strcmp(*argv, "help") == 0) {
			explain();
			return -1;
		} else {
			fprintf(stderr, "What is \"%s\"?\n", *argv);
			explain();
			return -1;
		}
		argc--;
		argv++;
	}

	if (set[TCA_DCN_QREF] && set[TCA_DCN_TARGET] && vals[TCA_DCN_TARGET]) {
		fprintf(stderr, "dcn: give either qref (packets) or target (time), not both\n");
		return -1;
	}

	tail = addattr_nest(n, 1024, TCA_OPTIONS | NLA_F_NESTED);
	aqm_u32_opts_put(n, dcn_u32_opts, ARRAY_SIZE(dcn_u32_opts), vals, set);
	if (set[TCA_DCN_A])
		aqm_addattr_ratio(n, 1024, TCA_DCN_A, &a);
	if (set[TCA_DCN_B])
		aqm_addattr_ratio(n, 1024, TCA_DCN_B, &b);
	aqm_addattr_ecn(n, 1024, TCA_DCN_ECN, TCA_DCN_ECN_CEIL, &eo);
	if (set[TCA_DCN_FLOOR])
		aqm_addattr_ratio(n, 1024, TCA_DCN_FLOOR, &floor);
	addattr_nest_end(n, tail);
	return 0;
}

static int dcn_print_opt(AQM_QU_CONST struct qdisc_util *qu, FILE *f,
			 struct rtattr *opt)
{
	struct rtattr *tb[TCA_DCN_MAX + 1];
	bool ecn = false;
	__u32 target;

	if (!opt)
		return 0;
	parse_rtattr_nested(tb, TCA_DCN_MAX, opt);

	if (tb[TCA_DCN_LIMIT])
		print_uint(PRINT_ANY, "limit", "limit %up ",
			   rta_getattr_u32(tb[TCA_DCN_LIMIT]));
	target = aqm_print_qref_target(tb[TCA_DCN_QREF], tb[TCA_DCN_TARGET]);
	/* in the text here, only when set off its default and of use (with
	 * a target); in JSON always, last (below), after the older keys
	 */
	if (tb[TCA_DCN_QREF_MIN] && target &&
	    rta_getattr_u32(tb[TCA_DCN_QREF_MIN]) != 2)
		print_uint(PRINT_FP, NULL, "qref_min %up ",
			   rta_getattr_u32(tb[TCA_DCN_QREF_MIN]));
	aqm_print_ratio_attr("a", tb[TCA_DCN_A], false);
	aqm_print_ratio_attr("b", tb[TCA_DCN_B], false);
	if (tb[TCA_DCN_TUPDATE])
		aqm_print_time("tupdate", rta_getattr_u32(tb[TCA_DCN_TUPDATE]));
	if (tb[TCA_DCN_TDEC])
		aqm_print_time("tdec", rta_getattr_u32(tb[TCA_DCN_TDEC]));
	if (tb[TCA_DCN_CLEAR])
		aqm_print_time("clear", rta_getattr_u32(tb[TCA_DCN_CLEAR]));
	if (tb[TCA_DCN_THRESHOLD])
		print_uint(PRINT_ANY, "threshold", "threshold %up ",
			   rta_getattr_u32(tb[TCA_DCN_THRESHOLD]));
	if (tb[TCA_DCN_SB_SIZE])
		print_uint(PRINT_ANY, "sb_size", "sb_size %u ",
			   rta_getattr_u32(tb[TCA_DCN_SB_SIZE]));
	if (tb[TCA_DCN_HB_SIZE])
		print_uint(PRINT_ANY, "hb_size", "hb_size %u ",
			   rta_getattr_u32(tb[TCA_DCN_HB_SIZE]));
	if (tb[TCA_DCN_ECN])
		ecn = rta_getattr_u8(tb[TCA_DCN_ECN]);
	aqm_print_flag("ecn", ecn);
	aqm_print_ratio_attr("ecn_ceil", tb[TCA_DCN_ECN_CEIL], false);
	aqm_print_ratio_attr("floor", tb[TCA_DCN_FLOOR], false);
	if (tb[TCA_DCN_HOLDOFF])
		aqm_print_time("holdoff", rta_getattr_u32(tb[TCA_DCN_HOLDOFF]));
	if (tb[TCA_DCN_QREF_MIN])
		print_uint(PRINT_JSON, "qref_min", NULL,
			   rta_getattr_u32(tb[TCA_DCN_QREF_MIN]));
	return 0;
}

static int dcn_print_xstats(AQM_QU_CONST struct qdisc_util *qu, FILE *f,
			    struct rtattr *xstats)
{
	/* a module older than the time target stops at samples */
	const size_t old = offsetof(struct tc_dcn_xstats, qref);
	struct tc_dcn_xstats st = {};
	size_t len;

	if (!xstats)
		return 0;
	len = RTA_PAYLOAD(xstats);
	if (len < old)
		return -1;
	memcpy(&st, RTA_DATA(xstats), len < sizeof(st) ? len : sizeof(st));

	print_float(PRINT_ANY, "pref", "  pref %.2f", st.pref / 256.0);
	print_uint(PRINT_ANY, "qlen_sampled", " qlen_sampled %u",
		   st.qlen_sampled);
	print_u64(PRINT_ANY, "samples", " samples %llu", st.samples);
	print_nl();
	print_uint(PRINT_ANY, "hb_flows", "  hb_flows %u", st.hb_flows);
	print_uint(PRINT_ANY, "hb_hwm", " hb_hwm %u", st.hb_hwm);
	print_uint(PRINT_ANY, "hb_capacity", " hb_capacity %u", st.hb_capacity);
	print_uint(PRINT_ANY, "sb_size", " sb_size %u", st.sb_size);
	if (st.memory <= UINT32_MAX)
		print_size(PRINT_ANY, "memory", " memory %s", st.memory);
	else
		print_u64(PRINT_ANY, "memory", " memory %llub", st.memory);
	print_nl();
	print_u64(PRINT_ANY, "promotions", "  promotions %llu", st.promotions);
	print_u64(PRINT_ANY, "removals", " removals %llu", st.removals);
	print_u64(PRINT_ANY, "hb_full", " hb_full %llu", st.hb_full);
	print_u64(PRINT_ANY, "sb_overwrites", " sb_overwrites %llu",
		  st.sb_overwrites);
	print_nl();
	print_u64(PRINT_ANY, "early_drops", "  early_drops %llu", st.early_drops);
	print_u64(PRINT_ANY, "forced_drops", " forced_drops %llu",
		  st.forced_drops);
	print_u64(PRINT_ANY, "marks", " marks %llu", st.marks);
	if (len >= offsetof(struct tc_dcn_xstats, held)) {
		print_nl();
		print_uint(PRINT_ANY, "qref", "  qref %up", st.qref);
		print_float(PRINT_ANY, "rate", " rate %.1fpps", st.rate / 256.0);
		print_uint(PRINT_ANY, "over_pref", " over_pref %u", st.over_pref);
		print_u64(PRINT_ANY, "penalty_drops", " penalty_drops %llu",
			  st.penalty_drops);
	}
	/* a module older than the holdoff stops at penalty_drops */
	if (len >= sizeof(st))
		print_u64(PRINT_ANY, "held", " held %llu", st.held);
	return 0;
}

struct qdisc_util dcn_qdisc_util = {
	.id		= "dcn",
	.parse_qopt	= dcn_parse_opt,
	.print_qopt	= dcn_print_opt,
	.print_xstats	= dcn_print_xstats,
};
