/* SPDX-License-Identifier: MIT */
/*
 * The screens as data: each a key column and a table of number columns, and
 * the metrics (doc/metrics-cp.md) that fill them.  A screen is this table and
 * its row key, never code of its own: the model, the text, the order and the
 * JSON read every screen through these.
 */
#include <string.h>
#include <strings.h>

#include "top_model.h"

const struct top_coldef top_cols[TOP_NCOL] = {
    [TOP_CPU] = {'c', "cpu", "CPU%", 7, 1, "guest-cpu",
                 "CPU time of all its virtual CPUs, % of one processor (USEACT_VMDTTIME)"},
    [TOP_VCPU] = {'v', "vcpu", "VCPU%", 7, 1, "guest-vcpu",
                  "virtual CPU time, % of one processor (USEACT_VMDVTIME)"},
    [TOP_PAGE] = {'p', "paging", "PAGE/s", 8, 1, "paging",
                  "pages read and written per second (USEACT_CALCPPGR + CALCPPGW)"},
    [TOP_VIO] = {'i', "vio", "VIO/s", 8, 1, "guest-vio",
                 "virtual I/O requests per second (USEACT_VMDVCSCT ... VMDVOSCT)"},
    [TOP_RES] = {'r', "resident", "RES-MiB", 9, 1, "guest-resident",
                 "resident storage, MiB (USEACT_VMDCTPVR)"},
    [TOP_LOAD] = {'l', "load", "LOAD", 6, 2, NULL,
                  "the Linux guest's own 1-minute load average (APPLDATA OS)", true},
    [TOP_LMEM] = {'m', "linux_mem", "USED-MiB", 9, 1, NULL,
                  "memory the Linux guest uses, MiB (APPLDATA MEM: total - free - buffers - "
                  "cached)"},
};

const struct top_coldef top_syscols[TOP_NSYS] = {
    [TOP_S_BUSY] = {0, "cpu_busy", "busy %", 0, 1, NULL, "processors busy, average %"},
    [TOP_S_USED] = {0, "storage_used_gib", "used GiB", 0, 2, "storage",
                    "pageable storage in use, GiB"},
    [TOP_S_FREE] = {0, "storage_free_gib", "free GiB", 0, 2, "storage", "storage available, GiB"},
    [TOP_S_PAGE] = {0, "paging", "paging/s", 0, 1, "paging", "pages read and written per s"},
    [TOP_S_USERS] = {0, "users", "users", 0, 0, NULL, "users logged on"},
};

enum { P_BUSY, P_USER, P_SYS, P_EMUL, P_WAIT, P_DIAG, P_SIMUL, P_SSCH, P_NCOL };
static const struct top_coldef cpu_cols[P_NCOL] = {
    [P_BUSY] = {'b', "busy", "BUSY%", 7, 1, NULL, "busy: user + overhead (SYTPRP)"},
    [P_USER] = {'u', "user", "USER%", 7, 1, NULL, "time charged to users (PFXUTIME)"},
    [P_SYS] = {'o', "overhead", "SYS%", 7, 1, NULL, "time charged to the system, CP (PFXTMSYS)"},
    [P_EMUL] = {'e', "emulation", "EMUL%", 7, 1, NULL, "emulation time, all users (PFXPRBTM)"},
    [P_WAIT] = {'w', "wait", "WAIT%", 7, 1, "cpu-wait", "wait time (PFXTOTWT)"},
    [P_DIAG] = {'d', "diagnose", "DIAG/s", 9, 1, NULL, "DIAGNOSE instructions per s (PLSDIAGT)",
                true},
    [P_SIMUL] = {'s', "simulation", "SIMUL/s", 9, 1, NULL,
                 "simulated instructions per s (PLSPRVIS)"},
    [P_SSCH] = {'i', "ssch", "SSCH/s", 9, 1, NULL, "START + RESUME SUBCHANNEL per s (PLSCTSS)"},
};

enum { L_DISP, L_MGMT, L_NCOL };
static const struct top_coldef lpar_cols[L_NCOL] = {
    [L_DISP] = {'d', "dispatched", "DISP%", 8, 1, "lpar",
                "time the logical CPU was dispatched, management included (LCUCACTM)"},
    [L_MGMT] = {'m', "management", "MGMT%", 8, 1, "lpar",
                "of it, LPAR management time (LCUCACTM - LCUCLPTM)"},
};

static const struct top_coldef storage_cols[1] = {
    {'v', "value", "VALUE", 14, 2, NULL, "the item's value, in the unit its name gives"},
};

enum { D_SSCH, D_CONN, D_PEND, D_DISC, D_ACTV, D_NCOL };
static const struct top_coldef dev_cols[D_NCOL] = {
    [D_SSCH] = {'s', "ssch", "SSCH/s", 9, 1, "device-ssch", "SSCH + RSCH per s (SCGSSCH)"},
    [D_CONN] = {'c', "connect_ms", "CONN-ms", 9, 2, "device-time",
                "connect time per SSCH, ms (SCMCNTIM)", true, 1 + D_SSCH},
    [D_PEND] = {'p', "pending_ms", "PEND-ms", 9, 2, "device-time",
                "function-pending time per SSCH, ms (SCMFPTIM)", false, 1 + D_SSCH},
    [D_DISC] = {'d', "disconnect_ms", "DISC-ms", 9, 2, "device-time",
                "disconnect time per SSCH, ms (SCMDDTIM)", false, 1 + D_SSCH},
    [D_ACTV] = {'a', "active_ms", "ACTV-ms", 9, 2, "device-time",
                "device-active-only time per SSCH, ms (SCMDATIM)", false, 1 + D_SSCH},
};

enum { N_RXB, N_TXB, N_RXP, N_TXP, N_RXE, N_TXE, N_RXD, N_TXD, N_NCOL };
static const struct top_coldef vnic_cols[N_NCOL] = {
    [N_RXB] = {'r', "rx_bytes", "RX-B/s", 9, 0, "vnic", "bytes received per s (SESRXBYT)"},
    [N_TXB] = {'t', "tx_bytes", "TX-B/s", 9, 0, "vnic", "bytes sent per s (SESTXBYT)"},
    [N_RXP] = {'x', "rx_packets", "RXPK/s", 8, 1, "vnic", "packets received per s (SESRXPKT)"},
    [N_TXP] = {'y', "tx_packets", "TXPK/s", 8, 1, "vnic", "packets sent per s (SESTXPKT)"},
    [N_RXE] = {'e', "rx_errors", "RXER/s", 7, 1, "vnic", "receive errors per s (SESRXERR)"},
    [N_TXE] = {'f', "tx_errors", "TXER/s", 7, 1, "vnic", "send errors per s (SESTXERR)"},
    [N_RXD] = {'d', "rx_dropped", "RXDR/s", 7, 1, "vnic", "received packets discarded per s"},
    [N_TXD] = {'g', "tx_dropped", "TXDR/s", 7, 1, "vnic", "packets to send discarded per s"},
};

const struct top_scrdef top_screens[TOP_NSCR] = {
    [TOP_SCR_GUESTS] = {'1', "guests", "guests", "USERID", "userid", 'u', 8, top_cols, TOP_NCOL,
                        TOP_CPU, false, "CP's view of each guest, then its own (APPLDATA)"},
    [TOP_SCR_CPUS] = {'2', "processors", "processors", "CPU", "cpu", 'k', 6, cpu_cols, P_NCOL,
                      P_BUSY, false,
                      "per logical processor (D0R1, D0R2); no type (CP, IFL, zIIP) or SMT "
                      "thread column: the engine gives neither"},
    [TOP_SCR_LPAR] = {'3', "lpar", "LPAR", "PARTITION CPU", "partition_cpu", 'k', 20, lpar_cols,
                      L_NCOL, L_DISP, false, "per partition and logical CPU (D0R16 SYTCUP)"},
    [TOP_SCR_STORAGE] = {'4', "storage", "storage and paging", "ITEM", "item", 'k', 30,
                         storage_cols, 1, TOP_BY_KEY, true,
                         "the system's storage, paging and users (D0R1, D0R3, D0R8), and any "
                         "other zvm-storage or zvm-system value"},
    [TOP_SCR_DEVICES] = {'5', "devices", "devices", "DEVICE", "device", 'k', 6, dev_cols, D_NCOL,
                         D_SSCH, false,
                         "per device number: I/O rate and response time components per SSCH "
                         "(D6R3 IODDEV)"},
    [TOP_SCR_VNICS] = {'6', "vnics", "vNICs", "OWNER-DEV", "vnic", 'k', 14, vnic_cols, N_NCOL,
                       N_RXB, false, "per virtual NIC, its owner and device number (D8R1 VNDSES)"},
};

#define GIB (1.0 / 1073741824)
/*
 * Which metric fills which cell.  A metric that matches several entries
 * fills each (storage pageable is used + free: entries that share a cell
 * add).  Storage rows are named by their label, in this table's order.
 */
const struct top_feed top_feeds[] = {
    {TOP_SCR_CPUS, "cpu*", "percent", "busy", P_BUSY, 0, false, 1},
    {TOP_SCR_CPUS, "cpu*", "percent", "user", P_USER, 0, false, 1},
    {TOP_SCR_CPUS, "cpu*", "percent", "overhead", P_SYS, 0, false, 1},
    {TOP_SCR_CPUS, "cpu*", "percent", "emulation", P_EMUL, 0, false, 1},
    {TOP_SCR_CPUS, "cpu*", "percent", "wait", P_WAIT, 0, false, 1},
    {TOP_SCR_CPUS, "cpu*", "operations", "diagnose", P_DIAG, 0, true, 1},
    {TOP_SCR_CPUS, "cpu*", "operations", "simulation", P_SIMUL, 0, true, 1},
    {TOP_SCR_CPUS, "cpu*", "operations", "ssch", P_SSCH, 0, true, 1},
    /* "-management" first: "*" would take it as a CPU of its own. */
    {TOP_SCR_LPAR, "lpar-*", "percent", "*-management", L_MGMT, 0, false, 1},
    {TOP_SCR_LPAR, "lpar-*", "percent", "*", L_DISP, 0, false, 1},
    {TOP_SCR_STORAGE, "storage", "memory", "used", 0, 0, false, GIB, "storage used GiB", 3},
    {TOP_SCR_STORAGE, "storage", "memory", "free", 0, 0, false, GIB, "storage free GiB", 3},
    {TOP_SCR_STORAGE, "storage", "memory", "used", 0, 0, false, GIB, "storage pageable GiB", 3},
    {TOP_SCR_STORAGE, "storage", "memory", "free", 0, 0, false, GIB, "storage pageable GiB", 3},
    {TOP_SCR_STORAGE, "storage", "vmpage_io", "paging", 0, 0, true, 1, "paging in /s", 2},
    {TOP_SCR_STORAGE, "storage", "vmpage_io", "paging", 0, 1, true, 1, "paging out /s", 2},
    {TOP_SCR_STORAGE, "system", "users", "logged-on", 0, 0, false, 1, "users logged on", 1},
    {TOP_SCR_STORAGE, "system", "users", "dormant", 0, 0, false, 1, "users dormant", 1},
    {TOP_SCR_STORAGE, "storage", "memory", "save-areas", 0, 0, false, GIB, "storage save areas GiB",
     3},
    {TOP_SCR_STORAGE, "storage", "memory", "execution-space", 0, 0, false, GIB,
     "execution space GiB", 3},
    {TOP_SCR_STORAGE, "storage", "operations", "paging-slots-90-full", 0, 0, true, 1,
     "paging slots 90% full /s", 3},
    {TOP_SCR_STORAGE, "system", "operations", "fast-ccw-translations", 0, 0, true, 1,
     "fast CCW translations /s", 2},
    {TOP_SCR_STORAGE, "system", "operations", "transactions-mp-trivial", 0, 0, true, 1,
     "MP trivial transactions /s", 3},
    {TOP_SCR_STORAGE, "system", "operations", "transactions-mp-nontrivial", 0, 0, true, 1,
     "MP non-trivial transactions /s", 3},
    {TOP_SCR_STORAGE, "system", "response_time", "transactions-mp-trivial", 0, 0, false, 1,
     "MP trivial response s", 4},
    {TOP_SCR_STORAGE, "system", "response_time", "transactions-mp-nontrivial", 0, 0, false, 1,
     "MP non-trivial response s", 4},
    {TOP_SCR_DEVICES, "device-*", "operations", "ssch", D_SSCH, 0, true, 1},
    /* The times are ms per s here; the frame divides them by SSCH per s (per). */
    {TOP_SCR_DEVICES, "device-*", "total_time_in_ms", "connect", D_CONN, 0, true, 1},
    {TOP_SCR_DEVICES, "device-*", "total_time_in_ms", "pending", D_PEND, 0, true, 1},
    {TOP_SCR_DEVICES, "device-*", "total_time_in_ms", "disconnect", D_DISC, 0, true, 1},
    {TOP_SCR_DEVICES, "device-*", "total_time_in_ms", "device-active", D_ACTV, 0, true, 1},
    {TOP_SCR_VNICS, "vnic-*", "if_octets", "", N_RXB, 0, true, 1},
    {TOP_SCR_VNICS, "vnic-*", "if_octets", "", N_TXB, 1, true, 1},
    {TOP_SCR_VNICS, "vnic-*", "if_packets", "", N_RXP, 0, true, 1},
    {TOP_SCR_VNICS, "vnic-*", "if_packets", "", N_TXP, 1, true, 1},
    {TOP_SCR_VNICS, "vnic-*", "if_errors", "", N_RXE, 0, true, 1},
    {TOP_SCR_VNICS, "vnic-*", "if_errors", "", N_TXE, 1, true, 1},
    {TOP_SCR_VNICS, "vnic-*", "if_dropped", "", N_RXD, 0, true, 1},
    {TOP_SCR_VNICS, "vnic-*", "if_dropped", "", N_TXD, 1, true, 1},
};
const size_t top_nfeeds = sizeof(top_feeds) / sizeof(top_feeds[0]);

const char top_legend[] =
    "? = hint field, its law not proven yet   - = no value yet, or no APPLDATA";

int top_scr_by_name(const char *s)
{
        if (!strcasecmp(s, "all"))
                return TOP_NSCR;
        for (int k = 0; k < TOP_NSCR; k++)
                if ((s[0] == top_screens[k].key && !s[1]) || !strcasecmp(s, top_screens[k].name))
                        return k;
        return -1;
}

int top_col_by_name(int scr, const char *s)
{
        const struct top_scrdef *d = &top_screens[scr];
        if ((s[0] == d->keykey && !s[1]) || !strcasecmp(s, d->keyname))
                return TOP_BY_KEY;
        for (int k = 0; k < d->ncol; k++)
                if ((s[0] == d->cols[k].key && !s[1]) || !strcasecmp(s, d->cols[k].name))
                        return k;
        return -1;
}

int top_col_by_key(int scr, int key)
{
        char s[2] = {(char)key, 0};
        return key > 0 && key < 128 ? top_col_by_name(scr, s) : -1;
}
