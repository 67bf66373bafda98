/* SPDX-License-Identifier: MIT */
/*
 * zvmmon layouts: every layout table with offsets, types and provenance.
 * This is the documentation of the decoder, generated from the same
 * declarations the decoder reads (zvmmon layouts --markdown > doc/...).
 */
#include <getopt.h>
#include <string.h>

#include "zvmdec.h"
#include "zvmmon.h"

static const char *kind_name(unsigned k)
{
        return k == ZL_K_GAUGE ? "gauge" : k == ZL_K_COUNTER ? "counter" : "";
}

/* Markdown cells must not contain '|'. */
static void cell(const char *s)
{
        for (; s && *s; s++)
                fputs(*s == '|' ? "\\|" : (char[2]){*s, 0}, stdout);
}

static void markdown(const struct zl_layout *l)
{
        printf("### %s (%s)\n\n", l->id, l->dsect ? l->dsect : "");
        if (l->domain >= 0)
                printf("Domain %d record %d, ", l->domain, l->record);
        else
                printf("Payload layout, ");
        printf("used for %s of %u bytes or more; level: ", l->domain >= 0 ? "records" : "data",
               l->min_len);
        cell(l->level);
        printf("; source: ");
        cell(l->source);
        if (l->reading)
                printf("; reading: %s (chosen only by that name)", l->reading);
        printf(".\n\n| offset | length | field | type | provenance | kind | unit | meaning | "
               "source |\n|---:|---:|---|---|---|---|---|---|---|\n");
        for (size_t i = 0; i < l->nfields; i++) {
                const struct zl_field *f = &l->fields[i];
                printf("| %u | %u | `%s` | %s | %s | %s | ", f->off, f->len, f->name,
                       zl_type_name((enum zl_type)f->type), zl_prov_name((enum zl_prov)f->prov),
                       kind_name(f->kind));
                cell(f->unit);
                printf(" | ");
                cell(f->desc);
                printf(" | ");
                cell(f->source);
                printf(" |\n");
        }
        printf("\n");
}

static void plain(const struct zl_layout *l)
{
        printf("%s  %s  ", l->id, l->dsect ? l->dsect : "");
        if (l->domain >= 0)
                printf("domain %d record %d  ", l->domain, l->record);
        printf("min_len %u  level %s%s%s\n  source: %s\n", l->min_len, l->level ? l->level : "",
               l->reading ? "  reading " : "", l->reading ? l->reading : "",
               l->source ? l->source : "");
        for (size_t i = 0; i < l->nfields; i++) {
                const struct zl_field *f = &l->fields[i];
                printf("  %5u %4u  %-28s %-10s %-9s %-7s %-9s %s\n", f->off, f->len, f->name,
                       zl_type_name((enum zl_type)f->type), zl_prov_name((enum zl_prov)f->prov),
                       kind_name(f->kind), f->unit ? f->unit : "", f->desc ? f->desc : "");
        }
        printf("\n");
}

/*
 * --coverage: the registry's records and how far the layouts declare
 * them (zr_cover), with the CP metrics resting on each (cp_metrics, the
 * table the engine emits by).  --markdown writes doc/records.md.
 */
#define NDOM 12

static unsigned metrics_of(const struct zr_record *r)
{
        unsigned n = 0;
        for (size_t i = 0; i < cp_nmetrics; i++)
                n += cp_metrics[i].domain == r->domain && cp_metrics[i].record == r->record;
        return n;
}

static const char *kinds(unsigned t)
{
        static const char *const k[8] = {"?", "S", "E", "E+S", "C", "C+S", "E+C", "E+C+S"};
        return k[t & 7];
}

/* IBM's lengths per level: "4.2: 96; 6.4: 116", a "+" where a variable part follows. */
static void lengths(const struct zr_record *r, char *out, size_t outsz)
{
        size_t n = 0;
        out[0] = '\0';
        for (size_t i = 0; i < ZR_NLENS && r->lens[i].level && n < outsz; i++)
                n += (size_t)snprintf(out + n, outsz - n, "%s%s: %u%s", i ? "; " : "",
                                      r->lens[i].level, r->lens[i].len, r->lens[i].var ? "+" : "");
}

/* What the chosen layout declares: "fields to 24, chosen from 112 (1 hint)". */
static void declared(const struct zr_coverage *c, char *out, size_t outsz)
{
        if (!c->l) {
                snprintf(out, outsz, "-");
                return;
        }
        int n =
            snprintf(out, outsz, "%u field%s to %u, chosen from %u", c->nfields,
                     c->nfields == 1 ? "" : "s", c->extent < 20 ? 20 : c->extent, c->l->min_len);
        if (c->nhints && n > 0 && (size_t)n < outsz)
                snprintf(out + n, outsz - (size_t)n, " (%u not verified)", c->nhints);
}

struct cov_sums {
        unsigned named, cover[3], metric;
};

static void cov_sum(struct cov_sums *d, const struct zr_record *r)
{
        struct zr_coverage c;
        zr_cover(r, &c);
        d->named++;
        d->cover[c.cover]++;
        d->metric += metrics_of(r) > 0;
}

static void cov_row(const struct zr_record *r, bool md)
{
        struct zr_coverage c;
        zr_cover(r, &c);
        char lens[128], decl[96];
        lengths(r, lens, sizeof(lens));
        declared(&c, decl, sizeof(decl));
        unsigned nm = metrics_of(r);
        if (md)
                printf("| D%dR%d | %s | %s | %s | %s | %s | %s | %s | %s | %u |\n", r->domain,
                       r->record, r->dsect, kinds(r->types), r->name,
                       zr_basis_name((enum zr_basis)r->basis), r->levels ? r->levels : "-",
                       *lens ? lens : "-", zr_cover_name(c.cover), decl, nm);
        else {
                char id[16];
                snprintf(id, sizeof(id), "D%dR%d", r->domain, r->record);
                printf("%-7s %-6s %-5s %-5s %-8s %-52s %-9s %s\n", id, r->dsect, kinds(r->types),
                       zr_basis_name((enum zr_basis)r->basis), zr_cover_name(c.cover), decl,
                       nm ? "metrics" : "no metric", r->name);
        }
}

static void cov_summary(bool md)
{
        struct cov_sums d[NDOM] = {{0}}, t = {0};
        const struct zr_record *r;
        for (size_t i = 0; (r = zr_record_at(i)) != NULL; i++)
                if (r->domain >= 0 && r->domain < NDOM) {
                        cov_sum(&d[r->domain], r);
                        cov_sum(&t, r);
                }
        if (md)
                printf("| domain | records named | layouts complete | layouts partial | no "
                       "layout | records with a metric |\n|---|---:|---:|---:|---:|---:|\n");
        else
                printf("%-20s %6s %9s %8s %5s %8s\n", "domain", "named", "complete", "partial",
                       "none", "metrics");
        for (unsigned k = 0; k <= NDOM; k++) {
                const struct cov_sums *s = k < NDOM ? &d[k] : &t;
                char name[32];
                snprintf(name, sizeof(name), k < NDOM ? "%u %s" : "total", k,
                         k < NDOM ? zr_domain_name(k) : "");
                if (md)
                        printf("| %s | %u | %u | %u | %u | %u |\n", name, s->named,
                               s->cover[ZR_COMPLETE], s->cover[ZR_PARTIAL], s->cover[ZR_NONE],
                               s->metric);
                else
                        printf("%-20s %6u %9u %8u %5u %8u\n", name, s->named, s->cover[ZR_COMPLETE],
                               s->cover[ZR_PARTIAL], s->cover[ZR_NONE], s->metric);
        }
        printf("\n");
}

static const char cov_intro[] =
    "# CP records and their layouts\n\n"
    "Generated by `zvmmon layouts --coverage --markdown` from the record registry\n"
    "(`decoder/layout/reg_records.c`), the layout tables (`decoder/layout/cp/`) and\n"
    "the CP metric table (`decoder/metric/cp/met_cp_metrics.c`): `make doc-records`\n"
    "writes it, `make check-doc-records` fails when it and the tables differ.\n\n"
    "A layout is **complete** when it is chosen at the newest length IBM gives for the\n"
    "record and its fields, every one printed on IBM's page, cover every byte after the\n"
    "20-byte header; **partial** when it declares less (a page's readable head, an older\n"
    "level, fields resting on zpmd's hints); **none** when the record is only named.\n"
    "Records without a layout are still counted (`zvmmon stat`) and named (`zvmmon\n"
    "dump`); a record shorter than every layout of its kind is shown without fields,\n"
    "never read past its end.\n\n"
    "Columns: kind S sample, E event, C configuration (? not known); *rests on*: IBM's\n"
    "page for the record was read (page), IBM names it elsewhere (named: the 7.5 index,\n"
    "another record's page), or zpmd's transcription alone (zpmd); *levels read*: the\n"
    "z/VM levels whose page was read; *IBM lengths*: the structure length per level, `+`\n"
    "where a variable part follows; *declared*: what the layout chosen for the longest\n"
    "record holds; *metrics*: CP metrics computed from the record (doc/metrics-cp.md).\n"
    "Sources: doc/facts/ibm-record-pages.md, doc/facts/cp-records.md.\n\n";

static void zmon_coverage(bool md)
{
        if (md)
                fputs(cov_intro, stdout);
        cov_summary(md);
        const struct zr_record *r;
        int dom = -1;
        for (size_t i = 0; (r = zr_record_at(i)) != NULL; i++) {
                if (md && r->domain != dom) {
                        dom = r->domain;
                        printf("%s## Domain %d: %s\n\n| record | DSECT | kind | IBM title | rests "
                               "on | levels read | IBM lengths | layout | declared | metrics "
                               "|\n|---|---|---|---|---|---|---|---|---|---:|\n",
                               i ? "\n" : "", dom, zr_domain_name((unsigned)dom));
                }
                cov_row(r, md);
        }
}

/* --markdown, --coverage, --help: -1 to go on, else the exit code. */
static int opts(int argc, char **argv, bool *md, bool *cov)
{
        static const struct option lo[] = {
            {"markdown", no_argument, NULL, 'm'},
            {"coverage", no_argument, NULL, 'c'},
            {"help", no_argument, NULL, 'h'},
            {NULL, 0, NULL, 0},
        };
        *md = *cov = false;
        int c;
        optind = 1;
        while ((c = getopt_long(argc, argv, "mch", lo, NULL)) != -1) {
                if (c == 'm')
                        *md = true;
                else if (c == 'c')
                        *cov = true;
                else if (c == 'h') {
                        printf("Usage: zvmmon layouts [--coverage] [--markdown]\n");
                        return ZMON_OK;
                } else
                        return ZMON_UNUSABLE;
        }
        if (optind != argc) {
                fprintf(stderr, "zvmmon layouts: no arguments expected\n");
                return ZMON_UNUSABLE;
        }
        return -1;
}

int zmon_cmd_layouts(int argc, char **argv)
{
        bool md, cov;
        int rc = opts(argc, argv, &md, &cov);
        if (rc >= 0)
                return rc;
        if (cov) {
                zmon_coverage(md);
                return ZMON_OK;
        }
        if (md)
                printf("# Record layouts\n\nGenerated by `zvmmon layouts --markdown` from the "
                       "decoder's layout tables.\nProvenance: verified (IBM page, kernel or "
                       "s390-tools source), hint (zpmd's z/VM 5.3\ntranscription, checked at run "
                       "time), inferred, uncertain (dumped, never a metric).\n\n");
        const struct zl_layout *l;
        for (size_t i = 0; (l = zl_layout_at(i)) != NULL; i++)
                md ? markdown(l) : plain(l);
        return ZMON_OK;
}
