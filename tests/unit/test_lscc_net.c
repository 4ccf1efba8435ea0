/*
 * test_lscc_net.c -- the simulator's LSCC feedback frame (agent_lscc.c) runs
 * rocc-switch's freshness rule (src/cc/lscc_fb.h): a replayed or older
 * frame arriving on the long-haul port has no effect on the rate-limiting
 * module's R (counted in fb_refused and the net's fctl_bad), a newer epoch
 * (a restarted peer) is taken at once, and the frames the agent sends carry
 * the sender counter's pairs.  Fabric: h0 -- sw -- r (test_fabric.h); LSCC
 * on sw's port towards r.
 */
#include "net/net.h"
#include "net/flowctl.h"
#include "net/agent_lscc.h"

#include "test.h"
#include "test_fabric.h"

static struct net net_;
static int live_;

/* A feedback frame (R in units, epoch, seq) arriving on port. */
static void arrive(struct net *n, uint32_t port, uint32_t units, uint64_t epoch, uint64_t seq)
{
    uint32_t pi = fc_new_frame(n, FC_SUB_AGENT);
    struct packet *p = pkt(&n->pool, pi);
    p->rate_units = units;
    p->seq = seq;
    p->ts = (simtime_t)epoch;
    fc_receive(n, port, pi);
}

TEST(feedback_freshness)
{
    struct net *n = test_star(&net_, &live_, 1);
    CHECK(n != NULL);
    const struct node *sw = &n->nodes[n->sws[0].node];
    uint32_t port = sw->first_port + sw->n_ports - 1;          /* towards r */
    struct lscc_rc_params rcp;
    struct lscc_rl_params rlp;
    lscc_rc_params_default(&rcp, 40000000000ull, 1000 * PS_PER_US);
    lscc_rl_params_default(&rlp, 40000000000ull, 1000 * PS_PER_US, rcp.period_ps);
    struct lscc_node *x = lscc_attach(n, port, &rcp, &rlp);
    CHECK(x != NULL);
    uint64_t bad0 = n->fctl_bad, df = rcp.f_unit_bps;

    arrive(n, port, 20000, 1, 1);
    CHECK_EQ(x->rl.rate_bps, 20000 * df);
    arrive(n, port, 100, 1, 1);                                /* replayed */
    CHECK_EQ(x->rl.rate_bps, 20000 * df);
    arrive(n, port, 30000, 1, 2);
    CHECK_EQ(x->rl.rate_bps, 30000 * df);
    arrive(n, port, 100, 0, 50);                               /* an older epoch */
    arrive(n, port, 100, 1, (uint64_t)UINT32_MAX + 3);         /* not a 32-bit seq */
    CHECK_EQ(x->rl.rate_bps, 30000 * df);
    arrive(n, port, 25000, 2, 1);                              /* the peer restarted */
    CHECK_EQ(x->rl.rate_bps, 25000 * df);
    CHECK_EQ(x->fb_rcvd, 3u);
    CHECK_EQ(x->fb_refused, 3u);
    CHECK_EQ(n->fctl_bad - bad0, 3u);
    CHECK(x->fbrx.epoch == 2 && x->fbrx.seq == 1);

    /* The agent's own frames: seq 1, 2, ... in epoch LSCC_SIM_EPOCH. */
    net_run_until(n, 2 * rcp.period_ps + PS_PER_US);
    CHECK_EQ(x->fb_sent, 2u);
    CHECK(x->fbtx.epoch == LSCC_SIM_EPOCH && x->fbtx.seq == 2);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_lscc_net";
    RUN(feedback_freshness);
    if (live_)
        net_free(&net_);
    return test_summary();
}
