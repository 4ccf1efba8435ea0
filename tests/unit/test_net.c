/*
 * test_net.c -- the fabric model (net/net.h) on tiny hand-built topologies.
 *
 * Each test builds a network with the net API directly (nodes, links,
 * net_finalize with a switch configuration like the one scenario.c builds
 * from its defaults, flows with the line-rate transport), runs it, and
 * compares with numbers computed by hand in the comments: serialization and
 * propagation times, packet and hop counts, fair shares, PFC behaviour,
 * ECMP spreading, and the packet-conservation audit.
 *
 * Arithmetic used throughout (net.h / packet.h):
 *   data frame  = payload + 62 B (Eth 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4
 *                 + FCS 4); on the wire + 20 B preamble/SFD/IFG
 *   1000 B payload: 1062 B frame, 1082 B wire
 *   ACK frame   = 66 B, 86 B on the wire
 *   100 Gb/s    = 80 ps per byte: 1082 B -> 86560 ps, 86 B -> 6880 ps
 */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "net/net.h"

#include "test.h"
#include "test_fabric.h"


/* ------------------------------------------------------------ helpers */

/* Networks live here so that a failed CHECK (which returns from the test)
 * does not leak them: main() frees whatever is left after every test. */
#define MAX_NETS 3
static struct net nets_[MAX_NETS];
static int live_[MAX_NETS];

static struct net *new_net(uint64_t seed)
{
    for (int i = 0; i < MAX_NETS; i++) {
        if (!live_[i]) {
            if (net_init(&nets_[i], seed))
                return NULL;
            live_[i] = 1;
            return &nets_[i];
        }
    }
    return NULL;
}

static void free_nets(void)
{
    for (int i = 0; i < MAX_NETS; i++) {
        if (live_[i]) {
            net_free(&nets_[i]);
            live_[i] = 0;
        }
    }
}

#define RUN_NET(t) do { RUN(t); free_nets(); } while (0)

#define G100 100000000000ull
#define G40  40000000000ull
#define G10  10000000000ull
#define US   PS_PER_US

/* The switch configuration scenario.c builds from its defaults (lossless,
 * 32 MB shared buffer, static XOFF by link speed, HPCC MMU numbers). */
/* A flow between host indices with the line-rate transport (no CC). */
static uint32_t add_flow(struct net *n, uint32_t src, uint32_t dst, uint64_t size, simtime_t start, uint64_t hash)
{
    struct flow f;
    memset(&f, 0, sizeof f);
    f.src = src;
    f.dst = dst;
    f.prio = n->cfg.data_prio;
    f.size = size;
    if (size == UINT64_MAX)
        f.flags |= FL_ENDLESS;
    f.start_ps = start;
    f.stop_ps = SIMTIME_NEVER;
    f.tp = &transport_line;
    f.sport = (uint16_t)(10000 + n->n_flows);
    f.hash = hash;
    f.rhash = mix64(hash ^ 0x5bd1e995ull);
    return net_add_flow(n, &f);
}

static int finalize(struct net *n, const struct switch_cfg *c)
{
    char why[256];
    if (net_finalize(n, c, why, sizeof why)) {
        printf("  net_finalize: %s\n", why);
        return -1;
    }
    return 0;
}

static uint64_t total_dropped(const struct net *n)
{
    uint64_t d = 0;
    for (int t = 0; t < PKT_NTYPES; t++)
        d += n->dropped[t];
    return d;
}

/* h0 -- sw -- h1, both links at `rate` with `delay`.  Hosts: h0 = 0, h1 = 1. */
static struct net *line3(uint64_t seed, uint64_t rate, simtime_t delay, const struct switch_cfg *c)
{
    struct net *n = new_net(seed);
    if (!n)
        return NULL;
    uint32_t h0 = net_add_node(n, NODE_HOST, "h0");
    uint32_t sw = net_add_node(n, NODE_SWITCH, "sw");
    uint32_t h1 = net_add_node(n, NODE_HOST, "h1");
    net_add_link(n, h0, sw, rate, delay);
    net_add_link(n, sw, h1, rate, delay);
    struct switch_cfg dflt;
    if (!c) {
        test_swcfg(n, &dflt);
        c = &dflt;
    }
    return finalize(n, c) ? NULL : n;
}

/* Node ids of the incast3 topology (host indices are h0 = 0, h1 = 1, r = 2). */
enum { IN3_H0, IN3_H1, IN3_SW, IN3_R };

/* Adds h0 (at rate_h0), h1 (at rate) -- sw -- r (at rate), 1 us links, to an
 * empty net, for tests that configure the switch themselves. */
static void incast3_links(struct net *n, uint64_t rate_h0, uint64_t rate)
{
    net_add_node(n, NODE_HOST, "h0");
    net_add_node(n, NODE_HOST, "h1");
    net_add_node(n, NODE_SWITCH, "sw");
    net_add_node(n, NODE_HOST, "r");
    net_add_link(n, IN3_H0, IN3_SW, rate_h0, 1 * US);
    net_add_link(n, IN3_H1, IN3_SW, rate, 1 * US);
    net_add_link(n, IN3_SW, IN3_R, rate, 1 * US);
}

/* h0, h1 -- sw -- r, all at `rate`, 1 us, finalized with c (NULL: defaults). */
static struct net *incast3(uint64_t seed, uint64_t rate, const struct switch_cfg *c)
{
    struct net *n = new_net(seed);
    if (!n)
        return NULL;
    incast3_links(n, rate, rate);
    struct switch_cfg dflt;
    if (!c) {
        test_swcfg(n, &dflt);
        c = &dflt;
    }
    return finalize(n, c) ? NULL : n;
}

/* ------------------------------------------------------------ event order */

/* net_event_owner names the node whose state each kind of event touches. */
TEST(event_owner_by_kind)
{
    struct net *n = incast3(1, G100, NULL);
    CHECK(n);
    add_flow(n, 1, 2, 100000, 0, mix64(1));
    CHECK_EQ(net_flows_ready(n), 0);
    uint32_t p_h0 = n->hosts[0].port, p_sw_r = n->ports[n->hosts[2].port].peer;
    CHECK_EQ(net_event_owner(n, EV_TX_DONE, p_h0), IN3_H0);
    CHECK_EQ(net_event_owner(n, EV_WIRE, p_h0), IN3_SW);          /* the receiver */
    CHECK_EQ(net_event_owner(n, EV_WIRE, p_sw_r), IN3_R);
    CHECK_EQ(net_event_owner(n, EV_HOST_WAKE, 1), IN3_H1);
    CHECK_EQ(net_event_owner(n, EV_NIC_DELAY, 2), IN3_R);
    CHECK_EQ(net_event_owner(n, EV_FLOW_TIMER, 0), IN3_H1);       /* the flow's source */
    CHECK_EQ(net_event_owner(n, EV_FLOW_STOP, 0), IN3_H1);
    CHECK_EQ(net_event_owner(n, EV_FCTL, 0), IN3_SW);
    CHECK_EQ(net_event_owner(n, EV_FCTL_GATE, p_sw_r * NCLASS + 3), IN3_SW);
    CHECK_EQ(net_event_owner(n, EV_FLOW_START, 0), NONE32);
    CHECK_EQ(net_event_owner(n, EV_HOOK, 7), NONE32);
}

/* Set-up scheduling is keyed by the acting node: the keys of one node's
 * events do not depend on what was scheduled for other nodes, nor in
 * which order (what a process that builds only its own nodes' events
 * relies on).  EV_WIRE is the sender's act, EV_FLOW_START has key 0. */
TEST(setup_keys_by_owner)
{
    struct net *a = incast3(1, G100, NULL), *b = incast3(1, G100, NULL);
    CHECK(a && b);
    uint32_t p0 = a->hosts[0].port;
    net_schedule(a, 10, EV_TX_DONE, p0);
    net_schedule(a, 10, EV_HOST_WAKE, 1);
    net_schedule(a, 10, EV_WIRE, p0);
    net_schedule(a, 10, EV_FLOW_START, 0);
    net_schedule(b, 10, EV_HOST_WAKE, 1);      /* another order, and one event less */
    net_schedule(b, 10, EV_FLOW_START, 0);
    net_schedule(b, 10, EV_TX_DONE, p0);
    uint64_t ka[EV_NKINDS] = { 0 }, kb[EV_NKINDS] = { 0 };
    struct event ev;
    while (el_pop(&a->el, &ev))
        ka[ev.kind] = ev.seq;
    while (el_pop(&b->el, &ev))
        kb[ev.kind] = ev.seq;
    CHECK_EQ(ka[EV_TX_DONE], kb[EV_TX_DONE]);
    CHECK_EQ(ka[EV_HOST_WAKE], kb[EV_HOST_WAKE]);
    CHECK_EQ(net_key_lp(a, ka[EV_TX_DONE]), IN3_H0);
    CHECK_EQ(net_key_lp(a, ka[EV_HOST_WAKE]), IN3_H1);
    CHECK_EQ(net_key_lp(a, ka[EV_WIRE]), IN3_H0);                  /* the sender, not the receiver */
    CHECK(ka[EV_WIRE] != ka[EV_TX_DONE]);                           /* h0's next counter */
    CHECK_EQ(ka[EV_FLOW_START], 0);
    CHECK_EQ(kb[EV_FLOW_START], 0);
}

/* Keys are unique and name their LP, and neither the LP nor the counter
 * fixes the order of a tie: LP 0 comes first about half the time against
 * LP 1 at the same counter, and a later counter about half the time. */
TEST(keys_unique_and_ties_rotate)
{
    struct net *n = incast3(1, G100, NULL);
    CHECK(n);
    uint32_t lps = n->n_nodes + 1;
    enum { C = 256 };
    static uint64_t seen[C * 8];
    uint32_t k = 0, first0 = 0, later = 0, uniq = 1;
    for (uint64_t c = 1; c <= C; c++) {
        uint64_t kk[8];
        for (uint32_t lp = 0; lp < lps; lp++) {
            kk[lp] = net_key_mix(n, c << n->lp_bits | lp);
            if (net_key_lp(n, kk[lp]) != lp)
                uniq = 0;
            seen[k++] = kk[lp];
        }
        first0 += kk[0] < kk[1];
        later += net_key_mix(n, (c + 1) << n->lp_bits) < kk[0];
    }
    for (uint32_t i = 1; i < k; i++)
        if (seen[i] <= seen[i - 1] && seen[i] >> n->lp_bits == seen[i - 1] >> n->lp_bits && seen[i] == seen[i - 1])
            uniq = 0;
    for (uint32_t i = 0; i < k && uniq; i++)         /* quadratic, small */
        for (uint32_t j = i + 1; j < k; j++)
            if (seen[i] == seen[j]) {
                uniq = 0;
                break;
            }
    CHECK(uniq);
    CHECK(first0 > C / 4 && first0 < 3 * C / 4);     /* LP 0 first about half the time */
    CHECK(later > C / 4 && later < 3 * C / 4);       /* the counter does not decide either */
}

/* [sim] tie_seed: seed 0 is the default order; another seed keeps keys
 * naming their LP (so parallel runs still route injected frames) but
 * reorders about half of the ties of two LPs. */
TEST(tie_seed_reorders_ties_keeps_lp)
{
    struct net *n = incast3(1, G100, NULL);
    CHECK(n);
    enum { C = 256 };
    uint64_t k0[C][2];
    for (uint64_t c = 1; c <= C; c++)
        for (uint32_t lp = 0; lp < 2; lp++)
            k0[c - 1][lp] = net_key_mix(n, c << n->lp_bits | lp);
    net_set_tie_seed(n, 0);
    CHECK_EQ(net_key_mix(n, 5ull << n->lp_bits | 1), k0[4][1]);
    uint32_t flipped = 0, lp_ok = 1, changed = 0;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        net_set_tie_seed(n, seed);
        CHECK_EQ(n->tie_mul * n->tie_inv, 1);
        for (uint64_t c = 1; c <= C; c++) {
            uint64_t a = net_key_mix(n, c << n->lp_bits), b = net_key_mix(n, c << n->lp_bits | 1);
            lp_ok &= net_key_lp(n, a) == 0 && net_key_lp(n, b) == 1 && a != 0 && b != 0;
            changed += a != k0[c - 1][0];
            flipped += (a < b) != (k0[c - 1][0] < k0[c - 1][1]);
        }
    }
    CHECK(lp_ok);
    CHECK_EQ(changed, 3 * C);
    CHECK(flipped > 3 * C / 4 && flipped < 9 * C / 4);   /* about half of 3 C */
}

/* Every frame on a wire has its own EV_WIRE event, due at its arrival and
 * keyed by its sender (the node of the sending port). */
TEST(wire_events_per_frame_sender_keyed)
{
    struct net *n = incast3(1, G100, NULL);
    CHECK(n);
    add_flow(n, 0, 2, UINT64_MAX, 0, mix64(1));
    add_flow(n, 1, 2, UINT64_MAX, 0, mix64(2));
    CHECK_EQ(net_flows_ready(n), 0);
    net_run_until(n, 50 * US);
    uint64_t on_wires = 0, wire_events = 0, bad = 0;
    for (uint32_t p = 0; p < n->n_ports; p++)
        on_wires += n->ports[p].wire.count;
    struct event ev;
    while (el_pop(&n->el, &ev)) {
        if (ev.kind != EV_WIRE)
            continue;
        wire_events++;
        bad += net_key_lp(n, ev.seq) != n->ports[ev.obj].node;
    }
    CHECK(on_wires > 10);
    CHECK_EQ(wire_events, on_wires);
    CHECK_EQ(bad, 0);
}

/* ------------------------------------------------------------ timing */

TEST(tx_time_exact)
{
    /* ceil(bytes * 8 * 1e12 / rate) ps. */
    CHECK_EQ(tx_time_ps(1082, G100), 86560);      /* 1082 B * 80 ps */
    CHECK_EQ(tx_time_ps(86, G100), 6880);         /* ACK: 86 * 80 */
    CHECK_EQ(tx_time_ps(84, G100), 6720);         /* PFC: 64 + 20 */
    CHECK_EQ(tx_time_ps(9082, G100), 726560);     /* 9000 B payload jumbo */
    CHECK_EQ(tx_time_ps(1082, G40), 216400);      /* 200 ps/B */
    CHECK_EQ(tx_time_ps(86, G40), 17200);
    CHECK_EQ(tx_time_ps(1082, G10), 865600);      /* 800 ps/B */
    CHECK_EQ(tx_time_ps(1082, 25000000000ull), 346240);   /* 320 ps/B */
    CHECK_EQ(tx_time_ps(1082, 400000000000ull), 21640);   /* 20 ps/B */
    /* Odd rates round up: 8656 bits / 3 Gb/s = 2885333.33 ps -> 2885334;
     * / 7 Gb/s = 1236571.43 -> 1236572; / 12.345 Gb/s = 701174.56 -> 701175. */
    CHECK_EQ(tx_time_ps(1082, 3000000000ull), 2885334);
    CHECK_EQ(tx_time_ps(1082, 7000000000ull), 1236572);
    CHECK_EQ(tx_time_ps(1082, 12345000000ull), 701175);
    /* 1 B at 1 b/s is 8 s exactly; at 3 b/s 2.666...s rounds up. */
    CHECK_EQ(tx_time_ps(1, 1), 8 * PS_PER_S);
    CHECK_EQ(tx_time_ps(1, 3), 2666666666667ull);
    CHECK_EQ(tx_time_ps(0, G100), 0);
    /* Back-to-back frames at 40G: 10 frames take exactly 10 x 216400. */
    uint64_t sum = 0;
    for (int i = 0; i < 10; i++)
        sum += tx_time_ps(1082, G40);
    CHECK_EQ(sum, 2164000);
}

/* One flow of exactly 10 x 1000 B, h0 -> sw -> h1, 100G, 1 us links.
 *   h0 sends back to back: frame k (0..9) leaves h0 completely at
 *   (k+1) * 86560 ps and arrives at sw at (k+1) * 86560 + 1 us.
 *   The switch is store-and-forward and its egress is idle whenever a frame
 *   arrives (arrivals are exactly one serialization apart), so frame k
 *   leaves sw at (k+2) * 86560 + 1 us and reaches h1 at (k+2) * 86560 + 2 us.
 *   First frame at h1: 2 * 86560 + 2e6 = 2173120 ps.
 *   Last frame (k = 9) at h1: 11 * 86560 + 2e6 = 952160 + 2000000 = 2952160 ps.
 *   Its ACK (86 B wire = 6880 ps per hop, ctrl class, idle ports) reaches
 *   h0 at 2952160 + 2 * (6880 + 1e6) = 4965920 ps: the sender is done. */
TEST(single_flow_exact_timing)
{
    struct net *n = line3(1, G100, 1 * US, NULL);
    CHECK(n);
    uint32_t fi = add_flow(n, 0, 1, 10000, 0, 1);
    CHECK_EQ(fi, 0);
    CHECK_EQ(net_flows_ready(n), 0);
    const struct flow *f = &n->flows[0];

    net_run_until(n, 2173119);
    CHECK_EQ(f->rcv_nxt, 0);
    net_run_until(n, 2173120);
    CHECK_EQ(f->rcv_nxt, 1000);
    CHECK(test_conserved(n));           /* mid-run, packets on the wires */
    CHECK(n->pool.live > 0);

    net_run_until(n, 2952159);
    CHECK_EQ(f->rcv_nxt, 9000);
    CHECK(!(f->flags & FL_RX_DONE));
    CHECK(f->finish_ps == SIMTIME_NEVER);
    net_run_until(n, 2952160);
    CHECK_EQ(f->rcv_nxt, 10000);
    CHECK(f->flags & FL_RX_DONE);
    CHECK_EQ(f->finish_ps, 2952160);

    net_run_until(n, 4965919);
    CHECK(!(f->flags & FL_DONE));
    CHECK_EQ(f->snd_una, 9000);
    net_run_until(n, 4965920);
    CHECK(f->flags & FL_DONE);
    CHECK_EQ(f->snd_una, 10000);
    CHECK_EQ(n->flows_done, 1);

    net_run_until(n, 100 * US);
    CHECK_EQ(n->el.now, 100 * US);
    /* 10 data + 10 ACKs (ack_interval 1), each crossing 2 links: 40 hops. */
    CHECK_EQ(n->created[PKT_DATA], 10);
    CHECK_EQ(n->created[PKT_ACK], 10);
    CHECK_EQ(n->consumed[PKT_DATA], 10);
    CHECK_EQ(n->consumed[PKT_ACK], 10);
    CHECK_EQ(n->created[PKT_NACK] + n->created[PKT_CNP] + n->created[PKT_PFC], 0);
    CHECK_EQ(n->hops, 40);
    CHECK_EQ(total_dropped(n), 0);
    CHECK_EQ(n->delivered_bytes, 10000);
    CHECK_EQ(f->rx_wire_bytes, 10 * 1082);
    CHECK_EQ(f->retx_bytes, 0);
    CHECK_EQ(n->pool.live, 0);
    CHECK(test_conserved(n));

    uint32_t p_h0 = net_port_between(n, 0, 1), p_sw_h1 = net_port_between(n, 1, 2);
    uint32_t p_h1 = net_port_between(n, 2, 1), p_sw_h0 = net_port_between(n, 1, 0);
    CHECK(p_h0 != NONE32 && p_sw_h1 != NONE32 && p_h1 != NONE32 && p_sw_h0 != NONE32);
    CHECK_EQ(n->ports[p_h0].st.tx_pkts, 10);
    CHECK_EQ(n->ports[p_h0].st.tx_bytes, 10620);
    CHECK_EQ(n->ports[p_h0].st.tx_wire_bytes, 10820);
    CHECK_EQ(n->ports[p_h0].st.tx_data_bytes, 10000);
    CHECK_EQ(n->ports[p_sw_h1].st.tx_wire_bytes, 10820);
    CHECK_EQ(n->ports[p_h1].st.tx_pkts, 10);          /* ACKs */
    CHECK_EQ(n->ports[p_h1].st.tx_bytes, 660);
    CHECK_EQ(n->ports[p_sw_h0].st.tx_wire_bytes, 860);
    CHECK_EQ(n->ports[p_sw_h0].st.pfc_sent, 0);
}

/* A port whose rate does not divide 8e12 ps*b/s (7 Gb/s) has no exact
 * ps-per-byte and times frames with tx_time_ps's ceiling: one 1000 B frame
 * (1082 B on the wire) takes 1236572 ps per hop, so it reaches h1 at
 * 2 * 1236572 + 2 us = 4473144 ps.  At 25G (exact, 320 ps/B): 2 * 346240 +
 * 2 us = 2692480 ps. */
/* A NIC that sends both data and ACKs keeps an exact send plan.  h0 paces
 * its own flow at 1 Gb/s while it ACKs h1's line-rate flow.  The rate goes
 * up to 100 Gb/s while h0 serializes one of its data frames with an ACK
 * queued behind it: the new rate makes the flow ready at the end of that
 * frame, but the ACK goes first.  The next data frame must follow that ACK
 * at once -- not wait for the wake-up planned at the old 1 Gb/s pace (8.66
 * us later), as it did when a control frame left the plan stale. */
TEST(rate_increase_behind_control_frame)
{
    struct net *n = line3(1, G100, 1 * US, NULL);
    CHECK(n);
    CHECK_EQ(add_flow(n, 0, 1, UINT64_MAX, 0, 1), 0);
    CHECK_EQ(add_flow(n, 1, 0, UINT64_MAX, 0, 2), 1);
    CHECK_EQ(net_flows_ready(n), 0);
    struct flow *f = &n->flows[0];
    net_run_until(n, 0);
    flow_set_cc_rate(n, f, 1000000000ull);
    uint32_t port = n->hosts[0].port;
    const struct port *pt = &n->ports[port];
    simtime_t t = 5 * US;
    int found = 0;
    for (; t < 40 * US && !found; t += 1000) {
        net_run_until(n, t);
        found = pt->busy_until > t && pt->qmask && pt->wire.count &&
                pkt(&n->pool, pt->wire.tail)->type == PKT_DATA && pkt(&n->pool, pt->wire.tail)->flow == 0;
    }
    CHECK(found);
    simtime_t frame_end = pt->busy_until;
    flow_set_cc_rate(n, f, G100);
    net_run_until(n, frame_end + 6880);             /* the ACK: 86 B at 80 ps/B */
    /* The data frame (1082 B on the wire) started as the ACK ended. */
    CHECK_EQ(pt->busy_until, frame_end + 6880 + 1082 * 80);
    CHECK(pt->wire.count && pkt(&n->pool, pt->wire.tail)->type == PKT_DATA &&
          pkt(&n->pool, pt->wire.tail)->flow == 0);
    CHECK(test_conserved(n));
}

/* A transport whose every ACK raises its flow's rate to 100 Gb/s. */
static void up_on_ack(struct net *n, struct flow *f, const struct packet *p)
{
    (void)p;
    flow_set_cc_rate(n, f, G100);
}
static const struct transport_ops transport_up = { .name = "up", .on_ack = up_on_ack };

/* An ACK whose transport raises the rate kicks the idle NIC at once, and
 * the data frame that kick makes may need a slot the full packet pool does
 * not have: the pool grows (realloc) inside host_receive's on_ack call, so
 * host_receive must not read the ACK through its old address afterwards.
 * It did, and a 500 ms cross-datacenter HPCC run crashed when its pool went
 * past 65,536 frames.  Here h0 paces at 1 Gb/s, so its port idles between
 * frames; every free slot is taken before the ACK arrives. */
TEST(ack_kick_grows_pool)
{
    struct net *n = line3(1, G100, 1 * US, NULL);
    CHECK(n);
    CHECK_EQ(add_flow(n, 0, 1, UINT64_MAX, 0, 1), 0);
    struct flow *f = &n->flows[0];
    f->tp = &transport_up;
    CHECK_EQ(net_flows_ready(n), 0);
    net_run_until(n, 0);
    flow_set_cc_rate(n, f, 1000000000ull);
    net_run_until(n, 3 * US);
    const struct port *pt = &n->ports[n->hosts[0].port];
    CHECK(pt->busy_until < 3 * US);             /* idle: the next frame is paced for ~8.7 us */
    uint64_t sent0 = f->snd_nxt;
    uint32_t ack = net_new_packet(n, PKT_ACK);
    struct packet *p = pkt(&n->pool, ack);
    p->flow = 0;
    p->seq = f->snd_una;
    p->dst = 0;
    p->bytes = 66;
    uint32_t cap = n->pool.cap, k = 0;
    uint32_t *fill = malloc(cap * sizeof *fill);
    CHECK(fill);
    while (n->pool.free_head != PKT_NONE)
        fill[k++] = pool_get(&n->pool);
    host_receive(n, &n->hosts[0], ack);
    CHECK(n->pool.cap > cap);                   /* the kick's frame grew the pool */
    CHECK(f->snd_nxt > sent0);                  /* and left at once, at the new rate */
    CHECK(pt->busy_until > 3 * US);
    while (k)
        pool_put(&n->pool, fill[--k]);
    free(fill);
}

TEST(odd_rate_port_timing)
{
    struct net *n = line3(1, 7000000000ull, 1 * US, NULL);
    CHECK(n);
    add_flow(n, 0, 1, 1000, 0, 1);
    CHECK_EQ(net_flows_ready(n), 0);
    net_run_until(n, 1 * PS_PER_MS);
    CHECK_EQ(n->flows[0].finish_ps, 4473144);
    n = line3(1, 25000000000ull, 1 * US, NULL);
    CHECK(n);
    add_flow(n, 0, 1, 1000, 0, 1);
    CHECK_EQ(net_flows_ready(n), 0);
    net_run_until(n, 1 * PS_PER_MS);
    CHECK_EQ(n->flows[0].finish_ps, 2692480);
}

/* The same at 40G with 2.5 us links and a 2500 B flow (1000 + 1000 + 500):
 *   frames 1082, 1082, 582 B wire at 200 ps/B: 216400, 216400, 116400 ps.
 *   h0 finishes them at 216400, 432800, 549200; at sw + 2.5 us.
 *   sw egress: frame 0 from 2716400 to 2932800, frame 1 from 2932800 to
 *   3149200, frame 2 arrives 3049200 but waits until 3149200 (still sending
 *   frame 1), leaves 3265600, arrives h1 at 3265600 + 2.5e6 = 5765600. */
TEST(short_last_frame_timing)
{
    struct net *n = line3(1, G40, 2500000, NULL);
    CHECK(n);
    add_flow(n, 0, 1, 2500, 0, 1);
    CHECK_EQ(net_flows_ready(n), 0);
    net_run_until(n, 1 * PS_PER_MS);
    const struct flow *f = &n->flows[0];
    CHECK_EQ(f->finish_ps, 5765600);
    CHECK_EQ(f->rx_wire_bytes, 1082 + 1082 + 582);
    CHECK(f->flags & FL_DONE);
    CHECK(test_conserved(n));
}

/* ------------------------------------------------------------ sharing */

/* h0 and h1 send endless flows at line rate (100G) through sw to r; the
 * sw->r port is the bottleneck and serves its FIFO data class in arrival
 * order, so each flow gets half of it.  Window 200 us..1 ms: the link
 * carries 100e9 / 8 * 800e-6 = 10,000,000 wire bytes, 5,000,000 each. */
TEST(two_flows_share_bottleneck)
{
    struct net *n = incast3(1, G100, NULL);
    CHECK(n);
    add_flow(n, 0, 2, UINT64_MAX, 0, mix64(1));
    add_flow(n, 1, 2, UINT64_MAX, 0, mix64(2));
    CHECK_EQ(net_flows_ready(n), 0);
    net_run_until(n, 200 * US);
    uint64_t a0 = n->flows[0].rx_wire_bytes, b0 = n->flows[1].rx_wire_bytes;
    net_run_until(n, 1000 * US);
    uint64_t a = n->flows[0].rx_wire_bytes - a0, b = n->flows[1].rx_wire_bytes - b0;
    double total = (double)(a + b);
    CHECK_NEAR(total, 10000000.0, 0.01 * 10000000.0);
    CHECK_NEAR((double)a, total / 2, 0.02 * total / 2);
    CHECK_NEAR((double)b, total / 2, 0.02 * total / 2);
    CHECK_EQ(total_dropped(n), 0);
    CHECK(test_conserved(n));
}

/* An event budget on a backlogged port: with one pending event per busy
 * port direction (net.h), a saturated run costs about one WIRE event per
 * hop plus one TX_DONE per frame sent from a queue -- not more.  (Catches
 * stale transmit-done events multiplying.) */
TEST(backlog_event_budget)
{
    struct net *n = incast3(1, G100, NULL);
    CHECK(n);
    add_flow(n, 0, 2, UINT64_MAX, 0, mix64(1));
    add_flow(n, 1, 2, UINT64_MAX, 0, mix64(2));
    CHECK_EQ(net_flows_ready(n), 0);
    net_run_until(n, 2000 * US);
    CHECK(n->hops > 50000);
    double per_hop = (double)n->el.n_fired / (double)n->hops;
    if (per_hop > 2.5)
        printf("  %.2f events per hop (%llu events, %llu hops)\n", per_hop,
               (unsigned long long)n->el.n_fired, (unsigned long long)n->hops);
    CHECK(per_hop <= 2.5);
    /* Bounded by busy resources: one event per frame on a wire (each has
     * its own arrival, net.h "Event order"), the rest a few per port. */
    uint64_t on_wires = 0;
    for (uint32_t p = 0; p < n->n_ports; p++)
        on_wires += n->ports[p].wire.count;
    CHECK(el_pending(&n->el) < 64 + on_wires);
    CHECK(el_pending(&n->el) >= on_wires);
}

/* A 40G sender and a 100G sender into a 100G bottleneck with PFC: 140G
 * offered, so the switch pauses the senders, yet the bottleneck must stay
 * busy (receive total within 1% of its capacity) and nothing drops. */
TEST(mixed_speed_fill_bottleneck)
{
    struct net *n = new_net(3);
    CHECK(n);
    incast3_links(n, G40, G100);
    struct switch_cfg c;
    test_swcfg(n, &c);
    CHECK_EQ(finalize(n, &c), 0);
    add_flow(n, 0, 2, UINT64_MAX, 0, 11);
    add_flow(n, 1, 2, UINT64_MAX, 0, 12);
    CHECK_EQ(net_flows_ready(n), 0);
    net_run_until(n, 300 * US);
    uint64_t a0 = n->flows[0].rx_wire_bytes, b0 = n->flows[1].rx_wire_bytes;
    net_run_until(n, 1300 * US);
    uint64_t a = n->flows[0].rx_wire_bytes - a0, b = n->flows[1].rx_wire_bytes - b0;
    /* 100e9 / 8 * 1e-3 = 12,500,000 wire bytes in 1 ms. */
    CHECK_NEAR((double)(a + b), 12500000.0, 125000.0);
    /* The 40G sender can never exceed its own line: 5,000,000 B. */
    CHECK(a <= 5000000 + 1082);
    CHECK_EQ(total_dropped(n), 0);
    CHECK(test_conserved(n));
}

/* ------------------------------------------------------------ PFC */

/* Two line-rate senders of 300 KB each into one 100G port through a switch
 * with a tiny buffer.  Per switch port: reserve 4000 B x 2 classes (data +
 * control) and auto headroom 2 * 1082 + 2 * 12.5e9 B/s * 1 us + 3072 =
 * 30236 B for the one lossless class: 38236 B; three ports: 114708 B.
 * A 160000 B buffer leaves 45292 B shared; static XOFF at 20000 B per
 * ingress.  The incast exceeds that within microseconds, so the switch
 * must pause both senders -- and lose nothing. */
TEST(pfc_tiny_buffer_lossless)
{
    struct switch_cfg c;
    struct net *n = new_net(1);
    CHECK(n);
    incast3_links(n, G100, G100);
    test_swcfg(n, &c);
    c.buffer_bytes = 160000;
    c.xoff_bytes = 20000;
    CHECK_EQ(finalize(n, &c), 0);
    const struct sw *s = &n->sws[0];
    CHECK_EQ(s->shared_pool, 160000 - 114708);
    CHECK_EQ(s->hdrm_limit[0], 30236);
    add_flow(n, 0, 2, 300000, 0, 1);
    add_flow(n, 1, 2, 300000, 0, 2);
    CHECK_EQ(net_flows_ready(n), 0);
    net_run_until(n, 2 * PS_PER_MS);

    uint32_t sw_h0 = net_port_between(n, IN3_SW, IN3_H0), sw_h1 = net_port_between(n, IN3_SW, IN3_H1);
    uint32_t p_h0 = net_port_between(n, IN3_H0, IN3_SW), p_h1 = net_port_between(n, IN3_H1, IN3_SW);
    uint8_t cls = n->cfg.data_prio;
    CHECK_EQ(total_dropped(n), 0);
    for (uint32_t p = 0; p < n->n_ports; p++)
        CHECK_EQ(n->ports[p].st.drops, 0);
    CHECK(n->ports[sw_h0].st.pfc_sent > 0);
    CHECK(n->ports[sw_h1].st.pfc_sent > 0);
    CHECK(n->ports[p_h0].st.pfc_rcvd > 0);
    CHECK(n->ports[p_h1].st.pfc_rcvd > 0);
    CHECK(n->ports[p_h0].st.paused_ps[cls] > 0);
    CHECK(n->ports[p_h1].st.paused_ps[cls] > 0);
    CHECK_EQ(n->ports[p_h0].paused, 0);  /* every XOFF was followed by XON */
    CHECK_EQ(n->ports[p_h1].paused, 0);
    CHECK(s->peak_used <= c.buffer_bytes);
    CHECK_EQ(n->flows_done, 2);
    CHECK_EQ(n->flows[0].rcv_nxt, 300000);
    CHECK_EQ(n->flows[1].rcv_nxt, 300000);
    CHECK_EQ(n->delivered_bytes, 600000);
    CHECK_EQ(n->flows[0].retx_bytes + n->flows[1].retx_bytes, 0);
    /* Every PFC frame crossed its link and was consumed there. */
    CHECK_EQ(n->created[PKT_PFC], n->consumed[PKT_PFC]);
    CHECK_EQ(s->shared_used + s->hdrm_used + s->reserve_used + s->ctrl_used, 0);
    CHECK_EQ(n->pool.live, 0);
    CHECK(test_conserved(n));
}

/* Lossy mode, same tiny buffer: tail drops happen, go-back-N recovers, and
 * every byte still arrives exactly once in order. */
TEST(lossy_tiny_buffer_recovers)
{
    struct switch_cfg c;
    struct net *n = new_net(1);
    CHECK(n);
    incast3_links(n, G100, G100);
    test_swcfg(n, &c);
    c.pfc = 0;
    c.buffer_bytes = 60000;
    n->cfg.rto_ps = 100 * US;
    n->cfg.nack_interval_ps = 100 * US;
    CHECK_EQ(finalize(n, &c), 0);
    add_flow(n, 0, 2, 300000, 0, 1);
    add_flow(n, 1, 2, 300000, 0, 2);
    CHECK_EQ(net_flows_ready(n), 0);
    net_run_until(n, 20 * PS_PER_MS);
    CHECK(n->dropped[PKT_DATA] > 0);
    CHECK_EQ(n->created[PKT_PFC], 0);
    CHECK(n->flows[0].retx_bytes + n->flows[1].retx_bytes > 0);
    CHECK_EQ(n->flows_done, 2);
    CHECK_EQ(n->flows[0].rcv_nxt, 300000);
    CHECK_EQ(n->flows[1].rcv_nxt, 300000);
    CHECK_EQ(n->delivered_bytes, 600000);
    CHECK(test_conserved(n));
}

/* ------------------------------------------------------------ routing */

TEST(disconnected_topology_fails)
{
    struct net *n = new_net(1);
    CHECK(n);
    uint32_t a = net_add_node(n, NODE_HOST, "alpha");
    uint32_t sa = net_add_node(n, NODE_SWITCH, "swA");
    uint32_t b = net_add_node(n, NODE_HOST, "beta");
    uint32_t sb = net_add_node(n, NODE_SWITCH, "swB");
    net_add_link(n, a, sa, G100, 1 * US);
    net_add_link(n, b, sb, G100, 1 * US);
    struct switch_cfg c;
    test_swcfg(n, &c);
    char why[256] = "";
    CHECK_EQ(net_finalize(n, &c, why, sizeof why), -1);
    CHECK(strstr(why, "disconnected") != NULL);
    /* It names one node on each side of the cut. */
    CHECK(strstr(why, "alpha") || strstr(why, "swA"));
    CHECK(strstr(why, "beta") || strstr(why, "swB"));
}

TEST(bad_links_fail)
{
    struct switch_cfg c;
    char why[256] = "";
    /* A host with two NIC ports. */
    struct net *n = new_net(1);
    CHECK(n);
    uint32_t h = net_add_node(n, NODE_HOST, "twohomed");
    uint32_t s0 = net_add_node(n, NODE_SWITCH, "s0");
    uint32_t s1 = net_add_node(n, NODE_SWITCH, "s1");
    uint32_t h2 = net_add_node(n, NODE_HOST, "other");
    net_add_link(n, h, s0, G100, 1 * US);
    net_add_link(n, h, s1, G100, 1 * US);
    net_add_link(n, s0, h2, G100, 1 * US);
    net_add_link(n, s1, s0, G100, 1 * US);
    test_swcfg(n, &c);
    CHECK_EQ(net_finalize(n, &c, why, sizeof why), -1);
    CHECK(strstr(why, "twohomed") != NULL);
    free_nets();
    /* A link from a node to itself. */
    n = new_net(1);
    CHECK(n);
    uint32_t x = net_add_node(n, NODE_HOST, "hx");
    uint32_t s = net_add_node(n, NODE_SWITCH, "loopy");
    net_add_link(n, x, s, G100, 1 * US);
    net_add_link(n, s, s, G100, 1 * US);
    why[0] = 0;
    CHECK_EQ(net_finalize(n, &c, why, sizeof why), -1);
    CHECK(strstr(why, "loopy") != NULL);
    free_nets();
    /* A buffer smaller than its reserves and headroom. */
    n = new_net(1);
    CHECK(n);
    x = net_add_node(n, NODE_HOST, "hx");
    s = net_add_node(n, NODE_SWITCH, "tiny");
    uint32_t y = net_add_node(n, NODE_HOST, "hy");
    net_add_link(n, x, s, G100, 1 * US);
    net_add_link(n, s, y, G100, 1 * US);
    c.buffer_bytes = 50000;              /* 2 ports x 38236 B needed */
    why[0] = 0;
    CHECK_EQ(net_finalize(n, &c, why, sizeof why), -1);
    CHECK(strstr(why, "tiny") != NULL);
}

/* h0 - s0 = {s1, s2} = s3 - h1: two equal-cost paths. */
static struct net *diamond(uint64_t seed, uint32_t nflows)
{
    struct net *n = new_net(seed);
    if (!n)
        return NULL;
    uint32_t h0 = net_add_node(n, NODE_HOST, "h0");
    uint32_t s0 = net_add_node(n, NODE_SWITCH, "s0");
    uint32_t s1 = net_add_node(n, NODE_SWITCH, "s1");
    uint32_t s2 = net_add_node(n, NODE_SWITCH, "s2");
    uint32_t s3 = net_add_node(n, NODE_SWITCH, "s3");
    uint32_t h1 = net_add_node(n, NODE_HOST, "h1");
    net_add_link(n, h0, s0, G100, 1 * US);
    net_add_link(n, s0, s1, G100, 1 * US);
    net_add_link(n, s0, s2, G100, 1 * US);
    net_add_link(n, s1, s3, G100, 1 * US);
    net_add_link(n, s2, s3, G100, 1 * US);
    net_add_link(n, s3, h1, G100, 1 * US);
    struct switch_cfg c;
    test_swcfg(n, &c);
    if (finalize(n, &c))
        return NULL;
    for (uint32_t i = 0; i < nflows; i++)
        add_flow(n, 0, 1, 3000, (simtime_t)i * 100000, mix64(1000 + i));
    if (net_flows_ready(n))
        return NULL;
    return n;
}

enum { DIAMOND_FLOWS = 64 };

TEST(ecmp_diamond_spreads)
{
    struct net *n = diamond(7, DIAMOND_FLOWS);
    CHECK(n);
    const uint32_t s0 = 1, s1 = 2, s2 = 3, s3 = 4;
    uint32_t up1 = net_port_between(n, s0, s1), up2 = net_port_between(n, s0, s2);
    uint32_t dn1 = net_port_between(n, s3, s1), dn2 = net_port_between(n, s3, s2);
    /* Two next hops from s0 toward h1 (host 1), and from s3 toward h0. */
    CHECK_EQ(net_route_count(n, s0, 1), 2);
    CHECK_EQ(net_route_count(n, s3, 0), 2);
    CHECK_EQ(net_route_count(n, s1, 1), 1);
    uint32_t on1 = 0;
    for (uint32_t i = 0; i < n->n_flows; i++) {
        uint32_t p = net_route(n, s0, 1, n->flows[i].hash);
        CHECK(p == up1 || p == up2);
        /* the same flow always takes the same port */
        CHECK_EQ(net_route(n, s0, 1, n->flows[i].hash), p);
        on1 += p == up1;
    }
    net_run_until(n, 1 * PS_PER_MS);
    CHECK_EQ(n->flows_done, DIAMOND_FLOWS);
    CHECK(test_conserved(n));
    /* Both uplinks carry data, and exactly the flows routed there. */
    uint64_t d1 = n->ports[up1].st.tx_data_bytes, d2 = n->ports[up2].st.tx_data_bytes;
    CHECK(d1 > 0 && d2 > 0);
    CHECK_EQ(d1, (uint64_t)on1 * 3000);
    CHECK_EQ(d1 + d2, (uint64_t)DIAMOND_FLOWS * 3000);
    /* 64 flows over 2 paths: neither gets fewer than a quarter. */
    CHECK(on1 >= DIAMOND_FLOWS / 4 && on1 <= DIAMOND_FLOWS * 3 / 4);
    /* ACKs come back over both paths too. */
    CHECK(n->ports[dn1].st.tx_pkts > 0 && n->ports[dn2].st.tx_pkts > 0);
    CHECK_EQ(n->ports[dn1].st.tx_pkts + n->ports[dn2].st.tx_pkts, (uint64_t)DIAMOND_FLOWS * 3);
}

TEST(ecmp_deterministic_for_seed)
{
    struct net *a = diamond(7, DIAMOND_FLOWS), *b = diamond(7, DIAMOND_FLOWS), *c = diamond(8, DIAMOND_FLOWS);
    CHECK(a && b && c);
    const uint32_t s0 = 1, s3 = 4;
    uint32_t differ = 0;
    for (uint32_t i = 0; i < DIAMOND_FLOWS; i++) {
        CHECK_EQ(net_route(a, s0, 1, a->flows[i].hash), net_route(b, s0, 1, b->flows[i].hash));
        CHECK_EQ(net_route(a, s3, 0, a->flows[i].rhash), net_route(b, s3, 0, b->flows[i].rhash));
        differ += net_route(a, s0, 1, a->flows[i].hash) != net_route(c, s0, 1, c->flows[i].hash);
    }
    /* Another seed gives s0 another ECMP seed: some flows move. */
    CHECK(differ > 0);
    net_run_until(a, 1 * PS_PER_MS);
    net_run_until(b, 1 * PS_PER_MS);
    CHECK_EQ(a->el.n_fired, b->el.n_fired);
    CHECK_EQ(a->hops, b->hops);
    for (uint32_t p = 0; p < a->n_ports; p++) {
        CHECK_EQ(a->ports[p].st.tx_pkts, b->ports[p].st.tx_pkts);
        CHECK_EQ(a->ports[p].st.tx_data_bytes, b->ports[p].st.tx_data_bytes);
    }
    for (uint32_t i = 0; i < DIAMOND_FLOWS; i++)
        CHECK_EQ(a->flows[i].finish_ps, b->flows[i].finish_ps);
}

/* ------------------------------------------------------------ audit */

TEST(conservation_audit)
{
    char why[256];
    struct net *n = line3(1, G100, 1 * US, NULL);
    CHECK(n);
    add_flow(n, 0, 1, 50000, 0, 1);
    CHECK_EQ(net_flows_ready(n), 0);
    /* Mid-run: frames queued and on the wires are all accounted for. */
    net_run_until(n, 1500000);
    CHECK(n->pool.live > 0);
    CHECK_EQ(net_check_conservation(n, why, sizeof why), 0);
    net_run_until(n, 1 * PS_PER_MS);
    CHECK_EQ(n->flows_done, 1);
    CHECK_EQ(net_check_conservation(n, why, sizeof why), 0);

    /* A packet taken from the pool and put nowhere is a leak. */
    uint32_t leak = pool_get(&n->pool);
    CHECK(leak != PKT_NONE);
    why[0] = 0;
    CHECK_EQ(net_check_conservation(n, why, sizeof why), -1);
    CHECK(strstr(why, "conservation") != NULL);
    pool_put(&n->pool, leak);
    CHECK_EQ(net_check_conservation(n, why, sizeof why), 0);

    /* The same through the model's allocator (counted as created). */
    uint32_t made = net_new_packet(n, PKT_DATA);
    CHECK(made != PKT_NONE);
    why[0] = 0;
    CHECK_EQ(net_check_conservation(n, why, sizeof why), -1);
    CHECK(strstr(why, "conservation") != NULL);
    net_consume(n, made);
    CHECK_EQ(net_check_conservation(n, why, sizeof why), 0);

    /* A packet counted as consumed but still sitting in a queue. */
    uint32_t q = net_new_packet(n, PKT_ACK);
    CHECK(q != PKT_NONE);
    pkt(&n->pool, q)->bytes = ROCE_ACK_FRAME;
    port_q_push(n, &n->ports[0], 1, q);
    CHECK_EQ(net_check_conservation(n, why, sizeof why), 0);
    n->consumed[PKT_ACK]++;
    CHECK_EQ(net_check_conservation(n, why, sizeof why), -1);
    n->consumed[PKT_ACK]--;
    port_q_pop(n, &n->ports[0], 1);
    net_consume(n, q);
    CHECK_EQ(net_check_conservation(n, why, sizeof why), 0);

    /* A frame queued behind the scheduler's back: qmask does not show it. */
    uint32_t r = net_new_packet(n, PKT_ACK);
    CHECK(r != PKT_NONE);
    pkt(&n->pool, r)->bytes = ROCE_ACK_FRAME;
    pktq_push(&n->pool, &n->ports[0].q[2], r);
    why[0] = 0;
    CHECK_EQ(net_check_conservation(n, why, sizeof why), -1);
    CHECK(strstr(why, "qmask") != NULL);
    n->ports[0].qmask |= 1u << 2;
    CHECK_EQ(net_check_conservation(n, why, sizeof why), 0);
    port_q_pop(n, &n->ports[0], 2);
    net_consume(n, r);
    CHECK_EQ(net_check_conservation(n, why, sizeof why), 0);
}

int main(void)
{
    test_binary_ = "test_net";
    test_crash_guard();
    RUN_NET(event_owner_by_kind);
    RUN_NET(setup_keys_by_owner);
    RUN_NET(keys_unique_and_ties_rotate);
    RUN_NET(tie_seed_reorders_ties_keeps_lp);
    RUN_NET(wire_events_per_frame_sender_keyed);
    RUN_NET(tx_time_exact);
    RUN_NET(single_flow_exact_timing);
    RUN_NET(rate_increase_behind_control_frame);
    RUN_NET(ack_kick_grows_pool);
    RUN_NET(odd_rate_port_timing);
    RUN_NET(short_last_frame_timing);
    RUN_NET(two_flows_share_bottleneck);
    RUN_NET(backlog_event_budget);
    RUN_NET(mixed_speed_fill_bottleneck);
    RUN_NET(pfc_tiny_buffer_lossless);
    RUN_NET(lossy_tiny_buffer_recovers);
    RUN_NET(disconnected_topology_fails);
    RUN_NET(bad_links_fail);
    RUN_NET(ecmp_diamond_spreads);
    RUN_NET(ecmp_deterministic_for_seed);
    RUN_NET(conservation_audit);
    return test_summary();
}
