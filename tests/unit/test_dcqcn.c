/*
 * test_dcqcn.c -- unit tests of the DCQCN RP / NP / CP (src/cc/dcqcn.h).
 *
 * Paper profile at 40 G unless stated: g = 1/256, K = T = 55 µs,
 * B = 10^7 B, F = 5, R_AI = 40 Mb/s, R_HAI = 200 Mb/s, N = 50 µs.
 */
#include "test.h"

#include "cc/dcqcn.h"

#define US   1000000ull          /* ps per µs */
#define G40  40000000000ull
#define G25  25000000000ull
#define G100 100000000000ull
#define NONE UINT64_MAX

static const double g = 1.0 / 256.0;

static void setup(struct dcqcn *s, struct dcqcn_params *p, uint64_t line, enum dcqcn_profile prof)
{
    dcqcn_params_default(p, line, prof);
    dcqcn_init(s, p, line, 0);
}

TEST(defaults_paper)
{
    struct dcqcn_params p;
    struct dcqcn s;

    setup(&s, &p, G40, DCQCN_PROFILE_PAPER);
    CHECK(dcqcn_params_check(&p, NULL, 0) == 0);
    CHECK_EQ(p.alpha_mode, DCQCN_ALPHA_ON_CNP);
    CHECK_EQ(p.inc_rule, DCQCN_INC_QCN);
    CHECK_NEAR(p.g, 1.0 / 256, 0);
    CHECK_EQ(p.alpha_interval_ps, 55 * US);
    CHECK_EQ(p.timer_ps, 55 * US);
    CHECK_EQ(p.byte_counter, 10000000);
    CHECK_EQ(p.fast_recovery, 5);
    CHECK_EQ(p.r_ai_bps, 40000000);
    CHECK_EQ(p.r_hai_bps, 200000000);
    CHECK_EQ(p.min_rate_bps, 100000000);
    CHECK_EQ(p.rate_decrease_interval_ps, 0);
    CHECK_EQ(p.clamp_target_rate, 1);
    CHECK_EQ(p.cnp_interval_ps, 50 * US);
    /* Paper values do not depend on the line rate. */
    dcqcn_params_default(&p, G100, DCQCN_PROFILE_PAPER);
    CHECK_EQ(p.r_ai_bps, 40000000);
    /* Fresh RP: line rate, α = 1, nothing scheduled. */
    CHECK(dcqcn_rate_bps(&s) == G40);
    CHECK(dcqcn_target_bps(&s) == G40);
    CHECK(dcqcn_deadline(&s) == NONE);
    CHECK_EQ(dcqcn_window_bytes(&s), 0);
    CHECK_NEAR(dcqcn_alpha(&s, &p, 1000 * US), 1.0, 0);   /* no decay before the first CNP */
    /* Unknown profile -> paper. */
    dcqcn_params_default(&p, G40, (enum dcqcn_profile)99);
    CHECK_EQ(p.profile, DCQCN_PROFILE_PAPER);
}

TEST(defaults_hpcc_sim)
{
    struct dcqcn_params p;

    /* run.py "dcqcn" at 25 G: AI 5·25/25 = 5 Mb/s, HAI 50 Mb/s. */
    dcqcn_params_default(&p, G25, DCQCN_PROFILE_HPCC_SIM);
    CHECK(dcqcn_params_check(&p, NULL, 0) == 0);
    CHECK_EQ(p.alpha_mode, DCQCN_ALPHA_PERIODIC);
    CHECK_EQ(p.inc_rule, DCQCN_INC_MLX);
    CHECK_EQ(p.alpha_interval_ps, 1 * US);
    CHECK_EQ(p.rate_decrease_interval_ps, 4 * US);
    CHECK_EQ(p.timer_ps, 300 * US);
    CHECK_EQ(p.byte_counter, 0);
    CHECK_EQ(p.fast_recovery, 1);
    CHECK_EQ(p.r_ai_bps, 5000000);
    CHECK_EQ(p.r_hai_bps, 50000000);
    CHECK_EQ(p.min_rate_bps, 1000000000);
    CHECK_EQ(p.clamp_target_rate, 0);
    CHECK_NEAR(p.rate_on_first_cnp, 1.0, 0);
    CHECK_EQ(p.cnp_interval_ps, 0);
    /* 100 G: AI 20 Mb/s, HAI 200 Mb/s. */
    dcqcn_params_default(&p, G100, DCQCN_PROFILE_HPCC_SIM);
    CHECK_EQ(p.r_ai_bps, 20000000);
    CHECK_EQ(p.r_hai_bps, 200000000);
    /* run.py "dcqcn_paper": 50 / 50 / 55 µs. */
    dcqcn_params_default(&p, G100, DCQCN_PROFILE_HPCC_SIM_PAPER);
    CHECK_EQ(p.alpha_interval_ps, 50 * US);
    CHECK_EQ(p.rate_decrease_interval_ps, 50 * US);
    CHECK_EQ(p.timer_ps, 55 * US);
    CHECK_EQ(p.inc_rule, DCQCN_INC_MLX);
}

TEST(params_check)
{
    struct dcqcn_params p, q;
    char why[80];

    dcqcn_params_default(&p, G40, DCQCN_PROFILE_PAPER);
    q = p; q.g = 0;
    CHECK(dcqcn_params_check(&q, why, sizeof why) == -1);
    CHECK_STR(why, "g must be in (0, 1]");
    q = p; q.g = 1.5;
    CHECK(dcqcn_params_check(&q, why, sizeof why) == -1);
    q = p; q.alpha_interval_ps = 0;
    CHECK(dcqcn_params_check(&q, why, sizeof why) == -1);
    CHECK_STR(why, "alpha_interval_ps must be > 0");
    q = p; q.timer_ps = 0;
    CHECK(dcqcn_params_check(&q, NULL, 0) == -1);
    q = p; q.alpha_mode = 7;
    CHECK(dcqcn_params_check(&q, why, sizeof why) == -1);
    CHECK_STR(why, "unknown alpha_mode");
    q = p; q.inc_rule = 7;
    CHECK(dcqcn_params_check(&q, why, sizeof why) == -1);
    q = p; q.inc_rule = DCQCN_INC_MLX;       /* B = 10 MB with MLX: refused */
    CHECK(dcqcn_params_check(&q, why, sizeof why) == -1);
    CHECK_STR(why, "byte_counter must be 0 with DCQCN_INC_MLX");
    q = p; q.min_rate_bps = 0;
    CHECK(dcqcn_params_check(&q, why, sizeof why) == -1);
    q = p; q.rate_on_first_cnp = 0;
    CHECK(dcqcn_params_check(&q, why, sizeof why) == -1);
    q = p; q.r_hai_bps = (1ull << 53) + 1;
    CHECK(dcqcn_params_check(&q, why, sizeof why) == -1);
    /* Truncated reason, no overflow. */
    q = p; q.g = 0;
    CHECK(dcqcn_params_check(&q, why, 4) == -1);
    CHECK_STR(why, "g m");
}

TEST(alpha_and_rate_after_k_cnps)
{
    struct dcqcn_params p;
    struct dcqcn s;
    double a, a2, rc, rt;

    setup(&s, &p, G40, DCQCN_PROFILE_PAPER);
    /* CNP 1 at 0: α = 1 -> RT = 40 G, RC = 40·(1 − 1/2) = 20 G;
     * α ← (255/256)·1 + 1/256 = 1.  Increase timer at 55 µs. */
    dcqcn_on_cnp(&s, &p, 0);
    CHECK(dcqcn_rate_bps(&s) == 20000000000ull);
    CHECK(dcqcn_target_bps(&s) == G40);
    CHECK_NEAR(s.alpha, 1.0, 1e-15);
    CHECK(dcqcn_deadline(&s) == 55 * US);
    CHECK_EQ(s.n_decrease, 1);

    /* CNP 2 at 30 µs (< K, no decay): RT = 20 G, RC = 10 G, α = 1; timer
     * restarted at 85 µs. */
    dcqcn_on_cnp(&s, &p, 30 * US);
    CHECK(dcqcn_rate_bps(&s) == 10000000000ull);
    CHECK(dcqcn_target_bps(&s) == 20000000000ull);
    CHECK(dcqcn_deadline(&s) == 85 * US);

    /* Timer at 85 and 140 µs: fast recovery, RC = (20+10)/2 = 15, then
     * (20+15)/2 = 17.5 G. */
    dcqcn_on_timer(&s, &p, 85 * US);
    CHECK(dcqcn_rate_bps(&s) == 15000000000ull);
    dcqcn_on_timer(&s, &p, 140 * US);
    CHECK(dcqcn_rate_bps(&s) == 17500000000ull);

    /* α read at 140 µs: ⌊(140−30)/55⌋ = 2 decays: (255/256)^2 = 65025/65536. */
    CHECK_NEAR(dcqcn_alpha(&s, &p, 140 * US), 65025.0 / 65536.0, 1e-15);
    CHECK_NEAR(dcqcn_alpha(&s, &p, 139 * US), 255.0 / 256.0, 1e-15);

    /* CNP 3 at 150 µs: α = a2 = 65025/65536 = 0.9922027587890625;
     * RT = 17.5 G, RC = 17.5 G·(1 − a2/2) = 8 818 225 860.6 b/s;
     * α ← (255/256)·a2 + 1/256 = 0.99223321676... */
    a2 = 65025.0 / 65536.0;
    dcqcn_on_cnp(&s, &p, 150 * US);
    rt = 17.5e9;
    rc = 17.5e9 * (1 - a2 / 2);
    a = (1 - g) * a2 + g;
    CHECK_NEAR(s.rc, rc, 1e-3);
    CHECK(dcqcn_rate_bps(&s) == 8818225860ull);
    CHECK_NEAR(s.rt, rt, 0);
    CHECK_NEAR(s.alpha, a, 1e-15);
    CHECK_NEAR(a, 0.9922332167625427, 1e-15);

    /* Timer at 205, 260 µs: FR twice: RC = (RT + RC)/2 twice. */
    dcqcn_on_timer(&s, &p, 205 * US);
    dcqcn_on_timer(&s, &p, 260 * US);
    rc = (rt + rc) / 2;
    rc = (rt + rc) / 2;
    CHECK_NEAR(s.rc, rc, 1e-3);
    CHECK_NEAR(rc, 15329556465.148926, 1e-3);

    /* CNP 4 at 300 µs: ⌊150/55⌋ = 2 decays: a2' = a·(255/256)^2
     * = 0.98449653503...; RT = RC = 15.3295 G; RC = RC·(1 − a2'/2)
     * = 7 783 608 853.4; α = (255/256)·a2' + 1/256 = 0.98455709544... */
    dcqcn_on_cnp(&s, &p, 300 * US);
    a2 = a * (1 - g) * (1 - g);
    rt = rc;
    rc = rc * (1 - a2 / 2);
    a = (1 - g) * a2 + g;
    CHECK_NEAR(a2, 0.9844965350339407, 1e-15);
    CHECK_NEAR(s.rt, rt, 1e-3);
    CHECK_NEAR(s.rc, rc, 1e-3);
    CHECK(dcqcn_rate_bps(&s) == 7783608853ull);
    CHECK_NEAR(s.alpha, a, 1e-15);
    CHECK_NEAR(a, 0.9845570954439644, 1e-15);
    CHECK_EQ(s.n_cnp, 4);
    CHECK_EQ(s.n_decrease, 4);
    CHECK_EQ(s.n_fr, 4);

    /* Long quiet: α after 10 ms = a·(255/256)^⌊10000/55⌋ = a·(255/256)^181. */
    CHECK_NEAR(dcqcn_alpha(&s, &p, 10300 * US), a * pow(1 - g, 181), 1e-12);
}

/* RT = 20 G, RC = 10 G at t = 1 µs, increase timer at 56 µs. */
static void two_cnps(struct dcqcn *s, struct dcqcn_params *p)
{
    setup(s, p, G40, DCQCN_PROFILE_PAPER);
    dcqcn_on_cnp(s, p, 0);
    dcqcn_on_cnp(s, p, 1 * US);
}

TEST(paper_timer_only_fr_then_ai)
{
    struct dcqcn_params p;
    struct dcqcn s;
    uint64_t t = 56 * US;
    int k;
    /* FR x5: RC = (20 + RC)/2: 15, 17.5, 18.75, 19.375, 19.6875 G. */
    static const uint64_t fr[5] = { 15000000000ull, 17500000000ull, 18750000000ull,
                                    19375000000ull, 19687500000ull };

    two_cnps(&s, &p);
    CHECK(dcqcn_deadline(&s) == 56 * US);
    dcqcn_on_timer(&s, &p, t - 1);                       /* early: nothing */
    CHECK(dcqcn_rate_bps(&s) == 10000000000ull);
    for (k = 0; k < 5; k++, t += 55 * US) {
        dcqcn_on_timer(&s, &p, t);
        CHECK(dcqcn_rate_bps(&s) == fr[k]);
        CHECK(dcqcn_target_bps(&s) == 20000000000ull);
        CHECK(dcqcn_deadline(&s) == t + 55 * US);
    }
    /* T = 6 > F, BC = 0: additive increase: RT = 20.04 G,
     * RC = (20.04 + 19.6875)/2 = 19.86375 G. */
    dcqcn_on_timer(&s, &p, t);
    CHECK(dcqcn_target_bps(&s) == 20040000000ull);
    CHECK(dcqcn_rate_bps(&s) == 19863750000ull);
    /* T = 7: RT = 20.08 G, RC = (20.08 + 19.86375)/2 = 19.971875 G. */
    t += 55 * US;
    dcqcn_on_timer(&s, &p, t);
    CHECK(dcqcn_target_bps(&s) == 20080000000ull);
    CHECK(dcqcn_rate_bps(&s) == 19971875000ull);
    /* Timer alone never reaches hyper increase (BC stays 0). */
    for (k = 0; k < 20; k++) {
        t += 55 * US;
        dcqcn_on_timer(&s, &p, t);
    }
    CHECK_EQ(s.n_fr, 5);
    CHECK_EQ(s.n_ai, 22);
    CHECK_EQ(s.n_hai, 0);
    CHECK(dcqcn_target_bps(&s) == 20000000000ull + 22 * 40000000ull);
}

TEST(paper_byte_counter_only)
{
    struct dcqcn_params p;
    struct dcqcn s;
    const uint64_t B = 10000000;

    two_cnps(&s, &p);
    /* B − 1 bytes: no event; one more byte: BC = 1, FR: RC = 15 G. */
    dcqcn_on_sent(&s, &p, B - 1, 2 * US);
    CHECK(dcqcn_rate_bps(&s) == 10000000000ull);
    dcqcn_on_sent(&s, &p, 1, 2 * US);
    CHECK(dcqcn_rate_bps(&s) == 15000000000ull);
    CHECK_EQ(s.bc_cnt, 1);
    /* 3B + 5 in one call: BC = 2, 3, 4 (FR): 17.5, 18.75, 19.375 G; the 5
     * bytes carry over. */
    dcqcn_on_sent(&s, &p, 3 * B + 5, 3 * US);
    CHECK(dcqcn_rate_bps(&s) == 19375000000ull);
    CHECK_EQ(s.bytes, 5);
    /* BC = 5: FR 19.6875; BC = 6: AI, RT = 20.04, RC = 19.86375 G. */
    dcqcn_on_sent(&s, &p, 2 * B - 5, 4 * US);
    CHECK_EQ(s.bc_cnt, 6);
    CHECK(dcqcn_target_bps(&s) == 20040000000ull);
    CHECK(dcqcn_rate_bps(&s) == 19863750000ull);
    CHECK_EQ(s.n_fr, 5);
    CHECK_EQ(s.n_ai, 1);
    /* A CNP resets the byte counter and both stage counters. */
    dcqcn_on_sent(&s, &p, B / 2, 5 * US);
    dcqcn_on_cnp(&s, &p, 6 * US);
    CHECK_EQ(s.bytes, 0);
    CHECK_EQ(s.bc_cnt, 0);
    CHECK_EQ(s.t_cnt, 0);
    /* Before any CNP the byte counter does nothing. */
    setup(&s, &p, G40, DCQCN_PROFILE_PAPER);
    dcqcn_on_sent(&s, &p, 100 * B, 0);
    CHECK_EQ(s.bc_cnt, 0);
    CHECK(dcqcn_rate_bps(&s) == G40);
}

TEST(paper_hyper_increase_needs_both)
{
    struct dcqcn_params p;
    struct dcqcn s;
    const uint64_t B = 10000000;
    uint64_t t = 56 * US;
    double rt, rc;
    int k;

    two_cnps(&s, &p);
    /* 6B at 2 µs: BC 1..5 FR (RC -> 19.6875 G), BC 6 AI (RT 20.04 G,
     * RC 19.86375 G). */
    dcqcn_on_sent(&s, &p, 6 * B, 2 * US);
    CHECK(dcqcn_rate_bps(&s) == 19863750000ull);
    /* Timer T = 1..5: max(T, BC) = 6 > F and min = T <= F: AI each time;
     * RT = 20.08, 20.12, 20.16, 20.20, 20.24 G. */
    rt = 20.04e9; rc = 19.86375e9;
    for (k = 0; k < 5; k++, t += 55 * US) {
        dcqcn_on_timer(&s, &p, t);
        rt += 40e6; rc = (rt + rc) / 2;
        CHECK_NEAR(s.rt, rt, 1e-3);
        CHECK_NEAR(s.rc, rc, 1e-3);
    }
    CHECK(dcqcn_target_bps(&s) == 20240000000ull);
    CHECK_EQ(s.n_hai, 0);
    /* T = 6, BC = 6: min = 6 > 5: hyper increase, i = 6 − 5 = 1:
     * RT = 20.24 + 0.2 = 20.44 G. */
    dcqcn_on_timer(&s, &p, t);
    rt += 200e6; rc = (rt + rc) / 2;
    CHECK(dcqcn_target_bps(&s) == 20440000000ull);
    CHECK_NEAR(s.rc, rc, 1e-3);
    CHECK_EQ(s.n_hai, 1);
    /* BC = 7, T = 6: i = min(6,7) − 5 = 1: RT = 20.64 G. */
    dcqcn_on_sent(&s, &p, B, t + 1);
    CHECK(dcqcn_target_bps(&s) == 20640000000ull);
    /* T = 7, BC = 7: i = 2: RT = 20.64 + 0.4 = 21.04 G. */
    t += 55 * US;
    dcqcn_on_timer(&s, &p, t);
    CHECK(dcqcn_target_bps(&s) == 21040000000ull);
    /* T = 8, BC = 7: i = 2 again: 21.44 G; BC = 8: i = 3: 22.04 G. */
    t += 55 * US;
    dcqcn_on_timer(&s, &p, t);
    CHECK(dcqcn_target_bps(&s) == 21440000000ull);
    dcqcn_on_sent(&s, &p, B, t + 1);
    CHECK(dcqcn_target_bps(&s) == 22040000000ull);
    CHECK_EQ(s.n_hai, 5);
}

TEST(recovery_clamps_at_line_and_stops_timer)
{
    struct dcqcn_params p;
    struct dcqcn s;
    uint64_t t = 55 * US;
    int k;

    setup(&s, &p, G40, DCQCN_PROFILE_PAPER);
    dcqcn_on_cnp(&s, &p, 0);                 /* RC 20 G, RT 40 G */
    /* FR: RC -> 30, 35, 37.5, 38.75, 39.375 G; then AI with RT capped at
     * 40 G: RC -> 39.6875, ... until RC rounds to exactly 40 G. */
    for (k = 0; k < 200 && dcqcn_deadline(&s) != NONE; k++, t += 55 * US) {
        CHECK(dcqcn_deadline(&s) == t);
        dcqcn_on_timer(&s, &p, t);
        CHECK(dcqcn_target_bps(&s) <= G40);
        CHECK(dcqcn_rate_bps(&s) <= G40);
    }
    CHECK(k < 200);
    CHECK(dcqcn_rate_bps(&s) == G40);
    CHECK(dcqcn_target_bps(&s) == G40);
    CHECK(dcqcn_deadline(&s) == NONE);
    /* Byte counter ignored while recovered. */
    dcqcn_on_sent(&s, &p, 1000000000ull, t);
    CHECK_EQ(s.bytes, 0);
    /* Next CNP re-arms the timer. */
    dcqcn_on_cnp(&s, &p, t);
    CHECK(dcqcn_deadline(&s) == t + 55 * US);
}

TEST(min_rate_clamp)
{
    struct dcqcn_params p;
    struct dcqcn s;
    int k;

    setup(&s, &p, G40, DCQCN_PROFILE_PAPER);
    /* α stays 1 under CNPs < K apart: RC halves each time, 40 G / 2^9
     * = 78.1 Mb/s < Rmin = 100 Mb/s. */
    for (k = 0; k < 12; k++)
        dcqcn_on_cnp(&s, &p, (uint64_t)k * US);
    CHECK(dcqcn_rate_bps(&s) == 100000000ull);
    /* Rmin above line rate: clamped to the line rate. */
    p.min_rate_bps = 2 * G40;
    dcqcn_init(&s, &p, G40, 0);
    dcqcn_on_cnp(&s, &p, 0);
    CHECK(dcqcn_rate_bps(&s) == G40);
}

TEST(paper_optional_decrease_interval)
{
    struct dcqcn_params p;
    struct dcqcn s;

    /* Paper profile with a 50 µs rate-decrease check grid from the first
     * CNP: CNPs at 0, 10, 20 µs -> one cut at 50 µs with α = 1 (α steps at
     * each CNP: 1 -> 1 -> 1). */
    setup(&s, &p, G40, DCQCN_PROFILE_PAPER);
    p.rate_decrease_interval_ps = 50 * US;
    dcqcn_on_cnp(&s, &p, 0);
    CHECK(dcqcn_rate_bps(&s) == G40);                /* not yet */
    CHECK(dcqcn_deadline(&s) == 50 * US);
    dcqcn_on_cnp(&s, &p, 10 * US);
    dcqcn_on_cnp(&s, &p, 20 * US);
    dcqcn_on_timer(&s, &p, 50 * US);
    CHECK(dcqcn_rate_bps(&s) == 20000000000ull);
    CHECK_EQ(s.n_decrease, 1);
    CHECK(dcqcn_deadline(&s) == 105 * US);           /* increase timer */
    /* A CNP exactly at a grid point waits for the next one (100 µs, not
     * 50): the check at 50 already ran. */
    dcqcn_on_cnp(&s, &p, 50 * US);
    CHECK(s.dec_deadline_ps == 100 * US);
    CHECK(dcqcn_deadline(&s) == 100 * US);
    /* A check with no CNP since the last one does nothing. */
    dcqcn_on_timer(&s, &p, 100 * US);
    CHECK_EQ(s.n_decrease, 2);
    dcqcn_on_cnp(&s, &p, 130 * US);
    CHECK(s.dec_deadline_ps == 150 * US);
    /* The check uses α as of its own time: with K = 20 µs, the first CNP
     * at 0 leaves α = 1; at the 50 µs check ⌊50/20⌋ = 2 decays apply:
     * RC = 40 G·(1 − (255/256)^2/2). */
    setup(&s, &p, G40, DCQCN_PROFILE_PAPER);
    p.rate_decrease_interval_ps = 50 * US;
    p.alpha_interval_ps = 20 * US;
    dcqcn_on_cnp(&s, &p, 0);
    dcqcn_on_timer(&s, &p, 50 * US);
    CHECK_NEAR(s.rc, 40e9 * (1 - (65025.0 / 65536) / 2), 1e-3);
}

TEST(hpcc_sim_timer_only_sequence)
{
    struct dcqcn_params p;
    struct dcqcn s;
    double a, rc, rt;
    const double L = 25e9;

    setup(&s, &p, G25, DCQCN_PROFILE_HPCC_SIM);
    /* First CNP at 0: α = 1 (not counted), RC = RT = 1.0·25 G, no cut yet;
     * decrease check at 4 µs. */
    dcqcn_on_cnp(&s, &p, 0);
    CHECK(dcqcn_rate_bps(&s) == G25);
    CHECK(dcqcn_deadline(&s) == 4 * US);
    CHECK_NEAR(dcqcn_alpha(&s, &p, 0), 1.0, 0);
    /* α grid at 1, 2, 3, 4 µs, no CNP counted: α = (255/256)^4. */
    CHECK_NEAR(dcqcn_alpha(&s, &p, 4 * US), pow(1 - g, 4), 1e-15);
    /* Check at 4 µs: CLAMP_TARGET_RATE = 0 and stage 0: RT stays 25 G;
     * RC = 25 G·(1 − α/2). RP timer at 304 µs. */
    dcqcn_on_timer(&s, &p, 4 * US);
    a = pow(1 - g, 4);
    rc = L * (1 - a / 2);
    rt = L;
    CHECK_NEAR(s.rc, rc, 1e-3);
    CHECK_NEAR(s.rt, rt, 0);
    CHECK(dcqcn_deadline(&s) == 304 * US);
    /* 304 µs: stage 0 < F = 1: FR, RC = (RC + RT)/2; stage 1. */
    dcqcn_on_timer(&s, &p, 304 * US);
    rc = (rc + rt) / 2;
    CHECK_NEAR(s.rc, rc, 1e-3);
    CHECK_EQ(s.t_cnt, 1);
    /* CNP at 310 µs: α grid points 5..310 µs decayed first (306 more
     * steps, α = (255/256)^310), then the CNP is flagged; next check at
     * 312 µs (grid 0 + 4k). */
    dcqcn_on_cnp(&s, &p, 310 * US);
    CHECK_NEAR(s.alpha, pow(1 - g, 310), 1e-12);
    CHECK(dcqcn_deadline(&s) == 312 * US);
    /* Check at 312: α at 311 = (255/256)·α + 1/256 (CNP seen), at 312
     * ·255/256.  Stage 1 != 0: RT = RC; RC = RC·(1 − α/2). */
    dcqcn_on_timer(&s, &p, 312 * US);
    a = ((1 - g) * pow(1 - g, 310) + g) * (1 - g);
    CHECK_NEAR(s.alpha, a, 1e-12);
    rt = rc;
    rc = rc * (1 - a / 2);
    CHECK_NEAR(s.rt, rt, 1e-3);
    CHECK_NEAR(s.rc, rc, 1e-2);
    CHECK_EQ(s.t_cnt, 0);
    CHECK(dcqcn_deadline(&s) == 612 * US);
    /* 612: FR; 912: stage 1 == F: AI, RT += 5 Mb/s; 1212, 1512: stage > F:
     * HAI, constant RT += 50 Mb/s (not i·R_HAI). */
    dcqcn_on_timer(&s, &p, 612 * US);
    rc = (rc + rt) / 2;
    CHECK_NEAR(s.rc, rc, 1e-2);
    dcqcn_on_timer(&s, &p, 912 * US);
    rt += 5e6; rc = (rc + rt) / 2;
    CHECK_NEAR(s.rt, rt, 1e-3);
    CHECK_NEAR(s.rc, rc, 1e-2);
    dcqcn_on_timer(&s, &p, 1212 * US);
    rt += 50e6; rc = (rc + rt) / 2;
    CHECK_NEAR(s.rt, rt, 1e-3);
    dcqcn_on_timer(&s, &p, 1512 * US);
    rt += 50e6; rc = (rc + rt) / 2;
    CHECK_NEAR(s.rt, rt, 1e-3);
    CHECK_NEAR(s.rc, rc, 1e-2);
    CHECK_EQ(s.n_fr, 2);
    CHECK_EQ(s.n_ai, 1);
    CHECK_EQ(s.n_hai, 2);
    /* Timer only: the byte counter is ignored. */
    dcqcn_on_sent(&s, &p, 1000000000ull, 1600 * US);
    CHECK_EQ(s.bc_cnt, 0);
    CHECK_NEAR(s.rt, rt, 1e-3);
    /* No CNP pending: no decrease deadline. */
    CHECK(s.dec_deadline_ps == NONE);
    CHECK(dcqcn_deadline(&s) == 1812 * US);
}

TEST(hpcc_sim_clamp_option_and_min_rate)
{
    struct dcqcn_params p;
    struct dcqcn s;

    /* CLAMP_TARGET_RATE = 1: RT = RC even at stage 0. */
    setup(&s, &p, G25, DCQCN_PROFILE_HPCC_SIM);
    p.clamp_target_rate = 1;
    dcqcn_on_cnp(&s, &p, 0);
    dcqcn_on_timer(&s, &p, 4 * US);                   /* cut from 25 G */
    dcqcn_on_cnp(&s, &p, 5 * US);
    dcqcn_on_timer(&s, &p, 8 * US);                   /* stage 0 again */
    CHECK_EQ(s.n_decrease, 2);
    CHECK_NEAR(s.rt, 25e9 * (1 - pow(1 - g, 4) / 2), 1e-3);
    /* Without the clamp, RT would still be 25 G. */
    setup(&s, &p, G25, DCQCN_PROFILE_HPCC_SIM);
    dcqcn_on_cnp(&s, &p, 0);
    dcqcn_on_timer(&s, &p, 4 * US);
    dcqcn_on_cnp(&s, &p, 5 * US);
    dcqcn_on_timer(&s, &p, 8 * US);
    CHECK(dcqcn_target_bps(&s) == G25);
    /* RateOnFirstCnp 0.5 (an RdmaHw attribute): RC = RT = 12.5 G. */
    setup(&s, &p, G25, DCQCN_PROFILE_HPCC_SIM);
    p.rate_on_first_cnp = 0.5;
    dcqcn_on_cnp(&s, &p, 0);
    CHECK(dcqcn_rate_bps(&s) == 12500000000ull);
    CHECK(dcqcn_target_bps(&s) == 12500000000ull);
    /* MIN_RATE 1 Gb/s: a long CNP train ends at 1 Gb/s. */
    setup(&s, &p, G25, DCQCN_PROFILE_HPCC_SIM);
    {
        uint64_t t;
        for (t = 0; t < 400 * US; t += 2 * US) {
            dcqcn_on_cnp(&s, &p, t);
            dcqcn_on_timer(&s, &p, t);
        }
    }
    CHECK(dcqcn_rate_bps(&s) == 1000000000ull);
}

TEST(late_timer_call_order)
{
    struct dcqcn_params p;
    struct dcqcn s;

    /* HPCC sim: cut at 4 µs arms the RP timer at 304 µs.  CNP at 100 µs ->
     * check at 104 µs.  A single late call at 400 µs runs the check at 104
     * (which restarts the RP timer at 404) and so no increase at 304. */
    setup(&s, &p, G25, DCQCN_PROFILE_HPCC_SIM);
    dcqcn_on_cnp(&s, &p, 0);
    dcqcn_on_timer(&s, &p, 4 * US);
    dcqcn_on_cnp(&s, &p, 100 * US);
    CHECK(dcqcn_deadline(&s) == 104 * US);
    dcqcn_on_timer(&s, &p, 400 * US);
    CHECK_EQ(s.n_decrease, 2);
    CHECK_EQ(s.n_fr, 0);
    CHECK(dcqcn_deadline(&s) == 404 * US);
    /* Paper: late increase timer re-armed from now. */
    setup(&s, &p, G40, DCQCN_PROFILE_PAPER);
    dcqcn_on_cnp(&s, &p, 0);
    dcqcn_on_timer(&s, &p, 70 * US);
    CHECK_EQ(s.n_fr, 1);
    CHECK(dcqcn_deadline(&s) == 125 * US);
}

TEST(np_50us_suppression)
{
    struct dcqcn_params p;
    struct dcqcn_np np;

    dcqcn_params_default(&p, G40, DCQCN_PROFILE_PAPER);
    dcqcn_np_init(&np);
    CHECK_EQ(dcqcn_np_on_ecn(&np, &p, 7 * US), 1);          /* first mark */
    CHECK_EQ(dcqcn_np_on_ecn(&np, &p, 8 * US), 0);
    CHECK_EQ(dcqcn_np_on_ecn(&np, &p, 57 * US - 1), 0);     /* 49.999999 µs */
    CHECK_EQ(dcqcn_np_on_ecn(&np, &p, 57 * US), 1);         /* 50 µs later */
    CHECK_EQ(dcqcn_np_on_ecn(&np, &p, 100 * US), 0);        /* 43 µs */
    CHECK_EQ(dcqcn_np_on_ecn(&np, &p, 200 * US), 1);
    CHECK_EQ(np.n_ecn, 6);
    CHECK_EQ(np.n_cnp, 3);
    CHECK(np.last_cnp_ps == 200 * US);
    /* The rule the simulator's NIC calls with its own per-flow state. */
    CHECK_EQ(dcqcn_np_due(0, 0, 50 * US, 0), 1);
    CHECK_EQ(dcqcn_np_due(1, 200 * US, 50 * US, 250 * US - 1), 0);
    CHECK_EQ(dcqcn_np_due(1, 200 * US, 50 * US, 250 * US), 1);
    CHECK_EQ(dcqcn_np_due(1, 200 * US, 50 * US, 100 * US), 1);   /* a clock that went back */
    /* A mark at time 0 counts as a first CNP too. */
    dcqcn_np_init(&np);
    CHECK_EQ(dcqcn_np_on_ecn(&np, &p, 0), 1);
    CHECK_EQ(dcqcn_np_on_ecn(&np, &p, 1), 0);
    /* HPCC sim: every marked packet gets a CNP (interval 0). */
    dcqcn_params_default(&p, G25, DCQCN_PROFILE_HPCC_SIM);
    dcqcn_np_init(&np);
    CHECK_EQ(dcqcn_np_on_ecn(&np, &p, 5), 1);
    CHECK_EQ(dcqcn_np_on_ecn(&np, &p, 5), 1);
    CHECK_EQ(dcqcn_np_on_ecn(&np, &p, 6), 1);
}

TEST(red_marking)
{
    struct dcqcn_red_params r;

    /* Paper: Kmin 5 KB, Kmax 200 KB, Pmax 1%. */
    dcqcn_red_default(&r, G40, DCQCN_PROFILE_PAPER);
    CHECK_EQ(r.kmin_bytes, 5000);
    CHECK_EQ(r.kmax_bytes, 200000);
    CHECK_NEAR(r.pmax, 0.01, 0);
    /* q <= Kmin: 0, never marked. */
    CHECK_NEAR(dcqcn_red_prob(0, 5000, 200000, 0.01), 0, 0);
    CHECK_NEAR(dcqcn_red_prob(5000, 5000, 200000, 0.01), 0, 0);
    CHECK_EQ(dcqcn_red_mark(5000, 5000, 200000, 0.01, 0.0), 0);
    /* Midpoint 102.5 KB: 0.01·97500/195000 = 0.005. */
    CHECK_NEAR(dcqcn_red_prob(102500, 5000, 200000, 0.01), 0.005, 1e-15);
    CHECK_EQ(dcqcn_red_mark(102500, 5000, 200000, 0.01, 0.00499), 1);
    CHECK_EQ(dcqcn_red_mark(102500, 5000, 200000, 0.01, 0.00501), 0);
    /* q = Kmax: exactly Pmax (not 1); q = Kmax + 1: 1. */
    CHECK_NEAR(dcqcn_red_prob(200000, 5000, 200000, 0.01), 0.01, 1e-15);
    CHECK_EQ(dcqcn_red_mark(200000, 5000, 200000, 0.01, 0.5), 0);
    CHECK_NEAR(dcqcn_red_prob(200001, 5000, 200000, 0.01), 1.0, 0);
    CHECK_EQ(dcqcn_red_mark(200001, 5000, 200000, 0.01, 0.999999), 1);
    /* Kmin + 1 byte: 0.01/195000. */
    CHECK_NEAR(dcqcn_red_prob(5001, 5000, 200000, 0.01), 0.01 / 195000, 1e-18);
    /* HPCC sim at 25 G: Kmin 100 KB, Kmax 400 KB, Pmax 0.2; 100 G: 400 /
     * 1600 KB. */
    dcqcn_red_default(&r, G25, DCQCN_PROFILE_HPCC_SIM);
    CHECK_EQ(r.kmin_bytes, 100000);
    CHECK_EQ(r.kmax_bytes, 400000);
    CHECK_NEAR(r.pmax, 0.2, 0);
    dcqcn_red_default(&r, G100, DCQCN_PROFILE_HPCC_SIM_PAPER);
    CHECK_EQ(r.kmin_bytes, 400000);
    CHECK_EQ(r.kmax_bytes, 1600000);
    /* 250 KB at 25 G: 0.2·150/300 = 0.1. */
    CHECK_NEAR(dcqcn_red_prob(250000, 100000, 400000, 0.2), 0.1, 1e-15);
    /* Degenerate Kmax <= Kmin: step at Kmin. */
    CHECK_NEAR(dcqcn_red_prob(10, 10, 10, 0.5), 0, 0);
    CHECK_NEAR(dcqcn_red_prob(11, 10, 10, 0.5), 1, 0);
}

/* ---- closed loop ------------------------------------------------------- */

static uint64_t lcg_state = 12345;
static double u01(void)
{
    lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(lcg_state >> 11) / 9007199254740992.0;
}

/* N flows at line rate C share one bottleneck of rate C.  1 µs steps,
 * 1000 B packets marked with RED at enqueue, NP per flow, CNPs reach the
 * RP after 4 µs.  Returns 0 if sane. */
static int closed_loop(enum dcqcn_profile prof, int nflows, double *util, double *qavg,
                       double *minshare, double *maxshare)
{
    enum { NF = 8, DELAY = 4, STEPS = 60000, WARM = 30000 };
    struct dcqcn_params p;
    struct dcqcn_red_params r;
    struct dcqcn s[NF];
    struct dcqcn_np np[NF];
    double credit[NF], sent[NF];
    int pend[NF][DELAY + 1];
    const uint64_t C = G40;
    const double bytes_per_step = (double)C / 8 / 1e6;      /* 5000 B/µs */
    double q = 0, served = 0, qsum = 0;
    int i, k;

    dcqcn_params_default(&p, C, prof);
    dcqcn_red_default(&r, C, prof);
    for (i = 0; i < nflows; i++) {
        dcqcn_init(&s[i], &p, C, 0);
        dcqcn_np_init(&np[i]);
        credit[i] = sent[i] = 0;
        for (k = 0; k <= DELAY; k++)
            pend[i][k] = 0;
    }
    for (k = 0; k < STEPS; k++) {
        uint64_t now = (uint64_t)k * US;
        double d;
        for (i = 0; i < nflows; i++) {
            int j;
            if (pend[i][0])
                dcqcn_on_cnp(&s[i], &p, now);
            for (j = 0; j < DELAY; j++)
                pend[i][j] = pend[i][j + 1];
            pend[i][DELAY] = 0;
            if (dcqcn_deadline(&s[i]) <= now)
                dcqcn_on_timer(&s[i], &p, now);
            credit[i] += (double)dcqcn_rate_bps(&s[i]) / 8 / 1e6;
            while (credit[i] >= 1000) {
                credit[i] -= 1000;
                if (dcqcn_red_mark((uint64_t)q, r.kmin_bytes, r.kmax_bytes, r.pmax, u01())
                    && dcqcn_np_on_ecn(&np[i], &p, now))
                    pend[i][DELAY] = 1;
                q += 1000;
                dcqcn_on_sent(&s[i], &p, 1000, now);
                if (k >= WARM)
                    sent[i] += 1000;
            }
        }
        d = q < bytes_per_step ? q : bytes_per_step;
        q -= d;
        if (k >= WARM) {
            served += d;
            qsum += q;
        }
    }
    *util = served / (bytes_per_step * (STEPS - WARM));
    *qavg = qsum / (STEPS - WARM);
    *minshare = 1e9; *maxshare = 0;
    for (i = 0; i < nflows; i++) {
        double share = sent[i] / (bytes_per_step * (STEPS - WARM) / nflows);
        if (share < *minshare) *minshare = share;
        if (share > *maxshare) *maxshare = share;
    }
    return 0;
}

TEST(closed_loop_paper)
{
    double util, qavg, mn, mx;

    closed_loop(DCQCN_PROFILE_PAPER, 4, &util, &qavg, &mn, &mx);
    printf("  paper  4 flows: util %.3f qavg %.0f B share [%.2f, %.2f]\n", util, qavg, mn, mx);
    CHECK(util > 0.95);
    CHECK(qavg < 150000);                      /* below Kmax on average */
    CHECK(mn > 0.75 && mx < 1.25);
}

TEST(closed_loop_hpcc_sim)
{
    double util, qavg, mn, mx;

    closed_loop(DCQCN_PROFILE_HPCC_SIM, 8, &util, &qavg, &mn, &mx);
    printf("  hpcc   8 flows: util %.3f qavg %.0f B share [%.2f, %.2f]\n", util, qavg, mn, mx);
    CHECK(util > 0.95);
    CHECK(qavg < 400000);                      /* HPCC Kmax at 40 G: 640 KB */
    CHECK(mn > 0.75 && mx < 1.25);
}

int main(void)
{
    test_binary_ = "test_dcqcn";
    RUN(defaults_paper);
    RUN(defaults_hpcc_sim);
    RUN(params_check);
    RUN(alpha_and_rate_after_k_cnps);
    RUN(paper_timer_only_fr_then_ai);
    RUN(paper_byte_counter_only);
    RUN(paper_hyper_increase_needs_both);
    RUN(recovery_clamps_at_line_and_stops_timer);
    RUN(min_rate_clamp);
    RUN(paper_optional_decrease_interval);
    RUN(hpcc_sim_timer_only_sequence);
    RUN(hpcc_sim_clamp_option_and_min_rate);
    RUN(late_timer_call_order);
    RUN(np_50us_suppression);
    RUN(red_marking);
    RUN(closed_loop_paper);
    RUN(closed_loop_hpcc_sim);
    return test_summary();
}
