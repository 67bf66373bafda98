/* SPDX-License-Identifier: MIT */
/*
 * How a value becomes a cell, for every screen: a DERIVE value becomes a
 * rate as collectd would make it (the difference to the previous value over
 * the difference of their record times), and a value whose law is not on is
 * shown as "?", never as a number (the rule of the engine's auto mode).
 */
#include "top_model.h"

bool top_rate(struct ctr *c, int64_t v, uint64_t tod, double *out)
{
        bool ok = c->has && tod > c->tod && v >= c->v;
        if (ok)
                *out = (double)(v - c->v) / ((double)(tod - c->tod) / 4096e6);
        c->v = v;
        c->tod = tod;
        c->has = true;
        return ok;
}

bool top_allowed(const struct top_model *t, const char *check)
{
        if (!check)
                return true;
        const struct zv_law_status *s = zm_law_status(t->e, check);
        return s && s->on;
}

void top_put(struct top_cell *c, bool *got, double v, bool ok)
{
        c->v = v;
        c->mark = ok ? TOP_NUM : TOP_UNPROVEN;
        *got = true;
}

void top_missing(const struct top_model *t, struct top_cell *c, bool got, const char *law)
{
        if (got)
                return;
        c->v = 0;
        c->mark = law && !top_allowed(t, law) ? TOP_UNPROVEN : TOP_NODATA;
}
