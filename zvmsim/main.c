/* SPDX-License-Identifier: MIT */
/*
 * zvmsim: a simulated z/VM monitor.
 *   zvmsim run -m MOUNTPOINT [options]        FUSE monreader/monwriter/control
 *   zvmsim monwrite -o FILE --intervals N     a MONWRITE file (or --capture)
 *   zvmsim truth -o FILE --intervals N        only the ground truth
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "opts.h"

static void usage(FILE *f)
{
        fputs("usage: zvmsim run -m MOUNTPOINT [options]\n"
              "       zvmsim monwrite -o FILE --intervals N [--capture] [options]\n"
              "       zvmsim truth -o FILE --intervals N [options]\n"
              "system: --seed N --cpus N --guests N --linux N --devices N --vnics N --lpars N\n"
              "        --fsstatd N --procd N --interval SECS --domains LIST --start UNIXSECS\n"
              "        --dcss-pages N --frames-per-mce N --torn PERMILLE --break-law NAME\n"
              "        --reading packed|aligned\n"
              "        --writer-userid ID --system NAME --truth FILE --truth-counts\n"
              "run:    --monwriter-eperm --max-bufs N --msglim N --intervals N\n"
              "        --fault [@N:]COMMAND (a control command at start or before interval N)\n"
              "        --delivery FILE (what became of each data set, and each command)\n"
              "see zvmsim(1)\n",
              f);
}

static bool num(const char *s, unsigned long *out)
{
        char *end;
        unsigned long v = strtoul(s, &end, 0);
        if (!*s || *end)
                return false;
        *out = v;
        return true;
}

enum {
        O_SEED = 256,
        O_CPUS,
        O_GUESTS,
        O_LINUX,
        O_DEVICES,
        O_VNICS,
        O_LPARS,
        O_FSSTATD,
        O_PROCD,
        O_INTERVAL,
        O_DOMAINS,
        O_START,
        O_DCSS,
        O_FPM,
        O_TORN,
        O_BREAK,
        O_READING,
        O_USERID,
        O_SYSTEM,
        O_TRUTH,
        O_TCOUNTS,
        O_EPERM,
        O_MAXBUFS,
        O_MSGLIM,
        O_INTERVALS,
        O_CAPTURE,
        O_FAULT,
        O_DELIVERY,
};

static const struct option longopts[] = {
    {"seed", 1, 0, O_SEED},
    {"cpus", 1, 0, O_CPUS},
    {"guests", 1, 0, O_GUESTS},
    {"linux", 1, 0, O_LINUX},
    {"devices", 1, 0, O_DEVICES},
    {"vnics", 1, 0, O_VNICS},
    {"lpars", 1, 0, O_LPARS},
    {"fsstatd", 1, 0, O_FSSTATD},
    {"procd", 1, 0, O_PROCD},
    {"interval", 1, 0, O_INTERVAL},
    {"domains", 1, 0, O_DOMAINS},
    {"start", 1, 0, O_START},
    {"dcss-pages", 1, 0, O_DCSS},
    {"frames-per-mce", 1, 0, O_FPM},
    {"torn", 1, 0, O_TORN},
    {"break-law", 1, 0, O_BREAK},
    {"reading", 1, 0, O_READING},
    {"writer-userid", 1, 0, O_USERID},
    {"system", 1, 0, O_SYSTEM},
    {"truth", 1, 0, O_TRUTH},
    {"truth-counts", 0, 0, O_TCOUNTS},
    {"monwriter-eperm", 0, 0, O_EPERM},
    {"max-bufs", 1, 0, O_MAXBUFS},
    {"msglim", 1, 0, O_MSGLIM},
    {"intervals", 1, 0, O_INTERVALS},
    {"capture", 0, 0, O_CAPTURE},
    {"fault", 1, 0, O_FAULT},
    {"delivery", 1, 0, O_DELIVERY},
    {"output", 1, 0, 'o'},
    {"mount", 1, 0, 'm'},
    {"help", 0, 0, 'h'},
    {0, 0, 0, 0},
};

static int parse(int argc, char **argv, struct sim_opts *o)
{
        int c;
        unsigned long v;
        struct sim_cfg *cfg = &o->cfg;
        while ((c = getopt_long(argc, argv, "o:m:h", longopts, NULL)) != -1) {
                const char *a = optarg;
                bool ok = true;
                switch (c) {
                case 'o':
                        o->out = a;
                        break;
                case 'm':
                        o->mount = a;
                        break;
                case 'h':
                        usage(stdout);
                        exit(0);
                case O_SEED:
                        ok = num(a, &v);
                        cfg->seed = v;
                        break;
                case O_CPUS:
                        /* z/VM 7.3 and 7.4 run on at most 80 logical processors (IBM,
                         * "Control program support"); one SYTCUP record holds 100 entries. */
                        ok = num(a, &v) && v >= 1 && v <= 80;
                        cfg->cpus = (unsigned)v;
                        break;
                case O_GUESTS:
                        ok = num(a, &v) && v <= 100000;
                        cfg->guests = (unsigned)v;
                        break;
                case O_LINUX:
                        ok = num(a, &v) && v <= 10000;
                        cfg->linux_guests = (unsigned)v;
                        break;
                case O_DEVICES:
                        ok = num(a, &v) && v <= 60000;
                        cfg->devices = (unsigned)v;
                        break;
                case O_VNICS:
                        ok = num(a, &v) && v <= 60000;
                        cfg->vnics = (unsigned)v;
                        break;
                case O_LPARS:
                        ok = num(a, &v) && v <= 85;
                        cfg->lpars = (unsigned)v;
                        break;
                case O_FSSTATD:
                        ok = num(a, &v);
                        cfg->fsstatd = (unsigned)v;
                        break;
                case O_PROCD:
                        ok = num(a, &v);
                        cfg->procd = (unsigned)v;
                        break;
                case O_INTERVAL: {
                        char *end;
                        o->interval_s = strtod(a, &end);
                        ok = *a && !*end && o->interval_s >= 0 && o->interval_s <= 3600;
                        break;
                }
                case O_DOMAINS:
                        ok = sim_parse_domains(a, &cfg->domains);
                        break;
                case O_START:
                        ok = num(a, &v);
                        cfg->start_tod = zd_unix_us_to_tod((int64_t)v * 1000000);
                        o->start_given = true;
                        break;
                case O_DCSS:
                        ok = num(a, &v) && v >= 64 && v <= SIM_DCSS_MAX_PAGES;
                        cfg->dcss_pages = (uint32_t)v;
                        break;
                case O_FPM:
                        ok = num(a, &v);
                        cfg->max_frames_per_mce = (uint32_t)v;
                        break;
                case O_TORN:
                        ok = num(a, &v) && v <= 1000;
                        cfg->torn_permille = (unsigned)v;
                        break;
                case O_BREAK: {
                        ok = false;
                        for (const char *const *n = sim_break_names(); *n; n++)
                                ok |= strcmp(*n, a) == 0;
                        cfg->break_law = a;
                        break;
                }
                case O_READING:
                        ok = strcmp(a, "packed") == 0 || strcmp(a, "aligned") == 0;
                        cfg->reading = strcmp(a, "aligned") == 0 ? "aligned" : NULL;
                        break;
                case O_USERID:
                        ok = strlen(a) >= 1 && strlen(a) <= 8;
                        snprintf(cfg->writer_userid, 9, "%s", a);
                        break;
                case O_SYSTEM:
                        /* MTRSYS_SYSTMID is 8 EBCDIC characters; it becomes a
                         * collectd host name, so no '/' or blanks inside. */
                        ok = strlen(a) >= 1 && strlen(a) <= 8 && !strpbrk(a, "/ \t");
                        snprintf(cfg->system_id, 9, "%s", a);
                        break;
                case O_TRUTH:
                        o->truth = a;
                        break;
                case O_TCOUNTS:
                        o->truth_counts = true;
                        break;
                case O_EPERM:
                        o->eperm = true;
                        break;
                case O_MAXBUFS:
                        ok = num(a, &v) && v <= 65535;
                        o->max_bufs = (unsigned)v;
                        o->max_bufs_given = true;
                        break;
                case O_MSGLIM:
                        ok = num(a, &v) && v >= 1 && v <= 65535;
                        o->msglim = (unsigned)v;
                        break;
                case O_INTERVALS:
                        ok = num(a, &v);
                        o->intervals = v;
                        break;
                case O_CAPTURE:
                        o->capture = true;
                        break;
                case O_DELIVERY:
                        o->delivery = a;
                        break;
                case O_FAULT: {
                        /* [@N:]COMMAND: a control command, at start or when interval N is made. */
                        unsigned long at = 0;
                        const char *cmd = a;
                        if (a[0] == '@') {
                                char *end;
                                at = strtoul(a + 1, &end, 10);
                                ok = end != a + 1 && *end == ':';
                                cmd = end + 1;
                        }
                        ok = ok && *cmd && o->nfaults < SIM_MAX_FAULTS;
                        if (ok) {
                                o->faults[o->nfaults].at = at;
                                o->faults[o->nfaults++].cmd = cmd;
                        }
                        break;
                }
                default:
                        usage(stderr);
                        return -1;
                }
                if (!ok) {
                        fprintf(stderr, "zvmsim: bad value for an option: %s\n", a ? a : "");
                        return -1;
                }
        }
        if (o->interval_s > 0)
                cfg->interval_ms = (unsigned)(o->interval_s * 1000 + 0.5);
        return 0;
}

/* Generate the configuration set and N intervals into a file and/or the truth. */
static int offline(struct sim_opts *o, bool file)
{
        if (file && !o->out) {
                fputs("zvmsim: -o FILE is required\n", stderr);
                return 2;
        }
        if (!o->intervals) {
                fputs("zvmsim: --intervals N (N >= 1) is required\n", stderr);
                return 2;
        }
        const char *tpath = file ? o->truth : (o->truth ? o->truth : o->out);
        struct sim_truth *t = NULL;
        if (tpath && !(t = sim_truth_open(tpath, !o->truth_counts))) {
                fprintf(stderr, "zvmsim: cannot write %s\n", tpath);
                return 1;
        }
        struct sim_out *out = NULL;
        if (file && !(out = sim_out_open(o->out, o->capture))) {
                fprintf(stderr, "zvmsim: cannot write %s\n", o->out);
                sim_truth_close(t);
                return 1;
        }
        struct sim_sys *s = sim_sys_new(&o->cfg, t);
        int rc = 0;
        struct sim_set *set = sim_sys_config(s, sim_sys_tod(s));
        if (out && sim_out_set(out, set))
                rc = 1;
        sim_set_free(set);
        for (unsigned long i = 0; i < o->intervals && !rc; i++) {
                struct sim_set *sample = sim_sys_interval(s);
                /* The interval's events happened before its samples were taken. */
                while ((set = sim_sys_next_event(s))) {
                        if (out && sim_out_set(out, set))
                                rc = 1;
                        sim_set_free(set);
                }
                if (out && sim_out_set(out, sample))
                        rc = 1;
                sim_set_free(sample);
        }
        if (out && sim_out_close(out))
                rc = 1;
        if (rc)
                fprintf(stderr, "zvmsim: writing %s failed\n", o->out);
        sim_records_report_misses(stderr);
        const struct sim_counts *c = sim_sys_counts(s);
        fprintf(stderr, "zvmsim: %llu data sets, %llu records, %llu intervals\n",
                (unsigned long long)c->sets, (unsigned long long)c->records,
                (unsigned long long)c->intervals);
        sim_sys_report_lost(s, stderr);
        sim_sys_free(s);
        sim_truth_close(t);
        return rc;
}

int main(int argc, char **argv)
{
        if (argc < 2) {
                usage(stderr);
                return 2;
        }
        const char *cmd = argv[1];
        if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
                usage(stdout);
                return 0;
        }
        struct sim_opts o;
        memset(&o, 0, sizeof(o));
        sim_cfg_default(&o.cfg);
        bool run = strcmp(cmd, "run") == 0;
        if (run) {
                o.cfg.start_tod = zd_unix_us_to_tod((int64_t)time(NULL) * 1000000);
                o.interval_s = 60;
        }
        if (parse(argc - 1, argv + 1, &o))
                return 2;
        if (run) {
                if (!o.mount) {
                        fputs("zvmsim: run needs -m MOUNTPOINT\n", stderr);
                        return 2;
                }
                if (o.interval_s == 0)
                        o.cfg.interval_ms = 1000; /* manual intervals still advance by 1 s */
                return sim_run(&o);
        }
        if (strcmp(cmd, "monwrite") == 0)
                return offline(&o, true);
        if (strcmp(cmd, "truth") == 0)
                return offline(&o, false);
        fprintf(stderr, "zvmsim: unknown command %s\n", cmd);
        usage(stderr);
        return 2;
}
