/* SPDX-License-Identifier: MIT */
/*
 * Record layouts, declared once as data.
 *
 * A layout is a table of fields (name, offset, length, type, provenance,
 * unit).  The same table serves the decoder (zl_get*), the JSON dump
 * (zl_foreach), the simulator (zl_put*) and the documentation (zvmmon
 * layouts).  CP records are keyed by (domain, record) and selected by record
 * length: IBM only appends fields and turns old ones into reserved space, so
 * the layout with the largest min_len not above the record's length wins.
 * Payload layouts (Linux APPLDATA, LNXAPPL, write_zvm) are keyed by id.
 *
 * Offsets of CP layouts count from the start of the record (header
 * included), as IBM's pages do; payload offsets count from the payload start.
 */
#ifndef ZD_LAYOUT_H
#define ZD_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/ebcdic.h"
#include "base/view.h"

enum zl_type {
        ZL_UINT,   /* unsigned big-endian, 1..8 bytes */
        ZL_SINT,   /* signed big-endian, 1..8 bytes */
        ZL_TOD,    /* 8-byte TOD clock value */
        ZL_TIMER,  /* 8-byte CPU timer, units of 1/4096 us, counting up */
        ZL_TIMERD, /* 8-byte CPU timer counting down */
        ZL_EBCDIC, /* EBCDIC text, blank padded */
        ZL_ASCII,  /* ASCII text, NUL or blank padded */
        ZL_BITS,   /* flags, shown in hex */
        ZL_HEX,    /* opaque bytes, shown in hex */
        ZL_RSVD,   /* reserved: documented, never decoded */
};

/* How sure we are of a field (the reference documents' tags). */
enum zl_prov {
        ZL_VERIFIED, /* seen on an IBM page, or in kernel / s390-tools source */
        ZL_HINT,     /* zpmd's z/VM 5.3 transcription only: must be proven at run time */
        ZL_INFERRED, /* reasoned from verified facts */
        ZL_UNCERTAIN /* decoded and dumped, never turned into a metric */
};

/* What a value means over time, for the metric layer and the docs. */
enum zl_kind {
        ZL_K_NONE,    /* identifiers, text, flags */
        ZL_K_GAUGE,   /* a level */
        ZL_K_COUNTER, /* cumulative; consumers take deltas */
};

struct zl_field {
        const char *name; /* IBM's field name where known, e.g. "SYTPRP_PFXUTIME" */
        uint16_t off, len;
        uint8_t type;       /* enum zl_type */
        uint8_t prov;       /* enum zl_prov */
        uint8_t kind;       /* enum zl_kind */
        const char *unit;   /* "us", "frames", "pages", "KB", "bytes", "count", ... or NULL */
        const char *source; /* citation: "IBM mon640 MRSYTPRP", "zpmd v53_records.h", ... */
        const char *desc;
};

struct zl_layout {
        const char *id;    /* "D0R2" for CP records, "LINUXKRNL.MEM" for payloads */
        const char *dsect; /* "SYTPRP" (CP), or a short name */
        int domain;        /* CP domain, or -1 for payload layouts */
        int record;        /* CP record number, or -1 */
        uint16_t min_len;  /* chosen for records (payloads) at least this long */
        const char *level; /* z/VM level or software version the layout was read from */
        const char *source;
        const struct zl_field *fields;
        size_t nfields;
        /*
         * NULL for the default reading of a record.  A name ("aligned") marks
         * another reading of the same bytes, chosen only when asked for by
         * that name (zl_find_cp_reading): where a source's offsets can be read
         * two ways and only the data can tell which one CP writes.
         */
        const char *reading;
};

#define ZL_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* What each lay_*.c file exports (and decoder/tables.c lists). */
struct zl_table {
        const struct zl_layout *l;
        size_t n;
};
#define ZL_TABLE(name, array) const struct zl_table zl_tab_##name = {array, ZL_COUNT(array)}
/*
 * Every built-in table, ending with NULL: for the layout layer's own files.
 * Defined above the layers (decoder/tables.c), since payload/ holds some of
 * the tables: the layer asks for the list and names none of them.
 */
extern const struct zl_table *const zl_builtin[];

struct zl_value {
        const struct zl_field *f;
        bool present; /* the field lies inside the record */
        uint64_t u;   /* ZL_UINT, ZL_TOD, ZL_TIMER*, ZL_BITS (first 8 bytes) */
        int64_t s;    /* ZL_SINT */
        zd_view raw;  /* the field's bytes */
};

/* The layout table: built-in layouts plus any loaded at run time. */
const struct zl_layout *zl_find_cp(int domain, int record, size_t rec_len);
/*
 * The same under a named reading: a layout of that reading wins over a
 * default one of the same min_len; records the reading does not concern get
 * their default layout.  NULL reading = zl_find_cp.  A LayoutFile layout
 * without a reading still wins ties, so a file pins a record whatever the
 * reading.
 */
const struct zl_layout *zl_find_cp_reading(int domain, int record, size_t rec_len,
                                           const char *reading);
const struct zl_layout *zl_find(const char *id, size_t len);
/* Every built-in and loaded layout, for docs and tests; NULL past the end. */
const struct zl_layout *zl_layout_at(size_t i);
/* Add layouts at run time (LayoutFile); they win over built-ins of the same key and min_len. */
bool zl_register(const struct zl_layout *l);
void zl_unregister_all(void);

const struct zl_field *zl_field(const struct zl_layout *l, const char *name);
/*
 * Changes whenever layouts are registered or dropped: a field pointer kept
 * from before (a reader that resolves its fields once) may point into a
 * table that is gone.
 */
size_t zl_generation(void);
/* Decode one field of rec (offsets relative to rec.p). */
bool zl_read(const struct zl_field *f, zd_view rec, struct zl_value *out);
/* By name: false if the layout has no such field or it is outside rec. */
bool zl_get(const struct zl_layout *l, zd_view rec, const char *name, struct zl_value *out);
bool zl_get_u64(const struct zl_layout *l, zd_view rec, const char *name, uint64_t *out);
/* The types whose value is an integer: bit (1 << type) set. */
#define ZL_INT_TYPES                                                                               \
        (1u << ZL_UINT | 1u << ZL_SINT | 1u << ZL_TOD | 1u << ZL_TIMER | 1u << ZL_TIMERD |         \
         1u << ZL_BITS)

/*
 * A field made ready for reading it in many records: the bound its record
 * must reach, where the 8 bytes that end with its integer end, and the mask
 * that keeps the integer's bytes.  A reader that resolves its fields once
 * (a metric module) reads each with one compare and one load, where
 * zl_read_u64 decides the field's type and width again for every record.
 */
struct zl_ref {
        uint64_t mask; /* 0 for a field that is not an integer: it reads as 0 */
        uint32_t need; /* off + len; UINT32_MAX for no field, which no record (64 KB) holds */
        uint32_t at;   /* off + min(len, 8) */
};
struct zl_ref zl_ref_make(const struct zl_field *f); /* f may be NULL */
/* The integer of a field that ends before byte 8 (near a payload's start); 0 outside rec. */
uint64_t zl_ref_slow(struct zl_ref r, zd_view rec);
/* What zl_read_u64 gives for the field r was made from, by r. */
static inline bool zl_ref_u64(struct zl_ref r, zd_view rec, uint64_t *out)
{
        if (r.need > rec.n)
                return false;
        *out = r.at >= 8 ? zd_uN_load8(rec.p + r.at - 8) & r.mask : zl_ref_slow(r, rec);
        return true;
}
/*
 * A field found before (zl_field): its integer (zl_read's u); false if f is
 * NULL or outside rec.  Made ready and read at once: which bytes make a
 * field's integer is zl_ref_make's to say.
 */
static inline bool zl_read_u64(const struct zl_field *f, zd_view rec, uint64_t *out)
{
        return zl_ref_u64(zl_ref_make(f), rec, out);
}
/* Text fields as UTF-8 (EBCDIC converted, trailing blanks trimmed). */
size_t zl_text(const struct zl_value *v, char *out, size_t outsz);
/* Every field of l in order (reserved ones skipped), present or not. */
void zl_foreach(const struct zl_layout *l, zd_view rec,
                void (*cb)(void *ctx, const struct zl_value *v), void *ctx);

/* Encoders (the simulator, test helpers): false if the field does not fit. */
bool zl_put(const struct zl_field *f, zd_wbuf b, uint64_t value);
bool zl_put_text(const struct zl_field *f, zd_wbuf b, const char *text);
bool zl_set(const struct zl_layout *l, zd_wbuf b, const char *name, uint64_t value);
bool zl_set_text(const struct zl_layout *l, zd_wbuf b, const char *name, const char *text);

const char *zl_type_name(enum zl_type t);
const char *zl_prov_name(enum zl_prov p);

#endif
