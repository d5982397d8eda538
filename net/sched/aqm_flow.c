// SPDX-License-Identifier: GPL-2.0
/*
 * aqm_flow.c - flow ids and flow tables shared by the linux-aqm qdiscs.
 *
 * See include/net/aqm_flow.h for the structures and their memory cost.
 */
#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/aqm_flow.h>

/**
 * aqm_flow_key_init() - draw a new random key for aqm_flow_id()
 * @key:	key to fill
 */
void aqm_flow_key_init(siphash_key_t *key)
{
	get_random_bytes(key, sizeof(*key));
}
EXPORT_SYMBOL_GPL(aqm_flow_key_init);

/* ---------------------------------------------------------------------- */
/* SB: the DCN scoreboard                                                 */

/**
 * aqm_sb_alloc() - allocate an empty scoreboard
 * @sb:		scoreboard, written only on success
 * @size:	number of slots, in [1, AQM_SB_MAX]
 *
 * Sleeps (GFP_KERNEL). @sb->overwrites starts at 0.
 *
 * Return: 0, -EINVAL when @size is out of range, -ENOMEM.
 */
int aqm_sb_alloc(struct aqm_sb *sb, u32 size)
{
	struct aqm_sb_entry *tab;

	if (!size || size > AQM_SB_MAX)
		return -EINVAL;
	tab = kvcalloc(size, sizeof(*tab), GFP_KERNEL);
	if (!tab)
		return -ENOMEM;
	sb->tab = tab;
	sb->size = size;
	sb->overwrites = 0;
	return 0;
}
EXPORT_SYMBOL_GPL(aqm_sb_alloc);

/**
 * aqm_sb_free() - free the scoreboard's slots
 * @sb:	scoreboard; may be unallocated, and is left unallocated
 */
void aqm_sb_free(struct aqm_sb *sb)
{
	kvfree(sb->tab);
	sb->tab = NULL;
	sb->size = 0;
}
EXPORT_SYMBOL_GPL(aqm_sb_free);

/**
 * aqm_sb_reset() - empty every slot
 * @sb:	allocated scoreboard
 *
 * The cumulative @sb->overwrites is kept.
 */
void aqm_sb_reset(struct aqm_sb *sb)
{
	memset(sb->tab, 0, (size_t)sb->size * sizeof(*sb->tab));
}
EXPORT_SYMBOL_GPL(aqm_sb_reset);

/**
 * aqm_sb_add() - count @n packets of flow @id (DCN Figure 3, "not in HB")
 * @sb:		allocated scoreboard
 * @id:		flow id
 * @now:	arrival time, ns
 * @clear_ns:	clearing interval, ns
 * @n:		packets arriving (a GSO packet's segments), >= 1
 *
 * If the slot of @id holds another flow, that flow's entry is overwritten
 * (counted in @sb->overwrites). If the flow was silent for more than
 * @clear_ns, its count starts again from 0 (a silence of exactly @clear_ns
 * keeps it). Then the count grows by @n, saturating at U32_MAX, and the
 * arrival time is recorded. A clock that went backwards counts as no
 * silence.
 *
 * Return: the flow's count including these packets, >= 1.
 */
u32 aqm_sb_add(struct aqm_sb *sb, u32 id, u64 now, u64 clear_ns, u32 n)
{
	struct aqm_sb_entry *e = &sb->tab[reciprocal_scale(id, sb->size)];

	if (e->count && e->id != id) {
		sb->overwrites++;
		e->count = 0;
	} else if (e->count && (s64)(now - e->last_ns) > 0 &&
		   now - e->last_ns > clear_ns) {
		e->count = 0;
	}
	e->id = id;
	e->count = (u32)min_t(u64, (u64)e->count + max(n, 1U), U32_MAX);
	e->last_ns = now;
	return e->count;
}
EXPORT_SYMBOL_GPL(aqm_sb_add);

/**
 * aqm_sb_forget() - empty the slot of @id if it holds @id
 * @sb:	allocated scoreboard
 * @id:	flow id, typically one just promoted to the HB table
 *
 * A slot held by another flow is left alone.
 */
void aqm_sb_forget(struct aqm_sb *sb, u32 id)
{
	struct aqm_sb_entry *e = &sb->tab[reciprocal_scale(id, sb->size)];

	if (e->count && e->id == id)
		*e = (struct aqm_sb_entry){};
}
EXPORT_SYMBOL_GPL(aqm_sb_forget);

/* ---------------------------------------------------------------------- */
/* ftab: open addressing, linear probing, backward-shift deletion          */

static bool aqm_ftab_used(const struct aqm_ftab_entry *e)
{
	return e->stamp & AQM_FTAB_USED;
}

/**
 * aqm_ftab_alloc() - allocate an empty flow table
 * @t:		table, written only on success
 * @capacity:	most flows held at once, in [1, AQM_FTAB_MAX]
 * @stamped:	give every entry a time stamp (aqm_ftab_t())
 *
 * The table gets roundup_pow_of_two(2 * @capacity) slots of 16 bytes (struct
 * aqm_ftab_entry), or of 24 with @stamped (struct aqm_ftab_tentry). Sleeps
 * (GFP_KERNEL). The statistics start at 0.
 *
 * Return: 0, -EINVAL when @capacity is out of range, -ENOMEM.
 */
int aqm_ftab_alloc(struct aqm_ftab *t, u32 capacity, bool stamped)
{
	u32 stride = stamped ? sizeof(struct aqm_ftab_tentry) :
			       sizeof(struct aqm_ftab_entry);
	void *slots;
	u32 nslots;

	if (!capacity || capacity > AQM_FTAB_MAX)
		return -EINVAL;
	nslots = roundup_pow_of_two(2 * capacity);
	slots = kvcalloc(nslots, stride, GFP_KERNEL);
	if (!slots)
		return -ENOMEM;
	*t = (struct aqm_ftab) {
		.slots = slots,
		.stride = stride,
		.mask = nslots - 1,
		.shift = 32 - ilog2(nslots),
		.capacity = capacity,
	};
	return 0;
}
EXPORT_SYMBOL_GPL(aqm_ftab_alloc);

/**
 * aqm_ftab_free() - free the table's slots
 * @t:	table; may be unallocated, and is left unallocated
 */
void aqm_ftab_free(struct aqm_ftab *t)
{
	kvfree(t->slots);
	t->slots = NULL;
	t->stride = 0;
	t->mask = 0;
	t->capacity = 0;
	t->count = 0;
}
EXPORT_SYMBOL_GPL(aqm_ftab_free);

/**
 * aqm_ftab_reset() - delete every flow
 * @t:	allocated table
 *
 * The cumulative statistics @t->hwm and @t->full are kept.
 */
void aqm_ftab_reset(struct aqm_ftab *t)
{
	memset(t->slots, 0, aqm_ftab_mem(t));
	t->count = 0;
}
EXPORT_SYMBOL_GPL(aqm_ftab_reset);

/**
 * aqm_ftab_lookup() - find the entry of flow @id
 * @t:	allocated table
 * @id:	flow id
 *
 * Return: the entry, or NULL when @id is not in the table. The pointer is
 * valid until the next aqm_ftab_delete(), aqm_ftab_sweep() or
 * aqm_ftab_tick() on @t.
 */
struct aqm_ftab_entry *aqm_ftab_lookup(const struct aqm_ftab *t, u32 id)
{
	u32 i = aqm_ftab_home(t, id);

	/* at least half the slots are empty, so the probe ends */
	for (;;) {
		struct aqm_ftab_entry *e = aqm_ftab_slot(t, i);

		if (!aqm_ftab_used(e))
			return NULL;
		if (e->id == id)
			return e;
		i = (i + 1) & t->mask;
	}
}
EXPORT_SYMBOL_GPL(aqm_ftab_lookup);

/**
 * aqm_ftab_insert() - add flow @id
 * @t:	allocated table
 * @id:	flow id
 *
 * Return: the new entry, with @val 0 (and its time stamp 0), decayed as of
 * now; the existing entry, unchanged, when @id is already in the table;
 * NULL when the table already holds @t->capacity flows (counted in
 * @t->full). The pointer is valid until the next aqm_ftab_delete(),
 * aqm_ftab_sweep() or aqm_ftab_tick() on @t.
 */
struct aqm_ftab_entry *aqm_ftab_insert(struct aqm_ftab *t, u32 id)
{
	u32 i = aqm_ftab_home(t, id);
	struct aqm_ftab_entry *e;

	for (;;) {
		e = aqm_ftab_slot(t, i);
		if (!aqm_ftab_used(e))
			break;
		if (e->id == id)
			return e;
		i = (i + 1) & t->mask;
	}
	if (t->count >= t->capacity) {
		t->full++;
		return NULL;
	}
	*e = (struct aqm_ftab_entry) {
		.id = id,
		.stamp = AQM_FTAB_USED | ((u32)t->epoch & AQM_FTAB_EPOCH),
	};
	/* its time stamp starts at 0 too (an empty slot is all zeros anyway) */
	if (aqm_ftab_stamped(t))
		aqm_ftab_set_t(e, 0);
	if (++t->count > t->hwm)
		t->hwm = t->count;
	return e;
}
EXPORT_SYMBOL_GPL(aqm_ftab_insert);

/*
 * Backward-shift deletion of the flow in slot @hole, which is used. A move
 * copies the whole slot, @t->stride bytes (with the time stamp, if any), and
 * the slot left empty is cleared whole, so that empty slots stay all zeros.
 */
static void aqm_ftab_delete_at(struct aqm_ftab *t, u32 hole)
{
	u32 j = hole;

	for (;;) {
		struct aqm_ftab_entry *n;
		u32 home;

		j = (j + 1) & t->mask;
		n = aqm_ftab_slot(t, j);
		if (!aqm_ftab_used(n))
			break;
		/* n may move to the hole unless its home lies in (hole, j] */
		home = aqm_ftab_home(t, n->id);
		if (((j - home) & t->mask) >= ((j - hole) & t->mask)) {
			memcpy(aqm_ftab_slot(t, hole), n, t->stride);
			hole = j;
		}
	}
	memset(aqm_ftab_slot(t, hole), 0, t->stride);
	t->count--;
}

/**
 * aqm_ftab_delete() - remove an entry
 * @t:	allocated table
 * @e:	entry of @t, from lookup or insert
 *
 * Backward shift: the entries after @e in its probe run that may sit earlier
 * move back one hole at a time (each whole, with its time stamp if the
 * table has one), so no tombstone is left and every remaining flow is
 * still found. Entries move: other entry pointers become stale.
 */
void aqm_ftab_delete(struct aqm_ftab *t, struct aqm_ftab_entry *e)
{
	if (WARN_ON_ONCE(!aqm_ftab_used(e)))
		return;
	aqm_ftab_delete_at(t, aqm_ftab_index(t, e));
}
EXPORT_SYMBOL_GPL(aqm_ftab_delete);

/**
 * aqm_ftab_age() - apply the periods an entry missed (DCN Figure 3)
 * @t:		allocated table
 * @e:		entry of @t
 * @dec:	amount to subtract per period (DCN: pref)
 *
 * @e->val -= @dec * (periods since the entry was last aged or inserted),
 * saturating at the limits of s64; the entry is then current. Aging twice
 * in one period subtracts nothing the second time. O(1).
 *
 * Return: true when @e->val is negative: the flow would have left the
 * table at a period boundary. The entry stays until aqm_ftab_sweep() or
 * the owner deletes it.
 */
bool aqm_ftab_age(struct aqm_ftab *t, struct aqm_ftab_entry *e, s64 dec)
{
	u32 now = (u32)t->epoch & AQM_FTAB_EPOCH;
	u32 k = (now - e->stamp) & AQM_FTAB_EPOCH;
	s64 sub;

	if (k) {
		e->stamp = AQM_FTAB_USED | now;
		/* dec * k and the difference have the sign of dec (k > 0) */
		if (check_mul_overflow(dec, (s64)k, &sub) ||
		    check_sub_overflow(e->val, sub, &e->val))
			e->val = dec > 0 ? S64_MIN : S64_MAX;
	}
	return e->val < 0;
}
EXPORT_SYMBOL_GPL(aqm_ftab_age);

/**
 * aqm_ftab_sweep() - age @n slots from the cursor, delete expired flows
 * @t:		allocated table
 * @dec:	amount to subtract per period, as for aqm_ftab_age()
 * @n:		slots to examine
 *
 * The clean-up of flows that stopped sending: each examination ages the
 * entry at the cursor; a negative one is deleted and the cursor stays, as
 * the backward shift may have moved the next entry of its run there;
 * otherwise (or on an empty slot) the cursor moves on, round the table.
 * Exactly @n examinations (counted in @t->swept), fewer only when the
 * table is or becomes empty: O(@n), whatever the table size. A full round
 * takes at most slots + @t->count examinations.
 *
 * Return: the number of flows deleted.
 */
u32 aqm_ftab_sweep(struct aqm_ftab *t, s64 dec, u32 n)
{
	u32 deleted = 0, cursor = t->cursor, mask = t->mask, done = 0;

	/* cursor and examinations in registers, written back once */
	for (; n && t->count; n--) {
		struct aqm_ftab_entry *e = aqm_ftab_slot(t, cursor);

		done++;
		if (aqm_ftab_used(e) && aqm_ftab_age(t, e, dec)) {
			aqm_ftab_delete_at(t, cursor);
			deleted++;
			continue;
		}
		cursor = (cursor + 1) & mask;
	}
	t->cursor = cursor;
	t->swept += done;
	return deleted;
}
EXPORT_SYMBOL_GPL(aqm_ftab_sweep);

/**
 * aqm_ftab_tick() - @periods decay periods have ended (DCN: Tdec)
 * @t:		allocated table
 * @dec:	amount to subtract per period, as for aqm_ftab_age()
 * @periods:	periods elapsed, >= 1; more than AQM_FTAB_TICK_MAX (after a
 *		long idleness) count as that many, which keeps the epochs
 *		of the entries unambiguous (see aqm_flow.h)
 *
 * Advances the epoch, so that every entry owes @dec per period, then runs
 * one aqm_ftab_sweep() of AQM_FTAB_SWEEP slots, so that the cursor goes
 * round even when no packet arrives between ticks. O(AQM_FTAB_SWEEP).
 *
 * Return: the number of flows the sweep deleted.
 */
u32 aqm_ftab_tick(struct aqm_ftab *t, s64 dec, u64 periods)
{
	t->epoch += min_t(u64, periods, AQM_FTAB_TICK_MAX);
	return aqm_ftab_sweep(t, dec, AQM_FTAB_SWEEP);
}
EXPORT_SYMBOL_GPL(aqm_ftab_tick);

/* ---------------------------------------------------------------------- */
/* shadow: AFD's buffer of the last b sampled arrivals                     */

/**
 * aqm_shadow_alloc() - allocate an empty shadow buffer
 * @sh:		shadow buffer, written only on success
 * @size:	b, arrivals remembered, in [1, AQM_SHADOW_MAX]
 * @flows:	capacity of the flow table, in [1, @size]
 *
 * Sleeps (GFP_KERNEL).
 *
 * Return: 0, -EINVAL when @size or @flows is out of range, -ENOMEM.
 */
int aqm_shadow_alloc(struct aqm_shadow *sh, u32 size, u32 flows)
{
	struct aqm_shadow_slot *ring;
	struct aqm_ftab counts;
	int err;

	if (!size || size > AQM_SHADOW_MAX || !flows || flows > size)
		return -EINVAL;
	ring = kvcalloc(size, sizeof(*ring), GFP_KERNEL);
	if (!ring)
		return -ENOMEM;
	/* the counts need no time stamp: 16 bytes per slot */
	err = aqm_ftab_alloc(&counts, flows, false);
	if (err) {
		kvfree(ring);
		return err;
	}
	*sh = (struct aqm_shadow) {
		.ring = ring,
		.size = size,
		.counts = counts,
	};
	return 0;
}
EXPORT_SYMBOL_GPL(aqm_shadow_alloc);

/**
 * aqm_shadow_free() - free the ring and the counts
 * @sh:	shadow buffer; may be unallocated, and is left unallocated
 */
void aqm_shadow_free(struct aqm_shadow *sh)
{
	kvfree(sh->ring);
	sh->ring = NULL;
	sh->size = 0;
	sh->len = 0;
	sh->head = 0;
	sh->total = 0;
	aqm_ftab_free(&sh->counts);
}
EXPORT_SYMBOL_GPL(aqm_shadow_free);

/**
 * aqm_shadow_reset() - forget every arrival
 * @sh:	allocated shadow buffer
 */
void aqm_shadow_reset(struct aqm_shadow *sh)
{
	sh->len = 0;
	sh->head = 0;
	sh->total = 0;
	aqm_ftab_reset(&sh->counts);
}
EXPORT_SYMBOL_GPL(aqm_shadow_reset);

/**
 * aqm_shadow_add() - append a sampled arrival of flow @id
 * @sh:	allocated shadow buffer
 * @id:	flow id
 * @w:	its weight (1 per packet, or its segments or bytes), > 0
 *
 * When the buffer already holds b arrivals, the oldest is evicted first: its
 * flow's count goes down by its weight, and the flow leaves the counts at
 * 0. When @id is a new flow and the flow table is full, the arrival takes
 * its place in the ring with weight 0 (counted in @sh->counts.full).
 *
 * Return: the count of @id after the append, m_i >= @w; 0 when the flow
 * could not be tracked.
 */
u64 aqm_shadow_add(struct aqm_shadow *sh, u32 id, u32 w)
{
	struct aqm_shadow_slot *slot = &sh->ring[sh->head];
	struct aqm_ftab_entry *e;

	if (sh->len == sh->size) {
		if (slot->w) {
			e = aqm_ftab_lookup(&sh->counts, slot->id);
			if (!WARN_ON_ONCE(!e)) {
				e->val -= slot->w;
				if (e->val <= 0)
					aqm_ftab_delete(&sh->counts, e);
			}
			sh->total -= slot->w;
		}
	} else {
		sh->len++;
	}
	if (++sh->head == sh->size)
		sh->head = 0;

	e = aqm_ftab_insert(&sh->counts, id);
	if (!e) {
		*slot = (struct aqm_shadow_slot) { .id = id, .w = 0 };
		return 0;
	}
	*slot = (struct aqm_shadow_slot) { .id = id, .w = w };
	sh->total += w;
	e->val += w;
	return (u64)e->val;
}
EXPORT_SYMBOL_GPL(aqm_shadow_add);
