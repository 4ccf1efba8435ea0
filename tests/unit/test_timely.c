/*
 * test_timely.c -- unit tests of TIMELY (SIGCOMM'15 Alg. 1), patched
 * TIMELY (ECN-or-Delay CoNEXT'16 §4.3) and the HPCC simulator profile.
 *
 * Paper defaults: alpha 0.875, beta 0.8, T_low 50 µs, T_high 500 µs,
 * minRTT 20 µs, delta 10 Mb/s, HAI 50 Mb/s after 5 g <= 0 completions.
 * Flows start at 5 Gb/s on a 10 Gb/s NIC unless said otherwise.
 */
#include "test.h"

#include "cc/timely.h"

#define US      1000000ull        /* ps per µs */
#define MBPS    1000000ull
#define G10     10000000000ull
#define G100    100000000000ull

static struct timely_params P;

static void setup(struct timely *s, enum timely_profile prof, uint64_t line, uint64_t start)
{
    timely_params_default(&P, line, prof);
    timely_init(s, &P, start, 0);
}

/* One completion with RTT rtt_us: consecutive sequence numbers so every
 * call closes an RTT; the ACK echoes a send time rtt_us before now. */
static uint64_t seqno;
static void sample(struct timely *s, double rtt_us)
{
    uint64_t now = 1000000 * US + seqno * 1000 * US;
    uint64_t rtt = (uint64_t)(rtt_us * (double)US);
    timely_on_ack(s, &P, seqno * 10 + 1, seqno * 10 + 10, now - rtt, now);
    seqno++;
}

TEST(defaults_and_check)
{
    struct timely_params p;
    struct timely s;
    char why[96];

    timely_params_default(&p, G10, TIMELY_PROFILE_PAPER);
    CHECK_EQ(timely_params_check(&p, why, sizeof why), 0);
    CHECK_EQ(p.mode, TIMELY_ORIGINAL);
    CHECK_NEAR(p.alpha, 0.875, 0);
    CHECK_NEAR(p.beta, 0.8, 0);
    CHECK(p.t_low_ps == 50 * US && p.t_high_ps == 500 * US && p.min_rtt_ps == 20 * US);
    CHECK_EQ(p.delta_bps, 10 * MBPS);
    CHECK_EQ(p.hai_bps, 50 * MBPS);
    CHECK_EQ(p.hai_thresh, 5);
    CHECK_EQ(p.min_rate_bps, 10 * MBPS);
    CHECK(p.max_rate_bps == G10);
    timely_init(&s, &p, G10, 0);
    CHECK(timely_rate_bps(&s) == G10);
    CHECK_EQ(timely_window_bytes(&s), 0);
    CHECK(timely_deadline(&s) == UINT64_MAX);
    timely_on_timer(&s, &p, 1);
    /* Start at C/(N+1): with 3 flows already active, 2.5 Gb/s. */
    timely_init(&s, &p, G10 / 4, 0);
    CHECK(timely_rate_bps(&s) == 2500000000ull);
    timely_init(&s, &p, 20 * G10, 0);
    CHECK(timely_rate_bps(&s) == G10);            /* clamped to max */

    timely_params_default(&p, G100, TIMELY_PROFILE_HPCC_SIM);
    CHECK_EQ(timely_params_check(&p, why, sizeof why), 0);
    CHECK_EQ(p.delta_bps, 100 * MBPS);            /* bw = 100 -> 100 Mb/s */
    CHECK_EQ(p.hai_bps, 500 * MBPS);
    CHECK_EQ(p.min_rate_bps, 1000 * MBPS);

    timely_params_default(&p, G10, TIMELY_PROFILE_PATCHED);
    CHECK_EQ(timely_params_check(&p, why, sizeof why), 0);
    CHECK_EQ(p.mode, TIMELY_PATCHED);
    CHECK_NEAR(p.beta, 0.008, 0);
    CHECK(p.rtt_ref_ps == 50 * US);

    p.alpha = 0;
    CHECK_EQ(timely_params_check(&p, why, sizeof why), -1);
    CHECK_STR(why, "alpha must be in (0, 1]");
    p.alpha = 0.875; p.t_low_ps = 600 * US;
    CHECK_EQ(timely_params_check(&p, why, sizeof why), -1);
    CHECK_STR(why, "t_low_ps must be <= t_high_ps");
    p.t_low_ps = 50 * US; p.rtt_ref_ps = 0;
    CHECK_EQ(timely_params_check(&p, why, sizeof why), -1);
    CHECK_STR(why, "rtt_ref_ps must be > 0");
    p.rtt_ref_ps = 1; p.min_rate_bps = 2 * G10;
    CHECK_EQ(timely_params_check(&p, NULL, 0), -1);
    p.min_rate_bps = 1; p.mode = 9;
    CHECK_EQ(timely_params_check(&p, why, sizeof why), -1);
    CHECK_STR(why, "mode must be ORIGINAL or PATCHED");
    CHECK_EQ(timely_params_check(NULL, why, sizeof why), -1);
}

/* The RTT is now - the echoed send timestamp, in the sender's clock. */
TEST(rtt_from_echoed_timestamp)
{
    struct timely s;

    setup(&s, TIMELY_PROFILE_PAPER, G10, 5 * G10 / 10);
    /* Sent at 1000 µs, ACK at 1100 µs: rtt = 100 µs, whatever the ACK's
     * own arrival spacing.  First sample: prev = rtt, g = 0 <= 0: +delta. */
    timely_on_ack(&s, &P, 1000, 2000, 1000 * US, 1100 * US);
    CHECK(s.last_rtt_ps == 100 * US);
    CHECK(s.prev_rtt_ps == 100 * US);
    CHECK_EQ(s.n_updates, 1);
    CHECK(timely_rate_bps(&s) == 5010000000ull);
    /* An echo from another clock (send ts after now) would wrap the
     * unsigned RTT; it is rejected and does not consume the RTT. */
    timely_on_ack(&s, &P, 3000, 4000, 2000 * US, 1200 * US);
    CHECK_EQ(s.n_bad_rtt, 1);
    CHECK_EQ(s.last_update_seq, 2000);
    CHECK(timely_rate_bps(&s) == 5010000000ull);
    /* The next good ACK is still a completion: sent 1150, now 1210 ->
     * 60 µs; diff -40: rtt_diff = 0.875·(-40) = -35 µs, g < 0: +delta. */
    timely_on_ack(&s, &P, 3000, 4000, 1150 * US, 1210 * US);
    CHECK(s.last_rtt_ps == 60 * US);
    CHECK_NEAR(s.rtt_diff_ps, -35.0 * US, 1e-3);
    CHECK(timely_rate_bps(&s) == 5020000000ull);
    CHECK_EQ(s.last_update_seq, 4000);
}

/* Rising RTT -> decrease by the gradient; falling -> increase; HAI after 5. */
TEST(rtt_ramp)
{
    struct timely s;
    static const double fall[] = { 100, 90, 80, 70 };
    uint64_t r;

    setup(&s, TIMELY_PROFILE_PAPER, G10, 5 * G10 / 10);
    sample(&s, 100);                 /* first: diff 0, g 0: +delta -> 5.01 G */
    CHECK(timely_rate_bps(&s) == 5010000000ull);
    CHECK_EQ(s.inc_stage, 1);
    /* 110: diff +10 µs; rtt_diff = 0.875·10 = 8.75 µs; g = 8.75/20 =
     * 0.4375; R = 5.01e9·(1 - 0.8·0.4375) = 5.01e9·0.65 = 3256500000
     * (within 1 bit/s: doubles, rounded down). */
    sample(&s, 110);
    CHECK_NEAR(s.gradient, 0.4375, 1e-12);
    CHECK_NEAR((double)timely_rate_bps(&s), 3256500000.0, 1.0);
    CHECK_EQ(s.inc_stage, 0);
    /* 120: rtt_diff = 0.125·8.75 + 0.875·10 = 9.84375; g = 0.4921875;
     * R = 3256500000·(1 - 0.39375) = 3256500000·0.60625 = 1974253125. */
    sample(&s, 120);
    CHECK_NEAR(s.gradient, 0.4921875, 1e-12);
    CHECK_NEAR((double)timely_rate_bps(&s), 1974253125.0, 2.0);
    CHECK_EQ(s.n_md, 2);
    /* 110: rtt_diff = 0.125·9.84375 - 8.75 = -7.51953125 < 0: +delta. */
    r = timely_rate_bps(&s);
    sample(&s, 110);
    CHECK_NEAR(s.rtt_diff_ps, -7.51953125 * US, 1e-3);
    CHECK(timely_rate_bps(&s) == r + 10 * MBPS);
    CHECK_EQ(s.inc_stage, 1);
    /* Keep falling: increases 2..5 are +delta ... */
    for (int i = 0; i < 4; i++) {
        r = timely_rate_bps(&s);
        sample(&s, fall[i]);
        CHECK(s.gradient < 0);
        CHECK(timely_rate_bps(&s) == r + 10 * MBPS);
    }
    CHECK_EQ(s.inc_stage, 5);
    CHECK_EQ(s.n_hai, 0);
    CHECK_EQ(s.n_ai, 6);
    /* ... and the 6th in a row is HAI: +5·delta = +50 Mb/s. */
    r = timely_rate_bps(&s);
    sample(&s, 60);
    CHECK(timely_rate_bps(&s) == r + 50 * MBPS);
    CHECK_EQ(s.n_hai, 1);
    sample(&s, 55);
    CHECK(timely_rate_bps(&s) == r + 100 * MBPS);
    CHECK_EQ(s.n_hai, 2);
    /* A rise resets the streak. */
    sample(&s, 200);
    CHECK(s.gradient > 0);
    CHECK_EQ(s.inc_stage, 0);
}

TEST(tlow_thigh_branches)
{
    struct timely s;

    setup(&s, TIMELY_PROFILE_PAPER, G10, 5 * G10 / 10);
    sample(&s, 100);                               /* 5.01 G, stage 1 */
    /* rtt < T_low: +delta whatever the gradient (here strongly negative),
     * HAI counter untouched (paper). */
    sample(&s, 40);
    CHECK(timely_rate_bps(&s) == 5020000000ull);
    CHECK_EQ(s.n_tlow, 1);
    CHECK_EQ(s.inc_stage, 1);
    /* Rising steeply but still below T_low: still +delta. */
    sample(&s, 49);
    CHECK(s.gradient > 0);
    CHECK(timely_rate_bps(&s) == 5030000000ull);
    /* rtt = T_low exactly is not "< T_low": gradient branch. */
    sample(&s, 50);
    CHECK_EQ(s.n_tlow, 2);
    CHECK(s.gradient > 0);
    CHECK_EQ(s.n_md, 1);
    /* rtt > T_high: R·(1 - 0.8·(1 - 500/1000)) = 0.6·R, even with g < 0
     * afterwards. */
    {
        uint64_t r = timely_rate_bps(&s);
        sample(&s, 1000);
        CHECK_EQ(s.n_thigh, 1);
        CHECK_NEAR((double)timely_rate_bps(&s), (double)r * 0.6, 1.0);
        r = timely_rate_bps(&s);
        sample(&s, 800);                           /* falling, still > T_high */
        CHECK(s.gradient < 0);
        CHECK_NEAR((double)timely_rate_bps(&s), (double)r * (1 - 0.8 * (1 - 500.0 / 800.0)), 1.0);
        CHECK_EQ(s.inc_stage, 0);
    }
    /* rtt = T_high exactly: gradient branch (g < 0 here): +delta. */
    {
        uint64_t r = timely_rate_bps(&s);
        sample(&s, 500);
        CHECK_EQ(s.n_thigh, 2);
        CHECK(timely_rate_bps(&s) == r + 10 * MBPS);
    }
}

TEST(rate_clamps)
{
    struct timely s;

    setup(&s, TIMELY_PROFILE_PAPER, G10, G10);
    sample(&s, 30);                                /* + delta above line */
    CHECK(timely_rate_bps(&s) == G10);
    CHECK_EQ(s.n_clamp_max, 1);
    /* g = (0.875·1000)/20 = 43.75: 1 - 0.8·g < 0 -> factor 0 -> min. */
    sample(&s, 400);
    sample(&s, 1400);
    CHECK(timely_rate_bps(&s) >= 10 * MBPS);
    sample(&s, 60);
    sample(&s, 490);
    CHECK(timely_rate_bps(&s) == 10 * MBPS);
    CHECK(s.n_clamp_min >= 1);
}

/* At most one update per RTT: ACKs up to lastUpdateSeq are ignored. */
TEST(once_per_rtt_gating)
{
    struct timely s;

    setup(&s, TIMELY_PROFILE_PAPER, G10, 5 * G10 / 10);
    timely_on_ack(&s, &P, 1000, 5000, 0, 100 * US);      /* completion, snd_nxt 5000 */
    CHECK_EQ(s.n_updates, 1);
    CHECK_EQ(s.last_update_seq, 5000);
    for (uint64_t a = 2000; a <= 5000; a += 1000)
        timely_on_ack(&s, &P, a, 9000, 100 * US, 900 * US);   /* would be T_high */
    CHECK_EQ(s.n_gated, 4);
    CHECK_EQ(s.n_updates, 1);
    CHECK(s.prev_rtt_ps == 100 * US);
    CHECK(timely_rate_bps(&s) == 5010000000ull);
    timely_on_ack(&s, &P, 5001, 9000, 100 * US, 900 * US);  /* next RTT: 800 µs */
    CHECK_EQ(s.n_updates, 2);
    CHECK_EQ(s.n_thigh, 1);
    CHECK_EQ(s.last_update_seq, 9000);
    CHECK_EQ(s.n_acks, 6);
    /* Direct samples bypass the gate. */
    timely_on_rtt(&s, &P, 100 * US);
    CHECK_EQ(s.n_updates, 3);
}

TEST(hpcc_sim_profile)
{
    struct timely s;

    setup(&s, TIMELY_PROFILE_HPCC_SIM, G100, 50 * G10 / 10);
    /* First completion only records the RTT. */
    sample(&s, 30);
    CHECK_EQ(s.n_first, 1);
    CHECK_EQ(s.n_updates, 0);
    CHECK(timely_rate_bps(&s) == 50000000000ull);
    /* Below T_low: +AI (100 Mb/s) and the counter advances; the 6th in a
     * row is HAI (+500 Mb/s). */
    for (int i = 1; i <= 5; i++) {
        sample(&s, 30);
        CHECK(timely_rate_bps(&s) == 50000000000ull + (uint64_t)i * 100 * MBPS);
    }
    CHECK_EQ(s.inc_stage, 5);
    sample(&s, 30);
    CHECK(timely_rate_bps(&s) == 50500000000ull + 500 * MBPS);
    CHECK_EQ(s.n_hai, 1);
    /* Huge positive gradient: c = max(0, 1 - beta·g) = 0 -> MIN_RATE 1 G. */
    sample(&s, 450);
    CHECK(timely_rate_bps(&s) == 1000 * MBPS);
    CHECK_EQ(s.inc_stage, 0);
    /* The first completion of the paper profile does update. */
    setup(&s, TIMELY_PROFILE_PAPER, G100, 50 * G10 / 10);
    sample(&s, 30);
    CHECK_EQ(s.n_updates, 1);
    CHECK(timely_rate_bps(&s) == 50010000000ull);
}

TEST(patched_weight_and_step)
{
    struct timely s;

    CHECK_NEAR(timely_patched_weight(-1.0), 0.0, 0);
    CHECK_NEAR(timely_patched_weight(-0.25), 0.0, 0);
    CHECK_NEAR(timely_patched_weight(-0.125), 0.25, 1e-15);
    CHECK_NEAR(timely_patched_weight(0.0), 0.5, 0);
    CHECK_NEAR(timely_patched_weight(0.1), 0.7, 1e-15);
    CHECK_NEAR(timely_patched_weight(0.25), 1.0, 0);
    CHECK_NEAR(timely_patched_weight(3.0), 1.0, 0);

    /* At the fixed point of 2 flows on 10 G: R = 5 G, RTT* = 50·(1 +
     * 2·10e6/(0.008·10e9)) = 62.5 µs.  g = 0: w = 1/2, err = 0.25;
     * R = 10e6·0.5 + 5e9·(1 - 0.008·0.5·0.25) = 5e6 + 4.995e9 = 5e9. */
    setup(&s, TIMELY_PROFILE_PATCHED, G10, 5 * G10 / 10);
    sample(&s, 62.5);
    CHECK_NEAR(s.gradient, 0.0, 0);
    CHECK_NEAR((double)timely_rate_bps(&s), 5e9, 1.0);
    CHECK_EQ(s.n_patched, 1);
    /* A rise of 4 µs: rtt_diff = 3.5 µs, g = 0.175, w = 0.85; err = 0.33;
     * R = 10e6·0.15 + 5e9·(1 - 0.008·0.85·0.33) = 1.5e6 + 4.98878e9. */
    sample(&s, 66.5);
    CHECK_NEAR(s.gradient, 0.175, 1e-12);
    CHECK_NEAR((double)timely_rate_bps(&s), 1.5e6 + 5e9 * (1 - 0.008 * 0.85 * 0.33), 2.0);
    /* Below T_low and above T_high as in the original (beta 0.008). */
    {
        uint64_t r = timely_rate_bps(&s);
        sample(&s, 40);
        CHECK(timely_rate_bps(&s) == r + 10 * MBPS);
        r = timely_rate_bps(&s);
        sample(&s, 1000);
        CHECK_NEAR((double)timely_rate_bps(&s), (double)r * (1 - 0.008 * 0.5), 1.0);
    }
}

/* Toy loop: N flows share a bottleneck of C = 10 Gb/s, RTT = 10 µs
 * propagation + q/C.  Every 20 µs each flow gets one completion with the
 * current RTT and the queue integrates (sum R - C)·20 µs.  Returns the
 * final RTT (µs) and rates. */
static double toy(struct timely *f, int n, const uint64_t *start, int steps)
{
    const double C = 1e10, dt = 20e-6, prop = 10e-6;
    double q = 0;                                   /* bits */
    uint64_t seq = 0;

    for (int i = 0; i < n; i++)
        timely_init(&f[i], &P, start[i], 0);
    for (int k = 0; k < steps; k++) {
        double rtt = prop + q / C, sum = 0;
        uint64_t now = (uint64_t)(k + 1) * 1000 * US;
        seq += 100;
        for (int i = 0; i < n; i++) {
            timely_on_ack(&f[i], &P, seq, seq + 50, now - (uint64_t)(rtt * 1e12), now);
            sum += (double)timely_rate_bps(&f[i]);
        }
        q += (sum - C) * dt;
        if (q < 0) q = 0;
    }
    return (prop + q / C) * 1e6;
}

TEST(patched_fixed_point_toy)
{
    struct timely f[4];
    static const uint64_t s2[] = { 7000000000ull, 3000000000ull };
    static const uint64_t s4[] = { 4000000000ull, 1000000000ull, 500000000ull, 100000000ull };
    double rtt;

    /* Two flows from 7 and 3 Gb/s (ECN-or-Delay Fig. 16a setting):
     * RTT* = 50·(1 + 2·1e7/(0.008·1e10)) = 62.5 µs, 5 Gb/s each. */
    timely_params_default(&P, G10, TIMELY_PROFILE_PATCHED);
    rtt = toy(f, 2, s2, 40000);
    CHECK_NEAR(rtt, 62.5, 0.3);
    CHECK_NEAR((double)timely_rate_bps(&f[0]), 5e9, 0.05e9);
    CHECK_NEAR((double)timely_rate_bps(&f[1]), 5e9, 0.05e9);
    /* Four flows from very unequal rates: RTT* = 50·(1 + 4/8) = 75 µs,
     * 2.5 Gb/s each. */
    rtt = toy(f, 4, s4, 40000);
    CHECK_NEAR(rtt, 75.0, 0.4);
    for (int i = 0; i < 4; i++)
        CHECK_NEAR((double)timely_rate_bps(&f[i]), 2.5e9, 0.05e9);
    /* The fixed point is the same from another start (unique). */
    {
        static const uint64_t s2b[] = { 1000000000ull, 9000000000ull };
        rtt = toy(f, 2, s2b, 40000);
        CHECK_NEAR(rtt, 62.5, 0.3);
        CHECK_NEAR((double)timely_rate_bps(&f[0]), 5e9, 0.05e9);
    }
    /* Original TIMELY in the same loop has no fixed point between T_low
     * and T_high (ECN-or-Delay §4.2, Thm. "no fixed point"): g <= 0 always
     * adds delta, so the queue creeps up until RTT reaches T_high. */
    timely_params_default(&P, G10, TIMELY_PROFILE_PAPER);
    rtt = toy(f, 2, s2, 40000);
    CHECK(rtt > 490.0 && rtt < 520.0);
}

int main(void)
{
    test_binary_ = "test_timely";
    RUN(defaults_and_check);
    RUN(rtt_from_echoed_timestamp);
    RUN(rtt_ramp);
    RUN(tlow_thigh_branches);
    RUN(rate_clamps);
    RUN(once_per_rtt_gating);
    RUN(hpcc_sim_profile);
    RUN(patched_weight_and_step);
    RUN(patched_fixed_point_toy);
    return test_summary();
}
