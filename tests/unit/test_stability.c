/*
 * test_stability.c -- the loop analysis of src/cc/stability.c against
 * values computed by hand (bc -l, 30 digits) from the derivations below.
 *
 * RoCC (§5.1): G(s) = K (1 + s/z1) e^{-sT} / s^2, K = κNα/T,
 * z1 = α/((β + α/2)T), κ = ΔF/ΔQ = 10^7 b/s / 4800 b = 2083.333.. /s.
 * |e^{-jωT}| = 1, so |G(jω)| = 1 is K^2 (1 + ω²/z1²) = ω⁴; with x = ω²,
 * x² − (K²/z1²) x − K² = 0, x = K (b + √(b² + 4)) / 2, b = K/z1².
 * Phase −180° + atan(ω/z1) − ωT, so PM = atan(ωc/z1) − ωc T.
 *
 * Case A (Fig. 6 pair α = 0.3, β = 3, T = 40 µs):
 *   N = 2: K = 2083.33·2·0.3/4e-5 = 3.125e7; z1 = 1/(10.5 T) = 2380.952;
 *          b = 3.125e7 / 2380.952² = 5.5125; x = 3.125e7 (5.5125 +
 *          √34.38766)/2 = 1.7775936e8; ωc = 13332.643 rad/s;
 *          atan(5.59975) = 79.8748°, ωc T = 0.533306 rad = 30.5562°;
 *          PM = 49.3186°.
 *   N = 10: K = 1.5625e8, b = 27.5625, x = 4.3123021e9, ωc = 65668.121;
 *          atan = 87.9235°, ωc T = 150.5002°, PM = −62.5767°.
 * Case B (α = 0.0093, β = 0.0937, §5.2's conservative pair):
 *   N = 2: K = 968750, z1 = 0.0093/(0.09835·4e-5) = 2364.0061,
 *          b = 0.1733463, x = 1056346.53, ωc = 1027.7872;
 *          atan = 23.4977°, ωc T = 2.3555°, PM = 21.1422°.
 *   N = 128: K = 6.2e7, b = 11.094162, ωc = 26332.146, PM = 24.5211°.
 *
 * RCC (§IV): G(s) = K (1 + s/z) / (s² (s + p)), K = Kp/Rref², p = 1/Rref,
 * z = Kp/((Kd + Kp/2) Rref).  |G| = 1 is x² (x + p²) = K² (1 + x/z²),
 * x = ω², solved by Newton's method from x = p² (bc, 100 steps).
 *   Kp = 1e4, Kd = 1e5, Rref = 13.2 µs: K = 5.7392103e13, z = 7215.0072,
 *          p = 75757.576; x = 5.6212951e9, ωc = 74975.297;
 *          atan(ωc/z) = 84.5033°, atan(ωc/p) = 44.7026°, PM = 39.8006°.
 *   Kp = 1e4, Kd = 1e3: z = 126262.63, ωc = 27013.279, PM = −7.5489°.
 *   Kp = 1,   Kd = 1e3: K = 5.7392103e9, z = 75.719716, ωc = 1003.2576,
 *          PM = 84.9251°.
 */
#include "test.h"

#include "cc/rocc_cp.h"
#include "cc/stability.h"

#define T40 40e-6
static const double kap = 10e6 / 4800.0;

static struct stab_rocc rocc(double a, double b, double n)
{
    return (struct stab_rocc){ a, b, T40, n, kap };
}

TEST(kappa_gain_zero)
{
    CHECK_NEAR(stab_rocc_kappa(10e6, 600), 2083.3333333, 1e-6);
    struct stab_rocc l = rocc(0.3, 3, 2);
    CHECK_NEAR(stab_rocc_gain(&l), 3.125e7, 1e-3);
    CHECK_NEAR(stab_rocc_zero(&l), 2380.952381, 1e-5);
    struct stab_rcc r = { 1e4, 1e5, 13.2e-6 };
    CHECK_NEAR(stab_rcc_gain(&r) / 1e13, 5.73921028, 1e-7);
    CHECK_NEAR(stab_rcc_zero(&r), 7215.007215, 1e-5);
}

TEST(rocc_fig6_pair_hand)
{
    struct stab_margins m;
    struct stab_rocc l = rocc(0.3, 3, 2);
    CHECK(stab_rocc_margins(&l, 0, &m) == 0);
    CHECK_NEAR(m.wc, 13332.643, 1e-3);
    CHECK_NEAR(m.pm_deg, 49.3186, 1e-4);
    l.n = 10;
    CHECK(stab_rocc_margins(&l, 0, &m) == 0);
    CHECK_NEAR(m.wc, 65668.121, 1e-3);
    CHECK_NEAR(m.pm_deg, -62.5767, 1e-4);
}

TEST(rocc_conservative_pair_hand)
{
    struct stab_margins m;
    struct stab_rocc l = rocc(0.0093, 0.0937, 2);
    CHECK(stab_rocc_margins(&l, 0, &m) == 0);
    CHECK_NEAR(m.wc, 1027.7872, 1e-4);
    CHECK_NEAR(m.pm_deg, 21.1422, 1e-4);
    l.n = 128;
    CHECK(stab_rocc_margins(&l, 0, &m) == 0);
    CHECK_NEAR(m.wc, 26332.146, 1e-3);
    CHECK_NEAR(m.pm_deg, 24.5211, 1e-4);
}

/* The crossover really is where |G| = 1, and the phase there is PM − 180°:
 * checks stab_rocc_freq against stab_rocc_margins. */
TEST(rocc_freq_consistent)
{
    struct stab_margins m;
    for (double n = 1; n <= 128; n *= 2) {
        struct stab_rocc l = rocc(0.075, 0.75, n);
        double mag, ph;
        CHECK(stab_rocc_margins(&l, 0, &m) == 0);
        stab_rocc_freq(&l, m.wc, &mag, &ph);
        CHECK_NEAR(mag, 1.0, 1e-9);
        CHECK_NEAR(ph + 180.0, m.pm_deg, 1e-9);
        stab_rocc_freq(&l, m.wc * 0.99, &mag, &ph);
        CHECK(mag > 1.0);
    }
}

/* §5.2: α = 0.0093, β = 0.0937 keep PM > 20° for every N in [2, 128]. */
TEST(rocc_paper_conservative_all_n)
{
    struct stab_span s;
    CHECK(stab_rocc_span(0.0093, 0.0937, T40, kap, 4000, 0, 2, 128, &s) == 0);
    CHECK(s.pm_min > 20.0);
    CHECK_NEAR(s.pm_min, 21.1422, 1e-4);   /* at N = 2 (Case B) */
    CHECK_EQ((int)s.n_pm_min, 2);
    /* and a 2x larger pair does not: the check can fail */
    CHECK(stab_rocc_span(0.0186, 0.1874, T40, kap, 4000, 0, 2, 128, &s) == 0);
    CHECK(s.pm_min < 20.0);
}

/* The closed-loop −3 dB frequency lies above ωc for these loops (peaking)
 * and |T| there is 1/√2. */
TEST(rocc_loop_bandwidth)
{
    struct stab_margins m;
    struct stab_rocc l = rocc(0.3, 1.5, 2);
    CHECK(stab_rocc_margins(&l, 1, &m) == 0);
    CHECK(m.bw > m.wc && m.bw < 4 * m.wc);
    double mag, ph;
    stab_rocc_freq(&l, m.bw, &mag, &ph);
    double re = 1 + mag * cos(ph * 3.14159265358979323846 / 180), im = mag * sin(ph * 3.14159265358979323846 / 180);
    CHECK_NEAR(mag / sqrt(re * re + im * im), 1 / sqrt(2.0), 1e-6);
    /* a slower loop (smaller gains) has a lower bandwidth */
    struct stab_margins m2;
    l = rocc(0.0375, 0.1875, 2);
    CHECK(stab_rocc_margins(&l, 1, &m2) == 0);
    CHECK(m2.bw < m.bw / 2);
}

/* AUTO_TUNE levels for F = Fmax/N (Alg. 1 lines 16-19): ratio 1 for
 * N <= 2, 2 for (2, 4], ..., 32 for N > 32. */
TEST(rocc_autotune_ratio)
{
    CHECK_EQ(stab_rocc_ratio_for_n(1, 4000), 1);
    CHECK_EQ(stab_rocc_ratio_for_n(2, 4000), 1);
    CHECK_EQ(stab_rocc_ratio_for_n(3, 4000), 2);
    CHECK_EQ(stab_rocc_ratio_for_n(4, 4000), 2);
    CHECK_EQ(stab_rocc_ratio_for_n(5, 4000), 4);
    CHECK_EQ(stab_rocc_ratio_for_n(16, 4000), 8);
    CHECK_EQ(stab_rocc_ratio_for_n(17, 4000), 16);
    CHECK_EQ(stab_rocc_ratio_for_n(33, 4000), 32);
    CHECK_EQ(stab_rocc_ratio_for_n(128, 10000), 32);
}

/* With auto-tune, the paper's 40G pair stays within a narrow band; without,
 * it goes unstable.  Auto-tune divides α and β by the same ratio, so z1 is
 * unchanged and K ∝ N/ratio ∈ (1, 2] for N ≤ 64 (then up to 4 at 128). */
TEST(rocc_autotune_band)
{
    struct stab_span at, fixed;
    CHECK(stab_rocc_span(0.3, 1.5, T40, kap, 4000, 1, 2, 128, &at) == 0);
    CHECK(stab_rocc_span(0.3, 1.5, T40, kap, 4000, 0, 2, 128, &fixed) == 0);
    CHECK(at.pm_min > 30.0);
    CHECK(at.pm_max - at.pm_min < 10.0);
    CHECK(fixed.pm_min < -45.0);
    /* N and 2N on either side of a level boundary give the same loop
     * (N/ratio equal): N = 4 (ratio 2) and N = 8 (ratio 4). */
    struct stab_span a, b;
    CHECK(stab_rocc_span(0.3, 1.5, T40, kap, 4000, 1, 4, 4, &a) == 0);
    CHECK(stab_rocc_span(0.3, 1.5, T40, kap, 4000, 1, 8, 8, &b) == 0);
    CHECK_NEAR(a.pm_min, b.pm_min, 1e-9);
}

TEST(rocc_suggest)
{
    struct stab_suggest s;
    /* Fixed ratio β/α = 5 (the paper's), PM >= 30° over N in [2, 128]. */
    CHECK(stab_rocc_suggest(T40, kap, 4000, 2, 128, 30.0, 5, 5, &s) == 0);
    CHECK_NEAR(s.beta / s.alpha, 5.0, 1e-9);
    CHECK(s.span.pm_min >= 30.0 && s.span.pm_min < 30.5);
    /* maximal: 1% more α̃ breaks the margin */
    struct stab_span sp;
    CHECK(stab_rocc_span(s.alpha * 1.01, s.beta * 1.01, T40, kap, 4000, 1, 2, 128, &sp) == 0);
    CHECK(sp.pm_min < 30.0);
    /* a free ratio can only do as well or better on the slowest crossover */
    struct stab_suggest f;
    CHECK(stab_rocc_suggest(T40, kap, 4000, 2, 128, 30.0, 1, 50, &f) == 0);
    CHECK(f.span.pm_min >= 30.0);
    CHECK(f.span.wc_min >= s.span.wc_min * 0.999);
    /* an impossible margin */
    CHECK(stab_rocc_suggest(T40, kap, 4000, 2, 128, 89.0, 5, 5, &s) == -1);
    /* bad input */
    CHECK(stab_rocc_suggest(0, kap, 4000, 2, 128, 30, 5, 5, &s) == -1);
    CHECK(stab_rocc_suggest(T40, kap, 4000, 0, 128, 30, 5, 5, &s) == -1);
}

TEST(rcc_hand)
{
    struct stab_margins m;
    struct stab_rcc r = { 1e4, 1e5, 13.2e-6 };
    CHECK(stab_rcc_margins(&r, 0, &m) == 0);
    CHECK_NEAR(m.wc, 74975.297, 1e-3);
    CHECK_NEAR(m.pm_deg, 39.8006, 1e-4);
    r.kd = 1e3;
    CHECK(stab_rcc_margins(&r, 0, &m) == 0);
    CHECK_NEAR(m.wc, 27013.279, 1e-3);
    CHECK_NEAR(m.pm_deg, -7.5489, 1e-4);
    r.kp = 1;
    CHECK(stab_rcc_margins(&r, 1, &m) == 0);
    CHECK_NEAR(m.wc, 1003.2576, 1e-4);
    CHECK_NEAR(m.pm_deg, 84.9251, 1e-4);
    CHECK(m.bw > 0);
}

TEST(bad_input)
{
    struct stab_margins m;
    struct stab_rocc l = rocc(0, 1, 2);
    CHECK(stab_rocc_margins(&l, 0, &m) == -1);
    l = rocc(0.3, 1.5, 0);
    CHECK(stab_rocc_margins(&l, 0, &m) == -1);
    l = rocc(0.3, NAN, 2);
    CHECK(stab_rocc_margins(&l, 0, &m) == -1);
    struct stab_rcc r = { 0, 1e5, 13.2e-6 };
    CHECK(stab_rcc_margins(&r, 0, &m) == -1);
    r = (struct stab_rcc){ 1e4, -1, 13.2e-6 };
    CHECK(stab_rcc_margins(&r, 0, &m) == -1);
    struct stab_span s;
    CHECK(stab_rocc_span(0.3, 1.5, T40, kap, 4000, 1, 5, 4, &s) == -1);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_stability";
    RUN(kappa_gain_zero);
    RUN(rocc_fig6_pair_hand);
    RUN(rocc_conservative_pair_hand);
    RUN(rocc_freq_consistent);
    RUN(rocc_paper_conservative_all_n);
    RUN(rocc_loop_bandwidth);
    RUN(rocc_autotune_ratio);
    RUN(rocc_autotune_band);
    RUN(rocc_suggest);
    RUN(rcc_hand);
    RUN(bad_input);
    return test_summary();
}
