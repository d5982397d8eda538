/* SPDX-License-Identifier: GPL-2.0 */
/*
 * q_ared.c - tc plugin for the linux-aqm ARED qdisc (see tc-ared(8)).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utils.h"
#include "tc_util.h"
#include "aqm_util.h"

/* the kernel's ranges (sch_ared.c: ared_policy) */
#define ARED_TH_MAX		((1U << 31) - 1)
#define ARED_RATE_MIN		1000ULL
#define ARED_RATE_MAX		(1ULL << 40)

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... ared [ limit PACKETS ] [ min PACKETS | min SIZE ]\n"
		"                [ max PACKETS | max SIZE ] [ target TIME ]\n"
		"                [ probability PROB ] [ adaptive | noadaptive ]\n"
		"                [ interval TIME ] [ gentle | nogentle ]\n"
		"                [ bandwidth RATE ] [ avpkt SIZE ]\n"
		"                [ ecn | noecn ] [ ecn_gentle | noecn_gentle ]\n"
		"                [ bytemode | nobytemode ]\n"
		"PROB is in (0, 1], a decimal (0.1) or a ratio (1/10); max_p is\n"
		"a synonym of probability, rate one of bandwidth. min and max are\n"
		"packets (bytes in bytemode); 0 or absent: min from target and\n"
		"bandwidth, max 3 min.\n"
		"Defaults: limit 1000p target 5ms probability 0.1 adaptive\n"
		"          interval 500ms gentle bandwidth 10mbit avpkt 1000b\n"
		"          noecn noecn_gentle nobytemode\n");
}

/* What a threshold was given as. */
enum ared_th_kind {
	ARED_TH_NONE,		/* not given */
	ARED_TH_COUNT,		/* a plain number: queue units */
	ARED_TH_PACKETS,	/* "12p": packets */
	ARED_TH_BYTES,		/* "36kb", "36000b": bytes */
};

/*
 * min or max: a count in the queue's unit (packets, or bytes in bytemode),
 * with a "p" suffix packets, or a size with tc's units bytes, as pi's and
 * rem's qref; 0 leaves the threshold to the kernel.
 */
static int ared_get_th(__u32 *th, enum ared_th_kind *kind, const char *name,
		       const char *arg)
{
	unsigned int size;
	size_t n = strlen(arg);

	if (!aqm_get_packets(th, arg)) {
		*kind = arg[n - 1] == 'p' ? ARED_TH_PACKETS : ARED_TH_COUNT;
	} else if (isdigit((unsigned char)arg[0]) &&
		   isalpha((unsigned char)arg[n - 1]) &&
		   !get_size(&size, arg)) {
		/* a size has a unit: get_size() would take "12.5" as 12 */
		*th = size;
		*kind = ARED_TH_BYTES;
	} else {
		fprintf(stderr, "Illegal \"%s\"\n", name);
		return -1;
	}
	return aqm_check_range(name, *th, 0, ARED_TH_MAX, NULL);
}

/* A unit that contradicts bytemode or nobytemode given with it. */
static int ared_check_th_unit(const char *name, enum ared_th_kind kind,
			      int bytemode)
{
	if (kind == ARED_TH_PACKETS && bytemode == 1) {
		fprintf(stderr,
			"Illegal \"%s\": packets in bytemode (give bytes)\n",
			name);
		return -1;
	}
	if (kind == ARED_TH_BYTES && bytemode == 0) {
		fprintf(stderr,
			"Illegal \"%s\": a size in packet mode (give packets)\n",
			name);
		return -1;
	}
	return 0;
}

static int ared_parse_opt(AQM_QU_CONST struct qdisc_util *qu, int argc,
			  char **argv, struct nlmsghdr *n, const char *dev)
{
	enum ared_th_kind min_kind = ARED_TH_NONE, max_kind = ARED_TH_NONE;
	__u32 limit = 0, min_th = 0, max_th = 0, target = 0, interval = 0;
	int adaptive = -1, gentle = -1, bytemode = -1;
	int ecn = -1, ecn_gentle = -1;
	struct aqm_ratio max_p = {};
	bool has_max_p = false;
	unsigned int avpkt = 0;
	struct rtattr *tail;
	__u64 rate = 0;

	while (argc > 0) {
		if (strcmp(*argv, "limit") == 0) {
			NEXT_ARG();
			if (aqm_parse_limit(&limit, *argv))
				return -1;
		} else if (strcmp(*argv, "min") == 0) {
			NEXT_ARG();
			if (ared_get_th(&min_th, &min_kind, "min", *argv))
				return -1;
		} else if (strcmp(*argv, "max") == 0) {
			NEXT_ARG();
			if (ared_get_th(&max_th, &max_kind, "max", *argv))
				return -1;
		} else if (strcmp(*argv, "target") == 0) {
			NEXT_ARG();
			if (aqm_get_usecs(&target, *argv)) {
				fprintf(stderr, "Illegal \"target\"\n");
				return -1;
			}
			if (aqm_check_range("target", target, 10, 10000000, "us"))
				return -1;
		} else if (strcmp(*argv, "probability") == 0 ||
			   strcmp(*argv, "max_p") == 0) {
			const char *name = *argv;

			NEXT_ARG();
			if (aqm_parse_prob_opt(&max_p, name, *argv, false))
				return -1;
			/* the kernel keeps max_p as a fraction of 2^32 */
			if (max_p.num <= (max_p.den - 1) >> 32) {
				fprintf(stderr,
					"Illegal \"%s\": must be at least 2^-32\n",
					name);
				return -1;
			}
			has_max_p = true;
		} else if (strcmp(*argv, "adaptive") == 0) {
			adaptive = 1;
		} else if (strcmp(*argv, "noadaptive") == 0) {
			adaptive = 0;
		} else if (strcmp(*argv, "interval") == 0) {
			NEXT_ARG();
			if (aqm_get_usecs(&interval, *argv)) {
				fprintf(stderr, "Illegal \"interval\"\n");
				return -1;
			}
			if (aqm_check_range("interval", interval, 1000, 60000000,
					    "us"))
				return -1;
		} else if (strcmp(*argv, "gentle") == 0) {
			gentle = 1;
		} else if (strcmp(*argv, "nogentle") == 0) {
			gentle = 0;
		} else if (strcmp(*argv, "bandwidth") == 0 ||
			   strcmp(*argv, "rate") == 0) {
			const char *name = *argv;
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
				fprintf(stderr, "Illegal \"%s\"\n", name);
				return -1;
			}
			if (aqm_check_range(name, rate, ARED_RATE_MIN,
					    ARED_RATE_MAX, "bytes/s"))
				return -1;
		} else if (strcmp(*argv, "avpkt") == 0) {
			NEXT_ARG();
			if (!isdigit((unsigned char)**argv) ||
			    get_size(&avpkt, *argv)) {
				fprintf(stderr, "Illegal \"avpkt\"\n");
				return -1;
			}
			if (aqm_check_range("avpkt", avpkt, 40, 65535, "bytes"))
				return -1;
		} else if (strcmp(*argv, "ecn") == 0) {
			ecn = 1;
		} else if (strcmp(*argv, "noecn") == 0) {
			ecn = 0;
		} else if (strcmp(*argv, "ecn_gentle") == 0) {
			ecn_gentle = 1;
		} else if (strcmp(*argv, "noecn_gentle") == 0) {
			ecn_gentle = 0;
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

	if (ared_check_th_unit("min", min_kind, bytemode) ||
	    ared_check_th_unit("max", max_kind, bytemode))
		return -1;
	/* the kernel checks the thresholds it derives, and max below limit */
	if (min_th && max_th && max_th <= min_th) {
		fprintf(stderr, "Illegal \"max\": must be above min\n");
		return -1;
	}

	tail = addattr_nest(n, 1024, TCA_OPTIONS | NLA_F_NESTED);
	if (limit)
		addattr32(n, 1024, TCA_ARED_LIMIT, limit);
	/* min 0 and max 0 are sent: they turn thresholds set before back
	 * to derived ones
	 */
	if (min_kind != ARED_TH_NONE)
		addattr32(n, 1024, TCA_ARED_QTH_MIN, min_th);
	if (max_kind != ARED_TH_NONE)
		addattr32(n, 1024, TCA_ARED_QTH_MAX, max_th);
	if (target)
		addattr32(n, 1024, TCA_ARED_TARGET, target);
	if (has_max_p)
		aqm_addattr_ratio(n, 1024, TCA_ARED_MAX_P, &max_p);
	if (adaptive != -1)
		addattr8(n, 1024, TCA_ARED_ADAPTIVE, adaptive);
	if (interval)
		addattr32(n, 1024, TCA_ARED_INTERVAL, interval);
	if (gentle != -1)
		addattr8(n, 1024, TCA_ARED_GENTLE, gentle);
	if (bytemode != -1)
		addattr8(n, 1024, TCA_ARED_BYTEMODE, bytemode);
	if (ecn != -1)
		addattr8(n, 1024, TCA_ARED_ECN, ecn);
	if (ecn_gentle != -1)
		addattr8(n, 1024, TCA_ARED_ECN_GENTLE, ecn_gentle);
	if (rate)
		addattr64(n, 1024, TCA_ARED_RATE, rate);
	if (avpkt)
		addattr32(n, 1024, TCA_ARED_AVPKT, avpkt);
	addattr_nest_end(n, tail);
	return 0;
}

/*
 * A flag that is on by default: JSON always has @key (true or false), the
 * text the word or its "no" form, so that it parses back either way.
 */
static void ared_print_onoff(const char *key, bool on)
{
	print_bool(PRINT_JSON, key, NULL, on);
	print_string(PRINT_FP, NULL, on ? "%s " : "no%s ", key);
}

/* A threshold: packets ("12p") in packet mode, a size in bytemode. */
static void ared_print_th(const char *key, struct rtattr *attr, bool bytemode)
{
	char fmt[16];

	if (!attr)
		return;
	if (bytemode) {
		aqm_print_size_exact(key, rta_getattr_u32(attr));
	} else {
		snprintf(fmt, sizeof(fmt), "%s %%up ", key);
		print_uint(PRINT_ANY, key, fmt, rta_getattr_u32(attr));
	}
}

static int ared_print_opt(AQM_QU_CONST struct qdisc_util *qu, FILE *f,
			  struct rtattr *opt)
{
	struct rtattr *tb[TCA_ARED_MAX + 1];
	bool bytemode = false;

	if (!opt)
		return 0;
	parse_rtattr_nested(tb, TCA_ARED_MAX, opt);

	if (tb[TCA_ARED_BYTEMODE])
		bytemode = rta_getattr_u8(tb[TCA_ARED_BYTEMODE]);

	if (tb[TCA_ARED_LIMIT])
		print_uint(PRINT_ANY, "limit", "limit %up ",
			   rta_getattr_u32(tb[TCA_ARED_LIMIT]));
	ared_print_th("min", tb[TCA_ARED_QTH_MIN], bytemode);
	ared_print_th("max", tb[TCA_ARED_QTH_MAX], bytemode);
	if (tb[TCA_ARED_TARGET])
		aqm_print_time("target", rta_getattr_u32(tb[TCA_ARED_TARGET]));
	aqm_print_ratio_attr("max_p", tb[TCA_ARED_MAX_P], false);
	if (tb[TCA_ARED_ADAPTIVE])
		ared_print_onoff("adaptive",
				 rta_getattr_u8(tb[TCA_ARED_ADAPTIVE]));
	if (tb[TCA_ARED_INTERVAL])
		aqm_print_time("interval",
			       rta_getattr_u32(tb[TCA_ARED_INTERVAL]));
	if (tb[TCA_ARED_GENTLE])
		ared_print_onoff("gentle", rta_getattr_u8(tb[TCA_ARED_GENTLE]));
	aqm_print_flag("bytemode", bytemode);
	if (tb[TCA_ARED_ECN])
		aqm_print_flag("ecn", rta_getattr_u8(tb[TCA_ARED_ECN]));
	if (tb[TCA_ARED_ECN_GENTLE])
		aqm_print_flag("ecn_gentle",
			       rta_getattr_u8(tb[TCA_ARED_ECN_GENTLE]));
	if (tb[TCA_ARED_RATE] &&
	    RTA_PAYLOAD(tb[TCA_ARED_RATE]) >= sizeof(__u64))
		aqm_print_rate_exact("rate",
				     rta_getattr_u64(tb[TCA_ARED_RATE]));
	if (tb[TCA_ARED_AVPKT])
		aqm_print_size_exact("avpkt",
				     rta_getattr_u32(tb[TCA_ARED_AVPKT]));
	return 0;
}

static int ared_print_xstats(AQM_QU_CONST struct qdisc_util *qu, FILE *f,
			     struct rtattr *xstats)
{
	struct tc_ared_xstats st = {};

	if (!xstats)
		return 0;
	if (RTA_PAYLOAD(xstats) < sizeof(st))
		return -1;
	memcpy(&st, RTA_DATA(xstats), sizeof(st));

	print_float(PRINT_ANY, "prob", "  prob %lg", aqm_prob_value(st.prob));
	print_float(PRINT_ANY, "max_p", " max_p %lg", aqm_prob_value(st.max_p));
	print_uint(PRINT_ANY, "qavg", " qavg %u", st.qavg);
	print_uint(PRINT_ANY, "min_th", " min_th %u", st.min_th);
	print_uint(PRINT_ANY, "max_th", " max_th %u", st.max_th);
	print_size(PRINT_ANY, "mean_pktlen", " mean_pktlen %s", st.mean_pktlen);
	print_u64(PRINT_ANY, "adapts", " adapts %llu", st.adapts);
	print_nl();
	print_u64(PRINT_ANY, "early_drops", "  early_drops %llu", st.early_drops);
	print_u64(PRINT_ANY, "hard_drops", " hard_drops %llu", st.hard_drops);
	print_u64(PRINT_ANY, "forced_drops", " forced_drops %llu",
		  st.forced_drops);
	print_u64(PRINT_ANY, "marks", " marks %llu", st.marks);
	return 0;
}

struct qdisc_util ared_qdisc_util = {
	.id		= "ared",
	.parse_qopt	= ared_parse_opt,
	.print_qopt	= ared_print_opt,
	.print_xstats	= ared_print_xstats,
};
