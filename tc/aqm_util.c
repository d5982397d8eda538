/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqm_util.c - helpers shared by the linux-aqm tc plugins: exact decimal
 * and rational gains (struct aqm_ratio).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "utils.h"
#include "libnetlink.h"
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

static int get_decimal(struct aqm_ratio *r, const char *arg)
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

int aqm_get_ratio(struct aqm_ratio *r, const char *arg)
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

int aqm_parse_ratio_opt(struct aqm_ratio *r, const char *name,
			const char *arg)
{
	if (aqm_get_ratio(r, arg)) {
		fprintf(stderr, "Illegal \"%s\"\n", name);
		return -1;
	}
	return 0;
}

double aqm_ratio_value(const struct aqm_ratio *r)
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

void aqm_print_ratio(const char *key, const struct aqm_ratio *r,
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

__u32 aqm_print_qref_target(struct rtattr *qref, struct rtattr *target)
{
	__u32 t = target ? rta_getattr_u32(target) : 0;

	if (qref)
		print_uint(t ? PRINT_JSON : PRINT_ANY, "qref", "qref %up ",
			   rta_getattr_u32(qref));
	if (t)
		aqm_print_time("target", t);
	else if (target)
		print_uint(PRINT_JSON, "target", NULL, 0);
	return t;
}

void aqm_print_ratio_attr(const char *key, struct rtattr *attr, bool decimal)
{
	struct aqm_ratio r;

	if (attr && aqm_rta_getattr_ratio(attr, &r))
		aqm_print_ratio(key, &r, decimal);
}

int aqm_parse_prob_opt(struct aqm_ratio *r, const char *name,
		       const char *arg, bool zero_ok)
{
	if (aqm_get_ratio(r, arg) || r->num > r->den ||
	    (!zero_ok && !r->num)) {
		fprintf(stderr, "Illegal \"%s\": must be a probability in %s\n",
			name, zero_ok ? "[0, 1]" : "(0, 1]");
		return -1;
	}
	return 0;
}

int aqm_parse_ecn_word(struct aqm_ecn_opts *o, int *argcp, char ***argvp)
{
	const char *w = **argvp;

	if (strcmp(w, "ecn") == 0) {
		o->ecn = 1;
	} else if (strcmp(w, "noecn") == 0) {
		o->ecn = 0;
	} else if (strcmp(w, "ecn_ceil") == 0) {
		if (*argcp <= 1)
			incomplete_command();
		(*argvp)++;
		(*argcp)--;
		if (aqm_parse_prob_opt(&o->ceil, "ecn_ceil", **argvp, true))
			return -1;
		o->ceil_set = true;
	} else {
		return 0;
	}
	return 1;
}

int aqm_addattr_ecn(struct nlmsghdr *n, int maxlen, int ecn_type,
		    int ceil_type, const struct aqm_ecn_opts *o)
{
	if (o->ecn != -1 && addattr8(n, maxlen, ecn_type, o->ecn))
		return -1;
	if (o->ceil_set)
		return aqm_addattr_ratio(n, maxlen, ceil_type, &o->ceil);
	return 0;
}

int aqm_addattr_ratio(struct nlmsghdr *n, int maxlen, int type,
		      const struct aqm_ratio *r)
{
	struct rtattr *nest = addattr_nest(n, maxlen, type | NLA_F_NESTED);

	if (addattr64(n, maxlen, TCA_AQM_RATIO_NUM, r->num) ||
	    addattr64(n, maxlen, TCA_AQM_RATIO_DEN, r->den))
		return -1;
	addattr_nest_end(n, nest);
	return 0;
}

bool aqm_rta_getattr_ratio(struct rtattr *attr, struct aqm_ratio *r)
{
	struct rtattr *tb[TCA_AQM_RATIO_MAX + 1];

	parse_rtattr_nested(tb, TCA_AQM_RATIO_MAX, attr);
	if (!tb[TCA_AQM_RATIO_NUM] || !tb[TCA_AQM_RATIO_DEN] ||
	    RTA_PAYLOAD(tb[TCA_AQM_RATIO_NUM]) < sizeof(__u64) ||
	    RTA_PAYLOAD(tb[TCA_AQM_RATIO_DEN]) < sizeof(__u64))
		return false;
	r->num = rta_getattr_u64(tb[TCA_AQM_RATIO_NUM]);
	r->den = rta_getattr_u64(tb[TCA_AQM_RATIO_DEN]);
	return r->den != 0;
}

void aqm_print_flag(const char *key, bool on)
{
	print_bool(PRINT_JSON, key, NULL, on);
	if (on)
		print_string(PRINT_FP, NULL, "%s ", key);
}

void aqm_print_rate_exact(const char *key, __u64 bps)
{
	static const char *const units[] = { "", "K", "M", "G", "T" };
	unsigned long long bits = bps * 8;
	char buf[64];
	size_t i = 0;

	while (bits && bits % 1000 == 0 && i < ARRAY_SIZE(units) - 1) {
		bits /= 1000;
		i++;
	}
	snprintf(buf, sizeof(buf), "%llu%sbit", bits, units[i]);
	print_u64(PRINT_JSON, key, NULL, bps);
	print_string(PRINT_FP, NULL, "%s ", key);
	print_string(PRINT_FP, NULL, "%s ", buf);
}

char *aqm_size_str(char *buf, size_t len, __u32 bytes)
{
	if (bytes && bytes % (1024 * 1024) == 0)
		snprintf(buf, len, "%uMb", bytes / (1024 * 1024));
	else if (bytes && bytes % 1024 == 0)
		snprintf(buf, len, "%uKb", bytes / 1024);
	else
		snprintf(buf, len, "%ub", bytes);
	return buf;
}

void aqm_print_size_exact(const char *key, __u32 bytes)
{
	char buf[32];

	print_uint(PRINT_JSON, key, NULL, bytes);
	print_string(PRINT_FP, NULL, "%s ", key);
	print_string(PRINT_FP, NULL, "%s ",
		     aqm_size_str(buf, sizeof(buf), bytes));
}

int aqm_get_packets(__u32 *val, const char *arg)
{
	char buf[32];
	size_t n = strlen(arg);

	if (!n || n >= sizeof(buf) || !isdigit((unsigned char)arg[0]))
		return -1;
	memcpy(buf, arg, n + 1);
	if (buf[n - 1] == 'p')
		buf[n - 1] = '\0';
	return get_u32(val, buf, 10);
}

int aqm_parse_limit(__u32 *limit, const char *arg)
{
	if (aqm_get_packets(limit, arg)) {
		fprintf(stderr, "Illegal \"limit\"\n");
		return -1;
	}
	return aqm_check_range("limit", *limit, 1, 1 << 20, "packets");
}

int aqm_parse_qref(__u32 *qref, const char *arg)
{
	unsigned int size;

	/* a count (packets, or bytes in bytemode) or a size */
	if (aqm_get_packets(qref, arg)) {
		if (get_size(&size, arg)) {
			fprintf(stderr, "Illegal \"qref\"\n");
			return -1;
		}
		*qref = size;
	}
	return aqm_check_range("qref", *qref, 1, UINT32_MAX, NULL);
}

int aqm_get_usecs(__u32 *usec, const char *arg)
{
	/* get_time()'s units, and like it a bare number is in us */
	static const struct {
		const char *unit;
		double us;
	} units[] = {
		{ "", 1 }, { "us", 1 }, { "usec", 1 }, { "usecs", 1 },
		{ "ms", 1e3 }, { "msec", 1e3 }, { "msecs", 1e3 },
		{ "s", 1e6 }, { "sec", 1e6 }, { "secs", 1e6 },
	};
	double t;
	char *end;
	size_t i;

	/* get_time() would wrap 2^32 us and more into a small time (and
	 * get_time64() reads a bare number as ns): such a time becomes
	 * UINT32_MAX here, which range checks refuse. strtod takes "-1"
	 * and "nan", hence the first digit.
	 */
	if (!isdigit((unsigned char)arg[0]))
		return -1;
	t = strtod(arg, &end);
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcasecmp(end, units[i].unit) == 0)
			break;
	}
	if (i == ARRAY_SIZE(units))
		return -1;
	t *= units[i].us;
	*usec = t >= UINT32_MAX ? UINT32_MAX : (__u32)t;
	return 0;
}

int aqm_check_range(const char *name, __u64 v, __u64 min, __u64 max,
		    const char *unit)
{
	if (v >= min && v <= max)
		return 0;
	fprintf(stderr, "Illegal \"%s\": must be %llu..%llu%s%s\n", name,
		(unsigned long long)min, (unsigned long long)max,
		unit ? " " : "", unit ?: "");
	return -1;
}

const struct aqm_u32_opt *aqm_u32_opt_find(const struct aqm_u32_opt *opts,
					   size_t n_opts, const char *word)
{
	size_t i;

	for (i = 0; i < n_opts; i++)
		if (strcmp(word, opts[i].name) == 0)
			return &opts[i];
	return NULL;
}

int aqm_u32_opt_get(const struct aqm_u32_opt *o, __u32 *v, const char *arg)
{
	static const char *const unit_names[] = {
		[AQM_UNIT_PACKETS]	= "packets",
		[AQM_UNIT_TIME]		= "us",
		[AQM_UNIT_BYTES]	= "bytes",
		[AQM_UNIT_COUNT]	= NULL,
	};
	unsigned int u = 0;
	int err;

	switch (o->unit) {
	case AQM_UNIT_PACKETS:
		err = aqm_get_packets(v, arg);
		break;
	case AQM_UNIT_TIME:
		err = aqm_get_usecs(v, arg);
		break;
	case AQM_UNIT_BYTES:
		/* get_size() would take "-1" through strtod */
		err = !isdigit((unsigned char)*arg) || get_size(&u, arg);
		*v = u;
		break;
	default:
		err = get_unsigned(&u, arg, 0);
		*v = u;
		break;
	}
	if (err) {
		fprintf(stderr, "Illegal \"%s\"\n", o->name);
		return -1;
	}
	return aqm_check_range(o->name, *v, o->min, o->max,
			       unit_names[o->unit]);
}

int aqm_u32_opt_parse(const struct aqm_u32_opt *opts, size_t n_opts,
		      int *argc, char ***argv, __u32 *vals, bool *set)
{
	const struct aqm_u32_opt *o = aqm_u32_opt_find(opts, n_opts, **argv);

	if (!o)
		return 0;
	(*argv)++;
	if (--(*argc) <= 0)
		incomplete_command();
	if (aqm_u32_opt_get(o, &vals[o->type], **argv))
		return -1;
	set[o->type] = true;
	return 1;
}

void aqm_u32_opts_put(struct nlmsghdr *n, const struct aqm_u32_opt *opts,
		      size_t n_opts, const __u32 *vals, const bool *set)
{
	size_t i;

	for (i = 0; i < n_opts; i++)
		if (set[opts[i].type])
			addattr32(n, 1024, opts[i].type, vals[opts[i].type]);
}
