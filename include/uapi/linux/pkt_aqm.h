/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * pkt_aqm.h - netlink ABI of the linux-aqm qdiscs (dcn, pi, afd, blue; sfb
 * keeps upstream's TCA_SFB_* ABI from pkt_sched.h and extends it here).
 *
 * Conventions shared by every qdisc of the project:
 *  - options are nested under TCA_OPTIONS, one enum per qdisc,
 *    TCA_<NAME>_UNSPEC = 0, attributes never renumbered, only appended;
 *  - times are u32 microseconds;
 *  - controller gains travel as struct tc_aqm_ratio (num / den), so that
 *    what tc sets is what it prints back;
 *  - probabilities in xstats are u32 fractions of 2^32 - 1 (like
 *    tc_pie_xstats.prob scaled down to 32 bits);
 *  - each qdisc exports a fixed struct tc_<name>_xstats.
 */
#ifndef _UAPI_LINUX_PKT_AQM_H
#define _UAPI_LINUX_PKT_AQM_H

#include <linux/types.h>

/**
 * struct tc_aqm_ratio - a non-negative rational number, num / den
 * @num:	numerator
 * @den:	denominator, > 0
 */
struct tc_aqm_ratio {
	__u32	num;
	__u32	den;
};

#endif /* _UAPI_LINUX_PKT_AQM_H */
