/* SPDX-License-Identifier: MIT */
/*
 * The CP module's state: snapshot tables of entries keyed by CPU, userid,
 * device, NIC or partition, and what can be said of one entry alone (its
 * deltas against the previous interval, the check its HINT fields need).
 * Everything else in metric/cp/ builds on this file.
 */
#include <stdlib.h>
#include <string.h>

#include "base/tod.h"
#include "metric/cp/met_cp_tab.h"

struct cp_find {
        const struct cp_tab *t;
        const char *key;
};

static bool key_eq(const void *ctx, size_t pos)
{
        const struct cp_find *f = ctx;
        return strcmp(f->t->e[pos].key, f->key) == 0;
}

void cp_each(struct cp_state *s, void (*tab_fn)(struct cp_tab *), void (*one_fn)(struct cp_ent *))
{
        struct cp_tab *const tab[] = {&s->prp, &s->syp, &s->vcpu, &s->guest,
                                      &s->dev, &s->nic, &s->lpar};
        struct cp_ent *const one[] = {&s->rsg, &s->storsg, &s->usr,    &s->sysg,
                                      &s->sxg, &s->asg,    &s->ssiscs, &s->ssismi};
        for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
                tab_fn(tab[i]);
        for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++)
                one_fn(one[i]);
}

struct cp_ent *cp_tab_get(struct cp_tab *t, const char *key)
{
        /* Records come in the same order every interval: try where the last one left off,
         * then the last one itself (a guest's sums are asked for once per virtual CPU). */
        if (t->next < t->n && strcmp(t->e[t->next].key, key) == 0)
                return &t->e[t->next++];
        if (t->next > 0 && t->next <= t->n && strcmp(t->e[t->next - 1].key, key) == 0)
                return &t->e[t->next - 1];
        struct cp_find f = {t, key};
        uint64_t h = zh_str(ZH_SEED, key);
        size_t i = zh_find(&t->ix, h, key_eq, &f);
        if (i != SIZE_MAX) {
                t->next = i + 1;
                return &t->e[i];
        }
        if (strlen(key) >= sizeof(t->e->key))
                return NULL; /* callers' keys always fit; a cut key could never be found again */
        if (!zh_grow((void **)&t->e, &t->cap, t->n, sizeof(*t->e)) || !zh_add(&t->ix, h, t->n))
                return NULL;
        struct cp_ent *x = &t->e[t->n++];
        memset(x, 0, sizeof(*x));
        memcpy(x->key, key, strlen(key) + 1);
        x->hash = h;
        t->next = t->n;
        return x;
}

void cp_tab_reindex(struct cp_tab *t)
{
        t->gen++; /* positions kept elsewhere (a virtual CPU's guest) are stale */
        zh_clear(&t->ix);
        for (size_t i = 0; i < t->n; i++)
                (void)zh_add(&t->ix, t->e[i].hash, i); /* cannot fail: the index only shrank */
}

void cp_ent_drop(struct cp_ent *x)
{
        free(x->label);
        x->label = NULL;
}

void cp_tab_free(struct cp_tab *t)
{
        for (size_t i = 0; i < t->n; i++)
                cp_ent_drop(&t->e[i]);
        free(t->e);
        zh_free(&t->ix);
        memset(t, 0, sizeof(*t));
}
