/* SPDX-License-Identifier: MIT */
/*
 * How both plugins keep a repeated condition from flooding the log:
 * collectd's complaints (utils_complain.h).  c_complain says it again
 * after a wait that starts at the plugin's interval and doubles up to a
 * day; c_complain_once says it once; c_release says the condition is over,
 * and only if it was said.
 *
 * A condition with several causes (the errno of a failed open or write) is
 * complained about one cause at a time: another cause is news and is said
 * at once, not held back by the wait of the one before.
 */
#ifndef ZVM_COMPLAINT_H
#define ZVM_COMPLAINT_H

#include <collectd/core/daemon/utils_complain.h>

struct cause_complaint {
        c_complain_t c;
        int cause; /* what c is about, 0: nothing */
};

/* The complaint about cause, begun afresh when the last one was about another. */
static inline c_complain_t *complaint_of(struct cause_complaint *k, int cause)
{
        if (k->cause != cause) {
                C_COMPLAIN_INIT(&k->c);
                k->cause = cause;
        }
        return &k->c;
}

#endif
