/* SPDX-License-Identifier: MIT */
/*
 * The write_zvm record format: what the write_zvm collectd plugin puts in a
 * LNXAPPL application monitor buffer through /dev/monwriter, and what the zvm
 * read plugin and zvmmon decode from domain 10.  doc/write_zvm.md documents
 * it byte by byte; the layouts in lay_wzvm.c ("WZVM.HDR", "WZVM.ENTRY",
 * "WZVM.TRAILER") are the single declaration both sides use.
 *
 * A record is self-describing: a 96-byte header (eyecatcher "WZVM", format
 * version, TOD stamp, sync_count_1, host name), entries carrying the full
 * collectd identifier, DS type and value, zero fill, and sync_count_2 in the
 * last 4 bytes.  sync_count_2 sits at the end, not next to sync_count_1,
 * because monwriter copies the buffer front to back: only a counter written
 * after every entry proves that a copy z/VM took in between saw no mix of old
 * and new bytes (the kernel's "count 1 before, count 2 after" discipline).
 */
#ifndef ZD_WZVM_FORMAT_H
#define ZD_WZVM_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/view.h"

#define WZVM_EYECATCHER "WZVM" /* ASCII 57 5A 56 4D */
#define WZVM_VERSION    1
#define WZVM_HDR_LEN    96
#define WZVM_ENTRY_FIX  24 /* fixed part of an entry, before the five names */
#define WZVM_TRAILER    4  /* sync_count_2 */
#define WZVM_NAME_MAX   63 /* per name, so that a decoder's 64-byte fields hold it */
#define WZVM_HOST_MAX   63

/* monwriter limits (doc/facts/kernel-drivers.md 2.1, 2.2). */
#define WZVM_MW_HDR_LEN     13
#define WZVM_MW_MAX_DATALEN 4010
/* Every record is this long: sizes never change, so no STOP/START to resize. */
#define WZVM_RECORD_LEN WZVM_MW_MAX_DATALEN

/*
 * Product-id defaults.  ApplicationID 0x7A76 (ASCII "zv") keeps well clear of
 * the small numbers s390-tools uses (1 mon_fsstatd, 2 mon_procd) and of any
 * sequentially assigned number near them; sites with an IBM-assigned number
 * configure it.  Readers recognise records by the eyecatcher, not the applid.
 */
#define WZVM_DEFAULT_APPLID 0x7A76
#define WZVM_RECORD_NUM     1 /* product-id byte 9: "collectd values" */
#define WZVM_PID_VERSION    WZVM_VERSION
#define WZVM_PID_RELEASE    0

/* mon_function values of struct monwrite_hdr. */
enum { WZVM_MW_START = 0, WZVM_MW_STOP = 1, WZVM_MW_EVENT = 2, WZVM_MW_CONFIG = 3 };

/* DS types, numbered as collectd's DS_TYPE_* constants. */
enum wzvm_ds { WZVM_DS_COUNTER = 0, WZVM_DS_GAUGE = 1, WZVM_DS_DERIVE = 2, WZVM_DS_ABSOLUTE = 3 };
#define WZVM_F_RATE 0x01 /* GAUGE holding the per-second rate of a cumulative source */

struct wzvm_hdr {
        uint8_t version, flags;
        uint16_t hdr_len;
        uint64_t timestamp; /* TOD when the record was built */
        uint32_t sync_count_1, sync_count_2;
        uint16_t nentries;
        uint16_t used; /* header + entries; zero fill follows */
        uint32_t interval_ms;
        uint16_t rec_index, rec_total;
        char host[WZVM_HOST_MAX + 1];
};

struct wzvm_entry {
        uint8_t ds_type, flags, ds_index, ds_count;
        uint64_t time;  /* TOD of the value (collectd's vl->time) */
        uint64_t value; /* raw 8 bytes: IEEE double (GAUGE), int64 (DERIVE), uint64 */
        char plugin[WZVM_NAME_MAX + 1];
        char plugin_instance[WZVM_NAME_MAX + 1];
        char type[WZVM_NAME_MAX + 1];
        char type_instance[WZVM_NAME_MAX + 1];
        char ds_name[WZVM_NAME_MAX + 1];
};

/* Doubles travel as their IEEE 754 bit pattern, big-endian like everything else. */
uint64_t wzvm_double_bits(double d);
double wzvm_bits_double(uint64_t u);

/* Bytes an entry takes; 0 if a name is longer than WZVM_NAME_MAX or not printable. */
size_t wzvm_entry_size(const struct wzvm_entry *e);
/* A name a decoder may hand on: printable ASCII, no '/', at most WZVM_NAME_MAX. */
bool wzvm_name_ok(const char *s, size_t n, bool may_be_empty);

/* --- struct monwrite_hdr (13 bytes) --- */
struct wzvm_mwhdr {
        uint8_t function;
        uint16_t applid;
        uint8_t record_num;
        uint16_t version, release, mod_level;
        uint16_t datalen;
        uint8_t hdrlen;
};
void wzvm_mwhdr_put(uint8_t out[WZVM_MW_HDR_LEN], const struct wzvm_mwhdr *h);
/* The field the driver would reject (EINVAL), or NULL if the header is valid. */
const char *wzvm_mwhdr_invalid(const struct wzvm_mwhdr *h);

/* --- encoder --- */
struct wzvm_enc {
        uint8_t *p;
        size_t len; /* the record length (WZVM_RECORD_LEN in the plugin) */
        size_t used;
        uint16_t n;
};
/* Zero the buffer and reserve the header; false if len is below header + trailer. */
bool wzvm_enc_begin(struct wzvm_enc *enc, uint8_t *buf, size_t len);
/* Append an entry; false (and nothing written) if it does not fit or is invalid. */
bool wzvm_enc_add(struct wzvm_enc *enc, const struct wzvm_entry *e);
/* Write header (nentries, used, hdr_len, version from enc) and the trailer. */
bool wzvm_enc_finish(struct wzvm_enc *enc, const struct wzvm_hdr *h);

/* --- decoder --- */
/* Does data start with the eyecatcher?  (Any LNXAPPL record can be offered.) */
bool wzvm_is_record(zd_view data);
/* Parse and check header and trailer: ZD_E_NONE or the reason. */
enum zd_err_kind wzvm_dec_hdr(zd_view data, struct wzvm_hdr *h);
struct wzvm_iter {
        zd_view data;
        size_t off, end;
        uint16_t left;
};
void wzvm_iter_init(struct wzvm_iter *it, zd_view data, const struct wzvm_hdr *h);
/* 1: *e filled; 0: no more entries; -1: *err says why the rest is unusable. */
int wzvm_dec_next(struct wzvm_iter *it, struct wzvm_entry *e, enum zd_err_kind *err);

#endif
