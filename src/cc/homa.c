/*
 * homa.c -- Homa sender, receiver and priority cut-offs (homa.h).
 */
#include "homa.h"

#include <stdio.h>
#include <string.h>

int homa_params_check(const struct homa_params *p, char *why, size_t why_len)
{
    if (p->rtt_bytes == 0) {
        snprintf(why, why_len, "rtt_bytes must be > 0");
        return -1;
    }
    if (p->n_prio < 1 || p->n_prio > HOMA_MAX_PRIO) {
        snprintf(why, why_len, "priorities must be 1..%d", HOMA_MAX_PRIO);
        return -1;
    }
    if (p->n_unsched < 1 || p->n_unsched > p->n_prio) {
        snprintf(why, why_len, "unscheduled priorities must be 1..%u", (unsigned)p->n_prio);
        return -1;
    }
    for (unsigned k = 1; k < p->n_unsched; k++)
        if (p->cutoff[k] < p->cutoff[k - 1]) {
            snprintf(why, why_len, "cut-offs must not decrease");
            return -1;
        }
    if (p->cutoff[p->n_unsched - 1] != UINT64_MAX) {
        snprintf(why, why_len, "the last cut-off must take every size");
        return -1;
    }
    return 0;
}

unsigned homa_overcommit(const struct homa_params *p)
{
    if (p->overcommit)
        return p->overcommit;
    unsigned s = (unsigned)(p->n_prio - p->n_unsched);
    return s ? s : 1;               /* §3.5: one granted message per scheduled class */
}

double homa_cutoffs(struct homa_params *p, const uint64_t *size, const double *cum, uint32_t n)
{
    if (n == 0 || p->n_prio < 1 || p->n_prio > HOMA_MAX_PRIO || !(cum[n - 1] == 1.0))
        return -1;
    double ub = 0, tb = 0, prev = 0;
    int sched = 0;
    for (uint32_t i = 0; i < n; i++) {
        double w = cum[i] - prev;
        if (w < 0 || (i && size[i] < size[i - 1]))
            return -1;
        prev = cum[i];
        if (w == 0)
            continue;
        ub += w * (double)(size[i] < p->rtt_bytes ? size[i] : p->rtt_bytes);
        tb += w * (double)size[i];
        if (size[i] > p->rtt_bytes)
            sched = 1;
    }
    if (!(tb > 0))
        return -1;
    double frac = ub / tb;
    /* §3.4: classes split between unscheduled and scheduled bytes in
     * proportion to their shares; each side keeps one when it has bytes. */
    int nu = (int)(frac * p->n_prio + 0.5);
    if (nu < 1)
        nu = 1;
    if (sched && nu > p->n_prio - 1)
        nu = p->n_prio > 1 ? p->n_prio - 1 : 1;
    if (!sched)
        nu = p->n_prio;
    p->n_unsched = (uint8_t)nu;
    for (int k = 0; k < HOMA_MAX_PRIO; k++)
        p->cutoff[k] = UINT64_MAX;
    /* Equal unscheduled bytes per level: level k ends at the first size
     * where the cumulative unscheduled bytes reach (k+1)/nu of the total. */
    double acc = 0;
    int k = 0;
    prev = 0;
    for (uint32_t i = 0; i < n && k < nu - 1; i++) {
        double w = cum[i] - prev;
        prev = cum[i];
        acc += w * (double)(size[i] < p->rtt_bytes ? size[i] : p->rtt_bytes);
        while (k < nu - 1 && acc >= ub * (double)(k + 1) / nu * (1 - 1e-12)) {
            p->cutoff[k] = size[i];
            k++;
        }
    }
    return frac;
}

uint8_t homa_unsched_prio(const struct homa_params *p, uint64_t size)
{
    unsigned k = 0;
    while (k + 1 < p->n_unsched && size > p->cutoff[k])
        k++;
    return (uint8_t)(p->n_prio - 1 - k);
}

uint8_t homa_sched_prio(const struct homa_params *p, unsigned r, unsigned g)
{
    unsigned s = (unsigned)(p->n_prio - p->n_unsched);
    if (s == 0 || g == 0)
        return 0;                   /* one class for everything: shared with the lowest unscheduled */
    unsigned top = (g < s ? g : s) - 1;   /* §3.4: the lowest classes first */
    return (uint8_t)(r > top ? 0 : top - r);
}

/* ---- sender ---- */

void homa_tx_init(struct homa_tx *t, const struct homa_params *p, uint64_t size)
{
    t->size = size;
    t->unsched = size < p->rtt_bytes ? size : p->rtt_bytes;
    t->granted = t->unsched;
    t->uprio = homa_unsched_prio(p, size);
    t->sprio = 0;
}

int homa_tx_grant(struct homa_tx *t, uint64_t offset, uint8_t prio)
{
    if (offset > t->size)
        offset = t->size;
    t->sprio = prio;
    if (offset <= t->granted)
        return 0;
    t->granted = offset;
    return 1;
}

/* ---- receiver ---- */

void homa_rx_init(struct homa_rx *r, struct homa_rx_msg *slots, uint32_t cap)
{
    memset(r, 0, sizeof *r);
    r->m = slots;
    r->cap = cap;
}

static inline uint64_t left(const struct homa_rx_msg *m) { return m->size - m->received; }

int homa_rx_data(struct homa_rx *r, const struct homa_params *p, uint32_t id, uint64_t size, uint64_t bytes)
{
    uint32_t i = 0;
    while (i < r->n && r->m[i].id != id)
        i++;
    if (i == r->n) {
        if (size <= p->rtt_bytes)
            return 0;               /* all unscheduled: nothing to grant */
        if (r->n == r->cap) {
            r->refused++;
            return -1;
        }
        struct homa_rx_msg *m = &r->m[r->n++];
        m->size = size;
        m->received = 0;
        m->granted = p->rtt_bytes;
        m->id = id;
        m->prio = 0;
        if (r->n > r->max_active)
            r->max_active = r->n;
    }
    struct homa_rx_msg *m = &r->m[i];
    m->received += bytes < left(m) ? bytes : left(m);
    if (m->received >= m->size) {
        memmove(&r->m[i], &r->m[i + 1], (size_t)(r->n - i - 1) * sizeof *m);
        r->n--;
        return 1;
    }
    /* Fewer bytes left: move toward the front (ties keep arrival order). */
    while (i > 0 && left(&r->m[i]) < left(&r->m[i - 1])) {
        struct homa_rx_msg t = r->m[i];
        r->m[i] = r->m[i - 1];
        r->m[i - 1] = t;
        i--;
    }
    return 0;
}

unsigned homa_rx_grants(struct homa_rx *r, const struct homa_params *p, struct homa_grant *out)
{
    unsigned k = homa_overcommit(p), g = 0, got = 0;
    for (uint32_t i = 0; i < r->n && g < k; i++)
        if (r->m[i].granted < r->m[i].size)
            g++;
    unsigned rank = 0;
    for (uint32_t i = 0; i < r->n && rank < g; i++) {
        struct homa_rx_msg *m = &r->m[i];
        if (m->granted >= m->size)
            continue;
        uint64_t want = m->received + p->rtt_bytes;
        if (want > m->size)
            want = m->size;
        uint8_t prio = homa_sched_prio(p, rank++, g);
        if (want > m->granted) {
            m->granted = want;
            m->prio = prio;
            out[got].id = m->id;
            out[got].offset = want;
            out[got].prio = prio;
            got++;
        }
    }
    r->grants += got;
    return got;
}
