/*
 * expresspass.c -- ExpressPass credit feedback control, sender accounting
 * and credit limiter (see expresspass.h; docs/expresspass.md has the
 * sources of every default).
 */
#include "expresspass.h"

#include <stdio.h>

#define PS_PER_S 1000000000000ull

uint64_t xp_credit_rate_bps(uint64_t link_bps, uint32_t credit_wire, uint32_t data_wire)
{
    /* §3.1: credits take credit/(credit + data) of a link so that the data
     * they trigger fill the rest of the reverse link. */
    if (credit_wire == 0)
        return 0;
    return (uint64_t)((double)link_bps * credit_wire / ((double)credit_wire + data_wire));
}

void xp_params_default(struct xp_params *p, uint64_t link_bps, uint32_t credit_wire, uint32_t data_wire)
{
    p->max_rate_bps = xp_credit_rate_bps(link_bps, credit_wire, data_wire);
    /* Initial credit rate alpha * max_rate with alpha = 1/2: the authors'
     * ns-2 configurations (alpha_ 0.5); the paper's evaluation also runs
     * smaller alphas (§6.3). */
    p->init_rate_bps = p->max_rate_bps / 2;
    /* 0: one credit per update period (RTT), the authors' ns-2 floor; the
     * paper's Alg. 1 names min_rate without a value. */
    p->min_rate_bps = 0;
    p->w_init = 1.0 / 16;      /* Alg. 1 w_init; authors' ns-2 scripts w_init 0.0625 */
    p->w_max = 0.5;            /* Alg. 1: w is bounded by 0.5 */
    p->w_min = 0.01;           /* Alg. 1 w_min; authors' scripts min_w_ 0.01 */
    p->target_loss = 0.1;      /* §3.3: target credit loss 10% */
    p->jitter = 0.1;           /* §3.1 credit jitter; authors' scripts +-0.1 of the gap */
    p->update_ps = 0;          /* Alg. 1: update every RTT (measured) */
    p->credit_wire_bytes = credit_wire;
    p->queue_credits = 8;      /* §3.1: a credit queue of 8 credits */
    p->feedback = 1;
    p->target_scaled = 0;      /* Alg. 1: a constant target */
}

int xp_params_check(const struct xp_params *p, char *why, size_t why_len)
{
    const char *bad = NULL;
    if (p->max_rate_bps == 0)
        bad = "max_rate must be > 0";
    else if (p->min_rate_bps > p->max_rate_bps)
        bad = "min_rate must be in [0, max_rate] (0: one credit per RTT)";
    else if (p->init_rate_bps == 0 || p->init_rate_bps < p->min_rate_bps || p->init_rate_bps > p->max_rate_bps)
        bad = "init_rate must be in [min_rate, max_rate]";
    else if (!(p->w_min > 0 && p->w_min <= p->w_max && p->w_max <= 1))
        bad = "need 0 < w_min <= w_max <= 1";
    else if (!(p->w_init >= p->w_min && p->w_init <= p->w_max))
        bad = "w_init must be in [w_min, w_max]";
    else if (!(p->target_loss >= 0 && p->target_loss < 1))
        bad = "target_loss must be in [0, 1)";
    else if (!(p->jitter >= 0 && p->jitter < 1))
        bad = "jitter must be in [0, 1)";
    else if (p->credit_wire_bytes == 0)
        bad = "credit_wire_bytes must be > 0";
    else if (p->queue_credits == 0)
        bad = "queue_credits must be > 0";
    if (bad && why && why_len)
        snprintf(why, why_len, "expresspass: %s", bad);
    return bad ? -1 : 0;
}

uint64_t xp_gap_ps(const struct xp_params *p, double rate_bps)
{
    if (rate_bps < 1)
        rate_bps = 1;
    return (uint64_t)((double)p->credit_wire_bytes * 8 * (double)PS_PER_S / rate_bps + 0.5);
}

/* ---- receiver ---- */

static uint64_t xs64(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

void xp_rx_start(struct xp_rx *r, const struct xp_params *p, uint64_t now, uint64_t seed)
{
    *r = (struct xp_rx){ 0 };
    r->rate_bps = (double)(p->feedback ? p->init_rate_bps : p->max_rate_bps);
    r->w = p->w_init;
    r->active = 1;
    r->period_start = now;
    r->period_ps = p->update_ps;
    r->have_rtt = p->update_ps != 0;
    r->rng = seed ? seed : 0x9e3779b97f4a7c15ull;
}

void xp_rx_stop(struct xp_rx *r)
{
    r->active = 0;
}

void xp_rx_update(struct xp_rx *r, const struct xp_params *p, uint64_t now)
{
    if (!p->feedback) {
        r->p_got = r->p_lost = r->p_sent = 0;
        r->period_start = now;
        return;
    }
    uint32_t known = r->p_got + r->p_lost;
    uint32_t mark2 = r->mark1;      /* next_seq when the previous period began */
    r->mark1 = r->mark0;
    r->mark0 = r->next_seq;
    double loss;
    if (known) {
        loss = (double)r->p_lost / known;
    } else if ((int32_t)(r->expect_seq - mark2) < 0) {
        loss = 1.0;                 /* credits sent two periods ago or before, none echoed since */
    } else {
        /* Nothing learned this period (no echo, nothing overdue): no step. */
        r->p_sent = 0;
        r->period_start = now;
        return;
    }
    double maxr = (double)p->max_rate_bps;
    /* The loss tolerated: constant (Alg. 1), or shrinking to 0 as the rate
     * nears max_rate (target_scaled; the public ns-2 ExpressPass code). */
    double target = p->target_scaled ? p->target_loss * (1 - r->rate_bps / maxr) : p->target_loss;
    if (target < 0)
        target = 0;
    if (loss <= target) {
        /* Alg. 1, increasing phase. */
        if (r->prev_increase)
            r->w = (r->w + p->w_max) / 2;
        r->rate_bps = (1 - r->w) * r->rate_bps + r->w * maxr * (1 + target);
        r->prev_increase = 1;
    } else {
        /* Alg. 1, decreasing phase. */
        r->rate_bps = r->rate_bps * (1 - loss) * (1 + target);
        r->w = r->w / 2 > p->w_min ? r->w / 2 : p->w_min;
        r->prev_increase = 0;
        r->decreases++;
    }
    if (r->rate_bps > maxr)
        r->rate_bps = maxr;
    double minr = (double)p->min_rate_bps;
    if (minr == 0 && r->period_ps)          /* one credit per period (per RTT) */
        minr = (double)p->credit_wire_bytes * 8 * (double)PS_PER_S / (double)r->period_ps;
    if (minr > maxr)
        minr = maxr;
    if (r->rate_bps < minr)
        r->rate_bps = minr;
    r->p_got = r->p_lost = r->p_sent = 0;
    r->period_start = now;
    r->updates++;
}

static int period_over(const struct xp_rx *r, uint64_t now)
{
    return r->have_rtt && r->period_ps && now - r->period_start >= r->period_ps;
}

uint32_t xp_rx_credit(struct xp_rx *r, const struct xp_params *p, uint64_t now, uint64_t *next_ps)
{
    if (period_over(r, now))
        xp_rx_update(r, p, now);
    uint32_t seq = r->next_seq++;
    if (seq == 0)
        r->first_credit_ps = now;
    r->sent++;
    r->p_sent++;
    uint64_t gap = xp_gap_ps(p, r->rate_bps);
    if (p->jitter > 0) {
        /* uniform in gap * [1 - jitter, 1 + jitter) */
        double u = (double)(xs64(&r->rng) >> 11) / 9007199254740992.0;
        gap = (uint64_t)((double)gap * (1 - p->jitter + 2 * p->jitter * u) + 0.5);
        if (gap == 0)
            gap = 1;
    }
    *next_ps = now + gap;
    return seq;
}

int xp_rx_data(struct xp_rx *r, const struct xp_params *p, uint32_t seq, uint64_t now)
{
    uint32_t d = seq - r->expect_seq;          /* wraps: credits skipped */
    if (d >= 0x80000000u)
        return 0;                              /* older than expected: a reordered echo, ignore */
    r->p_lost += d;
    r->lost += d;
    r->p_got++;
    r->echoed++;
    r->expect_seq = seq + 1;
    if (!r->have_rtt) {
        /* One credit-to-data loop: the RTT (from credit 0; when credit 0
         * was lost, from the first credit that came back, an overestimate
         * by the gaps between them). */
        r->period_ps = now - r->first_credit_ps;
        if (r->period_ps == 0)
            r->period_ps = 1;
        r->have_rtt = 1;
        r->period_start = now;
        r->p_got = r->p_lost = r->p_sent = 0;
        return 0;
    }
    if (period_over(r, now)) {
        xp_rx_update(r, p, now);
        return 1;
    }
    return 0;
}

/* ---- sender ---- */

int xp_tx_credit(struct xp_tx *t, uint32_t seq, int has_data)
{
    t->credits++;
    if (!has_data || t->count == XP_TX_RING) {
        t->wasted++;
        return 0;
    }
    t->ring[(t->head + t->count) % XP_TX_RING] = seq;
    t->count++;
    return 1;
}

uint32_t xp_tx_use(struct xp_tx *t)
{
    uint32_t seq = t->ring[t->head];
    t->head = (uint8_t)((t->head + 1) % XP_TX_RING);
    t->count--;
    t->used++;
    return seq;
}

void xp_tx_flush(struct xp_tx *t)
{
    t->wasted += t->count;
    t->count = 0;
}

/* ---- limiter ---- */

void xp_lim_init(struct xp_lim *l, uint64_t rate_bps, uint32_t burst_bytes, uint32_t qcap)
{
    *l = (struct xp_lim){ 0 };
    l->rate_bps = rate_bps;
    l->depth = (uint64_t)burst_bytes * 8 * PS_PER_S;
    l->tokens = l->depth;
    l->qcap = qcap;
}

int xp_lim_admit(struct xp_lim *l, uint32_t queued)
{
    if (queued >= l->qcap) {
        l->dropped++;
        return 0;
    }
    l->admitted++;
    return 1;
}

static void refill(struct xp_lim *l, uint64_t now)
{
    if (now <= l->last_ps)
        return;
    uint64_t dt = now - l->last_ps;
    l->last_ps = now;
    if (l->rate_bps == 0)
        return;
    uint64_t room = l->depth - l->tokens;
    if (dt >= room / l->rate_bps + 1)
        l->tokens = l->depth;
    else
        l->tokens += dt * l->rate_bps;
    if (l->tokens > l->depth)
        l->tokens = l->depth;
}

uint64_t xp_lim_ready(struct xp_lim *l, uint32_t bytes, uint64_t now)
{
    refill(l, now);
    uint64_t cost = (uint64_t)bytes * 8 * PS_PER_S;
    if (l->tokens >= cost || l->rate_bps == 0)
        return now;
    uint64_t need = cost - l->tokens;
    return now + (need + l->rate_bps - 1) / l->rate_bps;
}

void xp_lim_take(struct xp_lim *l, uint32_t bytes, uint64_t now)
{
    refill(l, now);
    uint64_t cost = (uint64_t)bytes * 8 * PS_PER_S;
    l->tokens = l->tokens > cost ? l->tokens - cost : 0;
    l->sent++;
}
