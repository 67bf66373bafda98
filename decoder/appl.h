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

#include "decoder.h"
#include "layout.h"

#define ZD_APPL_HDR_LEN 52

enum zd_appl_kind {
	ZD_APPL_OTHER,     /* any other product id: kept opaque */
	ZD_APPL_LINUXKRNL, /* EBCDIC "LINUXKRNL" + record byte + "2601" + mod level */
	ZD_APPL_LNXAPPL,   /* ASCII "LNXAPPL" + applid + record + version/release/mod */
};

/* Kernel APPLDATA record numbers (product id byte 9). */
enum { ZD_LX_MEM = 1, ZD_LX_OS = 2, ZD_LX_NET = 3 };

struct zd_appl {
	int16_t dataof, dataln; /* CALDATOF / CALDATLN as found */
	char userid[9];         /* UTF-8, trimmed */
	uint8_t prodid[16];
	char prodid_text[40];   /* printable rendering for dumps */
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
 * are checked against the record; the error says which lied.
 */
enum zd_err_kind zd_appl_parse(const struct zd_record *r, struct zd_appl *out);

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
/* true if the record is new; false if stale (same userid, product id and timestamp). */
bool zd_appl_tracker_fresh(struct zd_appl_tracker *t, const struct zd_appl *a, uint64_t timestamp);

#endif
