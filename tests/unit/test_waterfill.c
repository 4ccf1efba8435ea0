/*
 * test_waterfill.c -- max-min fair rates by progressive filling
 * (core/waterfill.h), on cases computed by hand.
 *
 * Rates are in Gb/s here (the module is unit-free).  Each case states the
 * hand computation in its comment; the limits (which resource, or the cap,
 * froze each flow) are checked too, since roccsim maxmin reports them.
 */
#include "core/waterfill.h"

#include "test.h"

#define INF INFINITY
#define EPS 1e-9

/* Single bottleneck with caps (RoCC Fig. 13 mixed): one 10G link, flows
 * capped at 1, 3 and none.  Level 1: the 1G flow freezes at its cap; level
 * 3: the 3G flow; the last flow takes what is left, 10 - 1 - 3 = 6. */
TEST(single_bottleneck_caps)
{
    double cap[3] = { 1, 3, INF }, capa[1] = { 10 }, rate[3];
    uint32_t lim[3];
    struct wf_use use[3] = { { 0, 0, 1, 0 }, { 1, 0, 1, 0 }, { 2, 0, 1, 0 } };
    CHECK_EQ(waterfill(3, cap, 1, capa, NULL, use, 3, rate, lim), 0);
    CHECK_NEAR(rate[0], 1, EPS);
    CHECK_NEAR(rate[1], 3, EPS);
    CHECK_NEAR(rate[2], 6, EPS);
    CHECK_EQ(lim[0], WF_CAP);
    CHECK_EQ(lim[1], WF_CAP);
    CHECK_EQ(lim[2], 0);
}

/* A cap above the fair share does not bind: 10G link, caps 9, 9, 2:
 * level 2 freezes the 2G flow, the others split 8: 4 each. */
TEST(single_bottleneck_loose_caps)
{
    double cap[3] = { 9, 9, 2 }, capa[1] = { 10 }, rate[3];
    uint32_t lim[3];
    struct wf_use use[3] = { { 0, 0, 1, 0 }, { 1, 0, 1, 0 }, { 2, 0, 1, 0 } };
    CHECK_EQ(waterfill(3, cap, 1, capa, NULL, use, 3, rate, lim), 0);
    CHECK_NEAR(rate[0], 4, EPS);
    CHECK_NEAR(rate[1], 4, EPS);
    CHECK_NEAR(rate[2], 2, EPS);
    CHECK_EQ(lim[0], 0);
    CHECK_EQ(lim[2], WF_CAP);
}

/* Parking lot: links L0 (10), L1 (4), L2 (10) in a row; flow 0 crosses
 * all three, flow 1+i crosses only Li.  L1 fills first at 4/2 = 2 (flows 0
 * and 2); then L0 and L2 each have 10 - 2 = 8 left for one flow. */
TEST(parking_lot)
{
    double cap[4] = { INF, INF, INF, INF }, capa[3] = { 10, 4, 10 }, rate[4];
    uint32_t lim[4];
    struct wf_use use[6] = { { 0, 0, 1, 0 }, { 0, 1, 1, 0 }, { 0, 2, 1, 0 }, { 1, 0, 1, 0 }, { 2, 1, 1, 0 }, { 3, 2, 1, 0 } };
    CHECK_EQ(waterfill(4, cap, 3, capa, NULL, use, 6, rate, lim), 0);
    CHECK_NEAR(rate[0], 2, EPS);
    CHECK_NEAR(rate[1], 8, EPS);
    CHECK_NEAR(rate[2], 2, EPS);
    CHECK_NEAR(rate[3], 8, EPS);
    CHECK_EQ(lim[0], 1);
    CHECK_EQ(lim[1], 0);
    CHECK_EQ(lim[3], 2);
}

/* Equal parking lot: three 10G links, the long flow and one short flow
 * each: every link fills at 5 at once, all flows get 5. */
TEST(parking_lot_equal)
{
    double cap[4] = { INF, INF, INF, INF }, capa[3] = { 10, 10, 10 }, rate[4];
    struct wf_use use[6] = { { 0, 0, 1, 0 }, { 0, 1, 1, 0 }, { 0, 2, 1, 0 }, { 1, 0, 1, 0 }, { 2, 1, 1, 0 }, { 3, 2, 1, 0 } };
    CHECK_EQ(waterfill(4, cap, 3, capa, NULL, use, 6, rate, NULL), 0);
    for (int f = 0; f < 4; f++)
        CHECK_NEAR(rate[f], 5, EPS);
}

/* Two bottlenecks in series: flow A crosses L0 (6) then L1 (10); B only
 * L0; C and D only L1.  L0 fills at 6/2 = 3 (A, B) before L1 would (at
 * 10/3); then C and D share L1's 10 - 3 = 7: 3.5 each. */
TEST(two_bottlenecks_in_series)
{
    double cap[4] = { INF, INF, INF, INF }, capa[2] = { 6, 10 }, rate[4];
    uint32_t lim[4];
    struct wf_use use[5] = { { 0, 0, 1, 0 }, { 0, 1, 1, 0 }, { 1, 0, 1, 0 }, { 2, 1, 1, 0 }, { 3, 1, 1, 0 } };
    CHECK_EQ(waterfill(4, cap, 2, capa, NULL, use, 5, rate, lim), 0);
    CHECK_NEAR(rate[0], 3, EPS);
    CHECK_NEAR(rate[1], 3, EPS);
    CHECK_NEAR(rate[2], 3.5, EPS);
    CHECK_NEAR(rate[3], 3.5, EPS);
    CHECK_EQ(lim[0], 0);
    CHECK_EQ(lim[2], 1);
}

/* A flow limited downstream (RoCC Fig. 12a): D0..D4 share a 40G link
 * (resource 0); D0 and D5 share a 10G link further on (resource 1).  The
 * 10G link fills first at 5 (D0, D5); upstream D1..D4 share the rest:
 * (40 - 5) / 4 = 8.75, more than D0 although D0 is upstream with them. */
TEST(limited_downstream)
{
    double cap[6], capa[2] = { 40, 10 }, rate[6];
    uint32_t lim[6];
    struct wf_use use[7] = { { 0, 0, 1, 0 }, { 0, 1, 1, 0 }, { 1, 0, 1, 0 }, { 2, 0, 1, 0 },
                             { 3, 0, 1, 0 }, { 4, 0, 1, 0 }, { 5, 1, 1, 0 } };
    for (int f = 0; f < 6; f++)
        cap[f] = 36;                                   /* 90% of 40G, as the benchmark */
    CHECK_EQ(waterfill(6, cap, 2, capa, NULL, use, 7, rate, lim), 0);
    CHECK_NEAR(rate[0], 5, EPS);
    CHECK_NEAR(rate[5], 5, EPS);
    for (int f = 1; f <= 4; f++) {
        CHECK_NEAR(rate[f], 8.75, EPS);
        CHECK_EQ(lim[f], 0);
    }
    CHECK_EQ(lim[0], 1);
}

/* ACK overhead by hand: hosts a and b on one full-duplex 40G link, a flow
 * each way (a->b on resource 0, b->a on resource 1).  Data frames are
 * 1000 + 62 + 20 = 1082 wire bytes, an ACK per frame 66 + 20 = 86, so each
 * flow loads its reverse direction with 86/1082 of its rate:
 *     x + (86/1082) x = 40  =>  x = 40 * 1082 / 1168 = 37.0547945...
 * (goodput 40 * 1000 / 1168 = 34.2465753...).  Capping b->a at 10 leaves
 * a->b 40 - 10 * 86/1082 = 39.2051756...; the reverse direction then
 * carries 10 + 39.205 * 86/1082 = 13.116, not full. */
TEST(ack_overhead)
{
    double a = 86.0 / 1082.0;
    double cap[2] = { INF, INF }, capa[2] = { 40, 40 }, rate[2], load[2];
    struct wf_use use[4] = { { 0, 0, 1, 0 }, { 0, 1, a, 0 }, { 1, 1, 1, 0 }, { 1, 0, a, 0 } };
    CHECK_EQ(waterfill(2, cap, 2, capa, NULL, use, 4, rate, NULL), 0);
    CHECK_NEAR(rate[0], 37.0547945205, 1e-9);
    CHECK_NEAR(rate[1], 37.0547945205, 1e-9);
    CHECK_NEAR(rate[0] * 1000 / 1082, 34.2465753425, 1e-9);
    cap[1] = 10;
    uint32_t lim[2];
    CHECK_EQ(waterfill(2, cap, 2, capa, NULL, use, 4, rate, lim), 0);
    CHECK_NEAR(rate[1], 10, EPS);
    CHECK_NEAR(rate[0], 39.2051756007, 1e-9);
    CHECK_EQ(lim[0], 0);
    CHECK_EQ(lim[1], WF_CAP);
    waterfill_load(2, rate, 2, NULL, use, 4, load);
    CHECK_NEAR(load[0], 40, 1e-9);
    CHECK_NEAR(load[1], 10 + 39.2051756007 * a, 1e-9);
}

/* The same with ACKs as priority loads (the control class): they take
 * their share first but never limit their flow.  h0 and h1 send to r0
 * through a 40G switch, r0 sends to h0.  Ports: 0 = sw->r0 (data of A and
 * B, ACKs of C), 1 = r0->sw (data of C, ACKs of A and B), 2 = h0->sw (data
 * of A, ACKs of C), 3 = h1->sw (data of B), 4 = sw->h0 (data of C, ACKs
 * of A), 5 = sw->h1 (ACKs of B).  With a = 86/1082, A and B share what C's
 * ACKs leave of port 0, and C what A's and B's ACKs leave of port 1:
 *     2A + aC = 40,  C + 2aA = 40  =>  A = B = 20 / (1 + a) = 18.5273972603,
 *                                      C = 40 - 2aA     = 37.0547945205.
 * As plain coefficients (ack_overhead), C would be frozen with A and B at
 * 40 / (2 + a) = 19.2355555556 by port 0, where only its ACKs go. */
TEST(priority_acks)
{
    double a = 86.0 / 1082.0;
    double cap[3] = { INF, INF, INF }, capa[6] = { 40, 40, 40, 40, 40, 40 }, rate[3];
    uint32_t lim[3];
    struct wf_use use[10] = {
        { 0, 2, 1, 0 }, { 0, 0, 1, 0 }, { 0, 1, a, WF_PRIORITY }, { 0, 4, a, WF_PRIORITY },
        { 1, 3, 1, 0 }, { 1, 0, 1, 0 }, { 1, 1, a, WF_PRIORITY }, { 1, 5, a, WF_PRIORITY },
        { 2, 1, 1, 0 }, { 2, 4, 1, 0 },
    };
    struct wf_use ackc[2] = { { 2, 2, a, WF_PRIORITY }, { 2, 0, a, WF_PRIORITY } };
    struct wf_use all[12];
    memcpy(all, use, sizeof use);
    memcpy(all + 10, ackc, sizeof ackc);
    CHECK_EQ(waterfill(3, cap, 6, capa, NULL, all, 12, rate, lim), 0);
    CHECK_NEAR(rate[0], 18.5273972603, 1e-9);
    CHECK_NEAR(rate[1], 18.5273972603, 1e-9);
    CHECK_NEAR(rate[2], 37.0547945205, 1e-9);
    CHECK_EQ(lim[0], 0);
    CHECK_EQ(lim[2], 1);
    for (int u = 0; u < 12; u++)
        all[u].flags = 0;
    CHECK_EQ(waterfill(3, cap, 6, capa, NULL, all, 12, rate, lim), 0);
    CHECK_NEAR(rate[2], 19.2355555556, 1e-9);
    CHECK_EQ(lim[2], 0);
}

/* A fixed load (control frames whose rate follows no flow) comes off the
 * top: 10G link with 1G fixed, three flows: 3 each.  A fixed load that
 * fills the link leaves its flows 0. */
TEST(fixed_load)
{
    double cap[3] = { INF, INF, INF }, capa[1] = { 10 }, fixed[1] = { 1 }, rate[3];
    struct wf_use use[3] = { { 0, 0, 1, 0 }, { 1, 0, 1, 0 }, { 2, 0, 1, 0 } };
    CHECK_EQ(waterfill(3, cap, 1, capa, fixed, use, 3, rate, NULL), 0);
    for (int f = 0; f < 3; f++)
        CHECK_NEAR(rate[f], 3, EPS);
    fixed[0] = 12;
    CHECK_EQ(waterfill(3, cap, 1, capa, fixed, use, 3, rate, NULL), 0);
    for (int f = 0; f < 3; f++)
        CHECK_NEAR(rate[f], 0, EPS);
}

/* The answer does not depend on the order of flows, resources or uses:
 * the parking lot with everything listed backwards. */
TEST(order_independent)
{
    double cap[4] = { INF, INF, INF, INF }, capa[3] = { 10, 4, 10 }, rate[4];
    /* flow f here is flow 3 - f of parking_lot, resource r is 2 - r */
    struct wf_use use[6] = { { 0, 0, 1, 0 }, { 1, 1, 1, 0 }, { 2, 2, 1, 0 }, { 3, 2, 1, 0 }, { 3, 1, 1, 0 }, { 3, 0, 1, 0 } };
    CHECK_EQ(waterfill(4, cap, 3, capa, NULL, use, 6, rate, NULL), 0);
    CHECK_NEAR(rate[3], 2, EPS);
    CHECK_NEAR(rate[2], 8, EPS);
    CHECK_NEAR(rate[1], 2, EPS);
    CHECK_NEAR(rate[0], 8, EPS);
}

/* Every allocation is feasible and max-min: no resource over capacity and
 * each flow is at its cap or on a full resource (checked on a random-ish
 * but fixed instance with many shared resources). */
TEST(feasible_and_bottlenecked)
{
    enum { N = 40, M = 12, K = N * 4 };
    double cap[N], capa[M], rate[N], load[M];
    uint32_t lim[N];
    struct wf_use use[K];
    size_t k = 0;
    uint64_t s = 12345;
    for (uint32_t l = 0; l < M; l++)
        capa[l] = 10 + (double)(l % 5) * 10;
    for (uint32_t f = 0; f < N; f++) {
        cap[f] = f % 7 == 0 ? 1.5 + f % 3 : INF;
        for (uint32_t h = 0; h < 4; h++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            uint32_t l = (uint32_t)(s >> 33) % M;
            int dup = 0;
            for (size_t u = 0; u < k; u++)
                dup |= use[u].flow == f && use[u].res == l;
            if (!dup)
                use[k++] = (struct wf_use){ f, l, h == 3 ? 0.08 : 1, 0 };
        }
    }
    CHECK_EQ(waterfill(N, cap, M, capa, NULL, use, k, rate, lim), 0);
    waterfill_load(N, rate, M, NULL, use, k, load);
    for (uint32_t l = 0; l < M; l++)
        CHECK(load[l] <= capa[l] * (1 + 1e-9));
    for (uint32_t f = 0; f < N; f++) {
        if (lim[f] == WF_CAP) {
            CHECK_NEAR(rate[f], cap[f], EPS);
        } else {
            CHECK(lim[f] < M);
            CHECK_NEAR(load[lim[f]], capa[lim[f]], 1e-9 * capa[lim[f]]);
            /* max-min: the full resource is f's bottleneck, so no flow
             * that loads it has a higher rate than f */
            for (size_t u = 0; u < k; u++)
                if (use[u].res == lim[f])
                    CHECK(rate[use[u].flow] <= rate[f] * (1 + 1e-12));
        }
    }
}

TEST(rejects_malformed)
{
    double cap[1] = { INF }, capa[1] = { 10 }, rate[1];
    struct wf_use good[1] = { { 0, 0, 1, 0 } }, bad_res[1] = { { 0, 1, 1, 0 } }, bad_flow[1] = { { 1, 0, 1, 0 } },
                  bad_coef[1] = { { 0, 0, -1, 0 } }, nan_coef[1] = { { 0, 0, NAN, 0 } };
    CHECK_EQ(waterfill(1, cap, 1, capa, NULL, good, 1, rate, NULL), 0);
    CHECK_EQ(waterfill(1, cap, 1, capa, NULL, bad_res, 1, rate, NULL), -1);
    CHECK_EQ(waterfill(1, cap, 1, capa, NULL, bad_flow, 1, rate, NULL), -1);
    CHECK_EQ(waterfill(1, cap, 1, capa, NULL, bad_coef, 1, rate, NULL), -1);
    CHECK_EQ(waterfill(1, cap, 1, capa, NULL, nan_coef, 1, rate, NULL), -1);
    double ncap[1] = { -1 }, ncapa[1] = { NAN };
    CHECK_EQ(waterfill(1, ncap, 1, capa, NULL, good, 1, rate, NULL), -1);
    CHECK_EQ(waterfill(1, cap, 1, ncapa, NULL, good, 1, rate, NULL), -1);
    /* a flow that nothing limits has no max-min rate */
    CHECK_EQ(waterfill(1, cap, 1, capa, NULL, good, 0, rate, NULL), -1);
    /* ...but a capped flow on no resource is simply at its cap */
    double c5[1] = { 5 };
    CHECK_EQ(waterfill(1, c5, 0, NULL, NULL, good, 0, rate, NULL), 0);
    CHECK_NEAR(rate[0], 5, EPS);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_waterfill";
    RUN(single_bottleneck_caps);
    RUN(single_bottleneck_loose_caps);
    RUN(parking_lot);
    RUN(parking_lot_equal);
    RUN(two_bottlenecks_in_series);
    RUN(limited_downstream);
    RUN(ack_overhead);
    RUN(priority_acks);
    RUN(fixed_load);
    RUN(order_independent);
    RUN(feasible_and_bottlenecked);
    RUN(rejects_malformed);
    return test_summary();
}
