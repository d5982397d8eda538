/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqm_exp.h - fixed-point exponentials of the linux-aqm library: REM's
 * price-to-probability map, and 2^-k for ARED's averaging weight and idle
 * decay.
 *
 * Random Exponential Marking (S. Athuraliya, V. H. Li, S. H. Low, Q. Yin,
 * "REM: active queue management", IEEE Network 15(3), 2001), as the AQM/ECN
 * web-performance paper describes it (section II, eq. 2): a congestion
 * "price" p rises with the queue's excess over its target and with the
 * excess of arrivals over the link's capacity, and each packet is marked
 * or dropped with probability
 *
 *   m = 1 - phi^(-p),   phi > 1 a constant.
 *
 * The price update itself is the library's PI controller with an input
 * (aqm_pi_sample_in(), include/net/aqm_pi.h); this file turns the price
 * into m without floating point:
 *
 *   phi^(-p) = 2^(-p log2(phi)),
 *
 * with log2(phi) computed once per configuration (aqm_rem_log2_ratio(),
 * Q32) and 2^(-k) once per controller sample (aqm_rem_prob()): the integer
 * part of k is a shift, the fraction a product of at most 32 constants
 * 2^(-2^-i) (Q62). Per packet nothing is left but the Bernoulli trial.
 *
 * Scales: a price is an s64 in units of 2^-AQM_PI_SHIFT (the controller's
 * x); a probability is a fraction of AQM_PI_ONE = 2^32.
 */
#ifndef __NET_AQM_EXP_H
#define __NET_AQM_EXP_H

#include <linux/types.h>

/* smallest log2(phi) accepted, Q32: phi >= 1 + 8.3e-8, so that the price
 * at which m reaches 1.0 (2^69 / log2(phi)) stays below 2^61
 */
#define AQM_REM_LOG2_MIN	512
/* largest phi accepted: log2(phi) < 4 */
#define AQM_REM_PHI_MAX		16

/* log2(e) in Q32 */
#define AQM_LOG2E_Q32		6196328018ULL

u64 aqm_exp2_neg(u64 k);
int aqm_rem_log2_ratio(u64 num, u64 den, u64 *log2);
s64 aqm_rem_prob(s64 price, u64 log2phi);
s64 aqm_rem_price_max(u64 log2phi);

#endif /* __NET_AQM_EXP_H */
