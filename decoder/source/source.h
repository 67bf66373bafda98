/* SPDX-License-Identifier: MIT */
/*
 * Sources: byte streams of a known or detected format, fed in pieces of any
 * size.  Each format is one src_*.c file with a zd_source_ops entry in
 * src_registry.c; detection asks each in turn.
 */
#ifndef ZD_SOURCE_H
#define ZD_SOURCE_H

#include "record/record.h"

enum zd_format {
        ZD_FMT_UNKNOWN = 0,
        ZD_FMT_DATASET,   /* one raw monreader data set: [MCE][records]... */
        ZD_FMT_CAPTURE,   /* zvmmon capture: data sets as read from /dev/monreader */
        ZD_FMT_MONWRITE,  /* CMS MONWRITE file: 4 KB control records + page images */
        ZD_FMT_VB,        /* variable-record file: RDW (+ BDW) before each record */
        ZD_FMT_TAPE,      /* VM/370 monitor tape (VB blocks) */
        ZD_FMT_AWSTAPE,   /* VM/370 monitor tape as an AWSTAPE image */
        ZD_FMT_MONWRITER, /* what a program wrote to /dev/monwriter: 13-byte headers + data */
        ZD_FMT__COUNT
};

struct zd_source_ops {
        enum zd_format fmt;
        const char *name; /* "monwrite", "capture", ... as users type it */
        const char *desc;
        /* Confidence 0..100 that head (the first bytes, up to 64 KB) is this format. */
        int (*detect)(zd_view head);
        void *(*create)(struct zd_decoder *d);
        /* Consume bytes; keeps what it needs across calls.  0, or -1 on a fatal error. */
        int (*feed)(void *st, zd_view bytes);
        /* End of input: decode what is left, report truncation. */
        int (*finish)(void *st);
        void (*destroy)(void *st);
};

/* All formats, in detection order (src_registry.c). */
extern const struct zd_source_ops *const zd_sources[];
const struct zd_source_ops *zd_source_by_fmt(enum zd_format fmt);
const struct zd_source_ops *zd_source_by_name(const char *name);
/* Best match for head, or NULL. */
const struct zd_source_ops *zd_source_detect(zd_view head);

/*
 * A stream: a decoder plus one source.  With ZD_FMT_UNKNOWN the format is
 * detected from the first bytes fed (buffered until 64 KB or finish).
 */
struct zd_stream;
struct zd_stream *zd_stream_new(enum zd_format fmt, const struct zd_handler *h);
int zd_stream_feed(struct zd_stream *s, const void *buf, size_t len);
int zd_stream_finish(struct zd_stream *s);
enum zd_format zd_stream_format(const struct zd_stream *s);
const struct zd_stats *zd_stream_stats(const struct zd_stream *s);
void zd_stream_free(struct zd_stream *s);

/*
 * Capture files (src_capture.c), written by `zvmmon capture` and the
 * simulator, replayed by zvmmon and the plugin's File option.  Big-endian:
 *   file header, 16 bytes: "ZVMCAP\r\n", u16 version (1), u16 header length
 *     (16), u32 flags (0)
 *   per data set, a 24-byte frame header then the set's bytes:
 *     u32 "DSET" (0x44534554), u32 length, u64 capture time (Unix
 *     microseconds), u32 status (bit 0: EOVERFLOW was reported after this
 *     set), u32 reserved (0)
 */
#define ZD_CAP_MAGIC       "ZVMCAP\r\n"
#define ZD_CAP_VERSION     1
#define ZD_CAP_HDR_LEN     16
#define ZD_CAP_FRAME_MAGIC UINT32_C(0x44534554)
#define ZD_CAP_FRAME_LEN   24
#define ZD_CAP_OVERFLOW    UINT32_C(1)
void zd_capture_file_header(uint8_t out[ZD_CAP_HDR_LEN]);
void zd_capture_frame_header(uint8_t out[ZD_CAP_FRAME_LEN], uint32_t len, int64_t unix_us,
                             uint32_t status);

/*
 * MONWRITE (src_monwrite.c).  A control record is 4096 bytes: a 40-byte IUCV
 * message-pending buffer (MCA start at +12, MCA end at +16), then up to 338
 * 12-byte control-area entries shaped like MCEs.
 */
#define ZD_MW_BLOCK       4096u
#define ZD_MW_EXTBF_LEN   40
#define ZD_MW_MAX_ENTRIES 338
/*
 * The page-image assumption, in one place: after a control record come the
 * images of every 4 KB DCSS page that its entries' ranges touch, one image
 * per page, each page once, in ascending address order.  IBM does not
 * document this (doc/facts/monitor-stream.md 5.2, inferred); the decoder, the
 * simulator's MONWRITE output and the tests all go through this function.
 * Fills pages[] (up to max) with the page numbers (address >> 12) in file
 * order and returns how many there are, or -1 if more than max.
 */
int zd_mw_pages(const struct zd_mce *entries, size_t n, uint32_t *pages, size_t max);

/*
 * monwriter output (src_monwriter.c): the struct monwrite_hdr stream a
 * program writes to /dev/monwriter (doc/facts/kernel-drivers.md 2), big-endian:
 *   u8 mon_function (0 START_INTERVAL, 1 STOP, 2 GEN_EVENT, 3 START_CONFIG),
 *   u16 applid, u8 record_num, u16 version, u16 release, u16 mod_level,
 *   u16 datalen, u8 hdrlen (13); then datalen bytes (none after a STOP).
 * Records come out as CP would build them, under this userid, with TOD 0.
 */
#define ZD_MWR_HDR_LEN     13
#define ZD_MWR_MAX_DATALEN 4010
#define ZD_MWR_MAX_BUFS    255 /* the driver's default max_bufs */
#define ZD_MWR_USERID      "MONWRITR"

#endif
