/* SPDX-License-Identifier: MIT */
/*
 * Per-guest shares of a table that guests fill with keys of their own
 * choosing (product ids, series names).  CP stamps the userid, so it is the
 * one thing a guest cannot vary: counting entries per userid lets one guest
 * that invents keys use up its own share only, never another guest's.
 *
 * A zeroed struct is an empty table.  The counts describe the caller's
 * table: clear them when that table starts over.
 */
#ifndef ZD_QUOTA_H
#define ZD_QUOTA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct zq_slot;
struct zq_table {
        struct zq_slot *s;
        size_t cap, n; /* cap a power of two, at most half full */
};

enum zq_take {
        ZQ_TAKEN, /* one more entry counted for the guest */
        ZQ_FULL,  /* the guest holds limit entries already: nothing counted */
        ZQ_NOMEM, /* out of memory: nothing counted */
};

/* One more entry for the guest whose userid zh_word8 packed into user. */
enum zq_take zq_take(struct zq_table *q, uint64_t user, uint32_t limit);
/* Entries the guest holds. */
uint32_t zq_held(const struct zq_table *q, uint64_t user);
void zq_clear(struct zq_table *q);
void zq_free(struct zq_table *q);

#endif
