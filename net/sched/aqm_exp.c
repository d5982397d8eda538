// SPDX-License-Identifier: GPL-2.0
/*
 * aqm_exp.c - fixed-point exponentials: 2^-k, log2 of a ratio, and REM's
 * marking probability 1 - phi^(-price) built from them.
 *
 * See include/net/aqm_exp.h for the scales.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <net/aqm_pi.h>
#include <net/aqm_exp.h>

#define REM_Q62		62
#define REM_ONE_Q62	BIT_ULL(REM_Q62)

/* 2^(-2^-i) for i = 1..32, rounded down, Q62 */
static const u64 aqm_rem_exp2_neg[32] = {
	0x2d413cccfe779921ULL, 0x35d13f32b5a75abdULL,
	0x3ab031b9f7490e4bULL, 0x3d495f454921b30bULL,
	0x3ea0ecb6dc8a80ceULL, 0x3f4f83033d21b05dULL,
	0x3fa784571ee3e212ULL, 0x3fd3b2d65447b229ULL,
	0x3fe9d59487236bb4ULL, 0x3ff4e9d4703df842ULL,
	0x3ffa74acbdf6c9d5ULL, 0x3ffd3a46ffc6e30fULL,
	0x3ffe9d1fa8010199ULL, 0x3fff4e8ede053ad4ULL,
	0x3fffa747318376acULL, 0x3fffd3a38961e6feULL,
	0x3fffe9d1c0d8fd14ULL, 0x3ffff4e8df7680c4ULL,
	0x3ffffa746f7dc0ebULL, 0x3ffffd3a37af8097ULL,
	0x3ffffe9d1bd3e854ULL, 0x3fffff4e8de8fe2cULL,
	0x3fffffa746f44196ULL, 0x3fffffd3a37a116bULL,
	0x3fffffe9d1bd04ddULL, 0x3ffffff4e8de8178ULL,
	0x3ffffffa746f407eULL, 0x3ffffffd3a37a030ULL,
	0x3ffffffe9d1bd014ULL, 0x3fffffff4e8de809ULL,
	0x3fffffffa746f404ULL, 0x3fffffffd3a37a02ULL,
};

/**
 * aqm_rem_log2_ratio() - log2(num / den) for a phi of REM
 * @num:	numerator
 * @den:	denominator, > 0
 * @log2:	result, Q32, rounded down
 *
 * The bits of the fraction come from repeated squaring: with y in [1, 2),
 * y^2 >= 2 sets the next bit and halves y. 36 multiplications, at
 * configuration time only.
 *
 * Return: 0, -EINVAL when @den is 0 or num / den <= 1, -ERANGE when
 * num / den >= AQM_REM_PHI_MAX or log2(num / den) < AQM_REM_LOG2_MIN / 2^32.
 */
int aqm_rem_log2_ratio(u64 num, u64 den, u64 *log2)
{
	u64 y, l;
	int n, i;

	if (!den || num <= den)
		return -EINVAL;
	if (div64_u64(num, den) >= AQM_REM_PHI_MAX)
		return -ERANGE;
	/* num / den in Q58: below 16 * 2^58 = 2^62 */
	y = mul_u64_u64_div_u64(num, BIT_ULL(58), den);
	n = fls64(y) - 1 - 58;			/* integer part, 0..3 */
	y <<= REM_Q62 - (fls64(y) - 1);		/* y / 2^n in [1, 2), Q62 */
	l = (u64)n << 32;
	for (i = 31; i >= 0; i--) {
		/* y < 2^63 (a value below 2), so y^2 >> 62 < 2^64 */
		y = mul_u64_u64_shr(y, y, REM_Q62);
		if (y >= 2 * REM_ONE_Q62) {
			y >>= 1;
			l |= BIT_ULL(i);
		}
	}
	if (l < AQM_REM_LOG2_MIN)
		return -ERANGE;
	*log2 = l;
	return 0;
}
EXPORT_SYMBOL_GPL(aqm_rem_log2_ratio);

/**
 * aqm_rem_price_max() - the price at which 1 - phi^(-price) reaches 1.0
 * @log2phi:	log2(phi), Q32, >= AQM_REM_LOG2_MIN
 *
 * Where price * log2(phi) = 32, the probability is within 2^-32 of 1.0:
 * a higher price changes nothing, so the controller clamps there.
 *
 * Return: 2^69 / log2phi rounded up, in price units (< 2^61).
 */
s64 aqm_rem_price_max(u64 log2phi)
{
	u64 p = mul_u64_u64_div_u64(32ULL << AQM_PI_SHIFT, BIT_ULL(32), log2phi);

	/* rounded up: the price where aqm_rem_prob() reaches 1.0 itself */
	if (mul_u64_u64_shr(p, log2phi, AQM_PI_SHIFT) < 32ULL << 32)
		p++;
	return (s64)p;
}
EXPORT_SYMBOL_GPL(aqm_rem_price_max);

/**
 * aqm_exp2_neg() - 2^-k
 * @k:		the exponent, Q32, >= 0
 *
 * 2^-k = 2^-floor(k) * 2^-frac(k), the fraction as a product over its set
 * bits of 2^(-2^-i). Each product rounds down by at most 2^-62, so the
 * result is within 2^-31 of the exact value, and rounded down.
 *
 * Return: 2^-k as a fraction of AQM_PI_ONE, in [0, AQM_PI_ONE].
 */
u64 aqm_exp2_neg(u64 k)
{
	u64 frac, acc = REM_ONE_Q62;
	u64 ki = k >> 32;
	int i;

	if (ki >= 33)
		return 0;
	frac = (u32)k;
	for (i = 0; frac; i++, frac <<= 1) {
		if (frac & BIT_ULL(31))
			acc = mul_u64_u64_shr(acc, aqm_rem_exp2_neg[i], REM_Q62);
		frac &= U32_MAX >> 1;
	}
	/* acc / 2^62 = 2^-frac; shift to Q32 and by the integer part */
	return acc >> (REM_Q62 - 32 + ki);
}
EXPORT_SYMBOL_GPL(aqm_exp2_neg);

/**
 * aqm_rem_prob() - REM's marking probability m = 1 - phi^(-price)
 * @price:	the price, >= 0, units of 2^-AQM_PI_SHIFT
 * @log2phi:	log2(phi), Q32
 *
 * phi^-price = 2^-k with k = price * log2(phi) (aqm_exp2_neg()).
 *
 * Return: m as a fraction of AQM_PI_ONE, in [0, AQM_PI_ONE].
 */
s64 aqm_rem_prob(s64 price, u64 log2phi)
{
	u64 k;

	if (price <= 0)
		return 0;
	/* price < 2^61 and log2phi < 2^34: k in Q32 fits 64 bits */
	k = mul_u64_u64_shr((u64)price, log2phi, AQM_PI_SHIFT);
	if (k >> 32 >= 32)
		return AQM_PI_ONE;
	return AQM_PI_ONE - (s64)aqm_exp2_neg(k);
}
EXPORT_SYMBOL_GPL(aqm_rem_prob);
