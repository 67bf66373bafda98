/* SPDX-License-Identifier: MIT */
/*
 * Domain 10: application data (APPLDATA) records, and what Linux guests put
 * in them: kernel APPLDATA ("LINUXKRNL") and monwriter ("LNXAPPL") records.
 *
 * Layout ids used by this module (lay_d10.c, lay_linux.c, lay_lnxappl.c):
 *   D10R1 / D10R2          the 52-byte APPLDATA header (CP layouts)
 *   LINUXKRNL.MEM          kernel MEM record (144 bytes)
 *   LINUXKRNL.OS           kernel OS record header (52 bytes)
 *   LINUXKRNL.OS.CPU00     per-CPU entry, mod level 00 (28 bytes)
 *   LINUXKRNL.OS.CPU01     per-CPU entry, mod level 01 (36 bytes)
 *   LINUXKRNL.NET          kernel NET_SUM record (96 bytes)
 *   LNXAPPL.HDR            12-byte header of s390-tools LNXAPPL payloads
 *   LNXAPPL.1.0.FS         mon_fsstatd per-filesystem statvfs block
 *   LNXAPPL.2.0            mon_procd summary
 *   LNXAPPL.2.1            mon_procd per-task fixed part
 * Field names are the kernel's and s390-tools' member names (timestamp,
 * sync_count_1, pgpgin, ...).
 */
#ifndef ZD_APPL_H
#define ZD_APPL_H

#include "record/record.h"
#include "layout/layout.h"

#define ZD_APPL_HDR_LEN 52

enum zd_appl_kind {
        ZD_APPL_OTHER,     /* any other product id: kept opaque */
        ZD_APPL_LINUXKRNL, /* EBCDIC "LINUXKRNL" + record byte + "2601" + mod level */
        ZD_APPL_LNXAPPL,   /* ASCII "LNXAPPL" + applid + record + version/release/mod */
};

/* Kernel APPLDATA record numbers (product id byte 9). */
enum { ZD_LX_MEM = 1, ZD_LX_OS = 2, ZD_LX_NET = 3 };

/* What the data of a record is, by its product id (zd_appl_kind_name names each). */
enum zd_appl_payload {
        ZD_PAYLOAD_NONE, /* opaque: another product, or a record of one we do not map */
        ZD_PAYLOAD_MEM,
        ZD_PAYLOAD_OS,
        ZD_PAYLOAD_NET,
        ZD_PAYLOAD_FSSTATD,
        ZD_PAYLOAD_PROCD_SUM,
        ZD_PAYLOAD_PROCD_TASK,
};

struct zd_appl {
        int16_t dataof, dataln; /* CALDATOF / CALDATLN as found */
        char userid[9];         /* UTF-8, trimmed */
        uint8_t prodid[16];
        char prodid_text[40]; /* printable rendering for dumps */
        uint8_t status;
        enum zd_appl_kind kind;
        /* LINUXKRNL: recnum, modlvl_text ("00"/"01").  LNXAPPL: all binary fields. */
        uint16_t applid;
        uint8_t recnum;
        uint16_t version, release, modlvl;
        char modlvl_text[3];
        zd_view data; /* the application data, proven to lie inside the record */
};

/*
 * Parse the APPLDATA header of a domain 10 record.  CALDATOF and CALDATLN
 * are checked against the record, and the userid against the characters CP
 * allows in one; the error says which failed (a record with a bad userid
 * still has its data view, and its userid for messages).
 */
enum zd_err_kind zd_appl_parse(const struct zd_record *r, struct zd_appl *out);
/*
 * Whether u (converted, trimmed) is a userid CP could have stamped: only
 * CP's USERID_CHARACTERS, A-Z 0-9 @ # $ _ -, and not empty.
 */
bool zd_cp_userid(const char *u);

/* The sync counters of a kernel record agree (the guest was not mid-update). */
bool zd_lx_consistent(zd_view data);

/* Per-CPU entries of a kernel OS record, located through cpu_offset, per_cpu_size, nr_cpus. */
struct zd_lx_cpus {
        const struct zl_layout *entry; /* LINUXKRNL.OS.CPU00 or .CPU01 */
        uint32_t n;
        size_t off, step;
};
enum zd_err_kind zd_lx_os_cpus(const struct zd_appl *a, struct zd_lx_cpus *out);

/*
 * Staleness: a kernel record whose timestamp has not changed since the same
 * guest's previous sample of the same product id is not reported twice.
 */
struct zd_appl_tracker;
struct zd_appl_tracker *zd_appl_tracker_new(void);
void zd_appl_tracker_free(struct zd_appl_tracker *t);
/*
 * A guest chooses its product ids, CP its userid: each guest has
 * ZD_TRACK_PER_GUEST ids remembered, so one that invents ids cannot push
 * other guests' buffers out of the table.  Its records past that many are
 * ZD_TRACK_UNTRACKED: reported as new (hiding data would be worse), for it
 * alone.
 */
#define ZD_TRACK_PER_GUEST 256 /* monwriter's default max_bufs (255) and the kernel's three */
enum zd_track { ZD_TRACK_FRESH, ZD_TRACK_STALE, ZD_TRACK_UNTRACKED };
enum zd_track zd_appl_tracker_check(struct zd_appl_tracker *t, const struct zd_appl *a,
                                    uint64_t timestamp);

/* The payload layout of a parsed record (LINUXKRNL.MEM/OS/NET, LNXAPPL.HDR for
 * applids 1 and 2), or NULL when the record is kept opaque.  Short data still
 * gets its layout: zl_get() reports which fields lie outside. */
const struct zl_layout *zd_appl_layout(const struct zd_appl *a);
/* What a parsed record's data is (ZD_PAYLOAD_NONE: opaque). */
enum zd_appl_payload zd_appl_payload(const struct zd_appl *a);
/* "mem", "os", "net", "fsstatd", "procd.sum", "procd.task", or NULL (opaque). */
const char *zd_appl_kind_name(const struct zd_appl *a);

/* Entry i (0-based, i < c->n) of the per-CPU area, for zl_get(c->entry, ...). */
zd_view zd_lx_cpu_entry(const struct zd_lx_cpus *c, zd_view data, uint32_t i);
/* The first 8 bytes (TOD) of a kernel record, 0 if shorter. */
uint64_t zd_lx_timestamp(zd_view data);
/* avenrun fixed point (FSHIFT 11) to a load average. */
static inline double zd_lx_load(uint32_t avenrun)
{
        return avenrun / 2048.0;
}

/* The 12-byte header s390-tools puts before its LNXAPPL data (layout LNXAPPL.HDR). */
struct zd_lnx_hdr {
        uint64_t time_stamp; /* Unix seconds */
        uint16_t data_len, data_offset;
        zd_view data; /* [data_offset, data_offset + data_len), proven inside the payload */
};
enum zd_err_kind zd_lnx_hdr_parse(zd_view payload, struct zd_lnx_hdr *out);

/* A length-prefixed string (u16 length, bytes) at *off of v; advances *off. */
bool zd_lnx_string(zd_view v, size_t *off, zd_view *out);

/* mon_fsstatd: name, mount point, type, then the 72-byte statvfs block (LNXAPPL.1.0.FS). */
#define ZD_FS_STATVFS_LEN 72
#define ZD_FS_NAME_MAX    1800
#define ZD_FS_DIR_MAX     1800
#define ZD_FS_TYPE_MAX    256
struct zd_fs_entry {
        zd_view name, dir, type, statvfs;
};
/*
 * Take the next entry from *rest (initially the header's data) and advance
 * it.  Returns 1 with an entry, 0 at the end, -1 on damage (*err says why).
 */
int zd_fs_next(zd_view *rest, struct zd_fs_entry *out, enum zd_err_kind *err);

/* mon_procd per-task record: 111-byte fixed part (LNXAPPL.2.1) then six strings. */
#define ZD_PROCD_TASK_LEN 111
#define ZD_PROCD_SUM_LEN  166
enum {
        ZD_PROCD_RUSER,
        ZD_PROCD_EUSER,
        ZD_PROCD_EGROUP,
        ZD_PROCD_WCHAN,
        ZD_PROCD_CMD,
        ZD_PROCD_CMDLINE,
        ZD_PROCD_NSTR
};
extern const char *const zd_procd_str_names[ZD_PROCD_NSTR]; /* "ruser", "euser", ... */
struct zd_procd_task {
        zd_view fixed;
        zd_view str[ZD_PROCD_NSTR];
};
enum zd_err_kind zd_procd_task_parse(zd_view data, struct zd_procd_task *out);

/*
 * Everything zvmmon's dump and stat need to know about one domain 10
 * record, with the checks applied in one place: header parse, payload
 * length, sync counters, staleness.  Errors are reported on d (counted) unless
 * d is NULL; t may be NULL (then nothing is stale).
 */
struct zd_appl_info {
        enum zd_err_kind err; /* header unusable (ZD_E_APPL_*), else ZD_E_NONE */
        struct zd_appl a;
        enum zd_appl_payload payload;   /* zd_appl_payload's, asked once here */
        const struct zl_layout *layout; /* payload layout, NULL when opaque */
        bool opaque;                    /* unknown product id or record: size and hex only */
        bool truncated;                 /* data shorter than its layout (reported) */
        bool sync_bad;                  /* kernel record caught mid-update: dropped (reported) */
        bool stale;                     /* same guest, product id and timestamp as before */
        uint64_t timestamp;             /* kernel TOD, or LNXAPPL Unix seconds; 0 if none */
};
void zd_appl_examine(struct zd_decoder *d, struct zd_appl_tracker *t, const struct zd_record *r,
                     struct zd_appl_info *out);

#endif
