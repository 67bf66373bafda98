/* SPDX-License-Identifier: MIT */
/*
 * s390-tools monwriter payloads (mon_tools/mon_fsstatd.h, mon_procd.h),
 * doc/facts/s390-tools.md 1-3.  Offsets count from the application data
 * start (LNXAPPL.HDR) or, for the others, from where appl_lnx.c locates
 * them: the statvfs block after the three strings of a mon_fsstatd entry,
 * the summary and the task fixed part at the header's data_offset.
 * Member names of nested structs are joined with '_' (task_total, cpu_user).
 * mon_procd's CPU shares are 1/100 %; its time stamps are Unix seconds.
 */
#include "layout/layout.h"

#define FS "s390-tools mon_fsstatd.h (MIT); IBM lddd mon_fsstatd"
#define PR "s390-tools mon_procd.h (MIT); IBM lddd mon_procd"
#define G  ZL_K_GAUGE
#define C  ZL_K_COUNTER
#define N  ZL_K_NONE
#define F(name, off, len, type, kind, unit, src, desc)                                             \
        {                                                                                          \
                name, off, len, type, ZL_VERIFIED, kind, unit, src, desc                           \
        }

/* clang-format off */
static const struct zl_field hdr_fields[] = {
    F("time_stamp",  0,  8, ZL_UINT, N, "s",     FS, "Unix seconds of the writer's pass"),
    F("data_len",    8,  2, ZL_UINT, N, "bytes", FS, "length of the data after the header"),
    F("data_offset", 10, 2, ZL_UINT, N, "bytes", FS, "offset of the data from the header start (12)"),
};
/* clang-format on */

/* clang-format off */
static const struct zl_field fs_fields[] = {
    F("fs_bsize",  0,  8, ZL_UINT, N, "bytes",     FS, "file system block size"),
    F("fs_frsize", 8,  8, ZL_UINT, N, "bytes",     FS, "fragment size (unit of the block counts)"),
    F("fs_blocks", 16, 8, ZL_UINT, G, "fragments", FS, "size of the file system"),
    F("fs_bfree",  24, 8, ZL_UINT, G, "fragments", FS, "free blocks"),
    F("fs_bavail", 32, 8, ZL_UINT, G, "fragments", FS, "free blocks for unprivileged users"),
    F("fs_files",  40, 8, ZL_UINT, G, "count",     FS, "inodes"),
    F("fs_ffree",  48, 8, ZL_UINT, G, "count",     FS, "free inodes"),
    F("fs_favail", 56, 8, ZL_UINT, G, "count",     FS, "free inodes for unprivileged users"),
    F("fs_flag",   64, 8, ZL_BITS, N, NULL,        FS, "mount flags (statvfs f_flag)"),
};
/* clang-format on */

/* clang-format off */
static const struct zl_field sum_fields[] = {
    F("uptime",        0,   8, ZL_UINT,  G, "s",       PR, "seconds since boot"),
    F("users",         8,   4, ZL_UINT,  G, "count",   PR, "logged-in users (utmp USER_PROCESS)"),
    F("loadavg_1",     12,  6, ZL_ASCII, G, NULL,      PR, "1-minute load average as text"),
    F("loadavg_5",     18,  6, ZL_ASCII, G, NULL,      PR, "5-minute load average as text"),
    F("loadavg_15",    24,  6, ZL_ASCII, G, NULL,      PR, "15-minute load average as text"),
    F("task_total",    30,  4, ZL_UINT,  G, "count",   PR, "tasks"),
    F("task_running",  34,  4, ZL_UINT,  G, "count",   PR, "running tasks"),
    F("task_sleeping", 38,  4, ZL_UINT,  G, "count",   PR, "sleeping tasks (S and D)"),
    F("task_stopped",  42,  4, ZL_UINT,  G, "count",   PR, "stopped tasks"),
    F("task_zombie",   46,  4, ZL_UINT,  G, "count",   PR, "zombie tasks"),
    F("cpu_num_cpus",  50,  4, ZL_UINT,  G, "count",   PR, "online CPUs"),
    F("cpu_user",      54,  2, ZL_UINT,  G, "1/100 %", PR, "user share"),
    F("cpu_nice",      56,  2, ZL_UINT,  G, "1/100 %", PR, "nice share"),
    F("cpu_system",    58,  2, ZL_UINT,  G, "1/100 %", PR, "system share"),
    F("cpu_idle",      60,  2, ZL_UINT,  G, "1/100 %", PR, "idle share"),
    F("cpu_iowait",    62,  2, ZL_UINT,  G, "1/100 %", PR, "iowait share"),
    F("cpu_irq",       64,  2, ZL_UINT,  G, "1/100 %", PR, "irq share"),
    F("cpu_softirq",   66,  2, ZL_UINT,  G, "1/100 %", PR, "softirq share"),
    F("cpu_steal",     68,  2, ZL_UINT,  G, "1/100 %", PR, "steal share"),
    F("mem_total",     70,  8, ZL_UINT,  G, "KB",      PR, "MemTotal"),
    F("mem_used",      78,  8, ZL_UINT,  G, "KB",      PR, "MemTotal - MemFree"),
    F("mem_free",      86,  8, ZL_UINT,  G, "KB",      PR, "MemFree"),
    F("mem_buffers",   94,  8, ZL_UINT,  G, "KB",      PR, "Buffers"),
    F("mem_pgpgin",    102, 8, ZL_UINT,  C, "KB",      PR, "vmstat pgpgin shifted by the page shift (writer quirk: already KB)"),
    F("mem_pgpgout",   110, 8, ZL_UINT,  C, "KB",      PR, "vmstat pgpgout shifted by the page shift (writer quirk: already KB)"),
    F("swap_total",    118, 8, ZL_UINT,  G, "KB",      PR, "SwapTotal"),
    F("swap_used",     126, 8, ZL_UINT,  G, "KB",      PR, "SwapTotal - SwapFree"),
    F("swap_free",     134, 8, ZL_UINT,  G, "KB",      PR, "SwapFree"),
    F("swap_cached",   142, 8, ZL_UINT,  G, "KB",      PR, "Cached of /proc/meminfo"),
    F("swap_pswpin",   150, 8, ZL_UINT,  C, "pages",   PR, "pages swapped in"),
    F("swap_pswpout",  158, 8, ZL_UINT,  C, "pages",   PR, "pages swapped out"),
};
/* clang-format on */

/* clang-format off */
static const struct zl_field task_fields[] = {
    F("pid",         0,   4, ZL_UINT,  N, NULL,      PR, "process id"),
    F("ppid",        4,   4, ZL_UINT,  N, NULL,      PR, "parent process id"),
    F("euid",        8,   4, ZL_UINT,  N, NULL,      PR, "effective uid (writer keeps 16 bits)"),
    F("tty",         12,  2, ZL_UINT,  N, NULL,      PR, "controlling terminal"),
    F("priority",    14,  2, ZL_SINT,  G, NULL,      PR, "priority"),
    F("nice",        16,  2, ZL_SINT,  G, NULL,      PR, "nice value"),
    F("processor",   18,  4, ZL_UINT,  N, NULL,      PR, "CPU last run on"),
    F("pcpu",        22,  2, ZL_UINT,  G, "1/100 %", PR, "CPU share (capped at 9999)"),
    F("pmem",        24,  2, ZL_UINT,  G, "1/100 %", PR, "share of MemTotal"),
    F("total_time",  26,  8, ZL_UINT,  C, "1/100 s", PR, "utime + stime (writer assumes HZ 100)"),
    F("ctotal_time", 34,  8, ZL_UINT,  C, "1/100 s", PR, "total_time with children"),
    F("size",        42,  8, ZL_UINT,  G, "KB",      PR, "virtual size"),
    F("swap",        50,  8, ZL_UINT,  G, "KB",      PR, "size - resident"),
    F("resident",    58,  8, ZL_UINT,  G, "KB",      PR, "resident set"),
    F("trs",         66,  8, ZL_UINT,  G, "KB",      PR, "text resident set"),
    F("drs",         74,  8, ZL_UINT,  G, "KB",      PR, "data resident set"),
    F("share",       82,  8, ZL_UINT,  G, "KB",      PR, "shared pages"),
    F("dt",          90,  8, ZL_UINT,  G, "pages",   PR, "dirty pages (statm field 7)"),
    F("maj_flt",     98,  8, ZL_UINT,  C, "count",   PR, "major faults"),
    F("state",       106, 1, ZL_ASCII, N, NULL,      PR, "state character (R, S, D, Z, T ...)"),
    F("flags",       107, 4, ZL_BITS,  N, NULL,      PR, "task flags"),
};
/* clang-format on */

/* clang-format off */
static const struct zl_layout layouts[] = {
    {"LNXAPPL.HDR",    "mon_hdr",         -1, -1, 12,  "s390-tools 1.x-2.43", FS, hdr_fields,  ZL_COUNT(hdr_fields)},
    {"LNXAPPL.1.0.FS", "fsstatd_statvfs", -1, -1, 72,  "s390-tools 1.x-2.43", FS, fs_fields,   ZL_COUNT(fs_fields)},
    {"LNXAPPL.2.0",    "proc_sum_t",      -1, -1, 166, "s390-tools 1.x-2.43", PR, sum_fields,  ZL_COUNT(sum_fields)},
    {"LNXAPPL.2.1",    "task_t",          -1, -1, 111, "s390-tools 1.x-2.43", PR, task_fields, ZL_COUNT(task_fields)},
};
/* clang-format on */
ZL_TABLE(lnxappl, layouts);
