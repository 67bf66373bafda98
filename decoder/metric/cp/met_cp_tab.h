/* SPDX-License-Identifier: MIT */
/*
 * Internal to the CP metric module (metric/cp/): the snapshot tables, the
 * bottom of the module.  The files above it, each knowing only those below:
 *   met_cp_take.c   which field fills which slot of which entry, per record
 *   met_cp_plan.c   a row's fields in a layout, made ready once
 *   met_cp_metrics.c the metrics as a table, one row each
 *   met_cp_laws.c   the conservation laws over this interval's deltas
 *   met_cp_rows.c   the metric table's rows made ready once for the emission
 *   met_cp_emit.c   the metrics emitted from that table, each held back
 *                   until its law holds
 *   met_cp_close.c  closing an interval: deltas, laws, metrics, roll
 *   met_cp.c        the module: records into tables, Interval End
 *
 * CP sample records carry cumulative counters and CPU timers.  Each sample
 * record updates an entry (a CPU, a guest's virtual CPU, a device, a NIC,
 * a logical CPU of a partition) with its current readings; when the
 * interval closes (Interval End, or a second record for an entry already
 * seen in this interval) the module takes deltas against the previous
 * interval, evaluates the laws (met_cp_laws.c), emits the metrics
 * (met_cp_emit.c) and rolls current into previous.
 */
#ifndef ZD_MET_CP_TAB_H
#define ZD_MET_CP_TAB_H

#include <stdbool.h>
#include <stdint.h>

#include "base/hash.h"
#include "base/tod.h"
#include "metric/met_verify.h"

#define CP_NV 10 /* the most slots a table uses (vcpu: A_TT..A_VO; SSISMI's 10 counters) */

/*
 * Laid out by pass: the close walks every entry of every table several times
 * an interval (deltas, laws, metrics, roll), and with many guests the tables
 * are far larger than any cache, so each pass costs the lines it touches.
 * The flags and times every pass asks first come first; the record's own
 * (key, where it was read from) next; the numbers last.
 */
struct cp_ent {
        bool cur, prev;
        uint8_t bank;         /* which of val[] holds this interval's readings (CP_V) */
        bool src_ok;          /* src_* below all known */
        uint32_t id;          /* CPU, virtual CPU, device number or logical CPU address */
        uint32_t have, phave; /* bit i: slot i was in the record (CP_V; phave: CP_PV) */
        uint32_t down;        /* bit i: slot i is a timer counting down */
        uint32_t hint;        /* bit i: slot i comes from a HINT field (needs its law) */
        uint32_t dok;         /* bit i: d[i] is this interval's delta */
        /* A virtual CPU's guest: its position in cp_state.guest plus 1 (0: none yet), valid
         * while that table's gen is ggen (met_cp_close.c to_guest). */
        uint32_t gpos, ggen;
        uint64_t tod, ptod;
        uint64_t kh; /* id and name hashed once for its metrics' keys; 0: not yet */
        char *label; /* its plugin instance, formatted once (met_cp_emit.c) */
        char key[40];
        uint64_t hash; /* of key, for the table's index */
        /*
         * What the entry's key was last made from (met_cp.c expected_entry): the
         * name field, its bytes, the layouts' generation.
         */
        const void *src_f;
        size_t src_gen;
        uint64_t src_raw;
        char name[17]; /* userid, NIC owner or partition name (UTF-8, trimmed) */
        /* This interval's readings and the previous one's, by turns (CP_V, CP_PV): the roll
         * turns the bank over rather than copying the readings of every entry. */
        uint64_t val[2][CP_NV];
        uint64_t acc[CP_NV]; /* monotonic sums of deltas, for DERIVE values */
        uint64_t d[CP_NV];   /* deltas, valid where dok says */
};

#define CP_V(x)  ((x)->val[(x)->bank])
#define CP_PV(x) ((x)->val[(x)->bank ^ 1])

struct cp_tab {
        struct cp_ent *e;
        size_t n, cap, next; /* next: where the following record usually is */
        uint32_t gen;        /* changes whenever entries move (cp_tab_reindex) */
        struct zh_index ix;  /* key -> position in e */
};

/* Value slots per table. */
enum { P_UT, P_SYS, P_PRB, P_WT };                      /* prp: SYTPRP per CPU */
enum { Y_DIAG, Y_PRVIS, Y_SS, Y_RS, Y_PIOPR, Y_PIOPW }; /* syp: SYTSYP per CPU */
enum {
        A_TT,
        A_VT,
        A_RES,
        A_PGR,
        A_PGW,
        A_VC,
        A_VD,
        A_VU,
        A_VTP,
        A_VO
};                                                               /* A_VC..A_VO: virtual I/O */
                                                                 /* vcpu: USEACT */
enum { G_TT, G_VT, G_PGR, G_PGW, G_RES, G_VIO };                 /* guest: sums per userid */
enum { D_SSCH16, D_SSCHG, D_CONN, D_PEND, D_DISC, D_DAO };       /* dev: IODDEV */
enum { N_TXB, N_RXB, N_TXP, N_RXP, N_TXE, N_RXE, N_TXD, N_RXD }; /* nic: VNDSES */
enum { L_ACT, L_LP };                                            /* lpar: SYTCUP entries */
enum { R_AVAIL, R_PGABL, R_SAVFR };                              /* sys: SYTRSG */
enum { S_SAVFR };                                                /* sys: STORSG */
/* sys: SYTUSR; its virtual-MP users' transaction counts (4 bytes, which wrap) before their times
 * (8-byte TOD-clock sums, which do not): the close takes each kind's deltas as a range. */
enum { U_USERS, U_DORM, U_MPTCT, U_MPNCT, U_MPTRV, U_MPNTR };
enum { F_FTRDONE };        /* sys: SYTSYG */
enum { X_SXSSIZE };        /* sys: SYTSXG */
enum { Q_90FUL };          /* sys: SYTASG */
enum { C_SYCNT, C_SYPRO }; /* ssi: SSISCS */
/* ssi: SSISMI, entries into each state (4 bytes) and microseconds in it (8), in the same order */
enum { M_NJONG, M_NJOND, M_NLEAV, M_NISOL, M_NSUSP, M_TJONG, M_TJOND, M_TLEAV, M_TISOL, M_TSUSP };
_Static_assert(A_VO < CP_NV && N_RXD < CP_NV && D_DAO < CP_NV && Y_PIOPW < CP_NV &&
                   U_MPNTR < CP_NV && M_TSUSP < CP_NV,
               "every table's slots fit in CP_NV");

struct cp_state {
        struct zv_state *v;
        struct cp_tab prp, syp, vcpu, guest, dev, nic, lpar;
        /* The records of one entry per system: a few per interval, whatever the guests. */
        struct cp_ent rsg, storsg, usr, sysg, sxg, asg, ssiscs, ssismi;
        struct cp_ent paging;   /* SYTSYP's paging slots (Y_PIOPR, Y_PIOPW) summed over the CPUs */
        uint64_t lpar_bad;      /* SYTCUP records whose entries did not fit */
        bool lpar_badnow;       /* ... in this interval */
        uint64_t last_tod;      /* newest record TOD of the interval being gathered */
        bool taken;             /* a record came since the interval last closed */
        struct cp_cache *cache; /* what met_cp.c finds once and keeps: layouts, fields, names */
        struct cp_rows *rows;   /* the metric rows made ready once (met_cp_rows.c) */
};

/* tab_fn on each of the state's tables, one_fn on each of its entries of one (roll, free). */
void cp_each(struct cp_state *s, void (*tab_fn)(struct cp_tab *), void (*one_fn)(struct cp_ent *));

struct cp_ent *cp_tab_get(struct cp_tab *t, const char *key);
/* What an entry holds besides itself (its label): before it is dropped or overwritten. */
void cp_ent_drop(struct cp_ent *x);
/* After the caller moved or dropped entries of t: index them again (and change t->gen). */
void cp_tab_reindex(struct cp_tab *t);
void cp_tab_free(struct cp_tab *t);
/* Timer delta in microseconds; -1 for a reset (counted by the caller), -2 for none.  Inline:
 * the close asks it for two timers of every virtual CPU. */
static inline int64_t cp_delta_timer(const struct cp_ent *x, int i, uint64_t max_us,
                                     bool either_way)
{
        uint32_t bit = 1u << i;
        if (!x->cur || !x->prev || !(x->have & bit) || !(x->phave & bit))
                return -2;
        bool down = (x->down & bit) != 0;
        int64_t d = zd_cputimer_delta_us(CP_PV(x)[i], CP_V(x)[i], down, max_us);
        if (d < 0 && either_way)
                d = zd_cputimer_delta_us(CP_PV(x)[i], CP_V(x)[i], !down, max_us);
        return d;
}

/* Elapsed microseconds between the previous and current record of x (asked a few times per
 * entry and interval, by the deltas, the laws and the metrics: inline). */
static inline uint64_t cp_elapsed_us(const struct cp_ent *x)
{
        if (!x->prev || x->tod <= x->ptod)
                return 0;
        return (x->tod - x->ptod) / ZD_TOD_PER_US;
}

/* Has slot i of x a delta this interval (set when the interval closed)? */
#define HAS(x, i) (((x)->dok >> (i)) & 1u)

#endif
