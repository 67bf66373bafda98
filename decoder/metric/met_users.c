/* SPDX-License-Identifier: MIT */
/*
 * The guests CP's user domain names (domain 4): every user record starts
 * with the userid (VMDUSER at offset 20; facts/cp-records.md 1), and a
 * guest any of them names is a guest of this system, whose own host no
 * other guest may claim (doc/plugin.md, TrustedGuestHost).  The CP module
 * names the guests of its activity samples (D4R3 USEACT) as it reads them;
 * this module the others: logon and logoff (D4R1, D4R2) above all, the
 * only records of a guest that logs on and off between two samples, or of
 * any guest when user sampling is off and user events are on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"
#include "metric/met_module.h"
#include "payload/appldata/appl.h"

/*
 * The userids of recent records, converted once: a user record of a guest
 * carries the same 8 EBCDIC bytes every time.  Direct-mapped by those bytes.
 */
#define USER_SLOTS 256

struct users {
        /* The VMDUSER field of each record number's layout (found by name once per layout). */
        struct user_field {
                const struct zl_layout *l;
                size_t gen;
                const struct zl_field *f;
        } field[32];
        struct user_slot {
                uint64_t raw;
                const struct zl_field *f;
                size_t gen;
                char userid[9]; /* "" when the bytes are no userid CP writes */
        } slot[USER_SLOTS];
};

static void *users_create(struct zm_engine *e)
{
        (void)e;
        return calloc(1, sizeof(struct users));
}

static void users_destroy(void *state)
{
        free(state);
}

/* The record's VMDUSER field, by its layout (a LayoutFile may move it); NULL when it has none. */
static const struct zl_field *vmduser(struct users *s, const struct zd_record *r)
{
        const struct zl_layout *l = zl_find_cp(r->domain, r->number, r->rec.n);
        if (!l || r->number >= sizeof(s->field) / sizeof(s->field[0]))
                return NULL;
        struct user_field *c = &s->field[r->number];
        size_t gen = zl_generation();
        if (c->l != l || c->gen != gen) {
                char name[32];
                c->l = l;
                c->gen = gen;
                c->f = l->dsect && (size_t)snprintf(name, sizeof(name), "%s_VMDUSER", l->dsect) <
                                       sizeof(name)
                           ? zl_field(l, name)
                           : NULL;
        }
        return c->f;
}

static void users_record(struct zm_engine *e, void *state, const struct zd_record *r)
{
        struct users *s = state;
        /* D4R3: the CP module names its guests; only CP's sample and event records here */
        if (!s || r->domain != 4 || r->number == 3)
                return;
        const struct zl_field *f = vmduser(s, r);
        uint64_t raw;
        if (!f || f->len != 8 || !zd_uN(r->rec, f->off, 8, &raw))
                return;
        struct user_slot *u =
            &s->slot[(raw * UINT64_C(0x9E3779B97F4A7C15)) >> 56 & (USER_SLOTS - 1)];
        size_t gen = zl_generation();
        if (u->raw != raw || u->f != f || u->gen != gen) {
                struct zl_value v;
                memset(u->userid, 0, sizeof(u->userid)); /* all 9 set: zm_note_guest reads 8 */
                if (zl_read(f, r->rec, &v) && v.present)
                        zl_text(&v, u->userid, sizeof(u->userid));
                if (!zd_cp_userid(u->userid))
                        memset(u->userid, 0, sizeof(u->userid));
                u->raw = raw;
                u->f = f;
                u->gen = gen;
        }
        if (u->userid[0])
                zm_note_guest(e, u->userid);
}

const struct zm_module zm_mod_users = {.name = "users",
                                       .create = users_create,
                                       .destroy = users_destroy,
                                       .record = users_record,
                                       .domains = 1u << 4};
