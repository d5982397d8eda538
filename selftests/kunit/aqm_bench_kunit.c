// SPDX-License-Identifier: GPL-2.0
/*
 * Per-packet cost of the library's flow state against the number of flows:
 * a benchmark that prints figures (issue 16: "lookups stay O(1)" with
 * 100,000 distinct flows). Nothing here is judged by time; the checks are
 * on what must not change with the number of flows: the memory of every
 * structure stays what it was allocated with, the flow table never holds
 * more than its capacity, and no probe run grows past the table.
 *
 * Each case offers 1,000, 10,000 and 100,000 distinct flow ids in turn
 * (random, round robin: every flow has one packet in each round) to one
 * structure at the size its qdisc uses by default, and prints the mean
 * cost of one packet's work in ns, the longest run of used slots a probe
 * may walk, and how the cost grows from 1,000 to 10,000 flows and from
 * 10,000 to 100,000:
 * - sb: DCN's scoreboard (4096 slots), aqm_sb_hit();
 * - hb: DCN's HB table (2048 flows), lookup, insert on a miss, aging and
 *   the clean-up sweep of one slot per packet, a decay period every 4096
 *   packets;
 * - shadow: AFD's shadow buffer (1000 arrivals), aqm_shadow_add() and
 *   aqm_shadow_count();
 * - sfb: SFB's 8 x 16 bins, hashing into both sets and Fig. 14's arrival
 *   rules (aqm_sfb_tick(), aqm_sfb_arrive(), aqm_sfb_warm()).
 * The figures vary with the machine (the test VM emulates its CPU): read
 * the ratio, not the ns.
 */
#include <kunit/test.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <net/aqm_flow.h>
#include <net/aqm_sfb.h>

#include "aqm_kunit.h"

#define BENCH_OPS	200000U
#define BENCH_SB	4096U
#define BENCH_HB	2048U
#define BENCH_SHADOW	1000U
#define BENCH_TICK	4096U

static const u32 bench_flows[] = { 1000, 10000, 100000 };

/* BENCH_OPS packets of @n flows through @op; returns ns per packet */
typedef void (*bench_op_t)(void *state, u32 id, u32 k);

static u64 bench_run(void *state, bench_op_t op, const u32 *ids, u32 n)
{
	u64 t0;
	u32 k;

	/* one round first, so that every flow met the structure once */
	for (k = 0; k < n; k++)
		op(state, ids[k], k);
	t0 = ktime_get_ns();
	for (k = 0; k < BENCH_OPS; k++)
		op(state, ids[k % n], k);
	return div_u64(ktime_get_ns() - t0, BENCH_OPS);
}

static u32 *bench_ids(struct kunit *test, u32 n)
{
	u32 *ids = kunit_kmalloc_array(test, n, sizeof(*ids), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ids);
	get_random_bytes(ids, n * sizeof(*ids));
	return ids;
}

/* the longest run of used slots in @t: what a probe may have to walk */
static u32 bench_longest_run(const struct aqm_ftab *t)
{
	u32 i, run = 0, longest = 0, first = 0;

	/* start after an empty slot so that a run across the end is whole */
	for (i = 0; i <= t->mask; i++) {
		if (!(aqm_ftab_slot(t, i)->stamp & AQM_FTAB_USED)) {
			first = i;
			break;
		}
	}
	for (i = 1; i <= t->mask + 1; i++) {
		const struct aqm_ftab_entry *e =
			aqm_ftab_slot(t, (first + i) & t->mask);

		run = (e->stamp & AQM_FTAB_USED) ? run + 1 : 0;
		longest = max(longest, run);
	}
	return longest;
}

/* ratio a / b in hundredths */
static u64 bench_ratio(u64 a, u64 b)
{
	return div64_u64(a * 100, max_t(u64, b, 1));
}

/*
 * The cost ratios, 10,000 over 1,000 flows and 100,000 over 10,000: a
 * table whose capacity lies between the first two (hb) costs more once
 * it is full and refuses inserts; O(1) is the second ratio, near 1.
 */
static void bench_report(struct kunit *test, const char *name, const u64 *ns)
{
	u64 r1 = bench_ratio(ns[1], ns[0]), r2 = bench_ratio(ns[2], ns[1]);

	kunit_info(test, "%s: per packet, 10000 flows cost %llu.%02llu x what 1000 do, 100000 cost %llu.%02llu x what 10000 do\n",
		   name, r1 / 100, r1 % 100, r2 / 100, r2 % 100);
}

/* --- DCN's scoreboard --------------------------------------------------- */

static void bench_sb_op(void *state, u32 id, u32 k)
{
	aqm_sb_hit(state, id, k, 1000);
}

static void aqm_bench_sb(struct kunit *test)
{
	u64 ns[ARRAY_SIZE(bench_flows)];
	struct aqm_sb sb = {};
	size_t mem;
	u32 i;

	KUNIT_ASSERT_EQ(test, aqm_sb_alloc(&sb, BENCH_SB), 0);
	mem = aqm_sb_mem(&sb);
	for (i = 0; i < ARRAY_SIZE(bench_flows); i++) {
		u32 n = bench_flows[i];

		aqm_sb_reset(&sb);
		ns[i] = bench_run(&sb, bench_sb_op, bench_ids(test, n), n);
		kunit_info(test, "sb (%u slots): %u flows: %llu ns/packet, %zu bytes, %llu overwrites\n",
			   BENCH_SB, n, ns[i], aqm_sb_mem(&sb), sb.overwrites);
		KUNIT_EXPECT_EQ(test, aqm_sb_mem(&sb), mem);
	}
	bench_report(test, "sb", ns);
	aqm_sb_free(&sb);
}

/* --- DCN's HB table ----------------------------------------------------- */

static void bench_hb_op(void *state, u32 id, u32 k)
{
	struct aqm_ftab *t = state;
	struct aqm_ftab_entry *e = aqm_ftab_lookup(t, id);

	if (!e)
		e = aqm_ftab_insert(t, id);
	if (e) {
		aqm_ftab_age(t, e, 2);
		e->val++;
	}
	aqm_ftab_sweep(t, 2, 1);
	if (!(k % BENCH_TICK))
		aqm_ftab_tick(t, 2, 1);
}

static void aqm_bench_hb(struct kunit *test)
{
	u64 ns[ARRAY_SIZE(bench_flows)];
	struct aqm_ftab t = {};
	size_t mem;
	u32 i;

	/* as DCN's HB: with the time stamp, 24 bytes per slot */
	KUNIT_ASSERT_EQ(test, aqm_ftab_alloc(&t, BENCH_HB, true), 0);
	mem = aqm_ftab_mem(&t);
	for (i = 0; i < ARRAY_SIZE(bench_flows); i++) {
		u32 n = bench_flows[i], run;

		aqm_ftab_reset(&t);
		t.hwm = 0;
		ns[i] = bench_run(&t, bench_hb_op, bench_ids(test, n), n);
		run = bench_longest_run(&t);
		kunit_info(test, "hb (%u flows, %u slots): %u flows: %llu ns/packet, %zu bytes, held %u (most %u), longest probe run %u, %llu inserts refused\n",
			   BENCH_HB, t.mask + 1, n, ns[i], aqm_ftab_mem(&t),
			   t.count, t.hwm, run, t.full);
		KUNIT_EXPECT_EQ(test, aqm_ftab_mem(&t), mem);
		KUNIT_EXPECT_LE(test, t.hwm, BENCH_HB);
		/* at most half the slots are used: a run never wraps round */
		KUNIT_EXPECT_LE(test, run, t.mask / 2 + 1);
	}
	bench_report(test, "hb", ns);
	aqm_ftab_free(&t);
}

/* --- AFD's shadow buffer ------------------------------------------------ */

static void bench_shadow_op(void *state, u32 id, u32 k)
{
	struct aqm_shadow *sh = state;

	aqm_shadow_add(sh, id, 1);
	aqm_shadow_count(sh, id);
}

static void aqm_bench_shadow(struct kunit *test)
{
	u64 ns[ARRAY_SIZE(bench_flows)];
	struct aqm_shadow *sh;
	size_t mem;
	u32 i;

	sh = aqm_kunit_shadow_new(test, BENCH_SHADOW, BENCH_SHADOW);
	mem = aqm_shadow_mem(sh);
	for (i = 0; i < ARRAY_SIZE(bench_flows); i++) {
		u32 n = bench_flows[i], run;

		aqm_shadow_reset(sh);
		ns[i] = bench_run(sh, bench_shadow_op, bench_ids(test, n), n);
		run = bench_longest_run(&sh->counts);
		kunit_info(test, "shadow (%u arrivals): %u flows: %llu ns/packet, %zu bytes, %u flows counted, longest probe run %u\n",
			   BENCH_SHADOW, n, ns[i], aqm_shadow_mem(sh),
			   sh->counts.count, run);
		KUNIT_EXPECT_EQ(test, aqm_shadow_mem(sh), mem);
		KUNIT_EXPECT_LE(test, sh->counts.count, BENCH_SHADOW);
		KUNIT_EXPECT_LE(test, run, sh->counts.mask / 2 + 1);
	}
	bench_report(test, "shadow", ns);
}

/* --- SFB's bins --------------------------------------------------------- */

static void bench_sfb_op(void *state, u32 id, u32 k)
{
	struct aqm_sfb *s = state;
	struct aqm_sfb_res res;

	aqm_sfb_tick(s, k);
	aqm_sfb_arrive(s, id, k, &res);
	aqm_sfb_warm(s, k, &res);
}

static void aqm_bench_sfb(struct kunit *test)
{
	u64 ns[ARRAY_SIZE(bench_flows)];
	struct aqm_sfb *s;
	size_t mem;
	u32 i;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_EQ(test, aqm_sfb_alloc(s, AQM_SFB_DEF_LEVELS,
					    AQM_SFB_DEF_BINS, 0), 0);
	/* warming all along: every arrival hashes into both sets */
	s->params.rehash_ns = 1000000000ULL;
	s->params.warmup_ns = s->params.rehash_ns;
	s->params.flags |= AQM_SFB_WARM_ALL;
	s->warming = true;
	mem = aqm_sfb_mem(s);
	for (i = 0; i < ARRAY_SIZE(bench_flows); i++) {
		u32 n = bench_flows[i];

		ns[i] = bench_run(s, bench_sfb_op, bench_ids(test, n), n);
		kunit_info(test, "sfb (%u x %u bins, 2 sets): %u flows: %llu ns/packet, %zu bytes\n",
			   s->levels, s->nbins, n, ns[i], aqm_sfb_mem(s));
		KUNIT_EXPECT_EQ(test, aqm_sfb_mem(s), mem);
	}
	bench_report(test, "sfb", ns);
	aqm_sfb_free(s);
}

static struct kunit_case aqm_bench_cases[] = {
	KUNIT_CASE_SLOW(aqm_bench_sb),
	KUNIT_CASE_SLOW(aqm_bench_hb),
	KUNIT_CASE_SLOW(aqm_bench_shadow),
	KUNIT_CASE_SLOW(aqm_bench_sfb),
	{}
};

static struct kunit_suite aqm_bench_suite = {
	.name = "aqm_bench",
	.test_cases = aqm_bench_cases,
};

kunit_test_suite(aqm_bench_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("linux-aqm: per-packet cost of the flow state against the number of flows");
