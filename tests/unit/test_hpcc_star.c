/*
 * test_hpcc_star.c -- unit tests of HPCC* (LSCC paper §III-D): the snd_una
 * bookkeeping that times the near-source loop, W* from direct INTs (the
 * pseudo-queue hop with its 24-bit B), min(W, W*), refused direct INTs.
 *
 * Common setting: NIC 100 Gb/s, T = 1 ms, N = 5, so the near loop's T is
 * 200 µs, W_init = 1e11·1e-3/8 = 12,500,000 B and the near loop's
 * W_init = 2,500,000 B.  W_AI = 1000 B in both loops (round numbers).
 */
#include "test.h"

#include "cc/hpcc_star.h"

#define US      1000000ull        /* ps per µs */
#define G100    100000000000ull
#define G10     10000000000ull
#define T_PS    (1000 * US)

static struct hpcc_star_params P;

static void setup(struct hpcc_star *s, uint32_t n)
{
    hpcc_star_params_default(&P, G100, T_PS, HPCC_PROFILE_PAPER, n);
    P.loop.w_ai_bytes = 1000;
    P.near.w_ai_bytes = 1000;
    hpcc_star_init(s, &P, G100, 0);
}

static struct hpcc_int_hop hop(uint64_t ts, uint64_t tx, uint32_t q, uint64_t rate)
{
    struct hpcc_int_hop h = { ts, tx, q, rate };
    return h;
}

/* ACK with one 100 Gb/s hop, no queue, byte counter tx at ts. */
static void ack(struct hpcc_star *s, uint64_t seq, uint64_t nxt, uint64_t ts, uint64_t tx)
{
    struct hpcc_int_hop h = hop(ts, tx, 0, G100);
    hpcc_star_on_ack(s, &P, seq, nxt, &h, 1, ts);
}

/* Direct INT: a local 100 Gb/s hop (no queue) and the long-haul hop with
 * Q* = q and B = b_units Mb/s; both hops stamped at ts with byte counters
 * tx0 (local) and tx1 (bytes into Q*).  The long-haul hop's own rate field
 * says 100 Gb/s: only the 24-bit B may count. */
static int dint(struct hpcc_star *s, uint64_t ts, uint64_t tx0, uint64_t tx1, uint32_t q, uint32_t b_units)
{
    struct hpcc_int_hop h[2] = { hop(ts, tx0, 0, G100), hop(ts, tx1, q, G100) };
    return hpcc_star_on_dint(s, &P, h, 2, b_units, ts);
}

TEST(params_defaults_and_check)
{
    struct hpcc_star_params p;
    char why[120];

    CHECK_EQ(HPCC_STAR_B_MAX, 16777215u);
    CHECK_EQ(HPCC_STAR_INT_BYTES, 45u);           /* 42 B HPCC INT + 3 B B field */
    CHECK_EQ(hpcc_star_n_for(2016 * US), 10u);    /* crossdc: 2·(1 ms + 8 µs) -> 10 = LSCC's N */
    CHECK_EQ(hpcc_star_n_for(50 * US), 1u);
    CHECK_EQ(hpcc_star_n_for(0), 1u);
    CHECK_EQ(hpcc_star_n_for(UINT64_MAX / 2), HPCC_STAR_MAX_N);
    CHECK_EQ(hpcc_star_n_for(299 * US), 1u);
    CHECK_EQ(hpcc_star_n_for(300 * US), 2u);      /* rounds to nearest */

    hpcc_star_params_default(&p, G100, T_PS, HPCC_PROFILE_PAPER, 0);
    CHECK_EQ(p.n, 5u);
    CHECK_EQ(p.loop.base_rtt_ps, T_PS);
    CHECK_EQ(p.near.base_rtt_ps, 200 * US);
    CHECK_EQ(p.loop.w_init_bytes, 12500000u);
    CHECK_EQ(p.near.w_init_bytes, 2500000u);
    CHECK_EQ(p.near.w_ai_bytes, 1250u);           /* 2.5e6·0.05/100 */
    CHECK_EQ(hpcc_star_params_check(&p, why, sizeof why), 0);

    p.n = 0;
    CHECK_EQ(hpcc_star_params_check(&p, why, sizeof why), -1);
    CHECK(strstr(why, "N must") != NULL);
    hpcc_star_params_default(&p, G100, T_PS, HPCC_PROFILE_PAPER, 4);
    CHECK_EQ(p.near.base_rtt_ps, 250 * US);
    p.near.base_rtt_ps = 200 * US;
    CHECK_EQ(hpcc_star_params_check(&p, why, sizeof why), -1);
    CHECK(strstr(why, "base RTT / N") != NULL);
    hpcc_star_params_default(&p, G100, T_PS, HPCC_PROFILE_PAPER, 4);
    p.near.profile = HPCC_PROFILE_SIM;
    CHECK_EQ(hpcc_star_params_check(&p, why, sizeof why), -1);
}

/* hpcc_on_int is hpcc_on_ack without lastUpdateSeq and n_acks. */
TEST(hpcc_on_int_leaves_seq_alone)
{
    struct hpcc_params p;
    struct hpcc s;
    struct hpcc_int_hop h = hop(10 * US, 0, 125000, G100);

    hpcc_params_default(&p, G100, 10 * US, HPCC_PROFILE_PAPER);
    hpcc_init(&s, &p, G100, 0);
    CHECK_EQ(hpcc_on_int(&s, &p, 1, &h, 1), 0);          /* first record: no sample */
    h = hop(20 * US, 125000, 125000, G100);              /* u = 1 (qlen) + 1 (rate) = 2, tau = T */
    CHECK_EQ(hpcc_on_int(&s, &p, 1, &h, 1), 1);
    CHECK_NEAR(s.u, 2.0, 1e-9);
    CHECK_EQ(s.w_bytes, 59375u + 62u);                   /* 125000·0.95/2 + W_AI */
    CHECK_EQ(s.wc_bytes, s.w_bytes);                     /* rtt_end = 1: reference updated */
    CHECK_EQ(s.last_update_seq, 0u);
    CHECK_EQ(s.n_acks, 0u);
    CHECK_EQ(hpcc_on_int(&s, &p, 0, &h, HPCC_MAX_HOPS + 1), -1);
    CHECK_EQ(s.n_bad_int, 1u);
}

/* §III-D: the RTT update records snd_una (old lastUpdateSeq) and snd_nxt;
 * the ACK of snd_una + k·(snd_nxt − snd_una)/N closes the k-th RTT/N. */
TEST(snd_una_bookkeeping)
{
    struct hpcc_star s;
    setup(&s, 4);

    ack(&s, 1000, 100000, 1 * US, 0);             /* first ACK: records only (paper profile) */
    CHECK_EQ(s.loop.last_update_seq, 0u);
    CHECK_EQ(s.n_intervals, 0u);
    CHECK_EQ(s.near_due, 0);

    ack(&s, 2000, 101000, 2 * US, 1000);          /* sample: the first RTT update */
    CHECK_EQ(s.loop.last_update_seq, 101000u);
    CHECK_EQ(s.una, 0u);
    CHECK_EQ(s.nxt, 101000u);
    CHECK_EQ(s.n_intervals, 1u);                  /* the RTT's end closes its last interval */
    CHECK_EQ(s.near_due, 1);
    CHECK_EQ(s.mark, 25250u);                     /* 0 + 101000/4 */

    s.near_due = 0;
    ack(&s, 25249, 101000, 3 * US, 2000);
    CHECK_EQ(s.k, 0u);
    CHECK_EQ(s.near_due, 0);
    ack(&s, 25250, 101000, 4 * US, 3000);         /* RTT/4 */
    CHECK_EQ(s.k, 1u);
    CHECK_EQ(s.near_due, 1);
    CHECK_EQ(s.mark, 50500u);
    ack(&s, 80000, 101000, 5 * US, 4000);         /* passes 50500 and 75750 */
    CHECK_EQ(s.k, 3u);
    CHECK_EQ(s.n_intervals, 4u);
    CHECK_EQ(s.mark, 101000u);
    ack(&s, 101000, 101000, 6 * US, 5000);        /* the 4th quarter: = old snd_nxt */
    CHECK_EQ(s.k, 4u);
    CHECK_EQ(s.n_intervals, 5u);
    CHECK_EQ(s.mark, UINT64_MAX);
    CHECK_EQ(s.loop.last_update_seq, 101000u);    /* not past it: no RTT update yet */

    s.near_due = 0;
    ack(&s, 102000, 250000, 7 * US, 6000);        /* next RTT update */
    CHECK_EQ(s.loop.last_update_seq, 250000u);
    CHECK_EQ(s.una, 101000u);
    CHECK_EQ(s.nxt, 250000u);
    CHECK_EQ(s.k, 0u);
    CHECK_EQ(s.n_intervals, 5u);                  /* the 4th quarter was already closed */
    CHECK_EQ(s.near_due, 0);
    CHECK_EQ(s.mark, 138250u);                    /* 101000 + 149000/4 */
}

/* W* from the direct INT: long-haul hop with Q* = 250 kB, B = 10 Gb/s,
 * 20 Gb/s into Q*; local hop at 10 Gb/s on 100 Gb/s.  Δts = 200 µs = the
 * near loop's T, so U = u (EWMA weight 1):
 *   long-haul hop: 250000·8/(10e9·200e-6) + 20/10 = 1 + 2 = 3
 *   local hop:     10/100 = 0.1
 *   W* (near) = 2,500,000·0.95/3 + 1000 = 792,666 (MI: U >= eta)
 *   W* (full RTT) = 792,666 · 1 ms / 200 µs = 3,963,330 B
 *   rate = 792,666·8/200 µs = 31,706,640,000 b/s. */
TEST(w_star_from_pseudo_queue_and_b)
{
    struct hpcc_star s;
    setup(&s, 5);

    CHECK_EQ(hpcc_star_window_bytes(&s, &P), 12500000u);      /* W* = W_init before any direct INT */
    CHECK_EQ(dint(&s, 10 * US, 0, 0, 250000, 10000), 0);      /* records only */
    CHECK_EQ(s.near.w_bytes, 2500000u);
    CHECK_EQ(dint(&s, 210 * US, 250000, 500000, 250000, 10000), 0);
    CHECK_NEAR(s.near.u, 3.0, 1e-9);
    CHECK_EQ(s.near.w_bytes, 792666u);
    CHECK_EQ(s.near.wc_bytes, 2500000u);        /* no interval closed: fast reaction only */
    CHECK_EQ(s.n_near_ref, 0u);
    CHECK_EQ(hpcc_star_w_star_bytes(&s, &P), 3963330u);
    CHECK_EQ(hpcc_star_window_bytes(&s, &P), 3963330u);       /* W* < W = 12.5 MB: W* */
    CHECK_EQ(hpcc_star_rate_bps(&s, &P), 31706640000ull);
    CHECK_EQ(s.loop.w_bytes, 12500000u);                      /* the normal loop is untouched */

    /* An RTT/N closes (first RTT update): the next direct INT updates
     * W*^c.  Same hop deltas: U = 3 again, W* = W*^c·0.95/3 + 1000 with
     * W*^c still 2.5 MB, and W*^c becomes it. */
    ack(&s, 1000, 100000, 1 * US, 0);
    ack(&s, 2000, 100000, 2 * US, 1000);
    CHECK_EQ(s.near_due, 1);
    CHECK_EQ(dint(&s, 410 * US, 500000, 1000000, 250000, 10000), 0);
    CHECK_EQ(s.near.w_bytes, 792666u);
    CHECK_EQ(s.near.wc_bytes, 792666u);
    CHECK_EQ(s.n_near_ref, 1u);
    CHECK_EQ(s.near_due, 0);
    /* The following one reacts from the new reference: 792666·0.95/3 + 1000. */
    CHECK_EQ(dint(&s, 610 * US, 750000, 1500000, 250000, 10000), 0);
    CHECK_EQ(s.near.w_bytes, 252010u);
    CHECK_EQ(s.n_dint, 4u);
}

/* B comes from the 24-bit field, not from the hop's rate: B = 20 Gb/s
 * halves both terms of the long-haul hop (u = 0.5 + 1 = 1.5). */
TEST(b_field_sets_the_long_haul_rate)
{
    struct hpcc_star s;
    setup(&s, 5);
    dint(&s, 10 * US, 0, 0, 250000, 20000);
    dint(&s, 210 * US, 250000, 500000, 250000, 20000);
    CHECK_NEAR(s.near.u, 1.5, 1e-9);
    CHECK_EQ(s.near.w_bytes, 1584333u);          /* 2.5e6·0.95/1.5 + 1000 */
    /* The largest 24-bit value is a valid B (16.78 Tb/s): the long-haul
     * hop is then idle and the local hop's 0.1 wins; U = 0.1 < eta: AI. */
    setup(&s, 5);
    CHECK_EQ(dint(&s, 10 * US, 0, 0, 250000, HPCC_STAR_B_MAX), 0);
    CHECK_EQ(dint(&s, 210 * US, 250000, 500000, 250000, HPCC_STAR_B_MAX), 0);
    CHECK_NEAR(s.near.u, 0.1, 1e-3);
    CHECK_EQ(s.near.w_bytes, 2500000u);          /* W^c + W_AI, capped at W_init */
}

/* W* is used only when smaller than W. */
TEST(w_used_when_smaller)
{
    struct hpcc_star s;
    setup(&s, 5);
    dint(&s, 10 * US, 0, 0, 250000, 10000);
    dint(&s, 210 * US, 250000, 500000, 250000, 10000);      /* W* = 3,963,330 */
    /* Normal loop: a remote hop at 100 Gb/s with 12.5 MB queued and line
     * rate through it over a whole T: u = 1 + 1 = 2, W = 12.5e6·0.95/2 +
     * 1000 = 5,938,500 > W*: W* still rules. */
    struct hpcc_int_hop h = hop(0, 0, 12500000, G100);
    hpcc_star_on_ack(&s, &P, 1000, 100000, &h, 1, 0);
    h = hop(T_PS, 12500000, 12500000, G100);
    hpcc_star_on_ack(&s, &P, 2000, 100000, &h, 1, T_PS);
    CHECK_EQ(s.loop.w_bytes, 5938500u);
    CHECK_EQ(hpcc_star_window_bytes(&s, &P), 3963330u);
    /* u = 8 from the remote hop (1 queue + 7 rate, a fast reaction from
     * W^c): W = 5,938,500·0.95/8 + 1000 = 706,196 < W*: W rules, at W/T. */
    h = hop(2 * T_PS, 100000000, 12500000, G100);
    hpcc_star_on_ack(&s, &P, 3000, 100000, &h, 1, 2 * T_PS);
    CHECK_EQ(s.loop.w_bytes, 706196u);
    CHECK_EQ(hpcc_star_window_bytes(&s, &P), 706196u);
    CHECK_EQ(hpcc_star_rate_bps(&s, &P), 5649568000ull);      /* 706196·8/1 ms */
}

/* Malformed direct INTs change nothing but n_dint_bad. */
TEST(malformed_direct_int_refused)
{
    struct hpcc_star s, before;
    struct hpcc_int_hop h[HPCC_MAX_HOPS + 1];
    for (unsigned i = 0; i <= HPCC_MAX_HOPS; i++)
        h[i] = hop(10 * US, 0, 1000000, G100);
    setup(&s, 5);
    dint(&s, 10 * US, 0, 0, 250000, 10000);
    memcpy(&before, &s, sizeof s);
    CHECK_EQ(hpcc_star_on_dint(&s, &P, h, 2, 0, 0), -1);                        /* B = 0 */
    CHECK_EQ(hpcc_star_on_dint(&s, &P, h, 2, HPCC_STAR_B_MAX + 1, 0), -1);      /* 25 bits */
    CHECK_EQ(hpcc_star_on_dint(&s, &P, h, 0, 10000, 0), -1);                    /* no hop */
    CHECK_EQ(hpcc_star_on_dint(&s, &P, h, HPCC_MAX_HOPS + 1, 10000, 0), -1);    /* too many */
    CHECK_EQ(hpcc_star_on_dint(&s, &P, NULL, 2, 10000, 0), -1);
    CHECK_EQ(s.n_dint_bad, 5u);
    s.n_dint_bad = 0;
    CHECK(memcmp(&s, &before, sizeof s) == 0);
}


/* near_rtt: the near loop's base RTT is T/N (HPCC_STAR_NEAR_RTT_T_OVER_N)
 * or the flow's T (HPCC_STAR_NEAR_RTT_T, only the update interval is RTT/N).
 * N = 5, T = 1 ms, 100 Gb/s.  Two direct INTs 200 µs apart, nothing sent,
 * Q* = 2.5 MB, B = 100 Gb/s:
 *   T/N: u = 2.5e6·8/(1e11·200e-6) = 1.0, tau = T/N so U = 1.0 >= eta:
 *        W*_near = 2.5e6·0.95/1.0 + 1000 = 2,376,000, W* = ×5 = 11,880,000;
 *   T:   u = 2.5e6·8/(1e11·1e-3) = 0.2, U = 0.2·(200/1000) = 0.04 < eta,
 *        stage 0 < 5: W* = 12.5e6 + 1000, capped at W_init = 12,500,000. */
TEST(near_rtt_t_vs_t_over_n)
{
    struct hpcc_star s;
    char why[120];

    setup(&s, 5);
    CHECK_EQ(P.near_rtt, (uint32_t)HPCC_STAR_NEAR_RTT_T_OVER_N);
    CHECK_EQ(dint(&s, 0, 0, 0, 2500000, 100000), 0);
    CHECK_EQ(dint(&s, 200 * US, 0, 0, 2500000, 100000), 0);
    CHECK_NEAR(s.near.u, 1.0, 1e-9);
    CHECK_EQ(hpcc_star_w_star_bytes(&s, &P), 11880000u);
    CHECK_EQ(s.n_star_binds, 1u);                 /* W* < W = 12.5 MB after the 2nd */
    CHECK_EQ(s.n_updates, 2u);
    CHECK_EQ(s.n_wound, 1u);                      /* ... with W at its cap W_init */

    hpcc_star_params_default(&P, G100, T_PS, HPCC_PROFILE_PAPER, 5);
    hpcc_star_params_near_rtt(&P, HPCC_STAR_NEAR_RTT_T);
    CHECK_EQ(P.near.base_rtt_ps, T_PS);
    CHECK_EQ(P.near.w_init_bytes, 12500000u);
    CHECK_EQ(hpcc_star_params_check(&P, why, sizeof why), 0);
    P.loop.w_ai_bytes = 1000;
    P.near.w_ai_bytes = 1000;
    hpcc_star_init(&s, &P, G100, 0);
    CHECK_EQ(dint(&s, 0, 0, 0, 2500000, 100000), 0);
    CHECK_EQ(dint(&s, 200 * US, 0, 0, 2500000, 100000), 0);
    CHECK_NEAR(s.near.u, 0.04, 1e-9);
    CHECK_EQ(hpcc_star_w_star_bytes(&s, &P), 12500000u);
    CHECK_EQ(s.n_star_binds, 0u);

    P.near.base_rtt_ps = T_PS / 5;                /* T/N with near_rtt = T: refused */
    CHECK_EQ(hpcc_star_params_check(&P, why, sizeof why), -1);
    CHECK(strstr(why, "near_rtt = T") != NULL);
    hpcc_star_params_near_rtt(&P, HPCC_STAR_NEAR_RTT_T_OVER_N);
    CHECK_EQ(P.near.base_rtt_ps, 200 * US);
    CHECK_EQ(hpcc_star_params_check(&P, why, sizeof why), 0);
    P.near_rtt = 2;
    CHECK_EQ(hpcc_star_params_check(&P, why, sizeof why), -1);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_hpcc_star";
    RUN(params_defaults_and_check);
    RUN(hpcc_on_int_leaves_seq_alone);
    RUN(snd_una_bookkeeping);
    RUN(w_star_from_pseudo_queue_and_b);
    RUN(b_field_sets_the_long_haul_rate);
    RUN(w_used_when_smaller);
    RUN(malformed_direct_int_refused);
    RUN(near_rtt_t_vs_t_over_n);
    return test_summary();
}
