/*
 * dcqcn_bcm.c -- Broadcom DCQCN-p / DCQCN-d reaction point and marking
 * (broadcom-intro-roce-cc-dcqcn.txt).  See dcqcn_bcm.h for the model.
 *
 *   idle --CNP--> active (inside the current grid period)
 *   active, end of period:  F, CP update; CNPs -> decrease, pacing estimate;
 *                           none -> fast recovery (fr_steps periods), then
 *                           an RT increase every `pace` periods;
 *                           no CNP and RC = RT = line -> idle
 */
#include "dcqcn_bcm.h"
#include "cc_util.h"
#include "dcqcn.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PS_PER_US      1000000ull
#define NONE           UINT64_MAX

/* The note: "The CC update period is configurable, with default being
 * 45 µs"; "a configurable number of Fast Recovery steps, three by default". */
#define BCM_PERIOD_PS  (45 * PS_PER_US)
#define BCM_FR_STEPS   3u
/* Our choices (the note gives no values), see dcqcn_bcm.h: */
#define BCM_JITTER_PPM 100000u          /* ±10% */
#define BCM_G          (1.0 / 256.0)    /* DCQCN g (SIGCOMM'15) */
#define BCM_CP_INIT    1.0              /* DCQCN α starts at 1 (SIGCOMM'15) */
#define BCM_RAI_DIV    1000ull          /* 40 Mb/s at 40 G (SIGCOMM'15) */
#define BCM_INCMAX_MUL 8ull              /* cap = 8·R_AI: three doublings */
#define BCM_MIN_BPS    100000000ull     /* as dcqcn.h paper profile */
#define BCM_N0         32u
#define BCM_PACE_MAX   4u
#define BCM_WINDOW_PER 4ull             /* incast window in base periods */
/* HPCC simulator run.py (reference-implementations.md §2), KB = 1000 B:
 * DCQCN Kmin = 100·bw/25 KB = line/250000 B, Kmax = 4·Kmin, Pmax 0.2;
 * DCTCP K = 30·bw/10 KB = 3·line/10^6 B. */
#define CP_KMIN_DIV    250000ull
#define CP_KMAX_MUL    4ull
#define CP_PMAX        0.2
#define CP_K_MUL       3ull
#define CP_K_DIV       1000000ull

#define PPM            1000000ull
#define MAX_STEP_BPS   (1ull << 53)

static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return (b >= NONE - 1 - a || a >= NONE - 1) ? NONE - 1 : a + b;
}

void dcqcn_bcm_params_default(struct dcqcn_bcm_params *p, uint64_t line_bps, enum dcqcn_bcm_mode mode)
{
    memset(p, 0, sizeof *p);
    p->mode = mode == DCQCN_BCM_MODE_D ? DCQCN_BCM_MODE_D : DCQCN_BCM_MODE_P;
    p->period_ps = BCM_PERIOD_PS;
    p->jitter_ppm = BCM_JITTER_PPM;
    p->g = BCM_G;
    p->cp_init = BCM_CP_INIT;
    p->fr_steps = BCM_FR_STEPS;
    p->r_ai_bps = line_bps / BCM_RAI_DIV;
    p->r_inc_max_bps = p->r_ai_bps * BCM_INCMAX_MUL;
    p->min_rate_bps = BCM_MIN_BPS;
    p->incast_n0 = BCM_N0;
    p->pace_max = BCM_PACE_MAX;
    p->incast_window_ps = BCM_WINDOW_PER * BCM_PERIOD_PS;
}


int dcqcn_bcm_params_check(const struct dcqcn_bcm_params *p, char *why, size_t why_len)
{
    if (p->mode != DCQCN_BCM_MODE_P && p->mode != DCQCN_BCM_MODE_D)
        return cc_fail(why, why_len, "unknown mode");
    if (p->period_ps == 0)
        return cc_fail(why, why_len, "period_ps must be > 0");
    if (p->jitter_ppm >= PPM)
        return cc_fail(why, why_len, "jitter_ppm must be < 1000000");
    if (!(p->g > 0.0 && p->g <= 1.0))
        return cc_fail(why, why_len, "g must be in (0, 1]");
    if (!(p->cp_init >= 0.0 && p->cp_init <= 1.0))
        return cc_fail(why, why_len, "cp_init must be in [0, 1]");
    if (p->r_ai_bps > p->r_inc_max_bps || p->r_inc_max_bps > MAX_STEP_BPS)
        return cc_fail(why, why_len, "need r_ai_bps <= r_inc_max_bps <= 2^53");
    if (p->min_rate_bps == 0)
        return cc_fail(why, why_len, "min_rate_bps must be > 0");
    if (p->incast_n0 == 0)
        return cc_fail(why, why_len, "incast_n0 must be >= 1");
    if (p->pace_max == 0)
        return cc_fail(why, why_len, "pace_max must be >= 1");
    if (p->decrease_on_cnp > 1)
        return cc_fail(why, why_len, "decrease_on_cnp must be 0 or 1");
    if (p->hold_silent > 1)
        return cc_fail(why, why_len, "hold_silent must be 0 or 1");
    return 0;
}

void dcqcn_bcm_init(struct dcqcn_bcm *s, const struct dcqcn_bcm_params *p, uint64_t line_bps, uint64_t now_ps)
{
    memset(s, 0, sizeof *s);
    s->line_bps = line_bps;
    s->rc = s->rt = (double)line_bps;
    s->cp = p->cp_init;
    s->period_end_ps = add_sat(now_ps, p->period_ps);
    s->last_cong_ps = NONE;
    s->pace = 1;
}

uint64_t dcqcn_bcm_period_len(const struct dcqcn_bcm_params *p, double u01)
{
    uint64_t j = (uint64_t)((double)p->period_ps * (double)p->jitter_ppm / (double)PPM);
    uint64_t off;

    if (j == 0)
        return p->period_ps;
    if (!(u01 >= 0.0)) u01 = 0.0;                 /* also NaN */
    if (u01 >= 1.0) u01 = nextafter(1.0, 0.0);
    off = (uint64_t)(2.0 * (double)j * u01);
    if (off >= 2 * j)
        off = 2 * j - 1;
    return p->period_ps - j + off;
}

uint32_t dcqcn_bcm_pace_for(const struct dcqcn_bcm_params *p, uint64_t n_hat)
{
    uint64_t k = 2;

    if (n_hat < p->incast_n0)
        return 1;
    while (k < p->pace_max && n_hat >= (uint64_t)p->incast_n0 * k)
        k *= 2;
    return k < p->pace_max ? (uint32_t)k : p->pace_max;
}

uint64_t dcqcn_bcm_increment(const struct dcqcn_bcm_params *p, uint32_t j)
{
    uint32_t sh;

    if (j == 0)
        return 0;
    sh = j - 1;
    if (sh >= 63 || p->r_ai_bps > (p->r_inc_max_bps >> sh))
        return p->r_inc_max_bps;
    return p->r_ai_bps << sh;
}

/* Idle: apply the unjittered grid boundaries passed by now. */
static void roll_idle(struct dcqcn_bcm *s, const struct dcqcn_bcm_params *p, uint64_t now)
{
    uint64_t n;

    if (now < s->period_end_ps)
        return;
    n = (now - s->period_end_ps) / p->period_ps + 1;
    if (s->started)
        s->cp *= pow(1.0 - p->g, (double)n);
    s->period_end_ps = n > (NONE - 1 - s->period_end_ps) / p->period_ps
                       ? NONE - 1 : s->period_end_ps + n * p->period_ps;
    s->tx = s->cnp = 0;
    s->n_periods += (uint32_t)(n > UINT32_MAX ? UINT32_MAX : n);
}

void dcqcn_bcm_on_sent(struct dcqcn_bcm *s, const struct dcqcn_bcm_params *p, uint32_t pkts, uint64_t now_ps)
{
    if (!s->active)
        roll_idle(s, p, now_ps);
    s->tx = pkts > UINT32_MAX - s->tx ? UINT32_MAX : s->tx + pkts;
}

void dcqcn_bcm_on_cnp(struct dcqcn_bcm *s, const struct dcqcn_bcm_params *p, uint64_t now_ps)
{
    if (!s->active) {
        roll_idle(s, p, now_ps);
        s->active = 1;
        s->started = 1;
    }
    if (s->cnp < UINT32_MAX)
        s->cnp++;
    s->n_cnp++;
    if (p->decrease_on_cnp && s->cnp == 1 && s->period_end_ps > now_ps)
        s->period_end_ps = now_ps;
}

/* Clamp to the line rate; within 1 b/s of it counts as the line rate (so
 * that recovery ends after finitely many halvings of the gap). */
static double line_clamp(double r, uint64_t line)
{
    return r > (double)line - 1.0 ? (double)line : r;
}

/* Incast window scaled by the current pace: a flow that increases every
 * `pace` periods is expected to see congestion `pace` times less often. */
static uint64_t window(const struct dcqcn_bcm *s, const struct dcqcn_bcm_params *p)
{
    uint64_t w = p->incast_window_ps;

    return w > (NONE - 1) / s->pace ? NONE - 1 : w * s->pace;
}

void dcqcn_bcm_on_timer(struct dcqcn_bcm *s, const struct dcqcn_bcm_params *p, uint64_t now_ps, double u01)
{
    uint64_t t_end = s->period_end_ps;
    double f, floor_bps;

    if (!s->active || now_ps < t_end)
        return;

    if (p->hold_silent && s->tx == 0 && s->cnp == 0) {   /* F = 0/0: no information */
        s->n_periods++;
        s->period_end_ps = add_sat(now_ps > t_end ? now_ps : t_end, dcqcn_bcm_period_len(p, u01));
        return;
    }
    if (s->cnp == 0)
        f = 0.0;
    else if (p->mode == DCQCN_BCM_MODE_P || s->tx == 0 || s->cnp >= s->tx)
        f = 1.0;
    else
        f = (double)s->cnp / (double)s->tx;
    s->last_f = f;
    s->cp = (1.0 - p->g) * s->cp + p->g * f;

    if (s->cnp > 0) {
        int persistent = s->last_cong_ps != NONE && t_end >= s->last_cong_ps
                         && t_end - s->last_cong_ps <= window(s, p);
        uint64_t n_hat = 1;

        floor_bps = (double)p->min_rate_bps;
        if (floor_bps > (double)s->line_bps)
            floor_bps = (double)s->line_bps;
        s->rt = s->rc;
        s->rc = s->rc * (1.0 - s->cp / 2.0);
        if (s->rc < floor_bps)
            s->rc = floor_bps;
        if (persistent && s->rt >= 1.0)
            n_hat = (uint64_t)((double)s->line_bps / s->rt);
        s->pace = dcqcn_bcm_pace_for(p, n_hat);
        s->last_cong_ps = t_end;
        s->free_periods = 0;
        s->inc_events = 0;
        s->n_decrease++;
    } else {
        /* Congestion gone for longer than the window: pacing ends. */
        if (s->pace > 1 && s->last_cong_ps != NONE && t_end >= s->last_cong_ps
            && t_end - s->last_cong_ps > window(s, p))
            s->pace = 1;
        if (s->free_periods < UINT32_MAX)
            s->free_periods++;
        if (s->inc_events < p->fr_steps) {                 /* fast recovery */
            s->inc_events++;
            s->n_fr++;
            s->rc = line_clamp((s->rt + s->rc) / 2.0, s->line_bps);
        } else if ((s->free_periods - p->fr_steps) % s->pace == 0) {
            if (s->inc_events < UINT32_MAX)
                s->inc_events++;
            s->rt = line_clamp(s->rt + (double)dcqcn_bcm_increment(p, s->inc_events - p->fr_steps),
                               s->line_bps);
            s->rc = line_clamp((s->rt + s->rc) / 2.0, s->line_bps);
            s->n_inc++;
        }
    }

    s->n_periods++;
    s->period_end_ps = add_sat(now_ps > t_end ? now_ps : t_end, dcqcn_bcm_period_len(p, u01));
    if (s->cnp == 0 && s->rc >= (double)s->line_bps && s->rt >= (double)s->line_bps)
        s->active = 0;
    s->tx = s->cnp = 0;
}

uint64_t dcqcn_bcm_deadline(const struct dcqcn_bcm *s)
{
    return s->active ? s->period_end_ps : NONE;
}

uint64_t dcqcn_bcm_rate_bps(const struct dcqcn_bcm *s)
{
    return (uint64_t)s->rc;
}

uint64_t dcqcn_bcm_target_bps(const struct dcqcn_bcm *s)
{
    return (uint64_t)s->rt;
}

uint64_t dcqcn_bcm_window_bytes(const struct dcqcn_bcm *s)
{
    (void)s;
    return 0;
}

/* ---- switch marking ---------------------------------------------------- */

void dcqcn_bcm_cp_default(struct dcqcn_bcm_cp_params *c, uint64_t line_bps)
{
    c->kmin_bytes = line_bps / CP_KMIN_DIV;
    c->kmax_bytes = c->kmin_bytes * CP_KMAX_MUL;
    c->pmax = CP_PMAX;
    c->k_bytes = line_bps / CP_K_DIV * CP_K_MUL;
}

int dcqcn_bcm_mark_p(uint64_t qbytes, uint64_t kmin, uint64_t kmax, double pmax, double u01)
{
    return dcqcn_red_mark(qbytes, kmin, kmax, pmax, u01);
}

int dcqcn_bcm_mark_d(uint64_t qbytes, uint64_t k)
{
    return qbytes > k;
}
