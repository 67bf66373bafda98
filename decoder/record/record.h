/* SPDX-License-Identifier: MIT */
/*
 * The record layer (decoder/README.md lists the layers): data sets
 * ([MCE][record set] pairs, set_*.c), 4 KB frames and records (20-byte
 * headers, End-of-Frame, Interval End, rec_*.c).  The sources above hand
 * their bytes to zd_decode_dataset, zd_walk_recset or zd_deliver; the
 * consumer registers a zd_handler and gets one callback per record.
 * Errors are reported, counted and never fatal.  Nothing here knows about
 * collectd.
 */
#ifndef ZD_DECODER_H
#define ZD_DECODER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/view.h"

#define ZD_HDR_LEN    20
#define ZD_FRAME_SIZE 4096u
#define ZD_MCE_LEN    12
#define ZD_MAX_DOMAIN 11
#define ZD_NDOMAINS   16  /* stats slots: 0..15, anything above counted as unknown */
#define ZD_NRECSLOTS  128 /* record numbers 0..126 per domain; 127 = "127 or above" */

/* Monitor control element type bytes (EBCDIC 'S' and 'E'). */
#define ZD_MCE_SAMPLE 0xE2
#define ZD_MCE_EVENT  0xC5

/* Domain 1 control records the walker itself acts on. */
#define ZD_D1_INTERVAL_END 11
#define ZD_D1_END_OF_FRAME 13

/* Where a record (or an error) was found in its input. */
struct zd_pos {
        uint64_t offset; /* byte offset in the input stream (file, capture, device) */
        uint64_t set;    /* data set (monreader) or control-record group (MONWRITE), from 0 */
        uint32_t mce;    /* MCE index within the set */
        uint32_t dcss;   /* DCSS address of the record (MCE-based sources) */
        uint64_t block;  /* 4 KB block of a MONWRITE file, or VB/tape block, else 0 */
};

/*
 * Record families.  Everything z/VM writes is ZD_FAM_CP (the 20-byte MRHDR).
 * VM/370 monitor tapes (src_tape.c, src_awstape.c; vm370.h) carry 12-byte
 * MNH headers instead: their records come as ZD_FAM_VM370 with the MONITOR
 * CALL class in domain and the code in number.  Zero is CP, so sources that
 * never set the field stay correct.
 */
enum zd_family { ZD_FAM_CP = 0, ZD_FAM_VM370 = 1 };

/* A record, valid only during the callback. */
struct zd_record {
        struct zd_pos pos;
        uint8_t domain;
        uint16_t number;
        uint64_t tod;
        char kind;      /* 'S' sample, 'E' event (from the MCE), 0 where the source has none */
        zd_view rec;    /* whole record, header included (rec.n == header length) */
        zd_view body;   /* record-specific data after the header (20 bytes CP, 12 VM/370) */
        uint8_t family; /* enum zd_family */
};

struct zd_error {
        enum zd_err_kind kind;
        struct zd_pos pos;
        char msg[192];
};

struct zd_stats {
        uint64_t sets;      /* data sets / MONWRITE groups decoded */
        uint64_t mces;      /* MCEs (control-area entries) walked */
        uint64_t records;   /* records delivered */
        uint64_t bytes;     /* input bytes consumed */
        uint64_t frames;    /* End-of-Frame records seen */
        uint64_t intervals; /* Interval End records seen */
        uint64_t samples, events;
        uint64_t by_rec[ZD_NDOMAINS][ZD_NRECSLOTS];
        uint64_t unknown_domain;
        uint64_t errors[ZD_E__COUNT];
        uint64_t first_tod, last_tod; /* 0 until a record with a nonzero TOD is seen */
        /* VM/370 tapes: records by MONITOR CALL class and code (127 = 127 or above). */
        uint64_t by_vm370[ZD_NDOMAINS][ZD_NRECSLOTS];
        uint64_t tapemarks; /* AWSTAPE tape marks */
        uint64_t blocks;    /* VB / tape blocks */
};

struct zd_handler {
        void *ctx;
        /* Every valid record, End-of-Frame and Interval End included. */
        void (*record)(void *ctx, const struct zd_record *r);
        void (*error)(void *ctx, const struct zd_error *e);
        /* An Interval End record closed a sample interval (after record()). */
        void (*interval_end)(void *ctx, const struct zd_record *r);
};

/* The decoder state shared by every source: handler, statistics. */
struct zd_decoder {
        struct zd_handler h;
        struct zd_stats st;
};

void zd_decoder_init(struct zd_decoder *d, const struct zd_handler *h);
uint64_t zd_stats_errors(const struct zd_stats *st);
uint64_t zd_stats_count(const struct zd_stats *st, unsigned domain, unsigned record);

/* Report an error: counted in stats, passed to the handler. */
void zd_report(struct zd_decoder *d, enum zd_err_kind k, const struct zd_pos *pos, const char *fmt,
               ...) __attribute__((format(printf, 4, 5)));

/* The 20-byte record header (rec_header.c). */
struct zd_hdr {
        uint16_t len;
        uint16_t zeros;
        uint8_t domain;
        uint16_t number;
        uint64_t tod;
};
/* Parse the header at the start of v; ZD_E_NONE or the reason it is unusable. */
enum zd_err_kind zd_hdr_parse(zd_view v, struct zd_hdr *h);

/*
 * Walk one record set (rec_walk.c).  The bytes of v sit at DCSS addresses
 * dcss_start.. so that End-of-Frame can jump to the next 4 KB boundary in
 * DCSS terms.  kind is the MCE type ('S'/'E').  base gives the position of
 * v[0].  Returns the number of records delivered.
 */
size_t zd_walk_recset(struct zd_decoder *d, zd_view v, uint32_t dcss_start, char kind,
                      const struct zd_pos *base);

/*
 * Deliver one record found by a source (rec_walk.c): count it in the stats,
 * call the handler, and for CP records act on End-of-Frame and Interval End
 * (frames/intervals counted, interval_end called).  Sources that find
 * records one by one (VB files, tapes) use this; the frame walker does too.
 */
void zd_deliver(struct zd_decoder *d, const struct zd_record *r);

/* A 12-byte monitor control element (set_mce.c). */
struct zd_mce {
        uint8_t type;
        uint8_t dom0_7, dom8_15;
        uint32_t start, end; /* end = address of the last byte */
};
enum zd_err_kind zd_mce_parse(zd_view v, struct zd_mce *m);
/*
 * Bytes in the MCE's range (start <= end).  64 bits: 0x00000000-0xFFFFFFFF
 * is 2^32 bytes, which wraps to 0 in a 32-bit size_t; compare with the bytes
 * present before narrowing.
 */
static inline uint64_t zd_mce_bytes(const struct zd_mce *m)
{
        return (uint64_t)m->end - m->start + 1;
}
/* Is domain d's bit set in the MCE's two domain bytes?  (MSB of byte 1 = domain 0) */
bool zd_mce_has_domain(const struct zd_mce *m, unsigned domain);

/*
 * Decode one data set exactly as /dev/monreader delivers it between two
 * 0-byte reads: one or more [MCE][record set] pairs (set_dataset.c).
 * Returns the number of records delivered.
 */
size_t zd_decode_dataset(struct zd_decoder *d, zd_view set, uint64_t set_index, uint64_t offset);
/*
 * Was set cut short: does it hold sample data whose last frame has no
 * Interval End?  CP ends every sample set with one (doc/facts/monitor-stream.md
 * 3.1); monreader hands over less when its checks refuse a later control
 * element.  Looks at the MCEs and the last frame only, not at every record.
 */
bool zd_dataset_sample_cut(zd_view set);

#endif
