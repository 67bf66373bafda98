/* SPDX-License-Identifier: MIT */
/*
 * Emitting records into the set being built: a CP record through its layout,
 * a domain 10 record around an APPLDATA payload, each counted and handed to
 * the truth.  Separate because the record builders (sim_records_cp.c,
 * sim_records_linux.c) call it for every record, whatever the set.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_model.h"

bool sim_domain_enabled(const struct sim_sys *s, unsigned domain)
{
        return domain == 1 || (s->cfg.domains >> domain & 1);
}

#define FALLBACK_LEN 64 /* a record whose layout is not in the tables yet */

size_t sim_cp_rec_len(unsigned domain, unsigned number, size_t extra)
{
        size_t len = FALLBACK_LEN;
        (void)sim_cp_layout((int)domain, (int)number, &len);
        len += extra;
        return len > 4076 ? 4076 : len;
}

struct sim_rec *sim_emit_begin(struct sim_sys *s, struct sim_rec *r, unsigned domain,
                               unsigned number, const char *key)
{
        return sim_emit_begin_len(s, r, domain, number, key, 0);
}

struct sim_rec *sim_emit_begin_len(struct sim_sys *s, struct sim_rec *r, unsigned domain,
                                   unsigned number, const char *key, size_t extra)
{
        if (!sim_domain_enabled(s, domain))
                return NULL;
        const struct zl_layout *l = sim_cp_layout((int)domain, (int)number, NULL);
        size_t len = sim_cp_rec_len(domain, number, extra);
        uint8_t *p = sim_sb_add(s->sb, domain, number, len, s->tod);
        if (!p)
                return NULL; /* the set fills its area: lost (sim_dcss.c) */
        memset(r, 0, sizeof(*r));
        r->l = l;
        r->b = (zd_wbuf){p, len};
        r->key = sim_hash_str(key);
        r->n = s->n;
        r->secs = (double)s->n * s->cfg.interval_ms / 1000.0;
        sim_rec_generic(r, s->cfg.seed, ZD_HDR_LEN);
        return r;
}

void sim_count_record(struct sim_sys *s, unsigned domain, unsigned number)
{
        s->counts.records++;
        if (domain < ZD_NDOMAINS)
                s->counts.by_rec[domain][number < ZD_NRECSLOTS ? number : ZD_NRECSLOTS - 1]++;
}

void sim_emit_end(struct sim_sys *s, struct sim_rec *r, unsigned domain, unsigned number,
                  const char *key, char kind)
{
        sim_count_record(s, domain, number);
        if (s->truth)
                sim_truth_record(s->truth, s->n, s->tod, kind, domain, number, key, r->l,
                                 zd_view_make(r->b.p, r->b.cap), NULL, 0, zd_view_make(NULL, 0),
                                 NULL);
}

void sim_emit_appl(struct sim_sys *s, const char *userid, const uint8_t prodid[16],
                   const uint8_t *data, size_t len, char kind, const char *payload_layout,
                   size_t payload_off, const char *key, const char *note)
{
        unsigned number = kind == 'E' ? 1 : 2;
        if (!sim_domain_enabled(s, 10))
                return;
        size_t hl = ZD_APPL_HDR_LEN;
        const struct zl_layout *l = sim_cp_layout(10, (int)number, NULL);
        if (len > SIM_MW_MAX_DATALEN)
                len = SIM_MW_MAX_DATALEN;
        uint8_t *p = sim_sb_add(s->sb, 10, number, hl + len, s->tod);
        if (!p)
                return; /* the set fills its area: lost (sim_dcss.c) */
        struct sim_rec r = {.l = l, .b = {p, hl + len}};
        const char *pre = number == 1 ? "APLEDT_" : "APLSDT_";
        char nm[5][32];
        snprintf(nm[0], 32, "%sCALDATOF", pre);
        snprintf(nm[1], 32, "%sCALDATLN", pre);
        snprintf(nm[2], 32, "%sUSERID", pre);
        snprintf(nm[3], 32, "%sPRODID", pre);
        /* Names built at run time bypass the pointer cache: look them up directly. */
        const struct zl_field *f;
        if ((f = zl_field(l, nm[0])))
                (void)zl_put(f, r.b, hl);
        if ((f = zl_field(l, nm[1])))
                (void)zl_put(f, r.b, len);
        if ((f = zl_field(l, nm[2])))
                (void)zl_put_text(f, r.b, userid);
        if ((f = zl_field(l, nm[3])) && f->len == 16)
                (void)zd_put_bytes(r.b, f->off, prodid, 16);
        if (!l || !zl_field(l, nm[0]) || !zl_field(l, nm[3]))
                sim_set_u(&r, number == 1 ? "APLEDT_CALDATOF" : "APLSDT_CALDATOF", hl);
        memcpy(p + hl, data, len);
        sim_count_record(s, 10, number);
        if (s->truth) {
                const struct zl_layout *pl =
                    payload_layout ? sim_payload_layout(payload_layout, NULL) : NULL;
                sim_truth_record(s->truth, s->n, s->tod, kind, 10, number, key, l,
                                 zd_view_make(p, hl + len), pl, payload_off,
                                 zd_view_make(p + hl, len), note);
        }
}
