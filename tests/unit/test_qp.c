/*
 * test_qp.c -- queue pairs (net.h struct qp): the messages of one QP run in
 * posting order with at most `limit` outstanding; independent flows do not
 * wait; the two FCTs (from posting, from the first byte on the wire) and
 * the unfinished-flow counts of the FCT statistics (fct.h).
 *
 * Fabric: h0 -100G- s0 -100G- h1, 1 us links, line-rate transport (no CC),
 * so a message alone on the wire takes exactly its ideal FCT (test_fct.c).
 */
#include <string.h>

#include "engine/fct.h"
#include "test.h"
#include "test_fabric.h"

#define US PS_PER_US
#define G100 100000000000ull

static struct scenario sc_;
static struct group grp_;

/* Build the fabric in sc_.net; -1 on failure. */
static int build(void)
{
    memset(&sc_, 0, sizeof sc_);
    memset(&grp_, 0, sizeof grp_);
    struct net *n = &sc_.net;
    if (net_init(n, 1))
        return -1;
    uint32_t h0 = net_add_node(n, NODE_HOST, "h0"), s0 = net_add_node(n, NODE_SWITCH, "s0");
    uint32_t h1 = net_add_node(n, NODE_HOST, "h1");
    net_add_link(n, h0, s0, G100, 1 * US);
    net_add_link(n, s0, h1, G100, 1 * US);
    struct switch_cfg c;
    test_swcfg(n, &c);
    char why[200];
    if (net_finalize(n, &c, why, sizeof why))
        return -1;
    sc_.groups = &grp_;
    sc_.n_groups = 1;
    return 0;
}

static uint32_t add(uint64_t size, simtime_t post, uint32_t qp)
{
    struct flow f;
    memset(&f, 0, sizeof f);
    f.src = 0;
    f.dst = 1;
    f.prio = sc_.net.cfg.data_prio;
    f.size = size;
    f.start_ps = post;
    f.stop_ps = SIMTIME_NEVER;
    f.tp = &transport_line;
    f.hash = 7;
    f.rhash = 9;
    f.qp = qp;
    return net_add_flow(&sc_.net, &f);
}

/* How many of flows [0, k) are in flight (first byte sent, last byte not
 * yet received) at time t. */
static uint32_t in_flight(uint32_t k, simtime_t t)
{
    uint32_t c = 0;
    for (uint32_t i = 0; i < k; i++) {
        const struct flow *f = &sc_.net.flows[i];
        c += f->first_tx_ps <= t && t < f->finish_ps;
    }
    return c;
}

/* Largest number in flight at any start of a message. */
static uint32_t max_overlap(uint32_t k)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < k; i++) {
        uint32_t c = in_flight(k, sc_.net.flows[i].first_tx_ps);
        if (c > m)
            m = c;
    }
    return m;
}

TEST(one_outstanding_never_overlaps)
{
    CHECK_EQ(build(), 0);
    uint32_t q = net_add_qp(&sc_.net, 1);
    CHECK(q != 0);
    /* Six messages posted at once, two more later while the QP is busy. */
    for (int i = 0; i < 6; i++)
        CHECK(add(20000 + 1000 * (uint64_t)i, 5 * US, q) != NONE32);
    CHECK(add(3000, 6 * US, q) != NONE32);
    CHECK(add(50000, 7 * US, q) != NONE32);
    CHECK_EQ(net_flows_ready(&sc_.net), 0);
    net_run_until(&sc_.net, 10 * PS_PER_MS);
    const struct flow *fl = sc_.net.flows;
    for (uint32_t i = 0; i < 8; i++)
        CHECK(fl[i].finish_ps != SIMTIME_NEVER);
    /* In posting order, each after its predecessor's last byte arrived
     * (and its ACK came back: strictly later). */
    for (uint32_t i = 1; i < 8; i++)
        CHECK(fl[i].first_tx_ps > fl[i - 1].finish_ps);
    CHECK_EQ(max_overlap(8), 1);
    CHECK_EQ(fl[0].first_tx_ps, 5 * US);
    net_free(&sc_.net);
}

TEST(n_outstanding_at_most_n)
{
    CHECK_EQ(build(), 0);
    uint32_t q = net_add_qp(&sc_.net, 3);
    for (int i = 0; i < 10; i++)
        CHECK(add(30000, 5 * US + (simtime_t)i * 100000, q) != NONE32);
    CHECK_EQ(net_flows_ready(&sc_.net), 0);
    net_run_until(&sc_.net, 10 * PS_PER_MS);
    for (uint32_t i = 0; i < 10; i++)
        CHECK(sc_.net.flows[i].finish_ps != SIMTIME_NEVER);
    CHECK_EQ(max_overlap(10), 3);            /* the limit is reached, never passed */
    /* Started in posting order. */
    for (uint32_t i = 1; i < 10; i++)
        CHECK(sc_.net.flows[i].first_tx_ps >= sc_.net.flows[i - 1].first_tx_ps);
    net_free(&sc_.net);
}

TEST(independent_flows_do_not_wait)
{
    CHECK_EQ(build(), 0);
    for (int i = 0; i < 4; i++)
        CHECK(add(30000, 5 * US, 0) != NONE32);
    CHECK_EQ(net_flows_ready(&sc_.net), 0);
    net_run_until(&sc_.net, 10 * PS_PER_MS);
    CHECK_EQ(max_overlap(4), 4);
    net_free(&sc_.net);
}

TEST(two_fct_definitions)
{
    CHECK_EQ(build(), 0);
    uint32_t q = net_add_qp(&sc_.net, 1);
    CHECK(add(100000, 5 * US, q) != NONE32);
    CHECK(add(40000, 5 * US, q) != NONE32);
    CHECK_EQ(net_flows_ready(&sc_.net), 0);
    net_run_until(&sc_.net, 10 * PS_PER_MS);
    const struct flow *a = &sc_.net.flows[0], *b = &sc_.net.flows[1];
    /* Alone on the wire, each message's wire FCT is its ideal, exactly. */
    CHECK_EQ(a->finish_ps - a->first_tx_ps, fct_ideal(&sc_.net, a));
    CHECK_EQ(b->finish_ps - b->first_tx_ps, fct_ideal(&sc_.net, b));
    /* The first did not wait; the second waited for the first's ACK. */
    CHECK_EQ(a->first_tx_ps, a->start_ps);
    CHECK(b->first_tx_ps > a->finish_ps);
    /* The statistics give both: from posting and from the first byte. */
    grp_.count = 2;
    struct fct_stats st;
    fct_bin_stats(&sc_, -1, 50000, UINT64_MAX, 0, SIMTIME_NEVER, &st);
    CHECK_EQ(st.count, 1);
    CHECK_EQ((simtime_t)(st.avg * PS_PER_S + 0.5), a->finish_ps - a->start_ps);
    CHECK_EQ((simtime_t)(st.w_avg * PS_PER_S + 0.5), a->finish_ps - a->first_tx_ps);
    fct_bin_stats(&sc_, -1, 0, 50000, 0, SIMTIME_NEVER, &st);
    CHECK_EQ(st.count, 1);
    CHECK_EQ((simtime_t)(st.avg * PS_PER_S + 0.5), b->finish_ps - b->start_ps);
    CHECK_EQ((simtime_t)(st.w_avg * PS_PER_S + 0.5), b->finish_ps - b->first_tx_ps);
    CHECK(st.avg > st.w_avg);
    CHECK_EQ(fct_count_below_one(&sc_), 0);
    net_free(&sc_.net);
}

TEST(unfinished_flows_counted_per_bin)
{
    CHECK_EQ(build(), 0);
    uint32_t q = net_add_qp(&sc_.net, 1);
    /* 1 MB takes ~85 us at 100G: stop at 50 us, mid-message; the two
     * small messages behind it never start. */
    CHECK(add(1000000, 5 * US, q) != NONE32);
    CHECK(add(2000, 6 * US, q) != NONE32);
    CHECK(add(3000, 6 * US, q) != NONE32);
    CHECK(add(2500, 6 * US, 0) != NONE32);    /* independent: finishes */
    CHECK_EQ(net_flows_ready(&sc_.net), 0);
    net_run_until(&sc_.net, 50 * US);
    grp_.count = 4;
    struct fct_stats st;
    fct_bin_stats(&sc_, -1, 0, 10000, 0, SIMTIME_NEVER, &st);
    CHECK_EQ(st.count, 1);
    CHECK_EQ(st.unfinished, 2);
    CHECK_EQ(st.not_started, 2);
    CHECK_EQ(st.w_count, 1);                 /* by first byte: the two waiting are in neither count */
    CHECK_EQ(st.w_unfinished, 0);
    fct_bin_stats(&sc_, -1, 10000, UINT64_MAX, 0, SIMTIME_NEVER, &st);
    CHECK_EQ(st.count, 0);
    CHECK_EQ(st.unfinished, 1);
    CHECK_EQ(st.not_started, 0);             /* it is sending */
    CHECK_EQ(st.w_count, 0);
    CHECK_EQ(st.w_unfinished, 1);
    CHECK(isnan(st.avg));
    /* The posting window selects: flows posted after 5.5 us only. */
    fct_bin_stats(&sc_, -1, 0, UINT64_MAX, 5500000, SIMTIME_NEVER, &st);
    CHECK_EQ(st.count + st.unfinished, 3);
    /* The wire FCTs select by first byte: only the 2500 B flow's (at 6 us). */
    CHECK_EQ(st.w_count + st.w_unfinished, 1);
    net_free(&sc_.net);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_qp";
    RUN(one_outstanding_never_overlaps);
    RUN(n_outstanding_at_most_n);
    RUN(independent_flows_do_not_wait);
    RUN(two_fct_definitions);
    RUN(unfinished_flows_counted_per_bin);
    return test_summary();
}
