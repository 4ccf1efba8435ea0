/*
 * test_pacer.c -- the NIC pacer keeps each flow's schedule (host.c).
 *
 * Several flows share one sending NIC, each capped below line rate, with
 * caps that together fit the NIC.  A frame that waits behind another
 * flow's frame is late; the pacer must let the flow make that time up
 * (within its burst bound), or paced flows lock together and the faster
 * ones lose rate: 5.7, 4.42 and 4.9 Gb/s on a 40 Gb/s NIC measured 5.69,
 * 4.27 and 4.27 Gb/s when the next send time counted from the moment the
 * frame left.  Every cap must be met within 0.5%.
 *
 * Topology: h0 -- sw -- h1, 1 us links, all flows h0 -> h1 with the
 * line-rate transport (no CC): a flow's pacing rate is its cap.  A rate is
 * the flow's in-order wire bytes received at h1 (frame + 20 B preamble and
 * IFG, what the pacer meters) over a window that starts after the first
 * frames are in flight; one frame more or less is < 0.1% for every rate
 * used here.
 */
#include "net/net.h"

#include "test.h"

#define G  1000000000ull
#define US PS_PER_US
#define MS PS_PER_MS
#define WIRE 1082                        /* 1000 B payload + 62 + 20 */

static struct net net_;
static int live_;

static struct net *line3(uint64_t rate)
{
    if (live_)
        net_free(&net_);
    live_ = 0;
    if (net_init(&net_, 1))
        return NULL;
    live_ = 1;
    struct net *n = &net_;
    uint32_t h0 = net_add_node(n, NODE_HOST, "h0");
    uint32_t sw = net_add_node(n, NODE_SWITCH, "sw");
    uint32_t h1 = net_add_node(n, NODE_HOST, "h1");
    net_add_link(n, h0, sw, rate, 1 * US);
    net_add_link(n, sw, h1, rate, 1 * US);
    struct switch_cfg c;
    memset(&c, 0, sizeof c);
    c.buffer_bytes = 32000000;
    c.pfc = 1;
    c.reserve_bytes = 4000;
    c.alpha = 0.125;
    c.xon_offset = 3000;
    for (int i = 0; i < NCLASS; i++)
        c.quantum[i] = 9000;
    c.lossless_mask = (uint8_t)(1u << n->cfg.data_prio);
    c.strict_mask = (uint8_t)(1u << n->cfg.ctrl_prio);
    char why[256];
    if (net_finalize(n, &c, why, sizeof why)) {
        printf("  net_finalize: %s\n", why);
        return NULL;
    }
    return n;
}

/* An endless h0 -> h1 flow capped at `cap` b/s. */
static uint32_t capped(struct net *n, uint64_t cap)
{
    struct flow f;
    memset(&f, 0, sizeof f);
    f.src = 0;
    f.dst = 1;
    f.prio = n->cfg.data_prio;
    f.size = UINT64_MAX;
    f.flags = FL_ENDLESS;
    f.stop_ps = SIMTIME_NEVER;
    f.app_rate_bps = cap;
    f.tp = &transport_line;
    f.sport = (uint16_t)(10000 + n->n_flows);
    f.hash = mix64(n->n_flows + 1);
    f.rhash = mix64(f.hash);
    return net_add_flow(n, &f);
}

/* Runs [from, to] and checks every flow's received rate against want[]
 * within 0.5%, printing what each got. */
static int rates_met(struct net *n, simtime_t from, simtime_t to, const uint64_t *want)
{
    uint64_t b0[16];
    int ok = 1;
    net_run_until(n, from);
    for (uint32_t i = 0; i < n->n_flows; i++)
        b0[i] = n->flows[i].rx_wire_bytes;
    net_run_until(n, to);
    for (uint32_t i = 0; i < n->n_flows; i++) {
        double got = (double)(n->flows[i].rx_wire_bytes - b0[i]) * 8 * PS_PER_S / (double)(to - from);
        double err = got / (double)want[i] - 1;
        if (err < -0.005 || err > 0.005) {
            printf("  flow %u: cap %.4f Gb/s, got %.4f Gb/s (%+.2f%%)\n", i, (double)want[i] / G, got / G,
                   100 * err);
            ok = 0;
        }
    }
    return ok;
}

static int start_capped(struct net *n, const uint64_t *caps, uint32_t k)
{
    for (uint32_t i = 0; i < k; i++)
        if (capped(n, caps[i]) != i)
            return -1;
    return net_flows_ready(n);
}

/* The case from the issue: 5.7 + 4.42 + 4.9 Gb/s on an idle 40 Gb/s NIC
 * (it got 5.69, 4.27, 4.27 Gb/s). */
TEST(three_caps_one_nic)
{
    static const uint64_t caps[] = { 5700000000ull, 4420000000ull, 4900000000ull };
    struct net *n = line3(40 * G);
    CHECK(n);
    CHECK_EQ(start_capped(n, caps, 3), 0);
    CHECK(rates_met(n, 1 * MS, 11 * MS, caps));
}

/* Eight unequal caps that add up to 95% of a 100 Gb/s NIC (the largest,
 * 30 Gb/s, has a gap of 3.3 frames at line rate: a round of the other seven
 * flows delays it by more than one of its own gaps). */
static const uint64_t caps8[] = { 30 * G, 20 * G, 15 * G, 10 * G, 8 * G, 6 * G, 4 * G, 2 * G };

TEST(eight_caps_95_percent)
{
    struct net *n = line3(100 * G);
    CHECK(n);
    CHECK_EQ(start_capped(n, caps8, 8), 0);
    CHECK(rates_met(n, 1 * MS, 11 * MS, caps8));
}

/* One flow at half the NIC and fifteen equal small ones: the small flows'
 * slots stay in phase (same cap, same start), so all sixteen are due at
 * once every 30 line-rate frames, and the large flow then waits a whole
 * round -- 15 frames, 7.5 of its own gaps.  A burst bound of a few own
 * frames loses the difference every time; one round of the NIC does not. */
TEST(one_large_fifteen_in_phase)
{
    uint64_t caps[16];
    caps[0] = 50 * G;
    for (int i = 1; i < 16; i++)
        caps[i] = 3 * G;                 /* 50 + 45 = 95% of 100 Gb/s */
    struct net *n = line3(100 * G);
    CHECK(n);
    CHECK_EQ(start_capped(n, caps, 16), 0);
    CHECK(rates_met(n, 1 * MS, 11 * MS, caps));
}

/* The pacing rate changes mid-run, as a CC changes it (flow_set_cc_rate):
 * each flow meets its new rate from 20 us on, whether it went up or down. */
TEST(rate_change_mid_run)
{
    static const uint64_t after[] = { 6 * G, 25 * G, 10 * G, 20 * G, 2 * G, 15 * G, 12 * G, 5 * G };
    static const uint64_t line[8] = { 0 };     /* no application cap */
    struct net *n = line3(100 * G);
    CHECK(n);
    CHECK_EQ(start_capped(n, line, 8), 0);
    net_run_until(n, 0);
    for (uint32_t i = 0; i < 8; i++)
        flow_set_cc_rate(n, &n->flows[i], caps8[i]);
    CHECK(rates_met(n, 1 * MS, 6 * MS, caps8));
    for (uint32_t i = 0; i < 8; i++)
        flow_set_cc_rate(n, &n->flows[i], after[i]);
    CHECK(rates_met(n, 6 * MS + 20 * US, 11 * MS, after));
}

/* The credit is bounded.  A 1 Gb/s flow (gap 8.656 us) alone on a 40G NIC
 * is held back for 58.8 us by 3000 control frames (CNPs, 98 B on the wire,
 * 19.6 ns each) queued on its port at 100 us: its slot at 103.872 us is
 * 54.9 us late when they end.  It may make up at most its burst bound,
 * max(one gap, one round of the NIC at line rate) = one gap here, so
 * exactly two frames leave back to back and the third one gap later -- not
 * the seven the stall cost.  pacer_burst scales the bound. */
static int frames_after_stall(uint32_t burst, uint64_t *early, uint64_t *later)
{
    static const uint64_t cap[] = { 1 * G };
    struct net *n = line3(40 * G);
    if (!n)
        return -1;
    n->cfg.pacer_burst = burst;
    if (start_capped(n, cap, 1))
        return -1;
    struct flow *f = &n->flows[0];
    net_run_until(n, 100 * US);
    for (int i = 0; i < 3000; i++) {
        uint32_t pi = net_new_packet(n, PKT_CNP);
        if (pi == PKT_NONE)
            return -1;
        struct packet *p = pkt(&n->pool, pi);
        p->flow = 0;
        p->dst = 1;
        p->bytes = ROCE_CNP_FRAME;
        p->prio = n->cfg.ctrl_prio;
        port_enqueue_ctrl(n, n->hosts[0].port, pi);
    }
    simtime_t end = 100 * US + 3000 * 98 * 200;    /* 158.8 us */
    net_run_until(n, end - 1);
    uint64_t sent = f->snd_nxt;
    net_run_until(n, end + 8 * US);                 /* less than one gap */
    *early = (f->snd_nxt - sent) / 1000;
    net_run_until(n, end + 9 * US);                 /* one gap after the stall */
    *later = (f->snd_nxt - sent) / 1000;
    return 0;
}

TEST(credit_bounded_after_stall)
{
    uint64_t early, later;
    CHECK_EQ(frames_after_stall(1, &early, &later), 0);      /* the default */
    CHECK_EQ(early, 2);
    CHECK_EQ(later, 3);
    /* network.pacer_burst = 3: three gaps of credit, four frames at once,
     * then the schedule again: the fifth one gap after the stall. */
    CHECK_EQ(frames_after_stall(3, &early, &later), 0);
    CHECK_EQ(early, 4);
    CHECK_EQ(later, 5);
    /* 0: no credit at all (the pacer before issue 11). */
    CHECK_EQ(frames_after_stall(0, &early, &later), 0);
    CHECK_EQ(early, 1);
    CHECK_EQ(later, 2);
}

/* A PFC pause is the network's time: the flow banks none of it.  The same
 * flow paused for 1 ms sends one frame on resume, the next one gap later. */
TEST(no_credit_across_pfc_pause)
{
    static const uint64_t cap[] = { 1 * G };
    struct net *n = line3(40 * G);
    CHECK(n);
    CHECK_EQ(start_capped(n, cap, 1), 0);
    struct flow *f = &n->flows[0];
    uint32_t port = n->hosts[0].port;
    net_run_until(n, 100 * US);
    port_set_pause(n, port, n->cfg.data_prio, 1);
    net_run_until(n, 1100 * US);
    uint64_t sent = f->snd_nxt;
    port_set_pause(n, port, n->cfg.data_prio, 0);
    net_run_until(n, 1100 * US + 8 * US);
    CHECK_EQ(f->snd_nxt - sent, 1000);
    net_run_until(n, 1100 * US + 9 * US);
    CHECK_EQ(f->snd_nxt - sent, 2000);
}

/* A rate cut does not let the flow go on at its old rate: at 30 Gb/s, cut
 * to 1 Gb/s, the next frame waits for the new gap (8.656 us from the last
 * frame's slot, which the old rate's credit moves by at most one old gap,
 * 0.289 us), and from then on the flow runs at 1 Gb/s. */
TEST(rate_cut_no_old_rate_burst)
{
    static const uint64_t cap[] = { 30 * G };
    struct net *n = line3(40 * G);
    CHECK(n);
    CHECK_EQ(start_capped(n, cap, 1), 0);
    struct flow *f = &n->flows[0];
    net_run_until(n, 100 * US);
    uint64_t sent = f->snd_nxt;
    flow_set_cc_rate(n, f, 1 * G);
    net_run_until(n, 100 * US + 8 * US);
    CHECK(f->snd_nxt - sent <= 1000);
    static const uint64_t one[] = { 1 * G };
    CHECK(rates_met(n, 200 * US, 5 * MS, one));
}

int main(void)
{
    test_binary_ = "test_pacer";
    test_crash_guard();
    RUN(three_caps_one_nic);
    RUN(eight_caps_95_percent);
    RUN(one_large_fifteen_in_phase);
    RUN(rate_change_mid_run);
    RUN(credit_bounded_after_stall);
    RUN(no_credit_across_pfc_pause);
    RUN(rate_cut_no_old_rate_burst);
    if (live_)
        net_free(&net_);
    return test_summary();
}
