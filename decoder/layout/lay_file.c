/* SPDX-License-Identifier: MIT */
/*
 * The LayoutFile parser (format: doc/layoutfile.md).  Line based, strict:
 * every error names its line, and a file with any error registers nothing.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/lay_file.h"
#include "layout/layout.h"
#include "layout/registry.h"

/* Everything one loaded file owns: layouts, their fields, their strings. */
struct blob {
        struct zl_layout *l;
        size_t nl;
        char **str;
        size_t nstr, capstr;
        struct blob *next;
};
static struct blob *blobs;

struct parser {
        const char *name;
        unsigned line;
        char *err;
        size_t errlen;
        struct blob *b;
        struct zl_field *f; /* fields of the open layout */
        size_t nf, capf;
        bool open;
        unsigned open_line; /* where the open layout began: its missing "end" is found later */
};

static bool fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(struct parser *p, const char *fmt, ...)
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

static void blob_free(struct blob *b)
{
        if (!b)
                return;
        for (size_t i = 0; i < b->nl; i++)
                free((void *)b->l[i].fields);
        free(b->l);
        for (size_t i = 0; i < b->nstr; i++)
                free(b->str[i]);
        free(b->str);
        free(b);
}

/* Split a line into tokens: bare words, or "quoted strings" with \" and \\ escapes. */
#define MAXTOK 16
static int tokenize(struct parser *p, char *s, char *tok[MAXTOK])
{
        int n = 0;
        for (;;) {
                while (*s == ' ' || *s == '\t')
                        s++;
                if (!*s || *s == '#')
                        return n;
                if (n == MAXTOK) {
                        fail(p, "too many words on the line");
                        return -1;
                }
                if (*s == '"') {
                        char *o = ++s;
                        tok[n++] = o;
                        for (;;) {
                                if (!*s) {
                                        fail(p, "unterminated quoted string");
                                        return -1;
                                }
                                if (*s == '\\' && (s[1] == '"' || s[1] == '\\')) {
                                        *o++ = s[1];
                                        s += 2;
                                        continue;
                                }
                                if (*s == '"')
                                        break;
                                *o++ = *s++;
                        }
                        s++;
                        if (*s && *s != ' ' && *s != '\t') {
                                fail(p, "text after a closing quote");
                                return -1;
                        }
                        if (*s)
                                s++;
                        *o = '\0';
                        continue;
                }
                tok[n++] = s;
                while (*s && *s != ' ' && *s != '\t')
                        s++;
                if (*s)
                        *s++ = '\0';
        }
}

static bool number(struct parser *p, const char *what, const char *s, unsigned long max,
                   unsigned long *out)
{
        /* Base 0 would read "020", a column lined up with a zero, as octal 16. */
        bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
        const char *digits = hex ? s + 2 : s;
        size_t n = strspn(digits, hex ? "0123456789abcdefABCDEF" : "0123456789");
        if (!n || digits[n]) /* strtoul alone takes a sign, blanks, a second 0x */
                return fail(p, "%s \"%s\" is not a number", what, s);
        errno = 0;
        unsigned long v = strtoul(digits, NULL, hex ? 16 : 10);
        if (errno || v > max) /* ERANGE: the digits alone are checked */
                return fail(p, "%s %s is above %lu", what, s, max);
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
                return fail(p,
                            "layout id \"%s\": a CP record is D<domain>R<record> in upper case, "
                            "no leading zeros, domain 0-255, record 0-65535 (D0R2)",
                            id);
        if (dom < 0 && !b)
                return fail(p,
                            "layout id \"%s\" is neither a CP record (D<domain>R<record>) nor "
                            "a built-in payload or entry layout (zvmmon layouts lists them)",
                            id);
        if (dom >= 0 && named && strcmp(named, dsect) != 0)
                return fail(p, "layout %s is %s's record, not %s (check the record number)", id,
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
                return fail(p, "packed is the default reading: leave out \"reading packed\"");
        list[n - 1] = '\0';
        return fail(p, "unknown reading \"%s\" (%s)", name, list + 1);
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

static bool close_layout(struct parser *p)
{
        struct zl_layout *l = &p->b->l[p->b->nl - 1];
        if (!p->nf)
                return fail(p, "layout %s has no fields", l->id);
        l->fields = p->f;
        l->nfields = p->nf;
        p->f = NULL;
        p->nf = p->capf = 0;
        p->open = false;
        return true;
}

static bool do_layout(struct parser *p, char **t, int n)
{
        /* layout ID DSECT min_len N level "..." source "..." [reading NAME] */
        if (p->open)
                return fail(p, "layout %s inside layout %s of line %u (missing \"end\")",
                            n > 1 ? t[1] : "", p->b->l[p->b->nl - 1].id, p->open_line);
        if ((n != 9 && n != 11) || strcmp(t[3], "min_len") != 0 || strcmp(t[5], "level") != 0 ||
            strcmp(t[7], "source") != 0 || (n == 11 && strcmp(t[9], "reading") != 0))
                return fail(p, "expected: layout ID DSECT min_len N level \"...\" source \"...\" "
                               "[reading NAME]");
        if (n == 11 && !valid_name(t[10], 16))
                return fail(p, "bad reading name \"%s\"", t[10]);
        if (n == 11 && !known_reading(p, t[10]))
                return false;
        if (!valid_name(t[1], 32))
                return fail(p, "bad layout id \"%s\"", t[1]);
        if (!valid_name(t[2], 16))
                return fail(p, "bad DSECT name \"%s\"", t[2]);
        int dom, rec;
        cp_key(t[1], &dom, &rec);
        if (!known_id(p, t[1], t[2], dom, rec))
                return false;
        unsigned long min;
        if (!number(p, "min_len", t[4], 4096, &min))
                return false;
        if (dom >= 0 && min < 20)
                return fail(p, "min_len %lu of a CP record is below the 20-byte header", min);
        struct blob *b = p->b;
        for (size_t i = 0; i < b->nl; i++)
                if (strcmp(b->l[i].id, t[1]) == 0 && b->l[i].min_len == min &&
                    (b->l[i].reading ? n == 11 && strcmp(b->l[i].reading, t[10]) == 0 : n == 9))
                        return fail(p, "layout %s min_len %lu defined twice", t[1], min);
        if (b->nl == ZL_FILE_MAX_LAYOUTS)
                return fail(p, "more than %u layouts", ZL_FILE_MAX_LAYOUTS);
        struct zl_layout *nl = realloc(b->l, (b->nl + 1) * sizeof(*nl));
        if (!nl)
                return fail(p, "out of memory");
        b->l = nl;
        struct zl_layout *l = &b->l[b->nl++];
        memset(l, 0, sizeof(*l));
        l->id = keep(p, t[1]);
        l->dsect = keep(p, t[2]);
        l->level = keep(p, t[6]);
        l->source = keep(p, t[8]);
        l->reading = n == 11 ? keep(p, t[10]) : NULL;
        if (!l->id || !l->dsect || !l->level || !l->source || (n == 11 && !l->reading))
                return fail(p, "out of memory");
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
                return fail(p, "field %s has length 0", t[1]);
        if ((w->type == ZL_UINT || w->type == ZL_SINT) && len > 8)
                return fail(p, "integer field %s is longer than 8 bytes", t[1]);
        if ((w->type == ZL_TOD || w->type == ZL_TIMER || w->type == ZL_TIMERD) && len != 8)
                return fail(p, "clock field %s must be 8 bytes", t[1]);
        if (l->domain >= 0 && off < 20)
                return fail(p, "field %s at %lu lies in the record header", t[1], off);
        if (off + len > l->min_len)
                return fail(p, "field %s ends at %lu, past min_len %u", t[1], off + len,
                            l->min_len);
        if (!*t[8])
                return fail(p, "field %s has no source", t[1]);
        for (size_t i = 0; i < p->nf; i++) {
                const struct zl_field *g = &p->f[i];
                if (strcmp(g->name, t[1]) == 0 && strcmp(t[1], "*") != 0)
                        return fail(p, "field %s defined twice", t[1]);
                if (off < (unsigned long)g->off + g->len && g->off < off + len)
                        return fail(p, "field %s overlaps %s", t[1], g->name);
        }
        return true;
}

/* Field w joins the open layout, with its strings (words t) kept in the blob. */
static bool add_field(struct parser *p, char **t, const struct zl_field *w)
{
        if (p->nf == ZL_FILE_MAX_FIELDS)
                return fail(p, "more than %u fields in layout %s", ZL_FILE_MAX_FIELDS,
                            p->b->l[p->b->nl - 1].id);
        if (p->nf == p->capf) {
                size_t cap = p->capf ? p->capf * 2 : 16;
                struct zl_field *nf = realloc(p->f, cap * sizeof(*nf));
                if (!nf)
                        return fail(p, "out of memory");
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
                return fail(p, "out of memory");
        p->nf++;
        return true;
}

static bool do_field(struct parser *p, char **t, int n)
{
        /* field NAME OFF LEN TYPE PROV KIND UNIT "source" "desc" */
        if (!p->open)
                return fail(p, "field outside a layout");
        if (n != 10)
                return fail(p,
                            "expected: field NAME OFF LEN TYPE PROV KIND UNIT \"source\" \"desc\"");
        unsigned long off, len;
        if (!valid_name(t[1], 48))
                return fail(p, "bad field name \"%s\"", t[1]);
        if (!number(p, "offset", t[2], 4095, &off) || !number(p, "length", t[3], 4096, &len))
                return false;
        int type = lookup(t[4], type_names, 10), prov = lookup(t[5], prov_names, 4),
            kind = lookup(t[6], kind_names, 3);
        if (type < 0)
                return fail(p,
                            "unknown type \"%s\" (uint sint tod timer timer-down ebcdic ascii "
                            "bits hex reserved)",
                            t[4]);
        if (prov < 0)
                return fail(p, "unknown provenance \"%s\" (verified hint inferred uncertain)",
                            t[5]);
        if (kind < 0)
                return fail(p, "unknown kind \"%s\" (none gauge counter)", t[6]);
        struct zl_field w = {
            .off = (uint16_t)off,
            .len = (uint16_t)len,
            .type = (uint8_t)type,
            .prov = (uint8_t)prov,
            .kind = (uint8_t)kind,
        };
        return field_fits(p, t, &w) && add_field(p, t, &w);
}

static bool parse(struct parser *p, const char *text, size_t len)
{
        char line[ZL_FILE_MAX_LINE + 1];
        size_t pos = 0;
        if (len > ZL_FILE_MAX_BYTES)
                return fail(p, "file larger than %u bytes", ZL_FILE_MAX_BYTES);
        while (pos < len) {
                p->line++;
                size_t n = 0;
                while (pos < len && text[pos] != '\n') {
                        unsigned char c = (unsigned char)text[pos++];
                        if (c == '\r' && (pos == len || text[pos] == '\n'))
                                continue;
                        if (c == 0 || (c < 0x20 && c != '\t') || c == 0x7F)
                                return fail(p, "control character 0x%02X", c);
                        if (n == ZL_FILE_MAX_LINE)
                                return fail(p, "line longer than %u bytes", ZL_FILE_MAX_LINE);
                        line[n++] = (char)c;
                }
                pos++; /* the newline */
                line[n] = '\0';
                char *t[MAXTOK];
                int nt = tokenize(p, line, t);
                if (nt < 0)
                        return false;
                if (nt == 0)
                        continue;
                bool ok;
                if (strcmp(t[0], "layout") == 0)
                        ok = do_layout(p, t, nt);
                else if (strcmp(t[0], "field") == 0)
                        ok = do_field(p, t, nt);
                else if (strcmp(t[0], "end") == 0)
                        ok = nt == 1
                                 ? (p->open ? close_layout(p) : fail(p, "\"end\" without layout"))
                                 : fail(p, "text after \"end\"");
                else
                        ok = fail(p, "unknown keyword \"%s\" (layout, field, end)", t[0]);
                if (!ok)
                        return false;
        }
        if (p->open)
                return fail(p, "file ends inside layout %s of line %u (missing \"end\")",
                            p->b->l[p->b->nl - 1].id, p->open_line);
        if (!p->b->nl) {
                p->line = 0;
                return fail(p, "no layout in the file");
        }
        return true;
}

bool zl_load_text(const char *text, size_t len, const char *name, char *err, size_t errlen)
{
        struct parser p = {.name = name ? name : "layouts", .err = err, .errlen = errlen};
        if (errlen)
                err[0] = '\0';
        p.b = calloc(1, sizeof(*p.b));
        if (!p.b)
                return fail(&p, "out of memory");
        if (!parse(&p, text, len)) {
                /* the open layout's fields are not yet owned by the blob */
                if (p.open)
                        p.b->l[p.b->nl - 1].fields = NULL;
                free(p.f);
                blob_free(p.b);
                return false;
        }
        for (size_t i = 0; i < p.b->nl; i++)
                if (!zl_register(&p.b->l[i])) {
                        p.line = 0;
                        zl_file_unload_all();
                        blob_free(p.b);
                        return fail(&p, "out of memory registering layouts");
                }
        p.b->next = blobs;
        blobs = p.b;
        return true;
}

bool zl_load_file(const char *path, char *err, size_t errlen)
{
        struct parser p = {.name = path, .err = err, .errlen = errlen};
        FILE *fp = fopen(path, "rb");
        if (!fp)
                return fail(&p, "cannot open: %s", strerror(errno));
        char *buf = malloc(ZL_FILE_MAX_BYTES + 1);
        if (!buf) {
                fclose(fp);
                return fail(&p, "out of memory");
        }
        errno = 0;
        size_t n = fread(buf, 1, ZL_FILE_MAX_BYTES + 1, fp);
        int rerr = ferror(fp) ? (errno ? errno : EIO) : 0; /* EISDIR: a directory opens */
        fclose(fp);
        if (rerr) {
                free(buf);
                return fail(&p, "read error: %s", strerror(rerr));
        }
        if (n > ZL_FILE_MAX_BYTES) {
                free(buf);
                return fail(&p, "file larger than %u bytes", ZL_FILE_MAX_BYTES);
        }
        bool ok = zl_load_text(buf, n, path, err, errlen);
        free(buf);
        return ok;
}

void zl_file_unload_all(void)
{
        zl_unregister_all();
        while (blobs) {
                struct blob *b = blobs;
                blobs = b->next;
                blob_free(b);
        }
}
