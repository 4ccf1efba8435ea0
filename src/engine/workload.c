/* workload.c -- flow-size CDFs, Poisson and incast generators, HPCC flow
 * files; see workload.h for the model. */
#include "engine/workload.h"

#include "core/text.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__GNUC__)
#define WL_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define WL_PRINTF(f, a)
#endif

static int errf(char *err, size_t errlen, const char *fmt, ...) WL_PRINTF(3, 4);
static int errf(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
        text_escape_inplace(err, errlen);   /* messages quote file text */
    }
    return -1;
}

/* ------------------------------------------------------------------ lines */

/* Line reader over a FILE: strips "\n" / "\r\n" and a UTF-8 BOM on line 1;
 * rejects NUL bytes. */
struct lines {
    FILE *f;
    const char *path;
    char *buf;
    size_t cap;
    long line;
};

/* 1 with the line in l->buf, 0 at end of file, -1 with err on a read error
 * or NUL byte. */
static int next_line(struct lines *l, char *err, size_t errlen)
{
    errno = 0;
    ssize_t len = getline(&l->buf, &l->cap, l->f);
    if (len < 0) {
        if (ferror(l->f))
            return errf(err, errlen, "%s:%ld: read error: %s", l->path, l->line + 1,
                        strerror(errno ? errno : EIO));
        return 0;
    }
    l->line++;
    if (strlen(l->buf) != (size_t)len)
        return errf(err, errlen, "%s:%ld: NUL byte in line", l->path, l->line);
    while (len > 0 && (l->buf[len - 1] == '\n' || l->buf[len - 1] == '\r')) l->buf[--len] = '\0';
    if (l->line == 1 && len >= 3 && (unsigned char)l->buf[0] == 0xef && (unsigned char)l->buf[1] == 0xbb &&
        (unsigned char)l->buf[2] == 0xbf)
        memmove(l->buf, l->buf + 3, (size_t)len - 2);
    return 1;
}

static int is_blank(char ch) { return ch == ' ' || ch == '\t'; }

/* Split s in place into at most max blank-separated tokens; returns the
 * count, max + 1 if there are more. */
static int split(char *s, char **tok, int max)
{
    int n = 0;
    for (;;) {
        while (is_blank(*s)) s++;
        if (!*s) return n;
        if (n == max) return max + 1;
        tok[n++] = s;
        while (*s && !is_blank(*s)) s++;
        if (*s) *s++ = '\0';
    }
}

/* ------------------------------------------------------------------- CDF */

/* Finite real in plain or exponent notation, nothing else (no hex, inf,
 * nan, blanks). */
static int parse_real(const char *s, double *out)
{
    if (!*s) return -1;
    for (const char *p = s; *p; p++)
        if (!strchr("0123456789.eE+-", *p)) return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || end == s || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

/* Exact mean of max(1, floor X), X uniform on [a, b], 0 <= a <= b. */
static double seg_mean(double a, double b)
{
    if (!(b > a)) return fmax(1.0, floor(a));
    double fa = floor(a), fb = floor(b);
    double ra = a - fa, rb = b - fb;
    /* integral of floor = integral of x - integral of frac(x);
     * integral_0^t frac = floor(t)/2 + frac(t)^2/2 */
    double m = (a + b) / 2 - ((fb - fa) + rb * rb - ra * ra) / (2 * (b - a));
    /* floor(x) = 0 on [0, 1) counts as 1 */
    double lo = a, hi = fmin(b, 1.0);
    if (hi > lo) m += (hi - lo) / (b - a);
    return m;
}

static void cdf_means(struct cdf *c)
{
    double si = c->frac[0] * fmax(1.0, floor(c->size[0]));
    double ss = si;
    for (uint32_t i = 1; i < c->n; i++) {
        double p = c->frac[i] - c->frac[i - 1];
        if (p <= 0) continue;
        si += p * seg_mean(c->size[i - 1], c->size[i]);
        ss += p * fmax(1.0, floor(c->size[i]));
    }
    /* Every sample is at least 1 byte, so both means are; the sums of
     * rounded products can land an ulp below (sizes 0.15 and 1 at 15% and
     * 100% gave 0.99999999999999989, found by the CDF fuzzer). */
    c->mean_interp = fmax(1.0, si);
    c->mean_step = fmax(1.0, ss);
}

int cdf_load(struct cdf *c, const char *path, enum cdf_format fmt, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    if (fmt != CDF_AUTO && fmt != CDF_FRACTION && fmt != CDF_PERCENT)
        return errf(err, errlen, "%s: invalid CDF format %d", path, (int)fmt);
    FILE *f = fopen(path, "r");
    if (!f) return errf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    struct lines l = { f, path, NULL, 0, 0 };
    double *size = NULL, *frac = NULL;
    long *lineno = NULL;
    size_t n = 0, cap = 0;
    int rc = -1, st;
    while ((st = next_line(&l, err, errlen)) > 0) {
        char *hash = strchr(l.buf, '#');
        if (hash) *hash = '\0';
        char *tok[3];
        int k = split(l.buf, tok, 2);
        if (k == 0) continue;
        if (k != 2) {
            errf(err, errlen, "%s:%ld: expected 'SIZE_BYTES CUMULATIVE', got %s", path, l.line,
                 k > 2 ? "more than 2 fields" : "1 field");
            goto out;
        }
        double x, y;
        if (parse_real(tok[0], &x) < 0) {
            errf(err, errlen, "%s:%ld: size '%s' is not a number", path, l.line, tok[0]);
            goto out;
        }
        if (parse_real(tok[1], &y) < 0) {
            errf(err, errlen, "%s:%ld: cumulative value '%s' is not a number", path, l.line, tok[1]);
            goto out;
        }
        if (x < 0 || x > CDF_MAX_SIZE) {
            errf(err, errlen, "%s:%ld: size %s out of range [0, 2^53]", path, l.line, tok[0]);
            goto out;
        }
        if (y < 0 || y > 100) {
            errf(err, errlen, "%s:%ld: cumulative value %s out of range [0, 100]", path, l.line, tok[1]);
            goto out;
        }
        if (n > 0 && x < size[n - 1]) {
            errf(err, errlen, "%s:%ld: size %s is smaller than the previous point's %.15g", path, l.line, tok[0],
                 size[n - 1]);
            goto out;
        }
        if (n > 0 && y < frac[n - 1]) {
            errf(err, errlen, "%s:%ld: cumulative value %s is smaller than the previous point's %.15g", path, l.line,
                 tok[1], frac[n - 1]);
            goto out;
        }
        if (n == cap) {
            size_t nc = cap ? 2 * cap : 64;
            if (nc > UINT32_MAX) {
                errf(err, errlen, "%s:%ld: too many points", path, l.line);
                goto out;
            }
            double *ns = realloc(size, nc * sizeof *ns);
            if (ns) size = ns;
            double *nf = realloc(frac, nc * sizeof *nf);
            if (nf) frac = nf;
            long *nl = realloc(lineno, nc * sizeof *nl);
            if (nl) lineno = nl;
            if (!ns || !nf || !nl) {
                errf(err, errlen, "%s: out of memory", path);
                goto out;
            }
            cap = nc;
        }
        size[n] = x;
        frac[n] = y;
        lineno[n] = l.line;
        n++;
    }
    if (st < 0) goto out;
    if (n == 0) {
        errf(err, errlen, "%s: no points (expected lines 'SIZE_BYTES CUMULATIVE')", path);
        goto out;
    }
    double last = frac[n - 1], scale;
    if (fmt == CDF_AUTO) {
        if (last == 100) scale = 100;
        else if (last == 1) scale = 1;
        else {
            errf(err, errlen, "%s:%ld: last cumulative value is %.15g; must be 1 (fraction) or 100 (percent)", path,
                 lineno[n - 1], last);
            goto out;
        }
    } else {
        scale = fmt == CDF_PERCENT ? 100 : 1;
        if (last != scale) {
            errf(err, errlen, "%s:%ld: last cumulative value is %.15g; must be %g in a %s file", path, lineno[n - 1],
                 last, scale, fmt == CDF_PERCENT ? "percent" : "fraction");
            goto out;
        }
    }
    /* Values are non-decreasing up to the last, which is the scale: all fit. */
    if (scale == 100)
        for (size_t i = 0; i < n; i++) frac[i] /= 100;
    c->size = size;
    c->frac = frac;
    c->n = (uint32_t)n;
    size = frac = NULL;
    cdf_means(c);
    rc = 0;
out:
    free(size);
    free(frac);
    free(lineno);
    free(l.buf);
    fclose(f);
    return rc;
}

void cdf_free(struct cdf *c)
{
    free(c->size);
    free(c->frac);
    memset(c, 0, sizeof *c);
}

static uint64_t clamp_size(double x)
{
    uint64_t v = (uint64_t)x; /* x >= 0: truncation */
    return v ? v : 1;
}

uint64_t cdf_sample(const struct cdf *c, enum cdf_sampling s, struct rng *r)
{
    const double *F = c->frac, *X = c->size;
    uint32_t n = c->n;
    if (s == CDF_STEP) {
        /* u in (0, 1]: smallest i with F_i >= u */
        double u = (double)((rng_next(r) >> 11) + 1) * (1.0 / 9007199254740992.0);
        uint32_t lo = 0, hi = n - 1;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (F[mid] >= u) hi = mid;
            else lo = mid + 1;
        }
        return clamp_size(X[lo]);
    }
    double u = rng_uniform(r); /* [0, 1) */
    if (u <= F[0]) return clamp_size(X[0]);
    uint32_t lo = 1, hi = n - 1; /* first i >= 1 with u <= F_i; F_{n-1} = 1 > u */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (u <= F[mid]) hi = mid;
        else lo = mid + 1;
    }
    double a = X[lo - 1], b = X[lo], fa = F[lo - 1], fb = F[lo];
    double x = fb > fa ? a + (b - a) * ((u - fa) / (fb - fa)) : b;
    if (x > b) x = b;
    if (x < a) x = a;
    return clamp_size(x);
}

double cdf_mean(const struct cdf *c, enum cdf_sampling s)
{
    return s == CDF_STEP ? c->mean_step : c->mean_interp;
}

/* ----------------------------------------------------------------- lists */

void wl_list_free(struct wl_list *l)
{
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

int wl_list_push(struct wl_list *l, const struct wl_flow *f)
{
    if (l->n == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 256;
        if (nc < l->cap || nc > SIZE_MAX / sizeof *l->v) return -1;
        struct wl_flow *v = realloc(l->v, nc * sizeof *v);
        if (!v) return -1;
        l->v = v;
        l->cap = nc;
    }
    l->v[l->n++] = *f;
    return 0;
}

static int flow_before(const struct wl_flow *a, const struct wl_flow *b)
{
    if (a->start_ps != b->start_ps) return a->start_ps < b->start_ps;
    if (a->src != b->src) return a->src < b->src;
    return a->dst < b->dst;
}

/* Stable merge sort of v[0..n); insertion sort if no scratch memory. */
static void sort_flows(struct wl_flow *v, size_t n)
{
    if (n < 2) return;
    struct wl_flow *tmp = malloc(n * sizeof *tmp);
    if (!tmp) {
        for (size_t i = 1; i < n; i++) {
            struct wl_flow x = v[i];
            size_t j = i;
            for (; j > 0 && flow_before(&x, &v[j - 1]); j--) v[j] = v[j - 1];
            v[j] = x;
        }
        return;
    }
    struct wl_flow *src = v, *dst = tmp;
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) dst[k++] = flow_before(&src[j], &src[i]) ? src[j++] : src[i++];
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
        }
        struct wl_flow *t = src;
        src = dst;
        dst = t;
    }
    if (src != v) memcpy(v, src, n * sizeof *v);
    free(tmp);
}

void wl_sort_by_start(struct wl_list *l) { sort_flows(l->v, l->n); }

/* ------------------------------------------------------------ generators */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Sorted copy of ids in *out; -1 on OOM, else the first duplicate's index
 * + 1 in *dup (0 if none). */
static int sorted_copy(const uint32_t *ids, size_t n, uint32_t **out, uint32_t *dupid, int *dup)
{
    uint32_t *s = malloc((n ? n : 1) * sizeof *s);
    if (!s) return -1;
    memcpy(s, ids, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_u32);
    *dup = 0;
    for (size_t i = 1; i < n; i++)
        if (s[i] == s[i - 1]) {
            *dup = 1;
            *dupid = s[i];
            break;
        }
    *out = s;
    return 0;
}

/* A host id and its index in the caller's array, sorted by id. */
struct idpos { uint32_t id; size_t pos; };

static int cmp_idpos(const void *a, const void *b)
{
    const struct idpos *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

/* Next arrival after *t with an exponential gap of mean gap_ps rounded to
 * the ps; 0 if it is before t1 (then *t is updated), -1 if not. */
static int next_arrival(uint64_t *t, uint64_t t1, double gap_ps, struct rng *r)
{
    double g = rng_exp(r, gap_ps);
    if (g + 0.5 >= (double)(t1 - *t)) return -1;
    uint64_t gi = (uint64_t)(g + 0.5);
    if (gi >= t1 - *t) return -1; /* double rounding near 2^53 */
    *t += gi;
    return 0;
}

#define WL_PERM_TRIES 10000 /* rejection rounds; each succeeds with p >= 1/e or so */

int wl_poisson(struct wl_list *out, const uint32_t *srcs, size_t nsrc, const uint32_t *dsts, size_t ndst,
               enum wl_pattern pat, const uint64_t *src_link_bps, double load, const struct cdf *c,
               enum cdf_sampling smp, uint64_t t0, uint64_t t1, struct rng *r, char *err, size_t errlen)
{
    const char *fn = "wl_poisson";
    if (!out || !srcs || !dsts || !src_link_bps || !c || !r) return errf(err, errlen, "%s: NULL argument", fn);
    if (nsrc == 0) return errf(err, errlen, "%s: no source hosts", fn);
    if (ndst == 0) return errf(err, errlen, "%s: no destination hosts", fn);
    if (pat != WL_ALL_TO_ALL && pat != WL_PERMUTATION && pat != WL_GROUPS)
        return errf(err, errlen, "%s: invalid pattern %d", fn, (int)pat);
    if (smp != CDF_INTERPOLATE && smp != CDF_STEP) return errf(err, errlen, "%s: invalid sampling %d", fn, (int)smp);
    if (c->n == 0 || !c->size || !c->frac) return errf(err, errlen, "%s: empty CDF", fn);
    if (!(load > 0 && load <= 1)) return errf(err, errlen, "%s: load %g out of range (0, 1]", fn, load);
    if (t0 >= t1) return errf(err, errlen, "%s: empty time window [%llu ps, %llu ps)", fn,
                              (unsigned long long)t0, (unsigned long long)t1);
    for (size_t i = 0; i < nsrc; i++)
        if (src_link_bps[i] == 0) return errf(err, errlen, "%s: source host %u has link rate 0", fn, srcs[i]);

    size_t n0 = out->n;
    uint32_t *ss = NULL, *perm = NULL, dupid = 0;
    struct idpos *sd = NULL;
    size_t *self = NULL; /* position of srcs[i] in dsts, or SIZE_MAX */
    int dup, rc = -1;
    if (sorted_copy(srcs, nsrc, &ss, &dupid, &dup) < 0) goto oom;
    if (dup) {
        errf(err, errlen, "%s: host %u listed twice among the sources", fn, dupid);
        goto done;
    }
    if (!(sd = malloc(ndst * sizeof *sd))) goto oom;
    for (size_t j = 0; j < ndst; j++) sd[j] = (struct idpos){ dsts[j], j };
    qsort(sd, ndst, sizeof *sd, cmp_idpos);
    for (size_t j = 1; j < ndst; j++)
        if (sd[j].id == sd[j - 1].id) {
            errf(err, errlen, "%s: host %u listed twice among the destinations", fn, sd[j].id);
            goto done;
        }
    if (!(self = malloc(nsrc * sizeof *self))) goto oom;
    for (size_t i = 0; i < nsrc; i++) {
        struct idpos key = { srcs[i], 0 }, *hit = bsearch(&key, sd, ndst, sizeof *sd, cmp_idpos);
        self[i] = hit ? hit->pos : SIZE_MAX;
    }
    for (size_t i = 0; i < nsrc; i++) {
        if (pat == WL_GROUPS && self[i] != SIZE_MAX) {
            errf(err, errlen, "%s: groups pattern: host %u is both a source and a destination", fn, srcs[i]);
            goto done;
        }
        if (self[i] != SIZE_MAX && ndst == 1) {
            errf(err, errlen, "%s: source host %u has no destination other than itself", fn, srcs[i]);
            goto done;
        }
    }

    /* Stream 0: the permutation (drawn for every pattern so r always
     * advances by 1 + nsrc). */
    struct rng pr;
    rng_seed(&pr, rng_next(r));
    if (pat == WL_PERMUTATION) {
        if (nsrc > ndst) {
            errf(err, errlen, "%s: permutation needs at least as many destinations as sources (%zu < %zu)", fn,
                 ndst, nsrc);
            goto done;
        }
        if (!(perm = malloc(ndst * sizeof *perm))) goto oom;
        int ok = 0;
        for (int tries = 0; tries < WL_PERM_TRIES && !ok; tries++) {
            memcpy(perm, dsts, ndst * sizeof *perm);
            ok = 1;
            for (size_t i = 0; i < nsrc; i++) {
                size_t j = i + (size_t)rng_below(&pr, ndst - i);
                uint32_t t = perm[i];
                perm[i] = perm[j];
                perm[j] = t;
                if (perm[i] == srcs[i]) {
                    ok = 0;
                    break;
                }
            }
        }
        if (!ok) {
            errf(err, errlen, "%s: no derangement found in %d tries", fn, WL_PERM_TRIES);
            goto done;
        }
    }

    double mean = cdf_mean(c, smp);
    for (size_t i = 0; i < nsrc; i++) {
        struct rng sr;
        rng_seed(&sr, rng_next(r));
        double gap_ps = mean * 8.0 / ((double)src_link_bps[i] * load) * 1e12;
        if (!(gap_ps >= 1.0)) {
            errf(err, errlen, "%s: source host %u: mean inter-arrival gap %g ps is below 1 ps", fn, srcs[i], gap_ps);
            goto done;
        }
        uint64_t t = t0;
        while (next_arrival(&t, t1, gap_ps, &sr) == 0) {
            struct wl_flow f;
            memset(&f, 0, sizeof f);
            f.src = srcs[i];
            f.start_ps = t;
            f.size = cdf_sample(c, smp, &sr);
            if (pat == WL_PERMUTATION) f.dst = perm[i];
            else if (self[i] == SIZE_MAX) f.dst = dsts[rng_below(&sr, ndst)];
            else {
                size_t k = (size_t)rng_below(&sr, ndst - 1);
                f.dst = dsts[k >= self[i] ? k + 1 : k];
            }
            if (wl_list_push(out, &f) < 0) goto oom;
        }
    }
    rc = 0;
    goto done;
oom:
    errf(err, errlen, "%s: out of memory", fn);
done:
    if (rc < 0) out->n = n0;
    free(ss);
    free(sd);
    free(self);
    free(perm);
    return rc;
}

int wl_incast(struct wl_list *out, const uint32_t *hosts, size_t nhosts, const uint64_t *host_link_bps,
              double load, uint32_t m, uint64_t size, uint64_t t0, uint64_t t1, struct rng *r, char *err,
              size_t errlen)
{
    const char *fn = "wl_incast";
    if (!out || !hosts || !host_link_bps || !r) return errf(err, errlen, "%s: NULL argument", fn);
    if (nhosts < 2) return errf(err, errlen, "%s: needs at least 2 hosts, got %zu", fn, nhosts);
    if (m < 1 || m >= nhosts)
        return errf(err, errlen, "%s: %u senders out of range [1, %zu] (hosts other than the receiver)", fn, m,
                    nhosts - 1);
    if (size == 0) return errf(err, errlen, "%s: flow size 0", fn);
    if (!(load > 0 && load <= 1)) return errf(err, errlen, "%s: load %g out of range (0, 1]", fn, load);
    if (t0 >= t1) return errf(err, errlen, "%s: empty time window [%llu ps, %llu ps)", fn,
                              (unsigned long long)t0, (unsigned long long)t1);
    double sum_bps = 0;
    for (size_t i = 0; i < nhosts; i++) {
        if (host_link_bps[i] == 0) return errf(err, errlen, "%s: host %u has link rate 0", fn, hosts[i]);
        sum_bps += (double)host_link_bps[i];
    }
    size_t n0 = out->n;
    uint32_t *s = NULL, dupid = 0;
    size_t *p = NULL, *pos = NULL;
    int dup, rc = -1;
    if (sorted_copy(hosts, nhosts, &s, &dupid, &dup) < 0) goto oom;
    if (dup) {
        errf(err, errlen, "%s: host %u listed twice", fn, dupid);
        goto done;
    }
    struct rng er;
    rng_seed(&er, rng_next(r));
    double gap_ps = (double)m * (double)size * 8.0 / (load * sum_bps) * 1e12;
    if (!(gap_ps >= 1.0)) {
        errf(err, errlen, "%s: mean event gap %g ps is below 1 ps", fn, gap_ps);
        goto done;
    }
    /* p: a permutation of host indices, pos its inverse.  Per event the
     * receiver is swapped to the end and m senders are drawn by a partial
     * Fisher-Yates over the rest; p stays a permutation, so no reset. */
    if (!(p = malloc(nhosts * sizeof *p)) || !(pos = malloc(nhosts * sizeof *pos))) goto oom;
    for (size_t i = 0; i < nhosts; i++) p[i] = pos[i] = i;
    uint64_t t = t0;
    while (next_arrival(&t, t1, gap_ps, &er) == 0) {
        size_t rcv = (size_t)rng_below(&er, nhosts), last = nhosts - 1;
        size_t a = pos[rcv], tmp;
        p[a] = p[last];
        pos[p[a]] = a;
        p[last] = rcv;
        pos[rcv] = last;
        for (size_t k = 0; k < m; k++) {
            size_t j = k + (size_t)rng_below(&er, last - k);
            tmp = p[k];
            p[k] = p[j];
            p[j] = tmp;
            pos[p[k]] = k;
            pos[p[j]] = j;
            struct wl_flow f;
            memset(&f, 0, sizeof f);
            f.src = hosts[p[k]];
            f.dst = hosts[rcv];
            f.size = size;
            f.start_ps = t;
            f.incast = 1;
            if (wl_list_push(out, &f) < 0) goto oom;
        }
    }
    rc = 0;
    goto done;
oom:
    errf(err, errlen, "%s: out of memory", fn);
done:
    if (rc < 0) out->n = n0;
    free(s);
    free(p);
    free(pos);
    return rc;
}

/* ------------------------------------------------------- HPCC flow files */

/* Plain decimal digits into a uint64 (no sign, no blanks); -1 if not. */
static int parse_dec(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    if (!*s) return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return -1;
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10) return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

/* Seconds "DIGITS[.DIGITS]" to ps exactly; -1 malformed, -2 finer than
 * 1 ps, -3 out of range. */
static int parse_seconds_ps(const char *s, uint64_t *out)
{
    uint64_t whole = 0, frac = 0;
    const char *p = s;
    if (*p < '0' || *p > '9') return -1;
    for (; *p >= '0' && *p <= '9'; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (whole > (UINT64_MAX - d) / 10) return -3;
        whole = whole * 10 + d;
    }
    int nd = 0, finer = 0;
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9') return -1;
        for (; *p >= '0' && *p <= '9'; p++, nd++) {
            if (nd < 12) frac = frac * 10 + (uint64_t)(*p - '0');
            else if (*p != '0') finer = 1;
        }
    }
    if (*p) return -1;
    if (finer) return -2;
    for (; nd < 12; nd++) frac *= 10;
    if (whole > (UINT64_MAX - frac) / 1000000000000ull) return -3;
    *out = whole * 1000000000000ull + frac;
    return 0;
}

int wl_read_hpcc(struct wl_list *out, const char *path, uint32_t nhosts, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) return errf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    struct lines l = { f, path, NULL, 0, 0 };
    size_t n0 = out->n;
    uint64_t count = 0, got = 0;
    long count_line = 0;
    int rc = -1, st;
    while ((st = next_line(&l, err, errlen)) > 0) {
        char *tok[7];
        int k = split(l.buf, tok, 6);
        if (k == 0) continue;
        if (!count_line) {
            if (k != 1 || parse_dec(tok[0], &count) < 0) {
                errf(err, errlen, "%s:%ld: expected the flow count (a non-negative integer) alone on the first line",
                     path, l.line);
                goto done;
            }
            count_line = l.line;
            continue;
        }
        if (got == count) {
            errf(err, errlen, "%s:%ld: more flows than the count %llu on line %ld", path, l.line,
                 (unsigned long long)count, count_line);
            goto done;
        }
        if (k != 6) {
            if (k > 6)
                errf(err, errlen, "%s:%ld: expected 6 fields 'src dst pg dport size start_s', got more", path, l.line);
            else
                errf(err, errlen, "%s:%ld: expected 6 fields 'src dst pg dport size start_s', got %d", path, l.line, k);
            goto done;
        }
        const char *const names[5] = { "src", "dst", "pg", "dport", "size" };
        uint64_t v[5], start;
        for (int i = 0; i < 5; i++)
            if (parse_dec(tok[i], &v[i]) < 0) {
                errf(err, errlen, "%s:%ld: %s '%s' is not a non-negative integer", path, l.line, names[i], tok[i]);
                goto done;
            }
        for (int i = 0; i < 2; i++)
            if (v[i] >= nhosts) {
                errf(err, errlen, "%s:%ld: %s %llu is not a host (hosts are 0..%lld)", path, l.line, names[i],
                     (unsigned long long)v[i], (long long)nhosts - 1);
                goto done;
            }
        if (v[0] == v[1]) {
            errf(err, errlen, "%s:%ld: src and dst are the same host %llu", path, l.line, (unsigned long long)v[0]);
            goto done;
        }
        if (v[3] > 65535) {
            errf(err, errlen, "%s:%ld: dport %llu out of range [0, 65535]", path, l.line, (unsigned long long)v[3]);
            goto done;
        }
        if (v[4] == 0) {
            errf(err, errlen, "%s:%ld: size 0; flows need at least 1 byte", path, l.line);
            goto done;
        }
        int ps = parse_seconds_ps(tok[5], &start);
        if (ps < 0) {
            errf(err, errlen, "%s:%ld: start '%s' %s", path, l.line, tok[5],
                 ps == -1   ? "is not a non-negative decimal number of seconds like 2.000001000"
                 : ps == -2 ? "is finer than 1 ps"
                            : "is out of range");
            goto done;
        }
        struct wl_flow fl;
        memset(&fl, 0, sizeof fl);
        fl.src = (uint32_t)v[0];
        fl.dst = (uint32_t)v[1];
        fl.size = v[4];
        fl.start_ps = start;
        fl.incast = v[3] == WL_HPCC_DPORT_INCAST;
        if (wl_list_push(out, &fl) < 0) {
            errf(err, errlen, "%s: out of memory", path);
            goto done;
        }
        got++;
    }
    if (st < 0) goto done;
    if (!count_line) {
        errf(err, errlen, "%s: empty file; expected the flow count on the first line", path);
        goto done;
    }
    if (got != count) {
        errf(err, errlen, "%s:%ld: count %llu but %llu flow line%s", path, count_line,
             (unsigned long long)count, (unsigned long long)got, got == 1 ? " follows" : "s follow");
        goto done;
    }
    /* Only when flows were read: an empty list may have v == NULL, and
     * NULL + 0 is undefined behaviour in C (a flow file "0" did that). */
    if (out->n > n0) sort_flows(out->v + n0, out->n - n0);
    rc = 0;
done:
    if (rc < 0) out->n = n0;
    free(l.buf);
    fclose(f);
    return rc;
}

int wl_write_hpcc(const struct wl_list *l, const char *path, char *err, size_t errlen)
{
    for (size_t i = 0; i < l->n; i++) {
        const struct wl_flow *fl = &l->v[i];
        if (i > 0 && fl->start_ps < l->v[i - 1].start_ps)
            return errf(err, errlen, "%s: flow %zu starts before flow %zu; sort the list (wl_sort_by_start) first",
                        path, i, i - 1);
        if (fl->src == fl->dst)
            return errf(err, errlen, "%s: flow %zu has src == dst == %u", path, i, fl->src);
        if (fl->size == 0) return errf(err, errlen, "%s: flow %zu has size 0", path, i);
        /* Rounded to the ns, the start must still be a uint64 of ps, or the
         * reader would reject the file this writes (found by fuzzing). */
        if (fl->start_ps / 1000 + (fl->start_ps % 1000 >= 500) > UINT64_MAX / 1000)
            return errf(err, errlen, "%s: flow %zu starts at %llu ps, past the largest time the format holds", path,
                        i, (unsigned long long)fl->start_ps);
    }
    size_t tl = strlen(path) + 48;
    char *tmp = malloc(tl);
    if (!tmp) return errf(err, errlen, "%s: out of memory", path);
    int fd = -1;
    for (int k = 0; k < 100 && fd < 0; k++) {
        snprintf(tmp, tl, "%s.tmp%ld.%d", path, (long)getpid(), k);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        errf(err, errlen, "%s: cannot create temporary file %s: %s", path, tmp, strerror(errno));
        free(tmp);
        return -1;
    }
    FILE *f = fdopen(fd, "w");
    if (!f) {
        errf(err, errlen, "%s: cannot write %s: %s", path, tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return -1;
    }
    fprintf(f, "%zu\n", l->n);
    for (size_t i = 0; i < l->n; i++) {
        const struct wl_flow *fl = &l->v[i];
        uint64_t ns = fl->start_ps / 1000 + (fl->start_ps % 1000 >= 500); /* %.9f: nearest ns */
        fprintf(f, "%u %u %d %d %llu %llu.%09llu\n", fl->src, fl->dst, WL_HPCC_PG,
                fl->incast ? WL_HPCC_DPORT_INCAST : WL_HPCC_DPORT, (unsigned long long)fl->size,
                (unsigned long long)(ns / 1000000000ull), (unsigned long long)(ns % 1000000000ull));
    }
    int bad = ferror(f);
    int e = errno;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        errf(err, errlen, "%s: cannot write %s: %s", path, tmp, strerror(e ? e : EIO));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    if (rename(tmp, path) != 0) {
        errf(err, errlen, "%s: cannot rename %s to it: %s", path, tmp, strerror(errno));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}
