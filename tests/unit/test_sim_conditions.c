/* SPDX-License-Identifier: MIT */
/*
 * zvmsim --condition (zvmsim/sim_interval.c, sim_records_linux.c): what the
 * system writes, read back as the zvm plugin reads it (the decoder and the
 * metric engine), crosses the threshold of the shipped alert each condition
 * is for (contrib/prometheus/collectd-zvm.alerts.yml) on the entity it names,
 * and no other threshold, while every conservation law holds; without a
 * condition, no threshold is crossed.  The thresholds are the alerts':
 * written here from the alert file, not taken from zvmsim.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "metric/met_verify.h"
#include "metric/metric.h"
#include "sim_model.h"

/* One series as the engine emitted it: its first and last value and when. */
struct series {
        char key[96];
        double first, last;
        uint64_t tod0, tod1;
};
#define MAXSERIES 1024
static struct series tab[MAXSERIES];
static size_t ntab;
static struct zm_engine *eng;

/* "GUEST|plugin|plugin_instance|type-type_instance#value", the guest "-" for the system. */
static void on_metric(void *ctx, const struct zm_metric *m)
{
        (void)ctx;
        for (size_t v = 0; v < m->nvalues; v++) {
                char key[96];
                snprintf(key, sizeof(key), "%s|%s|%s|%s-%s#%zu",
                         m->scope == ZM_GUEST ? m->guest : "-", m->plugin, m->plugin_instance,
                         m->type, m->type_instance, v);
                double x = m->ds[v] == ZM_GAUGE ? m->gauge[v] : (double)m->derive[v];
                size_t i = 0;
                while (i < ntab && strcmp(tab[i].key, key) != 0)
                        i++;
                if (i == ntab) {
                        assert_true(ntab < MAXSERIES);
                        snprintf(tab[ntab].key, sizeof(tab[ntab].key), "%s", key);
                        tab[ntab].first = x;
                        tab[ntab++].tod0 = m->tod;
                }
                tab[i].last = x;
                tab[i].tod1 = m->tod;
        }
}

static void on_log(void *ctx, int level, const char *msg)
{
        (void)ctx, (void)level, (void)msg;
}

static void on_record(void *ctx, const struct zd_record *r)
{
        (void)ctx;
        zm_engine_record(eng, r);
}

static void on_interval(void *ctx, const struct zd_record *r)
{
        (void)ctx;
        zm_engine_interval_end(eng, r);
}

static const struct series *get(const char *key)
{
        for (size_t i = 0; i < ntab; i++)
                if (strcmp(tab[i].key, key) == 0)
                        return &tab[i];
        return NULL;
}

/* Growth per second between the first and the last value (a counter's rate()). */
static double rate(const struct series *s)
{
        assert_non_null(s);
        assert_true(s->tod1 > s->tod0);
        return (s->last - s->first) / ((double)(s->tod1 - s->tod0) / ZD_TOD_PER_US / 1e6);
}

/* The default system (4 CPUs, 20 guests, 4 of them Linux, 10 devices), CP's 60 s
 * intervals, read by the engine as the plugin does; every law must hold. */
static void run(uint32_t conds, unsigned linux_guests)
{
        struct sim_cfg c;
        sim_cfg_default(&c);
        c.conditions = conds;
        c.linux_guests = linux_guests;
        ntab = 0;
        struct zm_options opt = {.unverified = -1, .verify_intervals = 3};
        eng = zm_engine_new(&opt, on_metric, on_log, NULL);
        struct sim_sys *s = sim_sys_new(&c, NULL);
        struct zd_handler h = {.record = on_record, .interval_end = on_interval};
        struct zd_decoder d;
        zd_decoder_init(&d, &h);
        struct sim_set *set = sim_sys_config(s, sim_sys_tod(s)), *sample = NULL;
        for (uint64_t n = 0;; n++) {
                zd_decode_dataset(&d, zd_view_make(set->buf, set->len), n, 0);
                sim_set_free(set);
                /* An interval's events come before its sample. */
                if (!sample && sim_sys_interval_no(s) == 10)
                        break;
                if (!sample)
                        sample = sim_sys_interval(s);
                if (!(set = sim_sys_next_event(s))) {
                        set = sample;
                        sample = NULL;
                }
        }
        assert_int_equal(zd_stats_errors(&d.st), 0);
        for (size_t i = 0; zm_law_at(eng, i); i++) {
                const struct zv_law_status *l = zm_law_at(eng, i);
                if (l->failed || !l->held)
                        fail_msg("law %s: held %llu failed %llu: %s", l->name,
                                 (unsigned long long)l->held, (unsigned long long)l->failed,
                                 l->reason);
        }
        zm_engine_free(eng);
        sim_sys_free(s);
}

/* The Linux guests' mean share of a CPU state (a fraction), as the Linux alerts take it:
 * jiffies (100 a second) per second over the guest's CPUs. */
static double linux_share(const char *guest, const char *state)
{
        double sum = 0;
        unsigned n = 0;
        for (const struct series *c;; n++) {
                char key[96];
                snprintf(key, sizeof(key), "%s|cpu|%u|cpu-%s#0", guest, n, state);
                if (!(c = get(key)))
                        break;
                sum += rate(c) / 100;
        }
        assert_true(n > 0);
        return sum / n;
}

/* A device's connect + pending + disconnect seconds per SSCH, and SSCH per second. */
static double device_service(unsigned devno, double *ssch_s)
{
        char key[4][96];
        static const char *const what[4] = {"total_time_in_ms-connect", "total_time_in_ms-pending",
                                            "total_time_in_ms-disconnect", "operations-ssch"};
        for (unsigned k = 0; k < 4; k++)
                snprintf(key[k], sizeof(key[k]), "-|zvm|device-%04X|%s#0", devno, what[k]);
        double ms = rate(get(key[0])) + rate(get(key[1])) + rate(get(key[2]));
        *ssch_s = rate(get(key[3]));
        return ms / 1000 / *ssch_s;
}

/*
 * Which of the alerts' thresholds the run crossed, by SIM_COND_* bit.  A
 * per-entity alert must be crossed on the entity the condition names only:
 * LINUX001 for steal, the last Linux guest for I/O wait, the last device.
 */
static uint32_t crossed(unsigned linux_guests)
{
        struct sim_cfg def;
        sim_cfg_default(&def);
        const struct sim_cfg *c = &def; /* run()'s system */
        uint32_t m = 0;
        double busy = 0;
        for (unsigned i = 0; i < c->cpus; i++) {
                char key[96];
                snprintf(key, sizeof(key), "-|zvm|cpu%u|percent-busy#0", i);
                assert_non_null(get(key));
                busy += get(key)->last / 100;
        }
        m |= (uint32_t)(busy / c->cpus > 0.90) << SIM_COND_CPU_BUSY;
        for (unsigned g = 0; g < linux_guests; g++) {
                char name[9];
                sim_name8(name, "LINUX", g + 1);
                if (linux_share(name, "steal") > 0.10) {
                        assert_int_equal(g, 0);
                        m |= 1u << SIM_COND_GUEST_STEAL;
                }
                if (linux_share(name, "wait") > 0.20) {
                        assert_int_equal(g, linux_guests - 1);
                        m |= 1u << SIM_COND_GUEST_IOWAIT;
                }
        }
        const struct series *pg_in = get("-|zvm|storage|vmpage_io-paging#0");
        m |= (uint32_t)(rate(pg_in) + rate(get("-|zvm|storage|vmpage_io-paging#1")) > 1000)
             << SIM_COND_PAGING;
        const struct series *fr = get("-|zvm|storage|memory-free#0"),
                            *us = get("-|zvm|storage|memory-used#0");
        assert_non_null(fr);
        assert_non_null(us);
        m |= (uint32_t)(fr->last / (fr->last + us->last) < 0.05) << SIM_COND_STORAGE;
        for (unsigned i = 0; i < c->devices; i++) {
                double ssch_s, per_io = device_service(0x0100 + i, &ssch_s);
                if (per_io > 0.020 && ssch_s >= 1) {
                        assert_int_equal(i, c->devices - 1);
                        m |= 1u << SIM_COND_DEVICE_SLOW;
                }
        }
        return m;
}

/* Without a condition the system crosses no threshold. */
static void plain_crosses_none(void **state)
{
        (void)state;
        run(0, 4);
        assert_int_equal(crossed(4), 0);
}

/* Each condition alone crosses its own alert's threshold, and only that one. */
static void each_condition_alone(void **state)
{
        (void)state;
        for (unsigned k = 0; k < SIM_NCONDS; k++) {
                run(1u << k, 4);
                uint32_t got = crossed(4);
                if (got != 1u << k)
                        fail_msg("--condition %s: crossed 0x%x, want 0x%x",
                                 sim_condition_names()[k], got, 1u << k);
        }
}

/* All at once, each on its own entity; with one Linux guest, steal and I/O
 * wait share it (its virtual CPUs get 30 % of the interval). */
static void all_conditions(void **state)
{
        (void)state;
        const uint32_t all = (1u << SIM_NCONDS) - 1;
        run(all, 4);
        assert_int_equal(crossed(4), all);
        run(all, 1);
        assert_int_equal(crossed(1), all);
}

/* The names on the command line, "all", and a bad one. */
static void parse_names(void **state)
{
        (void)state;
        uint32_t m = 0;
        assert_true(sim_parse_conditions("cpu-busy,device-slow", &m));
        assert_int_equal(m, 1u << SIM_COND_CPU_BUSY | 1u << SIM_COND_DEVICE_SLOW);
        assert_true(sim_parse_conditions("paging-high", &m)); /* repeated: added */
        assert_int_equal(m, 1u << SIM_COND_CPU_BUSY | 1u << SIM_COND_DEVICE_SLOW |
                                1u << SIM_COND_PAGING);
        m = 0;
        assert_true(sim_parse_conditions("all", &m));
        assert_int_equal(m, (1u << SIM_NCONDS) - 1);
        m = 0;
        assert_false(sim_parse_conditions("cpu-busy,paging", &m));
        assert_false(sim_parse_conditions("", &m));
        assert_int_equal(m, 0);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(plain_crosses_none),
            cmocka_unit_test(each_condition_alone),
            cmocka_unit_test(all_conditions),
            cmocka_unit_test(parse_names),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
