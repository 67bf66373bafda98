/* SPDX-License-Identifier: MIT */
/*
 * Domain 1 configuration that the whole metric layer needs: the system
 * name (D1R4 MTRSYS_SYSTMID, lower-cased: it becomes collectd's host) and
 * the sample interval (D1R9 MTRSPR_INTERVAL).
 *
 * SYSTMID is a HINT offset (zpmd 5.3, length-consistent with IBM's record
 * lengths).  It is only taken when it reads as a CP system identifier
 * (1-8 characters from A-Z, 0-9, @ # $, blank padded); anything else is
 * logged and ignored, so a wrong offset cannot rename the host.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "layout/layout.h"
#include "metric/met_module.h"

static bool cp_name(const char *s)
{
        size_t n = strlen(s);
        if (n == 0 || n > 8)
                return false;
        for (size_t i = 0; i < n; i++) {
                char c = s[i];
                if (!(isupper((unsigned char)c) || isdigit((unsigned char)c) || c == '@' ||
                      c == '#' || c == '$'))
                        return false;
        }
        return true;
}

static void mon_record(struct zm_engine *e, void *state, const struct zd_record *r)
{
        (void)state;
        if (r->domain != 1 || (r->number != 4 && r->number != 9))
                return;
        const struct zl_layout *l = zl_find_cp(r->domain, r->number, r->rec.n);
        struct zl_value v;
        if (!l)
                return;
        if (r->number == 4) {
                char name[64];
                if (!zl_get(l, r->rec, "MTRSYS_SYSTMID", &v) || !v.present)
                        return;
                zl_text(&v, name, sizeof(name));
                if (!cp_name(name)) {
                        zm_log(e, 4,
                               "zvm: MTRSYS system identifier \"%s\" is not a CP name; ignored",
                               name);
                        return;
                }
                for (char *p = name; *p; p++)
                        *p = (char)tolower((unsigned char)*p);
                if (strcmp(name, zm_engine_system(e)) != 0) {
                        zm_log(e, 6, "zvm: system name %s (MTRSYS_SYSTMID)", name);
                        zm_set_system(e, name);
                }
                return;
        }
        if (!zl_get(l, r->rec, "MTRSPR_INTERVAL", &v) || !v.present)
                return;
        if (v.s < 1 || v.s > 86400) {
                zm_log(e, 4, "zvm: MTRSPR sample interval %lld s is implausible; ignored",
                       (long long)v.s);
                return;
        }
        zm_set_interval(e, (double)v.s);
}

const struct zm_module zm_mod_monitor = {"monitor", NULL, NULL, mon_record, NULL};
