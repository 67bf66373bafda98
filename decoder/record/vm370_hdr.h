/* SPDX-License-Identifier: MIT */
/*
 * VM/370 Monitor tapes (VM/370 System Programmer's Guide, Appendix C; seed
 * 003).  The tape is standard variable blocked (VB), blocks and records at
 * most 4096 bytes.  Every record starts with a 12-byte header (DSECT MNH):
 *   +0 MNHRECSZ  2  total bytes in the record (the standard V-format RDW)
 *   +2           2  zeros
 *   +4 MNHCLASS  1  MONITOR CALL class
 *   +5 MNHCODE   2  MONITOR CALL code
 *   +7 MNHTOD    5  TOD clock bytes 1-5 (leftmost byte and rightmost two
 *                   bytes dropped: 16-microsecond resolution)
 * Records reach handlers as struct zd_record with family ZD_FAM_VM370,
 * domain = class, number = code, kind 0, body after the 12 bytes.  Their
 * layouts are payload layouts "VM370.*" (lay_vm370.c) whose offsets count
 * from the record start, 12-byte header included.
 */
#ifndef ZD_VM370_HDR_H
#define ZD_VM370_HDR_H

#include "record/record.h"

#define ZD_VM370_HDR_LEN   12
#define ZD_VM370_MAX_BLOCK 4096u /* "Maximum block and record lengths are 4096 bytes" */

/* Class 0 codes of the control records that frame a monitor session. */
enum { ZD_VM370_TAPE_HEADER = 97, ZD_VM370_TAPE_TRAILER = 98, ZD_VM370_SUSPEND = 99 };

struct zd_vm370_hdr {
        uint16_t len, zeros;
        uint8_t cls;
        uint16_t code;
        uint64_t tod40; /* MNHTOD as found: TOD bits 8-47 */
};
/* ZD_E_NONE, ZD_E_VB_RECORD (shorter than 12 or than its length), ZD_E_HDR_ZEROS. */
enum zd_err_kind zd_vm370_hdr_parse(zd_view v, struct zd_vm370_hdr *h);

/*
 * A 64-bit TOD from MNHTOD's 40 bits.  The dropped leftmost byte makes the
 * value ambiguous modulo 2^56 TOD units (about 203 days); ref, a TOD known to
 * be close (the session date of the tape header, or the previous record),
 * picks the nearest candidate.  ref 0 means unknown and gives 0.
 */
uint64_t zd_vm370_tod(uint64_t tod40, uint64_t ref);
/*
 * The session start of a tape header record (class 0 code 97) from its EBCDIC
 * date (MM/DD/YY) and time (HH:MM:SS), as a TOD value; 0 if unreadable.  The
 * date format is inferred (VM/370's usual form); the manual gives only CL8.
 */
uint64_t zd_vm370_session_tod(zd_view rec);
/* CPU serial of a tape header record (CPUID bytes 1-3) as 6 lower-case hex digits. */
bool zd_vm370_cpu_serial(zd_view rec, char out[7]);

#endif
