/*
 * test_hpcc.c -- unit tests of the HPCC sender (SIGCOMM'19 Alg. 1) and the
 * HPCC simulator profile.
 *
 * Common setting: NIC 100 Gb/s, T = 10 µs, so W_init = 1e11·1e-5/8 =
 * 125000 B and R = W·8/T = W·8e5 bit/s.  A hop's u_j =
 * min(qlen, qlen')·8/(B·T) + txRate/B; at B = 100 Gb/s the qlen term is
 * qlen/125000 and Δtx bytes over Δts give txRate = Δtx·8/Δts.
 */
#include "test.h"

#include "cc/hpcc.h"

#define US      1000000ull        /* ps per µs */
#define G100    100000000000ull
#define G50     50000000000ull
#define T_PS    (10 * US)

static struct hpcc_params P;

/* Paper profile with W_AI = 100 B (round numbers). */
static void setup_paper(struct hpcc *s)
{
    hpcc_params_default(&P, G100, T_PS, HPCC_PROFILE_PAPER);
    P.w_ai_bytes = 100;
    hpcc_init(s, &P, G100, 0);
}

static struct hpcc_int_hop hop(uint64_t ts, uint64_t tx, uint32_t q, uint64_t rate)
{
    struct hpcc_int_hop h = { ts, tx, q, rate };
    return h;
}

/* One-hop ACK helper. */
static void ack1(struct hpcc *s, uint64_t seq, uint64_t nxt, uint64_t ts, uint64_t tx, uint32_t q)
{
    struct hpcc_int_hop h = hop(ts, tx, q, G100);
    hpcc_on_ack(s, &P, seq, nxt, &h, 1, ts);
}

TEST(defaults_and_int_size)
{
    struct hpcc_params p;
    struct hpcc s;
    char why[96];

    CHECK_EQ(HPCC_INT_BYTES(5), 42);          /* 2 + 5·8 */
    CHECK_EQ(HPCC_INT_BYTES(1), 10);
    CHECK_EQ(HPCC_INT_BYTES(HPCC_MAX_HOPS), 42);

    hpcc_params_default(&p, G100, T_PS, HPCC_PROFILE_PAPER);
    CHECK_EQ(hpcc_params_check(&p, why, sizeof why), 0);
    CHECK_NEAR(p.eta, 0.95, 1e-12);
    CHECK_EQ(p.max_stage, 5);
    CHECK_EQ(p.w_init_bytes, 125000);
    CHECK_EQ(p.w_ai_bytes, 62);               /* 125000·0.05/100 = 62.5 */
    CHECK_EQ(p.fast_react, 1);
    CHECK_EQ(p.qlen_min, 1);
    CHECK_NEAR(p.u_init, 0.0, 0);
    hpcc_init(&s, &p, G100, 0);
    CHECK_EQ(hpcc_window_bytes(&s), 125000);
    CHECK(hpcc_rate_bps(&s) == G100);         /* 125000·8e5 */
    CHECK(hpcc_deadline(&s) == UINT64_MAX);
    hpcc_on_timer(&s, &p, 5);
    CHECK_EQ(s.n_acks, 0);

    hpcc_params_default(&p, G100, T_PS, HPCC_PROFILE_SIM);
    CHECK_EQ(hpcc_params_check(&p, why, sizeof why), 0);
    CHECK_EQ(p.max_stage, 0);
    CHECK_EQ(p.r_ai_bps, 40000000);           /* 10·100/25 Mb/s */
    CHECK_EQ(p.min_rate_bps, 1000000000);
    CHECK_NEAR(p.u_init, 1.0, 0);
    CHECK_EQ(p.var_win, 1);
    hpcc_init(&s, &p, G100, 0);
    CHECK(hpcc_rate_bps(&s) == G100);
    CHECK_EQ(hpcc_window_bytes(&s), 125000);

    /* 25G: R_AI = 10 Mb/s. */
    hpcc_params_default(&p, 25000000000ull, T_PS, HPCC_PROFILE_SIM);
    CHECK_EQ(p.r_ai_bps, 10000000);

    /* Starting below line rate: W = 50G·T/8. */
    hpcc_params_default(&p, G100, T_PS, HPCC_PROFILE_PAPER);
    hpcc_init(&s, &p, G50, 0);
    CHECK_EQ(hpcc_window_bytes(&s), 62500);
    CHECK(hpcc_rate_bps(&s) == G50);
}

TEST(params_check_messages)
{
    struct hpcc_params p;
    char why[96];

    hpcc_params_default(&p, G100, 0, HPCC_PROFILE_PAPER);
    CHECK_EQ(hpcc_params_check(&p, why, sizeof why), -1);
    CHECK_STR(why, "base_rtt_ps must be > 0");
    hpcc_params_default(&p, G100, T_PS, HPCC_PROFILE_PAPER);
    p.eta = 1.5;
    CHECK_EQ(hpcc_params_check(&p, why, sizeof why), -1);
    CHECK_STR(why, "eta must be in (0, 1]");
    p.eta = 0.95; p.w_ai_bytes = 0;
    CHECK_EQ(hpcc_params_check(&p, why, sizeof why), -1);
    CHECK_STR(why, "w_ai_bytes must be > 0");
    p.w_ai_bytes = 100; p.profile = 7;
    CHECK_EQ(hpcc_params_check(&p, why, sizeof why), -1);
    CHECK_STR(why, "profile must be PAPER or SIM");
    p.profile = HPCC_PROFILE_PAPER; p.fast_react = 2;
    CHECK_EQ(hpcc_params_check(&p, NULL, 0), -1);
    hpcc_params_default(&p, G100, T_PS, HPCC_PROFILE_SIM);
    p.min_rate_bps = 0;
    CHECK_EQ(hpcc_params_check(&p, why, 8), -1);
    CHECK_STR(why, "min_rat");                 /* truncated to why_len - 1 */
    hpcc_params_default(&p, 0, T_PS, HPCC_PROFILE_SIM);
    CHECK_EQ(hpcc_params_check(&p, why, sizeof why), -1);
    CHECK_STR(why, "line_bps must be > 0");
    CHECK_EQ(hpcc_params_check(NULL, why, sizeof why), -1);
}

TEST(hop_sample_txrate_and_u)
{
    struct hpcc_hop_rec prev = { 1 * US, 10000, 3000 };
    struct hpcc_int_hop cur = hop(2 * US, 20000, 5000, G100);
    double txr, u;

    hpcc_params_default(&P, G100, T_PS, HPCC_PROFILE_PAPER);
    /* Δtx = 10000 B in Δts = 1 µs: txRate = 80000 bit / 1e-6 s = 80 Gb/s.
     * Alg. 1 line 5: min(5000, 3000) = 3000 -> 3000·8/(1e11·1e-5) = 0.024;
     * u = 0.024 + 0.8 = 0.824. */
    CHECK_EQ(hpcc_hop_sample(&P, &prev, &cur, &txr, &u), 1);
    CHECK_NEAR(txr, 8e10, 1e-3);
    CHECK_NEAR(u, 0.824, 1e-12);
    /* Per-link formula of §3 (qlen_min = 0): current qlen 5000 -> 0.04; u = 0.84. */
    P.qlen_min = 0;
    CHECK_EQ(hpcc_hop_sample(&P, &prev, &cur, &txr, &u), 1);
    CHECK_NEAR(u, 0.84, 1e-12);
    /* Simulator formula qlen·line/(B·win) = 3000·1e11/(1e11·125000) =
     * 0.024: the same number when win = line·T/8. */
    hpcc_params_default(&P, G100, T_PS, HPCC_PROFILE_SIM);
    CHECK_EQ(hpcc_hop_sample(&P, &prev, &cur, &txr, &u), 1);
    CHECK_NEAR(u, 0.824, 1e-12);
    /* A slower hop: B = 50G doubles both terms. */
    cur.rate_bps = G50;
    CHECK_EQ(hpcc_hop_sample(&P, &prev, &cur, &txr, &u), 1);
    CHECK_NEAR(u, 1.648, 1e-12);
    /* No usable delta: same ts, older ts, tx counter going back, B = 0. */
    cur = hop(1 * US, 20000, 5000, G100);
    CHECK_EQ(hpcc_hop_sample(&P, &prev, &cur, &txr, &u), 0);
    cur.ts_ps = US / 2;
    CHECK_EQ(hpcc_hop_sample(&P, &prev, &cur, &txr, &u), 0);
    cur = hop(2 * US, 9999, 5000, G100);
    CHECK_EQ(hpcc_hop_sample(&P, &prev, &cur, &txr, &u), 0);
    cur = hop(2 * US, 20000, 5000, 0);
    CHECK_EQ(hpcc_hop_sample(&P, &prev, &cur, &txr, &u), 0);
}

TEST(first_ack_only_records)
{
    struct hpcc s;

    setup_paper(&s);
    ack1(&s, 1000, 50000, 1 * US, 777, 42);
    CHECK_EQ(s.n_no_sample, 1);
    CHECK_EQ(s.nrec, 1);
    CHECK(s.rec[0].ts_ps == 1 * US);
    CHECK_EQ(s.rec[0].tx_bytes, 777);
    CHECK_EQ(s.rec[0].qlen_bytes, 42);
    CHECK_EQ(hpcc_window_bytes(&s), 125000);   /* unchanged */
    CHECK_EQ(s.wc_bytes, 125000);
    CHECK_EQ(s.last_update_seq, 0);            /* paper: no sample, no RTT closed */
    CHECK_EQ(s.n_rtt_updates + s.n_fast, 0);
    /* Second ACK: txRate from the two records.  Δtx = 62500 B in 10 µs =
     * 50 Gb/s, u = 0.5 + min(42, 0)... = 0.5; tau = T so U = u = 0.5. */
    ack1(&s, 2000, 60000, 11 * US, 777 + 62500, 0);
    CHECK_NEAR(s.u_sample, 0.5, 1e-12);
    CHECK_NEAR(s.u, 0.5, 1e-12);
    CHECK_EQ(s.n_rtt_updates, 1);
    CHECK_EQ(s.last_update_seq, 60000);
}

/* U above eta: W = W^c/(U/eta) + W_AI, W^c updated on the RTT-closing ACK. */
TEST(one_hop_u_above_eta)
{
    struct hpcc s;

    setup_paper(&s);
    ack1(&s, 1000, 50000, 1 * US, 0, 125000);
    /* Δtx = 125000 B / 10 µs = 100 Gb/s -> 1.0; min(125000, 125000)/125000
     * = 1.0; u = 2.0, tau = T: U = 2.0.
     * W = 125000·0.95/2.0 + 100 = 59375 + 100 = 59475. */
    ack1(&s, 2000, 60000, 11 * US, 125000, 125000);
    CHECK_NEAR(s.u, 2.0, 1e-12);
    CHECK_EQ(hpcc_window_bytes(&s), 59475);
    CHECK_EQ(s.wc_bytes, 59475);
    CHECK_EQ(s.inc_stage, 0);
    CHECK(hpcc_rate_bps(&s) == 47580000000ull);   /* 59475·8e5 */
    CHECK_EQ(s.n_mi, 1);
    CHECK_EQ(s.last_update_seq, 60000);
}

/* U below eta: additive steps; after maxStage = 5 of them the MI branch
 * runs even though U < eta. */
TEST(one_hop_ai_then_mi_at_max_stage)
{
    struct hpcc s;
    uint64_t ts = 11 * US, tx = 125000, seq = 60000;
    static const uint64_t want[] = { 59575, 59675, 59775, 59875, 59975 };

    setup_paper(&s);
    ack1(&s, 1000, 50000, 1 * US, 0, 125000);
    ack1(&s, 2000, seq, ts, tx, 125000);          /* W^c = 59475 as above */
    /* Each RTT: Δtx = 100000 B / 10 µs = 80 Gb/s -> 0.8; qlen 0 -> 0;
     * U = 0.8 < 0.95: W = W^c + 100. */
    for (int i = 0; i < 5; i++) {
        ts += 10 * US; tx += 100000;
        ack1(&s, seq + 1, seq + 40000, ts, tx, 0);
        seq += 40000;
        CHECK_NEAR(s.u, 0.8, 1e-12);
        CHECK_EQ(hpcc_window_bytes(&s), want[i]);
        CHECK_EQ(s.wc_bytes, want[i]);
        CHECK_EQ(s.inc_stage, (uint32_t)i + 1);
    }
    CHECK_EQ(s.n_ai, 5);
    /* incStage = 5 = maxStage: W = 59975·0.95/0.8 + 100 = 71220.3125 + 100
     * -> 71320 (rounded down), incStage back to 0. */
    ts += 10 * US; tx += 100000;
    ack1(&s, seq + 1, seq + 40000, ts, tx, 0);
    seq += 40000;
    CHECK_EQ(hpcc_window_bytes(&s), 71320);
    CHECK_EQ(s.wc_bytes, 71320);
    CHECK_EQ(s.inc_stage, 0);
    CHECK_EQ(s.n_mi, 2);
    /* And AI again. */
    ts += 10 * US; tx += 100000;
    ack1(&s, seq + 1, seq + 40000, ts, tx, 0);
    CHECK_EQ(hpcc_window_bytes(&s), 71420);
    CHECK_EQ(s.inc_stage, 1);
}

/* Fast reaction: ACKs inside the RTT set W from W^c and leave W^c,
 * incStage and lastUpdateSeq alone; W does not compound. */
TEST(fast_reaction_does_not_touch_reference)
{
    struct hpcc s;

    setup_paper(&s);
    ack1(&s, 1000, 50000, 1 * US, 0, 125000);
    ack1(&s, 2000, 60000, 11 * US, 125000, 125000);   /* U = 2, W^c = 59475 */
    /* ack 3000 <= 60000.  Δts = 5 µs, Δtx = 50000 B -> 80 Gb/s -> 0.8;
     * min(125000, 20000) = 20000 -> 0.16; u = 0.96.  tau/T = 0.5:
     * U = 0.5·2.0 + 0.5·0.96 = 1.48 >= eta:
     * W = 59475·0.95/1.48 + 100 = 38176.52... + 100 -> 38276. */
    ack1(&s, 3000, 61000, 16 * US, 175000, 20000);
    CHECK_NEAR(s.u, 1.48, 1e-12);
    CHECK_EQ(hpcc_window_bytes(&s), 38276);
    CHECK_EQ(s.wc_bytes, 59475);
    CHECK_EQ(s.inc_stage, 0);
    CHECK_EQ(s.last_update_seq, 60000);
    CHECK_EQ(s.n_fast, 1);
    CHECK(hpcc_rate_bps(&s) == 38276ull * 800000ull);
    /* ack 4000 <= 60000.  Δts = 10 µs, Δtx = 62500 -> 0.5, qlen 0: U = 0.5.
     * AI from W^c (not from 38276): W = 59475 + 100 = 59575. */
    ack1(&s, 4000, 62000, 26 * US, 237500, 0);
    CHECK_NEAR(s.u, 0.5, 1e-12);
    CHECK_EQ(hpcc_window_bytes(&s), 59575);
    CHECK_EQ(s.wc_bytes, 59475);
    CHECK_EQ(s.inc_stage, 0);                       /* not incremented */
    CHECK_EQ(s.n_fast, 2);
    CHECK_EQ(s.n_rtt_updates, 1);
    /* ack_seq == lastUpdateSeq is still inside the RTT (strict >). */
    ack1(&s, 60000, 63000, 36 * US, 300000, 0);
    CHECK_EQ(s.n_fast, 3);
    CHECK_EQ(s.wc_bytes, 59475);
    /* ack 60001 closes the RTT: W^c = W, lastUpdateSeq = snd_nxt. */
    ack1(&s, 60001, 64000, 46 * US, 362500, 0);
    CHECK_EQ(s.n_rtt_updates, 2);
    CHECK_EQ(s.wc_bytes, hpcc_window_bytes(&s));
    CHECK_EQ(s.wc_bytes, 59575);                    /* U = 0.5: 59475 + 100 */
    CHECK_EQ(s.inc_stage, 1);
    CHECK_EQ(s.last_update_seq, 64000);
}

TEST(fast_react_off_ignores_inner_acks)
{
    struct hpcc s;

    setup_paper(&s);
    P.fast_react = 0;
    ack1(&s, 1000, 50000, 1 * US, 0, 125000);
    ack1(&s, 2000, 60000, 11 * US, 125000, 125000);
    CHECK_EQ(hpcc_window_bytes(&s), 59475);
    ack1(&s, 3000, 61000, 16 * US, 175000, 20000);
    CHECK_EQ(s.n_ignored, 1);
    CHECK_EQ(hpcc_window_bytes(&s), 59475);
    CHECK(s.rec[0].ts_ps == 11 * US);               /* record not replaced */
    /* The next RTT-closing ACK differences against the 11 µs record:
     * Δts = 10 µs, Δtx = 80000 -> 0.64, min(125000, 0) = 0: U = 0.64. */
    ack1(&s, 60001, 90000, 21 * US, 205000, 0);
    CHECK_NEAR(s.u, 0.64, 1e-12);
    CHECK_EQ(hpcc_window_bytes(&s), 59575);
}

TEST(ewma_tau_capped_at_T)
{
    struct hpcc s;

    setup_paper(&s);
    ack1(&s, 1000, 50000, 1 * US, 0, 0);
    /* Δts = 2.5 µs, Δtx = 25000 B -> 80 Gb/s -> 0.8; tau/T = 0.25:
     * U = 0.75·0 + 0.25·0.8 = 0.2. */
    ack1(&s, 2000, 60000, 1 * US + 2500000, 25000, 0);
    CHECK(s.tau_ps == 2500000);
    CHECK_NEAR(s.u, 0.2, 1e-12);
    /* Δts = 30 µs > T: tau = T, U = u = 375000·8/30e-6/1e11 = 1.0. */
    ack1(&s, 3000, 61000, 1 * US + 2500000 + 30 * US, 25000 + 375000, 0);
    CHECK(s.tau_ps == T_PS);
    CHECK_NEAR(s.u_sample, 1.0, 1e-12);
    CHECK_NEAR(s.u, 1.0, 1e-12);
    /* Δts = 1 µs, u = 0 (idle): paper decays U = 0.9·1.0 = 0.9. */
    ack1(&s, 4000, 62000, 1 * US + 2500000 + 31 * US, 400000, 0);
    CHECK_NEAR(s.u, 0.9, 1e-12);
}

/* Two hops: the larger u_j wins and its own tau weights the EWMA. */
TEST(two_hops)
{
    struct hpcc s;
    struct hpcc_int_hop h[2];

    setup_paper(&s);
    h[0] = hop(1 * US, 0, 0, G100);
    h[1] = hop(1 * US + 500000, 0, 50000, G50);
    hpcc_on_ack(&s, &P, 1000, 50000, h, 2, 2 * US);
    CHECK_EQ(s.nrec, 2);
    /* hop 0: Δts 10 µs, Δtx 62500 -> 50 Gb/s / 100G = 0.5, qlen 0.
     * hop 1 (50G): Δts 8 µs, Δtx 50000 B -> 50 Gb/s / 50G = 1.0;
     * min(50000, 50000)·8/(5e10·1e-5) = 0.8; u = 1.8 > 0.5.
     * tau = 8 µs: U = 0.2·0 + 0.8·1.8 = 1.44 >= eta:
     * W = 125000·0.95/1.44 + 100 = 82465.28 + 100 -> 82565. */
    h[0] = hop(11 * US, 62500, 0, G100);
    h[1] = hop(1 * US + 500000 + 8 * US, 50000, 50000, G50);
    hpcc_on_ack(&s, &P, 2000, 60000, h, 2, 20 * US);
    CHECK_NEAR(s.u_sample, 1.8, 1e-12);
    CHECK(s.tau_ps == 8 * US);
    CHECK_NEAR(s.u, 1.44, 1e-12);
    CHECK_EQ(hpcc_window_bytes(&s), 82565);
    CHECK(hpcc_rate_bps(&s) == 82565ull * 800000ull);
    /* Now hop 0 is the bottleneck.  hop 0: Δts 10 µs, Δtx 125000 -> 1.0,
     * qlen 0.  hop 1: Δts 10 µs, Δtx 25000 B -> 20 Gb/s / 50G = 0.4,
     * min(50000, 0) = 0.  U = u = 1.0 (tau = T):
     * W = 82565·0.95/1.0 + 100 = 78436.75 + 100 -> 78536. */
    h[0] = hop(21 * US, 187500, 0, G100);
    h[1] = hop(1 * US + 500000 + 18 * US, 75000, 0, G50);
    hpcc_on_ack(&s, &P, 60001, 90000, h, 2, 30 * US);
    CHECK_NEAR(s.u_sample, 1.0, 1e-12);
    CHECK_NEAR(s.u, 1.0, 1e-12);
    CHECK_EQ(hpcc_window_bytes(&s), 78536);
    /* Both hops below eta: AI.  hop 0: Δtx 50000 -> 0.4; hop 1: Δtx 37500
     * -> 0.6; U = 0.6; W = 78536 + 100. */
    h[0] = hop(31 * US, 237500, 0, G100);
    h[1] = hop(1 * US + 500000 + 28 * US, 112500, 0, G50);
    hpcc_on_ack(&s, &P, 90001, 120000, h, 2, 40 * US);
    CHECK_NEAR(s.u, 0.6, 1e-12);
    CHECK_EQ(hpcc_window_bytes(&s), 78636);
    CHECK_EQ(s.inc_stage, 1);
}

TEST(path_change_and_bad_int)
{
    struct hpcc s;
    struct hpcc_int_hop h[6];

    setup_paper(&s);
    ack1(&s, 1000, 50000, 1 * US, 0, 0);
    h[0] = hop(11 * US, 100000, 0, G100);
    h[1] = hop(11 * US, 100000, 0, G100);
    hpcc_on_ack(&s, &P, 2000, 60000, h, 2, 0);      /* 1 -> 2 hops */
    CHECK_EQ(s.n_path_reset, 1);
    CHECK_EQ(s.n_no_sample, 2);
    CHECK_EQ(s.nrec, 2);
    CHECK_EQ(hpcc_window_bytes(&s), 125000);
    /* Too many hops, or no array: ignored entirely. */
    for (int i = 0; i < 6; i++) h[i] = hop(21 * US, 200000, 0, G100);
    hpcc_on_ack(&s, &P, 3000, 60000, h, 6, 0);
    hpcc_on_ack(&s, &P, 3000, 60000, NULL, 1, 0);
    CHECK_EQ(s.n_bad_int, 2);
    CHECK(s.rec[0].ts_ps == 11 * US);
    /* No INT at all: no sample. */
    hpcc_on_ack(&s, &P, 3000, 60000, NULL, 0, 0);
    CHECK_EQ(s.n_no_sample, 3);
    CHECK_EQ(hpcc_window_bytes(&s), 125000);
    /* Same timestamp on the only hop: skipped, no sample. */
    ack1(&s, 3000, 60000, 1 * US, 0, 0);
    ack1(&s, 3100, 60000, 1 * US, 0, 0);
    CHECK_EQ(s.n_hop_skipped, 1);
    CHECK_EQ(s.n_no_sample, 5);
}

/* Window never exceeds W_init and never reaches 0. */
TEST(window_bounds)
{
    struct hpcc s;

    setup_paper(&s);
    ack1(&s, 1000, 50000, 1 * US, 0, 0);
    /* Idle path: U = 0 < eta, AI at W_init stays capped. */
    ack1(&s, 2000, 60000, 11 * US, 0, 0);
    CHECK_EQ(hpcc_window_bytes(&s), 125000);
    CHECK(hpcc_rate_bps(&s) == G100);
    /* Enormous queue: W = 125000·0.95/U + 100 with U ~ 1e5 -> ~101 B. */
    ack1(&s, 60001, 70000, 21 * US, 0, 0);
    P.qlen_min = 0;
    ack1(&s, 70001, 80000, 31 * US, 0, 4000000000u);
    CHECK(s.u > 3e4);
    CHECK(hpcc_window_bytes(&s) >= 100 && hpcc_window_bytes(&s) <= 104);
    CHECK(hpcc_rate_bps(&s) > 0);
}

/* HPCC simulator profile: rate-based update R = Rc/(U/eta) + R_AI. */
TEST(sim_profile_rate_update)
{
    struct hpcc s;
    double r2, r3;

    hpcc_params_default(&P, G100, T_PS, HPCC_PROFILE_SIM);
    hpcc_init(&s, &P, G100, 0);
    CHECK_NEAR(s.u, 1.0, 0);
    /* First ACK: records only, but lastUpdateSeq = snd_nxt (simulator). */
    ack1(&s, 1000, 50000, 1 * US, 0, 62500);
    CHECK_EQ(s.last_update_seq, 50000);
    CHECK(hpcc_rate_bps(&s) == G100);
    /* RTT-closing.  Δtx 125000 / 10 µs -> 1.0; qlen min(62500, 62500)·
     * line/(B·win) = 62500/125000 = 0.5; u = 1.5, dt = T: U = 1.5.
     * max_c = 1.5/0.95; MI_THRESH 0: R = 1e11·0.95/1.5 + 4e7
     * = 63333333333.3 + 40000000 = 63373333333.3.
     * VAR_WIN: w = 125000·R/1e11 = 79216.67 -> 79216. */
    ack1(&s, 50001, 90000, 11 * US, 125000, 62500);
    r2 = 1e11 * 0.95 / 1.5 + 4e7;
    CHECK_NEAR(s.u, 1.5, 1e-12);
    CHECK_NEAR((double)hpcc_rate_bps(&s), r2, 1.0);
    CHECK_EQ(s.rc_bps, hpcc_rate_bps(&s));
    CHECK_EQ(hpcc_window_bytes(&s), 79216);
    CHECK_EQ(s.inc_stage, 0);
    CHECK_EQ(s.last_update_seq, 90000);
    /* Fast react (ack <= 90000).  dt = 5 µs, Δtx 50000 -> 0.8, qlen 0:
     * U = (1.5·5 + 0.8·5)/10 = 1.15.  R = Rc·0.95/1.15 + 4e7; Rc kept. */
    ack1(&s, 60000, 91000, 16 * US, 175000, 0);
    r3 = (double)s.rc_bps * 0.95 / 1.15 + 4e7;
    CHECK_NEAR(s.u, 1.15, 1e-12);
    CHECK_NEAR((double)hpcc_rate_bps(&s), r3, 1.0);
    CHECK_NEAR((double)s.rc_bps, r2, 1.0);
    /* RTT-closing with U = 0.6 < eta: MI_THRESH = 0 still takes the MI
     * branch: R = Rc·0.95/0.6 + 4e7 = 1.0034e11 -> clamped to line. */
    ack1(&s, 90001, 130000, 26 * US, 250000, 0);
    CHECK_NEAR(s.u, 0.6, 1e-12);
    CHECK(hpcc_rate_bps(&s) == G100);
    CHECK_EQ(hpcc_window_bytes(&s), 125000);
    CHECK_EQ(s.n_mi, 3);
    /* Huge queue: R below MIN_RATE is clamped to 1 Gb/s. */
    ack1(&s, 130001, 170000, 36 * US, 250000, 4000000000u);
    ack1(&s, 170001, 210000, 46 * US, 250000, 4000000000u);
    CHECK(hpcc_rate_bps(&s) == 1000000000ull);
    CHECK_EQ(hpcc_window_bytes(&s), 1250);          /* 125000·1e9/1e11 */
}

TEST(sim_profile_ai_and_idle)
{
    struct hpcc s;

    hpcc_params_default(&P, G100, T_PS, HPCC_PROFILE_SIM);
    P.max_stage = 5;                                /* RdmaHw MiThresh default */
    P.var_win = 0;
    hpcc_init(&s, &P, G50, 0);
    CHECK(hpcc_rate_bps(&s) == G50);
    ack1(&s, 1000, 50000, 1 * US, 0, 0);
    /* u = 0.3 (Δtx 37500 / 10 µs), U = 0.3 < eta, stage 0 < 5: R = Rc + AI. */
    ack1(&s, 50001, 90000, 11 * US, 37500, 0);
    CHECK_NEAR(s.u, 0.3, 1e-12);
    CHECK(hpcc_rate_bps(&s) == G50 + 40000000ull);
    CHECK_EQ(s.inc_stage, 1);
    CHECK_EQ(hpcc_window_bytes(&s), 125000);        /* no VAR_WIN */
    /* Idle hop (u = 0): the simulator leaves U unchanged (dt = 0) but still
     * computes a rate. */
    ack1(&s, 90001, 130000, 21 * US, 37500, 0);
    CHECK_NEAR(s.u, 0.3, 1e-12);
    CHECK(s.tau_ps == 0);
    CHECK(hpcc_rate_bps(&s) == G50 + 80000000ull);
    /* RTT-closing ACK without a new timestamp: no rate change, but
     * lastUpdateSeq advances (simulator). */
    ack1(&s, 130001, 170000, 21 * US, 37500, 0);
    CHECK_EQ(s.last_update_seq, 170000);
    CHECK(hpcc_rate_bps(&s) == G50 + 80000000ull);
    CHECK_EQ(s.inc_stage, 2);
}

/* Toy closed loop: N flows (starting at C, C/2, C/3, ...) through one
 * bottleneck of C = 100 Gb/s, base RTT T = 10 µs split as 5 µs to the
 * switch and 5 µs back.  Step = 1 µs.  Each flow sends min(R·1 µs, W -
 * inflight); the switch queues arrivals and serves C·1 µs shared in
 * proportion to each flow's backlog (FIFO in the fluid limit), then stamps
 * (now, txBytes, qlen, C); 5 µs later every flow gets an ACK carrying that
 * stamp and acknowledging all its bytes served so far.  Measured over the
 * second half: utilization, final queue, Jain's index of the final rates. */
static void toy_loop(enum hpcc_profile prof, int nflow, double *util, double *q_end, double *jain)
{
    enum { NF = 4, STEPS = 40000, FWD = 5, BACK = 5 };
    struct hpcc f[NF];
    double arr[FWD][NF], backlog[NF], served[NF], snd[NF], acked[NF];
    struct { double served[NF]; struct hpcc_int_hop h; int valid; } back[BACK];
    const double cap = 1e11 * 1e-6 / 8;      /* bytes per step */
    double txb = 0, q = 0, sum_tx = 0, s1 = 0, s2 = 0;
    uint64_t now = 0;

    hpcc_params_default(&P, G100, T_PS, prof);
    memset(arr, 0, sizeof arr);
    memset(back, 0, sizeof back);
    for (int i = 0; i < nflow; i++) {
        hpcc_init(&f[i], &P, G100 / (uint64_t)(i + 1), 0);
        backlog[i] = served[i] = snd[i] = acked[i] = 0;
    }
    for (int t = 0; t < STEPS; t++) {
        int bk = t % BACK, fk = t % FWD;
        double a[NF], tot = 0, out;
        now += US;
        if (back[bk].valid)                       /* ACKs due now */
            for (int i = 0; i < nflow; i++) {
                acked[i] = back[bk].served[i];
                hpcc_on_ack(&f[i], &P, (uint64_t)acked[i], (uint64_t)snd[i], &back[bk].h, 1, now);
            }
        for (int i = 0; i < nflow; i++) {         /* send, paced and windowed */
            double b = (double)hpcc_rate_bps(&f[i]) * 1e-6 / 8;
            double room = (double)hpcc_window_bytes(&f[i]) - (snd[i] - acked[i]);
            if (b > room) b = room > 0 ? room : 0;
            a[i] = arr[fk][i];                    /* sent FWD steps ago */
            arr[fk][i] = b;
            snd[i] += b;
        }
        for (int i = 0; i < nflow; i++) {
            backlog[i] += a[i];
            tot += backlog[i];
        }
        out = tot < cap ? tot : cap;
        q = 0;
        for (int i = 0; i < nflow; i++) {
            double sv = tot > 0 ? out * backlog[i] / tot : 0;
            backlog[i] -= sv;
            served[i] += sv;
            back[bk].served[i] = served[i];
            q += backlog[i];
        }
        txb += out;
        if (t >= STEPS / 2) sum_tx += out;
        back[bk].h = hop(now, (uint64_t)txb, (uint32_t)(q > 0 ? q : 0), G100);
        back[bk].valid = 1;
    }
    *util = sum_tx / (cap * (STEPS / 2));
    *q_end = q;
    for (int i = 0; i < nflow; i++) {
        double r = (double)hpcc_rate_bps(&f[i]);
        s1 += r; s2 += r * r;
    }
    *jain = s1 * s1 / (nflow * s2);
}

TEST(closed_loop_toy)
{
    double util, q, jain;

    /* Both profiles, 2 and 4 flows: utilization settles at eta (0.95; the
     * AI steps put it a little above), the queue drains, rates converge
     * from C, C/2, ... to fair shares. */
    for (int prof = 0; prof < 2; prof++)
        for (int n = 2; n <= 4; n += 2) {
            toy_loop((enum hpcc_profile)prof, n, &util, &q, &jain);
            CHECK_NEAR(util, 0.951, 0.01);
            CHECK(q < 1000);
            CHECK(jain > 0.999);
        }
}

int main(void)
{
    test_binary_ = "test_hpcc";
    RUN(defaults_and_int_size);
    RUN(params_check_messages);
    RUN(hop_sample_txrate_and_u);
    RUN(first_ack_only_records);
    RUN(one_hop_u_above_eta);
    RUN(one_hop_ai_then_mi_at_max_stage);
    RUN(fast_reaction_does_not_touch_reference);
    RUN(fast_react_off_ignores_inner_acks);
    RUN(ewma_tau_capped_at_T);
    RUN(two_hops);
    RUN(path_change_and_bad_int);
    RUN(window_bounds);
    RUN(sim_profile_rate_update);
    RUN(sim_profile_ai_and_idle);
    RUN(closed_loop_toy);
    return test_summary();
}
