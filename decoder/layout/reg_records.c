/* SPDX-License-Identifier: MIT */
/*
 * Every known CP monitor record: domain, number, DSECT, name, type.
 *
 * Sources (doc/facts/monitor-stream.md 2.2, doc/facts/cp-records.md): "IBM monNNN
 * MRxxxxxx" where the number, name and type were seen on IBM's page for
 * that level; "zpmd v53 (hint)" where only the z/VM 5.3 transcription of
 * pak-center/zpmd names the record.  A type of 0 means the kind (sample,
 * event, configuration) is not known.  Numbers not listed are unknown and
 * zr_lookup() returns NULL for them: never guess a name.
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
#define I7 "IBM mon750 index"
#define ZP "zpmd v53 (hint)"
static const struct zr_record records[] = {
    /* Domain 0 - System: all sample records (IBM mon750 index lists R1-R22). */
    {0, 1, "SYTSYP", "System data (per processor)", S, "IBM mon730 MRSYTSYP"},
    {0, 2, "SYTPRP", "Processor data (per processor)", S, "IBM mon640 MRSYTPRP"},
    {0, 3, "SYTRSG", "Real storage data (global)", S, "IBM mon520 MRSYTRSG"},
    {0, 4, "SYTRSP", "Real storage data (per processor)", S, "IBM mon430 MRSYTRSP"},
    {0, 5, "SYTXSP", "Expanded storage data (per processor), not generated", S, I7},
    {0, 6, "SYTASG", "Auxiliary storage (global)", S, I7},
    {0, 7, "SYTSHS", "Shared storage data", S, I7},
    {0, 8, "SYTUSR", "User data", S, "IBM mon640 MRSYTUSR"},
    {0, 9, "SYTCPC", "Physical channel path contention data", S, I7},
    {0, 10, "SYTSCG", "Scheduler activity (global)", S, I7},
    {0, 11, "SYTCOM", "Processor communication activities (per processor)", S, I7},
    {0, 12, "SYTUWT", "User wait states", S, I7},
    {0, 13, "SYTSCP", "Scheduler activity (per processor)", S, I7},
    {0, 14, "SYTXSG", "Minidisk cache data (global)", S, I7},
    {0, 15, "SYTCUG", "Logical partition configuration", S, "IBM mon430 MRSYTCUG"},
    {0, 16, "SYTCUP", "CPU utilization data in a logical partition", S, "IBM mon620 MRSYTCUP"},
    {0, 17, "SYTCUM", "Physical CPU utilization data for LPAR management", S, I7},
    {0, 18, "SYTCPM", "Channel path measurement data", S, I7},
    {0, 19, "SYTSYG", "System data (global)", S, "IBM mon620 MRSYTSYG"},
    {0, 20, "SYTEPM", "Extended channel measurement data (per channel)", S, I7},
    {0, 21, "SYTSXG", "System execution space (global)", S, I7},
    {0, 22, "SYTSXP", "System execution space (per processor)", S, I7},
    {0, 23, "SYTLCK", "Formal spin lock data", S, "IBM mon750 MRSYTLCK"},
    {0, 24, "SYTSPT", "Scheduler activity per processor type", S, "IBM mon750 MRSYTSPT"},
    {0, 25, "SYTPOW", "Power consumption data", S, "IBM mon750 MRSYTPOW"},
    /* Domain 1 - Monitor */
    {1, 1, "MTREPR", "Event profile", C, "IBM mon710 MRMTREPR"},
    {1, 2, "MTRECM", "Event alteration command", E, "IBM mon640 MRMTRECM"},
    {1, 3, "MTRSUS", "Suspension", E, ZP},
    {1, 4, "MTRSYS", "System configuration data", C, "IBM mon610 MRMTRSYS"},
    {1, 5, "MTRPRP", "Processor configuration", C, "IBM mon440 MRMTRPRP"},
    {1, 6, "MTRDEV", "Device configuration data", C, ZP},
    {1, 7, "MTRMEM", "Memory configuration data", C, I7},
    {1, 8, "MTRPAG", "Paging configuration data", C, ZP},
    {1, 9, "MTRSPR", "Sample profile", C, "IBM mon750 MRMTRSPR"},
    {1, 10, "MTRSCM", "Sample alteration command", S, "IBM mon710 MRMTRSCM"},
    {1, 11, "MTREND", "Interval end", E | S, "IBM mon730 MRMTREND"},
    {1, 12, "MTRSOS", "Event record start of suspend", E, "IBM mon720 MRMTRSOS"},
    {1, 13, "MTREOF", "End-of-frame indicator", E | S, "IBM mon730 MRMTREOF"},
    {1, 14, "MTRDDR", "Domain detail data", E | C, I7},
    {1, 15, "MTRUSR", "Logged-on user", C, "IBM mon620 MRMTRUSR"},
    {1, 16, "MTRSCH", "Scheduler settings", C, ZP},
    {1, 17, "MTRXSG", "Expanded storage data, no longer valid", C, I7},
    {1, 18, "MTRCCC", "CPU capability change", E, I7},
    {1, 19, "MTRQDC", "QDIO device configuration", C, ZP},
    {1, 20, "MTRHPP", "HyperPAV pool definition", C, ZP},
    {1, 21, "MTRMCC", "Memory configuration change", E, "IBM mon610 MRMTRMCC"},
    {1, 25, "MTRSSI", "SSI configuration information", C, "IBM mon640 MRMTRSSI"},
    {1, 26, "MTRTOP", "System topology configuration", C, I7},
    {1, 27, "MTRPCI", "PCI function configuration data", C, I7},
    {1, 28, "MTRCPC", "CPU pool configuration", C, I7},
    {1, 29, "MTRCPD", "CPU pool definition", E, I7},
    {1, 31, "MTRSRV", "CP service configuration", C, "IBM mon720 MRMTRSRV"},
    {1, 32, "MTRCHC", "CHPID in use by EDEVs", C, I7},
    {1, 33, "MTRFCC", "FCP device in use by EDEVs", C, "IBM mon640 MRMTRFCC"},
    {1, 36, "MTRAZN", "Available zone information", C, I7},
    {1, 37, "MTRFAC", "Facility alteration event", E, I7},
    /* Domain 2 - Scheduler: event records (names other than R2/R3 from zpmd). */
    {2, 1, "SCLRDB", "Begin read", E, ZP},
    {2, 2, "SCLRDC", "Read complete", E, I7},
    {2, 3, "SCLWRR", "Write response", E, I7},
    {2, 4, "SCLADL", "Add user to dispatch list", E, ZP},
    {2, 5, "SCLDDL", "Drop user from dispatch list", E, ZP},
    {2, 6, "SCLAEL", "Add user to eligible list", E, ZP},
    {2, 7, "SCLSRM", "SET SRM changes", E, ZP},
    {2, 8, "SCLSTP", "System timer pop", E, ZP},
    {2, 9, "SCLSHR", "SET SHARE changes", E, ZP},
    {2, 10, "SCLSQD", "SET QUICKDSP changes", E, ZP},
    {2, 11, "SCLIOP", "I/O priority changes", E, ZP},
    {2, 12, "SCLSCA", "Scheduler record 12", E, ZP},
    /* Domain 3 - Storage */
    {3, 1, "STORSG", "Real storage management (global)", S, "IBM mon640 MRSTORSG"},
    {3, 2, "STORSP", "Real storage activity (per processor)", S, "IBM mon630 MRSTORSP"},
    {3, 3, "STOSHR", "Shared storage management (per NSS or DCSS)", S, ZP},
    {3, 4, "STOASP", "Auxiliary storage management (per exposure)", S, ZP},
    {3, 5, "STOSHS", "NSS/DCSS/SSP loaded into storage", E, "IBM mon540 MRSTOSHS"},
    {3, 6, "STOSHP", "NSS/DCSS/SSP removed from storage", E, ZP},
    {3, 7, "STOATC", "Page/spool area of a CP volume", E, I7},
    {3, 8, "STOBPG", "Block paging data", 0, ZP},
    {3, 9, "STOXSG", "Expanded storage data, no longer valid", S, I7},
    {3, 10, "STOXSU", "Expanded storage data (per user), no longer valid", 0, ZP},
    {3, 11, "STOASS", "Address space (per space)", 0, ZP},
    {3, 12, "STOASC", "Address space created", E, ZP},
    {3, 13, "STOASD", "Address space deleted", E, ZP},
    {3, 14, "STOASI", "Address space information", 0, ZP},
    {3, 15, "STOSHL", "NSS/DCSS/SSP loaded", 0, ZP},
    {3, 16, "STOSHD", "NSS/DCSS/SSP deleted", 0, ZP},
    {3, 17, "STOVDK", "Virtual disk in storage", S, ZP},
    {3, 18, "STOSCS", "SCSI storage pool", 0, ZP},
    {3, 19, "STOSXG", "System execution space (global)", 0, ZP},
    {3, 20, "STOSXP", "System execution space (per processor)", 0, ZP},
    /* Domain 4 - User */
    {4, 1, "USELON", "User logon", E, "IBM mon640 MRUSELON"},
    {4, 2, "USELOF", "User logoff data", E, "IBM mon620 MRUSELOF"},
    {4, 3, "USEACT", "User activity data", S, "IBM mon620 MRUSEACT"},
    {4, 4, "USEINT", "User interaction data", S, ZP},
    {4, 5, "USEDFC", "DEFINE CPU", E, ZP},
    {4, 6, "USEDTC", "DETACH CPU", E, "IBM mon620 MRUSELOF"},
    {4, 7, "USERDC", "DEFINE CPU n AS", E, "IBM mon430 MRUSERDC"},
    {4, 8, "USETRE", "User transaction end", E, ZP},
    {4, 9, "USEATE", "User activity data at transaction end", E, "IBM mon620 MRUSEATE"},
    {4, 10, "USEITE", "User interaction data at transaction end", E, I7},
    {4, 13, "USECPC", "CPU pool change", E, I7},
    {4, 14, "USESCP", "Guest SCP identification", E, "IBM mon740 MRUSESCP"},
    /* Domain 5 - Processor */
    {5, 1, "PRCVON", "Vary on processor", E, ZP},
    {5, 2, "PRCVOF", "Vary off processor", E, "IBM mon510 MRPRCVOF"},
    {5, 3, "PRCPRP", "Processor data (per processor)", S, "IBM mon710 MRPRCPRP"},
    {5, 6, "PRCCFN", "Crypto facility online", E, "IBM mon440 MRPRCCFN"},
    {5, 7, "PRCCFF", "Crypto facility offline", E, ZP},
    {5, 8, "PRCIOP", "I/O processor utilization", S, I7},
    {5, 9, "PRCAPC", "Crypto performance counters", S, ZP},
    {5, 10, "PRCAPM", "Processor record 10", S, ZP},
    {5, 11, "PRCINS", "Instruction counts", S, ZP},
    {5, 12, "PRCDIA", "Diagnose counts", S, ZP},
    {5, 14, "PRCTOP", "System topology", E, I7},
    {5, 17, "PRCRCD", "Real CPU data", S, "IBM mon710 MRPRCPRP"},
    {5, 18, "PRCDHF", "Dispatch vector high frequency data", S, "IBM mon710 MRPRCPRP"},
    {5, 19, "PRCCPU", "CPU pool utilization", S, I7},
    /* Domain 6 - I/O */
    {6, 1, "IODVON", "Vary on device", E, "IBM mon420 MRIODVON"},
    {6, 2, "IODVOF", "Vary off device", E, ZP},
    {6, 3, "IODDEV", "Device activity", S, "IBM mon640 MRIODDEV"},
    {6, 4, "IODCAD", "Cache activity data", S, ZP},
    {6, 5, "IODATD", "Attach device", E, I7},
    {6, 6, "IODDTD", "Detach device", E, I7},
    {6, 7, "IODENB", "Enable terminal", E, ZP},
    {6, 8, "IODDSB", "Disable terminal", E, ZP},
    {6, 9, "IODATS", "Attach shared device", E, ZP},
    {6, 10, "IODALS", "Automated tape library statistics", 0, ZP},
    {6, 11, "IODSON", "State change interrupt, device on", E, ZP},
    {6, 12, "IODSOF", "State change interrupt, device off", E, ZP},
    {6, 13, "IODMON", "SET SCMEASURE ON", E, I7},
    {6, 14, "IODMOF", "SET SCMEASURE OFF", E, "IBM mon640 MRIODMOF"},
    {6, 15, "IODDDV", "Delete device", E, I7},
    {6, 16, "IODMDV", "Modify device", E, I7},
    {6, 17, "IODDCH", "Delete CHPID", E, ZP},
    {6, 18, "IODTON", "Throttle on", E, ZP},
    {6, 19, "IODTOF", "Throttle off", E, ZP},
    {6, 20, "IODSTC", "State change", E, ZP},
    {6, 21, "IODVSW", "Virtual switch activity", S, ZP},
    {6, 22, "IODVSF", "Virtual switch failover", E, "IBM mon750 MRIODVSF"},
    {6, 23, "IODVSR", "Virtual switch recovery", E, "IBM mon750 MRIODVSR"},
    {6, 24, "IODSZI", "SCSI device activity", S, "IBM mon730 MRIODSZI"},
    {6, 25, "IODQDA", "QDIO device activation", E, ZP},
    {6, 26, "IODQDS", "QDIO device activity", S, ZP},
    {6, 27, "IODQDD", "QDIO device deactivation", E, ZP},
    {6, 28, "IODHPP", "HyperPAV pool activity", S, ZP},
    {6, 29, "IODHPC", "HyperPAV pool change", E, ZP},
    {6, 30, "IODLPT", "LSS PAV transition", E, ZP},
    {6, 31, "IODMDE", "MDC setting changed by CP", E, I7},
    {6, 38, "IODPEN", "Guest enables a PCI function", E, I7},
    {6, 39, "IODPAC", "PCI activity", S, I7},
    {6, 41, "IODPER", "PCI function error", E, I7},
    {6, 42, "IODPAD", "PCI function added", E, I7},
    {6, 43, "IODPDL", "PCI function deleted", E, I7},
    {6, 44, "IODPMD", "Modify PCI function", E, I7},
    /* Domain 7 - Seek */
    {7, 1, "SEKSEK", "Seek data", E, ZP},
    /* Domain 8 - Virtual Network */
    {8, 1, "VNDSES", "Virtual NIC session activity", S, "IBM mon730 MRVNDSES"},
    {8, 2, "VNDLSU", "Guest LAN link up", E, ZP},
    {8, 3, "VNDLSD", "Guest LAN link down", E, "IBM mon750 MRVNDLSD"},
    {8, 4, "VNDGLB", "Virtual network global data", S, "IBM mon730 MRVNDGLB"},
    /* Domain 9 - ISFC */
    {9, 1, "ISFISC", "ISFC end point status change", E, "IBM mon710 MRISFISC"},
    /* Domain 10 - APPLDATA */
    {10, 1, "APLEDT", "Application data event record", E, "IBM mon730 MRAPLEDT"},
    {10, 2, "APLSDT", "Application data sample record", S, "IBM mon750 MRAPLSDT"},
    /* Domain 11 - SSI */
    {11, 1, "SSISCS", "State change synchronization activity", S, "IBM mon640 MRSSISCS"},
    {11, 2, "SSISMI", "State and mode information", S, "IBM mon710 MRSSISMI"},
    {11, 3, "SSISCH", "State change event", E, I7},
    {11, 4, "SSISLT", "Slot definition", E, "IBM mon730 MRSSISLT"},
    {11, 8, "SSIPDR", "Persistent data record volume change", E, "IBM mon750 MRSSIPDR"},
};
#undef S
#undef E
#undef C
#undef I7
#undef ZP

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
