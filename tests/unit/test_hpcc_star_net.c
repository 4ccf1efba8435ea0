/*
 * test_hpcc_star_net.c -- HPCC*'s direct INT at the host (host.c
 * host_direct_int, tp_hpcc_star.c): a well-formed one reaches the flow's
 * HPCC* state; forged or malformed ones have no effect and are counted in
 * cnp_filtered_host.  Fabric: h0, h1 -- sw -- r (test_fabric.h).  Flow 0
 * h0 -> r runs hpcc_star (started at 0); flow 1 h1 -> r is a line-rate flow
 * (no direct INT), never started.
 */
#include "net/net.h"
#include "engine/ccreg.h"
#include "hpcc_star.h"

#include "test.h"
#include "test_fabric.h"

static struct net net_;
static int live_;
static struct hpcc_star_params prm_;

static struct net *build(void)
{
    struct net *n = test_star(&net_, &live_, 2);
    if (!n)
        return NULL;
    hpcc_star_params_default(&prm_, 40000000000ull, 10 * PS_PER_US, HPCC_PROFILE_PAPER, 1);
    struct flow f;
    memset(&f, 0, sizeof f);
    f.src = 0;
    f.dst = 2;
    f.prio = n->cfg.data_prio;
    f.size = 100000;
    f.start_ps = 0;
    f.stop_ps = SIMTIME_NEVER;
    f.tp = cc_algo_hpcc_star.tp;
    f.cc_prm = &prm_;
    if (net_add_flow(n, &f) == NONE32 || test_add_flow(n, 1, 2, 1000, 0) == NONE32 || net_flows_ready(n) ||
        net_enable_int(n))
        return NULL;
    return n;
}

/* A direct INT for flow fl to host dst, from node src, nhop hops, B field b. */
static void dint(struct net *n, uint32_t fl, uint32_t dst, uint32_t src, uint8_t flags, uint8_t nhop, uint32_t b)
{
    uint32_t pi = net_new_packet(n, PKT_CNP);
    struct packet *p = pkt(&n->pool, pi);
    p->flow = fl;
    p->dst = dst;
    p->prio = n->cfg.ctrl_prio;
    p->bytes = ROCE_CNP_FRAME + HPCC_STAR_INT_BYTES;
    p->cnp_kind = CNP_DINT;
    p->cnp_src = src;
    p->flags = flags;
    p->nhop = nhop;
    p->rate_units = b;
    for (unsigned i = 0; i < INT_MAX_HOPS; i++)
        n->intr[pi].hop[i] = (struct int_hop){ 0, 0, 1000, 40000000000ull };
    switch_inject(n, &n->sws[0], pi, 0);
}

TEST(direct_int_checks)
{
    struct net *n = build();
    CHECK(n != NULL);
    uint32_t sw = n->sws[0].node, h1 = n->hosts[1].node;
    net_run_until(n, 1 * PS_PER_US);                        /* flow 0 has started */
    struct hpcc_star *st;
    memcpy(&st, n->flows[0].cc.raw, sizeof st);
    CHECK(st != NULL);
    dint(n, 0, 0, sw, PF_INT, 2, 10000);                    /* well formed: taken */
    dint(n, 0, 0, h1, PF_INT, 2, 10000);                    /* from a host */
    dint(n, 0, 0, sw, PF_INT, 0, 10000);                    /* no hop */
    dint(n, 0, 0, sw, PF_INT, INT_MAX_HOPS + 1, 10000);     /* too many hops */
    dint(n, 0, 0, sw, 0, 2, 10000);                         /* no INT */
    dint(n, 0, 0, sw, PF_INT, 2, 0);                        /* B = 0: refused by HPCC* */
    dint(n, 0, 0, sw, PF_INT, 2, HPCC_STAR_B_MAX + 1);      /* B beyond 24 bits */
    dint(n, 1, 1, sw, PF_INT, 2, 10000);                    /* a flow that takes no direct INT */
    dint(n, 0, 2, sw, PF_INT, 2, 10000);                    /* to flow 0's receiver, not its source */
    net_run_until(n, 20 * PS_PER_US);
    CHECK_EQ(st->n_dint, 1u);
    CHECK_EQ(st->n_dint_bad, 2u);
    CHECK_EQ(n->cnp_filtered_host, 8u);
    CHECK(test_conserved(n));
}

int main(void)
{
    test_binary_ = "test_hpcc_star_net";
    test_crash_guard();
    RUN(direct_int_checks);
    if (live_)
        net_free(&net_);
    return test_summary();
}
