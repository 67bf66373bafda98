/* SPDX-License-Identifier: MIT */
/*
 * VM/370 Monitor tape records (vm370.h).  Offsets count from the record
 * start, the 12-byte MNH header included, so a field at displacement X in
 * IBM's DSECT sits at 12 + X here.
 *
 * Sources:
 *   SPG   VM/370 System Programmer's Guide Release 6, Appendix C, pp. 351
 *         and 358-364 (the copy consulted is a scan, partly unreadable;
 *         doc/facts/monitor-stream.md 8.2-8.4).  Gives order, sizes, CP
 *         variable and DSECT names; p. 359 was not found.
 *   DA    VM/370 Release 6 Data Areas and Control Block Logic (Mar 1979),
 *         pp. 46-47 and 51-54: DSECTs MN097-MN099, MN10X/MN10Y, MN600,
 *         MN602, MN700 and MN802 with hex displacements.
 *   VMSP  VM/SP Release 3 System Programmer's Guide (Aug 1983), Appendix B
 *         pp. 543-549: the same records, later extended.
 * Where the scan is unreadable and no other page settles a point, the
 * field is ZL_UNCERTAIN and its source says what is missing.  Where only the
 * SPG's order and byte counts give a place, the fields lie end to end: each
 * one falls on a multiple of its own size, so no assembler alignment can
 * have put a gap between them.
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

#define SPG360 "VM/370 R6 SPG App. C p.360: order and byte counts"
#define SPG363 "VM/370 R6 SPG App. C p.363: order and byte counts"
#define SPG364 "VM/370 R6 SPG App. C p.364: order and byte counts"
#define DA47   "VM/370 R6 DA&CBL p.47 MN10X, MN10Y"
#define DA51   "VM/370 R6 DA&CBL p.51 MN600; SPG App. C p.364"
#define DA52   "VM/370 R6 DA&CBL p.52 MN602; SPG App. C p.364"
#define DA53   "VM/370 R6 DA&CBL p.53 MN700; SPG App. C p.364"
#define DA54   "VM/370 R6 DA&CBL p.54 MN802"
#define APTIME                                                                                     \
        SPG360 "; size 8, format not stated (the main processor's times carry an unreadable "      \
               "format footnote)"
#define SPIN SPG360 "; size 4, unit not stated"
#define CUT  SPG360 "; IBM's DSECT name is cut off in the scan: the name is the project's"
#define NOTE4                                                                                      \
        SPG363 "; the byte counts of the priority and reserved rows are unreadable, so "           \
               "the place of this field is not proven"

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

/*
 * Class 0 code 0 goes on past MN000PCS: SPG p.360 ends the record with
 * MN000Q1E, Q2E, INT, PPA, PPC (2 bytes each) and ISD, GTM, DQM, SWP, EXT,
 * NXT, ATT, CNT (4 each), after whatever p.359, not found, adds.  Their
 * offsets are therefore unknown and they are not declared; a longer record
 * keeps the fields below and its other bytes are only shown raw.
 */
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

/* Class 0 code 1: attached-processor and lock statistics (SPG p.360). */
/* clang-format off */
static const struct zl_field c0c1_fields[] = {
    F("MN001WID",               12,  8, ZL_UINT, ZL_UNCERTAIN, ZL_K_COUNTER, NULL,    APTIME, "total attached processor idle wait time (IDLEWAIT)"),
    F("MN001WPG",               20,  8, ZL_UINT, ZL_UNCERTAIN, ZL_K_COUNTER, NULL,    APTIME, "total attached processor page wait time (PAGEWAIT)"),
    F("MN001WIO",               28,  8, ZL_UINT, ZL_UNCERTAIN, ZL_K_COUNTER, NULL,    APTIME, "total attached processor I/O wait time (IONTWAIT)"),
    F("MN001PRB",               36,  8, ZL_UINT, ZL_UNCERTAIN, ZL_K_COUNTER, NULL,    APTIME, "total attached processor problem time (PROBTIME)"),
    F("MN001NXR",               44,  4, ZL_UINT, ZL_VERIFIED,  ZL_K_COUNTER, "count", SPG360, "total real external interrupts for the attached processor (DMKPSANX)"),
    F("MN001CSV",               48,  4, ZL_UINT, ZL_VERIFIED,  ZL_K_COUNTER, "count", SPG360, "total SVCs reflected by the attached processor (PSASVCCT)"),
    F("MN001PRD",               52,  4, ZL_UINT, ZL_VERIFIED,  ZL_K_COUNTER, "pages", SPG360, "page reads by the attached processor (PGREAD)"),
    F("MN001PWR",               56,  4, ZL_UINT, ZL_VERIFIED,  ZL_K_COUNTER, "pages", SPG360, "page writes by the attached processor (PGWRITE)"),
    F("MN001SSY",               60,  4, ZL_UINT, ZL_UNCERTAIN, ZL_K_NONE,    NULL,    SPIN,   "total time spinning on the system lock (DMKLOKSY+8)"),
    F("MN001NSY",               64,  4, ZL_UINT, ZL_VERIFIED,  ZL_K_NONE,    "count", SPG360, "number of spins on the system lock (DMKLOKSY+12)"),
    F("MN001SFR",               68,  4, ZL_UINT, ZL_UNCERTAIN, ZL_K_NONE,    NULL,    SPIN,   "total time spinning on the DMKFRE lock (DMKLOKFR+8)"),
    F("MN001NFR",               72,  4, ZL_UINT, ZL_VERIFIED,  ZL_K_NONE,    "count", SPG360, "number of spins on the DMKFRE lock (DMKLOKFR+12)"),
    F("MN001SRN",               76,  4, ZL_UINT, ZL_UNCERTAIN, ZL_K_NONE,    NULL,    SPIN,   "total time spinning on the RUNLIST lock (DMKLOKRL+8)"),
    F("mn001_runlist_spins",    80,  4, ZL_UINT, ZL_VERIFIED,  ZL_K_NONE,    "count", CUT,    "number of spins on the RUNLIST lock (DMKLOKRL+12)"),
    F("mn001_trq_spin_time",    84,  4, ZL_UINT, ZL_UNCERTAIN, ZL_K_NONE,    NULL,    CUT,    "total time spinning on the timer request lock (DMKLOKTR+8); unit not stated"),
    F("mn001_trq_spins",        88,  4, ZL_UINT, ZL_VERIFIED,  ZL_K_NONE,    "count", CUT,    "number of spins on the timer request lock (DMKLOKTR+12)"),
    F("mn001_dsp_spin_time",    92,  4, ZL_UINT, ZL_UNCERTAIN, ZL_K_NONE,    NULL,    CUT,    "total time spinning on the dispatcher queue lock (DMKLOKDS+8); unit not stated"),
    F("mn001_dsp_spins",        96,  4, ZL_UINT, ZL_VERIFIED,  ZL_K_NONE,    "count", CUT,    "number of spins on the dispatcher queue lock (DMKLOKDS+12)"),
    F("mn001_cpfrelk_sets",     100, 4, ZL_UINT, ZL_VERIFIED,  ZL_K_NONE,    "count", CUT,    "number of times CPFRELK was set"),
    F("mn001_cpfresw_sets",     104, 4, ZL_UINT, ZL_VERIFIED,  ZL_K_NONE,    "count", CUT,    "number of times CPFRESW was set"),
    F("mn001_syslock_deferred", 108, 4, ZL_UINT, ZL_VERIFIED,  ZL_K_NONE,    "count", CUT,    "number of times the system lock was deferred (LOKSYSCT)"),
    F("mn001_vmblok_deferred",  112, 4, ZL_UINT, ZL_VERIFIED,  ZL_K_NONE,    "count", CUT,    "number of times a VMBLOK lock was deferred (LOKVMCT)"),
    F("mn001_dspru_entries",    116, 4, ZL_UINT, ZL_VERIFIED,  ZL_K_NONE,    "count", CUT,    "number of DMKDSPRU entries"),
};
/* clang-format on */

/*
 * Class 1 (RESPONSE), every code: MN10X, and MN10Y with a byte count and the
 * line of data after it (DA p.47).  The line's length varies, so it is not a
 * field.
 */
/* clang-format off */
static const struct zl_field c1_fields[] = {
    F("MN10XUID", 12, 8, ZL_EBCDIC, ZL_VERIFIED, ZL_K_NONE, NULL,    DA47, "userid"),
    F("MN10XADD", 20, 2, ZL_HEX,    ZL_VERIFIED, ZL_K_NONE, NULL,    DA47, "line address"),
    F("MN10YCNT", 22, 1, ZL_UINT,   ZL_VERIFIED, ZL_K_NONE, "bytes", DA47, "byte count of the line of data that follows at 23 (MN10YIO)"),
};
/* clang-format on */

/* Class 4 (USER) code 0: interval user resource utilization (SPG p.363). */
/* clang-format off */
static const struct zl_field c4c0_fields[] = {
    F("MN400UID", 12, 8, ZL_EBCDIC, ZL_VERIFIED,  ZL_K_NONE,    NULL,    SPG363,                       "userid (VMUSER)"),
    F("MN400TTI", 20, 8, ZL_UINT,   ZL_UNCERTAIN, ZL_K_COUNTER, NULL,    SPG363 "; format not stated", "accumulated user CP simulation time (VMTTIME)"),
    F("MN400VTI", 28, 8, ZL_UINT,   ZL_UNCERTAIN, ZL_K_COUNTER, NULL,    SPG363 "; format not stated", "accumulated user virtual time (VMVTIME)"),
    F("MN400PGR", 36, 4, ZL_UINT,   ZL_VERIFIED,  ZL_K_COUNTER, "pages", SPG363,                       "total page reads (VMPGREAD)"),
    F("MN400PGW", 40, 4, ZL_UINT,   ZL_VERIFIED,  ZL_K_COUNTER, "pages", SPG363,                       "total page writes (VMPGWRIT)"),
    F("MN400IOC", 44, 4, ZL_UINT,   ZL_VERIFIED,  ZL_K_COUNTER, "count", SPG363,                       "total non-spooled I/O requests (VMIOCNT)"),
    F("MN400PCH", 48, 4, ZL_UINT,   ZL_VERIFIED,  ZL_K_COUNTER, "count", SPG363,                       "total cards punched (VMPNCH)"),
    F("MN400LIN", 52, 4, ZL_UINT,   ZL_VERIFIED,  ZL_K_COUNTER, "count", SPG363,                       "total lines printed (VMLINS)"),
    F("MN400CRD", 56, 4, ZL_UINT,   ZL_VERIFIED,  ZL_K_COUNTER, "count", SPG363,                       "total cards read (VMCRDS)"),
    F("MN400RST", 60, 1, ZL_BITS,   ZL_VERIFIED,  ZL_K_NONE,    NULL,    SPG363,                       "user running status (VMRSTAT)"),
    F("MN400DST", 61, 1, ZL_BITS,   ZL_VERIFIED,  ZL_K_NONE,    NULL,    SPG363,                       "user dispatch status (VMDSTAT)"),
    F("MN400OST", 62, 1, ZL_BITS,   ZL_VERIFIED,  ZL_K_NONE,    NULL,    SPG363,                       "user operating status (VMOSTAT)"),
    F("MN400QST", 63, 1, ZL_BITS,   ZL_VERIFIED,  ZL_K_NONE,    NULL,    SPG363,                       "user queuing status (VMQSTAT)"),
    F("MN400PST", 64, 1, ZL_BITS,   ZL_VERIFIED,  ZL_K_NONE,    NULL,    SPG363,                       "user processing status (VMPSTAT)"),
    F("MN400EST", 65, 1, ZL_BITS,   ZL_VERIFIED,  ZL_K_NONE,    NULL,    SPG363,                       "user control status (VMESTAT)"),
    F("MN400TST", 66, 1, ZL_BITS,   ZL_VERIFIED,  ZL_K_NONE,    NULL,    SPG363,                       "user tracing control (VMTRCTL)"),
    F("MN400MLV", 67, 1, ZL_BITS,   ZL_VERIFIED,  ZL_K_NONE,    NULL,    SPG363,                       "user message level (VMMLEVEL)"),
    F("MN400QLV", 68, 1, ZL_BITS,   ZL_VERIFIED,  ZL_K_NONE,    NULL,    SPG363,                       "user queue level (VMQLEVEL)"),
    F("MN400CLV", 69, 1, ZL_BITS,   ZL_VERIFIED,  ZL_K_NONE,    NULL,    SPG363,                       "user command level (VMCLEVEL)"),
    F("MN400TLV", 70, 1, ZL_BITS,   ZL_VERIFIED,  ZL_K_NONE,    NULL,    SPG363,                       "user timer level (VMTLEVEL)"),
    F("MN400PID", 71, 1, ZL_BITS,   ZL_VERIFIED,  ZL_K_NONE,    NULL,    SPG363,                       "interrupt pending summary (VMPEND)"),
    F("MN400UPR", 72, 1, ZL_UINT,   ZL_UNCERTAIN, ZL_K_NONE,    NULL,    NOTE4,                        "user's externally assigned priority (VMUPRIOR)"),
    F("MN4RSV1",  73, 1, ZL_RSVD,   ZL_UNCERTAIN, ZL_K_NONE,    NULL,    NOTE4,                        "reserved"),
    F("MN400RES", 74, 2, ZL_UINT,   ZL_UNCERTAIN, ZL_K_GAUGE,   "pages", NOTE4,                        "current number of pages resident (VMPAGES)"),
    F("MN400WSS", 76, 2, ZL_UINT,   ZL_UNCERTAIN, ZL_K_GAUGE,   "pages", NOTE4,                        "current working set size estimate (VMWSPROJ)"),
    F("MN400PDR", 78, 2, ZL_UINT,   ZL_UNCERTAIN, ZL_K_GAUGE,   "pages", NOTE4,                        "page frames allocated on drum (VMPDRUM)"),
    F("MN400PDK", 80, 2, ZL_UINT,   ZL_UNCERTAIN, ZL_K_GAUGE,   "pages", NOTE4,                        "page frames allocated on disk (VMPDISK)"),
    F("MN400INT", 82, 2, ZL_UINT,   ZL_UNCERTAIN, ZL_K_NONE,    "s",     NOTE4,                        "monitor sampling interval in seconds (DMKPRGTI)"),
};
/* clang-format on */

/* Class 5 (INSTSIM) code 0: start of privileged operation simulation (SPG p.364). */
/* clang-format off */
static const struct zl_field c5c0_fields[] = {
    F("MN500UID", 12, 8, ZL_EBCDIC, ZL_VERIFIED,  ZL_K_NONE, NULL, SPG364,                                          "userid (VMUSER)"),
    F("MN500INS", 20, 4, ZL_HEX,    ZL_VERIFIED,  ZL_K_NONE, NULL, SPG364,                                          "the privileged instruction (VMINST)"),
    F("MN500VAD", 24, 4, ZL_HEX,    ZL_VERIFIED,  ZL_K_NONE, NULL, SPG364,                                          "virtual storage address of the privileged operation (VMPSW)"),
    F("MN500OVH", 28, 8, ZL_UINT,   ZL_UNCERTAIN, ZL_K_NONE, NULL, SPG364 "; a CPU timer value, format not stated", "total user CP simulation time at the start of the simulation"),
};
/* clang-format on */

/*
 * Class 6 (DASTAP) codes 0 and 1: a count, then that many 14-byte device
 * packages (DA p.51: "device data packages that follow"; MN600MAX divides
 * the buffer left after the 2-byte header by MN600DLN).
 */
/* clang-format off */
static const struct zl_field c6c0_fields[] = {
    F("MN600NUM", 12, 2, ZL_UINT, ZL_VERIFIED, ZL_K_GAUGE, "count", DA51, "number of device data packages that follow (MN600DEV, at 14, 14 bytes each)"),
};
static const struct zl_field c6c0_dev_fields[] = {
    F("MN600ADD", 0,  2, ZL_HEX,    ZL_VERIFIED, ZL_K_NONE,    NULL,    DA51, "device address"),
    F("MN600TY",  2,  2, ZL_HEX,    ZL_VERIFIED, ZL_K_NONE,    NULL,    DA51, "VM/370 device type and/or codes"),
    F("MN600SER", 4,  6, ZL_EBCDIC, ZL_VERIFIED, ZL_K_NONE,    NULL,    DA51, "volume serial number of the device"),
    F("MN600CNT", 10, 4, ZL_UINT,   ZL_VERIFIED, ZL_K_COUNTER, "count", DA51, "device accumulated I/O count (RDEVIOCT)"),
};
/* clang-format on */

/*
 * Class 6 code 2: device utilization.  DA p.52 gives a header (MN602SAM at
 * 0) and a 13-byte device portion, "one record for each device"; SPG p.112
 * says the high-frequency buffer is written as one code 2 record.  Whether a
 * code 2 record is the header, one device or both is not stated, so nothing
 * of it is placed for certain and the device portion is not walked.
 */
#define C602 DA52 "; which bytes of a code 2 record hold it is not stated"
/* clang-format off */
static const struct zl_field c6c2_fields[] = {
    F("MN602SAM", 12, 2, ZL_UINT, ZL_UNCERTAIN, ZL_K_GAUGE, "count", C602, "number of high-frequency samples in the interval (header)"),
};
static const struct zl_field c6c2_dev_fields[] = {
    F("MN602ADD", 0,  2, ZL_HEX,  ZL_VERIFIED, ZL_K_NONE,  NULL,    DA52, "device address"),
    F("MN602CHB", 2,  2, ZL_UINT, ZL_VERIFIED, ZL_K_GAUGE, "count", DA52, "samples with the channel busy"),
    F("MN602CUB", 4,  2, ZL_UINT, ZL_VERIFIED, ZL_K_GAUGE, "count", DA52, "samples with the control unit busy"),
    F("MN602DVB", 6,  2, ZL_UINT, ZL_VERIFIED, ZL_K_GAUGE, "count", DA52, "samples with the device busy"),
    F("MN602CHQ", 8,  2, ZL_UINT, ZL_VERIFIED, ZL_K_GAUGE, "count", DA52, "I/O tasks queued on the channel"),
    F("MN602CUQ", 10, 2, ZL_UINT, ZL_VERIFIED, ZL_K_GAUGE, "count", DA52, "I/O tasks queued on the control unit"),
    F("MN602DVQ", 12, 1, ZL_UINT, ZL_VERIFIED, ZL_K_GAUGE, "count", DA52, "I/O tasks queued on the device"),
};
/* clang-format on */

/* Class 7 (SEEKS) code 0: one DASD I/O request (DA p.53, MN700LEN = X'12'). */
/* clang-format off */
static const struct zl_field c7c0_fields[] = {
    F("MN700UID", 12, 8, ZL_EBCDIC, ZL_VERIFIED, ZL_K_NONE,  NULL,    DA53, "userid"),
    F("MN700ADD", 20, 2, ZL_HEX,    ZL_VERIFIED, ZL_K_NONE,  NULL,    DA53, "device address"),
    F("MN700CYL", 22, 2, ZL_UINT,   ZL_VERIFIED, ZL_K_NONE,  NULL,    DA53, "cylinder being sought (IOBCYL)"),
    F("MN700CCY", 24, 2, ZL_UINT,   ZL_VERIFIED, ZL_K_NONE,  NULL,    DA53, "current cylinder, the arm position (RDEVCYL)"),
    F("MN700QDV", 26, 1, ZL_UINT,   ZL_VERIFIED, ZL_K_GAUGE, "count", DA53, "I/O tasks queued on the device"),
    F("MN700QCU", 27, 1, ZL_UINT,   ZL_VERIFIED, ZL_K_GAUGE, "count", DA53, "I/O tasks queued on the control unit"),
    F("MN700QCH", 28, 1, ZL_UINT,   ZL_VERIFIED, ZL_K_GAUGE, "count", DA53, "I/O tasks queued on the channel"),
    F("MN700DIR", 29, 1, ZL_HEX,    ZL_VERIFIED, ZL_K_NONE,  NULL,    DA53, "seek direction: X'00' to a lower cylinder, X'01' to a higher one"),
};
/* clang-format on */

/*
 * Class 8 (SYSPROF) code 2 (SPG p.364): a count, then that many 4-byte
 * device I/O counts (DA p.54, MN802CNT at 2: "counters that follow").  DA
 * also maps the system profile data (MN802CTR, 48 bytes) without saying
 * where in the record it lies: declared as an entry, never placed.
 */
#define C802 DA54 "; where it lies in the record is not stated"
/* clang-format off */
static const struct zl_field c8c2_fields[] = {
    F("MN802NUM", 12, 2, ZL_UINT, ZL_VERIFIED, ZL_K_GAUGE, "count", DA54, "number of device block counters that follow (MN802CNT, at 14, 4 bytes each)"),
};
static const struct zl_field c8c2_cnt_fields[] = {
    F("MN802CNT", 0, 4, ZL_UINT, ZL_VERIFIED, ZL_K_COUNTER, "count", DA54, "device I/O count"),
};
static const struct zl_field c8c2_ctr_fields[] = {
    F("MN802NAU", 0,  4, ZL_UINT, ZL_VERIFIED,  ZL_K_GAUGE,   "users", C802,                       "number of logged-on users"),
    F("MN802PGR", 4,  4, ZL_UINT, ZL_VERIFIED,  ZL_K_COUNTER, "pages", C802,                       "total system page reads"),
    F("MN802PGW", 8,  4, ZL_UINT, ZL_VERIFIED,  ZL_K_COUNTER, "pages", C802,                       "total system page writes"),
    F("MN802NPP", 12, 4, ZL_UINT, ZL_VERIFIED,  ZL_K_GAUGE,   "pages", C802,                       "number of system pageable pages"),
    F("MN802WID", 16, 8, ZL_UINT, ZL_UNCERTAIN, ZL_K_COUNTER, NULL,    C802 "; format not stated", "total system idle wait time"),
    F("MN802WPG", 24, 8, ZL_UINT, ZL_UNCERTAIN, ZL_K_COUNTER, NULL,    C802 "; format not stated", "total system page wait time"),
    F("MN802WIO", 32, 8, ZL_UINT, ZL_UNCERTAIN, ZL_K_COUNTER, NULL,    C802 "; format not stated", "total system I/O wait time"),
    F("MN802PRB", 40, 8, ZL_UINT, ZL_UNCERTAIN, ZL_K_COUNTER, NULL,    C802 "; format not stated", "total system problem time"),
};
/* clang-format on */

/* clang-format off */
static const struct zl_layout layouts[] = {
    {"VM370.MNH",     "MNH",   -1, -1, 12, "VM/370 R6", SPGH, mnh_fields,     ZL_COUNT(mnh_fields)},
    {"VM370.HDR",     "MN097", -1, -1, 80, "VM/370 R6", DA97, hdr_fields,     ZL_COUNT(hdr_fields)},
    {"VM370.TRAILER", "MN098", -1, -1, 20, "VM/370 R6", SPG,  trailer_fields, ZL_COUNT(trailer_fields)},
    {"VM370.SUSPEND", "MN099", -1, -1, 21, "VM/370 R6", DA99, suspend_fields, ZL_COUNT(suspend_fields)},
    /* Chosen from the MNH header on: fields past a short record are simply absent. */
    {"VM370.C0C0", "MN000", -1, -1, 12, "VM/370 R6", SPG,    c0c0_fields, ZL_COUNT(c0c0_fields)},
    {"VM370.C0C1", "MN001", -1, -1, 12, "VM/370 R6", SPG360, c0c1_fields, ZL_COUNT(c0c1_fields)},
    /* By length: MN10X is 10 bytes of data, MN10Y adds the count and the line.  MN400's tail
     * is unproven (NOTE4), so a shorter class 4 record keeps the fields it holds. */
    {"VM370.C1",       "MN10X",    -1, -1, 22, "VM/370 R6", DA47,   c1_fields,       2},
    {"VM370.C1",       "MN10Y",    -1, -1, 23, "VM/370 R6", DA47,   c1_fields,       ZL_COUNT(c1_fields)},
    {"VM370.C4C0",     "MN400",    -1, -1, 12, "VM/370 R6", SPG363, c4c0_fields,     ZL_COUNT(c4c0_fields)},
    {"VM370.C5C0",     "MN500",    -1, -1, 36, "VM/370 R6", SPG364, c5c0_fields,     ZL_COUNT(c5c0_fields)},
    {"VM370.C6C0",     "MN600HDR", -1, -1, 14, "VM/370 R6", DA51,   c6c0_fields,     ZL_COUNT(c6c0_fields)},
    {"VM370.C6C0.DEV", "MN600DEV", -1, -1, 14, "VM/370 R6", DA51,   c6c0_dev_fields, ZL_COUNT(c6c0_dev_fields)},
    {"VM370.C6C2",     "MN602HDR", -1, -1, 14, "VM/370 R6", C602,   c6c2_fields,     ZL_COUNT(c6c2_fields)},
    {"VM370.C6C2.DEV", "MN602DEV", -1, -1, 13, "VM/370 R6", C602,   c6c2_dev_fields, ZL_COUNT(c6c2_dev_fields)},
    {"VM370.C7C0",     "MN700",    -1, -1, 30, "VM/370 R6", DA53,   c7c0_fields,     ZL_COUNT(c7c0_fields)},
    {"VM370.C8C2",     "MN802HDR", -1, -1, 14, "VM/370 R6", DA54,   c8c2_fields,     ZL_COUNT(c8c2_fields)},
    {"VM370.C8C2.CNT", "MN802CNT", -1, -1, 4,  "VM/370 R6", DA54,   c8c2_cnt_fields, ZL_COUNT(c8c2_cnt_fields)},
    {"VM370.C8C2.CTR", "MN802CTR", -1, -1, 48, "VM/370 R6", C802,   c8c2_ctr_fields, ZL_COUNT(c8c2_ctr_fields)},
};
/* clang-format on */
ZL_TABLE(vm370, layouts);
