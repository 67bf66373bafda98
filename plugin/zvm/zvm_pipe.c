/* SPDX-License-Identifier: MIT */
/*
 * The pipe both the device reader and the file replay feed: the decoder's
 * handler hands records to the metric engine, whose metrics go to the
 * dispatcher; record and error counts are gathered here and published to
 * the self-metrics once per data set (zvm_pipe_publish), so the hot path
 * takes no lock.
 */
#include "zvm_collectd.h"

#include <string.h>

#include "zvm.h"

struct pipe_local {
        uint64_t records;
        uint64_t errors[ZD_E__COUNT];
};
/* Only the worker thread decodes, so one set of pending counts suffices. */
static struct pipe_local pending;
static c_complain_t decode_complaint = C_COMPLAIN_INIT_STATIC;

static void on_record(void *ctx, const struct zd_record *r)
{
        struct zvm_pipe *p = ctx;
        pending.records++;
        zm_engine_record(p->eng, r);
}

/* ShareSocket: the configuration records (MTRSYS, MTREPR) mark a set readers that come
 * later must get first (zvm_share.c).  Without it the handler is on_record alone. */
static void on_record_watch(void *ctx, const struct zd_record *r)
{
        struct zvm_pipe *p = ctx;
        if (r->family == ZD_FAM_CP && r->domain == 1 && (r->number == 4 || r->number == 1))
                p->config_seen = true;
        on_record(ctx, r);
}

static void on_interval_end(void *ctx, const struct zd_record *r)
{
        struct zvm_pipe *p = ctx;
        zm_engine_interval_end(p->eng, r);
        zvm_dispatch_interval_end(p->disp);
}

static void on_error(void *ctx, const struct zd_error *e)
{
        (void)ctx;
        if (e->kind > ZD_E_NONE && e->kind < ZD_E__COUNT)
                pending.errors[e->kind]++;
        c_complain(LOG_WARNING, &decode_complaint,
                   ZVM_PLUGIN
                   " plugin: decode error (%s): %s (further decode errors are "
                   "counted in zvm-reader/errors-decode-*; this message is rate-limited)",
                   zd_err_name(e->kind), e->msg);
}

struct zd_handler zvm_pipe_handler(struct zvm_pipe *p)
{
        struct zd_handler h = {
            .ctx = p,
            .record = p->watch_config ? on_record_watch : on_record,
            .error = on_error,
            .interval_end = on_interval_end,
        };
        return h;
}

bool zvm_pipe_init(struct zvm_pipe *p, const struct zvm_config *c)
{
        C_COMPLAIN_INIT(&decode_complaint);
        memset(p, 0, sizeof(*p));
        memset(&pending, 0, sizeof(pending));
        p->cfg = c;
        p->watch_config = c->share_path != NULL;
        if (!(p->disp = zvm_dispatch_new(c)))
                return false;
        p->eng = zm_engine_new(&c->engine, zvm_dispatch_metric, zvm_engine_log, p->disp);
        if (!p->eng) {
                zvm_dispatch_free(p->disp);
                p->disp = NULL;
                return false;
        }
        zvm_dispatch_set_engine(p->disp, p->eng);
        struct zd_handler h = zvm_pipe_handler(p);
        zd_decoder_init(&p->dec, &h);
        return true;
}

void zvm_pipe_destroy(struct zvm_pipe *p)
{
        zvm_dispatch_flush(p->disp);
        zm_engine_free(p->eng);
        zvm_dispatch_free(p->disp);
        memset(p, 0, sizeof(*p));
}

void zvm_pipe_publish(struct zvm_pipe *p)
{
        zvm_dispatch_flush(p->disp); /* a data set's values go out as one burst */
        zvm_stats_lock();
        struct zvm_stats *s = zvm_stats();
        s->records += pending.records;
        for (int k = 0; k < ZD_E__COUNT; k++)
                s->decode_errors[k] += pending.errors[k];
        s->engine = *zm_engine_counters(p->eng);
        zvm_stats_unlock();
        memset(&pending, 0, sizeof(pending));
}
