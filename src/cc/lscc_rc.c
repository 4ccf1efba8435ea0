/*
 * lscc_rc.c -- LSCC rate calculation (Alg. 1), the feedback field and the
 * §III-C parameter guideline (Eq. 12).  See lscc.h for the model.
 *
 * Arithmetic: rates are int64 b/s; a byte count over a period becomes a
 * rate through an exact 128-bit product (bytes · 8 · 10^12 / T_ps),
 * saturated at ±LSCC_RATE_LIMIT_BPS·16, so every sum of Alg. 1 stays inside
 * int64 (N ≤ 256 list entries of at most 2^49 each).
 */
#include "lscc.h"
#include "cc_util.h"

#include <stdio.h>
#include <string.h>

__extension__ typedef __int128 i128;

#define PS_PER_US   1000000ull
#define BITS_PS     8000000000000ull    /* 8 bit/byte · 10^12 ps/s */

/* §III-C "T": "we set T to 200us". */
#define LSCC_T_PS         (200 * PS_PER_US)
/* §IV-B: "both Qref and Q*ref are set to 2MB" (MB = 10^6 B, as the project's
 * other byte constants). */
#define LSCC_QREF_BYTES   2000000ull
/* §IV-B: "ΔR is set to 1Gbps". */
#define LSCC_DR_BPS       1000000000ull
/* Rmin: the paper gives no value.  Ours: 100 Mb/s, the DCQCN sources' own
 * floor (dcqcn.c PAPER_MIN_BPS), so a feedback rate never asks the
 * pseudo-queue for less than one source can go down to. */
#define LSCC_RMIN_BPS     100000000ull
/* ΔF: §III-B "Deployment" defines a minimum unit ΔF without a value.
 * Ours: 1 Mb/s, so a 24-bit field (LSCC_FB_BITS) reaches 16.7 Tb/s. */
#define LSCC_DF_BPS       1000000ull
/* Largest Qref accepted (2^40 B ≈ 1.1 TB): keeps (Q − Qref)·8·10^12 inside
 * 128 bits with room to spare.  Our bound. */
#define LSCC_QREF_LIMIT   (1ull << 40)
/* Saturation of a byte-derived rate term (ours, see the file comment). */
#define TERM_LIMIT        ((int64_t)(LSCC_RATE_LIMIT_BPS << 4))

uint32_t lscc_n_for(uint64_t one_way_ps, uint64_t period_ps)
{
    if (period_ps == 0)
        return 0;
    /* round(2D/T); 2D computed in 128 bits so no delay overflows. */
    __extension__ unsigned __int128 two_d = (unsigned __int128)one_way_ps * 2;
    __extension__ unsigned __int128 n = (two_d + period_ps / 2) / period_ps;
    if (n < 1)
        n = 1;
    if (n > UINT32_MAX)
        n = UINT32_MAX;
    return (uint32_t)n;
}

void lscc_rc_params_default(struct lscc_rc_params *p, uint64_t link_bps, uint64_t one_way_ps)
{
    memset(p, 0, sizeof *p);
    p->period_ps = LSCC_T_PS;
    p->n = lscc_n_for(one_way_ps, LSCC_T_PS);
    p->q_ref_bytes = LSCC_QREF_BYTES;
    p->dr_bps = LSCC_DR_BPS;
    p->f_unit_bps = LSCC_DF_BPS;
    p->r_max_bps = link_bps / LSCC_DF_BPS * LSCC_DF_BPS;
    p->r_min_bps = LSCC_RMIN_BPS < p->r_max_bps ? LSCC_RMIN_BPS : p->r_max_bps;
    p->r_init_bps = p->r_max_bps;
}

int lscc_rc_params_blame(const struct lscc_rc_params *p, unsigned *blame, char *why, size_t why_len)
{
    if (p->period_ps == 0)
        return lscc_fail(blame, LSCC_BLAME_PERIOD, why, why_len, "period (T) must be > 0");
    if (p->n < 1 || p->n > LSCC_MAX_N)
        return lscc_fail(blame, LSCC_BLAME_N, why, why_len,
                         "N = round(2D/T) must be in 1..256 (raise the period T or shorten the delay D)");
    if (p->f_unit_bps == 0)
        return lscc_fail(blame, LSCC_BLAME_DF, why, why_len, "feedback unit (dF) must be > 0");
    if (p->dr_bps == 0)
        return lscc_fail(blame, LSCC_BLAME_DR, why, why_len, "dR must be > 0");
    if (p->r_max_bps == 0)
        return lscc_fail(blame, LSCC_BLAME_RMAX, why, why_len, "rmax must be at least the feedback unit dF");
    if (p->r_max_bps > LSCC_RATE_LIMIT_BPS || p->dr_bps > LSCC_RATE_LIMIT_BPS)
        return lscc_fail(blame, (p->r_max_bps > LSCC_RATE_LIMIT_BPS ? LSCC_BLAME_RMAX : 0) |
                                (p->dr_bps > LSCC_RATE_LIMIT_BPS ? LSCC_BLAME_DR : 0),
                         why, why_len, "rmax and dR must be <= 2^48 b/s");
    if (p->dr_bps > p->r_max_bps)    /* one step past the whole range: R only swings between the ends */
        return lscc_fail(blame, LSCC_BLAME_DR | LSCC_BLAME_RMAX, why, why_len, "dR must be <= rmax");
    if (p->r_min_bps > p->r_max_bps)
        return lscc_fail(blame, LSCC_BLAME_RMIN | LSCC_BLAME_RMAX, why, why_len, "rmin must be <= rmax");
    if (p->r_init_bps < p->r_min_bps || p->r_init_bps > p->r_max_bps)
        return lscc_fail(blame, LSCC_BLAME_RINIT, why, why_len, "the initial rate must be in [rmin, rmax]");
    unsigned off = (p->r_min_bps % p->f_unit_bps ? LSCC_BLAME_RMIN : 0) | (p->r_max_bps % p->f_unit_bps ? LSCC_BLAME_RMAX : 0) |
                   (p->dr_bps % p->f_unit_bps ? LSCC_BLAME_DR : 0) | (p->r_init_bps % p->f_unit_bps ? LSCC_BLAME_RINIT : 0);
    if (off)
        return lscc_fail(blame, off, why, why_len,
                         "rmin, rmax, dR and the initial rate must be multiples of the feedback unit dF (1Mbps by default)");
    if (p->r_max_bps / p->f_unit_bps > LSCC_FB_MAX)
        return lscc_fail(blame, LSCC_BLAME_RMAX | LSCC_BLAME_DF, why, why_len,
                         "rmax / dF must fit the 24-bit feedback field (16.7Tbps at dF = 1Mbps)");
    if (p->q_ref_bytes > LSCC_QREF_LIMIT)
        return lscc_fail(blame, LSCC_BLAME_QREF, why, why_len, "qref must be <= 2^40 bytes");
    return 0;
}

int lscc_rc_params_check(const struct lscc_rc_params *p, char *why, size_t why_len)
{
    return lscc_rc_params_blame(p, NULL, why, why_len);
}

void lscc_rc_init(struct lscc_rc *rc, const struct lscc_rc_params *p)
{
    memset(rc, 0, sizeof *rc);
    rc->r_last = (int64_t)p->r_init_bps;
}

/* bytes · 8 / T as b/s, exact then truncated toward zero, saturated. */
static int64_t bytes_rate(i128 bytes, uint64_t period_ps)
{
    i128 r = bytes * (i128)BITS_PS / (i128)period_ps;
    if (r > TERM_LIMIT)
        return TERM_LIMIT;
    if (r < -TERM_LIMIT)
        return -TERM_LIMIT;
    return (int64_t)r;
}

uint64_t lscc_rc_update(struct lscc_rc *rc, const struct lscc_rc_params *p, uint64_t q_bytes, uint64_t egress_bytes)
{
    int64_t dr = (int64_t)p->dr_bps, rmin = (int64_t)p->r_min_bps, rmax = (int64_t)p->r_max_bps;
    int64_t br = bytes_rate((i128)egress_bytes, p->period_ps);
    if (br > (int64_t)LSCC_RATE_LIMIT_BPS)
        br = (int64_t)LSCC_RATE_LIMIT_BPS;
    /* Lines 1-3. */
    int64_t ra = bytes_rate((i128)q_bytes - (i128)p->q_ref_bytes, p->period_ps) - rc->ra_sum;
    int64_t r = br - ra;
    /* Lines 4-7: at most ΔR away from the last rate. */
    if (r - rc->r_last > dr) {
        r = rc->r_last + dr;
        rc->n_clamp_up++;
    } else if (rc->r_last - r > dr) {
        r = rc->r_last - dr;
        rc->n_clamp_down++;
    }
    /* Lines 8-11. */
    if (r < rmin) {
        r = rmin;
        rc->n_clamp_min++;
    } else if (r > rmax) {
        r = rmax;
        rc->n_clamp_max++;
    }
    /* The value the message carries (ΔF units); Rmin, Rmax, ΔR and R_last
     * are multiples of ΔF, so this only floors an unclamped R and keeps it
     * within [Rmin, Rmax]. */
    r = r / (int64_t)p->f_unit_bps * (int64_t)p->f_unit_bps;
    /* Lines 12-16: the list keeps the adjustment actually sent. */
    rc->r_last = r;
    rc->br_bps = br;
    rc->ra_bps = ra;
    int64_t sent = br - r;
    uint32_t n = p->n;
    if (rc->head >= n)
        rc->head = 0;
    rc->ra_sum += sent - rc->ra_list[rc->head];
    rc->ra_list[rc->head] = sent;
    rc->head = rc->head + 1 == n ? 0 : rc->head + 1;
    rc->n_updates++;
    return (uint64_t)r;
}

uint32_t lscc_rate_to_units(uint64_t bps, uint64_t f_unit_bps)
{
    uint64_t u = f_unit_bps ? bps / f_unit_bps : 0;
    return u > LSCC_FB_MAX ? LSCC_FB_MAX : (uint32_t)u;
}

uint64_t lscc_units_to_rate(uint32_t units, uint64_t f_unit_bps)
{
    if (units > LSCC_FB_MAX)
        units = LSCC_FB_MAX;
    return (uint64_t)units * f_unit_bps;
}

/* §III-C. */
unsigned lscc_guide_check(const struct lscc_rc_params *p, const struct lscc_guide *g,
                          struct lscc_guide_result *r, char *why, size_t why_len)
{
    typedef unsigned __int128 u128;
    __extension__ u128 np1 = (u128)p->n + 1;
    char buf[400];
    size_t k = 0;

    memset(r, 0, sizeof *r);
    buf[0] = '\0';
    /* Qref > ΔBR_max·(2D + T) = ΔBR_max·(N + 1)·T, in bytes. */
    __extension__ u128 qmin = (u128)g->dbr_max_bps * np1 * p->period_ps / BITS_PS;
    r->q_ref_min_bytes = qmin > UINT64_MAX ? UINT64_MAX : (uint64_t)qmin;
    if (g->dbr_max_bps && p->q_ref_bytes <= r->q_ref_min_bytes) {
        r->flags |= LSCC_GUIDE_QREF_LOW;
        k += (size_t)snprintf(buf + k, sizeof buf - k,
                              "qref %llu B <= dBR_max*(2D+T) = %llu B (the queue may empty under a rate drop); ",
                              (unsigned long long)p->q_ref_bytes, (unsigned long long)r->q_ref_min_bytes);
    }
    /* ΔR > ΔQ / (T·(N + 1)), in b/s. */
    if (p->period_ps) {
        __extension__ u128 lo = (u128)g->dq_bytes * BITS_PS / ((u128)p->period_ps * np1);
        r->dr_lo_bps = lo > UINT64_MAX ? UINT64_MAX : (uint64_t)lo;
    }
    if (g->dq_bytes && p->dr_bps <= r->dr_lo_bps && k < sizeof buf) {
        r->flags |= LSCC_GUIDE_DR_LOW;
        k += (size_t)snprintf(buf + k, sizeof buf - k,
                              "dR %llu b/s <= dQ/(T(N+1)) = %llu b/s (too weak to remove dQ in 2D); ",
                              (unsigned long long)p->dr_bps, (unsigned long long)r->dr_lo_bps);
    }
    /* ΔR < M·T·R_ai / T_i, in b/s. */
    r->dr_hi_bps = UINT64_MAX;
    if (g->t_i_ps) {
        __extension__ u128 hi = (u128)g->m_flows * p->period_ps * g->r_ai_bps / g->t_i_ps;
        r->dr_hi_bps = hi > UINT64_MAX ? UINT64_MAX : (uint64_t)hi;
    }
    if (g->m_flows && g->r_ai_bps && g->t_i_ps && p->dr_bps >= r->dr_hi_bps && k < sizeof buf) {
        r->flags |= LSCC_GUIDE_DR_HIGH;
        k += (size_t)snprintf(buf + k, sizeof buf - k,
                              "dR %llu b/s >= M*T*R_ai/T_i = %llu b/s (the sources cannot follow within T); ",
                              (unsigned long long)p->dr_bps, (unsigned long long)r->dr_hi_bps);
    }
    if (k >= 2 && k < sizeof buf)
        buf[k - 2] = '\0';               /* drop the last "; " */
    if (why && why_len) {
        size_t n = strlen(buf);
        if (n >= why_len)
            n = why_len - 1;
        memcpy(why, buf, n);
        why[n] = '\0';
    }
    return r->flags;
}
