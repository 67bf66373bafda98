/* SPDX-License-Identifier: MIT */
/*
 * Kernel APPLDATA helpers (doc/facts/kernel-drivers.md 4): sync counters and
 * the OS record's per-CPU area.  The per-CPU area is found only through the
 * record's own cpu_offset, per_cpu_size and nr_cpus, never through
 * constants, and every entry must lie inside the data CP delivered.
 */
#include <string.h>

#include "payload/appldata/appl.h"

#define LX_OS_HDR_LEN 52

bool zd_lx_consistent(zd_view data)
{
        uint32_t s1, s2;
        return zd_u32(data, 8, &s1) && zd_u32(data, 12, &s2) && s1 == s2;
}

uint64_t zd_lx_timestamp(zd_view data)
{
        uint64_t t = 0;
        (void)zd_u64(data, 0, &t);
        return t;
}

enum zd_err_kind zd_lx_os_cpus(const struct zd_appl *a, struct zd_lx_cpus *out)
{
        memset(out, 0, sizeof(*out));
        zd_view d = a->data;
        uint32_t n, size, off;
        if (d.n < LX_OS_HDR_LEN || !zd_u32(d, 16, &n) || !zd_u32(d, 20, &size) ||
            !zd_u32(d, 24, &off))
                return ZD_E_APPL_TRUNCATED;
        /* Mod level 00 kernels (<= 2.6.17) had 28-byte entries, 01 added steal and cpu_id. */
        const char *id;
        if (strcmp(a->modlvl_text, "00") == 0)
                id = "LINUXKRNL.OS.CPU00";
        else if (strcmp(a->modlvl_text, "01") == 0)
                id = "LINUXKRNL.OS.CPU01";
        else
                id = size >= 36 ? "LINUXKRNL.OS.CPU01" : "LINUXKRNL.OS.CPU00";
        const struct zl_layout *l = zl_find(id, SIZE_MAX);
        if (!l)
                return ZD_E_LX_CPUS;
        out->entry = l;
        if (n == 0)
                return ZD_E_NONE; /* nothing to locate; offset and size are not used */
        if (size < l->min_len || off < LX_OS_HDR_LEN || off > d.n || n > (d.n - off) / size)
                return ZD_E_LX_CPUS;
        out->n = n;
        out->off = off;
        out->step = size;
        return ZD_E_NONE;
}

zd_view zd_lx_cpu_entry(const struct zd_lx_cpus *c, zd_view data, uint32_t i)
{
        zd_view e = {NULL, 0};
        if (c->entry && i < c->n)
                (void)zd_view_sub(data, c->off + (size_t)i * c->step, c->step, &e);
        return e;
}
