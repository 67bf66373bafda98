/* SPDX-License-Identifier: MIT */
/*
 * The simulated system's configuration: the defaults every option starts
 * from, --domains parsed into a mask, and the conservation laws --break-law
 * can break.  Separate from the model because it is what main.c and the
 * tests read before any system exists.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_model.h"

/* Every --break-law value: the name of a conservation law of
 * decoder/metric/met_verify.c, or LAW:HOW for a second way to break it. */
static const char *const breaks[] = {"cpu-wait", "guest-cpu",      "guest-vcpu",  "paging",
                                     "storage",  "guest-resident", "lpar",        "device-ssch",
                                     "vnic",     "guest-vio",      "device-time", "lpar:management",
                                     NULL};

const char *const *sim_break_names(void)
{
        return breaks;
}

void sim_cfg_default(struct sim_cfg *c)
{
        memset(c, 0, sizeof(*c));
        c->seed = 1;
        c->cpus = 4;
        c->guests = 20;
        c->linux_guests = 4;
        c->devices = 10;
        c->vnics = 4;
        c->lpars = 2;
        c->fsstatd = 1;
        c->procd = 1;
        c->interval_ms = 60000;
        c->domains = 0xFFF;
        c->dcss_base = 0x09000000;
        c->dcss_pages = 0; /* sized for the configuration, at least 4096 */
        strcpy(c->writer_userid, "LNXWRITE");
        strcpy(c->system_id, "ZVMSIM");
        /* 2026-11-22T00:00:00Z */
        c->start_tod = zd_unix_us_to_tod(INT64_C(1795305600) * 1000000);
        c->torn_permille = 5;
}

bool sim_parse_domains(const char *list, uint32_t *mask)
{
        static const char *const names[] = {"system",  "monitor",   "scheduler", "storage",
                                            "user",    "processor", "i/o",       "seek",
                                            "network", "isfc",      "appldata",  "ssi"};
        char buf[256];
        uint32_t m = 0;
        snprintf(buf, sizeof(buf), "%s", list);
        for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                if (strcmp(t, "all") == 0) {
                        m |= 0xFFF;
                        continue;
                }
                if (strcmp(t, "io") == 0)
                        t = "i/o";
                char *end;
                long d = strtol(t, &end, 10);
                if (*end == '\0' && end != t && d >= 0 && d <= 11) {
                        m |= 1u << d;
                        continue;
                }
                size_t i;
                for (i = 0; i < 12; i++)
                        if (strcasecmp(t, names[i]) == 0)
                                break;
                if (i == 12)
                        return false;
                m |= 1u << i;
        }
        *mask = m | 2; /* the monitor domain is always on */
        return true;
}
