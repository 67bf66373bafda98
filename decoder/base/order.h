/* SPDX-License-Identifier: MIT */
/*
 * The order a table's entries came in last time, kept beside its hash index
 * (hash.h): values come in much the same order every interval, so the entry
 * that followed the last one's last time is the first guess, confirmed by
 * the caller's own key comparison, and the index is asked only when the
 * guess fails.  A right guess saves hashing the key and, with many entries,
 * the index's cache misses.
 *
 * succ is the caller's array of one link per entry (position + 1 of the
 * entry that followed it; 0: none yet), grown with its other per-entry
 * arrays; prev is the entry that came last, + 1 (0: none).
 */
#ifndef ZD_ORDER_H
#define ZD_ORDER_H

#include <stddef.h>
#include <stdint.h>

struct zh_order {
        uint32_t *succ;
        size_t prev;
};

/*
 * The entry that followed the last one's last time, or SIZE_MAX: the caller
 * checks it is below its count (one comparison for both) before its key.
 */
static inline size_t zh_order_guess(const struct zh_order *o)
{
        return o->prev && o->succ[o->prev - 1] ? o->succ[o->prev - 1] - 1 : SIZE_MAX;
}

/* Entry i came after the last one (a new entry's link must be 0 first). */
static inline void zh_order_came(struct zh_order *o, size_t i)
{
        if (o->prev)
                o->succ[o->prev - 1] = (uint32_t)i + 1;
        o->prev = i + 1;
}

/*
 * A link (position + 1, or 0) after the entries moved: old p is at to[p],
 * and gone when that is kept or more (the entries kept are the first kept).
 */
static inline uint32_t zh_order_moved(const uint32_t *to, size_t kept, size_t plus1)
{
        return plus1 && to[plus1 - 1] < kept ? to[plus1 - 1] + 1 : 0;
}

/*
 * The entries compacted in place (old p is at to[p], gone when that is kept
 * or more): the links of the kept, already at their new places, renumbered,
 * and prev (a link to a gone entry becomes 0: the next guess is the index).
 */
static inline void zh_order_remap(struct zh_order *o, size_t kept, const uint32_t *to)
{
        for (size_t j = 0; j < kept; j++)
                o->succ[j] = zh_order_moved(to, kept, o->succ[j]);
        o->prev = zh_order_moved(to, kept, o->prev);
}

#endif
