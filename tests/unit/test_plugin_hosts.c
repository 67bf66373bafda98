/* SPDX-License-Identifier: MIT */
/*
 * Whose host a guest's values go under, the cases that are no attack but
 * were taken for one or passed in silence (doc/plugin.md, TrustedGuestHost
 * and the threat model): a guest that writes its own host, a guest whose
 * own host is the z/VM system's or the collector's, a host trusted to two
 * guests, and two sources of one guest writing one identifier.
 */
#include "vec_appl.h"

#include "cd_stubs.h"

#include "base/tod.h"

#include "dispatch_fixture.h"

static void dispatch_claim(struct zvm_dispatch *d, const char *guest, const char *host,
                           const char *plugin, uint64_t tod)
{
        struct zm_metric m = metric(ZM_GUEST, guest, 10, 2, tod, 1);
        m.host = host;
        m.plugin = plugin;
        dispatch(d, &m);
}

static void interval_end(struct zm_engine *e)
{
        struct zd_record end;
        memset(&end, 0, sizeof(end));
        end.domain = 1;
        end.number = 11;
        zm_engine_interval_end(e, &end);
}

/*
 * contrib/writer-guest.conf on guest LINUX01: write_zvm names the host
 * "linux01", which GuestHostFormat "%u" gives LINUX01 anyway.  That is its
 * own host, not a claim: no refusal, no count, no warning, before CP's
 * first interval as after it, trusted with other names or not.  Spelt
 * otherwise (as collectd compares hosts, exactly) it is a claim, refused.
 */
static void own_host_is_no_claim(void **state)
{
        struct dispatch_fx *f = *state;
        oconfig_item_t ci = item("TrustedGuestHost", 2, "WEB01", "web1.example.com");
        assert_int_equal(zvm_config_item(&f->c, &ci), 0);
        uint64_t t = VEC_TOD_2026;
        dispatch_claim(f->d, "LINUX01", "linux01", "memory", t); /* before CP's first interval */
        dispatch_claim(f->d, "WEB01", "web01", "memory", t);     /* trusted with another name */
        interval_end(f->e);
        interval_end(f->e);
        dispatch_claim(f->d, "LINUX01", "linux01", "load", t);
        dispatch_claim(f->d, "WEB01", "web01", "load", t);
        assert_int_equal(cd_nvl, 4);
        assert_non_null(cd_find("linux01", "memory", "", "memory", "free"));
        assert_non_null(cd_find("linux01", "load", "", "memory", "free"));
        assert_non_null(cd_find("web01", "load", "", "memory", "free"));
        assert_int_equal(zvm_stats()->host_refused, 0);
        assert_int_equal(cd_nlog, 0);
        dispatch_claim(f->d, "LINUX01", "LINUX01", "cpu", t); /* another host to collectd */
        assert_string_equal(cd_vls[4].host, "linux01");
        assert_int_equal(zvm_stats()->host_refused, 1);
        assert_int_equal(cd_nlog, 1);
        assert_non_null(strstr(cd_lastlog, "guest LINUX01 wrote metrics for host \"LINUX01\""));
}

/* The same under a GuestHostFormat and a GuestHost: a guest's own host is what they make. */
static void own_host_by_format_and_map(void **state)
{
        struct dispatch_fx *f = *state;
        f->c.guest_format = strdup("%u.zvm.example.com");
        oconfig_item_t ci = item("GuestHost", 2, "DB01", "db.example.com");
        assert_int_equal(zvm_config_item(&f->c, &ci), 0);
        interval_end(f->e);
        interval_end(f->e);
        uint64_t t = VEC_TOD_2026;
        dispatch_claim(f->d, "LINUX01", "linux01.zvm.example.com", "load", t);
        dispatch_claim(f->d, "DB01", "db.example.com", "load", t);
        assert_string_equal(cd_vls[0].host, "linux01.zvm.example.com");
        assert_string_equal(cd_vls[1].host, "db.example.com");
        assert_int_equal(zvm_stats()->host_refused, 0);
        dispatch_claim(f->d, "DB01", "db01.zvm.example.com", "cpu", t); /* the format's: not its */
        assert_string_equal(cd_vls[2].host, "db.example.com");
        assert_int_equal(zvm_stats()->host_refused, 1);
}

/*
 * A guest whose userid is the z/VM system's name, or whose own host is the
 * collector's Hostname, shares that host with CP's data or the reader's
 * counters: said once per guest (when the system's name becomes known, too).
 */
static void own_host_shared_with_system_or_collector(void **state)
{
        struct dispatch_fx *f = *state;
        uint64_t t = VEC_TOD_2026;
        dispatch_claim(f->d, "ZVMSYS01", "", "memory", t); /* the system's name is not known yet */
        assert_int_equal(cd_nlog, 0);
        zm_set_system(f->e, "ZVMSYS01");
        dispatch_claim(f->d, "ZVMSYS01", "", "memory", t + 4096);
        assert_int_equal(cd_nlog, 1);
        assert_non_null(strstr(cd_lastlog, "guest ZVMSYS01's own host \"zvmsys01\""));
        assert_non_null(strstr(cd_lastlog, "the z/VM system's"));
        dispatch_claim(f->d, "ZVMSYS01", "", "load", t + 4096); /* once per guest */
        snprintf(cd_hostname, sizeof(cd_hostname), "lnxcoll");  /* the collector is a guest */
        dispatch_claim(f->d, "LNXCOLL", "", "load", t);
        snprintf(cd_hostname, sizeof(cd_hostname), "collector");
        assert_int_equal(cd_nlog, 2);
        assert_non_null(strstr(cd_lastlog, "the collector's (Hostname)"));
        dispatch_claim(f->d, "LINUX01", "", "load", t);
        assert_int_equal(cd_nlog, 2);
        assert_string_equal(cd_vls[1].host, "zvmsys01"); /* nothing refused: said, not changed */
        assert_string_equal(cd_vls[3].host, "lnxcoll");
}

/* One host trusted to two guests: said when the second is configured, and taken. */
static void host_trusted_twice(void **state)
{
        (void)state;
        struct zvm_config c;
        fresh(&c);
        oconfig_item_t ci = item("TrustedGuestHost", 2, "FWD01", "gateway.example.com");
        assert_int_equal(zvm_config_item(&c, &ci), 0);
        ci = item("TrustedGuestHost", 2, "FWD01", "other.example.com"); /* the same guest: fine */
        assert_int_equal(zvm_config_item(&c, &ci), 0);
        assert_int_equal(cd_nlog, 0);
        ci = item("TrustedGuestHost", 2, "fwd02", "Gateway.Example.com");
        assert_int_equal(zvm_config_item(&c, &ci), 0);
        assert_int_equal(cd_nlog, 1);
        assert_non_null(strstr(cd_lastlog, "\"Gateway.Example.com\" is given to guests FWD01 and "
                                           "FWD02"));
        zvm_config_free(&c);
}

/*
 * Kernel APPLDATA (a module's keyed series) and write_zvm (names a guest
 * wrote) of one guest naming one identifier: the later ones of a time are
 * duplicates; said once per guest.  Two guests GuestHost names alike are
 * the configuration's choice: not said.
 */
static void two_sources_one_identifier(void **state)
{
        struct dispatch_fx *f = *state;
        uint64_t t = VEC_TOD_2026;
        struct zm_metric kernel = metric(ZM_GUEST, "LINUX01", 10, 2, t, 1);
        kernel.key = 12345; /* the Linux module's own key for its fixed names */
        dispatch(f->d, &kernel);
        struct zm_metric wzvm = metric(ZM_GUEST, "LINUX01", 10, 2, t, 2); /* no key, no host */
        dispatch(f->d, &wzvm);
        assert_int_equal(cd_nvl, 1);
        assert_int_equal(zvm_stats()->duplicates, 1);
        assert_int_equal(cd_nlog, 1);
        assert_non_null(strstr(cd_lastlog, "guest LINUX01 writes linux01/memory/memory-free from "
                                           "two sources"));
        wzvm.type_instance = "used";
        kernel.type_instance = "used";
        dispatch(f->d, &kernel);
        dispatch(f->d, &wzvm);
        assert_int_equal(cd_nlog, 1); /* once per guest */
        oconfig_item_t ci = item("GuestHost", 2, "A", "shared");
        assert_int_equal(zvm_config_item(&f->c, &ci), 0);
        ci = item("GuestHost", 2, "B", "shared");
        assert_int_equal(zvm_config_item(&f->c, &ci), 0);
        struct zm_metric a = metric(ZM_GUEST, "A", 10, 2, t, 1),
                         b = metric(ZM_GUEST, "B", 10, 2, t, 1);
        dispatch(f->d, &a);
        dispatch(f->d, &b);
        assert_int_equal(cd_nlog, 1);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            DISPATCH_ENGINE_TEST(own_host_is_no_claim),
            DISPATCH_ENGINE_TEST(own_host_by_format_and_map),
            DISPATCH_ENGINE_TEST(own_host_shared_with_system_or_collector),
            cmocka_unit_test(host_trusted_twice),
            DISPATCH_ENGINE_TEST(two_sources_one_identifier),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
