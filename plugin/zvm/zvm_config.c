/* SPDX-License-Identifier: MIT */
/* The <Plugin zvm> block.  Every option and its default: doc/plugin.md. */
#include "zvm_collectd.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/un.h>

#include "plugin_options.h"
#include "zvmdec.h"
#include "zvm.h"

void zvm_config_defaults(struct zvm_config *c)
{
        memset(c, 0, sizeof(*c));
        c->max_set = ZVM_DEFAULT_MAX_SET;
        c->retry_min = 1.0;
        c->retry_max = 60.0;
        c->report_stats = true;
        c->replay_queue = ZVM_DEFAULT_REPLAY_QUEUE;
        c->live_queue = ZVM_DEFAULT_REPLAY_QUEUE;
        c->share_perms = ZVM_DEFAULT_SHARE_PERMS;
        c->share_buffer = ZVM_DEFAULT_SHARE_BUFFER;
        c->engine.max_series_per_guest = 1000;
        c->engine.series_idle = 2 + ZVM_IDLE_PAST_TIMEOUT; /* collectd's default Timeout 2 */
        c->engine.unverified = -1;
        c->engine.verify_intervals = 3;
}

static void free_list(char **l, size_t n)
{
        for (size_t i = 0; i < n; i++)
                free(l[i]);
        free(l);
}

void zvm_config_free(struct zvm_config *c)
{
        free(c->device);
        free_list(c->files, c->nfiles);
        free(c->host);
        free(c->guest_format);
        free(c->share_path);
        free(c->share_group);
        for (size_t i = 0; i < c->nmap; i++)
                free(c->map[i].host);
        free(c->map);
        for (size_t i = 0; i < c->ntrust; i++)
                free_list(c->trust[i].hosts, c->trust[i].nhosts);
        free(c->trust);
        free(c->inc_rec);
        free(c->exc_rec);
        free_list(c->inc_guest, c->ninc_guest);
        free_list(c->exc_guest, c->nexc_guest);
        zm_procsel_free(c->procs);
        memset(c, 0, sizeof(*c));
}

static bool parse_uint(const char *s, int *out)
{
        char *end;
        if (!isdigit((unsigned char)*s))
                return false;
        errno = 0;
        long v = strtol(s, &end, 10);
        if (errno || v > 65535) /* record numbers are 16 bits */
                return false;
        *out = (int)v;
        return end != s && (*end == 0 || *end == ':' || *end == 'R' || *end == 'r');
}

bool zvm_parse_recfilter(const char *s, struct zvm_recfilter *out)
{
        struct zvm_recfilter f = {-1, -1};
        const char *p = s;
        bool letter = (*p == 'D' || *p == 'd');
        if (letter)
                p++;
        if (!parse_uint(p, &f.domain) || f.domain > 255)
                return false;
        while (isdigit((unsigned char)*p))
                p++;
        if (*p) {
                if (letter ? (*p != 'R' && *p != 'r') : *p != ':')
                        return false;
                p++;
                if (!isdigit((unsigned char)*p) || !parse_uint(p, &f.record))
                        return false;
                while (isdigit((unsigned char)*p))
                        p++;
                if (*p)
                        return false;
        }
        *out = f;
        return true;
}

bool zvm_guest_host(const struct zvm_config *c, const char *userid, char *out, size_t outsz)
{
        for (size_t i = 0; i < c->nmap; i++)
                if (strcasecmp(c->map[i].userid, userid) == 0)
                        return (size_t)snprintf(out, outsz, "%s", c->map[i].host) < outsz;
        const char *fmt = c->guest_format ? c->guest_format : "%u";
        size_t o = 0;
        for (const char *p = fmt; *p; p++) {
                const char *ins = NULL;
                char one[2] = {0, 0};
                bool lower = false;
                if (*p == '%' && (p[1] == 'u' || p[1] == 'U')) {
                        lower = p[1] == 'u';
                        ins = userid;
                        p++;
                } else if (*p == '%' && p[1] == '%') {
                        one[0] = '%';
                        ins = one;
                        p++;
                } else {
                        one[0] = *p;
                        ins = one;
                }
                for (; *ins; ins++) {
                        if (o + 1 >= outsz)
                                return false;
                        out[o++] = lower ? (char)tolower((unsigned char)*ins) : *ins;
                }
        }
        if (o >= outsz)
                return false;
        out[o] = 0;
        return o > 0;
}

static int add_string(char ***list, size_t *n, const char *s)
{
        char **p = realloc(*list, (*n + 1) * sizeof(*p));
        if (!p)
                return -1;
        *list = p;
        if (!(p[*n] = strdup(s)))
                return -1;
        (*n)++;
        return 0;
}

/*
 * A host name, or the literal text of GuestHostFormat, that can stand in a
 * collectd identifier: not empty, short enough, no '/' (the identifier's
 * separator) and no control characters (they would break every writer).
 */
static bool host_ok(const char *s)
{
        size_t n = strlen(s);
        if (n == 0 || n >= DATA_MAX_NAME_LEN)
                return false;
        for (; *s; s++)
                if (*s == '/' || (unsigned char)*s < 0x20 || *s == 0x7f)
                        return false;
        return true;
}

static int get_host(const oconfig_item_t *ci, char **out)
{
        if (ci->values_num == 1 && ci->values[0].type == OCONFIG_TYPE_STRING &&
            !host_ok(ci->values[0].value.string)) {
                ERROR(ZVM_PLUGIN " plugin: %s \"%s\": a host name needs 1 to %d characters, no "
                                 "'/' and no control characters",
                      ci->key, ci->values[0].value.string, DATA_MAX_NAME_LEN - 1);
                return -1;
        }
        return cf_util_get_string(ci, out);
}

/* Every string argument of an option, each through add(). */
static int each_string(const oconfig_item_t *ci, struct zvm_config *c,
                       int (*add)(struct zvm_config *c, const char *key, const char *s))
{
        if (ci->values_num < 1) {
                ERROR(ZVM_PLUGIN " plugin: option %s needs at least one argument", ci->key);
                return -1;
        }
        for (int i = 0; i < ci->values_num; i++) {
                if (ci->values[i].type != OCONFIG_TYPE_STRING) {
                        ERROR(ZVM_PLUGIN " plugin: option %s takes strings (quote them)", ci->key);
                        return -1;
                }
                if (add(c, ci->key, ci->values[i].value.string) != 0)
                        return -1;
        }
        return 0;
}

static int add_recfilter(struct zvm_config *c, const char *key, const char *s)
{
        struct zvm_recfilter f;
        if (!zvm_parse_recfilter(s, &f)) {
                ERROR(ZVM_PLUGIN " plugin: %s \"%s\": expected a domain or a domain and record, "
                                 "as \"D0\", \"D0R2\" or \"0:2\"",
                      key, s);
                return -1;
        }
        bool inc = strcasecmp(key, "IncludeRecord") == 0;
        struct zvm_recfilter **l = inc ? &c->inc_rec : &c->exc_rec;
        size_t *n = inc ? &c->ninc_rec : &c->nexc_rec;
        struct zvm_recfilter *p = realloc(*l, (*n + 1) * sizeof(*p));
        if (!p)
                return -1;
        p[(*n)++] = f;
        *l = p;
        return 0;
}

static int add_guestfilter(struct zvm_config *c, const char *key, const char *s)
{
        /* Userids are upper case on the wire; patterns are matched in upper case. */
        char up[256];
        size_t i = 0;
        if (strlen(s) >= sizeof(up)) { /* cut, it would match other guests than written */
                ERROR(ZVM_PLUGIN " plugin: %s: a pattern of %zu characters; up to %zu are taken",
                      key, strlen(s), sizeof(up) - 1);
                return -1;
        }
        for (; s[i]; i++)
                up[i] = (char)toupper((unsigned char)s[i]);
        up[i] = 0;
        if (strcasecmp(key, "IncludeGuest") == 0)
                return add_string(&c->inc_guest, &c->ninc_guest, up);
        return add_string(&c->exc_guest, &c->nexc_guest, up);
}

static int add_file(struct zvm_config *c, const char *key, const char *s)
{
        (void)key;
        return add_string(&c->files, &c->nfiles, s);
}

/* The options that are more than one value of one kind, as the table calls them. */
static int opt_file(void *cfg, const oconfig_item_t *ci)
{
        return each_string(ci, cfg, add_file);
}

static int opt_recfilter(void *cfg, const oconfig_item_t *ci)
{
        return each_string(ci, cfg, add_recfilter);
}

static int opt_guestfilter(void *cfg, const oconfig_item_t *ci)
{
        return each_string(ci, cfg, add_guestfilter);
}

static int opt_guest_host(void *cfg, const oconfig_item_t *ci)
{
        struct zvm_config *c = cfg;
        if (ci->values_num != 2 || ci->values[0].type != OCONFIG_TYPE_STRING ||
            ci->values[1].type != OCONFIG_TYPE_STRING || !ci->values[0].value.string[0] ||
            strlen(ci->values[0].value.string) > 8 || !host_ok(ci->values[1].value.string)) {
                ERROR(ZVM_PLUGIN " plugin: GuestHost needs two strings: a userid (1 to 8 "
                                 "characters) and a host name (up to %d characters, no '/' and "
                                 "no control characters)",
                      DATA_MAX_NAME_LEN - 1);
                return -1;
        }
        /* Only the first mapping of a userid is ever looked up: a second is a mistake. */
        for (size_t i = 0; i < c->nmap; i++)
                if (strcasecmp(c->map[i].userid, ci->values[0].value.string) == 0) {
                        ERROR(ZVM_PLUGIN " plugin: GuestHost \"%s\" configured twice (already "
                                         "\"%s\")",
                              ci->values[0].value.string, c->map[i].host);
                        return -1;
                }
        struct zvm_hostmap *p = realloc(c->map, (c->nmap + 1) * sizeof(*p));
        if (!p)
                return -1;
        c->map = p;
        struct zvm_hostmap *m = &p[c->nmap];
        memset(m, 0, sizeof(*m));
        for (size_t i = 0; ci->values[0].value.string[i]; i++)
                m->userid[i] = (char)toupper((unsigned char)ci->values[0].value.string[i]);
        if (!(m->host = strdup(ci->values[1].value.string)))
                return -1;
        c->nmap++;
        return 0;
}

/*
 * A host name trusted to two guests (matched as TrustedGuestHost matches
 * claims, in any case): both may write under it, and their values of one
 * identifier then overwrite each other.  Taken, as a forwarder moving from
 * one guest to another needs it for a while, but said at configuration.
 */
static void trusted_twice(const struct zvm_config *c, const struct zvm_trust *t)
{
        for (const struct zvm_trust *o = c->trust; o < t; o++) {
                if (strcmp(o->userid, t->userid) == 0)
                        continue;
                for (size_t k = 0; k < t->nhosts; k++)
                        for (size_t j = 0; j < o->nhosts; j++)
                                if (strcasecmp(o->hosts[j], t->hosts[k]) == 0)
                                        WARNING(ZVM_PLUGIN " plugin: TrustedGuestHost \"%s\" is "
                                                           "given to guests %s and %s: values of "
                                                           "both under that host overwrite each "
                                                           "other's",
                                                t->hosts[k], o->userid, t->userid);
        }
}

static int opt_trust(void *cfg, const oconfig_item_t *ci)
{
        struct zvm_config *c = cfg;
        bool ok = ci->values_num >= 2;
        for (int i = 0; ok && i < ci->values_num; i++)
                ok = ci->values[i].type == OCONFIG_TYPE_STRING &&
                     (i ? host_ok(ci->values[i].value.string)
                        : ci->values[i].value.string[0] && strlen(ci->values[i].value.string) < 9);
        if (!ok) {
                ERROR(ZVM_PLUGIN " plugin: TrustedGuestHost needs a userid (up to 8 characters) "
                                 "and one or more host names (up to %d characters, no '/' and no "
                                 "control characters)",
                      DATA_MAX_NAME_LEN - 1);
                return -1;
        }
        struct zvm_trust *p = realloc(c->trust, (c->ntrust + 1) * sizeof(*p));
        if (!p)
                return -1;
        c->trust = p;
        struct zvm_trust *t = &p[c->ntrust++];
        memset(t, 0, sizeof(*t));
        for (size_t i = 0; ci->values[0].value.string[i]; i++)
                t->userid[i] = (char)toupper((unsigned char)ci->values[0].value.string[i]);
        for (int i = 1; i < ci->values_num; i++)
                if (add_string(&t->hosts, &t->nhosts, ci->values[i].value.string))
                        return -1;
        trusted_twice(c, t);
        return 0;
}

/* <Process "NAME"> Guest "PATTERN" ... </Process>: one selection limited to some guests. */
static int process_guests(struct zvm_config *c, const oconfig_item_t *ci)
{
        for (int i = 0; i < ci->children_num; i++) {
                const oconfig_item_t *g = &ci->children[i];
                if (strcasecmp(g->key, "Guest") != 0 || g->values_num < 1) {
                        ERROR(ZVM_PLUGIN " plugin: %s \"%s\": only Guest \"PATTERN\" ... is "
                                         "allowed inside (got %s)",
                              ci->key, ci->values[0].value.string, g->key);
                        return -1;
                }
                for (int v = 0; v < g->values_num; v++) {
                        if (g->values[v].type != OCONFIG_TYPE_STRING) {
                                ERROR(ZVM_PLUGIN " plugin: Guest takes strings (quote them)");
                                return -1;
                        }
                        if (!zm_procsel_add_guest(c->procs, g->values[v].value.string))
                                return -1;
                }
        }
        return 0;
}

/*
 * Process "NAME" and ProcessMatch "NAME" "REGEX", as collectd's processes
 * plugin has them, applied to every guest's mon_procd records; as a block,
 * <Process "NAME"> Guest "PATTERN" ... </Process> limits one to some guests.
 */
static int opt_process(void *cfg, const oconfig_item_t *ci)
{
        struct zvm_config *c = cfg;
        bool match = strcasecmp(ci->key, "ProcessMatch") == 0;
        int want = match ? 2 : 1;
        bool ok = ci->values_num == want;
        for (int i = 0; ok && i < want; i++)
                ok = ci->values[i].type == OCONFIG_TYPE_STRING;
        if (!ok) {
                ERROR(ZVM_PLUGIN " plugin: %s needs %s", ci->key,
                      match ? "two strings: a name and a regular expression"
                            : "one string: a process name");
                return -1;
        }
        if (!c->procs && !(c->procs = zm_procsel_new()))
                return -1;
        char err[256];
        if (!zm_procsel_add(c->procs, ci->values[0].value.string,
                            match ? ci->values[1].value.string : NULL, err, sizeof(err))) {
                ERROR(ZVM_PLUGIN " plugin: %s %s", ci->key, err);
                return -1;
        }
        if (process_guests(c, ci))
                return -1;
        c->engine.procs = c->procs;
        return 0;
}

static int opt_unverified(void *cfg, const oconfig_item_t *ci)
{
        struct zvm_config *c = cfg;
        if (ci->values_num == 1 && ci->values[0].type == OCONFIG_TYPE_BOOLEAN) {
                c->engine.unverified = ci->values[0].value.boolean ? 1 : 0;
                return 0;
        }
        if (ci->values_num == 1 && ci->values[0].type == OCONFIG_TYPE_STRING &&
            strcasecmp(ci->values[0].value.string, "auto") == 0) {
                c->engine.unverified = -1;
                return 0;
        }
        ERROR(ZVM_PLUGIN " plugin: UnverifiedFields takes auto, true or false");
        return -1;
}

/* CPReading: the engine keeps the pointer, so it gets one of these literals. */
static int opt_reading(void *cfg, const oconfig_item_t *ci)
{
        struct zvm_config *c = cfg;
        static const char *const names[] = {"auto", "packed", "aligned"};
        if (ci->values_num == 1 && ci->values[0].type == OCONFIG_TYPE_STRING)
                for (size_t i = 0; i < 3; i++)
                        if (strcasecmp(ci->values[0].value.string, names[i]) == 0) {
                                c->engine.cp_reading = i ? names[i] : NULL;
                                return 0;
                        }
        ERROR(ZVM_PLUGIN " plugin: CPReading takes auto, packed or aligned");
        return -1;
}

static int opt_layout_file(void *cfg, const oconfig_item_t *ci)
{
        struct zvm_config *c = cfg;
        char *path = NULL, err[256];
        if (cf_util_get_string(ci, &path))
                return -1;
        bool ok = zl_load_file(path, err, sizeof(err));
        if (!ok)
                ERROR(ZVM_PLUGIN " plugin: LayoutFile: %s (none of its layouts is used)", err);
        else
                INFO(ZVM_PLUGIN " plugin: LayoutFile \"%s\" loaded", path);
        c->layouts_loaded |= ok;
        free(path);
        return ok ? 0 : -1;
}

static int opt_host(void *cfg, const oconfig_item_t *ci)
{
        struct zvm_config *c = cfg;
        return get_host(ci, &c->host);
}

/* How often a GuestHostFormat puts the userid in (%u or %U; %% is a literal '%'). */
static size_t userid_uses(const char *fmt)
{
        size_t n = 0;
        for (const char *p = fmt; *p; p++)
                if (p[0] == '%' && (p[1] == 'u' || p[1] == 'U' || p[1] == '%'))
                        n += *++p != '%';
        return n;
}

/*
 * Exactly one userid: without it every guest would share one host and
 * overwrite the others' series; the host a trusted guest claims is read
 * back through the one (zvm_host.c).
 */
static int opt_host_format(void *cfg, const oconfig_item_t *ci)
{
        struct zvm_config *c = cfg;
        if (ci->values_num == 1 && ci->values[0].type == OCONFIG_TYPE_STRING &&
            userid_uses(ci->values[0].value.string) != 1) {
                ERROR(ZVM_PLUGIN " plugin: GuestHostFormat \"%s\" must hold %%u or %%U exactly "
                                 "once, so that each guest has a host of its own (GuestHost "
                                 "names one guest's)",
                      ci->values[0].value.string);
                return -1;
        }
        return get_host(ci, &c->guest_format);
}

/* ShareSocket "PATH": absolute (collectd's working directory is no place to look for it)
 * and short enough for a socket address. */
static int opt_share_socket(void *cfg, const oconfig_item_t *ci)
{
        struct zvm_config *c = cfg;
        char *path = NULL;
        if (cf_util_get_string(ci, &path))
                return -1;
        if (path[0] != '/' || strlen(path) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
                ERROR(ZVM_PLUGIN " plugin: ShareSocket \"%s\": an absolute path of at most %zu "
                                 "characters is needed",
                      path, sizeof(((struct sockaddr_un *)0)->sun_path) - 1);
                free(path);
                return -1;
        }
        free(c->share_path);
        c->share_path = path;
        return 0;
}

/* ShareSocketPerms "0660": octal, as collectd's unixsock plugin takes SocketPerms. */
static int opt_share_perms(void *cfg, const oconfig_item_t *ci)
{
        struct zvm_config *c = cfg;
        const char *s = ci->values_num == 1 && ci->values[0].type == OCONFIG_TYPE_STRING
                            ? ci->values[0].value.string
                            : "";
        char *end;
        errno = 0;
        unsigned long v = strtoul(s, &end, 8);
        if (!*s || *end || errno || v > 0777 || strspn(s, "01234567") != strlen(s)) {
                ERROR(ZVM_PLUGIN " plugin: ShareSocketPerms takes the mode in octal, as "
                                 "\"0660\" (quoted; at most 0777)");
                return -1;
        }
        c->share_perms = (unsigned)v;
        return 0;
}

#define AT(field) POPT_AT(struct zvm_config, field)

/* Every option of the <Plugin zvm> block (doc/plugin.md). */
static const struct popt options[] = {
    {"Device", POPT_STRING, AT(device)},
    {"File", POPT_PARSE, .repeats = true, .parse = opt_file},
    {"MaxDataSetSize", POPT_COUNT, AT(max_set), 4096, 2147483648.0},
    {"RetryInterval", POPT_NUMBER, AT(retry_min), 0.01, 86400},
    {"MaxRetryInterval", POPT_NUMBER, AT(retry_max), 0.01, 86400},
    {"Host", POPT_PARSE, .parse = opt_host},
    {"GuestHostFormat", POPT_PARSE, .parse = opt_host_format},
    {"GuestHost", POPT_PARSE, .repeats = true, .parse = opt_guest_host},
    {"TrustedGuestHost", POPT_PARSE, .repeats = true, .parse = opt_trust},
    {"IncludeRecord", POPT_PARSE, .repeats = true, .parse = opt_recfilter},
    {"ExcludeRecord", POPT_PARSE, .repeats = true, .parse = opt_recfilter},
    {"IncludeGuest", POPT_PARSE, .repeats = true, .parse = opt_guestfilter},
    {"ExcludeGuest", POPT_PARSE, .repeats = true, .parse = opt_guestfilter},
    {"MaxSeriesPerGuest", POPT_COUNT, AT(engine.max_series_per_guest), 0, 1e9},
    {"SeriesIdleTimeout", POPT_COUNT, AT(engine.series_idle), 0, 1e9},
    {"UnverifiedFields", POPT_PARSE, .parse = opt_unverified},
    {"CPReading", POPT_PARSE, .parse = opt_reading},
    {"VerifyIntervals", POPT_COUNT, AT(engine.verify_intervals), 1, 1000},
    {"Process", POPT_PARSE, .repeats = true, .parse = opt_process},
    {"ProcessMatch", POPT_PARSE, .repeats = true, .parse = opt_process},
    {"ReportStats", POPT_BOOL, AT(report_stats)},
    /* value lists ahead of the write threads, 0: no pacing */
    {"ReplayQueue", POPT_COUNT, AT(replay_queue), 0, 1e9},
    {"LiveQueue", POPT_COUNT, AT(live_queue), 0, 1e9},
    {"LayoutFile", POPT_PARSE, .repeats = true, .parse = opt_layout_file},
    {"ShareSocket", POPT_PARSE, .parse = opt_share_socket},
    {"ShareSocketPerms", POPT_PARSE, .parse = opt_share_perms},
    {"ShareSocketGroup", POPT_STRING, AT(share_group)},
    {"ShareBuffer", POPT_COUNT, AT(share_buffer), 65536, 2147483648.0},
};
_Static_assert(sizeof(options) / sizeof(options[0]) <= 64, "given has a bit per option");

static const struct popt_table table = {ZVM_PLUGIN, "doc/plugin.md", options,
                                        sizeof(options) / sizeof(options[0])};

int zvm_config_item(struct zvm_config *c, const oconfig_item_t *ci)
{
        return popt_apply(&table, c, &c->given, ci);
}

/* Was the option of one value given in the block? */
static bool given(const struct zvm_config *c, const char *key)
{
        for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
                if (strcmp(options[i].name, key) == 0)
                        return c->given & 1u << i;
        return false;
}

/*
 * collectd keeps an identifier in its value cache (and write_prometheus on
 * its page) until Timeout of its intervals pass without a value, the
 * monitor's sample interval for every value this plugin sends: the series
 * cap must not forget a series sooner, or a guest whose identifiers churn
 * would have more than MaxSeriesPerGuest of them in collectd at once.
 * collectd's global Timeout is known by init, when this runs.
 */
static void series_idle_default(struct zvm_config *c)
{
        unsigned idle = c->engine.series_idle;
        if (!given(c, "SeriesIdleTimeout")) {
                if (timeout_g > 0)
                        c->engine.series_idle = (unsigned)timeout_g + ZVM_IDLE_PAST_TIMEOUT;
        } else if (idle && idle <= (unsigned)timeout_g) {
                WARNING(ZVM_PLUGIN " plugin: SeriesIdleTimeout %u is not past collectd's Timeout "
                                   "%d: a guest whose series churn can have more than "
                                   "MaxSeriesPerGuest of them in collectd's cache at once",
                        idle, timeout_g);
        }
}

/* After the whole block: defaults that depend on other options, and sanity. */
int zvm_config_finish(struct zvm_config *c)
{
        series_idle_default(c);
        if (!c->device && c->nfiles == 0 && !(c->device = strdup(ZVM_DEFAULT_DEVICE)))
                return -1;
        if (c->retry_max < c->retry_min)
                c->retry_max = c->retry_min;
        if (c->guest_format) {
                /*
                 * Probed with a userid of CP's longest (8 characters) into a buffer
                 * of the host field's own size, so that no guest's expansion can
                 * fail at run time and fall back to its bare userid.
                 */
                char probe[DATA_MAX_NAME_LEN];
                struct zvm_config fmt_only = *c; /* a GuestHost of the probe's userid aside */
                fmt_only.nmap = 0;
                if (!zvm_guest_host(&fmt_only, "LINUX001", probe, sizeof(probe))) {
                        ERROR(ZVM_PLUGIN " plugin: GuestHostFormat \"%s\" gives an empty or too "
                                         "long host name (at most %d characters with an "
                                         "8-character userid)",
                              c->guest_format, DATA_MAX_NAME_LEN - 1);
                        return -1;
                }
        }
        return 0;
}
