/* SPDX-License-Identifier: MIT */
/*
 * Whose host a value goes under.  A guest's own data carries its own host
 * (GuestHostFormat, GuestHost of its CP userid); a host the guest wrote is
 * honoured only as TrustedGuestHost allows, never the system's, the
 * collector's or another guest's (threat model: doc/plugin.md).  CP data
 * carries the z/VM system's host (Host, else the system id from D1R4).
 */
#include "zvm_collectd.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "zvmdec.h"
#include "zvm.h"
#include "zvm_dispatch.h"

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

struct name_probe {
        const struct zvm_dispatch *d;
        const char *key;
};

/*
 * A host name as the stores downstream tell it apart: in any case (a claim
 * of "LINUX001" is one of "linux001"), and with dots and blanks as '_',
 * which is what write_graphite makes of them (its default EscapeCharacter,
 * doc/forwarding.md): "linux001.zvm" and "linux001_zvm" are one Graphite host.
 */
static char fold(char c)
{
        return c == '.' || isspace((unsigned char)c) ? '_' : (char)tolower((unsigned char)c);
}

/* The first n characters of a and b (n: SIZE_MAX for all) are one name, as fold has it. */
static bool alike_n(const char *a, const char *b, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                if (fold(a[i]) != fold(b[i]))
                        return false;
                if (!a[i])
                        return true;
        }
        return true;
}

static bool alike(const char *a, const char *b)
{
        return alike_n(a, b, SIZE_MAX);
}

static bool bound_eq(const void *ctx, size_t pos)
{
        const struct name_probe *p = ctx;
        return alike(p->d->bound[pos].host, p->key);
}

static uint64_t host_hash(const char *host)
{
        char low[DATA_MAX_NAME_LEN];
        size_t i = 0;
        for (; host[i] && i + 1 < sizeof(low); i++)
                low[i] = fold(host[i]);
        low[i] = '\0';
        return zh_str(zh_secret(), low); /* a name a guest may claim */
}

static bool noted_eq(const void *ctx, size_t pos)
{
        const struct name_probe *p = ctx;
        return strcmp(p->d->noted[pos].userid, p->key) == 0;
}

/* The entry of the guest a host name belongs to, or SIZE_MAX. */
static size_t bound_of(const struct zvm_dispatch *d, const char *host)
{
        struct name_probe p = {d, host};
        return zh_find(&d->bix, host_hash(host), bound_eq, &p);
}

/* The guest a host name belongs to, or NULL. */
static const char *owner_of(const struct zvm_dispatch *d, const char *host)
{
        size_t i = bound_of(d, host);
        return i == SIZE_MAX ? NULL : d->bound[i].userid;
}

void dsp_bind_host(struct zvm_dispatch *d, const char *host, const char *userid)
{
        /* A guest's series come one after another: its host is mostly the last one bound. */
        if (!host[0] ||
            (d->bound_last < d->nbound && strcmp(d->bound[d->bound_last].host, host) == 0))
                return;
        size_t i = bound_of(d, host);
        if (i != SIZE_MAX) {
                d->bound_last = i;
                return;
        }
        if (!zh_grow((void **)&d->bound, &d->capbound, d->nbound, sizeof(*d->bound)) ||
            !zh_add(&d->bix, host_hash(host), d->nbound))
                return;
        d->bound_last = d->nbound;
        struct bound *b = &d->bound[d->nbound++];
        zvm_strlcpy(b->host, host, sizeof(b->host));
        zvm_strlcpy(b->userid, userid, sizeof(b->userid));
        d->trust_gen++;
}

/* The guest's log notes (created on first use); NULL when out of memory. */
struct noted *dsp_noted(struct zvm_dispatch *d, const char *userid)
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
                if (alike(c->map[i].host, host) && strcmp(c->map[i].userid, guest) != 0)
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
        if (uses != 1 || n <= np + nq || n - np - nq > 8 || !alike_n(host, pre, np) ||
            !alike(host + n - nq, post))
                return false;
        char uid[9] = ""; /* all 9 set: zm_engine_knows_guest reads 8 bytes */
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
unsigned dsp_trust_now(const struct zvm_dispatch *d)
{
        size_t known = d->eng ? zm_engine_guests_known(d->eng) : 0;
        return (unsigned)(d->trust_gen + known) * 2 + (d->eng && zm_engine_intervals(d->eng) >= 2);
}

const struct dsp_epoch *dsp_epoch_refresh(struct zvm_dispatch *d)
{
        struct dsp_epoch e = {d->eng ? zm_engine_system_gen(d->eng) : 0, dsp_trust_now(d),
                              d->cfg->host, d->eng ? (uint32_t)zm_engine_intervals(d->eng) : 0};
        d->epoch = e;
        d->epoch_engine = *d->eng_epoch;
        d->epoch_trust_gen = d->trust_gen;
        d->epoch_known = true;
        return &d->epoch;
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
        if (sys[0] && alike(sys, claim))
                return "the z/VM system's host name";
        if (hostname_g && alike(hostname_g, claim))
                return "the collector's own Hostname";
        if (other_guests_host(d, claim, x->guest))
                return "another guest's host (GuestHost, GuestHostFormat)";
        const char *owner = owner_of(d, claim);
        if (owner && strcmp(owner, x->guest) != 0)
                return "bound to another guest";
        return NULL;
}

void dsp_guest_own_host(const struct zvm_dispatch *d, const struct series *x, char *out,
                        size_t outsz)
{
        /* The bare userid is a last resort only: zvm_config_finish refused every format that
         * does not fit the host field for a userid of CP's longest. */
        if (!zvm_guest_host(d->cfg, x->guest, out, outsz))
                zvm_strlcpy(out, x->guest, outsz);
}

/*
 * The host a guest's value goes under, and its claim decided: its own host
 * (GuestHost, GuestHostFormat) unless it claimed another one it may use.
 * A claim of its own host, spelt as collectd compares hosts (exactly), is
 * no claim: a guest whose write_zvm Hostname is the name the plugin gives
 * it anyway (Hostname "web01" on guest WEB01, the default "%u") is set up
 * right, and neither warned about nor counted, whatever TrustedGuestHost
 * says or how early it is.
 */
static const char *guest_host(struct zvm_dispatch *d, struct series *x, char *host, size_t hostsz,
                              bool *own)
{
        const char *claim = nm(x, N_CLAIM);
        dsp_guest_own_host(d, x, host, hostsz);
        *own = true;
        x->claim_open = false;
        if (!claim[0] || strcmp(claim, host) == 0)
                return NULL;
        const char *why = claim_refusal(d, x);
        if (!why) { /* the configured spelling, whatever the case written */
                zvm_strlcpy(host, trusted(d->cfg, x->guest, claim), hostsz);
                *own = false;
        }
        x->claim_open = !why || why == too_early;
        return why;
}

/*
 * A guest whose own host is the z/VM system's (its userid is the system's
 * name, with the default "%u") or the collector's Hostname: CP's data or
 * the reader's own counters and the guest's values then share one host, as
 * Graphite and the other stores tell hosts apart.  Nothing of either is
 * refused (the names differ), but it is surely not what was meant: said
 * once per guest.
 */
static void own_host_shared(struct zvm_dispatch *d, const struct series *x, const char *host)
{
        char sys[DATA_MAX_NAME_LEN];
        system_host(d, sys, sizeof(sys));
        const char *whose = sys[0] && alike(sys, host)              ? "the z/VM system's"
                            : hostname_g && alike(hostname_g, host) ? "the collector's (Hostname)"
                                                                    : NULL;
        if (!whose)
                return;
        struct noted *n = dsp_noted(d, x->guest);
        if (!n || n->clash)
                return;
        n->clash = true;
        WARNING(ZVM_PLUGIN " plugin: guest %s's own host \"%s\" (GuestHostFormat, GuestHost) is "
                           "%s host name: its values go under the same host as that one's; give "
                           "the guest a host of its own with GuestHost \"%s\" \"NAME\"",
                x->guest, host, whose, x->guest);
}

/* Give x its host (again: the system name or Host changed); false when out of memory. */
bool dsp_resolve_host(struct zvm_dispatch *d, struct series *x)
{
        char host[DATA_MAX_NAME_LEN];
        const char *claim = nm(x, N_CLAIM);
        x->claim_refused = false;
        if (x->scope == ZM_GUEST && x->guest[0]) {
                bool own;
                const char *why = guest_host(d, x, host, sizeof(host), &own);
                if (why) {
                        x->claim_refused = true;
                        struct noted *n = dsp_noted(d, x->guest);
                        if (n)
                                c_complain_once(LOG_WARNING, &n->host,
                                                ZVM_PLUGIN " plugin: guest %s wrote metrics for "
                                                           "host \"%s\", refused (%s): they are "
                                                           "stored under \"%s\"; further "
                                                           "refusals of this guest are only "
                                                           "counted (total_values-host_refused)",
                                                x->guest, claim, why, host);
                }
                if (own) { /* only a guest's own host binds; a claim never does */
                        dsp_bind_host(d, host, x->guest);
                        own_host_shared(d, x, host);
                }
        } else if (x->scope == ZM_GUEST) {
                host[0] = '\0'; /* nobody's data: dsp_refused_name refuses it */
        } else if (claim[0])
                zvm_strlcpy(host, claim, sizeof(host));
        else
                system_host(d, host, sizeof(host));
        x->system_gen = d->eng ? zm_engine_system_gen(d->eng) : 0;
        x->trust_gen = dsp_trust_now(d);
        x->cfg_host = d->cfg->host;
        const char *name[N_HOST];
        for (int k = 0; k < N_HOST; k++)
                name[k] = nm(x, k);
        return dsp_set_text(d, x, name, host);
}

/*
 * A plugin name write_prometheus can carry: it goes unchanged into the
 * metric name and becomes a label name beside its own "type" and
 * "instance", and a single name Prometheus cannot read (or a label twice)
 * fails the whole scrape, every host's values with it.  So: a label name
 * ([A-Za-z_][A-Za-z0-9_]*), not one of those two, nor "__..." (Prometheus's).
 */
static bool label_char(char c, bool first)
{
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
               (!first && c >= '0' && c <= '9'); /* ASCII whatever the locale */
}

static bool label_name(const char *s)
{
        if (!label_char(s[0], true) || strncmp(s, "__", 2) == 0 || strcmp(s, "instance") == 0 ||
            strcmp(s, "type") == 0)
                return false;
        for (; *s; s++)
                if (!label_char(*s, false))
                        return false;
        return true;
}

/*
 * Why a name a guest chose may not be used (NULL: it may).  The plugins of
 * this plugin's own data are out of reach ("vm370-x" is plugin vm370,
 * instance x, to collectd's identifiers), and no name may start with '.':
 * write plugins make files of names ("." and ".." among them).
 */
const char *dsp_refused_name(const struct zm_metric *m)
{
        if (!m->plugin[0] || !m->type[0])
                return "an empty plugin or type (collectd refuses it)";
        /* '/' separates the parts of a collectd identifier; inside one it makes another. */
        if (strchr(m->plugin, '/') || strchr(m->plugin_instance, '/') || strchr(m->type, '/') ||
            strchr(m->type_instance, '/') || strchr(m->host, '/'))
                return "a name with '/'";
        if (m->scope != ZM_GUEST)
                return NULL;
        /* The userid is a guest's identity: without one, no host is its own. */
        if (!m->guest[0])
                return "a guest's data without the userid CP stamps";
        if (strncasecmp(m->plugin, "zvm", 3) == 0 || strncasecmp(m->plugin, "vm370", 5) == 0)
                return "a plugin that holds the z/VM data and this plugin's own counters";
        if (!label_name(m->plugin))
                return "a plugin name other than letters, digits and '_' (not first a digit, not "
                       "\"__...\", \"instance\" or \"type\"): it would make write_prometheus's "
                       "page unreadable to Prometheus, for every host";
        const char *const names[] = {m->host, m->plugin, m->plugin_instance, m->type,
                                     m->type_instance};
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
                if (names[i][0] == '.')
                        return "a name starting with '.'";
        return NULL;
}
