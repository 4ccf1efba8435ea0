/*
 * test_pfconly.c -- the PFC-only baseline of LSCC §IV-C (docs/crossdc.md
 * "PFC only"): a long-haul port's XOFF at Qref, XON at Qref - xon_offset,
 * headroom one BDP of the long link computed from its rate and delay.
 *
 * Fabric: h0 - a ==(100 Gb/s, 400 us, long-haul)== b - h1 (Fig. 2's link),
 * 32 MB buffer, longhaul_xoff = 5 MB (§IV-C's Qref).  Frames of 1062 B
 * arrive at b on its long-haul port for h1 while b->h1 is paused, so the
 * MMU holds them; the test counts when XOFF and XON go upstream.
 */
#include "core/units.h"
#include "net/flowctl.h"
#include "net/net.h"

#include "test.h"
#include "test_fabric.h"

#define G 1000000000ull

static uint32_t build(struct net *n, uint64_t rate, simtime_t delay, uint64_t xoff)
{
    struct switch_cfg c;
    char why[256];
    net_init(n, 1);
    uint32_t h0 = net_add_node(n, NODE_HOST, "h0"), h1 = net_add_node(n, NODE_HOST, "h1");
    uint32_t a = net_add_node(n, NODE_SWITCH, "a"), b = net_add_node(n, NODE_SWITCH, "b");
    net_add_link(n, h0, a, 40 * G, PS_PER_US);
    net_add_link(n, h1, b, 40 * G, PS_PER_US);
    net_link_set_longhaul(n, net_add_link(n, a, b, rate, delay));
    test_swcfg(n, &c);
    c.longhaul_xoff_bytes = xoff;
    if (net_finalize(n, &c, why, sizeof why)) {
        printf("  net_finalize: %s\n", why);
        return NONE32;
    }
    return b;
}

/* One BDP of headroom, by hand: rate/8 x 2 x delay, plus two 1082 B wire
 * frames (1000 B MTU payload + 62 B RoCEv2 overhead + 20 B preamble/IFG)
 * and the 3 KB XON offset. */
TEST(headroom_one_bdp)
{
    struct net n;
    uint32_t b = build(&n, 100 * G, 400 * PS_PER_US, 5000000);
    CHECK(b != NONE32);
    const struct sw *s = &n.sws[n.nodes[b].idx];
    /* 100e9 / 8 x 800e-6 = 10,000,000 B */
    CHECK_EQ(s->hdrm_limit[1], 10000000 + 2 * 1082 + 3072);
    CHECK_EQ(s->xoff[1], 5000000);                 /* Qref */
    CHECK_EQ(s->xoff[0], 500000);                  /* the 40 G host port keeps the rule */
    CHECK_EQ(s->cfg.buffer_bytes, 32000000 + 10005236);
    net_free(&n);
    /* 200 Gb/s, 1 ms (§IV-B): 25e9 x 2e-3 = 50,000,000 B */
    b = build(&n, 200 * G, PS_PER_MS, 5000000);
    CHECK(b != NONE32);
    CHECK_EQ(n.sws[n.nodes[b].idx].hdrm_limit[1], 50000000 + 2 * 1082 + 3072);
    net_free(&n);
}

/* XOFF once the long-haul ingress holds more than Qref, XON when it is
 * back at Qref - 3 KB, nothing lost in between. */
TEST(xoff_xon_at_qref)
{
    struct net n;
    uint32_t b = build(&n, 100 * G, 400 * PS_PER_US, 5000000);
    CHECK(b != NONE32);
    struct sw *s = &n.sws[n.nodes[b].idx];
    const struct node *nd = &n.nodes[b];
    uint32_t to_h1 = nd->first_port, lh = nd->first_port + 1;
    uint8_t cls = n.cfg.data_prio;
    uint32_t f = test_add_flow(&n, 0, 1, 0, 0);
    CHECK(f != NONE32);
    port_set_pause(&n, to_h1, cls, 1);             /* h1 holds b: the frames stay */
    /* The reserve takes 3 frames (3186 <= 4000 B), the shared pool
     * floor(5e6 / 1062) = 4708 frames (4,999,896 B); frame 4712 does not fit
     * under Qref, goes to headroom and sends XOFF. */
    uint32_t k;
    for (k = 1; k <= 4712; k++) {
        uint32_t pi = net_new_packet(&n, PKT_DATA);
        struct packet *p = pkt(&n.pool, pi);
        p->flow = f;
        p->seq = k;
        p->dst = 1;
        p->prio = cls;
        p->bytes = 1062;
        p->payload = 1000;
        switch_receive(&n, s, lh, pi);
        if (k < 4712)
            CHECK(!fc_ingress_requested(s, 1, cls));
    }
    CHECK(fc_ingress_requested(s, 1, cls));
    CHECK_EQ(n.ports[lh].st.pfc_sent, 1);
    CHECK_EQ(s->cnt[1 * NCLASS + cls].hdrm, 1062);
    CHECK_EQ(s->cnt[1 * NCLASS + cls].shared, 4999896);
    /* Drain: the first frame out empties the headroom (4,999,896 B left,
     * above 5e6 - 3000); then 4,998,834, 4,997,772 and, at the 4th frame,
     * 4,996,710 <= 4,997,000: XON. */
    n.ports[to_h1].paused = 0;
    for (k = 1; k <= 4; k++) {
        uint32_t pi = switch_dequeue(&n, s, to_h1);
        CHECK(pi != PKT_NONE);
        net_consume(&n, pi);
        if (k < 4)
            CHECK(fc_ingress_requested(s, 1, cls));
    }
    CHECK(!fc_ingress_requested(s, 1, cls));
    CHECK_EQ(s->cnt[1 * NCLASS + cls].shared, 4996710);
    CHECK_EQ(n.dropped[PKT_DATA], 0);
    net_free(&n);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_pfconly";
    RUN(headroom_one_bdp);
    RUN(xoff_xon_at_qref);
    return test_summary();
}
