/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqm_flow.h - flow identity and the flow tables shared by the linux-aqm
 * qdiscs (dcn, afd, riops).
 *
 * Flow id: a 32-bit keyed hash of the packet's flow, aqm_flow_id(). The flow
 * dissector extracts the IPv4 or IPv6 addresses, protocol and ports (for
 * IPv6 with a non-zero flow label: the addresses and the label); non-IP
 * packets hash what the dissector finds (at least the ethertype), so they
 * get an id too. The hash is SipHash with a random per-instance key, so
 * nobody outside can aim flows at one slot, and two instances place the
 * same flow differently. It never reads skb->hash, which the sender or the
 * NIC may have chosen. Ids are never 0, but the tables accept any u32.
 * Every table indexes with the HIGH bits of the id (a multiply and a shift),
 * never with a division.
 *
 * Three structures, all sized at configuration time (kvcalloc, GFP_KERNEL)
 * and never allocated per packet. Nothing locks: the owner calls everything
 * under its qdisc lock.
 *
 * 1. SB, the scoreboard of DCN (Figure 3 of "Taming the elephants", DCN
 *    section 3.1): a direct-mapped array, one slot per hash value, each slot
 *    holding one flow's id, its recent packet count and the time of its last
 *    packet. A flow whose slot holds another flow overwrites it (the paper's
 *    footnote 1), so every operation is O(1); a count whose flow was silent
 *    for more than the clearing interval starts again from 0. Count 0 marks
 *    an empty slot.
 *    Memory: 16 bytes per slot; size in [1, AQM_SB_MAX = 2^18], so at most
 *    4 MiB.
 *
 * 2. ftab, a flow table of fixed capacity for DCN's HB table and the
 *    shadow buffer's counts: open addressing over a power-of-two array of
 *    at least 2 * capacity slots (so at most half full and probe sequences
 *    stay short), linear probing from the slot given by the id's high bits,
 *    deletion by backward shift (no tombstones, so lookups never slow down
 *    with churn). Each entry holds the id and one s64 counter owned by the
 *    caller (DCN's pktcount, a shadow count); a table allocated with a time
 *    stamp (aqm_ftab_alloc(), @stamped) also holds one u64 time stamp per
 *    entry, owned by the caller (DCN's last notification, aqm_ftab_t()).
 *    Inserting into a table that holds @capacity flows fails and is
 *    counted; the caller decides.
 *    Memory: 16 bytes per slot, 24 with the time stamp, between 2 and 4
 *    slots per flow of capacity (slots = roundup_pow_of_two(2 * capacity));
 *    capacity in [1, AQM_FTAB_MAX = 65536], so at most 131072 slots = 2 MiB
 *    (3 MiB with the time stamp).
 *
 *    Decay (DCN section 3.2: every Tdec each pktcount -= pref, and a flow
 *    whose count goes negative leaves HB) is lazy, as Figure 3 draws it: the
 *    table counts elapsed periods in @epoch (aqm_ftab_tick()), each entry
 *    remembers the epoch of its last decay, and an entry is decayed by
 *    dec * (periods since then) when its flow's packet arrives
 *    (aqm_ftab_age()) or when the clean-up sweep passes it. The sweep
 *    (aqm_ftab_sweep()) examines a fixed AQM_FTAB_SWEEP slots from a cursor
 *    that goes round the table, and deletes the entries whose count is
 *    negative, i.e. the flows that stopped. For a constant dec this is
 *    exactly the eager decay of every entry at every period; when dec
 *    changes, an entry takes the dec of the moment it is aged for all the
 *    periods it missed. A flow that expired stays in @count until the sweep
 *    reaches it, at most one round of the cursor later.
 *    Epochs are kept in 31 bits per entry. An entry is aged at least once
 *    per round of the cursor (the sweep deletes only at the cursor, and a
 *    backward shift moves entries towards it, never past it). A deletion
 *    costs the sweep one examination without moving the cursor, and at
 *    most one flow is inserted per call, so a round takes fewer than
 *    (slots + capacity) / (AQM_FTAB_SWEEP - 1) < 2^15 calls of
 *    aqm_ftab_sweep() or aqm_ftab_tick(); one tick adds at most
 *    AQM_FTAB_TICK_MAX = 2^10 periods, so fewer than 2^25 periods pass
 *    between two agings, far from 2^31. (A table that also deletes outside
 *    the sweep, like the shadow buffer's, does not decay.)
 *
 * 3. shadow, AFD's shadow buffer (Pan et al.): the last b sampled
 *    arrivals in a ring, each as its flow's id and a weight (1, a GSO
 *    packet's segments, or its bytes: the owner's unit), and an ftab
 *    counting, for each flow, the total weight of its arrivals in the ring
 *    (AFD's m_i). The oldest arrival leaves when a new one comes in (AFD
 *    lets a random one leave; the oldest keeps the window exactly the last
 *    b samples and costs no random draw). The ftab holds at most @flows
 *    entries (@flows <= b); a sampled arrival of a new flow while it is full
 *    still takes its place in the ring, counted for no flow (weight 0, and
 *    in the ftab's @full), so the window stays b samples long.
 *    Memory: 8 bytes per ring slot plus the ftab without time stamp (16
 *    bytes per slot), i.e. between 40 and 72 bytes per sampled arrival with
 *    flows = b (AFD's default, b = flows = 1000: 8000 + 2048 * 16 = 40768
 *    bytes); b in [1, AQM_SHADOW_MAX = 65536], so at most
 *    512 KiB + 2 MiB.
 *
 * Cost per packet: aqm_sb_add (aqm_sb_hit) O(1); ftab lookup/insert/delete O(1) expected
 * (load <= 1/2); aqm_ftab_age O(1); aqm_ftab_sweep and aqm_ftab_tick
 * AQM_FTAB_SWEEP slots, whatever the table size; aqm_shadow_add at most two
 * lookups, one insert and one delete. No allocation, lock, division or
 * floating point on any of them.
 */
#ifndef __NET_AQM_FLOW_H
#define __NET_AQM_FLOW_H

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/container_of.h>
#include <linux/math.h>
#include <linux/siphash.h>
#include <linux/skbuff.h>
#include <linux/stddef.h>
#include <linux/types.h>

/* Hard maximums (see the memory figures above). */
#define AQM_SB_MAX	BIT(18)
#define AQM_FTAB_MAX	BIT(16)
#define AQM_SHADOW_MAX	AQM_FTAB_MAX

/**
 * aqm_flow_id() - keyed 32-bit id of the packet's flow
 * @skb:	packet, with skb->protocol and the network header set
 * @key:	the owner's random key, see aqm_flow_key_init()
 *
 * Return: SipHash of the flow dissector's keys (addresses, protocol, ports),
 * the same for both directions of a flow, never 0.
 */
static inline u32 aqm_flow_id(const struct sk_buff *skb,
			      const siphash_key_t *key)
{
	return skb_get_hash_perturb(skb, key);
}

void aqm_flow_key_init(siphash_key_t *key);

/**
 * struct aqm_sb_entry - one scoreboard slot (16 bytes)
 * @id:		flow id of the flow in the slot, meaningless when @count is 0
 * @count:	packets of that flow seen without a silence longer than the
 *		clearing interval, saturating at U32_MAX; 0: empty slot
 * @last_ns:	time of that flow's last packet, ns
 */
struct aqm_sb_entry {
	u32 id;
	u32 count;
	u64 last_ns;
};

/**
 * struct aqm_sb - DCN scoreboard (SB): direct-mapped recent packet counts
 * @tab:	@size slots, slot of an id = reciprocal_scale(id, @size)
 * @size:	number of slots, in [1, AQM_SB_MAX]
 * @overwrites:	times a flow took the slot of another flow (cumulative,
 *		kept across aqm_sb_reset())
 */
struct aqm_sb {
	struct aqm_sb_entry *tab;
	u32 size;
	u64 overwrites;
};

int aqm_sb_alloc(struct aqm_sb *sb, u32 size);
void aqm_sb_free(struct aqm_sb *sb);
void aqm_sb_reset(struct aqm_sb *sb);
u32 aqm_sb_add(struct aqm_sb *sb, u32 id, u64 now, u64 clear_ns, u32 n);

/* aqm_sb_add() of one packet */
static inline u32 aqm_sb_hit(struct aqm_sb *sb, u32 id, u64 now, u64 clear_ns)
{
	return aqm_sb_add(sb, id, now, clear_ns, 1);
}

void aqm_sb_forget(struct aqm_sb *sb, u32 id);

/**
 * aqm_sb_mem() - bytes allocated for the scoreboard's slots
 * @sb:	scoreboard
 *
 * Return: @sb->size * 16, 0 when not allocated.
 */
static inline size_t aqm_sb_mem(const struct aqm_sb *sb)
{
	return sb->tab ? (size_t)sb->size * sizeof(struct aqm_sb_entry) : 0;
}

/* aqm_ftab_entry.stamp, owned by the table: the slot holds a flow */
#define AQM_FTAB_USED		BIT(31)
/* aqm_ftab_entry.stamp: low 31 bits of the epoch of the last decay */
#define AQM_FTAB_EPOCH		GENMASK(30, 0)
/* Most periods one aqm_ftab_tick() adds (after a long idleness). */
#define AQM_FTAB_TICK_MAX	1024
/* Slots one aqm_ftab_sweep() examines. */
#define AQM_FTAB_SWEEP		8

/**
 * struct aqm_ftab_entry - one flow table slot (16 bytes)
 * @id:		flow id
 * @stamp:	AQM_FTAB_USED when the slot holds a flow, and the epoch of the
 *		entry's last decay (AQM_FTAB_EPOCH bits); owned by the table
 * @val:	the owner's counter, 0 after insert (DCN: pktcount in fixed
 *		point; shadow buffer: number of arrivals in the buffer)
 *
 * The slot of a table allocated without a time stamp; in a table with one,
 * the first member of struct aqm_ftab_tentry. An empty slot is all zeros.
 */
struct aqm_ftab_entry {
	u32 id;
	u32 stamp;
	s64 val;
};

/**
 * struct aqm_ftab_tentry - one slot of a flow table with a time stamp
 *			    (24 bytes)
 * @e:		the entry, which the table's functions take and return
 * @t:		the owner's time stamp, ns, 0 after insert (DCN: the flow's
 *		last early notification); read and written through
 *		aqm_ftab_t() and aqm_ftab_set_t()
 */
struct aqm_ftab_tentry {
	struct aqm_ftab_entry e;
	u64 t;
};

static_assert(sizeof(struct aqm_ftab_entry) == 16);
static_assert(sizeof(struct aqm_ftab_tentry) == 24);
static_assert(offsetof(struct aqm_ftab_tentry, e) == 0);
static_assert(sizeof(struct aqm_sb_entry) == 16);

/**
 * struct aqm_ftab - flow table: open addressing, linear probing
 * @slots:	@mask + 1 slots of @stride bytes, a power of two >=
 *		2 * @capacity (aqm_ftab_slot())
 * @stride:	bytes per slot: sizeof(struct aqm_ftab_entry), 16, or with a
 *		time stamp sizeof(struct aqm_ftab_tentry), 24
 * @mask:	number of slots - 1
 * @shift:	32 - log2(number of slots): home slot of an id = id >> @shift
 * @capacity:	most flows held at once, in [1, AQM_FTAB_MAX]
 * @count:	flows held now
 * @hwm:	high-water mark of @count (kept across aqm_ftab_reset())
 * @full:	inserts refused because @count was @capacity (cumulative)
 * @epoch:	decay periods elapsed (aqm_ftab_tick())
 * @cursor:	next slot the clean-up sweep examines
 * @swept:	slots examined by the sweep (cumulative, kept across
 *		aqm_ftab_reset()): the per-packet cost of the decay
 */
struct aqm_ftab {
	void *slots;
	u32 stride;
	u32 mask;
	u32 shift;
	u32 capacity;
	u32 count;
	u32 hwm;
	u64 full;
	u64 epoch;
	u32 cursor;
	u64 swept;
};

int aqm_ftab_alloc(struct aqm_ftab *t, u32 capacity, bool stamped);
void aqm_ftab_free(struct aqm_ftab *t);
void aqm_ftab_reset(struct aqm_ftab *t);
struct aqm_ftab_entry *aqm_ftab_lookup(const struct aqm_ftab *t, u32 id);
struct aqm_ftab_entry *aqm_ftab_insert(struct aqm_ftab *t, u32 id);
void aqm_ftab_delete(struct aqm_ftab *t, struct aqm_ftab_entry *e);
bool aqm_ftab_age(struct aqm_ftab *t, struct aqm_ftab_entry *e, s64 dec);
u32 aqm_ftab_sweep(struct aqm_ftab *t, s64 dec, u32 n);
u32 aqm_ftab_tick(struct aqm_ftab *t, s64 dec, u64 periods);

/**
 * aqm_ftab_home() - slot where the probe for @id starts
 * @t:	flow table
 * @id:	flow id
 *
 * Return: the top log2(slots) bits of @id.
 */
static inline u32 aqm_ftab_home(const struct aqm_ftab *t, u32 id)
{
	return id >> t->shift;
}

/**
 * aqm_ftab_slot() - the entry in slot @i
 * @t:	allocated flow table
 * @i:	slot, <= @t->mask
 *
 * Return: the entry at @i * @t->stride bytes into the slots (a multiply,
 * no division); its @stamp tells whether it holds a flow.
 */
static inline struct aqm_ftab_entry *aqm_ftab_slot(const struct aqm_ftab *t,
						   u32 i)
{
	return t->slots + (size_t)i * t->stride;
}

/**
 * aqm_ftab_index() - the slot of an entry
 * @t:	allocated flow table
 * @e:	entry of @t
 *
 * The offset divided by a constant, 16 or 24, which the compiler turns
 * into a multiply and a shift: no division at run time.
 *
 * Return: i such that aqm_ftab_slot(@t, i) is @e.
 */
static inline u32 aqm_ftab_index(const struct aqm_ftab *t,
				 const struct aqm_ftab_entry *e)
{
	size_t off = (const void *)e - t->slots;

	if (t->stride == sizeof(struct aqm_ftab_entry))
		return off / sizeof(struct aqm_ftab_entry);
	return off / sizeof(struct aqm_ftab_tentry);
}

/**
 * aqm_ftab_stamped() - were the table's slots allocated with a time stamp?
 * @t:	allocated flow table
 *
 * Return: true when its entries have a time stamp (aqm_ftab_t()).
 */
static inline bool aqm_ftab_stamped(const struct aqm_ftab *t)
{
	return t->stride == sizeof(struct aqm_ftab_tentry);
}

/**
 * aqm_ftab_t() - the time stamp of an entry
 * @e:	entry of a table allocated with a time stamp (aqm_ftab_alloc() with
 *	@stamped true, aqm_ftab_stamped()); only valid there: the slots of a
 *	table without one are 16 bytes, and this would read the next slot
 *
 * Return: the entry's time stamp, 0 after insert.
 */
static inline u64 aqm_ftab_t(const struct aqm_ftab_entry *e)
{
	return container_of(e, const struct aqm_ftab_tentry, e)->t;
}

/**
 * aqm_ftab_set_t() - set the time stamp of an entry
 * @e:	entry of a table allocated with a time stamp, as for aqm_ftab_t()
 * @t:	the owner's time stamp
 */
static inline void aqm_ftab_set_t(struct aqm_ftab_entry *e, u64 t)
{
	container_of(e, struct aqm_ftab_tentry, e)->t = t;
}

/**
 * aqm_ftab_mem() - bytes allocated for the table's slots
 * @t:	flow table
 *
 * Return: number of slots * 16, or * 24 with a time stamp; 0 when not
 * allocated.
 */
static inline size_t aqm_ftab_mem(const struct aqm_ftab *t)
{
	return t->slots ? ((size_t)t->mask + 1) * t->stride : 0;
}

/**
 * struct aqm_shadow_slot - one sampled arrival (8 bytes)
 * @id:		flow id
 * @w:		its weight in m_i; 0: counted for no flow (the flow table
 *		was full)
 */
struct aqm_shadow_slot {
	u32 id;
	u32 w;
};

/**
 * struct aqm_shadow - AFD shadow buffer: the last @size sampled arrivals
 * @ring:	@size arrivals; the oldest is at @head once @len is @size
 * @size:	b, number of arrivals remembered, in [1, AQM_SHADOW_MAX]
 * @len:	arrivals in the ring now, <= @size
 * @head:	where the next arrival is written
 * @total:	sum of the weights in the ring
 * @counts:	per flow, the total weight of its arrivals in the ring (in val);
 *		a table without time stamp, 16 bytes per slot
 */
struct aqm_shadow {
	struct aqm_shadow_slot *ring;
	u32 size;
	u32 len;
	u32 head;
	u64 total;
	struct aqm_ftab counts;
};

int aqm_shadow_alloc(struct aqm_shadow *sh, u32 size, u32 flows);
void aqm_shadow_free(struct aqm_shadow *sh);
void aqm_shadow_reset(struct aqm_shadow *sh);
u64 aqm_shadow_add(struct aqm_shadow *sh, u32 id, u32 w);

/**
 * aqm_shadow_count() - weight of flow @id among the buffer's arrivals
 * @sh:	shadow buffer
 * @id:	flow id
 *
 * Return: m_i, 0 when the flow has no arrival in the buffer.
 */
static inline u64 aqm_shadow_count(const struct aqm_shadow *sh, u32 id)
{
	const struct aqm_ftab_entry *e = aqm_ftab_lookup(&sh->counts, id);

	return e ? (u64)e->val : 0;
}

/**
 * aqm_shadow_mem() - bytes allocated for the ring and the counts
 * @sh:	shadow buffer
 *
 * Return: @sh->size * 8 + aqm_ftab_mem() of the counts (16 bytes per
 * slot), 0 when not allocated.
 */
static inline size_t aqm_shadow_mem(const struct aqm_shadow *sh)
{
	return (sh->ring ? (size_t)sh->size * sizeof(*sh->ring) : 0) +
	       aqm_ftab_mem(&sh->counts);
}

#endif /* __NET_AQM_FLOW_H */
