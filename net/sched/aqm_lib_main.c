// SPDX-License-Identifier: GPL-2.0
/*
 * aqm_lib - the linux-aqm shared library: the PI controller (aqm_pi.c) and
 * the flow tables used by the pi, dcn and afd qdiscs. It registers nothing;
 * it only exports the helpers declared in include/net/aqm_*.h.
 */
#include <linux/module.h>

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("linux-aqm shared AQM library: PI controller and flow tables");
