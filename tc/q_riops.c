/* SPDX-License-Identifier: GPL-2.0 */
/*
 * q_riops.c - tc plugin for the linux-aqm RIO-PS qdisc (see tc-riops(8)).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utils.h"
#include "tc_util.h"
#include "tc_common.h"
#include "aqm_util.h"

/* the kernel's ranges (sch_riops.c: riops_policy) */
#define RIOPS_TH_MAX		(1U << 20)
#define RIOPS_RATE_MIN		1000ULL
#define RIOPS_RATE_MAX		(1ULL << 40)

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... riops [ limit PACKETS ] [ short PACKETS ] [ timeout TIME ]\n"
		"                 [ flows SLOTS ] [ in_min PACKETS ] [ in_max PACKETS ]\n"
		"                 [ in_max_p PROB ] [ out_min PACKETS ]\n"
		"                 [ out_max PACKETS ] [ out_max_p PROB ]\n"
		"                 [ gentle | nogentle ] [ ecn | noecn ]\n"
		"                 [ ecn_ceil PROB ] [ rate RATE ] [ avpkt BYTES ]\n"
		"short: a flow's first packets that are IN, the later ones OUT (0:\n"
		"all OUT); a flow silent for longer than timeout starts again. IN\n"
		"packets are judged on the average of the IN packets queued against\n"
		"in_min, in_max and in_max_p, OUT ones on the average queue against\n"
		"out_min, out_max and out_max_p.\n"
		"limit in [1, 1048576] packets; short in [0, 4294967295] packets;\n"
		"timeout in [1ms, 3600s]; flows in [1, 262144] slots; the\n"
		"thresholds in [0, 1048576] packets, in_min < in_max and\n"
		"out_min < out_max; in_max_p and out_max_p in (0, 1], ecn_ceil in\n"
		"[0, 1], a decimal (0.02) or a ratio (1/50); rate in [8kbit, 8.8Tbit]\n"
		"or a percentage of the device's speed; avpkt in [40, 65535] bytes.\n"
		"Defaults: limit 1000p short 20p timeout 1s flows 4096\n"
		"          in_min 40p in_max 70p in_max_p 0.02\n"
		"          out_min 10p out_max 30p out_max_p 0.1\n"
		"          gentle noecn ecn_ceil " AQM_ECN_CEIL_DEF
		" rate 10mbit avpkt 1000b\n");
}

static const struct aqm_u32_opt riops_u32_opts[] = {
	{ "limit", TCA_RIOPS_LIMIT, AQM_UNIT_PACKETS, 1, 1 << 20 },
	{ "short", TCA_RIOPS_SHORT, AQM_UNIT_PACKETS, 0, UINT32_MAX },
	{ "timeout", TCA_RIOPS_TIMEOUT, AQM_UNIT_TIME, 1000, 3600000000U },
	{ "flows", TCA_RIOPS_FLOWS, AQM_UNIT_COUNT, 1, 1 << 18 },
	{ "in_min", TCA_RIOPS_IN_QTH_MIN, AQM_UNIT_PACKETS, 0, RIOPS_TH_MAX },
	{ "in_max", TCA_RIOPS_IN_QTH_MAX, AQM_UNIT_PACKETS, 0, RIOPS_TH_MAX },
	{ "out_min", TCA_RIOPS_OUT_QTH_MIN, AQM_UNIT_PACKETS, 0, RIOPS_TH_MAX },
	{ "out_max", TCA_RIOPS_OUT_QTH_MAX, AQM_UNIT_PACKETS, 0, RIOPS_TH_MAX },
	{ "avpkt", TCA_RIOPS_AVPKT, AQM_UNIT_BYTES, 40, 65535 },
};

/* in_max_p or out_max_p: in (0, 1] and, as the kernel keeps it, >= 2^-32 */
static int riops_get_max_p(struct aqm_ratio *r, const char *name,
			   const char *arg)
{
	if (aqm_parse_prob_opt(r, name, arg, false))
		return -1;
	if (r->num <= (r->den - 1) >> 32) {
		fprintf(stderr, "Illegal \"%s\": must be at least 2^-32\n", name);
		return -1;
	}
	return 0;
}

/* Both thresholds of a curve given: the kernel's order, named here. */
static int riops_check_order(const char *lo, const char *hi,
			     const __u32 *vals, const bool *set, int lo_type,
			     int hi_type)
{
	if (!set[lo_type] || !set[hi_type] || vals[hi_type] > vals[lo_type])
		return 0;
	fprintf(stderr, "Illegal \"%s\": must be above %s\n", hi, lo);
	return -1;
}

static int riops_parse_opt(AQM_QU_CONST struct qdisc_util *qu, int argc,
			   char **argv, struct nlmsghdr *n, const char *dev)
{
	struct aqm_ecn_opts eo = AQM_ECN_OPTS_INIT;
	struct aqm_ratio in_max_p = {}, out_max_p = {};
	__u32 vals[TCA_RIOPS_MAX + 1] = {};
	bool set[TCA_RIOPS_MAX + 1] = {};
	struct rtattr *tail;
	int gentle = -1, r;
	__u64 rate = 0;

	while (argc > 0) {
		if ((r = aqm_u32_opt_parse(riops_u32_opts,
					   ARRAY_SIZE(riops_u32_opts), &argc,
					   &argv, vals, set))) {
			if (r < 0)
				return -1;
		} else if (strcmp(*argv, "in_max_p") == 0) {
			NEXT_ARG();
			if (riops_get_max_p(&in_max_p, "in_max_p", *argv))
				return -1;
			set[TCA_RIOPS_IN_MAX_P] = true;
		} else if (strcmp(*argv, "out_max_p") == 0) {
			NEXT_ARG();
			if (riops_get_max_p(&out_max_p, "out_max_p", *argv))
				return -1;
			set[TCA_RIOPS_OUT_MAX_P] = true;
		} else if (strcmp(*argv, "gentle") == 0) {
			gentle = 1;
		} else if (strcmp(*argv, "nogentle") == 0) {
			gentle = 0;
		} else if (strcmp(*argv, "rate") == 0) {
			int err;

			NEXT_ARG();
			/* get_rate64() takes "-1" and "nan" through strtod */
			if (!isdigit((unsigned char)**argv))
				err = -1;
			else if (strchr(*argv, '%'))
				err = get_percent_rate64(&rate, *argv, dev);
			else
				err = get_rate64(&rate, *argv);
			if (err) {
				fprintf(stderr, "Illegal \"rate\"\n");
				return -1;
			}
			if (aqm_check_range("rate", rate, RIOPS_RATE_MIN,
					    RIOPS_RATE_MAX, "bytes/s"))
				return -1;
			set[TCA_RIOPS_RATE] = true;
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

	/* one threshold alone: the kernel checks it against the other's
	 * value in use
	 */
	if (riops_check_order("in_min", "in_max", vals, set,
			      TCA_RIOPS_IN_QTH_MIN, TCA_RIOPS_IN_QTH_MAX) ||
	    riops_check_order("out_min", "out_max", vals, set,
			      TCA_RIOPS_OUT_QTH_MIN, TCA_RIOPS_OUT_QTH_MAX))
		return -1;

	tail = addattr_nest(n, 1024, TCA_OPTIONS | NLA_F_NESTED);
	aqm_u32_opts_put(n, riops_u32_opts, ARRAY_SIZE(riops_u32_opts), vals, set);
	if (set[TCA_RIOPS_IN_MAX_P])
		aqm_addattr_ratio(n, 1024, TCA_RIOPS_IN_MAX_P, &in_max_p);
	if (set[TCA_RIOPS_OUT_MAX_P])
		aqm_addattr_ratio(n, 1024, TCA_RIOPS_OUT_MAX_P, &out_max_p);
	if (gentle != -1)
		addattr8(n, 1024, TCA_RIOPS_GENTLE, gentle);
	aqm_addattr_ecn(n, 1024, TCA_RIOPS_ECN, TCA_RIOPS_ECN_CEIL, &eo);
	if (set[TCA_RIOPS_RATE])
		addattr64(n, 1024, TCA_RIOPS_RATE, rate);
	addattr_nest_end(n, tail);
	return 0;
}

/*
 * A flag that is on by default: JSON always has @key (true or false), the
 * text the word or its "no" form, so that it parses back either way.
 */
static void riops_print_onoff(const char *key, bool on)
{
	print_bool(PRINT_JSON, key, NULL, on);
	print_string(PRINT_FP, NULL, on ? "%s " : "no%s ", key);
}

/* A u32 attribute in packets: "40p". */
static void riops_print_packets(const char *key, struct rtattr *attr)
{
	char fmt[24];

	if (!attr)
		return;
	snprintf(fmt, sizeof(fmt), "%s %%up ", key);
	print_uint(PRINT_ANY, key, fmt, rta_getattr_u32(attr));
}

/*
 * A probability, so that the text parses back to the same value: as a
 * decimal when it is one of at most 10 digits (the kernel's default
 * in_max_p is 1/50: "0.02"), else as NUM/DEN. JSON has a number.
 */
static void riops_print_prob(const char *key, struct rtattr *attr)
{
	struct aqm_ratio r, d;
	unsigned int twos = 0, fives = 0;
	__u64 rest, m = 1;

	if (!attr || !aqm_rta_getattr_ratio(attr, &r))
		return;
	/* DEN = 2^a 5^b: NUM/DEN = NUM m / 10^max(a, b) */
	for (rest = r.den; rest % 2 == 0; rest /= 2)
		twos++;
	for (; rest % 5 == 0; rest /= 5)
		fives++;
	for (; rest == 1 && twos < fives; twos++)
		m = m > UINT64_MAX / 2 ? 0 : m * 2;
	for (; rest == 1 && fives < twos; fives++)
		m = m > UINT64_MAX / 5 ? 0 : m * 5;
	if (rest == 1 && m && r.num <= 9999999999ULL / m &&
	    r.den <= UINT64_MAX / m) {
		d.num = r.num * m;
		d.den = r.den * m;
		/* a power of ten: aqm_print_ratio() prints %.10g */
		aqm_print_ratio(key, &d, false);
		return;
	}
	print_float(PRINT_JSON, key, NULL, aqm_ratio_value(&r));
	print_string(PRINT_FP, NULL, "%s ", key);
	print_lluint(PRINT_FP, NULL, "%llu/", (unsigned long long)r.num);
	print_lluint(PRINT_FP, NULL, "%llu ", (unsigned long long)r.den);
}

static int riops_print_opt(AQM_QU_CONST struct qdisc_util *qu, FILE *f,
			   struct rtattr *opt)
{
	struct rtattr *tb[TCA_RIOPS_MAX + 1];

	if (!opt)
		return 0;
	parse_rtattr_nested(tb, TCA_RIOPS_MAX, opt);

	riops_print_packets("limit", tb[TCA_RIOPS_LIMIT]);
	riops_print_packets("short", tb[TCA_RIOPS_SHORT]);
	if (tb[TCA_RIOPS_TIMEOUT])
		aqm_print_time("timeout", rta_getattr_u32(tb[TCA_RIOPS_TIMEOUT]));
	if (tb[TCA_RIOPS_FLOWS])
		print_uint(PRINT_ANY, "flows", "flows %u ",
			   rta_getattr_u32(tb[TCA_RIOPS_FLOWS]));
	riops_print_packets("in_min", tb[TCA_RIOPS_IN_QTH_MIN]);
	riops_print_packets("in_max", tb[TCA_RIOPS_IN_QTH_MAX]);
	riops_print_prob("in_max_p", tb[TCA_RIOPS_IN_MAX_P]);
	riops_print_packets("out_min", tb[TCA_RIOPS_OUT_QTH_MIN]);
	riops_print_packets("out_max", tb[TCA_RIOPS_OUT_QTH_MAX]);
	riops_print_prob("out_max_p", tb[TCA_RIOPS_OUT_MAX_P]);
	if (tb[TCA_RIOPS_GENTLE])
		riops_print_onoff("gentle", rta_getattr_u8(tb[TCA_RIOPS_GENTLE]));
	if (tb[TCA_RIOPS_ECN])
		aqm_print_flag("ecn", rta_getattr_u8(tb[TCA_RIOPS_ECN]));
	riops_print_prob("ecn_ceil", tb[TCA_RIOPS_ECN_CEIL]);
	if (tb[TCA_RIOPS_RATE] &&
	    RTA_PAYLOAD(tb[TCA_RIOPS_RATE]) >= sizeof(__u64))
		aqm_print_rate_exact("rate", rta_getattr_u64(tb[TCA_RIOPS_RATE]));
	/* in bytes, not print_size(): that prints 1030 as "1Kb" */
	if (tb[TCA_RIOPS_AVPKT])
		print_uint(PRINT_ANY, "avpkt", "avpkt %ub ",
			   rta_getattr_u32(tb[TCA_RIOPS_AVPKT]));
	return 0;
}

static int riops_print_xstats(AQM_QU_CONST struct qdisc_util *qu, FILE *f,
			      struct rtattr *xstats)
{
	struct tc_riops_xstats st = {};

	if (!xstats)
		return 0;
	if (RTA_PAYLOAD(xstats) < sizeof(st))
		return -1;
	memcpy(&st, RTA_DATA(xstats), sizeof(st));

	print_float(PRINT_ANY, "prob_in", "  prob_in %lg",
		    aqm_prob_value(st.prob_in));
	print_float(PRINT_ANY, "prob_out", " prob_out %lg",
		    aqm_prob_value(st.prob_out));
	print_uint(PRINT_ANY, "qavg_in", " qavg_in %u", st.qavg_in);
	print_uint(PRINT_ANY, "qavg", " qavg %u", st.qavg);
	print_uint(PRINT_ANY, "in_qlen", " in_qlen %u", st.in_qlen);
	print_nl();
	print_uint(PRINT_ANY, "flows", "  flows %u", st.flows);
	if (st.memory <= UINT32_MAX)
		print_size(PRINT_ANY, "memory", " memory %s", st.memory);
	else
		print_u64(PRINT_ANY, "memory", " memory %llub", st.memory);
	print_u64(PRINT_ANY, "overwrites", " overwrites %llu", st.overwrites);
	print_u64(PRINT_ANY, "in_pkts", " in_pkts %llu", st.in_pkts);
	print_u64(PRINT_ANY, "out_pkts", " out_pkts %llu", st.out_pkts);
	print_nl();
	print_u64(PRINT_ANY, "early_drops_in", "  early_drops_in %llu",
		  st.early_drops_in);
	print_u64(PRINT_ANY, "early_drops_out", " early_drops_out %llu",
		  st.early_drops_out);
	print_u64(PRINT_ANY, "hard_drops", " hard_drops %llu", st.hard_drops);
	print_u64(PRINT_ANY, "forced_drops", " forced_drops %llu",
		  st.forced_drops);
	print_u64(PRINT_ANY, "marks", " marks %llu", st.marks);
	return 0;
}

struct qdisc_util riops_qdisc_util = {
	.id		= "riops",
	.parse_qopt	= riops_parse_opt,
	.print_qopt	= riops_print_opt,
	.print_xstats	= riops_print_xstats,
};
