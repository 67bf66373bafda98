/* SPDX-License-Identifier: MIT */
/*
 * Every CP metric, one row each: its record, the kind of entry it is about,
 * its collectd names, how it is computed from which slots of the entry
 * (met_cp_tab.h), the fields it rests on and the law that vouches for its
 * HINT fields.  met_cp_emit.c walks the table; `zvmmon metrics --markdown`
 * writes doc/metrics-cp.md's reference from it, so a new metric is one row
 * here (and its slot filled from its field in met_cp_take.c).
 *
 * Rows of the same kind and record are emitted together, in the order
 * written, for a block of entries at a time (met_cp_emit.c): keep them
 * together.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "metric/cp/met_cp_metrics.h"
#include "metric/cp/met_cp_tab.h"
#include "metric/met_module.h"

#define GA      ZM_GAUGE
#define DE      ZM_DERIVE
#define B(i)    (1u << (i))
#define NIC_ALL 0xFFu /* every VNDSES counter: the vnic law reads them together */
#define NONE    CP_NOLAW
/* TOD-clock units per second: bit 51 is one microsecond, so 4096 units are one. */
#define TOD_PER_S 4096000000u

/* clang-format off */
const struct cp_metric cp_metrics[] = {
    /* domain, record, kind, plugin instance, type, type instance, DS, computation, slots a and b,
     * need, vouch, × mul ÷ div, law, fields, value */
    {0,  2,  CP_CPU,       "cpu<cpu>",           "percent",          "busy",                       GA, CP_PCT,      P_UT,      P_SYS,   0,          0,       1,    1,         NONE,              "SYTPRP_PFXUTIME + SYTPRP_PFXTMSYS",                                                       "CPU time charged to users and to the system"},
    {0,  2,  CP_CPU,       "cpu<cpu>",           "percent",          "user",                       GA, CP_PCT,      P_UT,      -1,      0,          0,       1,    1,         NONE,              "SYTPRP_PFXUTIME",                                                                         "CPU time charged to users: guest time and CP work for users"},
    {0,  2,  CP_CPU,       "cpu<cpu>",           "percent",          "overhead",                   GA, CP_PCT,      P_SYS,     -1,      0,          0,       1,    1,         NONE,              "SYTPRP_PFXTMSYS",                                                                         "CPU time charged to the system: CP overhead"},
    {0,  2,  CP_CPU,       "cpu<cpu>",           "percent",          "emulation",                  GA, CP_PCT,      P_PRB,     -1,      0,          0,       1,    1,         NONE,              "SYTPRP_PFXPRBTM",                                                                         "emulation time, all users"},
    {0,  2,  CP_CPU,       "cpu<cpu>",           "percent",          "wait",                       GA, CP_PCT,      P_WT,      -1,      0,          0,       1,    1,         ZV_CPU_WAIT,       "SYTPRP_PFXTOTWT",                                                                         "wait time"},
    {0,  1,  CP_CPU,       "cpu<cpu>",           "operations",       "diagnose",                   DE, CP_SUM,      Y_DIAG,    -1,      0,          0,       1,    1,         NONE,              "SYTSYP_PLSDIAGT",                                                                         "DIAGNOSE instructions"},
    {0,  1,  CP_CPU,       "cpu<cpu>",           "operations",       "simulation",                 DE, CP_SUM,      Y_PRVIS,   -1,      0,          0,       1,    1,         NONE,              "SYTSYP_PLSPRVIS",                                                                         "simulated instructions"},
    {0,  1,  CP_CPU,       "cpu<cpu>",           "operations",       "ssch",                       DE, CP_SUM,      Y_SS,      Y_RS,    0,          0,       1,    1,         NONE,              "SYTSYP_PLSCTSS + SYTSYP_PLSCTRS",                                                         "START + RESUME SUBCHANNEL"},
    {0,  3,  CP_SYSTEM,    "storage",            "memory",           "free",                       GA, CP_VAL,      R_AVAIL,   -1,      B(R_PGABL), 0,       4096, 1,         ZV_STORAGE,        "SYTRSG_RSAAVAIL",                                                                         "bytes: available frames (only when RSAPGABL was read too)"},
    {0,  3,  CP_SYSTEM,    "storage",            "memory",           "used",                       GA, CP_VAL_DIFF, R_PGABL,   R_AVAIL, 0,          0,       4096, 1,         ZV_STORAGE,        "SYTRSG_RSAPGABL - SYTRSG_RSAAVAIL",                                                       "bytes: pageable frames in use"},
    {0,  1,  CP_SYSTEM,    "storage",            "vmpage_io",        "paging",                     DE, CP_SUM2,     Y_PIOPR,   Y_PIOPW, 0,          0,       1,    1,         ZV_PAGING,         "SYTSYP_PLSPIOPR, SYTSYP_PLSPIOPW",                                                        "pages in, out: sums over the CPUs"},
    {0,  8,  CP_SYSTEM,    "system",             "users",            "logged-on",                  GA, CP_VAL,      U_USERS,   -1,      0,          0,       1,    1,         NONE,              "SYTUSR_SYSUSRS",                                                                          "users logged on"},
    {0,  8,  CP_SYSTEM,    "system",             "users",            "dormant",                    GA, CP_VAL,      U_DORM,    -1,      0,          0,       1,    1,         NONE,              "SYTUSR_SRMCDORM",                                                                         "users on the dormant list"},
    {0,  8,  CP_SYSTEM,    "system",             "operations",       "transactions-mp-trivial",    DE, CP_SUM,      U_MPTCT,   -1,      0,          0,       1,    1,         NONE,              "SYTUSR_CALMPTCT",                                                                         "trivial transactions of virtual-MP users"},
    {0,  8,  CP_SYSTEM,    "system",             "operations",       "transactions-mp-nontrivial", DE, CP_SUM,      U_MPNCT,   -1,      0,          0,       1,    1,         NONE,              "SYTUSR_CALMPNCT",                                                                         "non-trivial transactions of virtual-MP users"},
    {0,  8,  CP_SYSTEM,    "system",             "response_time",    "transactions-mp-trivial",    GA, CP_MEAN,     U_MPTRV,   U_MPTCT, 0,          0,       1,    TOD_PER_S, NONE,              "SYTUSR_CALMPTRV ÷ SYTUSR_CALMPTCT",                                                       "seconds: mean response time of a trivial transaction of a virtual-MP user"},
    {0,  8,  CP_SYSTEM,    "system",             "response_time",    "transactions-mp-nontrivial", GA, CP_MEAN,     U_MPNTR,   U_MPNCT, 0,          0,       1,    TOD_PER_S, NONE,              "SYTUSR_CALMPNTR ÷ SYTUSR_CALMPNCT",                                                       "seconds: mean response time of a non-trivial transaction of a virtual-MP user"},
    {0,  19, CP_SYSTEM,    "system",             "operations",       "fast-ccw-translations",      DE, CP_SUM,      F_FTRDONE, -1,      0,          0,       1,    1,         NONE,              "SYTSYG_FTRDONE",                                                                          "fast CCW translations completed for DASD"},
    {0,  21, CP_SYSTEM,    "storage",            "memory",           "execution-space",            GA, CP_VAL,      X_SXSSIZE, -1,      0,          0,       4096, 1,         NONE,              "SYTSXG_SXSSIZE",                                                                          "bytes: size of the system execution space"},
    {3,  1,  CP_SYSTEM,    "storage",            "memory",           "save-areas",                 GA, CP_VAL,      S_SAVFR,   -1,      0,          0,       4096, 1,         NONE,              "STORSG_RSASAVFR",                                                                         "bytes: frames in use for save areas"},
    {0,  6,  CP_SYSTEM,    "storage",            "operations",       "paging-slots-90-full",       DE, CP_SUM,      Q_90FUL,   -1,      0,          0,       1,    1,         NONE,              "SYTASG_CAL90FUL",                                                                         "times the available paging slots reached 90 % full"},
    {4,  3,  CP_GUEST,     "user-<userid>",      "percent",          "cpu-total",                  GA, CP_PCT,      G_TT,      -1,      0,          0,       1,    1,         ZV_GUEST_CPU,      "USEACT_VMDTTIME",                                                                         "total CPU time, % of one CPU averaged over the guest's virtual CPUs"},
    {4,  3,  CP_GUEST,     "user-<userid>",      "percent",          "cpu-virtual",                GA, CP_PCT,      G_VT,      -1,      0,          0,       1,    1,         ZV_GUEST_VCPU,     "USEACT_VMDVTIME",                                                                         "virtual CPU time, the same way"},
    {4,  3,  CP_GUEST,     "user-<userid>",      "virt_cpu_total",   "total",                      DE, CP_SUM,      G_TT,      -1,      0,          0,       1000, 1,         ZV_GUEST_CPU,      "USEACT_VMDTTIME",                                                                         "ns of total CPU time, all virtual CPUs"},
    {4,  3,  CP_GUEST,     "user-<userid>",      "virt_cpu_total",   "virtual",                    DE, CP_SUM,      G_VT,      -1,      0,          0,       1000, 1,         ZV_GUEST_VCPU,     "USEACT_VMDVTIME",                                                                         "ns of virtual CPU time, all virtual CPUs"},
    {4,  3,  CP_GUEST,     "user-<userid>",      "memory",           "resident",                   GA, CP_VAL,      G_RES,     -1,      0,          0,       4096, 1,         ZV_GUEST_RESIDENT, "USEACT_VMDCTPVR",                                                                         "bytes resident, all virtual CPUs"},
    {4,  3,  CP_GUEST,     "user-<userid>",      "operations",       "virtual-io",                 DE, CP_SUM,      G_VIO,     -1,      0,          0,       1,    1,         ZV_GUEST_VIO,      "USEACT_VMDVCSCT + USEACT_VMDVDSCT + USEACT_VMDVUSCT + USEACT_VMDVTSCT + USEACT_VMDVOSCT", "virtual I/O requests: console, DASD, unit record, tape, other"},
    {4,  3,  CP_GUEST,     "user-<userid>",      "vmpage_io",        "paging",                     DE, CP_SUM2,     G_PGR,     G_PGW,   0,          0,       1,    1,         ZV_PAGING,         "USEACT_CALCPPGR, USEACT_CALCPPGW",                                                        "pages read, written (in, out)"},
    {6,  3,  CP_DEVICE,    "device-<dev>",       "operations",       "ssch",                       DE, CP_SUM,      D_SSCHG,   -1,      0,          0,       1,    1,         ZV_DEVICE_SSCH,    "IODDEV_SCGSSCH",                                                                          "SSCH + RSCH (32-bit count)"},
    {6,  3,  CP_DEVICE,    "device-<dev>",       "total_time_in_ms", "connect",                    DE, CP_SUM,      D_CONN,    -1,      B(D_SSCHG), 0,       128,  1000,      ZV_DEVICE_TIME,    "IODDEV_SCMCNTIM",                                                                         "ms of connect time (the channel measurement block's 128 µs units)"},
    {6,  3,  CP_DEVICE,    "device-<dev>",       "total_time_in_ms", "pending",                    DE, CP_SUM,      D_PEND,    -1,      B(D_SSCHG), 0,       128,  1000,      ZV_DEVICE_TIME,    "IODDEV_SCMFPTIM",                                                                         "ms of function-pending time"},
    {6,  3,  CP_DEVICE,    "device-<dev>",       "total_time_in_ms", "disconnect",                 DE, CP_SUM,      D_DISC,    -1,      B(D_SSCHG), 0,       128,  1000,      ZV_DEVICE_TIME,    "IODDEV_SCMDDTIM",                                                                         "ms of disconnect time"},
    {6,  3,  CP_DEVICE,    "device-<dev>",       "total_time_in_ms", "device-active",              DE, CP_SUM,      D_DAO,     -1,      B(D_SSCHG), 0,       128,  1000,      ZV_DEVICE_TIME,    "IODDEV_SCMDATIM",                                                                         "ms of device-active-only time"},
    {8,  1,  CP_NIC,       "vnic-<owner>-<dev>", "if_octets",        NULL,                         DE, CP_SUM2,     N_RXB,     N_TXB,   NIC_ALL,    NIC_ALL, 1,    1,         ZV_VNIC,           "VNDSES_SESRXBYT, VNDSES_SESTXBYT",                                                        "bytes (rx, tx)"},
    {8,  1,  CP_NIC,       "vnic-<owner>-<dev>", "if_packets",       NULL,                         DE, CP_SUM2,     N_RXP,     N_TXP,   NIC_ALL,    NIC_ALL, 1,    1,         ZV_VNIC,           "VNDSES_SESRXPKT, VNDSES_SESTXPKT",                                                        "packets (rx, tx)"},
    {8,  1,  CP_NIC,       "vnic-<owner>-<dev>", "if_errors",        NULL,                         DE, CP_SUM2,     N_RXE,     N_TXE,   NIC_ALL,    NIC_ALL, 1,    1,         ZV_VNIC,           "VNDSES_SESRXERR, VNDSES_SESTXERR",                                                        "errors (rx, tx)"},
    {8,  1,  CP_NIC,       "vnic-<owner>-<dev>", "if_dropped",       NULL,                         DE, CP_SUM2,     N_RXD,     N_TXD,   NIC_ALL,    NIC_ALL, 1,    1,         ZV_VNIC,           "VNDSES_SESRXDSC, VNDSES_SESTXDSC",                                                        "discarded packets (rx, tx)"},
    {0,  16, CP_PARTITION, "lpar-<partition>",   "percent",          "cpu<cpu>",                   GA, CP_PCT,      L_ACT,     -1,      0,          0,       1,    1,         ZV_LPAR,           "SYTCUP_LCUCACTM",                                                                         "time the logical CPU was dispatched, LPAR management included"},
    {0,  16, CP_PARTITION, "lpar-<partition>",   "percent",          "cpu<cpu>-management",        GA, CP_PCT_DIFF, L_ACT,     L_LP,    0,          0,       1,    1,         ZV_LPAR,           "SYTCUP_LCUCACTM - SYTCUP_LCUCLPTM",                                                       "time spent on LPAR management for the logical CPU"},
    {11, 2,  CP_SSI,       "ssi",                "operations",       "entered-joining",            DE, CP_SUM,      M_NJONG,   -1,      0,          0,       1,    1,         NONE,              "SSISMI_PLMNJONG",                                                                         "times the SSI state joining was entered"},
    {11, 2,  CP_SSI,       "ssi",                "operations",       "entered-joined",             DE, CP_SUM,      M_NJOND,   -1,      0,          0,       1,    1,         NONE,              "SSISMI_PLMNJOND",                                                                         "times the SSI state joined was entered"},
    {11, 2,  CP_SSI,       "ssi",                "operations",       "entered-leaving",            DE, CP_SUM,      M_NLEAV,   -1,      0,          0,       1,    1,         NONE,              "SSISMI_PLMNLEAV",                                                                         "times the SSI state leaving was entered"},
    {11, 2,  CP_SSI,       "ssi",                "operations",       "entered-isolated",           DE, CP_SUM,      M_NISOL,   -1,      0,          0,       1,    1,         NONE,              "SSISMI_PLMNISOL",                                                                         "times the SSI state isolated was entered"},
    {11, 2,  CP_SSI,       "ssi",                "operations",       "entered-suspended",          DE, CP_SUM,      M_NSUSP,   -1,      0,          0,       1,    1,         NONE,              "SSISMI_PLMNSUSP",                                                                         "times the SSI state suspended was entered"},
    {11, 2,  CP_SSI,       "ssi",                "total_time_in_ms", "joining",                    DE, CP_SUM,      M_TJONG,   -1,      0,          0,       1,    1000,      NONE,              "SSISMI_PLMTJONG",                                                                         "ms in the SSI state joining (the field counts microseconds)"},
    {11, 2,  CP_SSI,       "ssi",                "total_time_in_ms", "joined",                     DE, CP_SUM,      M_TJOND,   -1,      0,          0,       1,    1000,      NONE,              "SSISMI_PLMTJOND",                                                                         "ms in the SSI state joined (the field counts microseconds)"},
    {11, 2,  CP_SSI,       "ssi",                "total_time_in_ms", "leaving",                    DE, CP_SUM,      M_TLEAV,   -1,      0,          0,       1,    1000,      NONE,              "SSISMI_PLMTLEAV",                                                                         "ms in the SSI state leaving (the field counts microseconds)"},
    {11, 2,  CP_SSI,       "ssi",                "total_time_in_ms", "isolated",                   DE, CP_SUM,      M_TISOL,   -1,      0,          0,       1,    1000,      NONE,              "SSISMI_PLMTISOL",                                                                         "ms in the SSI state isolated (the field counts microseconds)"},
    {11, 2,  CP_SSI,       "ssi",                "total_time_in_ms", "suspended",                  DE, CP_SUM,      M_TSUSP,   -1,      0,          0,       1,    1000,      NONE,              "SSISMI_PLMTSUSP",                                                                         "ms in the SSI state suspended (the field counts microseconds)"},
    {11, 1,  CP_SSI,       "ssi",                "operations",       "sync-started",               DE, CP_SUM,      C_SYCNT,   -1,      0,          0,       1,    1,         NONE,              "SSISCS_PLMSYCNT",                                                                         "SSI state-change synchronizations started"},
    {11, 1,  CP_SSI,       "ssi",                "operations",       "sync-proceed-replies",       DE, CP_SUM,      C_SYPRO,   -1,      0,          0,       1,    1,         NONE,              "SSISCS_PLMSYPRO",                                                                         "Proceed-With-Reply messages sent"},
};
/* clang-format on */

const size_t cp_nmetrics = sizeof(cp_metrics) / sizeof(cp_metrics[0]);

const char *cp_calc_name(enum cp_calc c)
{
        static const char *const name[CP_NCALCS] = {
            [CP_PCT] = "Δ as % of elapsed", [CP_PCT_DIFF] = "Δ as % of elapsed",
            [CP_SUM] = "sum of Δ",          [CP_SUM2] = "sums of Δ, one value each",
            [CP_VAL] = "reading",           [CP_VAL_DIFF] = "reading",
            [CP_MEAN] = "mean: Δ ÷ Δ",
        };
        return (unsigned)c < CP_NCALCS ? name[c] : "?";
}

const char *cp_calc_when(enum cp_calc c)
{
        if (c == CP_MEAN)
                return "when the count's Δ > 0";
        return c == CP_PCT_DIFF || c == CP_VAL_DIFF ? "when not negative" : NULL;
}

enum zm_ds cp_calc_ds(enum cp_calc c)
{
        return c == CP_SUM || c == CP_SUM2 ? ZM_DERIVE : ZM_GAUGE;
}

const char *cp_kind_name(enum cp_kind k)
{
        static const char *const name[CP_NKINDS] = {
            [CP_CPU] = "cpu",     [CP_SYSTEM] = "system", [CP_PARTITION] = "partition",
            [CP_GUEST] = "guest", [CP_DEVICE] = "device", [CP_NIC] = "nic",
            [CP_SSI] = "ssi",
        };
        return (unsigned)k < CP_NKINDS ? name[k] : "?";
}

/* The value for a <token> of an instance pattern into out; false for unknown tokens. */
static bool token(char *out, size_t outsz, const char *t, size_t tl, uint32_t id, const char *name)
{
        static const char *const names[] = {"<userid>", "<owner>", "<partition>"};
        /* As snprintf's "%u" and "%04X" would, cut alike: labels are made per entry. */
        if (tl == 5 && memcmp(t, "<cpu>", 5) == 0) {
                out[zm_put_dec(out, outsz, 0, id)] = '\0';
                return true;
        }
        if (tl == 5 && memcmp(t, "<dev>", 5) == 0) {
                out[zm_put_hex4(out, outsz, 0, id)] = '\0';
                return true;
        }
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
                if (tl == strlen(names[i]) && memcmp(t, names[i], tl) == 0) {
                        snprintf(out, outsz, "%s", name);
                        return true;
                }
        return false;
}

char *cp_pattern(char *out, size_t outsz, const char *p, uint32_t id, const char *name)
{
        size_t o = 0;
        out[0] = '\0';
        while (*p && o + 1 < outsz) {
                const char *end = *p == '<' ? strchr(p, '>') : NULL;
                if (end && token(out + o, outsz - o, p, (size_t)(end - p + 1), id, name)) {
                        o += strlen(out + o);
                        p = end + 1;
                        continue;
                }
                out[o++] = *p++;
                out[o] = '\0';
        }
        return out;
}
