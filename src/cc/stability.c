/*
 * stability.c -- loop analysis of RoCC (§5) and RCC (§IV); see stability.h.
 *
 * RoCC crossover in closed form.  The delay e^{-sT} has modulus 1, so
 * |G(jω)| = K √(1 + ω²/z1²) / ω².  With x = ω², |G| = 1 is
 *     x² = K² (1 + x/z1²)   <=>   x² − (K²/z1²) x − K² = 0,
 * whose positive root is x = K (b + √(b² + 4)) / 2 with b = K / z1²
 * (written so that nothing is squared twice: K reaches 10^10 /s²).
 * The phase is −180° + atan(ω/z1) − ωT, so PM = atan(ωc/z1) − ωc T.
 *
 * RCC: |G(jω)| = K √(1 + ω²/z²) / (ω² √(ω² + p²)), p = 1/Rref, falls
 * strictly with ω (numerator ~ω, denominator ~ω³); bisection on ln ω.
 * Phase −180° + atan(ω/z) − atan(ω/p).
 *
 * Loop bandwidth: the closed loop T = G/(1+G); |T(jω)| → 1 as ω → 0
 * (two integrators), and we return the first ω where it falls to 1/√2,
 * scanning upward from ωc/1000 in steps of 1% and bisecting the last step.
 */
#include "stability.h"
#include "rocc_cp.h"

#include <math.h>

#define PI_D 3.14159265358979323846
#define RAD2DEG (180.0 / PI_D)

/* Scan for the −3 dB point: from ωc/BW_FROM to ωc·BW_TO, factor BW_STEP. */
#define BW_FROM 1e3
#define BW_TO   1e4
#define BW_STEP 1.01
#define BISECT_ITERS 100

static int pos(double v)
{
    return isfinite(v) && v > 0;
}

/* |1 + G| from modulus and phase (degrees). */
static double closed_mag(double mag, double phase_deg)
{
    double ph = phase_deg / RAD2DEG;
    double re = 1.0 + mag * cos(ph), im = mag * sin(ph);
    return mag / sqrt(re * re + im * im);
}

typedef void (*freq_fn)(const void *l, double w, double *mag, double *phase_deg);

static double loop_bw(freq_fn f, const void *l, double wc)
{
    const double lim = 1.0 / sqrt(2.0);
    double w = wc / BW_FROM, prev = w, mag, ph;
    while (w <= wc * BW_TO) {
        f(l, w, &mag, &ph);
        if (closed_mag(mag, ph) <= lim)
            break;
        prev = w;
        w *= BW_STEP;
    }
    if (w > wc * BW_TO)
        return 0;
    if (prev == w)   /* already below at the first point: no −3 dB crossing found */
        return 0;
    double lo = prev, hi = w;
    for (int i = 0; i < BISECT_ITERS; i++) {
        double mid = sqrt(lo * hi);
        f(l, mid, &mag, &ph);
        if (closed_mag(mag, ph) <= lim)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

/* ---------- RoCC ---------- */

double stab_rocc_kappa(double f_unit_bps, double q_unit_bytes)
{
    return f_unit_bps / (8.0 * q_unit_bytes);
}

double stab_rocc_gain(const struct stab_rocc *l)
{
    return l->kappa * l->n * l->alpha / l->t;
}

double stab_rocc_zero(const struct stab_rocc *l)
{
    return l->alpha / ((l->beta + l->alpha / 2.0) * l->t);
}

void stab_rocc_freq(const struct stab_rocc *l, double w, double *mag, double *phase_deg)
{
    double k = stab_rocc_gain(l), z = stab_rocc_zero(l);
    *mag = k * sqrt(1.0 + (w / z) * (w / z)) / (w * w);
    *phase_deg = -180.0 + (atan(w / z) - w * l->t) * RAD2DEG;
}

static void rocc_freq_v(const void *l, double w, double *mag, double *phase_deg)
{
    stab_rocc_freq(l, w, mag, phase_deg);
}

int stab_rocc_margins(const struct stab_rocc *l, int want_bw, struct stab_margins *m)
{
    if (!pos(l->alpha) || !isfinite(l->beta) || l->beta < 0 || !pos(l->t) || !pos(l->n) || !pos(l->kappa))
        return -1;
    double k = stab_rocc_gain(l), z = stab_rocc_zero(l);
    double b = k / (z * z);
    double x = k * (b + sqrt(b * b + 4.0)) / 2.0;
    m->wc = sqrt(x);
    m->pm_deg = (atan(m->wc / z) - m->wc * l->t) * RAD2DEG;
    m->bw = want_bw ? loop_bw(rocc_freq_v, l, m->wc) : 0;
    return isfinite(m->wc) && isfinite(m->pm_deg) ? 0 : -1;
}

uint32_t stab_rocc_ratio_for_n(double n, uint32_t f_max)
{
    double f = n >= 1 ? floor((double)f_max / n) : (double)f_max;
    return rocc_cp_autotune_ratio((int32_t)f, f_max);
}

int stab_rocc_span(double alpha_t, double beta_t, double t, double kappa, uint32_t f_max, int auto_tune,
                   uint32_t n_lo, uint32_t n_hi, struct stab_span *s)
{
    if (n_lo < 1 || n_hi < n_lo || f_max < 1)
        return -1;
    s->pm_min = INFINITY;
    s->pm_max = -INFINITY;
    s->wc_min = INFINITY;
    s->n_pm_min = n_lo;
    for (uint32_t n = n_lo; n <= n_hi; n++) {
        double r = auto_tune ? (double)stab_rocc_ratio_for_n(n, f_max) : 1.0;
        struct stab_rocc l = { alpha_t / r, beta_t / r, t, (double)n, kappa };
        struct stab_margins m;
        if (stab_rocc_margins(&l, 0, &m))
            return -1;
        if (m.pm_deg < s->pm_min) {
            s->pm_min = m.pm_deg;
            s->n_pm_min = n;
        }
        if (m.pm_deg > s->pm_max)
            s->pm_max = m.pm_deg;
        if (m.wc < s->wc_min)
            s->wc_min = m.wc;
    }
    return 0;
}

/* Search grid of --suggest (our choice): β/α on SUG_RATIOS log steps,
 * α̃ from 10^SUG_A_LO to 10^SUG_A_HI with SUG_A_PER_DEC steps per decade,
 * scanned downward; the first feasible α̃ is refined by bisection against
 * the infeasible grid point above it. */
#define SUG_RATIOS    49
#define SUG_A_LO      (-6.0)
#define SUG_A_HI      2.0
#define SUG_A_PER_DEC 24

static int feasible(double a, double ratio, double t, double kappa, uint32_t f_max, uint32_t n_lo, uint32_t n_hi,
                    double pm_min, struct stab_span *s)
{
    return stab_rocc_span(a, a * ratio, t, kappa, f_max, 1, n_lo, n_hi, s) == 0 && s->pm_min >= pm_min;
}

int stab_rocc_suggest(double t, double kappa, uint32_t f_max, uint32_t n_lo, uint32_t n_hi, double pm_min,
                      double ratio_lo, double ratio_hi, struct stab_suggest *out)
{
    if (!pos(t) || !pos(kappa) || !pos(ratio_lo) || !(ratio_hi >= ratio_lo) || !isfinite(ratio_hi) ||
        !isfinite(pm_min) || n_lo < 1 || n_hi < n_lo)
        return -1;
    int found = 0;
    int nr = ratio_hi > ratio_lo ? SUG_RATIOS : 1;
    int na = (int)((SUG_A_HI - SUG_A_LO) * SUG_A_PER_DEC);
    for (int i = 0; i < nr; i++) {
        double ratio = nr == 1 ? ratio_lo : ratio_lo * pow(ratio_hi / ratio_lo, (double)i / (nr - 1));
        struct stab_span s;
        for (int j = na; j >= 0; j--) {
            double a = pow(10.0, SUG_A_LO + (double)j / SUG_A_PER_DEC);
            if (!feasible(a, ratio, t, kappa, f_max, n_lo, n_hi, pm_min, &s))
                continue;
            if (j < na) {
                double lo = a, hi = pow(10.0, SUG_A_LO + (double)(j + 1) / SUG_A_PER_DEC);
                struct stab_span s2;
                for (int k = 0; k < 40; k++) {
                    double mid = sqrt(lo * hi);
                    if (feasible(mid, ratio, t, kappa, f_max, n_lo, n_hi, pm_min, &s2))
                        lo = mid;
                    else
                        hi = mid;
                }
                a = lo;
                feasible(a, ratio, t, kappa, f_max, n_lo, n_hi, pm_min, &s);
            }
            if (!found || s.wc_min > out->span.wc_min) {
                out->alpha = a;
                out->beta = a * ratio;
                out->span = s;
                found = 1;
            }
            break;
        }
    }
    return found ? 0 : -1;
}

/* ---------- RCC ---------- */

double stab_rcc_gain(const struct stab_rcc *l)
{
    return l->kp / (l->rref * l->rref);
}

double stab_rcc_zero(const struct stab_rcc *l)
{
    return l->kp / ((l->kd + l->kp / 2.0) * l->rref);
}

void stab_rcc_freq(const struct stab_rcc *l, double w, double *mag, double *phase_deg)
{
    double k = stab_rcc_gain(l), z = stab_rcc_zero(l), p = 1.0 / l->rref;
    *mag = k * sqrt(1.0 + (w / z) * (w / z)) / (w * w * sqrt(w * w + p * p));
    *phase_deg = -180.0 + (atan(w / z) - atan(w / p)) * RAD2DEG;
}

static void rcc_freq_v(const void *l, double w, double *mag, double *phase_deg)
{
    stab_rcc_freq(l, w, mag, phase_deg);
}

int stab_rcc_margins(const struct stab_rcc *l, int want_bw, struct stab_margins *m)
{
    if (!pos(l->kp) || !isfinite(l->kd) || l->kd < 0 || !pos(l->rref))
        return -1;
    double lo = 1.0, hi = 1.0, mag, ph;
    /* Bracket: |G(lo)| > 1 >= |G(hi)|. */
    for (int i = 0; i < 2000; i++) {
        stab_rcc_freq(l, lo, &mag, &ph);
        if (mag > 1.0)
            break;
        lo /= 2.0;
    }
    for (int i = 0; i < 2000; i++) {
        stab_rcc_freq(l, hi, &mag, &ph);
        if (mag <= 1.0)
            break;
        hi *= 2.0;
    }
    for (int i = 0; i < 200; i++) {
        double mid = sqrt(lo * hi);
        stab_rcc_freq(l, mid, &mag, &ph);
        if (mag > 1.0)
            lo = mid;
        else
            hi = mid;
    }
    m->wc = sqrt(lo * hi);
    stab_rcc_freq(l, m->wc, &mag, &ph);
    m->pm_deg = 180.0 + ph;
    m->bw = want_bw ? loop_bw(rcc_freq_v, l, m->wc) : 0;
    return isfinite(m->wc) && m->wc > 0 && isfinite(m->pm_deg) ? 0 : -1;
}
