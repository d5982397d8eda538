/* SPDX-License-Identifier: GPL-2.0 */
/*
 * q_sfb.c - tc plugin for the linux-aqm SFB qdisc (see tc-sfb(8)).
 *
 * Our sfb keeps Linux's ABI (TCA_SFB_PARMS, struct tc_sfb_xstats) and adds
 * TCA_SFB_AQM_* and struct tc_sfb_aqm_xstats (linux/pkt_aqm.h). Loaded in
 * place of the sfb built into iproute2's tc, this plugin must not change
 * anything a script written for the built-in sees:
 *  - Linux's words (rehash, db, limit, max, target, increment, decrement,
 *    penalty_rate, penalty_burst) take the same values with the same
 *    defaults, and TCA_SFB_PARMS is sent whole in every request, as the
 *    built-in does (a word not given gets tc's default, also on change);
 *  - their text and JSON output is the built-in's, quirks included;
 *  - what the built-in does not know is printed after it: the options on
 *    a line of their own and new JSON keys, the extra xstats on lines of
 *    their own. A kernel running Linux's sfb sends neither, and then the
 *    output is exactly the built-in's.
 * The linux-aqm words are sent only when given: a change without them
 * keeps the kernel's values, and only then is the kernel's sch_sfb checked
 * to be ours (sfb_check_kernel()).
 */
#include <ctype.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <linux/pkt_sched.h>

#include "utils.h"
#include "tc_util.h"
#include "aqm_util.h"

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... sfb [ rehash MS ] [ db MS ] [ limit PACKETS ]\n"
		"               [ max PACKETS ] [ target PACKETS ]\n"
		"               [ increment PROB ] [ decrement PROB ]\n"
		"               [ penalty_rate PPS ] [ penalty_burst PACKETS ]\n"
		"               [ levels L ] [ bins N ]\n"
		"               [ penalty_bytes RATE ] [ penalty_bytes_burst SIZE ]\n"
		"               [ warm_all | nowarm_all ] [ warm_raise | nowarm_raise ]\n"
		"               [ dec_emptied | nodec_emptied ]\n"
		"               [ red | nored ] [ red_min PACKETS ] [ red_max PACKETS ]\n"
		"               [ red_max_p PROB ] [ red_ceil PROB ] [ red_interval TIME ]\n"
		"               [ red_wlog W ] [ red_gentle | nored_gentle ]\n"
		"rehash (the moving hash's period) and db (the double buffering's\n"
		"warm-up) are in milliseconds. PROB is a decimal in [0, 1], kept in\n"
		"steps of 1/65535. limit 0 is the device's txqueuelen; max 0 is\n"
		"target * 5/4 and target 0 max * 4/5 (both 0: max 25 target 20).\n"
		"levels (L) in [1, 16]; bins (N, per level) a power of two in\n"
		"[2, 4096]. RATE in tc's units, a bare number being bit/s (1mbit,\n"
		"125000Bps), 0: no byte limit; SIZE in bytes (1514, 64kb), with\n"
		"a penalty_bytes at least a packet of the device's MTU and link\n"
		"header (1514 on Ethernet).\n"
		"red: SFRED, a RED curve per bin with an adaptive max_p in place of\n"
		"BLUE's p_m (increment, decrement and target then unused; not with\n"
		"warm_raise or dec_emptied). red_min and red_max are packets of a\n"
		"bin, red_min < red_max <= 32767; red_max_p (a fresh bin's max_p)\n"
		"and red_ceil (max_p rises while at most this) in (0, 1], decimals\n"
		"(0.1) or ratios (1/10) kept exactly; red_interval, between two steps\n"
		"of max_p, 0 (max_p fixed) or in [1ms, 60s]; red_wlog in [0, 16], a\n"
		"bin's average moving by 2^-red_wlog per arrival.\n"
		"Defaults: rehash 600000 db 60000 limit 0 max 25 target 20\n"
		"          increment 0.0005 decrement 0.00005 penalty_rate 10\n"
		"          penalty_burst 20 levels 8 bins 16 penalty_bytes 0\n"
		"          penalty_bytes_burst 0 nowarm_all nowarm_raise nodec_emptied\n"
		"          nored red_min 5 red_max 10 red_max_p 0.1 red_ceil 1\n"
		"          red_interval 500ms red_wlog 4 red_gentle\n"
		"Every request sets all of rehash to penalty_burst (those not given\n"
		"to their defaults), as Linux's tc does; the others, from levels on,\n"
		"keep their values on change when not given.\n");
}

/* Linux's words that take a u32 (get_u32(), any base), as the built-in */
static const struct {
	const char *name;
	size_t off;
} sfb_u32_opts[] = {
	{ "rehash", offsetof(struct tc_sfb_qopt, rehash_interval) },
	{ "db", offsetof(struct tc_sfb_qopt, warmup_time) },
	{ "limit", offsetof(struct tc_sfb_qopt, limit) },
	{ "max", offsetof(struct tc_sfb_qopt, max) },
	{ "target", offsetof(struct tc_sfb_qopt, bin_size) },
	{ "penalty_rate", offsetof(struct tc_sfb_qopt, penalty_rate) },
	{ "penalty_burst", offsetof(struct tc_sfb_qopt, penalty_burst) },
};

/* SFRED's words that take a u32, with the kernel's ranges (sfb_policy) */
#define SFB_RED_TH_MAX		32767
#define SFB_RED_INTERVAL_MIN	1000		/* us */
#define SFB_RED_INTERVAL_MAX	60000000	/* us */
#define SFB_RED_WLOG_MAX	16

static const struct aqm_u32_opt sfb_red_opts[] = {
	{ "red_min", TCA_SFB_AQM_RED_MIN, AQM_UNIT_PACKETS, 0,
	  SFB_RED_TH_MAX - 1 },
	{ "red_max", TCA_SFB_AQM_RED_MAX, AQM_UNIT_PACKETS, 1, SFB_RED_TH_MAX },
	{ "red_interval", TCA_SFB_AQM_RED_INTERVAL, AQM_UNIT_TIME, 0,
	  SFB_RED_INTERVAL_MAX },
	{ "red_wlog", TCA_SFB_AQM_RED_WLOG, AQM_UNIT_COUNT, 0,
	  SFB_RED_WLOG_MAX },
};

#define SFB_PROB_RANGE	"must be a probability in [0, 1]"

static void sfb_illegal(const char *name, const char *why)
{
	fprintf(stderr, "Illegal \"%s\": %s\n", name, why);
}

/*
 * A probability as the built-in reads it: strtod() in [0, 1], rounded to
 * 1/SFB_MAX_PROB. It accepts what strtod() leaves unread ("0.5x"), and so
 * does this, so that no command the built-in takes is refused; NaN, which
 * the built-in lets through to an undefined conversion, is refused.
 */
static int sfb_get_prob(__u32 *val, const char *arg)
{
	char *end;
	double d;

	if (!*arg)
		return -1;
	d = strtod(arg, &end);
	if (end == arg || !(d >= 0.0 && d <= 1.0))
		return -1;
	*val = (__u32)(d * SFB_MAX_PROB + 0.5);
	return 0;
}

/*
 * A byte rate in tc's syntax (get_rate(): "1mbit", "125000Bps"; a bare
 * number is bit/s), in [0, UINT32_MAX] bytes/s as the kernel takes it.
 * get_rate() refuses what does not fit in 32 bits; a rate it rounds down
 * to 0 bytes/s is refused here, since 0 turns the byte limit off.
 */
static int sfb_get_byte_rate(__u32 *bps, const char *arg)
{
	unsigned int r;

	if (!isdigit((unsigned char)arg[0]) || get_rate(&r, arg)) {
		sfb_illegal("penalty_bytes",
			    "a rate below 4294967296 bytes/s (34.4Gbit) expected");
		return -1;
	}
	if (!r && strtod(arg, NULL) > 0.0) {
		sfb_illegal("penalty_bytes", "at least 1 byte/s (8bit), or 0 for off");
		return -1;
	}
	*bps = r;
	return 0;
}

/*
 * aqm_u32_opt_get() of an SFRED word; red_interval's range has a gap: 0
 * (max_p fixed), or 1 ms to 60 s as ared's interval
 */
static int sfb_red_opt_get(const struct aqm_u32_opt *o, __u32 *v,
			   const char *arg)
{
	if (o->type != TCA_SFB_AQM_RED_INTERVAL)
		return aqm_u32_opt_get(o, v, arg);
	if (aqm_get_usecs(v, arg)) {
		fprintf(stderr, "Illegal \"%s\"\n", o->name);
		return -1;
	}
	if (!*v)
		return 0;
	return aqm_check_range(o->name, *v, SFB_RED_INTERVAL_MIN, o->max,
			       "us, or 0");
}

/*
 * red_max_p or red_ceil: in (0, 1] and, as the kernel keeps it as a
 * fraction of 2^32, at least 2^-32
 */
static int sfb_get_red_prob(struct aqm_ratio *r, const char *name,
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

/* the words of linux-aqm's sfb that Linux's does not have */
static const char *const sfb_aqm_words[] = {
	"levels", "bins", "penalty_bytes", "penalty_bytes_burst",
	"warm_all", "nowarm_all", "warm_raise", "nowarm_raise",
	"dec_emptied", "nodec_emptied", "red", "nored", "red_min", "red_max",
	"red_max_p", "red_ceil", "red_interval", "red_wlog", "red_gentle",
	"nored_gentle",
};

static bool sfb_is_aqm_word(const char *w)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sfb_aqm_words); i++)
		if (strcmp(w, sfb_aqm_words[i]) == 0)
			return true;
	return false;
}

/*
 * @path under $AQM_TEST_SYSROOT, which the tests set to a fake tree of
 * sys/module/sch_sfb and proc/sys/kernel/modprobe (scripts/tests/
 * test_q_sfb_kernel.py); unset, @path itself.
 */
static void sfb_sys_path(char *buf, size_t len, const char *path)
{
	const char *root = getenv("AQM_TEST_SYSROOT");

	snprintf(buf, len, "%s%s", root ? root : "", path);
}

/*
 * modprobe sch_sfb with the program the kernel's autoload runs: none
 * without /proc/sys/kernel/modprobe (no CONFIG_MODULES) or when it is
 * empty (autoload turned off).
 */
static void sfb_modprobe(void)
{
	char prog[PATH_MAX] = "", file[PATH_MAX];
	int status;
	FILE *fp;
	pid_t pid;

	sfb_sys_path(file, sizeof(file), "/proc/sys/kernel/modprobe");
	fp = fopen(file, "r");
	if (!fp)
		return;
	if (!fgets(prog, sizeof(prog), fp))
		prog[0] = '\0';
	prog[strcspn(prog, "\n")] = '\0';
	fclose(fp);
	if (!prog[0])
		return;
	pid = fork();
	if (pid == 0) {
		execl(prog, prog, "-q", "--", "sch_sfb", (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
}

/*
 * Linux's sfb parses its options leniently: attributes past TCA_SFB_PARMS
 * are dropped without a word, so a request with one of our words would
 * succeed on it and do none of what it asks. Before sending one, make
 * sure the kernel's sch_sfb is linux-aqm's, whose MODULE_VERSION is
 * "linux-aqm" (in /sys/module/sch_sfb/version, built in or a module;
 * Linux's has none). Not loaded yet, it is loaded first as the kernel's
 * autoload would do on the request. Returns 0 when it is ours; else says
 * why (naming @word, the first of our words given) and returns -1.
 */
static int sfb_check_kernel(const char *word)
{
	char dir[PATH_MAX], file[PATH_MAX + 16], ver[64] = "";
	const char *why;
	struct stat st;
	FILE *fp;

	sfb_sys_path(dir, sizeof(dir), "/sys/module/sch_sfb");
	if (stat(dir, &st) != 0)
		sfb_modprobe();
	snprintf(file, sizeof(file), "%s/version", dir);
	fp = fopen(file, "r");
	if (fp) {
		if (!fgets(ver, sizeof(ver), fp))
			ver[0] = '\0';
		fclose(fp);
	}
	if (strncmp(ver, "linux-aqm", strlen("linux-aqm")) == 0)
		return 0;

	if (stat(dir, &st) == 0)
		why = "the kernel's sch_sfb is Linux's own, which would ignore it\n"
		      "(its /sys/module/sch_sfb/version does not say linux-aqm)";
	else
		why = "whether the kernel's sfb is linux-aqm's cannot be told:\n"
		      "no /sys/module/sch_sfb after modprobe sch_sfb (a built-in sfb is Linux's)";
	fprintf(stderr, "sfb: \"%s\" is an option of linux-aqm's sfb, but %s.\n",
		word, why);
	fprintf(stderr,
		"Load linux-aqm's sch_sfb (delete the sfb qdiscs, rmmod sch_sfb, then\n"
		"modprobe sch_sfb after linux-aqm's make install, or its scripts/load.sh),\n"
		"or leave out levels, bins, penalty_bytes, penalty_bytes_burst,\n"
		"[no]warm_all, [no]warm_raise, [no]dec_emptied, [no]red, red_min,\n"
		"red_max, red_max_p, red_ceil, red_interval, red_wlog and\n"
		"[no]red_gentle: see tc-sfb(8).\n");
	return -1;
}

static int sfb_parse_opt(AQM_QU_CONST struct qdisc_util *qu, int argc,
			 char **argv, struct nlmsghdr *n, const char *dev)
{
	/* the built-in's defaults, which are not all the kernel's */
	struct tc_sfb_qopt opt = {
		.rehash_interval = 600 * 1000,
		.warmup_time = 60 * 1000,
		.penalty_rate = 10,
		.penalty_burst = 20,
		.increment = (SFB_MAX_PROB + 1000) / 2000,
		.decrement = (SFB_MAX_PROB + 10000) / 20000,
	};
	bool has_levels = false, has_bins = false, has_bytes = false;
	bool has_burst = false;
	__u32 levels = 0, bins = 0, bytes = 0, burst = 0;
	int warm_all = -1, warm_raise = -1, dec_emptied = -1;
	int red = -1, red_gentle = -1;
	__u32 red_vals[TCA_SFB_AQM_MAX + 1] = {};
	bool red_set[TCA_SFB_AQM_MAX + 1] = {};
	struct aqm_ratio red_max_p = {}, red_ceil = {};
	const struct aqm_u32_opt *o;
	const char *aqm_word = NULL;
	struct rtattr *tail;
	unsigned int size;
	size_t i;

	while (argc > 0) {
		if (!aqm_word && sfb_is_aqm_word(*argv))
			aqm_word = *argv;
		for (i = 0; i < ARRAY_SIZE(sfb_u32_opts); i++)
			if (strcmp(*argv, sfb_u32_opts[i].name) == 0)
				break;
		o = aqm_u32_opt_find(sfb_red_opts, ARRAY_SIZE(sfb_red_opts),
				     *argv);
		if (i < ARRAY_SIZE(sfb_u32_opts)) {
			NEXT_ARG();
			if (get_u32((__u32 *)((char *)&opt + sfb_u32_opts[i].off),
				    *argv, 0)) {
				fprintf(stderr, "Illegal \"%s\"\n",
					sfb_u32_opts[i].name);
				return -1;
			}
		} else if (strcmp(*argv, "increment") == 0) {
			NEXT_ARG();
			if (sfb_get_prob(&opt.increment, *argv)) {
				sfb_illegal("increment", SFB_PROB_RANGE);
				return -1;
			}
		} else if (strcmp(*argv, "decrement") == 0) {
			NEXT_ARG();
			if (sfb_get_prob(&opt.decrement, *argv)) {
				sfb_illegal("decrement", SFB_PROB_RANGE);
				return -1;
			}
		} else if (strcmp(*argv, "levels") == 0) {
			NEXT_ARG();
			if (get_u32(&levels, *argv, 10)) {
				fprintf(stderr, "Illegal \"levels\"\n");
				return -1;
			}
			if (aqm_check_range("levels", levels, 1,
					    TCA_SFB_AQM_LEVELS_MAX, NULL))
				return -1;
			has_levels = true;
		} else if (strcmp(*argv, "bins") == 0) {
			NEXT_ARG();
			if (get_u32(&bins, *argv, 10) || bins < 2 || bins > 4096 ||
			    (bins & (bins - 1))) {
				sfb_illegal("bins", "must be a power of two in 2..4096");
				return -1;
			}
			has_bins = true;
		} else if (strcmp(*argv, "penalty_bytes") == 0) {
			NEXT_ARG();
			if (sfb_get_byte_rate(&bytes, *argv))
				return -1;
			has_bytes = true;
		} else if (strcmp(*argv, "penalty_bytes_burst") == 0) {
			NEXT_ARG();
			if (!isdigit((unsigned char)**argv) ||
			    get_size(&size, *argv)) {
				sfb_illegal("penalty_bytes_burst", "a size expected");
				return -1;
			}
			burst = size;
			has_burst = true;
		} else if (strcmp(*argv, "warm_all") == 0) {
			warm_all = 1;
		} else if (strcmp(*argv, "nowarm_all") == 0) {
			warm_all = 0;
		} else if (strcmp(*argv, "warm_raise") == 0) {
			warm_raise = 1;
		} else if (strcmp(*argv, "nowarm_raise") == 0) {
			warm_raise = 0;
		} else if (strcmp(*argv, "dec_emptied") == 0) {
			dec_emptied = 1;
		} else if (strcmp(*argv, "nodec_emptied") == 0) {
			dec_emptied = 0;
		} else if (o) {
			NEXT_ARG();
			if (sfb_red_opt_get(o, &red_vals[o->type], *argv))
				return -1;
			red_set[o->type] = true;
		} else if (strcmp(*argv, "red_max_p") == 0) {
			NEXT_ARG();
			if (sfb_get_red_prob(&red_max_p, "red_max_p", *argv))
				return -1;
			red_set[TCA_SFB_AQM_RED_MAX_P] = true;
		} else if (strcmp(*argv, "red_ceil") == 0) {
			NEXT_ARG();
			if (sfb_get_red_prob(&red_ceil, "red_ceil", *argv))
				return -1;
			red_set[TCA_SFB_AQM_RED_CEIL] = true;
		} else if (strcmp(*argv, "red") == 0) {
			red = 1;
		} else if (strcmp(*argv, "nored") == 0) {
			red = 0;
		} else if (strcmp(*argv, "red_gentle") == 0) {
			red_gentle = 1;
		} else if (strcmp(*argv, "nored_gentle") == 0) {
			red_gentle = 0;
		} else {
			if (strcmp(*argv, "help") != 0)
				fprintf(stderr, "What is \"%s\"?\n", *argv);
			explain();
			return -1;
		}
		argc--;
		argv++;
	}

	/* both thresholds given: the kernel's order, named here (one alone
	 * is checked by the kernel against the other's value in use)
	 */
	if (red_set[TCA_SFB_AQM_RED_MIN] && red_set[TCA_SFB_AQM_RED_MAX] &&
	    red_vals[TCA_SFB_AQM_RED_MAX] <= red_vals[TCA_SFB_AQM_RED_MIN]) {
		sfb_illegal("red_max", "must be above red_min");
		return -1;
	}

	/* the built-in's rule: one of max and target from the other */
	if (!opt.max)
		opt.max = opt.bin_size ? (opt.bin_size * 5 + 1) / 4 : 25;
	if (!opt.bin_size)
		opt.bin_size = (opt.max * 4 + 3) / 5;

	/* only a request with our words depends on which sfb gets it */
	if (aqm_word && sfb_check_kernel(aqm_word))
		return -1;

	/* no NLA_F_NESTED, as the built-in (the kernel parses it either way) */
	tail = addattr_nest(n, 1024, TCA_OPTIONS);
	addattr_l(n, 1024, TCA_SFB_PARMS, &opt, sizeof(opt));
	if (has_levels)
		addattr32(n, 1024, TCA_SFB_AQM_LEVELS, levels);
	if (has_bins)
		addattr32(n, 1024, TCA_SFB_AQM_BINS, bins);
	if (has_bytes)
		addattr64(n, 1024, TCA_SFB_AQM_PENALTY_BYTES, bytes);
	if (has_burst)
		addattr32(n, 1024, TCA_SFB_AQM_PENALTY_BYTES_BURST, burst);
	if (warm_all != -1)
		addattr8(n, 1024, TCA_SFB_AQM_WARM_ALL, warm_all);
	if (warm_raise != -1)
		addattr8(n, 1024, TCA_SFB_AQM_WARM_RAISE, warm_raise);
	if (dec_emptied != -1)
		addattr8(n, 1024, TCA_SFB_AQM_DEC_EMPTIED, dec_emptied);
	if (red != -1)
		addattr8(n, 1024, TCA_SFB_AQM_RED, red);
	aqm_u32_opts_put(n, sfb_red_opts, ARRAY_SIZE(sfb_red_opts), red_vals,
			 red_set);
	if (red_set[TCA_SFB_AQM_RED_MAX_P])
		aqm_addattr_ratio(n, 1024, TCA_SFB_AQM_RED_MAX_P, &red_max_p);
	if (red_set[TCA_SFB_AQM_RED_CEIL])
		aqm_addattr_ratio(n, 1024, TCA_SFB_AQM_RED_CEIL, &red_ceil);
	if (red_gentle != -1)
		addattr8(n, 1024, TCA_SFB_AQM_RED_GENTLE, red_gentle);
	addattr_nest_end(n, tail);
	return 0;
}

static bool sfb_attr_ok(const struct rtattr *a, size_t len)
{
	return a && RTA_PAYLOAD(a) >= len;
}

/*
 * A flag that is on by default (red_gentle): JSON always has @key, the
 * text the word or its "no" form, so that it parses back either way.
 */
static void sfb_print_onoff(const char *key, bool on)
{
	print_bool(PRINT_JSON, key, NULL, on);
	print_string(PRINT_FP, NULL, on ? "%s " : "no%s ", key);
}

/* A u32 attribute in packets of a bin: "5p". */
static void sfb_print_packets(const char *key, struct rtattr *attr)
{
	char fmt[24];

	if (!sfb_attr_ok(attr, sizeof(__u32)))
		return;
	snprintf(fmt, sizeof(fmt), "%s %%up ", key);
	print_uint(PRINT_ANY, key, fmt, rta_getattr_u32(attr));
}

/*
 * SFRED's options, in the text only while red is on ("red red_min 5p ...
 * red_gentle"), in JSON always (red false: what red would use).
 */
static void sfb_print_red(struct rtattr **tb)
{
	bool red;

	if (!sfb_attr_ok(tb[TCA_SFB_AQM_RED], sizeof(__u8)))
		return;	/* linux-aqm's sfb before SFRED */
	red = rta_getattr_u8(tb[TCA_SFB_AQM_RED]);
	if (!red && !is_json_context())
		return;
	aqm_print_flag("red", red);
	sfb_print_packets("red_min", tb[TCA_SFB_AQM_RED_MIN]);
	sfb_print_packets("red_max", tb[TCA_SFB_AQM_RED_MAX]);
	aqm_print_ratio_attr("red_max_p", tb[TCA_SFB_AQM_RED_MAX_P], false);
	aqm_print_ratio_attr("red_ceil", tb[TCA_SFB_AQM_RED_CEIL], false);
	if (sfb_attr_ok(tb[TCA_SFB_AQM_RED_INTERVAL], sizeof(__u32)))
		aqm_print_time("red_interval",
			       rta_getattr_u32(tb[TCA_SFB_AQM_RED_INTERVAL]));
	if (sfb_attr_ok(tb[TCA_SFB_AQM_RED_WLOG], sizeof(__u32)))
		print_uint(PRINT_ANY, "red_wlog", "red_wlog %u ",
			   rta_getattr_u32(tb[TCA_SFB_AQM_RED_WLOG]));
	if (sfb_attr_ok(tb[TCA_SFB_AQM_RED_GENTLE], sizeof(__u8)))
		sfb_print_onoff("red_gentle",
				rta_getattr_u8(tb[TCA_SFB_AQM_RED_GENTLE]));
}

/* What the built-in prints of TCA_SFB_PARMS, to the character. */
static void sfb_print_linux_opt(const struct tc_sfb_qopt *qopt)
{
	SPRINT_BUF(b1);

	/* ms * 1000 in 32 bits: above 4294967 ms it wraps, as the built-in */
	print_uint(PRINT_JSON, "rehash", NULL, qopt->rehash_interval * 1000);
	print_string(PRINT_FP, NULL, "rehash %s ",
		     sprint_time(qopt->rehash_interval * 1000, b1));
	print_uint(PRINT_JSON, "db", NULL, qopt->warmup_time * 1000);
	print_string(PRINT_FP, NULL, "db %s ",
		     sprint_time(qopt->warmup_time * 1000, b1));
	print_uint(PRINT_ANY, "limit", "limit %up ", qopt->limit);
	print_uint(PRINT_ANY, "max", "max %up ", qopt->max);
	print_uint(PRINT_ANY, "target", "target %up ", qopt->bin_size);
	print_float(PRINT_ANY, "increment", "increment %lg ",
		    (double)qopt->increment / SFB_MAX_PROB);
	print_float(PRINT_ANY, "decrement", "decrement %lg ",
		    (double)qopt->decrement / SFB_MAX_PROB);
	print_uint(PRINT_ANY, "penalty_rate", "penalty_rate %upps ",
		   qopt->penalty_rate);
	print_uint(PRINT_ANY, "penalty_burst", "penalty_burst %up ",
		   qopt->penalty_burst);
}

static int sfb_print_opt(AQM_QU_CONST struct qdisc_util *qu, FILE *f,
			 struct rtattr *opt)
{
	struct rtattr *tb[TCA_SFB_AQM_MAX + 1];
	struct tc_sfb_qopt qopt;
	int type;

	if (!opt)
		return 0;
	parse_rtattr_nested(tb, TCA_SFB_AQM_MAX, opt);
	/* the built-in prints nothing without a whole TCA_SFB_PARMS */
	if (!sfb_attr_ok(tb[TCA_SFB_PARMS], sizeof(qopt)))
		return -1;
	memcpy(&qopt, RTA_DATA(tb[TCA_SFB_PARMS]), sizeof(qopt));
	sfb_print_linux_opt(&qopt);

	for (type = TCA_SFB_AQM_LEVELS; type < TCA_SFB_AQM_PAD; type++)
		if (tb[type])
			break;
	if (type == TCA_SFB_AQM_PAD)
		return 0;	/* Linux's sfb */

	print_nl();
	print_string(PRINT_FP, NULL, "%s", " ");
	if (sfb_attr_ok(tb[TCA_SFB_AQM_LEVELS], sizeof(__u32)))
		print_uint(PRINT_ANY, "levels", "levels %u ",
			   rta_getattr_u32(tb[TCA_SFB_AQM_LEVELS]));
	if (sfb_attr_ok(tb[TCA_SFB_AQM_BINS], sizeof(__u32)))
		print_uint(PRINT_ANY, "bins", "bins %u ",
			   rta_getattr_u32(tb[TCA_SFB_AQM_BINS]));
	if (sfb_attr_ok(tb[TCA_SFB_AQM_PENALTY_BYTES], sizeof(__u64)))
		aqm_print_rate_exact("penalty_bytes",
				    rta_getattr_u64(tb[TCA_SFB_AQM_PENALTY_BYTES]));
	if (sfb_attr_ok(tb[TCA_SFB_AQM_PENALTY_BYTES_BURST], sizeof(__u32)))
		aqm_print_size_exact("penalty_bytes_burst",
				rta_getattr_u32(tb[TCA_SFB_AQM_PENALTY_BYTES_BURST]));
	if (sfb_attr_ok(tb[TCA_SFB_AQM_WARM_ALL], sizeof(__u8)))
		aqm_print_flag("warm_all",
			       rta_getattr_u8(tb[TCA_SFB_AQM_WARM_ALL]));
	if (sfb_attr_ok(tb[TCA_SFB_AQM_WARM_RAISE], sizeof(__u8)))
		aqm_print_flag("warm_raise",
			       rta_getattr_u8(tb[TCA_SFB_AQM_WARM_RAISE]));
	if (sfb_attr_ok(tb[TCA_SFB_AQM_DEC_EMPTIED], sizeof(__u8)))
		aqm_print_flag("dec_emptied",
			       rta_getattr_u8(tb[TCA_SFB_AQM_DEC_EMPTIED]));
	sfb_print_red(tb);
	return 0;
}

static int sfb_print_xstats(AQM_QU_CONST struct qdisc_util *qu, FILE *f,
			    struct rtattr *xstats)
{
	struct tc_sfb_aqm_xstats ax;
	struct tc_sfb_xstats st;
	__u32 l, levels;

	if (!xstats)
		return 0;
	if (RTA_PAYLOAD(xstats) < sizeof(st))
		return -1;
	memcpy(&st, RTA_DATA(xstats), sizeof(st));

	/* the built-in's two lines */
	print_uint(PRINT_ANY, "earlydrop", "  earlydrop %u", st.earlydrop);
	print_uint(PRINT_ANY, "penaltydrop", " penaltydrop %u",
		   st.penaltydrop);
	print_uint(PRINT_ANY, "bucketdrop", " bucketdrop %u", st.bucketdrop);
	print_uint(PRINT_ANY, "queuedrop", " queuedrop %u", st.queuedrop);
	print_uint(PRINT_ANY, "childdrop", " childdrop %u", st.childdrop);
	print_uint(PRINT_ANY, "marked", " marked %u", st.marked);
	print_nl();
	print_uint(PRINT_ANY, "maxqlen", "  maxqlen %u", st.maxqlen);
	print_float(PRINT_ANY, "maxprob", " maxprob %lg",
		    (double)st.maxprob / SFB_MAX_PROB);
	print_float(PRINT_ANY, "avgprob", " avgprob %lg",
		    (double)st.avgprob / SFB_MAX_PROB);

	/* ours, at byte sizeof(st), unaligned; absent from Linux's sfb */
	if (RTA_PAYLOAD(xstats) < sizeof(st) + sizeof(ax))
		return 0;
	memcpy(&ax, (const char *)RTA_DATA(xstats) + sizeof(st), sizeof(ax));

	print_nl();
	print_uint(PRINT_ANY, "levels", "  levels %u", ax.levels);
	print_uint(PRINT_ANY, "bins", " bins %u", ax.bins);
	print_uint(PRINT_ANY, "penalized", " penalized %u", ax.penalized);
	print_u64(PRINT_ANY, "penalty_drops_bytes", " penalty_drops_bytes %llu",
		  ax.penalty_drops_bytes);
	if (ax.memory <= UINT32_MAX)
		print_size(PRINT_ANY, "memory", " memory %s", ax.memory);
	else
		print_u64(PRINT_ANY, "memory", " memory %llub", ax.memory);
	print_nl();
	levels = ax.levels < TCA_SFB_AQM_LEVELS_MAX ? ax.levels :
						      TCA_SFB_AQM_LEVELS_MAX;
	print_string(PRINT_FP, NULL, "%s", "  polluted");
	open_json_array(PRINT_JSON, "polluted");
	for (l = 0; l < levels; l++)
		print_uint(PRINT_ANY, NULL, " %u", ax.polluted[l]);
	close_json_array(PRINT_JSON, NULL);
	return 0;
}

struct qdisc_util sfb_qdisc_util = {
	.id		= "sfb",
	.parse_qopt	= sfb_parse_opt,
	.print_qopt	= sfb_print_opt,
	.print_xstats	= sfb_print_xstats,
};
