/*
 * rocc_cp.c -- RoCC CP fair-rate calculator (Alg. 1, CoNEXT 2020 §3.2).
 *
 * CALCULATE_FAIR_RATE, one call per period T:
 *
 *   Qcur ≥ Qmax        and F > Fmax/8  ->  F = Fmin        (MD, line 3;
 *                                          F/2 with md_qmax = HALF)
 *   Qcur − Qold ≥ Qmid and F > Fmax/8  ->  F = F/2         (MD, line 5)
 *   otherwise                          ->  F = F − step    (PI, line 8)
 *   clamp F to [Fmin, Fmax]; Qold = Qcur                  (lines 9-13)
 *
 * All arithmetic is integer: F/2 and Fmax/8 truncate (F > 0, so this is a
 * shift); the PI step is explained in rocc_cp.h.  AUTO_TUNE looks at F
 * before the update, as in Alg. 1 where it is called on line 7.
 */
#include "rocc_cp.h"
#include "cc_util.h"

#include <string.h>

/* ΔQ = 600 B and ΔF = 10 Mb/s (§6, "System parameters"). */
#define Q_UNIT_BYTES 600u
#define F_UNIT_MBPS  10u
/* Fmin = 10 ΔF = 100 Mb/s "irrespective of link bandwidth" (§6). */
#define F_MIN_UNITS  10u
/* T = 40 µs (§6); T = 100 µs for the 10G DPDK testbed (§6.2). */
#define T_40US_PS    40000000ull
#define T_100US_PS   100000000ull
/* 40G: Qref/Qmid/Qmax = 150/300/360 KB (§6), KB = 1000 B as in the authors'
 * code (reference doc §1: `par(...) * 1000`). */
#define Q40_REF_B    150000u
#define Q40_MID_B    300000u
#define Q40_MAX_B    360000u
/* 100G: 300/600/660 KB (§6). */
#define Q100_REF_B   300000u
#define Q100_MID_B   600000u
#define Q100_MAX_B   660000u
/* 10G: 75/150/210 KB (§6.2). */
#define Q10_REF_B    75000u
#define Q10_MID_B    150000u
#define Q10_MAX_B    210000u
/* α̃, β̃ in Q16.16, rounded to nearest: 40G 0.3/1.5, 100G 0.45/2.25 (§6).
 * 10G reuses the 40G pair: §6.2 does not give one (our choice). */
#define A_030_Q16    19661u   /* round(0.30 · 65536) */
#define B_150_Q16    98304u   /* 1.50 · 65536        */
#define A_045_Q16    29491u   /* round(0.45 · 65536) */
#define B_225_Q16    147456u  /* 2.25 · 65536        */
/* MD guard F > Fmax/8 (Alg. 1 lines 2 and 4, §3.2). */
#define MD_GUARD_DIV 8
/* AUTO_TUNE: level starts at 2 and stops below 64, six regions (Alg. 1
 * lines 16-17, §3.2 "six distinct regions"). */
#define AT_LEVEL0    2u
#define AT_LEVEL_MAX 64u
/* Q16.16 scale of α̃/β̃ (our fixed-point format, see rocc_cp.h). */
#define Q16_ONE      65536

/* Link speeds (bit/s) of the paper's three profiles (§6, §6.2) and the
 * ratio midpoints between them used to pick the nearest one for other
 * speeds: √(10·40) G = 20 G, √(40·100) G ≈ 63.2455532 G (our choice). */
#define BPS_10G      10000000000ull
#define BPS_40G      40000000000ull
#define BPS_100G     100000000000ull
#define BPS_MID_10_40   20000000000ull
#define BPS_MID_40_100  63245553204ull

static uint32_t sat_u32(uint64_t v)
{
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

void rocc_cp_params_default(struct rocc_cp_params *p, uint64_t link_bps)
{
    uint64_t fmax;
    uint32_t qr, qm, qx;

    memset(p, 0, sizeof *p);
    p->q_unit_bytes = Q_UNIT_BYTES;
    p->f_unit_mbps = F_UNIT_MBPS;
    p->pi_round = ROCC_CP_ROUND_TRUNC;
    p->md_qmax = ROCC_CP_MDQ_FMIN;

    if (link_bps < BPS_MID_10_40) {
        p->alpha_q16 = A_030_Q16; p->beta_q16 = B_150_Q16;
        p->period_ps = T_100US_PS;
    } else if (link_bps < BPS_MID_40_100) {
        p->alpha_q16 = A_030_Q16; p->beta_q16 = B_150_Q16;
        p->period_ps = T_40US_PS;
    } else {
        p->alpha_q16 = A_045_Q16; p->beta_q16 = B_225_Q16;
        p->period_ps = T_40US_PS;
    }

    if (link_bps == BPS_10G) {
        qr = Q10_REF_B / Q_UNIT_BYTES; qm = Q10_MID_B / Q_UNIT_BYTES;
        qx = Q10_MAX_B / Q_UNIT_BYTES;
    } else if (link_bps == BPS_40G) {
        qr = Q40_REF_B / Q_UNIT_BYTES; qm = Q40_MID_B / Q_UNIT_BYTES;
        qx = Q40_MAX_B / Q_UNIT_BYTES;
    } else if (link_bps == BPS_100G) {
        qr = Q100_REF_B / Q_UNIT_BYTES; qm = Q100_MID_B / Q_UNIT_BYTES;
        qx = Q100_MAX_B / Q_UNIT_BYTES;
    } else {
        /* Linear in link rate from the 40G set; Mb/s first so the products
         * stay below 2^64 for any uint64 link_bps. */
        uint64_t mbps = link_bps / 1000000ull, m40 = BPS_40G / 1000000ull;
        qr = sat_u32(mbps * (Q40_REF_B / Q_UNIT_BYTES) / m40);
        qm = sat_u32(mbps * (Q40_MID_B / Q_UNIT_BYTES) / m40);
        qx = sat_u32(mbps * (Q40_MAX_B / Q_UNIT_BYTES) / m40);
        if (qr < 1) qr = 1;
        if (qm <= qr) qm = qr + 1;
        if (qx <= qm) qx = qm + 1;
    }
    p->q_ref = qr; p->q_mid = qm; p->q_max = qx;

    fmax = link_bps / ((uint64_t)F_UNIT_MBPS * 1000000ull);
    if (fmax < 1) fmax = 1;
    if (fmax > INT32_MAX) fmax = INT32_MAX;
    p->f_max = (uint32_t)fmax;
    p->f_min = p->f_max < F_MIN_UNITS ? p->f_max : F_MIN_UNITS;
    p->f_init = p->f_max;
}


int rocc_cp_params_check(const struct rocc_cp_params *p, char *why, size_t why_len)
{
    if (!p) return cc_fail(why, why_len, "params is NULL");
    if (p->q_unit_bytes == 0) return cc_fail(why, why_len, "q_unit_bytes must be > 0");
    if (p->f_unit_mbps == 0) return cc_fail(why, why_len, "f_unit_mbps must be > 0");
    if (p->q_ref == 0) return cc_fail(why, why_len, "q_ref must be > 0");
    if (p->q_mid <= p->q_ref) return cc_fail(why, why_len, "q_mid must be > q_ref");
    if (p->q_max <= p->q_mid) return cc_fail(why, why_len, "q_max must be > q_mid");
    if (p->f_min == 0) return cc_fail(why, why_len, "f_min must be > 0");
    if (p->f_max < p->f_min) return cc_fail(why, why_len, "f_max must be >= f_min");
    if (p->f_max > INT32_MAX) return cc_fail(why, why_len, "f_max must be <= INT32_MAX");
    if (p->period_ps == 0) return cc_fail(why, why_len, "period_ps must be > 0");
    if (p->f_init < p->f_min || p->f_init > p->f_max)
        return cc_fail(why, why_len, "f_init must be in [f_min, f_max]");
    if (p->alpha_q16 > ROCC_CP_MAX_GAIN_Q16)
        return cc_fail(why, why_len, "alpha_q16 must be <= 2^24 (256.0)");
    if (p->beta_q16 > ROCC_CP_MAX_GAIN_Q16)
        return cc_fail(why, why_len, "beta_q16 must be <= 2^24 (256.0)");
    if (p->pi_round != ROCC_CP_ROUND_TRUNC && p->pi_round != ROCC_CP_ROUND_AUTHORS)
        return cc_fail(why, why_len, "pi_round must be TRUNC or AUTHORS");
    if (p->md_qmax != ROCC_CP_MDQ_FMIN && p->md_qmax != ROCC_CP_MDQ_HALF)
        return cc_fail(why, why_len, "md_qmax must be FMIN or HALF");
    if (p->autotune_off > 1)
        return cc_fail(why, why_len, "autotune_off must be 0 or 1");
    return 0;
}

void rocc_cp_init(struct rocc_cp *cp, const struct rocc_cp_params *p)
{
    memset(cp, 0, sizeof *cp);
    cp->f = (int32_t)p->f_init;
    cp->q_old = 0;
}

uint32_t rocc_cp_autotune_ratio(int32_t f, uint32_t f_max)
{
    uint32_t level = AT_LEVEL0;

    while ((int64_t)f < (int64_t)(f_max / level) && level < AT_LEVEL_MAX)
        level *= 2;
    return level / 2;
}

uint32_t rocc_cp_compute(const struct rocc_cp_params *p, int32_t f_in, uint32_t qcur, uint32_t q_old,
                         struct rocc_cp_step *st)
{
    int64_t f = f_in;
    int64_t guard = (int64_t)(p->f_max / MD_GUARD_DIV);
    int64_t dq = (int64_t)qcur - (int64_t)q_old;
    struct rocc_cp_step s = { ROCC_CP_BR_PI, 0, 0 };

    if (qcur >= p->q_max && f > guard) {
        if (p->md_qmax == ROCC_CP_MDQ_HALF) {
            f = f / 2;
            s.branch = ROCC_CP_BR_MDQ_HALF;
        } else {
            f = p->f_min;
            s.branch = ROCC_CP_BR_MDQ_FMIN;
        }
    } else if (dq >= (int64_t)p->q_mid && f > guard) {
        f = f / 2;
        s.branch = ROCC_CP_BR_MD_HALF;
    } else {
        uint32_t ratio = p->autotune_off ? 1 : rocc_cp_autotune_ratio(f_in, p->f_max);
        int64_t num = (int64_t)p->alpha_q16 * ((int64_t)qcur - (int64_t)p->q_ref)
                    + (int64_t)p->beta_q16 * dq;
        int64_t den = (int64_t)Q16_ONE * ratio;
        int64_t step = num / den;              /* truncates toward zero */

        if (p->pi_round == ROCC_CP_ROUND_AUTHORS && num > 0 && num % den != 0)
            step += 1;                         /* ceil(step): F − step floors */
        f -= step;
        s.ratio = ratio;
    }

    if (f > (int64_t)p->f_max) {
        f = p->f_max;
        s.clamp = 1;
    }
    if (f < (int64_t)p->f_min) {
        f = p->f_min;
        s.clamp = 2;
    }
    if (st)
        *st = s;
    return (uint32_t)f;
}

uint32_t rocc_cp_qunits(const struct rocc_cp_params *p, uint64_t queue_bytes)
{
    return sat_u32(queue_bytes / p->q_unit_bytes);
}

uint32_t rocc_cp_update(struct rocc_cp *cp, const struct rocc_cp_params *p, uint64_t queue_bytes)
{
    uint32_t qcur = rocc_cp_qunits(p, queue_bytes);
    struct rocc_cp_step s;
    uint32_t f = rocc_cp_compute(p, cp->f, qcur, cp->q_old, &s);

    switch (s.branch) {
    case ROCC_CP_BR_MDQ_FMIN: cp->n_md_qmax++; cp->n_md_fmin++; break;
    case ROCC_CP_BR_MDQ_HALF: cp->n_md_qmax++; cp->n_md_half++; break;
    case ROCC_CP_BR_MD_HALF:  cp->n_md_half++; break;
    default:                  cp->n_pi++; break;
    }
    cp->last_ratio = s.ratio;
    if (s.clamp == 1) cp->n_clamp_max++;
    if (s.clamp == 2) cp->n_clamp_min++;
    cp->q_old = qcur;                          /* line 13 */
    cp->f = (int32_t)f;
    cp->n_updates++;
    return f;
}
