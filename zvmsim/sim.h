/* SPDX-License-Identifier: MIT */
/*
 * zvmsim: a simulated z/VM monitor.  Shared declarations.
 *
 * Layers (one file each):
 *   sim_rng       deterministic numbers from a seed
 *   sim_dcss      the monitor DCSS: 4 KB frames, MCE ranges, MCAs, data sets
 *   sim_records   record building through decoder/layout/layout.h (never own offsets)
 *   sim_config    defaults, --domains, the laws --break-law names
 *   sim_system    the synthetic system built from the seed, freed, asked
 *   sim_sizing    what it must fit: real storage, the DCSS size
 *   sim_interval  the interval model: how one interval's numbers evolve
 *   sim_activity  system-wide activity with numbers of its own: transactions, CCW
 *                 translation, the SSI member's state (called by sim_interval)
 *   sim_emit      records into the set being built, counted, into the truth
 *   sim_events    event sets, queued for the reader; every finished set counted
 *   sim_sets      configuration and sample sets, each interval
 *   sim_monwriter /dev/monwriter semantics (buffers, parser)
 *   sim_monreader /dev/monreader semantics (message queue, read sequence)
 *   sim_truth     ground truth as JSON Lines
 *   sim_monwrite  MONWRITE file output
 *   sim_fuse      the FUSE file system around the two devices
 */
#ifndef ZVMSIM_SIM_H
#define ZVMSIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "zvmdec.h"

/* ---- numbers (sim_rng.c) ---- */
uint64_t sim_mix(uint64_t x);
uint64_t sim_hash2(uint64_t a, uint64_t b);
uint64_t sim_hash_str(const char *s);
struct sim_rng {
        uint64_t s;
};
uint64_t sim_rng_next(struct sim_rng *r);
/* Uniform in [0, 1). */
double sim_rng_unit(struct sim_rng *r);
/* Uniform in [0, n). */
uint64_t sim_rng_below(struct sim_rng *r, uint64_t n);

/* ---- data sets (sim_dcss.c) ---- */

/*
 * One IUCV message as monreader hands it out: [MCE][record range]... kept
 * flat, with the end offsets of every read unit (each MCE and each range), so
 * that the monreader device never returns bytes across a unit boundary.
 */
struct sim_set {
        uint8_t *buf;
        size_t len, cap;
        size_t *ends; /* end offset of each unit, ascending */
        size_t nends, capends;
        size_t *mce_off; /* offset of each MCE in buf */
        size_t nmce, capmce;
        uint32_t mca_start, mca_end; /* where the MCA sits in the DCSS */
        char type;                   /* 'S' or 'E' */
        bool config;                 /* the configuration set sent on connect */
        uint64_t interval;           /* sample interval number (0 = configuration) */
        uint64_t seq;                /* message number since start */
        uint32_t neof;               /* End-of-Frame records placed */
        uint32_t lost;               /* records that did not fit the area (sim_sb_add) */
        uint32_t want_frames;        /* frames the set would have needed to hold them all */
};
void sim_set_free(struct sim_set *s);
/* The MCEs of a set, parsed back (for MONWRITE control records). */
size_t sim_set_mces(const struct sim_set *s, struct zd_mce *out, size_t max);

/*
 * The DCSS: a page range split into an MCA area, a configuration area, a
 * sample area and an event area.  Sample and event areas are rings: a record
 * set that reaches the end of its area continues at the area's start under a
 * new MCE (and so does one longer than max_frames_per_mce).  A set never
 * takes more frames than its area has: it would overwrite its own first
 * records before anyone read them.  Records beyond that are not placed
 * (sim_set.lost).
 */
struct sim_dcss {
        uint32_t base;                          /* first byte address (page aligned) */
        uint32_t npages;                        /* size in 4 KB pages */
        uint32_t mca_page, mca_pages, mca_next; /* MCA area, next free byte offset */
        uint32_t area_first[3], area_pages[3], area_next[3];
        uint32_t max_frames_per_mce; /* 0: only the area wrap splits a range */
        uint64_t seq;
};
enum { SIM_AREA_CONFIG = 0, SIM_AREA_SAMPLE = 1, SIM_AREA_EVENT = 2 };
#define SIM_DCSS_MAX_PAGES 524288u /* 2 GB, the --dcss-pages limit (addresses fit 32 bits) */
void sim_dcss_init(struct sim_dcss *d, uint32_t base, uint32_t npages);

/* Building one set: records are placed into frames as CP places them. */
struct sim_sb {
        struct sim_dcss *d;
        struct sim_set *set;
        int area;
        uint32_t range_start; /* DCSS address of the current range */
        uint32_t frames;      /* frames in the current range */
        size_t mce_at;        /* offset in set->buf of the current MCE */
        size_t frame_at;      /* offset in set->buf of the current frame */
        uint32_t frame_addr;  /* DCSS address of the current frame */
        size_t foff;          /* bytes used in the current frame */
        uint8_t dom0, dom1;   /* domains seen in the current range */
        bool open;
        bool full;           /* the set holds as many frames as its area: no more records */
        uint32_t set_frames; /* frames this set occupies */
        size_t want_foff;    /* once full: where the next record would go in a frame */
        uint64_t eof_tod;
};
void sim_sb_begin(struct sim_sb *b, struct sim_dcss *d, int area, char type);
/*
 * Room for a record of len bytes (header included, 20..4076) in the current
 * frame, zeroed, header filled in.  The pointer is valid until the next call.
 * NULL when the set already fills its area (the record is counted as lost).
 */
uint8_t *sim_sb_add(struct sim_sb *b, unsigned domain, unsigned number, size_t len, uint64_t tod);
/* Close the set: sample sets end with Interval End (D1R11), event sets with nothing. */
struct sim_set *sim_sb_end(struct sim_sb *b, bool interval_end, uint64_t tod);
/*
 * What a set will hold, for sizing the DCSS before any set is built: total
 * bytes, the longest record up to a quarter frame, the number of longer ones.
 * sim_fit_frames() is an upper bound on the frames they take.
 */
struct sim_fit {
        uint64_t bytes, big;
        size_t max_small;
};
void sim_fit_add(struct sim_fit *f, size_t len, uint64_t n);
uint64_t sim_fit_frames(const struct sim_fit *f);
/* Records placed so far per domain and record, for counts. */

/* ---- records (sim_records.c) ---- */

/* A field of a layout by name, cached on the (layout, name) pointers. */
const struct zl_field *sim_f(const struct zl_layout *l, const char *name);
/* The newest CP layout of (domain, record) and the record length it implies. */
const struct zl_layout *sim_cp_layout(int domain, int record, size_t *len);
/* A payload layout by id and its length. */
const struct zl_layout *sim_payload_layout(const char *id, size_t *len);
/* Length covered by a layout's fields (max of off+len), at least min_len. */
size_t sim_layout_len(const struct zl_layout *l);

/* A record under construction: its bytes and the layout to fill it through. */
struct sim_rec {
        const struct zl_layout *l;
        zd_wbuf b;    /* the whole record (CP) or payload */
        uint64_t key; /* hash of the source key, for generic values */
        uint64_t n;   /* interval number */
        double secs;  /* seconds since start */
        unsigned misses;
};
/* Plausible values for every field the model does not set itself. */
void sim_rec_generic(struct sim_rec *r, uint64_t seed, size_t skip_below);
void sim_set_u(struct sim_rec *r, const char *name, uint64_t v);
void sim_set_t(struct sim_rec *r, const char *name, const char *text);
/* Names the model sets that the layouts (not yet) have: reported once each. */
void sim_records_report_misses(FILE *f);
void sim_records_missing_layout(const char *id);

/* ---- ground truth (sim_truth.c) ---- */
struct sim_truth;
struct sim_truth *sim_truth_open(const char *path, bool fields);
/* On a stream the caller owns (closing the truth flushes, never closes it). */
struct sim_truth *sim_truth_on(FILE *f, bool fields);
void sim_truth_close(struct sim_truth *t);
/* A CP record (payload NULL) or a domain 10 record with its payload layout. */
void sim_truth_record(struct sim_truth *t, uint64_t interval, uint64_t tod, char kind,
                      unsigned domain, unsigned number, const char *key, const struct zl_layout *l,
                      zd_view rec, const struct zl_layout *pl, size_t pl_off, zd_view payload,
                      const char *note);
void sim_truth_set(struct sim_truth *t, const struct sim_set *s);
/* One mon_procd pass under --procd-churn: which process (a number per guest) each pid is,
 * and the processes that exited since the previous pass. */
struct sim_proc {
        uint32_t pid;
        uint64_t process;
};
void sim_truth_procd_pass(struct sim_truth *t, uint64_t interval, const char *guest, uint64_t ts,
                          const struct sim_proc *tasks, size_t n, const struct sim_proc *gone,
                          size_t ngone);

/* ---- MONWRITE and capture output (sim_monwrite.c) ---- */
struct sim_out;
struct sim_out *sim_out_open(const char *path, bool capture);
int sim_out_set(struct sim_out *o, const struct sim_set *s);
int sim_out_close(struct sim_out *o);

/* ---- monwriter (sim_monwriter.c) ---- */
#include "sim_monwriter.h"

/* ---- the system (sim_config.c, sim_system.c, sim_sets.c ...) ---- */
struct sim_cfg {
        uint64_t seed;
        unsigned cpus, guests, linux_guests, devices, vnics, lpars;
        unsigned fsstatd, procd; /* Linux guests running mon_fsstatd / mon_procd */
        unsigned interval_ms;
        uint32_t domains; /* bit d = sample domain d enabled */
        /* dcss_pages 0: sized for the configuration (sim_dcss_pages_for), at least 4096 */
        uint32_t dcss_base, dcss_pages, max_frames_per_mce;
        char writer_userid[9];
        char system_id[9]; /* MTRSYS_SYSTMID: the system's name (--system) */
        char ssi_name[9];  /* MTRSSI_SYSPLXNM (--ssi); empty: not an SSI member */
        uint64_t start_tod;
        const char *break_law;
        const char *reading;    /* layout reading of SYTPRP/MTRSYS: NULL packed, "aligned" */
        unsigned torn_permille; /* kernel records caught mid-update, per mille */
        unsigned procd_churn;   /* mon_procd tasks: percent that exit (and start) per pass */
        uint32_t conditions;    /* --condition: bit SIM_COND_* set, the system shows it */
};
/* --condition NAME: what the shipped alerts page on, shown by the system with every law kept. */
enum {
        SIM_COND_CPU_BUSY,     /* every logical processor over 90 % busy */
        SIM_COND_GUEST_STEAL,  /* the first Linux guest: 30 % steal */
        SIM_COND_GUEST_IOWAIT, /* the last Linux guest: 40 % I/O wait */
        SIM_COND_PAGING,       /* the last guest pages 3000 pages/s */
        SIM_COND_STORAGE,      /* 3 % of the pageable frames available */
        SIM_COND_DEVICE_SLOW,  /* the last device: 40 ms per SSCH */
        SIM_NCONDS
};
const char *const *sim_condition_names(void); /* in SIM_COND_* order, NULL-terminated */
/* "cpu-busy,paging" or "all"; false on an unknown name. */
bool sim_parse_conditions(const char *list, uint32_t *mask);
void sim_cfg_default(struct sim_cfg *c);
/* "system,monitor,user,..." or numbers; false on an unknown name. */
bool sim_parse_domains(const char *list, uint32_t *mask);
const char *const *sim_break_names(void); /* --break-law values: law names and LAW:HOW */
/* Build SYTPRP and MTRSYS under this layout reading (NULL: the default, packed). */
void sim_set_reading(const char *name);

struct sim_sys;
/* Called with every record built (for truth and counts). */
struct sim_counts {
        uint64_t by_rec[ZD_NDOMAINS][ZD_NRECSLOTS];
        uint64_t records, sets, intervals;
        uint64_t lost;       /* records that did not fit their DCSS area: not placed */
        uint64_t lost_sets;  /* data sets that lost records */
        uint64_t want_pages; /* DCSS pages that would hold every set that lost records */
};
struct sim_sys *sim_sys_new(const struct sim_cfg *c, struct sim_truth *truth);
void sim_sys_free(struct sim_sys *s);
const struct sim_counts *sim_sys_counts(const struct sim_sys *s);
struct sim_dcss *sim_sys_dcss(struct sim_sys *s);
/* DCSS pages whose areas hold this system's configuration and sample sets. */
uint32_t sim_sys_dcss_need(const struct sim_sys *s);
/* If records did not fit their DCSS area, say how many and what size would hold them. */
void sim_sys_report_lost(struct sim_sys *s, FILE *f);
/* The monwriter whose buffers show up as domain 10 records. */
void sim_sys_attach_writer(struct sim_sys *s, struct sim_mw *mw);
/* The configuration set, as sent to a reader that connects at tod. */
struct sim_set *sim_sys_config(struct sim_sys *s, uint64_t tod);
/* Advance the model by one interval; returns the sample set. */
struct sim_set *sim_sys_interval(struct sim_sys *s);
uint64_t sim_sys_tod(const struct sim_sys *s);
uint64_t sim_sys_interval_no(const struct sim_sys *s);
/* Event sets pending (monwriter STOP / GEN_EVENT, guest events), oldest first. */
struct sim_set *sim_sys_next_event(struct sim_sys *s);
/* Force a data set of about n frames into the next interval (control "bigset N"). */
void sim_sys_bigset(struct sim_sys *s, unsigned frames);

#endif
