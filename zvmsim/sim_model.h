/* SPDX-License-Identifier: MIT */
/* The synthetic system's state, shared by the model's files (sim_system.c,
 * sim_interval.c, sim_sizing.c, sim_emit.c, sim_events.c, sim_sets.c) and the
 * record builders. */
#ifndef ZVMSIM_MODEL_H
#define ZVMSIM_MODEL_H

#include <stdlib.h>
#include <string.h>

#include "sim.h"

#define SIM_LX_BUFMAX 4010

struct m_cpu {
        unsigned addr;
        double busy;                         /* fraction of the interval */
        uint64_t utime, tmsys, totwt, spint; /* CPU timers, counting up */
        uint64_t prbtm;                      /* counts down from X'7FFFFFFF00000000' */
        uint64_t d_utime, d_emul, d_sys;     /* this interval */
        uint64_t pior, piow, ctss, ctrs;     /* paging I/O, SSCH/RSCH executed */
        uint64_t diag, simins, extint, sie, spinc;
};

/* A simulated APPLDATA buffer inside a guest: CP copies it every interval. */
struct m_appl {
        uint8_t prodid[16];
        const char *layout; /* payload layout id for the truth, or NULL */
        size_t layout_off;  /* where that layout starts in the data */
        const char *kind;   /* "mem", "os", "net", "fsstat", "procsum", "proctask" */
        uint8_t data[SIM_LX_BUFMAX];
        size_t len;
        bool torn; /* CP's copy this interval was taken mid-update */
};

/* A task mon_procd reports. The guest's first tasks derive their counters from
 * the guest's (`own` false, as zvmsim always had them); a task started under
 * --procd-churn keeps its own, from near 0. */
struct m_task {
        uint32_t pid;
        unsigned cmd, shape; /* command (task_cmd), sizes and command line */
        uint64_t process;    /* the truth's number of this process, per guest */
        bool own;            /* counters below, not derived */
        uint64_t cpu, flt;   /* own counters: total_time (1/100 s), maj_flt */
        uint64_t last_cpu;   /* total_time as the last pass wrote it */
        bool reused;         /* exited, and its pid taken by a process started since */
};

struct m_linux {
        unsigned guest;
        unsigned hz;
        uint64_t appl_ms;  /* /proc/sys/appldata/interval, virtual CPU ms */
        uint64_t vcpu_acc; /* virtual CPU TOD units since the last update */
        uint32_t sync;
        /* MEM */
        uint64_t totalram, freeram, bufferram, cached, totalswap, freeswap;
        uint64_t pgpgin, pgpgout, pswpin, pswpout, pgalloc, pgfault, pgmajfault;
        /* OS */
        uint32_t *jiffies; /* per vCPU: user nice system idle irq softirq iowait steal */
        uint64_t *prev_vt; /* the guest's VMDVTIME per vCPU at the previous interval */
        uint32_t nr_running, nr_threads, nr_iowait, avenrun[3];
        /* NET */
        uint32_t nr_if;
        uint64_t net[9];
        struct m_appl mem, os, net_sum;
        /* s390-tools writers */
        bool fsstatd, procd;
        unsigned nfs, ntasks, pass_every;
        struct m_appl *fs, *procs; /* procs[0] = summary */
        struct m_task *task;       /* ntasks of them, up to maxtasks */
        unsigned maxtasks, ntasks0, npass;
        uint64_t next_process;
        uint32_t next_pid;
        struct sim_rng crng; /* --procd-churn's own numbers: the rest of the system stays */
        uint32_t *freed;     /* pids of processes that exited in earlier passes */
        unsigned nfreed;
        uint64_t fs_used[8];
};

struct m_guest {
        char name[9];
        unsigned vcpus;
        uint32_t weight;
        uint64_t *ttime, *vtime; /* per vCPU, counting up */
        uint64_t resident, wss;
        uint64_t pgread, pgwrite;
        uint64_t vio[5]; /* virtual I/O: console, DASD, unit record, tape, other */
        int lx;          /* index into linux[], or -1 */
};

struct m_dev {
        unsigned devno, sch;
        uint64_t ssch, connect, pending, disconnect, daonly, devbusy; /* times: 128 us units */
};

struct m_vnic {
        unsigned guest, addr;
        uint64_t txb, rxb, txp, rxp, txd, rxd;
};

struct m_lpar {
        char name[9];
        unsigned ncpu;
        double busy;
        uint64_t *dispatch, *lptime; /* SYTCUP LCUCACTM, LCUCLPTM (without LPAR management) */
};

/*
 * System-wide activity besides the guests' own counters (sim_activity.c):
 * transactions of virtual-MP users (SYTUSR), fast CCW translations
 * (SYTSYG), the SSI member's synchronizations and states (domain 11).  Its
 * numbers come from a sequence of their own, so that the rest of the system
 * stays what it was before it existed.
 */
struct m_activity {
        struct sim_rng rng;
        unsigned mp_users;              /* guests with more than one virtual CPU */
        uint64_t trv_n, trv_tod;        /* trivial transactions, their time in TOD units */
        uint64_t ntr_n, ntr_tod;        /* non-trivial transactions, their time */
        uint64_t ftr;                   /* fast CCW translations completed for DASD */
        uint64_t sync, proceed;         /* SSI synchronizations, Proceed-With-Reply sent */
        uint64_t joining_us, joined_us; /* microseconds in SSI states joining and joined */
};

struct sim_sys {
        struct sim_cfg cfg;
        struct sim_rng rng;
        struct sim_dcss dcss;
        struct sim_truth *truth;
        struct sim_mw *mw;
        struct sim_counts counts;
        uint64_t tod, n, dt; /* current interval TOD, number, length in TOD units */
        struct m_cpu *cpu;
        struct m_guest *guest;
        struct m_linux *linux;
        struct m_dev *dev;
        struct m_vnic *vnic;
        struct m_lpar *lpar;
        unsigned bigset_frames;
        uint64_t pgabl, avail, savfr; /* real storage, frames */
        struct m_activity act;
        struct sim_set **events;
        size_t nevents, capevents;
        struct sim_sb *sb; /* the set being built */
        uint64_t rec_tod;
};

/* calloc that aborts with a message when memory runs out: the simulator has no
 * way on without its model. */
static inline void *sim_xcalloc(size_t n, size_t sz)
{
        void *p = calloc(n ? n : 1, sz);
        if (!p) {
                fputs("zvmsim: out of memory\n", stderr);
                abort();
        }
        return p;
}

/* --break-law NAME names this law. */
static inline bool sim_broken(const struct sim_sys *s, const char *law)
{
        return s->cfg.break_law && strcmp(s->cfg.break_law, law) == 0;
}

/* --condition NAME (SIM_COND_*) is on. */
static inline bool sim_cond(const struct sim_sys *s, unsigned cond)
{
        return s->cfg.conditions >> cond & 1;
}

/* sim_records_linux.c: percent of each interval the Linux guest's virtual CPUs
 * spend in steal and in I/O wait by --condition (0: none). */
unsigned sim_lx_steal_pct(const struct sim_sys *s, const struct m_linux *lx);
unsigned sim_lx_iowait_pct(const struct sim_sys *s, const struct m_linux *lx);

/* sim_system.c: an 8-character name: PREFIX and a number, as many digits as fit (LINUX001,
 * USER0042). */
void sim_name8(char out[9], const char *prefix, unsigned n);

/* sim_sizing.c: frames a logged-on guest keeps (1 MB), however big the system. */
#define SIM_MIN_RESIDENT 256
/* Scale the guests' resident pages to share real storage; set pgabl. */
void sim_real_storage(struct sim_sys *s);

/* sim_interval.c: one interval of the model (the data set is sim_sets.c's). */
void sim_sys_advance(struct sim_sys *s);

/* sim_activity.c: the activity's counters at the start, and one interval of them, in which the
 * devices started ssch I/Os. */
void sim_activity_init(struct sim_sys *s);
void sim_activity_advance(struct sim_sys *s, uint64_t ssch);

/* sim_emit.c: domain 1 is always on; the others as --domains says. */
bool sim_domain_enabled(const struct sim_sys *s, unsigned domain);
/* Count one record in the system's counts. */
void sim_count_record(struct sim_sys *s, unsigned domain, unsigned number);

/* Add a CP record through its layout; NULL when the domain is disabled. */
struct sim_rec *sim_emit_begin(struct sim_sys *s, struct sim_rec *r, unsigned domain,
                               unsigned number, const char *key);
void sim_emit_end(struct sim_sys *s, struct sim_rec *r, unsigned domain, unsigned number,
                  const char *key, char kind);
/* A domain 10 record around a payload (kind 'S' -> D10R2, 'E' -> D10R1). */
void sim_emit_appl(struct sim_sys *s, const char *userid, const uint8_t prodid[16],
                   const uint8_t *data, size_t len, char kind, const char *payload_layout,
                   size_t payload_off, const char *key, const char *note);

/* Like sim_emit_begin, with `extra` bytes after the layout's length (CPU entries). */
struct sim_rec *sim_emit_begin_len(struct sim_sys *s, struct sim_rec *r, unsigned domain,
                                   unsigned number, const char *key, size_t extra);

/* The length sim_emit_begin_len gives a CP record (layout length + extra, capped). */
size_t sim_cp_rec_len(unsigned domain, unsigned number, size_t extra);

/* sim_records_cp.c */
void sim_cp_config(struct sim_sys *s);
void sim_cp_sample(struct sim_sys *s);
/* The records sim_cp_config and sim_cp_sample write, every domain enabled. */
void sim_cp_fit(const struct sim_sys *s, struct sim_fit *config, struct sim_fit *sample);
/* sim_records_cp_pages.c: records from IBM's pages alone, called by sim_records_cp.c. */
void sim_cp_pages_config(struct sim_sys *s);
void sim_cp_pages_sample(struct sim_sys *s);
void sim_cp_pages_fit(const struct sim_sys *s, struct sim_fit *config, struct sim_fit *sample);
/* sim_records_ssi.c: the SSI member's records (--ssi), called by sim_records_cp.c. */
void sim_ssi_config(struct sim_sys *s);
void sim_ssi_sample(struct sim_sys *s);
void sim_ssi_fit(const struct sim_sys *s, struct sim_fit *config, struct sim_fit *sample);
/* sim_records_linux.c */
void sim_lx_init(struct sim_sys *s, struct m_linux *lx, unsigned idx);
void sim_lx_advance(struct sim_sys *s, struct m_linux *lx);
void sim_lx_sample(struct sim_sys *s, struct m_linux *lx);
void sim_lx_free(struct m_linux *lx);
/* The longest records sim_lx_sample can write for this guest. */
void sim_lx_fit(const struct sim_sys *s, const struct m_linux *lx, struct sim_fit *sample);

/* sim_events.c: count a finished set's End-of-Frame records and lost records. */
void sim_set_count(struct sim_sys *s, const struct sim_set *set);
/* An event set (a guest's monwriter record, a logoff) finished like an interval's
 * and queued. */
void sim_event_set_done(struct sim_sys *s, struct sim_set *set);
/* CP's D10R1 for APPLDATA buffers a guest stopped (each with its last contents), as
 * one event set ahead of the interval's sample. */
void sim_sys_appl_stops(struct sim_sys *s, const char *userid, const struct m_appl *a, size_t n);

#endif
