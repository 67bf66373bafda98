/* SPDX-License-Identifier: MIT */
/*
 * Names of VM/370 MONITOR CALL classes and codes, and the helpers every
 * consumer of VM/370 tape records needs (header, time, CPU serial).
 * Sources: VM/370 System Programmer's Guide Release 6, Part 2 (MONITOR
 * command: class table) and Appendix C (record formats); VM/SP Release 3
 * System Programmer's Guide Appendix B for the class 0 control codes.
 */
#include <stdio.h>
#include <string.h>

#include "ebcdic.h"
#include "tod.h"
#include "vm370.h"

static const char *const class_names[] = {
    "PERFORM", "RESPONSE", "SCHEDULE", NULL, "USER", "INSTSIM", "DASTAP", "SEEKS", "SYSPROF",
};

const char *zd_vm370_class_name(unsigned cls)
{
        return cls < sizeof(class_names) / sizeof(class_names[0]) ? class_names[cls] : NULL;
}

static const struct {
        uint8_t cls;
        uint8_t code;
        const char *name;
        const char *layout;
} codes[] = {
    {0, 0, "Interval statistics", "VM370.C0C0"},
    {0, 97, "Tape header record", "VM370.HDR"},
    {0, 98, "Tape trailer record", "VM370.TRAILER"},
    {0, 99, "Tape write suspension record", "VM370.SUSPEND"},
    {4, 0, "Interval user resource utilization statistics", NULL},
    {5, 0, "Start of privileged operation simulation", NULL},
    {6, 0, "Device activity data (MONITOR START TAPE)", NULL},
    {6, 1, "Device activity data", NULL},
    {6, 2, "Device utilization", NULL},
    {7, 0, "DASD I/O request record", NULL},
};

const char *zd_vm370_code_name(unsigned cls, unsigned code)
{
        for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
                if (codes[i].cls == cls && codes[i].code == code)
                        return codes[i].name;
        return NULL;
}

const struct zl_layout *zd_vm370_layout(unsigned cls, unsigned code, size_t len)
{
        for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
                if (codes[i].cls == cls && codes[i].code == code && codes[i].layout)
                        return zl_find(codes[i].layout, len);
        return NULL;
}

enum zd_err_kind zd_vm370_hdr_parse(zd_view v, struct zd_vm370_hdr *h)
{
        if (!zd_u16(v, 0, &h->len) || h->len < ZD_VM370_HDR_LEN || !zd_view_has(v, 0, h->len))
                return ZD_E_VB_RECORD;
        (void)zd_u16(v, 2, &h->zeros);
        (void)zd_u8(v, 4, &h->cls);
        (void)zd_u16(v, 5, &h->code);
        (void)zd_uN(v, 7, 5, &h->tod40);
        return h->zeros ? ZD_E_HDR_ZEROS : ZD_E_NONE;
}

uint64_t zd_vm370_tod(uint64_t tod40, uint64_t ref)
{
        if (!ref)
                return 0;
        uint64_t low = (tod40 & UINT64_C(0xFFFFFFFFFF)) << 16;
        uint64_t top = ref >> 56, best = 0, best_dist = UINT64_MAX;
        for (int k = -1; k <= 1; k++) {
                uint64_t c = ((top + (uint64_t)k) & 0xFF) << 56 | low;
                uint64_t dist = c > ref ? c - ref : ref - c;
                if (dist < best_dist)
                        best = c, best_dist = dist;
        }
        return best;
}

/* Days since 1970-01-01 of a civil date (proleptic Gregorian). */
static int64_t days_from_civil(int y, unsigned m, unsigned d)
{
        y -= m <= 2;
        int64_t era = (y >= 0 ? y : y - 399) / 400;
        unsigned yoe = (unsigned)(y - era * 400);
        unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + (int64_t)doe - 719468;
}

static bool text_field(zd_view rec, size_t off, char *out, size_t outsz)
{
        zd_view f;
        if (!zd_view_sub(rec, off, 8, &f))
                return false;
        zd_ebcdic_to_utf8(f, ZD_CP037, out, outsz);
        return true;
}

uint64_t zd_vm370_session_tod(zd_view rec)
{
        char date[32], time[32];
        unsigned mo, dd, yy, hh, mi, ss;
        char c1, c2;
        /* MN097DAT at +28, MN097TIM at +36 (lay_vm370.c). */
        if (!text_field(rec, 28, date, sizeof(date)) || !text_field(rec, 36, time, sizeof(time)))
                return 0;
        if (sscanf(date, "%2u%c%2u%c%2u", &mo, &c1, &dd, &c2, &yy) != 5 || c1 != '/' || c2 != '/')
                return 0;
        if (sscanf(time, "%2u%c%2u%c%2u", &hh, &c1, &mi, &c2, &ss) != 5 || c1 != ':' || c2 != ':')
                return 0;
        if (mo < 1 || mo > 12 || dd < 1 || dd > 31 || yy > 99 || hh > 23 || mi > 59 || ss > 60)
                return 0;
        /* VM/370 and VM/SP wrote two-digit years; 00-69 can only be VM/SP after 1999. */
        int year = (int)yy + (yy >= 70 ? 1900 : 2000);
        int64_t secs = days_from_civil(year, mo, dd) * 86400 + hh * 3600 + mi * 60 + ss;
        return zd_unix_us_to_tod(secs * 1000000);
}

bool zd_vm370_cpu_serial(zd_view rec, char out[7])
{
        uint64_t serial;
        /* MN097CPU at +12: a STIDP doubleword, version code then 3 bytes of serial. */
        if (!zd_uN(rec, 13, 3, &serial))
                return false;
        snprintf(out, 7, "%06llx", (unsigned long long)serial);
        return true;
}
