/*
 * test_rocc_cp.c -- unit tests of the RoCC CP fair-rate calculator (Alg. 1).
 *
 * Unless noted, params are the 40G defaults: ΔQ 600 B, Qref/Qmid/Qmax =
 * 250/500/600 ΔQ, Fmin 10, Fmax 4000 (so the MD guard Fmax/8 = 500),
 * α̃ = 19661/2^16, β̃ = 98304/2^16.  Expected values are computed by hand
 * in the comments: num = α̃q16·(Qcur−Qref) + β̃q16·(Qcur−Qold),
 * step = num / (65536·ratio) truncated toward zero, F' = F − step.
 */
#include "test.h"

#include "cc/rocc_cp.h"

#define KB 1000ull
#define Q(units) ((uint64_t)(units) * 600u)   /* ΔQ units -> bytes */

static struct rocc_cp_params p40;

static void setup40(struct rocc_cp *cp)
{
    rocc_cp_params_default(&p40, 40000000000ull);
    rocc_cp_init(cp, &p40);
}

/* Put the CP in state (F, Qold) without running an update. */
static void set_state(struct rocc_cp *cp, int32_t f, uint32_t q_old)
{
    cp->f = f;
    cp->q_old = q_old;
}

TEST(defaults_40g_100g_10g)
{
    struct rocc_cp_params p;
    char why[64];

    rocc_cp_params_default(&p, 40000000000ull);
    CHECK_EQ(p.q_unit_bytes, 600); CHECK_EQ(p.f_unit_mbps, 10);
    CHECK_EQ(p.q_ref, 250); CHECK_EQ(p.q_mid, 500); CHECK_EQ(p.q_max, 600);
    CHECK_EQ(p.f_min, 10); CHECK_EQ(p.f_max, 4000); CHECK_EQ(p.f_init, 4000);
    CHECK_EQ(p.alpha_q16, 19661); CHECK_EQ(p.beta_q16, 98304);
    CHECK_EQ(p.period_ps, 40000000ull);
    CHECK_EQ(rocc_cp_params_check(&p, why, sizeof why), 0);

    rocc_cp_params_default(&p, 100000000000ull);
    CHECK_EQ(p.q_ref, 500); CHECK_EQ(p.q_mid, 1000); CHECK_EQ(p.q_max, 1100);
    CHECK_EQ(p.f_min, 10); CHECK_EQ(p.f_max, 10000);
    CHECK_EQ(p.alpha_q16, 29491); CHECK_EQ(p.beta_q16, 147456);
    CHECK_EQ(p.period_ps, 40000000ull);
    CHECK_EQ(rocc_cp_params_check(&p, why, sizeof why), 0);

    rocc_cp_params_default(&p, 10000000000ull);
    CHECK_EQ(p.q_ref, 125); CHECK_EQ(p.q_mid, 250); CHECK_EQ(p.q_max, 350);
    CHECK_EQ(p.f_max, 1000); CHECK_EQ(p.f_min, 10);
    CHECK_EQ(p.alpha_q16, 19661); CHECK_EQ(p.beta_q16, 98304);
    CHECK_EQ(p.period_ps, 100000000ull);
    CHECK_EQ(rocc_cp_params_check(&p, why, sizeof why), 0);
    CHECK_EQ(rocc_cp_rate_bps(&p, 300), 3000000000ull);
}

TEST(defaults_other_speeds)
{
    struct rocc_cp_params p;
    char why[64];

    /* 25G: 250·25/40 = 156.25 -> 156, 312.5 -> 312, 375; nearest by ratio
     * is 40G (40/25 = 1.6 < 25/10 = 2.5). */
    rocc_cp_params_default(&p, 25000000000ull);
    CHECK_EQ(p.q_ref, 156); CHECK_EQ(p.q_mid, 312); CHECK_EQ(p.q_max, 375);
    CHECK_EQ(p.f_max, 2500); CHECK_EQ(p.period_ps, 40000000ull);
    CHECK_EQ(p.alpha_q16, 19661);
    CHECK_EQ(rocc_cp_params_check(&p, why, sizeof why), 0);

    /* 200G: 1250/2500/3000, 100G profile. */
    rocc_cp_params_default(&p, 200000000000ull);
    CHECK_EQ(p.q_ref, 1250); CHECK_EQ(p.q_mid, 2500); CHECK_EQ(p.q_max, 3000);
    CHECK_EQ(p.f_max, 20000); CHECK_EQ(p.alpha_q16, 29491);
    CHECK_EQ(rocc_cp_params_check(&p, why, sizeof why), 0);

    /* 63G -> 40G profile, 64G -> 100G (midpoint √4000 G ≈ 63.25G). */
    rocc_cp_params_default(&p, 63000000000ull);
    CHECK_EQ(p.alpha_q16, 19661);
    rocc_cp_params_default(&p, 64000000000ull);
    CHECK_EQ(p.alpha_q16, 29491);
    /* 19G -> 10G profile (T 100 µs), 20G -> 40G profile. */
    rocc_cp_params_default(&p, 19000000000ull);
    CHECK_EQ(p.period_ps, 100000000ull);
    rocc_cp_params_default(&p, 20000000000ull);
    CHECK_EQ(p.period_ps, 40000000ull);

    /* 1G: 6.25 -> 6, 12.5 -> 12, 15; Fmax 100. */
    rocc_cp_params_default(&p, 1000000000ull);
    CHECK_EQ(p.q_ref, 6); CHECK_EQ(p.q_mid, 12); CHECK_EQ(p.q_max, 15);
    CHECK_EQ(p.f_max, 100); CHECK_EQ(p.f_min, 10);
    CHECK_EQ(rocc_cp_params_check(&p, why, sizeof why), 0);

    /* 50 Mb/s: thresholds forced to 1 < 2 < 3, Fmin = Fmax = 5. */
    rocc_cp_params_default(&p, 50000000ull);
    CHECK_EQ(p.q_ref, 1); CHECK_EQ(p.q_mid, 2); CHECK_EQ(p.q_max, 3);
    CHECK_EQ(p.f_max, 5); CHECK_EQ(p.f_min, 5); CHECK_EQ(p.f_init, 5);
    CHECK_EQ(rocc_cp_params_check(&p, why, sizeof why), 0);

    /* 0 b/s still yields valid params (Fmax floored at 1). */
    rocc_cp_params_default(&p, 0);
    CHECK_EQ(p.f_max, 1); CHECK_EQ(p.f_min, 1);
    CHECK_EQ(rocc_cp_params_check(&p, why, sizeof why), 0);
}

TEST(params_check_messages)
{
    struct rocc_cp_params p, b;
    char why[64];

    rocc_cp_params_default(&p, 40000000000ull);
    b = p; b.q_mid = b.q_ref;
    CHECK_EQ(rocc_cp_params_check(&b, why, sizeof why), -1);
    CHECK_STR(why, "q_mid must be > q_ref");
    b = p; b.q_max = b.q_mid;
    CHECK_EQ(rocc_cp_params_check(&b, why, sizeof why), -1);
    CHECK_STR(why, "q_max must be > q_mid");
    b = p; b.q_ref = 0;
    CHECK_EQ(rocc_cp_params_check(&b, why, sizeof why), -1);
    CHECK_STR(why, "q_ref must be > 0");
    b = p; b.f_min = 0;
    CHECK_EQ(rocc_cp_params_check(&b, why, sizeof why), -1);
    CHECK_STR(why, "f_min must be > 0");
    b = p; b.f_max = 9;
    CHECK_EQ(rocc_cp_params_check(&b, why, sizeof why), -1);
    CHECK_STR(why, "f_max must be >= f_min");
    b = p; b.q_unit_bytes = 0;
    CHECK_EQ(rocc_cp_params_check(&b, why, sizeof why), -1);
    CHECK_STR(why, "q_unit_bytes must be > 0");
    b = p; b.f_unit_mbps = 0;
    CHECK_EQ(rocc_cp_params_check(&b, why, sizeof why), -1);
    CHECK_STR(why, "f_unit_mbps must be > 0");
    b = p; b.period_ps = 0;
    CHECK_EQ(rocc_cp_params_check(&b, why, sizeof why), -1);
    CHECK_STR(why, "period_ps must be > 0");
    b = p; b.f_init = 4001;
    CHECK_EQ(rocc_cp_params_check(&b, why, sizeof why), -1);
    CHECK_STR(why, "f_init must be in [f_min, f_max]");
    b = p; b.f_init = 9;
    CHECK_EQ(rocc_cp_params_check(&b, why, sizeof why), -1);
    b = p; b.alpha_q16 = ROCC_CP_MAX_GAIN_Q16 + 1;
    CHECK_EQ(rocc_cp_params_check(&b, why, sizeof why), -1);
    b = p; b.pi_round = 7;
    CHECK_EQ(rocc_cp_params_check(&b, why, sizeof why), -1);
    b = p; b.md_qmax = 2;
    CHECK_EQ(rocc_cp_params_check(&b, why, sizeof why), -1);
    CHECK_STR(why, "md_qmax must be FMIN or HALF");
    /* Truncated and absent why buffers. */
    b = p; b.q_mid = b.q_ref;
    CHECK_EQ(rocc_cp_params_check(&b, why, 6), -1);
    CHECK_STR(why, "q_mid");
    CHECK_EQ(rocc_cp_params_check(&b, NULL, 0), -1);
    CHECK_EQ(rocc_cp_params_check(NULL, why, sizeof why), -1);
}

TEST(init_state)
{
    struct rocc_cp cp;

    setup40(&cp);
    CHECK_EQ(cp.f, 4000);
    CHECK_EQ(cp.q_old, 0);
    CHECK_EQ(cp.n_updates, 0);
}

TEST(queue_bytes_to_units)
{
    struct rocc_cp cp;

    setup40(&cp);
    set_state(&cp, 400, 0);
    rocc_cp_update(&cp, &p40, 599);  CHECK_EQ(cp.q_old, 0);
    rocc_cp_update(&cp, &p40, 600);  CHECK_EQ(cp.q_old, 1);
    rocc_cp_update(&cp, &p40, 1199); CHECK_EQ(cp.q_old, 1);
    /* Saturates instead of wrapping; stays defined under UBSan. */
    set_state(&cp, 100, 0);
    CHECK_EQ(rocc_cp_update(&cp, &p40, UINT64_MAX), 10);
    CHECK_EQ(cp.q_old, UINT32_MAX);
}

TEST(md_to_fmin)
{
    struct rocc_cp cp;

    /* F 4000 > 500 and Qcur 600 >= Qmax: F = Fmin (line 3). */
    setup40(&cp);
    CHECK_EQ(rocc_cp_update(&cp, &p40, 360 * KB), 10);
    CHECK_EQ(cp.n_md_fmin, 1); CHECK_EQ(cp.n_pi, 0);
    CHECK_EQ(cp.q_old, 600); CHECK_EQ(cp.last_ratio, 0);

    /* Just above the guard: F 501 > 500 -> Fmin even with no growth. */
    set_state(&cp, 501, 700);
    CHECK_EQ(rocc_cp_update(&cp, &p40, Q(700)), 10);
    CHECK_EQ(cp.n_md_fmin, 2);
    CHECK_EQ(cp.q_old, 700);
}

TEST(md_not_when_f_le_fmax_over_8)
{
    struct rocc_cp cp;

    /* F = 500 = Fmax/8, Qcur 600 >= Qmax, Qold 0: both MD guards fail, PI
     * runs.  ratio(500) = 4 (500 < 4000/2, < 4000/4, not < 4000/8).
     * num = 19661·350 + 98304·600 = 6881350 + 58982400 = 65863750,
     * step = 65863750 / 262144 = 251.25 -> 251, F = 500 − 251 = 249. */
    setup40(&cp);
    set_state(&cp, 500, 0);
    CHECK_EQ(rocc_cp_update(&cp, &p40, Q(600)), 249);
    CHECK_EQ(cp.n_md_fmin, 0); CHECK_EQ(cp.n_md_half, 0); CHECK_EQ(cp.n_pi, 1);
    CHECK_EQ(cp.last_ratio, 4);
    CHECK_EQ(cp.q_old, 600);

    /* Fmax = 4007: Fmax/8 = 500 by integer division, so F = 500 still
     * skips MD and F = 501 takes it. */
    {
        struct rocc_cp_params p = p40;
        p.f_max = 4007; p.f_init = 500;
        rocc_cp_init(&cp, &p);
        rocc_cp_update(&cp, &p, Q(600));
        CHECK_EQ(cp.n_md_fmin, 0);
        set_state(&cp, 501, 0);
        CHECK_EQ(rocc_cp_update(&cp, &p, Q(600)), 10);
        CHECK_EQ(cp.n_md_fmin, 1);
    }
}

TEST(md_halving_on_growth)
{
    struct rocc_cp cp;

    /* Qcur − Qold = 550 − 50 = 500 >= Qmid, Qcur < Qmax, F 4000: F/2. */
    setup40(&cp);
    set_state(&cp, 4000, 50);
    CHECK_EQ(rocc_cp_update(&cp, &p40, Q(550)), 2000);
    CHECK_EQ(cp.n_md_half, 1); CHECK_EQ(cp.q_old, 550);
    /* 1001 / 2 = 500 (integer). */
    set_state(&cp, 1001, 0);
    CHECK_EQ(rocc_cp_update(&cp, &p40, Q(500)), 500);
    CHECK_EQ(cp.n_md_half, 2); CHECK_EQ(cp.q_old, 500);
    /* Growth 499 < Qmid: PI instead.  F 2000 (ratio 1), Qold 0, Qcur 499:
     * num = 19661·249 + 98304·499 = 4895589 + 49053696 = 53949285,
     * step = 53949285 / 65536 = 823.2 -> 823, F = 1177. */
    set_state(&cp, 2000, 0);
    CHECK_EQ(rocc_cp_update(&cp, &p40, Q(499)), 1177);
    CHECK_EQ(cp.n_md_half, 2); CHECK_EQ(cp.n_pi, 1);
    /* Growth >= Qmid but F 500 not > Fmax/8: PI, no halving.
     * ratio(500) = 4; num = 19661·(550−250) + 98304·500 = 5898300 +
     * 49152000 = 55050300; step = 55050300 / 262144 = 210.0 -> 210. */
    set_state(&cp, 500, 50);
    CHECK_EQ(rocc_cp_update(&cp, &p40, Q(550)), 290);
    CHECK_EQ(cp.n_md_half, 2);
}

TEST(pi_steps_by_hand)
{
    struct rocc_cp cp;

    setup40(&cp);
    /* At equilibrium (Qcur = Qold = Qref) nothing moves.  ratio(400) = 8. */
    set_state(&cp, 400, 250);
    CHECK_EQ(rocc_cp_update(&cp, &p40, Q(250)), 400);
    CHECK_EQ(cp.last_ratio, 8);
    /* F 400, Qold 250, Qcur 260: num = 19661·10 + 98304·10 = 1179650,
     * den = 65536·8 = 524288, step = 2.25 -> 2, F = 398. */
    set_state(&cp, 400, 250);
    CHECK_EQ(rocc_cp_update(&cp, &p40, Q(260)), 398);
    /* F 400, Qold 260, Qcur 240: num = −196610 − 1966080 = −2162690,
     * step = −4.125 -> −4, F = 404. */
    set_state(&cp, 400, 260);
    CHECK_EQ(rocc_cp_update(&cp, &p40, Q(240)), 404);
    /* Empty queue at F 3000 (ratio 1): num = 19661·(−250) = −4915250,
     * step = −75.0008 -> −75, F = 3075: the additive increase a·Qref. */
    set_state(&cp, 3000, 0);
    CHECK_EQ(rocc_cp_update(&cp, &p40, 0), 3075);
    CHECK_EQ(cp.last_ratio, 1);
    /* F 2000 (ratio 1), Qold 100, Qcur 300: num = 19661·50 + 98304·200 =
     * 983050 + 19660800 = 20643850, step = 315.0002 -> 315, F = 1685. */
    set_state(&cp, 2000, 100);
    CHECK_EQ(rocc_cp_update(&cp, &p40, Q(300)), 1685);
}

TEST(pi_truncates_toward_zero)
{
    struct rocc_cp cp;

    setup40(&cp);
    /* Negative term: F 10 (ratio 32), empty queue: num = −4915250,
     * den = 2097152, step = −2.34 -> −2 (floor would give −3): F = 12. */
    set_state(&cp, 10, 0);
    CHECK_EQ(rocc_cp_update(&cp, &p40, 0), 12);
    CHECK_EQ(cp.last_ratio, 32);
    /* Positive term: step 2.25 -> 2 (ceil would give 3): F = 398. */
    set_state(&cp, 400, 250);
    CHECK_EQ(rocc_cp_update(&cp, &p40, Q(260)), 398);
    /* |step| < 1 both ways: no change.  F 400 (den 524288), Qold = Qcur =
     * 251: num = 19661 -> 0.0375 -> 0; Qcur = Qold = 249: −0.0375 -> 0. */
    set_state(&cp, 400, 251);
    CHECK_EQ(rocc_cp_update(&cp, &p40, Q(251)), 400);
    set_state(&cp, 400, 249);
    CHECK_EQ(rocc_cp_update(&cp, &p40, Q(249)), 400);
}

TEST(pi_authors_rounding)
{
    struct rocc_cp cp;
    struct rocc_cp_params p;

    rocc_cp_params_default(&p, 40000000000ull);
    p.pi_round = ROCC_CP_ROUND_AUTHORS;
    rocc_cp_init(&cp, &p);
    /* floor(400 − 2.25) = 397, floor(400 + 4.125) = 404,
     * floor(10 + 2.34) = 12, exact 0 -> 400. */
    set_state(&cp, 400, 250);
    CHECK_EQ(rocc_cp_update(&cp, &p, Q(260)), 397);
    set_state(&cp, 400, 260);
    CHECK_EQ(rocc_cp_update(&cp, &p, Q(240)), 404);
    set_state(&cp, 10, 0);
    CHECK_EQ(rocc_cp_update(&cp, &p, 0), 12);
    set_state(&cp, 400, 250);
    CHECK_EQ(rocc_cp_update(&cp, &p, Q(250)), 400);
}

TEST(autotune_levels_and_boundaries)
{
    /* Fmax 4000: ratio 1 for F >= 2000, 2 for [1000,1999], 4 for
     * [500,999], 8 for [250,499], 16 for [125,249], 32 below 125. */
    CHECK_EQ(rocc_cp_autotune_ratio(4000, 4000), 1);
    CHECK_EQ(rocc_cp_autotune_ratio(2000, 4000), 1);
    CHECK_EQ(rocc_cp_autotune_ratio(1999, 4000), 2);
    CHECK_EQ(rocc_cp_autotune_ratio(1000, 4000), 2);
    CHECK_EQ(rocc_cp_autotune_ratio(999, 4000), 4);
    CHECK_EQ(rocc_cp_autotune_ratio(500, 4000), 4);
    CHECK_EQ(rocc_cp_autotune_ratio(499, 4000), 8);
    CHECK_EQ(rocc_cp_autotune_ratio(250, 4000), 8);
    CHECK_EQ(rocc_cp_autotune_ratio(249, 4000), 16);
    CHECK_EQ(rocc_cp_autotune_ratio(125, 4000), 16);
    CHECK_EQ(rocc_cp_autotune_ratio(124, 4000), 32);
    CHECK_EQ(rocc_cp_autotune_ratio(10, 4000), 32);
    CHECK_EQ(rocc_cp_autotune_ratio(0, 4000), 32);
    CHECK_EQ(rocc_cp_autotune_ratio(-5, 4000), 32);
    /* Fmax 10000: boundaries 5000, 2500, 1250, 625, 312 (10000/32). */
    CHECK_EQ(rocc_cp_autotune_ratio(5000, 10000), 1);
    CHECK_EQ(rocc_cp_autotune_ratio(4999, 10000), 2);
    CHECK_EQ(rocc_cp_autotune_ratio(2499, 10000), 4);
    CHECK_EQ(rocc_cp_autotune_ratio(1249, 10000), 8);
    CHECK_EQ(rocc_cp_autotune_ratio(624, 10000), 16);
    CHECK_EQ(rocc_cp_autotune_ratio(312, 10000), 16);
    CHECK_EQ(rocc_cp_autotune_ratio(311, 10000), 32);
    /* Integer division: Fmax 4007 -> 2003 is the ratio-1 boundary. */
    CHECK_EQ(rocc_cp_autotune_ratio(2003, 4007), 1);
    CHECK_EQ(rocc_cp_autotune_ratio(2002, 4007), 2);
}

TEST(clamping)
{
    struct rocc_cp cp;

    setup40(&cp);
    /* Empty queue at Fmax: 4000 + 75 -> clamped to 4000. */
    CHECK_EQ(rocc_cp_update(&cp, &p40, 0), 4000);
    CHECK_EQ(cp.n_clamp_max, 1);
    /* F 10 (ratio 32), Qold = Qcur = 599 (< Qmax): num = 19661·349 =
     * 6861689, step = 3.27 -> 3, F = 7 -> clamped to Fmin 10. */
    set_state(&cp, 10, 599);
    CHECK_EQ(rocc_cp_update(&cp, &p40, Q(599)), 10);
    CHECK_EQ(cp.n_clamp_min, 1);
    /* F 20, Qold 0, Qcur 1000: F ≤ 500 so PI; step = 53.9 -> 53,
     * F = −33 -> Fmin. */
    set_state(&cp, 20, 0);
    CHECK_EQ(rocc_cp_update(&cp, &p40, Q(1000)), 10);
    CHECK_EQ(cp.n_clamp_min, 2);
    CHECK_EQ(cp.q_old, 1000);
    /* A custom Fmin above the PI result. */
    {
        struct rocc_cp_params p = p40;
        p.f_min = 300; p.f_init = 300;
        rocc_cp_init(&cp, &p);
        /* F 400 (ratio 8), Qold 0, Qcur 500 (growth >= Qmid but F <= 500):
         * num = 19661·250 + 98304·500 = 54067250, step = 103.1 -> 103,
         * F = 297 -> 300. */
        set_state(&cp, 400, 0);
        CHECK_EQ(rocc_cp_update(&cp, &p, Q(500)), 300);
    }
}

TEST(qold_updated_in_every_branch)
{
    struct rocc_cp cp;

    setup40(&cp);
    set_state(&cp, 4000, 0);  rocc_cp_update(&cp, &p40, Q(650));   /* MD Fmin */
    CHECK_EQ(cp.n_md_fmin, 1); CHECK_EQ(cp.q_old, 650);
    set_state(&cp, 4000, 0);  rocc_cp_update(&cp, &p40, Q(520));   /* MD half */
    CHECK_EQ(cp.n_md_half, 1); CHECK_EQ(cp.q_old, 520);
    set_state(&cp, 400, 0);   rocc_cp_update(&cp, &p40, Q(100));   /* PI */
    CHECK_EQ(cp.n_pi, 1); CHECK_EQ(cp.q_old, 100);
    set_state(&cp, 4000, 0);  rocc_cp_update(&cp, &p40, 0);        /* PI+clamp */
    CHECK_EQ(cp.n_clamp_max, 1); CHECK_EQ(cp.q_old, 0);
    set_state(&cp, 10, 0);    rocc_cp_update(&cp, &p40, Q(590));   /* PI+clamp */
    CHECK_EQ(cp.n_clamp_min, 1); CHECK_EQ(cp.q_old, 590);
    CHECK_EQ(cp.n_updates, 5);
}

TEST(md_sequence)
{
    struct rocc_cp cp;
    uint32_t f;

    /* A burst: queue jumps 0 -> 550 ΔQ (growth >= Qmid): 4000 -> 2000.
     * Then Qcur 650 >= Qmax with F 2000 > 500: Fmin.  Then Qcur 700, F 10
     * is below the guard: PI at ratio 32: num = 19661·450 + 98304·50 =
     * 8847450 + 4915200 = 13762650, step = 6.56 -> 6, F = 4 -> Fmin. */
    setup40(&cp);
    CHECK_EQ(rocc_cp_update(&cp, &p40, Q(550)), 2000);
    CHECK_EQ(rocc_cp_update(&cp, &p40, Q(650)), 10);
    f = rocc_cp_update(&cp, &p40, Q(700));
    CHECK_EQ(f, 10);
    CHECK_EQ(cp.n_md_half, 1); CHECK_EQ(cp.n_md_fmin, 1); CHECK_EQ(cp.n_pi, 1);
}

TEST(md_qmax_half)
{
    struct rocc_cp cp;
    struct rocc_cp_params p;

    /* The paper's Qmax branch is the default. */
    rocc_cp_params_default(&p, 40000000000ull);
    CHECK_EQ(p.md_qmax, ROCC_CP_MDQ_FMIN);
    rocc_cp_init(&cp, &p);
    CHECK_EQ(rocc_cp_update(&cp, &p, Q(600)), 10);
    CHECK_EQ(cp.n_md_qmax, 1); CHECK_EQ(cp.n_md_fmin, 1); CHECK_EQ(cp.n_md_half, 0);

    /* HALF: the queue sits at or above Qmax = 600 ΔQ with no growth >= Qmid
     * after the first period.  4000 -> 2000 -> 1000 -> 500 (each F > 500,
     * the guard); then F 500 is not above the guard, so the PI runs at
     * ratio 4 (500 < 4000/4 but not < 4000/8): num = 19661·(700−250) +
     * 98304·0 = 8847450, step = 8847450 / 262144 = 33.75 -> 33, F = 467. */
    p.md_qmax = ROCC_CP_MDQ_HALF;
    rocc_cp_init(&cp, &p);
    CHECK_EQ(rocc_cp_update(&cp, &p, Q(600)), 2000);
    CHECK_EQ(rocc_cp_update(&cp, &p, Q(650)), 1000);
    CHECK_EQ(rocc_cp_update(&cp, &p, Q(700)), 500);
    CHECK_EQ(cp.n_md_qmax, 3); CHECK_EQ(cp.n_md_half, 3); CHECK_EQ(cp.n_md_fmin, 0);
    CHECK_EQ(cp.last_ratio, 0);
    CHECK_EQ(rocc_cp_update(&cp, &p, Q(700)), 467);
    CHECK_EQ(cp.last_ratio, 4); CHECK_EQ(cp.n_pi, 1); CHECK_EQ(cp.n_md_qmax, 3);

    /* The Qmid (growth) branch is unchanged: Qold 0 -> 550 halves F, and
     * is not counted as a Qmax MD. */
    rocc_cp_init(&cp, &p);
    CHECK_EQ(rocc_cp_update(&cp, &p, Q(550)), 2000);
    CHECK_EQ(cp.n_md_half, 1); CHECK_EQ(cp.n_md_qmax, 0);

    /* Halving is clamped at Fmin like every branch: with Fmax 16 the guard
     * is 16/8 = 2, so F 11 > 2 at Qcur >= Qmax halves to 5 -> Fmin 10. */
    p.f_max = 16; p.f_init = 11;
    CHECK_EQ(rocc_cp_params_check(&p, NULL, 0), 0);
    rocc_cp_init(&cp, &p);
    CHECK_EQ(rocc_cp_update(&cp, &p, Q(600)), 10);
    CHECK_EQ(cp.n_md_half, 1); CHECK_EQ(cp.n_clamp_min, 1);
}

/* Toy fluid loop: n flows all sending at the fair rate the CP computed one
 * period earlier (Eq. 2 of §5.1, F(t − T)), one bottleneck of cap_bps.
 * Gives the mean F and queue (ΔQ units) over the last 200 periods and the
 * largest deviations from C/N and Qref there. */
static void fluid(const struct rocc_cp_params *p, uint64_t cap_bps, unsigned n,
                  unsigned periods, double *f_mean, double *q_mean,
                  double *f_dev, double *q_dev)
{
    struct rocc_cp cp;
    double q = 0, t = (double)p->period_ps * 1e-12;
    uint32_t f_prev, f_cur;
    double fs = 0, qs = 0, fmax_dev = 0, qmax_dev = 0;
    unsigned k, tail = 200;
    double fs_target = (double)cap_bps / n / (p->f_unit_mbps * 1e6);

    rocc_cp_init(&cp, p);
    f_prev = f_cur = p->f_init;
    for (k = 0; k < periods; k++) {
        double in = (double)n * (double)rocc_cp_rate_bps(p, f_prev);
        q += (in - (double)cap_bps) * t / 8;
        if (q < 0) q = 0;
        f_prev = f_cur;
        f_cur = rocc_cp_update(&cp, p, (uint64_t)q);
        if (k >= periods - tail) {
            double qu = q / p->q_unit_bytes;
            fs += f_cur; qs += qu;
            if (fabs(f_cur - fs_target) > fmax_dev) fmax_dev = fabs(f_cur - fs_target);
            if (fabs(qu - p->q_ref) > qmax_dev) qmax_dev = fabs(qu - p->q_ref);
        }
    }
    *f_mean = fs / tail;
    *q_mean = qs / tail;
    *f_dev = fmax_dev;
    *q_dev = qmax_dev;
}

TEST(closed_loop_fluid_settles)
{
    static const unsigned ns[] = { 2, 3, 10, 30, 100 };
    static const uint64_t links[] = { 40000000000ull, 100000000000ull, 10000000000ull };
    unsigned i, j, r;

    /* Both rounding modes (the brief's truncation and the authors'). */
    for (r = 0; r < 2; r++)
    for (j = 0; j < sizeof links / sizeof links[0]; j++) {
        struct rocc_cp_params p;
        rocc_cp_params_default(&p, links[j]);
        p.pi_round = r ? ROCC_CP_ROUND_AUTHORS : ROCC_CP_ROUND_TRUNC;
        for (i = 0; i < sizeof ns / sizeof ns[0]; i++) {
            double fm, qm, fd, qd;
            double target = (double)links[j] / ns[i] / 1e7;   /* ΔF units */
            /* At C/N = Fmin the arrival rate can never drop below C, so no
             * controller can drain the queue: skip (10G, N = 100). */
            if (target <= 2.0 * p.f_min) continue;
            fluid(&p, links[j], ns[i], 2500, &fm, &qm, &fd, &qd);
            if (!(fabs(fm - target) <= 0.05 * target && fd <= 0.05 * target + 1 &&
                  fabs(qm - p.q_ref) <= 0.2 * p.q_ref))
                printf("  round %u link %" PRIu64 " N %u: F %.1f (target %.1f, max dev %.1f)"
                       " Q %.1f (ref %u, max dev %.1f)\n",
                       r, links[j], ns[i], fm, target, fd, qm, p.q_ref, qd);
            /* Mean and every sample of the tail within 5% (+1 unit of
             * quantization) of C/N; queue mean within 20% of Qref. */
            CHECK_NEAR(fm, target, 0.05 * target);
            CHECK(fd <= 0.05 * target + 1);
            CHECK_NEAR(qm, p.q_ref, 0.2 * p.q_ref);
        }
    }
}

int main(void)
{
    test_binary_ = "test_rocc_cp";
    RUN(defaults_40g_100g_10g);
    RUN(defaults_other_speeds);
    RUN(params_check_messages);
    RUN(init_state);
    RUN(queue_bytes_to_units);
    RUN(md_to_fmin);
    RUN(md_not_when_f_le_fmax_over_8);
    RUN(md_halving_on_growth);
    RUN(pi_steps_by_hand);
    RUN(pi_truncates_toward_zero);
    RUN(pi_authors_rounding);
    RUN(autotune_levels_and_boundaries);
    RUN(clamping);
    RUN(qold_updated_in_every_branch);
    RUN(md_sequence);
    RUN(md_qmax_half);
    RUN(closed_loop_fluid_settles);
    return test_summary();
}
