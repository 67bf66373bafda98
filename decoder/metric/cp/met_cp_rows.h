/* SPDX-License-Identifier: MIT */
/*
 * The rows of the CP metrics made ready for met_cp_emit.c: what each row of
 * met_cp_metrics.c says for every entry and interval, made once and kept in
 * cp_state (cp_rows_ready), and what the entries need for the names and keys
 * of metrics from patterns, made once in an entry's life (cp_prep_rows).
 */
#ifndef ZD_MET_CP_ROWS_H
#define ZD_MET_CP_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metric/cp/met_cp_metrics.h"
#include "metric/cp/met_cp_tab.h"
#include "metric/met_module.h"

/* Which of a row's names are patterns ("cpu<cpu>"). */
enum { PAT_PINST = 1, PAT_TINST = 2 };

/*
 * What a row says for every entry, worked out once in the module's life
 * (cp_state.rows) rather than per value: its masks, its patterns, its check, whether the law
 * lets it out now (hold: again each interval, as laws change only before the
 * metrics are emitted), the
 * operands of its computation, and its metric with every name that is not a
 * pattern filled in, its key if no pattern, and the kinds and count of its
 * values: a value then fills in only what differs from one entry to the next.
 * A row's loop copies it into locals, so that none of it is read again from
 * memory after each call to the consumer.
 */
struct row {
        const struct cp_metric *m;
        struct zm_metric *out;
        uint32_t need;     /* slots that must have a value (a delta, or a reading) */
        uint32_t vouch;    /* slots whose provenance decides the check */
        uint32_t hold;     /* slots that hold the metric back this interval: vouch, or none */
        bool guest;        /* per-guest data: the userid goes with the metric (one) */
        bool per_vcpu;     /* percentages of the elapsed time times the virtual CPUs */
        unsigned pat;      /* PAT_* */
        size_t a, b;       /* the slots (b 0 where the row has none: m->b < 0, see VAR_B);
                              unsigned, so no widening of them per value */
        uint64_t mul, div; /* unit conversion */
        const char *check; /* the check of a metric from a HINT field */
        uint64_t key;      /* zm_metric's key, the entry's part aside (entry_hash) */
        uint64_t kx;       /* key even: XORed with an entry's odd hash, the metric's key */
        /* A type instance "<tpre bytes><cpu><tsuf>", formatted without cp_pattern's
         * search; tsuf NULL: any other pattern, formatted by cp_pattern. */
        size_t tpre;
        const char *tsuf;
};

/*
 * Rows m[0..nr) of cp_metrics ready for this interval, each with its metric:
 * the kept ones (cp_state.rows, made at the first close), with only hold worked
 * out again; out of memory, made now into scratch_r and scratch_out (nr of each).
 */
struct row *cp_rows_ready(struct zm_engine *e, struct cp_state *s, const struct cp_metric *m,
                          size_t nr, struct row *scratch_r, struct zm_metric *scratch_out);
/* What cp_rows_ready keeps: when the module's state goes. */
void cp_rows_free(struct cp_state *s);

/* prep for rows r[0..nr) of group m (they share their plugin instance), if any has a pattern:
 * entries e[0..n)'s key hashes and labels, made once in an entry's life. */
void cp_prep_rows(const struct cp_metric *m, const struct row *r, size_t nr, struct cp_ent *e,
                  size_t n);

#endif
