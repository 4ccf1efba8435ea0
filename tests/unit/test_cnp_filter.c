/*
 * test_cnp_filter.c -- the simulator's forged-CNP defence ([network]
 * cnp_filter, issue 11 part 5): the binding rule, the switch's edge filter
 * and the host's check, each on a hand-made CNP.
 *
 *   h0 --\
 *         sw1 -- sw2 -- r        (1 us, 40 Gb/s links)
 *   h1 --/
 */
#include "net/net.h"

#include "test.h"
#include "test_fabric.h"

enum { H0, H1, SW1, SW2, R };          /* node ids (hosts h0 = 0, h1 = 1, r = 2) */

static struct net net_;
static int live_;

static struct net *build(int filter)
{
    struct switch_cfg c;
    char why[256];

    if (net_init(&net_, 1))
        return NULL;
    live_ = 1;
    net_.cfg.cnp_filter = filter;
    net_add_node(&net_, NODE_HOST, "h0");
    net_add_node(&net_, NODE_HOST, "h1");
    net_add_node(&net_, NODE_SWITCH, "sw1");
    net_add_node(&net_, NODE_SWITCH, "sw2");
    net_add_node(&net_, NODE_HOST, "r");
    net_add_link(&net_, H0, SW1, 40000000000ull, PS_PER_US);
    net_add_link(&net_, H1, SW1, 40000000000ull, PS_PER_US);
    net_add_link(&net_, SW1, SW2, 40000000000ull, PS_PER_US);
    net_add_link(&net_, SW2, R, 40000000000ull, PS_PER_US);
    memset(&c, 0, sizeof c);
    c.buffer_bytes = 0;                  /* unlimited: no PFC to reason about */
    for (int i = 0; i < NCLASS; i++)
        c.quantum[i] = 9000;
    c.strict_mask = (uint8_t)(1u << net_.cfg.ctrl_prio);
    if (net_finalize(&net_, &c, why, sizeof why)) {
        printf("  net_finalize: %s\n", why);
        return NULL;
    }
    /* One idle flow h0 -> r for the CNPs to quote (never started). */
    struct flow f;
    memset(&f, 0, sizeof f);
    f.src = 0;
    f.dst = 2;
    f.prio = net_.cfg.data_prio;
    f.size = 1000;
    f.start_ps = SIMTIME_NEVER - 1;
    f.stop_ps = SIMTIME_NEVER;
    f.tp = &transport_line;
    if (net_add_flow(&net_, &f) == NONE32 || net_flows_ready(&net_))
        return NULL;
    return &net_;
}

static void done(void)
{
    if (live_)
        net_free(&net_);
    live_ = 0;
}

/* A RoCC CNP for flow 0 (to h0) claiming node src and CP id cp_id. */
static uint32_t cnp(struct net *n, uint32_t src, uint32_t cp_id, uint8_t kind)
{
    uint32_t pi = net_new_packet(n, PKT_CNP);
    struct packet *p = pkt(&n->pool, pi);
    p->flow = 0;
    p->dst = 0;
    p->prio = n->cfg.ctrl_prio;
    p->bytes = 90;
    p->cnp_kind = kind;
    p->cnp_src = src;
    p->cp_id = cp_id;
    p->rate_units = 1;
    return pi;
}

TEST(binding_rule)
{
    struct net *n = build(1);
    CHECK(n != NULL);
    struct packet p;
    memset(&p, 0, sizeof p);
    p.type = PKT_CNP;
    p.cnp_kind = CNP_ROCC;
    p.cnp_src = SW2;
    p.cp_id = SW2 << 8 | 1;
    CHECK_EQ(net_cnp_bound(n, &p), 1);          /* a real CP: switch, own id */
    p.cp_id = 0xdead00;
    CHECK_EQ(net_cnp_bound(n, &p), 0);          /* made-up id */
    p.cp_id = SW1 << 8 | 1;
    CHECK_EQ(net_cnp_bound(n, &p), 0);          /* another switch's id */
    p.cnp_src = H1;
    p.cp_id = H1 << 8;
    CHECK_EQ(net_cnp_bound(n, &p), 0);          /* a host is no CP */
    p.cnp_src = SW2;
    p.cp_id = SW2 << 8;
    p.cnp_kind = CNP_JUNK;
    CHECK_EQ(net_cnp_bound(n, &p), 0);          /* junk never counts */
    done();
}

/* From host h1, claiming sw2's CP correctly: dropped at sw1's host port. */
TEST(switch_drops_cnp_from_host_port)
{
    struct net *n = build(1);
    CHECK(n != NULL);
    uint32_t h1port = n->hosts[1].port;
    port_enqueue_ctrl(n, h1port, cnp(n, SW2, SW2 << 8 | 1, CNP_ROCC));
    port_enqueue_ctrl(n, h1port, cnp(n, SW2, SW2 << 8 | 1, CNP_JUNK));
    net_run_until(n, 100 * PS_PER_US);
    CHECK_EQ(n->cnp_filtered_sw, 2u);
    CHECK_EQ(n->cnp_filtered_host, 0u);
    CHECK(test_conserved(n));
    done();
}

/* Without the filter the same CNP reaches h0 and goes through its NIC. */
TEST(no_filter_forwards)
{
    struct net *n = build(0);
    CHECK(n != NULL);
    port_enqueue_ctrl(n, n->hosts[1].port, cnp(n, SW2, SW2 << 8 | 1, CNP_ROCC));
    net_run_until(n, 100 * PS_PER_US);
    CHECK_EQ(n->cnp_filtered_sw, 0u);
    CHECK_EQ(n->cnp_filtered_host, 0u);
    CHECK_EQ(n->ev_count[EV_NIC_DELAY], 1u);    /* it reached h0's reaction delay line */
    CHECK(test_conserved(n));
    done();
}

/* From the fabric side (made at sw2): claiming sw1 (the receiving switch's
 * own address) or a made-up id is dropped at sw1; a real one passes. */
TEST(switch_fabric_rules)
{
    struct net *n = build(1);
    CHECK(n != NULL);
    struct sw *s2 = &n->sws[n->nodes[SW2].idx];
    switch_inject(n, s2, cnp(n, SW1, SW1 << 8 | 1, CNP_ROCC), 0);   /* claims sw1 */
    switch_inject(n, s2, cnp(n, SW2, 0xdead00, CNP_ROCC), 0);       /* made-up id */
    switch_inject(n, s2, cnp(n, SW2, SW2 << 8 | 1, CNP_ROCC), 0);   /* real */
    net_run_until(n, 100 * PS_PER_US);
    CHECK_EQ(n->cnp_filtered_sw, 2u);
    CHECK_EQ(n->ev_count[EV_NIC_DELAY], 1u);
    CHECK(test_conserved(n));
    done();
}

/* What gets past no switch (made by sw1 itself) meets the host's check. */
TEST(host_refuses_unbound)
{
    struct net *n = build(1);
    CHECK(n != NULL);
    struct sw *s1 = &n->sws[n->nodes[SW1].idx];
    switch_inject(n, s1, cnp(n, SW2, 0xdead00, CNP_ROCC), 0);
    switch_inject(n, s1, cnp(n, SW1, SW1 << 8 | 2, CNP_JUNK), 0);
    switch_inject(n, s1, cnp(n, SW1, SW1 << 8 | 2, CNP_ROCC), 0);
    net_run_until(n, 100 * PS_PER_US);
    CHECK_EQ(n->cnp_filtered_sw, 0u);
    CHECK_EQ(n->cnp_filtered_host, 2u);
    CHECK_EQ(n->ev_count[EV_NIC_DELAY], 1u);
    CHECK(test_conserved(n));
    done();
}

int main(void)
{
    test_binary_ = "test_cnp_filter";
    test_crash_guard();
    RUN(binding_rule);
    done();
    RUN(switch_drops_cnp_from_host_port);
    done();
    RUN(no_filter_forwards);
    done();
    RUN(switch_fabric_rules);
    done();
    RUN(host_refuses_unbound);
    done();
    return test_summary();
}
