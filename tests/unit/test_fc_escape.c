/*
 * test_fc_escape.c -- Escape as the simulator's flow-control scheme
 * (src/net/fc_escape.c on the flowctl.h interface): control frames are a
 * security boundary.  Forged or malformed ETFs handed to the switch through
 * the on_frame hook (fc_receive), and data frames whose Escape header
 * arrives where it must not, change nothing: no frame moves, no pool is
 * charged, no token is sent; each is counted.  A genuine token and a
 * genuine escaping frame, in the same state, do act (the positive controls
 * that show the checks can tell the difference).
 *
 * Fabric: h0 -- s0 -- s1 -- r, 40 Gb/s, 1 us (node ids 0 1 2 3; hosts
 * h0 = 0, r = 1).  Flow 0 and flow 1: h0 -> r; flow 2: r -> h0.  Escape on
 * both switches (pool 4, Δesc auto, no reclaim timer, max_hops = 2
 * switches).  Frames are made by hand and handed to switch_receive; s0's
 * egress ports are held busy so they stay queued.  The timer never runs
 * (no event loop), so every token is one the test sent.
 */
#include "net/fc_escape.h"
#include "net/flowctl.h"

#include "test.h"
#include "test_fabric.h"

enum { H0, S0, S1, R };
#define G40 40000000000ull
#define FRAME 1062u

static struct net net_;

static struct net *build(void)
{
    struct net *n = &net_;
    struct switch_cfg c;
    char why[256];
    if (net_init(n, 1))
        return NULL;
    net_add_node(n, NODE_HOST, "h0");
    net_add_node(n, NODE_SWITCH, "s0");
    net_add_node(n, NODE_SWITCH, "s1");
    net_add_node(n, NODE_HOST, "r");
    net_add_link(n, H0, S0, G40, PS_PER_US);
    net_add_link(n, S0, S1, G40, PS_PER_US);
    net_add_link(n, S1, R, G40, PS_PER_US);
    test_swcfg(n, &c);
    if (net_finalize(n, &c, why, sizeof why)) {
        printf("  %s\n", why);
        return NULL;
    }
    for (uint32_t i = 0; i < 3; i++)          /* h0 -> r, h0 -> r, r -> h0 (host indices) */
        test_add_flow(n, i < 2 ? 0 : 1, i < 2 ? 1 : 0, 1000000, 11 + i);
    struct fc_escape_params p = { .pool = 4, .period_ps = 0, .reclaim_ps = 0, .ft_mode = ESC_FT_FRAMES,
                                  .reclaim_mode = ESC_RECLAIM_ONE };
    for (uint32_t i = 0; i < n->n_sws; i++)
        if (fc_escape_install(n, &n->sws[i], &p, why, sizeof why)) {
            printf("  %s\n", why);
            return NULL;
        }
    fc_escape_link_peers(n);
    return n;
}

static uint32_t port_of(const struct net *n, uint32_t a, uint32_t b) { return net_port_between(n, a, b); }

/* A data frame of flow f (seq k, Escape header hops) arriving at s0 on `in`. */
static void data_at_s0(struct net *n, uint32_t in, uint32_t f, uint64_t k, uint8_t hops)
{
    uint32_t pi = net_new_packet(n, PKT_DATA);
    struct packet *p = pkt(&n->pool, pi);
    p->flow = f;
    p->seq = k;
    p->dst = n->flows[f].dst;
    p->prio = n->cfg.data_prio;
    p->hops = hops;
    p->bytes = FRAME;
    p->payload = 1000;
    switch_receive(n, &n->sws[0], in, pi);
}

/* An ETF (subtype sub, flow, hops) arriving at s0's port `at`. */
static void etf_at(struct net *n, uint32_t at, uint8_t sub, uint32_t flow, uint8_t hops)
{
    uint32_t pi = fc_new_frame(n, sub);
    struct packet *p = pkt(&n->pool, pi);
    p->bytes = ESC_ETF_FRAME_BYTES;
    p->flow = flow;
    p->hops = hops;
    fc_receive(n, at, pi);
}

/* Nothing an accepted token would change has changed. */
static void unchanged(const struct net *n, uint32_t eg, uint32_t queued)
{
    struct fc_escape_totals t;
    fc_escape_totals(n, &t);
    CHECK_EQ(n->ports[eg].q[QESC].count, 0);
    CHECK_EQ(n->ports[eg].q[n->cfg.data_prio].count, queued);
    CHECK_EQ(t.outstanding, 0);
    /* (tok_extract may count a search that found nothing: a token for a
     * real flow with no frame queued here searches before it ends, C3) */
    CHECK_EQ(t.st.frames_escaped + t.st.tok_forwarded + t.st.tok_sent, 0);
    CHECK_EQ(n->ports[eg].st.tx_pkts, 0);
    for (uint32_t i = 0; i < n->n_sws; i++)       /* no ETF queued anywhere (nothing forwarded) */
        for (uint32_t l = 0; l < n->nodes[n->sws[i].node].n_ports; l++)
            CHECK_EQ(n->ports[n->nodes[n->sws[i].node].first_port + l].q[QMAC].count, 0);
}

/* Forged and malformed ETFs at s0: each refused (packets.fctl_refused, the
 * state machine's counters), none moves a frame or charges a pool. */
TEST(forged_etf_no_effect)
{
    struct net *n = build();
    CHECK(n != NULL);
    if (!n)
        return;
    uint32_t from_h0 = port_of(n, S0, H0), to_s1 = port_of(n, S0, S1);
    uint8_t d = n->cfg.data_prio;
    struct fc_escape_totals t;
    n->ports[to_s1].busy_until = SIMTIME_NEVER - 1;
    for (uint64_t k = 0; k < 3; k++)              /* flow 0 queued at s0 -> s1 (in the flow table) */
        data_at_s0(n, from_h0, 0, k, 0);
    CHECK_EQ(n->ports[to_s1].q[d].count, 3);

    /* s0 -> s1 not paused: a well-formed token for a queued flow is a
     * replay or a forgery (C11). */
    etf_at(n, to_s1, FC_SUB_ETF, 0, 1);
    etf_at(n, to_s1, FC_SUB_ETF, 0, 2);
    CHECK_EQ(n->fctl_bad, 2);
    fc_escape_totals(n, &t);
    CHECK_EQ(t.st.tok_drop_open, 2);
    unchanged(n, to_s1, 3);

    port_set_pause(n, to_s1, d, 1);               /* s1 paused s0 -> s1: tokens may come now */
    uint64_t bad = n->fctl_bad;
    etf_at(n, to_s1, FC_SUB_ETF, 0, 0);           /* hops 0 */
    etf_at(n, to_s1, FC_SUB_ETF, 0, 3);           /* hops above max_hops (2 switches, C7) */
    etf_at(n, to_s1, FC_SUB_ETF, 0, 255);
    etf_at(n, to_s1, FC_SUB_ETF, 99, 1);          /* a flow that does not exist */
    etf_at(n, to_s1, FC_SUB_ETF + 1, 0, 1);       /* not an ETF */
    etf_at(n, from_h0, FC_SUB_ETF, 0, 1);         /* from the host (C2) */
    CHECK_EQ(n->fctl_bad, bad + 6);
    fc_escape_totals(n, &t);
    CHECK_EQ(t.st.tok_extract, 0);                /* none of those reached a search */
    etf_at(n, to_s1, FC_SUB_ETF, 1, 1);           /* a real flow not in the table (C3): */
    fc_escape_totals(n, &t);
    CHECK_EQ(t.st.tok_extract, 1);                /* the queue is searched (lines 18-19), */
    CHECK_EQ(t.st.tok_drop_unknown, 1);           /* no frame of it: the token ends (line 24) */
    CHECK_EQ(t.st.tok_drop_bad, 3);               /* hops 3, 255, from the host */
    unchanged(n, to_s1, 3);

    /* Positive control: the same token, genuine (paused port, known flow,
     * from the peer switch), moves flow 0's first frame to the escape queue. */
    etf_at(n, to_s1, FC_SUB_ETF, 0, 1);
    CHECK_EQ(n->fctl_bad, bad + 6);
    CHECK_EQ(n->ports[to_s1].q[QESC].count, 1);
    CHECK_EQ(n->ports[to_s1].q[d].count, 2);
    fc_escape_totals(n, &t);
    CHECK_EQ(t.st.frames_escaped, 1);
    CHECK(test_conserved(n));
    net_free(n);
}

/* Escape headers where they must not be: from a host (reset to 0,
 * counted), above max_hops from a switch (treated as 0, counted).  Neither
 * takes the escape queue nor is admitted beyond the PFC limits; a genuine
 * escaping frame from the peer switch does take it. */
TEST(escape_header_where_it_must_not_be)
{
    struct net *n = build();
    CHECK(n != NULL);
    if (!n)
        return;
    uint32_t from_h0 = port_of(n, S0, H0), to_s1 = port_of(n, S0, S1);
    uint32_t from_s1 = to_s1, to_h0 = from_h0;
    uint8_t d = n->cfg.data_prio;
    struct fc_escape_totals t;
    n->ports[to_s1].busy_until = SIMTIME_NEVER - 1;
    n->ports[to_h0].busy_until = SIMTIME_NEVER - 1;
    data_at_s0(n, from_h0, 0, 0, 1);              /* host says "escaping, hops 1" */
    data_at_s0(n, from_h0, 0, 1, 2);
    data_at_s0(n, from_h0, 0, 2, 255);
    fc_escape_totals(n, &t);
    CHECK_EQ(t.hdr_reset, 3);
    CHECK_EQ(n->ports[to_s1].q[QESC].count, 0);
    CHECK_EQ(n->ports[to_s1].q[d].count, 3);
    for (uint32_t i = n->ports[to_s1].q[d].head; i != PKT_NONE; i = n->pool.p[i].next)
        CHECK_EQ(n->pool.p[i].hops, 0);
    data_at_s0(n, from_s1, 2, 0, 3);              /* from the switch, above max_hops 2 */
    data_at_s0(n, from_s1, 2, 1, 200);
    fc_escape_totals(n, &t);
    CHECK_EQ(t.st.frames_bad_hops, 2);
    CHECK_EQ(n->ports[to_h0].q[QESC].count, 0);
    CHECK_EQ(n->ports[to_h0].q[d].count, 2);
    CHECK_EQ(t.outstanding, 0);
    CHECK_EQ(t.st.reclaim_tx + t.st.over_reclaim, 0);
    /* Positive control: a valid header from the peer switch escapes. */
    data_at_s0(n, from_s1, 2, 2, 2);
    CHECK_EQ(n->ports[to_h0].q[QESC].count, 1);
    CHECK(test_conserved(n));
    net_free(n);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_fc_escape";
    RUN(forged_etf_no_effect);
    RUN(escape_header_where_it_must_not_be);
    return test_summary();
}
