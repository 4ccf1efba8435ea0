/*
 * test_expresspass.c -- ExpressPass state machines (expresspass.h) on
 * hand-computed sequences.
 *
 * Unless noted: max_rate 1 Gb/s of credits, start at 500 Mb/s, w_init 1/16,
 * w_max 1/2, w_min 0.01, target loss 0.1, no jitter, a fixed 10 µs update
 * period, 84 B credits.  The w values are dyadic and every rate below is
 * exact in double.
 */
#include "test.h"

#include "cc/expresspass.h"

#define US 1000000ull     /* ps per µs */

static struct xp_params P;

static void setup(struct xp_rx *r)
{
    P = (struct xp_params){
        .max_rate_bps = 1000000000, .min_rate_bps = 1000000, .init_rate_bps = 500000000,
        .w_init = 1.0 / 16, .w_max = 0.5, .w_min = 0.01, .target_loss = 0.1, .jitter = 0,
        .update_ps = 10 * US, .credit_wire_bytes = 84, .queue_credits = 8, .feedback = 1,
    };
    xp_rx_start(r, &P, 0, 1);
}

TEST(defaults)
{
    struct xp_params p;
    xp_params_default(&p, 100000000000ull, XP_CREDIT_WIRE_BYTES, XP_DATA_WIRE_BYTES);
    CHECK_EQ(p.max_rate_bps, 5178791615ull);          /* 100G * 84/1622 */
    CHECK_EQ(p.init_rate_bps, 5178791615ull / 2);
    CHECK_EQ(p.min_rate_bps, 0);
    CHECK_NEAR(p.w_init, 0.0625, 0);
    CHECK_NEAR(p.w_max, 0.5, 0);
    CHECK_NEAR(p.w_min, 0.01, 0);
    CHECK_NEAR(p.target_loss, 0.1, 0);
    CHECK_EQ(p.queue_credits, 8);
    CHECK_EQ(p.update_ps, 0);
    CHECK_EQ(p.feedback, 1);
    CHECK_EQ(xp_params_check(&p, NULL, 0), 0);
    /* the simulator's 1000 B payload: 1062 B frames, 1082 B on the wire */
    CHECK_EQ(xp_credit_rate_bps(25000000000ull, 84, 1082), 1801029159ull);
}

TEST(params_check)
{
    struct xp_params p;
    char why[128];
    xp_params_default(&p, 40000000000ull, 84, 1538);
    p.w_init = 0.6;
    CHECK_EQ(xp_params_check(&p, why, sizeof why), -1);
    CHECK(strstr(why, "w_init") != NULL);
    xp_params_default(&p, 40000000000ull, 84, 1538);
    p.min_rate_bps = p.max_rate_bps + 1;
    CHECK_EQ(xp_params_check(&p, why, sizeof why), -1);
    CHECK(strstr(why, "min_rate") != NULL);
    xp_params_default(&p, 40000000000ull, 84, 1538);
    p.target_loss = 1.0;
    CHECK_EQ(xp_params_check(&p, why, sizeof why), -1);
    xp_params_default(&p, 40000000000ull, 84, 1538);
    p.queue_credits = 0;
    CHECK_EQ(xp_params_check(&p, why, sizeof why), -1);
}

/* Loss-free periods: the first increase keeps w (no increase before it),
 * later ones move w halfway to w_max; the rate approaches max*(1+target)
 * and is capped at max. */
TEST(increase_sequence)
{
    struct xp_rx r;
    setup(&r);
    static const double w[] = { 0.0625, 0.28125, 0.390625, 0.4453125, 0.47265625 };
    static const double rate[] = { 537500000.0, 695703125.0, 853631591.796875, 963342523.5748291, 1e9 };
    for (int i = 0; i < 5; i++) {
        r.p_got = 3;                               /* three credits came back, none lost */
        xp_rx_update(&r, &P, (uint64_t)(i + 1) * 10 * US);
        CHECK_NEAR(r.w, w[i], 0);
        CHECK_NEAR(r.rate_bps, rate[i], 1e-6);
        CHECK_EQ(r.prev_increase, 1);
    }
    r.p_got = 1;
    xp_rx_update(&r, &P, 60 * US);
    CHECK_NEAR(r.rate_bps, 1e9, 0);           /* stays capped */
    CHECK_EQ(r.updates, 6);
    CHECK_EQ(r.decreases, 0);
}

/* Credits 3 and 4 never come back: loss 2/10 = 0.2 > 0.1 ->
 * rate 5e8 * 0.8 * 1.1 = 4.4e8, w 1/32; the update runs at the first echo
 * at or after the period's end, counting that echo. */
TEST(decrease_on_gaps)
{
    struct xp_rx r;
    setup(&r);
    uint64_t next;
    for (int i = 0; i < 10; i++)
        CHECK_EQ(xp_rx_credit(&r, &P, (uint64_t)i * US / 2, &next), (uint32_t)i);
    static const uint32_t echo[] = { 0, 1, 2, 5, 6, 7, 8 };
    for (int i = 0; i < 7; i++)
        CHECK_EQ(xp_rx_data(&r, &P, echo[i], (uint64_t)(i + 1) * US), 0);
    CHECK_EQ(r.p_lost, 2);
    CHECK_EQ(r.p_got, 7);
    CHECK_EQ(xp_rx_data(&r, &P, 9, 10 * US), 1);
    CHECK_NEAR(r.rate_bps, 440000000.0, 1e-6);
    CHECK_NEAR(r.w, 1.0 / 32, 0);
    CHECK_EQ(r.prev_increase, 0);
    CHECK_EQ(r.decreases, 1);
    CHECK_EQ(r.lost, 2);
    CHECK_EQ(r.echoed, 8);
    CHECK_EQ(r.p_got + r.p_lost + r.p_sent, 0);  /* a new period */
    /* next period without loss: no w increase right after a decrease */
    r.p_got = 4;
    xp_rx_update(&r, &P, 20 * US);
    CHECK_NEAR(r.w, 1.0 / 32, 0);
    CHECK_NEAR(r.rate_bps, 460625000.0, 1e-6);   /* 31/32*4.4e8 + 1/32*1.1e9 */
}

/* Loss exactly at the target is still an increase; just above is a cut. */
TEST(target_boundary)
{
    struct xp_rx r;
    setup(&r);
    r.p_got = 9;
    r.p_lost = 1;                                  /* 0.1 */
    xp_rx_update(&r, &P, 10 * US);
    CHECK_EQ(r.prev_increase, 1);
    CHECK_NEAR(r.rate_bps, 537500000.0, 1e-6);
    r.p_got = 8;
    r.p_lost = 1;                                  /* 0.111 */
    xp_rx_update(&r, &P, 20 * US);
    CHECK_EQ(r.prev_increase, 0);
    CHECK_NEAR(r.rate_bps, 537500000.0 * (8.0 / 9) * 1.1, 1e-3);
}

/* w halves per cut down to w_min: 1/16, 1/32, 1/64, then 0.01 (1/128 < 0.01). */
TEST(w_floor_and_rate_floor)
{
    struct xp_rx r;
    setup(&r);
    static const double w[] = { 1.0 / 32, 1.0 / 64, 0.01, 0.01 };
    for (int i = 0; i < 4; i++) {
        r.p_got = 1;
        r.p_lost = 1;
        xp_rx_update(&r, &P, (uint64_t)(i + 1) * 10 * US);
        CHECK_NEAR(r.w, w[i], 0);
    }
    /* Five credits sent before 50 µs, none ever echoed: no step while they
     * may still be on their way (50, 60 µs), loss 1 once they were sent
     * before the previous period began (70 µs): rate -> floor. */
    r.next_seq = 5;
    double before = r.rate_bps;
    xp_rx_update(&r, &P, 50 * US);
    xp_rx_update(&r, &P, 60 * US);
    CHECK_NEAR(r.rate_bps, before, 0);
    CHECK_EQ(r.updates, 4);
    xp_rx_update(&r, &P, 70 * US);
    CHECK_NEAR(r.rate_bps, 1e6, 0);
    CHECK_EQ(r.decreases, 5);
    CHECK_EQ(r.updates, 5);
    /* an echo of credit 4 answers them: later empty periods change nothing */
    CHECK_EQ(xp_rx_data(&r, &P, 4, 71 * US), 0);
    xp_rx_update(&r, &P, 80 * US);                 /* 4 lost, 1 echoed: a cut, at the floor */
    xp_rx_update(&r, &P, 90 * US);
    xp_rx_update(&r, &P, 100 * US);
    CHECK_EQ(r.updates, 6);
    CHECK_NEAR(r.rate_bps, 1e6, 0);
}

/* Feedback off (what-if): credits start and stay at max_rate. */
TEST(feedback_off)
{
    struct xp_rx r;
    setup(&r);
    P.feedback = 0;
    xp_rx_start(&r, &P, 0, 1);
    CHECK_NEAR(r.rate_bps, 1e9, 0);
    r.p_lost = 9;
    r.p_got = 1;
    xp_rx_update(&r, &P, 10 * US);
    CHECK_NEAR(r.rate_bps, 1e9, 0);
    CHECK_EQ(r.updates, 0);
}

/* min_rate 0: the floor is one credit per period, 672 bits / 10 µs. */
TEST(floor_one_credit_per_period)
{
    struct xp_rx r;
    setup(&r);
    P.min_rate_bps = 0;
    r.p_lost = 3;                                  /* loss 1: rate * 0 * 1.1 */
    xp_rx_update(&r, &P, 10 * US);
    CHECK_NEAR(r.rate_bps, 67200000.0, 1e-6);
}

/* update_ps = 0: the period is the first credit's loop (credit 0 sent at
 * 0, its data back at 12 µs), and updates start from that echo. */
TEST(rtt_from_first_loop)
{
    struct xp_rx r;
    setup(&r);
    P.update_ps = 0;
    xp_rx_start(&r, &P, 0, 1);
    uint64_t next;
    CHECK_EQ(xp_rx_credit(&r, &P, 0, &next), 0);
    CHECK_EQ(next, 1344000);                       /* 84*8 bits at 500 Mb/s */
    for (uint64_t t = next; t < 30 * US; t = next)
        xp_rx_credit(&r, &P, t, &next);
    CHECK_EQ(xp_rx_data(&r, &P, 0, 12 * US), 0);
    CHECK_EQ(r.have_rtt, 1);
    CHECK_EQ(r.period_ps, 12 * US);
    CHECK_EQ(r.updates, 0);
    CHECK_EQ(xp_rx_data(&r, &P, 1, 20 * US), 0);
    CHECK_EQ(xp_rx_data(&r, &P, 2, 24 * US), 1);   /* 12 µs after the sample */
    CHECK_EQ(r.updates, 1);
    /* an echo older than expected (reordered) is ignored */
    CHECK_EQ(xp_rx_data(&r, &P, 1, 25 * US), 0);
    CHECK_EQ(r.echoed, 3);
}

/* Credit 0 lost: the RTT sample comes from the first echo (credit 2 here),
 * and the two credits before it count as lost in the first period. */
TEST(rtt_when_first_credit_lost)
{
    struct xp_rx r;
    setup(&r);
    P.update_ps = 0;
    xp_rx_start(&r, &P, 0, 1);
    uint64_t next, t = 0;
    for (int i = 0; i < 20; i++, t = next)
        xp_rx_credit(&r, &P, t, &next);
    CHECK_EQ(xp_rx_data(&r, &P, 2, 15 * US), 0);
    CHECK_EQ(r.have_rtt, 1);
    CHECK_EQ(r.period_ps, 15 * US);
    CHECK_EQ(r.lost, 2);
}

/* Gaps with jitter stay within gap*(1 +- 0.1), differ, and average to the gap. */
TEST(jitter)
{
    struct xp_rx r;
    setup(&r);
    P.jitter = 0.1;
    P.update_ps = 0;                               /* no RTT sample: no updates */
    xp_rx_start(&r, &P, 0, 12345);
    uint64_t t = 0, next, lo = UINT64_MAX, hi = 0;
    for (int i = 0; i < 1000; i++) {
        xp_rx_credit(&r, &P, t, &next);
        uint64_t g = next - t;
        lo = g < lo ? g : lo;
        hi = g > hi ? g : hi;
        t = next;
    }
    CHECK(lo >= 1209600 && hi <= 1478400);         /* 1344000 * (1 -+ 0.1) */
    CHECK(hi - lo > 200000);
    CHECK_NEAR((double)t / 1000, 1344000.0, 1344000.0 * 0.01);
    /* same seed, same gaps */
    struct xp_rx r2;
    xp_rx_start(&r2, &P, 0, 12345);
    xp_rx_credit(&r2, &P, 0, &next);
    xp_rx_start(&r, &P, 0, 12345);
    uint64_t next1;
    xp_rx_credit(&r, &P, 0, &next1);
    CHECK_EQ(next, next1);
}

/* One frame per credit, oldest credit first; no data or a full ring wastes. */
TEST(sender_one_frame_per_credit)
{
    struct xp_tx t = { 0 };
    CHECK_EQ(xp_tx_credit(&t, 4, 1), 1);
    CHECK_EQ(xp_tx_credit(&t, 6, 1), 1);
    CHECK_EQ(xp_tx_credit(&t, 7, 0), 0);
    CHECK_EQ(t.count, 2);
    CHECK_EQ(xp_tx_use(&t), 4);
    CHECK_EQ(xp_tx_use(&t), 6);
    CHECK_EQ(t.count, 0);
    CHECK_EQ(t.credits, 3);
    CHECK_EQ(t.used, 2);
    CHECK_EQ(t.wasted, 1);
    for (uint32_t i = 0; i < XP_TX_RING; i++)
        CHECK_EQ(xp_tx_credit(&t, 100 + i, 1), 1);
    CHECK_EQ(xp_tx_credit(&t, 200, 1), 0);     /* ring full */
    CHECK_EQ(xp_tx_use(&t), 100);              /* wraps around the ring */
    CHECK_EQ(xp_tx_credit(&t, 201, 1), 1);
    for (uint32_t i = 1; i < XP_TX_RING; i++)
        CHECK_EQ(xp_tx_use(&t), 100 + i);
    CHECK_EQ(xp_tx_use(&t), 201);
    CHECK_EQ(xp_tx_credit(&t, 300, 1), 1);
    xp_tx_flush(&t);
    CHECK_EQ(t.count, 0);
    CHECK_EQ(t.wasted, 3);
}

/* 1 Gb/s, a bucket of two 84 B credits, 8 queued at most: a credit costs
 * 672 ns of tokens. */
TEST(limiter)
{
    struct xp_lim l;
    xp_lim_init(&l, 1000000000, 168, 8);
    CHECK_EQ(xp_lim_ready(&l, 84, 0), 0);
    xp_lim_take(&l, 84, 0);
    CHECK_EQ(xp_lim_ready(&l, 84, 0), 0);          /* the burst's second credit */
    xp_lim_take(&l, 84, 0);
    CHECK_EQ(xp_lim_ready(&l, 84, 0), 672000);
    CHECK_EQ(xp_lim_ready(&l, 84, 336000), 672000);
    CHECK_EQ(xp_lim_ready(&l, 84, 672000), 672000);
    xp_lim_take(&l, 84, 672000);
    CHECK_EQ(xp_lim_ready(&l, 84, 672000), 1344000);
    /* a long idle time refills to the depth only: two credits, then wait */
    CHECK_EQ(xp_lim_ready(&l, 84, 1000000000), 1000000000);
    xp_lim_take(&l, 84, 1000000000);
    xp_lim_take(&l, 84, 1000000000);
    CHECK_EQ(xp_lim_ready(&l, 84, 1000000000), 1000672000);
    CHECK_EQ(l.sent, 5);
    /* queue of 8: the 9th credit is dropped */
    CHECK_EQ(xp_lim_admit(&l, 7), 1);
    CHECK_EQ(xp_lim_admit(&l, 8), 0);
    CHECK_EQ(l.admitted, 1);
    CHECK_EQ(l.dropped, 1);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_expresspass";
    RUN(defaults);
    RUN(params_check);
    RUN(increase_sequence);
    RUN(decrease_on_gaps);
    RUN(target_boundary);
    RUN(w_floor_and_rate_floor);
    RUN(feedback_off);
    RUN(floor_one_credit_per_period);
    RUN(rtt_from_first_loop);
    RUN(rtt_when_first_credit_lost);
    RUN(jitter);
    RUN(sender_one_frame_per_credit);
    RUN(limiter);
    return test_summary();
}
