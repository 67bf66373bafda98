/* SPDX-License-Identifier: MIT */
/*
 * Names of VM/370 MONITOR CALL classes and codes, and the layout each code
 * is read with (the header, time and CPU serial helpers that sources need
 * are in record/vm370_hdr.c).
 * Sources: VM/370 System Programmer's Guide Release 6, Part 2 (MONITOR
 * command: class table) and Appendix C (record formats); VM/SP Release 3
 * System Programmer's Guide Appendix B for the class 0 control codes and
 * the class 1 codes (the Release 6 page with class 1 was not found; its
 * Data Areas book maps every class 1 record as MN10X or MN10Y).
 */
#include "payload/vm370/vm370.h"

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
    {0, 1, "Attached processor and lock statistics", "VM370.C0C1"},
    {0, 97, "Tape header record", "VM370.HDR"},
    {0, 98, "Tape trailer record", "VM370.TRAILER"},
    {0, 99, "Tape write suspension record", "VM370.SUSPEND"},
    {1, 0, "Read command sent to terminal", "VM370.C1"},
    {1, 1, "Terminal output line", "VM370.C1"},
    {1, 2, "Edited terminal input line", "VM370.C1"},
    {1, 3, "Sleep issued with time out", "VM370.C1"},
    {1, 4, "Terminal logged on", "VM370.C1"},
    {1, 5, "Terminal logged off", "VM370.C1"},
    {4, 0, "Interval user resource utilization statistics", "VM370.C4C0"},
    {5, 0, "Start of privileged operation simulation", "VM370.C5C0"},
    {6, 0, "Device activity data (MONITOR START TAPE)", "VM370.C6C0"},
    {6, 1, "Device activity data", "VM370.C6C0"},
    {6, 2, "Device utilization", "VM370.C6C2"},
    {7, 0, "DASD I/O request record", "VM370.C7C0"},
    {8, 2, "Additional data for the system profile", "VM370.C8C2"},
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

/*
 * Records that carry a count and then that many fixed-size entries right
 * after it (lay_vm370.c: MN600, MN802): class, code, the count's place and
 * the entries' layout and size.
 */
static const struct {
        uint8_t cls;
        uint8_t code;
        uint8_t count_at;
        uint8_t size;
        const char *layout;
} repeated[] = {
    {6, 0, 12, 14, "VM370.C6C0.DEV"},
    {6, 1, 12, 14, "VM370.C6C0.DEV"},
    {8, 2, 12, 4, "VM370.C8C2.CNT"},
};

bool zd_vm370_entries(unsigned cls, unsigned code, zd_view rec, struct zd_vm370_entries *out)
{
        for (size_t i = 0; i < sizeof(repeated) / sizeof(repeated[0]); i++) {
                if (repeated[i].cls != cls || repeated[i].code != code)
                        continue;
                uint64_t n;
                if (!zd_uN(rec, repeated[i].count_at, 2, &n))
                        return false;
                out->l = zl_find(repeated[i].layout, repeated[i].size);
                if (!out->l)
                        return false;
                out->first = repeated[i].count_at + 2u;
                out->size = repeated[i].size;
                out->declared = (size_t)n;
                size_t room = rec.n > out->first ? (rec.n - out->first) / out->size : 0;
                out->n = out->declared < room ? out->declared : room;
                return true;
        }
        return false;
}
