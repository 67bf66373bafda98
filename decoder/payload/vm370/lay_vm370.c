/* SPDX-License-Identifier: MIT */
/*
 * VM/370 Monitor tape records (vm370.h).  Offsets count from the record
 * start, the 12-byte MNH header included, so a field at displacement X in
 * IBM's DSECT sits at 12 + X here.
 *
 * Sources:
 *   SPG   VM/370 System Programmer's Guide Release 6, Appendix C, pp. 351
 *         and 358 (the copy consulted is a scan, partly unreadable;
 *         doc/facts/monitor-stream.md 8.2).  Gives order, sizes, CP
 *         variable and DSECT names.
 *   DA    VM/370 Release 6 Data Areas and Control Block Logic (Mar 1979),
 *         p. 46-47: DSECTs MN097, MN098, MN099 with hex displacements.
 *   VMSP  VM/SP Release 3 System Programmer's Guide (Aug 1983), Appendix B
 *         p. 543: the same records, class 0, codes 97-99, later extended.
 * Where the scan is unreadable and no other page settles a point, the
 * field is ZL_UNCERTAIN and its source says what is missing.
 */
#include "layout/layout.h"

#define SPG  "VM/370 R6 SPG App. C p.358 (seed 003)"
#define SPGH "VM/370 R6 SPG App. C p.351 (seed 003)"
#define DA97 "VM/370 R6 SPG App. C p.358 (seed 003); displacements from VM/370 R6 DA&CBL p.46 MN097"
#define DA99 "VM/370 R6 SPG App. C p.358 (seed 003); displacements from VM/370 R6 DA&CBL p.47 MN099"
#define TIMES                                                                                      \
        "VM/370 R6 SPG App. C p.358 (seed 003): size 8; the format footnote ('See ... for field "  \
        "format definition') is unreadable in the scan"
#define TAIL                                                                                       \
        "VM/370 R6 SPG App. C p.358 (seed 003): these three rows are scanned out of the table's "  \
        "order; VM/SP R3 lists 'pages swapped from the flush list' first.  Order uncertain"

#define F(name, off, len, type, prov, kind, unit, src, desc)                                       \
        {                                                                                          \
                name, off, len, type, prov, kind, unit, src, desc                                  \
        }

/* clang-format off */
static const struct zl_field mnh_fields[] = {
    F("MNHRECSZ", 0, 2, ZL_UINT, ZL_VERIFIED, ZL_K_NONE, "bytes", SPGH, "total bytes in record (the standard V-format record descriptor word)"),
    F("*",        2, 2, ZL_RSVD, ZL_VERIFIED, ZL_K_NONE, NULL,    SPGH, "zeros (standard V format record)"),
    F("MNHCLASS", 4, 1, ZL_UINT, ZL_VERIFIED, ZL_K_NONE, NULL,    SPGH, "MONITOR CALL class number"),
    F("MNHCODE",  5, 2, ZL_UINT, ZL_VERIFIED, ZL_K_NONE, NULL,    SPGH, "MONITOR CALL code number"),
    F("MNHTOD",   7, 5, ZL_HEX,  ZL_VERIFIED, ZL_K_NONE, NULL,    SPGH, "time of day: TOD clock bytes 1-5 (leftmost byte and rightmost 2 bytes dropped, " "16-microsecond resolution)"),
};
/* clang-format on */

/* clang-format off */
static const struct zl_field hdr_fields[] = {
    F("MN097CPU", 12, 8, ZL_HEX,    ZL_VERIFIED, ZL_K_NONE,  NULL, DA97, "CPU serial/model number (CPUID: version, 3-byte serial, 2-byte model, MCEL length)"),
    F("MN097LEV", 20, 8, ZL_EBCDIC, ZL_VERIFIED, ZL_K_NONE,  NULL, DA97, "software version number (program level change, DMKCPEID)"),
    F("MN097DAT", 28, 8, ZL_EBCDIC, ZL_VERIFIED, ZL_K_NONE,  NULL, DA97, "date of the data collection session"),
    F("MN097TIM", 36, 8, ZL_EBCDIC, ZL_VERIFIED, ZL_K_NONE,  NULL, DA97, "time of the data collection session"),
    F("MN097UID", 44, 8, ZL_EBCDIC, ZL_VERIFIED, ZL_K_NONE,  NULL, DA97, "userid of the monitor controller (who entered MONITOR START)"),
    F("MN097CR8", 52, 4, ZL_BITS,   ZL_VERIFIED, ZL_K_NONE,  NULL, DA97, "control register 8: mask of enabled MONITOR CALL classes (bit 16 + class)"),
    F("MN097NUC", 56, 4, ZL_UINT,   ZL_VERIFIED, ZL_K_GAUGE, NULL, DA97, "size of the CP nucleus (derived by CP; unit not stated)"),
    F("MN097FSS", 60, 4, ZL_UINT,   ZL_VERIFIED, ZL_K_GAUGE, NULL, DA97, "size of the free storage (FREE/FRET) pools (unit not stated)"),
    F("MN097DPA", 64, 4, ZL_UINT,   ZL_VERIFIED, ZL_K_GAUGE, NULL, DA97, "size of the dynamic paging area (unit not stated)"),
    F("MN097TTS", 68, 4, ZL_UINT,   ZL_VERIFIED, ZL_K_GAUGE, NULL, DA97, "size of the trace table (unit not stated)"),
    F("MN097VR",  72, 4, ZL_UINT,   ZL_VERIFIED, ZL_K_GAUGE, NULL, DA97, "size of the V=R area, if any (unit not stated)"),
    F("MN097CPL", 76, 2, ZL_HEX,    ZL_VERIFIED, ZL_K_NONE,  NULL, DA97, "logical address of the main processor (LPUADDR)"),
    F("MN097APL", 78, 2, ZL_HEX,    ZL_VERIFIED, ZL_K_NONE,  NULL, DA97, "logical address of the attached processor (LPAUDDRX)"),
};
/* clang-format on */

/* clang-format off */
static const struct zl_field trailer_fields[] = {
    F("MN098UID", 12, 8, ZL_EBCDIC, ZL_VERIFIED, ZL_K_NONE, NULL, SPG, "userid of the user shutting down the monitor"),
};
/* clang-format on */

/* clang-format off */
static const struct zl_field suspend_fields[] = {
    F("MN099TOD", 12, 5, ZL_HEX,  ZL_VERIFIED, ZL_K_NONE,    NULL,    DA99, "TOD clock at suspension (5 bytes, the MNHTOD format)"),
    F("MN099CNT", 17, 4, ZL_UINT, ZL_VERIFIED, ZL_K_COUNTER, "count", DA99, "count of write suspensions (all buffers full and queued for output)"),
};
/* clang-format on */

/* clang-format off */
static const struct zl_field c0c0_fields[] = {
    F("MN000WID", 12, 8, ZL_UINT, ZL_UNCERTAIN, ZL_K_COUNTER, NULL,    TIMES, "total main processor idle time (IDLEWAIT)"),
    F("MN000WPG", 20, 8, ZL_UINT, ZL_UNCERTAIN, ZL_K_COUNTER, NULL,    TIMES, "total main processor page wait (PAGEWAIT)"),
    F("MN000WIO", 28, 8, ZL_UINT, ZL_UNCERTAIN, ZL_K_COUNTER, NULL,    TIMES, "total main processor time in I/O wait (IONTWAIT)"),
    F("MN000PRB", 36, 8, ZL_UINT, ZL_UNCERTAIN, ZL_K_COUNTER, NULL,    TIMES, "total main processor problem-state time (PROBTIME)"),
    F("MN000PSI", 44, 4, ZL_UINT, ZL_VERIFIED,  ZL_K_COUNTER, "count", SPG,   "total paging start I/Os (DMKPAGPS)"),
    F("MN000CPA", 48, 4, ZL_UINT, ZL_VERIFIED,  ZL_K_COUNTER, "count", SPG,   "total page I/O requests (DMKPAGCC)"),
    F("MN000NFL", 52, 4, ZL_UINT, ZL_VERIFIED,  ZL_K_GAUGE,   "pages", SPG,   "current page frames on the free list (DMKPTRFN)"),
    F("MN000PSN", 56, 4, ZL_UINT, ZL_VERIFIED,  ZL_K_GAUGE,   "pages", SPG,   "pages being written, due for the free list (DMKPTRSW)"),
    F("MN000PRC", 60, 4, ZL_UINT, ZL_VERIFIED,  ZL_K_COUNTER, "pages", SPG,   "total pages flushed, but reclaimed (DMKPTRPR)"),
    F("MN000RPC", 64, 4, ZL_UINT, ZL_VERIFIED,  ZL_K_GAUGE,   "pages", SPG,   "number of reserved pages (DMKPTRRC)"),
    F("MN000SPC", 68, 4, ZL_UINT, ZL_VERIFIED,  ZL_K_GAUGE,   "pages", SPG,   "number of shared system pages (DMKPTRSC)"),
    F("MN000FLF", 72, 4, ZL_UINT, ZL_VERIFIED,  ZL_K_COUNTER, "count", SPG,   "total number of times the free list was empty (DMKPTRFO)"),
    F("MN000CPT", 76, 4, ZL_UINT, ZL_VERIFIED,  ZL_K_COUNTER, "count", SPG,   "total number of calls to DMKPTRFR (DMKPTRFC)"),
    F("MN000SS",  80, 4, ZL_UINT, ZL_VERIFIED,  ZL_K_COUNTER, "pages", SPG,   "total pages stolen from in-queue users (DMKPTRSS)"),
    F("MN000PRF", 84, 4, ZL_UINT, ZL_UNCERTAIN, ZL_K_NONE,    "pages", TAIL,  "number of pages examined in stealing pages (DMKPTRRF)"),
    F("MN000PFF", 88, 4, ZL_UINT, ZL_UNCERTAIN, ZL_K_NONE,    "pages", TAIL,  "number of pages swapped from the flush list (DMKPTRFF)"),
    F("MN000PCS", 92, 4, ZL_UINT, ZL_UNCERTAIN, ZL_K_NONE,    "count", TAIL,  "number of full scans done in stealing pages (DMKPTRCS)"),
};
/* clang-format on */

/* clang-format off */
static const struct zl_layout layouts[] = {
    {"VM370.MNH",     "MNH",   -1, -1, 12, "VM/370 R6", SPGH, mnh_fields,     ZL_COUNT(mnh_fields)},
    {"VM370.HDR",     "MN097", -1, -1, 80, "VM/370 R6", DA97, hdr_fields,     ZL_COUNT(hdr_fields)},
    {"VM370.TRAILER", "MN098", -1, -1, 20, "VM/370 R6", SPG,  trailer_fields, ZL_COUNT(trailer_fields)},
    {"VM370.SUSPEND", "MN099", -1, -1, 21, "VM/370 R6", DA99, suspend_fields, ZL_COUNT(suspend_fields)},
    /* Chosen from the MNH header on: fields past a short record are simply absent. */
    {"VM370.C0C0", "MN000", -1, -1, 12, "VM/370 R6", SPG, c0c0_fields, ZL_COUNT(c0c0_fields)},
};
/* clang-format on */
ZL_TABLE(vm370, layouts);
