/*
 * test_rcc.c -- unit tests of RCC (ICNP'21, §III Alg. 1): the receiver's
 * N and B_R, congestion detection after exactly n samples, the type
 * decision at the eta boundary, PID steps (Eqs. 2-5) on hand-computed
 * numbers, the tanh scaling, stay-in-PID, and the RCC-sender variant's
 * pieces (§III-G), and §V-E's ablations RCC-PID and RCC-EWA.
 *
 * Numbers: c = 100 Gb/s, T = 8 us, so C = c*T/8 = 100000 bytes.
 */
#include "test.h"

#include "cc/rcc.h"

#define US   1000000ull          /* ps per us */
#define G100 100000000000ull

static struct rcc_params P;

static void setup(void)
{
    rcc_params_default(&P, 8 * US);
}

TEST(defaults_and_check)
{
    struct rcc_params p;
    char why[96];
    rcc_params_default(&p, 12 * US);
    CHECK_EQ(rcc_params_check(&p, why, sizeof why), 0);
    CHECK_EQ(p.n_detect, 3);
    CHECK_NEAR(p.delta, 0.2, 0);
    CHECK_NEAR(p.eta, 0.95, 0);
    CHECK_NEAR(p.kp, 1e4, 0);
    CHECK_NEAR(p.kd, 1e5, 0);
    CHECK_EQ(p.pid_interval_ps, 12 * US);
    p.delta = 0;
    CHECK_EQ(rcc_params_check(&p, why, sizeof why), -1);
    CHECK(strstr(why, "delta") != NULL);
    rcc_params_default(&p, 12 * US);
    p.eta = 1;
    CHECK_EQ(rcc_params_check(&p, why, sizeof why), -1);
    rcc_params_default(&p, 12 * US);
    p.n_detect = 0;
    CHECK_EQ(rcc_params_check(&p, why, sizeof why), -1);
    rcc_params_default(&p, 0);
    CHECK_EQ(rcc_params_check(&p, why, sizeof why), -1);
}

TEST(fair_share_and_pacing)
{
    setup();
    /* W = C/N: 100000 B over N; N = 0 counts as 1. */
    CHECK_EQ(rcc_fair_share(G100, 8 * US, 0), 100000);
    CHECK_EQ(rcc_fair_share(G100, 8 * US, 1), 100000);
    CHECK_EQ(rcc_fair_share(G100, 8 * US, 3), 33333);
    CHECK_EQ(rcc_fair_share(G100, 8 * US, 1000000), 1);    /* at least a byte */
    struct rcc_rx rx;
    rcc_rx_init(&rx, G100);
    rcc_rx_msg_begin(&rx);
    rcc_rx_msg_begin(&rx);
    rcc_rx_msg_begin(&rx);
    rcc_rx_msg_begin(&rx);
    CHECK_EQ(rcc_rx_fair_share(&rx, &P), 25000);
    rcc_rx_msg_end(&rx);
    CHECK_EQ(rx.n_flows, 3);
    CHECK_EQ(rcc_rx_fair_share(&rx, &P), 33333);
    for (int i = 0; i < 5; i++)
        rcc_rx_msg_end(&rx);
    CHECK_EQ(rx.n_flows, 0);                                  /* never below 0 */
    /* Pacing at W/T: 100000 B per 8 us is 100 Gb/s; half is 50; capped at line. */
    CHECK(rcc_pace_bps(&P, 100000, G100) == G100);
    CHECK(rcc_pace_bps(&P, 50000, G100) == G100 / 2);
    CHECK(rcc_pace_bps(&P, 400000, G100) == G100);
}

/* §III-C: B_R > c * T_min * eta.  T_min = 8 us: c*T_min/8 = 100000 B, the
 * threshold 95000 B; exactly 95000 is not above it, 95001 is. */
TEST(type_at_eta_boundary)
{
    setup();
    struct rcc_rx rx;
    rcc_rx_init(&rx, G100);
    rcc_rx_on_data(&rx, 95000, 8 * US, 0);
    CHECK_EQ(rcc_rx_last_hop_full(&rx, &P), 0);             /* no complete interval yet */
    CHECK_EQ(rcc_rx_br_mbps(&rx), 0);
    rcc_rx_on_data(&rx, 1, 8 * US, 8 * US);                   /* closes [0, 8 us) */
    CHECK_EQ(rx.br_bytes, 95000);
    CHECK_EQ(rx.br_interval_ps, 8 * US);
    CHECK_EQ(rcc_rx_last_hop_full(&rx, &P), 0);
    CHECK_EQ(rcc_rx_br_mbps(&rx), 95000);                     /* 95000 B / 8 us = 95 Gb/s */
    rcc_rx_init(&rx, G100);
    rcc_rx_on_data(&rx, 95001, 8 * US, 0);
    rcc_rx_on_data(&rx, 1, 8 * US, 8 * US + 1);
    CHECK_EQ(rcc_rx_last_hop_full(&rx, &P), 1);
    /* Bytes at 8 us + 1 belong to [8, 16 us); an idle interval [16, 24)
     * between it and the next packet makes B_R 0. */
    rcc_rx_on_data(&rx, 1000, 8 * US, 24 * US + 5);
    CHECK_EQ(rx.br_bytes, 0);
    CHECK_EQ(rcc_rx_last_hop_full(&rx, &P), 0);
    CHECK_EQ(rx.win_start_ps, 24 * US);
    /* A smaller delay shortens the interval (T_min is the smallest base). */
    rcc_rx_on_data(&rx, 1000, 4 * US, 28 * US);
    CHECK_EQ(rx.min_delay_ps, 4 * US);
    CHECK_EQ(rx.br_bytes, 1000);
    CHECK_EQ(rx.br_interval_ps, 4 * US);
    /* The sender variant's test on the fed-back throughput. */
    CHECK_EQ(rcc_last_hop_full_rate(&P, 95000, G100), 0);
    CHECK_EQ(rcc_last_hop_full_rate(&P, 95001, G100), 1);
}

/* Eq. 1, n = 3: base 10 us, so "above" is > 12 us.  The first sample sets
 * the base; exactly 12 us is not above; three in a row enter PID on the
 * third, a sample at or below 12 us resets the run. */
TEST(detection_after_n_samples)
{
    setup();
    struct rcc_conn c;
    rcc_conn_init(&c, 100000);
    uint64_t t = 0, F = 100000;
    CHECK_EQ(rcc_conn_on_sample(&c, &P, 10 * US, F, 0, t += US), F);
    CHECK_EQ(c.base_ps, 10 * US);
    rcc_conn_on_sample(&c, &P, 12 * US, F, 0, t += US);      /* = base*1.2: not above */
    CHECK_EQ(c.above, 0);
    rcc_conn_on_sample(&c, &P, 13 * US, F, 0, t += US);
    rcc_conn_on_sample(&c, &P, 13 * US, F, 0, t += US);
    CHECK_EQ(c.above, 2);
    CHECK_EQ(c.in_pid, 0);
    rcc_conn_on_sample(&c, &P, 11 * US, F, 0, t += US);      /* resets */
    CHECK_EQ(c.above, 0);
    rcc_conn_on_sample(&c, &P, 13 * US, F, 0, t += US);
    rcc_conn_on_sample(&c, &P, 13 * US, F, 0, t += US);
    CHECK_EQ(c.in_pid, 0);
    CHECK_EQ(c.last_type, RCC_T_NONE);
    CHECK_EQ(c.cwnd_bytes, F);
    rcc_conn_on_sample(&c, &P, 13 * US, F, 0, t += US);      /* the third in a row */
    CHECK_EQ(c.in_pid, 1);
    CHECK_EQ(c.last_type, RCC_T_IN_NETWORK);
    CHECK_EQ(c.pid_enter_ps, t);
    /* With n = 1 (RCC(n=1), §V-E) the first sample above enters PID. */
    P.n_detect = 1;
    rcc_conn_init(&c, 100000);
    rcc_conn_on_sample(&c, &P, 10 * US, F, 0, 1);
    rcc_conn_on_sample(&c, &P, 13 * US, F, 0, 2);
    CHECK_EQ(c.in_pid, 1);
}

/* Alg. 1 line 10: while the last hop is full the window is the fair share
 * whatever the delay says; once it is not, a run of n already counted
 * enters PID at once. */
TEST(last_hop_gets_fair_share)
{
    setup();
    struct rcc_conn c;
    rcc_conn_init(&c, 100000);
    uint64_t t = 0;
    rcc_conn_on_sample(&c, &P, 10 * US, 100000, 1, t += US);
    for (int i = 0; i < 5; i++) {
        CHECK_EQ(rcc_conn_on_sample(&c, &P, 20 * US, 25000, 1, t += US), 25000);
        CHECK_EQ(c.last_type, RCC_T_LAST_HOP);
        CHECK_EQ(c.in_pid, 0);
    }
    CHECK_EQ(c.above, 5);
    rcc_conn_on_sample(&c, &P, 20 * US, 25000, 0, t += US);
    CHECK_EQ(c.in_pid, 1);
}

/* Hand-computed PID steps (Eqs. 2-5): base 10 us, target 11 us, Kp 1e4,
 * Kd 1e5, fair share F = 100000 B, update interval T = 8 us.
 *   entry at 13 us, e(t-1) = 2 us (previous sample 13 us), e = 2 us:
 *     u = 1e4*2e-6 + 1e5*0 = 0.02, W = 100000*(1 - tanh 0.02) = 98000.27
 *   1 us later: no step (timer), W unchanged
 *   T later at 12 us: e = 1 us, u = 0.02 + 0.01 + 1e5*(-1e-6) = -0.07,
 *     W = 98000.27*(1 + tanh 0.07) = 104849 -> capped at F = 100000
 *   T later at 11 us: e = 0, u = -0.07 + 0 - 0.1 = -0.17, W stays F
 *   T later at 14 us: e = 3 us, u = -0.17 + 0.03 + 0.3 = 0.16,
 *     W = 100000*(1 - tanh 0.16) = 84135.15 */
TEST(pid_steps)
{
    setup();
    struct rcc_conn c;
    uint64_t F = 100000, t = 0;
    rcc_conn_init(&c, F);
    rcc_conn_on_sample(&c, &P, 10 * US, F, 0, t += US);
    rcc_conn_on_sample(&c, &P, 13 * US, F, 0, t += US);
    rcc_conn_on_sample(&c, &P, 13 * US, F, 0, t += US);
    CHECK_EQ(rcc_conn_on_sample(&c, &P, 13 * US, F, 0, t += US), 98000);
    CHECK_NEAR(c.u, 0.02, 1e-12);
    CHECK_NEAR(c.w_bytes, 98000.26662400691, 1e-6);
    CHECK_NEAR(c.last_err_s, 2e-6, 1e-15);
    CHECK_EQ(c.n_pid_steps, 1);
    uint64_t t0 = t;
    CHECK_EQ(rcc_conn_on_sample(&c, &P, 20 * US, F, 0, t0 + US), 98000);   /* between steps */
    CHECK_EQ(c.n_pid_steps, 1);
    CHECK_EQ(rcc_conn_on_sample(&c, &P, 12 * US, F, 0, t0 + 8 * US), 100000);
    CHECK_NEAR(c.u, -0.07, 1e-12);
    CHECK_EQ(rcc_conn_on_sample(&c, &P, 11 * US, F, 0, t0 + 16 * US), 100000);
    CHECK_NEAR(c.u, -0.17, 1e-12);
    CHECK_EQ(rcc_conn_on_sample(&c, &P, 14 * US, F, 0, t0 + 24 * US), 84135);
    CHECK_NEAR(c.u, 0.16, 1e-12);
    CHECK_EQ(c.n_pid_steps, 4);
    /* The cap follows the fair share between steps (N grew to 2). */
    CHECK_EQ(rcc_conn_on_sample(&c, &P, 14 * US, F / 2, 0, t0 + 25 * US), 50000);
}

/* Eq. 5: W(t) = W(t-1)*(1 - tanh u).  With Kp = Kd = 0 the step keeps u:
 * u = atanh(1/2) halves W, u -> -inf doubles it (up to the cap), u -> +inf
 * leaves the floor min(w_min, fair). */
TEST(tanh_scaling)
{
    setup();
    P.kp = 0;
    P.kd = 0;
    struct rcc_conn c;
    rcc_conn_init(&c, 0);
    c.base_ps = 10 * US;
    c.w_bytes = 40000;
    c.u = 0.5493061443340548;                 /* atanh(0.5) */
    CHECK_EQ(rcc_pid_step(&c, &P, 10 * US, 1000000), 20000);
    c.u = -50;
    CHECK_EQ(rcc_pid_step(&c, &P, 10 * US, 1000000), 40000);
    CHECK_EQ(rcc_pid_step(&c, &P, 10 * US, 50000), 50000);   /* capped */
    c.u = 50;
    CHECK_EQ(rcc_pid_step(&c, &P, 10 * US, 1000000), 1000);  /* w_min */
    CHECK_EQ(rcc_pid_step(&c, &P, 10 * US, 300), 300);       /* floor never above the fair share */
}

/* §III-B: a flow that entered PID stays there until it ends: neither a full
 * last hop nor delays back at base move it back to the fair share. */
TEST(stay_in_pid)
{
    setup();
    struct rcc_conn c;
    uint64_t F = 100000, t = 0;
    rcc_conn_init(&c, F);
    rcc_conn_on_sample(&c, &P, 10 * US, F, 0, t += US);
    for (int i = 0; i < 3; i++)
        rcc_conn_on_sample(&c, &P, 13 * US, F, 0, t += US);
    CHECK_EQ(c.in_pid, 1);
    uint64_t steps = c.n_pid_steps;
    for (int i = 0; i < 20; i++) {
        t += 8 * US;
        rcc_conn_on_sample(&c, &P, 10 * US, F, 1, t);
        CHECK_EQ(c.in_pid, 1);
        CHECK_EQ(c.last_type, RCC_T_IN_NETWORK);
    }
    CHECK_EQ(c.n_pid_steps, steps + 20);
    CHECK_EQ(c.n_last_hop, 0);
    /* Its window came from the PID: u went negative (e = -1 us per step)
     * and W grew back to the cap, it was never set to F by line 11. */
    CHECK(c.u < 0);
    CHECK_EQ(c.cwnd_bytes, F);
    /* A new message on the connection starts over. */
    rcc_conn_init(&c, F);
    CHECK_EQ(c.in_pid, 0);
}

/* What Eqs. 4-5 do to two flows that see the same delays (docs/rcc.md,
 * Fig. 8b): both windows are scaled by the same 1 - tanh u, so their ratio
 * stays what it was -- nothing in the PID pulls them to equal shares. */
TEST(pid_keeps_ratio)
{
    setup();
    struct rcc_conn a, b;
    uint64_t cap = 1000000, t = 0;
    rcc_conn_init(&a, 10000);
    rcc_conn_init(&b, 30000);
    static const double d_us[] = { 10, 13, 13, 13, 15, 12, 10.5, 11, 11.5, 12, 10, 10, 14, 11 };
    for (size_t i = 0; i < sizeof d_us / sizeof d_us[0]; i++) {
        uint64_t d = (uint64_t)(d_us[i] * (double)US);
        t += 8 * US;
        /* Windows from before PID: the fair share is each flow's own. */
        rcc_conn_on_sample(&a, &P, d, a.in_pid ? cap : 10000, 0, t);
        rcc_conn_on_sample(&b, &P, d, b.in_pid ? cap : 30000, 0, t);
    }
    CHECK(a.in_pid && b.in_pid);
    CHECK(a.n_pid_steps >= 10);
    CHECK(fabs(a.w_bytes - 10000) > 100);        /* the windows did move */
    CHECK_NEAR(b.w_bytes / a.w_bytes, 3.0, 1e-9);
}

/* Fig. 8b's mechanism (docs/rcc.md "Why Fig. 8b's rates are not 12 Gb/s
 * each"): two flows in PID behind one queue see the same delay, so Eq. 4
 * gives both the same increments of u and any difference of u stays
 * forever; Eq. 5 then changes the ratio of the windows by
 * (1 - tanh u_a) / (1 - tanh u_b) every step, until one flow sits at the
 * cap and the other at w_min.  Closed loop: 25 Gb/s, T = 12 us, the
 * one-way delay 6 us + queue/c with queue = W_a + W_b - c*T/8.  With equal
 * u the split stays 1:1 (a check that fails if the u's are not kept
 * apart, i.e. if Eq. 4 is changed to depend on the window). */
static void two_flows(double du, double *share_a)
{
    struct rcc_params p;
    rcc_params_default(&p, 12 * US);
    const double c = 25e9 / 8, bdp = c * 12e-6;          /* 37500 B */
    struct rcc_conn a, b;
    rcc_conn_init(&a, 15000);
    rcc_conn_init(&b, 15000);
    a.base_ps = b.base_ps = 6 * US;
    a.in_pid = b.in_pid = 1;
    b.u = du;
    for (int k = 0; k < 2000; k++) {                     /* 24 ms of steps */
        double q = a.w_bytes + b.w_bytes - bdp;
        uint64_t d = 6 * US + (uint64_t)((q > 0 ? q : 0) / c * 1e12);
        rcc_pid_step(&a, &p, d, (uint64_t)bdp);
        rcc_pid_step(&b, &p, d, (uint64_t)bdp);
    }
    *share_a = a.w_bytes / (a.w_bytes + b.w_bytes);
}

TEST(pid_offset_diverges)
{
    double s0, s1, s2;
    two_flows(0, &s0);
    two_flows(0.001, &s1);
    two_flows(0.01, &s2);
    CHECK_NEAR(s0, 0.5, 1e-9);           /* equal u: the split is kept */
    CHECK(s1 > 0.85);                    /* du = 0.001: 0.88 after 24 ms */
    CHECK(s2 > 0.94);                    /* du = 0.01: b at the floor */
}

/* §III-G RCC-sender: the receiver feeds back N and B_R; the same conn
 * machine runs at the sender on RTTs (base 12 us, above > 14.4 us). */
TEST(sender_variant)
{
    rcc_params_default(&P, 12 * US);
    struct rcc_rx rx;
    rcc_rx_init(&rx, G100);
    for (int i = 0; i < 4; i++)
        rcc_rx_msg_begin(&rx);
    /* Receiver: 12 us intervals (smallest one-way delay 12 us) at 90 Gb/s:
     * 135000 B per interval. */
    rcc_rx_on_data(&rx, 135000, 12 * US, 0);
    rcc_rx_on_data(&rx, 1, 12 * US, 12 * US);
    uint32_t n = rx.n_flows, br = rcc_rx_br_mbps(&rx);
    CHECK_EQ(n, 4);
    CHECK_EQ(br, 90000);
    /* Sender: N = 4 -> W = 100G*12us/8/4 = 37500; 90 Gb/s < 95 Gb/s. */
    uint64_t fair = rcc_fair_share(G100, P.base_rtt_ps, n);
    int full = rcc_last_hop_full_rate(&P, br, G100);
    CHECK_EQ(fair, 37500);
    CHECK_EQ(full, 0);
    struct rcc_conn c;
    rcc_conn_init(&c, 150000);
    uint64_t t = 0;
    CHECK_EQ(rcc_conn_on_sample(&c, &P, 12 * US, fair, full, t += US), 37500);
    rcc_conn_on_sample(&c, &P, 15 * US, fair, full, t += US);
    rcc_conn_on_sample(&c, &P, 15 * US, fair, full, t += US);
    CHECK_EQ(c.in_pid, 0);
    /* Third RTT above: PID; target 13.2 us (the paper's R_ref for a 12 us
     * base), e = 1.8 us, u = 0.018, W = 37500*(1 - tanh 0.018) = 36825.07. */
    CHECK_EQ(rcc_conn_on_sample(&c, &P, 15 * US, fair, full, t += US), 36825);
    CHECK_NEAR(c.u, 0.018, 1e-12);
    /* B_R at 96 Gb/s would have been last hop: the fair share, no PID. */
    CHECK_EQ(rcc_last_hop_full_rate(&P, 96000, G100), 1);
    rcc_conn_init(&c, 150000);
    rcc_conn_on_sample(&c, &P, 12 * US, fair, 1, 1);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(rcc_conn_on_sample(&c, &P, 15 * US, fair, 1, 2 + (uint64_t)i), 37500);
    CHECK_EQ(c.in_pid, 0);
}

/* §V-E ablations: the variant is checked, and the window the receiver
 * assigns is C/N except in RCC-PID, which has no Explicit Window
 * Assignment and assigns (caps at) C whatever N is. */
TEST(variant_check_and_cap)
{
    setup();
    char why[96];
    CHECK_EQ(P.variant, RCC_FULL);
    P.variant = 3;
    CHECK_EQ(rcc_params_check(&P, why, sizeof why), -1);
    CHECK(strstr(why, "variant") != NULL);
    P.variant = -1;
    CHECK_EQ(rcc_params_check(&P, why, sizeof why), -1);
    struct rcc_rx rx;
    rcc_rx_init(&rx, G100);
    for (int i = 0; i < 4; i++)
        rcc_rx_msg_begin(&rx);
    P.variant = RCC_FULL;
    CHECK_EQ(rcc_params_check(&P, why, sizeof why), 0);
    CHECK_EQ(rcc_window_cap(&P, G100, 4), 25000);
    CHECK_EQ(rcc_rx_fair_share(&rx, &P), 25000);
    P.variant = RCC_EWA_ONLY;
    CHECK_EQ(rcc_params_check(&P, why, sizeof why), 0);
    CHECK_EQ(rcc_rx_fair_share(&rx, &P), 25000);
    P.variant = RCC_PID_ONLY;
    CHECK_EQ(rcc_params_check(&P, why, sizeof why), 0);
    CHECK_EQ(rcc_window_cap(&P, G100, 4), 100000);
    CHECK_EQ(rcc_rx_fair_share(&rx, &P), 100000);
}

/* RCC-EWA: base 10 us, five samples of 13 us (> 12 us) with the last hop
 * not full.  Full RCC enters PID on the third (W = 50000*(1 - tanh 0.02) =
 * 49000); RCC-EWA flags in-network congestion but keeps cwnd = C/N =
 * 50000 on every sample, and follows N (C/4 = 25000) at once. */
TEST(ewa_only_never_pid)
{
    setup();
    struct rcc_conn c;
    uint64_t t = 0, F = 50000;
    P.variant = RCC_EWA_ONLY;
    rcc_conn_init(&c, 100000);
    CHECK_EQ(rcc_conn_on_sample(&c, &P, 10 * US, F, 0, t += US), F);
    CHECK_EQ(c.last_type, RCC_T_NONE);
    for (int i = 1; i <= 5; i++) {
        CHECK_EQ(rcc_conn_on_sample(&c, &P, 13 * US, F, 0, t += 8 * US), F);
        CHECK_EQ(c.in_pid, 0);
        CHECK_EQ(c.last_type, i >= 3 ? RCC_T_IN_NETWORK : RCC_T_NONE);
    }
    CHECK_EQ(c.n_innet_nopid, 3);
    CHECK_EQ(c.n_pid_steps, 0);
    CHECK(c.pid_enter_ps == UINT64_MAX);
    CHECK_EQ(rcc_conn_on_sample(&c, &P, 40 * US, F / 2, 0, t += 8 * US), F / 2);
    CHECK_EQ(rcc_conn_on_sample(&c, &P, 40 * US, F / 2, 1, t += 8 * US), F / 2);
    CHECK_EQ(c.last_type, RCC_T_LAST_HOP);
    /* The same sequence in full RCC. */
    P.variant = RCC_FULL;
    rcc_conn_init(&c, 100000);
    t = 0;
    rcc_conn_on_sample(&c, &P, 10 * US, F, 0, t += US);
    rcc_conn_on_sample(&c, &P, 13 * US, F, 0, t += 8 * US);
    rcc_conn_on_sample(&c, &P, 13 * US, F, 0, t += 8 * US);
    CHECK_EQ(rcc_conn_on_sample(&c, &P, 13 * US, F, 0, t += 8 * US), 49000);
    CHECK_EQ(c.in_pid, 1);
}

/* RCC-PID: the receiver has N = 4, but without EWA the cap is C = 100000.
 * Below detection the window is left where it is (the start window; here
 * 70000 to tell "left" from "set to C"), also while the last hop is full;
 * three samples of 13 us with the last hop full enter PID (full RCC would
 * assign C/N by line 11 and never consult detection):
 *   entry: e(t-1) = e = 2 us: u = 0.02, W = 70000*(1 - tanh 0.02) = 68600.19
 *   T later at 12 us: u = 0.02 + 0.01 - 0.1 = -0.07,
 *     W = 68600.19*(1 + tanh 0.07) = 73394.37
 *   T later at 14 us: u = -0.07 + 0.03 + 0.2 = 0.16,
 *     W = 73394.37*(1 - tanh 0.16) = 61750.46 */
TEST(pid_only_no_ewa)
{
    setup();
    P.variant = RCC_PID_ONLY;
    struct rcc_rx rx;
    rcc_rx_init(&rx, G100);
    for (int i = 0; i < 4; i++)
        rcc_rx_msg_begin(&rx);
    uint64_t F = rcc_rx_fair_share(&rx, &P), t = 0;
    CHECK_EQ(F, 100000);
    struct rcc_conn c;
    rcc_conn_init(&c, 70000);
    CHECK_EQ(rcc_conn_on_sample(&c, &P, 10 * US, F, 1, t += US), 70000);
    CHECK_EQ(c.last_type, RCC_T_LAST_HOP);
    CHECK_EQ(rcc_conn_on_sample(&c, &P, 13 * US, F, 1, t += US), 70000);
    CHECK_EQ(rcc_conn_on_sample(&c, &P, 13 * US, F, 1, t += US), 70000);
    CHECK_EQ(c.in_pid, 0);
    CHECK_EQ(rcc_conn_on_sample(&c, &P, 13 * US, F, 1, t += US), 68600);
    CHECK_EQ(c.in_pid, 1);
    CHECK_EQ(c.last_type, RCC_T_LAST_HOP);
    CHECK_NEAR(c.u, 0.02, 1e-12);
    uint64_t t0 = t;
    CHECK_EQ(rcc_conn_on_sample(&c, &P, 12 * US, F, 0, t0 + 8 * US), 73394);
    CHECK_EQ(c.last_type, RCC_T_IN_NETWORK);
    CHECK_NEAR(c.u, -0.07, 1e-12);
    CHECK_EQ(rcc_conn_on_sample(&c, &P, 14 * US, F, 1, t0 + 16 * US), 61750);
    CHECK_NEAR(c.u, 0.16, 1e-12);
    CHECK_EQ(c.n_pid_steps, 3);
    /* Stays in PID at base delay: u = 0.16 - 0.01 - 0.4 = -0.25, W = 61750.46*(1 + tanh 0.25) = 76874.31. */
    CHECK_EQ(rcc_conn_on_sample(&c, &P, 10 * US, F, 1, t0 + 24 * US), 76874);
    CHECK_EQ(c.in_pid, 1);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_rcc";
    RUN(defaults_and_check);
    RUN(fair_share_and_pacing);
    RUN(type_at_eta_boundary);
    RUN(detection_after_n_samples);
    RUN(last_hop_gets_fair_share);
    RUN(pid_steps);
    RUN(tanh_scaling);
    RUN(stay_in_pid);
    RUN(pid_keeps_ratio);
    RUN(pid_offset_diverges);
    RUN(sender_variant);
    RUN(variant_check_and_cap);
    RUN(ewa_only_never_pid);
    RUN(pid_only_no_ewa);
    return test_summary();
}
