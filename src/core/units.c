/*
 * units.c -- exact parsing and human formatting of quantities; see units.h.
 *
 * A quantity is scanned into spans (integer digits, fraction digits, unit)
 * before any arithmetic, so syntax errors are reported before range errors.
 * The value is then ip * factor + fp * factor / 10^n, where fp is the n
 * fraction digits (trailing zeros dropped).  The fraction term is computed
 * after dividing factor and 10^n by their gcd, so it never overflows and is
 * exact or rejected.
 */
#include "core/units.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_blank(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int is_digit(int c) { return c >= '0' && c <= '9'; }

static void trim(const char *s, const char **b, const char **e)
{
    const char *p = s, *q = s + strlen(s);
    while (p < q && is_blank((unsigned char)*p)) p++;
    while (q > p && is_blank((unsigned char)q[-1])) q--;
    *b = p;
    *e = q;
}

static int fail(const char **why, const char *reason)
{
    if (why) *why = reason;
    return -1;
}

/* DIGITS[.DIGITS] <blanks> UNIT, split into spans; NULL or a reason. */
struct qty {
    const char *ip, *ipe; /* integer digits */
    const char *fp, *fpe; /* fraction digits, trailing zeros dropped */
    const char *unit;
    size_t ulen;
};

static const char *scan_qty(const char *s, struct qty *q)
{
    const char *p, *e;
    trim(s, &p, &e);
    if (p == e) return "empty value";
    if (*p == '-') return "negative values are not allowed";
    if (!is_digit((unsigned char)*p)) return "malformed number";
    q->ip = p;
    while (p < e && is_digit((unsigned char)*p)) p++;
    q->ipe = q->fp = q->fpe = p;
    if (p < e && *p == '.') {
        p++;
        if (p == e || !is_digit((unsigned char)*p)) return "malformed number";
        q->fp = p;
        while (p < e && is_digit((unsigned char)*p)) p++;
        q->fpe = p;
        while (q->fpe > q->fp && q->fpe[-1] == '0') q->fpe--;
    }
    /* "1e3us" would otherwise be reported as an unknown unit "e3us" (no
     * unit or prefix starts with e). */
    if (p + 1 < e && (*p == 'e' || *p == 'E') &&
        (is_digit((unsigned char)p[1]) || ((p[1] == '-' || p[1] == '+') && p + 2 < e && is_digit((unsigned char)p[2]))))
        return "exponent notation like 1e3 is not accepted: write the number out (1000)";
    while (p < e && is_blank((unsigned char)*p)) p++;
    q->unit = p;
    q->ulen = (size_t)(e - p);
    return NULL;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* ip * factor + fp * factor / 10^n, exactly. */
static const char *scale(const struct qty *q, uint64_t factor, const char *inexact, uint64_t *out)
{
    uint64_t ip = 0, fp = 0, p10 = 1, r;
    size_t n = (size_t)(q->fpe - q->fp);
    for (const char *p = q->ip; p < q->ipe; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (ip > (UINT64_MAX - d) / 10) return "out of range";
        ip = ip * 10 + d;
    }
    if (n > 19) return "too many decimal digits";
    for (const char *p = q->fp; p < q->fpe; p++) {
        fp = fp * 10 + (unsigned)(*p - '0');
        p10 *= 10;
    }
    if (ip && factor > UINT64_MAX / ip) return "out of range";
    r = ip * factor;
    if (n) {
        uint64_t g = gcd_u64(factor, p10), den = p10 / g, add;
        if (fp % den) return inexact;
        add = (fp / den) * (factor / g); /* < factor: cannot overflow */
        if (r > UINT64_MAX - add) return "out of range";
        r += add;
    }
    *out = r;
    return NULL;
}

/* Exact match of the unit span against a name. */
static int unit_is(const struct qty *q, const char *name)
{
    return strlen(name) == q->ulen && memcmp(q->unit, name, q->ulen) == 0;
}

int units_parse_time_ps_why(const char *s, uint64_t *out, const char **why)
{
    static const struct { const char *name; uint64_t f; } tab[] = {
        {"ps", 1}, {"ns", UNITS_PS_PER_NS}, {"us", UNITS_PS_PER_US},
        {"\xc2\xb5s", UNITS_PS_PER_US}, /* U+00B5 MICRO SIGN */
        {"\xce\xbcs", UNITS_PS_PER_US}, /* U+03BC GREEK SMALL LETTER MU */
        {"ms", UNITS_PS_PER_MS}, {"s", UNITS_PS_PER_S},
    };
    struct qty q;
    const char *r = scan_qty(s, &q);
    if (r) return fail(why, r);
    if (q.ulen == 0) return fail(why, "missing unit: ps, ns, us, ms or s");
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
        if (!unit_is(&q, tab[i].name)) continue;
        r = scale(&q, tab[i].f, "not a whole number of picoseconds", out);
        return r ? fail(why, r) : 0;
    }
    return fail(why, "unknown unit");
}

int units_parse_rate_bps_why(const char *s, uint64_t *out, const char **why)
{
    static const char *const suffix[] = {"bps", "b/s", "bit/s"};
    struct qty q;
    uint64_t f = 1;
    size_t i = 0;
    const char *r = scan_qty(s, &q);
    if (r) return fail(why, r);
    if (q.ulen == 0) return fail(why, "missing unit, e.g. 40Gbps or 100M");
    switch (q.unit[0]) {
    case 'k': case 'K': f = 1000ull; i = 1; break;
    case 'M': f = 1000000ull; i = 1; break;
    case 'G': f = 1000000000ull; i = 1; break;
    case 'T': f = 1000000000000ull; i = 1; break;
    default: break;
    }
    if (i == q.ulen) goto ok; /* prefix alone: "40G" */
    for (size_t k = 0; k < sizeof suffix / sizeof suffix[0]; k++) {
        size_t n = strlen(suffix[k]);
        if (n == q.ulen - i && memcmp(q.unit + i, suffix[k], n) == 0) goto ok;
    }
    return fail(why, "unknown unit");
ok:
    r = scale(&q, f, "not a whole number of bits per second", out);
    return r ? fail(why, r) : 0;
}

int units_parse_bytes_why(const char *s, uint64_t *out, const char **why)
{
    static const struct { const char *name; uint64_t f; } tab[] = {
        {"", 1}, {"B", 1},
        {"kB", 1000ull}, {"KB", 1000ull}, {"MB", 1000000ull},
        {"GB", 1000000000ull}, {"TB", 1000000000000ull},
        {"KiB", 1ull << 10}, {"MiB", 1ull << 20}, {"GiB", 1ull << 30}, {"TiB", 1ull << 40},
    };
    struct qty q;
    const char *r = scan_qty(s, &q);
    if (r) return fail(why, r);
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
        if (!unit_is(&q, tab[i].name)) continue;
        r = scale(&q, tab[i].f, "not a whole number of bytes", out);
        return r ? fail(why, r) : 0;
    }
    return fail(why, "unknown unit");
}

int units_parse_u64_why(const char *s, uint64_t *out, const char **why)
{
    const char *p, *e;
    uint64_t v = 0;
    trim(s, &p, &e);
    if (p == e) return fail(why, "empty value");
    if (*p == '-') return fail(why, "negative values are not allowed");
    for (const char *d = p; d < e; d++) {
        if (!is_digit((unsigned char)*d)) return fail(why, "not an integer");
    }
    for (; p < e; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10) return fail(why, "out of range");
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

int units_parse_time_ps(const char *s, uint64_t *out) { return units_parse_time_ps_why(s, out, NULL); }
int units_parse_rate_bps(const char *s, uint64_t *out) { return units_parse_rate_bps_why(s, out, NULL); }
int units_parse_bytes(const char *s, uint64_t *out) { return units_parse_bytes_why(s, out, NULL); }
int units_parse_u64(const char *s, uint64_t *out) { return units_parse_u64_why(s, out, NULL); }

int units_parse_double(const char *s, double *out)
{
    const char *p, *e;
    char *end;
    int digits = 0;
    double v;
    trim(s, &p, &e);
    if (p == e) return -1;
    /* Only decimal syntax: keeps strtod from accepting inf, nan and hex. */
    for (const char *d = p; d < e; d++) {
        if (is_digit((unsigned char)*d)) digits = 1;
        else if (!strchr("+-.eE", *d)) return -1;
    }
    if (!digits) return -1;
    v = strtod(p, &end);
    if (end != e || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

int units_parse_percent(const char *s, double *out)
{
    const char *p, *e, *q;
    char *end;
    double v;
    trim(s, &p, &e);
    q = p;
    if (q == e || !is_digit((unsigned char)*q)) return -1;
    while (q < e && is_digit((unsigned char)*q)) q++;
    if (q < e && *q == '.') {
        q++;
        if (q == e || !is_digit((unsigned char)*q)) return -1;
        while (q < e && is_digit((unsigned char)*q)) q++;
    }
    v = strtod(p, &end);
    if (end != q) return -1;
    while (q < e && is_blank((unsigned char)*q)) q++;
    if (q + 1 != e || *q != '%' || !isfinite(v)) return -1;
    *out = v / 100.0;
    return 0;
}

/* Case-insensitive compare of the span [p, e) with a lowercase word. */
static int span_is(const char *p, const char *e, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(e - p) != n) return 0;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)p[i];
        if (c >= 'A' && c <= 'Z') c += 'a' - 'A';
        if (c != word[i]) return 0;
    }
    return 1;
}

int units_parse_bool(const char *s, int *out)
{
    static const char *const yes[] = {"true", "on", "yes", "1"};
    static const char *const no[] = {"false", "off", "no", "0"};
    const char *p, *e;
    trim(s, &p, &e);
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        if (span_is(p, e, yes[i])) { *out = 1; return 0; }
        if (span_is(p, e, no[i])) { *out = 0; return 0; }
    }
    return -1;
}

/* Formatting. */

static const char *put(char *buf, size_t len, const char *s)
{
    if (len) snprintf(buf, len, "%s", s);
    return buf;
}

/* "<q>[.<frac>]<unit>" with frac in units of 10^-digits, zeros dropped. */
static void fmt_fixed(char *tmp, size_t n, int neg, uint64_t q, unsigned frac, int digits,
                      const char *unit)
{
    while (frac && frac % 10 == 0) {
        frac /= 10;
        digits--;
    }
    if (frac)
        snprintf(tmp, n, "%s%" PRIu64 ".%0*u%s", neg ? "-" : "", q, digits, frac, unit);
    else
        snprintf(tmp, n, "%s%" PRIu64 "%s", neg ? "-" : "", q, unit);
}

const char *units_fmt_time(uint64_t ps, char *buf, size_t len)
{
    static const uint64_t f[] = {1, UNITS_PS_PER_NS, UNITS_PS_PER_US, UNITS_PS_PER_MS, UNITS_PS_PER_S};
    static const char *const name[] = {"ps", "ns", "us", "ms", "s"};
    char tmp[48];
    uint64_t q;
    unsigned m;
    int i = 4;
    if (ps == 0) return put(buf, len, "0s");
    while (i > 0 && ps < f[i]) i--;
    for (;;) {
        q = ps / f[i];
        m = (unsigned)(((ps % f[i]) * 1000 + f[i] / 2) / f[i]); /* < 1e15: no overflow */
        if (m == 1000) { q++; m = 0; }
        if (q < 1000 || i == 4) break;
        i++; /* 999.9996us rounds to 1000us: say 1ms */
    }
    fmt_fixed(tmp, sizeof tmp, 0, q, m, 3, name[i]);
    return put(buf, len, tmp);
}

static const char *fmt_scaled(double v, const char *const name[5], char *buf, size_t len)
{
    char tmp[64];
    double a = fabs(v), scale = 1, x;
    int i = 0;
    if (isnan(v)) return put(buf, len, "nan");
    if (isinf(v)) {
        snprintf(tmp, sizeof tmp, "%sinf%s", v < 0 ? "-" : "", name[0]);
        return put(buf, len, tmp);
    }
    while (i < 4 && a >= scale * 1000) { scale *= 1000; i++; }
    for (;;) {
        x = a / scale * 100;
        if (x >= 9e15) { /* too big for exact hundredths: whole number */
            snprintf(tmp, sizeof tmp, "%s%.0f%s", v < 0 ? "-" : "", a / scale, name[i]);
            return put(buf, len, tmp);
        }
        x = floor(x + 0.5);
        if (x < 100000 || i == 4) break;
        scale *= 1000;
        i++;
    }
    fmt_fixed(tmp, sizeof tmp, v < 0 && x > 0, (uint64_t)x / 100, (unsigned)((uint64_t)x % 100), 2,
              name[i]);
    return put(buf, len, tmp);
}

const char *units_fmt_rate(double bps, char *buf, size_t len)
{
    static const char *const name[] = {"bps", "Kbps", "Mbps", "Gbps", "Tbps"};
    return fmt_scaled(bps, name, buf, len);
}

const char *units_fmt_bytes(double bytes, char *buf, size_t len)
{
    static const char *const name[] = {"B", "KB", "MB", "GB", "TB"};
    return fmt_scaled(bytes, name, buf, len);
}
