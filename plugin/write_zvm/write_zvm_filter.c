/* SPDX-License-Identifier: MIT */
/*
 * write_zvm: Include / Exclude.  collectd exports no ignorelist to
 * out-of-tree plugins (doc/facts/collectd.md 1), so this is our own:
 * a rule names a plugin, or a plugin and a type ("memory/memory"), each
 * exact or "*".
 */
#include <stdlib.h>
#include <string.h>

#include "write_zvm_core.h"

static bool part_ok(const char *s, size_t n)
{
        return n > 0 && wzvm_name_ok(s, n, false);
}

bool wz_filter_add(struct wz_filter *f, bool include, const char *pattern)
{
        struct wz_rule r;
        memset(&r, 0, sizeof(r));
        const char *slash = strchr(pattern, '/');
        size_t pl = slash ? (size_t)(slash - pattern) : strlen(pattern);
        if (!part_ok(pattern, pl))
                return false;
        memcpy(r.plugin, pattern, pl);
        if (slash) {
                size_t tl = strlen(slash + 1);
                if (!part_ok(slash + 1, tl))
                        return false;
                memcpy(r.type, slash + 1, tl);
        }
        struct wz_rule **v = include ? &f->inc : &f->exc;
        size_t *n = include ? &f->ninc : &f->nexc;
        struct wz_rule *p = realloc(*v, (*n + 1) * sizeof(*p));
        if (!p)
                return false;
        p[(*n)++] = r;
        *v = p;
        return true;
}

static bool name_match(const char *rule, const char *name)
{
        return strcmp(rule, "*") == 0 || strcmp(rule, name) == 0;
}

static bool any(const struct wz_rule *r, size_t n, const char *plugin, const char *type)
{
        for (size_t i = 0; i < n; i++)
                if (name_match(r[i].plugin, plugin) &&
                    (!r[i].type[0] || name_match(r[i].type, type)))
                        return true;
        return false;
}

bool wz_filter_pass(const struct wz_filter *f, const char *plugin, const char *type)
{
        if (f->ninc && !any(f->inc, f->ninc, plugin, type))
                return false;
        return !any(f->exc, f->nexc, plugin, type);
}

void wz_filter_free(struct wz_filter *f)
{
        free(f->inc);
        free(f->exc);
        memset(f, 0, sizeof(*f));
}
