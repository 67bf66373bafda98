/* SPDX-License-Identifier: MIT */
/*
 * A layout made ready for reading whole records (layout.h, zl_reader).
 *
 * zl_read_ints looks at each field's type, width and place for every
 * record; over a dump of millions of records those decisions were most of
 * the cost of reading a field.  Here they become a step per field: where
 * the 8-byte load starts, how far to shift, what to mask, which sign bit to
 * extend.  A record long enough for every field is then read without a
 * bound per field; a shorter one (an older level's record, a guest's cut
 * buffer) field by field, with the bound.  A layout that is a whole
 * built-in table has those steps compiled with the table (lay_fast.h):
 * for a record that reaches every field, that function reads it.
 */
#include "base/ebcdic.h"
#include "layout/lay_fast.h"

bool zl_reader_init(struct zl_reader *r, const struct zl_layout *l)
{
        r->l = NULL;
        if (!l || l->nfields > ZL_READER_MAX)
                return false;
        r->gen = zl_generation();
        r->reach = 8; /* every load is 8 bytes */
        r->nfields = (uint16_t)l->nfields;
        r->ncounted = r->ntext = r->nodd = 0;
        for (size_t i = 0; i < l->nfields; i++) {
                const struct zl_field *f = &l->fields[i];
                struct zl_step *s = &r->step[i];
                /* the same step a table's compiled reader folds (lay_fast.h) */
                *s = zl_step_of(f);
                if (s->shift || s->sign)
                        r->odd[r->nodd++] = (uint16_t)i;
                if (s->need > r->reach)
                        r->reach = s->need;
                r->ncounted += s->counted;
                if (f->type == ZL_EBCDIC || f->type == ZL_ASCII) {
                        r->text_off[r->ntext] = f->off;
                        r->text_end[r->ntext] =
                            f->type == ZL_EBCDIC ? (uint32_t)f->off + f->len : UINT32_MAX;
                        r->text[r->ntext++] = (uint16_t)i;
                }
        }
        r->fast = NULL;
        for (size_t t = 0; zl_fast_builtin[t] && !r->fast; t++)
                for (const struct zl_fast *c = zl_fast_builtin[t]; c->read; c++)
                        if (c->fields == l->fields && c->n == l->nfields)
                                r->fast = c->read;
        r->l = l;
        return true;
}

/* Step s's integer from the 8 bytes at p + s->base: (v ^ sign) - sign extends a sign bit. */
static inline uint64_t take(const struct zl_step *s, const uint8_t *p)
{
        uint64_t v = zd_uN_load8(p + s->base) >> s->shift & s->mask;
        return (v ^ s->sign) - s->sign;
}

/* zl_reader_ints without a compiled reader, or for a record that does not reach every field. */
size_t zl_reader_steps(const struct zl_reader *r, zd_view rec, uint64_t *u)
{
        const struct zl_step *s = r->step;
        if (rec.n >= r->reach) {
                /* Every field as if it were unsigned and ended at byte 8 or later, two at a
                 * time (the loop's own instructions were a third of a field's), then the odd
                 * ones again as they are. */
                size_t i = 0, n = r->nfields;
                for (; i + 2 <= n; i += 2) {
                        u[i] = zd_uN_load8(rec.p + s[i].base) & s[i].mask;
                        u[i + 1] = zd_uN_load8(rec.p + s[i + 1].base) & s[i + 1].mask;
                }
                if (i < n)
                        u[i] = zd_uN_load8(rec.p + s[i].base) & s[i].mask;
                for (size_t k = 0; k < r->nodd; k++)
                        u[r->odd[k]] = take(&s[r->odd[k]], rec.p);
                return r->ncounted;
        }
        size_t in = 0;
        for (size_t i = 0; i < r->nfields; i++) {
                u[i] = 0;
                if (s[i].need > rec.n)
                        continue;
                in += s[i].counted;
                if (!s[i].mask)
                        continue;
                if (rec.n >= 8) {
                        u[i] = take(&s[i], rec.p);
                        continue;
                }
                /* Fewer than 8 bytes in all: the bytes up to the field's end one by one
                 * (base is 0 here, as the field ends before byte 8); the mask keeps its own. */
                uint64_t v = 0;
                size_t end = 8 - s[i].shift / 8;
                for (size_t k = 0; k < end; k++)
                        v = v << 8 | rec.p[k];
                v &= s[i].mask;
                u[i] = (v ^ s[i].sign) - s[i].sign;
        }
        return in;
}

size_t zl_reader_text_any(const struct zl_reader *r, size_t k, zd_view rec, char *out, size_t outsz)
{
        const struct zl_field *f = &r->l->fields[r->text[k]];
        struct zl_value v;
        (void)zl_read(f, rec, &v);
        return zl_text(&v, out, outsz); /* "" when not inside */
}
