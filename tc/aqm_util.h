/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqm_util.h - helpers shared by the linux-aqm tc plugins.
 */
#ifndef _TC_AQM_UTIL_H_
#define _TC_AQM_UTIL_H_

#include <stdbool.h>
#include <linux/pkt_aqm.h>

/* Parse "NUM/DEN" or a decimal ("1.822e-5", "0.5") exactly. */
int aqm_get_ratio(struct tc_aqm_ratio *r, const char *arg);
/* aqm_get_ratio() for option @name, with tc's "Illegal" message. */
int aqm_parse_ratio_opt(struct tc_aqm_ratio *r, const char *name,
			const char *arg);
/* Print a ratio: decimal when DEN is a power of ten or @decimal is set. */
void aqm_print_ratio(const char *key, const struct tc_aqm_ratio *r,
		     bool decimal);
double aqm_ratio_value(const struct tc_aqm_ratio *r);
/* Print microseconds in the largest unit that keeps them exact ("6150us",
 * "246ms", "1s"), so that the printed text parses back to the same value;
 * JSON gets the number of microseconds under @key.
 */
void aqm_print_time(const char *key, __u32 usec);
/* A probability exported as a fraction of 2^32. */
double aqm_prob_value(__u32 prob);

#endif
