/* SPDX-License-Identifier: MIT */
/*
 * Which field fills which slot of which entry (met_cp_take.c): one row per
 * CP sample record the module reads, so that "slot A_TT of a USEACT entry
 * comes from USEACT_VMDTTIME" is said once, here.  met_cp.c reads records
 * by these rows; the metric table (met_cp_metrics.c) names slots and
 * fields, and tests/unit/test_cp_metric_table.c checks that both agree
 * through these rows.
 */
#ifndef ZD_MET_CP_TAKE_H
#define ZD_MET_CP_TAKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metric/cp/met_cp_tab.h"

/*
 * How an entry's key is made from the record: the format kinds the
 * snapshot tables have always used, so an entry keeps its key (and its
 * previous readings) whatever reads it.
 */
enum cp_key {
        CP_KEY_ONE,      /* the record's single entry (cp_state.rsg and the like): no key */
        CP_KEY_CPU,      /* "cpu<id>": id decimal */
        CP_KEY_DEV,      /* "<id>": 4 hex digits */
        CP_KEY_NAME_NUM, /* "<name>/<id>": id decimal */
        CP_KEY_NAME_DEV, /* "<name>-<id>": id 4 hex digits */
};

struct cp_take {
        uint8_t domain, record;
        uint8_t key; /* enum cp_key */
        /*
         * Where the entries are: offsetof a struct cp_tab in struct
         * cp_state, or of the struct cp_ent itself for CP_KEY_ONE.
         */
        size_t at;
        const char *name; /* the name field (cp_ent.name, the key's <name>), or NULL */
        const char *id;   /* the id field (cp_ent.id, the key's <id>), or NULL */
        bool note_guest;  /* the name is a guest's userid: tell the engine */
        /*
         * NULL, or the layout of the record's entries (D0R16.CPU): id and the
         * slot fields are read from each entry, which met_cp.c finds.
         */
        const char *entry;
        const char *field[CP_NV]; /* slot i of the entry comes from field[i] (NULL: none) */
};

extern const struct cp_take cp_takes[];
extern const size_t cp_ntakes;

/* The row for a record, or NULL if the module does not read it. */
const struct cp_take *cp_take_find(unsigned domain, unsigned record);

/*
 * A guest's slot (G_*) is the sum over its virtual CPUs of USEACT slots
 * first..last (A_*): of their deltas, when each of those slots has one, or
 * of their readings for a reading (G_RES).  met_cp_close.c sums by it.
 */
struct cp_sum {
        int8_t g, first, last;
        bool reading;
        uint32_t bits; /* slots first..last as a mask: the close adds for every virtual CPU */
};

/* The sums as X(g, first, last, reading), one per guest slot: cp_guest_sums is made of it, and
 * the close expands it into straight code (a loop over the table, for every virtual CPU of every
 * interval, could not be specialised by the compiler). */
#define CP_GUEST_SUMS(X)                                                                           \
        X(G_TT, A_TT, A_TT, false)                                                                 \
        X(G_VT, A_VT, A_VT, false)                                                                 \
        X(G_PGR, A_PGR, A_PGR, false)                                                              \
        X(G_PGW, A_PGW, A_PGW, false)                                                              \
        X(G_VIO, A_VC, A_VO, false)                                                                \
        X(G_RES, A_RES, A_RES, true)

extern const struct cp_sum cp_guest_sums[];
extern const size_t cp_nguest_sums;

#endif
