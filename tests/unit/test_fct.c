/*
 * test_fct.c -- the ideal FCT must equal the simulated FCT of a flow alone
 * in the fabric, exactly, for full and short last frames, equal and unequal
 * link rates, and a rate-capped flow.  Slowdown 1.0 for an idle fabric is
 * the definition the FCT statistics rely on.
 */
#include <string.h>

#include "engine/fct.h"
#include "test.h"
#include "test_fabric.h"

#define US PS_PER_US

/* h0 -r1- s0 -r2- s1 -r3- h1 with 1 us links; one flow of `size` bytes at
 * rate cap `cap` (0 = line); returns measured - ideal FCT (ps), or -1e18 on
 * a setup failure. */
static double run_alone(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t size, uint64_t cap, simtime_t *ideal_out)
{
    struct net n;
    if (net_init(&n, 1))
        return -1e18;
    uint32_t h0 = net_add_node(&n, NODE_HOST, "h0"), s0 = net_add_node(&n, NODE_SWITCH, "s0");
    uint32_t s1 = net_add_node(&n, NODE_SWITCH, "s1"), h1 = net_add_node(&n, NODE_HOST, "h1");
    net_add_link(&n, h0, s0, r1, 1 * US);
    net_add_link(&n, s0, s1, r2, 1 * US);
    net_add_link(&n, s1, h1, r3, 1 * US);
    struct switch_cfg c;
    test_swcfg(&n, &c);
    char why[200];
    double res = -1e18;
    if (net_finalize(&n, &c, why, sizeof why) == 0) {
        struct flow f;
        memset(&f, 0, sizeof f);
        f.src = 0;
        f.dst = 1;
        f.prio = n.cfg.data_prio;
        f.size = size;
        f.start_ps = 5 * US;
        f.stop_ps = SIMTIME_NEVER;
        f.app_rate_bps = cap;
        f.tp = &transport_line;
        f.hash = 7;
        f.rhash = 9;
        if (net_add_flow(&n, &f) != NONE32 && net_flows_ready(&n) == 0) {
            net_run_until(&n, 100 * PS_PER_MS);
            const struct flow *fl = &n.flows[0];
            simtime_t ideal = fct_ideal(&n, fl);
            *ideal_out = ideal;
            if (fl->finish_ps != SIMTIME_NEVER)
                res = (double)(fl->finish_ps - fl->start_ps) - (double)ideal;
        }
    }
    net_free(&n);
    return res;
}

TEST(one_frame)
{
    simtime_t ideal = 0;
    CHECK_EQ(run_alone(100000000000ull, 100000000000ull, 100000000000ull, 1000, 0, &ideal), 0);
    /* 1082 B at 80 ps/B = 86,560 ps on each of 3 links + 3 us. */
    CHECK_EQ(ideal, 3 * 86560 + 3 * US);
}

TEST(many_full_frames)
{
    simtime_t ideal = 0;
    CHECK_EQ(run_alone(100000000000ull, 100000000000ull, 100000000000ull, 100000, 0, &ideal), 0);
    /* 100 frames: 102 transmissions of 86,560 ps on the pipeline + 3 us. */
    CHECK_EQ(ideal, 102 * 86560 + 3 * US);
}

TEST(short_last_frame)
{
    simtime_t ideal = 0;
    CHECK_EQ(run_alone(40000000000ull, 40000000000ull, 40000000000ull, 2500, 0, &ideal), 0);
    CHECK(ideal > 0);
}

TEST(bottleneck_in_the_middle)
{
    simtime_t ideal = 0;
    CHECK_EQ(run_alone(100000000000ull, 10000000000ull, 100000000000ull, 25000, 0, &ideal), 0);
    CHECK_EQ(run_alone(100000000000ull, 10000000000ull, 100000000000ull, 25500, 0, &ideal), 0);
}

TEST(fast_last_hop_after_slow)
{
    simtime_t ideal = 0;
    CHECK_EQ(run_alone(10000000000ull, 40000000000ull, 100000000000ull, 33333, 0, &ideal), 0);
    CHECK_EQ(run_alone(100000000000ull, 100000000000ull, 10000000000ull, 33333, 0, &ideal), 0);
}

TEST(rate_capped_source)
{
    simtime_t ideal = 0;
    CHECK_EQ(run_alone(100000000000ull, 100000000000ull, 100000000000ull, 50000, 7000000000ull, &ideal), 0);
    /* At 7 Gb/s the pacer dominates: 50 frames of 1082 B at 1236.57 ps/B. */
    CHECK(ideal > 49 * 1236571ull);
}

int main(void)
{
    test_binary_ = "test_fct";
    RUN(one_frame);
    RUN(many_full_frames);
    RUN(short_last_frame);
    RUN(bottleneck_in_the_middle);
    RUN(fast_last_hop_after_slow);
    RUN(rate_capped_source);
    return test_summary();
}
