/* SPDX-License-Identifier: MIT */
/*
 * The decoder walks what zvmsim generates and must agree with the ground
 * truth: zero decode errors, and per (domain, record) the same counts.
 *
 *   sim_walk gen [--intervals N] [--cpus N --guests N --linux N --devices N ...]
 *       generate in process; decode every data set as monreader delivers it
 *       and, through a MONWRITE file written by zvmsim's writer, as a file;
 *       compare both with the generator's counts.
 *   sim_walk file FILE [TRUTH.jsonl] [--laws all|NAME] [--lost none|some]
 *       decode a MONWRITE file or capture (format detected) and compare with
 *       the record lines of a truth file (their values too, unless it was
 *       written with --truth-counts).  --laws: the metric engine reads the
 *       file as a user's collectd would, and every law must hold in every
 *       sample interval after the first (all), or NAME must fail.  --lost:
 *       whether the truth's set lines may report records that did not fit
 *       the DCSS (default none).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric/met_verify.h"
#include "metric/metric.h"
#include "sim.h"

/* The metric engine over the decoded records, for the conservation laws. */
static struct zm_engine *eng;
static uint64_t nmetrics;

static void on_metric(void *ctx, const struct zm_metric *m)
{
        (void)ctx;
        (void)m;
        nmetrics++;
}

static void on_log(void *ctx, int level, const char *msg)
{
        (void)ctx;
        if (level <= 4 && getenv("SIM_WALK_VERBOSE"))
                fprintf(stderr, "engine: %s\n", msg);
}

static void on_record(void *ctx, const struct zd_record *r)
{
        (void)ctx;
        if (eng)
                zm_engine_record(eng, r);
}

static void on_interval(void *ctx, const struct zd_record *r)
{
        (void)ctx;
        if (eng)
                zm_engine_interval_end(eng, r);
}

/*
 * Every law held (or had no data), or exactly the broken one failed.  With
 * `every` > 0, an unbroken law must have held in that many intervals: no
 * data is no proof (a law held over an interval whose records were missing
 * proved nothing).
 */
static int check_laws(const char *broken, uint64_t every)
{
        int bad = 0;
        for (size_t i = 0;; i++) {
                const struct zv_law_status *l = zm_law_at(eng, i);
                if (!l)
                        break;
                /* LAW or LAW:HOW (a second way zvmsim breaks the same law) */
                size_t bl = broken ? strcspn(broken, ":") : 0;
                bool is_broken =
                    broken && strlen(l->name) == bl && strncmp(broken, l->name, bl) == 0;
                /* A broken law may leave the laws that build on it without data. */
                bool ok = is_broken ? l->failed > 0
                                    : l->failed == 0 && (l->held > 0 || broken) &&
                                          (broken || l->held >= every);
                printf("law %-15s held %4llu failed %4llu nodata %4llu%s: %s\n", l->name,
                       (unsigned long long)l->held, (unsigned long long)l->failed,
                       (unsigned long long)l->nodata, is_broken ? " (broken on purpose)" : "",
                       ok ? "ok" : "FAIL");
                if (!ok) {
                        fprintf(stderr, "FAIL law %s: %s\n", l->name, l->reason);
                        bad = 1;
                } else if (getenv("SIM_WALK_VERBOSE"))
                        printf("    last: %s\n", l->reason);
        }
        return bad;
}

static unsigned long errors_seen;

static void on_error(void *ctx, const struct zd_error *e)
{
        (void)ctx;
        if (errors_seen++ < 10)
                fprintf(stderr, "sim_walk: decode error %s: %s\n", zd_err_name(e->kind), e->msg);
}

static int compare(const char *what, const struct zd_stats *st,
                   const uint64_t want[ZD_NDOMAINS][ZD_NRECSLOTS], uint64_t want_total)
{
        int bad = 0;
        uint64_t errs = zd_stats_errors(st);
        if (errs) {
                fprintf(stderr, "FAIL %s: %llu decode errors\n", what, (unsigned long long)errs);
                bad = 1;
        }
        for (unsigned d = 0; d < ZD_NDOMAINS; d++)
                for (unsigned r = 0; r < ZD_NRECSLOTS; r++)
                        if (st->by_rec[d][r] != want[d][r]) {
                                fprintf(stderr, "FAIL %s: D%uR%u decoded %llu, truth %llu\n", what,
                                        d, r, (unsigned long long)st->by_rec[d][r],
                                        (unsigned long long)want[d][r]);
                                bad = 1;
                        }
        if (st->records != want_total) {
                fprintf(stderr, "FAIL %s: %llu records decoded, truth %llu\n", what,
                        (unsigned long long)st->records, (unsigned long long)want_total);
                bad = 1;
        }
        printf("%s: %llu sets, %llu records, %llu frames, %llu intervals, %llu errors: %s\n", what,
               (unsigned long long)st->sets, (unsigned long long)st->records,
               (unsigned long long)st->frames, (unsigned long long)st->intervals,
               (unsigned long long)errs, bad ? "MISMATCH" : "ok");
        return bad;
}

static void on_value_record(void *ctx, const struct zd_record *r);
static char **tlines;

/* A decoded file's record: to the value check and to the metric engine. */
static void on_file_record(void *ctx, const struct zd_record *r)
{
        if (tlines)
                on_value_record(ctx, r);
        on_record(ctx, r);
}

static int decode_file(const char *path, struct zd_stats *out)
{
        FILE *f = fopen(path, "rb");
        if (!f) {
                fprintf(stderr, "sim_walk: cannot open %s\n", path);
                return -1;
        }
        struct zd_handler h = {.error = on_error,
                               .record = tlines || eng ? on_file_record : NULL,
                               .interval_end = eng ? on_interval : NULL};
        struct zd_stream *s = zd_stream_new(ZD_FMT_UNKNOWN, &h);
        uint8_t buf[65536];
        size_t n;
        while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
                zd_stream_feed(s, buf, n);
        zd_stream_finish(s);
        fclose(f);
        *out = *zd_stream_stats(s);
        zd_stream_free(s);
        return 0;
}

/*
 * Values: every decoded record, rendered through the same truth writer with
 * the layout the decoder picks for its length, must match its truth line in
 * the fields (and, for domain 10, the application data bytes).
 */
static size_t ntlines, tnext;
static unsigned long value_errors, values_checked;

/* The text of member `name` ("fields" object or "data_hex" string) in a JSON line. */
static bool member(const char *line, const char *name, const char **start, size_t *len)
{
        char pat[32];
        snprintf(pat, sizeof(pat), "\"%s\":", name);
        const char *p = strstr(line, pat);
        if (!p)
                return false;
        p += strlen(pat);
        const char *q = p;
        if (*q == '{') {
                int depth = 0;
                bool str = false;
                for (; *q; q++) {
                        if (str) {
                                if (*q == '\\' && q[1])
                                        q++;
                                else if (*q == '"')
                                        str = false;
                        } else if (*q == '"')
                                str = true;
                        else if (*q == '{')
                                depth++;
                        else if (*q == '}' && --depth == 0) {
                                q++;
                                break;
                        }
                }
        } else {
                q = strchr(q + 1, '"');
                q = q ? q + 1 : p + strlen(p);
        }
        *start = p;
        *len = (size_t)(q - p);
        return true;
}

static bool same_member(const char *a, const char *b, const char *name)
{
        const char *pa, *pb;
        size_t la, lb;
        bool ha = member(a, name, &pa, &la), hb = member(b, name, &pb, &lb);
        return ha == hb && (!ha || (la == lb && memcmp(pa, pb, la) == 0));
}

static void on_value_record(void *ctx, const struct zd_record *r)
{
        (void)ctx;
        if (r->domain == 1 && (r->number == ZD_D1_END_OF_FRAME || r->number == ZD_D1_INTERVAL_END))
                return;
        if (tnext >= ntlines) {
                if (value_errors++ < 5)
                        fprintf(stderr, "FAIL: more records decoded than the truth has\n");
                return;
        }
        const char *want = tlines[tnext++];
        char *got = NULL;
        size_t gotlen = 0;
        FILE *m = open_memstream(&got, &gotlen);
        struct sim_truth *t = sim_truth_on(m, true);
        const struct zl_layout *l = zl_find_cp(r->domain, r->number, r->rec.n);
        zd_view data = {0};
        uint16_t off = 0, len = 0;
        if (r->domain == 10 && zd_u16(r->rec, 20, &off) && zd_u16(r->rec, 22, &len))
                (void)zd_view_sub(r->rec, off, len, &data);
        sim_truth_record(t, 0, r->tod, r->kind, r->domain, r->number, "", l, r->rec, NULL, 0, data,
                         NULL);
        sim_truth_close(t);
        fclose(m);
        unsigned d, n;
        unsigned long long tod;
        const char *p = strstr(want, "\"tod\":");
        bool ok = p &&
                  sscanf(p, "\"tod\":%llu,\"kind\":\"%*c\",\"domain\":%u,\"record\":%u", &tod, &d,
                         &n) == 3 &&
                  tod == r->tod && d == r->domain && n == r->number &&
                  /* --truth-counts: no values to compare */
                  (!strstr(want, "\"fields\":") ||
                   (same_member(want, got, "fields") && same_member(want, got, "data_hex")));
        values_checked++;
        if (!ok && value_errors++ < 5)
                fprintf(stderr,
                        "FAIL: decoded record differs from its truth line\n  truth:   %.300s\n  "
                        "decoded: %.300s\n",
                        want, got);
        free(got);
}

static struct zm_engine *new_engine(void)
{
        struct zm_options opt = {.unverified = -1, .verify_intervals = 3};
        return zm_engine_new(&opt, on_metric, on_log, NULL);
}

/* The laws over a decoded file; the sample sets come from the truth when there is one. */
static int file_laws(const char *laws, uint64_t samples, const struct zd_stats *st)
{
        const char *broken = strcmp(laws, "all") ? laws : NULL;
        if (!samples) /* no truth: every Interval End but the configuration set's */
                samples = st->intervals ? st->intervals - 1 : 0;
        /* The first sample interval has nothing to take deltas from. */
        int bad = check_laws(broken, samples > 1 ? samples - 1 : 1);
        printf("laws over %llu sample intervals%s%s: %s\n", (unsigned long long)samples,
               broken ? ", broken on purpose: " : "", broken ? broken : "", bad ? "FAIL" : "ok");
        zm_engine_free(eng);
        eng = NULL;
        return bad;
}

static int from_file(const char *path, const char *truth, const char *laws, bool lost_ok)
{
        if (laws)
                eng = new_engine();
        if (!truth) { /* no truth: the file must decode without errors */
                struct zd_stats st;
                if (decode_file(path, &st))
                        return 2;
                uint64_t errs = zd_stats_errors(&st);
                printf("%s: %llu sets, %llu records, %llu intervals, %llu errors: %s\n", path,
                       (unsigned long long)st.sets, (unsigned long long)st.records,
                       (unsigned long long)st.intervals, (unsigned long long)errs,
                       errs || !st.intervals ? "FAIL" : "ok");
                int bad = errs || !st.intervals;
                if (laws)
                        bad |= file_laws(laws, 0, &st);
                return bad;
        }
        static uint64_t want[ZD_NDOMAINS][ZD_NRECSLOTS];
        uint64_t total = 0, samples = 0, lost = 0, lost_sets = 0;
        FILE *t = fopen(truth, "r");
        if (!t) {
                fprintf(stderr, "sim_walk: cannot open %s\n", truth);
                return 2;
        }
        static char line[1 << 16];
        while (fgets(line, sizeof(line), t)) {
                if (strncmp(line, "{\"interval\"", 11) == 0) {
                        if (ntlines % 4096 == 0)
                                tlines = realloc(tlines, (ntlines + 4096) * sizeof(*tlines));
                        tlines[ntlines++] = strdup(line);
                }
                unsigned d, r, eof, n;
                const char *p;
                if ((p = strstr(line, "\"domain\":")) &&
                    sscanf(p, "\"domain\":%u,\"record\":%u", &d, &r) == 2 &&
                    strncmp(line, "{\"interval\"", 11) == 0) {
                        if (d < ZD_NDOMAINS && r < ZD_NRECSLOTS)
                                want[d][r]++;
                        total++;
                } else if (strncmp(line, "{\"set\"", 6) == 0 && (p = strstr(line, "\"eof\":")) &&
                           sscanf(p, "\"eof\":%u", &eof) == 1) {
                        want[1][ZD_D1_END_OF_FRAME] += eof;
                        total += eof;
                        if (strstr(line, "\"type\":\"S\"")) {
                                want[1][ZD_D1_INTERVAL_END]++;
                                total++;
                                samples += strstr(line, "\"config\":false") != NULL;
                        }
                        if ((p = strstr(line, "\"lost\":")) && sscanf(p, "\"lost\":%u", &n) == 1 &&
                            n) {
                                lost += n;
                                lost_sets++;
                        }
                }
        }
        fclose(t);
        struct zd_stats st;
        if (decode_file(path, &st))
                return 2;
        int bad = compare(path, &st, want, total);
        if (value_errors || tnext != ntlines) {
                fprintf(stderr, "FAIL values: %lu records differ, %zu of %zu truth lines matched\n",
                        value_errors, tnext, ntlines);
                bad = 1;
        }
        printf("%s: %lu records compared with the truth%s: %s\n", path, values_checked,
               strstr(tlines && ntlines ? tlines[0] : "", "\"fields\":") ? " field by field" : "",
               bad ? "MISMATCH" : "ok");
        /* Records that did not fit the DCSS are in no file: the truth's set lines count them. */
        printf("%s: %llu records in %llu data sets did not fit the DCSS: %s\n", path,
               (unsigned long long)lost, (unsigned long long)lost_sets,
               lost && !lost_ok   ? "FAIL"
               : !lost && lost_ok ? "FAIL (some expected)"
                                  : "ok");
        if (lost_ok != (lost > 0))
                bad = 1;
        for (size_t i = 0; i < ntlines; i++)
                free(tlines[i]);
        free(tlines);
        tlines = NULL;
        if (laws)
                bad |= file_laws(laws, samples, &st);
        return bad;
}

static int generate(int argc, char **argv)
{
        struct sim_cfg c;
        sim_cfg_default(&c);
        c.interval_ms = 1000;
        unsigned long intervals = 60;
        const char *mw = NULL;
        bool laws = false;
        for (int i = 0; i + 1 < argc; i += 2) {
                unsigned long v = strtoul(argv[i + 1], NULL, 0);
                if (!strcmp(argv[i], "--intervals"))
                        intervals = v;
                else if (!strcmp(argv[i], "--cpus"))
                        c.cpus = (unsigned)v;
                else if (!strcmp(argv[i], "--guests"))
                        c.guests = (unsigned)v;
                else if (!strcmp(argv[i], "--linux"))
                        c.linux_guests = (unsigned)v;
                else if (!strcmp(argv[i], "--devices"))
                        c.devices = (unsigned)v;
                else if (!strcmp(argv[i], "--vnics"))
                        c.vnics = (unsigned)v;
                else if (!strcmp(argv[i], "--lpars"))
                        c.lpars = (unsigned)v;
                else if (!strcmp(argv[i], "--fsstatd"))
                        c.fsstatd = (unsigned)v;
                else if (!strcmp(argv[i], "--procd"))
                        c.procd = (unsigned)v;
                else if (!strcmp(argv[i], "--seed"))
                        c.seed = v;
                else if (!strcmp(argv[i], "--dcss-pages"))
                        c.dcss_pages = (uint32_t)v;
                else if (!strcmp(argv[i], "--frames-per-mce"))
                        c.max_frames_per_mce = (uint32_t)v;
                else if (!strcmp(argv[i], "--monwrite"))
                        mw = argv[i + 1];
                else if (!strcmp(argv[i], "--reading"))
                        c.reading = strcmp(argv[i + 1], "aligned") == 0 ? "aligned" : NULL;
                else if (!strcmp(argv[i], "--laws"))
                        laws = strcmp(argv[i + 1], "no") != 0,
                        c.break_law = laws && strcmp(argv[i + 1], "all") ? argv[i + 1] : NULL;
                else {
                        fprintf(stderr, "sim_walk: unknown option %s\n", argv[i]);
                        return 2;
                }
        }
        if (c.break_law) {
                bool known = false;
                for (const char *const *n = sim_break_names(); *n; n++)
                        known |= strcmp(*n, c.break_law) == 0;
                if (!known) {
                        fprintf(stderr,
                                "FAIL: zvmsim has no way to break law %s (add it to "
                                "zvmsim/sim_config.c and sim_interval.c)\n",
                                c.break_law);
                        return 1;
                }
        }
        struct sim_sys *s = sim_sys_new(&c, NULL);
        struct zd_handler h = {.error = on_error, .record = on_record, .interval_end = on_interval};
        if (laws)
                eng = new_engine();
        struct zd_decoder d;
        zd_decoder_init(&d, &h);
        struct sim_out *out = mw ? sim_out_open(mw, false) : NULL;
        if (mw && !out) {
                fprintf(stderr, "sim_walk: cannot write %s\n", mw);
                return 2;
        }
        uint64_t setno = 0, off = 0, maxset = 0;
        struct sim_set *set = sim_sys_config(s, sim_sys_tod(s));
        struct sim_set *sample = NULL;
        for (;;) {
                if (set->len > maxset)
                        maxset = set->len;
                zd_decode_dataset(&d, zd_view_make(set->buf, set->len), setno++, off);
                off += set->len;
                if (out && sim_out_set(out, set)) {
                        fprintf(stderr, "sim_walk: writing %s failed\n", mw);
                        return 2;
                }
                sim_set_free(set);
                /* Events first, then the interval's sample set. */
                if (!sample && sim_sys_interval_no(s) == intervals)
                        break;
                if (!sample)
                        sample = sim_sys_interval(s);
                if ((set = sim_sys_next_event(s)))
                        continue;
                set = sample;
                sample = NULL;
        }
        if (out)
                sim_out_close(out);
        const struct sim_counts *k = sim_sys_counts(s);
        printf("generated: %llu sets, %llu records, %llu intervals, largest set %llu bytes\n",
               (unsigned long long)k->sets, (unsigned long long)k->records,
               (unsigned long long)k->intervals, (unsigned long long)maxset);
        int bad = compare("monreader data sets", &d.st, k->by_rec, k->records);
        if (k->lost) {
                fprintf(stderr, "FAIL: %llu records did not fit the DCSS (%u pages)\n",
                        (unsigned long long)k->lost, sim_sys_dcss(s)->npages);
                bad = 1;
        }
        if (mw) {
                struct zd_stats st;
                if (decode_file(mw, &st))
                        bad = 1;
                else
                        bad |= compare("MONWRITE file", &st, k->by_rec, k->records);
        }
        if (eng) {
                bad |= check_laws(c.break_law, 0);
                /* The engine must have found the reading zvmsim wrote SYTPRP and MTRSYS in. */
                const char *rd = zm_engine_reading(eng);
                bool same = rd && c.reading ? strcmp(rd, c.reading) == 0 : rd == c.reading;
                printf("layout reading: written %s, found %s: %s\n",
                       c.reading ? c.reading : "packed", rd ? rd : "packed", same ? "ok" : "FAIL");
                bad |= !same;
                const struct zm_counters *mc = zm_engine_counters(eng);
                printf("metrics: %llu; APPLDATA torn %llu, stale %llu, bad %llu, unknown %llu; "
                       "timer resets %llu\n",
                       (unsigned long long)nmetrics, (unsigned long long)mc->appl_sync,
                       (unsigned long long)mc->appl_stale, (unsigned long long)mc->appl_bad,
                       (unsigned long long)mc->appl_unknown, (unsigned long long)mc->timer_resets);
                if (mc->appl_bad || mc->timer_resets || !nmetrics) {
                        fprintf(stderr, "FAIL: domain 10 records refused or CPU timers reset\n");
                        bad = 1;
                }
                zm_engine_free(eng);
                eng = NULL;
        }
        sim_records_report_misses(stdout);
        sim_sys_free(s);
        return bad;
}

int main(int argc, char **argv)
{
        if (argc >= 2 && strcmp(argv[1], "gen") == 0)
                return generate(argc - 2, argv + 2);
        if (argc == 2 && strcmp(argv[1], "breaks") == 0) { /* zvmsim's LAW:HOW values */
                for (const char *const *n = sim_break_names(); *n; n++)
                        if (strchr(*n, ':'))
                                printf("%s\n", *n);
                return 0;
        }
        if (argc == 2 && strcmp(argv[1], "laws") == 0) { /* the metric engine's laws */
                struct zm_engine *e = new_engine();
                for (size_t i = 0; zm_law_at(e, i); i++)
                        printf("%s\n", zm_law_at(e, i)->name);
                zm_engine_free(e);
                return 0;
        }
        if (argc >= 3 && strcmp(argv[1], "file") == 0) {
                const char *truth = NULL, *laws = NULL;
                bool lost_ok = false;
                int i = 3;
                if (i < argc && strncmp(argv[i], "--", 2) != 0)
                        truth = argv[i++];
                for (; i + 1 < argc; i += 2) {
                        if (!strcmp(argv[i], "--laws"))
                                laws = argv[i + 1];
                        else if (!strcmp(argv[i], "--lost") &&
                                 (!strcmp(argv[i + 1], "none") || !strcmp(argv[i + 1], "some")))
                                lost_ok = !strcmp(argv[i + 1], "some");
                        else
                                break;
                }
                if (i == argc)
                        return from_file(argv[2], truth, laws, lost_ok);
        }
        fputs("usage: sim_walk gen [options] | sim_walk laws | sim_walk breaks |\n"
              "       sim_walk file FILE [TRUTH] [--laws all|NAME] [--lost none|some]\n",
              stderr);
        return 2;
}
