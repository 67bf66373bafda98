/* SPDX-License-Identifier: MIT */
/*
 * Every known CP monitor record: domain, number, DSECT, IBM's title, kind,
 * what the name rests on, the levels whose page was read and the structure
 * length IBM gives per level.
 *
 * Sources (doc/facts/ibm-record-pages.md, doc/facts/cp-records.md): "IBM
 * monNNN MRxxxxxx" where the number, title and kind were read on IBM's page
 * for that level (basis PG); "IBM mon750 index", or another record's page,
 * where IBM names the record without its page having been read (NM); "zpmd
 * v53 (hint)" where only the z/VM 5.3 transcription of pak-center/zpmd names
 * it (ZP).  A kind of 0 means the kind (sample, event, configuration) is not
 * known.  A length is the fixed part's where IBM prints "N+" (true: a
 * variable part follows); records whose pages show no length have none.
 * Numbers not listed are unknown and zr_lookup() returns NULL for them:
 * never guess a name.
 */
#include "layout/registry.h"

/* Domain names: IBM MONEQ (doc/facts/monitor-stream.md 2.1), verified. */
static const char *const dom_name[] = {
    "System", "Monitor", "Scheduler",       "Storage", "User",     "Processor",
    "I/O",    "Seek",    "Virtual Network", "ISFC",    "APPLDATA", "SSI",
};

#define S  ZR_SAMPLE
#define E  ZR_EVENT
#define C  ZR_CONFIG
#define PG ZR_PAGE
#define NM ZR_NAMED
#define ZP ZR_ZPMD
#define I7 "IBM mon750 index"
#define ZS "zpmd v53 (hint)"
/* clang-format off */
static const struct zr_record records[] = {
    /* Domain 0 - System: all sample records (IBM's 7.5 index lists R1-R22 with these titles). */
    {0, 1,  "SYTSYP", "System data (per processor)",                          S, PG, "4.2, 4.4, 5.1, 6.4, 7.3",                {{"4.2", 96}, {"6.4", 116}},                              "IBM mon730 MRSYTSYP"},
    {0, 2,  "SYTPRP", "Processor data (per processor)",                       S, PG, "4.3, 5.4, 6.2, 6.4, 7.3, 7.5",           {{"4.3", 104}, {"5.4", 124}, {"6.2", 140}, {"6.4", 352}}, "IBM mon640 MRSYTPRP"},
    {0, 3,  "SYTRSG", "Real storage data (global)",                           S, PG, "5.1, 5.2, 7.5",                          {{"5.1", 128}, {"5.2", 224}, {"7.5", 604}},               "IBM mon750 MRSYTRSG"},
    {0, 4,  "SYTRSP", "Real storage data (per processor)",                    S, PG, "4.3, 7.5",                               {{"4.3", 48}, {"7.5", 72}},                               "IBM mon430 MRSYTRSP"},
    {0, 5,  "SYTXSP", "Expanded storage data (per processor), not generated", S, PG, "7.3, 7.4",                               {{0}},                                                    "IBM mon740 MRSYTXSP"},
    {0, 6,  "SYTASG", "Auxiliary storage (global)",                           S, PG, "7.3",                                    {{"7.3", 112}},                                           "IBM mon730 MRSYTASG"},
    {0, 7,  "SYTSHS", "Shared storage data",                                  S, PG, "7.3",                                    {{"7.3", 72}},                                            "IBM mon730 MRSYTSHS"},
    {0, 8,  "SYTUSR", "User data",                                            S, PG, "4.3, 6.1, 6.4, 7.5",                     {{"4.3", 100}, {"6.4", 108}},                             "IBM mon750 MRSYTUSR"},
    {0, 9,  "SYTCPC", "Physical channel path contention data",                S, PG, "7.3",                                    {{0}},                                                    "IBM mon730 MRSYTCPC"},
    {0, 10, "SYTSCG", "Scheduler activity (global)",                          S, PG, "7.3",                                    {{"7.3", 164, true}},                                     "IBM mon730 MRSYTSCG"},
    {0, 11, "SYTCOM", "Processor communication activities",                   S, NM, NULL,                                     {{0}},                                                    I7},
    {0, 12, "SYTUWT", "User wait states",                                     S, PG, "7.5",                                    {{"7.5", 180}},                                           "IBM mon750 MRSYTUWT"},
    {0, 13, "SYTSCP", "Scheduler activity (per processor)",                   S, PG, "7.3",                                    {{"7.3", 56}},                                            "IBM mon730 MRSYTSCP"},
    {0, 14, "SYTXSG", "Minidisk cache data (global)",                         S, PG, "7.5",                                    {{"7.5", 204}},                                           "IBM mon750 MRSYTXSG"},
    {0, 15, "SYTCUG", "Logical partition configuration",                      S, PG, "4.2, 4.3, 4.4",                          {{"4.2", 28}, {"4.3", 56}},                               "IBM mon430 MRSYTCUG"},
    {0, 16, "SYTCUP", "CPU utilization data in a logical partition",          S, PG, "4.2, 5.1, 5.2, 6.1, 6.2, 6.3, 7.2, 7.3", {{"4.2", 44, true}, {"5.1", 64, true}},                   "IBM mon620 MRSYTCUP"},
    {0, 17, "SYTCUM", "Physical CPU utilization data",                        S, NM, NULL,                                     {{0}},                                                    I7},
    {0, 18, "SYTCPM", "Channel path measurement data",                        S, PG, "7.3",                                    {{0}},                                                    "IBM mon730 MRSYTCPM"},
    {0, 19, "SYTSYG", "System data (global)",                                 S, PG, "4.2, 4.3, 5.1, 6.2",                     {{"4.2", 56}, {"4.3", 112}, {"6.2", 144}},                "IBM mon620 MRSYTSYG"},
    {0, 20, "SYTEPM", "Extended channel measurement data (per channel)",      S, PG, "7.3",                                    {{0}},                                                    "IBM mon730 MRSYTEPM"},
    {0, 21, "SYTSXG", "System execution space (global)",                      S, PG, "7.3",                                    {{"7.3", 96}},                                            "IBM mon730 MRSYTSXG"},
    {0, 22, "SYTSXP", "System execution space (per processor)",               S, PG, "7.3",                                    {{"7.3", 88}},                                            "IBM mon730 MRSYTSXP"},
    {0, 23, "SYTLCK", "Formal spin lock data",                                S, PG, "7.3",                                    {{0}},                                                    "IBM mon730 MRSYTLCK"},
    {0, 24, "SYTSPT", "Scheduler activity per processor type",                S, PG, "7.3",                                    {{"7.3", 88, true}},                                      "IBM mon730 MRSYTSPT"},
    {0, 25, "SYTPOW", "Power consumption data",                               S, PG, "7.5",                                    {{"7.5", 92}},                                            "IBM mon750 MRSYTPOW"},
    /* Domain 1 - Monitor */
    {1, 1,  "MTREPR", "Event profile",                          C,     PG, "4.4, 7.1, 7.3",                     {{"4.4", 24}, {"7.1", 52}},                               "IBM mon730 MRMTREPR"},
    {1, 2,  "MTRECM", "Event alteration command",               E,     PG, "4.3, 4.4, 5.2, 6.1, 6.3, 6.4",      {{"4.3", 24, true}},                                      "IBM mon640 MRMTRECM"},
    {1, 3,  "MTRSUS", "Suspension",                             E,     ZP, NULL,                                {{0}},                                                    ZS},
    {1, 4,  "MTRSYS", "System configuration data",              C,     PG, "4.2, 4.3, 4.4, 5.1, 6.1, 7.1, 7.3", {{"4.2", 108}, {"4.3", 176}, {"5.1", 184}, {"6.1", 420}}, "IBM mon610 MRMTRSYS"},
    {1, 5,  "MTRPRP", "Processor configuration",                C,     PG, "4.3, 4.4, 7.5",                     {{"4.3", 40}},                                            "IBM mon750 MRMTRPRP"},
    {1, 6,  "MTRDEV", "Device configuration data",              C,     PG, "7.3",                               {{"7.3", 320}},                                           "IBM mon730 MRMTRDEV"},
    {1, 7,  "MTRMEM", "Memory configuration data",              C,     PG, "7.3",                               {{"7.3", 326}},                                           "IBM mon730 MRMTRMEM"},
    {1, 8,  "MTRPAG", "Paging configuration data",              C,     ZP, NULL,                                {{0}},                                                    ZS},
    {1, 9,  "MTRSPR", "Sample profile",                         C,     PG, "4.3, 5.4, 6.2, 7.5",                {{"4.3", 36}, {"6.2", 48}, {"7.5", 52}},                  "IBM mon750 MRMTRSPR"},
    {1, 10, "MTRSCM", "Sample alteration command",              S,     PG, "4.4, 5.1, 6.3, 7.1",                {{"4.4", 32, true}},                                      "IBM mon710 MRMTRSCM"},
    {1, 11, "MTREND", "Interval end",                           E | S, PG, "4.2, 7.3",                          {{"4.2", 20}},                                            "IBM mon730 MRMTREND"},
    {1, 12, "MTRSOS", "Event record start of suspend",          E,     PG, "5.2, 7.2, 7.5",                     {{"5.2", 20}},                                            "IBM mon750 MRMTRSOS"},
    {1, 13, "MTREOF", "End-of-frame indicator",                 E | S, PG, "4.2, 5.4, 7.3",                     {{"4.2", 20}},                                            "IBM mon730 MRMTREOF"},
    {1, 14, "MTRDDR", "Domain detail data",                     E | C, PG, "7.5",                               {{"7.5", 28}},                                            "IBM mon750 MRMTRDDR"},
    {1, 15, "MTRUSR", "Logged-on user",                         C,     PG, "4.4, 5.4, 6.2, 7.3",                {{"4.4", 96}, {"5.4", 204}, {"6.2", 224}, {"7.3", 348}},  "IBM mon730 MRMTRUSR"},
    {1, 16, "MTRSCH", "Scheduler settings",                     C,     PG, "7.5",                               {{"7.5", 128, true}},                                     "IBM mon750 MRMTRSCH"},
    {1, 17, "MTRXSG", "Expanded storage data, no longer valid", C,     PG, "7.5",                               {{0}},                                                    "IBM mon750 MRMTRXSG"},
    {1, 18, "MTRCCC", "CPU capability change",                  E,     NM, NULL,                                {{0}},                                                    I7},
    {1, 19, "MTRQDC", "QDIO device configuration",              C,     PG, "7.3",                               {{"7.3", 367}},                                           "IBM mon730 MRMTRQDC"},
    {1, 20, "MTRHPP", "HyperPAV pool definition",               C,     PG, "7.3",                               {{0}},                                                    "IBM mon730 MRMTRHPP"},
    {1, 21, "MTRMCC", "Memory configuration change",            E,     PG, "6.1, 6.2, 7.5",                     {{"6.1", 36}, {"6.2", 48}},                               "IBM mon750 MRMTRMCC"},
    {1, 24, "MTRILC", "ISFC logical link configuration",        C,     PG, "7.5",                               {{"7.5", 96}},                                            "IBM mon750 MRMTRILC"},
    {1, 25, "MTRSSI", "SSI configuration information",          C,     PG, "6.2, 6.4, 7.2, 7.5",                {{"6.4", 44}},                                            "IBM mon640 MRMTRSSI"},
    {1, 26, "MTRTOP", "System topology configuration",          C,     PG, "7.5",                               {{0}},                                                    "IBM mon750 MRMTRTOP"},
    {1, 27, "MTRPCI", "PCI function configuration data",        C,     PG, "7.5",                               {{"7.5", 144, true}},                                     "IBM mon750 MRMTRPCI"},
    {1, 28, "MTRCPC", "CPU pool configuration",                 C,     PG, "7.3",                               {{"7.3", 40}},                                            "IBM mon730 MRMTRCPC"},
    {1, 29, "MTRCPD", "CPU pool definition",                    E,     PG, "7.3",                               {{"7.3", 40}},                                            "IBM mon730 MRMTRCPD"},
    {1, 31, "MTRSRV", "CP service configuration",               C,     PG, "7.2, 7.5",                          {{"7.2", 28, true}},                                      "IBM mon750 MRMTRSRV"},
    {1, 32, "MTRCHC", "CHPID in use by EDEVs",                  C,     PG, "7.5",                               {{"7.5", 24}},                                            "IBM mon750 MRMTRCHC"},
    {1, 33, "MTRFCC", "FCP device in use by EDEVs",             C,     PG, "6.4, 7.3",                          {{"6.4", 24}},                                            "IBM mon730 MRMTRFCC"},
    {1, 36, "MTRAZN", "Available zone information",             C,     NM, NULL,                                {{0}},                                                    I7},
    {1, 37, "MTRFAC", "Facility alteration event",              E,     PG, "7.3",                               {{"7.3", 36}},                                            "IBM mon730 MRMTRFAC"},
    /* Domain 2 - Scheduler: event records; only SCLSRM and SCLSTP have a page read. */
    {2, 1,  "SCLRDB", "Begin read",                   E, ZP, NULL,  {{0}},                ZS},
    {2, 2,  "SCLRDC", "Read complete",                E, NM, NULL,  {{0}},                I7},
    {2, 3,  "SCLWRR", "Write response",               E, NM, NULL,  {{0}},                I7},
    {2, 4,  "SCLADL", "Add user to dispatch list",    E, ZP, NULL,  {{0}},                ZS},
    {2, 5,  "SCLDDL", "Drop user from dispatch list", E, ZP, NULL,  {{0}},                ZS},
    {2, 6,  "SCLAEL", "Add user to eligible list",    E, ZP, NULL,  {{0}},                ZS},
    {2, 7,  "SCLSRM", "SET SRM changes",              E, PG, "7.3", {{"7.3", 132, true}}, "IBM mon730 MRSCLSRM"},
    {2, 8,  "SCLSTP", "System timer pop",             E, PG, "7.3", {{"7.3", 84}},        "IBM mon730 MRSCLSTP"},
    {2, 9,  "SCLSHR", "SET SHARE changes",            E, ZP, NULL,  {{0}},                ZS},
    {2, 10, "SCLSQD", "SET QUICKDSP changes",         E, ZP, NULL,  {{0}},                ZS},
    {2, 11, "SCLIOP", "I/O priority changes",         E, ZP, NULL,  {{0}},                ZS},
    {2, 12, "SCLSCA", "Scheduler record 12",          E, ZP, NULL,  {{0}},                ZS},
    /* Domain 3 - Storage */
    {3, 1,  "STORSG", "Real storage management (global)",                   S, PG, "6.2, 6.3, 6.4, 7.3", {{"6.2", 464}, {"6.3", 780}, {"6.4", 844}, {"7.3", 952}}, "IBM mon630 MRSTORSG"},
    {3, 2,  "STORSP", "Real storage activity (per processor)",              S, PG, "6.3, 6.4",           {{"6.3", 720}, {"6.4", 744}},                             "IBM mon630 MRSTORSP"},
    {3, 3,  "STOSHR", "Shared storage management (per NSS or DCSS)",        S, PG, "7.5",                {{"7.5", 120}},                                           "IBM mon750 MRSTOSHR"},
    {3, 4,  "STOASP", "Auxiliary storage management (per exposure)",        S, PG, "7.5",                {{"7.5", 260}},                                           "IBM mon750 MRSTOASP"},
    {3, 5,  "STOSHS", "NSS/DCSS saved",                                     E, PG, "5.4, 7.3",           {{"5.4", 44}},                                            "IBM mon730 MRSTOSHS"},
    {3, 6,  "STOSHP", "NSS/DCSS successfully purged",                       E, PG, "7.3",                {{"7.3", 44}},                                            "IBM mon730 MRSTOSHP"},
    {3, 7,  "STOATC", "Page/spool area of a CP volume",                     E, NM, NULL,                 {{0}},                                                    I7},
    {3, 8,  "STOBPG", "Block paging data",                                  0, ZP, NULL,                 {{0}},                                                    ZS},
    {3, 9,  "STOXSG", "Expanded storage data, no longer valid",             S, PG, "7.4, 7.5",           {{0}},                                                    "IBM mon750 MRSTOXSG"},
    {3, 10, "STOXSU", "Expanded storage data (per user), no longer valid",  S, PG, "7.3, 7.5",           {{0}},                                                    "IBM mon750 MRSTOXSU"},
    {3, 11, "STOASS", "Auxiliary shared storage management (per exposure)", S, PG, "7.3",                {{"7.3", 120}},                                           "IBM mon730 MRSTOASS"},
    {3, 12, "STOASC", "Address space created",                              E, PG, "7.3",                {{"7.3", 64}},                                            "IBM mon730 MRSTOASC"},
    {3, 13, "STOASD", "Address space deleted",                              E, PG, "7.3",                {{"7.3", 52}},                                            "IBM mon730 MRSTOASD"},
    {3, 14, "STOASI", "Address space information",                          0, ZP, NULL,                 {{0}},                                                    ZS},
    {3, 15, "STOSHL", "NSS/DCSS/SSP loaded",                                0, ZP, NULL,                 {{0}},                                                    ZS},
    {3, 16, "STOSHD", "NSS/DCSS/SSP removed from storage",                  E, PG, "7.5",                {{"7.5", 120}},                                           "IBM mon750 MRSTOSHD"},
    {3, 17, "STOVDK", "Virtual disk in storage",                            S, PG, "7.3",                {{"7.3", 68}},                                            "IBM mon730 MRSTOVDK"},
    {3, 18, "STOSCS", "SCSI storage pool",                                  0, ZP, NULL,                 {{0}},                                                    ZS},
    {3, 19, "STOSXG", "System execution space (global)",                    S, PG, "7.3",                {{"7.3", 88}},                                            "IBM mon730 MRSTOSXG"},
    {3, 20, "STOSXP", "System execution space (per processor)",             S, PG, "7.3",                {{"7.3", 132}},                                           "IBM mon730 MRSTOSXP"},
    {3, 21, "STOADD", "Add central storage",                                E, PG, "7.5",                {{"7.5", 132}},                                           "IBM mon750 MRSTOADD"},
    {3, 22, "STORST", "Central storage add/remove started",                 E, PG, "7.5",                {{"7.5", 56}},                                            "IBM mon750 MRSTORST"},
    {3, 23, "STOREM", "Central storage remove",                             E, PG, "7.3",                {{"7.3", 148}},                                           "IBM mon730 MRSTOREM"},
    {3, 25, "STOAZN", "Available zone information",                         S, PG, "7.3",                {{"7.3", 36, true}},                                      "IBM mon730 MRSTOAZN"},
    /* Domain 4 - User */
    {4, 1,  "USELON", "User logon",                            E, PG, "4.3, 5.4, 6.4, 7.3", {{"6.4", 180}},                                           "IBM mon730 MRUSELON"},
    {4, 2,  "USELOF", "User logoff data",                      E, PG, "4.3, 5.1, 5.4, 6.2", {{"4.3", 284}, {"5.1", 308}, {"5.4", 444}, {"6.2", 496}}, "IBM mon620 MRUSELOF"},
    {4, 3,  "USEACT", "User activity data",                    S, PG, "5.2, 6.1, 6.2",      {{"5.2", 364}, {"6.1", 440}, {"6.2", 508}},               "IBM mon620 MRUSEACT"},
    {4, 4,  "USEINT", "User interaction data",                 S, ZP, NULL,                 {{0}},                                                    ZS},
    {4, 5,  "USEDFC", "DEFINE CPU",                            E, ZP, NULL,                 {{0}},                                                    ZS},
    {4, 6,  "USEDTC", "DETACH CPU",                            E, NM, NULL,                 {{0}},                                                    "IBM mon620 MRUSELOF"},
    {4, 7,  "USERDC", "DEFINE CPU n AS",                       E, PG, "4.3",                {{"4.3", 32}},                                            "IBM mon430 MRUSERDC"},
    {4, 8,  "USETRE", "User transaction end",                  E, ZP, NULL,                 {{0}},                                                    ZS},
    {4, 9,  "USEATE", "User activity data at transaction end", E, PG, "5.4, 6.2",           {{"5.4", 352}},                                           "IBM mon620 MRUSEATE"},
    {4, 10, "USEITE", "User interaction at transaction end",   E, PG, "7.3",                {{0}},                                                    "IBM mon730 MRUSEITE"},
    {4, 11, "USERLS", "Guest relocation started",              E, PG, "7.3",                {{"7.3", 72}},                                            "IBM mon730 MRUSERLS"},
    {4, 12, "USERLE", "Guest relocation ended",                E, PG, "7.3",                {{0}},                                                    "IBM mon730 MRUSERLE"},
    {4, 13, "USECPC", "CPU pool change",                       E, PG, "7.5",                {{0}},                                                    "IBM mon750 MRUSECPC"},
    {4, 14, "USESCP", "Guest SCP identification",              E, PG, "7.3, 7.4",           {{"7.3", 132}},                                           "IBM mon740 MRUSESCP"},
    /* Domain 5 - Processor */
    {5, 1,  "PRCVON", "Vary on processor",                           E, PG, "7.5",                          {{"7.5", 32}},                "IBM mon750 MRPRCVON"},
    {5, 2,  "PRCVOF", "Vary off processor",                          E, PG, "4.3, 4.4, 5.1, 7.5",           {{"5.1", 24}, {"7.5", 28}},   "IBM mon750 MRPRCVOF"},
    {5, 3,  "PRCPRP", "Processor data (per processor)",              S, PG, "4.3, 5.1, 5.2, 5.4, 7.1, 7.5", {{"4.3", 124}, {"5.4", 384}}, "IBM mon750 MRPRCPRP"},
    {5, 6,  "PRCCFN", "Add access to crypto facility (obsolete)",    E, PG, "4.4, 7.5",                     {{"4.4", 24}},                "IBM mon750 MRPRCCFN"},
    {5, 7,  "PRCCFF", "Remove access to crypto facility (obsolete)", E, PG, "7.5",                          {{0}},                        "IBM mon750 MRPRCCFF"},
    {5, 8,  "PRCIOP", "I/O processor utilization",                   S, NM, NULL,                           {{0}},                        I7},
    {5, 9,  "PRCAPC", "Crypto performance counters",                 S, PG, "7.5",                          {{"7.5", 360}},               "IBM mon750 MRPRCAPC"},
    {5, 10, "PRCAPM", "Crypto performance measurement data",         S, PG, "6.4, 7.3",                     {{"6.4", 40, true}},          "IBM mon730 MRPRCAPM"},
    {5, 11, "PRCINS", "Instruction counts",                          S, ZP, NULL,                           {{0}},                        ZS},
    {5, 12, "PRCDIA", "Diagnose counts (per processor)",             S, PG, "7.5",                          {{"7.5", 800}},               "IBM mon750 MRPRCDIA"},
    {5, 13, "PRCMFC", "CPU measurement facility counters",           S, PG, "7.3",                          {{0}},                        "IBM mon730 MRPRCMFC"},
    {5, 14, "PRCTOP", "System topology",                             E, PG, "7.3",                          {{0}},                        "IBM mon730 MRPRCTOP"},
    {5, 17, "PRCRCD", "Real CPU data (per CPU)",                     S, PG, "7.3",                          {{0}},                        "IBM mon730 MRPRCRCD"},
    {5, 18, "PRCDHF", "Dispatch vector high frequency data",         S, NM, NULL,                           {{0}},                        "IBM mon750 MRPRCPRP"},
    {5, 19, "PRCCPU", "CPU pool utilization",                        S, PG, "7.3",                          {{"7.3", 76}},                "IBM mon730 MRPRCCPU"},
    {5, 20, "PRCMFM", "MT CPUMF counters",                           S, PG, "7.5",                          {{0}},                        "IBM mon750 MRPRCMFM"},
    /* Domain 6 - I/O */
    {6, 1,  "IODVON", "Vary on device",                                E, PG, "4.2, 7.3",                {{"7.3", 292}},                          "IBM mon730 MRIODVON"},
    {6, 2,  "IODVOF", "Vary off device",                               E, PG, "7.5",                     {{"7.5", 28}},                           "IBM mon750 MRIODVOF"},
    {6, 3,  "IODDEV", "Device activity",                               S, PG, "6.2, 6.4, 7.3",           {{0}},                                   "IBM mon730 MRIODDEV"},
    {6, 4,  "IODCAD", "Cache activity data",                           S, PG, "7.5",                     {{"7.5", 316}},                          "IBM mon750 MRIODCAD"},
    {6, 5,  "IODATD", "Attach device",                                 E, PG, "7.3",                     {{"7.3", 44}},                           "IBM mon730 MRIODATD"},
    {6, 6,  "IODDTD", "Detach device",                                 E, PG, "7.5",                     {{"7.5", 28}},                           "IBM mon750 MRIODDTD"},
    {6, 7,  "IODENB", "Enable terminal",                               E, PG, "7.4",                     {{"7.4", 28}},                           "IBM mon740 MRIODENB"},
    {6, 8,  "IODDSB", "Disable terminal",                              E, PG, "7.3",                     {{"7.3", 28}},                           "IBM mon730 MRIODDSB"},
    {6, 9,  "IODATS", "Attach shared device",                          E, PG, "7.5",                     {{"7.5", 44}},                           "IBM mon750 MRIODATS"},
    {6, 10, "IODALS", "Automated tape library statistics",             E, PG, "7.3",                     {{0}},                                   "IBM mon730 MRIODALS"},
    {6, 11, "IODSON", "Vary on subchannel",                            E, PG, "7.3",                     {{"7.3", 44}},                           "IBM mon730 MRIODSON"},
    {6, 12, "IODSOF", "Vary off subchannel",                           E, PG, "7.5",                     {{"7.5", 28}},                           "IBM mon750 MRIODSOF"},
    {6, 13, "IODMON", "SET SCMEASURE ON",                              E, PG, "7.3",                     {{"7.3", 28}},                           "IBM mon730 MRIODMON"},
    {6, 14, "IODMOF", "SET SCMEASURE OFF",                             E, PG, "4.3, 4.4, 5.1, 6.4, 7.5", {{"4.3", 52}, {"4.4", 68}, {"6.4", 76}}, "IBM mon750 MRIODMOF"},
    {6, 15, "IODDDV", "Delete device",                                 E, PG, "7.1, 7.2",                {{"7.1", 28}},                           "IBM mon710 MRIODDDV"},
    {6, 16, "IODMDV", "Modify device",                                 E, PG, "7.1",                     {{"7.1", 36}},                           "IBM mon710 MRIODMDV"},
    {6, 17, "IODDCH", "Delete CHPID",                                  E, PG, "7.5",                     {{"7.5", 24}},                           "IBM mon750 MRIODDCH"},
    {6, 18, "IODTON", "Set throttle rate",                             E, PG, "7.3",                     {{"7.3", 40}},                           "IBM mon730 MRIODTON"},
    {6, 19, "IODTOF", "Set throttle off",                              E, PG, "7.3",                     {{"7.3", 40}},                           "IBM mon730 MRIODTOF"},
    {6, 20, "IODSTC", "State change",                                  E, PG, "7.5",                     {{"7.5", 68}},                           "IBM mon750 MRIODSTC"},
    {6, 21, "IODVSW", "Virtual switch activity",                       S, PG, "7.3",                     {{0}},                                   "IBM mon730 MRIODVSW"},
    {6, 22, "IODVSF", "Virtual switch failure",                        E, PG, "7.5",                     {{"7.5", 80}},                           "IBM mon750 MRIODVSF"},
    {6, 23, "IODVSR", "Virtual switch recovery",                       E, PG, "7.5",                     {{"7.5", 88}},                           "IBM mon750 MRIODVSR"},
    {6, 24, "IODSZI", "SCSI device activity",                          S, PG, "7.3",                     {{"7.3", 396, true}},                    "IBM mon730 MRIODSZI"},
    {6, 25, "IODQDA", "QDIO device activation",                        E, PG, "7.3",                     {{"7.3", 43}},                           "IBM mon730 MRIODQDA"},
    {6, 26, "IODQDS", "QDIO device activity sample",                   S, PG, "7.5",                     {{"7.5", 348}},                          "IBM mon750 MRIODQDS"},
    {6, 27, "IODQDD", "QDIO device deactivation",                      E, PG, "7.3",                     {{"7.3", 348}},                          "IBM mon730 MRIODQDD"},
    {6, 28, "IODHPP", "HyperPAV pool activity",                        S, PG, "7.5",                     {{0}},                                   "IBM mon750 MRIODHPP"},
    {6, 29, "IODHPC", "HyperPAV pool creation",                        E, PG, "7.3",                     {{0}},                                   "IBM mon730 MRIODHPC"},
    {6, 30, "IODLPT", "LSS PAV transition",                            E, PG, "7.3",                     {{0}},                                   "IBM mon730 MRIODLPT"},
    {6, 31, "IODMDE", "Minidisk activity",                             E, PG, "7.5",                     {{"7.5", 84}},                           "IBM mon750 MRIODMDE"},
    {6, 33, "IODBPA", "Virtual switch bridge port activation",         E, PG, "7.3",                     {{"7.3", 80}},                           "IBM mon730 MRIODBPA"},
    {6, 34, "IODBPD", "Virtual switch bridge port deactivation",       E, PG, "7.3",                     {{"7.3", 124}},                          "IBM mon730 MRIODBPD"},
    {6, 35, "IODBPS", "Virtual switch bridge port activity",           S, PG, "7.3",                     {{0}},                                   "IBM mon730 MRIODBPS"},
    {6, 36, "IODPAT", "Attach PCI function",                           E, PG, "7.3",                     {{"7.3", 44}},                           "IBM mon730 MRIODPAT"},
    {6, 38, "IODPEN", "Guest enables a PCI function",                  E, PG, "7.3",                     {{"7.3", 40}},                           "IBM mon730 MRIODPEN"},
    {6, 39, "IODPAC", "PCI activities",                                S, PG, "7.5",                     {{"7.5", 112, true}},                    "IBM mon750 MRIODPAC"},
    {6, 40, "IODPDS", "Guest disables a PCI function",                 E, PG, "7.5",                     {{"7.5", 116, true}},                    "IBM mon750 MRIODPDS"},
    {6, 41, "IODPER", "PCI function error",                            E, PG, "7.5",                     {{"7.5", 44}},                           "IBM mon750 MRIODPER"},
    {6, 42, "IODPAD", "PCI function added to the system",              E, PG, "7.5",                     {{"7.5", 112}},                          "IBM mon750 MRIODPAD"},
    {6, 43, "IODPDL", "PCI function deleted from the system",          E, PG, "7.3",                     {{"7.3", 28}},                           "IBM mon730 MRIODPDL"},
    {6, 44, "IODPMD", "Modify PCI function",                           E, PG, "7.5",                     {{"7.5", 56}},                           "IBM mon750 MRIODPMD"},
    {6, 45, "IODPON", "Vary on a PCI function",                        E, PG, "7.5",                     {{"7.5", 108}},                          "IBM mon750 MRIODPON"},
    {6, 46, "IODPOF", "Vary off a PCI function",                       E, PG, "7.3",                     {{"7.3", 28}},                           "IBM mon730 MRIODPOF"},
    {6, 47, "IODCHA", "CHPID now in use for EDEV activity",            E, PG, "7.5",                     {{"7.5", 24}},                           "IBM mon750 MRIODCHA"},
    {6, 48, "IODCHD", "CHPID no longer in use for EDEV activity",      E, PG, "7.3",                     {{"7.3", 148}},                          "IBM mon730 MRIODCHD"},
    {6, 49, "IODCHS", "EDEV FCP CHPID activity",                       S, PG, "7.3",                     {{"7.3", 152}},                          "IBM mon730 MRIODCHS"},
    {6, 50, "IODFCS", "EDEV FCP device activity",                      S, PG, "7.5",                     {{"7.5", 140}},                          "IBM mon750 MRIODFCS"},
    {6, 51, "IODFCA", "FCP device now in use by EDEVs",                E, PG, "7.3",                     {{"7.3", 24}},                           "IBM mon730 MRIODFCA"},
    {6, 52, "IODFCD", "FCP device no longer in use for EDEV activity", E, PG, "7.3",                     {{0}},                                   "IBM mon730 MRIODFCD"},
    {6, 53, "IODSEC", "Store event channel report",                    E, PG, "7.3",                     {{"7.3", 40, true}},                     "IBM mon730 MRIODSEC"},
    {6, 54, "IODVSE", "Virtual switch EQDIO queues",                   S, PG, "7.5",                     {{"7.5", 172, true}},                    "IBM mon750 MRIODVSE"},
    {6, 55, "IODQEQ", "Host EQDIO queue-based data",                   S, PG, "7.3",                     {{"7.3", 56, true}},                     "IBM mon730 MRIODQEQ"},
    /* Domain 7 - Seek */
    {7, 1, "SEKSEK", "Seek data", E, ZP, NULL, {{0}}, ZS},
    /* Domain 8 - Virtual Network */
    {8, 1, "VNDSES", "Virtual NIC session activity",                       S, PG, "7.3",                {{0}},                      "IBM mon730 MRVNDSES"},
    {8, 2, "VNDLSU", "Guest LAN link up",                                  E, ZP, NULL,                 {{0}},                      ZS},
    {8, 3, "VNDLSD", "Virtual network guest link state change: link down", E, PG, "5.4, 6.3, 6.4, 7.5", {{"5.4", 56}, {"6.3", 60}}, "IBM mon750 MRVNDLSD"},
    {8, 4, "VNDGLB", "Global networking activity",                         S, PG, "7.3, 7.5",           {{0}},                      "IBM mon750 MRVNDGLB"},
    /* Domain 9 - ISFC */
    {9, 1, "ISFISC", "ISFC end point status change",        E, PG, "7.1, 7.3", {{"7.3", 244}}, "IBM mon730 MRISFISC"},
    {9, 2, "ISFISA", "ISFC end point activity",             S, PG, "7.5",      {{"7.5", 112}}, "IBM mon750 MRISFISA"},
    {9, 3, "ISFILC", "ISFC logical link definition change", E, PG, "7.3",      {{"7.3", 140}}, "IBM mon730 MRISFILC"},
    /* Domain 10 - APPLDATA: a 52-byte header, then the application's data. */
    {10, 1, "APLEDT", "Application data event record",  E, PG, "7.3", {{"7.3", 52, true}}, "IBM mon730 MRAPLEDT"},
    {10, 2, "APLSDT", "Application data sample record", S, PG, "7.5", {{"7.5", 52, true}}, "IBM mon750 MRAPLSDT"},
    /* Domain 11 - SSI */
    {11, 1, "SSISCS", "State change synchronization activity", S, PG, "6.4, 7.2", {{"6.4", 60}},  "IBM mon640 MRSSISCS"},
    {11, 2, "SSISMI", "State and mode information",            S, PG, "6.3, 7.1", {{"6.3", 116}}, "IBM mon710 MRSSISMI"},
    {11, 3, "SSISCH", "State change event",                    E, NM, NULL,       {{0}},          I7},
    {11, 4, "SSISLT", "Slot definition",                       E, PG, "6.4, 7.3", {{"6.4", 36}},  "IBM mon730 MRSSISLT"},
    {11, 8, "SSIPDR", "Persistent data record volume change",  E, PG, "7.5",      {{0}},          "IBM mon750 MRSSIPDR"},
};
/* clang-format on */
#undef S
#undef E
#undef C
#undef PG
#undef NM
#undef ZP
#undef I7
#undef ZS

#define NREC (sizeof(records) / sizeof(records[0]))

const char *zr_domain_name(unsigned d)
{
        return d < sizeof(dom_name) / sizeof(dom_name[0]) ? dom_name[d] : NULL;
}

/* The table is sorted by (domain, record): binary search, called once per record. */
const struct zr_record *zr_lookup(unsigned domain, unsigned record)
{
        size_t lo = 0, hi = NREC;
        while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                const struct zr_record *r = &records[mid];
                if ((unsigned)r->domain == domain && (unsigned)r->record == record)
                        return r;
                if ((unsigned)r->domain < domain ||
                    ((unsigned)r->domain == domain && (unsigned)r->record < record))
                        lo = mid + 1;
                else
                        hi = mid;
        }
        return NULL;
}

const struct zr_record *zr_record_at(size_t i)
{
        return i < NREC ? &records[i] : NULL;
}

/* The lengths are listed oldest level first, and IBM only appends: the last is the newest. */
unsigned zr_newest_len(const struct zr_record *r, bool *var)
{
        const struct zr_len *last = NULL;
        for (size_t i = 0; i < ZR_NLENS && r->lens[i].level; i++)
                last = &r->lens[i];
        if (var)
                *var = last && last->var;
        return last ? last->len : 0;
}

const char *zr_basis_name(enum zr_basis b)
{
        return b == ZR_PAGE ? "page" : b == ZR_NAMED ? "named" : b == ZR_ZPMD ? "zpmd" : "?";
}
