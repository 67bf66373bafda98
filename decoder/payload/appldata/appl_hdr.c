/* SPDX-License-Identifier: MIT */
/*
 * The 52-byte APPLDATA header of D10R1/D10R2 and product id classification
 * (doc/facts/monitor-stream.md 7, kernel-drivers.md 3.2).  CALDATOF and
 * CALDATLN come from a guest-controlled DIAGNOSE and a HINT layout: they are
 * checked against the record before the data is used.
 */
#include <string.h>

#include "payload/appldata/appl.h"
#include "base/ebcdic.h"
#include "base/numtext.h"

/* EBCDIC "LINUXKRNL" and "2601". */
static const uint8_t lx_prefix[9] = {0xD3, 0xC9, 0xD5, 0xE4, 0xE7, 0xD2, 0xD9, 0xD5, 0xD3};
static const uint8_t lx_version[4] = {0xF2, 0xF6, 0xF0, 0xF1};

static bool ebcdic_digit(uint8_t c)
{
        return c >= 0xF0 && c <= 0xF9;
}

/* ".N" with N in decimal. */
static char *put_dec(char *t, unsigned n)
{
        *t++ = '.';
        return t + zd_u64_text(t, n, 10, 1);
}

static void classify(struct zd_appl *a)
{
        const uint8_t *p = a->prodid;
        a->kind = ZD_APPL_OTHER;
        if (memcmp(p, lx_prefix, 9) == 0 && memcmp(p + 10, lx_version, 4) == 0 &&
            ebcdic_digit(p[14]) && ebcdic_digit(p[15])) {
                a->kind = ZD_APPL_LINUXKRNL;
                a->recnum = p[9];
                a->version = 26;
                a->release = 1;
                a->modlvl = (uint16_t)((p[14] - 0xF0) * 10 + (p[15] - 0xF0));
                a->modlvl_text[0] = (char)('0' + (p[14] - 0xF0));
                a->modlvl_text[1] = (char)('0' + (p[15] - 0xF0));
                a->modlvl_text[2] = '\0';
                /* "LINUXKRNL.RR.2601.MM", written out: this runs for every record */
                char *t = a->prodid_text;
                memcpy(t, "LINUXKRNL.", 10);
                zd_hex_upper(t + 10, &p[9], 1);
                memcpy(t + 12, ".2601.", 6);
                memcpy(t + 18, a->modlvl_text, 3);
                return;
        }
        if (memcmp(p, "LNXAPPL", 7) == 0) {
                a->kind = ZD_APPL_LNXAPPL;
                a->applid = (uint16_t)(p[7] << 8 | p[8]);
                a->recnum = p[9];
                a->version = (uint16_t)(p[10] << 8 | p[11]);
                a->release = (uint16_t)(p[12] << 8 | p[13]);
                a->modlvl = (uint16_t)(p[14] << 8 | p[15]);
                /* "LNXAPPL.A.R.V.R.M" in decimal, written out: this runs for every record */
                char *t = a->prodid_text;
                memcpy(t, "LNXAPPL", 7);
                t += 7;
                const unsigned part[] = {a->applid, a->recnum, a->version, a->release, a->modlvl};
                for (size_t i = 0; i < 5; i++)
                        t = put_dec(t, part[i]);
                *t = '\0';
                return;
        }
        /* IBM products register EBCDIC ids (5684112SF1010100); show text when it is text. */
        bool text = true;
        for (int i = 0; i < 16; i++) {
                unsigned c = zd_ebcdic_char(p[i], ZD_CP037);
                if (c < 0x20 || c > 0x7E)
                        text = false;
        }
        if (text) {
                (void)zd_ebcdic_to_utf8(zd_view_make(p, 16), ZD_CP037, a->prodid_text,
                                        sizeof(a->prodid_text));
        } else {
                zd_hex_upper(a->prodid_text, p, 16);
        }
}

/*
 * CP's USERID_CHARACTERS (A-Z 0-9 @ # $ _ -): the only bytes a userid CP
 * stamps can hold.  Anything else would stand for no guest, or for one
 * whose host name or series another userid's also make (a blank, lower
 * case, '.' or a byte without an ASCII character of its own).
 */
bool zd_cp_userid(const char *u)
{
        if (!u[0])
                return false;
        for (; *u; u++)
                if (!((*u >= 'A' && *u <= 'Z') || (*u >= '0' && *u <= '9') || *u == '@' ||
                      *u == '#' || *u == '$' || *u == '_' || *u == '-'))
                        return false;
        return true;
}

/*
 * A guest's userid, converted and checked once: every record of the guest
 * carries the same 8 EBCDIC bytes.  Direct-mapped by those bytes, per
 * thread like zl_find's cache; a guest that misses is converted and
 * checked again, as without the cache.
 */
#define UID_BITS 9
static _Thread_local struct uid_slot {
        uint64_t raw;
        char text[9];
        bool ok, set;
} uid_memo[1u << UID_BITS];

static bool userid_of(const uint8_t *p, char out[9])
{
        uint64_t raw;
        memcpy(&raw, p, 8);
        struct uid_slot *u = &uid_memo[(raw * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - UID_BITS)];
        if (!u->set || u->raw != raw) {
                memset(u->text, 0, sizeof(u->text));
                (void)zd_ebcdic_to_utf8(zd_view_make(p, 8), ZD_CP037, u->text, sizeof(u->text));
                u->ok = zd_cp_userid(u->text);
                u->raw = raw;
                u->set = true;
        }
        memcpy(out, u->text, 9);
        return u->ok;
}

enum zd_err_kind zd_appl_parse(const struct zd_record *r, struct zd_appl *out)
{
        memset(out, 0, sizeof(*out));
        zd_view rec = r->rec;
        if (rec.n < ZD_APPL_HDR_LEN)
                return ZD_E_APPL_SHORT;
        (void)zd_s16(rec, 20, &out->dataof);
        (void)zd_s16(rec, 22, &out->dataln);
        bool userid_ok = userid_of(rec.p + 24, out->userid);
        memcpy(out->prodid, rec.p + 32, 16);
        out->status = rec.p[48];
        classify(out);
        if (out->dataof < ZD_APPL_HDR_LEN || (size_t)out->dataof > rec.n)
                return ZD_E_APPL_OFFSET;
        if (out->dataln < 0 || (size_t)out->dataln > rec.n - (size_t)out->dataof)
                return ZD_E_APPL_LENGTH;
        out->data = zd_view_make(rec.p + out->dataof, (size_t)out->dataln);
        return userid_ok ? ZD_E_NONE : ZD_E_APPL_USERID;
}

enum zd_appl_payload zd_appl_payload(const struct zd_appl *a)
{
        if (a->kind == ZD_APPL_LINUXKRNL) {
                switch (a->recnum) {
                case ZD_LX_MEM:
                        return ZD_PAYLOAD_MEM;
                case ZD_LX_OS:
                        return ZD_PAYLOAD_OS;
                case ZD_LX_NET:
                        return ZD_PAYLOAD_NET;
                }
        } else if (a->kind == ZD_APPL_LNXAPPL) {
                if (a->applid == 1 && a->recnum == 0)
                        return ZD_PAYLOAD_FSSTATD;
                if (a->applid == 2 && a->recnum == 0)
                        return ZD_PAYLOAD_PROCD_SUM;
                if (a->applid == 2 && a->recnum == 1)
                        return ZD_PAYLOAD_PROCD_TASK;
        }
        return ZD_PAYLOAD_NONE;
}

const char *zd_appl_kind_name(const struct zd_appl *a)
{
        static const char *const names[] = {[ZD_PAYLOAD_NONE] = NULL,
                                            [ZD_PAYLOAD_MEM] = "mem",
                                            [ZD_PAYLOAD_OS] = "os",
                                            [ZD_PAYLOAD_NET] = "net",
                                            [ZD_PAYLOAD_FSSTATD] = "fsstatd",
                                            [ZD_PAYLOAD_PROCD_SUM] = "procd.sum",
                                            [ZD_PAYLOAD_PROCD_TASK] = "procd.task"};
        return names[zd_appl_payload(a)];
}

/*
 * Asked for every record, and the answer changes only with the layouts
 * (zl_generation).  Per thread, like zl_find's own cache.
 */
static _Thread_local struct {
        size_t gen;
        const struct zl_layout *l[4];
} payload_layouts;

const struct zl_layout *zd_appl_layout(const struct zd_appl *a)
{
        enum zd_appl_payload p = zd_appl_payload(a);
        if (p == ZD_PAYLOAD_NONE)
                return NULL;
        static const char *const ids[4] = {"LNXAPPL.HDR", "LINUXKRNL.MEM", "LINUXKRNL.OS",
                                           "LINUXKRNL.NET"};
        size_t gen = zl_generation();
        if (payload_layouts.gen != gen) {
                for (size_t i = 0; i < 4; i++)
                        payload_layouts.l[i] = zl_find(ids[i], SIZE_MAX);
                payload_layouts.gen = gen;
        }
        /* the kernel's three in the order of the enum; every LNXAPPL one starts with its header */
        size_t i = p <= ZD_PAYLOAD_NET ? (size_t)p : 0;
        return payload_layouts.l[i];
}
