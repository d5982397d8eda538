/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqm_compat.h - the kernel API differences between the kernels the qdiscs
 * build against: Debian 12's 6.1, the 6.12 of Debian 13 and of the test
 * kernel, and Debian 13's backports 7.x. Every LINUX_VERSION_CODE test of
 * the project is here; the qdiscs include this header and use the newer API.
 *
 * Checked and the same from 6.1 to 7.3 (nothing to cover): struct Qdisc_ops
 * and Qdisc_class_ops, qdisc_tree_reduce_backlog(), tcf_classify() and the
 * tcf_block calls, the netlink policy and parse helpers (but for the range
 * structs' const, below). The qdiscs use no timer or hrtimer
 * (their controllers run lazily), so the timer renames of 6.2-6.16
 * (del_timer_sync -> timer_delete_sync, from_timer -> timer_container_of,
 * hrtimer_init -> hrtimer_setup) do not concern them.
 */
#ifndef __NET_AQM_COMPAT_H
#define __NET_AQM_COMPAT_H

#include <linux/build_bug.h>
#include <linux/module.h>
#include <linux/version.h>
#include <net/pkt_cls.h>
#include <net/pkt_sched.h>

/*
 * Linux 6.4 moved skb_gso_segment() and skb_gso_validate_mac_len() from
 * <linux/netdevice.h> and <linux/skbuff.h> to <net/gso.h>.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#include <net/gso.h>
#endif

/*
 * struct nla_policy points at an NLA_POLICY_FULL_RANGE() bound through a
 * const pointer from 6.7 and a plain one before. The qdiscs' range tables
 * are const where the kernel takes them so, read by netlink only, and the
 * modules then hold no writable global of their own
 * (scripts/kernel/module-globals.sh); on 6.1 they stay writable, unwritten.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
#define AQM_NLA_RANGE_CONST const
#else
#define AQM_NLA_RANGE_CONST
#endif

/*
 * Linux 6.9 loads a qdisc's module by the alias "net-sch-KIND", which
 * MODULE_ALIAS_NET_SCH() declares; before it the kernel asks for
 * "sch_KIND", the module's own name, and there is nothing to declare (the
 * assertion only keeps the caller's semicolon a declaration). A stable
 * kernel that has the macro keeps its own.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 9, 0) && !defined(MODULE_ALIAS_NET_SCH)
#define MODULE_ALIAS_NET_SCH(id) static_assert(sizeof(id) > 1, "a qdisc kind")
#endif

/*
 * tcf_classify_qdisc() runs a qdisc's filter chain and turns a redirect,
 * which a qdisc's filters do not support, into a drop. It came into the
 * stable kernels with that fix, not with a release, so the Kbuild probes
 * the headers for it (AQM_NO_TCF_CLASSIFY_QDISC where it is missing); the
 * same rule then holds on a kernel without it.
 */
#ifdef AQM_NO_TCF_CLASSIFY_QDISC
static inline int tcf_classify_qdisc(struct sk_buff *skb,
				     const struct tcf_proto *tp,
				     struct tcf_result *res, bool compat_mode)
{
	int ret = tcf_classify(skb, NULL, tp, res, compat_mode);

	return ret == TC_ACT_REDIRECT ? TC_ACT_SHOT : ret;
}
#endif

#endif /* __NET_AQM_COMPAT_H */
