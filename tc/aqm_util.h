/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqm_util.h - helpers shared by the linux-aqm tc plugins.
 */
#ifndef _TC_AQM_UTIL_H_
#define _TC_AQM_UTIL_H_

#include <stdbool.h>
#include <linux/types.h>
#include <linux/rtnetlink.h>
#include <linux/pkt_aqm.h>

#include "aqm_tc_compat.h"

/* A rational num / den: what a TCA_AQM_RATIO_* nest carries. */
struct aqm_ratio {
	__u64 num;
	__u64 den;
};

/* Defaults the kernel applies, for the help texts. */
#define AQM_ECN_CEIL_DEF	"0.1"

/* Parse "NUM/DEN" or a decimal ("1.822e-5", "0.5") exactly. */
int aqm_get_ratio(struct aqm_ratio *r, const char *arg);
/* aqm_get_ratio() for option @name, with tc's "Illegal" message. */
int aqm_parse_ratio_opt(struct aqm_ratio *r, const char *name,
			const char *arg);
/* aqm_parse_ratio_opt() for a probability: in [0, 1], or (0, 1]. */
int aqm_parse_prob_opt(struct aqm_ratio *r, const char *name,
		       const char *arg, bool zero_ok);
/* The ECN words of every qdisc of the project: ecn, noecn, ecn_ceil PROB. */
struct aqm_ecn_opts {
	int ecn;		/* -1: not given; else 0 or 1 */
	bool ceil_set;		/* ecn_ceil was given */
	struct aqm_ratio ceil;	/* in [0, 1] */
};
#define AQM_ECN_OPTS_INIT	{ .ecn = -1 }
/* Take the ECN word at **argvp (and ecn_ceil's value, leaving *argvp on
 * it): 1 when it was one, 0 when it is another word, -1 on a bad value.
 */
int aqm_parse_ecn_word(struct aqm_ecn_opts *o, int *argcp, char ***argvp);
/* Add what was given: @ecn_type as a u8, @ceil_type as a ratio nest. */
int aqm_addattr_ecn(struct nlmsghdr *n, int maxlen, int ecn_type,
		    int ceil_type, const struct aqm_ecn_opts *o);
/* Add @r as a nest of TCA_AQM_RATIO_NUM and TCA_AQM_RATIO_DEN. */
int aqm_addattr_ratio(struct nlmsghdr *n, int maxlen, int type,
		      const struct aqm_ratio *r);
/* Read a ratio nest; false when it is malformed. */
bool aqm_rta_getattr_ratio(struct rtattr *attr, struct aqm_ratio *r);
/* Print a ratio: decimal when DEN is a power of ten or @decimal is set. */
void aqm_print_ratio(const char *key, const struct aqm_ratio *r,
		     bool decimal);
/* aqm_print_ratio() of a ratio nest, if present and well formed. */
void aqm_print_ratio_attr(const char *key, struct rtattr *attr, bool decimal);
double aqm_ratio_value(const struct aqm_ratio *r);
/* Print microseconds in the largest unit that keeps them exact ("6150us",
 * "246ms", "1s"), so that the printed text parses back to the same value;
 * JSON gets the number of microseconds under @key.
 */
void aqm_print_time(const char *key, __u32 usec);
/* A queue target given as qref (packets) or target (time, us; 0: qref):
 * the text shows the one in use, JSON both. Returns the time target.
 */
__u32 aqm_print_qref_target(struct rtattr *qref, struct rtattr *target);
/* A flag: JSON always has @key (true or false), text only the word when
 * it is set.
 */
void aqm_print_flag(const char *key, bool on);

/*
 * A rate of @bps bytes/s in bits, exactly, in the largest SI unit that
 * keeps it so ("8Kbit", "10Mbit", "9872bit"): get_rate() reads it back to
 * the same value, where tc's print_rate() rounds (1234560bit: "1234Kbit").
 * JSON: bytes/s.
 */
void aqm_print_rate_exact(const char *key, __u64 bps);

/*
 * @bytes in the largest binary unit that keeps them exact ("1514b",
 * "15Kb", "2Mb"), as get_size() reads them; tc's print_size() rounds
 * (1030: "1Kb"). JSON: bytes.
 */
void aqm_print_size_exact(const char *key, __u32 bytes);

/* The text of aqm_print_size_exact() into @buf (32 bytes will do). */
char *aqm_size_str(char *buf, size_t len, __u32 bytes);
/* A probability exported as a fraction of 2^32. */
double aqm_prob_value(__u32 prob);
/* A packet count: "1000" or "1000p", as the plugins print it. */
int aqm_get_packets(__u32 *val, const char *arg);
/* `limit PACKETS` in [1, 2^20] and `qref COUNT|SIZE` in [1, 2^32 - 1]
 * (pi, rem): 0, or -1 after a message naming the option
 */
int aqm_parse_limit(__u32 *limit, const char *arg);
int aqm_parse_qref(__u32 *qref, const char *arg);
/* A time with get_time(): "10ms", "1s", "500us", "500" (us). */
int aqm_get_usecs(__u32 *usec, const char *arg);
/* Range check before sending, naming the option as the kernel's generic
 * "integer out of range" cannot: prints 'Illegal "NAME": must be
 * MIN..MAX UNIT' and returns -1 when @v is out of [min, max].
 */
int aqm_check_range(const char *name, __u64 v, __u64 min, __u64 max,
		    const char *unit);

/* "name VALUE" words that take a u32 attribute, with the kernel's range:
 * a plugin lists them in a table, finds a word with aqm_u32_opt_find(),
 * reads its value with aqm_u32_opt_get() (a message naming the option on
 * a bad value) and puts the ones given with aqm_u32_opts_put().
 */
enum aqm_unit {
	AQM_UNIT_PACKETS,	/* "1000" or "1000p" */
	AQM_UNIT_TIME,		/* aqm_get_usecs() */
	AQM_UNIT_BYTES,		/* get_size(), from a digit */
	AQM_UNIT_COUNT,		/* a plain count */
};

struct aqm_u32_opt {
	const char *name;
	int type;
	enum aqm_unit unit;
	__u32 min, max;
};

const struct aqm_u32_opt *aqm_u32_opt_find(const struct aqm_u32_opt *opts,
					   size_t n_opts, const char *word);
int aqm_u32_opt_get(const struct aqm_u32_opt *o, __u32 *v, const char *arg);
/* When **argv is one of @opts: its value is the next word, read into
 * vals[type] with set[type] true (NEXT_ARG()'s rule at the end of the
 * words). Return: 1 when it was one, 0 when not, -1 after a message.
 */
int aqm_u32_opt_parse(const struct aqm_u32_opt *opts, size_t n_opts,
		      int *argc, char ***argv, __u32 *vals, bool *set);
/* addattr32 of vals[type] for each option with set[type] */
void aqm_u32_opts_put(struct nlmsghdr *n, const struct aqm_u32_opt *opts,
		      size_t n_opts, const __u32 *vals, const bool *set);

#endif
