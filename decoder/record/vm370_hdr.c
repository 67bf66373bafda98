/* SPDX-License-Identifier: MIT */
/*
 * The VM/370 monitor record header (MNH) and the session facts of a tape
 * header record: what a source must know to frame and date VM/370 records.
 * Sources: VM/370 System Programmer's Guide Release 6, Part 2, Appendix C.
 */
#include <stdio.h>
#include <string.h>

#include "base/ebcdic.h"
#include "base/tod.h"
#include "record/vm370_hdr.h"

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
