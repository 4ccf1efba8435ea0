/*
 * test_qcn.c -- unit tests of the QCN CP and RP (qcn.h).
 *
 * CP, PAPER profile: Q_eq = 26 000 B, w = 2, so Fb_max = (1 + 2·2)·26 000
 * = 130 000 B and fb_q = ⌊|Fb|·63/130 000⌋ (63 from |Fb| >= 130 000).
 * RP, PAPER profile on a 40 Gb/s NIC: BC 150 000 B (75 000 B after fast
 * recovery), T 10 ms (5 ms after), FR 5, G_d 1/128, R_AI 5 Mb/s, R_HAI
 * 50 Mb/s.  Decrease: CR − ⌊CR·fb_q/128⌋.  Increase: CR + ⌈(TR − CR)/2⌉.
 */
#include "test.h"

#include "cc/qcn.h"

#define G   ((uint64_t)1000000000)
#define MS  1000000000ull    /* ps per ms */
#define US  1000000ull       /* ps per µs */

/* ------------------------------------------------------------------ CP */

TEST(cp_defaults)
{
    struct qcn_cp_params p;

    qcn_cp_params_default(&p, 40 * G, QCN_PROFILE_PAPER);
    CHECK_EQ(p.q_eq_bytes, 26000);
    CHECK_EQ(p.w, 2);
    CHECK_EQ(p.sample_mode, QCN_SAMPLE_LINEAR);
    CHECK_NEAR(p.p_min, 0.01, 1e-15);
    CHECK_NEAR(p.p_max, 0.10, 1e-15);
    CHECK_EQ(qcn_cp_params_check(&p, NULL, 0), 0);
    /* Q_eq is not scaled with the link or the profile. */
    qcn_cp_params_default(&p, 100 * G, QCN_PROFILE_DC);
    CHECK_EQ(p.q_eq_bytes, 26000);
    CHECK_EQ(p.w, 2);
}

TEST(cp_params_check)
{
    struct qcn_cp_params p;
    char why[64];

    qcn_cp_params_default(&p, 10 * G, QCN_PROFILE_PAPER);
    p.q_eq_bytes = 0;
    CHECK_EQ(qcn_cp_params_check(&p, why, sizeof why), -1);
    CHECK_STR(why, "q_eq_bytes must be > 0");
    qcn_cp_params_default(&p, 10 * G, QCN_PROFILE_PAPER);
    p.w = 0;
    CHECK_EQ(qcn_cp_params_check(&p, why, sizeof why), -1);
    CHECK_STR(why, "w must be in [1, 64]");
    p.w = 65;
    CHECK_EQ(qcn_cp_params_check(&p, why, sizeof why), -1);
    qcn_cp_params_default(&p, 10 * G, QCN_PROFILE_PAPER);
    p.sample_mode = 7;
    CHECK_EQ(qcn_cp_params_check(&p, why, sizeof why), -1);
    CHECK_STR(why, "sample_mode must be LINEAR or TABLE");
    qcn_cp_params_default(&p, 10 * G, QCN_PROFILE_PAPER);
    p.p_min = 0.2;                     /* > p_max */
    CHECK_EQ(qcn_cp_params_check(&p, why, sizeof why), -1);
    CHECK_STR(why, "need 0 < p_min <= p_max <= 1");
    p.p_min = 0.0;
    CHECK_EQ(qcn_cp_params_check(&p, NULL, 0), -1);
    /* truncated reason */
    qcn_cp_params_default(&p, 10 * G, QCN_PROFILE_PAPER);
    p.q_eq_bytes = 0;
    CHECK_EQ(qcn_cp_params_check(&p, why, 5), -1);
    CHECK_STR(why, "q_eq");
    CHECK_EQ(qcn_cp_params_check(NULL, why, sizeof why), -1);
}

/* Sample (u01 = 0 is always below p) at queue q with Q_old = q_old. */
static int sample_at(struct qcn_cp *cp, const struct qcn_cp_params *p,
                     uint64_t q, uint64_t q_old, uint8_t *fbq)
{
    cp->q_old = q_old;
    return qcn_cp_on_packet(cp, p, q, 0.0, fbq);
}

TEST(cp_fb_by_hand)
{
    struct qcn_cp_params p;
    struct qcn_cp cp;
    uint8_t fbq = 0xAA;

    qcn_cp_params_default(&p, 10 * G, QCN_PROFILE_PAPER);
    qcn_cp_init(&cp, &p);
    CHECK_EQ(cp.q_old, 0);

    /* Q 40 000, Q_old 30 000: Q_off 14 000, Q_δ 10 000,
     * Fb = −(14 000 + 2·10 000) = −34 000; 34 000·63/130 000 = 16.48 -> 16. */
    CHECK_EQ(qcn_cp_fb(&p, 40000, 30000), -34000);
    CHECK_EQ(sample_at(&cp, &p, 40000, 30000, &fbq), 1);
    CHECK_EQ(fbq, 16);
    CHECK_EQ(cp.q_old, 40000);
    CHECK_EQ(cp.last_fb, -34000);
    CHECK_EQ(cp.last_fb_q, 16);

    /* Below Q_eq but growing fast: Q 20 000, Q_old 10 000: Q_off −6 000,
     * Q_δ 10 000, Fb = −(−6 000 + 20 000) = −14 000; 882 000/130 000 -> 6. */
    CHECK_EQ(sample_at(&cp, &p, 20000, 10000, &fbq), 1);
    CHECK_EQ(fbq, 6);

    /* Above Q_eq but shrinking: Q 50 000, Q_old 60 000: Q_off 24 000,
     * Q_δ −10 000, Fb = −(24 000 − 20 000) = −4 000; 252 000/130 000 -> 1. */
    CHECK_EQ(sample_at(&cp, &p, 50000, 60000, &fbq), 1);
    CHECK_EQ(fbq, 1);

    /* Saturation: Q 100 000, Q_old 50 000: Fb = −(74 000 + 100 000)
     * = −174 000 <= −Fb_max -> 63. */
    CHECK_EQ(sample_at(&cp, &p, 100000, 50000, &fbq), 1);
    CHECK_EQ(fbq, 63);
    CHECK_EQ(cp.n_fb_sat, 1);

    /* Boundaries of the quantizer: |Fb| = 130 000 -> 63, 129 999 -> 62
     * (129 999·63/130 000 = 62.9995), 2 064 -> 1 (2 064·63 = 130 032),
     * 2 063 -> 0 (129 969). */
    CHECK_EQ(qcn_cp_quantize(&p, -130000), 63);
    CHECK_EQ(qcn_cp_quantize(&p, -129999), 62);
    CHECK_EQ(qcn_cp_quantize(&p, -2064), 1);
    CHECK_EQ(qcn_cp_quantize(&p, -2063), 0);
    CHECK_EQ(qcn_cp_quantize(&p, 0), 0);
    CHECK_EQ(qcn_cp_quantize(&p, 5000), 0);
    CHECK_EQ(qcn_cp_quantize(&p, INT64_MIN + 1), 63);
    CHECK_EQ(cp.n_samples, 4);
    CHECK_EQ(cp.n_fb_sent, 4);
}

TEST(cp_no_feedback_when_fb_nonnegative)
{
    struct qcn_cp_params p;
    struct qcn_cp cp;
    uint8_t fbq = 0xAA;

    qcn_cp_params_default(&p, 10 * G, QCN_PROFILE_PAPER);
    qcn_cp_init(&cp, &p);
    /* Q = Q_old = Q_eq: Fb = 0 -> nothing sent. */
    CHECK_EQ(sample_at(&cp, &p, 26000, 26000, &fbq), 0);
    CHECK_EQ(fbq, 0xAA);
    CHECK_EQ(cp.n_fb_nonneg, 1);
    CHECK_EQ(cp.q_old, 26000);            /* Q_old still updated */
    /* Q 10 000, Q_old 20 000: Fb = −(−16 000 − 20 000) = 36 000 > 0. */
    CHECK_EQ(sample_at(&cp, &p, 10000, 20000, &fbq), 0);
    CHECK_EQ(cp.last_fb, 36000);
    CHECK_EQ(cp.last_fb_q, 0);
    /* Empty queue at start: Q 0, Q_old 0: Fb = 26 000 > 0. */
    CHECK_EQ(sample_at(&cp, &p, 0, 0, &fbq), 0);
    /* Fb < 0 but quantizing to 0: Q = Q_old = 27 000: Fb = −1 000,
     * 63 000/130 000 -> 0: nothing sent, counted. */
    CHECK_EQ(sample_at(&cp, &p, 27000, 27000, &fbq), 0);
    CHECK_EQ(cp.n_fb_zero, 1);
    CHECK_EQ(cp.last_fb_q, 0);
    CHECK_EQ(cp.n_fb_sent, 0);
    CHECK_EQ(cp.n_fb_nonneg, 3);
    CHECK(fbq == 0xAA);
    /* fb_q pointer may be NULL */
    CHECK_EQ(sample_at(&cp, &p, 40000, 30000, NULL), 1);
}

TEST(cp_sampling_probability_table)
{
    struct qcn_cp_params p;

    qcn_cp_params_default(&p, 10 * G, QCN_PROFILE_PAPER);
    /* LINEAR: 1% + 9%·fb_q/63. */
    CHECK_NEAR(qcn_cp_sample_prob(&p, 0), 0.01, 1e-15);
    CHECK_NEAR(qcn_cp_sample_prob(&p, 21), 0.04, 1e-15);   /* 0.01 + 0.09/3 */
    CHECK_NEAR(qcn_cp_sample_prob(&p, 42), 0.07, 1e-15);
    CHECK_NEAR(qcn_cp_sample_prob(&p, 63), 0.10, 1e-15);
    CHECK_NEAR(qcn_cp_sample_prob(&p, 200), 0.10, 1e-15);  /* clamped to 63 */
    /* TABLE: fb_q/8 -> 150, 75, 50, 37.5, 30, 25, 21.5, 18.5 KB per
     * sample = 1%·150/interval. */
    p.sample_mode = QCN_SAMPLE_TABLE;
    CHECK_NEAR(qcn_cp_sample_prob(&p, 0), 0.01, 1e-15);
    CHECK_NEAR(qcn_cp_sample_prob(&p, 7), 0.01, 1e-15);
    CHECK_NEAR(qcn_cp_sample_prob(&p, 8), 0.02, 1e-15);
    CHECK_NEAR(qcn_cp_sample_prob(&p, 16), 0.03, 1e-15);
    CHECK_NEAR(qcn_cp_sample_prob(&p, 24), 0.04, 1e-15);
    CHECK_NEAR(qcn_cp_sample_prob(&p, 32), 0.05, 1e-15);
    CHECK_NEAR(qcn_cp_sample_prob(&p, 47), 0.06, 1e-15);
    CHECK_NEAR(qcn_cp_sample_prob(&p, 48), 1.5 / 21.5, 1e-15);   /* 6.98% */
    CHECK_NEAR(qcn_cp_sample_prob(&p, 63), 1.5 / 18.5, 1e-15);   /* 8.11% */
}

TEST(cp_sampling_decision)
{
    struct qcn_cp_params p;
    struct qcn_cp cp;
    uint8_t fbq;

    qcn_cp_params_default(&p, 10 * G, QCN_PROFILE_PAPER);
    qcn_cp_init(&cp, &p);
    /* p = 1% after init: u01 0.01 is not sampled, Q_old untouched. */
    CHECK_EQ(qcn_cp_on_packet(&cp, &p, 90000, 0.01, &fbq), 0);
    CHECK_EQ(cp.n_samples, 0);
    CHECK_EQ(cp.q_old, 0);
    /* u01 0.0099 is: Q 90 000, Q_old 0: Fb = −(64 000 + 180 000) -> 63. */
    CHECK_EQ(qcn_cp_on_packet(&cp, &p, 90000, 0.0099, &fbq), 1);
    CHECK_EQ(fbq, 63);
    /* Next packet uses p(63) = 10%: 0.0999 sampled; Q = Q_old = 90 000:
     * Fb = −64 000 -> 64 000·63/130 000 = 31.0 -> 31. */
    CHECK_EQ(qcn_cp_on_packet(&cp, &p, 90000, 0.0999, &fbq), 1);
    CHECK_EQ(fbq, 31);
    /* p(31) = 0.01 + 0.09·31/63 = 0.054286: 0.06 not sampled, 0.05 is. */
    CHECK_EQ(qcn_cp_on_packet(&cp, &p, 90000, 0.06, &fbq), 0);
    CHECK_EQ(qcn_cp_on_packet(&cp, &p, 90000, 0.05, &fbq), 1);
    CHECK_EQ(cp.n_packets, 5);
    CHECK_EQ(cp.n_samples, 3);
}

/* xorshift64* -> [0,1) */
static double u01(uint64_t *x)
{
    *x ^= *x >> 12; *x ^= *x << 25; *x ^= *x >> 27;
    return (double)((*x * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

TEST(cp_sampling_rate_statistics)
{
    struct qcn_cp_params p;
    struct qcn_cp cp;
    uint64_t x = 12345, i, n = 200000;

    qcn_cp_params_default(&p, 10 * G, QCN_PROFILE_PAPER);
    qcn_cp_init(&cp, &p);
    /* Queue steady at Q_eq: the first sample sees Q_old = 0 (Fb = −52 000,
     * fb_q 25: one feedback, next p 4.6%), every later one Fb = 0, so p
     * stays 1%: expect ≈ 2 000 samples, sd ≈ 44. */
    for (i = 0; i < n; i++)
        qcn_cp_on_packet(&cp, &p, 26000, u01(&x), NULL);
    CHECK_NEAR((double)cp.n_samples, 2000.0, 200.0);
    CHECK_EQ(cp.n_fb_sent, 1);
    /* Deep static queue 200 KB: |Fb| >= Fb_max on every sample -> 10%. */
    qcn_cp_init(&cp, &p);
    for (i = 0; i < n; i++)
        qcn_cp_on_packet(&cp, &p, 200000, u01(&x), NULL);
    CHECK_NEAR((double)cp.n_samples, 20000.0, 700.0);
    CHECK_EQ(cp.n_fb_sent, cp.n_samples);
    CHECK_EQ(cp.n_fb_sat, cp.n_samples);
}

/* ------------------------------------------------------------------ RP */

static struct qcn_rp_params P;

static void rp_setup(struct qcn_rp *s)
{
    qcn_rp_params_default(&P, 40 * G, QCN_PROFILE_PAPER);
    qcn_rp_init(s, &P, 40 * G, 0);
}

TEST(rp_defaults_and_check)
{
    struct qcn_rp_params p;
    char why[64];

    qcn_rp_params_default(&p, 40 * G, QCN_PROFILE_PAPER);
    CHECK_EQ(p.bc_limit_bytes, 150000);
    CHECK(p.timer_ps == 10 * MS);
    CHECK_EQ(p.fr_cycles, 5);
    CHECK_EQ(p.ai_halve, 1);
    CHECK_EQ(p.gd_den, 128);
    CHECK_EQ(p.r_ai_bps, 5000000);
    CHECK_EQ(p.r_hai_bps, 50000000);
    CHECK_EQ(p.min_rate_bps, 10000000);
    CHECK_EQ(qcn_rp_params_check(&p, NULL, 0), 0);
    /* DC at 40G: R_AI = 5·40/25 = 8 Mb/s, R_HAI = 80 Mb/s, T 300 µs. */
    qcn_rp_params_default(&p, 40 * G, QCN_PROFILE_DC);
    CHECK_EQ(p.r_ai_bps, 8000000);
    CHECK_EQ(p.r_hai_bps, 80000000);
    CHECK(p.timer_ps == 300 * US);
    CHECK_EQ(p.min_rate_bps, 100000000);
    CHECK_EQ(p.bc_limit_bytes, 150000);
    CHECK_EQ(qcn_rp_params_check(&p, NULL, 0), 0);
    /* DC at 100G: 20 / 200 Mb/s; tiny link: min rate capped at line. */
    qcn_rp_params_default(&p, 100 * G, QCN_PROFILE_DC);
    CHECK_EQ(p.r_ai_bps, 20000000);
    CHECK_EQ(p.r_hai_bps, 200000000);
    qcn_rp_params_default(&p, 50000000ull, QCN_PROFILE_DC);
    CHECK_EQ(p.min_rate_bps, 50000000);
    CHECK_EQ(p.r_ai_bps, 10000);

    qcn_rp_params_default(&p, 40 * G, QCN_PROFILE_PAPER);
    p.gd_den = 63;
    CHECK_EQ(qcn_rp_params_check(&p, why, sizeof why), -1);
    CHECK_STR(why, "gd_den must be > 63");
    qcn_rp_params_default(&p, 40 * G, QCN_PROFILE_PAPER);
    p.r_hai_bps = 1;
    CHECK_EQ(qcn_rp_params_check(&p, why, sizeof why), -1);
    CHECK_STR(why, "r_hai_bps must be >= r_ai_bps");
    qcn_rp_params_default(&p, 40 * G, QCN_PROFILE_PAPER);
    p.fr_cycles = 0;
    CHECK_EQ(qcn_rp_params_check(&p, why, sizeof why), -1);
    CHECK_STR(why, "fr_cycles must be >= 1");
    qcn_rp_params_default(&p, 40 * G, QCN_PROFILE_PAPER);
    p.bc_limit_bytes = 1;
    CHECK_EQ(qcn_rp_params_check(&p, why, sizeof why), -1);
    qcn_rp_params_default(&p, 40 * G, QCN_PROFILE_PAPER);
    p.timer_ps = 0;
    CHECK_EQ(qcn_rp_params_check(&p, why, sizeof why), -1);
    qcn_rp_params_default(&p, 40 * G, QCN_PROFILE_PAPER);
    p.min_rate_bps = 0;
    CHECK_EQ(qcn_rp_params_check(&p, why, sizeof why), -1);
    qcn_rp_params_default(&p, 40 * G, QCN_PROFILE_PAPER);
    p.ai_halve = 2;
    CHECK_EQ(qcn_rp_params_check(&p, why, sizeof why), -1);
    CHECK_EQ(qcn_rp_params_check(NULL, why, sizeof why), -1);
}

TEST(rp_init_unlimited)
{
    struct qcn_rp s;

    rp_setup(&s);
    CHECK(qcn_rp_rate_bps(&s) == 40 * G);
    CHECK(qcn_rp_deadline(&s) == UINT64_MAX);
    CHECK_EQ(qcn_rp_window_bytes(&s), 0);
    CHECK_EQ(qcn_rp_phase(&s, &P), QCN_RP_UNLIMITED);
    /* No counting and no timer while unlimited. */
    qcn_rp_on_sent(&s, &P, 10000000, 0);
    qcn_rp_on_timer(&s, &P, 100 * MS);
    CHECK_EQ(s.n_bc_cycles + s.n_timer_cycles, 0);
    CHECK(qcn_rp_rate_bps(&s) == 40 * G);
}

TEST(rp_decrease)
{
    struct qcn_rp s;

    rp_setup(&s);
    /* fb_q 32: TR = 40G, CR = 40G − ⌊40G·32/128⌋ = 30G. */
    CHECK_EQ(qcn_rp_on_feedback(&s, &P, 32, 1 * MS), 1);
    CHECK(s.tr_bps == 40 * G);
    CHECK(qcn_rp_rate_bps(&s) == 30 * G);
    CHECK(qcn_rp_deadline(&s) == 11 * MS);
    CHECK_EQ(qcn_rp_phase(&s, &P), QCN_RP_FR);
    /* fb_q 63: TR = 30G, CR = 30G − ⌊30G·63/128⌋ = 30G − 14 765 625 000
     * = 15 234 375 000 (the largest cut, 49.2%). */
    CHECK_EQ(qcn_rp_on_feedback(&s, &P, 63, 2 * MS), 1);
    CHECK(s.tr_bps == 30 * G);
    CHECK(qcn_rp_rate_bps(&s) == 15234375000ull);
    /* fb_q > 63 counts as 63: 15 234 375 000 − ⌊·63/128⌋ =
     * 15 234 375 000 − 7 498 168 945 = 7 736 206 055. */
    CHECK_EQ(qcn_rp_on_feedback(&s, &P, 200, 3 * MS), 1);
    CHECK(s.tr_bps == 15234375000ull);
    CHECK(qcn_rp_rate_bps(&s) == 7736206055ull);
    /* fb_q 0 is ignored: nothing changes, timer not reset. */
    CHECK_EQ(qcn_rp_on_feedback(&s, &P, 0, 4 * MS), 0);
    CHECK(qcn_rp_rate_bps(&s) == 7736206055ull);
    CHECK(qcn_rp_deadline(&s) == 13 * MS);
    CHECK_EQ(s.n_fb, 3);
    CHECK_EQ(s.n_fb_ignored, 1);
    /* fb_q 1 at line rate: 40G − 40G/128 = 39 687 500 000. */
    rp_setup(&s);
    qcn_rp_on_feedback(&s, &P, 1, 0);
    CHECK(qcn_rp_rate_bps(&s) == 39687500000ull);
}

/* Two feedbacks of fb_q 32 at t = 0: TR = 30G, CR = 22.5G.
 * Fast recovery CR ← CR + ⌈(TR − CR)/2⌉ toward 30G:
 *   26.25G, 28.125G, 29.0625G, 29.53125G, 29.765625G. */
static const uint64_t FR_SEQ[5] = {
    26250000000ull, 28125000000ull, 29062500000ull, 29531250000ull, 29765625000ull
};

static void two_feedbacks(struct qcn_rp *s)
{
    rp_setup(s);
    qcn_rp_on_feedback(s, &P, 32, 0);
    qcn_rp_on_feedback(s, &P, 32, 0);
}

TEST(rp_fr_ai_hai_by_byte_counter)
{
    struct qcn_rp s;
    int i;

    two_feedbacks(&s);
    CHECK(s.tr_bps == 30 * G);
    CHECK(qcn_rp_rate_bps(&s) == 22500000000ull);
    CHECK_EQ(s.bc_left, 150000);
    /* 149 999 bytes: no cycle yet; 1 more: cycle 1. */
    qcn_rp_on_sent(&s, &P, 149999, 0);
    CHECK_EQ(s.bc_stage, 0);
    CHECK(qcn_rp_rate_bps(&s) == 22500000000ull);
    qcn_rp_on_sent(&s, &P, 1, 0);
    CHECK_EQ(s.bc_stage, 1);
    CHECK(qcn_rp_rate_bps(&s) == FR_SEQ[0]);
    for (i = 1; i < 5; i++) {
        qcn_rp_on_sent(&s, &P, 150000, 0);
        CHECK(qcn_rp_rate_bps(&s) == FR_SEQ[i]);
        CHECK(s.tr_bps == 30 * G);            /* TR fixed during FR */
    }
    CHECK_EQ(s.bc_stage, 5);
    CHECK_EQ(qcn_rp_phase(&s, &P), QCN_RP_FR);
    CHECK_EQ(s.n_fr, 5);
    /* After FR the byte counter counts BC_LIMIT/2 = 75 000. */
    CHECK_EQ(s.bc_left, 75000);
    /* Cycle 6 (stage 6 > 5, timer stage 0): active increase,
     * TR = 30.005G, CR = 29 765 625 000 + ⌈239 375 000/2⌉ = 29 885 312 500. */
    qcn_rp_on_sent(&s, &P, 75000, 0);
    CHECK_EQ(qcn_rp_phase(&s, &P), QCN_RP_AI);
    CHECK(s.tr_bps == 30005000000ull);
    CHECK(qcn_rp_rate_bps(&s) == 29885312500ull);
    /* Cycle 7: TR = 30.010G, CR + ⌈124 687 500/2⌉ = 29 947 656 250. */
    qcn_rp_on_sent(&s, &P, 75000, 0);
    CHECK(s.tr_bps == 30010000000ull);
    CHECK(qcn_rp_rate_bps(&s) == 29947656250ull);
    CHECK_EQ(s.n_ai, 2);
    /* The byte counter alone never reaches hyper-active increase. */
    for (i = 0; i < 20; i++) qcn_rp_on_sent(&s, &P, 75000, 0);
    CHECK_EQ(s.n_hai, 0);
    CHECK_EQ(qcn_rp_phase(&s, &P), QCN_RP_AI);
    CHECK(s.tr_bps == 30110000000ull);        /* 30G + 22·5 Mb/s */
    CHECK_EQ(s.n_bc_cycles, 27);
}

TEST(rp_fr_ai_hai_by_timer_then_both)
{
    struct qcn_rp s;
    uint64_t t;
    int i;

    two_feedbacks(&s);
    CHECK(qcn_rp_deadline(&s) == 10 * MS);
    /* Early call: nothing. */
    qcn_rp_on_timer(&s, &P, 10 * MS - 1);
    CHECK_EQ(s.t_stage, 0);
    /* Timer cycles at 10..50 ms: fast recovery, same sequence. */
    for (i = 0; i < 5; i++) {
        t = (uint64_t)(i + 1) * 10 * MS;
        CHECK(qcn_rp_deadline(&s) == t);
        qcn_rp_on_timer(&s, &P, t);
        CHECK(qcn_rp_rate_bps(&s) == FR_SEQ[i]);
    }
    /* After FR the timer period is T/2 = 5 ms. */
    CHECK(qcn_rp_deadline(&s) == 55 * MS);
    /* Timer cycle 6 at 55 ms: active increase (BC stage 0). */
    qcn_rp_on_timer(&s, &P, 55 * MS);
    CHECK_EQ(s.t_stage, 6);
    CHECK(s.tr_bps == 30005000000ull);
    CHECK(qcn_rp_rate_bps(&s) == 29885312500ull);
    CHECK(qcn_rp_deadline(&s) == 60 * MS);
    /* Byte counter cycles 1..5 (5 × 150 000 B): timer already past FR, so
     * each is an active-increase step (TR += 5 Mb/s):
     *   TR 30.010G CR 29 947 656 250; TR 30.015G CR 29 981 328 125;
     *   TR 30.020G CR 30 000 664 063; TR 30.025G CR 30 012 832 032;
     *   TR 30.030G CR 30 021 416 016. */
    qcn_rp_on_sent(&s, &P, 750000, 56 * MS);     /* one call, five cycles */
    CHECK_EQ(s.bc_stage, 5);
    CHECK_EQ(s.n_ai, 6);
    CHECK(s.tr_bps == 30030000000ull);
    CHECK(qcn_rp_rate_bps(&s) == 30021416016ull);
    CHECK_EQ(qcn_rp_phase(&s, &P), QCN_RP_AI);
    /* BC cycle 6 (75 000 B): both stages > 5 -> hyper-active,
     * TR += 50 Mb/s·(min(6,6) − 5) = 30.080G, CR + ⌈58 583 984/2⌉
     * = 30 050 708 008. */
    qcn_rp_on_sent(&s, &P, 75000, 57 * MS);
    CHECK_EQ(qcn_rp_phase(&s, &P), QCN_RP_HAI);
    CHECK(s.tr_bps == 30080000000ull);
    CHECK(qcn_rp_rate_bps(&s) == 30050708008ull);
    /* Timer cycle 7 at 60 ms: min(6,7) − 5 = 1: TR 30.130G,
     * CR = 30 090 354 004. */
    qcn_rp_on_timer(&s, &P, 60 * MS);
    CHECK(s.tr_bps == 30130000000ull);
    CHECK(qcn_rp_rate_bps(&s) == 30090354004ull);
    /* BC cycle 7: min(7,7) − 5 = 2: TR += 100 Mb/s -> 30.230G,
     * CR = 30 160 177 002. */
    qcn_rp_on_sent(&s, &P, 75000, 61 * MS);
    CHECK(s.tr_bps == 30230000000ull);
    CHECK(qcn_rp_rate_bps(&s) == 30160177002ull);
    CHECK_EQ(s.n_hai, 3);
    CHECK_EQ(s.n_fr, 5);
    CHECK_EQ(s.n_timer_cycles, 7);
    CHECK_EQ(s.n_bc_cycles, 7);
}

TEST(rp_feedback_resets_stages)
{
    struct qcn_rp s;

    two_feedbacks(&s);
    qcn_rp_on_sent(&s, &P, 150000 * 5 + 75000 * 3, 0);   /* BC stage 8 */
    qcn_rp_on_timer(&s, &P, 10 * MS);                    /* timer stage 1 */
    CHECK_EQ(s.bc_stage, 8);
    CHECK_EQ(s.t_stage, 1);
    qcn_rp_on_sent(&s, &P, 1000, 0);                     /* partial cycle */
    CHECK_EQ(s.bc_left, 74000);
    CHECK_EQ(qcn_rp_on_feedback(&s, &P, 10, 12 * MS), 1);
    CHECK_EQ(s.bc_stage, 0);
    CHECK_EQ(s.t_stage, 0);
    CHECK_EQ(s.bc_left, 150000);
    CHECK(qcn_rp_deadline(&s) == 22 * MS);
    CHECK_EQ(qcn_rp_phase(&s, &P), QCN_RP_FR);
    /* A stale timer call (old deadline) does nothing. */
    qcn_rp_on_timer(&s, &P, 20 * MS);
    CHECK_EQ(s.t_stage, 0);
    /* Without halving the cycle stays 150 000 B / T after FR. */
    P.ai_halve = 0;
    qcn_rp_on_sent(&s, &P, 150000 * 6, 0);
    CHECK_EQ(s.bc_stage, 6);
    CHECK_EQ(s.bc_left, 150000);
    qcn_rp_on_timer(&s, &P, 22 * MS);
    CHECK(qcn_rp_deadline(&s) == 32 * MS);
}

TEST(rp_clamping_and_release)
{
    struct qcn_rp s;
    int i;

    /* Hyper-active increase capped at the line rate; when CR reaches it
     * the limiter is released. */
    rp_setup(&s);
    qcn_rp_on_feedback(&s, &P, 1, 0);            /* CR 39.6875G, TR 40G */
    for (i = 0; i < 200 && s.limited; i++)
        qcn_rp_on_sent(&s, &P, 150000, 0);
    CHECK_EQ(s.limited, 0);
    CHECK(qcn_rp_rate_bps(&s) == 40 * G);
    CHECK(s.tr_bps == 40 * G);
    CHECK(qcn_rp_deadline(&s) == UINT64_MAX);
    CHECK_EQ(s.n_released, 1);
    /* Each cycle leaves ⌊(TR − CR)/2⌋: 312 500 000 has 29 bits, so 29
     * cycles reach 40G (5 FR, 24 AI; the timer never ran). */
    CHECK_EQ(s.n_bc_cycles, 29);
    CHECK_EQ(s.n_ai + s.n_hai, 24);

    /* TR never above line even with huge R_HAI. */
    rp_setup(&s);
    P.r_ai_bps = 10 * G; P.r_hai_bps = 100 * G;
    qcn_rp_on_feedback(&s, &P, 63, 0);           /* CR 20.3125G */
    qcn_rp_on_sent(&s, &P, 150000 * 5, 0);       /* FR */
    qcn_rp_on_sent(&s, &P, 75000, 0);            /* AI: TR -> capped 40G */
    CHECK(s.tr_bps <= 40 * G);
    CHECK(qcn_rp_rate_bps(&s) <= 40 * G);

    /* Minimum rate: min 25G; fb 63 from 40G gives 20.3125G -> 25G. */
    rp_setup(&s);
    P.min_rate_bps = 25 * G;
    qcn_rp_on_feedback(&s, &P, 63, 0);
    CHECK(qcn_rp_rate_bps(&s) == 25 * G);
    CHECK(s.tr_bps == 40 * G);
    CHECK_EQ(s.n_min_clamp, 1);
    /* A second cut from 25G (to 12.695G) is clamped as well. */
    qcn_rp_on_feedback(&s, &P, 63, 0);
    CHECK(qcn_rp_rate_bps(&s) == 25 * G);
    CHECK(s.tr_bps == 25 * G);
}

TEST(rp_deadline_saturates)
{
    struct qcn_rp s;

    rp_setup(&s);
    qcn_rp_on_feedback(&s, &P, 5, UINT64_MAX - 10);
    CHECK(qcn_rp_deadline(&s) == UINT64_MAX - 1);
    qcn_rp_on_timer(&s, &P, UINT64_MAX - 1);
    CHECK_EQ(s.t_stage, 1);
    CHECK(qcn_rp_deadline(&s) == UINT64_MAX - 1);
}

/* ------------------------------------------------------ closed loop toy */

/* N rate-limited sources -> one CP (egress queue of C b/s) in slotted
 * time, one slot = one 1000 B packet time at C.  A source emits a packet
 * when its token credit allows; the CP sees it at arrival with the queue
 * before enqueue; feedback reaches the source fb_delay slots later.  The
 * queue serves one packet per slot.  Returns mean and extremes of the
 * queue and the per-flow throughput share over the second half. */
#define TOY_N     4
#define TOY_QCAP  65536
#define TOY_D     8

struct toy_out { double q_mean, q_min, q_max, util, share[TOY_N]; uint64_t fb; };

static void qcn_toy(int profile, uint64_t c_bps, uint64_t slots, struct toy_out *o)
{
    static uint8_t fifo[TOY_QCAP];
    struct qcn_cp_params cpp;
    struct qcn_rp_params rpp;
    struct qcn_cp cp;
    struct qcn_rp rp[TOY_N];
    double credit[TOY_N] = { 0 }, slot_s = 8000.0 / (double)c_bps;
    uint8_t pend[TOY_D][TOY_N];
    uint64_t head = 0, tail = 0, k, served = 0, half = slots / 2;
    uint64_t got[TOY_N] = { 0 }, qsum = 0, slot_ps = (uint64_t)(slot_s * 1e12);
    uint64_t x = 99;
    int i, j;

    qcn_cp_params_default(&cpp, c_bps, profile);
    qcn_rp_params_default(&rpp, c_bps, profile);
    qcn_cp_init(&cp, &cpp);
    for (i = 0; i < TOY_N; i++) qcn_rp_init(&rp[i], &rpp, c_bps, 0);
    memset(pend, 0, sizeof pend);
    o->q_min = 1e30; o->q_max = 0;
    for (k = 0; k < slots; k++) {
        uint64_t now = k * slot_ps;
        uint8_t *due = pend[k % TOY_D];
        for (i = 0; i < TOY_N; i++) {
            if (due[i]) { qcn_rp_on_feedback(&rp[i], &rpp, due[i], now); due[i] = 0; }
            if (now >= qcn_rp_deadline(&rp[i])) qcn_rp_on_timer(&rp[i], &rpp, now);
            credit[i] += (double)qcn_rp_rate_bps(&rp[i]) * slot_s;
            if (credit[i] > 16000.0) credit[i] = 16000.0;
        }
        for (j = 0; j < TOY_N; j++) {       /* rotate who enqueues first */
            i = (int)((j + k) % TOY_N);
            while (credit[i] >= 8000.0 && tail - head < TOY_QCAP) {
                uint8_t fbq;
                credit[i] -= 8000.0;
                if (qcn_cp_on_packet(&cp, &cpp, (tail - head) * 1000, u01(&x), &fbq))
                    pend[(k + TOY_D - 1) % TOY_D][i] = fbq;   /* delivered in TOY_D−1 slots */
                fifo[tail++ % TOY_QCAP] = (uint8_t)i;
                qcn_rp_on_sent(&rp[i], &rpp, 1000, now);
            }
        }
        if (tail > head) {
            uint8_t f = fifo[head++ % TOY_QCAP];
            if (k >= half) { got[f]++; served++; }
        }
        if (k >= half) {
            double q = (double)(tail - head) * 1000.0;
            qsum += tail - head;
            if (q < o->q_min) o->q_min = q;
            if (q > o->q_max) o->q_max = q;
        }
    }
    o->q_mean = (double)qsum * 1000.0 / (double)(slots - half);
    o->util = (double)served / (double)(slots - half);
    for (i = 0; i < TOY_N; i++) o->share[i] = (double)got[i] / (double)(served ? served : 1);
    o->fb = cp.n_fb_sent;
}

TEST(closed_loop_toy)
{
    struct toy_out o;
    int i, k;
    static const int prof[2] = { QCN_PROFILE_PAPER, QCN_PROFILE_DC };
    static const uint64_t link[2] = { 10 * G, 40 * G };

    /* 4 flows, 500 ms: PAPER on 10G (625 000 slots), DC on 40G
     * (2 500 000 slots).  Expected: full utilization, a queue around
     * Q_eq = 26 KB, and every flow near 1/4 of the link.  PAPER converges
     * slowly (10 ms timer; QCN's byte counter lets faster flows finish
     * cycles sooner, cf. Zhang & Ansari, "Fair QCN", IEEE TCOM 2013), so
     * its shares are only checked to be within [0.10, 0.40]; DC within
     * 0.25 ± 0.06. */
    for (k = 0; k < 2; k++) {
        qcn_toy(prof[k], link[k], k == 0 ? 625000 : 2500000, &o);
        printf("  qcn %s %" PRIu64 "G: q mean %.0f [%.0f, %.0f] util %.3f fb %" PRIu64 " shares",
               k == 0 ? "paper" : "dc", (uint64_t)(link[k] / G), o.q_mean, o.q_min, o.q_max, o.util, o.fb);
        for (i = 0; i < TOY_N; i++) printf(" %.3f", o.share[i]);
        printf("\n");
        CHECK(o.util > 0.98);
        CHECK(o.q_mean > 0.5 * 26000 && o.q_mean < 2 * 26000);
        CHECK(o.q_min < 26000 && o.q_max > 26000);
        for (i = 0; i < TOY_N; i++) {
            if (k == 0) CHECK(o.share[i] > 0.10 && o.share[i] < 0.40);
            else CHECK_NEAR(o.share[i], 0.25, 0.06);
        }
    }
}

int main(void)
{
    test_binary_ = "test_qcn";
    RUN(cp_defaults);
    RUN(cp_params_check);
    RUN(cp_fb_by_hand);
    RUN(cp_no_feedback_when_fb_nonnegative);
    RUN(cp_sampling_probability_table);
    RUN(cp_sampling_decision);
    RUN(cp_sampling_rate_statistics);
    RUN(rp_defaults_and_check);
    RUN(rp_init_unlimited);
    RUN(rp_decrease);
    RUN(rp_fr_ai_hai_by_byte_counter);
    RUN(rp_fr_ai_hai_by_timer_then_both);
    RUN(rp_feedback_resets_stages);
    RUN(rp_clamping_and_release);
    RUN(rp_deadline_saturates);
    RUN(closed_loop_toy);
    return test_summary();
}
