/* SPDX-License-Identifier: MIT */
/*
 * The decoder's one way to keep a log line from repeating.  A thing is said
 * the first time it happens, and again only once a quiet spell has passed
 * (quiet 0: never again), so that damage that comes with every record is
 * one line, not a flood; the times not said are counted for the next line
 * to give.  The clock is the caller's (CP's time, sample intervals), so a
 * file read again says the same lines at the same records.
 *
 * The spell runs from the last line said, or (ZM_SAY_SPELL) from the last
 * time the thing happened: a cap that refuses a guest every interval is
 * then said once, and again only after it has let the guest be a while.
 *
 * Inline, for the engine (keyed: zm_say, met_module.h) and for the state
 * that already holds one per thing (a guest under the cap, a kind of
 * damage), which then need no key nor a lookup.  A change of state said
 * once per change (met_reading.c) is another thing and does not use it.
 */
#ifndef ZD_MET_SAY_H
#define ZD_MET_SAY_H

#include <stdbool.h>
#include <stdint.h>

struct zm_said {
        uint64_t at;     /* the clock at the last line (ZM_SAY_SPELL: the last time) */
        uint64_t untold; /* times since the last line, not said */
        bool said;
};

enum zm_say_from {
        ZM_SAY_SINCE_SAID, /* the spell runs from the last line */
        ZM_SAY_SPELL,      /* from the last time it happened */
};

/* It happened at now: 0 to keep quiet, else the times this line stands for (itself included). */
static inline uint64_t zm_said_now(struct zm_said *s, uint64_t now, uint64_t quiet,
                                   enum zm_say_from from)
{
        bool say = !s->said || (quiet && now - s->at >= quiet);
        if (say || from == ZM_SAY_SPELL)
                s->at = now;
        if (!say) {
                s->untold++;
                return 0;
        }
        uint64_t n = s->untold + 1;
        s->said = true;
        s->untold = 0;
        return n;
}

/* Whether the spell still runs at now: forgetting s then would say the next time too soon. */
static inline bool zm_said_quiet(const struct zm_said *s, uint64_t now, uint64_t quiet)
{
        return s->said && (!quiet || now - s->at < quiet);
}

#endif
