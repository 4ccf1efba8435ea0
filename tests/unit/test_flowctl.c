/*
 * test_flowctl.c -- the flow-control scheme interface (src/net/flowctl.h):
 * extraction (order kept, accounting exact, frames scanned), the escape
 * queue's place in the scheduler, control frames, hooks, timer, rate gates.
 *
 * Fabric: h0, h1 -- sw -- r at 40 Gb/s, 1 us (node ids 0 1 2 3; hosts
 * h0 = 0, h1 = 1, r = 2).  Frames are made by hand and handed to
 * switch_receive as if they had arrived on h0's port; the egress sw->r is
 * held busy (busy_until far ahead) so they stay queued until the test
 * dequeues them itself.  Data frames: 1062 B (1000 B payload), class 3;
 * control class 7 is strict.
 */
#include "net/flowctl.h"

#include "test.h"
#include "test_fabric.h"

enum { H0, H1, SW, R };
#define G40 40000000000ull
#define FRAME 1062u

static struct net net_;
static int live_;

/* The fabric above (test_fabric.h's test_star) with flows 0, 1, 2: h0 -> r. */
static struct net *mk(void)
{
    struct net *n = test_star(&net_, &live_, 2);
    for (uint32_t i = 0; n && i < 3; i++)
        test_add_flow(n, 0, 2, 1000000, 77 + i);
    return n;
}

static uint32_t sw_in(const struct net *n) { return n->nodes[SW].first_port + 0; }   /* sw's port facing h0 */
static uint32_t sw_out(const struct net *n) { return n->nodes[SW].first_port + 2; }  /* sw -> r */

static void hold_port(struct net *n, uint32_t port) { n->ports[port].busy_until = SIMTIME_NEVER - 1; }

/* Dequeue everything from port (as the serializer would), recording flow
 * and seq of each frame; frames are consumed. */
static int drain(struct net *n, uint32_t port, uint32_t *flow, uint64_t *seq, int max)
{
    int k = 0;
    for (;;) {
        uint32_t pi = switch_dequeue(n, &n->sws[0], port);
        if (pi == PKT_NONE)
            break;
        if (k < max) {
            flow[k] = pkt(&n->pool, pi)->flow;
            seq[k] = pkt(&n->pool, pi)->seq;
        }
        k++;
        net_consume(n, pi);
    }
    return k;
}

TEST(packet_still_64_bytes)
{
    CHECK_EQ(sizeof(struct packet), 64);
}

/* Queue A0 B0 A1 B1 B2 (flow letter, seq): extracting B finds B0 after 2
 * frames; the others stay A0 A1 B1 B2; data_bytes and the queue bytes drop
 * by one frame, the MMU charge stays until the frame is released. */
TEST(extract_keeps_order_and_accounting)
{
    struct net *n = mk();
    CHECK(n != NULL);
    struct sw *s = &n->sws[0];
    uint32_t out = sw_out(n), c = n->cfg.data_prio;
    hold_port(n, out);
    uint32_t fl[] = { 0, 1, 0, 1, 1 };
    uint64_t sq[] = { 0, 0, 1, 1, 2 };
    for (int i = 0; i < 5; i++)
        test_arrive(n, PKT_DATA, fl[i], sq[i], (uint8_t)c, 0);
    struct port *pt = &n->ports[out];
    CHECK_EQ(pt->q[c].count, 5);
    CHECK_EQ(pt->data_bytes, 5 * FRAME);
    uint64_t used = s->shared_used + s->reserve_used + s->hdrm_used;
    CHECK_EQ(used, 5 * FRAME);
    uint32_t scanned = 0;
    uint32_t pi = fc_extract(n, s, out, c, 1, &scanned);
    CHECK(pi != PKT_NONE);
    CHECK_EQ(scanned, 2);
    CHECK_EQ(pkt(&n->pool, pi)->flow, 1);
    CHECK_EQ(pkt(&n->pool, pi)->seq, 0);
    CHECK_EQ(pt->q[c].count, 4);
    CHECK_EQ(pt->q[c].bytes, 4 * FRAME);
    CHECK_EQ(pt->data_bytes, 4 * FRAME);
    CHECK_EQ(s->shared_used + s->reserve_used + s->hdrm_used, 5 * FRAME);   /* held: still charged */
    /* a flow with no frame: every frame scanned, nothing changes */
    CHECK_EQ(fc_extract(n, s, out, c, 2, &scanned), PKT_NONE);
    CHECK_EQ(scanned, 4);
    CHECK_EQ(pt->q[c].count, 4);
    /* A0 A1 B1 B2: B1 is the 3rd frame, then B2 (the tail) the 3rd of
     * A0 A1 B2; extracting the tail keeps the tail pointer right */
    uint32_t pb1 = fc_extract(n, s, out, c, 1, &scanned);
    CHECK_EQ(scanned, 3);
    CHECK_EQ(pkt(&n->pool, pb1)->seq, 1);
    uint32_t pb2 = fc_extract(n, s, out, c, 1, &scanned);
    CHECK_EQ(scanned, 3);
    CHECK_EQ(pkt(&n->pool, pb2)->seq, 2);
    fc_requeue(n, s, out, c, pb2);                  /* back at the tail: A0 A1 B2 */
    fc_drop_held(n, s, out, pb1);                   /* released and counted */
    CHECK_EQ(s->shared_used + s->reserve_used + s->hdrm_used, 4 * FRAME);
    CHECK_EQ(n->dropped[PKT_DATA], 1);
    CHECK_EQ(pt->st.drops, 1);
    fc_push_escape(n, s, out, pi);                  /* B0 in the escape queue */
    CHECK_EQ(pt->data_bytes, 4 * FRAME);
    uint32_t f[8];
    uint64_t q[8];
    CHECK_EQ(drain(n, out, f, q, 8), 4);
    /* escape queue first, then the class queue in order */
    CHECK(f[0] == 1 && q[0] == 0);
    CHECK(f[1] == 0 && q[1] == 0);
    CHECK(f[2] == 0 && q[2] == 1);
    CHECK(f[3] == 1 && q[3] == 2);
    CHECK_EQ(pt->data_bytes, 0);
    CHECK_EQ(pt->qmask, 0);
    CHECK_EQ(s->shared_used + s->reserve_used + s->hdrm_used, 0);
    CHECK(test_conserved(n));
}

/* Scan cost: extracting the last of k frames scans k. */
TEST(extract_scan_count_grows_with_position)
{
    struct net *n = mk();
    CHECK(n != NULL);
    uint32_t out = sw_out(n), c = n->cfg.data_prio;
    hold_port(n, out);
    for (int i = 0; i < 50; i++)
        test_arrive(n, PKT_DATA, i == 49 ? 2 : 0, (uint64_t)i, (uint8_t)c, 0);
    uint32_t scanned = 0;
    uint32_t pi = fc_extract(n, &n->sws[0], out, c, 2, &scanned);
    CHECK_EQ(scanned, 50);
    fc_requeue(n, &n->sws[0], out, c, pi);
    /* ACKs of a flow are not its data frames */
    test_arrive(n, PKT_ACK, 1, 0, (uint8_t)c, 0);
    CHECK_EQ(fc_extract(n, &n->sws[0], out, c, 1, &scanned), PKT_NONE);
    CHECK_EQ(scanned, 51);
    CHECK_EQ(fc_extract(n, &n->sws[0], out, QMAC, 1, &scanned), PKT_NONE);   /* not a frame queue */
    uint32_t f[64];
    uint64_t q[64];
    CHECK_EQ(drain(n, out, f, q, 64), 51);
    CHECK(test_conserved(n));
}

static const struct fc_ops esc_ops = { .name = "test-escq", .flags = FC_F_ESCAPE_QUEUE };

/* Order: strict control class, then the escape queue, then data; the
 * escape queue is neither paused by PFC nor rate-gated.  Without
 * FC_F_ESCAPE_QUEUE a frame with hops != 0 is an ordinary data frame. */
TEST(escape_queue_scheduling)
{
    struct net *n = mk();
    CHECK(n != NULL);
    uint32_t out = sw_out(n), c = n->cfg.data_prio, ctl = n->cfg.ctrl_prio;
    hold_port(n, out);
    test_arrive(n, PKT_DATA, 0, 0, (uint8_t)c, 1);          /* pfc scheme: hops ignored */
    CHECK_EQ(n->ports[out].q[c].count, 1);
    CHECK_EQ(n->ports[out].q[QESC].count, 0);
    fc_install(n, &n->sws[0], &esc_ops, NULL);
    test_arrive(n, PKT_DATA, 0, 1, (uint8_t)c, 0);
    test_arrive(n, PKT_DATA, 1, 0, (uint8_t)c, 2);          /* escaping */
    test_arrive(n, PKT_ACK, 2, 7, (uint8_t)ctl, 0);
    test_arrive(n, PKT_DATA, 1, 1, (uint8_t)c, 1);          /* escaping */
    CHECK_EQ(n->ports[out].q[QESC].count, 2);
    CHECK_EQ(n->ports[out].data_bytes, 4 * FRAME);     /* escape frames count as data */
    n->ports[out].paused = (uint8_t)(1u << c);         /* data class paused */
    uint32_t f[8];
    uint64_t q[8];
    CHECK_EQ(drain(n, out, f, q, 8), 3);               /* ACK, then both escape frames */
    CHECK(f[0] == 2 && q[0] == 7);
    CHECK(f[1] == 1 && q[1] == 0);
    CHECK(f[2] == 1 && q[2] == 1);
    n->ports[out].paused = 0;
    CHECK_EQ(drain(n, out, f, q, 8), 2);
    CHECK(f[0] == 0 && q[0] == 0);
    CHECK(f[1] == 0 && q[1] == 1);
    /* a gate on the data class holds data, not the escape queue */
    CHECK_EQ(fc_set_rate(n, out, (uint8_t)c, G40 / 4), 0);
    CHECK(n->sws[0].fc_flags & FCB_GATE);
    n->ports[out].gated = (uint8_t)(1u << c);
    test_arrive(n, PKT_DATA, 0, 2, (uint8_t)c, 0);
    test_arrive(n, PKT_DATA, 1, 2, (uint8_t)c, 1);
    CHECK_EQ(drain(n, out, f, q, 8), 1);
    CHECK(f[0] == 1 && q[0] == 2);
    n->ports[out].gated = 0;
    CHECK_EQ(fc_set_rate(n, out, (uint8_t)c, 0), 0);
    CHECK_EQ(drain(n, out, f, q, 8), 1);
    CHECK(test_conserved(n));
}

/* ---- a test scheme that records what it sees ---- */
static struct {
    int ingress_on, ingress_off, pause_on, pause_off, tx, frames, bad, timers;
    int admit_mode;                     /* 0 default, 1 drop, 2 force */
} seen;

static int t_admit(struct net *n, struct sw *s, uint32_t in, uint32_t *out, struct packet *p)
{
    return seen.admit_mode;
}
static void t_ingress(struct net *n, struct sw *s, uint32_t in, uint8_t cls, int on) { on ? seen.ingress_on++ : seen.ingress_off++; }
static void t_pause(struct net *n, struct sw *s, uint32_t port, uint8_t cls, int on) { on ? seen.pause_on++ : seen.pause_off++; }
static void t_tx(struct net *n, struct sw *s, uint32_t port, struct packet *p)
{
    seen.tx++;
    if (p->hops)
        p->hops--;                      /* TRANSMIT(d) of Alg. 3 */
}
static int t_frame(struct net *n, struct sw *s, uint32_t port, const struct packet *p)
{
    if (p->fc_sub != 7 || (p->flow != NONE32 && p->flow >= n->n_flows)) {
        seen.bad++;
        return -1;
    }
    seen.frames++;
    return 0;
}
static simtime_t t_timer(struct net *n, struct sw *s)
{
    seen.timers++;
    return n->el.now + 10 * PS_PER_US;  /* every 10 us */
}
static const struct fc_ops rec_ops = {
    .name = "test-rec", .admit = t_admit, .on_ingress = t_ingress, .on_pause = t_pause, .on_tx = t_tx,
    .on_frame = t_frame, .on_timer = t_timer,
};

TEST(hooks_frames_timer)
{
    struct net *n = mk();
    CHECK(n != NULL);
    memset(&seen, 0, sizeof seen);
    struct sw *s = &n->sws[0];
    fc_install(n, s, &rec_ops, NULL);
    uint32_t out = sw_out(n), c = n->cfg.data_prio;
    /* egress pause / resume: state changes only */
    port_set_pause(n, out, (uint8_t)c, 1);
    port_set_pause(n, out, (uint8_t)c, 1);
    port_set_pause(n, out, (uint8_t)c, 0);
    CHECK_EQ(seen.pause_on, 1);
    CHECK_EQ(seen.pause_off, 1);
    /* admission: drop, then force beyond the buffer */
    hold_port(n, out);
    seen.admit_mode = FC_DROP;
    test_arrive(n, PKT_DATA, 0, 0, (uint8_t)c, 0);
    CHECK_EQ(n->dropped[PKT_DATA], 1);
    seen.admit_mode = FC_FORCE;
    uint64_t pool = s->shared_pool;
    s->shared_used = pool;                             /* the shared pool is full */
    test_arrive(n, PKT_DATA, 0, 1, (uint8_t)c, 0);
    CHECK_EQ(s->shared_used, pool + FRAME);            /* borrowed */
    CHECK_EQ(n->ports[out].q[c].count, 1);
    uint32_t f[4];
    uint64_t q[4];
    CHECK_EQ(drain(n, out, f, q, 4), 1);
    CHECK_EQ(s->shared_used, pool);                    /* returned at dequeue */
    s->shared_used = 0;
    CHECK_EQ(seen.tx, 1);
    /* ingress XOFF/XON: fill (ingress h0, class c) past its XOFF threshold */
    seen.admit_mode = FC_DEFAULT;
    uint64_t xoff = s->xoff[0];
    uint32_t k = 0;
    while (!fc_ingress_requested(s, 0, (uint8_t)c) && k < 10000)
        test_arrive(n, PKT_DATA, 0, k++, (uint8_t)c, 0);
    CHECK(fc_ingress_requested(s, 0, (uint8_t)c));
    CHECK(k * FRAME >= xoff);
    CHECK_EQ(seen.ingress_on, 1);
    CHECK_EQ(n->ports[sw_in(n)].st.pfc_sent, 1);       /* and the PAUSE frame went out */
    uint32_t dummy[1];
    uint64_t dq[1];
    drain(n, out, dummy, dq, 1);
    CHECK_EQ(seen.ingress_off, 1);
    CHECK(!fc_ingress_requested(s, 0, (uint8_t)c));
    /* control frames: one valid, one with a bad subtype, one with a forged
     * flow index; each sent from sw to h1 (a host: refused) and received by
     * sw from h0's side by handing it to fc_receive */
    n->ports[out].busy_until = 0;
    uint32_t pi = fc_new_frame(n, 7);
    fc_receive(n, sw_in(n), pi);
    pi = fc_new_frame(n, 8);
    fc_receive(n, sw_in(n), pi);
    pi = fc_new_frame(n, 7);
    pkt(&n->pool, pi)->flow = 12345;
    fc_receive(n, sw_in(n), pi);
    CHECK_EQ(seen.frames, 1);
    CHECK_EQ(seen.bad, 2);
    CHECK_EQ(n->fctl_bad, 2);
    uint32_t to_h1 = n->nodes[SW].first_port + 1;
    uint64_t tx0 = n->ports[to_h1].st.tx_pkts;
    pi = fc_new_frame(n, 7);
    fc_send(n, to_h1, pi);
    /* timer: armed at 5 us, then every 10 us: 5 15 25 35 45 us fire by 50 us */
    fc_timer_arm(n, s, 5 * PS_PER_US);
    net_run_until(n, 50 * PS_PER_US);
    CHECK_EQ(seen.timers, 5);
    CHECK_EQ(n->ports[to_h1].st.tx_pkts, tx0 + 1);
    CHECK_EQ(n->fctl_bad, 3);                          /* the host refused it */
    CHECK_EQ(n->created[PKT_FCTL], 4);
    CHECK_EQ(n->consumed[PKT_FCTL], 4);
    CHECK(test_conserved(n));
    /* re-arming replaces: only the later time fires */
    seen.timers = 0;
    fc_timer_arm(n, s, 60 * PS_PER_US);
    fc_timer_arm(n, s, 70 * PS_PER_US);
    net_run_until(n, 75 * PS_PER_US);
    CHECK_EQ(seen.timers, 1);
}

/* FC_F_NO_PAUSE: the registry still says XOFF, no PAUSE frame is sent. */
static const struct fc_ops nopause_ops = { .name = "test-nopause", .flags = FC_F_NO_PAUSE, .on_ingress = t_ingress };

TEST(no_pause_keeps_registry)
{
    struct net *n = mk();
    CHECK(n != NULL);
    memset(&seen, 0, sizeof seen);
    struct sw *s = &n->sws[0];
    fc_install(n, s, &nopause_ops, NULL);
    uint32_t out = sw_out(n), c = n->cfg.data_prio;
    hold_port(n, out);
    uint32_t k = 0;
    while (!fc_ingress_requested(s, 0, (uint8_t)c) && k < 10000)
        test_arrive(n, PKT_DATA, 0, k++, (uint8_t)c, 0);
    CHECK(fc_ingress_requested(s, 0, (uint8_t)c));
    CHECK_EQ(seen.ingress_on, 1);
    CHECK_EQ(n->ports[sw_in(n)].st.pfc_sent, 0);
    CHECK_EQ(n->created[PKT_PFC], 0);
    uint32_t f[1];
    uint64_t q[1];
    drain(n, out, f, q, 1);
    CHECK(test_conserved(n));
}

/* A gate at 10 Gb/s on sw->r: 20 frames from the class take 20 times
 * their wire time at 10G (1082 B * 800 ps), not at 40G. */
TEST(rate_gate_paces_class)
{
    struct net *n = mk();
    CHECK(n != NULL);
    uint32_t out = sw_out(n), c = n->cfg.data_prio;
    CHECK_EQ(fc_set_rate(n, out, (uint8_t)c, 10000000000ull), 0);
    hold_port(n, out);
    for (int i = 0; i < 20; i++)
        test_arrive(n, PKT_DATA, 0, (uint64_t)i, (uint8_t)c, 0);
    n->ports[out].busy_until = 0;
    port_kick(n, out);
    net_run_until(n, 200 * PS_PER_US);
    CHECK_EQ(n->ports[out].st.tx_pkts, 20);
    /* the last frame started at 19 gate intervals: 19 * 865600 ps; it
     * reached r one 40G frame time + 1 us later */
    CHECK_EQ(n->ports[out].q[c].count, 0);
    CHECK(test_conserved(n));
    CHECK_EQ(n->ev_count[EV_FCTL_GATE], 20);
    /* without the gate the same 20 frames go back to back */
    struct net *m = mk();
    CHECK(m != NULL);
    uint32_t o2 = sw_out(m);
    hold_port(m, o2);
    for (int i = 0; i < 20; i++)
        test_arrive(m, PKT_DATA, 0, (uint64_t)i, (uint8_t)c, 0);
    m->ports[o2].busy_until = 0;
    port_kick(m, o2);
    net_run_until(m, 5 * PS_PER_US);
    CHECK_EQ(m->ports[o2].st.tx_pkts, 20);
}

/* Timing of the gate, exactly: after the first frame (at t = 0) the class
 * reopens at 1082 * 800 ps = 865600 ps. */
TEST(rate_gate_timing)
{
    struct net *n = mk();
    CHECK(n != NULL);
    uint32_t out = sw_out(n), c = n->cfg.data_prio;
    CHECK_EQ(fc_set_rate(n, out, (uint8_t)c, 10000000000ull), 0);
    hold_port(n, out);
    for (int i = 0; i < 3; i++)
        test_arrive(n, PKT_DATA, 0, (uint64_t)i, (uint8_t)c, 0);
    n->ports[out].busy_until = 0;
    port_kick(n, out);
    net_run_until(n, 865599);
    CHECK_EQ(n->ports[out].st.tx_pkts, 1);
    net_run_until(n, 865600);
    CHECK_EQ(n->ports[out].st.tx_pkts, 2);
    net_run_until(n, 2 * 865600);
    CHECK_EQ(n->ports[out].st.tx_pkts, 3);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_flowctl";
    setvbuf(stdout, NULL, _IOLBF, 0);
    RUN(packet_still_64_bytes);
    RUN(extract_keeps_order_and_accounting);
    RUN(extract_scan_count_grows_with_position);
    RUN(escape_queue_scheduling);
    RUN(hooks_frames_timer);
    RUN(no_pause_keeps_registry);
    RUN(rate_gate_paces_class);
    RUN(rate_gate_timing);
    if (live_)
        net_free(&net_);
    return test_summary();
}
