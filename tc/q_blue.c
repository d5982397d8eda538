/* SPDX-License-Identifier: GPL-2.0 */
/*
 * q_blue.c - tc plugin for the linux-aqm BLUE qdisc (see tc-blue(8)).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utils.h"
#include "tc_util.h"
#include "aqm_util.h"

enum blue_unit { BLUE_UNIT_ANY, BLUE_UNIT_PACKETS, BLUE_UNIT_BYTES };

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... blue [ limit PACKETS | bytelimit SIZE ]\n"
		"               [ threshold PACKETS | threshold SIZE ]\n"
		"               [ delta1 PROB ] [ delta2 PROB ] [ freeze_time TIME ]\n"
		"               [ randomize | norandomize ] [ ecn | noecn ]\n"
		"               [ ecn_ceil PROB ]\n"
		"PROB is a decimal (0.0025) or a ratio (1/400): delta1 and delta2\n"
		"in (0, 1], ecn_ceil in [0, 1].\n"
		"threshold is in the limit's unit, 0 for off: Np for packets,\n"
		"a size (60kb, 60000b) for bytes.\n"
		"Defaults: limit 1000p threshold 0 delta1 0.01 delta2 0.001\n"
		"          freeze_time 50ms norandomize noecn ecn_ceil " AQM_ECN_CEIL_DEF "\n");
}

/* "1000" or "1000p": a packet count; "1000p" says packets explicitly. */
static int blue_get_packets(__u32 *val, const char *arg, enum blue_unit *unit)
{
	if (aqm_get_packets(val, arg))
		return -1;
	*unit = arg[strlen(arg) - 1] == 'p' ? BLUE_UNIT_PACKETS : BLUE_UNIT_ANY;
	return 0;
}

/* "1000" (the limit's unit), "30p" (packets) or a size (bytes). */
static int blue_get_threshold(__u32 *val, const char *arg,
			      enum blue_unit *unit)
{
	unsigned int size;

	if (!blue_get_packets(val, arg, unit))
		return 0;
	if (!isdigit((unsigned char)arg[0]) || get_size(&size, arg))
		return -1;
	*val = size;
	*unit = BLUE_UNIT_BYTES;
	return 0;
}

static int blue_parse_opt(AQM_QU_CONST struct qdisc_util *qu, int argc,
			  char **argv, struct nlmsghdr *n, const char *dev)
{
	struct aqm_ecn_opts eo = AQM_ECN_OPTS_INIT;
	struct aqm_ratio delta1 = {}, delta2 = {};
	bool has_limit = false, has_bytelimit = false, has_threshold = false;
	bool has_delta1 = false, has_delta2 = false, has_freeze = false;
	enum blue_unit unit, threshold_unit = BLUE_UNIT_ANY;
	__u32 limit = 0, bytelimit = 0, threshold = 0, freeze = 0;
	int randomize = -1, r;
	struct rtattr *tail;

	while (argc > 0) {
		if (strcmp(*argv, "limit") == 0) {
			NEXT_ARG();
			if (blue_get_packets(&limit, *argv, &unit)) {
				fprintf(stderr, "Illegal \"limit\": packets expected\n");
				return -1;
			}
			if (aqm_check_range("limit", limit, 1, 1 << 20, "packets"))
				return -1;
			has_limit = true;
		} else if (strcmp(*argv, "bytelimit") == 0) {
			NEXT_ARG();
			if (!isdigit((unsigned char)**argv) ||
			    get_size(&bytelimit, *argv)) {
				fprintf(stderr, "Illegal \"bytelimit\": a size expected\n");
				return -1;
			}
			if (aqm_check_range("bytelimit", bytelimit, 1500, 1 << 30,
					    "bytes"))
				return -1;
			has_bytelimit = true;
		} else if (strcmp(*argv, "threshold") == 0) {
			NEXT_ARG();
			if (blue_get_threshold(&threshold, *argv, &threshold_unit)) {
				fprintf(stderr, "Illegal \"threshold\"\n");
				return -1;
			}
			has_threshold = true;
		} else if (strcmp(*argv, "delta1") == 0) {
			NEXT_ARG();
			if (aqm_parse_prob_opt(&delta1, "delta1", *argv, false))
				return -1;
			has_delta1 = true;
		} else if (strcmp(*argv, "delta2") == 0) {
			NEXT_ARG();
			if (aqm_parse_prob_opt(&delta2, "delta2", *argv, false))
				return -1;
			has_delta2 = true;
		} else if (strcmp(*argv, "freeze_time") == 0) {
			NEXT_ARG();
			if (aqm_get_usecs(&freeze, *argv)) {
				fprintf(stderr, "Illegal \"freeze_time\"\n");
				return -1;
			}
			if (aqm_check_range("freeze_time", freeze, 1000, 10000000,
					    "us"))
				return -1;
			has_freeze = true;
		} else if (strcmp(*argv, "randomize") == 0) {
			randomize = 1;
		} else if (strcmp(*argv, "norandomize") == 0) {
			randomize = 0;
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

	if (has_limit && has_bytelimit) {
		fprintf(stderr, "\"limit\" and \"bytelimit\" are exclusive\n");
		return -1;
	}
	if ((threshold_unit == BLUE_UNIT_BYTES && has_limit) ||
	    (threshold_unit == BLUE_UNIT_PACKETS && has_bytelimit)) {
		fprintf(stderr, "\"threshold\" must be in the limit's unit\n");
		return -1;
	}

	tail = addattr_nest(n, 1024, TCA_OPTIONS | NLA_F_NESTED);
	if (has_limit)
		addattr32(n, 1024, TCA_BLUE_LIMIT, limit);
	if (has_bytelimit)
		addattr32(n, 1024, TCA_BLUE_BYTELIMIT, bytelimit);
	if (has_threshold)
		addattr32(n, 1024, TCA_BLUE_THRESHOLD, threshold);
	if (has_delta1)
		aqm_addattr_ratio(n, 1024, TCA_BLUE_DELTA1, &delta1);
	if (has_delta2)
		aqm_addattr_ratio(n, 1024, TCA_BLUE_DELTA2, &delta2);
	if (has_freeze)
		addattr32(n, 1024, TCA_BLUE_FREEZE, freeze);
	if (randomize != -1)
		addattr8(n, 1024, TCA_BLUE_RANDOMIZE, randomize);
	aqm_addattr_ecn(n, 1024, TCA_BLUE_ECN, TCA_BLUE_ECN_CEIL, &eo);
	addattr_nest_end(n, tail);
	return 0;
}

static int blue_print_opt(AQM_QU_CONST struct qdisc_util *qu, FILE *f,
			  struct rtattr *opt)
{
	struct rtattr *tb[TCA_BLUE_MAX + 1];
	__u32 limit = 0, bytelimit = 0, threshold = 0;
	bool ecn = false, randomize = false;
	char buf[32];

	if (!opt)
		return 0;
	parse_rtattr_nested(tb, TCA_BLUE_MAX, opt);

	if (tb[TCA_BLUE_LIMIT])
		limit = rta_getattr_u32(tb[TCA_BLUE_LIMIT]);
	if (tb[TCA_BLUE_BYTELIMIT])
		bytelimit = rta_getattr_u32(tb[TCA_BLUE_BYTELIMIT]);
	if (tb[TCA_BLUE_THRESHOLD])
		threshold = rta_getattr_u32(tb[TCA_BLUE_THRESHOLD]);
	if (tb[TCA_BLUE_RANDOMIZE])
		randomize = rta_getattr_u8(tb[TCA_BLUE_RANDOMIZE]);
	if (tb[TCA_BLUE_ECN])
		ecn = rta_getattr_u8(tb[TCA_BLUE_ECN]);

	/* JSON: every key always, 0 for the limit not in use and for no L */
	print_uint(PRINT_JSON, "limit", NULL, limit);
	print_uint(PRINT_JSON, "bytelimit", NULL, bytelimit);
	print_uint(PRINT_JSON, "threshold", NULL, threshold);
	if (bytelimit)
		print_string(PRINT_FP, NULL, "bytelimit %s ",
			     aqm_size_str(buf, sizeof(buf), bytelimit));
	else
		print_uint(PRINT_FP, NULL, "limit %up ", limit);
	if (threshold && bytelimit)
		print_string(PRINT_FP, NULL, "threshold %s ",
			     aqm_size_str(buf, sizeof(buf), threshold));
	else if (threshold)
		print_uint(PRINT_FP, NULL, "threshold %up ", threshold);
	aqm_print_ratio_attr("delta1", tb[TCA_BLUE_DELTA1], false);
	aqm_print_ratio_attr("delta2", tb[TCA_BLUE_DELTA2], false);
	if (tb[TCA_BLUE_FREEZE])
		aqm_print_time("freeze_time", rta_getattr_u32(tb[TCA_BLUE_FREEZE]));
	aqm_print_flag("randomize", randomize);
	aqm_print_flag("ecn", ecn);
	aqm_print_ratio_attr("ecn_ceil", tb[TCA_BLUE_ECN_CEIL], false);
	return 0;
}

static int blue_print_xstats(AQM_QU_CONST struct qdisc_util *qu, FILE *f,
			     struct rtattr *xstats)
{
	struct tc_blue_xstats st = {};

	if (!xstats)
		return 0;
	if (RTA_PAYLOAD(xstats) < sizeof(st))
		return -1;
	memcpy(&st, RTA_DATA(xstats), sizeof(st));

	print_float(PRINT_ANY, "p_m", "  p_m %lg", aqm_prob_value(st.p_m));
	print_u64(PRINT_ANY, "increments", " increments %llu", st.increments);
	print_u64(PRINT_ANY, "decrements", " decrements %llu", st.decrements);
	print_u64(PRINT_JSON, "idle_us", NULL, st.idle_us);
	print_float(PRINT_FP, NULL, " idle %.3fs", st.idle_us / 1e6);
	print_nl();
	print_u64(PRINT_ANY, "early_drops", "  early_drops %llu", st.early_drops);
	print_u64(PRINT_ANY, "overflow_drops", " overflow_drops %llu",
		  st.overflow_drops);
	print_u64(PRINT_ANY, "marks", " marks %llu", st.marks);
	return 0;
}

struct qdisc_util blue_qdisc_util = {
	.id		= "blue",
	.parse_qopt	= blue_parse_opt,
	.print_qopt	= blue_print_opt,
	.print_xstats	= blue_print_xstats,
};
