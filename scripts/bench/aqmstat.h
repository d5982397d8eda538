/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqmstat.h - what aqmstat.c (the sampler) and aqmstat_kinds.c (the
 * per-kind xstats decoders) share: one sample of one qdisc as a list of
 * named numbers, and the table of the kinds whose xstats are decoded.
 *
 * A record keeps the qdisc's identity apart from its fields, so that the
 * fields can be copied and compared by key without pointers into the
 * record itself. Keys are string literals, never freed.
 */
#ifndef AQMSTAT_H
#define AQMSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* generic stats (7) + the largest decoder (sfb, 30) with room to grow */
#define REC_FIELDS	48
#define KIND_LEN	32

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

enum field_type {
	FT_U64,
	FT_S64,
	FT_DBL,
	FT_BOOL,
};

struct field {
	const char *key;
	enum field_type type;
	union {
		uint64_t u;
		int64_t s;
		double d;
		bool b;
	} v;
};

struct rec {
	double t;		/* seconds since the start, CLOCK_MONOTONIC */
	double wall;		/* unix time, CLOCK_REALTIME */
	uint32_t handle;
	uint32_t parent;
	char kind[KIND_LEN];
	unsigned int n;
	struct field f[REC_FIELDS];
};

void rec_u64(struct rec *r, const char *key, uint64_t v);
void rec_s64(struct rec *r, const char *key, int64_t v);
void rec_dbl(struct rec *r, const char *key, double v);
void rec_bool(struct rec *r, const char *key, bool v);
const struct field *rec_get(const struct rec *r, const char *key);
/* a field as a double, for rates and the live view; false when absent */
bool rec_num(const struct rec *r, const char *key, double *out);

/*
 * One kind whose xstats (TCA_STATS_APP) are decoded. Adding a kind is one
 * entry in aqm_kinds[] plus its decode function.
 * @decode:	appends the kind's fields; @len is the payload length,
 *		which may differ from the struct's size (older or newer
 *		kernel): the decoder reads what is there, zero beyond
 * @marks:	key of the ECN mark counter, for the live view's marks/s
 * @state:	keys of the controller state the live view shows
 */
struct aqm_kind {
	const char *name;
	void (*decode)(struct rec *r, const void *data, size_t len);
	const char *marks;
	const char *state[3];
};

const struct aqm_kind *aqm_kind_find(const char *name);

#endif /* AQMSTAT_H */
