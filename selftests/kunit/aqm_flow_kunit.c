// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites for the flow ids and flow tables (include/net/aqm_flow.h).
 *
 * Table ids are chosen by their high bits, which pick the slot, so that
 * collisions, probe runs and the wrap-around at the end of a table happen
 * where the test wants them. The randomized cases compare the tables with
 * a plain array model after every operation (fixed seeds: reproducible).
 */
#include <kunit/test.h>
#include <linux/if_arp.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/prandom.h>
#include <linux/skbuff.h>
#include <linux/string.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <net/aqm_flow.h>
#include <net/net_namespace.h>

#include "aqm_kunit.h"

/* id whose home slot in @t is @home, @n in the low bits */
#define FID(t, home, n)		(((u32)(home) << (t)->shift) | (n))
/* scoreboard of 16 slots: the slot is the top 4 bits */
#define SB16(slot, n)		(((u32)(slot) << 28) | (n))
#define CLEAR_NS		1000000ULL

static void sb_free_action(void *p)
{
	aqm_sb_free(p);
}

static void ftab_free_action(void *p)
{
	aqm_ftab_free(p);
}

static void skb_free_action(void *p)
{
	kfree_skb(p);
}

static struct aqm_sb *sb_new(struct kunit *test, u32 size)
{
	struct aqm_sb *sb = kunit_kzalloc(test, sizeof(*sb), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, sb);
	KUNIT_ASSERT_EQ(test, aqm_sb_alloc(sb, size), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, sb_free_action,
							sb), 0);
	return sb;
}

static struct aqm_ftab *ftab_new_kind(struct kunit *test, u32 capacity,
				      bool stamped)
{
	struct aqm_ftab *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, aqm_ftab_alloc(t, capacity, stamped), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ftab_free_action,
							t), 0);
	return t;
}

/*
 * The ftab and decay cases run once on a table without time stamp (16-byte
 * slots, as the shadow buffer's counts) and once on one with (24-byte
 * slots, as DCN's HB): the parameter is @stamped.
 */
static const bool ftab_kinds[] = { false, true };

static void ftab_kind_desc(const bool *stamped, char *desc)
{
	strscpy(desc, *stamped ? "stamped" : "unstamped",
		KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ftab_kind, ftab_kinds, ftab_kind_desc);

/* a table of the kind of the case's parameter (none: without time stamp) */
static struct aqm_ftab *ftab_new(struct kunit *test, u32 capacity)
{
	const bool *stamped = test->param_value;

	return ftab_new_kind(test, capacity, stamped && *stamped);
}

/* ====================================================================== */
/* SB                                                                     */

static void aqm_sb_alloc_limits(struct kunit *test)
{
	struct aqm_sb *sb = kunit_kzalloc(test, sizeof(*sb), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, sb);
	KUNIT_EXPECT_EQ(test, aqm_sb_alloc(sb, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, aqm_sb_alloc(sb, AQM_SB_MAX + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, aqm_sb_alloc(sb, U32_MAX), -EINVAL);
	KUNIT_EXPECT_NULL(test, sb->tab);
	KUNIT_EXPECT_EQ(test, aqm_sb_mem(sb), 0);

	KUNIT_ASSERT_EQ(test, aqm_sb_alloc(sb, 1), 0);
	KUNIT_EXPECT_EQ(test, aqm_sb_mem(sb), 16);
	/* one slot: every flow shares it */
	KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, 1, 0, CLEAR_NS), 1);
	KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, U32_MAX, 0, CLEAR_NS), 1);
	KUNIT_EXPECT_EQ(test, sb->overwrites, 1);
	aqm_sb_free(sb);
	KUNIT_EXPECT_EQ(test, aqm_sb_mem(sb), 0);
	aqm_sb_free(sb);	/* twice is harmless */

	KUNIT_ASSERT_EQ(test, aqm_sb_alloc(sb, 1000), 0);
	KUNIT_EXPECT_EQ(test, aqm_sb_mem(sb), 16000);
	aqm_sb_free(sb);

	KUNIT_ASSERT_EQ(test, aqm_sb_alloc(sb, AQM_SB_MAX), 0);
	KUNIT_EXPECT_EQ(test, aqm_sb_mem(sb), (size_t)AQM_SB_MAX * 16);
	KUNIT_EXPECT_EQ(test, aqm_sb_mem(sb), (size_t)4 << 20);
	aqm_sb_free(sb);
}

/* The slot of an id comes from its high bits, for any table size. */
static void aqm_sb_index_high_bits(struct kunit *test)
{
	struct aqm_sb *sb = sb_new(test, 10);
	u32 s;

	for (s = 0; s < 10; s++) {
		/* smallest and largest id with floor(id * 10 / 2^32) == s */
		u32 lo = DIV_ROUND_UP_ULL((u64)s << 32, 10);
		u32 hi = DIV_ROUND_UP_ULL(((u64)s + 1) << 32, 10) - 1;

		KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, lo, 0, CLEAR_NS), 1);
		KUNIT_EXPECT_EQ(test, sb->tab[s].id, lo);
		KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, hi, 0, CLEAR_NS), 1);
		KUNIT_EXPECT_EQ(test, sb->tab[s].id, hi);
		KUNIT_EXPECT_EQ(test, sb->tab[s].count, 1);
	}
	KUNIT_EXPECT_EQ(test, sb->overwrites, 10);

	/* low bits do not matter: 16 slots, ids 0..15 all share slot 0 */
	sb = sb_new(test, 16);
	for (s = 0; s < 16; s++)
		aqm_sb_hit(sb, s, 0, CLEAR_NS);
	KUNIT_EXPECT_EQ(test, sb->overwrites, 15);
	KUNIT_EXPECT_EQ(test, sb->tab[0].id, 15);
	for (s = 1; s < 16; s++)
		KUNIT_EXPECT_EQ(test, sb->tab[s].count, 0);
}

/* DCN Figure 3: a count restarts after a silence longer than clear_ns. */
static void aqm_sb_clearing_interval(struct kunit *test)
{
	struct aqm_sb *sb = sb_new(test, 16);
	u32 a = SB16(5, 77);
	u64 t = 1000;

	KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, a, t, CLEAR_NS), 1);
	KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, a, t + 10, CLEAR_NS), 2);
	t += 10;
	/* a silence of exactly clear_ns: still counting */
	KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, a, t + CLEAR_NS, CLEAR_NS), 3);
	t += CLEAR_NS;
	KUNIT_EXPECT_EQ(test, sb->tab[5].last_ns, t);
	/* just under, many times: never cleared */
	KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, a, t + CLEAR_NS - 1, CLEAR_NS), 4);
	t += CLEAR_NS - 1;
	/* one ns more than clear_ns: starts again, this packet counts */
	KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, a, t + CLEAR_NS + 1, CLEAR_NS), 1);
	t += CLEAR_NS + 1;
	KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, a, t, CLEAR_NS), 2);
	/* hours of silence */
	t += 3600ULL * NSEC_PER_SEC;
	KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, a, t, CLEAR_NS), 1);
	/* a clock read slightly behind (another CPU) is not a silence */
	KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, a, t - 5, CLEAR_NS), 2);
	/* a clearing is not an overwrite */
	KUNIT_EXPECT_EQ(test, sb->overwrites, 0);
}

/* DCN footnote 1: a colliding flow overwrites the entry. */
static void aqm_sb_overwrite(struct kunit *test)
{
	struct aqm_sb *sb = sb_new(test, 16);
	u32 a = SB16(3, 1), b = SB16(3, 0xfffffff), c = SB16(4, 1);
	int i;

	for (i = 1; i <= 3; i++)
		KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, a, i, CLEAR_NS), i);
	KUNIT_EXPECT_EQ(test, sb->overwrites, 0);

	/* b takes slot 3 from a although a is recent */
	KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, b, 4, CLEAR_NS), 1);
	KUNIT_EXPECT_EQ(test, sb->overwrites, 1);
	KUNIT_EXPECT_EQ(test, sb->tab[3].id, b);
	KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, b, 5, CLEAR_NS), 2);

	/* a comes back: its old count is gone */
	KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, a, 6, CLEAR_NS), 1);
	KUNIT_EXPECT_EQ(test, sb->overwrites, 2);

	/* another slot is independent */
	KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, c, 7, CLEAR_NS), 1);
	KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, a, 8, CLEAR_NS), 2);
	KUNIT_EXPECT_EQ(test, sb->overwrites, 2);
	KUNIT_EXPECT_EQ(test, sb->tab[4].id, c);

	/* the count saturates instead of wrapping to 0 (empty) */
	sb->tab[4].count = U32_MAX - 1;
	KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, c, 9, CLEAR_NS), U32_MAX);
	KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, c, 10, CLEAR_NS), U32_MAX);

	/* reset empties every slot, keeps the statistic */
	aqm_sb_reset(sb);
	for (i = 0; i < 16; i++)
		KUNIT_EXPECT_EQ(test, sb->tab[i].count, 0);
	KUNIT_EXPECT_EQ(test, sb->overwrites, 2);
	KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, b, 11, CLEAR_NS), 1);
	KUNIT_EXPECT_EQ(test, sb->overwrites, 2);
}

/* After promotion to HB the flow leaves SB; nobody else's slot is freed. */
static void aqm_sb_forget_flow(struct kunit *test)
{
	struct aqm_sb *sb = sb_new(test, 16);
	u32 a = SB16(9, 5), b = SB16(9, 6);
	int i;

	for (i = 0; i < 5; i++)
		aqm_sb_hit(sb, a, i, CLEAR_NS);
	/* b shares the slot but does not hold it */
	aqm_sb_forget(sb, b);
	KUNIT_EXPECT_EQ(test, sb->tab[9].count, 5);
	KUNIT_EXPECT_EQ(test, sb->tab[9].id, a);

	aqm_sb_forget(sb, a);
	KUNIT_EXPECT_EQ(test, sb->tab[9].count, 0);
	aqm_sb_forget(sb, a);
	KUNIT_EXPECT_EQ(test, sb->tab[9].count, 0);

	/* the slot is empty: taking it is no overwrite, a starts from 1 */
	KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, b, 10, CLEAR_NS), 1);
	KUNIT_EXPECT_EQ(test, sb->overwrites, 0);
	aqm_sb_forget(sb, b);
	KUNIT_EXPECT_EQ(test, aqm_sb_hit(sb, a, 11, CLEAR_NS), 1);
	KUNIT_EXPECT_EQ(test, sb->overwrites, 0);
}

static struct kunit_case aqm_flow_sb_cases[] = {
	KUNIT_CASE(aqm_sb_alloc_limits),
	KUNIT_CASE(aqm_sb_index_high_bits),
	KUNIT_CASE(aqm_sb_clearing_interval),
	KUNIT_CASE(aqm_sb_overwrite),
	KUNIT_CASE(aqm_sb_forget_flow),
	{}
};

static struct kunit_suite aqm_flow_sb_suite = {
	.name = "aqm_flow_sb",
	.test_cases = aqm_flow_sb_cases,
};

/* ====================================================================== */
/* ftab                                                                   */

static bool slot_used(const struct aqm_ftab *t, u32 i)
{
	return aqm_ftab_slot(t, i)->stamp & AQM_FTAB_USED;
}

/* slot index of entry @e (a division: tests only) */
static int slot_of(const struct aqm_ftab *t, const struct aqm_ftab_entry *e)
{
	return e ? (int)(((const u8 *)e - (const u8 *)t->slots) / t->stride)
		 : -1;
}

/*
 * Table invariants: every slot between a flow's home and its slot is used
 * (so a probe reaches it), no id is present twice, count is right, an
 * empty slot is all zeros (time stamp included), and aqm_ftab_index()
 * finds every slot.
 */
static void ftab_check(struct kunit *test, const struct aqm_ftab *t)
{
	u32 i, j, used = 0;

	for (i = 0; i <= t->mask; i++) {
		const struct aqm_ftab_entry *e = aqm_ftab_slot(t, i);

		KUNIT_ASSERT_EQ(test, aqm_ftab_index(t, e), i);
		if (!slot_used(t, i)) {
			KUNIT_ASSERT_NULL_MSG(test, memchr_inv(e, 0, t->stride),
					      "empty slot %u not cleared", i);
			continue;
		}
		used++;
		for (j = aqm_ftab_home(t, e->id); j != i; j = (j + 1) & t->mask)
			KUNIT_ASSERT_TRUE_MSG(test, slot_used(t, j),
					      "id %#x in slot %u, hole at %u",
					      e->id, i, j);
		KUNIT_ASSERT_PTR_EQ(test, aqm_ftab_lookup(t, e->id), e);
	}
	KUNIT_ASSERT_EQ(test, used, t->count);
	KUNIT_ASSERT_LE(test, t->count, t->capacity);
	KUNIT_ASSERT_GE(test, t->hwm, t->count);
}

/* the entry of @id, which must be there */
static struct aqm_ftab_entry *lk(struct kunit *test, const struct aqm_ftab *t,
				 u32 id)
{
	struct aqm_ftab_entry *e = aqm_ftab_lookup(t, id);

	KUNIT_ASSERT_NOT_NULL_MSG(test, e, "id %#x", id);
	return e;
}

static struct aqm_ftab_entry *ins(struct kunit *test, struct aqm_ftab *t,
				  u32 id, s64 val)
{
	struct aqm_ftab_entry *e = aqm_ftab_insert(t, id);

	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_ASSERT_EQ(test, e->id, id);
	KUNIT_ASSERT_EQ(test, e->val, 0);
	e->val = val;
	return e;
}

static void aqm_ftab_alloc_limits(struct kunit *test)
{
	static const struct {
		u32 capacity, slots;
	} sizes[] = {
		{ 1, 2 }, { 2, 4 }, { 3, 8 }, { 8, 16 }, { 1000, 2048 },
		{ AQM_FTAB_MAX, 2 * AQM_FTAB_MAX },
	};
	struct aqm_ftab *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	int i, k;

	KUNIT_ASSERT_NOT_NULL(test, t);
	for (k = 0; k < 2; k++) {
		KUNIT_EXPECT_EQ(test, aqm_ftab_alloc(t, 0, k), -EINVAL);
		KUNIT_EXPECT_EQ(test, aqm_ftab_alloc(t, AQM_FTAB_MAX + 1, k),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, aqm_ftab_alloc(t, U32_MAX, k), -EINVAL);
	}
	KUNIT_EXPECT_NULL(test, t->slots);
	KUNIT_EXPECT_EQ(test, aqm_ftab_mem(t), 0);

	/* 16 bytes per slot, 24 with the time stamp */
	for (k = 0; k < 2; k++) {
		size_t per_slot = k ? 24 : 16;

		for (i = 0; i < ARRAY_SIZE(sizes); i++) {
			KUNIT_ASSERT_EQ(test, aqm_ftab_alloc(t, sizes[i].capacity,
							     k), 0);
			KUNIT_EXPECT_EQ(test, t->mask + 1, sizes[i].slots);
			KUNIT_EXPECT_EQ(test, 1ULL << (32 - t->shift),
					sizes[i].slots);
			KUNIT_EXPECT_EQ(test, t->stride, per_slot);
			KUNIT_EXPECT_EQ(test, aqm_ftab_stamped(t), k == 1);
			KUNIT_EXPECT_EQ(test, aqm_ftab_mem(t),
					(size_t)sizes[i].slots * per_slot);
			KUNIT_EXPECT_EQ(test, t->count, 0);
			KUNIT_EXPECT_EQ(test, t->capacity, sizes[i].capacity);
			aqm_ftab_free(t);
			KUNIT_EXPECT_EQ(test, aqm_ftab_mem(t), 0);
		}
	}
	/* the largest table is 2 MiB, 3 MiB with the time stamp */
	KUNIT_EXPECT_EQ(test, (size_t)2 * AQM_FTAB_MAX * 16, (size_t)2 << 20);
	KUNIT_EXPECT_EQ(test, (size_t)2 * AQM_FTAB_MAX * 24, (size_t)3 << 20);
	aqm_ftab_free(t);
}

/*
 * The size of a slot, and what a backward shift moves: in a table with a
 * time stamp the stamp goes with its entry, in one without the id and the
 * value do, and a neighbour that stays is not touched either way (a copy
 * or a clear of the wrong size would show in it, or in the slot left
 * empty, which ftab_check() wants all zeros).
 */
static void aqm_ftab_stride(struct kunit *test)
{
	int k;

	for (k = 0; k < 2; k++) {
		struct aqm_ftab *t = ftab_new_kind(test, 8, k);	/* 16 slots */
		u32 a = FID(t, 5, 1), b = FID(t, 5, 2), c = FID(t, 6, 1);
		u32 d = FID(t, 9, 1), x = FID(t, 10, 1);
		struct aqm_ftab_entry *e;

		KUNIT_EXPECT_EQ(test, aqm_ftab_mem(t),
				(size_t)16 * (k ? 24 : 16));
		KUNIT_EXPECT_EQ(test, aqm_ftab_stamped(t), k == 1);

		ins(test, t, a, 10);	/* 5 */
		ins(test, t, b, 20);	/* 6 */
		ins(test, t, c, 30);	/* 7 */
		ins(test, t, d, 40);	/* 9, at home */
		ins(test, t, x, 50);	/* 10, at home, right after d */
		if (k) {
			KUNIT_EXPECT_EQ(test, aqm_ftab_t(lk(test, t, a)), 0);
			aqm_ftab_set_t(lk(test, t, a), 1000);
			aqm_ftab_set_t(lk(test, t, b), 2000);
			aqm_ftab_set_t(lk(test, t, c), U64_MAX - 3);
			aqm_ftab_set_t(lk(test, t, d), 4000);
			aqm_ftab_set_t(lk(test, t, x), 5000);
		}
		ftab_check(test, t);

		/* b moves from 6 to 5, c from 7 to 6; 7 is left empty */
		aqm_ftab_delete(t, lk(test, t, a));
		e = aqm_ftab_slot(t, 5);
		KUNIT_EXPECT_EQ(test, e->id, b);
		KUNIT_EXPECT_EQ(test, e->val, 20);
		KUNIT_EXPECT_PTR_EQ(test, aqm_ftab_lookup(t, b), e);
		e = aqm_ftab_slot(t, 6);
		KUNIT_EXPECT_EQ(test, e->id, c);
		KUNIT_EXPECT_EQ(test, e->val, 30);
		KUNIT_EXPECT_PTR_EQ(test, aqm_ftab_lookup(t, c), e);
		KUNIT_EXPECT_FALSE(test, slot_used(t, 7));
		if (k) {
			KUNIT_EXPECT_EQ(test, aqm_ftab_t(aqm_ftab_slot(t, 5)),
					2000);
			KUNIT_EXPECT_EQ(test, aqm_ftab_t(aqm_ftab_slot(t, 6)),
					U64_MAX - 3);
		}
		ftab_check(test, t);

		/* d in 9 goes; x (home 10) stays in 10, untouched */
		aqm_ftab_delete(t, lk(test, t, d));
		e = aqm_ftab_slot(t, 10);
		KUNIT_EXPECT_EQ(test, e->id, x);
		KUNIT_EXPECT_EQ(test, e->val, 50);
		KUNIT_EXPECT_PTR_EQ(test, aqm_ftab_lookup(t, x), e);
		KUNIT_EXPECT_FALSE(test, slot_used(t, 9));
		if (k)
			KUNIT_EXPECT_EQ(test, aqm_ftab_t(e), 5000);
		ftab_check(test, t);

		/* a new flow in a slot left empty starts with time stamp 0 */
		e = ins(test, t, FID(t, 7, 2), 60);
		KUNIT_EXPECT_EQ(test, slot_of(t, e), 7);
		if (k)
			KUNIT_EXPECT_EQ(test, aqm_ftab_t(e), 0);
		KUNIT_EXPECT_EQ(test, t->count, 4);
		ftab_check(test, t);
	}
}

static void aqm_ftab_insert_lookup(struct kunit *test)
{
	struct aqm_ftab *t = ftab_new(test, 8);
	struct aqm_ftab_entry *e, *f;

	KUNIT_EXPECT_NULL(test, aqm_ftab_lookup(t, 0));
	KUNIT_EXPECT_NULL(test, aqm_ftab_lookup(t, 12345));

	/* id 0 is a valid id like any other */
	e = ins(test, t, 0, 7);
	KUNIT_EXPECT_EQ(test, slot_of(t, e), 0);
	f = ins(test, t, FID(t, 9, 3), -2);
	KUNIT_EXPECT_EQ(test, slot_of(t, f), 9);
	KUNIT_EXPECT_PTR_EQ(test, aqm_ftab_lookup(t, 0), e);
	KUNIT_EXPECT_PTR_EQ(test, aqm_ftab_lookup(t, FID(t, 9, 3)), f);
	KUNIT_EXPECT_EQ(test, lk(test, t, 0)->val, 7);
	KUNIT_EXPECT_EQ(test, f->stamp, AQM_FTAB_USED);	/* epoch 0 */
	KUNIT_EXPECT_NULL(test, aqm_ftab_lookup(t, FID(t, 9, 4)));
	KUNIT_EXPECT_EQ(test, t->count, 2);

	/* inserting a present id returns its entry, unchanged, no duplicate */
	KUNIT_EXPECT_PTR_EQ(test, aqm_ftab_insert(t, FID(t, 9, 3)), f);
	KUNIT_EXPECT_EQ(test, f->val, -2);
	KUNIT_EXPECT_EQ(test, t->count, 2);
	KUNIT_EXPECT_EQ(test, t->hwm, 2);
	ftab_check(test, t);

	aqm_ftab_delete(t, e);
	KUNIT_EXPECT_NULL(test, aqm_ftab_lookup(t, 0));
	KUNIT_EXPECT_PTR_EQ(test, aqm_ftab_lookup(t, FID(t, 9, 3)), f);
	KUNIT_EXPECT_EQ(test, t->count, 1);
	ftab_check(test, t);
}

/* Several ids in one home slot: a probe run, and a run that overlaps. */
static void aqm_ftab_collision(struct kunit *test)
{
	struct aqm_ftab *t = ftab_new(test, 8);
	int i;

	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, slot_of(t, ins(test, t, FID(t, 5, i), i)),
				5 + i);
	/* home 6 is taken by the run of home 5: goes after it */
	KUNIT_EXPECT_EQ(test, slot_of(t, ins(test, t, FID(t, 6, 0), 40)), 9);
	for (i = 0; i < 4; i++) {
		struct aqm_ftab_entry *e = aqm_ftab_lookup(t, FID(t, 5, i));

		KUNIT_EXPECT_EQ(test, slot_of(t, e), 5 + i);
		if (e)
			KUNIT_EXPECT_EQ(test, e->val, i);
	}
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, FID(t, 6, 0))), 9);
	/* absent ids whose probe crosses the run */
	KUNIT_EXPECT_NULL(test, aqm_ftab_lookup(t, FID(t, 5, 4)));
	KUNIT_EXPECT_NULL(test, aqm_ftab_lookup(t, FID(t, 7, 0)));
	KUNIT_EXPECT_NULL(test, aqm_ftab_lookup(t, FID(t, 10, 0)));
	KUNIT_EXPECT_EQ(test, t->count, 5);
	ftab_check(test, t);
}

/* Backward shift inside the table. */
static void aqm_ftab_delete_shift(struct kunit *test)
{
	struct aqm_ftab *t = ftab_new(test, 8);
	u32 a = FID(t, 5, 1), b = FID(t, 5, 2), c = FID(t, 7, 1);
	u32 d = FID(t, 7, 2), x = FID(t, 5, 3);

	ins(test, t, a, 1);	/* 5 */
	ins(test, t, b, 2);	/* 6 */
	ins(test, t, c, 3);	/* 7, at home */
	ins(test, t, d, 4);	/* 8 */
	ins(test, t, x, 5);	/* 9 */

	/* b moves back to 5; c stays home; d cannot pass c; x moves to 6 */
	aqm_ftab_delete(t, lk(test, t, a));
	KUNIT_EXPECT_NULL(test, aqm_ftab_lookup(t, a));
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, b)), 5);
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, x)), 6);
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, c)), 7);
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, d)), 8);
	KUNIT_EXPECT_FALSE(test, slot_used(t, 9));
	KUNIT_EXPECT_EQ(test, lk(test, t, x)->val, 5);
	KUNIT_EXPECT_EQ(test, lk(test, t, d)->val, 4);
	ftab_check(test, t);

	/* deleting c (at home) pulls d into its home */
	aqm_ftab_delete(t, lk(test, t, c));
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, d)), 7);
	KUNIT_EXPECT_FALSE(test, slot_used(t, 8));
	ftab_check(test, t);

	/* deleting the last of a run moves nothing */
	aqm_ftab_delete(t, lk(test, t, d));
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, b)), 5);
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, x)), 6);
	KUNIT_EXPECT_EQ(test, t->count, 2);
	KUNIT_EXPECT_EQ(test, t->hwm, 5);
	ftab_check(test, t);
}

/* Backward shift across the end of the table: slot 0 follows slot 15. */
static void aqm_ftab_delete_wrap(struct kunit *test)
{
	struct aqm_ftab *t = ftab_new(test, 8);
	u32 x[4], y = FID(t, 0, 9), z = FID(t, 15, 9);
	int i;

	for (i = 0; i < 4; i++)
		x[i] = FID(t, 14, i);
	for (i = 0; i < 4; i++)		/* 14, 15, 0, 1 */
		KUNIT_EXPECT_EQ(test, slot_of(t, ins(test, t, x[i], i)),
				(14 + i) & 15);
	KUNIT_EXPECT_EQ(test, slot_of(t, ins(test, t, y, 10)), 2);
	ftab_check(test, t);

	aqm_ftab_delete(t, lk(test, t, x[0]));
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, x[1])), 14);
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, x[2])), 15);
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, x[3])), 0);
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, y)), 1);
	KUNIT_EXPECT_FALSE(test, slot_used(t, 2));
	for (i = 1; i < 4; i++)
		KUNIT_EXPECT_EQ(test, lk(test, t, x[i])->val, i);
	ftab_check(test, t);

	/* z (home 15) goes after the run, in slot 2 */
	KUNIT_EXPECT_EQ(test, slot_of(t, ins(test, t, z, 20)), 2);
	/* deleting x[2] in 15: x[3] comes back over the end to 15, y reaches
	 * its home 0, z follows to 1
	 */
	aqm_ftab_delete(t, lk(test, t, x[2]));
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, x[3])), 15);
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, y)), 0);
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, z)), 1);
	KUNIT_EXPECT_FALSE(test, slot_used(t, 2));
	ftab_check(test, t);

	/* deleting y: z (home 15) moves to 0 */
	aqm_ftab_delete(t, lk(test, t, y));
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, z)), 0);
	KUNIT_EXPECT_FALSE(test, slot_used(t, 1));
	ftab_check(test, t);

	/* deleting x[3] in 15: z moves back over the end, from 0 to 15 */
	aqm_ftab_delete(t, lk(test, t, x[3]));
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, z)), 15);
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, x[1])), 14);
	KUNIT_EXPECT_EQ(test, lk(test, t, z)->val, 20);
	KUNIT_EXPECT_FALSE(test, slot_used(t, 0));
	KUNIT_EXPECT_EQ(test, t->count, 2);
	ftab_check(test, t);
}

static void aqm_ftab_full(struct kunit *test)
{
	struct aqm_ftab *t = ftab_new(test, 4);	/* 8 slots */
	u32 i;

	/* all four in one home slot, running over the end */
	for (i = 0; i < 4; i++)
		ins(test, t, FID(t, 6, i), 100 + i);
	KUNIT_EXPECT_EQ(test, t->count, 4);
	KUNIT_EXPECT_EQ(test, t->full, 0);

	KUNIT_EXPECT_NULL(test, aqm_ftab_insert(t, FID(t, 6, 4)));
	KUNIT_EXPECT_EQ(test, t->full, 1);
	KUNIT_EXPECT_NULL(test, aqm_ftab_insert(t, FID(t, 3, 0)));
	KUNIT_EXPECT_EQ(test, t->full, 2);
	KUNIT_EXPECT_EQ(test, t->count, 4);
	/* a present flow is still found, and its insert is no failure */
	for (i = 0; i < 4; i++) {
		struct aqm_ftab_entry *e = aqm_ftab_lookup(t, FID(t, 6, i));

		KUNIT_ASSERT_NOT_NULL(test, e);
		KUNIT_EXPECT_EQ(test, e->val, 100 + i);
		KUNIT_EXPECT_PTR_EQ(test, aqm_ftab_insert(t, FID(t, 6, i)), e);
	}
	KUNIT_EXPECT_EQ(test, t->full, 2);
	KUNIT_EXPECT_NULL(test, aqm_ftab_lookup(t, FID(t, 6, 4)));
	KUNIT_EXPECT_NULL(test, aqm_ftab_lookup(t, FID(t, 3, 0)));
	ftab_check(test, t);

	/* room again after a delete */
	aqm_ftab_delete(t, lk(test, t, FID(t, 6, 1)));
	ins(test, t, FID(t, 3, 0), 5);
	KUNIT_EXPECT_EQ(test, t->count, 4);
	KUNIT_EXPECT_NULL(test, aqm_ftab_insert(t, FID(t, 6, 1)));
	KUNIT_EXPECT_EQ(test, t->full, 3);
	ftab_check(test, t);

	/* reset empties the table and keeps the statistics */
	aqm_ftab_reset(t);
	KUNIT_EXPECT_EQ(test, t->count, 0);
	KUNIT_EXPECT_EQ(test, t->hwm, 4);
	KUNIT_EXPECT_EQ(test, t->full, 3);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_NULL(test, aqm_ftab_lookup(t, FID(t, 6, i)));
	for (i = 0; i <= t->mask; i++)
		KUNIT_EXPECT_FALSE(test, slot_used(t, i));

	/* capacity 1 */
	t = ftab_new(test, 1);
	ins(test, t, 42, 0);
	KUNIT_EXPECT_NULL(test, aqm_ftab_insert(t, 43));
	KUNIT_EXPECT_EQ(test, t->full, 1);
	KUNIT_EXPECT_NOT_NULL(test, aqm_ftab_lookup(t, 42));
}

static void aqm_ftab_hwm(struct kunit *test)
{
	struct aqm_ftab *t = ftab_new(test, 8);

	ins(test, t, FID(t, 1, 0), 0);
	ins(test, t, FID(t, 2, 0), 0);
	ins(test, t, FID(t, 3, 0), 0);
	KUNIT_EXPECT_EQ(test, t->hwm, 3);
	aqm_ftab_delete(t, lk(test, t, FID(t, 1, 0)));
	aqm_ftab_delete(t, lk(test, t, FID(t, 2, 0)));
	ins(test, t, FID(t, 4, 0), 0);
	KUNIT_EXPECT_EQ(test, t->count, 2);
	KUNIT_EXPECT_EQ(test, t->hwm, 3);
	ins(test, t, FID(t, 5, 0), 0);
	ins(test, t, FID(t, 6, 0), 0);
	KUNIT_EXPECT_EQ(test, t->count, 4);
	KUNIT_EXPECT_EQ(test, t->hwm, 4);
}

/*
 * One decay period for every flow, as DCN's Tdec: a tick, then sweeps
 * until the cursor went round (an examination that deletes does not move
 * it, so twice the slots is enough). Aging an entry twice in a period
 * subtracts once, so the result is the eager decay of each flow by @dec.
 */
static u32 decay(struct aqm_ftab *t, s64 dec)
{
	u32 gone = aqm_ftab_tick(t, dec, 1);

	return gone + aqm_ftab_sweep(t, dec, 2 * (t->mask + 1));
}

/*
 * Model check: 6000 random inserts, deletes, lookups and decays on ids
 * crowded near the end of the table, compared with a plain array.
 */
#define MODEL_CAP	48
#define MODEL_IDS	96

struct ftab_model {
	u32 id[MODEL_IDS];
	s64 val[MODEL_IDS];
	u64 t[MODEL_IDS];	/* the time stamp, in a table with one */
	bool in[MODEL_IDS];
	u32 count;
};

static void model_compare(struct kunit *test, const struct aqm_ftab *t,
			  const struct ftab_model *m, int op)
{
	int i;

	ftab_check(test, t);
	KUNIT_ASSERT_EQ_MSG(test, t->count, m->count, "op %d", op);
	for (i = 0; i < MODEL_IDS; i++) {
		const struct aqm_ftab_entry *e = aqm_ftab_lookup(t, m->id[i]);

		KUNIT_ASSERT_EQ_MSG(test, !!e, m->in[i], "op %d id %#x",
				    op, m->id[i]);
		if (e)
			KUNIT_ASSERT_EQ_MSG(test, e->val, m->val[i],
					    "op %d id %#x", op, m->id[i]);
		if (e && aqm_ftab_stamped(t))
			KUNIT_ASSERT_EQ_MSG(test, aqm_ftab_t(e), m->t[i],
					    "op %d id %#x", op, m->id[i]);
	}
}

static void aqm_ftab_model(struct kunit *test)
{
	struct aqm_ftab *t = ftab_new(test, MODEL_CAP);	/* 128 slots */
	struct ftab_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	struct rnd_state rnd;
	u64 full = 0;
	u32 deleted_total = 0;
	int op, i;

	KUNIT_ASSERT_NOT_NULL(test, m);
	prandom_seed_state(&rnd, 0x5eed0001);
	/* homes 118..127 and 0..5: long runs, many over the end */
	for (i = 0; i < MODEL_IDS; i++)
		m->id[i] = FID(t, (118 + i % 16) & t->mask, i);

	for (op = 0; op < 6000; op++) {
		/* out of 20: inserts, deletes, lookups, then decays; 1000
		 * operations that fill the table, then 1000 that drain it
		 */
		static const u32 mix[2][3] = { { 12, 14, 19 }, { 5, 11, 16 } };
		const u32 *lim = mix[(op / 1000) & 1];
		u32 r = prandom_u32_state(&rnd);
		u32 c = r % 20;
		int k = (r >> 8) % MODEL_IDS;
		struct aqm_ftab_entry *e;

		switch (c < lim[0] ? 0 : c < lim[1] ? 1 : c < lim[2] ? 2 : 3) {
		case 0:		/* insert */
			e = aqm_ftab_insert(t, m->id[k]);
			if (m->in[k]) {
				KUNIT_ASSERT_NOT_NULL(test, e);
				KUNIT_ASSERT_EQ(test, e->val, m->val[k]);
			} else if (m->count == MODEL_CAP) {
				KUNIT_ASSERT_NULL(test, e);
				full++;
			} else {
				KUNIT_ASSERT_NOT_NULL(test, e);
				KUNIT_ASSERT_EQ(test, e->val, 0);
				e->val = (r >> 20) % 64;
				m->val[k] = e->val;
				if (aqm_ftab_stamped(t)) {
					KUNIT_ASSERT_EQ(test, aqm_ftab_t(e), 0);
					m->t[k] = ((u64)r << 32) | op;
					aqm_ftab_set_t(e, m->t[k]);
				}
				m->in[k] = true;
				m->count++;
			}
			break;
		case 1:		/* delete */
			e = aqm_ftab_lookup(t, m->id[k]);
			KUNIT_ASSERT_EQ(test, !!e, m->in[k]);
			if (e) {
				aqm_ftab_delete(t, e);
				m->in[k] = false;
				m->count--;
			}
			break;
		case 2:		/* lookup and change the value */
			e = aqm_ftab_lookup(t, m->id[k]);
			KUNIT_ASSERT_EQ(test, !!e, m->in[k]);
			if (e) {
				e->val += 3;
				m->val[k] += 3;
				if (aqm_ftab_stamped(t)) {
					m->t[k] += op;
					aqm_ftab_set_t(e, m->t[k]);
				}
			}
			break;
		default: {	/* decay */
			s64 dec = (r >> 20) % 16;
			u32 want = 0;

			for (i = 0; i < MODEL_IDS; i++) {
				if (!m->in[i])
					continue;
				m->val[i] -= dec;
				if (m->val[i] < 0) {
					m->in[i] = false;
					m->count--;
					want++;
				}
			}
			KUNIT_ASSERT_EQ_MSG(test, decay(t, dec), want,
					    "op %d", op);
			deleted_total += want;
			break;
		}
		}
		model_compare(test, t, m, op);
	}
	kunit_info(test, "%llu inserts refused, %u flows decayed away\n",
		   full, deleted_total);
	KUNIT_EXPECT_EQ(test, t->full, full);
	/* the walk must have met full tables and decays that deleted */
	KUNIT_EXPECT_GT(test, full, 0);
	KUNIT_EXPECT_GT(test, deleted_total, 100);
	KUNIT_EXPECT_EQ(test, t->hwm, MODEL_CAP);
}

static struct kunit_case aqm_flow_ftab_cases[] = {
	KUNIT_CASE(aqm_ftab_alloc_limits),
	KUNIT_CASE(aqm_ftab_stride),
	KUNIT_CASE_PARAM(aqm_ftab_insert_lookup, ftab_kind_gen_params),
	KUNIT_CASE_PARAM(aqm_ftab_collision, ftab_kind_gen_params),
	KUNIT_CASE_PARAM(aqm_ftab_delete_shift, ftab_kind_gen_params),
	KUNIT_CASE_PARAM(aqm_ftab_delete_wrap, ftab_kind_gen_params),
	KUNIT_CASE_PARAM(aqm_ftab_full, ftab_kind_gen_params),
	KUNIT_CASE_PARAM(aqm_ftab_hwm, ftab_kind_gen_params),
	KUNIT_CASE_PARAM(aqm_ftab_model, ftab_kind_gen_params),
	{}
};

static struct kunit_suite aqm_flow_ftab_suite = {
	.name = "aqm_flow_ftab",
	.test_cases = aqm_flow_ftab_cases,
};

/* ====================================================================== */
/* decay (DCN section 3.2)                                                */

static void aqm_decay_basic(struct kunit *test)
{
	struct aqm_ftab *t = ftab_new(test, 8);
	u32 a = FID(t, 2, 0), b = FID(t, 2, 1), c = FID(t, 3, 0);
	u32 d = FID(t, 11, 0);

	KUNIT_EXPECT_EQ(test, decay(t, 5), 0);	/* empty */

	ins(test, t, a, 10);
	ins(test, t, b, 5);
	ins(test, t, c, 3);
	ins(test, t, d, 0);
	/* pktcount - pref: 6, 1, -1, -4: the negative ones leave HB */
	KUNIT_EXPECT_EQ(test, decay(t, 4), 2);
	KUNIT_EXPECT_EQ(test, t->count, 2);
	KUNIT_EXPECT_EQ(test, lk(test, t, a)->val, 6);
	KUNIT_EXPECT_EQ(test, lk(test, t, b)->val, 1);
	KUNIT_EXPECT_NULL(test, aqm_ftab_lookup(t, c));
	KUNIT_EXPECT_NULL(test, aqm_ftab_lookup(t, d));
	ftab_check(test, t);

	/* zero is not negative: b stays at 0 */
	KUNIT_EXPECT_EQ(test, decay(t, 1), 0);
	KUNIT_EXPECT_EQ(test, lk(test, t, b)->val, 0);
	KUNIT_EXPECT_EQ(test, decay(t, 0), 0);
	KUNIT_EXPECT_EQ(test, decay(t, 1), 1);
	KUNIT_EXPECT_EQ(test, lk(test, t, a)->val, 4);
	KUNIT_EXPECT_NULL(test, aqm_ftab_lookup(t, b));

	/* saturating: no wrap-around of s64 */
	lk(test, t, a)->val = S64_MAX;
	KUNIT_EXPECT_EQ(test, decay(t, -1), 0);
	KUNIT_EXPECT_EQ(test, lk(test, t, a)->val, S64_MAX);
	KUNIT_EXPECT_EQ(test, decay(t, S64_MAX), 0);
	KUNIT_EXPECT_EQ(test, lk(test, t, a)->val, 0);
	lk(test, t, a)->val = S64_MIN + 1;
	KUNIT_EXPECT_EQ(test, decay(t, S64_MAX), 1);
	KUNIT_EXPECT_EQ(test, t->count, 0);
}

/*
 * A run over the end of the table in which deletions pull entries from
 * slots 0.. back into 14 and 15. A walk from slot 0 to 15 would decrement
 * them twice. Each survivor must go down by exactly dec.
 */
static void aqm_decay_wrap(struct kunit *test)
{
	struct aqm_ftab *t = ftab_new(test, 8);
	u32 a = FID(t, 13, 0), b = FID(t, 13, 1), c = FID(t, 13, 2);
	u32 d = FID(t, 13, 3), e = FID(t, 14, 0), f = FID(t, 0, 0);
	u32 g = FID(t, 1, 0);

	KUNIT_EXPECT_EQ(test, slot_of(t, ins(test, t, a, 0)), 13);
	KUNIT_EXPECT_EQ(test, slot_of(t, ins(test, t, b, 10)), 14);
	KUNIT_EXPECT_EQ(test, slot_of(t, ins(test, t, c, 0)), 15);
	KUNIT_EXPECT_EQ(test, slot_of(t, ins(test, t, d, 20)), 0);
	KUNIT_EXPECT_EQ(test, slot_of(t, ins(test, t, e, 30)), 1);
	KUNIT_EXPECT_EQ(test, slot_of(t, ins(test, t, f, 40)), 2);
	KUNIT_EXPECT_EQ(test, slot_of(t, ins(test, t, g, 50)), 3);

	KUNIT_EXPECT_EQ(test, decay(t, 1), 2);
	KUNIT_EXPECT_NULL(test, aqm_ftab_lookup(t, a));
	KUNIT_EXPECT_NULL(test, aqm_ftab_lookup(t, c));
	KUNIT_EXPECT_EQ(test, lk(test, t, b)->val, 9);
	KUNIT_EXPECT_EQ(test, lk(test, t, d)->val, 19);
	KUNIT_EXPECT_EQ(test, lk(test, t, e)->val, 29);
	KUNIT_EXPECT_EQ(test, lk(test, t, f)->val, 39);
	KUNIT_EXPECT_EQ(test, lk(test, t, g)->val, 49);
	/* where the backward shifts put them */
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, b)), 13);
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, d)), 14);
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, e)), 15);
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, f)), 0);
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, g)), 1);
	KUNIT_EXPECT_EQ(test, t->count, 5);
	ftab_check(test, t);

	/* the same again from the new layout */
	KUNIT_EXPECT_EQ(test, decay(t, 9), 0);
	KUNIT_EXPECT_EQ(test, lk(test, t, b)->val, 0);
	KUNIT_EXPECT_EQ(test, lk(test, t, d)->val, 10);
	KUNIT_EXPECT_EQ(test, lk(test, t, g)->val, 40);
	KUNIT_EXPECT_EQ(test, decay(t, 11), 2);
	KUNIT_EXPECT_EQ(test, lk(test, t, e)->val, 9);
	KUNIT_EXPECT_EQ(test, lk(test, t, f)->val, 19);
	KUNIT_EXPECT_EQ(test, lk(test, t, g)->val, 29);
	ftab_check(test, t);
}

/* A full table (capacity 8 in 16 slots) in which everything goes. */
static void aqm_decay_all(struct kunit *test)
{
	struct aqm_ftab *t = ftab_new(test, 8);
	u32 i;

	for (i = 0; i < 8; i++)
		ins(test, t, FID(t, 12 + (i & 3), i), i);
	KUNIT_EXPECT_EQ(test, decay(t, 4), 4);
	for (i = 0; i < 8; i++) {
		u32 id = FID(t, 12 + (i & 3), i);
		struct aqm_ftab_entry *e = aqm_ftab_lookup(t, id);

		KUNIT_EXPECT_EQ(test, !!e, i >= 4);
		if (e)
			KUNIT_EXPECT_EQ(test, e->val, (s64)i - 4);
	}
	ftab_check(test, t);
	KUNIT_EXPECT_EQ(test, decay(t, 100), 4);
	KUNIT_EXPECT_EQ(test, t->count, 0);
	for (i = 0; i <= t->mask; i++)
		KUNIT_EXPECT_FALSE(test, slot_used(t, i));
}

/* Lazy aging: a flow owes dec for every period since it was last aged. */
static void aqm_decay_age(struct kunit *test)
{
	struct aqm_ftab *t = ftab_new(test, 8);
	struct aqm_ftab_entry *e;

	e = ins(test, t, FID(t, 5, 0), 100);
	t->epoch += 3;			/* three periods, nobody swept */
	KUNIT_EXPECT_FALSE(test, aqm_ftab_age(t, e, 7));
	KUNIT_EXPECT_EQ(test, e->val, 100 - 3 * 7);
	KUNIT_EXPECT_EQ(test, e->stamp, AQM_FTAB_USED | 3);
	/* the same period again: nothing more */
	KUNIT_EXPECT_FALSE(test, aqm_ftab_age(t, e, 7));
	KUNIT_EXPECT_EQ(test, e->val, 79);
	/* a flow inserted now owes nothing for the past */
	KUNIT_EXPECT_EQ(test, ins(test, t, FID(t, 9, 0), 1)->stamp,
			AQM_FTAB_USED | 3);
	/* 12 periods of 7 take 79 to -5: expired, still in the table */
	t->epoch += 12;
	e = lk(test, t, FID(t, 5, 0));
	KUNIT_EXPECT_TRUE(test, aqm_ftab_age(t, e, 7));
	KUNIT_EXPECT_EQ(test, e->val, -5);
	KUNIT_EXPECT_EQ(test, t->count, 2);
	/* saturating: a huge dec times many periods does not wrap */
	e = lk(test, t, FID(t, 9, 0));
	t->epoch += 1000;
	KUNIT_EXPECT_TRUE(test, aqm_ftab_age(t, e, S64_MAX / 3));
	KUNIT_EXPECT_EQ(test, e->val, S64_MIN);
}

/* The 31-bit epoch of an entry survives the wrap of the table's epoch. */
static void aqm_decay_epoch_wrap(struct kunit *test)
{
	struct aqm_ftab *t = ftab_new(test, 8);
	struct aqm_ftab_entry *e;

	t->epoch = BIT_ULL(31) - 2;
	e = ins(test, t, FID(t, 1, 0), 50);
	KUNIT_EXPECT_EQ(test, e->stamp, AQM_FTAB_USED | (BIT(31) - 2));
	t->epoch += 5;			/* low 31 bits are 3 */
	KUNIT_EXPECT_FALSE(test, aqm_ftab_age(t, e, 10));
	KUNIT_EXPECT_EQ(test, e->val, 0);
	KUNIT_EXPECT_EQ(test, e->stamp, AQM_FTAB_USED | 3);
}

/*
 * The sweep examines exactly n slots from its cursor, round the table,
 * and deletes the flows that expired, including one the backward shift
 * of a deletion moves into the cursor's slot.
 */
static void aqm_decay_sweep(struct kunit *test)
{
	struct aqm_ftab *t = ftab_new(test, 8);	/* 16 slots */
	u32 a = FID(t, 3, 0), b = FID(t, 3, 1), c = FID(t, 3, 2);
	u32 d = FID(t, 12, 0);

	/* an empty table: nothing to do, nothing examined */
	KUNIT_EXPECT_EQ(test, aqm_ftab_sweep(t, 1, 8), 0);
	KUNIT_EXPECT_EQ(test, t->swept, 0);
	KUNIT_EXPECT_EQ(test, t->cursor, 0);

	ins(test, t, a, 0);		/* slot 3 */
	ins(test, t, b, 0);		/* slot 4 */
	ins(test, t, c, 9);		/* slot 5 */
	ins(test, t, d, 0);		/* slot 12 */
	t->epoch++;
	/* slots 0, 1, 2 are empty; in 3, a expires, b and c shift back */
	KUNIT_EXPECT_EQ(test, aqm_ftab_sweep(t, 1, 4), 1);
	KUNIT_EXPECT_EQ(test, t->cursor, 3);
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, b)), 3);
	/* the cursor stayed: b, now in 3, expires, c shifts into 3 */
	KUNIT_EXPECT_EQ(test, aqm_ftab_sweep(t, 1, 1), 1);
	KUNIT_EXPECT_EQ(test, t->cursor, 3);
	KUNIT_EXPECT_EQ(test, slot_of(t, aqm_ftab_lookup(t, c)), 3);
	/* c: 9 - 1 stays */
	KUNIT_EXPECT_EQ(test, aqm_ftab_sweep(t, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, t->cursor, 4);
	KUNIT_EXPECT_EQ(test, lk(test, t, c)->val, 8);
	KUNIT_EXPECT_EQ(test, t->swept, 6);
	ftab_check(test, t);
	/* slots 4..11 hold nothing; in 12, d expires */
	KUNIT_EXPECT_EQ(test, aqm_ftab_sweep(t, 1, 9), 1);
	KUNIT_EXPECT_EQ(test, t->cursor, 12);
	/* 12..15, 0..3 and round the end */
	KUNIT_EXPECT_EQ(test, aqm_ftab_sweep(t, 1, 8), 0);
	KUNIT_EXPECT_EQ(test, t->cursor, 4);
	KUNIT_EXPECT_EQ(test, t->swept, 23);
	KUNIT_EXPECT_EQ(test, t->count, 1);
	/* c was aged once in this period */
	KUNIT_EXPECT_EQ(test, lk(test, t, c)->val, 8);
}

static struct kunit_case aqm_flow_decay_cases[] = {
	KUNIT_CASE_PARAM(aqm_decay_basic, ftab_kind_gen_params),
	KUNIT_CASE_PARAM(aqm_decay_wrap, ftab_kind_gen_params),
	KUNIT_CASE_PARAM(aqm_decay_all, ftab_kind_gen_params),
	KUNIT_CASE_PARAM(aqm_decay_age, ftab_kind_gen_params),
	KUNIT_CASE_PARAM(aqm_decay_epoch_wrap, ftab_kind_gen_params),
	KUNIT_CASE_PARAM(aqm_decay_sweep, ftab_kind_gen_params),
	{}
};

static struct kunit_suite aqm_flow_decay_suite = {
	.name = "aqm_flow_decay",
	.test_cases = aqm_flow_decay_cases,
};

/* ====================================================================== */
/* shadow buffer (AFD)                                                    */

/* ring slot @i holds the arrival (@id, @w) */
static void ring_is(struct kunit *test, const struct aqm_shadow *sh, u32 i,
		    u32 id, u32 w)
{
	KUNIT_EXPECT_EQ_MSG(test, sh->ring[i].id, id, "ring slot %u", i);
	KUNIT_EXPECT_EQ_MSG(test, sh->ring[i].w, w, "ring slot %u", i);
}

static void aqm_shadow_alloc_limits(struct kunit *test)
{
	struct aqm_shadow *sh = kunit_kzalloc(test, sizeof(*sh), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, sh);
	KUNIT_EXPECT_EQ(test, aqm_shadow_alloc(sh, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, aqm_shadow_alloc(sh, 0, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, aqm_shadow_alloc(sh, AQM_SHADOW_MAX + 1, 1),
			-EINVAL);
	/* flows 0 (the qdisc turns its "0 = b" into b) and flows > b */
	KUNIT_EXPECT_EQ(test, aqm_shadow_alloc(sh, 4, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, aqm_shadow_alloc(sh, 4, 5), -EINVAL);
	KUNIT_EXPECT_EQ(test, aqm_shadow_alloc(sh, 1, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, aqm_shadow_alloc(sh, AQM_SHADOW_MAX,
					       AQM_SHADOW_MAX + 1), -EINVAL);
	/* a refusal writes nothing */
	KUNIT_EXPECT_NULL(test, sh->ring);
	KUNIT_EXPECT_NULL(test, sh->counts.slots);
	KUNIT_EXPECT_EQ(test, aqm_shadow_mem(sh), 0);

	/* 4 ring slots of 8 bytes + roundup_pow_of_two(2 * 4) = 8 slots of
	 * 16 bytes: the counts have no time stamp
	 */
	KUNIT_ASSERT_EQ(test, aqm_shadow_alloc(sh, 4, 4), 0);
	KUNIT_EXPECT_EQ(test, aqm_shadow_mem(sh), 4 * 8 + 8 * 16);
	KUNIT_EXPECT_FALSE(test, aqm_ftab_stamped(&sh->counts));
	KUNIT_EXPECT_EQ(test, sh->counts.stride, 16);
	KUNIT_EXPECT_EQ(test, sh->counts.capacity, 4);
	KUNIT_EXPECT_EQ(test, sh->size, 4);
	KUNIT_EXPECT_EQ(test, sh->len, 0);
	KUNIT_EXPECT_EQ(test, sh->total, 0);
	aqm_shadow_free(sh);
	KUNIT_EXPECT_EQ(test, aqm_shadow_mem(sh), 0);
	aqm_shadow_free(sh);

	/* flows < b: the table shrinks, the ring does not (2 * 3 -> 8) */
	KUNIT_ASSERT_EQ(test, aqm_shadow_alloc(sh, 4, 3), 0);
	KUNIT_EXPECT_EQ(test, aqm_shadow_mem(sh), 4 * 8 + 8 * 16);
	KUNIT_EXPECT_EQ(test, sh->counts.capacity, 3);
	aqm_shadow_free(sh);
	KUNIT_ASSERT_EQ(test, aqm_shadow_alloc(sh, 4, 1), 0);
	KUNIT_EXPECT_EQ(test, aqm_shadow_mem(sh), 4 * 8 + 2 * 16);
	aqm_shadow_free(sh);
	KUNIT_ASSERT_EQ(test, aqm_shadow_alloc(sh, 1000, 3), 0);
	KUNIT_EXPECT_EQ(test, aqm_shadow_mem(sh), 1000 * 8 + 8 * 16);
	aqm_shadow_free(sh);

	/* afd's default, shadow 1000 flows 0: 8000 + 2048 * 16 */
	KUNIT_ASSERT_EQ(test, aqm_shadow_alloc(sh, 1000, 1000), 0);
	KUNIT_EXPECT_EQ(test, aqm_shadow_mem(sh), 40768);
	aqm_shadow_free(sh);

	KUNIT_ASSERT_EQ(test, aqm_shadow_alloc(sh, AQM_SHADOW_MAX,
					       AQM_SHADOW_MAX), 0);
	KUNIT_EXPECT_EQ(test, aqm_shadow_mem(sh),
			(size_t)AQM_SHADOW_MAX * 8 +
			(size_t)2 * AQM_SHADOW_MAX * 16);
	KUNIT_EXPECT_EQ(test, aqm_shadow_mem(sh), (size_t)(512 + 2048) << 10);
	aqm_shadow_free(sh);
}

/* m_i counts packets (weight 1), and the oldest arrival leaves first. */
static void aqm_shadow_eviction(struct kunit *test)
{
	struct aqm_shadow *sh = aqm_kunit_shadow_new(test, 4, 4);
	/* all in one home slot of the counts table */
	u32 a = 0x10000001, b = 0x10000002, c = 0x10000003, d = 0x10000004;

	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, a), 0);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, a, 1), 1);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, a, 1), 2);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, b, 1), 1);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, a, 1), 3);	/* a a b a */
	KUNIT_EXPECT_EQ(test, sh->len, 4);
	KUNIT_EXPECT_EQ(test, sh->total, 4);

	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, c, 1), 1);	/* a b a c */
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, a), 2);
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, b), 1);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, c, 1), 2);	/* b a c c */
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, a), 1);
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, b), 1);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, c, 1), 3);	/* a c c c */
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, b), 0);
	KUNIT_EXPECT_NULL(test, aqm_ftab_lookup(&sh->counts, b));
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, d, 1), 1);	/* c c c d */
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, a), 0);
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, c), 3);
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, d), 1);
	KUNIT_EXPECT_EQ(test, sh->counts.count, 2);
	KUNIT_EXPECT_EQ(test, sh->len, 4);
	KUNIT_EXPECT_EQ(test, sh->total, 4);
	/* 8 arrivals: the ring went round twice, slot 3 holds d */
	KUNIT_EXPECT_EQ(test, sh->head, 0);
	ring_is(test, sh, 3, d, 1);

	/* a flow evicting its own oldest arrival keeps its count */
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, c, 1), 3);	/* c c d c */
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, d, 1), 2);	/* c d c d */
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, c), 2);

	aqm_shadow_reset(sh);
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, c), 0);
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, d), 0);
	KUNIT_EXPECT_EQ(test, sh->counts.count, 0);
	KUNIT_EXPECT_EQ(test, sh->len, 0);
	KUNIT_EXPECT_EQ(test, sh->total, 0);
	/* after reset nothing is evicted until the ring is full again */
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, a, 1), 1);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, b, 1), 1);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, c, 1), 1);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, d, 1), 1);
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, a), 1);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, d, 1), 2);	/* b c d d */
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, a), 0);
	KUNIT_EXPECT_EQ(test, sh->total, 4);

	/* b = 1 */
	sh = aqm_kunit_shadow_new(test, 1, 1);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, a, 1), 1);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, a, 1), 1);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, b, 1), 1);
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, a), 0);
	KUNIT_EXPECT_EQ(test, sh->counts.count, 1);
	KUNIT_EXPECT_EQ(test, sh->total, 1);
}

/*
 * Weights: m_i and the total are sums of weights (segments or bytes), and
 * an evicted arrival takes exactly its own weight away.
 */
static void aqm_shadow_weights(struct kunit *test)
{
	struct aqm_shadow *sh = aqm_kunit_shadow_new(test, 4, 4);
	u32 a = 0x20000001, b = 0x20000002, c = 0x20000003, d = 0x20000004;

	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, a, 3), 3);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, b, 5), 5);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, a, 2), 5);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, c, 7), 7);	/* a3 b5 a2 c7 */
	KUNIT_EXPECT_EQ(test, sh->total, 17);
	ring_is(test, sh, 0, a, 3);
	ring_is(test, sh, 2, a, 2);

	/* a3 leaves: a keeps its later 2 */
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, b, 1), 6);	/* b5 a2 c7 b1 */
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, a), 2);
	KUNIT_EXPECT_EQ(test, sh->total, 15);
	ring_is(test, sh, 0, b, 1);
	/* b5 leaves */
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, a, 10), 12);	/* a2 c7 b1 a10 */
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, b), 1);
	KUNIT_EXPECT_EQ(test, sh->total, 20);
	/* a2 leaves, then c7: c leaves the table with its only arrival */
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, d, 1), 1);	/* c7 b1 a10 d1 */
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, a), 10);
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, c), 7);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, d, 100), 101);	/* b1 a10 d1 d100 */
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, c), 0);
	KUNIT_EXPECT_NULL(test, aqm_ftab_lookup(&sh->counts, c));
	KUNIT_EXPECT_EQ(test, sh->counts.count, 3);
	KUNIT_EXPECT_EQ(test, sh->total, 112);
	/* the arrival weighed 100, so m_i grew by 100, not by one packet */
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, d, 1), 102);	/* a10 d1 d100 d1 */
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, b), 0);
	KUNIT_EXPECT_EQ(test, sh->total, 112);
	ftab_check(test, &sh->counts);

	/* weights near U32_MAX: the total and m_i go past 32 bits exactly */
	aqm_shadow_reset(sh);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, a, U32_MAX), (u64)U32_MAX);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, a, U32_MAX), 2ULL * U32_MAX);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, b, U32_MAX), (u64)U32_MAX);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, a, U32_MAX), 3ULL * U32_MAX);
	KUNIT_EXPECT_EQ(test, sh->total, 4ULL * U32_MAX);
	/* a U32_MAX arrival leaves, a weight of 1 comes in */
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, b, 1), (u64)U32_MAX + 1);
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, a), 2ULL * U32_MAX);
	KUNIT_EXPECT_EQ(test, sh->total, 3ULL * U32_MAX + 1);
}

/*
 * flows < b: a sampled arrival of a new flow while the table is full keeps
 * its place in the ring (the window stays b arrivals long) but is counted
 * for nobody, and its eviction later changes no count, even when its flow
 * has been admitted in the meantime.
 */
static void aqm_shadow_flows_full(struct kunit *test)
{
	struct aqm_shadow *sh = aqm_kunit_shadow_new(test, 4, 1);
	u32 a = 0x30000001, c = 0x30000003;

	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, a, 1), 1);
	/* c: the table holds a, its capacity */
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, c, 2), 0);
	KUNIT_EXPECT_EQ(test, sh->counts.full, 1);
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, c), 0);
	KUNIT_EXPECT_NULL(test, aqm_ftab_lookup(&sh->counts, c));
	KUNIT_EXPECT_EQ(test, sh->len, 2);
	KUNIT_EXPECT_EQ(test, sh->total, 1);
	ring_is(test, sh, 1, c, 0);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, c, 3), 0);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, c, 4), 0);	/* a1 c0 c0 c0 */
	KUNIT_EXPECT_EQ(test, sh->counts.full, 3);
	KUNIT_EXPECT_EQ(test, sh->len, 4);
	KUNIT_EXPECT_EQ(test, sh->total, 1);
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, a), 1);

	/* a's only arrival leaves, so c finds room */
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, c, 5), 5);	/* c0 c0 c0 c5 */
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, a), 0);
	KUNIT_EXPECT_EQ(test, sh->counts.count, 1);
	KUNIT_EXPECT_EQ(test, sh->counts.full, 3);
	KUNIT_EXPECT_EQ(test, sh->total, 5);
	/* the uncounted c arrivals leave: c's count is untouched */
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, c, 1), 6);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, c, 1), 7);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, c, 1), 8);	/* c5 c1 c1 c1 */
	KUNIT_EXPECT_EQ(test, sh->total, 8);
	KUNIT_EXPECT_EQ(test, sh->len, 4);

	/* c5 leaves; a is new and the table is full (c) again */
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, a, 9), 0);	/* c1 c1 c1 a0 */
	KUNIT_EXPECT_EQ(test, aqm_shadow_count(sh, c), 3);
	KUNIT_EXPECT_EQ(test, sh->counts.full, 4);
	KUNIT_EXPECT_EQ(test, sh->total, 3);
	KUNIT_EXPECT_EQ(test, sh->counts.hwm, 1);
	ftab_check(test, &sh->counts);

	/* reset keeps the cumulative full, as for the ftab */
	aqm_shadow_reset(sh);
	KUNIT_EXPECT_EQ(test, sh->counts.full, 4);
	KUNIT_EXPECT_EQ(test, aqm_shadow_add(sh, a, 9), 9);
}

/*
 * Model check: arrivals of 40 flows (crowded in the counts table) into a
 * buffer of 16, with weights from 1 to about 2^20 when @weighted; every m_i,
 * the total, the flows counted and the refusals equal a recount of the last
 * 16 arrivals, in which an arrival of a new flow is counted only while
 * fewer than @flows flows are.
 */
static void shadow_model(struct kunit *test, u32 flows, bool weighted,
			 u32 seed)
{
	struct aqm_shadow *sh = aqm_kunit_shadow_new(test, 16, flows);
	u32 hist_id[16], hist_w[16], ids[40], shift = sh->counts.shift;
	u64 full = 0;
	struct rnd_state rnd;
	int n, i, j;

	prandom_seed_state(&rnd, seed);
	/* homes in the last 4 slots of the counts table, which wraps */
	for (i = 0; i < 40; i++)
		ids[i] = (((sh->counts.mask - 3 + i % 4) & sh->counts.mask)
			  << shift) | i;

	for (n = 0; n < 3000; n++) {
		u32 r = prandom_u32_state(&rnd);
		/* flow i with weight ~ 1/(i+1): a few heavy hitters */
		u32 id = ids[(r % 40) * (r % 40) / 40];
		u32 w = weighted ? 1 + (prandom_u32_state(&rnd) >> 12) : 1;
		u32 wm = w;	/* its weight in the model: 0 if refused */
		u64 m_id = 0, total = 0, got;
		u32 counted = 0;

		/* the model: drop the oldest, then admit or not */
		if (n >= 16)
			hist_w[n % 16] = 0;
		for (j = 0; j < 16 && j < n; j++)
			if (hist_id[j] == id)
				m_id += hist_w[j];
		for (i = 0; i < 40; i++) {
			u64 m = 0;

			for (j = 0; j < 16 && j < n; j++)
				m += hist_id[j] == ids[i] ? hist_w[j] : 0;
			counted += m > 0;
		}
		if (!m_id && counted == flows) {
			wm = 0;
			full++;
		}
		hist_id[n % 16] = id;
		hist_w[n % 16] = wm;

		got = aqm_shadow_add(sh, id, w);

		counted = 0;
		for (i = 0; i < 40; i++) {
			u64 m = 0;

			for (j = 0; j < 16 && j <= n; j++)
				m += hist_id[j] == ids[i] ? hist_w[j] : 0;
			counted += m > 0;
			total += m;
			if (ids[i] == id)
				KUNIT_ASSERT_EQ_MSG(test, got, m, "arrival %d", n);
			KUNIT_ASSERT_EQ_MSG(test, aqm_shadow_count(sh, ids[i]),
					    m, "arrival %d flow %d", n, i);
		}
		KUNIT_ASSERT_EQ_MSG(test, sh->total, total, "arrival %d", n);
		KUNIT_ASSERT_EQ(test, sh->counts.count, counted);
		KUNIT_ASSERT_EQ(test, sh->counts.full, full);
		KUNIT_ASSERT_EQ(test, sh->len, min(n + 1, 16));
	}
	ftab_check(test, &sh->counts);
	KUNIT_EXPECT_LE(test, sh->counts.hwm, flows);
	/* the sequence does reach the limit when there is one */
	if (flows < 16)
		KUNIT_EXPECT_GT(test, full, 0);
}

/* flows = b: the counts table never refuses a flow */
static void aqm_shadow_model(struct kunit *test)
{
	shadow_model(test, 16, false, 0x5eed0002);
	shadow_model(test, 16, true, 0x5eed0003);
}

/* flows < b, packets and weights: the model counts the refusals too */
static void aqm_shadow_model_flows(struct kunit *test)
{
	shadow_model(test, 5, false, 0x5eed0004);
	shadow_model(test, 5, true, 0x5eed0005);
	shadow_model(test, 1, true, 0x5eed0006);
}

static struct kunit_case aqm_flow_shadow_cases[] = {
	KUNIT_CASE(aqm_shadow_alloc_limits),
	KUNIT_CASE(aqm_shadow_eviction),
	KUNIT_CASE(aqm_shadow_weights),
	KUNIT_CASE(aqm_shadow_flows_full),
	KUNIT_CASE(aqm_shadow_model),
	KUNIT_CASE(aqm_shadow_model_flows),
	{}
};

static struct kunit_suite aqm_flow_shadow_suite = {
	.name = "aqm_flow_shadow",
	.test_cases = aqm_flow_shadow_cases,
};

/* ====================================================================== */
/* keyed flow ids from real packets                                       */

static const siphash_key_t key1 = {
	{ 0x0123456789abcdefULL, 0xfedcba9876543210ULL }
};

static const siphash_key_t key2 = {
	{ 0x0f1e2d3c4b5a6978ULL, 0x8796a5b4c3d2e1f0ULL }
};

static struct sk_buff *skb_new(struct kunit *test, __be16 proto)
{
	struct sk_buff *skb = alloc_skb(256, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, skb_free_action,
							skb), 0);
	skb_reserve(skb, 64);
	skb_reset_network_header(skb);
	skb->protocol = proto;
	skb->dev = init_net.loopback_dev;
	return skb;
}

/* the ports sit in the first 4 bytes of both TCP and UDP headers */
static void put_l4(struct sk_buff *skb, u8 proto, u16 sport, u16 dport)
{
	skb_set_transport_header(skb, skb->len);
	if (proto == IPPROTO_TCP) {
		struct tcphdr *th = skb_put_zero(skb, sizeof(*th));

		th->source = htons(sport);
		th->dest = htons(dport);
		th->doff = sizeof(*th) / 4;
	} else {
		struct udphdr *uh = skb_put_zero(skb, sizeof(*uh));

		uh->source = htons(sport);
		uh->dest = htons(dport);
		uh->len = htons(sizeof(*uh));
	}
}

static struct sk_buff *skb_ip4(struct kunit *test, u8 proto, u32 saddr,
			       u32 daddr, u16 sport, u16 dport)
{
	struct sk_buff *skb = skb_new(test, htons(ETH_P_IP));
	struct iphdr *iph = skb_put_zero(skb, sizeof(*iph));

	iph->version = 4;
	iph->ihl = sizeof(*iph) / 4;
	iph->ttl = 64;
	iph->protocol = proto;
	iph->saddr = htonl(saddr);
	iph->daddr = htonl(daddr);
	put_l4(skb, proto, sport, dport);
	iph->tot_len = htons(skb->len);
	return skb;
}

static struct sk_buff *skb_ip6(struct kunit *test, u8 proto, u32 saddr,
			       u32 daddr, u16 sport, u16 dport, u32 label)
{
	struct sk_buff *skb = skb_new(test, htons(ETH_P_IPV6));
	struct ipv6hdr *ip6h = skb_put_zero(skb, sizeof(*ip6h));

	ip6h->version = 6;
	ip6h->flow_lbl[0] = (label >> 16) & 0x0f;
	ip6h->flow_lbl[1] = (label >> 8) & 0xff;
	ip6h->flow_lbl[2] = label & 0xff;
	ip6h->nexthdr = proto;
	ip6h->hop_limit = 64;
	ip6h->saddr.s6_addr32[0] = htonl(0x20010db8);
	ip6h->saddr.s6_addr32[3] = htonl(saddr);
	ip6h->daddr.s6_addr32[0] = htonl(0x20010db8);
	ip6h->daddr.s6_addr32[3] = htonl(daddr);
	put_l4(skb, proto, sport, dport);
	ip6h->payload_len = htons(skb->len - sizeof(*ip6h));
	return skb;
}

#define IP(a, b, c, d)	(((a) << 24) | ((b) << 16) | ((c) << 8) | (d))

static void aqm_flow_id_ipv4_tcp(struct kunit *test)
{
	u32 s = IP(10, 0, 0, 1), d = IP(10, 0, 0, 2);
	struct sk_buff *p = skb_ip4(test, IPPROTO_TCP, s, d, 40000, 80);
	struct sk_buff *q;
	u32 id = aqm_flow_id(p, &key1);

	KUNIT_EXPECT_NE(test, id, 0);
	KUNIT_EXPECT_EQ(test, aqm_flow_id(p, &key1), id);
	/* another packet of the flow */
	q = skb_ip4(test, IPPROTO_TCP, s, d, 40000, 80);
	KUNIT_EXPECT_EQ(test, aqm_flow_id(q, &key1), id);
	/* another key places it elsewhere */
	KUNIT_EXPECT_NE(test, aqm_flow_id(q, &key2), id);

	/* each element of the 5-tuple matters */
	q = skb_ip4(test, IPPROTO_TCP, s, d, 40001, 80);
	KUNIT_EXPECT_NE(test, aqm_flow_id(q, &key1), id);
	q = skb_ip4(test, IPPROTO_TCP, s, d, 40000, 81);
	KUNIT_EXPECT_NE(test, aqm_flow_id(q, &key1), id);
	q = skb_ip4(test, IPPROTO_TCP, s, IP(10, 0, 0, 3), 40000, 80);
	KUNIT_EXPECT_NE(test, aqm_flow_id(q, &key1), id);
	q = skb_ip4(test, IPPROTO_TCP, IP(10, 0, 1, 1), d, 40000, 80);
	KUNIT_EXPECT_NE(test, aqm_flow_id(q, &key1), id);
	q = skb_ip4(test, IPPROTO_UDP, s, d, 40000, 80);
	KUNIT_EXPECT_NE(test, aqm_flow_id(q, &key1), id);

	/* both directions of a connection share the id (flow dissector) */
	q = skb_ip4(test, IPPROTO_TCP, d, s, 80, 40000);
	KUNIT_EXPECT_EQ(test, aqm_flow_id(q, &key1), id);

	/* a hash chosen by the sender or the NIC is not used */
	q = skb_ip4(test, IPPROTO_TCP, s, d, 40000, 80);
	skb_set_hash(q, 0x12345678, PKT_HASH_TYPE_L4);
	KUNIT_EXPECT_EQ(test, aqm_flow_id(q, &key1), id);
	KUNIT_EXPECT_EQ(test, q->hash, 0x12345678);
}

static void aqm_flow_id_ipv6_udp(struct kunit *test)
{
	struct sk_buff *p = skb_ip6(test, IPPROTO_UDP, 1, 2, 5000, 53, 0);
	struct sk_buff *q;
	u32 id = aqm_flow_id(p, &key1);

	KUNIT_EXPECT_NE(test, id, 0);
	q = skb_ip6(test, IPPROTO_UDP, 1, 2, 5000, 53, 0);
	KUNIT_EXPECT_EQ(test, aqm_flow_id(q, &key1), id);
	KUNIT_EXPECT_NE(test, aqm_flow_id(q, &key2), id);
	KUNIT_EXPECT_NE(test, aqm_flow_id(q, &key2), aqm_flow_id(q, &key1));

	q = skb_ip6(test, IPPROTO_UDP, 1, 2, 5001, 53, 0);
	KUNIT_EXPECT_NE(test, aqm_flow_id(q, &key1), id);
	q = skb_ip6(test, IPPROTO_UDP, 1, 2, 5000, 54, 0);
	KUNIT_EXPECT_NE(test, aqm_flow_id(q, &key1), id);
	q = skb_ip6(test, IPPROTO_UDP, 1, 3, 5000, 53, 0);
	KUNIT_EXPECT_NE(test, aqm_flow_id(q, &key1), id);
	q = skb_ip6(test, IPPROTO_TCP, 1, 2, 5000, 53, 0);
	KUNIT_EXPECT_NE(test, aqm_flow_id(q, &key1), id);
	/* the same addresses and ports over IPv4 are another flow */
	q = skb_ip4(test, IPPROTO_UDP, 1, 2, 5000, 53);
	KUNIT_EXPECT_NE(test, aqm_flow_id(q, &key1), id);

	/* with a flow label the dissector stops there: addresses + label */
	p = skb_ip6(test, IPPROTO_UDP, 1, 2, 5000, 53, 0x12345);
	q = skb_ip6(test, IPPROTO_UDP, 1, 2, 6000, 53, 0x12345);
	KUNIT_EXPECT_EQ(test, aqm_flow_id(q, &key1), aqm_flow_id(p, &key1));
	KUNIT_EXPECT_NE(test, aqm_flow_id(p, &key1), id);
	q = skb_ip6(test, IPPROTO_UDP, 1, 2, 5000, 53, 0x12346);
	KUNIT_EXPECT_NE(test, aqm_flow_id(q, &key1), aqm_flow_id(p, &key1));
}

/* Two instances (two keys) place the same flows in unrelated slots. */
static void aqm_flow_id_keys_spread(struct kunit *test)
{
	u32 id1[64], same_slot = 0;
	siphash_key_t k3, k4;
	int i, j;

	for (i = 0; i < 64; i++) {
		struct sk_buff *p = skb_ip4(test, IPPROTO_TCP, IP(10, 0, 0, 1),
					    IP(10, 0, 0, 2), 1000 + i, 80);
		u32 id2 = aqm_flow_id(p, &key2);

		id1[i] = aqm_flow_id(p, &key1);
		same_slot += reciprocal_scale(id1[i], 1024) ==
			     reciprocal_scale(id2, 1024);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_NE(test, id1[i], id1[j]);
	}
	/* about 64 / 1024 expected by chance */
	KUNIT_EXPECT_LE(test, same_slot, 4);

	/* aqm_flow_key_init draws a fresh random key each time */
	memset(&k3, 0, sizeof(k3));
	memset(&k4, 0, sizeof(k4));
	aqm_flow_key_init(&k3);
	aqm_flow_key_init(&k4);
	KUNIT_EXPECT_TRUE(test, k3.key[0] || k3.key[1]);
	KUNIT_EXPECT_NE(test, memcmp(&k3, &k4, sizeof(k3)), 0);
}

/* Non-IP and malformed packets still get an id, and the same one. */
static void aqm_flow_id_non_ip(struct kunit *test)
{
	struct sk_buff *p = skb_new(test, htons(ETH_P_ARP));
	struct sk_buff *q = skb_new(test, htons(ETH_P_ARP));
	struct arphdr *arp;
	u32 id;

	arp = skb_put_zero(p, sizeof(*arp) + 20);
	arp->ar_hrd = htons(ARPHRD_ETHER);
	arp->ar_pro = htons(ETH_P_IP);
	arp->ar_hln = ETH_ALEN;
	arp->ar_pln = 4;
	arp->ar_op = htons(ARPOP_REQUEST);
	skb_put_data(q, p->data, p->len);

	id = aqm_flow_id(p, &key1);
	KUNIT_EXPECT_NE(test, id, 0);
	KUNIT_EXPECT_EQ(test, aqm_flow_id(q, &key1), id);
	KUNIT_EXPECT_NE(test, aqm_flow_id(p, &key2), id);

	/* truncated IPv4 header */
	q = skb_new(test, htons(ETH_P_IP));
	skb_put_zero(q, 8);
	*(u8 *)q->data = 0x45;
	KUNIT_EXPECT_NE(test, aqm_flow_id(q, &key1), 0);
	/* no payload at all */
	q = skb_new(test, htons(ETH_P_IPV6));
	KUNIT_EXPECT_NE(test, aqm_flow_id(q, &key1), 0);
	/* unknown ethertype */
	q = skb_new(test, htons(0x88b5));
	skb_put_zero(q, 46);
	KUNIT_EXPECT_NE(test, aqm_flow_id(q, &key1), 0);
	KUNIT_EXPECT_NE(test, aqm_flow_id(q, &key1), id);
}

static struct kunit_case aqm_flow_id_cases[] = {
	KUNIT_CASE(aqm_flow_id_ipv4_tcp),
	KUNIT_CASE(aqm_flow_id_ipv6_udp),
	KUNIT_CASE(aqm_flow_id_keys_spread),
	KUNIT_CASE(aqm_flow_id_non_ip),
	{}
};

static struct kunit_suite aqm_flow_id_suite = {
	.name = "aqm_flow",
	.test_cases = aqm_flow_id_cases,
};

kunit_test_suites(&aqm_flow_id_suite, &aqm_flow_sb_suite,
		  &aqm_flow_ftab_suite, &aqm_flow_decay_suite,
		  &aqm_flow_shadow_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the linux-aqm flow ids and flow tables");
