/* SPDX-License-Identifier: MIT */
/*
 * The zvm plugin's mapping: zm_metric -> value_list_t (host naming, time,
 * interval, filters, one dispatch per identifier and time), the config
 * block, and the whole pipe from data set bytes to captured value lists.
 * How series are found again and laid out: test_dispatch_series.c.
 */
#include <math.h>

#include "vec_appl.h"

#include "cd_stubs.h"

#include "base/tod.h"

#include "dispatch_fixture.h"

/* Linked with --wrap=calloc (plugin/zvm/module.mk): fails while set. */
static bool fail_calloc;
void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size)
{
        return fail_calloc ? NULL : __real_calloc(n, size);
}

static void recfilter_syntax(void **state)
{
        (void)state;
        struct zvm_recfilter f;
        assert_true(zvm_parse_recfilter("D0R2", &f));
        assert_int_equal(f.domain, 0);
        assert_int_equal(f.record, 2);
        assert_true(zvm_parse_recfilter("d10", &f));
        assert_int_equal(f.domain, 10);
        assert_int_equal(f.record, -1);
        assert_true(zvm_parse_recfilter("4:3", &f));
        assert_int_equal(f.domain, 4);
        assert_int_equal(f.record, 3);
        assert_false(zvm_parse_recfilter("", &f));
        assert_false(zvm_parse_recfilter("D", &f));
        assert_false(zvm_parse_recfilter("D0R", &f));
        assert_false(zvm_parse_recfilter("0R2", &f));
        assert_false(zvm_parse_recfilter("D1:2", &f));
        assert_false(zvm_parse_recfilter("D1R2x", &f));
        assert_false(zvm_parse_recfilter("D999", &f));
}

static void guest_host_naming(void **state)
{
        (void)state;
        struct zvm_config c;
        zvm_config_defaults(&c);
        char h[64];
        assert_true(zvm_guest_host(&c, "LINUX01", h, sizeof(h)));
        assert_string_equal(h, "linux01");
        oconfig_item_t ci = item("GuestHostFormat", 1, "zvm-%u.example.com%%", NULL);
        assert_int_equal(zvm_config_item(&c, &ci), 0);
        assert_true(zvm_guest_host(&c, "LINUX01", h, sizeof(h)));
        assert_string_equal(h, "zvm-linux01.example.com%");
        c.given = 0; /* the next as in a block of its own: once each */
        ci = item("GuestHostFormat", 1, "%U", NULL);
        assert_int_equal(zvm_config_item(&c, &ci), 0);
        assert_true(zvm_guest_host(&c, "LINUX01", h, sizeof(h)));
        assert_string_equal(h, "LINUX01");
        ci = item("GuestHost", 2, "linux02", "db.example.com");
        assert_int_equal(zvm_config_item(&c, &ci), 0);
        assert_true(zvm_guest_host(&c, "LINUX02", h, sizeof(h)));
        assert_string_equal(h, "db.example.com");
        assert_false(zvm_guest_host(&c, "LINUX01", h, 5)); /* does not fit */
        ci = item("GuestHost", 2, "TOOLONGUSER", "x");
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        /* No empty userid (as TrustedGuestHost), and one mapping a userid, in any case. */
        ci = item("GuestHost", 2, "", "x");
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        assert_non_null(strstr(cd_lastlog, "GuestHost needs"));
        ci = item("GuestHost", 2, "Linux02", "other.example.com");
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        assert_non_null(strstr(cd_lastlog, "GuestHost \"Linux02\" configured twice"));
        assert_int_equal(c.nmap, 1);
        assert_true(zvm_guest_host(&c, "LINUX02", h, sizeof(h)));
        assert_string_equal(h, "db.example.com");
        /* Host names must stand in a collectd identifier (fuzz_config found '/' passing). */
        ci = item("GuestHostFormat", 1, "zvm/%u", NULL);
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        ci = item("GuestHostFormat", 1, "", NULL);
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        ci = item("Host", 1, "a\tb", NULL);
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        ci = item("GuestHost", 2, "LINUX03", "a/b");
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        assert_true(zvm_guest_host(&c, "LINUX01", h, sizeof(h)));
        assert_string_equal(h, "LINUX01"); /* the last good format (%U) still holds */
        /* Counts take whole numbers; NaN is no number in range (fuzz_config). */
        ci = item("MaxSeriesPerGuest", 1, NULL, NULL);
        vals[0].type = OCONFIG_TYPE_NUMBER;
        vals[0].value.number = 2.5;
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        vals[0].value.number = NAN;
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        ci = item("VerifyIntervals", 1, NULL, NULL);
        vals[0].type = OCONFIG_TYPE_NUMBER;
        vals[0].value.number = NAN;
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        vals[0].value.number = 3;
        assert_int_equal(zvm_config_item(&c, &ci), 0);
        ci = item("NoSuchOption", 1, "x", NULL);
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        ci = item("IncludeRecord", 1, "D0R", NULL);
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        ci = item("Device", 2, "a", "b");
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        zvm_config_free(&c);
}

/*
 * GuestHostFormat must name each guest: without %u or %U every guest would
 * get the same host, and one guest's values would overwrite another's series
 * (those of the same time dropped as repeats, counted for no one).  Twice is
 * refused too: the host a trusted guest claims is read back through the one.
 */
static void guest_host_format_names_each_guest(void **state)
{
        (void)state;
        struct zvm_config c;
        fresh(&c);
        static const char *const bad[] = {"guests", "%%u.example.com", "%u-%U", "%u%u"};
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                cd_lastlog[0] = 0;
                oconfig_item_t ci = item("GuestHostFormat", 1, bad[i], NULL);
                assert_int_not_equal(zvm_config_item(&c, &ci), 0);
                assert_non_null(strstr(cd_lastlog, "exactly once"));
        }
        static const char *const good[] = {"%U", "%u.vmsys1", "lnx-%u%%"};
        for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
                c.given = 0; /* each as in a block of its own: once each */
                oconfig_item_t ci = item("GuestHostFormat", 1, good[i], NULL);
                assert_int_equal(zvm_config_item(&c, &ci), 0);
        }
        char h[DATA_MAX_NAME_LEN];
        assert_true(zvm_guest_host(&c, "LINUX01", h, sizeof(h)));
        assert_string_equal(h, "lnx-linux01%");
        zvm_config_free(&c);
}

static void defaults_device_unless_files(void **state)
{
        (void)state;
        struct zvm_config c;
        zvm_config_defaults(&c);
        assert_int_equal(zvm_config_finish(&c), 0);
        assert_string_equal(c.device, "/dev/monreader");
        assert_true(c.max_set == 64u * 1024 * 1024);
        zvm_config_free(&c);
        zvm_config_defaults(&c);
        oconfig_item_t ci = item("File", 2, "/a.cap", "/b.monwrite");
        assert_int_equal(zvm_config_item(&c, &ci), 0);
        assert_int_equal(zvm_config_finish(&c), 0);
        assert_null(c.device);
        assert_int_equal(c.nfiles, 2);
        zvm_config_free(&c);
}

/*
 * An option of one value given twice is refused, in any case of its name: the
 * second would replace the first without a word.  Those that add (File, GuestHost,
 * Process, the filters) may repeat.
 */
static void single_options_given_once(void **state)
{
        (void)state;
        struct zvm_config c;
        zvm_config_defaults(&c);
        oconfig_item_t ci = item("Device", 1, "/dev/monreader", NULL);
        assert_int_equal(zvm_config_item(&c, &ci), 0);
        ci = item("DEVICE", 1, "/dev/other", NULL);
        cd_lastlog[0] = 0;
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        assert_non_null(strstr(cd_lastlog, "Device given twice"));
        assert_string_equal(c.device, "/dev/monreader");
        ci = item("Host", 1, "zvm1", NULL);
        assert_int_equal(zvm_config_item(&c, &ci), 0);
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        assert_string_equal(c.host, "zvm1");
        /* a refused value does not count as given: the block failed anyway */
        ci = item("CPReading", 1, "sideways", NULL);
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        ci = item("CPReading", 1, "packed", NULL);
        assert_int_equal(zvm_config_item(&c, &ci), 0);
        ci = item("File", 1, "/a.cap", NULL);
        assert_int_equal(zvm_config_item(&c, &ci), 0);
        ci = item("File", 1, "/b.cap", NULL);
        assert_int_equal(zvm_config_item(&c, &ci), 0);
        assert_int_equal(c.nfiles, 2);
        zvm_config_free(&c);
}

/*
 * GuestHostFormat is checked at startup at the size of collectd's host field
 * with a userid of 8 characters: a format that expands to 128 characters
 * would otherwise pass and every guest fall back to its bare userid.
 */
static void guest_host_format_fits_the_host_field(void **state)
{
        (void)state;
        char fmt[DATA_MAX_NAME_LEN], h[DATA_MAX_NAME_LEN];
        for (size_t literal = DATA_MAX_NAME_LEN - 9; literal <= DATA_MAX_NAME_LEN - 8; literal++) {
                struct zvm_config c;
                zvm_config_defaults(&c);
                memset(fmt, 'a', literal);
                snprintf(fmt + literal, sizeof(fmt) - literal, "%%u");
                oconfig_item_t ci = item("GuestHostFormat", 1, fmt, NULL);
                assert_int_equal(zvm_config_item(&c, &ci), 0);
                /* the probe's own userid mapped elsewhere: the format is still checked */
                ci = item("GuestHost", 2, "LINUX001", "lnx1.example.com");
                assert_int_equal(zvm_config_item(&c, &ci), 0);
                cd_lastlog[0] = 0;
                bool fits = literal + 8 < DATA_MAX_NAME_LEN;
                assert_int_equal(zvm_config_finish(&c), fits ? 0 : -1);
                if (fits)
                        assert_true(zvm_guest_host(&c, "ABCDEFGH", h, sizeof(h)));
                else
                        assert_non_null(strstr(cd_lastlog, "GuestHostFormat"));
                zvm_config_free(&c);
        }
}

/* ReplayQueue and LiveQueue: 50,000 unless set; 0 turns pacing off; fractions, negatives and
 * words refused; each sets its own. */
static void queue_options(void **state)
{
        (void)state;
        struct zvm_config c;
        zvm_config_defaults(&c);
        assert_int_equal(c.replay_queue, 50000);
        assert_int_equal(c.live_queue, 50000);
        const char *const keys[] = {"ReplayQueue", "LiveQueue"};
        for (int k = 0; k < 2; k++) {
                uint64_t *mine = k ? &c.live_queue : &c.replay_queue;
                uint64_t *other = k ? &c.replay_queue : &c.live_queue;
                uint64_t was = *other;
                oconfig_value_t v = {.type = OCONFIG_TYPE_NUMBER};
                oconfig_item_t ci = {.key = (char *)keys[k], .values = &v, .values_num = 1};
                const double good[] = {0, 1, 200000}, bad[] = {-1, 0.5, 2e9};
                for (size_t i = 0; i < 3; i++) {
                        c.given = 0; /* each value as in a block of its own: once each */
                        v.value.number = good[i];
                        assert_int_equal(zvm_config_item(&c, &ci), 0);
                        assert_int_equal(*mine, (uint64_t)good[i]);
                        v.value.number = bad[i];
                        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
                        assert_int_equal(*mine, (uint64_t)good[i]);
                }
                assert_int_equal(*other, was);
                v.type = OCONFIG_TYPE_STRING;
                v.value.string = (char *)"many";
                assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        }
        zvm_config_free(&c);
}

static void guest_metric_host_time_interval(void **state)
{
        struct dispatch_fx *f = *state;

        uint64_t tod = VEC_TOD_2026 + ((uint64_t)250000 << 12); /* +0.25 s */
        struct zm_metric m = metric(ZM_GUEST, "LINUX01", 10, 2, tod, 42.5);
        dispatch(f->d, &m);
        assert_int_equal(cd_nvl, 1);
        const struct cd_vl *v = &cd_vls[0];
        assert_string_equal(v->host, "linux01");
        assert_string_equal(v->plugin, "memory");
        assert_string_equal(v->type, "memory");
        assert_string_equal(v->tinst, "free");
        assert_true(v->v[0].gauge == 42.5);
        /* 2026-11-22T00:00:00.25Z in cdtime (2^-30 s). */
        assert_true(v->time == (((cdtime_t)1795305600 << 30) | ((cdtime_t)1 << 28)));
        assert_true(v->interval == 0); /* interval unknown: collectd's default */

        zm_set_interval(f->e, 60);
        m.tod += (uint64_t)60000000 << 12;
        dispatch(f->d, &m);
        assert_int_equal(cd_nvl, 2);
        assert_true(cd_vls[1].interval == (cdtime_t)60 << 30);
        assert_true(cd_vls[1].time == cd_vls[0].time + ((cdtime_t)60 << 30));
        /* the time of the last TOD is kept: a zeroed TOD is now, never the one before */
        m.tod = 0;
        m.type_instance = "zeroed";
        dispatch(f->d, &m);
        assert_true(cd_vls[2].time == cd_now);
        m.tod = tod + ((uint64_t)120000000 << 12);
        dispatch(f->d, &m);
        assert_true(cd_vls[3].time == cd_vls[0].time + ((cdtime_t)120 << 30));
}

static void system_metric_host(void **state)
{
        struct dispatch_fx *f = *state;
        struct zm_metric m = metric(ZM_SYSTEM, "", 0, 2, VEC_TOD_2026, 1);
        dispatch(f->d, &m);
        assert_string_equal(cd_vls[0].host, ""); /* collectd's Hostname until D1R4 is seen */
        zm_set_system(f->e, "ZVMSYS01");
        m.tod += 4096;
        dispatch(f->d, &m);
        assert_string_equal(cd_vls[1].host, "zvmsys01");
        f->c.host = strdup("lpar1.example.com");
        m.tod += 4096;
        dispatch(f->d, &m);
        assert_string_equal(cd_vls[2].host, "lpar1.example.com");
        /* A host the guest named itself (write_zvm) is not taken on its word. */
        struct zm_metric g = metric(ZM_GUEST, "LINUX01", 10, 2, VEC_TOD_2026, 1);
        g.host = "web1.example.com";
        dispatch(f->d, &g);
        assert_string_equal(cd_vls[3].host, "linux01");
}

/*
 * Values are staged and handed to collectd in bursts: none before the flush,
 * all in the order they came, each under the names it had when it came (a
 * system name learned between two values flushes the first one before the
 * series is named again), and a full stage goes out on its own.
 */
static void staged_values_keep_order_and_names(void **state)
{
        struct dispatch_fx *f = *state;
        struct zm_metric m = metric(ZM_SYSTEM, "", 0, 2, VEC_TOD_2026, 1);
        zvm_dispatch_metric(f->d, &m);
        assert_int_equal(cd_nvl, 0);
        zm_set_system(f->e, "ZVMSYS01");
        m.tod += 4096;
        zvm_dispatch_metric(f->d, &m);
        assert_int_equal(cd_nvl, 1); /* the first went out under the old name */
        assert_string_equal(cd_vls[0].host, "");
        m.tod += 4096;
        m.type_instance = "used";
        zvm_dispatch_metric(f->d, &m);
        assert_int_equal(cd_nvl, 1);
        zvm_dispatch_flush(f->d);
        assert_int_equal(cd_nvl, 3);
        assert_string_equal(cd_vls[1].host, "zvmsys01");
        assert_string_equal(cd_vls[1].tinst, "free");
        assert_string_equal(cd_vls[2].host, "zvmsys01");
        assert_string_equal(cd_vls[2].tinst, "used");
        assert_true(cd_vls[0].time < cd_vls[1].time && cd_vls[1].time < cd_vls[2].time);

        cd_count_only = true;
        cd_ncounted = 0;
        for (int i = 0; i <= STAGE_MAX; i++) {
                m.tod += 4096;
                zvm_dispatch_metric(f->d, &m);
        }
        assert_int_equal(cd_ncounted, STAGE_MAX);
        zvm_dispatch_flush(f->d);
        assert_int_equal(cd_ncounted, STAGE_MAX + 1);
        zvm_dispatch_flush(f->d); /* nothing staged: nothing again */
        assert_int_equal(cd_ncounted, STAGE_MAX + 1);
}

static void dispatch_one(struct zvm_dispatch *d, enum zm_scope scope, const char *guest,
                         const char *host, const char *plugin, uint64_t tod)
{
        struct zm_metric m = metric(scope, guest, 10, 2, tod, 1);
        m.host = host;
        m.plugin = plugin;
        dispatch(d, &m);
}

/* A TrustedGuestHost line the configuration takes. */
static void trust(struct zvm_config *c, const char *userid, const char *host)
{
        oconfig_item_t ci = item("TrustedGuestHost", 2, userid, host);
        assert_int_equal(zvm_config_item(c, &ci), 0);
}

/* The end of one of CP's intervals (D1R11): a guest's host claim waits for two. */
static void interval_end(struct zm_engine *e)
{
        struct zd_record end;
        memset(&end, 0, sizeof(end));
        end.domain = 1;
        end.number = 11;
        zm_engine_interval_end(e, &end);
}

/*
 * Identity comes from CP's userid: a guest's claim to a host name holds only
 * for names TrustedGuestHost gives it, and never for the z/VM system, the
 * collector itself or another guest.  Refusals are counted and logged once
 * per guest.  Nothing a guest writes lands in this plugin's own plugins.
 */
static void guest_host_claims(void **state)
{
        struct dispatch_fx *f = *state;
        trust(&f->c, "web01", "web1.example.com");
        trust(&f->c, "EVIL01", "zvmsys01");
        trust(&f->c, "EVIL02", "linux001");
        trust(&f->c, "EVIL03", "collector");
        oconfig_item_t ci = item("TrustedGuestHost", 1, "EVIL04", NULL); /* no host: refused */
        assert_int_equal(zvm_config_item(&f->c, &ci), -1);
        zm_set_system(f->e, "ZVMSYS01");
        uint64_t t = VEC_TOD_2026;

        /* Before CP's first interval has named the guests, no claim holds (not counted twice). */
        dispatch_one(f->d, ZM_GUEST, "WEB01", "web1.example.com", "load", t - 3 * 4096);
        assert_string_equal(cd_vls[0].host, "web01");
        interval_end(f->e); /* the configuration set's */
        cd_reset();
        dispatch_one(f->d, ZM_GUEST, "WEB01", "web1.example.com", "load", t - 2 * 4096);
        assert_non_null(cd_find("web01", "load", "", "memory", "free"));
        assert_null(cd_find("web1.example.com", "load", "", "memory", "free"));
        /* The configuration set's Interval End ended no sample interval (doc/plugin.md,
         * TrustedGuestHost): a series first seen now is refused too, not only one seen before. */
        dispatch_one(f->d, ZM_GUEST, "WEB01", "web1.example.com", "cpu", t - 2 * 4096);
        assert_non_null(cd_find("web01", "cpu", "", "memory", "free"));
        assert_null(cd_find("web1.example.com", "cpu", "", "memory", "free"));
        interval_end(f->e); /* the first sample interval's */
        cd_reset();
        zvm_stats_reset();

        dispatch_one(f->d, ZM_GUEST, "WEB01", "web1.example.com", "cpu", t);
        assert_string_equal(cd_vls[0].host, "web1.example.com");
        cd_reset();
        dispatch_one(f->d, ZM_GUEST, "WEB01", "web1.example.com", "load", t);
        assert_string_equal(cd_vls[0].host, "web1.example.com"); /* trusted for that name */
        dispatch_one(f->d, ZM_GUEST, "WEB01", "web2.example.com", "load", t);
        assert_string_equal(cd_vls[1].host, "web01"); /* but not for another */
        dispatch_one(f->d, ZM_GUEST, "EVIL01", "zvmsys01", "load", t);
        assert_string_equal(cd_vls[2].host, "evil01"); /* never the z/VM system */
        dispatch_one(f->d, ZM_GUEST, "LINUX001", "", "load", t);
        assert_string_equal(cd_vls[3].host, "linux001");
        dispatch_one(f->d, ZM_GUEST, "EVIL02", "linux001", "load", t);
        assert_string_equal(cd_vls[4].host, "evil02"); /* never another guest's host */
        dispatch_one(f->d, ZM_GUEST, "EVIL03", "collector", "load", t);
        assert_string_equal(cd_vls[5].host, "evil03"); /* never the collector's Hostname */
        dispatch_one(f->d, ZM_GUEST, "EVIL05", "someone.else", "load", t);
        assert_string_equal(cd_vls[6].host, "evil05"); /* untrusted: its own host */
        assert_int_equal(zvm_stats()->host_refused, 5);
        int logs = cd_nlog;
        dispatch_one(f->d, ZM_GUEST, "EVIL05", "someone.else", "load", t + 4096);
        assert_int_equal(cd_nlog, logs); /* logged once per guest, then counted */
        assert_int_equal(zvm_stats()->host_refused, 6);

        /* The plugin's own plugins are out of reach, whatever the host. */
        size_t n = cd_nvl;
        dispatch_one(f->d, ZM_GUEST, "EVIL05", "", "zvm", t);
        dispatch_one(f->d, ZM_GUEST, "EVIL05", "", "ZVM-reader", t);
        dispatch_one(f->d, ZM_GUEST, "EVIL05", "", "vm370", t);
        /* in any case: label names both, but one series set to a reader matching without it */
        dispatch_one(f->d, ZM_GUEST, "EVIL05", "", "ZVM_reader", t);
        dispatch_one(f->d, ZM_GUEST, "EVIL05", "", "Vm370", t);
        assert_int_equal(cd_nvl, n);
        assert_int_equal(zvm_stats()->names_refused, 5);
        assert_int_equal(cd_nlog, logs + 1);
        dispatch_one(f->d, ZM_SYSTEM, "", "", "zvm", t); /* CP's own data passes */
        assert_int_equal(cd_nvl, n + 1);
        /* "vm370-tape" is plugin vm370, instance tape to collectd; "." and ".." make files */
        dispatch_one(f->d, ZM_GUEST, "EVIL05", "", "vm370-tape", t);
        dispatch_one(f->d, ZM_GUEST, "EVIL05", "", "..", t);
        dispatch_one(f->d, ZM_GUEST, "EVIL05", "", ".hidden", t);
        assert_int_equal(cd_nvl, n + 1);
        assert_int_equal(zvm_stats()->names_refused, 8);
}

/*
 * The dispatcher's own guard, whatever a module hands it: a guest's data
 * without a userid is nobody's.  Its host claim is never taken on its word
 * (before, another guest's host or the z/VM system's was), and without a
 * claim it does not fall to the z/VM system's host: it is refused.
 */
static void guest_data_without_a_userid_is_refused(void **state)
{
        struct dispatch_fx *f = *state;
        zm_set_system(f->e, "ZVMSYS01");
        uint64_t t = VEC_TOD_2026;
        dispatch_one(f->d, ZM_GUEST, "LINUX001", "", "memory", t);
        assert_int_equal(cd_nvl, 1);
        dispatch_one(f->d, ZM_GUEST, "", "linux001", "memory", t + 4096);
        dispatch_one(f->d, ZM_GUEST, "", "zvmsys01", "memory", t + 4096);
        dispatch_one(f->d, ZM_GUEST, "", "collector", "memory", t + 4096);
        dispatch_one(f->d, ZM_GUEST, "", "", "memory", t + 4096);
        assert_int_equal(cd_nvl, 1);
        assert_int_equal(zvm_stats()->names_refused, 4);
        assert_int_equal(zvm_stats()->dispatched, 1);
}

/*
 * A trusted name in another case is the same name, stored as configured; a
 * claim granted before the guest whose own host it is showed up is decided
 * again when that guest appears (in CP's data or its own), so it does not
 * outlive the rightful guest's arrival.
 */
static void guest_host_claims_case_and_order(void **state)
{
        struct dispatch_fx *f = *state;
        f->c.guest_format = strdup("%u.zvm.example.com");
        trust(&f->c, "EVIL01", "linux002.zvm.example.com");
        trust(&f->c, "WEB01", "Web1.Example.com");
        uint64_t t = VEC_TOD_2026;
        dispatch_one(f->d, ZM_GUEST, "WEB01", "WEB1.EXAMPLE.COM", "load", t);
        assert_string_equal(cd_vls[0].host, "Web1.Example.com"); /* as configured */
        dispatch_one(f->d, ZM_GUEST, "EVIL01", "LINUX002.zvm.example.com", "load", t);
        assert_string_equal(cd_vls[1].host, "linux002.zvm.example.com"); /* nobody's yet */
        dispatch_one(f->d, ZM_SYSTEM, "LINUX002", "", "zvm", t);         /* CP names LINUX002 */
        dispatch_one(f->d, ZM_GUEST, "EVIL01", "LINUX002.zvm.example.com", "load", t + 4096);
        assert_string_equal(cd_vls[3].host, "evil01.zvm.example.com");
        dispatch_one(f->d, ZM_GUEST, "LINUX002", "", "memory", t + 4096);
        assert_string_equal(cd_vls[4].host, "linux002.zvm.example.com");
        assert_int_equal(zvm_stats()->host_refused, 1);
}

/*
 * write_graphite turns dots and blanks in a host name into '_' (its default
 * EscapeCharacter; doc/forwarding.md), so "linux002_zvm" and "linux002.zvm"
 * are one host in Graphite.  A name a guest is trusted with is therefore
 * refused when Graphite would take it for the z/VM system's, the
 * collector's or another guest's host, as one in another case is.
 */
static void guest_host_claims_alike_in_graphite(void **state)
{
        struct dispatch_fx *f = *state;
        f->c.guest_format = strdup("%u.zvm");
        trust(&f->c, "EVIL01", "LINUX002_ZVM");
        trust(&f->c, "EVIL02", "db prod");
        oconfig_item_t ci = item("GuestHost", 2, "DBPROD", "db.prod");
        assert_int_equal(zvm_config_item(&f->c, &ci), 0);
        trust(&f->c, "EVIL03", "lpar1_example_com");
        trust(&f->c, "EVIL04", "web_01");
        f->c.host = strdup("lpar1.example.com"); /* the z/VM system's host */
        interval_end(f->e);
        interval_end(f->e);
        uint64_t t = VEC_TOD_2026;
        dispatch_one(f->d, ZM_SYSTEM, "LINUX002", "", "zvm", t); /* CP names LINUX002 */
        dispatch_one(f->d, ZM_GUEST, "EVIL01", "linux002_zvm", "load", t);
        assert_non_null(cd_find("evil01.zvm", "load", "", "memory", "free"));
        dispatch_one(f->d, ZM_GUEST, "EVIL02", "db prod", "load", t);
        assert_non_null(cd_find("evil02.zvm", "load", "", "memory", "free"));
        dispatch_one(f->d, ZM_GUEST, "EVIL03", "lpar1_example_com", "load", t);
        assert_non_null(cd_find("evil03.zvm", "load", "", "memory", "free"));
        dispatch_one(f->d, ZM_GUEST, "EVIL04", "web_01", "load", t); /* nobody's */
        assert_non_null(cd_find("web_01", "load", "", "memory", "free"));
        assert_int_equal(zvm_stats()->host_refused, 3);
}

/*
 * A host name GuestHostFormat gives a guest CP has named (here through the
 * engine alone: no value of that guest has come) is that guest's, read
 * backwards through the format, up to the 8 characters of CP's longest
 * userid; a guest that writes its own host is under its own host, even when
 * trusted with it in another case (one host, as collectd compares them),
 * and that is no refusal; the host of a guest CP has not named is nobody's
 * (doc/plugin.md, TrustedGuestHost).
 */
static void guest_host_claims_on_guests_cp_named(void **state)
{
        struct dispatch_fx *f = *state;
        f->c.guest_format = strdup("%u.zvm");
        trust(&f->c, "EVIL01", "linux008.zvm");
        trust(&f->c, "EVIL02", "web1.zvm");
        trust(&f->c, "WEB01", "Web01.ZVM");
        trust(&f->c, "EVIL03", "nobody.zvm");
        static const char named[][9] = {"LINUX008", "WEB1", "WEB01"}; /* char[9], as CP names */
        for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
                zm_note_guest(f->e, named[i]);
        interval_end(f->e);
        interval_end(f->e);
        uint64_t t = VEC_TOD_2026;
        dispatch_one(f->d, ZM_GUEST, "EVIL01", "linux008.zvm", "load", t);
        assert_string_equal(cd_vls[0].host, "evil01.zvm");
        dispatch_one(f->d, ZM_GUEST, "EVIL02", "web1.zvm", "load", t);
        assert_string_equal(cd_vls[1].host, "evil02.zvm");
        assert_int_equal(zvm_stats()->host_refused, 2);
        dispatch_one(f->d, ZM_GUEST, "WEB01", "web01.zvm", "load", t);
        assert_string_equal(cd_vls[2].host, "web01.zvm");
        dispatch_one(f->d, ZM_GUEST, "EVIL03", "nobody.zvm", "load", t); /* not named by CP */
        assert_string_equal(cd_vls[3].host, "nobody.zvm");
        assert_int_equal(zvm_stats()->host_refused, 2);
}

/*
 * No name a guest chooses may start with '.' (doc/plugin.md, threat model):
 * write plugins make files of names.  The plugin name is a label name
 * anyway; its instance, its type and the type's instance are checked here.
 */
static void guest_names_starting_with_a_dot_refused(void **state)
{
        struct dispatch_fx *f = *state;
        struct zm_metric m = metric(ZM_GUEST, "LINUX01", 10, 2, VEC_TOD_2026, 1);
        m.plugin_instance = "..";
        dispatch(f->d, &m);
        m.plugin_instance = "";
        m.type_instance = ".hidden";
        dispatch(f->d, &m);
        m.type_instance = "free";
        m.type = ".memory";
        dispatch(f->d, &m);
        assert_int_equal(cd_nvl, 0);
        assert_int_equal(zvm_stats()->names_refused, 3);
        m.type = "memory";
        dispatch(f->d, &m);
        assert_int_equal(cd_nvl, 1);
}

/*
 * collectd's write_prometheus (5.12) puts the plugin name, unchanged, into
 * the metric name and makes it a label name, next to its own "type" and
 * "instance" (doc/forwarding.md).  One value whose plugin is "my.app",
 * "3par" or "instance" made the whole exposition unreadable to Prometheus
 * ("invalid metric name", "label name \"instance\" is not unique"): the
 * target went down, and every host's values with it.  A guest's plugin name
 * must be a Prometheus label name, none of those two, and not start with "__"
 * (Prometheus keeps such labels for itself).
 */
static void guest_plugin_names_every_writer_can_carry(void **state)
{
        struct dispatch_fx *f = *state;
        uint64_t t = VEC_TOD_2026;
        static const char *const bad[] = {"my.app", "my-app",   "a b",   "3par",       "instance",
                                          "type",   "__name__", "app:x", "caf\xc3\xa9"};
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
                dispatch_one(f->d, ZM_GUEST, "LINUX01", "", bad[i], t);
        assert_int_equal(cd_nvl, 0);
        assert_int_equal(zvm_stats()->names_refused, sizeof(bad) / sizeof(bad[0]));
        static const char *const good[] = {"my_app", "GenericJMX", "_x", "instances", "Type"};
        for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
                dispatch_one(f->d, ZM_GUEST, "LINUX01", "", good[i], t);
        assert_int_equal(cd_nvl, sizeof(good) / sizeof(good[0]));
        dispatch_one(f->d, ZM_SYSTEM, "", "", "zvm", t); /* CP's own names are the plugin's */
        assert_int_equal(cd_nvl, sizeof(good) / sizeof(good[0]) + 1);
}

/* A type collectd does not know is refused and counted here, not once per value in its log. */
static void unknown_type_counted(void **state)
{
        struct dispatch_fx *f = *state;
        struct zm_metric m = metric(ZM_GUEST, "LINUX01", 10, 2, VEC_TOD_2026, 1);
        m.type = "no_such_type_x";
        dispatch(f->d, &m);
        m.tod += 4096;
        dispatch(f->d, &m);
        assert_int_equal(cd_nvl, 0);
        assert_int_equal(zvm_stats()->type_refused, 2);
        assert_int_equal(cd_nlog, 1);
        /* An empty type or plugin never reaches collectd, which would log each one
         * (fuzz_names: the mapping passed them through). */
        m.type = "";
        m.tod += 4096;
        dispatch(f->d, &m);
        struct zm_metric p = metric(ZM_SYSTEM, "", 0, 2, VEC_TOD_2026, 1);
        p.plugin = "";
        dispatch(f->d, &p);
        p = metric(ZM_SYSTEM, "", 0, 2, VEC_TOD_2026, 1);
        p.type_instance = "a/b"; /* fuzz_names */
        dispatch(f->d, &p);
        assert_int_equal(cd_nvl, 0);
        assert_int_equal(zvm_stats()->names_refused, 3);
}

static void each_identifier_and_time_once(void **state)
{
        struct dispatch_fx *f = *state;
        struct zm_metric m = metric(ZM_GUEST, "LINUX01", 10, 2, VEC_TOD_2026, 1);
        dispatch(f->d, &m);
        dispatch(f->d, &m);         /* same time again: refused */
        m.tod -= 4096 * 1000000ULL; /* older */
        dispatch(f->d, &m);
        struct zm_metric o = metric(ZM_GUEST, "LINUX02", 10, 2, VEC_TOD_2026, 1);
        dispatch(f->d, &o); /* another host: its own series */
        m.tod = VEC_TOD_2026 + 4096 * 1000000ULL;
        dispatch(f->d, &m);
        assert_int_equal(cd_nvl, 3);
        assert_int_equal(zvm_stats()->duplicates, 2);
        assert_int_equal(zvm_stats()->dispatched, 3);
        /* Many series: the table grows and still knows the first one. */
        for (int i = 0; i < 5000; i++) {
                struct zm_metric x = metric(ZM_SYSTEM, "", 0, 2, VEC_TOD_2026, 1);
                char ti[16];
                snprintf(ti, sizeof(ti), "s%d", i);
                x.type_instance = ti;
                dispatch(f->d, &x);
        }
        m.tod = VEC_TOD_2026;
        size_t before = zvm_stats()->duplicates;
        dispatch(f->d, &m);
        assert_int_equal(zvm_stats()->duplicates, before + 1);
}

static void filters(void **state)
{
        (void)state;
        struct zvm_config c;
        fresh(&c);
        oconfig_item_t ci = item("IncludeRecord", 2, "D10", "0:2");
        assert_int_equal(zvm_config_item(&c, &ci), 0);
        ci = item("ExcludeRecord", 1, "D10R1", NULL);
        assert_int_equal(zvm_config_item(&c, &ci), 0);
        ci = item("ExcludeGuest", 1, "test*", NULL); /* matched in upper case */
        assert_int_equal(zvm_config_item(&c, &ci), 0);
        struct zvm_dispatch *d = zvm_dispatch_new(&c);
        uint64_t t = VEC_TOD_2026;
        struct zm_metric ms[] = {
            metric(ZM_GUEST, "LINUX01", 10, 2, t, 1), /* in */
            metric(ZM_GUEST, "LINUX01", 10, 1, t, 1), /* D10R1 excluded */
            metric(ZM_SYSTEM, "", 0, 2, t, 1),        /* in */
            metric(ZM_SYSTEM, "", 0, 3, t, 1),        /* not included */
            metric(ZM_GUEST, "TESTLX", 10, 2, t, 1),  /* guest excluded */
            metric(ZM_SYSTEM, "TESTLX", 4, 3, t, 1),  /* not included */
            metric(ZM_SYSTEM, "TESTLX", 0, 2, t, 1),  /* CP's data of an excluded guest */
        };
        ms[2].tod++;
        ms[6].tod += 2;
        for (size_t i = 0; i < sizeof(ms) / sizeof(ms[0]); i++)
                dispatch(d, &ms[i]);
        assert_int_equal(cd_nvl, 2);
        assert_int_equal(zvm_stats()->filtered, 5);
        zvm_dispatch_free(d);
        zvm_config_free(&c);

        /* IncludeGuest alone: system data without a guest passes. */
        cd_reset();
        zvm_config_defaults(&c);
        ci = item("IncludeGuest", 1, "LNX?", NULL);
        assert_int_equal(zvm_config_item(&c, &ci), 0);
        d = zvm_dispatch_new(&c);
        struct zm_metric a = metric(ZM_GUEST, "LNX1", 10, 2, t, 1);
        struct zm_metric b = metric(ZM_GUEST, "LNX12", 10, 2, t, 1);
        struct zm_metric s = metric(ZM_SYSTEM, "", 0, 2, t, 1);
        dispatch(d, &a);
        dispatch(d, &b);
        dispatch(d, &s);
        assert_int_equal(cd_nvl, 2);
        assert_non_null(cd_find("lnx1", "memory", "", "memory", "free"));
        zvm_dispatch_free(d);
        zvm_config_free(&c);

        /* A pattern too long to keep is refused, not cut to one that matches more guests. */
        char lng[300];
        memset(lng, '?', 256);
        strcpy(lng + 256, "*X");
        zvm_config_defaults(&c);
        ci = item("ExcludeGuest", 1, lng, NULL);
        assert_int_equal(zvm_config_item(&c, &ci), -1);
        assert_non_null(strstr(cd_lastlog, "ExcludeGuest: a pattern of 258 characters"));
        zvm_config_free(&c);
}

static void series_cap_per_guest(void **state)
{
        (void)state;
        struct zvm_config c;
        fresh(&c);
        c.engine.max_series_per_guest = 3;
        struct zvm_pipe p;
        assert_true(zvm_pipe_init(&p, &c));
        for (int i = 0; i < 5; i++) {
                struct zm_metric m = metric(ZM_GUEST, "LINUX01", 10, 2, VEC_TOD_2026, 1);
                char ti[16];
                snprintf(ti, sizeof(ti), "t%d", i);
                m.type_instance = ti;
                zm_emit(p.eng, &m);
        }
        struct zm_metric o = metric(ZM_GUEST, "LINUX02", 10, 2, VEC_TOD_2026, 1);
        zm_emit(p.eng, &o);
        zvm_pipe_publish(&p);
        assert_int_equal(cd_nvl, 4);
        assert_int_equal(zm_engine_counters(p.eng)->series_capped, 2);
        zvm_pipe_destroy(&p);
        zvm_config_free(&c);
}

/* A data set (doc/facts/monitor-stream.md 4.3): one MCE, then a record set at DCSS 0x100000. */
static size_t one_set(uint8_t *set, const uint8_t *rec, size_t len)
{
        vec_mce(set, 0xE2, 0x00, 0x20, 0x100000, 0x100000 + (uint32_t)len - 1);
        memcpy(set + 12, rec, len);
        return 12 + len;
}

static void pipe_from_bytes_to_value_lists(void **state)
{
        (void)state;
        struct zvm_config c;
        fresh(&c);
        struct zvm_pipe p;
        assert_true(zvm_pipe_init(&p, &c));
        uint8_t data[96] = {0}, rec[200], pid[16], set[300];
        uint64_t ts = VEC_TOD_2026 - ((uint64_t)3000000 << 12);
        vec_lx_common(data, ts, 9, 9);
        be64(data + 40, 123456); /* rx_bytes */
        be64(data + 48, 654321); /* tx_bytes */
        vec_lx_prodid(pid, 3, "00");
        size_t len = vec_d10(rec, 2, "LINUX07", pid, data, 96);
        size_t n = one_set(set, rec, len);
        zd_decode_dataset(&p.dec, zd_view_make(set, n), 0, 0);
        zvm_pipe_publish(&p);
        const struct cd_vl *v = cd_find("linux07", "interface", "all", "if_octets", "");
        assert_non_null(v);
        assert_int_equal(v->n, 2);
        assert_true(v->v[0].derive == 123456 && v->v[1].derive == 654321);
        assert_true(v->time == (cdtime_t)(1795305600 - 3) << 30);
        assert_int_equal(zvm_stats()->records, 1);
        /* The same set again (CP sampled an unchanged buffer): nothing new. */
        size_t before = cd_nvl;
        zd_decode_dataset(&p.dec, zd_view_make(set, n), 1, n);
        assert_int_equal(cd_nvl, before);
        zvm_pipe_destroy(&p);
        zvm_config_free(&c);
}

/*
 * A domain 10 record whose userid is blank or none CP stamps names no guest:
 * nothing of it is dispatched (before, a blank userid put its values under
 * the z/VM system's host), and it is counted as unusable (appl_bad).
 */
static void appldata_without_a_userid_goes_nowhere(void **state)
{
        (void)state;
        struct zvm_config c;
        fresh(&c);
        struct zvm_pipe p;
        assert_true(zvm_pipe_init(&p, &c));
        zm_set_system(p.eng, "ZVMSYS01");
        uint8_t data[96] = {0}, rec[200], pid[16], set[300];
        vec_lx_common(data, VEC_TOD_2026, 9, 9);
        vec_lx_prodid(pid, 3, "00");
        size_t len = vec_d10(rec, 2, "", pid, data, 96);
        size_t n = one_set(set, rec, len);
        zd_decode_dataset(&p.dec, zd_view_make(set, n), 0, 0);
        memcpy(rec + 24, "\xC1\x4B\xC2\x40\x40\x40\x40\x40", 8); /* "A.B" */
        n = one_set(set, rec, len);
        zd_decode_dataset(&p.dec, zd_view_make(set, n), 1, n);
        zvm_pipe_publish(&p);
        assert_int_equal(cd_nvl, 0);
        assert_int_equal(zvm_stats()->engine.appl_bad, 2);
        zvm_pipe_destroy(&p);
        zvm_config_free(&c);
}

static void repeated_engine_messages_thinned(void **state)
{
        (void)state;
        cd_reset();
        for (int i = 0; i < 9; i++)
                zvm_engine_log(NULL, 4, "record never fits");
        zvm_engine_log(NULL, 4, "something else");
        /* collectd's complaint rule: once, then not before 10 s, 20 s, 40 s ... */
        assert_int_equal(cd_nlog, 2);
        assert_string_equal(cd_lastlog, "zvm plugin: something else");
        cd_now += (cdtime_t)10 << 30;
        zvm_engine_log(NULL, 4, "record never fits");
        assert_int_equal(cd_nlog, 3);
        assert_string_equal(cd_lastlog, "zvm plugin: record never fits (seen 10 times)");
        cd_now += (cdtime_t)10 << 30; /* the wait has doubled to 20 s */
        zvm_engine_log(NULL, 4, "record never fits");
        assert_int_equal(cd_nlog, 3);
        cd_now += (cdtime_t)10 << 30;
        zvm_engine_log(NULL, 4, "record never fits");
        assert_int_equal(cd_nlog, 4);
        assert_string_equal(cd_lastlog, "zvm plugin: record never fits (seen 12 times)");
}

/* Every counter of what became of a value, as the self-metrics report them. */
struct fate {
        uint64_t dispatched, duplicates, filtered, nomem, refused, type_refused;
};

static void fate_is(struct fate want)
{
        const struct zvm_stats *s = zvm_stats();
        assert_int_equal(s->dispatched, want.dispatched);
        assert_int_equal(s->duplicates, want.duplicates);
        assert_int_equal(s->filtered, want.filtered);
        assert_int_equal(s->values_nomem, want.nomem);
        assert_int_equal(s->collectd_refused, want.refused);
        assert_int_equal(s->type_refused, want.type_refused);
}

/*
 * Each counter of a value's fate counts one cause: no memory for its series,
 * the filters, collectd refusing the value list, a repeat, no values at all.
 * None moves before the flush: the dispatcher counts on its own and adds its
 * counts to the shared ones once per flush, not under a lock per value.
 */
static void each_counter_counts_its_own_cause(void **state)
{
        struct dispatch_fx *f = *state;
        oconfig_item_t ci = item("ExcludeRecord", 1, "D4", NULL);
        assert_int_equal(zvm_config_item(&f->c, &ci), 0);
        uint64_t t = VEC_TOD_2026;
        struct zm_metric kept = metric(ZM_SYSTEM, "", 0, 2, t, 1);
        struct zm_metric left_out = metric(ZM_SYSTEM, "", 4, 2, t, 1);
        fail_calloc = true; /* the first series' names find no block */
        zvm_dispatch_metric(f->d, &kept);
        fail_calloc = false;
        fate_is((struct fate){0, 0, 0, 0, 0, 0});
        zvm_dispatch_flush(f->d);
        fate_is((struct fate){0, 0, 0, 1, 0, 0});
        zvm_dispatch_metric(f->d, &left_out);
        fate_is((struct fate){0, 0, 0, 1, 0, 0});
        zvm_dispatch_flush(f->d);
        fate_is((struct fate){0, 0, 1, 1, 0, 0});
        cd_refuse = 1;
        dispatch(f->d, &kept);
        fate_is((struct fate){0, 0, 1, 1, 1, 0});
        assert_int_equal(cd_nvl, 0);
        kept.tod += 4096;
        dispatch(f->d, &kept);
        dispatch(f->d, &kept); /* the same time again */
        fate_is((struct fate){1, 1, 1, 1, 1, 0});
        struct zm_metric empty = kept;
        empty.tod += 4096;
        empty.nvalues = 0; /* collectd takes no value list without values */
        dispatch(f->d, &empty);
        fate_is((struct fate){1, 1, 1, 1, 1, 1});
        assert_int_equal(cd_nvl, 1);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(recfilter_syntax),
            cmocka_unit_test(guest_host_naming),
            cmocka_unit_test(guest_host_format_names_each_guest),
            cmocka_unit_test(defaults_device_unless_files),
            cmocka_unit_test(single_options_given_once),
            cmocka_unit_test(guest_host_format_fits_the_host_field),
            cmocka_unit_test(queue_options),
            DISPATCH_ENGINE_TEST(guest_metric_host_time_interval),
            DISPATCH_ENGINE_TEST(system_metric_host),
            DISPATCH_ENGINE_TEST(staged_values_keep_order_and_names),
            DISPATCH_ENGINE_TEST(guest_host_claims),
            DISPATCH_TEST(guest_host_claims_case_and_order),
            DISPATCH_ENGINE_TEST(guest_host_claims_alike_in_graphite),
            DISPATCH_ENGINE_TEST(guest_host_claims_on_guests_cp_named),
            DISPATCH_TEST(guest_names_starting_with_a_dot_refused),
            DISPATCH_ENGINE_TEST(guest_data_without_a_userid_is_refused),
            DISPATCH_TEST(guest_plugin_names_every_writer_can_carry),
            DISPATCH_TEST(unknown_type_counted),
            DISPATCH_TEST(each_identifier_and_time_once),
            DISPATCH_TEST(each_counter_counts_its_own_cause),
            cmocka_unit_test(filters),
            cmocka_unit_test(series_cap_per_guest),
            cmocka_unit_test(pipe_from_bytes_to_value_lists),
            cmocka_unit_test(appldata_without_a_userid_goes_nowhere),
            cmocka_unit_test(repeated_engine_messages_thinned),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
