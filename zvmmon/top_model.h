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
        bool samples;     /* CP sample records since the last frame */
        uint64_t records; /* any records, and any CP samples: why there is no table */
        bool cp_seen;
        uint64_t seq;
        struct top_frame **q;
        size_t qhead, qn, qcap;
        struct note *notes; /* a ring: batch mode prints them with their tables */
        size_t nhead, nn, ncap;
        uint64_t ndropped;
};

uint64_t top_pack(const char *userid);
/* May a value that names this law (NULL: a verified field) be shown as a number now? */
bool top_allowed(const struct top_model *t, const char *check);
void top_put(struct top_cell *c, bool *got, double v, bool ok);
void top_on_metric(void *ctx, const struct zm_metric *m);

#endif
