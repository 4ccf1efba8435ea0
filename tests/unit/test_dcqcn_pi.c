/*
 * test_dcqcn_pi.c -- unit tests of the DCQCN+PI marking controller
 * (src/cc/dcqcn_pi.h).
 */
#include "test.h"

#include "cc/dcqcn.h"
#include "cc/dcqcn_pi.h"

#define US   1000000ull
#define G40  40000000000ull

/* Round test gains: a = 1e-7, b = 1e-6 per byte, q_ref = 100 KB, T = 10 µs. */
static void test_params(struct dcqcn_pi_params *p)
{
    dcqcn_pi_params_default(p, G40);
    p->a = 1e-7;
    p->b = 1e-6;
    p->q_ref_bytes = 100000;
    p->period_ps = 10 * US;
}

TEST(defaults)
{
    struct dcqcn_pi_params p;
    struct dcqcn_pi s;

    dcqcn_pi_params_default(&p, G40);
    CHECK(dcqcn_pi_params_check(&p, NULL, 0) == 0);
    CHECK_EQ(p.q_ref_bytes, 200000);
    CHECK_NEAR(p.b, 5.816e-9, 1e-24);
    CHECK_NEAR(p.a, 5.816e-13, 1e-28);
    CHECK_NEAR(p.a / p.b, 1e-4, 1e-12);          /* a' = (1 + 1e-4)·b' */
    CHECK_EQ(p.period_ps, 1 * US);
    CHECK_NEAR(p.p_max, 1.0, 0);
    CHECK_EQ(p.clamp_state, 1);
    dcqcn_pi_init(&s, &p, 5 * US);
    CHECK_NEAR(dcqcn_pi_prob(&s), 0, 0);
    CHECK(dcqcn_pi_deadline(&s) == 6 * US);
    CHECK_EQ(s.q_old, 0);
    /* Paper gains: q = 300 KB from q_old = 0: 5.816e-13·1e5 + 5.816e-9·3e5
     * = 5.816e-8 + 1.7448e-3. */
    CHECK_NEAR(dcqcn_pi_update(&s, &p, 300000), 5.816e-8 + 1.7448e-3, 1e-15);
}

TEST(params_check)
{
    struct dcqcn_pi_params p, q;
    char why[64];

    dcqcn_pi_params_default(&p, G40);
    q = p; q.a = -1e-9;
    CHECK(dcqcn_pi_params_check(&q, why, sizeof why) == -1);
    CHECK_STR(why, "a must be finite and >= 0");
    q = p; q.b = INFINITY;
    CHECK(dcqcn_pi_params_check(&q, why, sizeof why) == -1);
    CHECK_STR(why, "b must be finite and >= 0");
    q = p; q.b = NAN;
    CHECK(dcqcn_pi_params_check(&q, why, sizeof why) == -1);
    q = p; q.period_ps = 0;
    CHECK(dcqcn_pi_params_check(&q, why, sizeof why) == -1);
    CHECK_STR(why, "period_ps must be > 0");
    q = p; q.p_max = 0;
    CHECK(dcqcn_pi_params_check(&q, why, sizeof why) == -1);
    q = p; q.p_max = 1.01;
    CHECK(dcqcn_pi_params_check(&q, NULL, 0) == -1);
    q = p; q.clamp_state = 2;
    CHECK(dcqcn_pi_params_check(&q, why, sizeof why) == -1);
    q = p; q.a = 0; q.b = 0;                     /* allowed (inert) */
    CHECK(dcqcn_pi_params_check(&q, why, sizeof why) == 0);
}

TEST(step_values_and_clamping)
{
    struct dcqcn_pi_params p;
    struct dcqcn_pi s;

    test_params(&p);
    dcqcn_pi_init(&s, &p, 0);
    /* q = 150 KB, q_old = 0: 1e-7·50000 + 1e-6·150000 = 0.005 + 0.15. */
    CHECK_NEAR(dcqcn_pi_update(&s, &p, 150000), 0.155, 1e-15);
    /* q = 160 KB: 1e-7·60000 + 1e-6·10000 = 0.006 + 0.01 -> 0.171. */
    CHECK_NEAR(dcqcn_pi_update(&s, &p, 160000), 0.171, 1e-15);
    CHECK_EQ(s.q_old, 160000);
    /* q = q_ref = 100 KB: 0 + 1e-6·(−60000) = −0.06 -> 0.111. */
    CHECK_NEAR(dcqcn_pi_update(&s, &p, 100000), 0.111, 1e-15);
    /* q = 0: 1e-7·(−1e5) + 1e-6·(−1e5) = −0.01 − 0.1 -> 0.001. */
    CHECK_NEAR(dcqcn_pi_update(&s, &p, 0), 0.001, 1e-15);
    /* q = 0 again: −0.01 -> −0.009, clamped to 0. */
    CHECK_NEAR(dcqcn_pi_update(&s, &p, 0), 0.0, 0);
    CHECK_EQ(s.n_clamp_lo, 1);
    /* Clamped state: from 0, q = 100 KB: 0 + 0.1 -> 0.1. */
    CHECK_NEAR(dcqcn_pi_update(&s, &p, 100000), 0.1, 1e-15);
    /* q = 2 MB from 100 KB: 0.19 + 1.9 -> 2.19, clamped to 1. */
    CHECK_NEAR(dcqcn_pi_update(&s, &p, 2000000), 1.0, 0);
    CHECK_EQ(s.n_clamp_hi, 1);
    /* Stays at 1 while q grows; q = 2 MB steady: +0.19 -> still 1. */
    CHECK_NEAR(dcqcn_pi_update(&s, &p, 2000000), 1.0, 0);
    /* Falling from 1: q = 1.5 MB: 0.14 − 0.5 = −0.36 -> 0.64. */
    CHECK_NEAR(dcqcn_pi_update(&s, &p, 1500000), 0.64, 1e-12);
    CHECK_EQ(s.n_updates, 9);
    /* p_max = 0.5 caps the output. */
    p.p_max = 0.5;
    CHECK_NEAR(dcqcn_pi_update(&s, &p, 3000000), 0.5, 0);
}

TEST(unclamped_state_fluid_model_variant)
{
    struct dcqcn_pi_params p;
    struct dcqcn_pi s;

    /* Same sequence as above up to −0.009; with clamp_state = 0 the state
     * keeps −0.009 and the next step from q = 100 KB gives
     * −0.009 + 0.1 = 0.091 (clamped state: 0.1). */
    test_params(&p);
    p.clamp_state = 0;
    dcqcn_pi_init(&s, &p, 0);
    dcqcn_pi_update(&s, &p, 150000);
    dcqcn_pi_update(&s, &p, 160000);
    dcqcn_pi_update(&s, &p, 100000);
    dcqcn_pi_update(&s, &p, 0);
    CHECK_NEAR(dcqcn_pi_update(&s, &p, 0), 0.0, 0);
    CHECK_NEAR(s.state, -0.009, 1e-15);
    CHECK_NEAR(dcqcn_pi_update(&s, &p, 100000), 0.091, 1e-15);
    /* Wind-up above 1: q = 2 MB -> state 0.091 + 2.09 = 2.181, p = 1;
     * q = 1.5 MB: state 2.181 − 0.36 = 1.821, p still 1. */
    CHECK_NEAR(dcqcn_pi_update(&s, &p, 2000000), 1.0, 0);
    CHECK_NEAR(dcqcn_pi_update(&s, &p, 1500000), 1.0, 0);
    CHECK_NEAR(s.state, 1.821, 1e-12);
}

TEST(mark)
{
    struct dcqcn_pi_params p;
    struct dcqcn_pi s;

    test_params(&p);
    dcqcn_pi_init(&s, &p, 0);
    CHECK_EQ(dcqcn_pi_mark(&s, 0.0), 0);               /* p = 0: never */
    /* q = 125 KB from 0: 1e-7·25000 + 1e-6·125000 = 0.0025 + 0.125. */
    dcqcn_pi_update(&s, &p, 125000);
    CHECK_NEAR(dcqcn_pi_prob(&s), 0.1275, 1e-15);
    CHECK_EQ(dcqcn_pi_mark(&s, 0.1274), 1);
    CHECK_EQ(dcqcn_pi_mark(&s, 0.1275), 0);
    CHECK_EQ(dcqcn_pi_mark(&s, 0.9), 0);
    dcqcn_pi_update(&s, &p, 5000000);                  /* p = 1 */
    CHECK_EQ(dcqcn_pi_mark(&s, 0.999999), 1);
}

TEST(timer)
{
    struct dcqcn_pi_params p;
    struct dcqcn_pi s;

    test_params(&p);
    dcqcn_pi_init(&s, &p, 0);
    CHECK(dcqcn_pi_deadline(&s) == 10 * US);
    dcqcn_pi_on_timer(&s, &p, 150000, 9 * US);          /* early: no-op */
    CHECK_EQ(s.n_updates, 0);
    dcqcn_pi_on_timer(&s, &p, 150000, 10 * US);
    CHECK_EQ(s.n_updates, 1);
    CHECK_NEAR(dcqcn_pi_prob(&s), 0.155, 1e-15);
    CHECK(dcqcn_pi_deadline(&s) == 20 * US);
    dcqcn_pi_on_timer(&s, &p, 150000, 27 * US);         /* late: from now */
    CHECK(dcqcn_pi_deadline(&s) == 37 * US);
    dcqcn_pi_init(&s, &p, UINT64_MAX - 5);
    CHECK(dcqcn_pi_deadline(&s) == UINT64_MAX - 1);
}

/* Toy plant: arrivals C·(1 + 10·(p* − p)) with p* = 0.05, service C =
 * 5000 B/µs, T = 1 µs.  The integral action drives q to q_ref = 100 KB and
 * p to p*.  Gains a = 2e-9, b = 5e-7 per byte. */
TEST(closed_loop_toy_plant)
{
    struct dcqcn_pi_params p;
    struct dcqcn_pi s;
    double q = 0;
    int k;

    dcqcn_pi_params_default(&p, G40);
    p.a = 2e-9; p.b = 5e-7; p.q_ref_bytes = 100000; p.period_ps = 1 * US;
    dcqcn_pi_init(&s, &p, 0);
    for (k = 1; k <= 20000; k++) {
        q += 5000.0 * 10 * (0.05 - dcqcn_pi_prob(&s));
        if (q < 0) q = 0;
        dcqcn_pi_on_timer(&s, &p, (uint64_t)q, (uint64_t)k * US);
    }
    CHECK_NEAR(q, 100000, 1000);
    CHECK_NEAR(dcqcn_pi_prob(&s), 0.05, 1e-3);
}

static uint64_t lcg = 99;
static double u01(void)
{
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(lcg >> 11) / 9007199254740992.0;
}

/* DCQCN (paper RP/NP) with PI marking at the paper's gains, 4 flows on one
 * 40 G bottleneck, 1 µs steps, CNPs delayed 4 µs, 60 ms: full utilization,
 * fair shares, a bounded queue. */
TEST(closed_loop_dcqcn_pi)
{
    enum { NF = 4, DELAY = 4, STEPS = 60000, WARM = 30000 };
    struct dcqcn_params rp;
    struct dcqcn_pi_params pp;
    struct dcqcn_pi pi;
    struct dcqcn s[NF];
    struct dcqcn_np np[NF];
    double credit[NF] = { 0 }, sent[NF] = { 0 };
    int pend[NF][DELAY + 1];
    double q = 0, served = 0, qsum = 0, mn = 1e9, mx = 0;
    int i, k, j;

    dcqcn_params_default(&rp, G40, DCQCN_PROFILE_PAPER);
    dcqcn_pi_params_default(&pp, G40);
    dcqcn_pi_init(&pi, &pp, 0);
    memset(pend, 0, sizeof pend);
    for (i = 0; i < NF; i++) {
        dcqcn_init(&s[i], &rp, G40, 0);
        dcqcn_np_init(&np[i]);
    }
    for (k = 0; k < STEPS; k++) {
        uint64_t now = (uint64_t)k * US;
        double d;
        dcqcn_pi_on_timer(&pi, &pp, (uint64_t)q, now);
        for (i = 0; i < NF; i++) {
            if (pend[i][0])
                dcqcn_on_cnp(&s[i], &rp, now);
            for (j = 0; j < DELAY; j++)
                pend[i][j] = pend[i][j + 1];
            pend[i][DELAY] = 0;
            if (dcqcn_deadline(&s[i]) <= now)
                dcqcn_on_timer(&s[i], &rp, now);
            credit[i] += (double)dcqcn_rate_bps(&s[i]) / 8 / 1e6;
            while (credit[i] >= 1000) {
                credit[i] -= 1000;
                if (dcqcn_pi_mark(&pi, u01()) && dcqcn_np_on_ecn(&np[i], &rp, now))
                    pend[i][DELAY] = 1;
                q += 1000;
                dcqcn_on_sent(&s[i], &rp, 1000, now);
                if (k >= WARM)
                    sent[i] += 1000;
            }
        }
        d = q < 5000 ? q : 5000;
        q -= d;
        if (k >= WARM) {
            served += d;
            qsum += q;
        }
    }
    for (i = 0; i < NF; i++) {
        double share = sent[i] / (5000.0 * (STEPS - WARM) / NF);
        if (share < mn) mn = share;
        if (share > mx) mx = share;
    }
    printf("  dcqcn+pi 4 flows: util %.3f qavg %.0f B p %.5f share [%.2f, %.2f]\n",
           served / (5000.0 * (STEPS - WARM)), qsum / (STEPS - WARM), dcqcn_pi_prob(&pi), mn, mx);
    CHECK(served / (5000.0 * (STEPS - WARM)) > 0.95);
    CHECK(qsum / (STEPS - WARM) < 1000000);
    CHECK(mn > 0.75 && mx < 1.25);
}

int main(void)
{
    test_binary_ = "test_dcqcn_pi";
    RUN(defaults);
    RUN(params_check);
    RUN(step_values_and_clamping);
    RUN(unclamped_state_fluid_model_variant);
    RUN(mark);
    RUN(timer);
    RUN(closed_loop_toy_plant);
    RUN(closed_loop_dcqcn_pi);
    return test_summary();
}
