/* SPDX-License-Identifier: MIT */
/*
 * Records are built through the decoder's layout tables (decoder/layout/layout.h):
 * the simulator has no offsets of its own.  A field the model sets that the
 * tables do not (yet) declare is skipped and reported once, so a layout that
 * is missing shows up as a message, not as wrong bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "sim.h"

#define FCACHE 8192
static struct {
        const struct zl_layout *l;
        const char *name;
        const struct zl_field *f;
} fcache[FCACHE];

const struct zl_field *sim_f(const struct zl_layout *l, const char *name)
{
        size_t h = (size_t)(sim_hash2((uintptr_t)l, (uintptr_t)name) % FCACHE);
        for (size_t i = 0; i < FCACHE; i++, h = (h + 1) % FCACHE) {
                if (fcache[h].l == l && fcache[h].name == name)
                        return fcache[h].f;
                if (!fcache[h].l) {
                        fcache[h].l = l;
                        fcache[h].name = name;
                        fcache[h].f = zl_field(l, name);
                        return fcache[h].f;
                }
        }
        return zl_field(l, name);
}

size_t sim_layout_len(const struct zl_layout *l)
{
        size_t n = l->min_len;
        for (size_t i = 0; i < l->nfields; i++)
                if ((size_t)l->fields[i].off + l->fields[i].len > n)
                        n = (size_t)l->fields[i].off + l->fields[i].len;
        return n;
}

/* One reading per process, like the layouts (zvmsim builds one system). */
static const char *reading;

void sim_set_reading(const char *name)
{
        reading = name;
}

const struct zl_layout *sim_cp_layout(int domain, int record, size_t *len)
{
        /* The newest layout of a record is the one with the largest min_len. */
        const struct zl_layout *l = zl_find_cp_reading(domain, record, 65535, reading);
        if (!l) {
                char id[32];
                snprintf(id, sizeof(id), "D%dR%d", domain, record);
                sim_records_missing_layout(id);
        }
        if (l && len)
                *len = sim_layout_len(l);
        return l;
}

const struct zl_layout *sim_payload_layout(const char *id, size_t *len)
{
        const struct zl_layout *l = zl_find(id, 65535);
        if (!l)
                sim_records_missing_layout(id);
        if (l && len)
                *len = sim_layout_len(l);
        return l;
}

/* Misses: (layout id, field name) pairs the model wanted and the tables lack. */
#define MISSES 256
static struct {
        const char *id, *name;
        unsigned long n;
} misses[MISSES];
static size_t nmisses;

static void miss(struct sim_rec *r, const char *name)
{
        r->misses++;
        if (!r->l) /* the whole layout is missing: reported once by its user */
                return;
        const char *id = r->l->id;
        for (size_t i = 0; i < nmisses; i++)
                if (misses[i].name == name && strcmp(misses[i].id, id) == 0) {
                        misses[i].n++;
                        return;
                }
        if (nmisses < MISSES) {
                misses[nmisses].id = id;
                misses[nmisses].name = name;
                misses[nmisses].n = 1;
                nmisses++;
        }
}

static struct {
        char id[32];
        unsigned long n;
} nolay[64];
static size_t nnolay;

void sim_records_missing_layout(const char *id)
{
        for (size_t i = 0; i < nnolay; i++)
                if (strcmp(nolay[i].id, id) == 0) {
                        nolay[i].n++;
                        return;
                }
        if (nnolay < 64) {
                snprintf(nolay[nnolay].id, sizeof(nolay[nnolay].id), "%s", id);
                nolay[nnolay++].n = 1;
        }
}

void sim_records_report_misses(FILE *f)
{
        for (size_t i = 0; i < nnolay; i++)
                fprintf(
                    f,
                    "zvmsim: no layout %s in the decoder's tables (%lu records built without it)\n",
                    nolay[i].id, nolay[i].n);
        for (size_t i = 0; i < nmisses; i++)
                fprintf(f, "zvmsim: layout %s has no field %s (not set in %lu records)\n",
                        misses[i].id, misses[i].name, misses[i].n);
}

void sim_set_u(struct sim_rec *r, const char *name, uint64_t v)
{
        const struct zl_field *f = r->l ? sim_f(r->l, name) : NULL;
        if (!f || !zl_put(f, r->b, v))
                miss(r, name);
}

void sim_set_t(struct sim_rec *r, const char *name, const char *text)
{
        const struct zl_field *f = r->l ? sim_f(r->l, name) : NULL;
        if (!f || !zl_put_text(f, r->b, text))
                miss(r, name);
}

/*
 * Values for fields the model does not drive: counters grow at a steady rate
 * per (source, field), levels wander a little around a base, timers count
 * the way their type says.  Deterministic in (seed, key, field, interval).
 */
void sim_rec_generic(struct sim_rec *r, uint64_t seed, size_t skip_below)
{
        const struct zl_layout *l = r->l;
        for (size_t i = 0; l && i < l->nfields; i++) {
                const struct zl_field *f = &l->fields[i];
                if (f->off < skip_below || f->len == 0)
                        continue;
                if ((size_t)f->off + f->len > r->b.cap)
                        continue;
                uint64_t h = sim_hash2(seed ^ r->key, sim_hash_str(f->name));
                unsigned bits = f->len >= 8 ? 64 : f->len * 8;
                uint64_t mask = bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
                uint64_t t = (uint64_t)(r->secs * 1000.0); /* ms */
                uint64_t v;
                switch (f->type) {
                case ZL_EBCDIC:
                        zd_ascii_to_ebcdic("", ZD_CP037, r->b.p + f->off, f->len);
                        continue;
                case ZL_TOD:
                        v = 0; /* set by the model where meaningful */
                        break;
                case ZL_TIMER: /* CPU time, up to 1/8 of a CPU */
                        v = (h & 0xFFFFFFFFFF) + t * ((h >> 40) % 125000) * 4096 / 1000;
                        break;
                case ZL_TIMERD:
                        v = UINT64_C(0x7FFFFFFF00000000) - t * ((h >> 40) % 125000) * 4096 / 1000;
                        break;
                case ZL_UINT:
                case ZL_SINT: {
                        uint64_t scale = bits <= 8 ? 10 : bits <= 16 ? 1000 : UINT64_C(1000000);
                        if (f->kind == ZL_K_COUNTER)
                                v = (h % scale) + t * ((h >> 32) % 2000) / 1000;
                        else if (f->kind == ZL_K_GAUGE)
                                v = (h % scale) + ((sim_hash2(h, r->n) % 16));
                        else
                                v = h % (bits <= 8 ? 4 : 64);
                        if (f->type == ZL_SINT && bits < 64)
                                v &= mask >> 1;
                        break;
                }
                default:
                        continue; /* bits, hex, ascii, reserved: left zero */
                }
                if (f->len <= 8)
                        (void)zl_put(f, r->b, v & mask);
        }
}
