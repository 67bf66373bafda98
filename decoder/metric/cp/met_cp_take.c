/* SPDX-License-Identifier: MIT */
/*
 * The CP sample records the module reads, as data: for each, where its
 * entries live, how an entry's key is made, and which field fills which
 * slot (the slot names are met_cp_tab.h's).  A new metric from a field
 * not read yet is a slot and a field here, then a row in met_cp_metrics.c.
 */
#include <stdbool.h>
#include <stddef.h>

#include "metric/cp/met_cp_take.h"

#define TAB(t) offsetof(struct cp_state, t)

const struct cp_take cp_takes[] = {
    {.domain = 0,
     .record = 1,
     .key = CP_KEY_CPU,
     .at = TAB(syp),
     .id = "SYTSYP_PFXCPUAD",
     .field = {[Y_DIAG] = "SYTSYP_PLSDIAGT",
               [Y_PRVIS] = "SYTSYP_PLSPRVIS",
               [Y_SS] = "SYTSYP_PLSCTSS",
               [Y_RS] = "SYTSYP_PLSCTRS",
               [Y_PIOPR] = "SYTSYP_PLSPIOPR",
               [Y_PIOPW] = "SYTSYP_PLSPIOPW"}},
    {.domain = 0,
     .record = 2,
     .key = CP_KEY_CPU,
     .at = TAB(prp),
     .id = "SYTPRP_PFXCPUAD",
     .field = {[P_UT] = "SYTPRP_PFXUTIME",
               [P_SYS] = "SYTPRP_PFXTMSYS",
               [P_PRB] = "SYTPRP_PFXPRBTM",
               [P_WT] = "SYTPRP_PFXTOTWT"}},
    {.domain = 0,
     .record = 3,
     .key = CP_KEY_ONE,
     .at = TAB(rsg),
     .field = {[R_AVAIL] = "SYTRSG_RSAAVAIL",
               [R_PGABL] = "SYTRSG_RSAPGABL",
               [R_SAVFR] = "SYTRSG_RSASAVFR"}},
    {.domain = 0,
     .record = 8,
     .key = CP_KEY_ONE,
     .at = TAB(usr),
     .field = {[U_USERS] = "SYTUSR_SYSUSRS",
               [U_DORM] = "SYTUSR_SRMCDORM",
               [U_MPTCT] = "SYTUSR_CALMPTCT",
               [U_MPNCT] = "SYTUSR_CALMPNCT",
               [U_MPTRV] = "SYTUSR_CALMPTRV",
               [U_MPNTR] = "SYTUSR_CALMPNTR"}},
    {.domain = 0,
     .record = 6,
     .key = CP_KEY_ONE,
     .at = TAB(asg),
     .field = {[Q_90FUL] = "SYTASG_CAL90FUL"}},
    /* The name is the record's partition; id and slots are its per-CPU entries'. */
    {.domain = 0,
     .record = 16,
     .key = CP_KEY_NAME_NUM,
     .at = TAB(lpar),
     .name = "SYTCUP_LCUPNAME",
     .id = "SYTCUP_LCUCPUID",
     .entry = "D0R16.CPU",
     .field = {[L_ACT] = "SYTCUP_LCUCACTM", [L_LP] = "SYTCUP_LCUCLPTM"}},
    {.domain = 0,
     .record = 19,
     .key = CP_KEY_ONE,
     .at = TAB(sysg),
     .field = {[F_FTRDONE] = "SYTSYG_FTRDONE"}},
    {.domain = 0,
     .record = 21,
     .key = CP_KEY_ONE,
     .at = TAB(sxg),
     .field = {[X_SXSSIZE] = "SYTSXG_SXSSIZE"}},
    {.domain = 3,
     .record = 1,
     .key = CP_KEY_ONE,
     .at = TAB(storsg),
     .field = {[S_SAVFR] = "STORSG_RSASAVFR"}},
    {.domain = 4,
     .record = 3,
     .key = CP_KEY_NAME_NUM,
     .at = TAB(vcpu),
     .name = "USEACT_VMDUSER",
     .id = "USEACT_VMDCPUAD",
     .note_guest = true,
     .field = {[A_TT] = "USEACT_VMDTTIME",
               [A_VT] = "USEACT_VMDVTIME",
               [A_RES] = "USEACT_VMDCTPVR",
               [A_PGR] = "USEACT_CALCPPGR",
               [A_PGW] = "USEACT_CALCPPGW",
               [A_VC] = "USEACT_VMDVCSCT",
               [A_VD] = "USEACT_VMDVDSCT",
               [A_VU] = "USEACT_VMDVUSCT",
               [A_VTP] = "USEACT_VMDVTSCT",
               [A_VO] = "USEACT_VMDVOSCT"}},
    {.domain = 6,
     .record = 3,
     .key = CP_KEY_DEV,
     .at = TAB(dev),
     .id = "IODDEV_RDEVDEV",
     .field = {[D_SSCH16] = "IODDEV_SCMSSCH",
               [D_SSCHG] = "IODDEV_SCGSSCH",
               [D_CONN] = "IODDEV_SCMCNTIM",
               [D_PEND] = "IODDEV_SCMFPTIM",
               [D_DISC] = "IODDEV_SCMDDTIM",
               [D_DAO] = "IODDEV_SCMDATIM"}},
    {.domain = 8,
     .record = 1,
     .key = CP_KEY_NAME_DEV,
     .at = TAB(nic),
     .name = "VNDSES_OWNER",
     .id = "VNDSES_VDEVDEV",
     .field = {[N_TXB] = "VNDSES_SESTXBYT",
               [N_RXB] = "VNDSES_SESRXBYT",
               [N_TXP] = "VNDSES_SESTXPKT",
               [N_RXP] = "VNDSES_SESRXPKT",
               [N_TXE] = "VNDSES_SESTXERR",
               [N_RXE] = "VNDSES_SESRXERR",
               [N_TXD] = "VNDSES_SESTXDSC",
               [N_RXD] = "VNDSES_SESRXDSC"}},
    {.domain = 11,
     .record = 1,
     .key = CP_KEY_ONE,
     .at = TAB(ssiscs),
     .field = {[C_SYCNT] = "SSISCS_PLMSYCNT", [C_SYPRO] = "SSISCS_PLMSYPRO"}},
    {.domain = 11,
     .record = 2,
     .key = CP_KEY_ONE,
     .at = TAB(ssismi),
     .field = {[M_NJONG] = "SSISMI_PLMNJONG",
               [M_NJOND] = "SSISMI_PLMNJOND",
               [M_NLEAV] = "SSISMI_PLMNLEAV",
               [M_NISOL] = "SSISMI_PLMNISOL",
               [M_NSUSP] = "SSISMI_PLMNSUSP",
               [M_TJONG] = "SSISMI_PLMTJONG",
               [M_TJOND] = "SSISMI_PLMTJOND",
               [M_TLEAV] = "SSISMI_PLMTLEAV",
               [M_TISOL] = "SSISMI_PLMTISOL",
               [M_TSUSP] = "SSISMI_PLMTSUSP"}},
};

const size_t cp_ntakes = sizeof(cp_takes) / sizeof(cp_takes[0]);

const struct cp_take *cp_take_find(unsigned domain, unsigned record)
{
        for (size_t i = 0; i < cp_ntakes; i++)
                if (cp_takes[i].domain == domain && cp_takes[i].record == record)
                        return &cp_takes[i];
        return NULL;
}

#define SUM(g, first, last, reading) {g, first, last, reading, (2u << (last)) - (1u << (first))},
const struct cp_sum cp_guest_sums[] = {CP_GUEST_SUMS(SUM)};
#undef SUM

const size_t cp_nguest_sums = sizeof(cp_guest_sums) / sizeof(cp_guest_sums[0]);
