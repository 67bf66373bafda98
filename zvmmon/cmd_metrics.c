/* SPDX-License-Identifier: MIT */
/*
 * zvmmon metrics: every CP metric, from the table the decoder emits them
 * by (decoder/metric/cp/met_cp_metrics.c), with the provenance of the
 * fields each rests on taken from the layouts.  --markdown writes the
 * reference tables of doc/metrics-cp.md (make doc-metrics puts them in).
 */
#include <ctype.h>
#include <getopt.h>
#include <string.h>

#include "zvmdec.h"
#include "zvmmon.h"

/* The next field name in *s (an upper-case word with '_'), or false at the end. */
static bool next_field(const char **s, char *out, size_t outsz)
{
        for (const char *p = *s; *p;) {
                size_t n = 0;
                while (isupper((unsigned char)p[n]) || isdigit((unsigned char)p[n]) || p[n] == '_')
                        n++;
                if (n && memchr(p, '_', n) && n < outsz) {
                        memcpy(out, p, n);
                        out[n] = '\0';
                        *s = p + n;
                        return true;
                }
                p += n ? n : 1;
        }
        return false;
}

/* Provenance of the fields of m, over the default reading of every layout that has them. */
static void prov(const struct cp_metric *m, char *out, size_t outsz)
{
        out[0] = '\0';
        char name[64];
        const char *s = m->fields;
        while (next_field(&s, name, sizeof(name))) {
                const struct zl_layout *l;
                for (size_t i = 0; (l = zl_layout_at(i)) != NULL; i++) {
                        const struct zl_field *f = l->reading ? NULL : zl_field(l, name);
                        if (!f)
                                continue;
                        char one[160];
                        snprintf(one, sizeof(one), "%s %s",
                                 f->prov == ZL_VERIFIED ? "V"
                                 : f->prov == ZL_HINT   ? "H"
                                                        : zl_prov_name((enum zl_prov)f->prov),
                                 f->source ? f->source : "");
                        if (!strstr(out, one)) {
                                size_t n = strlen(out);
                                snprintf(out + n, outsz - n, "%s%s", n ? "; " : "", one);
                        }
                }
        }
}

static void ident(const struct cp_metric *m, char *out, size_t outsz)
{
        snprintf(out, outsz, "zvm-%s/%s%s%s", m->pinst, m->type, m->tinst ? "-" : "",
                 m->tinst ? m->tinst : "");
}

static void computed(const struct cp_metric *m, char *out, size_t outsz)
{
        int n = snprintf(out, outsz, "%s", cp_calc_name((enum cp_calc)m->calc));
        if (m->mul != 1 && n >= 0 && (size_t)n < outsz)
                n += snprintf(out + n, outsz - (size_t)n, " × %u", m->mul);
        if (m->div != 1 && n >= 0 && (size_t)n < outsz)
                n += snprintf(out + n, outsz - (size_t)n, " ÷ %u", m->div);
        const char *when = cp_calc_when((enum cp_calc)m->calc);
        if (when && n >= 0 && (size_t)n < outsz)
                snprintf(out + n, outsz - (size_t)n, ", %s", when);
}

static const char *law(const struct cp_metric *m)
{
        return m->law == CP_NOLAW ? "-" : zv_law_name((enum zv_law)m->law);
}

static const char *ds(const struct cp_metric *m)
{
        return m->ds == ZM_DERIVE ? "DERIVE" : "GAUGE";
}

/* One table per kind of entry, between markers scripts/doc-metrics.py finds. */
static void markdown(void)
{
        for (int k = 0; k < CP_NKINDS; k++) {
                const char *kn = cp_kind_name((enum cp_kind)k);
                printf("<!-- BEGIN generated metrics %s: make doc-metrics writes this table from "
                       "decoder/metric/cp/met_cp_metrics.c -->\n",
                       kn);
                printf("| identifier | record and fields | computed | prov | check | value | DS "
                       "|\n|---|---|---|---|---|---|---|\n");
                for (size_t i = 0; i < cp_nmetrics; i++) {
                        const struct cp_metric *m = &cp_metrics[i];
                        if (m->kind != k)
                                continue;
                        char id[256], how[128], pv[1024];
                        ident(m, id, sizeof(id));
                        computed(m, how, sizeof(how));
                        prov(m, pv, sizeof(pv));
                        printf("| `%s` | D%uR%u %s | %s | %s | %s | %s | %s |\n", id, m->domain,
                               m->record, m->fields, how, pv, law(m), m->desc, ds(m));
                }
                printf("<!-- END generated metrics %s -->\n\n", kn);
        }
}

static void plain(void)
{
        for (size_t i = 0; i < cp_nmetrics; i++) {
                const struct cp_metric *m = &cp_metrics[i];
                char id[256], how[128], rec[16];
                ident(m, id, sizeof(id));
                computed(m, how, sizeof(how));
                /* One column for the record whatever the domain's digits (D0R2, D11R2). */
                snprintf(rec, sizeof(rec), "D%uR%u", m->domain, m->record);
                printf("%-48s %-6s %-7s %-14s %s: %s\n", id, ds(m), rec, law(m), how, m->fields);
        }
}

int zmon_cmd_metrics(int argc, char **argv)
{
        bool md;
        int rc = zmon_table_opts(argc, argv, "metrics", &md);
        if (rc >= 0)
                return rc;
        md ? markdown() : plain();
        return ZMON_OK;
}
