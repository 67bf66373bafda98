/* SPDX-License-Identifier: MIT */
/*
 * Kernel APPLDATA payloads (arch/s390/appldata), doc/facts/kernel-drivers.md 4
 * and IBM's "APPLDATA monitor record layout" page.  Offsets count from the
 * start of the application data (CALDATOF), not from the z/VM record.
 * Field names are the kernel's struct members; avenrun[3] is split into
 * avenrun_1/_5/_15 (fixed point, value / 2048).
 */
#include "layout/layout.h"

#define K   "linux arch/s390/appldata; IBM lddd APPLDATA layout"
#define KOS "linux appldata_os.c; IBM lddd APPLDATA layout"

#define U(name, off, len, kind, unit, desc)                                                        \
        {                                                                                          \
                name, off, len, ZL_UINT, ZL_VERIFIED, kind, unit, K, desc                          \
        }
#define G ZL_K_GAUGE
#define C ZL_K_COUNTER
#define N ZL_K_NONE

/* clang-format off */
#define COMMON                                                                                           \
    {"timestamp", 0, 8, ZL_TOD, ZL_VERIFIED, N, "tod", K, "TOD when the guest last updated the record"}, \
    U("sync_count_1", 8,  4, N, NULL, "incremented before an update"),                                   \
    U("sync_count_2", 12, 4, N, NULL, "incremented after an update; must equal sync_count_1")
/* clang-format on */

/* clang-format off */
static const struct zl_field mem_fields[] = {
    COMMON,
    U("pgpgin",     16,  8, C, "KB",    "data read from disk"),
    U("pgpgout",    24,  8, C, "KB",    "data written to disk"),
    U("pswpin",     32,  8, C, "pages", "pages swapped in"),
    U("pswpout",    40,  8, C, "pages", "pages swapped out"),
    U("sharedram",  48,  8, G, "KB",    "shared RAM; IBM says KB, the kernel stores sysinfo.sharedram unconverted (pages)"),
    U("totalram",   56,  8, G, "KB",    "total usable main memory"),
    U("freeram",    64,  8, G, "KB",    "free memory"),
    U("totalhigh",  72,  8, G, "KB",    "total high memory (0 on s390)"),
    U("freehigh",   80,  8, G, "KB",    "free high memory"),
    U("bufferram",  88,  8, G, "KB",    "Buffers of /proc/meminfo"),
    U("cached",     96,  8, G, "KB",    "page cache without buffers, swap cache included"),
    U("totalswap",  104, 8, G, "KB",    "total swap space"),
    U("freeswap",   112, 8, G, "KB",    "free swap space"),
    U("pgalloc",    120, 8, C, "pages", "page allocations"),
    U("pgfault",    128, 8, C, "count", "page faults, major and minor"),
    U("pgmajfault", 136, 8, C, "count", "major page faults"),
};
/* clang-format on */

#undef K
#define K KOS
/* clang-format off */
static const struct zl_field os_fields[] = {
    COMMON,
    U("nr_cpus",      16, 4, G, "count",  "per-CPU entries present (online CPUs at update)"),
    U("per_cpu_size", 20, 4, N, "bytes",  "size of one per-CPU entry (28 mod 00, 36 mod 01)"),
    U("cpu_offset",   24, 4, N, "bytes",  "offset of the first per-CPU entry (52)"),
    U("nr_running",   28, 4, G, "count",  "runnable threads"),
    U("nr_threads",   32, 4, G, "count",  "threads"),
    U("avenrun_1",    36, 4, G, "1/2048", "1-minute load average, fixed point (value / 2048)"),
    U("avenrun_5",    40, 4, G, "1/2048", "5-minute load average, fixed point (value / 2048)"),
    U("avenrun_15",   44, 4, G, "1/2048", "15-minute load average, fixed point (value / 2048)"),
    U("nr_iowait",    48, 4, G, "count",  "threads blocked on I/O"),
};
/* clang-format on */

/* clang-format off */
#define CPU_COMMON                                                     \
    U("per_cpu_user",    0,  4, C, "jiffies", "user mode time"),       \
    U("per_cpu_nice",    4,  4, C, "jiffies", "niced user mode time"), \
    U("per_cpu_system",  8,  4, C, "jiffies", "kernel mode time"),     \
    U("per_cpu_idle",    12, 4, C, "jiffies", "idle time"),            \
    U("per_cpu_irq",     16, 4, C, "jiffies", "hard interrupt time"),  \
    U("per_cpu_softirq", 20, 4, C, "jiffies", "soft interrupt time"),  \
    U("per_cpu_iowait",  24, 4, C, "jiffies", "time waiting for I/O")
/* clang-format on */

static const struct zl_field cpu00_fields[] = {CPU_COMMON};
/* clang-format off */
static const struct zl_field cpu01_fields[] = {
    CPU_COMMON,
    U("per_cpu_steal", 28, 4, C, "jiffies", "time stolen by the hypervisor"),
    U("cpu_id",        32, 4, N, NULL,      "Linux CPU number"),
};
/* clang-format on */

#undef K
#define K "linux appldata_net_sum.c; IBM lddd APPLDATA layout"
/* clang-format off */
static const struct zl_field net_fields[] = {
    COMMON,
    U("nr_interfaces", 16, 4, G, "count", "network devices summed (lo and down ones included)"),
    {"padding", 20, 4, ZL_RSVD, ZL_VERIFIED, N, NULL, K, "aligns the counters"},
    U("rx_packets", 24, 8, C, "packets", "packets received"),
    U("tx_packets", 32, 8, C, "packets", "packets transmitted"),
    U("rx_bytes",   40, 8, C, "bytes",   "bytes received"),
    U("tx_bytes",   48, 8, C, "bytes",   "bytes transmitted"),
    U("rx_errors",  56, 8, C, "packets", "bad packets received"),
    U("tx_errors",  64, 8, C, "packets", "transmit problems"),
    U("rx_dropped", 72, 8, C, "packets", "incoming packets dropped"),
    U("tx_dropped", 80, 8, C, "packets", "outgoing packets dropped"),
    U("collisions", 88, 8, C, "count",   "collisions while transmitting"),
};
/* clang-format on */
#undef K

/* clang-format off */
static const struct zl_layout layouts[] = {
    {"LINUXKRNL.MEM",      "APPLDATA_MEM_DATA",     -1, -1, 144, "Linux 2.6.12-6.x",               "linux appldata_mem.c",                                 mem_fields,   ZL_COUNT(mem_fields)},
    {"LINUXKRNL.OS",       "APPLDATA_OS_DATA",      -1, -1, 52,  "Linux 2.6.12-6.x",               "linux appldata_os.c",                                  os_fields,    ZL_COUNT(os_fields)},
    {"LINUXKRNL.OS.CPU00", "appldata_os_per_cpu",   -1, -1, 28,  "Linux <= 2.6.17 (mod level 00)", "linux appldata_os.c (2.6.12)",                         cpu00_fields, ZL_COUNT(cpu00_fields)},
    {"LINUXKRNL.OS.CPU01", "appldata_os_per_cpu",   -1, -1, 36,  "Linux >= 2.6.18 (mod level 01)", "linux appldata_os.c; LKML appldata enhancements 2006", cpu01_fields, ZL_COUNT(cpu01_fields)},
    {"LINUXKRNL.NET",      "APPLDATA_NET_SUM_DATA", -1, -1, 96,  "Linux 2.6.12-6.x",               "linux appldata_net_sum.c",                             net_fields,   ZL_COUNT(net_fields)},
};
/* clang-format on */
ZL_TABLE(linux, layouts);
