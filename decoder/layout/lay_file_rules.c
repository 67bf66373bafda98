/* SPDX-License-Identifier: MIT */
/*
 * What a LayoutFile's keywords may say (doc/layoutfile.md, "Rules the parser
 * enforces"): a layout's id, DSECT, reading and length; a field's place,
 * type, provenance and kind.  A rule refuses what would load and then never
 * be read, or be read as something it is not.  Here too what every rule
 * needs: the error said at its line, the strings a layout keeps, numbers.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/lay_file.h"
#include "layout/lay_file_int.h"
#include "layout/registry.h"

bool zlf_fail(struct parser *p, const char *fmt, ...)
{
        char msg[256];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        if (p->errlen && p->line)
                snprintf(p->err, p->errlen, "%s:%u: %s", p->name, p->line, msg);
        else if (p->errlen) /* the file as a whole: a "line 0" would send the reader looking */
                snprintf(p->err, p->errlen, "%s: %s", p->name, msg);
        return false;
}

/* A copy of s owned by the file's blob; NULL when out of memory. */
static char *keep(struct parser *p, const char *s)
{
        struct blob *b = p->b;
        if (b->nstr == b->capstr) {
                size_t cap = b->capstr ? b->capstr * 2 : 64;
                char **n = realloc(b->str, cap * sizeof(*n));
                if (!n)
                        return NULL;
                b->str = n;
                b->capstr = cap;
        }
        char *c = strdup(s);
        if (c)
                b->str[b->nstr++] = c;
        return c;
}

/* A decimal (leading zeros too) or 0x number up to max, else said. */
static bool read_number(struct parser *p, const char *what, const char *s, unsigned long max,
                        unsigned long *out)
{
        /* Base 0 would read "020", a column lined up with a zero, as octal 16. */
        bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
        const char *digits = hex ? s + 2 : s;
        size_t n = strspn(digits, hex ? "0123456789abcdefABCDEF" : "0123456789");
        if (!n || digits[n]) /* strtoul alone takes a sign, blanks, a second 0x */
                return zlf_fail(p, "%s \"%s\" is not a number", what, s);
        errno = 0;
        unsigned long v = strtoul(digits, NULL, hex ? 16 : 10);
        if (errno || v > max) /* ERANGE: the digits alone are checked */
                return zlf_fail(p, "%s %s is above %lu", what, s, max);
        *out = v;
        return true;
}

static int lookup(const char *s, const char *const *names, int n)
{
        for (int i = 0; i < n; i++)
                if (strcmp(s, names[i]) == 0)
                        return i;
        return -1;
}

/* "D<d>R<r>" gives a CP layout; anything else is a payload or entry layout. */
static void cp_key(const char *id, int *dom, int *rec)
{
        unsigned d, r;
        char tail;
        *dom = *rec = -1;
        if (sscanf(id, "D%uR%u%c", &d, &r, &tail) == 2 && d <= 255 && r <= 65535) {
                char back[16];
                snprintf(back, sizeof(back), "D%uR%u", d, r);
                if (strcmp(back, id) == 0) {
                        *dom = (int)d;
                        *rec = (int)r;
                }
        }
}

/* "D<digits>R<digits>" in either case: meant as a CP record, whether cp_key took it or not. */
static bool looks_cp(const char *id)
{
        if (*id != 'D' && *id != 'd')
                return false;
        size_t n = strspn(++id, "0123456789");
        if (!n || (id[n] != 'R' && id[n] != 'r'))
                return false;
        id += n + 1;
        n = strspn(id, "0123456789");
        return n && !id[n];
}

static const struct zl_layout *builtin_id(const char *id)
{
        for (size_t t = 0; zl_builtin[t]; t++)
                for (size_t i = 0; i < zl_builtin[t]->n; i++)
                        if (strcmp(zl_builtin[t]->l[i].id, id) == 0)
                                return &zl_builtin[t]->l[i];
        return NULL;
}

/*
 * The decoder looks payload and entry layouts up by the ids of its own
 * tables only, and a record number one off puts fields on another record:
 * either would be loaded and never read, or silently replace the wrong one.
 */
static bool known_id(struct parser *p, const char *id, const char *dsect, int dom, int rec)
{
        const struct zl_layout *b = builtin_id(id);
        const struct zr_record *r = dom >= 0 ? zr_lookup((unsigned)dom, (unsigned)rec) : NULL;
        const char *named = r ? r->dsect : b ? b->dsect : NULL;
        if (dom < 0 && looks_cp(id))
                return zlf_fail(
                    p,
                    "layout id \"%s\": a CP record is D<domain>R<record> in upper case, "
                    "no leading zeros, domain 0-255, record 0-65535 (D0R2)",
                    id);
        if (dom < 0 && !b)
                return zlf_fail(p,
                                "layout id \"%s\" is neither a CP record (D<domain>R<record>) nor "
                                "a built-in payload or entry layout (zvmmon layouts lists them)",
                                id);
        if (dom >= 0 && named && strcmp(named, dsect) != 0)
                return zlf_fail(p, "layout %s is %s's record, not %s (check the record number)", id,
                                named, dsect);
        return true;
}

/*
 * The engine asks for the readings its own tables name, and for none by
 * name when it reads packed: a layout of any other reading is never used.
 */
static bool known_reading(struct parser *p, const char *name)
{
        char list[128] = " ", word[24]; /* " aligned ": each name between blanks */
        size_t n = 1;
        for (size_t t = 0; zl_builtin[t]; t++)
                for (size_t i = 0; i < zl_builtin[t]->n; i++) {
                        const char *r = zl_builtin[t]->l[i].reading;
                        if (!r)
                                continue;
                        if (strcmp(r, name) == 0)
                                return true;
                        snprintf(word, sizeof(word), " %s ", r);
                        if (!strstr(list, word) && n + strlen(r) + 1 < sizeof(list))
                                n += (size_t)snprintf(list + n, sizeof(list) - n, "%s ", r);
                }
        if (strcmp(name, "packed") == 0)
                return zlf_fail(p, "packed is the default reading: leave out \"reading packed\"");
        list[n - 1] = '\0';
        return zlf_fail(p, "unknown reading \"%s\" (%s)", name, list + 1);
}

static bool valid_name(const char *s, size_t max)
{
        size_t n = strlen(s);
        if (!n || n > max)
                return false;
        for (; *s; s++)
                if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
                      (*s >= '0' && *s <= '9') || *s == '_' || *s == '.' || *s == '-' ||
                      *s == '*' || *s == '@' || *s == '#' || *s == '$'))
                        return false;
        return true;
}

bool zlf_end(struct parser *p)
{
        struct zl_layout *l = &p->b->l[p->b->nl - 1];
        if (!p->nf)
                return zlf_fail(p, "layout %s has no fields", l->id);
        l->fields = p->f;
        l->nfields = p->nf;
        p->f = NULL;
        p->nf = p->capf = 0;
        p->open = false;
        return true;
}

bool zlf_layout(struct parser *p, char **t, int n)
{
        /* layout ID DSECT min_len N level "..." source "..." [reading NAME] */
        if (p->open)
                return zlf_fail(p, "layout %s inside layout %s of line %u (missing \"end\")",
                                n > 1 ? t[1] : "", p->b->l[p->b->nl - 1].id, p->open_line);
        if ((n != 9 && n != 11) || strcmp(t[3], "min_len") != 0 || strcmp(t[5], "level") != 0 ||
            strcmp(t[7], "source") != 0 || (n == 11 && strcmp(t[9], "reading") != 0))
                return zlf_fail(p,
                                "expected: layout ID DSECT min_len N level \"...\" source \"...\" "
                                "[reading NAME]");
        if (n == 11 && !valid_name(t[10], 16))
                return zlf_fail(p, "bad reading name \"%s\"", t[10]);
        if (n == 11 && !known_reading(p, t[10]))
                return false;
        if (!valid_name(t[1], 32))
                return zlf_fail(p, "bad layout id \"%s\"", t[1]);
        if (!valid_name(t[2], 16))
                return zlf_fail(p, "bad DSECT name \"%s\"", t[2]);
        int dom, rec;
        cp_key(t[1], &dom, &rec);
        if (!known_id(p, t[1], t[2], dom, rec))
                return false;
        unsigned long min;
        if (!read_number(p, "min_len", t[4], 4096, &min))
                return false;
        if (dom >= 0 && min < 20)
                return zlf_fail(p, "min_len %lu of a CP record is below the 20-byte header", min);
        struct blob *b = p->b;
        for (size_t i = 0; i < b->nl; i++)
                if (strcmp(b->l[i].id, t[1]) == 0 && b->l[i].min_len == min &&
                    (b->l[i].reading ? n == 11 && strcmp(b->l[i].reading, t[10]) == 0 : n == 9))
                        return zlf_fail(p, "layout %s min_len %lu defined twice", t[1], min);
        if (b->nl == ZL_FILE_MAX_LAYOUTS)
                return zlf_fail(p, "more than %u layouts", ZL_FILE_MAX_LAYOUTS);
        struct zl_layout *nl = realloc(b->l, (b->nl + 1) * sizeof(*nl));
        if (!nl)
                return zlf_fail(p, "out of memory");
        b->l = nl;
        struct zl_layout *l = &b->l[b->nl++];
        memset(l, 0, sizeof(*l));
        l->id = keep(p, t[1]);
        l->dsect = keep(p, t[2]);
        l->level = keep(p, t[6]);
        l->source = keep(p, t[8]);
        l->reading = n == 11 ? keep(p, t[10]) : NULL;
        if (!l->id || !l->dsect || !l->level || !l->source || (n == 11 && !l->reading))
                return zlf_fail(p, "out of memory");
        l->domain = dom;
        l->record = rec;
        l->min_len = (uint16_t)min;
        p->open = true;
        p->open_line = p->line;
        return true;
}

static const char *const type_names[] = {"uint",   "sint",  "tod",  "timer", "timer-down",
                                         "ebcdic", "ascii", "bits", "hex",   "reserved"};
static const char *const prov_names[] = {"verified", "hint", "inferred", "uncertain"};
static const char *const kind_names[] = {"none", "gauge", "counter"};

/* Field w (words t): sound for its type, inside the open layout, clear of the other fields. */
static bool field_fits(struct parser *p, char **t, const struct zl_field *w)
{
        const struct zl_layout *l = &p->b->l[p->b->nl - 1];
        unsigned long off = w->off, len = w->len;
        if (len == 0)
                return zlf_fail(p, "field %s has length 0", t[1]);
        if ((w->type == ZL_UINT || w->type == ZL_SINT) && len > 8)
                return zlf_fail(p, "integer field %s is longer than 8 bytes", t[1]);
        if ((w->type == ZL_TOD || w->type == ZL_TIMER || w->type == ZL_TIMERD) && len != 8)
                return zlf_fail(p, "clock field %s must be 8 bytes", t[1]);
        if (l->domain >= 0 && off < 20)
                return zlf_fail(p, "field %s at %lu lies in the record header", t[1], off);
        if (off + len > l->min_len)
                return zlf_fail(p, "field %s ends at %lu, past min_len %u", t[1], off + len,
                                l->min_len);
        if (!*t[8])
                return zlf_fail(p, "field %s has no source", t[1]);
        /* What dump, the docs and the metrics take a field for: a gauge or counter of text,
           a clock or flags would be read as a number it is not.  ascii: Linux's decimal
           text (loadavg). */
        bool number = w->type == ZL_UINT || w->type == ZL_SINT || w->type == ZL_TIMER ||
                      w->type == ZL_TIMERD || w->type == ZL_ASCII;
        if (w->kind != ZL_K_NONE && !number)
                return zlf_fail(p,
                                "field %s: kind %s is for a number (uint sint timer timer-down, "
                                "ascii digits); %s is none",
                                t[1], t[6], t[4]);
        /* IBM's pages name a record's fields after its DSECT; another prefix is most
           likely a field copied from the wrong record. */
        size_t dl = strlen(l->dsect);
        if (l->domain >= 0 && strcmp(t[1], "*") != 0 &&
            (strncmp(t[1], l->dsect, dl) != 0 || t[1][dl] != '_' || !t[1][dl + 1]))
                return zlf_fail(p, "field %s of %s: a CP record's field is named %s_<FIELD>", t[1],
                                l->dsect, l->dsect);
        for (size_t i = 0; i < p->nf; i++) {
                const struct zl_field *g = &p->f[i];
                if (strcmp(g->name, t[1]) == 0 && strcmp(t[1], "*") != 0)
                        return zlf_fail(p, "field %s defined twice", t[1]);
                if (off < (unsigned long)g->off + g->len && g->off < off + len)
                        return zlf_fail(p, "field %s overlaps %s", t[1], g->name);
        }
        return true;
}

/* Field w joins the open layout, with its strings (words t) kept in the blob. */
static bool add_field(struct parser *p, char **t, const struct zl_field *w)
{
        if (p->nf == ZL_FILE_MAX_FIELDS)
                return zlf_fail(p, "more than %u fields in layout %s", ZL_FILE_MAX_FIELDS,
                                p->b->l[p->b->nl - 1].id);
        if (p->nf == p->capf) {
                size_t cap = p->capf ? p->capf * 2 : 16;
                struct zl_field *nf = realloc(p->f, cap * sizeof(*nf));
                if (!nf)
                        return zlf_fail(p, "out of memory");
                p->f = nf;
                p->capf = cap;
        }
        struct zl_field *f = &p->f[p->nf];
        *f = *w;
        f->name = keep(p, t[1]);
        f->unit = strcmp(t[7], "-") == 0 ? NULL : keep(p, t[7]);
        f->source = keep(p, t[8]);
        f->desc = keep(p, t[9]);
        if (!f->name || !f->source || !f->desc || (strcmp(t[7], "-") != 0 && !f->unit))
                return zlf_fail(p, "out of memory");
        p->nf++;
        return true;
}

bool zlf_field(struct parser *p, char **t, int n)
{
        /* field NAME OFF LEN TYPE PROV KIND UNIT "source" "desc" */
        if (!p->open)
                return zlf_fail(p, "field outside a layout");
        if (n != 10)
                return zlf_fail(
                    p, "expected: field NAME OFF LEN TYPE PROV KIND UNIT \"source\" \"desc\"");
        unsigned long off, len;
        if (!valid_name(t[1], 48))
                return zlf_fail(p, "bad field name \"%s\"", t[1]);
        if (!read_number(p, "offset", t[2], 4095, &off) ||
            !read_number(p, "length", t[3], 4096, &len))
                return false;
        int type = lookup(t[4], type_names, 10), prov = lookup(t[5], prov_names, 4),
            kind = lookup(t[6], kind_names, 3);
        if (type < 0)
                return zlf_fail(p,
                                "unknown type \"%s\" (uint sint tod timer timer-down ebcdic ascii "
                                "bits hex reserved)",
                                t[4]);
        if (prov < 0)
                return zlf_fail(p, "unknown provenance \"%s\" (verified hint inferred uncertain)",
                                t[5]);
        if (kind < 0)
                return zlf_fail(p, "unknown kind \"%s\" (none gauge counter)", t[6]);
        struct zl_field w = {
            .off = (uint16_t)off,
            .len = (uint16_t)len,
            .type = (uint8_t)type,
            .prov = (uint8_t)prov,
            .kind = (uint8_t)kind,
        };
        return field_fits(p, t, &w) && add_field(p, t, &w);
}
