/* SPDX-License-Identifier: MIT */
/*
 * zm_metric -> value_list_t.  The host is the guest for a guest's own data
 * (GuestHostFormat, GuestHost) and the z/VM system for CP data (Host, else
 * the system id from D1R4); the time is the record's TOD; the interval is the
 * monitor's sample interval (D1R9) when known.  collectd's value cache
 * refuses a time that is not newer than the last for the same identifier, so
 * each (identifier, time) is dispatched once and repeats are counted.
 */
#include "zvm_collectd.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "tod.h"
#include "zvm.h"

struct seen {
        uint64_t id;   /* 0 = empty slot */
        cdtime_t last; /* newest time dispatched */
};

struct zvm_dispatch {
        const struct zvm_config *cfg;
        const struct zm_engine *eng;
        struct seen *tab;
        size_t n, cap; /* cap is a power of two */
};

struct zvm_dispatch *zvm_dispatch_new(const struct zvm_config *c)
{
        struct zvm_dispatch *d = calloc(1, sizeof(*d));
        if (!d)
                return NULL;
        d->cfg = c;
        d->cap = 1024;
        if (!(d->tab = calloc(d->cap, sizeof(*d->tab)))) {
                free(d);
                return NULL;
        }
        return d;
}

void zvm_dispatch_free(struct zvm_dispatch *d)
{
        if (!d)
                return;
        free(d->tab);
        free(d);
}

void zvm_dispatch_set_engine(struct zvm_dispatch *d, const struct zm_engine *e)
{
        d->eng = e;
}

/*
 * Metric modules may say the same thing every interval (a record that never
 * fits its layout): a message seen again is logged only on its 2nd, 4th,
 * 8th, ... occurrence, with the count, so the log stays readable.
 */
#define LOG_MEMORY 16
static struct {
        uint64_t hash;
        uint64_t count;
} log_seen[LOG_MEMORY];
static size_t log_next;

void zvm_engine_log(void *ctx, int level, const char *msg)
{
        (void)ctx;
        uint64_t h = UINT64_C(0xCBF29CE484222325);
        for (const char *s = msg; *s; s++)
                h = (h ^ (uint8_t)*s) * UINT64_C(0x100000001B3);
        for (size_t i = 0; i < LOG_MEMORY; i++) {
                if (log_seen[i].hash != h || !log_seen[i].count)
                        continue;
                uint64_t n = ++log_seen[i].count;
                if ((n & (n - 1)) == 0)
                        plugin_log(level, ZVM_PLUGIN " plugin: %s (seen %llu times)", msg,
                                   (unsigned long long)n);
                return;
        }
        log_seen[log_next].hash = h;
        log_seen[log_next].count = 1;
        log_next = (log_next + 1) % LOG_MEMORY;
        plugin_log(level, ZVM_PLUGIN " plugin: %s", msg);
}

static uint64_t fnv(uint64_t h, const char *s)
{
        for (; *s; s++)
                h = (h ^ (uint8_t)*s) * UINT64_C(0x100000001B3);
        return (h ^ 0xFF) * UINT64_C(0x100000001B3); /* field separator no name can hold */
}

static struct seen *slot(struct seen *tab, size_t cap, uint64_t id)
{
        size_t i = (size_t)(id ^ id >> 29) & (cap - 1);
        while (tab[i].id && tab[i].id != id)
                i = (i + 1) & (cap - 1);
        return &tab[i];
}

/* Is (id, t) newer than anything dispatched for id?  Records t if so. */
static bool newer(struct zvm_dispatch *d, uint64_t id, cdtime_t t)
{
        if (!id)
                id = 1;
        if ((d->n + 1) * 4 > d->cap * 3) {
                size_t cap = d->cap * 2;
                struct seen *tab = calloc(cap, sizeof(*tab));
                if (tab) {
                        for (size_t i = 0; i < d->cap; i++)
                                if (d->tab[i].id)
                                        *slot(tab, cap, d->tab[i].id) = d->tab[i];
                        free(d->tab);
                        d->tab = tab;
                        d->cap = cap;
                }
        }
        struct seen *s = slot(d->tab, d->cap, id);
        if (s->id && t <= s->last)
                return false;
        if (!s->id) {
                if ((d->n + 1) * 8 > d->cap * 7)
                        return true; /* table full (allocation failed): dispatch, let collectd judge
                                      */
                s->id = id;
                d->n++;
        }
        s->last = t;
        return true;
}

static bool rec_match(const struct zvm_recfilter *f, size_t n, const struct zm_metric *m)
{
        for (size_t i = 0; i < n; i++)
                if (f[i].domain == m->domain && (f[i].record < 0 || f[i].record == m->record))
                        return true;
        return false;
}

static bool guest_match(char *const *pat, size_t n, const char *userid)
{
        for (size_t i = 0; i < n; i++)
                if (fnmatch(pat[i], userid, 0) == 0)
                        return true;
        return false;
}

/* The filters: Include* (if any) must match, Exclude* must not. */
static bool wanted(const struct zvm_config *c, const struct zm_metric *m)
{
        if (c->ninc_rec && !rec_match(c->inc_rec, c->ninc_rec, m))
                return false;
        if (rec_match(c->exc_rec, c->nexc_rec, m))
                return false;
        if (m->guest[0]) {
                if (c->ninc_guest && !guest_match(c->inc_guest, c->ninc_guest, m->guest))
                        return false;
                if (guest_match(c->exc_guest, c->nexc_guest, m->guest))
                        return false;
        }
        return true;
}

static void system_host(const struct zvm_dispatch *d, char *out, size_t outsz)
{
        const char *sys = d->eng ? zm_engine_system(d->eng) : "";
        if (d->cfg->host)
                zvm_strlcpy(out, d->cfg->host, outsz);
        else if (sys[0]) {
                size_t i = 0;
                for (; sys[i] && i + 1 < outsz; i++)
                        out[i] = (char)tolower((unsigned char)sys[i]);
                out[i] = 0;
        } else
                out[0] = 0; /* collectd fills in its own Hostname */
}

static void count(uint64_t *field)
{
        zvm_stats_lock();
        (*field)++;
        zvm_stats_unlock();
}

void zvm_dispatch_metric(void *ctx, const struct zm_metric *m)
{
        struct zvm_dispatch *d = ctx;
        struct zvm_stats *st = zvm_stats();
        if (!wanted(d->cfg, m) || m->nvalues == 0) {
                count(&st->filtered);
                return;
        }

        value_list_t vl = VALUE_LIST_INIT;
        value_t values[ZM_MAXVALUES];
        for (size_t i = 0; i < m->nvalues; i++) {
                if (m->ds[i] == ZM_GAUGE)
                        values[i].gauge = m->gauge[i];
                else
                        values[i].derive = (derive_t)m->derive[i];
        }
        vl.values = values;
        vl.values_len = m->nvalues;

        if (m->host[0])
                zvm_strlcpy(vl.host, m->host, sizeof(vl.host));
        else if (m->scope == ZM_GUEST && m->guest[0]) {
                if (!zvm_guest_host(d->cfg, m->guest, vl.host, sizeof(vl.host)))
                        zvm_strlcpy(vl.host, m->guest, sizeof(vl.host));
        } else
                system_host(d, vl.host, sizeof(vl.host));
        zvm_strlcpy(vl.plugin, m->plugin, sizeof(vl.plugin));
        zvm_strlcpy(vl.plugin_instance, m->plugin_instance, sizeof(vl.plugin_instance));
        zvm_strlcpy(vl.type, m->type, sizeof(vl.type));
        zvm_strlcpy(vl.type_instance, m->type_instance, sizeof(vl.type_instance));

        /* TODs before 1970 (a zeroed clock field) cannot be collectd times: use now. */
        int64_t us = m->tod ? zd_tod_to_unix_us(m->tod) : -1;
        vl.time = us > 0 ? US_TO_CDTIME_T((uint64_t)us) : cdtime();
        double iv = d->eng ? zm_engine_interval(d->eng) : 0;
        if (iv > 0)
                vl.interval = DOUBLE_TO_CDTIME_T(iv);

        uint64_t id = UINT64_C(0xCBF29CE484222325);
        id = fnv(id, vl.host);
        id = fnv(id, vl.plugin);
        id = fnv(id, vl.plugin_instance);
        id = fnv(id, vl.type);
        id = fnv(id, vl.type_instance);
        if (!newer(d, id, vl.time)) {
                count(&st->duplicates);
                return;
        }
        if (plugin_dispatch_values(&vl) == 0)
                count(&st->dispatched);
        else
                count(&st->filtered);
}
