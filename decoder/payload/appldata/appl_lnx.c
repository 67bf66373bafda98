/* SPDX-License-Identifier: MIT */
/*
 * s390-tools LNXAPPL payloads (doc/facts/s390-tools.md 1-3): the 12-byte
 * header, mon_fsstatd entries and mon_procd task strings.  Every length
 * comes from the guest and is checked before it is followed.
 */
#include <string.h>

#include "payload/appldata/appl.h"

const char *const zd_procd_str_names[ZD_PROCD_NSTR] = {"ruser", "euser", "egroup",
                                                       "wchan", "cmd",   "cmdline"};

enum zd_err_kind zd_lnx_hdr_parse(zd_view payload, struct zd_lnx_hdr *out)
{
        memset(out, 0, sizeof(*out));
        if (!zd_u64(payload, 0, &out->time_stamp) || !zd_u16(payload, 8, &out->data_len) ||
            !zd_u16(payload, 10, &out->data_offset))
                return ZD_E_APPL_TRUNCATED;
        if (out->data_offset < 12 ||
            !zd_view_sub(payload, out->data_offset, out->data_len, &out->data)) {
                out->data = zd_view_make(NULL, 0);
                return ZD_E_LNX_HEADER;
        }
        return ZD_E_NONE;
}

bool zd_lnx_string(zd_view v, size_t *off, zd_view *out)
{
        uint16_t n;
        if (!zd_u16(v, *off, &n) || !zd_view_sub(v, *off + 2, n, out))
                return false;
        *off += 2 + (size_t)n;
        return true;
}

int zd_fs_next(zd_view *rest, struct zd_fs_entry *out, enum zd_err_kind *err)
{
        *err = ZD_E_NONE;
        if (rest->n == 0)
                return 0;
        size_t off = 0;
        if (!zd_lnx_string(*rest, &off, &out->name) || !zd_lnx_string(*rest, &off, &out->dir) ||
            !zd_lnx_string(*rest, &off, &out->type)) {
                *err = ZD_E_LNX_STRING;
                return -1;
        }
        if (!zd_view_sub(*rest, off, ZD_FS_STATVFS_LEN, &out->statvfs)) {
                *err = ZD_E_APPL_TRUNCATED;
                return -1;
        }
        *rest = zd_view_tail(*rest, off + ZD_FS_STATVFS_LEN);
        return 1;
}

enum zd_err_kind zd_procd_task_parse(zd_view data, struct zd_procd_task *out)
{
        memset(out, 0, sizeof(*out));
        if (!zd_view_sub(data, 0, ZD_PROCD_TASK_LEN, &out->fixed))
                return ZD_E_APPL_TRUNCATED;
        size_t off = ZD_PROCD_TASK_LEN;
        for (int i = 0; i < ZD_PROCD_NSTR; i++)
                if (!zd_lnx_string(data, &off, &out->str[i]))
                        return ZD_E_LNX_STRING;
        return ZD_E_NONE;
}
