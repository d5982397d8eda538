/* SPDX-License-Identifier: GPL-2.0 */
/*
 * q_rem.c - tc plugin for the linux-aqm REM qdisc (see tc-rem(8)).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utils.h"
#include "tc_util.h"
#include "aqm_util.h"

/* largest link rate the kernel takes, bytes/s (sch_rem.c: rem_rate_range) */
#define REM_RATE_MAX	(1ULL << 40)

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... rem [ limit PACKETS ] [ qref PACKETS | qref SIZE ]\n"
		"               [ gamma RATIO ] [ alpha RATIO ] [ phi RATIO ]\n"
		"               [ tupdate TIME ] [ rate RATE ] [ avpkt SIZE ]\n"
		"               [ ecn | noecn ] [ ecn_ceil PROB ]\n"
		"               [ bytemode | nobytemode ]\n"
		"RATIO is a decimal (0.001) or a ratio (1/1000), PROB one in\n"
		"[0, 1]. Without rate (or with rate 0) the rate mismatch is\n"
		"estimated from the queue's change.\n"
		"Defaults: limit 1000p qref 24p (24 * avpkt in bytemode)\n"
		"          gamma 0.001 alpha 0.1 phi 1.001 tupdate 2ms rate 0\n"
		"          avpkt 1000b noecn ecn_ceil " AQM_ECN_CEIL_DEF
		" nobytemode\n");
}

/*
 * A ratio option whose value must lie below @max (an integer), and above 0
 * (@above == 0) or above 1 (@above == 1) when @above is not -1. The
 * kernel's checks are the authority (phi must also be above 1 + 8.3e-8,
 * gamma must not round to 0); these only catch what is plainly out of
 * range, naming the option.
 */
static int rem_parse_ratio(struct aqm_ratio *r, const char *name,
			   const char *arg, int above, __u64 max,
			   const char *range)
{
	if (aqm_parse_ratio_opt(r, name, arg))
		return -1;
	if ((above >= 0 && r->num <= (above ? r->den : 0)) ||
	    r->num / r->den >= max) {
		fprintf(stderr, "Illegal \"%s\": must be %s\n", name, range);
		return -1;
	}
	return 0;
}

static int rem_parse_opt(AQM_QU_CONST struct qdisc_util *qu, int argc,
			 char **argv, struct nlmsghdr *n, const char *dev)
{
	struct aqm_ecn_opts eo = AQM_ECN_OPTS_INIT;
	struct aqm_ratio gamma = {}, alpha = {}, phi = {};
	bool has_gamma = false, has_alpha = false, has_phi = false;
	bool has_rate = false;
	__u32 limit = 0, qref = 0, tupdate = 0;
	unsigned int avpkt = 0;
	int bytemode = -1, r;
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
		} else if (strcmp(*argv, "gamma") == 0) {
			NEXT_ARG();
			if (rem_parse_ratio(&gamma, "gamma", *argv, 0, 32768,
					    "a ratio in (0, 32768)"))
				return -1;
			has_gamma = true;
		} else if (strcmp(*argv, "alpha") == 0) {
			NEXT_ARG();
			if (rem_parse_ratio(&alpha, "alpha", *argv, -1, 32768,
					    "a ratio below 32768"))
				return -1;
			has_alpha = true;
		} else if (strcmp(*argv, "phi") == 0) {
			NEXT_ARG();
			if (rem_parse_ratio(&phi, "phi", *argv, 1, 16,
					    "a ratio above 1 + 8.3e-8 and below 16"))
				return -1;
			has_phi = true;
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
			/* get_rate64() takes "-1" and "nan" through strtod */
			if (!isdigit((unsigned char)**argv) ||
			    get_rate64(&rate, *argv)) {
				fprintf(stderr, "Illegal \"rate\"\n");
				return -1;
			}
			if (aqm_check_range("rate", rate, 0, REM_RATE_MAX,
					    "bytes/s"))
				return -1;
			has_rate = true;
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

	tail = addattr_nest(n, 1024, TCA_OPTIONS | NLA_F_NESTED);
	if (limit)
		addattr32(n, 1024, TCA_REM_LIMIT, limit);
	if (qref)
		addattr32(n, 1024, TCA_REM_QREF, qref);
	if (has_gamma)
		aqm_addattr_ratio(n, 1024, TCA_REM_GAMMA, &gamma);
	if (has_alpha)
		aqm_addattr_ratio(n, 1024, TCA_REM_ALPHA, &alpha);
	if (has_phi)
		aqm_addattr_ratio(n, 1024, TCA_REM_PHI, &phi);
	if (tupdate)
		addattr32(n, 1024, TCA_REM_TUPDATE, tupdate);
	/* rate 0 is sent: it turns a rate set before back off */
	if (has_rate)
		addattr64(n, 1024, TCA_REM_RATE, rate);
	if (avpkt)
		addattr32(n, 1024, TCA_REM_AVPKT, avpkt);
	aqm_addattr_ecn(n, 1024, TCA_REM_ECN, TCA_REM_ECN_CEIL, &eo);
	if (bytemode != -1)
		addattr8(n, 1024, TCA_REM_BYTEMODE, bytemode);
	addattr_nest_end(n, tail);
	return 0;
}

static int rem_print_opt(AQM_QU_CONST struct qdisc_util *qu, FILE *f,
			 struct rtattr *opt)
{
	struct rtattr *tb[TCA_REM_MAX + 1];
	bool bytemode = false, ecn = false;

	if (!opt)
		return 0;
	parse_rtattr_nested(tb, TCA_REM_MAX, opt);

	if (tb[TCA_REM_BYTEMODE])
		bytemode = rta_getattr_u8(tb[TCA_REM_BYTEMODE]);
	if (tb[TCA_REM_ECN])
		ecn = rta_getattr_u8(tb[TCA_REM_ECN]);

	if (tb[TCA_REM_LIMIT])
		print_uint(PRINT_ANY, "limit", "limit %up ",
			   rta_getattr_u32(tb[TCA_REM_LIMIT]));
	if (tb[TCA_REM_QREF]) {
		if (bytemode)
			aqm_print_size_exact("qref",
					     rta_getattr_u32(tb[TCA_REM_QREF]));
		else
			print_uint(PRINT_ANY, "qref", "qref %up ",
				   rta_getattr_u32(tb[TCA_REM_QREF]));
	}
	aqm_print_ratio_attr("gamma", tb[TCA_REM_GAMMA], false);
	aqm_print_ratio_attr("alpha", tb[TCA_REM_ALPHA], false);
	aqm_print_ratio_attr("phi", tb[TCA_REM_PHI], false);
	if (tb[TCA_REM_TUPDATE])
		aqm_print_time("tupdate", rta_getattr_u32(tb[TCA_REM_TUPDATE]));
	if (tb[TCA_REM_RATE] &&
	    RTA_PAYLOAD(tb[TCA_REM_RATE]) >= sizeof(__u64))
		aqm_print_rate_exact("rate",
				     rta_getattr_u64(tb[TCA_REM_RATE]));
	aqm_print_flag("ecn", ecn);
	aqm_print_ratio_attr("ecn_ceil", tb[TCA_REM_ECN_CEIL], false);
	aqm_print_flag("bytemode", bytemode);
	if (tb[TCA_REM_AVPKT])
		aqm_print_size_exact("avpkt",
				     rta_getattr_u32(tb[TCA_REM_AVPKT]));
	return 0;
}

static int rem_print_xstats(AQM_QU_CONST struct qdisc_util *qu, FILE *f,
			    struct rtattr *xstats)
{
	struct tc_rem_xstats st = {};

	if (!xstats)
		return 0;
	if (RTA_PAYLOAD(xstats) < sizeof(st))
		return -1;
	memcpy(&st, RTA_DATA(xstats), sizeof(st));

	print_float(PRINT_ANY, "prob", "  prob %lg", aqm_prob_value(st.prob));
	/* the price, in packets (of avpkt bytes in bytemode), is Q32 */
	print_float(PRINT_ANY, "price", " price %.6g",
		    (double)st.price / 4294967296.0);
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

struct qdisc_util rem_qdisc_util = {
	.id		= "rem",
	.parse_qopt	= rem_parse_opt,
	.print_qopt	= rem_print_opt,
	.print_xstats	= rem_print_xstats,
};
