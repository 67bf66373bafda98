/* SPDX-License-Identifier: MIT */
/*
 * The zvm plugin's name mapping (metric -> collectd value list) under
 * whatever a hostile guest can make the decoder emit: any host claim, any
 * plugin and instance bytes, any type, any number of values, for guests that
 * come and go across intervals.  The first bytes pick the configuration
 * (trusted claims, host format, series cap), the rest is a stream of
 * metrics.  Every value list that reaches collectd must be a valid
 * identifier that no guest chose for the system or for another guest: the
 * checks abort, so libFuzzer reports a breach as a crash.
 */
#include <stdlib.h>
#include <strings.h>

#include "cd_stubs.h"
#include "fuzz_bytes.h"

#include "metric/met_module.h"
#include "zvm.h"

/* A name of 0..255 raw bytes, cut to fit and NUL-terminated like the decoder's. */
static void name(struct rd *r, char *out, size_t outsz)
{
        size_t len = byte(r), i = 0;
        for (; i < len && i + 1 < outsz; i++)
                out[i] = (char)byte(r);
        out[i] = '\0';
}

static const char *const users[] = {"LINUX01", "LINUX02", "EVIL01", "TCPIP", "A", "ZZZZZZZZ"};

static void check_name(const char *what, const char *s, bool empty_ok)
{
        size_t len = strnlen(s, DATA_MAX_NAME_LEN);
        if (len == DATA_MAX_NAME_LEN || (!empty_ok && len == 0) || strchr(s, '/')) {
                fprintf(stderr, "fuzz_names: bad %s \"%.*s\"\n", what, (int)len, s);
                abort();
        }
}

static const struct zvm_config *cur_cfg;
static const struct zm_metric *cur;
static bool cur_trusted;

static void on_dispatch(value_list_t const *vl)
{
        /* An empty host is the system's own before CP named it: collectd fills it in. */
        check_name("host", vl->host, !cur || cur->scope != ZM_GUEST);
        check_name("plugin", vl->plugin, false);
        check_name("plugin instance", vl->plugin_instance, true);
        check_name("type", vl->type, false);
        check_name("type instance", vl->type_instance, true);
        if (!vl->values_len || !vl->values)
                abort();
        if (!cur || cur->scope != ZM_GUEST)
                return;
        /* What a guest wrote lands under its own host (or, trusted, the one host
         * configured for it), never the collector's, never in zvm's own plugins. */
        char own[DATA_MAX_NAME_LEN];
        if (!zvm_guest_host(cur_cfg, cur->guest, own, sizeof(own)))
                abort();
        bool claim_ok =
            cur_trusted && !strcmp(cur->guest, "EVIL01") && !strcasecmp(vl->host, "linux01");
        if (strcmp(vl->host, own) != 0 && !claim_ok) {
                fprintf(stderr, "fuzz_names: %s's value under host \"%s\"\n", cur->guest, vl->host);
                abort();
        }
        if (!strcmp(vl->host, cd_hostname) || !strncasecmp(vl->plugin, "zvm", 3) ||
            !strncasecmp(vl->plugin, "vm370", 5)) {
                fprintf(stderr, "fuzz_names: %s wrote %s/%s\n", cur->guest, vl->host, vl->plugin);
                abort();
        }
}

static void configure(struct zvm_config *c, struct rd *r)
{
        uint8_t flags = byte(r);
        oconfig_value_t v[2];
        oconfig_item_t ci;
        memset(&ci, 0, sizeof(ci));
        memset(v, 0, sizeof(v));
        ci.values = v;
        v[0].type = v[1].type = OCONFIG_TYPE_STRING;
        if (flags & 1) {
                ci.key = "TrustedGuestHost", ci.values_num = 2;
                v[0].value.string = "EVIL01", v[1].value.string = "linux01";
                (void)zvm_config_item(c, &ci);
        }
        if (flags & 2) {
                ci.key = "GuestHostFormat", ci.values_num = 1;
                v[0].value.string = "%u.zvm";
                (void)zvm_config_item(c, &ci);
        }
        if (flags & 4) {
                ci.key = "MaxSeriesPerGuest", ci.values_num = 1;
                v[0].type = OCONFIG_TYPE_NUMBER, v[0].value.number = 1 + (flags >> 4);
                (void)zvm_config_item(c, &ci);
        }
        (void)zvm_config_finish(c);
}

/* The names of the metric being made: a metric refers to its names, as the engine's do. */
static char text[5][ZM_NAME_LEN];

static void metric(struct rd *r, struct zm_metric *m)
{
        uint8_t k = byte(r);
        memset(m, 0, sizeof(*m));
        m->scope = (k & 1) ? ZM_GUEST : ZM_SYSTEM;
        if (m->scope == ZM_GUEST)
                snprintf(m->guest, sizeof(m->guest), "%s", users[(k >> 1) % 6]);
        text[0][0] = '\0';
        if (k & 0x10)
                name(r, text[0], sizeof(text[0]));
        for (int i = 1; i < 5; i++)
                name(r, text[i], sizeof(text[i]));
        m->host = text[0];
        m->plugin = text[1];
        m->plugin_instance = text[2];
        m->type = text[3];
        m->type_instance = text[4];
        m->nvalues = byte(r) % (ZM_MAXVALUES + 2);
        if (m->nvalues > ZM_MAXVALUES)
                m->nvalues = ZM_MAXVALUES;
        for (size_t i = 0; i < m->nvalues; i++) {
                m->ds[i] = (byte(r) & 1) ? ZM_DERIVE : ZM_GAUGE;
                m->gauge[i] = (double)(int8_t)byte(r);
                m->derive[i] = (int8_t)byte(r);
        }
        m->tod = (uint64_t)(byte(r) + 1) << 40;
        m->domain = 10;
        m->record = 2;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct rd r = {data, size};
        struct zvm_config c;
        zvm_config_defaults(&c);
        cur_trusted = r.n && (r.p[0] & 1);
        configure(&c, &r);
        cur_cfg = &c;
        cd_on_dispatch = on_dispatch;
        cd_count_only = true;
        snprintf(cd_hostname, sizeof(cd_hostname), "collector");
        struct zvm_dispatch *d = zvm_dispatch_new(&c);
        struct zm_engine *e = zm_engine_new(NULL, NULL, NULL, NULL);
        zvm_dispatch_set_engine(d, e);
        struct zd_record end;
        memset(&end, 0, sizeof(end));
        for (unsigned n = 0; r.n && n < 512; n++) {
                uint8_t op = byte(&r);
                if (op < 16) { /* an interval closes; guests become known to the engine */
                        char uid[9] = ""; /* zm_note_guest reads 8 bytes */
                        snprintf(uid, sizeof(uid), "%s", users[op % 6]);
                        zm_note_guest(e, uid);
                        end.tod += (uint64_t)60 << 32;
                        zm_engine_interval_end(e, &end);
                        continue;
                }
                struct zm_metric m;
                metric(&r, &m);
                cur = &m;
                zvm_dispatch_metric(d, &m);
                zvm_dispatch_flush(d);
                cur = NULL;
        }
        zvm_dispatch_free(d);
        zm_engine_free(e);
        zvm_config_free(&c);
        return 0;
}
