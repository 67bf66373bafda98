/* SPDX-License-Identifier: MIT */
/*
 * Linux guests: kernel APPLDATA buffers (LINUXKRNL MEM, OS, NET_SUM) and the
 * s390-tools writers mon_fsstatd and mon_procd (LNXAPPL), built the way the
 * kernel and s390-tools build them (doc/facts/kernel-drivers.md 4, s390-tools.md):
 *   - the guest updates its buffers on its own timer (virtual CPU time), so
 *     CP often copies an unchanged buffer; sync_count_1 is incremented before
 *     the update and sync_count_2 after it, and now and then CP's copy is
 *     taken in between (torn);
 *   - mon_fsstatd pads to 602 / 4010 bytes written, mon_procd to 191 and
 *     512 / 1500, with even mod levels for small and odd for large buffers,
 *     assigned by position in the pass.
 * Fixed fields go through the payload layouts (decoder/payload/appldata/appl.h ids); the
 * length-prefixed strings of the LNXAPPL records are placed as documented.
 */
#include <stdlib.h>
#include <string.h>

#include "zvmdec.h"
#include "sim_model.h"

#define TOD_S (UINT64_C(1000000) * ZD_TOD_PER_US)

/* Buffer lengths (doc/facts/kernel-drivers.md 4, s390-tools.md 2-3): the kernel's, and what the
 * writers pad to. */
#define MEM_LEN      144
#define NET_LEN      96
#define OS_LEN(ncpu) (52 + (size_t)(ncpu)*36)
#define FS_SMALL     589  /* 602 written less the 13-byte monwrite header */
#define FS_LARGE     3997 /* 4010 written */
#define PROCSUM_LEN  178  /* 191 written */
#define TASK_SMALL   499  /* 512 written */
#define TASK_LARGE   1487 /* 1500 written */

/* --procd-churn: at most this many tasks, well below mon_procd's 100 (every pass is whole). */
#define CHURN_MAXTASKS 24
#define CHURN_FREED    64 /* pids of exited processes kept for reuse */

/* Commands: the first 9 as zvmsim always had them, then some only new processes run. */
static const char *const cmds[] = {"systemd", "sshd",  "collectd", "java",     "db2sysc",
                                   "httpd",   "cron",  "rsyslogd", "postgres", "bash",
                                   "gzip",    "rsync", "sleep"};
#define NCMDS_OLD 9
#define NCMDS     (sizeof(cmds) / sizeof(cmds[0]))

static void kernel_prodid(uint8_t out[16], uint8_t rec, const char *mod)
{
        zd_ascii_to_ebcdic("LINUXKRNL", ZD_CP037, out, 9);
        out[9] = rec;
        zd_ascii_to_ebcdic("2601", ZD_CP037, out + 10, 4);
        zd_ascii_to_ebcdic(mod, ZD_CP037, out + 14, 2);
}

static void lnxappl_prodid(uint8_t out[16], uint16_t applid, uint8_t rec, uint16_t mod)
{
        struct sim_mw_hdr h = {.applid = applid, .record = rec, .mod_level = mod};
        sim_mw_prodid(&h, out);
}

/* A payload record over buf, through layout id (offset base into buf). */
static struct sim_rec prec(const char *id, uint8_t *buf, size_t cap, size_t base)
{
        struct sim_rec r = {.l = sim_payload_layout(id, NULL)};
        r.b = (zd_wbuf){buf + base, cap - base};
        return r;
}

static unsigned ncpus(const struct sim_sys *s, const struct m_linux *lx)
{
        return s->guest[lx->guest].vcpus;
}

void sim_lx_init(struct sim_sys *s, struct m_linux *lx, unsigned idx)
{
        struct sim_rng *g = &s->rng;
        lx->guest = idx;
        lx->hz = 100;
        lx->appl_ms = 10 + sim_rng_below(g, 90);
        lx->vcpu_acc = UINT64_MAX / 2; /* first interval: gather at once */
        lx->totalram = UINT64_C(1) << (20 + sim_rng_below(g, 4)); /* 1..8 GB in KB */
        lx->freeram = lx->totalram / 3;
        lx->bufferram = lx->totalram / 50;
        lx->cached = lx->totalram / 4;
        lx->totalswap = lx->totalram / 2;
        lx->freeswap = lx->totalswap - sim_rng_below(g, lx->totalswap / 10);
        lx->jiffies = calloc(ncpus(s, lx) * 8, sizeof(uint32_t));
        lx->prev_vt = calloc(ncpus(s, lx), sizeof(uint64_t));
        lx->nr_threads = 100 + (uint32_t)sim_rng_below(g, 400);
        lx->nr_if = 2 + (uint32_t)sim_rng_below(g, 3);
        kernel_prodid(lx->mem.prodid, ZD_LX_MEM, "00");
        kernel_prodid(lx->os.prodid, ZD_LX_OS, "01");
        kernel_prodid(lx->net_sum.prodid, ZD_LX_NET, "00");
        lx->mem.layout = "LINUXKRNL.MEM";
        lx->mem.kind = "mem";
        lx->os.layout = "LINUXKRNL.OS";
        lx->os.kind = "os";
        lx->net_sum.layout = "LINUXKRNL.NET";
        lx->net_sum.kind = "net";
        lx->fsstatd = idx < s->cfg.fsstatd;
        lx->procd = idx < s->cfg.procd;
        lx->pass_every = 1 + (unsigned)sim_rng_below(g, 3);
        if (lx->fsstatd) {
                lx->nfs = 3 + (unsigned)sim_rng_below(g, 3);
                lx->fs = calloc(lx->nfs, sizeof(*lx->fs));
                for (unsigned i = 0; i < lx->nfs && i < 8; i++)
                        lx->fs_used[i] = 1000 + sim_rng_below(g, 100000);
        }
        if (lx->procd) {
                lx->ntasks = lx->ntasks0 = 3 + (unsigned)sim_rng_below(g, 6);
                lx->maxtasks = s->cfg.procd_churn ? CHURN_MAXTASKS : lx->ntasks;
                lx->procs = calloc(1 + lx->maxtasks, sizeof(*lx->procs));
                lx->task = sim_xcalloc(lx->maxtasks, sizeof(*lx->task));
                lx->freed = sim_xcalloc(CHURN_FREED, sizeof(*lx->freed));
                /* Tasks 5 and up are workers of one server (several tasks of one name, as
                 * a processes-plugin user aggregates them). */
                for (unsigned i = 0; i < lx->ntasks; i++)
                        lx->task[i] = (struct m_task){.pid = 1 + i * 101,
                                                      .cmd = (idx + (i < 5 ? i : 5)) % NCMDS_OLD,
                                                      .shape = i,
                                                      .process = i + 1};
                lx->next_process = lx->ntasks + 1;
                lx->next_pid = 2000;
                /* A stream of its own: churn leaves the rest of the system as it was. */
                lx->crng.s = sim_hash2(s->cfg.seed, UINT64_C(0x70726F6364) + idx);
        }
}

void sim_lx_free(struct m_linux *lx)
{
        free(lx->jiffies);
        free(lx->prev_vt);
        free(lx->fs);
        free(lx->procs);
        free(lx->task);
        free(lx->freed);
}

/* sync_count_1++, fields, timestamp, sync_count_2++ (doc/facts/kernel-drivers.md 4.3). */
static void sync_hdr(struct sim_rec *r, uint64_t tod, uint32_t sync)
{
        sim_set_u(r, "timestamp", tod);
        sim_set_u(r, "sync_count_1", sync);
        sim_set_u(r, "sync_count_2", sync);
}

static void gather_mem(struct sim_sys *s, struct m_linux *lx)
{
        struct m_appl *a = &lx->mem;
        a->len = MEM_LEN;
        struct sim_rec r = prec(a->layout, a->data, sizeof(a->data), 0);
        if (!r.l) {
                a->len = 0;
                return;
        }
        sync_hdr(&r, s->tod, lx->sync);
        sim_set_u(&r, "pgpgin", lx->pgpgin);
        sim_set_u(&r, "pgpgout", lx->pgpgout);
        sim_set_u(&r, "pswpin", lx->pswpin);
        sim_set_u(&r, "pswpout", lx->pswpout);
        sim_set_u(&r, "sharedram", 0);
        sim_set_u(&r, "totalram", lx->totalram);
        sim_set_u(&r, "freeram", lx->freeram);
        sim_set_u(&r, "totalhigh", 0);
        sim_set_u(&r, "freehigh", 0);
        sim_set_u(&r, "bufferram", lx->bufferram);
        sim_set_u(&r, "cached", lx->cached);
        sim_set_u(&r, "totalswap", lx->totalswap);
        sim_set_u(&r, "freeswap", lx->freeswap);
        sim_set_u(&r, "pgalloc", lx->pgalloc);
        sim_set_u(&r, "pgfault", lx->pgfault);
        sim_set_u(&r, "pgmajfault", lx->pgmajfault);
}

static void gather_os(struct sim_sys *s, struct m_linux *lx)
{
        struct m_appl *a = &lx->os;
        unsigned n = ncpus(s, lx);
        a->len = OS_LEN(n);
        struct sim_rec r = prec(a->layout, a->data, sizeof(a->data), 0);
        if (!r.l) {
                a->len = 0;
                return;
        }
        sync_hdr(&r, s->tod, lx->sync);
        sim_set_u(&r, "nr_cpus", n);
        sim_set_u(&r, "per_cpu_size", 36);
        sim_set_u(&r, "cpu_offset", 52);
        sim_set_u(&r, "nr_running", lx->nr_running);
        sim_set_u(&r, "nr_threads", lx->nr_threads);
        sim_set_u(&r, "avenrun_1", lx->avenrun[0]);
        sim_set_u(&r, "avenrun_5", lx->avenrun[1]);
        sim_set_u(&r, "avenrun_15", lx->avenrun[2]);
        sim_set_u(&r, "nr_iowait", lx->nr_iowait);
        static const char *const names[8] = {"per_cpu_user",   "per_cpu_nice", "per_cpu_system",
                                             "per_cpu_idle",   "per_cpu_irq",  "per_cpu_softirq",
                                             "per_cpu_iowait", "per_cpu_steal"};
        for (unsigned c = 0; c < n; c++) {
                struct sim_rec e =
                    prec("LINUXKRNL.OS.CPU01", a->data, sizeof(a->data), 52 + c * 36);
                for (unsigned k = 0; k < 8; k++)
                        sim_set_u(&e, names[k], lx->jiffies[c * 8 + k]);
                sim_set_u(&e, "cpu_id", c);
        }
}

static void gather_net(struct sim_sys *s, struct m_linux *lx)
{
        struct m_appl *a = &lx->net_sum;
        a->len = NET_LEN;
        struct sim_rec r = prec(a->layout, a->data, sizeof(a->data), 0);
        if (!r.l) {
                a->len = 0;
                return;
        }
        static const char *const names[9] = {"rx_packets", "tx_packets", "rx_bytes",
                                             "tx_bytes",   "rx_errors",  "tx_errors",
                                             "rx_dropped", "tx_dropped", "collisions"};
        sync_hdr(&r, s->tod, lx->sync);
        sim_set_u(&r, "nr_interfaces", lx->nr_if);
        for (unsigned k = 0; k < 9; k++)
                sim_set_u(&r, names[k], lx->net[k]);
}

/* Unix seconds of the current interval (the s390-tools writers use time(2)). */
static uint64_t unix_s(const struct sim_sys *s)
{
        return (uint64_t)(zd_tod_to_unix_us(s->tod) / 1000000);
}

static size_t put_str(uint8_t *p, size_t at, size_t cap, const char *str)
{
        size_t n = strlen(str);
        zd_wbuf w = {p, cap};
        (void)zd_put16(w, at, (uint16_t)n);
        (void)zd_put_bytes(w, at + 2, str, n);
        return at + 2 + n;
}

/* The 12-byte LNXAPPL data header: time_stamp, data_len, data_offset (= 12). */
static void lnx_hdr(struct m_appl *a, uint64_t ts, size_t data_len)
{
        struct sim_rec h = prec("LNXAPPL.HDR", a->data, sizeof(a->data), 0);
        sim_set_u(&h, "time_stamp", ts);
        sim_set_u(&h, "data_len", data_len);
        sim_set_u(&h, "data_offset", 12);
}

/* Offsets of a LNXAPPL body layout count from the data header if it declares time_stamp. */
static size_t body_base(const char *id)
{
        const struct zl_layout *l = sim_payload_layout(id, NULL);
        return l && zl_field(l, "time_stamp") ? 0 : 12;
}

/*
 * What the writers put in a buffer decides its size (small or large, as
 * s390-tools pads): computed here once, for the passes and for sim_lx_fit.
 */
static const char *const fs_dev[] = {"/dev/dasda1", "/dev/dasdb1", "/dev/mapper/vg-home",
                                     "/dev/dasdc1", "/dev/dasdd1"};
static const char *const fs_dir[] = {"/", "/var", "/home", "/srv/data", "/opt"};
static const char *const fs_type[] = {"ext4", "xfs", "ext4", "xfs", "btrfs"};

/* File system i: the 12-byte header, three length-prefixed strings, the 72-byte statvfs. */
static size_t fs_len(unsigned i)
{
        size_t at = 12 + 2 + strlen(fs_dev[i % 5]) + 2 + strlen(fs_dir[i % 5]) + 2 +
                    strlen(fs_type[i % 5]) + 72;
        return 13 + at <= 602 ? FS_SMALL : FS_LARGE;
}

static const char *task_cmd(const struct m_linux *lx, unsigned i)
{
        return cmds[lx->task[i].cmd % NCMDS];
}

/* Shapes 3, 7, 11 ... have a command line too long for the small buffer. */
static void task_line(char *line, size_t n, const char *c, unsigned i)
{
        snprintf(line, n, "/usr/bin/%s --config /etc/%s.conf%s", c, c,
                 i % 4 == 3 ? " --verbose --with-a-long-command-line-that-does-not-fit-in-"
                              "the-small-buffer-of-four-hundred-and-ninety-nine-bytes-"
                              "so-that-mon_procd-picks-the-large-one-with-an-odd-mod-level-"
                              "exactly-as-s390-tools-does-it-for-long-command-lines-xxxxx-"
                              "yyyyyyyyyy-zzzzzzzzzz-aaaaaaaaaa-bbbbbbbbbb-cccccccccc-ddddd"
                            : "");
}

/* Task i as procd_pass writes it: the header, 111 bytes of numbers, six length-prefixed strings. */
static size_t task_len(const struct m_linux *lx, unsigned i)
{
        char line[700];
        const char *c = task_cmd(lx, i);
        task_line(line, sizeof(line), c, lx->task[i].shape);
        size_t at = 12 + 111 + 3 * (2 + strlen("root")) + 2 + strlen("poll_schedule_timeout") + 2 +
                    strlen(c) + 2 + strlen(line);
        return 13 + at <= 512 ? TASK_SMALL : TASK_LARGE;
}

/* Mod levels by position in a pass: even for the small buffers, odd for the large. */
struct mod_levels {
        unsigned small, large;
};

static uint16_t next_mod(struct mod_levels *m, bool is_small)
{
        unsigned *next = is_small ? &m->small : &m->large;
        uint16_t mod = (uint16_t)*next;
        *next += 2;
        return mod;
}

static void fsstat_pass(struct sim_sys *s, struct m_linux *lx)
{
        const char *const *dev = fs_dev, *const *dir = fs_dir, *const *type = fs_type;
        struct mod_levels mods = {0, 1};
        for (unsigned i = 0; i < lx->nfs; i++) {
                struct m_appl *a = &lx->fs[i];
                memset(a->data, 0, sizeof(a->data));
                size_t at = 12;
                at = put_str(a->data, at, sizeof(a->data), dev[i % 5]);
                at = put_str(a->data, at, sizeof(a->data), dir[i % 5]);
                at = put_str(a->data, at, sizeof(a->data), type[i % 5]);
                uint64_t blocks = 262144u << (i % 4);
                lx->fs_used[i] += sim_rng_below(&s->rng, 100);
                uint64_t used = lx->fs_used[i] % blocks;
                struct sim_rec r = prec("LNXAPPL.1.0.FS", a->data, sizeof(a->data), at);
                a->layout_off = at;
                sim_set_u(&r, "fs_bsize", 4096);
                sim_set_u(&r, "fs_frsize", 4096);
                sim_set_u(&r, "fs_blocks", blocks);
                sim_set_u(&r, "fs_bfree", blocks - used);
                sim_set_u(&r, "fs_bavail", (blocks - used) * 95 / 100);
                sim_set_u(&r, "fs_files", blocks / 4);
                sim_set_u(&r, "fs_ffree", blocks / 4 - used / 8);
                sim_set_u(&r, "fs_favail", blocks / 4 - used / 8);
                sim_set_u(&r, "fs_flag", 0x1000);
                at += 72;
                lnx_hdr(a, unix_s(s), at - 12);
                a->len = fs_len(i);
                lnxappl_prodid(a->prodid, 1, 0, next_mod(&mods, a->len == FS_SMALL));
                a->layout = "LNXAPPL.1.0.FS";
                a->kind = "fsstat";
        }
}

/* CPU shares in 1/100 %, from the per-CPU jiffies of the OS record. */
static void set_cpu_shares(struct sim_rec *r, const struct m_linux *lx, unsigned n)
{
        uint64_t tot[8] = {0}, all = 0;
        for (unsigned c = 0; c < n; c++)
                for (unsigned k = 0; k < 8; k++)
                        tot[k] += lx->jiffies[c * 8 + k];
        for (unsigned k = 0; k < 8; k++)
                all += tot[k];
        static const char *const share[8] = {"cpu_user", "cpu_nice",    "cpu_system", "cpu_idle",
                                             "cpu_irq",  "cpu_softirq", "cpu_iowait", "cpu_steal"};
        for (unsigned k = 0; k < 8 && all; k++)
                sim_set_u(r, share[k], tot[k] * 10000 / all);
}

/* mon_procd's summary buffer (LNXAPPL 2.0): uptime, load, tasks, memory, swap, CPU. */
static void procd_summary(struct sim_sys *s, struct m_linux *lx)
{
        struct m_appl *a = &lx->procs[0];
        unsigned n = ncpus(s, lx);
        memset(a->data, 0, sizeof(a->data));
        lnx_hdr(a, unix_s(s), 166);
        struct sim_rec r = prec("LNXAPPL.2.0", a->data, sizeof(a->data), body_base("LNXAPPL.2.0"));
        sim_set_u(&r, "uptime", 86400 * 3 + unix_s(s) % 100000);
        sim_set_u(&r, "users", 1 + lx->guest % 3);
        char la[3][16];
        for (unsigned k = 0; k < 3; k++)
                snprintf(la[k], sizeof(la[k]), "%u.%02u", (lx->avenrun[k] >> 11) % 100,
                         (lx->avenrun[k] & 2047) * 100 / 2048 % 100);
        sim_set_t(&r, "loadavg_1", la[0]);
        sim_set_t(&r, "loadavg_5", la[1]);
        sim_set_t(&r, "loadavg_15", la[2]);
        sim_set_u(&r, "task_total", lx->nr_threads);
        sim_set_u(&r, "task_running", lx->nr_running);
        sim_set_u(&r, "task_sleeping", lx->nr_threads - lx->nr_running);
        sim_set_u(&r, "cpu_num_cpus", n);
        sim_set_u(&r, "mem_total", lx->totalram);
        sim_set_u(&r, "mem_used", lx->totalram - lx->freeram);
        sim_set_u(&r, "mem_free", lx->freeram);
        sim_set_u(&r, "mem_buffers", lx->bufferram);
        sim_set_u(&r, "swap_total", lx->totalswap);
        sim_set_u(&r, "swap_used", lx->totalswap - lx->freeswap);
        sim_set_u(&r, "swap_free", lx->freeswap);
        sim_set_u(&r, "swap_cached", lx->cached);
        sim_set_u(&r, "swap_pswpin", lx->pswpin);
        sim_set_u(&r, "swap_pswpout", lx->pswpout);
        sim_set_u(&r, "mem_pgpgin", lx->pgpgin);
        sim_set_u(&r, "mem_pgpgout", lx->pgpgout);
        sim_set_u(&r, "task_stopped", 0);
        sim_set_u(&r, "task_zombie", lx->guest % 2);
        set_cpu_shares(&r, lx, n);
        a->len = PROCSUM_LEN;
        lnxappl_prodid(a->prodid, 2, 0, 0);
        a->layout = "LNXAPPL.2.0";
        a->layout_off = body_base("LNXAPPL.2.0");
        a->kind = "procsum";
}

/* The numbers of task i (LNXAPPL 2.1), before its strings. */
static void set_task_numbers(struct sim_sys *s, struct m_linux *lx, unsigned i, struct sim_rec *e)
{
        const struct m_guest *g = &s->guest[lx->guest];
        struct m_task *t = &lx->task[i];
        unsigned k = t->shape;
        /* Under churn the task list's length varies: its numbers come from its own stream. */
        struct sim_rng *r = s->cfg.procd_churn ? &lx->crng : &s->rng;
        uint64_t cpu = t->own ? t->cpu : (g->ttime[0] >> 12) / 10000 / (k + 2);
        sim_set_u(e, "pid", t->pid);
        sim_set_u(e, "ppid", t->pid == 1 ? 0 : 1);
        sim_set_u(e, "processor", i % ncpus(s, lx));
        sim_set_u(e, "pcpu", sim_rng_below(r, 5000));
        sim_set_u(e, "pmem", sim_rng_below(r, 2000));
        sim_set_u(e, "total_time", cpu);
        sim_set_u(e, "size", 10000 + k * 5000);
        sim_set_u(e, "resident", 5000 + k * 2000);
        sim_set_t(e, "state", k % 5 == 0 ? "R" : "S");
        sim_set_u(e, "euid", 0);
        sim_set_u(e, "priority", 20);
        sim_set_u(e, "nice", 0);
        sim_set_u(e, "ctotal_time", cpu + k);
        sim_set_u(e, "swap", 5000 + k * 3000);
        sim_set_u(e, "trs", 800 + k);
        sim_set_u(e, "drs", 3000 + k * 1000);
        sim_set_u(e, "share", 1000 + k * 10);
        sim_set_u(e, "dt", 0);
        sim_set_u(e, "maj_flt", t->own ? t->flt : lx->pgmajfault / (k + 1));
        sim_set_u(e, "flags", 0x400100);
        t->last_cpu = cpu;
}

/* mon_procd's buffer for task i: numbers, then user names, wait channel, command, line. */
static void procd_task(struct sim_sys *s, struct m_linux *lx, unsigned i, struct mod_levels *mods)
{
        struct m_appl *t = &lx->procs[1 + i];
        memset(t->data, 0, sizeof(t->data));
        size_t base = body_base("LNXAPPL.2.1");
        struct sim_rec e = prec("LNXAPPL.2.1", t->data, sizeof(t->data), base);
        set_task_numbers(s, lx, i, &e);
        size_t at = 12 + 111;
        const char *c = task_cmd(lx, i);
        at = put_str(t->data, at, sizeof(t->data), "root");
        at = put_str(t->data, at, sizeof(t->data), "root");
        at = put_str(t->data, at, sizeof(t->data), "root");
        at = put_str(t->data, at, sizeof(t->data), "poll_schedule_timeout");
        at = put_str(t->data, at, sizeof(t->data), c);
        char line[700];
        task_line(line, sizeof(line), c, lx->task[i].shape);
        at = put_str(t->data, at, sizeof(t->data), line);
        lnx_hdr(t, unix_s(s), at - 12);
        t->len = task_len(lx, i);
        lnxappl_prodid(t->prodid, 2, 1, next_mod(mods, t->len == TASK_SMALL));
        t->layout = "LNXAPPL.2.1";
        t->layout_off = base;
        t->kind = "proctask";
}

/* A pid freed in an earlier pass, kept for reuse (the oldest goes when full). */
static void keep_freed(struct m_linux *lx, uint32_t pid)
{
        if (lx->nfreed == CHURN_FREED)
                memmove(lx->freed, lx->freed + 1, --lx->nfreed * sizeof(*lx->freed));
        lx->freed[lx->nfreed++] = pid;
}

static uint32_t take_freed(struct m_linux *lx, unsigned at)
{
        uint32_t pid = lx->freed[at];
        memmove(lx->freed + at, lx->freed + at + 1, (--lx->nfreed - at) * sizeof(*lx->freed));
        return pid;
}

/*
 * A new process: its counters start near 0.  A third of them take the pid of a
 * process that exited since the previous pass (of the same command or another)
 * when that one's CPU time was above the new one's: the time falls, which is how
 * a reader tells a reused pid (doc/plugin.md; the record has no start time, so a
 * reuse with no counter falling could not be told by anyone).  Some take a pid
 * freed in an earlier pass, the rest a pid never used.
 */
static void start_task(struct m_linux *lx, struct m_task *gone, unsigned *ngone)
{
        struct sim_rng *g = &lx->crng;
        struct m_task *t = &lx->task[lx->ntasks++];
        *t = (struct m_task){.process = lx->next_process++, .own = true};
        t->cpu = sim_rng_below(g, 3);
        t->flt = sim_rng_below(g, 3);
        t->shape = (unsigned)sim_rng_below(g, 8);
        t->cmd = (unsigned)sim_rng_below(g, NCMDS);
        unsigned way = (unsigned)sim_rng_below(g, 6);
        if (way < 2 && *ngone) {
                unsigned k = (unsigned)sim_rng_below(g, *ngone);
                if (!gone[k].reused && gone[k].last_cpu > t->cpu) {
                        t->pid = gone[k].pid;
                        gone[k].reused = true;
                        if (way == 0) /* the same command again */
                                t->cmd = gone[k].cmd;
                        else if (t->cmd == gone[k].cmd)
                                t->cmd = (t->cmd + 1) % NCMDS;
                        return;
                }
        }
        if (way == 2 && lx->nfreed) {
                t->pid = take_freed(lx, (unsigned)sim_rng_below(g, lx->nfreed));
                return;
        }
        t->pid = lx->next_pid;
        lx->next_pid += 1 + (uint32_t)sim_rng_below(g, 40);
}

/* Between two passes: some tasks exit (pid 1 never), some start. */
static unsigned churn(struct sim_sys *s, struct m_linux *lx, struct m_task *gone)
{
        struct sim_rng *g = &lx->crng;
        unsigned rate = s->cfg.procd_churn, ngone = 0, k = 1;
        for (unsigned i = 1; i < lx->ntasks; i++) {
                struct m_task *t = &lx->task[i];
                if (sim_rng_below(g, 100) < rate)
                        gone[ngone++] = *t;
                else
                        lx->task[k++] = *t;
        }
        lx->ntasks = k;
        for (unsigned i = 0; i < lx->ntasks; i++) /* the survivors run on */
                if (lx->task[i].own) {
                        lx->task[i].cpu += sim_rng_below(g, 60);
                        lx->task[i].flt += sim_rng_below(g, 3);
                }
        for (unsigned i = 0; i < lx->ntasks0; i++)
                if (sim_rng_below(g, 100) < rate && lx->ntasks < lx->maxtasks)
                        start_task(lx, gone, &ngone);
        return ngone;
}

static void procd_truth(struct sim_sys *s, const struct m_linux *lx, const struct m_task *gone,
                        unsigned ngone)
{
        struct sim_proc now[CHURN_MAXTASKS], was[CHURN_MAXTASKS];
        for (unsigned i = 0; i < lx->ntasks; i++)
                now[i] = (struct sim_proc){lx->task[i].pid, lx->task[i].process};
        for (unsigned i = 0; i < ngone; i++)
                was[i] = (struct sim_proc){gone[i].pid, gone[i].process};
        sim_truth_procd_pass(s->truth, s->n, s->guest[lx->guest].name, unix_s(s), now, lx->ntasks,
                             was, ngone);
}

static uint16_t mod_of(const struct m_appl *a)
{
        return (uint16_t)(a->prodid[14] << 8 | a->prodid[15]);
}

/*
 * After a pass mon_procd stops every mod level it no longer uses
 * (doc/facts/s390-tools.md 1); CP writes a D10R1 with the buffer's last
 * contents.  was[] holds the task buffers of the previous pass.
 */
static void procd_stops(struct sim_sys *s, struct m_linux *lx, const struct m_appl *was,
                        unsigned nwas)
{
        struct m_appl *stop = sim_xcalloc(nwas, sizeof(*stop));
        unsigned n = 0;
        for (unsigned i = 0; i < nwas; i++) {
                bool used = false;
                for (unsigned k = 0; k < lx->ntasks && !used; k++)
                        used = mod_of(&lx->procs[1 + k]) == mod_of(&was[i]);
                if (!used)
                        stop[n++] = was[i];
        }
        sim_sys_appl_stops(s, s->guest[lx->guest].name, stop, n);
        free(stop);
}

static void procd_pass(struct sim_sys *s, struct m_linux *lx)
{
        struct m_task gone[CHURN_MAXTASKS];
        unsigned ngone = 0, nwas = lx->npass ? lx->ntasks : 0;
        struct m_appl *was = NULL;
        if (s->cfg.procd_churn && nwas) {
                was = sim_xcalloc(nwas, sizeof(*was));
                memcpy(was, lx->procs + 1, nwas * sizeof(*was));
        }
        if (s->cfg.procd_churn) {
                /* The fixed tasks' pcpu and pmem came from the system's stream: it moves
                 * on as without churn, so that the rest of the system stays as it was. */
                for (unsigned i = 0; i < 2 * lx->ntasks0; i++)
                        (void)sim_rng_next(&s->rng);
                if (lx->npass)
                        ngone = churn(s, lx, gone);
        }
        procd_summary(s, lx);
        struct mod_levels mods = {0, 1};
        for (unsigned i = 0; i < lx->ntasks; i++)
                procd_task(s, lx, i, &mods);
        if (was)
                procd_stops(s, lx, was, nwas);
        free(was);
        if (s->cfg.procd_churn && s->truth)
                procd_truth(s, lx, gone, ngone);
        for (unsigned i = 0; i < ngone; i++)
                if (!gone[i].reused) /* free for later */
                        keep_freed(lx, gone[i].pid);
        lx->npass++;
}

/* The kernel's memory, paging and scheduler counters. */
static void advance_counters(struct sim_sys *s, struct m_linux *lx)
{
        struct sim_rng *g = &s->rng;
        unsigned n = ncpus(s, lx);
        lx->pgpgin += sim_rng_below(g, 4000);
        lx->pgpgout += sim_rng_below(g, 8000);
        lx->pswpin += sim_rng_below(g, 3);
        lx->pswpout += sim_rng_below(g, 3);
        lx->pgalloc += 1000 + sim_rng_below(g, 50000);
        lx->pgfault += 1000 + sim_rng_below(g, 30000);
        lx->pgmajfault += sim_rng_below(g, 20);
        int64_t df = (int64_t)sim_rng_below(g, 20001) - 10000;
        if ((int64_t)lx->freeram + df > (int64_t)(lx->totalram / 20) &&
            lx->freeram + (uint64_t)df < lx->totalram / 2)
                lx->freeram = (uint64_t)((int64_t)lx->freeram + df);
        lx->nr_running = 1 + (uint32_t)sim_rng_below(g, 2 * n);
        lx->nr_iowait = (uint32_t)sim_rng_below(g, 3);
        if (sim_lx_iowait_pct(s, lx))
                lx->nr_iowait += n; /* a task waiting on each CPU */
        for (unsigned k = 0; k < 3; k++) {
                uint32_t target = lx->nr_running * 2048;
                lx->avenrun[k] = (lx->avenrun[k] * (1u << k) + target) / ((1u << k) + 1);
        }
}

/* --condition guest-steal: the first Linux guest's virtual CPUs wait 30 % of
 * the time for a processor z/VM gives to others. */
unsigned sim_lx_steal_pct(const struct sim_sys *s, const struct m_linux *lx)
{
        return sim_cond(s, SIM_COND_GUEST_STEAL) && lx == &s->linux[0] ? 30 : 0;
}

/* --condition guest-iowait: the last Linux guest's CPUs idle 40 % of the time
 * with I/O outstanding. */
unsigned sim_lx_iowait_pct(const struct sim_sys *s, const struct m_linux *lx)
{
        return sim_cond(s, SIM_COND_GUEST_IOWAIT) && lx == &s->linux[s->cfg.linux_guests - 1] ? 40
                                                                                              : 0;
}

/*
 * Per-CPU jiffies: busy part from CP's accounting of the virtual CPU, steal
 * 2 % (or what --condition asks), the rest idle.  CP never gave the virtual
 * CPU more than the interval less its steal and I/O wait (sim_interval.c),
 * so they add up to the interval.
 */
static void advance_jiffies(struct sim_sys *s, struct m_linux *lx)
{
        const struct m_guest *gu = &s->guest[lx->guest];
        unsigned n = ncpus(s, lx), steal_pct = sim_lx_steal_pct(s, lx);
        uint64_t elapsed_j = (uint64_t)s->cfg.interval_ms * lx->hz / 1000;
        uint64_t steal = steal_pct ? elapsed_j * steal_pct / 100 : elapsed_j / 50;
        uint64_t iowait = elapsed_j * sim_lx_iowait_pct(s, lx) / 100;
        for (unsigned c = 0; c < n; c++) {
                uint32_t *j = &lx->jiffies[c * 8];
                /* Busy jiffies = this interval's virtual CPU time as CP accounted it. */
                uint64_t tick = UINT64_C(1000000) * ZD_TOD_PER_US / lx->hz;
                uint64_t busy = (gu->vtime[c] - lx->prev_vt[c]) / tick;
                lx->prev_vt[c] = gu->vtime[c];
                if (busy > elapsed_j)
                        busy = elapsed_j;
                uint64_t idle =
                    elapsed_j > busy + steal + iowait ? elapsed_j - busy - steal - iowait : 0;
                j[0] += (uint32_t)(busy * 70 / 100);
                j[1] += (uint32_t)(busy * 2 / 100);
                j[2] += (uint32_t)(busy - busy * 70 / 100 - busy * 2 / 100);
                j[3] += (uint32_t)idle;
                j[6] += (uint32_t)iowait;
                j[7] += (uint32_t)steal;
        }
}

/* The kernel's APPLDATA buffers, rebuilt when the guest's virtual CPU timer expires. */
static void update_appldata(struct sim_sys *s, struct m_linux *lx)
{
        for (struct m_appl *a = &lx->mem; a <= &lx->net_sum; a++)
                a->torn = false;
        if (lx->vcpu_acc < lx->appl_ms * 1000 * ZD_TOD_PER_US)
                return;
        lx->vcpu_acc = 0;
        lx->sync++;
        gather_mem(s, lx);
        gather_os(s, lx);
        gather_net(s, lx);
        if (sim_rng_below(&s->rng, 1000) < s->cfg.torn_permille)
                /* CP copies one of them while the guest is between the counters */
                (&lx->mem)[sim_rng_below(&s->rng, 3)].torn = true;
}

void sim_lx_advance(struct sim_sys *s, struct m_linux *lx)
{
        /* The guest's own counters move every interval ... */
        advance_counters(s, lx);
        advance_jiffies(s, lx);
        for (unsigned k = 0; k < 4; k++)
                lx->net[k] += sim_rng_below(&s->rng, k < 2 ? 5000 : 3000000);
        lx->net[6] += sim_rng_below(&s->rng, 1000) == 0;
        /* ... but the APPLDATA buffers only when the virtual CPU timer expires. */
        update_appldata(s, lx);
        if (s->n % lx->pass_every == 1 || lx->pass_every == 1) {
                if (lx->fsstatd)
                        fsstat_pass(s, lx);
                if (lx->procd)
                        procd_pass(s, lx);
        }
}

static void sample_one(struct sim_sys *s, const struct m_guest *g, struct m_appl *a)
{
        if (!a->len)
                return;
        uint8_t copy[SIM_LX_BUFMAX];
        memcpy(copy, a->data, a->len);
        const char *note = NULL;
        if (a->torn) {
                /* Mid-update: sync_count_1 already bumped, sync_count_2 not yet. */
                struct sim_rec r = prec(a->layout, copy, a->len, 0);
                uint64_t s1 = 0;
                if (r.l && zl_get_u64(r.l, zd_view_make(copy, a->len), "sync_count_1", &s1))
                        sim_set_u(&r, "sync_count_2", s1 - 1);
                note = "torn";
        }
        char key[64];
        snprintf(key, sizeof(key), "%s %s", g->name, a->kind);
        if (a->prodid[0] == 'L') { /* LNXAPPL: say which buffer */
                zd_view pv = zd_view_make(a->prodid, 16);
                uint16_t mod = 0;
                uint8_t rec = 0;
                (void)zd_u16(pv, 14, &mod);
                (void)zd_u8(pv, 9, &rec);
                snprintf(key, sizeof(key), "%s %s %u", g->name, a->kind, mod);
        }
        sim_emit_appl(s, g->name, a->prodid, copy, a->len, 'S', a->layout, a->layout_off, key,
                      note);
}

/* Keep in step with sim_lx_sample. */
void sim_lx_fit(const struct sim_sys *s, const struct m_linux *lx, struct sim_fit *sample)
{
        sim_fit_add(sample, ZD_APPL_HDR_LEN + MEM_LEN, 1);
        sim_fit_add(sample, ZD_APPL_HDR_LEN + OS_LEN(ncpus(s, lx)), 1);
        sim_fit_add(sample, ZD_APPL_HDR_LEN + NET_LEN, 1);
        for (unsigned i = 0; lx->fsstatd && i < lx->nfs; i++)
                sim_fit_add(sample, ZD_APPL_HDR_LEN + fs_len(i), 1);
        if (lx->procd) {
                sim_fit_add(sample, ZD_APPL_HDR_LEN + PROCSUM_LEN, 1);
                if (s->cfg.procd_churn) /* any number of tasks, any of them large */
                        sim_fit_add(sample, ZD_APPL_HDR_LEN + TASK_LARGE, lx->maxtasks);
                else
                        for (unsigned i = 0; i < lx->ntasks; i++)
                                sim_fit_add(sample, ZD_APPL_HDR_LEN + task_len(lx, i), 1);
        }
}

/* sim_lx_fit must know every record written here. */
void sim_lx_sample(struct sim_sys *s, struct m_linux *lx)
{
        const struct m_guest *g = &s->guest[lx->guest];
        sample_one(s, g, &lx->mem);
        sample_one(s, g, &lx->os);
        sample_one(s, g, &lx->net_sum);
        for (unsigned i = 0; lx->fsstatd && i < lx->nfs; i++)
                sample_one(s, g, &lx->fs[i]);
        for (unsigned i = 0; lx->procd && i <= lx->ntasks; i++)
                sample_one(s, g, &lx->procs[i]);
}
