/* SPDX-License-Identifier: MIT */
/*
 * Names of domains and records: what zvmmon prints and the docs list.
 * Field layouts live in layout.h; this is only "what is D<d>R<r> called".
 */
#ifndef ZD_REGISTRY_H
#define ZD_REGISTRY_H

#include <stddef.h>

enum { ZR_SAMPLE = 1, ZR_EVENT = 2, ZR_CONFIG = 4 };

struct zr_record {
        int domain, record;
        const char *dsect; /* "SYTPRP" */
        const char *name;  /* "Processor data (per processor)" */
        unsigned types;    /* ZR_SAMPLE | ZR_EVENT | ZR_CONFIG */
        const char *source;
};

const char *zr_domain_name(unsigned domain); /* "System", or NULL above 11 */
const struct zr_record *zr_lookup(unsigned domain, unsigned record); /* NULL if unknown */
/* Every known record, in domain and record order; NULL past the end. */
const struct zr_record *zr_record_at(size_t i);

#endif
