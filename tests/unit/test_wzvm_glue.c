/* SPDX-License-Identifier: MIT */
/*
 * write_zvm's collectd glue (configuration, the write callback, StoreRates,
 * the name rules, the queue bound) with stubs for every collectd symbol the
 * plugin calls.  The source is included so that its statics are reachable,
 * as collectd's own plugin tests do.
 */
#include "../../plugin/write_zvm/write_zvm.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "wzvm_cd_stubs.h"

/* Linked with --wrap=calloc,--wrap=realloc: each fails while its flag is set. */
static bool fail_calloc, fail_realloc;
void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size)
{
        return fail_calloc ? NULL : __real_calloc(n, size);
}
void *__real_realloc(void *p, size_t size);
void *__wrap_realloc(void *p, size_t size);
void *__wrap_realloc(void *p, size_t size)
{
        return fail_realloc ? NULL : __real_realloc(p, size);
}

/* ---- helpers ---- */
static oconfig_value_t sval(const char *s)
{
        oconfig_value_t v = {.type = OCONFIG_TYPE_STRING};
        v.value.string = (char *)s;
        return v;
}
static oconfig_value_t nval(double d)
{
        oconfig_value_t v = {.type = OCONFIG_TYPE_NUMBER};
        v.value.number = d;
        return v;
}
static oconfig_value_t bval(int b)
{
        oconfig_value_t v = {.type = OCONFIG_TYPE_BOOLEAN};
        v.value.boolean = b;
        return v;
}

static int config1(const char *key, oconfig_value_t *vals, int n)
{
        oconfig_item_t child = {.key = (char *)key, .values = vals, .values_num = n};
        oconfig_item_t top = {.key = "Plugin", .children = &child, .children_num = 1};
        return wz_config(&top);
}

/* An option of one value given twice in one block: refused, the first kept; Include may repeat. */
static void config_option_given_twice(void **state)
{
        (void)state;
        oconfig_value_t a = sval("/tmp/first"), b = sval("/tmp/second"), f = sval("cpu");
        oconfig_item_t kids[4] = {{.key = "Device", .values = &a, .values_num = 1},
                                  {.key = "Include", .values = &f, .values_num = 1},
                                  {.key = "Include", .values = &f, .values_num = 1},
                                  {.key = "DEVICE", .values = &b, .values_num = 1}};
        oconfig_item_t top = {.key = "Plugin", .children = kids, .children_num = 4};
        nlog = 0;
        assert_int_not_equal(wz_config(&top), 0);
        assert_int_equal(nlog, 1);
        assert_non_null(strstr(logbuf[0], "Device given twice"));
        assert_string_equal(cfg.device, "/tmp/first");
        assert_int_equal(cfg.filter.ninc, 2);
        top.children_num = 3; /* the same block without the second Device */
        wz_filter_free(&cfg.filter);
        assert_int_equal(wz_config(&top), 0);
}

static data_source_t if_ds[2] = {{"rx", DS_TYPE_DERIVE, 0, NAN}, {"tx", DS_TYPE_DERIVE, 0, NAN}};
static data_set_t if_octets = {"if_octets", 2, if_ds};
static data_source_t g_ds[1] = {{"value", DS_TYPE_GAUGE, NAN, NAN}};
static data_set_t gauge_set = {"memory", 1, g_ds};

static value_list_t vlist(const char *plugin, const char *pinst, const char *type,
                          const char *tinst, value_t *v, size_t n)
{
        value_list_t vl = VALUE_LIST_INIT;
        vl.values = v;
        vl.values_len = n;
        vl.time = TIME_T_TO_CDTIME_T(1795305600);
        vl.interval = TIME_T_TO_CDTIME_T(10);
        snprintf(vl.host, sizeof(vl.host), "lnxa");
        snprintf(vl.plugin, sizeof(vl.plugin), "%s", plugin);
        snprintf(vl.plugin_instance, sizeof(vl.plugin_instance), "%s", pinst);
        snprintf(vl.type, sizeof(vl.type), "%s", type);
        snprintf(vl.type_instance, sizeof(vl.type_instance), "%s", tinst);
        return vl;
}

static int setup(void **state)
{
        (void)state;
        nlog = 0;
        ndispatched = 0;
        memset(&stats, 0, sizeof(stats));
        memset(&shut, 0, sizeof(shut));
        memset(&open_complaint, 0, sizeof(open_complaint));
        wz_filter_free(&cfg.filter);
        cfg.store_rates = false;
        cfg.applid = WZVM_DEFAULT_APPLID;
        return wz_queue_init(&queue, 4);
}

static int teardown(void **state)
{
        (void)state;
        wz_queue_destroy(&queue);
        wz_filter_free(&cfg.filter);
        return 0;
}

/* ---- tests ---- */
static void config_options(void **state)
{
        (void)state;
        oconfig_value_t v[3];
        v[0] = sval("/tmp/x");
        assert_int_equal(config1("Device", v, 1), 0);
        assert_string_equal(cfg.device, "/tmp/x");
        /* a path cut short would be another file: refused, the old one kept */
        static char longpath[300];
        memset(longpath, 'd', sizeof(longpath) - 1);
        longpath[0] = '/';
        v[0] = sval(longpath);
        assert_int_not_equal(config1("Device", v, 1), 0);
        assert_non_null(strstr(logbuf[nlog - 1], "Device"));
        assert_non_null(strstr(logbuf[nlog - 1], "255"));
        assert_string_equal(cfg.device, "/tmp/x");
        longpath[255] = 0; /* 255 bytes and the NUL fill the buffer */
        assert_int_equal(config1("Device", v, 1), 0);
        assert_int_equal(strlen(cfg.device), 255);
        v[0] = sval("");
        assert_int_not_equal(config1("Device", v, 1), 0);
        v[0] = sval("/tmp/x");
        assert_int_equal(config1("Device", v, 1), 0);
        v[0] = nval(2);
        assert_int_not_equal(config1("ApplicationID", v, 1), 0);
        assert_non_null(strstr(logbuf[nlog - 1], "mon_procd"));
        v[0] = nval(1);
        assert_int_not_equal(config1("ApplicationID", v, 1), 0);
        assert_non_null(strstr(logbuf[nlog - 1], "mon_fsstatd"));
        v[0] = nval(65536);
        assert_int_not_equal(config1("ApplicationID", v, 1), 0);
        v[0] = nval(4711);
        assert_int_equal(config1("ApplicationID", v, 1), 0);
        assert_int_equal(cfg.applid, 4711);
        v[0] = sval("cpu");
        v[1] = sval("*/percent");
        assert_int_equal(config1("Include", v, 2), 0);
        assert_int_equal(cfg.filter.ninc, 2);
        v[0] = sval("a/b/c");
        assert_int_not_equal(config1("Exclude", v, 1), 0);
        v[0] = bval(1);
        assert_int_equal(config1("StoreRates", v, 1), 0);
        assert_true(cfg.store_rates);
        v[0] = nval(0);
        assert_int_not_equal(config1("MaxRecords", v, 1), 0);
        v[0] = nval(1.5);
        assert_int_not_equal(config1("QueueLength", v, 1), 0);
        /* seconds become uint64_t nanoseconds and uint32_t milliseconds: bounded */
        const char *secs[3] = {"WriteInterval", "RetryInterval", "Timeout"};
        for (int i = 0; i < 3; i++) {
                nlog = 0;              /* the stubs keep 16 messages */
                v[0] = nval(HUGE_VAL); /* what "1e999" parses to */
                assert_int_not_equal(config1(secs[i], v, 1), 0);
                assert_non_null(strstr(logbuf[nlog - 1], secs[i]));
                v[0] = nval(1e7);
                assert_int_not_equal(config1(secs[i], v, 1), 0);
                v[0] = nval(NAN);
                assert_int_not_equal(config1(secs[i], v, 1), 0);
        }
        assert_non_null(strstr(logbuf[nlog - 1], "between 1 and 1000"));
        v[0] = nval(86400.5);
        assert_int_not_equal(config1("WriteInterval", v, 1), 0);
        assert_non_null(strstr(logbuf[nlog - 1], "between 0.001 and 86400"));
        v[0] = nval(86400);
        assert_int_equal(config1("WriteInterval", v, 1), 0);
        assert_true(cfg.write_interval == 86400);
        assert_int_equal(config1("RetryInterval", v, 1), 0);
        assert_true(cfg.retry == 86400);
        v[0] = nval(1000);
        assert_int_equal(config1("Timeout", v, 1), 0);
        assert_true(cfg.timeout == 1000);
        cfg.write_interval = 0;
        cfg.retry = 60;
        cfg.timeout = 2;
        nlog = 0;
        v[0] = nval(1);
        assert_int_not_equal(config1("NoSuchOption", v, 1), 0);
        assert_non_null(strstr(logbuf[nlog - 1], "NoSuchOption"));
        cfg.applid = WZVM_DEFAULT_APPLID;
}

static void write_queues_each_data_source(void **state)
{
        (void)state;
        value_t v[2] = {{.derive = 123456789012}, {.derive = -7}};
        value_list_t vl = vlist("interface", "eth0", "if_octets", "", v, 2);
        assert_int_equal(wz_write(&if_octets, &vl, NULL), 0);
        struct wz_item it[4];
        assert_int_equal(wz_queue_pop_lists(&queue, it, 4), 2);
        assert_string_equal(it[0].host, "lnxa");
        assert_string_equal(it[0].e.plugin_instance, "eth0");
        assert_string_equal(it[1].e.ds_name, "tx");
        assert_int_equal(it[0].e.ds_type, WZVM_DS_DERIVE);
        assert_int_equal(it[1].e.ds_index, 1);
        assert_int_equal(it[1].e.ds_count, 2);
        assert_true((int64_t)it[0].e.value == 123456789012);
        assert_true((int64_t)it[1].e.value == -7);
        /* 1795305600 s after 1970 as TOD */
        assert_true(it[0].e.time ==
                    ((UINT64_C(1795305600) * 1000000 + UINT64_C(2208988800) * 1000000) << 12));
        assert_true(it[0].interval == 10);
}

static void store_rates_turns_counters_into_gauges(void **state)
{
        (void)state;
        cfg.store_rates = true;
        value_t v[2] = {{.derive = 1}, {.derive = 2}};
        value_list_t vl = vlist("interface", "eth0", "if_octets", "", v, 2);
        assert_int_equal(wz_write(&if_octets, &vl, NULL), 0);
        value_t g = {.gauge = 0.75};
        value_list_t gl = vlist("memory", "", "memory", "used", &g, 1);
        assert_int_equal(wz_write(&gauge_set, &gl, NULL), 0);
        struct wz_item it[4];
        assert_int_equal(wz_queue_pop_lists(&queue, it, 4), 3);
        assert_int_equal(it[0].e.ds_type, WZVM_DS_GAUGE);
        assert_int_equal(it[0].e.flags, WZVM_F_RATE);
        assert_true(wzvm_bits_double(it[0].e.value) == 12.5);
        assert_true(wzvm_bits_double(it[1].e.value) == 0.25);
        assert_int_equal(it[2].e.flags, 0); /* a GAUGE stays what it was */
        assert_true(wzvm_bits_double(it[2].e.value) == 0.75);
}

/* What wz_read reports for one self-metric (a total_values type instance); -1: not reported. */
static const char *watched;
static int64_t watched_value;
static void keep_watched(const value_list_t *vl)
{
        if (strcmp(vl->type_instance, watched) == 0)
                watched_value = vl->values[0].derive;
}

static int64_t reported(const char *tinst)
{
        watched = tinst;
        watched_value = -1;
        stub_on_dispatch = keep_watched;
        assert_int_equal(wz_read(), 0);
        stub_on_dispatch = NULL;
        return watched_value;
}

/*
 * A list whose rate collectd's cache cannot give (uc_get_rate NULL, said by
 * collectd 5.12 at DEBUG only) is not written: counted as dropped_rate, said
 * at c_complain's pace (here: once), and reported among the self-metrics.
 */
static void a_rate_collectd_cannot_give_is_counted_and_said(void **state)
{
        (void)state;
        cfg.store_rates = true;
        stub_rate_fails = true;
        value_t v[2] = {{.derive = 1}, {.derive = 2}};
        value_list_t vl = vlist("interface", "eth0", "if_octets", "", v, 2);
        assert_int_not_equal(wz_write(&if_octets, &vl, NULL), 0);
        assert_int_not_equal(wz_write(&if_octets, &vl, NULL), 0);
        stub_rate_fails = false;
        assert_int_equal(queue.n, 0);
        assert_int_equal(stats.dropped_rate, 2);
        assert_int_equal(nlog, 1);
        assert_int_equal(loglevel[0], LOG_WARNING);
        assert_non_null(strstr(logbuf[0], "lnxa/interface-eth0/if_octets-"));
        assert_non_null(strstr(logbuf[0], "dropped_rate"));
        assert_int_equal(reported("dropped_rate"), 2);
        assert_int_equal(wz_write(&if_octets, &vl, NULL), 0); /* the cache has it again */
        assert_int_equal(queue.n, 2);
}

static void filter_and_names(void **state)
{
        (void)state;
        assert_true(wz_filter_add(&cfg.filter, false, "memory/memory"));
        value_t g = {.gauge = 1};
        value_list_t gl = vlist("memory", "", "memory", "used", &g, 1);
        assert_int_equal(wz_write(&gauge_set, &gl, NULL), 0);
        assert_int_equal(queue.n, 0);
        /* a 64-character type instance breaks the format's rule: dropped, one warning */
        char longname[65];
        memset(longname, 'x', 64);
        longname[64] = 0;
        value_list_t ll = vlist("df", "root", "df_complex", longname, &g, 1);
        assert_int_equal(wz_write(&gauge_set, &ll, NULL), 0);
        assert_int_equal(wz_write(&gauge_set, &ll, NULL), 0);
        assert_int_equal(queue.n, 0);
        assert_int_equal(stats.dropped_name, 2);
        assert_int_equal(nlog, 1);
        assert_int_equal(loglevel[0], LOG_WARNING);
}

/*
 * A list of more than 255 values (an entry holds the count in one byte), one
 * whose values do not match its type, or one without memory to convert it:
 * each is counted and said, at c_complain's pace (here the clock stands still:
 * once).
 */
static void lists_that_cannot_be_written_are_counted_and_said(void **state)
{
        (void)state;
        static data_source_t wide_ds[256];
        static value_t wide_v[256];
        for (int i = 0; i < 256; i++)
                wide_ds[i] = (data_source_t){"value", DS_TYPE_GAUGE, NAN, NAN};
        data_set_t wide = {"wide", 256, wide_ds};
        value_list_t vl = vlist("exec", "", "wide", "", wide_v, 256);
        assert_int_not_equal(wz_write(&wide, &vl, NULL), 0);
        assert_int_equal(nlog, 1);
        assert_int_equal(loglevel[0], LOG_ERR);
        assert_non_null(strstr(logbuf[0], "lnxa/exec-/wide-"));
        assert_non_null(strstr(logbuf[0], "dropped_invalid"));
        value_t v[2] = {{.derive = 1}, {.derive = 2}};
        value_list_t one = vlist("interface", "eth0", "if_octets", "", v, 1); /* of 2 */
        assert_int_not_equal(wz_write(&if_octets, &one, NULL), 0);
        assert_int_equal(nlog, 1);
        assert_int_equal(stats.dropped_invalid, 2);
        value_list_t two = vlist("interface", "eth0", "if_octets", "", v, 2);
        fail_calloc = true;
        int rc = wz_write(&if_octets, &two, NULL);
        fail_calloc = false;
        assert_int_equal(rc, ENOMEM);
        assert_int_equal(stats.dropped_nomem, 1);
        assert_int_equal(nlog, 2);
        assert_non_null(strstr(logbuf[1], "dropped_nomem"));
        assert_int_equal(queue.n, 0);
        assert_int_equal(stats.dropped_invalid, 2);
}

static void a_full_queue_drops_and_counts(void **state)
{
        (void)state;
        value_t v[2] = {{.derive = 1}, {.derive = 2}};
        value_list_t vl = vlist("interface", "eth0", "if_octets", "", v, 2);
        assert_int_equal(wz_write(&if_octets, &vl, NULL), 0);
        assert_int_equal(wz_write(&if_octets, &vl, NULL), 0);
        assert_int_equal(wz_write(&if_octets, &vl, NULL), 0); /* capacity 4: dropped */
        assert_int_equal(queue.n, 4);
        assert_int_equal(queue.dropped, 2);
        assert_int_equal(nlog, 1); /* said, */
        assert_int_equal(loglevel[0], LOG_WARNING);
        assert_non_null(strstr(logbuf[0], "lnxa/interface-eth0/if_octets-"));
        assert_non_null(strstr(logbuf[0], "dropped_queue"));
        assert_int_equal(wz_write(&if_octets, &vl, NULL), 0);
        assert_int_equal(queue.dropped, 4);
        assert_int_equal(nlog, 1);      /* but not again before c_complain's interval passed */
        assert_int_equal(wz_read(), 0); /* self-metrics */
        assert_int_equal(ndispatched, 15);
}

/*
 * A table of 2 values (MaxRecords x 163 in the plugin) holds eth0's list, not
 * eth1's: the writer thread refuses eth1's whole, counts it and says so, naming
 * the list, the counter and the option, at c_complain's pace (here: once).
 */
static void a_full_table_drops_counts_and_says_it(void **state)
{
        (void)state;
        wz_table_init(&table, 2);
        value_t v[2] = {{.derive = 1}, {.derive = 2}};
        value_list_t eth0 = vlist("interface", "eth0", "if_octets", "", v, 2);
        value_list_t eth1 = vlist("interface", "eth1", "if_octets", "", v, 2);
        assert_int_equal(wz_write(&if_octets, &eth0, NULL), 0);
        assert_int_equal(wz_write(&if_octets, &eth1, NULL), 0);
        drain();
        assert_int_equal(table.n, 2);
        assert_int_equal(table.dropped_full, 2);
        assert_int_equal(nlog, 1);
        assert_int_equal(loglevel[0], LOG_WARNING);
        assert_non_null(strstr(logbuf[0], "lnxa/interface-eth1/if_octets- (2 values)"));
        assert_non_null(strstr(logbuf[0], "dropped_space"));
        assert_non_null(strstr(logbuf[0], "Raise MaxRecords"));
        assert_int_equal(wz_write(&if_octets, &eth1, NULL), 0);
        drain();
        assert_int_equal(table.dropped_full, 4);
        assert_int_equal(nlog, 1);
        wz_table_free(&table);
}

/*
 * A table with room to spare that cannot grow (realloc fails) refuses eth0's list
 * as out of memory, not as full: counted in dropped_nomem, a list at a time as the
 * write callback counts it, and said without asking to raise MaxRecords.
 */
static void a_table_that_cannot_grow_is_not_full(void **state)
{
        (void)state;
        wz_table_init(&table, 1000);
        value_t v[2] = {{.derive = 1}, {.derive = 2}};
        value_list_t eth0 = vlist("interface", "eth0", "if_octets", "", v, 2);
        assert_int_equal(wz_write(&if_octets, &eth0, NULL), 0);
        fail_realloc = true;
        drain();
        fail_realloc = false;
        assert_int_equal(table.n, 0);
        assert_int_equal(table.dropped_full, 0);
        assert_int_equal(table.dropped_nomem, 1);
        assert_int_equal(nlog, 1);
        assert_int_equal(loglevel[0], LOG_ERR);
        assert_non_null(strstr(logbuf[0], "no memory to grow the table"));
        assert_non_null(strstr(logbuf[0], "lnxa/interface-eth0/if_octets- (2 values)"));
        assert_non_null(strstr(logbuf[0], "dropped_nomem"));
        assert_null(strstr(logbuf[0], "MaxRecords"));
        publish_stats();
        assert_int_equal(reported("dropped_nomem"), 1);
        assert_int_equal(wz_write(&if_octets, &eth0, NULL), 0);
        drain(); /* memory again: the list enters */
        assert_int_equal(table.n, 2);
        wz_table_free(&table);
}

/*
 * collectd stops by delivering what its write threads hold, calling every flush
 * callback, then the shutdown callbacks (doc/facts/collectd.md 2).  write_zvm's
 * flush only wakes the writer thread, and the stop that follows at once may
 * overtake it: what arrived since the writer's last pass must be written by the
 * shutdown itself, or the values dispatched last never reach a record.  Here the
 * writer's own pass is an hour away: only the shutdown can write the value.
 */
static void shutdown_writes_what_arrived_since_the_last_pass(void **state)
{
        (void)state;
        char path[] = "/tmp/wzvm-glue.XXXXXX";
        int tfd = mkstemp(path);
        assert_true(tfd >= 0);
        close(tfd);
        snprintf(cfg.device, sizeof(cfg.device), "%s", path);
        cfg.write_interval = 3600;
        wz_queue_destroy(&queue); /* wz_init makes its own */
        assert_int_equal(wz_init(), 0);
        value_t g = {.gauge = 0.75};
        value_list_t gl = vlist("memory", "", "memory", "used", &g, 1);
        assert_int_equal(wz_write(&gauge_set, &gl, NULL), 0);
        assert_int_equal(wz_shutdown(), 0);
        cfg.write_interval = 0;
        /* one START of record 0 (13-byte header + 4010 bytes) holding the one entry */
        uint8_t b[2 * (13 + 4010)];
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        size_t n = fread(b, 1, sizeof(b), f);
        fclose(f);
        unlink(path);
        assert_int_equal(n, 13 + 4010);
        assert_int_equal(b[0], 0);                         /* START_INTERVAL */
        assert_int_equal(b[8] << 8 | b[9], 0);             /* mod_level 0 */
        assert_memory_equal(b + 13, "WZVM", 4);            /* the record */
        assert_int_equal(b[13 + 20] << 8 | b[13 + 21], 1); /* nentries */
        uint64_t bits = 0;
        for (int i = 0; i < 8; i++) /* the entry's value, big-endian, at offset 96 + 16 */
                bits = bits << 8 | b[13 + 96 + 16 + i];
        assert_true(wzvm_bits_double(bits) == 0.75);
        assert_memory_equal(b + 13 + 96 + 25, "memory", 6);
}

#ifndef F_SETPIPE_SZ
#define F_SETPIPE_SZ 1031 /* Linux's, hidden without _GNU_SOURCE */
#endif

/* n gauges p/gauge-vNNN, entries of 24 + 5 + 1 + 5 + 4 + 5 = 44 bytes: 88 fill a record. */
static void send_gauges(int n)
{
        for (int i = 0; i < n; i++) {
                char ti[8];
                snprintf(ti, sizeof(ti), "v%03d", i);
                value_t g = {.gauge = i};
                value_list_t vl = vlist("p", "", "gauge", ti, &g, 1);
                assert_int_equal(wz_write(&gauge_set, &vl, NULL), 0);
        }
}

static double since(double t0)
{
        return mono_now() - t0;
}

/*
 * A device that stops taking writes: a FIFO of one page that nobody reads.
 * The last pass writes record 0 (88 values) and blocks in record 1's write()
 * (12 values), which no deadline can cut short.  wz_shutdown returns at
 * ShutdownTimeout all the same, says the 12 once, and leaves the thread
 * behind; when the write returns, the thread ends without a word (collectd
 * may have taken its log down by then) and closes the device.
 */
static void shutdown_keeps_its_deadline_and_counts_what_it_left(void **state)
{
        (void)state;
        char dir[] = "/tmp/wzvm-glue.XXXXXX";
        assert_non_null(mkdtemp(dir));
        snprintf(cfg.device, sizeof(cfg.device), "%s/fifo", dir);
        assert_int_equal(mkfifo(cfg.device, 0600), 0);
        int rd = open(cfg.device, O_RDONLY | O_NONBLOCK);
        assert_true(rd >= 0);
        assert_true(fcntl(rd, F_SETPIPE_SZ, 4096) >= 4096);
        cfg.write_interval = 3600; /* only the last pass writes */
        cfg.shutdown_timeout = 0.3;
        wz_queue_destroy(&queue);
        assert_int_equal(wz_init(), 0);
        send_gauges(100);
        size_t said = nlog;
        double t0 = mono_now();
        assert_int_equal(wz_shutdown(), 0);
        double took = since(t0);
        assert_true(took >= 0.3 && took < 1.3);
        assert_int_equal(nlog, said + 1);
        assert_non_null(strstr(logbuf[said], "12 values not written"));
        assert_non_null(strstr(logbuf[said], "ShutdownTimeout 0.3 s"));
        /* the reader takes record 0, the blocked write of record 1 returns */
        char b[4096];
        assert_int_equal(read(rd, b, sizeof(b)), 13 + 4010);
        bool done = false;
        int left_fd = 0;
        while (!done && since(t0) < 10) {
                pthread_mutex_lock(&queue.mu);
                done = shut.done;
                left_fd = fd;
                pthread_mutex_unlock(&queue.mu);
                usleep(1000);
        }
        assert_true(done);
        assert_int_equal(left_fd, -1);
        assert_int_equal(nlog, said + 1);
        assert_int_equal(wz_table_unwritten(&table), 0); /* record 1 got in after all */
        close(rd);
        wz_table_free(&table); /* what the shutdown left to the process's end */
        wz_queue_destroy(&queue);
        pthread_cond_destroy(&done_cv);
        unlink(cfg.device);
        rmdir(dir);
        cfg.write_interval = 0;
        cfg.shutdown_timeout = 5;
        memset(&shut, 0, sizeof(shut));
        assert_int_equal(wz_queue_init(&queue, 4), 0); /* for the teardown */
}

/* Without a device the last pass writes nothing: said with the count, not as late. */
static void shutdown_counts_what_no_device_took(void **state)
{
        (void)state;
        snprintf(cfg.device, sizeof(cfg.device), "/nonexistent/monwriter");
        cfg.write_interval = 3600;
        wz_queue_destroy(&queue);
        assert_int_equal(wz_init(), 0);
        send_gauges(3);
        assert_int_equal(wz_shutdown(), 0);
        cfg.write_interval = 0;
        assert_non_null(strstr(logbuf[nlog - 1], "3 values not written to /nonexistent/monwriter: "
                                                 "the device could not take them"));
        assert_int_equal(wz_queue_init(&queue, 4), 0);
}

/* Failed opens over a minute of collectd's clock: how many of them said "cannot open". */
static size_t open_failures_said(cdtime_t from)
{
        size_t said = 0, before = nlog;
        for (int s = 0; s <= 60; s++) {
                stub_now = from + TIME_T_TO_CDTIME_T(s);
                try_open();
                assert_true(fd < 0);
        }
        for (size_t i = before; i < nlog; i++)
                said += strstr(logbuf[i], "cannot open") != NULL;
        return said;
}

/*
 * The device missing is said once, not again after one, two, four ...
 * intervals while the plugin retries (c_complain said it at 0, 10 and 30 s
 * here, three times in 12 s in collectd at Interval 2); another errno is news,
 * and once the device opened, the next failure is a new episode.
 */
static void cannot_open_is_said_once_per_episode(void **state)
{
        (void)state;
        cdtime_t t0 = stub_now;
        memset(&open_complaint, 0, sizeof(open_complaint));
        snprintf(cfg.device, sizeof(cfg.device), "/nonexistent/monwriter");
        assert_int_equal(open_failures_said(t0), 1);
        assert_non_null(strstr(logbuf[0], "/nonexistent/monwriter: No such file or directory"));
        assert_non_null(strstr(logbuf[0], "modprobe monwriter"));
        snprintf(cfg.device, sizeof(cfg.device), "/"); /* EISDIR: another cause */
        assert_int_equal(open_failures_said(t0 + TIME_T_TO_CDTIME_T(100)), 1);
        assert_non_null(strstr(logbuf[1], "cannot open /: Is a directory"));
        char path[] = "/tmp/wzvm-glue.XXXXXX";
        int tfd = mkstemp(path);
        assert_true(tfd >= 0);
        close(tfd);
        snprintf(cfg.device, sizeof(cfg.device), "%s", path);
        try_open();
        assert_true(fd >= 0);
        assert_int_equal(nlog, 3);
        assert_non_null(strstr(logbuf[2], " is open."));
        close(fd);
        fd = -1;
        unlink(path);
        snprintf(cfg.device, sizeof(cfg.device), "/nonexistent/monwriter");
        assert_int_equal(open_failures_said(t0 + TIME_T_TO_CDTIME_T(200)), 1);
        assert_int_equal(nlog, 4);
        stub_now = t0;
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test_setup_teardown(config_option_given_twice, setup, teardown),
            cmocka_unit_test_setup_teardown(config_options, setup, teardown),
            cmocka_unit_test_setup_teardown(write_queues_each_data_source, setup, teardown),
            cmocka_unit_test_setup_teardown(store_rates_turns_counters_into_gauges, setup,
                                            teardown),
            cmocka_unit_test_setup_teardown(a_rate_collectd_cannot_give_is_counted_and_said, setup,
                                            teardown),
            cmocka_unit_test_setup_teardown(filter_and_names, setup, teardown),
            cmocka_unit_test_setup_teardown(lists_that_cannot_be_written_are_counted_and_said,
                                            setup, teardown),
            cmocka_unit_test_setup_teardown(a_full_queue_drops_and_counts, setup, teardown),
            cmocka_unit_test_setup_teardown(a_full_table_drops_counts_and_says_it, setup, teardown),
            cmocka_unit_test_setup_teardown(a_table_that_cannot_grow_is_not_full, setup, teardown),
            cmocka_unit_test_setup_teardown(shutdown_writes_what_arrived_since_the_last_pass, setup,
                                            teardown),
            cmocka_unit_test_setup_teardown(cannot_open_is_said_once_per_episode, setup, teardown),
            cmocka_unit_test_setup_teardown(shutdown_keeps_its_deadline_and_counts_what_it_left,
                                            setup, teardown),
            cmocka_unit_test_setup_teardown(shutdown_counts_what_no_device_took, setup, teardown),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
