/*
 * test_xpass_net.c -- ExpressPass in the fabric (src/net/xpass.c): credits
 * pace the senders, the per-port credit limiters keep the bottleneck's data
 * queue near zero, the feedback control holds the credit loss near its
 * target, and credits retrace their flow's data path.
 *
 * Every check here was seen to fail with the piece it covers turned off:
 * the limiter (no xpass_setup_ports), the feedback (no updates, credits at
 * max_rate), the source route (credits by ECMP on the reverse hash); see
 * the `off` variants below, which assert the failure.
 *
 * XP_EXPLORE=1 build/tests/test_xpass_net prints the incast sweep of
 * docs/expresspass.md (2..16 senders, 1 and 10 us links) instead of
 * testing; XP_DEBUG=1 adds each flow's receiver and sender state.
 */
#include "test.h"
#include "test_fabric.h"

#include "engine/ccreg.h"
#include "transport/tp_expresspass.h"

#define G40 40000000000ull
#define US  PS_PER_US
#define CLS 6

static struct xp_net_params PRM;

static void params(const struct net *n, uint64_t link)
{
    xp_params_default(&PRM.xp, link, xpass_credit_wire(n), xpass_data_wire(n));
    PRM.credit_class = CLS;
    PRM.symmetric = 1;
}

static uint32_t xp_add_flow(struct net *n, uint32_t src, uint32_t dst, uint64_t hash)
{
    struct flow f;
    memset(&f, 0, sizeof f);
    f.src = src;
    f.dst = dst;
    f.prio = n->cfg.data_prio;
    f.size = UINT64_MAX;
    f.flags = FL_ENDLESS;
    f.start_ps = 0;
    f.stop_ps = SIMTIME_NEVER;
    f.tp = cc_algo_expresspass.tp;
    f.cc_prm = &PRM;
    f.hash = hash;
    f.rhash = hash * 0x9e3779b97f4a7c15ull + 12345;
    return net_add_flow(n, &f);
}

struct incast_result {
    uint64_t q_max;            /* sw -> r data queue, peak after 200 µs */
    double   jain, gbps;       /* per-flow goodput fairness, total goodput (200 µs .. end) */
    double   loss;             /* credit loss the receivers measured */
    uint64_t qlimit_drops;
    int      conserved;
};

enum { ON = 0, NO_LIMITER = 1, NO_FEEDBACK = 2 };

/* test_star with links of `delay`. */
static int star(struct net *n, uint32_t n_in, simtime_t delay)
{
    if (net_init(n, 1))
        return -1;
    char name[16];
    for (uint32_t i = 0; i < n_in; i++) {
        snprintf(name, sizeof name, "h%u", i);
        net_add_node(n, NODE_HOST, name);
    }
    uint32_t sw = net_add_node(n, NODE_SWITCH, "sw");
    uint32_t r = net_add_node(n, NODE_HOST, "r");
    for (uint32_t i = 0; i < n_in; i++)
        net_add_link(n, i, sw, G40, delay);
    net_add_link(n, sw, r, G40, delay);
    struct switch_cfg c;
    test_swcfg(n, &c);
    char why[256];
    if (net_finalize(n, &c, why, sizeof why)) {
        net_free(n);
        return -1;
    }
    return 0;
}

static simtime_t DELAY = US;

/* n senders -> r over one 40G switch, endless ExpressPass flows, 2 ms. */
static int incast(uint32_t nsend, int mode, struct incast_result *res)
{
    struct net n;
    if (star(&n, nsend, DELAY))
        return -1;
    params(&n, G40);
    if (mode == NO_FEEDBACK)
        PRM.xp.feedback = 0;
    char why[200];
    if (mode != NO_LIMITER && xpass_setup_ports(&n, CLS, PRM.xp.queue_credits, why, sizeof why)) {
        printf("  %s\n", why);
        net_free(&n);
        return -1;
    }
    for (uint32_t i = 0; i < nsend; i++)
        xp_add_flow(&n, i, nsend, 1000 + i);
    if (net_flows_ready(&n)) {
        net_free(&n);
        return -1;
    }
    uint32_t sw = nsend, r = nsend + 1;
    uint32_t bott = net_port_between(&n, sw, r);
    net_run_until(&n, 200 * US);
    uint64_t b0[64];
    for (uint32_t i = 0; i < nsend; i++)
        b0[i] = n.flows[i].rx_wire_bytes;
    n.ports[bott].st.max_queue_bytes = n.ports[bott].data_bytes;
    net_run_until(&n, 2000 * US);
    double sum = 0, sq = 0, lost = 0, echoed = 0;
    for (uint32_t i = 0; i < nsend; i++) {
        double x = (double)(n.flows[i].rx_wire_bytes - b0[i]);
        sum += x;
        sq += x * x;
        lost += (double)xp_state(&n.flows[i])->rx.lost;
        echoed += (double)xp_state(&n.flows[i])->rx.echoed;
    }
    if (getenv("XP_DEBUG"))
        for (uint32_t i = 0; i < nsend; i++) {
            const struct xp_flow *x = xp_state(&n.flows[i]);
            printf("    flow %u: %.2f Gb/s rate %.3g w %.4f lost %llu echoed %llu period %llu upd %llu dec %llu wasted %llu req %llu asym %llu\n",
                   i, (double)(n.flows[i].rx_wire_bytes - b0[i]) * 8 / 1800e-6 / 1e9, x->rx.rate_bps, x->rx.w,
                   (unsigned long long)x->rx.lost, (unsigned long long)x->rx.echoed,
                   (unsigned long long)x->rx.period_ps, (unsigned long long)x->rx.updates,
                   (unsigned long long)x->rx.decreases, (unsigned long long)x->tx.wasted,
                   (unsigned long long)x->req_sent, (unsigned long long)x->asym_credits);
        }
    res->q_max = n.ports[bott].st.max_queue_bytes;
    res->jain = sum * sum / (nsend * sq);
    res->gbps = sum * 8 / 1800e-6 / 1e9;
    res->loss = lost / (lost + echoed);
    res->qlimit_drops = n.qlimit_drops;
    res->conserved = test_conserved(&n);
    printf("  %u senders, mode %d: q_max %llu B, jain %.4f, %.2f Gb/s, credit loss %.3f, qlimit drops %llu\n",
           nsend, mode, (unsigned long long)res->q_max, res->jain, res->gbps, res->loss,
           (unsigned long long)res->qlimit_drops);
    net_free(&n);
    return 0;
}

/* 8-to-1 incast, 1 µs links: the bottleneck's data queue stays at a frame
 * or two, the shares are fair, goodput is near the link's data share
 * (1082/1166 of 40G = 37.1 Gb/s) less the credits the feedback leaves
 * unused.  The credit loss is far above the 10% target (Alg. 1 with a few
 * credits per RTT per flow overshoots: docs/expresspass.md), yet well
 * below the 7/8 of a run without feedback. */
TEST(incast_8_to_1)
{
    struct incast_result r;
    CHECK_EQ(incast(8, ON, &r), 0);
    CHECK(r.conserved);
    CHECK(r.q_max <= 3 * 1082);
    CHECK(r.jain >= 0.98);
    CHECK(r.gbps >= 28 && r.gbps <= 37.2);
    CHECK(r.loss < 0.7);
    CHECK(r.qlimit_drops > 0);
}

/* Without the limiters the credits of 8 flows let 8 senders loose at once:
 * the bottleneck queue grows to PFC levels. */
TEST(incast_no_limiter_queue_grows)
{
    struct incast_result r;
    CHECK_EQ(incast(8, NO_LIMITER, &r), 0);
    CHECK(r.conserved);
    CHECK(r.q_max > 100 * 1082);
    CHECK_EQ(r.qlimit_drops, 0);
}

/* Without the feedback every receiver sends at max_rate: the limiters
 * still protect the queue, but 7 of 8 credits die at the NIC. */
TEST(incast_no_feedback_loses_credits)
{
    struct incast_result r;
    CHECK_EQ(incast(8, NO_FEEDBACK, &r), 0);
    CHECK(r.conserved);
    CHECK(r.q_max <= 3 * 1082);
    CHECK(r.loss > 0.8);
}

/* ---- symmetric routing ---- */

/* Counts, per flow and egress port, the data frames and credits a switch
 * sends (a port agent on every switch port). */
#define MAXF 8
struct tally { uint32_t data[MAXF][64], credit[MAXF][64]; };
static void tally_deq(struct net *n, void *st, uint32_t port, struct packet *p)
{
    struct tally *t = st;
    if (p->flow >= MAXF || port >= 64)
        return;
    if (p->type == PKT_DATA)
        t->data[p->flow][port]++;
    else if (p->type == PKT_CREDIT && p->credit_kind == CREDIT_GRANT)
        t->credit[p->flow][port]++;
}
static const struct port_agent_ops tally_ops = { .name = "tally", .on_dequeue = tally_deq };

/* Hosts h0 h1 on leaf l0, r0 r1 on leaf l1, two spines: every flow between
 * the leaves has two paths.  8 flows with different hashes.  Returns the
 * number of (flow, link) pairs where credits and data disagree: a switch
 * egress A->B carrying credits of f while B->A carried none of f's data,
 * or the other way round. */
static int mismatches(int symmetric, struct tally *t, int *asym_credits)
{
    struct net n;
    if (net_init(&n, 7))
        return -1;
    uint32_t h0 = net_add_node(&n, NODE_HOST, "h0"), h1 = net_add_node(&n, NODE_HOST, "h1");
    uint32_t r0 = net_add_node(&n, NODE_HOST, "r0"), r1 = net_add_node(&n, NODE_HOST, "r1");
    uint32_t l0 = net_add_node(&n, NODE_SWITCH, "l0"), l1 = net_add_node(&n, NODE_SWITCH, "l1");
    uint32_t s0 = net_add_node(&n, NODE_SWITCH, "s0"), s1 = net_add_node(&n, NODE_SWITCH, "s1");
    net_add_link(&n, h0, l0, G40, US);
    net_add_link(&n, h1, l0, G40, US);
    net_add_link(&n, r0, l1, G40, US);
    net_add_link(&n, r1, l1, G40, US);
    net_add_link(&n, l0, s0, G40, US);
    net_add_link(&n, l0, s1, G40, US);
    net_add_link(&n, l1, s0, G40, US);
    net_add_link(&n, l1, s1, G40, US);
    struct switch_cfg c;
    test_swcfg(&n, &c);
    char why[200];
    if (net_finalize(&n, &c, why, sizeof why) || (params(&n, G40), 0) ||
        xpass_setup_ports(&n, CLS, PRM.xp.queue_credits, why, sizeof why)) {
        net_free(&n);
        return -1;
    }
    PRM.symmetric = (uint8_t)symmetric;
    memset(t, 0, sizeof *t);
    for (uint32_t p = 0; p < n.n_ports && p < 64; p++)
        if (n.nodes[n.ports[p].node].kind == NODE_SWITCH)
            net_add_agent(&n, p, &tally_ops, t);
    for (uint32_t i = 0; i < MAXF; i++) {
        uint32_t f = xp_add_flow(&n, i & 1, 2 + ((i >> 1) & 1), 0x1234567ull * (i + 1));
        n.flows[f].size = 200000;                   /* 200 KB each */
        n.flows[f].flags = 0;
    }
    if (net_flows_ready(&n)) {
        net_free(&n);
        return -1;
    }
    net_run_until(&n, 500 * US);
    int bad = 0, done = 0;
    *asym_credits = 0;
    for (uint32_t f = 0; f < MAXF; f++) {
        done += (n.flows[f].flags & FL_RX_DONE) != 0;
        *asym_credits += (int)xp_state(&n.flows[f])->asym_credits;
        for (uint32_t p = 0; p < n.n_ports && p < 64; p++) {
            uint32_t a = n.ports[p].node, b = n.ports[n.ports[p].peer].node;
            if (n.nodes[a].kind != NODE_SWITCH || n.nodes[b].kind != NODE_SWITCH)
                continue;                           /* a host's port carries no agent */
            uint32_t back = n.ports[p].peer;        /* B's port toward A */
            if ((t->credit[f][p] > 0) != (t->data[f][back] > 0))
                bad++;
        }
    }
    if (done != MAXF || !test_conserved(&n))
        bad = -1;
    net_free(&n);
    return bad;
}

TEST(credits_retrace_the_data_path)
{
    static struct tally t;
    int asym;
    CHECK_EQ(mismatches(1, &t, &asym), 0);
    CHECK_EQ(asym, 0);
    /* the counts are not vacuous: every flow's data crossed a spine */
    for (uint32_t f = 0; f < MAXF; f++) {
        uint32_t d = 0, c = 0;
        for (uint32_t p = 0; p < 64; p++) {
            d += t.data[f][p];
            c += t.credit[f][p];
        }
        CHECK(d >= 2 * 197);                     /* leaf->spine and spine->leaf, 197 frames each */
        CHECK(c > 0);
    }
}

/* Credits by ECMP on the reverse hash take the other spine for some flows. */
TEST(credits_by_ecmp_do_not)
{
    static struct tally t;
    int asym;
    CHECK(mismatches(0, &t, &asym) > 0);
    CHECK(asym > 0);
}

/* ---- the credit stop (CREDIT_STOP, tp_expresspass.c) ---- */

/* h0 -> r and h1 -> r over one switch (40G, 1 us links), lossless (rto
 * 0: no request or stop retries) unless rto is given; flow 0 of `size`
 * bytes stopping at stop (SIMTIME_NEVER: endless, never), flow 1 endless. */
static int stop_star(struct net *n, uint64_t size, simtime_t stop, simtime_t rto)
{
    if (star(n, 2, US))
        return -1;
    params(n, G40);
    char why[200];
    if (xpass_setup_ports(n, CLS, PRM.xp.queue_credits, why, sizeof why)) {
        net_free(n);
        return -1;
    }
    n->cfg.rto_ps = rto;
    xp_add_flow(n, 0, 2, 1000);                  /* hosts: h0 0, h1 1, r 2 */
    xp_add_flow(n, 1, 2, 1001);
    if (stop != SIMTIME_NEVER) {
        n->flows[0].size = size;
        n->flows[0].flags = 0;
        n->flows[0].stop_ps = stop;
    }
    if (net_flows_ready(n)) {
        net_free(n);
        return -1;
    }
    return 0;
}

/* A credit request or stop for flow fi that host `from` sends (its NIC
 * port) to host `to`, claiming to come from host `src`, announcing end. */
static void inject(struct net *n, uint32_t from, uint32_t to, uint32_t fi, uint32_t src, uint8_t kind, uint64_t end)
{
    uint32_t pi = net_new_packet(n, PKT_CREDIT);
    struct packet *p = pkt(&n->pool, pi);
    p->flow = fi;
    p->dst = to;
    p->credit_src = src;
    p->seq = end;
    p->bytes = ETH_MIN_FRAME;
    p->prio = n->cfg.ctrl_prio;
    p->credit_kind = kind;
    port_enqueue_ctrl(n, n->hosts[from].port, pi);
}

/* A stop frame ends the receiver's pacer once the bytes it announces are
 * in; one from another host than the flow's sender, or sent to another
 * host than its receiver, has no effect; a later one announcing more, and
 * a repeated request after it, do not restart it.  (Seen to fail: with the
 * stop branch of xp_on_credit removed, with its source check removed,
 * with its destination check removed, and with the least-end rule
 * (rx_announce) replaced by a plain store.) */
TEST(stop_frame_stops_the_pacer)
{
    struct net n;
    CHECK(stop_star(&n, 0, SIMTIME_NEVER, 0) == 0);
    struct xp_nic *x0 = xp_nic(&n.flows[0]), *x1 = xp_nic(&n.flows[1]);
    net_run_until(&n, 30 * US);
    CHECK(x0->xp.rx.active && x1->xp.rx.active);
    /* forged: flow 1's stop from h0 (flow 1 is h1's); flow 1's stop from
     * h1 but sent to h0 (not its receiver); flow 0's stop announcing the
     * bytes already in, from h0 to r: genuine */
    inject(&n, 0, 2, 1, 0, CREDIT_STOP, 0);
    inject(&n, 1, 0, 1, 1, CREDIT_STOP, 0);
    inject(&n, 0, 2, 0, 0, CREDIT_STOP, n.flows[0].rcv_nxt);
    net_run_until(&n, 40 * US);
    CHECK(!x0->xp.rx.active);
    CHECK(x1->xp.rx.active);
    CHECK_EQ(xp_rx_end(x1), UINT64_MAX);
    uint64_t sent0 = x0->xp.rx.sent, sent1 = x1->xp.rx.sent;
    /* a duplicate stop claiming more, then a request: still stopped */
    inject(&n, 0, 2, 0, 0, CREDIT_STOP, UINT64_MAX);
    net_run_until(&n, 50 * US);
    inject(&n, 0, 2, 0, 0, CREDIT_REQUEST, UINT64_MAX);
    net_run_until(&n, 100 * US);
    CHECK(!x0->xp.rx.active);
    CHECK_EQ(x0->xp.rx.sent, sent0);
    CHECK(x1->xp.rx.active);
    CHECK(x1->xp.rx.sent > sent1 + 100);         /* flow 1 kept pacing its credits */
    char why[200];
    CHECK(net_check_conservation(&n, why, sizeof why) == 0);
    net_free(&n);
}

/* A flow stopped at 30 us sends one credit stop with the bytes it sent;
 * its receiver stops pacing once they are in, the other flow paces on.
 * (Seen to fail with xp_on_stop sending nothing.) */
TEST(stopped_flow_sends_a_stop)
{
    struct net n;
    CHECK(stop_star(&n, 10000000, 30 * US, 0) == 0);
    struct xp_nic *x0 = xp_nic(&n.flows[0]), *x1 = xp_nic(&n.flows[1]);
    net_run_until(&n, 100 * US);
    uint64_t sent0 = x0->xp.rx.sent;
    net_run_until(&n, 200 * US);
    CHECK_EQ(x0->xp.stop_sent, 1);
    CHECK(n.flows[0].size > 0 && n.flows[0].size < 10000000);
    CHECK_EQ(xp_rx_end(x0), n.flows[0].size);
    CHECK_EQ(n.flows[0].rcv_nxt, n.flows[0].size);
    CHECK(!x0->xp.rx.active);
    CHECK_EQ(x0->xp.rx.sent, sent0);
    CHECK(x1->xp.rx.active);
    CHECK_EQ(x1->xp.stop_sent, 0);
    net_free(&n);
}

/* Lossy mode: a lost credit stop is repeated when a credit reaches the
 * stopped sender a retry period (the RTO) later.  The stop is "lost" by
 * rewriting its claimed source on the wire (the receiver then ignores
 * it).  (Seen to fail without the repeat in xp_on_credit.) */
TEST(lost_stop_is_repeated)
{
    struct net n;
    CHECK(stop_star(&n, 10000000, 30 * US, 20 * US) == 0);
    struct xp_nic *x0 = xp_nic(&n.flows[0]);
    net_run_until(&n, 30 * US);
    CHECK_EQ(x0->xp.stop_sent, 1);
    int lost = 0;
    const struct port *pt = &n.ports[n.hosts[0].port];
    const struct pktq *qs[] = { &pt->wire, &pt->q[n.cfg.ctrl_prio] };
    for (int q = 0; q < 2; q++)
        for (uint32_t i = qs[q]->head; i != PKT_NONE; i = pkt(&n.pool, i)->next) {
            struct packet *p = pkt(&n.pool, i);
            if (p->type == PKT_CREDIT && p->credit_kind == CREDIT_STOP) {
                p->credit_src = 1;               /* h1: not flow 0's sender */
                lost++;
            }
        }
    CHECK_EQ(lost, 1);
    net_run_until(&n, 45 * US);
    CHECK(x0->xp.rx.active);                     /* the stop was lost: credits go on */
    net_run_until(&n, 300 * US);
    CHECK(x0->xp.stop_sent >= 2);
    CHECK(!x0->xp.rx.active);
    CHECK_EQ(n.flows[0].rcv_nxt, n.flows[0].size);
    net_free(&n);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_xpass_net";
    if (getenv("XP_EXPLORE")) {
        struct incast_result r;
        for (int d = 1; d <= 10; d *= 10)
            for (uint32_t k = 2; k <= 16; k *= 2) {
                DELAY = (simtime_t)d * US;
                printf("delay %d us\n", d);
                incast(k, ON, &r);
            }
        return 0;
    }
    RUN(incast_8_to_1);
    RUN(incast_no_limiter_queue_grows);
    RUN(incast_no_feedback_loses_credits);
    RUN(credits_retrace_the_data_path);
    RUN(credits_by_ecmp_do_not);
    RUN(stop_frame_stops_the_pacer);
    RUN(stopped_flow_sends_a_stop);
    RUN(lost_stop_is_repeated);
    return test_summary();
}
