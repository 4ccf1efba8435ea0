/*
 * config.c -- INI scenario files; see config.h for the format and contract.
 *
 * Storage: every string, entry and section is carved from an arena owned by
 * the cfg and released only by cfg_free(), so nothing handed out is ever
 * invalidated (cfg_set() replaces a value by pointing at a new copy).
 * Entries and sections are kept in creation order in pointer arrays (that
 * is "file order"; keys added by cfg_set() come last) and indexed by two
 * open-addressing hash tables, section name and (section, key), so lookups
 * stay O(1) for scenarios with thousands of flow sections.
 */
#include "engine/config.h"

#include "core/text.h"
#include "core/units.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SET_ORIGIN "--set"

struct blk {
    struct blk *next;
    size_t used, cap;
    max_align_t mem[];
};

struct sec {
    const char *name;
    const char *file; /* origin of its first header */
    int line;
    int looked;       /* some lookup named this section */
    int done;         /* its reader finished: an unread key is a typo */
};

struct ent {
    struct cfg_entry pub; /* first member: &ent->pub converts back */
    struct sec *sec;
};

struct slot { size_t idx1; uint64_t h; }; /* idx1 == 0: empty */
struct htab { struct slot *v; size_t cap, n; };

struct cfg {
    const char *path;
    struct blk *arena;
    struct ent **ent;
    size_t nent, capent;
    struct sec **sec;
    size_t nsec, capsec;
    struct htab eh, sh; /* entries by (section, key); sections by name */
};

/* ---- arena ----------------------------------------------------------- */

static void *arena_alloc(struct cfg *c, size_t n)
{
    size_t a = sizeof(max_align_t);
    void *p;
    n = (n + a - 1) / a * a;
    if (!c->arena || c->arena->cap - c->arena->used < n) {
        size_t cap = n > 16384 ? n : 16384;
        struct blk *b = malloc(sizeof *b + cap);
        if (!b) return NULL;
        b->next = c->arena;
        b->used = 0;
        b->cap = cap;
        c->arena = b;
    }
    p = (char *)c->arena->mem + c->arena->used;
    c->arena->used += n;
    return p;
}

static char *arena_strndup(struct cfg *c, const char *s, size_t n)
{
    char *d = arena_alloc(c, n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

/* ---- hash tables --------------------------------------------------------- */

static uint64_t hash2(const char *a, size_t na, const char *b, size_t nb)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (size_t i = 0; i < na; i++) h = (h ^ (unsigned char)a[i]) * 0x100000001b3ull;
    h = (h ^ 0xff) * 0x100000001b3ull; /* 0xff never occurs in names */
    for (size_t i = 0; i < nb; i++) h = (h ^ (unsigned char)b[i]) * 0x100000001b3ull;
    return h;
}

/* Make room for one more item (load factor <= 1/2). */
static int ht_reserve(struct htab *t)
{
    size_t cap;
    struct slot *v;
    if ((t->n + 1) * 2 <= t->cap) return 0;
    cap = t->cap ? t->cap * 2 : 64;
    v = calloc(cap, sizeof *v);
    if (!v) return -1;
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->v[i].idx1) continue;
        size_t j = t->v[i].h & (cap - 1);
        while (v[j].idx1) j = (j + 1) & (cap - 1);
        v[j] = t->v[i];
    }
    free(t->v);
    t->v = v;
    t->cap = cap;
    return 0;
}

static void ht_put(struct htab *t, uint64_t h, size_t idx)
{
    size_t j = h & (t->cap - 1);
    while (t->v[j].idx1) j = (j + 1) & (t->cap - 1);
    t->v[j].idx1 = idx + 1;
    t->v[j].h = h;
    t->n++;
}

static struct sec *sec_lookup(const struct cfg *c, const char *name, size_t n)
{
    uint64_t h = hash2(name, n, "", 0);
    if (!c->sh.cap) return NULL;
    for (size_t j = h & (c->sh.cap - 1);; j = (j + 1) & (c->sh.cap - 1)) {
        const struct slot *s = &c->sh.v[j];
        if (!s->idx1) return NULL;
        if (s->h == h) {
            struct sec *x = c->sec[s->idx1 - 1];
            if (strncmp(x->name, name, n) == 0 && x->name[n] == '\0') return x;
        }
    }
}

static struct ent *ent_lookup(const struct cfg *c, const char *sec, const char *key)
{
    uint64_t h = hash2(sec, strlen(sec), key, strlen(key));
    if (!c->eh.cap) return NULL;
    for (size_t j = h & (c->eh.cap - 1);; j = (j + 1) & (c->eh.cap - 1)) {
        const struct slot *s = &c->eh.v[j];
        if (!s->idx1) return NULL;
        if (s->h == h) {
            struct ent *x = c->ent[s->idx1 - 1];
            if (strcmp(x->pub.section, sec) == 0 && strcmp(x->pub.key, key) == 0) return x;
        }
    }
}

/* arr (of *cap elements of size sz) with room for element n; NULL if out
 * of memory (arr is then unchanged). */
static void *grow(void *arr, size_t n, size_t *cap, size_t sz)
{
    size_t ncap;
    if (n < *cap) return arr;
    if (*cap > SIZE_MAX / 2 / sz) return NULL;
    ncap = *cap ? *cap * 2 : 32;
    if (!(arr = realloc(arr, ncap * sz))) return NULL;
    *cap = ncap;
    return arr;
}

/* Find or create a section; NULL only when out of memory. */
static struct sec *sec_intern(struct cfg *c, const char *name, size_t n, const char *file, int line)
{
    struct sec *s = sec_lookup(c, name, n);
    if (s) return s;
    struct sec **arr = grow(c->sec, c->nsec, &c->capsec, sizeof *arr);
    if (!arr) return NULL;
    c->sec = arr;
    if (ht_reserve(&c->sh)) return NULL;
    if (!(s = arena_alloc(c, sizeof *s)) || !(s->name = arena_strndup(c, name, n))) return NULL;
    s->file = file;
    s->line = line;
    s->looked = 0;
    s->done = 0;
    c->sec[c->nsec] = s;
    ht_put(&c->sh, hash2(name, n, "", 0), c->nsec);
    c->nsec++;
    return s;
}

/* Append a new entry (the caller checked it is not a duplicate). */
static int ent_add(struct cfg *c, struct sec *s, const char *key, const char *val, size_t vn,
                   const char *file, int line)
{
    struct ent *e, **arr = grow(c->ent, c->nent, &c->capent, sizeof *arr);
    if (!arr) return -1;
    c->ent = arr;
    if (ht_reserve(&c->eh)) return -1;
    if (!(e = arena_alloc(c, sizeof *e))) return -1;
    e->sec = s;
    e->pub.section = s->name;
    e->pub.key = arena_strndup(c, key, strlen(key));
    e->pub.value = arena_strndup(c, val, vn);
    if (!e->pub.key || !e->pub.value) return -1;
    e->pub.file = file;
    e->pub.line = line;
    e->pub.used = 0;
    c->ent[c->nent] = e;
    ht_put(&c->eh, hash2(s->name, strlen(s->name), key, strlen(key)), c->nent);
    c->nent++;
    return 0;
}

/* ---- messages -------------------------------------------------------------- */

static int errf(struct cfg_err *err, const char *fmt, ...) CFG_PRINTF(2, 3);
static int errf(struct cfg_err *err, const char *fmt, ...)
{
    va_list ap;
    if (!err) return -1;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    text_escape_inplace(err->msg, sizeof err->msg);   /* it quotes the input */
    return -1;
}

#define EXCERPT_MAX 64

/* The n bytes at s as a C string in buf, cut to EXCERPT_MAX bytes with "..."
 * (on a UTF-8 character boundary) if longer. */
static const char *excerpt(const char *s, size_t n, char buf[EXCERPT_MAX + 4])
{
    size_t k = n;
    if (n > EXCERPT_MAX) {
        k = EXCERPT_MAX - 3;
        while (k > 0 && ((unsigned char)s[k] & 0xc0) == 0x80) k--;
    }
    memcpy(buf, s, k);
    strcpy(buf + k, n > EXCERPT_MAX ? "..." : "");
    return buf;
}

/* "'x'" for a printable ASCII character, "byte 0xNN" otherwise. */
static const char *chdesc(unsigned char ch, char buf[16])
{
    if (ch > ' ' && ch < 0x7f) snprintf(buf, 16, "'%c'", ch);
    else if (ch == ' ') snprintf(buf, 16, "' '");
    else snprintf(buf, 16, "byte 0x%02x", ch);
    return buf;
}

int cfg_errorf(struct cfg_err *err, const struct cfg_entry *e, const char *fmt, ...)
{
    va_list ap;
    int n = 0;
    if (!err) return -1;
    if (e) n = snprintf(err->msg, sizeof err->msg, "%s:%d: [%s] %s: ", e->file, e->line, e->section, e->key);
    if (n >= 0 && (size_t)n < sizeof err->msg) {
        va_start(ap, fmt);
        vsnprintf(err->msg + n, sizeof err->msg - (size_t)n, fmt, ap);
        va_end(ap);
    }
    text_escape_inplace(err->msg, sizeof err->msg);
    return -1;
}

int cfg_section_errorf(struct cfg_err *err, const struct cfg *c, const char *section, const char *fmt, ...)
{
    va_list ap;
    const struct sec *s = section ? sec_lookup(c, section, strlen(section)) : NULL;
    int n;
    if (!err) return -1;
    if (s) n = snprintf(err->msg, sizeof err->msg, "%s:%d: [%s]: ", s->file, s->line, s->name);
    else if (section) n = snprintf(err->msg, sizeof err->msg, "%s: [%s]: ", c->path, section);
    else n = snprintf(err->msg, sizeof err->msg, "%s: ", c->path);
    if (n >= 0 && (size_t)n < sizeof err->msg) {
        va_start(ap, fmt);
        vsnprintf(err->msg + n, sizeof err->msg - (size_t)n, fmt, ap);
        va_end(ap);
    }
    text_escape_inplace(err->msg, sizeof err->msg);
    return -1;
}

/* Edit distance (insert, delete, substitute, swap of neighbours), capped:
 * anything above 2 reads as 3. */
static int near_miss(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    int d[3][40];
    if (la > 38 || lb > 38 || (la > lb ? la - lb : lb - la) > 2) return 3;
    for (size_t i = 0; i <= la; i++) {
        int *row = d[i % 3];
        for (size_t j = 0; j <= lb; j++) {
            if (i == 0 || j == 0) { row[j] = (int)(i + j); continue; }
            int v = d[(i - 1) % 3][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[(i - 1) % 3][j] + 1 < v) v = d[(i - 1) % 3][j] + 1;
            if (row[j - 1] + 1 < v) v = row[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[(i - 2) % 3][j - 2] + 1 < v)
                v = d[(i - 2) % 3][j - 2] + 1;
            row[j] = v;
        }
    }
    return d[la % 3][lb] > 2 ? 3 : d[la % 3][lb];
}

int cfg_missing(struct cfg_err *err, const struct cfg *c, const char *section, const char *key, const char *what)
{
    for (size_t i = 0; i < c->nent; i++) {
        const struct ent *e = c->ent[i];
        if (e->pub.used || strcmp(e->sec->name, section) != 0 || near_miss(e->pub.key, key) > 2) continue;
        return cfg_errorf(err, &e->pub, "unknown key '%s': did you mean '%s', which [%s] needs?", e->pub.key, key,
                          section);
    }
    return cfg_section_errorf(err, c, section, "missing required key '%s'%s", key, what ? what : "");
}

/* ---- syntax -------------------------------------------------------------- */

static int is_blank(int ch) { return ch == ' ' || ch == '\t'; }
static int is_alnum(int ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}
static int sec_char(int ch) { return is_alnum(ch) || (ch && strchr("_.-", ch)); }
static int key_char(int ch) { return is_alnum(ch) || (ch && strchr("_.:@()->#", ch)); }

/* Control characters (other than tab) are never allowed; -1 if none. */
static long find_ctrl(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if ((ch < 0x20 && ch != '\t') || ch == 0x7f) return (long)i;
    }
    return -1;
}

static void trim(const char **b, const char **e)
{
    while (*b < *e && is_blank((unsigned char)**b)) (*b)++;
    while (*e > *b && is_blank((unsigned char)(*e)[-1])) (*e)--;
}

/* Trimmed, non-empty [b, e) -> out with blank runs collapsed to one space;
 * returns the offending byte, or 0 if the key is valid. */
static unsigned char norm_key(const char *b, const char *e, char *out)
{
    size_t n = 0;
    for (const char *p = b; p < e; p++) {
        unsigned char ch = (unsigned char)*p;
        if (is_blank(ch)) {
            if (out[n - 1] != ' ') out[n++] = ' ';
        } else if (key_char(ch)) {
            out[n++] = (char)ch;
        } else {
            return ch ? ch : 0xff;
        }
    }
    out[n] = '\0';
    return 0;
}

/* Offending byte of a section name, or 0. */
static unsigned char bad_sec_char(const char *b, const char *e)
{
    for (const char *p = b; p < e; p++)
        if (!sec_char((unsigned char)*p)) return *p ? (unsigned char)*p : 0xff;
    return 0;
}

struct parser {
    struct cfg *c;
    const char *file;
    int line;
    struct sec *cur;
    struct cfg_err *err;
};

static int oom(struct parser *ps) { return errf(ps->err, "%s: out of memory", ps->file); }

static int parse_header(struct parser *ps, const char *l, const char *end)
{
    const char *close = memchr(l, ']', (size_t)(end - l)), *b = l + 1, *e, *p;
    char cb[16];
    unsigned char bad;
    if (!close) return errf(ps->err, "%s:%d: missing ']' in section header", ps->file, ps->line);
    e = close;
    trim(&b, &e);
    if (b == e) return errf(ps->err, "%s:%d: empty section name", ps->file, ps->line);
    if ((bad = bad_sec_char(b, e)))
        return errf(ps->err, "%s:%d: invalid character %s in section name '%.*s'", ps->file, ps->line,
                    chdesc(bad, cb), (int)(e - b), b);
    for (p = close + 1; p < end && is_blank((unsigned char)*p); p++) {}
    if (p < end && *p != '#' && *p != ';')
        return errf(ps->err, "%s:%d: unexpected text after section header [%.*s]", ps->file, ps->line,
                    (int)(e - b), b);
    ps->cur = sec_intern(ps->c, b, (size_t)(e - b), ps->file, ps->line);
    return ps->cur ? 0 : oom(ps);
}

static int parse_line(struct parser *ps, const char *l, const char *end)
{
    char key[CFG_MAX_LINE + 1], cb[16], xb[EXCERPT_MAX + 4];
    const char *eq, *kb, *ke, *vb, *ve;
    const struct ent *dup;
    unsigned char bad;

    while (l < end && is_blank((unsigned char)*l)) l++;
    if (l == end || *l == '#' || *l == ';') return 0;
    if (*l == '[') return parse_header(ps, l, end);

    if (!(eq = memchr(l, '=', (size_t)(end - l))))
        return errf(ps->err, "%s:%d: expected 'key = value', '[section]' or a comment, got '%s'", ps->file,
                    ps->line, excerpt(l, (size_t)(end - l), xb));
    kb = l;
    ke = eq;
    trim(&kb, &ke);
    if (kb == ke) return errf(ps->err, "%s:%d: missing key before '='", ps->file, ps->line);
    if ((bad = norm_key(kb, ke, key)))
        return errf(ps->err, "%s:%d: invalid character %s in key '%.*s'", ps->file, ps->line, chdesc(bad, cb),
                    (int)(ke - kb), kb);
    if (!ps->cur) return errf(ps->err, "%s:%d: key '%s' before any [section]", ps->file, ps->line, key);

    vb = eq + 1;
    while (vb < end && is_blank((unsigned char)*vb)) vb++;
    for (ve = vb; ve < end; ve++)
        if ((*ve == '#' || *ve == ';') && (ve == vb || is_blank((unsigned char)ve[-1]))) break;
    trim(&vb, &ve);
    if (vb == ve)
        return errf(ps->err, "%s:%d: [%s] %s: empty value", ps->file, ps->line, ps->cur->name, key);
    if ((dup = ent_lookup(ps->c, ps->cur->name, key)))
        return errf(ps->err, "%s:%d: [%s] %s: duplicate key (first set at line %d)", ps->file, ps->line,
                    ps->cur->name, key, dup->pub.line);
    if (ent_add(ps->c, ps->cur, key, vb, (size_t)(ve - vb), ps->file, ps->line)) return oom(ps);
    return 0;
}

/* ---- load ------------------------------------------------------------------ */

struct cfg *cfg_parse(const char *name, const char *text, size_t len, struct cfg_err *err)
{
    struct cfg *c = calloc(1, sizeof *c);
    struct parser ps = {c, NULL, 0, NULL, err};
    const char *p, *end;

    if (!name) name = "<config>";
    if (!text) {
        text = "";
        len = 0;
    }
    p = text;
    end = text + len;
    if (!c || !(c->path = ps.file = arena_strndup(c, name, strlen(name)))) {
        errf(err, "%s: out of memory", name);
        cfg_free(c);
        return NULL;
    }
    if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) p += 3; /* UTF-8 BOM */
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        long bad;
        ps.line++;
        if (le > p && le[-1] == '\r') le--;
        if (le - p > CFG_MAX_LINE) {
            errf(err, "%s:%d: line too long (%ld bytes, the limit is %d)", ps.file, ps.line, (long)(le - p),
                 CFG_MAX_LINE);
            goto fail;
        }
        if ((bad = find_ctrl(p, (size_t)(le - p))) >= 0) {
            errf(err, "%s:%d: control character 0x%02x at column %ld", ps.file, ps.line,
                 (unsigned char)p[bad], bad + 1);
            goto fail;
        }
        if (parse_line(&ps, p, le)) goto fail;
        p = nl ? nl + 1 : end;
    }
    return c;
fail:
    cfg_free(c);
    return NULL;
}

struct cfg *cfg_load(const char *path, struct cfg_err *err)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0;
    struct cfg *c;

    if (!f) {
        errf(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    for (;;) {
        size_t got;
        if (len == cap) {
            char *nb = grow(buf, len, &cap, 1);
            if (!nb) {
                errf(err, "%s: out of memory", path);
                goto fail;
            }
            buf = nb;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    if (ferror(f)) {
        errf(err, "%s: read error: %s", path, strerror(errno));
        goto fail;
    }
    fclose(f);
    c = cfg_parse(path, buf, len, err);
    free(buf);
    return c;
fail:
    fclose(f);
    free(buf);
    return NULL;
}

void cfg_free(struct cfg *c)
{
    if (!c) return;
    while (c->arena) {
        struct blk *b = c->arena;
        c->arena = b->next;
        free(b);
    }
    free(c->ent);
    free(c->sec);
    free(c->eh.v);
    free(c->sh.v);
    free(c);
}

const char *cfg_path(const struct cfg *c) { return c->path; }

/* ---- overrides ------------------------------------------------------------- */

int cfg_set(struct cfg *c, const char *a, int argi, struct cfg_err *err)
{
    char key[CFG_MAX_LINE + 1], secname[CFG_MAX_LINE + 1], cb[16], xb[EXCERPT_MAX + 4];
    const char *eq, *lb, *le, *vb, *ve, *dot = NULL, *kb;
    struct sec *s = NULL;
    struct ent *e;
    unsigned char bad;
    long ctrl;

    if (!a) return errf(err, "%s:%d: missing override", SET_ORIGIN, argi);
    if (strlen(a) > CFG_MAX_LINE)
        return errf(err, "%s:%d: override too long (the limit is %d bytes)", SET_ORIGIN, argi, CFG_MAX_LINE);
    if (!(eq = strchr(a, '=')))
        return errf(err, "%s:%d: expected 'section.key=value', got '%s'", SET_ORIGIN, argi,
                    excerpt(a, strlen(a), xb));
    lb = a;
    le = eq;
    trim(&lb, &le);
    vb = eq + 1;
    ve = vb + strlen(vb);
    trim(&vb, &ve);

    /* Longest existing section S with "S." a proper prefix of the name. */
    for (size_t i = (size_t)(le - lb); !s && i-- > 1;)
        if (lb[i] == '.' && lb + i + 1 < le && (s = sec_lookup(c, lb, i))) dot = lb + i;
    if (!s) dot = memchr(lb, '.', (size_t)(le - lb));
    if (!dot || dot == lb || dot + 1 == le)
        return errf(err, "%s:%d: expected 'section.key=value', got '%s'", SET_ORIGIN, argi,
                    excerpt(a, strlen(a), xb));
    if ((bad = bad_sec_char(lb, dot)))
        return errf(err, "%s:%d: invalid character %s in section name '%.*s'", SET_ORIGIN, argi,
                    chdesc(bad, cb), (int)(dot - lb), lb);
    memcpy(secname, lb, (size_t)(dot - lb));
    secname[dot - lb] = '\0';
    kb = dot + 1;
    while (kb < le && is_blank((unsigned char)*kb)) kb++;
    if ((bad = norm_key(kb, le, key))) /* kb < le: "S." is a proper prefix */
        return errf(err, "%s:%d: invalid character %s in key '%.*s'", SET_ORIGIN, argi, chdesc(bad, cb),
                    (int)(le - kb), kb);
    if (vb == ve) return errf(err, "%s:%d: [%s] %s: empty value", SET_ORIGIN, argi, secname, key);
    if ((ctrl = find_ctrl(vb, (size_t)(ve - vb))) >= 0)
        return errf(err, "%s:%d: [%s] %s: control character 0x%02x in value", SET_ORIGIN, argi, secname, key,
                    (unsigned char)vb[ctrl]);

    if ((e = ent_lookup(c, secname, key))) {
        const char *v = arena_strndup(c, vb, (size_t)(ve - vb));
        if (!v) return errf(err, "%s:%d: out of memory", SET_ORIGIN, argi);
        e->pub.value = v; /* the old value stays valid in the arena */
        e->pub.file = SET_ORIGIN;
        e->pub.line = argi;
        return 0;
    }
    if (!(s = sec_intern(c, secname, strlen(secname), SET_ORIGIN, argi)) ||
        ent_add(c, s, key, vb, (size_t)(ve - vb), SET_ORIGIN, argi))
        return errf(err, "%s:%d: out of memory", SET_ORIGIN, argi);
    return 0;
}

/* ---- queries ----------------------------------------------------------------- */

int cfg_has_section(const struct cfg *c, const char *section)
{
    return sec_lookup(c, section, strlen(section)) != NULL;
}

size_t cfg_sections(const struct cfg *c, const char *prefix, void (*fn)(const char *section, void *arg),
                    void *arg)
{
    size_t n = 0, pl = prefix ? strlen(prefix) : 0;
    for (size_t i = 0; i < c->nsec; i++) { /* c->nsec re-read: fn may add */
        if (strncmp(c->sec[i]->name, prefix ? prefix : "", pl) != 0) continue;
        n++;
        if (fn) fn(c->sec[i]->name, arg);
    }
    return n;
}

size_t cfg_entries(struct cfg *c, const char *section, void (*fn)(const struct cfg_entry *e, void *arg),
                   void *arg)
{
    struct sec *s = sec_lookup(c, section, strlen(section));
    size_t n = 0;
    if (!s) return 0;
    s->looked = 1;
    for (size_t i = 0; i < c->nent; i++) {
        struct ent *e = c->ent[i];
        if (e->sec != s) continue;
        e->pub.used = 1;
        n++;
        if (fn) fn(&e->pub, arg);
    }
    return n;
}

void cfg_touch(struct cfg *c, const char *section, const char *const *keys)
{
    for (; *keys; keys++)
        (void)cfg_find(c, section, *keys);
}

const struct cfg_entry *cfg_find(struct cfg *c, const char *section, const char *key)
{
    struct sec *s = sec_lookup(c, section, strlen(section));
    struct ent *e;
    if (!s) return NULL;
    s->looked = 1;
    if (!(e = ent_lookup(c, section, key))) return NULL;
    e->pub.used = 1;
    return &e->pub;
}

/* ---- typed getters ----------------------------------------------------------- */

static int bad_value(struct cfg_err *err, const struct cfg_entry *e, const char *what, const char *why)
{
    char xb[EXCERPT_MAX + 4];
    return cfg_errorf(err, e, "expected %s, got '%s'%s%s%s", what, excerpt(e->value, strlen(e->value), xb),
                      why ? " (" : "", why ? why : "", why ? ")" : "");
}

typedef int (*u64_parser)(const char *s, uint64_t *out, const char **why);

static int get_u64(struct cfg *c, const char *sec, const char *key, uint64_t dflt, uint64_t *out,
                   struct cfg_err *err, u64_parser parse, const char *what)
{
    const struct cfg_entry *e = cfg_find(c, sec, key);
    const char *why = NULL;
    uint64_t v;
    *out = dflt;                        /* defined even when the value is bad */
    if (!e)
        return 0;
    if (parse(e->value, &v, &why)) return bad_value(err, e, what, why);
    *out = v;
    return 0;
}

int cfg_time(struct cfg *c, const char *sec, const char *key, uint64_t dflt, uint64_t *out, struct cfg_err *err)
{
    return get_u64(c, sec, key, dflt, out, err, units_parse_time_ps_why, "a time like 1.5us");
}

int cfg_rate(struct cfg *c, const char *sec, const char *key, uint64_t dflt, uint64_t *out, struct cfg_err *err)
{
    return get_u64(c, sec, key, dflt, out, err, units_parse_rate_bps_why, "a rate like 40Gbps");
}

int cfg_bytes(struct cfg *c, const char *sec, const char *key, uint64_t dflt, uint64_t *out, struct cfg_err *err)
{
    return get_u64(c, sec, key, dflt, out, err, units_parse_bytes_why, "a size like 1500, 64KB or 2MiB");
}

int cfg_u64(struct cfg *c, const char *sec, const char *key, uint64_t dflt, uint64_t *out, struct cfg_err *err)
{
    return get_u64(c, sec, key, dflt, out, err, units_parse_u64_why, "a non-negative integer");
}

int cfg_double(struct cfg *c, const char *sec, const char *key, double dflt, double *out, struct cfg_err *err)
{
    const struct cfg_entry *e = cfg_find(c, sec, key);
    double v;
    *out = dflt;                        /* defined even when the value is bad */
    if (!e)
        return 0;
    if (units_parse_double(e->value, &v)) return bad_value(err, e, "a number", NULL);
    *out = v;
    return 0;
}

int cfg_percent(struct cfg *c, const char *sec, const char *key, double dflt, double *out, struct cfg_err *err)
{
    const struct cfg_entry *e = cfg_find(c, sec, key);
    double v;
    *out = dflt;                        /* defined even when the value is bad */
    if (!e)
        return 0;
    if (units_parse_percent(e->value, &v)) return bad_value(err, e, "a percentage like 90%", NULL);
    *out = v;
    return 0;
}

int cfg_bool(struct cfg *c, const char *sec, const char *key, int dflt, int *out, struct cfg_err *err)
{
    const struct cfg_entry *e = cfg_find(c, sec, key);
    int v;
    *out = dflt;                        /* defined even when the value is bad */
    if (!e)
        return 0;
    if (units_parse_bool(e->value, &v)) return bad_value(err, e, "true/false, on/off, yes/no or 1/0", NULL);
    *out = v;
    return 0;
}

int cfg_str(struct cfg *c, const char *sec, const char *key, const char *dflt, const char **out,
            struct cfg_err *err)
{
    const struct cfg_entry *e = cfg_find(c, sec, key);
    (void)err;
    *out = e ? e->value : dflt;
    return 0;
}

int cfg_enum(struct cfg *c, const char *sec, const char *key, const char *const *names, int dflt, int *out,
             struct cfg_err *err)
{
    const struct cfg_entry *e = cfg_find(c, sec, key);
    char list[400];
    size_t n = 0, count = 0;
    *out = dflt;                        /* defined even when the value is bad */
    if (!e)
        return 0;
    for (; names[count]; count++) {
        if (strcmp(e->value, names[count]) == 0) {
            *out = (int)count;
            return 0;
        }
    }
    list[0] = '\0';
    for (size_t i = 0; i < count && n < sizeof list; i++) {
        const char *sep = i == 0 ? "" : i + 1 == count ? " or " : ", ";
        int k = snprintf(list + n, sizeof list - n, "%s%s", sep, names[i]);
        if (k < 0) break;
        n += (size_t)k;
    }
    return bad_value(err, e, count ? list : "nothing (no names defined)", NULL);
}

/* ---- leftovers ----------------------------------------------------------------- */

void cfg_section_done(struct cfg *c, const char *section)
{
    struct sec *s = sec_lookup(c, section, strlen(section));
    if (s) s->done = 1;
}

/* The first unread entry in file order (only_done: in a finished section). */
static int first_unused(const struct cfg *c, int only_done, struct cfg_err *err)
{
    for (size_t i = 0; i < c->nent; i++) {
        const struct ent *e = c->ent[i];
        if (e->pub.used || (only_done && !e->sec->done)) continue;
        if (!e->sec->looked)
            return errf(err, "%s:%d: unknown section [%s]", e->sec->file, e->sec->line, e->sec->name);
        return cfg_errorf(err, &e->pub, "unknown key");
    }
    return 0;
}

int cfg_check_unused_done(const struct cfg *c, struct cfg_err *err) { return first_unused(c, 1, err); }

int cfg_check_unused(const struct cfg *c, struct cfg_err *err) { return first_unused(c, 0, err); }
