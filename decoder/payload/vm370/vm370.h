/* SPDX-License-Identifier: MIT */
/*
 * VM/370 monitor tape records as a payload family: the names of MONITOR
 * CALL classes and codes and the layout ("VM370.*", lay_vm370.c) each is
 * read with.  The 12-byte MNH header and the tape's time base belong to the
 * record layer (record/vm370_hdr.h), since the VB and tape sources need them.
 */
#ifndef ZD_VM370_H
#define ZD_VM370_H

#include "layout/layout.h"
#include "record/vm370_hdr.h"

enum {
        ZD_VM370_PERFORM = 0,
        ZD_VM370_RESPONSE = 1,
        ZD_VM370_SCHEDULE = 2,
        ZD_VM370_USER = 4,
        ZD_VM370_INSTSIM = 5,
        ZD_VM370_DASTAP = 6,
        ZD_VM370_SEEKS = 7,
        ZD_VM370_SYSPROF = 8,
};

/* "PERFORM", "USER", ...; NULL for classes VM/370 did not implement. */
const char *zd_vm370_class_name(unsigned cls);
/* "Interval statistics", "Tape header record", ...; NULL if not known. */
const char *zd_vm370_code_name(unsigned cls, unsigned code);
/* The layout for a record of this class, code and length; NULL: dump raw. */
const struct zl_layout *zd_vm370_layout(unsigned cls, unsigned code, size_t len);

/*
 * The entries a record repeats after its count (class 6 codes 0 and 1:
 * device packages; class 8 code 2: device I/O counts): their layout, where
 * the first starts, their size, the count the record declares and how many
 * of them the record holds (n <= declared: a record cut short holds fewer).
 * Entry i is the view of size bytes at first + i * size.
 */
struct zd_vm370_entries {
        const struct zl_layout *l;
        size_t first, size, declared, n;
};
/* False for a record without repeated entries, or too short for its count. */
bool zd_vm370_entries(unsigned cls, unsigned code, zd_view rec, struct zd_vm370_entries *out);

#endif
