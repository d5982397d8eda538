/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqm_tc_compat.h - the one difference between the iproute2 versions the
 * plugins build against (make check builds them against Debian's 6.1, 6.15
 * and 7.x: scripts/tc/build-versions.sh).
 *
 * iproute2 6.9 made the callbacks of struct qdisc_util (parse_qopt,
 * print_qopt, print_xstats, ...) take a const struct qdisc_util *. The
 * plugins declare theirs with AQM_QU_CONST, which is "const" against such
 * a source and empty against an older one. tc/Makefile defines it from the
 * source's tc/tc_util.h; a build that compiles the plugins by other means
 * takes the definition from `make -C tc IPROUTE2_SRC=... compat-flags`
 * (scripts/tc/build-linked-tc.sh does).
 */
#ifndef _TC_AQM_TC_COMPAT_H_
#define _TC_AQM_TC_COMPAT_H_

#ifndef AQM_QU_CONST
#error "AQM_QU_CONST is not defined: make -C tc IPROUTE2_SRC=... compat-flags"
#endif

#endif
