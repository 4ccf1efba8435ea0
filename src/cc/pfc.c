/* pfc.c -- see pfc.h. */
#include "pfc.h"

#include <stdio.h>
#include <string.h>

uint64_t pfc_quantum_ps(uint64_t link_bps)
{
    /* 512 bits / rate, in ps: 512e12 / bps, rounded (512e12 < 2^49: no overflow). */
    uint64_t q;
    if (!link_bps) return 1;
    q = (PFC_QUANTUM_BITS * 1000000000000ull + link_bps / 2) / link_bps;
    return q ? q : 1;
}

void pfc_params_default(struct pfc_params *p, uint64_t link_bps)
{
    memset(p, 0, sizeof *p);
    p->xoff_bytes = 125000;       /* Menikkumbura 2022 §4.6.2: XOFF 125 KB (DPDK prototype) */
    p->xon_bytes = 10000;         /* ibid.: XON 10 KB */
    p->quanta = PFC_QUANTA_MAX;   /* the longest pause; kept up by refreshes at half of it */
    p->lossless_mask = 0xff;
    p->quantum_ps = pfc_quantum_ps(link_bps);
}

int pfc_params_check(const struct pfc_params *p, char *why, size_t n)
{
    const char *r = NULL;
    if (p->xoff_bytes == 0) r = "the XOFF threshold must be at least 1 byte";
    else if (p->xon_bytes == 0) r = "the XON threshold must be at least 1 byte";
    else if (p->xon_bytes > p->xoff_bytes) r = "the XON threshold must not exceed the XOFF threshold";
    else if (p->quanta == 0) r = "XOFF quanta must be 1..65535 (0 would be an XON)";
    else if (p->quantum_ps == 0) r = "the pause quantum must be at least 1 ps";
    if (!r) return 0;
    if (why && n) snprintf(why, n, "%s", r);
    return -1;
}

void pfc_ingress_init(struct pfc_ingress *g)
{
    memset(g, 0, sizeof *g);
}

int pfc_ingress_add(struct pfc_ingress *g, const struct pfc_params *p, unsigned cls, uint32_t b)
{
    uint8_t bit;
    if (cls >= PFC_NCLASS) return 0;
    bit = (uint8_t)(1u << cls);
    g->bytes[cls] += b;
    if ((g->xoff & bit) || !(p->lossless_mask & bit) || g->bytes[cls] < p->xoff_bytes) return 0;
    g->xoff |= bit;
    return 1;
}

int pfc_ingress_sub(struct pfc_ingress *g, const struct pfc_params *p, unsigned cls, uint32_t b)
{
    uint8_t bit;
    if (cls >= PFC_NCLASS) return 0;
    bit = (uint8_t)(1u << cls);
    /* Never below zero: a caller's mismatch must not wrap into "full". */
    g->bytes[cls] = g->bytes[cls] > b ? g->bytes[cls] - b : 0;
    if (!(g->xoff & bit) || g->bytes[cls] >= p->xon_bytes) return 0;
    g->xoff &= (uint8_t)~bit;
    g->refresh_ps[cls] = 0;
    return 1;
}

void pfc_ingress_sent(struct pfc_ingress *g, const struct pfc_params *p, uint8_t classes, uint64_t now_ps)
{
    /* Half the announced pause: a refresh that is late by up to that much
     * still reaches the upstream port before it resumes on its own. */
    uint64_t half = pfc_pause_ps(p->quanta, p->quantum_ps) / 2;
    for (unsigned c = 0; c < PFC_NCLASS; c++)
        if (classes & g->xoff & (1u << c)) g->refresh_ps[c] = now_ps + (half ? half : 1);
}

uint8_t pfc_ingress_due(const struct pfc_ingress *g, uint64_t now_ps)
{
    uint8_t due = 0;
    if (!g->xoff) return 0;
    for (unsigned c = 0; c < PFC_NCLASS; c++)
        if ((g->xoff & (1u << c)) && now_ps >= g->refresh_ps[c]) due |= (uint8_t)(1u << c);
    return due;
}

void pfc_egress_init(struct pfc_egress *e)
{
    memset(e, 0, sizeof *e);
}

unsigned pfc_egress_frame(struct pfc_egress *e, uint8_t vec, const uint16_t quanta[PFC_NCLASS],
                          uint64_t quantum_ps, uint64_t now_ps)
{
    unsigned paused = 0, resumed = 0;

    (void)pfc_egress_paused(e, now_ps);   /* pauses that ran out end at their own time */
    for (unsigned c = 0; c < PFC_NCLASS; c++) {
        uint8_t bit = (uint8_t)(1u << c);
        if (!(vec & bit)) continue;
        if (quanta[c]) {
            if (!(e->paused & bit)) {
                e->paused |= bit;
                e->since_ps[c] = now_ps;
                paused |= bit;
            }
            e->until_ps[c] = now_ps + pfc_pause_ps(quanta[c], quantum_ps);
        } else if (e->paused & bit) {
            e->paused &= (uint8_t)~bit;
            e->paused_ps[c] += now_ps - e->since_ps[c];
            resumed |= bit;
        }
    }
    return paused | resumed << 8;
}

uint8_t pfc_egress_paused(struct pfc_egress *e, uint64_t now_ps)
{
    if (!e->paused) return 0;
    for (unsigned c = 0; c < PFC_NCLASS; c++) {
        uint8_t bit = (uint8_t)(1u << c);
        if ((e->paused & bit) && now_ps >= e->until_ps[c]) {
            e->paused &= (uint8_t)~bit;
            e->paused_ps[c] += e->until_ps[c] - e->since_ps[c];
        }
    }
    return e->paused;
}

uint64_t pfc_egress_next(const struct pfc_egress *e)
{
    uint64_t t = UINT64_MAX;
    for (unsigned c = 0; c < PFC_NCLASS; c++)
        if ((e->paused & (1u << c)) && e->until_ps[c] < t) t = e->until_ps[c];
    return t;
}

uint64_t pfc_egress_paused_total(const struct pfc_egress *e, unsigned cls, uint64_t now_ps)
{
    uint64_t t;
    if (cls >= PFC_NCLASS) return 0;
    t = e->paused_ps[cls];
    if (e->paused & (1u << cls)) {
        uint64_t end = now_ps < e->until_ps[cls] ? now_ps : e->until_ps[cls];
        if (end > e->since_ps[cls]) t += end - e->since_ps[cls];
    }
    return t;
}
