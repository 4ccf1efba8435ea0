/*
 * qcn.c -- QCN congestion point and reaction point (IEEE 802.1Qau; Alizadeh
 * et al., Allerton 2008, §II).  Model and API in qcn.h.
 *
 * Readings and choices (all documented where the code does them):
 *  - Quantization: fb_q = ⌊|Fb|·63/Fb_max⌋ capped at 63, the formula of
 *    the 802.1Qau CP as vendor manuals state it (e.g. HPE FlexFabric 5940
 *    QCN configuration guide: "QntzFb = −Fb×63/(Qeq×(2w+1)), 63 if
 *    Fb < −Qeq(2w+1)").  A sample whose |Fb| quantizes to 0 sends nothing
 *    (a CNM with zero feedback would not lower the rate but would reset the
 *    RP's increase stages); the public NetFPGA/Linux QCN CP does the same
 *    ("if (qntz_Fb > 0) generate_fb_frame").
 *  - Sampling: the paper's CP samples "with a probability that depends on
 *    |Fb|", from 1% (no congestion) to 10% (|Fb| = Fb_max) (§II, its
 *    sampling-probability figure).
 *    We read the curve as linear in the quantized |Fb| (QCN_SAMPLE_LINEAR,
 *    default); QCN_SAMPLE_TABLE is the standard's 8-step byte-interval
 *    table.  The standard counts bytes between samples; a probability
 *    per packet with the caller's u01 has the same mean and needs no
 *    per-queue byte state.  The probability for a packet is set
 *    by the |Fb| of the previous sample (the standard picks the next
 *    sampling interval at each sample).
 *  - RP integer rounding: the decrease floors CR·fb_q/gd_den (so CR ends
 *    up rounded up); CR ← (CR + TR)/2 rounds half up, so that CR reaches TR
 *    exactly (with flooring CR would stop one bit/s below TR and never
 *    release the limiter).  CR ≤ TR always holds.
 *  - No randomization of the byte-counter threshold and no rpgMinDecFac
 *    (802.1Qau managed objects, Linux dcbnl.h) are modelled; rate-limiter release happens when CR
 *    reaches the line rate (the standard also requires an empty RL queue,
 *    which this module cannot see; the sending rate is the line rate
 *    either way).
 */
#include "qcn.h"
#include "cc_util.h"

#include <string.h>

/* ---- CP constants ----------------------------------------------------- */
/* Q_eq = 26 KB: 802.1Qau cpQSp (CP set point) default, 26 000 octets (?)
 * -- from the standard's managed-object defaults as commonly quoted; the
 * public texts we could read do not state it.  Make it a parameter. */
#define CP_QEQ_BYTES        26000ull
/* w = 2 "for the baseline implementation" (paper §II; 802.1Qau cpW). */
#define CP_W                2u
/* Sampling probability 1%..10% (paper §II, sampling-probability figure). */
#define CP_P_MIN            0.01
#define CP_P_MAX            0.10
/* 802.1Qau sampling intervals indexed by fb_q >> 3, in units of 100 B:
 * 150, 75, 50, 37.5, 30, 25, 21.5, 18.5 KB (NetFPGA/Linux QCN CP
 * qcn_mark_table, there in KiB: 153600 ... 18944).  p = 1%·150 KB/interval. */
static const uint32_t cp_table_100b[8] = { 1500, 750, 500, 375, 300, 250, 215, 185 };
/* Largest accepted Q_eq and w: keep (1+2w)·Q_eq and every Fb product far
 * inside int64 (2^40 · 129 < 2^48); our limits, not the paper's. */
#define CP_QEQ_MAX          (1ull << 40)
#define CP_W_MAX            64u
#define CP_Q_SAT            (1ull << 52)   /* queue lengths saturate here */
/* Both profiles keep Q_eq = 26 KB at every link speed.  Scaling it with
 * the link (104 KB at 40G) made the closed-loop toy of test_qcn.c swing
 * between an empty queue and ~2·Q_eq at 95% utilization (200 KB: 4·Q_eq,
 * 92%): the flows reach hyper-active increase while Q < Q_eq and
 * overshoot.  With 26 KB the same toy holds the queue near Q_eq at full
 * utilization on 10G and 40G. */

/* ---- RP constants ----------------------------------------------------- */
/* BC_LIMIT = 150 KB (100 frames of 1500 B) per fast-recovery cycle (paper
 * §II; 802.1Qau rpgByteReset). */
#define RP_BC_LIMIT         150000ull
/* T = 10 ms per fast-recovery cycle (paper §II baseline). */
#define RP_T_PAPER_PS       10000000000ull
/* DC profile: T = 300 µs, the rate-increase timer run.py gives the QCN-
 * derived DCQCN RP in the HPCC simulator (reference-implementations.md §2,
 * "dcqcn: 1/4/300 µs"); 10 ms would keep a 10-40G flow in fast recovery
 * for 50 ms.  The RdmaHw attribute default is 1500 µs (same section). */
#define RP_T_DC_PS          300000000ull
/* Five fast-recovery cycles (paper §II; 802.1Qau rpgThreshold; HPCC
 * simulator FastRecoveryTimes 5, reference §2). */
#define RP_FR_CYCLES        5u
/* After fast recovery the byte counter counts BC_LIMIT/2 (50 frames) and
 * the timer T/2 (paper §II (?): our reading of the paper, not confirmed by
 * the public summaries we could consult; ai_halve = 0 turns it off). */
#define RP_AI_HALVE         1u
/* G_d·Fb_max = 1/2: at most a 50% cut; with the 6-bit |Fb| scale (2^6)
 * G_d = 1/128 (paper §II; 802.1Qau rpgGd is log2 of a power of two,
 * Linux dcbnl.h struct ieee_qcn).  fb_q ≤ 63 so the largest cut is
 * 63/128 = 49.2%. */
#define RP_GD_DEN           128u
/* R_AI = 5 Mb/s, R_HAI = 50 Mb/s (paper §II; 802.1Qau rpgAiRate,
 * rpgHaiRate). */
#define RP_R_AI_BPS         5000000ull
#define RP_R_HAI_BPS        50000000ull
/* DC profile: R_AI = 5·bw/25 Mb/s, R_HAI = 50·bw/25 Mb/s, run.py's scaling
 * of the same QCN increments for DCQCN in the HPCC simulator (reference §2,
 * "AI = 5·bw/25 Mbps, HAI = 50·bw/25 Mbps"). */
#define BPS_25G             25000000000ull
/* Minimum rate after a decrease: 10 Mb/s (our choice for PAPER: 802.1Qau
 * has rpgMinRate, we could not read its default); DC: 100 Mb/s, the HPCC
 * simulator's RdmaHw MinRate (reference §2). */
#define RP_MIN_PAPER_BPS    10000000ull
#define RP_MIN_DC_BPS       100000000ull


/* now + d, saturating below UINT64_MAX (which means "no timer"). */
static uint64_t deadline_after(uint64_t now, uint64_t d)
{
    if (now >= UINT64_MAX - 1 || d >= UINT64_MAX - 1 - now)
        return UINT64_MAX - 1;
    return now + d;
}

/* ⌊a·b/c⌋ exactly, provided (a/c)·b and c·b fit in 64 bits (always so
 * for the rates, byte counts and gains used here). */
static uint64_t mul_div(uint64_t a, uint64_t b, uint64_t c)
{
    return (a / c) * b + (a % c) * b / c;
}

/* ===================================================================== CP */

void qcn_cp_params_default(struct qcn_cp_params *p, uint64_t line_bps, int profile)
{
    memset(p, 0, sizeof *p);
    (void)line_bps; (void)profile;
    p->q_eq_bytes = CP_QEQ_BYTES;
    p->w = CP_W;
    p->sample_mode = QCN_SAMPLE_LINEAR;
    p->p_min = CP_P_MIN;
    p->p_max = CP_P_MAX;
}

int qcn_cp_params_check(const struct qcn_cp_params *p, char *why, size_t why_len)
{
    if (!p) return cc_fail(why, why_len, "params is NULL");
    if (p->q_eq_bytes == 0) return cc_fail(why, why_len, "q_eq_bytes must be > 0");
    if (p->q_eq_bytes > CP_QEQ_MAX) return cc_fail(why, why_len, "q_eq_bytes must be <= 2^40");
    if (p->w < 1 || p->w > CP_W_MAX) return cc_fail(why, why_len, "w must be in [1, 64]");
    if (p->sample_mode != QCN_SAMPLE_LINEAR && p->sample_mode != QCN_SAMPLE_TABLE)
        return cc_fail(why, why_len, "sample_mode must be LINEAR or TABLE");
    if (!(p->p_min > 0.0 && p->p_min <= p->p_max && p->p_max <= 1.0))
        return cc_fail(why, why_len, "need 0 < p_min <= p_max <= 1");
    return 0;
}

void qcn_cp_init(struct qcn_cp *cp, const struct qcn_cp_params *p)
{
    (void)p;
    memset(cp, 0, sizeof *cp);
}

double qcn_cp_sample_prob(const struct qcn_cp_params *p, uint8_t fb_q)
{
    if (fb_q > QCN_FB_MAX_Q) fb_q = QCN_FB_MAX_Q;
    if (p->sample_mode == QCN_SAMPLE_TABLE)
        return 0.01 * 1500.0 / (double)cp_table_100b[fb_q >> 3];
    return p->p_min + (p->p_max - p->p_min) * (double)fb_q / (double)QCN_FB_MAX_Q;
}

int64_t qcn_cp_fb(const struct qcn_cp_params *p, uint64_t q, uint64_t q_old)
{
    int64_t qc = (int64_t)(q > CP_Q_SAT ? CP_Q_SAT : q);
    int64_t qo = (int64_t)(q_old > CP_Q_SAT ? CP_Q_SAT : q_old);
    int64_t q_off = qc - (int64_t)p->q_eq_bytes;
    int64_t q_delta = qc - qo;

    return -(q_off + (int64_t)p->w * q_delta);
}

uint8_t qcn_cp_quantize(const struct qcn_cp_params *p, int64_t fb)
{
    uint64_t mag, fb_max;

    if (fb >= 0) return 0;
    mag = (uint64_t)(-fb);
    fb_max = (1ull + 2ull * p->w) * p->q_eq_bytes;
    if (mag >= fb_max) return (uint8_t)QCN_FB_MAX_Q;
    return (uint8_t)(mag * QCN_FB_MAX_Q / fb_max);   /* mag < 2^55: no overflow */
}

int qcn_cp_on_packet(struct qcn_cp *cp, const struct qcn_cp_params *p,
                     uint64_t qbytes, double u01, uint8_t *fb_q)
{
    int64_t fb;
    uint8_t q;

    cp->n_packets++;
    if (!(u01 < qcn_cp_sample_prob(p, cp->last_fb_q)))
        return 0;
    cp->n_samples++;
    fb = qcn_cp_fb(p, qbytes, cp->q_old);
    cp->q_old = qbytes > CP_Q_SAT ? CP_Q_SAT : qbytes;
    cp->last_fb = fb;
    q = qcn_cp_quantize(p, fb);
    cp->last_fb_q = q;
    if (fb >= 0) {
        cp->n_fb_nonneg++;
        return 0;
    }
    if (q == 0) {
        cp->n_fb_zero++;
        return 0;
    }
    if (q == QCN_FB_MAX_Q) cp->n_fb_sat++;
    cp->n_fb_sent++;
    if (fb_q) *fb_q = q;
    return 1;
}

/* ===================================================================== RP */

void qcn_rp_params_default(struct qcn_rp_params *p, uint64_t line_bps, int profile)
{
    memset(p, 0, sizeof *p);
    p->bc_limit_bytes = RP_BC_LIMIT;
    p->fr_cycles = RP_FR_CYCLES;
    p->ai_halve = RP_AI_HALVE;
    p->gd_den = RP_GD_DEN;
    if (profile == QCN_PROFILE_DC) {
        uint64_t mbps = line_bps / 1000000ull, m25 = BPS_25G / 1000000ull;
        p->timer_ps = RP_T_DC_PS;
        p->r_ai_bps = mul_div(mbps, RP_R_AI_BPS, m25);
        p->r_hai_bps = mul_div(mbps, RP_R_HAI_BPS, m25);
        if (p->r_ai_bps == 0) p->r_ai_bps = 1;
        if (p->r_hai_bps < p->r_ai_bps) p->r_hai_bps = p->r_ai_bps;
        p->min_rate_bps = RP_MIN_DC_BPS;
    } else {
        p->timer_ps = RP_T_PAPER_PS;
        p->r_ai_bps = RP_R_AI_BPS;
        p->r_hai_bps = RP_R_HAI_BPS;
        p->min_rate_bps = RP_MIN_PAPER_BPS;
    }
    if (line_bps > 0 && p->min_rate_bps > line_bps)
        p->min_rate_bps = line_bps;
}

int qcn_rp_params_check(const struct qcn_rp_params *p, char *why, size_t why_len)
{
    if (!p) return cc_fail(why, why_len, "params is NULL");
    if (p->bc_limit_bytes < 2) return cc_fail(why, why_len, "bc_limit_bytes must be >= 2");
    if (p->timer_ps < 2) return cc_fail(why, why_len, "timer_ps must be >= 2");
    if (p->fr_cycles < 1) return cc_fail(why, why_len, "fr_cycles must be >= 1");
    if (p->ai_halve > 1) return cc_fail(why, why_len, "ai_halve must be 0 or 1");
    if (p->gd_den <= QCN_FB_MAX_Q) return cc_fail(why, why_len, "gd_den must be > 63");
    if (p->r_hai_bps < p->r_ai_bps) return cc_fail(why, why_len, "r_hai_bps must be >= r_ai_bps");
    if (p->min_rate_bps == 0) return cc_fail(why, why_len, "min_rate_bps must be > 0");
    return 0;
}

void qcn_rp_init(struct qcn_rp *s, const struct qcn_rp_params *p, uint64_t line_bps, uint64_t now_ps)
{
    (void)now_ps;
    memset(s, 0, sizeof *s);
    s->line_bps = line_bps;
    s->cr_bps = line_bps;
    s->tr_bps = line_bps;
    s->bc_left = p->bc_limit_bytes;
    s->deadline_ps = UINT64_MAX;
    s->limited = 0;
}

/* Cycle lengths: full during fast recovery (stage < FR), halved after. */
static uint64_t bc_cycle(const struct qcn_rp_params *p, uint32_t stage)
{
    return (p->ai_halve && stage >= p->fr_cycles) ? p->bc_limit_bytes / 2 : p->bc_limit_bytes;
}

static uint64_t timer_cycle(const struct qcn_rp_params *p, uint32_t stage)
{
    return (p->ai_halve && stage >= p->fr_cycles) ? p->timer_ps / 2 : p->timer_ps;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

/* One increase step after a counter's stage was incremented. */
static void rp_increase(struct qcn_rp *s, const struct qcn_rp_params *p)
{
    uint32_t lo = s->bc_stage < s->t_stage ? s->bc_stage : s->t_stage;
    uint32_t hi = s->bc_stage < s->t_stage ? s->t_stage : s->bc_stage;

    if (hi > p->fr_cycles) {
        if (lo > p->fr_cycles) {                       /* hyper-active increase */
            uint64_t k = lo - p->fr_cycles;
            uint64_t inc = k > UINT64_MAX / (p->r_hai_bps ? p->r_hai_bps : 1)
                         ? UINT64_MAX : k * p->r_hai_bps;
            s->tr_bps = sat_add(s->tr_bps, inc);
            s->n_hai++;
        } else {                                       /* active increase */
            s->tr_bps = sat_add(s->tr_bps, p->r_ai_bps);
            s->n_ai++;
        }
    } else {
        s->n_fr++;                                     /* fast recovery */
    }
    if (s->tr_bps > s->line_bps) s->tr_bps = s->line_bps;
    /* CR ← (CR + TR)/2, half up; CR <= TR so TR − CR does not underflow. */
    s->cr_bps += (s->tr_bps - s->cr_bps + 1) / 2;
    if (s->cr_bps >= s->line_bps) {                    /* release the limiter */
        s->cr_bps = s->tr_bps = s->line_bps;
        s->limited = 0;
        s->deadline_ps = UINT64_MAX;
        s->bc_left = p->bc_limit_bytes;
        s->n_released++;
    }
}

int qcn_rp_on_feedback(struct qcn_rp *s, const struct qcn_rp_params *p, uint8_t fb_q, uint64_t now_ps)
{
    uint64_t cut;

    if (fb_q == 0) {
        s->n_fb_ignored++;
        return 0;
    }
    if (fb_q > QCN_FB_MAX_Q) fb_q = QCN_FB_MAX_Q;
    s->n_fb++;
    s->tr_bps = s->cr_bps;                             /* TR ← CR */
    cut = mul_div(s->cr_bps, fb_q, p->gd_den);         /* ⌊CR·G_d·fb_q⌋ */
    s->cr_bps -= cut;
    if (s->cr_bps < p->min_rate_bps) {
        s->cr_bps = p->min_rate_bps;
        if (s->tr_bps < s->cr_bps) s->tr_bps = s->cr_bps;
        s->n_min_clamp++;
    }
    s->limited = 1;
    s->bc_stage = s->t_stage = 0;
    s->bc_left = p->bc_limit_bytes;
    s->deadline_ps = deadline_after(now_ps, p->timer_ps);
    if (s->cr_bps >= s->line_bps) {       /* cut of 0 at line rate (tiny CR): nothing to limit */
        s->cr_bps = s->tr_bps = s->line_bps;
        s->limited = 0;
        s->deadline_ps = UINT64_MAX;
    }
    return 1;
}

void qcn_rp_on_sent(struct qcn_rp *s, const struct qcn_rp_params *p, uint64_t bytes, uint64_t now_ps)
{
    (void)now_ps;
    while (s->limited && bytes > 0) {
        if (bytes < s->bc_left) {
            s->bc_left -= bytes;
            return;
        }
        bytes -= s->bc_left;
        if (s->bc_stage < UINT32_MAX) s->bc_stage++;
        s->bc_left = bc_cycle(p, s->bc_stage);
        s->n_bc_cycles++;
        rp_increase(s, p);
    }
}

void qcn_rp_on_timer(struct qcn_rp *s, const struct qcn_rp_params *p, uint64_t now_ps)
{
    if (!s->limited || now_ps < s->deadline_ps)
        return;
    if (s->t_stage < UINT32_MAX) s->t_stage++;
    s->deadline_ps = deadline_after(now_ps, timer_cycle(p, s->t_stage));
    s->n_timer_cycles++;
    rp_increase(s, p);
}

uint64_t qcn_rp_deadline(const struct qcn_rp *s)
{
    return s->limited ? s->deadline_ps : UINT64_MAX;
}

uint64_t qcn_rp_rate_bps(const struct qcn_rp *s)
{
    return s->cr_bps;
}

enum qcn_rp_phase qcn_rp_phase(const struct qcn_rp *s, const struct qcn_rp_params *p)
{
    uint32_t lo = s->bc_stage < s->t_stage ? s->bc_stage : s->t_stage;
    uint32_t hi = s->bc_stage < s->t_stage ? s->t_stage : s->bc_stage;

    if (!s->limited) return QCN_RP_UNLIMITED;
    if (hi <= p->fr_cycles) return QCN_RP_FR;
    return lo > p->fr_cycles ? QCN_RP_HAI : QCN_RP_AI;
}
