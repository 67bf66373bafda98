/* SPDX-License-Identifier: MIT */
/*
 * zm_metric -> value_list_t.  The host is the guest for a guest's own data
 * (GuestHostFormat, GuestHost of its CP userid; a host the guest wrote only
 * through TrustedGuestHost, see the threat model in doc/plugin.md) and the
 * z/VM system for CP data (Host, else the system id from D1R4); the time is
 * the record's TOD; the interval is the monitor's sample interval (D1R9) when
 * known.  collectd's value cache refuses a time that is not newer than the
 * last for the same identifier, so each (identifier, time) is dispatched once
 * and repeats are counted.
 *
 * Everything derived from a series (names, host, filter and type verdicts) is
 * kept per series and found again by the order values came in last interval,
 * so a value costs the same at 50 guests and at 50,000.
 */
#include "zvm_collectd.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "base/hash.h"
#include "base/tod.h"
#include "zvm.h"

/* The names of a series, kept one after another in series.text. */
enum { N_CLAIM, N_PLUGIN, N_PINST, N_TYPE, N_TINST, N_HOST, N_NAMES };

/*
 * What the dispatcher derives from a series once and keeps.  The key fields
 * confirm a lookup; the host is derived again when the system name (D1R4),
 * the configured Host or, for a guest's claim, what decides claims changes.
 */
struct series {
        uint64_t id;
        uint32_t succ;  /* + 1: the series whose value came after this one's last time */
        uint32_t ident; /* the identifier this series is dispatched as */
        unsigned system_gen;
        unsigned trust_gen; /* trust_now() when its host was decided */
        bool claim_open;    /* a claim that a new guest or CP's first interval may decide
                               otherwise: accepted, or refused as too early */
        const char *cfg_host;
        bool wanted;
        const char *refused; /* why a guest's names are refused (refused_name), or NULL */
        int ds_num;          /* values its type takes (types.db); -1: no such type */
        bool claim_refused;  /* the guest named a host it may not use: its own host instead */
        enum zm_scope scope;
        uint8_t domain;
        uint16_t record;
        char guest[9];
        /*
         * The claim (the host the guest wrote itself, if any), the four names
         * and the host resolved, NUL-terminated one after another: a few cache
         * lines per value instead of a whole value list's 640 bytes of names.
         */
        char *text;
        uint16_t cap; /* bytes at text */
        uint16_t off[N_NAMES];
        uint8_t len[N_NAMES];
};

static const char *nm(const struct series *x, int k)
{
        return x->text + x->off[k];
}

/*
 * collectd identifiers dispatched and the newest time of each: two series can
 * end up as one identifier (GuestHost naming two guests alike), and collectd
 * refuses a time that is not newer, so the check is per identifier.
 */
struct ident {
        uint64_t hash;
        uint32_t series; /* the series that first used it, whose text holds the names */
        cdtime_t last;
};

/* A host name and the guest whose metrics carry it: no other guest may claim it. */
struct bound {
        char host[DATA_MAX_NAME_LEN];
        char userid[9];
};

/* A guest already told about in the log (once for its host claim, once for names). */
struct noted {
        char userid[9];
        bool host, name, type;
};

struct zvm_dispatch {
        const struct zvm_config *cfg;
        const struct zm_engine *eng;
        struct bound *bound;
        size_t nbound, capbound;
        struct zh_index bix;
        struct noted *noted;
        size_t nnoted, capnoted;
        struct zh_index nix;
        /*
         * Changes when a guest is seen for the first time (its own host is then
         * bound to it) and when CP's first interval ends: a host a guest claimed
         * is decided again, so a claim made before the rightful guest showed up
         * does not outlive it.
         */
        unsigned trust_gen;
        struct series *s;
        size_t ns, caps;
        size_t prev;          /* + 1: the series of the last value */
        size_t since, in_seq; /* values since the last check; of those, found right after
                                 the previous one in the array (relayout()) */
        size_t rounds;        /* rounds of values between checks: 2, doubled while a layout
                                 does not help (an order that changes every interval) */
        struct zh_index six;
        struct ident *id;
        size_t nid, capid;
        struct zh_index iix;
        value_list_t vl; /* the value list being dispatched, filled from a series */
        char **blocks;   /* the series' names (text_alloc) */
        size_t nblocks, capblocks, block_used;
};

struct zvm_dispatch *zvm_dispatch_new(const struct zvm_config *c)
{
        struct zvm_dispatch *d = calloc(1, sizeof(*d));
        if (!d)
                return NULL;
        d->cfg = c;
        d->rounds = 2;
        return d;
}

void zvm_dispatch_free(struct zvm_dispatch *d)
{
        if (!d)
                return;
        for (size_t i = 0; i < d->nblocks; i++)
                free(d->blocks[i]);
        free(d->blocks);
        free(d->s);
        zh_free(&d->six);
        free(d->id);
        zh_free(&d->iix);
        free(d->bound);
        zh_free(&d->bix);
        free(d->noted);
        zh_free(&d->nix);
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
        uint64_t h = zh_str(ZH_SEED, msg);
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
        zvm_stats_add(field, 1);
}

struct find {
        const struct zvm_dispatch *d;
        const struct zm_metric *m;
        const struct series *x;
};

static bool series_eq(const void *ctx, size_t pos)
{
        const struct find *f = ctx;
        const struct series *x = &f->d->s[pos];
        const struct zm_metric *m = f->m;
        return (!m->id || x->id == m->id) && x->scope == m->scope && x->domain == m->domain &&
               x->record == m->record && strcmp(x->guest, m->guest) == 0 &&
               strcmp(nm(x, N_CLAIM), m->host) == 0 && strcmp(nm(x, N_PLUGIN), m->plugin) == 0 &&
               strcmp(nm(x, N_PINST), m->plugin_instance) == 0 &&
               strcmp(nm(x, N_TYPE), m->type) == 0 && strcmp(nm(x, N_TINST), m->type_instance) == 0;
}

static bool ident_eq(const void *ctx, size_t pos)
{
        const struct find *f = ctx;
        const struct series *a = &f->d->s[f->d->id[pos].series], *b = f->x;
        for (int k = N_PLUGIN; k < N_NAMES; k++)
                if (a->len[k] != b->len[k] || memcmp(nm(a, k), nm(b, k), a->len[k]) != 0)
                        return false;
        return true;
}

/*
 * Series names live in blocks of their own, allocated a few at a time and
 * freed with the dispatcher: a series allocated among collectd's value-list
 * copies (made in this thread too) would pin the heap after a burst.
 */
#define TEXT_BLOCK 65536
#define HOST_ROOM  64 /* a host may change (D1R4 seen, Host set) without moving */

static char *text_alloc(struct zvm_dispatch *d, size_t n)
{
        if (n > TEXT_BLOCK)
                return NULL;
        if (!d->nblocks || d->block_used + n > TEXT_BLOCK) {
                char *b = malloc(TEXT_BLOCK);
                if (!b ||
                    !zh_grow((void **)&d->blocks, &d->capblocks, d->nblocks, sizeof(*d->blocks))) {
                        free(b);
                        return NULL;
                }
                d->blocks[d->nblocks++] = b;
                d->block_used = 0;
        }
        char *t = d->blocks[d->nblocks - 1] + d->block_used;
        d->block_used += n;
        return t;
}

/*
 * Lay out x's names: the first N_HOST from the strings given (they may be
 * x's own), then host.  Names are at most DATA_MAX_NAME_LEN - 1 bytes; longer
 * ones were cut by the engine already (ZM_NAME_LEN is the same size).  False
 * when out of memory.
 */
static bool set_text(struct zvm_dispatch *d, struct series *x, const char *const name[N_HOST],
                     const char *host)
{
        size_t n = 0, len[N_NAMES];
        for (int k = 0; k < N_NAMES; k++) {
                const char *v = k == N_HOST ? host : name[k];
                len[k] = strnlen(v, DATA_MAX_NAME_LEN - 1);
                n += len[k] + 1;
        }
        char *t = x->text && n <= x->cap ? x->text : text_alloc(d, n + HOST_ROOM);
        if (!t)
                return false;
        if (t != x->text)
                x->cap = (uint16_t)(n + HOST_ROOM);
        size_t o = 0;
        for (int k = 0; k < N_NAMES; k++) {
                memmove(t + o, k == N_HOST ? host : name[k], len[k]); /* may be t itself */
                t[o + len[k]] = '\0';
                x->off[k] = (uint16_t)o;
                x->len[k] = (uint8_t)len[k];
                o += len[k] + 1;
        }
        x->text = t;
        return true;
}

struct name_probe {
        const struct zvm_dispatch *d;
        const char *key;
};

/* Host names are one name in any case: a claim of "LINUX001" is one of "linux001". */
static bool bound_eq(const void *ctx, size_t pos)
{
        const struct name_probe *p = ctx;
        return strcasecmp(p->d->bound[pos].host, p->key) == 0;
}

static uint64_t host_hash(const char *host)
{
        char low[DATA_MAX_NAME_LEN];
        size_t i = 0;
        for (; host[i] && i + 1 < sizeof(low); i++)
                low[i] = (char)tolower((unsigned char)host[i]);
        low[i] = '\0';
        return zh_str(ZH_SEED, low);
}

static bool noted_eq(const void *ctx, size_t pos)
{
        const struct name_probe *p = ctx;
        return strcmp(p->d->noted[pos].userid, p->key) == 0;
}

/* The guest a host name belongs to, or NULL. */
static const char *owner_of(const struct zvm_dispatch *d, const char *host)
{
        struct name_probe p = {d, host};
        size_t i = zh_find(&d->bix, host_hash(host), bound_eq, &p);
        return i == SIZE_MAX ? NULL : d->bound[i].userid;
}

static void bind_host(struct zvm_dispatch *d, const char *host, const char *userid)
{
        if (!host[0] || owner_of(d, host) ||
            !zh_grow((void **)&d->bound, &d->capbound, d->nbound, sizeof(*d->bound)) ||
            !zh_add(&d->bix, host_hash(host), d->nbound))
                return;
        struct bound *b = &d->bound[d->nbound++];
        zvm_strlcpy(b->host, host, sizeof(b->host));
        zvm_strlcpy(b->userid, userid, sizeof(b->userid));
        d->trust_gen++;
}

/* The guest's log notes (created on first use); NULL when out of memory. */
static struct noted *noted(struct zvm_dispatch *d, const char *userid)
{
        struct name_probe p = {d, userid};
        uint64_t h = zh_str(ZH_SEED, userid);
        size_t i = zh_find(&d->nix, h, noted_eq, &p);
        if (i != SIZE_MAX)
                return &d->noted[i];
        if (!zh_grow((void **)&d->noted, &d->capnoted, d->nnoted, sizeof(*d->noted)) ||
            !zh_add(&d->nix, h, d->nnoted))
                return NULL;
        struct noted *n = &d->noted[d->nnoted++];
        memset(n, 0, sizeof(*n));
        zvm_strlcpy(n->userid, userid, sizeof(n->userid));
        return n;
}

/* The host name as TrustedGuestHost spells it, if the guest is trusted with it; else NULL. */
static const char *trusted(const struct zvm_config *c, const char *userid, const char *host)
{
        for (size_t i = 0; i < c->ntrust; i++)
                if (strcmp(c->trust[i].userid, userid) == 0)
                        for (size_t k = 0; k < c->trust[i].nhosts; k++)
                                if (strcasecmp(c->trust[i].hosts[k], host) == 0)
                                        return c->trust[i].hosts[k];
        return NULL;
}

static bool userid_char(char c)
{
        return isalnum((unsigned char)c) || c == '@' || c == '#' || c == '$' || c == '_' ||
               c == '-';
}

/*
 * Is host the one GuestHost or GuestHostFormat gives a guest other than
 * guest, one CP has named?  The format is read backwards: its text around
 * the one %u or %U must match, and what is left must be the userid of a guest
 * CP reported (a user record, or the userid it stamps on APPLDATA).
 */
static bool other_guests_host(const struct zvm_dispatch *d, const char *host, const char *guest)
{
        const struct zvm_config *c = d->cfg;
        for (size_t i = 0; i < c->nmap; i++)
                if (strcasecmp(c->map[i].host, host) == 0 && strcmp(c->map[i].userid, guest) != 0)
                        return true;
        if (!d->eng)
                return false;
        const char *fmt = c->guest_format ? c->guest_format : "%u";
        char pre[DATA_MAX_NAME_LEN], post[DATA_MAX_NAME_LEN];
        size_t np = 0, nq = 0, uses = 0;
        for (const char *f = fmt; *f; f++) {
                if (f[0] == '%' && (f[1] == 'u' || f[1] == 'U')) {
                        uses++;
                        f++;
                        continue;
                }
                if (f[0] == '%' && f[1] == '%')
                        f++;
                if (uses == 0 && np + 1 < sizeof(pre))
                        pre[np++] = *f;
                else if (uses == 1 && nq + 1 < sizeof(post))
                        post[nq++] = *f;
        }
        pre[np] = post[nq] = '\0';
        size_t n = strlen(host);
        if (uses != 1 || n <= np + nq || n - np - nq > 8 || strncasecmp(host, pre, np) != 0 ||
            strcasecmp(host + n - nq, post) != 0)
                return false;
        char uid[9];
        size_t k = 0;
        for (size_t i = np; i < n - nq; i++) {
                if (!userid_char(host[i]))
                        return false;
                uid[k++] = (char)toupper((unsigned char)host[i]);
        }
        uid[k] = '\0';
        if (strcmp(uid, guest) == 0)
                return false;
        for (size_t i = 0; i < c->nmap; i++) /* a mapped guest's host is its GuestHost */
                if (strcmp(c->map[i].userid, uid) == 0)
                        return false;
        return zm_engine_knows_guest(d->eng, uid);
}

/*
 * Why a guest may not publish under the host name it wrote (NULL: it may).
 * Identity comes from CP's userid, never from the data: only a guest the
 * configuration trusts with that very name may use it, and never for a name
 * that is the z/VM system's, the collector's own, or another guest's: a
 * guest's own host is bound to it as soon as CP names the guest (a CP record
 * or its own data), and claims already granted are decided again then.
 */
static const char too_early[] = "not before CP's first sample interval has named the guests";

/* What decides claims: the guests seen so far, and whether CP's first interval is over. */
static unsigned trust_now(const struct zvm_dispatch *d)
{
        size_t known = d->eng ? zm_engine_guests_known(d->eng) : 0;
        return (unsigned)(d->trust_gen + known) * 2 + (d->eng && zm_engine_intervals(d->eng) >= 2);
}

static const char *claim_refusal(const struct zvm_dispatch *d, const struct series *x)
{
        char sys[DATA_MAX_NAME_LEN];
        const char *claim = nm(x, N_CLAIM);
        if (!trusted(d->cfg, x->guest, claim))
                return "not configured for this guest (TrustedGuestHost)";
        /* CP ends its configuration set with an Interval End too: the second one ends
         * the first sample interval, whose user records named the guests. */
        if (d->eng && zm_engine_intervals(d->eng) < 2)
                return too_early;
        system_host(d, sys, sizeof(sys));
        if (sys[0] && strcasecmp(sys, claim) == 0)
                return "the z/VM system's host name";
        if (hostname_g && strcasecmp(hostname_g, claim) == 0)
                return "the collector's own Hostname";
        if (other_guests_host(d, claim, x->guest))
                return "another guest's host (GuestHost, GuestHostFormat)";
        const char *owner = owner_of(d, claim);
        if (owner && strcmp(owner, x->guest) != 0)
                return "bound to another guest";
        return NULL;
}

static void guest_own_host(const struct zvm_dispatch *d, const struct series *x, char *out,
                           size_t outsz)
{
        if (!zvm_guest_host(d->cfg, x->guest, out, outsz))
                zvm_strlcpy(out, x->guest, outsz);
}

/* Give x its host (again: the system name or Host changed); false when out of memory. */
static bool resolve_host(struct zvm_dispatch *d, struct series *x)
{
        char host[DATA_MAX_NAME_LEN];
        const char *claim = nm(x, N_CLAIM);
        x->claim_refused = false;
        if (x->scope == ZM_GUEST && x->guest[0]) {
                const char *why = claim[0] ? claim_refusal(d, x) : NULL;
                if (claim[0] && !why) /* the configured spelling, whatever the case written */
                        zvm_strlcpy(host, trusted(d->cfg, x->guest, claim), sizeof(host));
                else
                        guest_own_host(d, x, host, sizeof(host));
                x->claim_open = claim[0] && (!why || why == too_early);
                if (why) {
                        x->claim_refused = true;
                        struct noted *n = noted(d, x->guest);
                        if (n && !n->host) {
                                n->host = true;
                                WARNING(ZVM_PLUGIN " plugin: guest %s wrote metrics for host "
                                                   "\"%s\", refused (%s): they are stored under "
                                                   "\"%s\"; further refusals of this guest are "
                                                   "only counted (total_values-host_refused)",
                                        x->guest, claim, why, host);
                        }
                }
                if (!claim[0] || why) /* only a guest's own host binds; a claim never does */
                        bind_host(d, host, x->guest);
        } else if (claim[0])
                zvm_strlcpy(host, claim, sizeof(host));
        else
                system_host(d, host, sizeof(host));
        x->system_gen = d->eng ? zm_engine_system_gen(d->eng) : 0;
        x->trust_gen = trust_now(d);
        x->cfg_host = d->cfg->host;
        const char *name[N_HOST];
        for (int k = 0; k < N_HOST; k++)
                name[k] = nm(x, k);
        return set_text(d, x, name, host);
}

/*
 * Why a name a guest chose may not be used (NULL: it may).  The plugins of
 * this plugin's own data are out of reach ("vm370-x" is plugin vm370,
 * instance x, to collectd's identifiers), and no name may start with '.':
 * write plugins make files of names ("." and ".." among them).
 */
static const char *refused_name(const struct zm_metric *m)
{
        if (!m->plugin[0] || !m->type[0])
                return "an empty plugin or type (collectd refuses it)";
        /* '/' separates the parts of a collectd identifier; inside one it makes another. */
        if (strchr(m->plugin, '/') || strchr(m->plugin_instance, '/') || strchr(m->type, '/') ||
            strchr(m->type_instance, '/') || strchr(m->host, '/'))
                return "a name with '/'";
        if (m->scope != ZM_GUEST)
                return NULL;
        if (strncasecmp(m->plugin, "zvm", 3) == 0 || strncasecmp(m->plugin, "vm370", 5) == 0)
                return "a plugin that holds the z/VM data and this plugin's own counters";
        const char *const names[] = {m->host, m->plugin, m->plugin_instance, m->type,
                                     m->type_instance};
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
                if (names[i][0] == '.')
                        return "a name starting with '.'";
        return NULL;
}

/* The identifier x is dispatched as (found or added); false when out of memory. */
static bool bind_ident(struct zvm_dispatch *d, size_t pos)
{
        struct series *x = &d->s[pos];
        uint64_t h = zh_str(ZH_SEED, nm(x, N_HOST));
        for (int k = N_PLUGIN; k <= N_TINST; k++)
                h = zh_str(h, nm(x, k));
        struct find f = {d, NULL, x};
        size_t i = zh_find(&d->iix, h, ident_eq, &f);
        if (i == SIZE_MAX) {
                if (!zh_grow((void **)&d->id, &d->capid, d->nid, sizeof(*d->id)) ||
                    !zh_add(&d->iix, h, d->nid))
                        return false;
                i = d->nid++;
                d->id[i] = (struct ident){h, (uint32_t)pos, 0};
        }
        x->ident = (uint32_t)i;
        return true;
}

/*
 * The series of m, derived on first sight; NULL when out of memory.  m's id
 * is computed here only when the guess fails (the engine leaves it 0 unless
 * it needed it for the series cap).
 */
static struct series *series_of(struct zvm_dispatch *d, const struct zm_metric *m)
{
        /*
         * Values come in much the same order every interval: the series that
         * followed the last one's last time is the first guess, confirmed by its
         * names; the index the second.  The guess saves hashing the names and
         * the index's cache misses at 100,000s of series.
         */
        struct zm_metric named;
        struct find f = {d, m, NULL};
        struct series *last = d->prev ? &d->s[d->prev - 1] : NULL;
        size_t guess = last && last->succ ? last->succ - 1 : SIZE_MAX;
        size_t i = SIZE_MAX;
        if (guess < d->ns && series_eq(&f, guess))
                i = guess;
        else {
                if (!m->id) {
                        named = *m;
                        named.id = zm_metric_id(m);
                        f.m = m = &named;
                }
                i = zh_find(&d->six, m->id, series_eq, &f);
        }
        if (i != SIZE_MAX) {
                if (last)
                        last->succ = (uint32_t)i + 1;
                d->in_seq += d->prev && i == d->prev; /* the one after the last in the array */
                d->prev = i + 1;
                struct series *x = &d->s[i];
                unsigned gen = d->eng ? zm_engine_system_gen(d->eng) : 0;
                if (x->system_gen != gen || x->cfg_host != d->cfg->host ||
                    (x->claim_open && x->trust_gen != trust_now(d))) {
                        if (!resolve_host(d, x))
                                return NULL;
                        x->ident = UINT32_MAX;
                }
                if (x->ident == UINT32_MAX && !bind_ident(d, i))
                        return NULL; /* out of memory: tried again with the next value */
                return x;
        }
        /* A new series: made whole first, so that the tables never hold half of one. */
        struct series n;
        memset(&n, 0, sizeof(n));
        n.id = m->id;
        n.scope = m->scope;
        n.domain = m->domain;
        n.record = m->record;
        memcpy(n.guest, m->guest, sizeof(n.guest));
        n.wanted = wanted(d->cfg, m);
        n.refused = refused_name(m);
        if (n.guest[0] && n.scope == ZM_SYSTEM) {
                /* CP names a guest: its own host is its from now on, whoever claims it */
                char own[DATA_MAX_NAME_LEN];
                guest_own_host(d, &n, own, sizeof(own));
                bind_host(d, own, n.guest);
        }
        const data_set_t *ds = plugin_get_ds(m->type);
        n.ds_num = ds ? (int)ds->ds_num : -1;
        n.ident = UINT32_MAX;
        const char *name[N_HOST] = {m->host, m->plugin, m->plugin_instance, m->type,
                                    m->type_instance};
        if (!set_text(d, &n, name, "") || !resolve_host(d, &n) ||
            !zh_grow((void **)&d->s, &d->caps, d->ns, sizeof(*d->s)) ||
            !zh_add(&d->six, m->id, d->ns)) {
                return NULL; /* its text stays in the block, unused */
        }
        if (d->prev)
                d->s[d->prev - 1].succ = (uint32_t)d->ns + 1;
        d->prev = d->ns + 1;
        d->s[d->ns++] = n;
        return bind_ident(d, d->ns - 1) ? &d->s[d->ns - 1] : NULL;
}

/*
 * Lay the series out in the order their values came last time (the chain of
 * succ links), names included, so that a whole interval walks memory front
 * to back.  Series are made in the order first seen, which is not that order:
 * CP's metrics of one guest appear interval by interval as their laws hold,
 * so the array runs law by law while the values run guest by guest, and at
 * 100,000s of series every value was a cache miss or three.  Done when fewer
 * than half the values of two rounds came in array order; false (nothing
 * changed) when out of memory.
 */
static bool relayout(struct zvm_dispatch *d)
{
        size_t n = d->ns;
        uint32_t *order = malloc(n * sizeof(*order)), *pos = malloc(n * sizeof(*pos));
        struct series *ns = malloc(d->caps * sizeof(*ns));
        uint32_t *idpos = malloc(d->nid * sizeof(*idpos));
        struct ident *nid = malloc(d->capid * sizeof(*nid));
        char **old_blocks = d->blocks;
        size_t old_nblocks = d->nblocks, old_cap = d->capblocks;
        bool ok = order && pos && ns && (idpos || !d->nid) && (nid || !d->capid);
        bool swapped = false;
        size_t k = 0;
        if (ok) {
                memset(pos, 0xFF, n * sizeof(*pos));
                /* the chain from the series after the last value: the next round's first */
                size_t i = d->prev && d->s[d->prev - 1].succ ? d->s[d->prev - 1].succ - 1 : 0;
                while (i < n && pos[i] == UINT32_MAX) {
                        pos[i] = (uint32_t)k;
                        order[k++] = (uint32_t)i;
                        i = d->s[i].succ ? d->s[i].succ - 1 : n;
                }
                for (i = 0; i < n; i++)
                        if (pos[i] == UINT32_MAX) {
                                pos[i] = (uint32_t)k;
                                order[k++] = (uint32_t)i;
                        }
                d->blocks = NULL; /* the names are copied into blocks of their own */
                d->nblocks = d->capblocks = d->block_used = 0;
                swapped = true;
        }
        size_t kid = 0;
        if (d->nid && idpos)
                memset(idpos, 0xFF, d->nid * sizeof(*idpos));
        for (size_t j = 0; ok && j < n; j++) {
                struct series *x = &ns[j];
                *x = d->s[order[j]];
                x->succ = x->succ ? pos[x->succ - 1] + 1 : 0;
                char *t = text_alloc(d, x->cap);
                if (!t) {
                        ok = false;
                        break;
                }
                memcpy(t, x->text, x->cap);
                x->text = t;
                if (x->ident != UINT32_MAX) {
                        if (idpos[x->ident] == UINT32_MAX) {
                                idpos[x->ident] = (uint32_t)kid;
                                nid[kid] = d->id[x->ident];
                                nid[kid++].series = (uint32_t)j;
                        }
                        x->ident = idpos[x->ident];
                }
        }
        if (!ok) { /* keep everything as it was */
                if (swapped) {
                        for (size_t b = 0; b < d->nblocks; b++)
                                free(d->blocks[b]);
                        free(d->blocks);
                        d->blocks = old_blocks;
                        d->nblocks = old_nblocks;
                        d->capblocks = old_cap;
                        d->block_used = TEXT_BLOCK; /* the next text starts a new block */
                }
                free(order);
                free(pos);
                free(ns);
                free(idpos);
                free(nid);
                return false;
        }
        for (size_t j = 0; j < d->nid; j++) /* identifiers no series uses any more */
                if (idpos[j] == UINT32_MAX) {
                        nid[kid] = d->id[j];
                        nid[kid++].series = pos[d->id[j].series];
                }
        for (size_t b = 0; b < old_nblocks; b++)
                free(old_blocks[b]);
        free(old_blocks);
        free(d->s);
        d->s = ns;
        free(d->id);
        d->id = nid;
        d->nid = kid;
        zh_clear(&d->six);
        for (size_t j = 0; j < n; j++)
                (void)zh_add(&d->six, d->s[j].id, j); /* cannot fail: no more entries than before */
        zh_clear(&d->iix);
        for (size_t j = 0; j < d->nid; j++)
                (void)zh_add(&d->iix, d->id[j].hash, j);
        d->prev = d->prev ? pos[d->prev - 1] + 1 : 0;
        free(order);
        free(pos);
        free(idpos);
        return true;
}

void zvm_dispatch_metric(void *ctx, const struct zm_metric *m)
{
        struct zvm_dispatch *d = ctx;
        struct zvm_stats *st = zvm_stats();
        if (++d->since >= d->rounds * d->ns && d->ns >= 64) {
                bool scattered = 2 * d->in_seq < d->since;
                if (scattered)
                        (void)relayout(d);
                d->rounds = scattered && d->rounds < 64 ? d->rounds * 2 : 2;
                d->since = d->in_seq = 0;
        }
        struct series *x = series_of(d, m);
        if (!x) {
                count(&st->filtered);
                return;
        }
        if (!x->wanted || m->nvalues == 0) {
                count(&st->filtered);
                return;
        }
        if (x->refused) {
                count(&st->names_refused);
                struct noted *n = noted(d, x->guest[0] ? x->guest : "*");
                if (n && !n->name) {
                        n->name = true;
                        WARNING(ZVM_PLUGIN " plugin: %s%s wrote values as %s/%s/%s/%s: "
                                           "refused (%s); further ones of this guest are only "
                                           "counted (total_values-names_refused)",
                                x->guest[0] ? "guest " : "", x->guest[0] ? x->guest : "CP data",
                                m->plugin, m->plugin_instance, m->type, m->type_instance,
                                x->refused);
                }
                return;
        }
        if (x->ds_num < 0 || (x->ds_num > 0 && (size_t)x->ds_num != m->nvalues)) {
                /* collectd would refuse it, once per value, in its own log */
                count(&st->type_refused);
                struct noted *n = noted(d, x->guest[0] ? x->guest : "*");
                if (n && !n->type) {
                        n->type = true;
                        WARNING(ZVM_PLUGIN " plugin: %s%s: type \"%s\" %s: refused; further "
                                           "ones are only counted (total_values-type_refused)",
                                x->guest[0] ? "guest " : "CP data", x->guest[0] ? x->guest : "",
                                m->type,
                                x->ds_num < 0 ? "is not in collectd's types.db (TypesDB must "
                                                "list the project's types.db too)"
                                              : "takes another number of values");
                }
                return;
        }
        if (x->claim_refused)
                count(&st->host_refused);

        value_t values[ZM_MAXVALUES];
        for (size_t i = 0; i < m->nvalues; i++) {
                if (m->ds[i] == ZM_GAUGE)
                        values[i].gauge = m->gauge[i];
                else
                        values[i].derive = (derive_t)m->derive[i];
        }
        value_list_t *vl = &d->vl;
        vl->values = values;
        vl->values_len = m->nvalues;
        char *const field[] = {[N_PLUGIN] = vl->plugin,
                               [N_PINST] = vl->plugin_instance,
                               [N_TYPE] = vl->type,
                               [N_TINST] = vl->type_instance,
                               [N_HOST] = vl->host};
        for (int k = N_PLUGIN; k < N_NAMES; k++)
                memcpy(field[k], nm(x, k), (size_t)x->len[k] + 1);

        /* TODs before 1970 (a zeroed clock field) cannot be collectd times: use now. */
        int64_t us = m->tod ? zd_tod_to_unix_us(m->tod) : -1;
        vl->time = us > 0 ? US_TO_CDTIME_T((uint64_t)us) : cdtime();
        double iv = d->eng ? zm_engine_interval(d->eng) : 0;
        vl->interval = iv > 0 ? DOUBLE_TO_CDTIME_T(iv) : 0;

        struct ident *id = &d->id[x->ident];
        if (id->last && vl->time <= id->last) {
                vl->values = NULL;
                count(&st->duplicates);
                return;
        }
        id->last = vl->time;
        int rc = plugin_dispatch_values(vl);
        vl->values = NULL; /* the array lives on this stack frame */
        if (rc == 0)
                count(&st->dispatched);
        else
                count(&st->filtered);
}
