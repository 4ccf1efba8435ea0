/*
 * stability.h -- frequency-domain stability of two linearized congestion
 * control loops: RoCC's PI loop (Taheri et al., CoNEXT 2020, §5) and RCC's
 * PID-on-delay loop (RCC, §IV).  Pure numerics: no I/O, no globals, no
 * allocation.  The command `roccsim stability` (src/cli/stability_cmd.c)
 * prints tables and plots from these; docs/stability.md explains them.
 *
 * RoCC (§5.1, Eq. 6), open loop
 *
 *     G(s) = K (1 + s/z1) e^{-sT} / s^2,
 *     z1 = α / ((β + α/2) T),   K = κ N α / T,   κ = ΔF / ΔQ.
 *
 * ΔF is the rate unit in bit/s and ΔQ the queue unit in bits, so κ is in
 * 1/s (paper §6: ΔF = 10 Mb/s, ΔQ = 600 B, κ = 2083.3 /s).  α and β are
 * the gains Alg. 1 line 8 actually uses (after AUTO_TUNE's division).
 *
 * RCC (§IV, Eq. 12), open loop
 *
 *     G(s) = K (1 + s/z) / (s^2 (s + 1/Rref)),
 *     K = Kp / Rref^2,   z = Kp / ((Kd + Kp/2) Rref).
 *
 * Both magnitudes fall strictly with ω, so each loop has exactly one gain
 * crossover ωc; the phase margin is 180° + arg G(jωc) with arg taken
 * continuously from ω → 0+ (where it is −180°).  With one crossover and
 * no open-loop pole in the right half plane, the closed loop is stable
 * iff the phase margin is > 0 (Nyquist).
 */
#ifndef ROCC_STABILITY_H
#define ROCC_STABILITY_H

#include <stdint.h>

struct stab_margins {
    double wc;       /* gain-crossover frequency, rad/s: |G(jωc)| = 1 */
    double pm_deg;   /* phase margin, degrees (may be negative: unstable) */
    double bw;       /* loop bandwidth: closed-loop −3 dB frequency in rad/s,
                      * the smallest ω with |G/(1+G)| ≤ 1/√2; 0 if not found
                      * below 10^4 ωc (only with bw wanted, see below) */
};

/* ---------- RoCC ---------- */

struct stab_rocc {
    double alpha, beta;   /* PI gains used (α̃/ratio, β̃/ratio) */
    double t;             /* update interval T, seconds (also the loop delay) */
    double n;             /* number of flows N */
    double kappa;         /* κ = ΔF/ΔQ, 1/s */
};

/* κ for a rate unit in bit/s and a queue unit in bytes: f_unit_bps / (8 q_unit_bytes). */
double stab_rocc_kappa(double f_unit_bps, double q_unit_bytes);
double stab_rocc_gain(const struct stab_rocc *l);   /* K, 1/s^2 */
double stab_rocc_zero(const struct stab_rocc *l);   /* z1, rad/s */

/* |G(jω)| and arg G(jω) in degrees (continuous, −180° at ω → 0+). */
void stab_rocc_freq(const struct stab_rocc *l, double w, double *mag, double *phase_deg);

/* Crossover (closed form, see stability.c), phase margin and, if want_bw,
 * the loop bandwidth.  0, or −1 when a parameter is not finite and > 0. */
int stab_rocc_margins(const struct stab_rocc *l, int want_bw, struct stab_margins *m);

/* AUTO_TUNE's divisor for N flows sharing a link whose Fmax is f_max ΔF
 * units: the ratio rocc_cp_autotune_ratio() returns for the equilibrium
 * fair rate F = ⌊f_max / N⌋ (Eq. 1 with Fmax = link rate, §6).  N ≥ 1. */
uint32_t stab_rocc_ratio_for_n(double n, uint32_t f_max);

/* The phase margin and crossover of RoCC with auto-tune over every integer
 * N in [n_lo, n_hi]: α = α̃/ratio(N), β = β̃/ratio(N).  auto_tune = 0
 * keeps α̃, β̃ for every N.  Fills the smallest and largest phase margin,
 * the N of the smallest, and the smallest crossover (the slowest loop). */
struct stab_span {
    double pm_min, pm_max, wc_min;
    double n_pm_min;
};
int stab_rocc_span(double alpha_t, double beta_t, double t, double kappa, uint32_t f_max, int auto_tune,
                   uint32_t n_lo, uint32_t n_hi, struct stab_span *s);

/* --suggest: the rule that proposes α̃, β̃ (and with them the six levels
 * α̃/r, β̃/r, r = 1, 2, 4, ..., 32 of AUTO_TUNE).  For every β/α ratio on
 * a log grid in [ratio_lo, ratio_hi], the largest α̃ whose auto-tuned
 * phase margin is ≥ pm_min for every integer N in [n_lo, n_hi]; of those,
 * the pair whose slowest crossover (stab_span.wc_min) is highest.
 * 0 and *out filled, or −1 when no pair on the grid reaches pm_min. */
struct stab_suggest {
    double alpha, beta;        /* α̃, β̃ */
    struct stab_span span;     /* their margins over [n_lo, n_hi] */
};
int stab_rocc_suggest(double t, double kappa, uint32_t f_max, uint32_t n_lo, uint32_t n_hi, double pm_min,
                      double ratio_lo, double ratio_hi, struct stab_suggest *out);

/* ---------- RCC ---------- */

struct stab_rcc {
    double kp, kd;   /* PID gains of Eq. 4 (Ki = 0) */
    double rref;     /* Rref = RTT target, seconds */
};

double stab_rcc_gain(const struct stab_rcc *l);   /* K = Kp / Rref^2 */
double stab_rcc_zero(const struct stab_rcc *l);   /* z = Kp / ((Kd + Kp/2) Rref) */
void stab_rcc_freq(const struct stab_rcc *l, double w, double *mag, double *phase_deg);
/* Crossover by bisection on log ω (|G| is monotone), margins as for RoCC. */
int stab_rcc_margins(const struct stab_rcc *l, int want_bw, struct stab_margins *m);

#endif
