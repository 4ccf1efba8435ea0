/*
 * test_swing.c -- SWING's PFC relay: the pure decision (src/cc/swing.h)
 * with hand-computed sequences, the relay buffer's size, and the relay on
 * a small fabric (src/net/fc_swing.h): h0 - a - r0 ==(200 Gb/s, 1 ms,
 * long-haul)== r1 - b - h1, the scheme on r0 and r1.
 */
#include "core/units.h"
#include "net/fc_swing.h"
#include "net/net.h"
#include "swing.h"

#include "test.h"
#include "test_fabric.h"

#define G 1000000000ull

TEST(decision_sequence)
{
    struct swing_relay r;
    swing_init(&r);
    CHECK_EQ(swing_on_down(&r, 1), SWING_PAUSE);    /* E pauses: relayed */
    CHECK_EQ(swing_on_own(&r, 1), SWING_NONE);      /* already paused over L */
    CHECK_EQ(swing_on_down(&r, 0), SWING_NONE);     /* own buffer still wants it */
    CHECK_EQ(swing_on_own(&r, 0), SWING_RESUME);
    CHECK_EQ(swing_on_own(&r, 1), SWING_PAUSE);     /* own alone: the safety net */
    CHECK_EQ(swing_on_down(&r, 1), SWING_NONE);
    CHECK_EQ(swing_on_own(&r, 0), SWING_NONE);      /* E still pauses */
    CHECK_EQ(swing_on_down(&r, 0), SWING_RESUME);
    CHECK_EQ(swing_on_down(&r, 0), SWING_NONE);     /* a repeated XON sends nothing */
    CHECK_EQ(r.relayed_pause, 2);
    CHECK_EQ(r.relayed_resume, 2);
    CHECK_EQ(r.own_xoff, 2);
    CHECK_EQ(r.sent, 0);
}

TEST(relay_buffer_size)
{
    /* 200 Gb/s, 1 ms: 25e9 B/s x 2 ms = 50,000,000 B, + 2 x 1082 + 3000 */
    CHECK_EQ(swing_relay_buffer(200 * G, PS_PER_MS, 1082, 3000), 50005164);
    /* 100 Gb/s, 400 us: 12.5e9 x 0.8e-3 = 10,000,000 B */
    CHECK_EQ(swing_relay_buffer(100 * G, 400 * PS_PER_US, 1082, 3000), 10005164);
    /* Bifrost §VI-B's 400 Gb/s, 3 ms: 300,000,000 B = 286.1 MiB (their
     * "286 MB" BDP); 10 ms at 200 Gb/s needs 128 bits on the way */
    CHECK_EQ(swing_relay_buffer(400 * G, 3 * PS_PER_MS, 0, 0), 300000000);
    CHECK_EQ(swing_relay_buffer(200 * G, 10 * PS_PER_MS, 0, 0), 500000000);
}

static struct fc_swing_sw *sp0, *sp1;        /* freed by net_free (the scheme's destroy) */
#define st0 (*sp0)
#define st1 (*sp1)

/* Nodes h0 0, h1 1, a 2, r0 3, r1 4, b 5; r1's ports: 0 long-haul, 1 to b. */
static int build(struct net *n)
{
    struct switch_cfg c;
    char why[256];
    net_init(n, 1);
    uint32_t h0 = net_add_node(n, NODE_HOST, "h0"), h1 = net_add_node(n, NODE_HOST, "h1");
    uint32_t a = net_add_node(n, NODE_SWITCH, "a"), r0 = net_add_node(n, NODE_SWITCH, "r0");
    uint32_t r1 = net_add_node(n, NODE_SWITCH, "r1"), b = net_add_node(n, NODE_SWITCH, "b");
    net_add_link(n, h0, a, 40 * G, PS_PER_US);
    net_add_link(n, h1, b, 40 * G, PS_PER_US);
    net_link_set_longhaul(n, net_add_link(n, r0, r1, 200 * G, PS_PER_MS));
    net_add_link(n, a, r0, 200 * G, PS_PER_US);
    net_add_link(n, r1, b, 200 * G, PS_PER_US);
    test_swcfg(n, &c);
    if (net_finalize(n, &c, why, sizeof why)) {
        printf("  %s\n", why);
        return -1;
    }
    sp0 = calloc(1, sizeof *sp0);
    sp1 = calloc(1, sizeof *sp1);
    struct fc_swing_sw *st[2] = { sp0, sp1 };
    for (int i = 0; i < 2; i++) {
        struct sw *s = &n->sws[n->nodes[r0 + (uint32_t)i].idx];
        if (!st[i])
            return -1;
        if (fc_swing_is_relay(n, s, &st[i]->lh_local, &st[i]->dn_local))
            return -1;
        fc_dedicate_buffer(s, st[i]->lh_local, 50005164);
        fc_install(n, s, &fc_swing_ops, st[i]);
    }
    return 0;
}

TEST(relay_on_fabric)
{
    struct net n;
    CHECK(build(&n) == 0);
    uint32_t lh, dn;
    CHECK(fc_swing_is_relay(&n, &n.sws[n.nodes[2].idx], &lh, &dn) != 0);   /* a: 2 ports, none long-haul */
    CHECK(fc_swing_is_relay(&n, &n.sws[n.nodes[5].idx], &lh, &dn) != 0);   /* b */
    struct sw *r1 = &n.sws[n.nodes[4].idx];
    CHECK_EQ(st1.lh_local, 0);
    CHECK_EQ(st1.dn_local, 1);
    CHECK_EQ(r1->xoff[0], 50005164);             /* the relay buffer is the long-haul ingress's */
    uint32_t lhp = n.nodes[4].first_port, dnp = lhp + 1;
    uint8_t cls = n.cfg.data_prio;
    /* b pauses r1: r1 stops toward b and sends PAUSE over the long link. */
    port_set_pause(&n, dnp, cls, 1);
    CHECK(n.ports[dnp].paused >> cls & 1);
    CHECK_EQ(n.ports[lhp].st.pfc_sent, 1);
    CHECK_EQ(st1.r[cls].relayed_pause, 1);
    CHECK_EQ(st1.r[cls].sent, 1);
    /* A PAUSE for the control class is relayed for that class alone. */
    port_set_pause(&n, dnp, n.cfg.ctrl_prio, 1);
    CHECK_EQ(st1.r[n.cfg.ctrl_prio].relayed_pause, 1);
    CHECK_EQ(st1.r[cls].relayed_pause, 1);
    /* r0's long-haul port (the far end) is not touched by r1's state; a
     * pause of r0's port toward the long link is not relayed (not its
     * egress-switch port). */
    port_set_pause(&n, n.nodes[3].first_port + st0.lh_local, cls, 1);
    CHECK_EQ(st0.r[cls].relayed_pause, 0);
    /* b resumes: RESUME over the long link. */
    port_set_pause(&n, dnp, cls, 0);
    CHECK_EQ(st1.r[cls].relayed_resume, 1);
    CHECK_EQ(st1.r[cls].sent, 0);
    CHECK_EQ(n.ports[lhp].st.pfc_sent, 2);       /* XON frames are not counted */
    /* Forged input: a scheme frame (SWING has none) is refused with no
     * effect; a PAUSE naming a class out of range changes nothing. */
    uint64_t bad = n.fctl_bad;
    uint32_t pi = fc_new_frame(&n, 0x53);
    CHECK(pi != PKT_NONE);
    fc_receive(&n, lhp, pi);
    CHECK_EQ(n.fctl_bad, bad + 1);
    struct fc_swing_sw before = st1;
    r1->fc->on_pause(&n, r1, dnp, NCLASS + 1, 1);
    r1->fc->on_ingress(&n, r1, 0, NCLASS + 1, 1);
    CHECK(memcmp(&before, &st1, sizeof st1) == 0);
    CHECK(test_conserved(&n));
    net_free(&n);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_swing";
    RUN(decision_sequence);
    RUN(relay_buffer_size);
    RUN(relay_on_fabric);
    return test_summary();
}
