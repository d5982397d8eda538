/* SPDX-License-Identifier: GPL-2.0 */
/*
 * q_blue.c - tc plugin for the linux-aqm BLUE qdisc (see tc-blue(8)).
 */
#include <ctype.h>
#include <errno.h>
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
		"Usage: ... blue [ limit PACKETS | bytelimit BYTES ]\n"
		"               [ threshold PACKETS|BYTES ]\n"
		"               [ delta1 PROB ] [ delta2 PROB ] [ freeze_time TIME ]\n"
		"               [ randomize | norandomize ] [ ecn | noecn ]\n"
		"PROB is a decimal (0.0025) or a ratio (1/400) in (0, 1].\n"
		"threshold is in the limit's unit, 0 for off: Np for packets,\n"
		"a size (60kb, 60000b) for bytes.\n"
		"Defaults: limit 1000p delta1 0.01 delta2 0.001 freeze_time 50ms.\n");
}

/* "1000" or "1000p": a packet count. */
static int blue_get_packets(__u32 *val, const char *arg, enum blue_unit *unit)
{
	char buf[32];
	size_t n = strlen(arg);

	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, arg, n + 1);
	*unit = BLUE_UNIT_ANY;
	if (buf[n - 1] == 'p') {
		buf[n - 1] = '\0';
		*unit = BLUE_UNIT_PACKETS;
	}
	if (!isdigit((unsigned char)buf[0]))
		return -1;
	return get_u32(val, buf, 10);
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

/* A time in microseconds: "50ms", "1s", "500us", "50000" (us). */
static int blue_get_time(__u32 *usec, const char *arg)
{
	double t;
	char *p;

	errno = 0;
	t = strtod(arg, &p);
	if (p == arg || errno || !(t >= 0))
		return -1;
	if (!strcasecmp(p, "s") || !strcasecmp(p, "sec") || !strcasecmp(p, "secs"))
		t *= 1000000;
	else if (!strcasecmp(p, "ms") || !strcasecmp(p, "msec") ||
		 !strcasecmp(p, "msecs"))
		t *= 1000;
	else if (*p && strcasecmp(p, "us") && strcasecmp(p, "usec") &&
		 strcasecmp(p, "usecs"))
		return -1;
	if (t > UINT32_MAX)
		return -1;
	*usec = (__u32)(t + 0.5);
	return 0;
}

static int blue_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev)
{
	struct tc_aqm_ratio delta1 = {}, delta2 = {};
	bool has_limit = false, has_bytelimit = false, has_threshold = false;
	bool has_delta1 = false, has_delta2 = false, has_freeze = false;
	enum blue_unit unit, threshold_unit = BLUE_UNIT_ANY;
	__u32 limit = 0, bytelimit = 0, threshold = 0, freeze = 0;
	int ecn = -1, randomize = -1;
	struct rtattr *tail;

	while (argc > 0) {
		if (strcmp(*argv, "limit") == 0) {
			NEXT_ARG();
			if (blue_get_packets(&limit, *argv, &unit)) {
				fprintf(stderr, "Illegal \"limit\": packets expected\n");
				return -1;
			}
			has_limit = true;
		} else if (strcmp(*argv, "bytelimit") == 0) {
			NEXT_ARG();
			if (!isdigit((unsigned char)**argv) ||
			    get_size(&bytelimit, *argv)) {
				fprintf(stderr, "Illegal \"bytelimit\": a size expected\n");
				return -1;
			}
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
			if (aqm_get_ratio(&delta1, *argv)) {
				fprintf(stderr, "Illegal \"delta1\"\n");
				return -1;
			}
			has_delta1 = true;
		} else if (strcmp(*argv, "delta2") == 0) {
			NEXT_ARG();
			if (aqm_get_ratio(&delta2, *argv)) {
				fprintf(stderr, "Illegal \"delta2\"\n");
				return -1;
			}
			has_delta2 = true;
		} else if (strcmp(*argv, "freeze_time") == 0) {
			NEXT_ARG();
			if (blue_get_time(&freeze, *argv)) {
				fprintf(stderr, "Illegal \"freeze_time\"\n");
				return -1;
			}
			has_freeze = true;
		} else if (strcmp(*argv, "randomize") == 0) {
			randomize = 1;
		} else if (strcmp(*argv, "norandomize") == 0) {
			randomize = 0;
		} else if (strcmp(*argv, "ecn") == 0) {
			ecn = 1;
		} else if (strcmp(*argv, "noecn") == 0) {
			ecn = 0;
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
		addattr_l(n, 1024, TCA_BLUE_DELTA1, &delta1, sizeof(delta1));
	if (has_delta2)
		addattr_l(n, 1024, TCA_BLUE_DELTA2, &delta2, sizeof(delta2));
	if (has_freeze)
		addattr32(n, 1024, TCA_BLUE_FREEZE, freeze);
	if (randomize != -1)
		addattr8(n, 1024, TCA_BLUE_RANDOMIZE, randomize);
	if (ecn != -1)
		addattr8(n, 1024, TCA_BLUE_ECN, ecn);
	addattr_nest_end(n, tail);
	return 0;
}

static void blue_print_ratio(struct rtattr *attr, const char *key)
{
	struct tc_aqm_ratio r;

	if (!attr || RTA_PAYLOAD(attr) < sizeof(r))
		return;
	memcpy(&r, RTA_DATA(attr), sizeof(r));
	aqm_print_ratio(key, &r, false);
}

static int blue_print_opt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *tb[TCA_BLUE_MAX + 1];
	__u32 limit = 0, bytelimit = 0, threshold = 0;
	bool ecn = false, randomize = false;

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
		print_uint(PRINT_FP, NULL, "bytelimit %ub ", bytelimit);
	else
		print_uint(PRINT_FP, NULL, "limit %up ", limit);
	if (threshold)
		print_uint(PRINT_FP, NULL,
			   bytelimit ? "threshold %ub " : "threshold %up ",
			   threshold);
	blue_print_ratio(tb[TCA_BLUE_DELTA1], "delta1");
	blue_print_ratio(tb[TCA_BLUE_DELTA2], "delta2");
	if (tb[TCA_BLUE_FREEZE])
		aqm_print_time("freeze_time", rta_getattr_u32(tb[TCA_BLUE_FREEZE]));
	print_bool(PRINT_JSON, "randomize", NULL, randomize);
	if (randomize)
		print_string(PRINT_FP, NULL, "%s ", "randomize");
	print_bool(PRINT_JSON, "ecn", NULL, ecn);
	if (ecn)
		print_string(PRINT_FP, NULL, "%s ", "ecn");
	return 0;
}

static int blue_print_xstats(struct qdisc_util *qu, FILE *f,
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
