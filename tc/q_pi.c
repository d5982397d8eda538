/* SPDX-License-Identifier: GPL-2.0 */
/*
 * q_pi.c - tc plugin for the linux-aqm PI qdisc (see tc-pi(8)).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utils.h"
#include "tc_util.h"
#include "aqm_util.h"

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... pi [ limit PACKETS ] [ qref PACKETS | qref SIZE ]\n"
		"              [ a GAIN b GAIN ] [ tupdate TIME ]\n"
		"              [ rate RATE ] [ rtt TIME ] [ flows N ] [ avpkt SIZE ]\n"
		"              [ ecn | noecn ] [ ecn_ceil PROB ]\n"
		"              [ bytemode | nobytemode ]\n"
		"GAIN is a decimal (1.822e-5) or a ratio (1822/100000000), PROB one\n"
		"in [0, 1]. Without a and b, they come from Hollot's design rule for\n"
		"rate, rtt (largest RTT) and flows (smallest flow count), and\n"
		"tupdate defaults to rtt/40.\n"
		"Defaults: limit 1000p qref 24p (24 * avpkt in bytemode)\n"
		"          rate 30mbit rtt 246ms flows 60 avpkt 1000b noecn\n"
		"          ecn_ceil " AQM_ECN_CEIL_DEF " nobytemode\n");
}

static int pi_parse_opt(AQM_QU_CONST struct qdisc_util *qu, int argc,
			char **argv, struct nlmsghdr *n, const char *dev)
{
	struct aqm_ecn_opts eo = AQM_ECN_OPTS_INIT;
	struct aqm_ratio a = {}, b = {};
	__u32 limit = 0, qref = 0, tupdate = 0, rtt = 0;
	unsigned int flows = 0, avpkt = 0;
	int bytemode = -1, r;
	bool has_a = false, has_b = false;
	__u64 rate = 0;
	struct rtattr *tail;

	while (argc > 0) {
		if (strcmp(*argv, "limit") == 0) {
			NEXT_ARG();
			if (aqm_parse_limit(&limit, *argv))
				return -1;
		} else if (strcmp(*argv, "qref") == 0) {
			NEXT_ARG();
			if (aqm_parse_qref(&qref, *argv))
				return -1;
		} else if (strcmp(*argv, "a") == 0) {
			NEXT_ARG();
			if (aqm_parse_ratio_opt(&a, "a", *argv))
				return -1;
			has_a = true;
		} else if (strcmp(*argv, "b") == 0) {
			NEXT_ARG();
			if (aqm_parse_ratio_opt(&b, "b", *argv))
				return -1;
			has_b = true;
		} else if (strcmp(*argv, "tupdate") == 0) {
			NEXT_ARG();
			if (aqm_get_usecs(&tupdate, *argv)) {
				fprintf(stderr, "Illegal \"tupdate\"\n");
				return -1;
			}
			if (aqm_check_range("tupdate", tupdate, 100, 1000000, "us"))
				return -1;
		} else if (strcmp(*argv, "rate") == 0) {
			NEXT_ARG();
			if (get_rate64(&rate, *argv) || !rate) {
				fprintf(stderr, "Illegal \"rate\"\n");
				return -1;
			}
		} else if (strcmp(*argv, "rtt") == 0) {
			NEXT_ARG();
			if (aqm_get_usecs(&rtt, *argv)) {
				fprintf(stderr, "Illegal \"rtt\"\n");
				return -1;
			}
			if (aqm_check_range("rtt", rtt, 1000, 10000000, "us"))
				return -1;
		} else if (strcmp(*argv, "flows") == 0) {
			NEXT_ARG();
			if (get_unsigned(&flows, *argv, 0)) {
				fprintf(stderr, "Illegal \"flows\"\n");
				return -1;
			}
			if (aqm_check_range("flows", flows, 1, 65535, NULL))
				return -1;
		} else if (strcmp(*argv, "avpkt") == 0) {
			NEXT_ARG();
			if (get_size(&avpkt, *argv)) {
				fprintf(stderr, "Illegal \"avpkt\"\n");
				return -1;
			}
			if (aqm_check_range("avpkt", avpkt, 40, 65535, "bytes"))
				return -1;
		} else if ((r = aqm_parse_ecn_word(&eo, &argc, &argv))) {
			if (r < 0)
				return -1;
		} else if (strcmp(*argv, "bytemode") == 0) {
			bytemode = 1;
		} else if (strcmp(*argv, "nobytemode") == 0) {
			bytemode = 0;
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

	if (has_a != has_b) {
		fprintf(stderr, "\"a\" and \"b\" go together\n");
		return -1;
	}

	tail = addattr_nest(n, 1024, TCA_OPTIONS | NLA_F_NESTED);
	if (limit)
		addattr32(n, 1024, TCA_PI_LIMIT, limit);
	if (qref)
		addattr32(n, 1024, TCA_PI_QREF, qref);
	if (has_a) {
		aqm_addattr_ratio(n, 1024, TCA_PI_A, &a);
		aqm_addattr_ratio(n, 1024, TCA_PI_B, &b);
	}
	if (tupdate)
		addattr32(n, 1024, TCA_PI_TUPDATE, tupdate);
	if (rate)
		addattr64(n, 1024, TCA_PI_RATE, rate);
	if (rtt)
		addattr32(n, 1024, TCA_PI_RTT, rtt);
	if (flows)
		addattr32(n, 1024, TCA_PI_FLOWS, flows);
	if (avpkt)
		addattr32(n, 1024, TCA_PI_AVPKT, avpkt);
	aqm_addattr_ecn(n, 1024, TCA_PI_ECN, TCA_PI_ECN_CEIL, &eo);
	if (bytemode != -1)
		addattr8(n, 1024, TCA_PI_BYTEMODE, bytemode);
	addattr_nest_end(n, tail);
	return 0;
}

static int pi_print_opt(AQM_QU_CONST struct qdisc_util *qu, FILE *f,
			struct rtattr *opt)
{
	struct rtattr *tb[TCA_PI_MAX + 1];
	bool bytemode = false, designed = false, ecn = false;

	if (!opt)
		return 0;
	parse_rtattr_nested(tb, TCA_PI_MAX, opt);

	if (tb[TCA_PI_BYTEMODE])
		bytemode = rta_getattr_u8(tb[TCA_PI_BYTEMODE]);
	if (tb[TCA_PI_DESIGNED])
		designed = rta_getattr_u8(tb[TCA_PI_DESIGNED]);
	if (tb[TCA_PI_ECN])
		ecn = rta_getattr_u8(tb[TCA_PI_ECN]);

	if (tb[TCA_PI_LIMIT])
		print_uint(PRINT_ANY, "limit", "limit %up ",
			   rta_getattr_u32(tb[TCA_PI_LIMIT]));
	if (tb[TCA_PI_QREF]) {
		if (bytemode)
			aqm_print_size_exact("qref",
					     rta_getattr_u32(tb[TCA_PI_QREF]));
		else
			print_uint(PRINT_ANY, "qref", "qref %up ",
				   rta_getattr_u32(tb[TCA_PI_QREF]));
	}
	aqm_print_ratio_attr("a", tb[TCA_PI_A], designed);
	aqm_print_ratio_attr("b", tb[TCA_PI_B], designed);
	if (tb[TCA_PI_TUPDATE])
		aqm_print_time("tupdate", rta_getattr_u32(tb[TCA_PI_TUPDATE]));
	aqm_print_flag("ecn", ecn);
	aqm_print_ratio_attr("ecn_ceil", tb[TCA_PI_ECN_CEIL], false);
	aqm_print_flag("bytemode", bytemode);
	print_bool(PRINT_JSON, "designed", NULL, designed);
	if (designed)
		print_string(PRINT_FP, NULL, "%s", "designed for ");
	if (tb[TCA_PI_RATE])
		aqm_print_rate_exact("rate",
				     rta_getattr_u64(tb[TCA_PI_RATE]));
	if (tb[TCA_PI_RTT])
		aqm_print_time("rtt", rta_getattr_u32(tb[TCA_PI_RTT]));
	if (tb[TCA_PI_FLOWS])
		print_uint(PRINT_ANY, "flows", "flows %u ",
			   rta_getattr_u32(tb[TCA_PI_FLOWS]));
	if (tb[TCA_PI_AVPKT])
		aqm_print_size_exact("avpkt",
				     rta_getattr_u32(tb[TCA_PI_AVPKT]));
	return 0;
}

static int pi_print_xstats(AQM_QU_CONST struct qdisc_util *qu, FILE *f,
			   struct rtattr *xstats)
{
	struct tc_pi_xstats st = {};

	if (!xstats)
		return 0;
	if (RTA_PAYLOAD(xstats) < sizeof(st))
		return -1;
	memcpy(&st, RTA_DATA(xstats), sizeof(st));

	print_float(PRINT_ANY, "prob", "  prob %lg", aqm_prob_value(st.prob));
	print_uint(PRINT_ANY, "qlen_sampled", " qlen_sampled %u",
		   st.qlen_sampled);
	print_size(PRINT_ANY, "mean_pktlen", " mean_pktlen %s", st.mean_pktlen);
	print_u64(PRINT_ANY, "samples", " samples %llu", st.samples);
	print_nl();
	print_u64(PRINT_ANY, "early_drops", "  early_drops %llu", st.early_drops);
	print_u64(PRINT_ANY, "forced_drops", " forced_drops %llu",
		  st.forced_drops);
	print_u64(PRINT_ANY, "marks", " marks %llu", st.marks);
	return 0;
}

struct qdisc_util pi_qdisc_util = {
	.id		= "pi",
	.parse_qopt	= pi_parse_opt,
	.print_qopt	= pi_print_opt,
	.print_xstats	= pi_print_xstats,
};
