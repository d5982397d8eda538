// SPDX-License-Identifier: GPL-2.0
/*
 * aqm_lib - the linux-aqm shared library: the PI controller (aqm_pi.c), the
 * fixed-point exponentials (aqm_exp.c), ARED's core (aqm_ared.c) and the
 * flow tables (aqm_flow.c) used by the pi, rem, ared, riops, dcn and afd
 * qdiscs.
 * It registers nothing; it only exports the helpers declared in
 * include/net/aqm_*.h.
 */
#include <linux/module.h>

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("linux-aqm shared AQM library: PI controller, ARED, flow tables");
