/* SPDX-License-Identifier: MIT */
/*
 * zvmsim: a simulated z/VM monitor.
 *   zvmsim run -m MOUNTPOINT [options]        FUSE monreader/monwriter/control
 *   zvmsim monwrite -o FILE --intervals N     a MONWRITE file (or --capture)
 *   zvmsim truth -o FILE --intervals N        only the ground truth
 */
#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "opts.h"

/* The version, as debian/changelog has it (tests/e2e/sim/cli.sh holds them together). */
#define ZVMSIM_VERSION "0.1.0"

/* The commands an option is for. */
enum { C_RUN = 1, C_MONWRITE = 2, C_TRUTH = 4, C_ALL = 7 };

struct opt;
/* Store the argument (NULL for a flag) where the option goes; false: a bad value. */
typedef bool opt_set(struct sim_opts *o, const struct opt *d, const char *a);

/*
 * One command-line option: it drives both getopt_long and --help, so that
 * the two cannot disagree.
 */
struct opt {
        const char *name;
        char short_name; /* 0: a long option only */
        const char *arg; /* its argument as --help shows it; NULL: a flag */
        unsigned cmds;   /* C_RUN, C_MONWRITE, C_TRUTH: the commands it is for */
        opt_set *set;    /* how the argument is read, checked and stored */
        size_t at, size; /* the field of struct sim_opts (set_uint, set_str, set_flag) */
        unsigned long min, max;
        const char *what; /* --help: what it does, (its default) */
};

#define FIELD(f) offsetof(struct sim_opts, f), sizeof(((struct sim_opts *)0)->f)

static opt_set set_uint, set_str, set_flag, set_interval, set_domains, set_start, set_break,
    set_condition, set_reading, set_userid, set_system, set_ssi, set_max_bufs, set_fault, set_help;

/* In getopt_long's order: it names the candidates of an ambiguous abbreviation in this order. */
static const struct opt opts[] = {
    {"seed", 0, "N", C_ALL, set_uint, FIELD(cfg.seed), 0, ULONG_MAX,
     "seed of everything generated: the same seed, the same bytes (1)"},
    /* z/VM 7.3 and 7.4 run on at most 80 logical processors (IBM,
     * "Control program support"); one SYTCUP record holds 100 entries. */
    {"cpus", 0, "N", C_ALL, set_uint, FIELD(cfg.cpus), 1, 80, "logical processors, 1 to 80 (4)"},
    {"guests", 0, "N", C_ALL, set_uint, FIELD(cfg.guests), 0, 100000, "guests logged on (20)"},
    {"linux", 0, "N", C_ALL, set_uint, FIELD(cfg.linux_guests), 0, 10000,
     "of them, Linux guests writing kernel APPLDATA (4)"},
    {"devices", 0, "N", C_ALL, set_uint, FIELD(cfg.devices), 0, 60000, "I/O devices (10)"},
    {"vnics", 0, "N", C_ALL, set_uint, FIELD(cfg.vnics), 0, 60000, "virtual NICs (4)"},
    {"lpars", 0, "N", C_ALL, set_uint, FIELD(cfg.lpars), 0, 85, "logical partitions (2)"},
    {"fsstatd", 0, "N", C_ALL, set_uint, FIELD(cfg.fsstatd), 0, ULONG_MAX,
     "Linux guests running mon_fsstatd (1)"},
    {"procd", 0, "N", C_ALL, set_uint, FIELD(cfg.procd), 0, ULONG_MAX,
     "Linux guests running mon_procd (1)"},
    {"procd-churn", 0, "PERCENT", C_ALL, set_uint, FIELD(cfg.procd_churn), 0, 100,
     "chance that a task exits between two mon_procd passes, and a new one starts (0: the same "
     "tasks throughout)"},
    {"interval", 0, "SECS", C_ALL, set_interval, 0, 0, 0, 0,
     "sample interval, up to 3600 (60); run with 0: intervals only when the control file asks for "
     "them"},
    {"domains", 0, "LIST", C_ALL, set_domains, 0, 0, 0, 0,
     "sample domains enabled, comma-separated, by number or name: system, monitor, "
     "scheduler, storage, user, processor, i/o, seek, network, isfc, appldata, ssi (all)"},
    {"start", 0, "UNIXSECS", C_ALL, set_start, 0, 0, 0, 0,
     "time of the first data (run: now; else 2026-11-22)"},
    {"dcss-pages", 0, "N", C_ALL, set_uint, FIELD(cfg.dcss_pages), 64, SIM_DCSS_MAX_PAGES,
     "the monitor DCSS in 4 KB pages (sized for the system, at least 4096; too small: records that "
     "do not fit are lost)"},
    {"frames-per-mce", 0, "N", C_ALL, set_uint, FIELD(cfg.max_frames_per_mce), 0, ULONG_MAX,
     "longest record range of one control element, in 4 KB frames (0: no limit)"},
    {"torn", 0, "PERMILLE", C_ALL, set_uint, FIELD(cfg.torn_permille), 0, 1000,
     "how often CP copies a kernel APPLDATA buffer while the guest updates it, per mille (5)"},
    {"break-law", 0, "NAME", C_ALL, set_break, 0, 0, 0, 0,
     "break one conservation law on purpose: cpu-wait, guest-cpu, guest-vcpu, paging, storage, "
     "guest-resident, lpar, device-ssch, vnic, guest-vio, device-time, or lpar:management (none)"},
    {"condition", 0, "NAME[,NAME...]", C_ALL, set_condition, 0, 0, 0, 0,
     "show what an alert pages on, every law kept: cpu-busy, guest-steal (LINUX001), guest-iowait "
     "(the last Linux guest), paging-high, storage-short, device-slow (the last device), or all; "
     "repeatable (none)"},
    {"reading", 0, "packed|aligned", C_ALL, set_reading, 0, 0, 0, 0,
     "write SYTPRP and MTRSYS at zpmd's packed offsets, or 4 bytes further as its compiler aligned "
     "them (packed)"},
    {"writer-userid", 0, "ID", C_ALL, set_userid, 0, 0, 0, 0,
     "userid of the guest that owns monwriter (LINUX001)"},
    {"system", 0, "NAME", C_ALL, set_system, 0, 0, 0, 0,
     "the system's name in D1R4, 1 to 8 characters (ZVMSIM)"},
    {"ssi", 0, "NAME", C_ALL, set_ssi, 0, 0, 0, 0,
     "make the system a member of the SSI cluster NAME, 1 to 8 characters: D1R25 and domain 11 "
     "records (none: no member)"},
    {"truth", 0, "FILE", C_ALL, set_str, FIELD(truth), 0, 0,
     "write the ground truth, every value generated, as JSON Lines (truth: instead of -o FILE)"},
    {"truth-counts", 0, NULL, C_ALL, set_flag, FIELD(truth_counts), 0, 0,
     "the truth without field values: counts only"},
    {"monwriter-eperm", 0, NULL, C_RUN, set_flag, FIELD(eperm), 0, 0,
     "the guest has no OPTION APPLMON: monwriter fails with EPERM"},
    {"max-bufs", 0, "N", C_RUN, set_max_bufs, FIELD(max_bufs), 0, 65535,
     "monwriter's buffers at once, max_bufs (255)"},
    {"msglim", 0, "N", C_RUN, set_uint, FIELD(msglim), 1, 65535,
     "IUCV messages monreader may hold unread before EOVERFLOW (255)"},
    {"intervals", 0, "N", C_MONWRITE | C_TRUTH, set_uint, FIELD(intervals), 0, ULONG_MAX,
     "sample intervals to generate (required)"},
    {"capture", 0, NULL, C_MONWRITE, set_flag, FIELD(capture), 0, 0,
     "write a zvmmon capture (the data sets) instead of MONWRITE"},
    {"fault", 0, "[@N:]COMMAND", C_RUN, set_fault, 0, 0, 0, 0,
     "a control-file command at start, or before interval N; repeatable (up to 16)"},
    {"delivery", 0, "FILE", C_RUN, set_str, FIELD(delivery), 0, 0,
     "JSON Lines of what became of each data set (delivered, hit by EFAULT, dropped and why) and "
     "each command"},
    {"output", 'o', "FILE", C_MONWRITE | C_TRUTH, set_str, FIELD(out), 0, 0,
     "the file to write (required)"},
    {"mount", 'm', "MOUNTPOINT", C_RUN, set_str, FIELD(mount), 0, 0,
     "an empty directory: monreader, monwriter, control and status appear in it (required)"},
    {"help", 'h', NULL, C_ALL, set_help, 0, 0, 0, 0, "this help"},
};
#define NOPTS (sizeof(opts) / sizeof(opts[0]))

static const struct {
        unsigned cmd;
        const char *name, *synopsis, *what;
} cmds[] = {
    {C_RUN, "run", "zvmsim run -m MOUNTPOINT [options]",
     "mount a simulated z/VM: monreader and monwriter files with the Linux drivers' "
     "semantics, a control file (interval, sever, efault, ...) and a status file"},
    {C_MONWRITE, "monwrite", "zvmsim monwrite -o FILE --intervals N [--capture] [options]",
     "write the same system's stream to a CMS MONWRITE file, or a capture"},
    {C_TRUTH, "truth", "zvmsim truth -o FILE --intervals N [options]",
     "write only the ground truth"},
};

/* The commands' synopses; on a mistake, with where the options are explained. */
static void usage(FILE *f)
{
        for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
                fprintf(f, "%s %s\n", i ? "      " : "usage:", cmds[i].synopsis);
        fputs("zvmsim [COMMAND] --help: each option and what it does; zvmsim --version\n", f);
}

/* The command --help was given to (C_ALL: none). */
static unsigned help_for = C_ALL;

/* text from column 30, wrapped at 79 (--help's second column). */
static void column(FILE *f, const char *text)
{
        size_t at = 30;
        while (*text) {
                size_t w = strcspn(text, " ");
                if (at > 30 && at + 1 + w > 79) {
                        fprintf(f, "\n%30s", "");
                        at = 30;
                } else if (at > 30) {
                        fputc(' ', f);
                        at++;
                }
                fprintf(f, "%.*s", (int)w, text);
                at += w;
                text += w + (text[w] == ' ');
        }
        fputc('\n', f);
}

/* Every option of the commands in mask, with what it does: --help. */
static void help(FILE *f, unsigned mask)
{
        bool first = true;
        for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
                if (cmds[i].cmd & mask) {
                        fprintf(f, "%s %s\n", first ? "usage:" : "      ", cmds[i].synopsis);
                        first = false;
                }
        for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
                if (cmds[i].cmd & mask) {
                        fprintf(f, "  %-28s", cmds[i].name);
                        column(f, cmds[i].what);
                }
        fputs("options (defaults in parentheses):\n", f);
        for (size_t i = 0; i < NOPTS; i++) {
                const struct opt *d = &opts[i];
                if (!(d->cmds & mask))
                        continue;
                char head[64];
                int n = snprintf(head, sizeof(head), "  %c%c%c --%s%s%s", d->short_name ? '-' : ' ',
                                 d->short_name ? d->short_name : ' ', d->short_name ? ',' : ' ',
                                 d->name, d->arg ? " " : "", d->arg ? d->arg : "");
                fprintf(f, n > 28 ? "%s\n%30s" : "%-30s", head, "");
                column(f, d->what);
        }
        if (mask == C_ALL) {
                fprintf(f, "%-30s", "  -V, --version");
                column(f, "zvmsim's version");
        }
        fputs("see zvmsim(1)\n", f);
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

static void *field(struct sim_opts *o, const struct opt *d)
{
        return (char *)o + d->at;
}

/* A number in [min, max], kept in the field's width (a wider value is cut, as a cast does). */
static bool set_uint(struct sim_opts *o, const struct opt *d, const char *a)
{
        unsigned long v;
        if (!num(a, &v))
                return false;
        /* The numeric fields are 32 or 64 bits wide. */
        if (d->size == sizeof(uint64_t)) {
                uint64_t w = v;
                memcpy(field(o, d), &w, sizeof(w));
        } else {
                uint32_t w = (uint32_t)v;
                memcpy(field(o, d), &w, sizeof(w));
        }
        return v >= d->min && v <= d->max;
}

static bool set_str(struct sim_opts *o, const struct opt *d, const char *a)
{
        memcpy(field(o, d), &a, sizeof(a));
        return true;
}

static bool set_flag(struct sim_opts *o, const struct opt *d, const char *a)
{
        (void)a;
        *(bool *)field(o, d) = true;
        return true;
}

/* --max-bufs 0 is meaningful (every START gets ENOSPC), so a given value is told apart. */
static bool set_max_bufs(struct sim_opts *o, const struct opt *d, const char *a)
{
        o->max_bufs_given = true;
        return set_uint(o, d, a);
}

static bool set_interval(struct sim_opts *o, const struct opt *d, const char *a)
{
        char *end;
        (void)d;
        o->interval_s = strtod(a, &end);
        return *a && !*end && o->interval_s >= 0 && o->interval_s <= 3600;
}

static bool set_domains(struct sim_opts *o, const struct opt *d, const char *a)
{
        (void)d;
        return sim_parse_domains(a, &o->cfg.domains);
}

static bool set_start(struct sim_opts *o, const struct opt *d, const char *a)
{
        unsigned long v;
        (void)d;
        if (!num(a, &v))
                return false;
        o->cfg.start_tod = zd_unix_us_to_tod((int64_t)v * 1000000);
        o->start_given = true;
        return true;
}

static bool set_break(struct sim_opts *o, const struct opt *d, const char *a)
{
        bool ok = false;
        (void)d;
        for (const char *const *n = sim_break_names(); *n; n++)
                ok |= strcmp(*n, a) == 0;
        o->cfg.break_law = a;
        return ok;
}

static bool set_condition(struct sim_opts *o, const struct opt *d, const char *a)
{
        (void)d;
        return sim_parse_conditions(a, &o->cfg.conditions);
}

static bool set_reading(struct sim_opts *o, const struct opt *d, const char *a)
{
        (void)d;
        o->cfg.reading = strcmp(a, "aligned") == 0 ? "aligned" : NULL;
        return strcmp(a, "packed") == 0 || strcmp(a, "aligned") == 0;
}

static bool set_userid(struct sim_opts *o, const struct opt *d, const char *a)
{
        (void)d;
        snprintf(o->cfg.writer_userid, 9, "%s", a);
        return strlen(a) >= 1 && strlen(a) <= 8;
}

/* MTRSYS_SYSTMID is 8 EBCDIC characters; it becomes a collectd host name, so
 * no '/' or blanks inside. */
static bool set_system(struct sim_opts *o, const struct opt *d, const char *a)
{
        (void)d;
        snprintf(o->cfg.system_id, 9, "%s", a);
        return strlen(a) >= 1 && strlen(a) <= 8 && !strpbrk(a, "/ \t");
}

/* MTRSSI_SYSPLXNM is 8 EBCDIC characters, a CP name like the system's. */
static bool set_ssi(struct sim_opts *o, const struct opt *d, const char *a)
{
        (void)d;
        snprintf(o->cfg.ssi_name, 9, "%s", a);
        return strlen(a) >= 1 && strlen(a) <= 8 && !strpbrk(a, "/ \t");
}

/* [@N:]COMMAND: a control command, at start or when interval N is made. */
static bool set_fault(struct sim_opts *o, const struct opt *d, const char *a)
{
        unsigned long at = 0;
        const char *cmd = a;
        bool ok = true;
        (void)d;
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
        return ok;
}

static bool set_help(struct sim_opts *o, const struct opt *d, const char *a)
{
        (void)o, (void)d, (void)a;
        help(stdout, help_for);
        exit(0);
}

/* getopt_long's tables from opts[]: a long-only option returns 256 + its index. */
static void getopt_tables(struct option *longopts, char *shortopts)
{
        for (size_t i = 0; i < NOPTS; i++) {
                const struct opt *d = &opts[i];
                longopts[i] = (struct option){d->name, d->arg ? required_argument : no_argument,
                                              NULL, d->short_name ? d->short_name : 256 + (int)i};
                if (d->short_name) {
                        *shortopts++ = d->short_name;
                        if (d->arg)
                                *shortopts++ = ':';
                }
        }
        longopts[NOPTS] = (struct option){0, 0, 0, 0};
        *shortopts = '\0';
}

/* The option getopt_long returned, NULL for '?' (unknown, or an argument missing). */
static const struct opt *opt_of(int c)
{
        if (c >= 256 && (size_t)(c - 256) < NOPTS)
                return &opts[c - 256];
        for (size_t i = 0; i < NOPTS; i++)
                if (opts[i].short_name && opts[i].short_name == c)
                        return &opts[i];
        return NULL;
}

static int parse(int argc, char **argv, struct sim_opts *o)
{
        struct option longopts[NOPTS + 1];
        char shortopts[2 * NOPTS + 1];
        getopt_tables(longopts, shortopts);
        int c;
        while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
                const struct opt *d = opt_of(c);
                if (!d) {
                        usage(stderr);
                        return -1;
                }
                if (!d->set(o, d, optarg)) {
                        if (d->set == set_uint)
                                fprintf(stderr, "zvmsim: --%s %s: a number from %lu to %lu\n",
                                        d->name, optarg ? optarg : "", d->min, d->max);
                        else
                                fprintf(stderr, "zvmsim: --%s: bad value \"%s\"\n", d->name,
                                        optarg ? optarg : "");
                        return -1;
                }
        }
        if (o->interval_s > 0)
                o->cfg.interval_ms = (unsigned)(o->interval_s * 1000 + 0.5);
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
                help(stdout, C_ALL);
                return 0;
        }
        if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
                printf("zvmsim %s (collectd-zvm)\n", ZVMSIM_VERSION);
                return 0;
        }
        struct sim_opts o;
        memset(&o, 0, sizeof(o));
        sim_cfg_default(&o.cfg);
        bool run = strcmp(cmd, "run") == 0;
        help_for = run                            ? C_RUN
                   : strcmp(cmd, "monwrite") == 0 ? C_MONWRITE
                   : strcmp(cmd, "truth") == 0    ? C_TRUTH
                                                  : C_ALL;
        if (run) {
                o.cfg.start_tod = zd_unix_us_to_tod((int64_t)time(NULL) * 1000000);
                o.interval_s = 60;
        }
        /* getopt names its argv[0] in its messages: "zvmsim monwrite", not the bare command. */
        char prog[64];
        snprintf(prog, sizeof(prog), "zvmsim %.50s", cmd);
        argv[1] = prog;
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
