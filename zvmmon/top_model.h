/* SPDX-License-Identifier: MIT */
/* The model's state, shared by top_model.c (values in) and top_frames.c (tables out). */
#ifndef ZVMMON_TOP_MODEL_H
#define ZVMMON_TOP_MODEL_H

#include "zvmdec.h"
#include "top.h"

struct ctr {
        int64_t v;
        uint64_t tod;
        bool has;
};

enum { C_CPU, C_VCPU, C_PAGE, C_VIO, C_SYSPAGE = 0, NCTR = 4 };

struct guest {
        char userid[9];
        bool seen;                   /* a value arrived this interval */
        struct top_cell c[TOP_NCOL]; /* this interval's cells; Linux ones carried over */
        bool got[TOP_NCOL];
        struct ctr ctr[NCTR];
};

/* Which metric fills which cell of a screen beyond the guests (top_defs.c). */
struct top_feed {
        uint8_t scr;
        const char *pi; /* plugin instance: exact, or "prefix*" (the rest names the row) */
        const char *type;
        const char *ti;  /* type instance: exact, "*", or "*suffix" (the rest: the row's too) */
        uint8_t col, vi; /* the cell, and which of the metric's values */
        bool rate;       /* a DERIVE: per second between consecutive values */
        double scale;
        const char *label; /* the row's name where it is not the instances' (storage) */
        uint8_t dec;       /* 1 + decimals for the row's cell; 0: the column's */
};
extern const struct top_feed top_feeds[];
extern const size_t top_nfeeds;

/* A row of a screen beyond the guests, with what it needs across intervals. */
struct tab_row {
        struct top_row r;
        bool seen;
        bool got[TOP_MAXCOL];
        struct ctr ctr[TOP_MAXCOL];
};

struct tab {
        struct tab_row *rows;
        size_t n, cap;
        struct zh_index ix;
        uint32_t extra; /* rows made for values no feed names (storage): after the named */
};

struct note {
        uint64_t interval;
        int level;
        char *text;
};

struct top_model {
        struct zm_engine *e;
        struct guest *g;
        size_t ng, capg;
        struct zh_index ix;
        struct top_cell sys[TOP_NSYS];
        bool sysgot[TOP_NSYS];
        double busy; /* sum of the CPUs' percent-busy */
        unsigned ncpu;
        bool busy_ok;
        struct ctr syspage;
        struct tab tabs[TOP_NSCR]; /* the guests' (0) unused: struct guest keeps them */
        bool samples;              /* CP sample records since the last frame */
        uint64_t records;          /* any records, and any CP samples: why there is no table */
        bool cp_seen;
        uint64_t seq;
        struct top_frame **q;
        size_t qhead, qn, qcap;
        struct note *notes; /* a ring: batch mode prints them with their tables */
        size_t nhead, nn, ncap;
        uint64_t ndropped;
};

uint64_t top_pack(const char *userid);
/* A DERIVE value into a rate per second; false until there are two. */
bool top_rate(struct ctr *c, int64_t v, uint64_t tod, double *out);
/* A value for the screens beyond the guests (top_tab.c). */
void top_tab_metric(struct top_model *t, const struct zm_metric *m, bool ok);
/* Screen scr's rows seen this interval into f, their cells judged as the guests' are. */
bool top_tab_frame(const struct top_model *t, int scr, struct top_frame *f);
/* Rows not seen this interval go; the rest start the next one empty. */
void top_tab_roll(struct top_model *t);
void top_tab_free(struct top_model *t);
/* A cell that got no value this interval: "?" while its law is off, else "-". */
void top_missing(const struct top_model *t, struct top_cell *c, bool got, const char *law);
/* May a value that names this law (NULL: a verified field) be shown as a number now? */
bool top_allowed(const struct top_model *t, const char *check);
void top_put(struct top_cell *c, bool *got, double v, bool ok);
void top_on_metric(void *ctx, const struct zm_metric *m);

#endif
