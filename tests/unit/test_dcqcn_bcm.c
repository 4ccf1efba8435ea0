/*
 * test_dcqcn_bcm.c -- unit tests of Broadcom DCQCN-p / DCQCN-d
 * (src/cc/dcqcn_bcm.h).  100 G line unless stated; setup() turns the
 * jitter off (jitter_ppm = 0) so that periods end every 45 µs exactly and
 * uses g = 1/16 for round hand arithmetic.
 */
#include "test.h"

#include "cc/dcqcn.h"
#include "cc/dcqcn_bcm.h"

#define US   1000000ull
#define G100 100000000000ull
#define G40  40000000000ull
#define G25  25000000000ull
#define NONE UINT64_MAX
#define T    (45 * US)

static void setup(struct dcqcn_bcm *s, struct dcqcn_bcm_params *p, enum dcqcn_bcm_mode m, double cp_init)
{
    dcqcn_bcm_params_default(p, G100, m);
    p->jitter_ppm = 0;
    p->g = 1.0 / 16;
    p->cp_init = cp_init;
    dcqcn_bcm_init(s, p, G100, 0);
}

/* One period ending at k·T: tx packets and cnp CNPs inside it, then the
 * timer. */
static void period(struct dcqcn_bcm *s, const struct dcqcn_bcm_params *p, int k, uint32_t tx, uint32_t cnp)
{
    uint64_t t0 = (uint64_t)(k - 1) * T + 1;
    uint32_t i;

    if (tx)
        dcqcn_bcm_on_sent(s, p, tx, t0);
    for (i = 0; i < cnp; i++)
        dcqcn_bcm_on_cnp(s, p, t0 + 1);
    dcqcn_bcm_on_timer(s, p, (uint64_t)k * T, 0.5);
}

TEST(defaults)
{
    struct dcqcn_bcm_params p;
    struct dcqcn_bcm s;

    dcqcn_bcm_params_default(&p, G100, DCQCN_BCM_MODE_P);
    CHECK(dcqcn_bcm_params_check(&p, NULL, 0) == 0);
    CHECK_EQ(p.mode, DCQCN_BCM_MODE_P);
    CHECK_EQ(p.period_ps, 45 * US);
    CHECK_EQ(p.fr_steps, 3);
    CHECK_EQ(p.jitter_ppm, 100000);
    CHECK_NEAR(p.g, 1.0 / 256, 0);
    CHECK_NEAR(p.cp_init, 1.0, 0);
    CHECK_EQ(p.r_ai_bps, 100000000);             /* line/1000 */
    CHECK_EQ(p.r_inc_max_bps, 800000000);        /* 8·R_AI */
    CHECK_EQ(p.min_rate_bps, 100000000);
    CHECK_EQ(p.incast_n0, 32);
    CHECK_EQ(p.pace_max, 4);
    CHECK_EQ(p.incast_window_ps, 180 * US);
    dcqcn_bcm_params_default(&p, G40, DCQCN_BCM_MODE_D);
    CHECK_EQ(p.mode, DCQCN_BCM_MODE_D);
    CHECK_EQ(p.r_ai_bps, 40000000);
    dcqcn_bcm_init(&s, &p, G40, 7 * US);
    CHECK(dcqcn_bcm_rate_bps(&s) == G40);
    CHECK(dcqcn_bcm_target_bps(&s) == G40);
    CHECK(dcqcn_bcm_deadline(&s) == NONE);        /* idle until a CNP */
    CHECK_EQ(dcqcn_bcm_window_bytes(&s), 0);
    CHECK_NEAR(s.cp, 1.0, 0);
    CHECK(s.period_end_ps == 52 * US);
}

TEST(params_check)
{
    struct dcqcn_bcm_params p, q;
    char why[64];

    dcqcn_bcm_params_default(&p, G100, DCQCN_BCM_MODE_P);
    q = p; q.mode = 5;
    CHECK(dcqcn_bcm_params_check(&q, why, sizeof why) == -1);
    CHECK_STR(why, "unknown mode");
    q = p; q.period_ps = 0;
    CHECK(dcqcn_bcm_params_check(&q, why, sizeof why) == -1);
    q = p; q.jitter_ppm = 1000000;
    CHECK(dcqcn_bcm_params_check(&q, why, sizeof why) == -1);
    CHECK_STR(why, "jitter_ppm must be < 1000000");
    q = p; q.g = 0;
    CHECK(dcqcn_bcm_params_check(&q, why, sizeof why) == -1);
    q = p; q.cp_init = 1.5;
    CHECK(dcqcn_bcm_params_check(&q, why, sizeof why) == -1);
    q = p; q.r_ai_bps = q.r_inc_max_bps + 1;
    CHECK(dcqcn_bcm_params_check(&q, why, sizeof why) == -1);
    CHECK_STR(why, "need r_ai_bps <= r_inc_max_bps <= 2^53");
    q = p; q.min_rate_bps = 0;
    CHECK(dcqcn_bcm_params_check(&q, NULL, 0) == -1);
    q = p; q.incast_n0 = 0;
    CHECK(dcqcn_bcm_params_check(&q, why, sizeof why) == -1);
    q = p; q.pace_max = 0;
    CHECK(dcqcn_bcm_params_check(&q, why, sizeof why) == -1);
    CHECK_STR(why, "pace_max must be >= 1");
    q = p; q.decrease_on_cnp = 2;
    CHECK(dcqcn_bcm_params_check(&q, why, sizeof why) == -1);
    CHECK_STR(why, "decrease_on_cnp must be 0 or 1");
    q = p; q.hold_silent = 3;
    CHECK(dcqcn_bcm_params_check(&q, why, sizeof why) == -1);
    CHECK_STR(why, "hold_silent must be 0 or 1");
}

TEST(cp_estimate_mode_d)
{
    struct dcqcn_bcm_params p;
    struct dcqcn_bcm s;
    double cp, rc, rt;

    setup(&s, &p, DCQCN_BCM_MODE_D, 0.0);
    /* Period 1 (0..45 µs): 100 TX, 10 CNPs: F = 0.1,
     * CP = (15/16)·0 + 0.1/16 = 0.00625; RT = 100 G,
     * RC = 100 G·(1 − 0.003125) = 99.6875 G. */
    period(&s, &p, 1, 100, 10);
    CHECK_NEAR(s.last_f, 0.1, 1e-15);
    CHECK_NEAR(s.cp, 0.00625, 1e-15);
    CHECK(dcqcn_bcm_target_bps(&s) == G100);
    CHECK(dcqcn_bcm_rate_bps(&s) == 99687500000ull);
    CHECK(dcqcn_bcm_deadline(&s) == 90 * US);
    /* Period 2: 100 TX, 50 CNPs: F = 0.5,
     * CP = 0.00625·15/16 + 0.5/16 = 0.005859375 + 0.03125 = 0.037109375;
     * RT = 99.6875 G, RC = 99.6875·(1 − 0.0185546875) G. */
    period(&s, &p, 2, 100, 50);
    cp = 0.037109375;
    rt = 99.6875e9;
    rc = rt * (1 - cp / 2);
    CHECK_NEAR(s.cp, cp, 1e-15);
    CHECK_NEAR(s.rt, rt, 1e-3);
    CHECK_NEAR(s.rc, rc, 1e-3);
    /* Period 3: 100 TX, no CNP: F = 0, CP = cp·15/16; fast recovery
     * RC = (RT + RC)/2. */
    period(&s, &p, 3, 100, 0);
    cp *= 15.0 / 16;
    rc = (rt + rc) / 2;
    CHECK_NEAR(s.last_f, 0, 0);
    CHECK_NEAR(s.cp, cp, 1e-15);
    CHECK_NEAR(s.rc, rc, 1e-3);
    /* Period 4: 150 CNPs for 100 TX: F capped at 1. */
    period(&s, &p, 4, 100, 150);
    cp = cp * 15 / 16 + 1.0 / 16;
    CHECK_NEAR(s.last_f, 1.0, 0);
    CHECK_NEAR(s.cp, cp, 1e-15);
    /* Period 5: CNP but no TX (CNPs for earlier packets): F = 1. */
    period(&s, &p, 5, 0, 1);
    cp = cp * 15 / 16 + 1.0 / 16;
    CHECK_NEAR(s.last_f, 1.0, 0);
    CHECK_NEAR(s.cp, cp, 1e-15);
    /* Period 6: 400 TX, 1 CNP: F = 0.0025. */
    period(&s, &p, 6, 400, 1);
    cp = cp * 15 / 16 + 0.0025 / 16;
    CHECK_NEAR(s.cp, cp, 1e-15);
    CHECK_EQ(s.n_decrease, 5);
    CHECK_EQ(s.n_periods, 6);
}

TEST(cp_estimate_mode_p)
{
    struct dcqcn_bcm_params p;
    struct dcqcn_bcm s;

    setup(&s, &p, DCQCN_BCM_MODE_P, 0.0);
    /* P: F = 1 whenever a CNP arrived, whatever the counts.
     * CP: 1/16, then 15/256 + 16/256 = 31/256; no CNP: 31/256·15/16 =
     * 465/4096; 50 of 100 CNPs: 465/4096·15/16 + 1/16 = (6975 + 4096)/65536
     * = 11071/65536. */
    period(&s, &p, 1, 100, 1);
    CHECK_NEAR(s.cp, 1.0 / 16, 1e-15);
    CHECK(dcqcn_bcm_rate_bps(&s) == 96875000000ull);     /* 100·(1 − 1/32) */
    period(&s, &p, 2, 100, 1);
    CHECK_NEAR(s.cp, 31.0 / 256, 1e-15);
    period(&s, &p, 3, 100, 0);
    CHECK_NEAR(s.cp, 465.0 / 4096, 1e-15);
    period(&s, &p, 4, 100, 50);
    CHECK_NEAR(s.last_f, 1.0, 0);
    CHECK_NEAR(s.cp, 11071.0 / 65536, 1e-15);
}

TEST(doubling_increment)
{
    struct dcqcn_bcm_params p;
    struct dcqcn_bcm s;
    /* After FR, increments 0.1, 0.2, 0.4, ... 6.4, then 12.5 G (cap). */
    static const uint64_t rt_exp[10] = {
        50100000000ull, 50300000000ull, 50700000000ull, 51500000000ull,
        53100000000ull, 56300000000ull, 62700000000ull, 75200000000ull,
        87700000000ull, 100000000000ull };
    static const double rc_exp[10] = {
        48487500000.0, 49393750000.0, 50046875000.0, 50773437500.0,
        51936718750.0, 54118359375.0, 58409179687.5, 66804589843.75,
        77252294921.875, 88626147460.9375 };
    int k;

    /* Default cap 8·R_AI: 0.1, 0.2, 0.4, 0.8, 0.8 ... G. */
    dcqcn_bcm_params_default(&p, G100, DCQCN_BCM_MODE_P);
    CHECK_EQ(dcqcn_bcm_increment(&p, 3), 400000000);
    CHECK_EQ(dcqcn_bcm_increment(&p, 4), 800000000);
    CHECK_EQ(dcqcn_bcm_increment(&p, 5), 800000000);
    /* Below with a 12.5 G cap (line/8), which 2^k·R_AI does not hit
     * exactly. */
    p.r_inc_max_bps = 12500000000ull;
    CHECK_EQ(dcqcn_bcm_increment(&p, 0), 0);
    CHECK_EQ(dcqcn_bcm_increment(&p, 1), 100000000);
    CHECK_EQ(dcqcn_bcm_increment(&p, 2), 200000000);
    CHECK_EQ(dcqcn_bcm_increment(&p, 7), 6400000000ull);
    CHECK_EQ(dcqcn_bcm_increment(&p, 8), 12500000000ull);   /* 12.8 G capped */
    CHECK_EQ(dcqcn_bcm_increment(&p, 64), 12500000000ull);
    CHECK_EQ(dcqcn_bcm_increment(&p, 4000000000u), 12500000000ull);

    /* CP = 1 (cp_init 1, F = 1 keeps it at 1): two congested periods halve
     * RC twice: RT = 50 G, RC = 25 G.  N̂ = ⌊100/50⌋ = 2 < 16: pace 1. */
    setup(&s, &p, DCQCN_BCM_MODE_P, 1.0);
    p.r_inc_max_bps = 12500000000ull;
    period(&s, &p, 1, 10, 1);
    period(&s, &p, 2, 10, 1);
    CHECK(dcqcn_bcm_target_bps(&s) == 50000000000ull);
    CHECK(dcqcn_bcm_rate_bps(&s) == 25000000000ull);
    CHECK_EQ(s.pace, 1);
    /* Fast recovery x3: RC = 37.5, 43.75, 46.875 G; RT unchanged. */
    period(&s, &p, 3, 10, 0);
    CHECK(dcqcn_bcm_rate_bps(&s) == 37500000000ull);
    period(&s, &p, 4, 10, 0);
    period(&s, &p, 5, 10, 0);
    CHECK(dcqcn_bcm_rate_bps(&s) == 46875000000ull);
    CHECK(dcqcn_bcm_target_bps(&s) == 50000000000ull);
    CHECK_EQ(s.n_fr, 3);
    /* Then each CNP-free period doubles the increment. */
    for (k = 0; k < 10; k++) {
        period(&s, &p, 6 + k, 10, 0);
        CHECK(dcqcn_bcm_target_bps(&s) == rt_exp[k]);
        CHECK_NEAR(s.rc, rc_exp[k], 1e-3);
    }
    CHECK_EQ(s.n_inc, 10);
    /* A CNP resets the doubling: after the cut, FR again, then 0.1 G. */
    period(&s, &p, 16, 10, 1);
    CHECK_EQ(s.inc_events, 0);
    period(&s, &p, 17, 10, 0);
    period(&s, &p, 18, 10, 0);
    period(&s, &p, 19, 10, 0);
    CHECK_EQ(s.n_fr, 6);
    {
        double rt0 = s.rt;
        period(&s, &p, 20, 10, 0);
        CHECK_NEAR(s.rt, rt0 + 100e6, 1e-3);
    }
}

TEST(jitter_bounds)
{
    struct dcqcn_bcm_params p;
    struct dcqcn_bcm s;
    int k;

    dcqcn_bcm_params_default(&p, G100, DCQCN_BCM_MODE_P);
    /* ±10% of 45 µs: j = 4.5 µs; length in [40.5, 49.5) µs. */
    CHECK_EQ(dcqcn_bcm_period_len(&p, 0.0), 40500000);
    CHECK_EQ(dcqcn_bcm_period_len(&p, 0.5), 45000000);
    CHECK_EQ(dcqcn_bcm_period_len(&p, 0.25), 42750000);
    CHECK_EQ(dcqcn_bcm_period_len(&p, 1.0), 49500000 - 1);    /* u clamped below 1 */
    CHECK_EQ(dcqcn_bcm_period_len(&p, 0.9999999999999999), 49500000 - 1);
    CHECK_EQ(dcqcn_bcm_period_len(&p, -0.3), 40500000);
    CHECK_EQ(dcqcn_bcm_period_len(&p, NAN), 40500000);
    for (k = 0; k <= 1000; k++) {
        uint64_t len = dcqcn_bcm_period_len(&p, k / 1000.0);
        CHECK(len >= 40500000 && len < 49500000);
    }
    /* No jitter: exactly the base period. */
    p.jitter_ppm = 0;
    CHECK_EQ(dcqcn_bcm_period_len(&p, 0.9), 45000000);
    /* on_timer draws the next period with its u01: a period closed at 45 µs
     * with u = 0.25 ends the next one at 45 + 42.75 µs. */
    dcqcn_bcm_params_default(&p, G100, DCQCN_BCM_MODE_P);
    dcqcn_bcm_init(&s, &p, G100, 0);
    dcqcn_bcm_on_cnp(&s, &p, 3 * US);
    CHECK(dcqcn_bcm_deadline(&s) == 45 * US);               /* idle grid */
    dcqcn_bcm_on_timer(&s, &p, 44 * US, 0.25);              /* early: no-op */
    CHECK_EQ(s.n_periods, 0);
    dcqcn_bcm_on_timer(&s, &p, 45 * US, 0.25);
    CHECK(dcqcn_bcm_deadline(&s) == 87750000);
    /* Late call: next period counted from now. */
    dcqcn_bcm_on_cnp(&s, &p, 50 * US);
    dcqcn_bcm_on_timer(&s, &p, 100 * US, 0.0);
    CHECK(dcqcn_bcm_deadline(&s) == 140500000);
}

TEST(incast_pacing_rule)
{
    struct dcqcn_bcm_params p;
    struct dcqcn_bcm s;
    double rc, rt, cp;
    int k;

    /* pace_for with n0 = 16, pace_max = 8. */
    dcqcn_bcm_params_default(&p, G100, DCQCN_BCM_MODE_P);
    p.incast_n0 = 16;
    p.pace_max = 8;
    CHECK_EQ(dcqcn_bcm_pace_for(&p, 0), 1);
    CHECK_EQ(dcqcn_bcm_pace_for(&p, 15), 1);
    CHECK_EQ(dcqcn_bcm_pace_for(&p, 16), 2);
    CHECK_EQ(dcqcn_bcm_pace_for(&p, 31), 2);
    CHECK_EQ(dcqcn_bcm_pace_for(&p, 32), 4);
    CHECK_EQ(dcqcn_bcm_pace_for(&p, 63), 4);
    CHECK_EQ(dcqcn_bcm_pace_for(&p, 64), 8);
    CHECK_EQ(dcqcn_bcm_pace_for(&p, 1000000), 8);
    p.pace_max = 3;                                   /* cap not a power of 2 */
    CHECK_EQ(dcqcn_bcm_pace_for(&p, 40), 3);
    CHECK_EQ(dcqcn_bcm_pace_for(&p, 20), 2);
    p.pace_max = 1;                                   /* pacing off */
    CHECK_EQ(dcqcn_bcm_pace_for(&p, 1000), 1);
    /* Defaults n0 = 32, pace_max = 4. */
    dcqcn_bcm_params_default(&p, G100, DCQCN_BCM_MODE_P);
    CHECK_EQ(dcqcn_bcm_pace_for(&p, 31), 1);
    CHECK_EQ(dcqcn_bcm_pace_for(&p, 32), 2);
    CHECK_EQ(dcqcn_bcm_pace_for(&p, 64), 4);
    CHECK_EQ(dcqcn_bcm_pace_for(&p, 500), 4);

    /* Persistent congestion (a CNP every period, 45 µs <= W = 180 µs), CP
     * = 1: RC halves 100 -> 50 -> 25 -> 12.5 -> 6.25 -> 3.125 -> 1.5625 G.
     * N̂ = ⌊100 G / RT⌋ at the cuts: 1 (first: no previous congestion),
     * 2, 4, 8, 16 -> pace 2, 32 -> pace 4 (n0 = 16, pace_max = 8). */
    setup(&s, &p, DCQCN_BCM_MODE_P, 1.0);
    p.incast_n0 = 16;
    p.pace_max = 8;
    for (k = 1; k <= 4; k++)
        period(&s, &p, k, 10, 1);
    CHECK_EQ(s.pace, 1);
    period(&s, &p, 5, 10, 1);
    CHECK_EQ(s.pace, 2);
    period(&s, &p, 6, 10, 1);
    CHECK_EQ(s.pace, 4);
    CHECK(dcqcn_bcm_rate_bps(&s) == 1562500000ull);
    CHECK(dcqcn_bcm_target_bps(&s) == 3125000000ull);
    /* Periods 7-9: fast recovery is not paced: RC = 2.34375, 2.734375,
     * 2.9296875 G. */
    period(&s, &p, 7, 10, 0);
    CHECK(dcqcn_bcm_rate_bps(&s) == 2343750000ull);
    period(&s, &p, 8, 10, 0);
    period(&s, &p, 9, 10, 0);
    CHECK(dcqcn_bcm_rate_bps(&s) == 2929687500ull);
    CHECK_EQ(s.n_fr, 3);
    /* After FR (3 CNP-free periods) RT increases every 4th CNP-free
     * period: CNP-free count 7, 11, 15 = periods 13, 17, 21: +0.1 G,
     * +0.2 G, +0.4 G; periods 10-12 nothing. */
    for (k = 10; k <= 12; k++)
        period(&s, &p, k, 10, 0);
    CHECK_EQ(s.n_inc, 0);
    CHECK(dcqcn_bcm_target_bps(&s) == 3125000000ull);
    period(&s, &p, 13, 10, 0);
    CHECK_EQ(s.n_inc, 1);
    CHECK(dcqcn_bcm_target_bps(&s) == 3225000000ull);
    for (k = 14; k <= 21; k++)
        period(&s, &p, k, 10, 0);
    CHECK_EQ(s.n_inc, 3);
    CHECK(dcqcn_bcm_target_bps(&s) == 3825000000ull);
    period(&s, &p, 22, 10, 0);                        /* count 16: none */
    CHECK_EQ(s.n_inc, 3);
    CHECK_EQ(s.pace, 4);
    /* Period 22 ends 16·45 = 720 µs = W·pace after period 6: still paced.
     * Period 23 ends 765 µs after it: pacing ends, and from then on every
     * period increases: +0.8 G (j = 4), then +0.8 G (j = 5: 1.6 G capped
     * at 8·R_AI). */
    period(&s, &p, 23, 10, 0);
    CHECK_EQ(s.pace, 1);
    CHECK(dcqcn_bcm_target_bps(&s) == 4625000000ull);
    period(&s, &p, 24, 10, 0);
    CHECK(dcqcn_bcm_target_bps(&s) == 5425000000ull);
    /* Period 25 congested: the previous congested period (6) is 19
     * periods back > W = 4 periods: not persistent, N̂ = 1, pace 1 even
     * though ⌊100/RC⌋ >= 16.  CP = (15/16)^18 (free periods 7..24) then
     * ·15/16 + 1/16. */
    rt = s.rc;
    period(&s, &p, 25, 10, 1);
    cp = pow(15.0 / 16, 19) + 1.0 / 16;
    rc = rt * (1 - cp / 2);
    CHECK_NEAR(s.cp, cp, 1e-15);
    CHECK_NEAR(s.rc, rc, 1e-3);
    CHECK(1e11 / rt >= 16);
    CHECK_EQ(s.pace, 1);
    /* Period 26 congested again, 45 µs later: persistent, N̂ = ⌊100 G/RC⌋
     * with RC before this cut. */
    rt = s.rc;
    period(&s, &p, 26, 10, 1);
    CHECK_EQ(s.pace, dcqcn_bcm_pace_for(&p, (uint64_t)(1e11 / rt)));
    CHECK(s.pace >= 2);
}

TEST(idle_and_lazy_periods)
{
    struct dcqcn_bcm_params p;
    struct dcqcn_bcm s;
    double cp;
    int k;

    setup(&s, &p, DCQCN_BCM_MODE_D, 1.0);
    /* Idle: TX counts restart on the 45 µs grid. */
    dcqcn_bcm_on_sent(&s, &p, 50, 10 * US);
    CHECK_EQ(s.tx, 50);
    dcqcn_bcm_on_sent(&s, &p, 30, 50 * US);           /* next grid period */
    CHECK_EQ(s.tx, 30);
    CHECK(s.period_end_ps == 90 * US);
    CHECK_NEAR(s.cp, 1.0, 0);                         /* no decay before a CNP */
    /* CNP at 60 µs: loop starts in the 45..90 period; F = 1/30;
     * CP = 15/16 + (1/30)/16. */
    dcqcn_bcm_on_cnp(&s, &p, 60 * US);
    CHECK(dcqcn_bcm_deadline(&s) == 90 * US);
    dcqcn_bcm_on_timer(&s, &p, 90 * US, 0.5);
    cp = 15.0 / 16 + (1.0 / 30) / 16;
    CHECK_NEAR(s.cp, cp, 1e-15);
    CHECK(dcqcn_bcm_target_bps(&s) == G100);
    /* Recover with CNP-free periods until RC = RT = line: then idle. */
    for (k = 3; k < 100 && dcqcn_bcm_deadline(&s) != NONE; k++) {
        cp *= 15.0 / 16;
        dcqcn_bcm_on_timer(&s, &p, (uint64_t)k * T, 0.5);
    }
    CHECK(k < 100);
    CHECK(dcqcn_bcm_deadline(&s) == NONE);
    CHECK(dcqcn_bcm_rate_bps(&s) == G100);
    CHECK_NEAR(s.cp, cp, 1e-15);
    /* The last active period ended at (k−1)·T; the idle grid continues
     * every 45 µs.  A CNP 10 periods + 5 µs later: CP decayed (15/16)^10,
     * the loop restarts with the current grid period ending 40 µs later. */
    {
        uint64_t tend = (uint64_t)k * T;           /* end of current period */
        uint64_t tc = tend + 9 * T + 5 * US;
        dcqcn_bcm_on_cnp(&s, &p, tc);
        CHECK_NEAR(s.cp, cp * pow(15.0 / 16, 10), 1e-15);
        CHECK(dcqcn_bcm_deadline(&s) == tend + 10 * T);
    }
}

TEST(min_rate_floor)
{
    struct dcqcn_bcm_params p;
    struct dcqcn_bcm s;
    int k;

    setup(&s, &p, DCQCN_BCM_MODE_P, 1.0);
    for (k = 1; k <= 20; k++)
        period(&s, &p, k, 10, 1);
    CHECK(dcqcn_bcm_rate_bps(&s) == 100000000ull);
    CHECK_EQ(s.pace, 4);                 /* N̂ = 100 G / RT >= 64: pace_max */
}

TEST(marking)
{
    struct dcqcn_bcm_cp_params c;

    dcqcn_bcm_cp_default(&c, G100);
    CHECK_EQ(c.kmin_bytes, 400000);
    CHECK_EQ(c.kmax_bytes, 1600000);
    CHECK_NEAR(c.pmax, 0.2, 0);
    CHECK_EQ(c.k_bytes, 300000);         /* 30·100/10 KB */
    dcqcn_bcm_cp_default(&c, G25);
    CHECK_EQ(c.k_bytes, 75000);
    /* D: all packets above K, none at or below. */
    CHECK_EQ(dcqcn_bcm_mark_d(75000, 75000), 0);
    CHECK_EQ(dcqcn_bcm_mark_d(75001, 75000), 1);
    CHECK_EQ(dcqcn_bcm_mark_d(0, 0), 0);
    /* P: linear between Kmin and Kmax (midpoint 0.1 at Pmax 0.2). */
    CHECK_EQ(dcqcn_bcm_mark_p(100000, 100000, 400000, 0.2, 0.0), 0);
    CHECK_EQ(dcqcn_bcm_mark_p(250000, 100000, 400000, 0.2, 0.0999), 1);
    CHECK_EQ(dcqcn_bcm_mark_p(250000, 100000, 400000, 0.2, 0.1001), 0);
    CHECK_EQ(dcqcn_bcm_mark_p(400001, 100000, 400000, 0.2, 0.99), 1);
}

/* ---- closed loop ------------------------------------------------------- */

static uint64_t lcg = 7;
static double u01(void)
{
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(lcg >> 11) / 9007199254740992.0;
}

/* nf flows at 40 G into one 40 G bottleneck, 1 µs steps, 1000 B packets
 * marked at enqueue, a CNP for every marked packet (Broadcom NIC NP is
 * not specified; per-packet CNPs make D mode's F meaningful), 4 µs CNP
 * delay. */
static void closed_loop(enum dcqcn_bcm_mode m, int nf, uint32_t pace_max, double *util,
                        double *qavg, double *mn, double *mx, uint32_t *pace_max_seen)
{
    enum { NF = 64, DELAY = 4, STEPS = 40000, WARM = 20000 };
    static struct dcqcn_bcm s[NF];
    static int pend[NF][DELAY + 1];
    static double credit[NF], sent[NF];
    struct dcqcn_bcm_params p;
    struct dcqcn_bcm_cp_params c;
    double q = 0, served = 0, qsum = 0;
    const double per_step = 5000.0;
    int i, k, j;

    dcqcn_bcm_params_default(&p, G40, m);
    if (pace_max)
        p.pace_max = pace_max;
    dcqcn_bcm_cp_default(&c, G40);
    lcg = 7;
    memset(pend, 0, sizeof pend);
    *pace_max_seen = 1;
    for (i = 0; i < nf; i++) {
        dcqcn_bcm_init(&s[i], &p, G40, 0);
        credit[i] = sent[i] = 0;
    }
    for (k = 0; k < STEPS; k++) {
        uint64_t now = (uint64_t)k * US;
        double d;
        for (i = 0; i < nf; i++) {
            for (j = 0; j < pend[i][0]; j++)
                dcqcn_bcm_on_cnp(&s[i], &p, now);
            for (j = 0; j < DELAY; j++)
                pend[i][j] = pend[i][j + 1];
            pend[i][DELAY] = 0;
            if (dcqcn_bcm_deadline(&s[i]) <= now)
                dcqcn_bcm_on_timer(&s[i], &p, now, u01());
            if (s[i].pace > *pace_max_seen)
                *pace_max_seen = s[i].pace;
            credit[i] += (double)dcqcn_bcm_rate_bps(&s[i]) / 8 / 1e6;
            while (credit[i] >= 1000) {
                int mark;
                credit[i] -= 1000;
                mark = m == DCQCN_BCM_MODE_D
                     ? dcqcn_bcm_mark_d((uint64_t)q, c.k_bytes)
                     : dcqcn_bcm_mark_p((uint64_t)q, c.kmin_bytes, c.kmax_bytes, c.pmax, u01());
                if (mark)
                    pend[i][DELAY]++;
                q += 1000;
                dcqcn_bcm_on_sent(&s[i], &p, 1, now);
                if (k >= WARM)
                    sent[i] += 1000;
            }
        }
        d = q < per_step ? q : per_step;
        q -= d;
        if (k >= WARM) {
            served += d;
            qsum += q;
        }
    }
    *util = served / (per_step * (STEPS - WARM));
    *qavg = qsum / (STEPS - WARM);
    *mn = 1e9; *mx = 0;
    for (i = 0; i < nf; i++) {
        double share = sent[i] / (per_step * (STEPS - WARM) / nf);
        if (share < *mn) *mn = share;
        if (share > *mx) *mx = share;
    }
}

TEST(closed_loop_p_and_d)
{
    double util, qavg, mn, mx;
    uint32_t pm;

    closed_loop(DCQCN_BCM_MODE_P, 8, 0, &util, &qavg, &mn, &mx, &pm);
    printf("  bcm-p  8 flows: util %.3f qavg %.0f B share [%.2f, %.2f] pace<=%u\n", util, qavg, mn, mx, pm);
    CHECK(util > 0.85);
    CHECK(qavg < 640000);                  /* below Kmax = 640 KB */
    CHECK(mn > 0.6 && mx < 1.4);
    closed_loop(DCQCN_BCM_MODE_D, 8, 0, &util, &qavg, &mn, &mx, &pm);
    printf("  bcm-d  8 flows: util %.3f qavg %.0f B share [%.2f, %.2f] pace<=%u\n", util, qavg, mn, mx, pm);
    CHECK(util > 0.85);
    CHECK(qavg < 240000);                  /* 2·K = 240 KB */
    CHECK(mn > 0.6 && mx < 1.4);
}

TEST(closed_loop_incast_pacing)
{
    double util, qavg, mn, mx, u1, q1;
    uint32_t pm;
    int m;

    /* 64-to-1: fair share 625 Mb/s, N̂ = 64 -> pace 4.  Pacing must
     * engage and shorten the queue compared with pace_max = 1, at a
     * bounded utilization cost (see the caveat in dcqcn_bcm.h). */
    for (m = DCQCN_BCM_MODE_P; m <= DCQCN_BCM_MODE_D; m++) {
        closed_loop((enum dcqcn_bcm_mode)m, 64, 1, &u1, &q1, &mn, &mx, &pm);
        CHECK_EQ(pm, 1);
        closed_loop((enum dcqcn_bcm_mode)m, 64, 0, &util, &qavg, &mn, &mx, &pm);
        printf("  bcm-%c 64 flows: util %.3f qavg %.0f B share [%.2f, %.2f] pace<=%u"
               " (no pacing: util %.3f qavg %.0f B)\n",
               m == DCQCN_BCM_MODE_P ? 'p' : 'd', util, qavg, mn, mx, pm, u1, q1);
        CHECK(pm > 1);
        CHECK(qavg < q1);
        CHECK(util > 0.65);
        CHECK(mn > 0.4 && mx < 1.6);
    }
}

/* decrease_on_cnp (diagnostic, not the note's reading): the first CNP of
 * a period ends it at once; later CNPs of that period change nothing.
 * P mode, g = 1/16, cp_init = 1, so CP stays 1 while every period has a
 * CNP and each cut halves RC.  Hand-computed:
 *   CNP @10 (idle -> start)  deadline 10;  timer @10: RT 100G, RC 50G, next end 55
 *   CNP @20                  deadline 20;  timer @20: RT 50G,  RC 25G, next end 65
 *   CNPs @30, @31            deadline 30;  timer @30: RT 25G,  RC 12.5G (one cut), next end 75
 *   no CNP, timer @75:       CP = 15/16, fast recovery RC = (25 + 12.5)/2 = 18.75G
 * With decrease_on_cnp = 0 the same CNP leaves the deadline at the period end. */
TEST(decrease_on_cnp)
{
    struct dcqcn_bcm_params p;
    struct dcqcn_bcm s;

    setup(&s, &p, DCQCN_BCM_MODE_P, 1.0);
    p.decrease_on_cnp = 1;
    CHECK(dcqcn_bcm_params_check(&p, NULL, 0) == 0);
    dcqcn_bcm_on_cnp(&s, &p, 10 * US);
    CHECK_EQ(dcqcn_bcm_deadline(&s), 10 * US);
    dcqcn_bcm_on_timer(&s, &p, 10 * US, 0.5);
    CHECK_EQ(dcqcn_bcm_target_bps(&s), G100);
    CHECK_EQ(dcqcn_bcm_rate_bps(&s), 50000000000ull);
    CHECK_EQ(dcqcn_bcm_deadline(&s), 55 * US);
    dcqcn_bcm_on_cnp(&s, &p, 20 * US);
    CHECK_EQ(dcqcn_bcm_deadline(&s), 20 * US);
    dcqcn_bcm_on_timer(&s, &p, 20 * US, 0.5);
    CHECK_EQ(dcqcn_bcm_target_bps(&s), 50000000000ull);
    CHECK_EQ(dcqcn_bcm_rate_bps(&s), 25000000000ull);
    CHECK_EQ(dcqcn_bcm_deadline(&s), 65 * US);
    dcqcn_bcm_on_cnp(&s, &p, 30 * US);
    dcqcn_bcm_on_cnp(&s, &p, 31 * US);
    CHECK_EQ(dcqcn_bcm_deadline(&s), 30 * US);
    dcqcn_bcm_on_timer(&s, &p, 31 * US, 0.5);
    CHECK_EQ(dcqcn_bcm_rate_bps(&s), 12500000000ull);
    CHECK_EQ(s.n_decrease, 3);
    CHECK_EQ(dcqcn_bcm_deadline(&s), 76 * US);
    dcqcn_bcm_on_timer(&s, &p, 76 * US, 0.5);
    CHECK_NEAR(s.cp, 15.0 / 16, 1e-12);
    CHECK_EQ(dcqcn_bcm_rate_bps(&s), 18750000000ull);

    setup(&s, &p, DCQCN_BCM_MODE_P, 1.0);           /* the note's default */
    dcqcn_bcm_on_cnp(&s, &p, 10 * US);
    CHECK_EQ(dcqcn_bcm_deadline(&s), 45 * US);
    CHECK_EQ(dcqcn_bcm_rate_bps(&s), G100);
}

/* hold_silent: a period with neither TX nor CNP (F = 0/0) leaves CP, RC,
 * RT and the recovery counters alone.  P mode, g = 1/16, cp_init = 1:
 *   period 1 (tx 4, cnp 1): CP 1, RT 100G, RC 50G
 *   period 2 silent:        hold: nothing changes (default: FR to 75G, CP 15/16)
 *   period 3 (tx 4, cnp 0): CP 15/16, first FR step RC = 75G
 * so the hold delays recovery by exactly one period. */
TEST(hold_silent)
{
    struct dcqcn_bcm_params p;
    struct dcqcn_bcm s, d;

    setup(&s, &p, DCQCN_BCM_MODE_P, 1.0);
    p.hold_silent = 1;
    period(&s, &p, 1, 4, 1);
    CHECK_EQ(dcqcn_bcm_rate_bps(&s), 50000000000ull);
    period(&s, &p, 2, 0, 0);
    CHECK_NEAR(s.cp, 1.0, 1e-12);
    CHECK_EQ(dcqcn_bcm_rate_bps(&s), 50000000000ull);
    CHECK_EQ(dcqcn_bcm_target_bps(&s), G100);
    CHECK_EQ(s.n_fr, 0);
    CHECK_EQ(s.n_periods, 2);
    CHECK_EQ(dcqcn_bcm_deadline(&s), 3 * T);
    period(&s, &p, 3, 4, 0);
    CHECK_NEAR(s.cp, 15.0 / 16, 1e-12);
    CHECK_EQ(dcqcn_bcm_rate_bps(&s), 75000000000ull);
    CHECK_EQ(s.n_fr, 1);

    setup(&d, &p, DCQCN_BCM_MODE_P, 1.0);            /* default: silent = no congestion */
    period(&d, &p, 1, 4, 1);
    period(&d, &p, 2, 0, 0);
    CHECK_NEAR(d.cp, 15.0 / 16, 1e-12);
    CHECK_EQ(dcqcn_bcm_rate_bps(&d), 75000000000ull);
}

int main(void)
{
    test_binary_ = "test_dcqcn_bcm";
    RUN(defaults);
    RUN(params_check);
    RUN(cp_estimate_mode_d);
    RUN(cp_estimate_mode_p);
    RUN(doubling_increment);
    RUN(jitter_bounds);
    RUN(incast_pacing_rule);
    RUN(idle_and_lazy_periods);
    RUN(min_rate_floor);
    RUN(decrease_on_cnp);
    RUN(hold_silent);
    RUN(marking);
    RUN(closed_loop_p_and_d);
    RUN(closed_loop_incast_pacing);
    return test_summary();
}
