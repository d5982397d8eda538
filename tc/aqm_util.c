/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqm_util.c - helpers shared by the linux-aqm tc plugins: exact decimal
 * and rational gains (struct tc_aqm_ratio).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utils.h"
#include "json_print.h"
#include "aqm_util.h"

static int mul10(__u64 *v)
{
	if (*v > UINT64_MAX / 10)
		return -1;
	*v *= 10;
	return 0;
}

static int add_digit(__u64 *v, char c)
{
	if (mul10(v) || *v > UINT64_MAX - (__u64)(c - '0'))
		return -1;
	*v += c - '0';
	return 0;
}

static int get_decimal(struct tc_aqm_ratio *r, const char *arg)
{
	__u64 num = 0, den = 1;
	const char *p = arg;
	bool digits = false;
	long exp10 = 0;

	for (; isdigit((unsigned char)*p); p++, digits = true)
		if (add_digit(&num, *p))
			return -1;
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++, digits = true) {
			if (add_digit(&num, *p))
				return -1;
			exp10--;
		}
	}
	if (!digits)
		return -1;
	if (*p == 'e' || *p == 'E') {
		char *end;

		errno = 0;
		exp10 += strtol(p + 1, &end, 10);
		if (errno || end == p + 1 || *end)
			return -1;
	} else if (*p) {
		return -1;
	}
	for (; exp10 > 0; exp10--)
		if (mul10(&num))
			return -1;
	for (; exp10 < 0; exp10++)
		if (mul10(&den))
			return -1;
	r->num = num;
	r->den = den;
	return 0;
}

int aqm_get_ratio(struct tc_aqm_ratio *r, const char *arg)
{
	const char *slash = strchr(arg, '/');
	char buf[64];

	if (!slash)
		return get_decimal(r, arg);
	if ((size_t)(slash - arg) >= sizeof(buf))
		return -1;
	memcpy(buf, arg, slash - arg);
	buf[slash - arg] = '\0';
	if (get_u64((__u64 *)&r->num, buf, 10) ||
	    get_u64((__u64 *)&r->den, slash + 1, 10) || !r->den)
		return -1;
	return 0;
}

int aqm_parse_ratio_opt(struct tc_aqm_ratio *r, const char *name,
			const char *arg)
{
	if (aqm_get_ratio(r, arg)) {
		fprintf(stderr, "Illegal \"%s\"\n", name);
		return -1;
	}
	return 0;
}

double aqm_ratio_value(const struct tc_aqm_ratio *r)
{
	return r->den ? (double)r->num / (double)r->den : 0.0;
}

double aqm_prob_value(__u32 prob)
{
	return prob == UINT32_MAX ? 1.0 : (double)prob / 4294967296.0;
}

static bool power_of_ten(__u64 v)
{
	while (v >= 10 && v % 10 == 0)
		v /= 10;
	return v == 1;
}

void aqm_print_ratio(const char *key, const struct tc_aqm_ratio *r,
		     bool decimal)
{
	char fmt[32];

	print_float(PRINT_JSON, key, NULL, aqm_ratio_value(r));
	if (decimal || power_of_ten(r->den)) {
		snprintf(fmt, sizeof(fmt), "%s %%.10g ", key);
		print_float(PRINT_FP, NULL, fmt, aqm_ratio_value(r));
	} else {
		print_string(PRINT_FP, NULL, "%s ", key);
		print_lluint(PRINT_FP, NULL, "%llu/",
			     (unsigned long long)r->num);
		print_lluint(PRINT_FP, NULL, "%llu ",
			     (unsigned long long)r->den);
	}
}

void aqm_print_time(const char *key, __u32 usec)
{
	char fmt[32];

	print_uint(PRINT_JSON, key, NULL, usec);
	if (usec && usec % 1000000 == 0) {
		snprintf(fmt, sizeof(fmt), "%s %%us ", key);
		usec /= 1000000;
	} else if (usec && usec % 1000 == 0) {
		snprintf(fmt, sizeof(fmt), "%s %%ums ", key);
		usec /= 1000;
	} else {
		snprintf(fmt, sizeof(fmt), "%s %%uus ", key);
	}
	print_uint(PRINT_FP, NULL, fmt, usec);
}
