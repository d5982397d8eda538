/* SPDX-License-Identifier: GPL-2.0 */
/*
 * q_afd.c - tc plugin for the linux-aqm AFD qdisc (see tc-afd(8)).
 */
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "utils.h"
#include "tc_util.h"
#include "aqm_util.h"

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... afd [ limit PACKETS ] [ target TIME | qref PACKETS ]\n"
		"               [ alpha GAIN ] [ beta GAIN ] [ tupdate TIME ]\n"
		"               [ shadow ENTRIES ] [ sample N ] [ flows N ]\n"
		"               [ bytemode | nobytemode ] [ avpkt SIZE ]\n"
		"               [ ecn | noecn ] [ ecn_ceil PROB ] [ hold | nohold ]\n"
		"GAIN is a decimal (1.7) or a ratio (17/10), alpha < beta < 32768;\n"
		"PROB one in [0, 1]. limit and qref (qref < limit) in [1, 1048576]\n"
		"packets; target (the queue target in time, converted at the\n"
		"measured rate, with the relative law; qref: a target in packets\n"
		"with the paper's law, alpha and beta) in [0, 1s], 0: qref;\n"
		"tupdate in [100us, 1s]; shadow (sampled arrivals kept) and\n"
		"sample (1 in N arrivals is sampled) in [1, 65536]; flows (flow\n"
		"table capacity, 0: shadow) in [0, shadow]; avpkt (bytes one entry\n"
		"of the fair share stands for in bytemode) in [40, 65535] bytes.\n"
		"nohold: the relative law without its anti-windup (for study).\n"
		"Defaults: limit 1000p target 29ms (qref 240p until the rate is\n"
		"          known) alpha 1.7 beta 1.8 tupdate 6250us\n"
		"          shadow 1000 sample 1 flows 0 nobytemode avpkt 1000b\n"
		"          noecn ecn_ceil " AQM_ECN_CEIL_DEF " hold\n");
}

static const struct aqm_u32_opt afd_u32_opts[] = {
	{ "limit", TCA_AFD_LIMIT, AQM_UNIT_PACKETS, 1, 1 << 20 },
	{ "qref", TCA_AFD_QREF, AQM_UNIT_PACKETS, 1, 1 << 20 },
	{ "target", TCA_AFD_TARGET, AQM_UNIT_TIME, 0, 1000000 },
	{ "tupdate", TCA_AFD_TUPDATE, AQM_UNIT_TIME, 100, 1000000 },
	{ "shadow", TCA_AFD_SHADOW, AQM_UNIT_COUNT, 1, 65536 },
	{ "sample", TCA_AFD_SAMPLE, AQM_UNIT_COUNT, 1, 65536 },
	{ "flows", TCA_AFD_FLOWS, AQM_UNIT_COUNT, 0, 65536 },
	{ "avpkt", TCA_AFD_AVPKT, AQM_UNIT_BYTES, 40, 65535 },
};

static int afd_parse_opt(AQM_QU_CONST struct qdisc_util *qu, int argc,
			 char **argv, struct nlmsghdr *n, const char *dev)
{
	__u32 vals[TCA_AFD_MAX + 1] = {};
	bool set[TCA_AFD_MAX + 1] = {};
	struct aqm_ecn_opts eo = AQM_ECN_OPTS_INIT;
	struct aqm_ratio alpha = {}, beta = {};
	int bytemode = -1, hold = -1, r;
	struct rtattr *tail;

	while (argc > 0) {
		if ((r = aqm_u32_opt_parse(afd_u32_opts,
					   ARRAY_SIZE(afd_u32_opts), &argc,
					   &argv, vals, set))) {
			if (r < 0)
				return -1;
		} else if (strcmp(*argv, "alpha") == 0) {
			NEXT_ARG();
			if (aqm_parse_ratio_opt(&alpha, "alpha", *argv))
				return -1;
			set[TCA_AFD_ALPHA] = true;
		} else if (strcmp(*argv, "beta") == 0) {
			NEXT_ARG();
			if (aqm_parse_ratio_opt(&beta, "beta", *argv))
				return -1;
			set[TCA_AFD_BETA] = true;
		} else if (strcmp(*argv, "bytemode") == 0) {
			bytemode = 1;
		} else if (strcmp(*argv, "nobytemode") == 0) {
			bytemode = 0;
		} else if (strcmp(*argv, "hold") == 0) {
			hold = 1;
		} else if (strcmp(*argv, "nohold") == 0) {
			hold = 0;
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

	if (set[TCA_AFD_QREF] && set[TCA_AFD_TARGET] && vals[TCA_AFD_TARGET]) {
		fprintf(stderr, "afd: give either qref (packets) or target (time), not both\n");
		return -1;
	}

	tail = addattr_nest(n, 1024, TCA_OPTIONS | NLA_F_NESTED);
	aqm_u32_opts_put(n, afd_u32_opts, ARRAY_SIZE(afd_u32_opts), vals, set);
	if (set[TCA_AFD_ALPHA])
		aqm_addattr_ratio(n, 1024, TCA_AFD_ALPHA, &alpha);
	if (set[TCA_AFD_BETA])
		aqm_addattr_ratio(n, 1024, TCA_AFD_BETA, &beta);
	if (bytemode != -1)
		addattr8(n, 1024, TCA_AFD_BYTEMODE, bytemode);
	if (hold != -1)
		addattr8(n, 1024, TCA_AFD_HOLD, hold);
	aqm_addattr_ecn(n, 1024, TCA_AFD_ECN, TCA_AFD_ECN_CEIL, &eo);
	addattr_nest_end(n, tail);
	return 0;
}

static int afd_print_opt(AQM_QU_CONST struct qdisc_util *qu, FILE *f,
			 struct rtattr *opt)
{
	struct rtattr *tb[TCA_AFD_MAX + 1];
	bool bytemode = false, ecn = false;

	if (!opt)
		return 0;
	parse_rtattr_nested(tb, TCA_AFD_MAX, opt);

	if (tb[TCA_AFD_BYTEMODE])
		bytemode = rta_getattr_u8(tb[TCA_AFD_BYTEMODE]);
	if (tb[TCA_AFD_ECN])
		ecn = rta_getattr_u8(tb[TCA_AFD_ECN]);

	if (tb[TCA_AFD_LIMIT])
		print_uint(PRINT_ANY, "limit", "limit %up ",
			   rta_getattr_u32(tb[TCA_AFD_LIMIT]));
	aqm_print_qref_target(tb[TCA_AFD_QREF], tb[TCA_AFD_TARGET]);
	aqm_print_ratio_attr("alpha", tb[TCA_AFD_ALPHA], false);
	aqm_print_ratio_attr("beta", tb[TCA_AFD_BETA], false);
	if (tb[TCA_AFD_TUPDATE])
		aqm_print_time("tupdate", rta_getattr_u32(tb[TCA_AFD_TUPDATE]));
	if (tb[TCA_AFD_SHADOW])
		print_uint(PRINT_ANY, "shadow", "shadow %u ",
			   rta_getattr_u32(tb[TCA_AFD_SHADOW]));
	if (tb[TCA_AFD_SAMPLE])
		print_uint(PRINT_ANY, "sample", "sample %u ",
			   rta_getattr_u32(tb[TCA_AFD_SAMPLE]));
	if (tb[TCA_AFD_FLOWS])
		print_uint(PRINT_ANY, "flows", "flows %u ",
			   rta_getattr_u32(tb[TCA_AFD_FLOWS]));
	aqm_print_flag("ecn", ecn);
	aqm_print_ratio_attr("ecn_ceil", tb[TCA_AFD_ECN_CEIL], false);
	aqm_print_flag("bytemode", bytemode);
	if (tb[TCA_AFD_AVPKT])
		aqm_print_size_exact("avpkt",
				     rta_getattr_u32(tb[TCA_AFD_AVPKT]));
	/* JSON "hold": true or false; the text only "nohold", off being rare */
	if (tb[TCA_AFD_HOLD]) {
		bool hold = rta_getattr_u8(tb[TCA_AFD_HOLD]);

		print_bool(PRINT_JSON, "hold", NULL, hold);
		if (!hold)
			print_string(PRINT_FP, NULL, "%s ", "nohold");
	}
	return 0;
}

static int afd_print_xstats(AQM_QU_CONST struct qdisc_util *qu, FILE *f,
			    struct rtattr *xstats)
{
	/* a module older than the time target stops at memory */
	const size_t old = offsetof(struct tc_afd_xstats, qref);
	struct tc_afd_xstats st = {};
	size_t len;

	if (!xstats)
		return 0;
	len = RTA_PAYLOAD(xstats);
	if (len < old)
		return -1;
	memcpy(&st, RTA_DATA(xstats), len < sizeof(st) ? len : sizeof(st));

	/* m_fair in m_i's unit: sampled packets, or bytes in bytemode */
	print_float(PRINT_ANY, "m_fair", "  m_fair %g", st.m_fair / 256.0);
	print_uint(PRINT_ANY, "qlen_sampled", " qlen_sampled %u",
		   st.qlen_sampled);
	print_u64(PRINT_ANY, "samples", " samples %llu", st.samples);
	print_nl();
	print_uint(PRINT_ANY, "shadow_len", "  shadow_len %u", st.shadow_len);
	print_uint(PRINT_ANY, "shadow_size", " shadow_size %u", st.shadow_size);
	print_u64(PRINT_ANY, "sampled", " sampled %llu", st.sampled);
	print_uint(PRINT_ANY, "flows", " flows %u", st.flows);
	print_uint(PRINT_ANY, "flows_hwm", " flows_hwm %u", st.flows_hwm);
	print_uint(PRINT_ANY, "flows_capacity", " flows_capacity %u",
		   st.flows_capacity);
	print_u64(PRINT_ANY, "untracked", " untracked %llu", st.untracked);
	if (st.memory <= UINT32_MAX)
		print_size(PRINT_ANY, "memory", " memory %s", st.memory);
	else
		print_u64(PRINT_ANY, "memory", " memory %llub", st.memory);
	print_nl();
	print_u64(PRINT_ANY, "early_drops", "  early_drops %llu", st.early_drops);
	print_u64(PRINT_ANY, "forced_drops", " forced_drops %llu",
		  st.forced_drops);
	print_u64(PRINT_ANY, "marks", " marks %llu", st.marks);
	if (len >= sizeof(st)) {
		print_nl();
		print_uint(PRINT_ANY, "qref", "  qref %up", st.qref);
		print_float(PRINT_ANY, "rate", " rate %.1fpps", st.rate / 256.0);
	}
	return 0;
}

struct qdisc_util afd_qdisc_util = {
	.id		= "afd",
	.parse_qopt	= afd_parse_opt,
	.print_qopt	= afd_print_opt,
	.print_xstats	= afd_print_xstats,
};
