/* SPDX-License-Identifier: MIT */
/*
 * Names of VM/370 MONITOR CALL classes and codes, and the layout each code
 * is read with (the header, time and CPU serial helpers that sources need
 * are in record/vm370_hdr.c).
 * Sources: VM/370 System Programmer's Guide Release 6, Part 2 (MONITOR
 * command: class table) and Appendix C (record formats); VM/SP Release 3
 * System Programmer's Guide Appendix B for the class 0 control codes.
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
