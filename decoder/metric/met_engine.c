/* SPDX-License-Identifier: MIT */
/*
 * The engine: hands each record to the modules of its family and keeps what
 * they share across records (the system's name and interval, the guests CP
 * named, keys seen once, the guests whose clocks run ahead of CP's).
 * Building a metric itself (ids, names, values) is met_metric.c's, which
 * calls nothing here; the series each guest is granted are its part
 * met_cap.c's.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/tod.h"
#include "metric/met_cap.h"
#include "metric/met_module.h"
#include "metric/met_say.h"
#include "payload/appldata/appl.h"

/* Every metric module, in the order records are offered to them. */
/* X(name) for a `const struct zm_module zm_mod_<name>` in met_<name>.c */
#define MODULES(X)                                                                                 \
        X(reading)                                                                                 \
        X(monitor)                                                                                 \
        X(users)                                                                                   \
        X(cp)                                                                                      \
        X(vm370)                                                                                   \
        X(linux)                                                                                   \
        X(procd)                                                                                   \
        X(wzvm)

#define DECLARE(name) extern const struct zm_module zm_mod_##name;
MODULES(DECLARE)
#undef DECLARE

static const struct zm_module *const modules[] = {
#define ENTRY(name) &zm_mod_##name,
    MODULES(ENTRY)
#undef ENTRY
        NULL,
};
#define NMODULES (sizeof(modules) / sizeof(modules[0]) - 1)

/*
 * The modules a record family goes to, in order, found when the engine is
 * made, so that a record is offered only to the modules that read it and
 * no module is asked per record whether it wants the family.
 */
#define FAMILIES 8

struct fam_route {
        size_t n;
        void (*record[NMODULES])(struct zm_engine *e, void *state, const struct zd_record *r);
        void *state[NMODULES];
        const struct zm_module *mod[NMODULES];
};

static void route_add(struct fam_route *rt, const struct zm_module *m, void *state)
{
        rt->record[rt->n] = m->record;
        rt->mod[rt->n] = m;
        rt->state[rt->n++] = state;
}

/* The modules that read APPLDATA (zm_module's appl), in order. */
struct appl_route {
        size_t n;
        void (*appl[NMODULES])(struct zm_engine *e, void *state, const struct zd_record *r,
                               const struct zd_appl *a);
        void *state[NMODULES];
};

/*
 * Guests are named to the engine with every user and APPLDATA record, the
 * same few hundred every interval: the ones known already are found here
 * before the index is asked.
 */
#define NOTED_SLOTS 2048

/* CP records by domain: route[ZD_FAM_CP] narrowed by each module's domains. */
#define CP_DOMAINS 32

/* A thing zm_say was told of. */
struct said_key {
        uint64_t key;
        struct zm_said said;
};

struct zm_engine {
        struct zm_options opt;
        struct fam_route route[FAMILIES];
        struct fam_route cp_route[CP_DOMAINS];
        zm_emit_fn emit;
        zm_log_fn log;
        void *ctx;
        struct zm_counters cnt;
        char system[ZM_NAME_LEN];
        unsigned system_gen;
        unsigned epoch; /* zm_engine_epoch_at */
        const char *reading;
        double interval;
        uint64_t intervals; /* Interval End records seen */
        void *state[NMODULES + 1];
        struct appl_route appl;
        struct zm_cap cap;           /* the series each guest is granted */
        uint64_t *known;             /* packed userids of the guests CP named (zm_note_guest) */
        uint64_t noted[NOTED_SLOTS]; /* some of them, direct-mapped (0: none) */
        size_t nknown, capknown;
        struct zh_index known_ix;
        struct zm_said hdr_said; /* appl_header_bad's lines, in CP's time */
        struct said_key *seen;   /* zm_say's keys */
        size_t nseen, capseen;
        struct zh_index seen_ix;
};

struct zm_engine *zm_engine_new(const struct zm_options *opt, zm_emit_fn emit, zm_log_fn log,
                                void *ctx)
{
        struct zm_engine *e = calloc(1, sizeof(*e));
        if (!e)
                return NULL;
        if (opt)
                e->opt = *opt;
        else
                e->opt.unverified = -1;
        if (!e->opt.verify_intervals)
                e->opt.verify_intervals = 3;
        e->emit = emit;
        e->log = log;
        e->ctx = ctx;
        for (size_t i = 0; modules[i]; i++)
                if (modules[i]->create)
                        e->state[i] = modules[i]->create(e);
        for (unsigned f = 0; f < FAMILIES; f++)
                for (size_t i = 0; modules[i]; i++) {
                        unsigned want =
                            modules[i]->families ? modules[i]->families : 1u << ZD_FAM_CP;
                        if (modules[i]->record && (want & 1u << f))
                                route_add(&e->route[f], modules[i], e->state[i]);
                }
        const struct fam_route *cp = &e->route[ZD_FAM_CP];
        for (unsigned d = 0; d < CP_DOMAINS; d++)
                for (size_t k = 0; k < cp->n; k++)
                        if (!cp->mod[k]->domains || (cp->mod[k]->domains & 1u << d))
                                route_add(&e->cp_route[d], cp->mod[k], cp->state[k]);
        for (size_t i = 0; modules[i]; i++)
                if (modules[i]->appl) {
                        e->appl.appl[e->appl.n] = modules[i]->appl;
                        e->appl.state[e->appl.n++] = e->state[i];
                }
        return e;
}

void zm_engine_free(struct zm_engine *e)
{
        if (!e)
                return;
        for (size_t i = 0; modules[i]; i++)
                if (modules[i]->destroy)
                        modules[i]->destroy(e->state[i]);
        zm_cap_free(&e->cap);
        free(e->known);
        zh_free(&e->known_ix);
        free(e->seen);
        zh_free(&e->seen_ix);
        free(e);
}

/* CP's time in an hour: the least time between two lines about unusable headers. */
#define HOUR_TOD ((uint64_t)3600 * 1000000 * ZD_TOD_PER_US)

/*
 * A domain 10 record whose APPLDATA header lies, or whose userid is none CP
 * stamps (blank, or a character outside A-Z 0-9 @ # $ _ -): it names no
 * guest, so nothing of it is used (doc/plugin.md).  A guest writes neither
 * (CP fills the header), so these are damage or a CP the decoder misreads:
 * counted always (appl_bad), logged the first time, then at most once an
 * hour of CP's time with the number since the last line, whichever record
 * it is, so that a stream of them is one line an hour, not one per record.
 */
static void appl_header_bad(struct zm_engine *e, const struct zd_record *r, const struct zd_appl *a,
                            enum zd_err_kind k)
{
        e->cnt.appl_bad++;
        uint64_t nbad = zm_said_now(&e->hdr_said, r->tod, HOUR_TOD, ZM_SAY_SINCE_SAID);
        if (!nbad)
                return;
        char uid[9];
        size_t n = 0;
        for (; a->userid[n] && n < 8; n++) /* as it came, but printable */
                uid[n] = a->userid[n] > 0x20 && a->userid[n] < 0x7F ? a->userid[n] : '?';
        uid[n] = '\0';
        zm_log(e, ZM_LOG_WARNING,
               "a domain 10 record (D10R%u, userid \"%s\") is unusable: %s; %llu such "
               "record%s since the last line, counted (appl_bad) and said at most once an hour",
               (unsigned)r->number, uid, zd_err_desc(k), (unsigned long long)nbad,
               nbad == 1 ? "" : "s");
}

/*
 * A D10R1 or D10R2 record: its APPLDATA header parsed here, once, for every
 * module that reads it.  Out of line: most records are CP's own.
 */
static __attribute__((noinline)) void deliver_appl(struct zm_engine *e, const struct zd_record *r)
{
        struct zd_appl a;
        enum zd_err_kind err = zd_appl_parse(r, &a);
        if (err != ZD_E_NONE) {
                appl_header_bad(e, r, &a, err);
                return;
        }
        zm_note_guest(e, a.userid); /* CP stamped it: this guest exists */
        for (size_t k = 0; k < e->appl.n; k++)
                e->appl.appl[k](e, e->appl.state[k], r, &a);
}

void zm_engine_record(struct zm_engine *e, const struct zd_record *r)
{
        if ((unsigned)r->family >= FAMILIES)
                return; /* no module reads it */
        const struct fam_route *rt = r->family == ZD_FAM_CP && r->domain < CP_DOMAINS
                                         ? &e->cp_route[r->domain]
                                         : &e->route[r->family];
        for (size_t k = 0; k < rt->n; k++)
                rt->record[k](e, rt->state[k], r);
        if (r->family == ZD_FAM_CP && r->domain == 10 && (r->number == 1 || r->number == 2) &&
            e->appl.n)
                deliver_appl(e, r);
}

void zm_engine_interval_end(struct zm_engine *e, const struct zd_record *r)
{
        e->intervals++;
        e->epoch++;
        for (size_t i = 0; modules[i]; i++)
                if (modules[i]->interval_end)
                        modules[i]->interval_end(e, e->state[i], r);
        /* after the modules: the values they send at the end count as this interval's */
        if (e->opt.max_series_per_guest)
                zm_cap_sweep(&e->cap, (uint32_t)e->intervals, e->opt.series_idle);
}

const struct zm_counters *zm_engine_counters(const struct zm_engine *e)
{
        return &e->cnt;
}

struct zm_sink zm_engine_sink(struct zm_engine *e)
{
        return (struct zm_sink){e->emit, e->ctx, &e->cnt.metrics};
}

struct zm_counters *zm_counters_mut(struct zm_engine *e)
{
        return &e->cnt;
}

const struct zm_options *zm_engine_options(const struct zm_engine *e)
{
        return &e->opt;
}

const char *zm_engine_system(const struct zm_engine *e)
{
        return e->system;
}

double zm_engine_interval(const struct zm_engine *e)
{
        return e->interval;
}

uint64_t zm_engine_intervals(const struct zm_engine *e)
{
        return e->intervals;
}

unsigned zm_engine_system_gen(const struct zm_engine *e)
{
        return e->system_gen;
}

const unsigned *zm_engine_epoch_at(const struct zm_engine *e)
{
        return &e->epoch;
}

void zm_set_system(struct zm_engine *e, const char *name)
{
        if (strncmp(e->system, name, sizeof(e->system) - 1) == 0)
                return;
        snprintf(e->system, sizeof(e->system), "%s", name);
        e->system_gen++;
        e->epoch++;
}

void zm_set_interval(struct zm_engine *e, double seconds)
{
        e->interval = seconds;
}

const char *zm_engine_reading(const struct zm_engine *e)
{
        return e->reading;
}

void zm_set_reading(struct zm_engine *e, const char *reading)
{
        e->reading = reading;
}

void *zm_engine_state(const struct zm_engine *e, const char *module)
{
        for (size_t i = 0; e && modules[i]; i++)
                if (strcmp(modules[i]->name, module) == 0)
                        return e->state[i];
        return NULL;
}

void zm_log(struct zm_engine *e, int level, const char *fmt, ...)
{
        if (!e->log)
                return;
        char msg[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        e->log(e->ctx, level, msg);
}

/* A lookup in one of the engine's tables: the engine and the key sought. */
struct probe {
        const struct zm_engine *e;
        uint64_t key;
};

static bool seen_eq(const void *ctx, size_t pos)
{
        const struct probe *p = ctx;
        return p->e->seen[pos].key == p->key;
}

static bool known_eq(const void *ctx, size_t pos)
{
        const struct probe *p = ctx;
        return p->e->known[pos] == p->key;
}

void zm_note_guest(struct zm_engine *e, const char *userid)
{
        struct probe p = {e, zh_word8(userid)};
        uint64_t *c = &e->noted[((p.key * UINT64_C(0x9E3779B97F4A7C15)) >> 53) % NOTED_SLOTS];
        if (!userid[0] || *c == p.key)
                return;
        uint64_t h = zh_u64(ZH_SEED, p.key);
        if (zh_find(&e->known_ix, h, known_eq, &p) != SIZE_MAX) {
                *c = p.key;
                return;
        }
        if (!zh_grow((void **)&e->known, &e->capknown, e->nknown, sizeof(*e->known)) ||
            !zh_add(&e->known_ix, h, e->nknown))
                return;
        e->known[e->nknown++] = p.key;
        e->epoch++;
        *c = p.key;
}

bool zm_engine_knows_guest(const struct zm_engine *e, const char *userid)
{
        struct probe p = {e, zh_word8(userid)};
        return zh_find(&e->known_ix, zh_u64(ZH_SEED, p.key), known_eq, &p) != SIZE_MAX;
}

size_t zm_engine_guests_known(const struct zm_engine *e)
{
        return e->nknown;
}

uint64_t zm_say(struct zm_engine *e, uint64_t key, uint64_t now, uint64_t quiet)
{
        struct probe p = {e, key};
        size_t i = zh_find(&e->seen_ix, key, seen_eq, &p);
        if (i != SIZE_MAX)
                return zm_said_now(&e->seen[i].said, now, quiet, ZM_SAY_SINCE_SAID);
        if (e->nseen >= ZM_SAY_KEYS)
                return 0;
        if (!zh_grow((void **)&e->seen, &e->capseen, e->nseen, sizeof(*e->seen)) ||
            !zh_add(&e->seen_ix, key, e->nseen))
                return 1; /* out of memory: better a line too many than none */
        e->seen[e->nseen] = (struct said_key){.key = key};
        return zm_said_now(&e->seen[e->nseen++].said, now, quiet, ZM_SAY_SINCE_SAID);
}

/*
 * A guest's clock is the guest's to set, and every stamp it writes is taken
 * as when its values were true.  CP copies a buffer after the guest wrote
 * it, so a stamp well after CP's own record is a clock set wrong or a lie;
 * taken as it is, the series would then stop: collectd, and the plugin
 * before it, drop every later value that is not newer, until the clock
 * passes the claim (for a claim of year 9999, for good).  CP's time is a
 * true bound on when the values were written.  The slack covers a guest
 * whose clock runs a little ahead (NTP against a TOD clock set without
 * leap seconds differs by up to a minute).
 */
uint64_t zm_guest_tod(struct zm_engine *e, const char *userid, uint64_t claimed, uint64_t cp_tod)
{
        const uint64_t slack = (uint64_t)ZM_GUEST_AHEAD_S * 1000000 * ZD_TOD_PER_US;
        if (!cp_tod || claimed <= cp_tod || claimed - cp_tod <= slack)
                return claimed;
        zm_counters_mut(e)->appl_future++;
        if (zm_say(e, zh_u64(zh_str(ZH_SEED, userid), UINT64_C(0x465554555245)), 0,
                   0)) /* "FUTURE" */
                zm_log(e, ZM_LOG_WARNING,
                       "guest %s stamps its values %.0f s after CP copied them (more than "
                       "%d s ahead: its clock is wrong); they carry CP's time instead, further "
                       "ones counted (appl_future)",
                       userid, (double)((claimed - cp_tod) / ZD_TOD_PER_US) / 1e6,
                       ZM_GUEST_AHEAD_S);
        return cp_tod;
}

/* A guest metric under the series cap: its id, and whether the guest may have another series. */
/*
 * A guest at its cap: said when the cap first refuses it, and again only
 * after a quiet spell (met_cap.h), with the userid and the series refused,
 * so that an operator learns which guest lost what, not only that
 * series_capped moves.
 */
static void log_capped(struct zm_engine *e, const struct zm_metric *m, const struct zm_cap_guest *g)
{
        char when[96];
        if (e->opt.series_idle)
                snprintf(when, sizeof(when),
                         "until some of its series have had no value for %u "
                         "sample intervals (SeriesIdleTimeout)",
                         e->opt.series_idle);
        else
                snprintf(when, sizeof(when), "for good (SeriesIdleTimeout 0)");
        zm_log(e, ZM_LOG_WARNING,
               "guest %s has %u series, MaxSeriesPerGuest: its new series (such as "
               "%s/%s/%s/%s) are refused %s and counted (series_capped); said again only "
               "after %d intervals without a refusal",
               m->guest, g->nseries, m->plugin, m->plugin_instance, m->type, m->type_instance, when,
               ZM_CAP_QUIET);
}

__attribute__((noinline)) static void emit_capped(struct zm_engine *e, struct zm_metric *m)
{
        m->id = zm_series_id(m);
        const struct zm_cap_guest *g = NULL;
        enum zm_cap_verdict v = zm_cap_admit(&e->cap, m->id, m->guest, e->opt.max_series_per_guest,
                                             (uint32_t)e->intervals, &g);
        if (v != ZM_CAP_OK) {
                e->cnt.series_capped++;
                if (v == ZM_CAP_LOG)
                        log_capped(e, m, g);
                return;
        }
        e->cnt.metrics++;
        if (e->emit)
                e->emit(e->ctx, m);
}

/*
 * The id only for the series cap, which needs it: from the module's key if it
 * set one, else hashed from the names.  A consumer that finds the series by
 * other means (the plugin's guess of the next series, confirmed by the key)
 * never pays for it; one that needs it calls zm_series_id.  The capped path
 * is a function of its own so that this one, run for every value, saves no
 * registers.
 */
void zm_emit(struct zm_engine *e, struct zm_metric *m)
{
        if (m->scope == ZM_GUEST && e->opt.max_series_per_guest) {
                emit_capped(e, m);
                return;
        }
        m->id = 0;
        e->cnt.metrics++;
        if (e->emit)
                e->emit(e->ctx, m);
}
