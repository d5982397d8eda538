/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aqm_kunit.h - helpers shared by the KUnit suites of linux-aqm: library
 * objects allocated for one test case and freed when it ends.
 */
#ifndef __AQM_KUNIT_H
#define __AQM_KUNIT_H

#include <kunit/resource.h>
#include <kunit/test.h>
#include <net/aqm_flow.h>

static inline void aqm_kunit_shadow_free(void *p)
{
	aqm_shadow_free(p);
}

static inline void aqm_kunit_sb_free(void *p)
{
	aqm_sb_free(p);
}

/* A scoreboard of @size slots, for this test. */
static inline struct aqm_sb *aqm_kunit_sb_new(struct kunit *test, u32 size)
{
	struct aqm_sb *sb = kunit_kzalloc(test, sizeof(*sb), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, sb);
	KUNIT_ASSERT_EQ(test, aqm_sb_alloc(sb, size), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, aqm_kunit_sb_free,
							sb), 0);
	return sb;
}

/* A shadow buffer of @size arrivals and @flows counts, for this test. */
static inline struct aqm_shadow *aqm_kunit_shadow_new(struct kunit *test,
						      u32 size, u32 flows)
{
	struct aqm_shadow *sh = kunit_kzalloc(test, sizeof(*sh), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, sh);
	KUNIT_ASSERT_EQ(test, aqm_shadow_alloc(sh, size, flows), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							aqm_kunit_shadow_free,
							sh), 0);
	return sh;
}

#endif /* __AQM_KUNIT_H */
