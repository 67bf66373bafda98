/* SPDX-License-Identifier: MIT */
/*
 * A metric engine fed with CP records written by hand (offsets from
 * doc/facts/cp-records.md), collecting what it emits and logs.
 */
#ifndef TEST_CP_FEED_H
#define TEST_CP_FEED_H

#include <stdio.h>
#include <stdlib.h>

#include "cp_vec.h"
#include "metric/met_verify.h"
#include "kept_metric.h"
#include "metric/metric.h"

#define FEED_MAX 2048
struct feed {
        struct zm_engine *e;
        size_t n;
        struct zm_metric m[FEED_MAX];
        struct kept_names names[FEED_MAX];
        size_t nlog;
        char log[64][256];
        uint8_t buf[4096];
};

static void feed_emit(void *ctx, const struct zm_metric *m)
{
        struct feed *f = ctx;
        if (f->n < FEED_MAX) {
                keep_metric(&f->m[f->n], &f->names[f->n], m);
                f->n++;
        }
}

static void feed_log(void *ctx, int level, const char *msg)
{
        struct feed *f = ctx;
        (void)level;
        if (f->nlog < 64)
                snprintf(f->log[f->nlog++], sizeof(f->log[0]), "%s", msg);
}

static inline struct feed *feed_new(int unverified, unsigned intervals)
{
        struct feed *f = calloc(1, sizeof(*f));
        struct zm_options o = {.unverified = unverified, .verify_intervals = intervals};
        f->e = zm_engine_new(&o, feed_emit, feed_log, f);
        assert_non_null(f->e);
        return f;
}

static inline void feed_free(struct feed *f)
{
        zm_engine_free(f->e);
        free(f);
}

static inline void feed_rec(struct feed *f, size_t len)
{
        struct zd_record r;
        memset(&r, 0, sizeof(r));
        r.rec = zd_view_make(f->buf, len);
        r.body = zd_view_tail(r.rec, 20);
        r.domain = f->buf[4];
        r.number = (uint16_t)((f->buf[6] << 8) | f->buf[7]);
        r.tod = 0;
        for (int i = 0; i < 8; i++)
                r.tod = (r.tod << 8) | f->buf[8 + i];
        r.kind = 'S';
        zm_engine_record(f->e, &r);
}

static inline void feed_end(struct feed *f, uint64_t tod)
{
        memset(f->buf, 0, 20);
        vec_hdr(f->buf, 20, 1, 11, tod);
        struct zd_record r;
        memset(&r, 0, sizeof(r));
        r.rec = zd_view_make(f->buf, 20);
        r.domain = 1;
        r.number = 11;
        r.tod = tod;
        r.kind = 'S';
        zm_engine_record(f->e, &r);
        zm_engine_interval_end(f->e, &r);
}

#define US(x) ((uint64_t)(x)*4096u) /* microseconds as CPU-timer units */

/* D0R2 SYTPRP, 352 bytes (6.4): 20 CPUAD, 24 PRBTM (counts down), 32 UTIME, 40 TMSYS,
 * 68 TOTWT (hint). */
static inline void feed_sytprp(struct feed *f, uint64_t tod, unsigned cpu, uint64_t prb,
                               uint64_t ut, uint64_t sys, uint64_t wt)
{
        memset(f->buf, 0, 352);
        vec_hdr(f->buf, 352, 0, 2, tod);
        be16(f->buf + 20, (uint16_t)cpu);
        be64(f->buf + 24, prb);
        be64(f->buf + 32, ut);
        be64(f->buf + 40, sys);
        be64(f->buf + 68, wt);
        feed_rec(f, 352);
}

/* D0R1 SYTSYP, 116 bytes: 20 CPUAD, 28 DIAGT, 32 PRVIS, 48 CTSS, 52 CTRS; 72 PIOPR,
 * 76 PIOPW (hint). */
static inline void feed_sytsyp(struct feed *f, uint64_t tod, unsigned cpu, uint32_t diag,
                               uint32_t ssch, uint32_t pgr, uint32_t pgw)
{
        memset(f->buf, 0, 116);
        vec_hdr(f->buf, 116, 0, 1, tod);
        be16(f->buf + 20, (uint16_t)cpu);
        be32(f->buf + 28, diag);
        be32(f->buf + 32, 0);
        be32(f->buf + 48, ssch);
        be32(f->buf + 52, 0);
        be32(f->buf + 72, pgr);
        be32(f->buf + 76, pgw);
        feed_rec(f, 116);
}

/* D4R3 USEACT, 508 bytes: 20 VMDUSER, 28 VMDCPUAD (IBM); 36 VMDTTIME, 44 VMDVTIME,
 * 68 VMDCTPVR, 108 CALCPPGR, 112 CALCPPGW (hints). */
static inline void feed_useact(struct feed *f, uint64_t tod, const char *user, unsigned vcpu,
                               uint64_t tt, uint64_t vt, uint32_t res, uint32_t pgr, uint32_t pgw)
{
        memset(f->buf, 0, 508);
        vec_hdr(f->buf, 508, 4, 3, tod);
        ebc(f->buf + 20, user, 8);
        be16(f->buf + 28, (uint16_t)vcpu);
        f->buf[32] = 0x37;
        be64(f->buf + 36, tt);
        be64(f->buf + 44, vt);
        be32(f->buf + 68, res);
        be32(f->buf + 108, pgr);
        be32(f->buf + 112, pgw);
        feed_rec(f, 508);
}

static inline const struct zm_metric *feed_find(const struct feed *f, size_t from, const char *pi,
                                                const char *type, const char *ti)
{
        for (size_t i = from; i < f->n; i++)
                if (strcmp(f->m[i].plugin_instance, pi) == 0 && strcmp(f->m[i].type, type) == 0 &&
                    strcmp(f->m[i].type_instance, ti) == 0)
                        return &f->m[i];
        return NULL;
}

static inline bool feed_logged(const struct feed *f, const char *needle)
{
        for (size_t i = 0; i < f->nlog; i++)
                if (strstr(f->log[i], needle))
                        return true;
        return false;
}

#define SEC(s) ((uint64_t)(s)*1000000u * 4096u) /* seconds as TOD units */

#endif
