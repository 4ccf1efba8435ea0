/*
 * dcqcn.c -- DCQCN RP/NP/CP (SIGCOMM'15), with the HPCC simulator's
 * Mellanox variant as a profile (reference-implementations.md §2).
 *
 *   inactive --first CNP--> active: α = 1, grids start at this time
 *   CNP (interval 0)        -> decrease now
 *   CNP (interval > 0)      -> decrease at the next check-grid point > now
 *   decrease                -> RT ← RC (see clamp rule), RC ← RC(1−α/2),
 *                              counters reset, increase timer = t + T
 *   increase timer / B bytes-> one increase event (enum dcqcn_inc_rule)
 *   RC = RT = line rate     -> increase timer off until the next decrease
 *
 * Lazy α.  ON_CNP: α decays once per full K since the last CNP (the decay
 * timer is restarted by each CNP), so at time t it is α·(1−g)^⌊(t−ref)/K⌋.
 * PERIODIC: updates fall on the grid first_cnp + k·K; the first one after a
 * CNP adds g, the rest only decay.  A grid point equal to a CNP's arrival
 * time is processed before the CNP, and the decrease check whose time equals
 * a CNP's arrival ignores it (ns-3 runs the earlier-scheduled timer first).
 * The simulator offsets the decrease grid by 1 ns so that an α update at
 * the same time runs first; we get the same order by applying α grid
 * points <= t before the check at t, without the 1 ns.
 */
#include "dcqcn.h"
#include "cc_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PS_PER_US         1000000ull
#define NONE              UINT64_MAX

/* SIGCOMM'15 §3 / CoNEXT'16 §3.1 parameter table and fluid model
 * (jitupadhye-zz/rdma fluidmodel/dcqcn/dcqcn_pi.m):
 * g = 1/256, K = τ' = 55 µs, T = 55 µs, B = 10 MB, F = 5, R_AI = 40 Mb/s,
 * CNP timer N = τ = 50 µs. */
#define PAPER_G           (1.0 / 256.0)
#define PAPER_K_PS        (55 * PS_PER_US)
#define PAPER_T_PS        (55 * PS_PER_US)
#define PAPER_B_BYTES     10000000ull
#define PAPER_F           5u
#define PAPER_RAI_BPS     40000000ull
#define PAPER_CNP_PS      (50 * PS_PER_US)
/* R_HAI: the DCQCN authors' ns-3 simulator (bobzhuyb/ns3-rdma,
 * mix/config.txt: RATE_HAI 200Mb/s; the same file has RATE_AI 40Mb/s). */
#define PAPER_RHAI_BPS    200000000ull
/* Rmin: the paper gives none; HPCC simulator RdmaHw MinRate 100 Mb/s. */
#define PAPER_MIN_BPS     100000000ull
/* RED at 40 G: Kmin 5 KB, Kmax 200 KB, Pmax 1% (SIGCOMM'15; CoNEXT'16
 * fluid model Kmin 5e3 B; RoCC authors' DCQCN MIN_TH/MAX_TH/MAX_P). */
#define PAPER_KMIN_B      5000ull
#define PAPER_KMAX_B      200000ull
#define PAPER_PMAX        0.01

/* HPCC simulator, run.py "dcqcn" (reference-implementations.md §2):
 * ALPHA_RESUME_INTERVAL 1 µs, RATE_DECREASE_INTERVAL 4 µs, RP_TIMER 300 µs,
 * EWMA_GAIN 1/256, FAST_RECOVERY_TIMES 1, RATE_AI 5·bw/25 Mb/s = line/5000,
 * RATE_HAI 50·bw/25 Mb/s = line/500, MIN_RATE 1000 Mb/s, CLAMP_TARGET_RATE
 * 0, RateOnFirstCnp 1.0; "dcqcn_paper": 50 / 50 / 55 µs. */
#define SIM_G             (1.0 / 256.0)
#define SIM_ALPHA_PS      (1 * PS_PER_US)
#define SIM_DEC_PS        (4 * PS_PER_US)
#define SIM_TIMER_PS      (300 * PS_PER_US)
#define SIMP_ALPHA_PS     (50 * PS_PER_US)
#define SIMP_DEC_PS       (50 * PS_PER_US)
#define SIMP_TIMER_PS     (55 * PS_PER_US)
#define SIM_F             1u
#define SIM_RAI_DIV       5000ull     /* 5·bw/25 Mb/s = line_bps / 5000 */
#define SIM_RHAI_DIV      500ull      /* 50·bw/25 Mb/s = line_bps / 500 */
#define SIM_MIN_BPS       1000000000ull
#define SIM_FIRST_CNP     1.0
/* Kmin = 100·bw/25 KB = 4·bw KB = 4000·bw B = line_bps·4000/1e9 B
 * = line_bps/250000 B; Kmax = 4·Kmin; Pmax 0.2. */
#define SIM_KMIN_DIV      250000ull
#define SIM_KMAX_MUL      4ull
#define SIM_PMAX          0.2

/* Largest rate step accepted: rates are doubles, keep steps exact. */
#define MAX_STEP_BPS      (1ull << 53)

static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return (b >= NONE - 1 - a || a >= NONE - 1) ? NONE - 1 : a + b;
}

void dcqcn_params_default(struct dcqcn_params *p, uint64_t line_bps, enum dcqcn_profile profile)
{
    memset(p, 0, sizeof *p);
    if (profile == DCQCN_PROFILE_HPCC_SIM || profile == DCQCN_PROFILE_HPCC_SIM_PAPER) {
        int pap = profile == DCQCN_PROFILE_HPCC_SIM_PAPER;
        p->profile = (uint32_t)profile;
        p->alpha_mode = DCQCN_ALPHA_PERIODIC;
        p->inc_rule = DCQCN_INC_MLX;
        p->g = SIM_G;
        p->alpha_interval_ps = pap ? SIMP_ALPHA_PS : SIM_ALPHA_PS;
        p->rate_decrease_interval_ps = pap ? SIMP_DEC_PS : SIM_DEC_PS;
        p->timer_ps = pap ? SIMP_TIMER_PS : SIM_TIMER_PS;
        p->byte_counter = 0;
        p->fast_recovery = SIM_F;
        p->r_ai_bps = line_bps / SIM_RAI_DIV;
        p->r_hai_bps = line_bps / SIM_RHAI_DIV;
        p->min_rate_bps = SIM_MIN_BPS;
        p->clamp_target_rate = 0;
        p->rate_on_first_cnp = SIM_FIRST_CNP;
        p->cnp_interval_ps = 0;
        return;
    }
    p->profile = DCQCN_PROFILE_PAPER;
    p->alpha_mode = DCQCN_ALPHA_ON_CNP;
    p->inc_rule = DCQCN_INC_QCN;
    p->g = PAPER_G;
    p->alpha_interval_ps = PAPER_K_PS;
    p->rate_decrease_interval_ps = 0;
    p->timer_ps = PAPER_T_PS;
    p->byte_counter = PAPER_B_BYTES;
    p->fast_recovery = PAPER_F;
    p->r_ai_bps = PAPER_RAI_BPS;
    p->r_hai_bps = PAPER_RHAI_BPS;
    p->min_rate_bps = PAPER_MIN_BPS;
    p->clamp_target_rate = 1;
    p->rate_on_first_cnp = 1.0;
    p->cnp_interval_ps = PAPER_CNP_PS;
}


int dcqcn_params_check(const struct dcqcn_params *p, char *why, size_t why_len)
{
    if (!(p->g > 0.0 && p->g <= 1.0))
        return cc_fail(why, why_len, "g must be in (0, 1]");
    if (p->alpha_mode != DCQCN_ALPHA_ON_CNP && p->alpha_mode != DCQCN_ALPHA_PERIODIC)
        return cc_fail(why, why_len, "unknown alpha_mode");
    if (p->inc_rule != DCQCN_INC_QCN && p->inc_rule != DCQCN_INC_MLX)
        return cc_fail(why, why_len, "unknown inc_rule");
    if (p->alpha_interval_ps == 0)
        return cc_fail(why, why_len, "alpha_interval_ps must be > 0");
    if (p->timer_ps == 0)
        return cc_fail(why, why_len, "timer_ps must be > 0");
    if (p->inc_rule == DCQCN_INC_MLX && p->byte_counter != 0)
        return cc_fail(why, why_len, "byte_counter must be 0 with DCQCN_INC_MLX");
    if (p->r_ai_bps > MAX_STEP_BPS || p->r_hai_bps > MAX_STEP_BPS)
        return cc_fail(why, why_len, "r_ai_bps/r_hai_bps must be <= 2^53");
    if (p->min_rate_bps == 0)
        return cc_fail(why, why_len, "min_rate_bps must be > 0");
    if (!(p->rate_on_first_cnp > 0.0 && p->rate_on_first_cnp <= 1.0))
        return cc_fail(why, why_len, "rate_on_first_cnp must be in (0, 1]");
    return 0;
}

void dcqcn_init(struct dcqcn *s, const struct dcqcn_params *p, uint64_t line_bps, uint64_t now_ps)
{
    (void)p; (void)now_ps;
    memset(s, 0, sizeof *s);
    s->line_bps = line_bps;
    s->rc = s->rt = (double)line_bps;
    s->alpha = 1.0;
    s->alpha_ref_ps = NONE;
    s->inc_deadline_ps = NONE;
    s->dec_origin_ps = NONE;
    s->dec_deadline_ps = NONE;
}

/* α with the updates due at or before t applied, written to *ref. */
static double alpha_at(const struct dcqcn *s, const struct dcqcn_params *p, uint64_t t, uint64_t *ref)
{
    double a = s->alpha;
    uint64_t r = s->alpha_ref_ps, k = p->alpha_interval_ps, n;

    if (!s->active || r == NONE) {
        *ref = r;
        return a;
    }
    if (p->alpha_mode == DCQCN_ALPHA_ON_CNP) {
        if (t > r) {
            n = (t - r) / k;
            a *= pow(1.0 - p->g, (double)n);
            r += n * k;
        }
    } else if (r <= t) {
        a = (1.0 - p->g) * a + (s->alpha_cnp ? p->g : 0.0);   /* first update */
        r += k;
        if (r <= t) {
            n = (t - r) / k + 1;
            a *= pow(1.0 - p->g, (double)n);
            r += n * k;
        }
    }
    *ref = r;
    return a;
}

static void alpha_advance(struct dcqcn *s, const struct dcqcn_params *p, uint64_t t)
{
    uint64_t ref;
    double a = alpha_at(s, p, t, &ref);

    if (p->alpha_mode == DCQCN_ALPHA_PERIODIC && ref != s->alpha_ref_ps)
        s->alpha_cnp = 0;
    s->alpha = a;
    s->alpha_ref_ps = ref;
}

/* Clamp to the line rate; RC within 1 b/s of it is snapped to it (so
 * that recovery ends after finitely many halvings of the gap). */
static void clamp_rates(struct dcqcn *s)
{
    double line = (double)s->line_bps;

    if (s->rt > line) s->rt = line;
    if (s->rc > line - 1.0) s->rc = line;
}

static int recovered(const struct dcqcn *s)
{
    return s->rc >= (double)s->line_bps && s->rt >= (double)s->line_bps;
}

/* Rate decrease at time t with the current α. */
static void decrease(struct dcqcn *s, const struct dcqcn_params *p, uint64_t t)
{
    double floor_bps = (double)p->min_rate_bps;

    if (floor_bps > (double)s->line_bps)
        floor_bps = (double)s->line_bps;
    if (p->clamp_target_rate || (s->t_cnt | s->bc_cnt) != 0)
        s->rt = s->rc;
    s->rc = s->rc * (1.0 - s->alpha / 2.0);
    if (s->rc < floor_bps)
        s->rc = floor_bps;
    s->t_cnt = s->bc_cnt = 0;
    s->bytes = 0;
    s->inc_deadline_ps = add_sat(t, p->timer_ps);
    s->n_decrease++;
}

/* One increase event; the caller has counted it in t_cnt/bc_cnt (QCN) or
 * not (MLX: t_cnt is the stage before the event). */
static void increase(struct dcqcn *s, const struct dcqcn_params *p)
{
    uint32_t f = p->fast_recovery;

    if (p->inc_rule == DCQCN_INC_MLX) {
        if (s->t_cnt < f) {
            s->n_fr++;
        } else if (s->t_cnt == f) {
            s->rt += (double)p->r_ai_bps;
            s->n_ai++;
        } else {
            s->rt += (double)p->r_hai_bps;
            s->n_hai++;
        }
        if (s->t_cnt < UINT32_MAX)
            s->t_cnt++;
    } else {
        uint32_t hi = s->t_cnt > s->bc_cnt ? s->t_cnt : s->bc_cnt;
        uint32_t lo = s->t_cnt < s->bc_cnt ? s->t_cnt : s->bc_cnt;

        if (hi <= f) {
            s->n_fr++;
        } else if (lo > f) {
            s->rt += (double)(lo - f) * (double)p->r_hai_bps;
            s->n_hai++;
        } else {
            s->rt += (double)p->r_ai_bps;
            s->n_ai++;
        }
    }
    if (s->rt > (double)s->line_bps)
        s->rt = (double)s->line_bps;
    s->rc = (s->rt + s->rc) / 2.0;
    clamp_rates(s);
}

void dcqcn_on_cnp(struct dcqcn *s, const struct dcqcn_params *p, uint64_t now_ps)
{
    s->n_cnp++;
    if (!s->active) {
        s->active = 1;
        s->alpha = 1.0;
        s->dec_origin_ps = now_ps;
        s->rc *= p->rate_on_first_cnp;
        s->rt = s->rc;
        if (p->alpha_mode == DCQCN_ALPHA_PERIODIC) {
            /* UpdateAlphaMlx grid starts now; the first CNP is not counted. */
            s->alpha_ref_ps = add_sat(now_ps, p->alpha_interval_ps);
            s->alpha_cnp = 0;
        } else {
            s->alpha_ref_ps = now_ps;
        }
    } else {
        alpha_advance(s, p, now_ps);
        if (p->alpha_mode == DCQCN_ALPHA_PERIODIC)
            s->alpha_cnp = 1;
    }

    if (p->rate_decrease_interval_ps == 0) {
        decrease(s, p, now_ps);
    } else {
        s->dec_cnp = 1;
        if (s->dec_deadline_ps == NONE) {
            uint64_t d = p->rate_decrease_interval_ps;
            uint64_t k = (now_ps - s->dec_origin_ps) / d + 1;   /* next point > now */
            s->dec_deadline_ps = (k > (NONE - 1 - s->dec_origin_ps) / d)
                                 ? NONE - 1 : s->dec_origin_ps + k * d;
        }
    }

    /* Paper: α ← (1−g)α + g after the cut (Eq. (1) order) and the decay
     * timer restarts.  With a check grid the α step happens at the CNP. */
    if (p->alpha_mode == DCQCN_ALPHA_ON_CNP) {
        s->alpha = (1.0 - p->g) * s->alpha + p->g;
        s->alpha_ref_ps = now_ps;
    }
}

void dcqcn_on_sent(struct dcqcn *s, const struct dcqcn_params *p, uint64_t bytes, uint64_t now_ps)
{
    (void)now_ps;
    if (!s->active || p->byte_counter == 0 || s->inc_deadline_ps == NONE)
        return;
    s->bytes += bytes;
    while (s->bytes >= p->byte_counter) {
        s->bytes -= p->byte_counter;
        if (s->bc_cnt < UINT32_MAX)
            s->bc_cnt++;
        increase(s, p);
        if (recovered(s)) {
            s->inc_deadline_ps = NONE;
            s->bytes = 0;
            break;
        }
    }
}

void dcqcn_on_timer(struct dcqcn *s, const struct dcqcn_params *p, uint64_t now_ps)
{
    for (;;) {
        uint64_t td = s->dec_deadline_ps, ti = s->inc_deadline_ps;

        if (td <= now_ps && td <= ti) {                 /* decrease check */
            alpha_advance(s, p, td);
            s->dec_deadline_ps = NONE;
            if (s->dec_cnp) {
                s->dec_cnp = 0;
                decrease(s, p, td);
            }
        } else if (ti <= now_ps) {                      /* increase timer */
            if (p->inc_rule == DCQCN_INC_QCN && s->t_cnt < UINT32_MAX)
                s->t_cnt++;
            increase(s, p);
            s->inc_deadline_ps = recovered(s) ? NONE : add_sat(now_ps, p->timer_ps);
        } else {
            break;
        }
    }
}

uint64_t dcqcn_deadline(const struct dcqcn *s)
{
    return s->dec_deadline_ps < s->inc_deadline_ps ? s->dec_deadline_ps : s->inc_deadline_ps;
}

uint64_t dcqcn_rate_bps(const struct dcqcn *s)
{
    return (uint64_t)s->rc;
}

uint64_t dcqcn_window_bytes(const struct dcqcn *s)
{
    (void)s;
    return 0;
}

uint64_t dcqcn_target_bps(const struct dcqcn *s)
{
    return (uint64_t)s->rt;
}

double dcqcn_alpha(const struct dcqcn *s, const struct dcqcn_params *p, uint64_t now_ps)
{
    uint64_t ref;

    return alpha_at(s, p, now_ps, &ref);
}

/* ---- NP ---------------------------------------------------------------- */

void dcqcn_np_init(struct dcqcn_np *np)
{
    memset(np, 0, sizeof *np);
}

int dcqcn_np_on_ecn(struct dcqcn_np *np, const struct dcqcn_params *p, uint64_t now_ps)
{
    np->n_ecn++;
    if (!dcqcn_np_due(np->sent, np->last_cnp_ps, p->cnp_interval_ps, now_ps))
        return 0;
    np->sent = 1;
    np->last_cnp_ps = now_ps;
    np->n_cnp++;
    return 1;
}

/* ---- CP ---------------------------------------------------------------- */

void dcqcn_red_default(struct dcqcn_red_params *r, uint64_t line_bps, enum dcqcn_profile profile)
{
    if (profile == DCQCN_PROFILE_HPCC_SIM || profile == DCQCN_PROFILE_HPCC_SIM_PAPER) {
        r->kmin_bytes = line_bps / SIM_KMIN_DIV;
        r->kmax_bytes = r->kmin_bytes * SIM_KMAX_MUL;
        r->pmax = SIM_PMAX;
        return;
    }
    r->kmin_bytes = PAPER_KMIN_B;
    r->kmax_bytes = PAPER_KMAX_B;
    r->pmax = PAPER_PMAX;
}

double dcqcn_red_prob(uint64_t qbytes, uint64_t kmin, uint64_t kmax, double pmax)
{
    if (qbytes <= kmin)
        return 0.0;
    if (qbytes > kmax)
        return 1.0;
    return pmax * (double)(qbytes - kmin) / (double)(kmax - kmin);
}

int dcqcn_red_mark(uint64_t qbytes, uint64_t kmin, uint64_t kmax, double pmax, double u01)
{
    return u01 < dcqcn_red_prob(qbytes, kmin, kmax, pmax);
}
