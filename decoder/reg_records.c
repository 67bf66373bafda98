/* SPDX-License-Identifier: MIT */
#include "registry.h"

/* Domain names and ids: IBM MONEQ (zvm-monitor-records.md 2.1) [V]. */
static const char *const dom_name[] = {
	"System",  "Monitor",         "Scheduler", "Storage", "User", "Processor", "I/O",
	"Seek",    "Virtual Network", "ISFC",      "APPLDATA", "SSI",
};
static const char *const dom_id[] = {"SYT", "MTR", "SCL", "STO", "USE", "PRC",
				     "IOD", "SEK", "VND", "ISF", "APL", "SSI"};

#define S ZR_SAMPLE
#define E ZR_EVENT
#define C ZR_CONFIG
static const struct zr_record records[] = {
	{1, 11, "MTREND", "Interval end", E | S, "IBM mon730 MRMTREND"},
	{1, 12, "MTRSOS", "Event record start of suspend", E, "IBM mon750 MRMTRSOS"},
	{1, 13, "MTREOF", "End-of-frame indicator", E | S, "IBM mon730 MRMTREOF"},
	{10, 1, "APLEDT", "Application data event record", E, "IBM mon730 MRAPLEDT"},
	{10, 2, "APLSDT", "Application data sample record", S, "IBM mon750 MRAPLSDT"},
};
#undef S
#undef E
#undef C

const char *zr_domain_name(unsigned d)
{
	return d < sizeof(dom_name) / sizeof(dom_name[0]) ? dom_name[d] : NULL;
}

const char *zr_domain_id(unsigned d)
{
	return d < sizeof(dom_id) / sizeof(dom_id[0]) ? dom_id[d] : NULL;
}

const struct zr_record *zr_lookup(unsigned domain, unsigned record)
{
	for (size_t i = 0; i < sizeof(records) / sizeof(records[0]); i++)
		if ((unsigned)records[i].domain == domain && (unsigned)records[i].record == record)
			return &records[i];
	return NULL;
}

const struct zr_record *zr_record_at(size_t i)
{
	return i < sizeof(records) / sizeof(records[0]) ? &records[i] : NULL;
}
