/*
 * sw_oqclass.c -- the OpenQueue classification step of rocc-switch (see
 * sw_oqclass.h).  No DPDK, no allocation: dpoq_classify runs per frame.
 */
#include "sw_oqclass.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dpoq_init(struct dpoq_class *c, uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->vsrc = DPOQ_V_DSCP;
    c->pkind = DPOQ_P_CONST;
    c->pa = c->pb = 1;
    c->rng = seed ? seed : 0x9E3779B97F4A7C15ull;
}

static int bad(char *err, size_t n, const char *what, const char *spec)
{
    snprintf(err, n, "%s: '%.100s'", what, spec);
    return -1;
}

/* A whole decimal number lo..hi; 0 or -1. */
static int u32_in(const char *v, const char *stop, uint32_t lo, uint32_t hi, uint32_t *out)
{
    const char *end;
    uint64_t x;
    if (pkt_parse_u64(v, 0, lo, hi, &end, &x) || end != stop) return -1;
    *out = (uint32_t)x;
    return 0;
}

static int value_num(const char *v, const char *stop, double *out)
{
    char *end;
    double x;
    if (v == stop) return -1;
    x = strtod(v, &end);
    if (end != stop || !isfinite(x) || fabs(x) > DPOQ_MAX_VALUE) return -1;
    *out = x;
    return 0;
}

int dpoq_parse_value(struct dpoq_class *c, const char *spec, char *err, size_t n)
{
    if (!strcmp(spec, "dscp")) c->vsrc = DPOQ_V_DSCP;
    else if (!strcmp(spec, "tos")) c->vsrc = DPOQ_V_TOS;
    else if (!strncmp(spec, "const:", 6)) {
        if (value_num(spec + 6, spec + strlen(spec), &c->vconst))
            return bad(err, n, "--oq-value const:V needs a number, |V| <= 1e9", spec);
        c->vsrc = DPOQ_V_CONST;
    } else return bad(err, n, "--oq-value must be dscp, tos or const:V", spec);
    return 0;
}

/* DSCP=X[,DSCP=X...]: calls put(c, dscp, x-text, end) for each entry. */
static int parse_map(struct dpoq_class *c, const char *spec, char *err, size_t n, const char *opt, int is_value)
{
    const char *p = spec;
    if (!*p) return bad(err, n, opt, spec);
    while (*p) {
        const char *eq = strchr(p, '='), *comma = strchr(p, ',');
        const char *stop = comma ? comma : p + strlen(p);
        uint32_t d;
        char what[160];
        if (!eq || eq > stop || u32_in(p, eq, 0, 63, &d)) {
            snprintf(what, sizeof what, "%s: each entry is DSCP=%s with DSCP 0..63", opt, is_value ? "V" : "N");
            return bad(err, n, what, spec);
        }
        if (is_value) {
            if (value_num(eq + 1, stop, &c->vmap[d])) {
                snprintf(what, sizeof what, "%s: DSCP %u: the value must be a number, |V| <= 1e9", opt, d);
                return bad(err, n, what, spec);
            }
            c->vmap_set[d] = 1;
        } else {
            if (u32_in(eq + 1, stop, 1, DPOQ_MAX_PROCESSING, &c->pmap[d])) {
                snprintf(what, sizeof what, "%s: DSCP %u: cycles must be 1..%u", opt, d, DPOQ_MAX_PROCESSING);
                return bad(err, n, what, spec);
            }
            c->pmap_set[d] = 1;
        }
        p = comma ? comma + 1 : stop;
        if (comma && !*p) return bad(err, n, opt, spec);   /* trailing comma */
    }
    return 0;
}

int dpoq_parse_value_map(struct dpoq_class *c, const char *spec, char *err, size_t n)
{
    return parse_map(c, spec, err, n, "--oq-value-map", 1);
}

int dpoq_parse_processing_map(struct dpoq_class *c, const char *spec, char *err, size_t n)
{
    return parse_map(c, spec, err, n, "--oq-processing-map", 0);
}

int dpoq_parse_processing(struct dpoq_class *c, const char *spec, char *err, size_t n)
{
    const char *end = spec + strlen(spec);
    char what[128];
    if (!strncmp(spec, "uniform:", 8)) {
        const char *dash = strchr(spec + 8, '-');
        if (!dash || u32_in(spec + 8, dash, 1, DPOQ_MAX_PROCESSING, &c->pa) ||
            u32_in(dash + 1, end, 1, DPOQ_MAX_PROCESSING, &c->pb) || c->pb < c->pa) {
            snprintf(what, sizeof what, "--oq-processing uniform:LO-HI needs 1 <= LO <= HI <= %u", DPOQ_MAX_PROCESSING);
            return bad(err, n, what, spec);
        }
        c->pkind = DPOQ_P_UNIFORM;
    } else if (!strncmp(spec, "psn:", 4)) {
        if (u32_in(spec + 4, end, 1, DPOQ_MAX_PROCESSING, &c->pa)) {
            snprintf(what, sizeof what, "--oq-processing psn:K needs 1 <= K <= %u", DPOQ_MAX_PROCESSING);
            return bad(err, n, what, spec);
        }
        c->pkind = DPOQ_P_PSN;
    } else if (!u32_in(spec, end, 1, DPOQ_MAX_PROCESSING, &c->pa)) {
        c->pb = c->pa;
        c->pkind = DPOQ_P_CONST;
    } else {
        snprintf(what, sizeof what, "--oq-processing must be N (1..%u), uniform:LO-HI or psn:K", DPOQ_MAX_PROCESSING);
        return bad(err, n, what, spec);
    }
    return 0;
}

void dpoq_describe(const struct dpoq_class *c, char *buf, size_t n)
{
    int k;
    size_t used;
    if (c->vsrc == DPOQ_V_CONST) k = snprintf(buf, n, "value=const:%g", c->vconst);
    else k = snprintf(buf, n, "value=%s", c->vsrc == DPOQ_V_TOS ? "tos" : "dscp");
    used = k > 0 && (size_t)k < n ? (size_t)k : n - 1;
    for (unsigned d = 0, first = 1; d < 64 && used + 1 < n; d++) {
        if (!c->vmap_set[d]) continue;
        k = snprintf(buf + used, n - used, "%s%u=%g", first ? " value_map=" : ",", d, c->vmap[d]);
        used = k > 0 && (size_t)k < n - used ? used + (size_t)k : n - 1;
        first = 0;
    }
    if (used + 1 >= n) return;
    if (c->pkind == DPOQ_P_UNIFORM) k = snprintf(buf + used, n - used, " processing=uniform:%u-%u", c->pa, c->pb);
    else if (c->pkind == DPOQ_P_PSN) k = snprintf(buf + used, n - used, " processing=psn:%u", c->pa);
    else k = snprintf(buf + used, n - used, " processing=%u", c->pa);
    used = k > 0 && (size_t)k < n - used ? used + (size_t)k : n - 1;
    for (unsigned d = 0, first = 1; d < 64 && used + 1 < n; d++) {
        if (!c->pmap_set[d]) continue;
        k = snprintf(buf + used, n - used, "%s%u=%u", first ? " processing_map=" : ",", d, c->pmap[d]);
        used = k > 0 && (size_t)k < n - used ? used + (size_t)k : n - 1;
        first = 0;
    }
}

static uint64_t next_rand(struct dpoq_class *c)
{
    c->rng ^= c->rng >> 12; c->rng ^= c->rng << 25; c->rng ^= c->rng >> 27;
    return c->rng * 0x2545F4914F6CDD1Dull;
}

void dpoq_classify(struct dpoq_class *c, const uint8_t *f, uint32_t len, const struct pkt_info *pi, struct oq_pkt *out)
{
    /* pkt_parse accepted the frame: the IPv4 header (20 bytes or more) is
     * inside it, so the ToS byte at l3_off + 1 is there. */
    uint8_t tos = f[pi->l3_off + 1];
    unsigned dscp = tos >> 2;

    memset(out, 0, sizeof *out);
    out->size = len;
    out->queue = UINT32_MAX;
    if (c->vmap_set[dscp]) out->value = c->vmap[dscp];
    else if (c->vsrc == DPOQ_V_DSCP) out->value = dscp;
    else if (c->vsrc == DPOQ_V_TOS) out->value = tos;
    else out->value = c->vconst;
    if (c->pmap_set[dscp]) out->processing = c->pmap[dscp];
    else if (c->pkind == DPOQ_P_UNIFORM)
        out->processing = c->pa + (uint32_t)((next_rand(c) >> 32) % (uint64_t)(c->pb - c->pa + 1));
    else if (c->pkind == DPOQ_P_PSN) out->processing = pi->is_roce ? 1 + pi->psn % c->pa : 1;
    else out->processing = c->pa;
    if (pi->is_roce) out->flow = pi->dest_qpn;
    else if (pi->proto == 17 && pi->is_first_frag) out->flow = pi->sport;
}
