/* SPDX-License-Identifier: MIT */
/*
 * Names of domains and records: what zvmmon prints and the docs list, and
 * what IBM's pages say of each record (its kind, the levels whose page was
 * read, its length per level).  Field layouts live in layout.h; how far
 * they declare a record is zr_cover's to say.
 */
#ifndef ZD_REGISTRY_H
#define ZD_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layout/layout.h"

enum { ZR_SAMPLE = 1, ZR_EVENT = 2, ZR_CONFIG = 4 };

/* What a record's name and number rest on. */
enum zr_basis {
        ZR_PAGE = 1,  /* IBM's own page for the record was read */
        ZR_NAMED = 2, /* named by IBM elsewhere (the 7.5 index, another record's page) */
        ZR_ZPMD = 3,  /* zpmd's z/VM 5.3 transcription alone */
};

/* IBM's structure length for a level; var: a variable part follows (IBM prints "N+"). */
struct zr_len {
        const char *level; /* "7.3"; NULL ends the list */
        uint16_t len;
        bool var;
};
#define ZR_NLENS 4

struct zr_record {
        int domain, record;
        const char *dsect;  /* "SYTPRP" */
        const char *name;   /* IBM's title, "Processor data (per processor)" */
        unsigned types;     /* ZR_SAMPLE | ZR_EVENT | ZR_CONFIG; 0: not known */
        uint8_t basis;      /* enum zr_basis */
        const char *levels; /* z/VM levels whose page for the record was read; NULL: none */
        struct zr_len lens[ZR_NLENS]; /* oldest level first, as far as pages gave it */
        const char *source;           /* the page the name and kind were read on */
};

const char *zr_domain_name(unsigned domain); /* "System", or NULL above 11 */
const struct zr_record *zr_lookup(unsigned domain, unsigned record); /* NULL if unknown */
/* Every known record, in domain and record order; NULL past the end. */
const struct zr_record *zr_record_at(size_t i);
/* The length IBM gives for the newest level known (0: none), and whether a variable part follows.
 */
unsigned zr_newest_len(const struct zr_record *r, bool *var);
const char *zr_basis_name(enum zr_basis b); /* "page", "named", "zpmd" */

/*
 * How far the layouts declare a record (reg_cover.c).  Complete: the
 * layout chosen for the longest record is chosen at IBM's newest length,
 * and its fields, every one VERIFIED, reserved ones included, cover every
 * byte from the header to that length.  Partial: any other layout, be it
 * a page's readable head, an older level's, or one resting on hints.
 */
enum zr_cover { ZR_NONE, ZR_PARTIAL, ZR_COMPLETE };
struct zr_coverage {
        enum zr_cover cover;
        const struct zl_layout *l; /* the layout chosen for the longest record, or NULL */
        unsigned nfields;          /* its fields, reserved ones left out */
        unsigned nhints;           /* of them, not VERIFIED */
        unsigned extent;           /* where its last field ends */
};
void zr_cover(const struct zr_record *r, struct zr_coverage *out);
const char *zr_cover_name(enum zr_cover c); /* "complete", "partial", "none" */

#endif
