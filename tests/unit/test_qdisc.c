/*
 * test_qdisc.c -- the egress queueing-discipline interface (src/net/qdisc.h)
 * and the OpenQueue port (src/net/qd_oq.h): admission and push-out through
 * a policy, the MMU left alone, data_bytes and conservation exact, strict
 * classes still built-in and first, processing cycles as port time, marks
 * as ECN CE, link-failure flush, and policies that cannot crash or hang.
 *
 * Fabric: h0, h1 -- sw -- r at 40 Gb/s, 1 us (nodes h0 = 0, h1 = 1, sw = 2,
 * r = 3).  Frames are made by hand and handed to switch_receive as if they
 * arrived from h0; the egress sw->r is held busy so they stay queued until
 * the test dequeues them, except in the timed tests, which run the net.
 */
#include "net/qd_oq.h"
#include "net/flowctl.h"

#include "test.h"
#include "test_fabric.h"

enum { H0, H1, SW, R };
#define G40 40000000000ull
#define FRAME 1062u

static struct net net_;
static int live_;
static struct oq_policy *pol_;
static struct oqc_table tab_;

static void cleanup(void)
{
    if (live_)
        net_free(&net_);
    live_ = 0;
    oq_policy_free(pol_);
    pol_ = NULL;
}

static struct oq_policy *compile(const char *src)
{
    char err[256];
    struct oq_policy *p = oq_compile(src, strlen(src), "t.oq", err, sizeof err);
    if (!p)
        printf("  %s\n", err);
    return p;
}

static void default_rules(void)
{
    memset(&tab_, 0, sizeof tab_);
    for (int c = 0; c < NCLASS; c++) {
        tab_.cls[c].value = 1;
        tab_.cls[c].proc_lo = tab_.cls[c].proc_hi = 1;
        tab_.cls[c].queue = -1;
    }
}

static uint32_t sw_in(const struct net *n) { return n->nodes[SW].first_port + 0; }
static uint32_t sw_out(const struct net *n) { return n->nodes[SW].first_port + 2; }

/* A fabric with `src` installed on sw->r (NULL: built-in). */
static struct net *mk(const char *src, uint64_t cycle_ps)
{
    cleanup();
    if (net_init(&net_, 1))
        return NULL;
    live_ = 1;
    struct net *n = &net_;
    net_add_node(n, NODE_HOST, "h0");
    net_add_node(n, NODE_HOST, "h1");
    net_add_node(n, NODE_SWITCH, "sw");
    net_add_node(n, NODE_HOST, "r");
    net_add_link(n, H0, SW, G40, PS_PER_US);
    net_add_link(n, H1, SW, G40, PS_PER_US);
    net_add_link(n, SW, R, G40, PS_PER_US);
    struct switch_cfg c;
    test_swcfg(n, &c);
    char why[256];
    if (net_finalize(n, &c, why, sizeof why))
        return NULL;
    for (uint32_t i = 0; i < 3; i++) {             /* flows 0, 1, 2: h0 -> r, never started */
        struct flow f;
        memset(&f, 0, sizeof f);
        f.src = 0;
        f.dst = 2;
        f.prio = n->cfg.data_prio;
        f.size = 1000000;
        f.start_ps = SIMTIME_NEVER;
        f.stop_ps = SIMTIME_NEVER;
        f.tp = &transport_line;
        f.hash = 77 + i;
        net_add_flow(n, &f);
    }
    if (src) {
        pol_ = compile(src);
        if (!pol_)
            return NULL;
        struct oqp *q = oqp_new(pol_, 0, &tab_, sw_out(n), cycle_ps, 1);
        if (!q || qdisc_install(n, &n->sws[0], n->ports[sw_out(n)].local, &qd_openqueue, q))
            return NULL;
    }
    return n;
}

static struct oqp *oqp_of(struct net *n)
{
    return qdisc_of(n, sw_out(n))->state;
}

static uint32_t arrive(struct net *n, uint8_t type, uint32_t f, uint64_t k, uint8_t prio)
{
    uint32_t pi = net_new_packet(n, (enum pkt_type)type);
    struct packet *p = pkt(&n->pool, pi);
    p->flow = f;
    p->seq = k;
    p->dst = 2;
    p->prio = prio;
    p->bytes = type == PKT_DATA ? FRAME : 66;
    p->payload = type == PKT_DATA ? 1000 : 0;
    switch_receive(n, &n->sws[0], sw_in(n), pi);
    return pi;
}

static void hold_port(struct net *n, uint32_t port) { n->ports[port].busy_until = SIMTIME_NEVER - 1; }

static const char *FIFO4 = "q = Queue(4p); out = Port(100%, q); q.congestion = (currSize >= size, drop(1));";

/* Six frames into a 4-packet FIFO: 4 held, 2 dropped at the port; the MMU
 * is not charged; data_bytes and qmask follow; FIFO order out; audit ok. */
TEST(fifo_tail_drop_accounting)
{
    default_rules();
    struct net *n = mk(FIFO4, 0);
    CHECK(n != NULL);
    struct sw *s = &n->sws[0];
    uint32_t out = sw_out(n);
    struct port *pt = &n->ports[out];
    hold_port(n, out);
    for (int i = 0; i < 6; i++)
        arrive(n, PKT_DATA, 0, (uint64_t)i, (uint8_t)n->cfg.data_prio);
    CHECK_EQ(oqp_of(n)->held, 4);
    CHECK_EQ(pt->st.drops, 2);
    CHECK_EQ(n->dropped[PKT_DATA], 2);
    CHECK_EQ(pt->data_bytes, 4 * FRAME);
    CHECK_EQ(pt->st.max_queue_bytes, 4 * FRAME);
    CHECK_EQ(s->shared_used + s->reserve_used + s->hdrm_used, 0);      /* MMU untouched */
    CHECK(pt->qmask & QD_BIT);
    CHECK_EQ(pt->q[n->cfg.data_prio].count, 0);
    CHECK(test_conserved(n));
    for (uint64_t k = 0; k < 4; k++) {
        uint32_t pi = switch_dequeue(n, s, out);
        CHECK(pi != PKT_NONE);
        CHECK_EQ(pkt(&n->pool, pi)->seq, k);
        net_consume(n, pi);
    }
    CHECK_EQ(switch_dequeue(n, s, out), PKT_NONE);   /* an empty port: nothing, no hang */
    CHECK_EQ(pt->qmask, 0);
    CHECK_EQ(pt->data_bytes, 0);
    struct oq_qstats st;
    oq_queue_stats(oqp_of(n)->rt, 0, &st);
    CHECK_EQ(st.enqueued, 4);
    CHECK_EQ(st.dequeued, 4);
    CHECK_EQ(st.dropped, 2);
    CHECK_EQ(oqp_of(n)->qx[0].max_len, 4);
    CHECK(test_conserved(n));
}

/* Strict-class frames (ACKs in class 7) stay in the built-in queue and go
 * before the discipline's frames. */
TEST(strict_class_stays_builtin_and_first)
{
    default_rules();
    struct net *n = mk(FIFO4, 0);
    CHECK(n != NULL);
    uint32_t out = sw_out(n);
    hold_port(n, out);
    arrive(n, PKT_DATA, 0, 0, (uint8_t)n->cfg.data_prio);
    arrive(n, PKT_ACK, 1, 5, (uint8_t)n->cfg.ctrl_prio);
    CHECK_EQ(oqp_of(n)->held, 1);
    CHECK_EQ(n->ports[out].q[n->cfg.ctrl_prio].count, 1);
    uint32_t a = switch_dequeue(n, &n->sws[0], out);
    CHECK_EQ(pkt(&n->pool, a)->type, PKT_ACK);
    net_consume(n, a);
    uint32_t d = switch_dequeue(n, &n->sws[0], out);
    CHECK_EQ(pkt(&n->pool, d)->type, PKT_DATA);
    net_consume(n, d);
    CHECK(test_conserved(n));
}

/* Algorithm B: a high-value arrival to a full queue pushes out the newest
 * low-value frame; the pushed-out frame leaves data_bytes and is counted a
 * drop at the port. */
TEST(push_out_by_value)
{
    default_rules();
    tab_.cls[4].value = 63;             /* class 4 high value, class 3 low (1) */
    tab_.cls[4].proc_lo = tab_.cls[4].proc_hi = 1;
    struct net *n = mk("lowLast(p1, p2) = (p1.value > p2.value);\n"
                       "q = Queue(3p); out = Port(100%, q); q.admPrio = lowLast;\n"
                       "q.congestion = (currSize >= size, drop(1));", 0);
    CHECK(n != NULL);
    uint32_t out = sw_out(n);
    struct port *pt = &n->ports[out];
    hold_port(n, out);
    for (int i = 0; i < 3; i++)
        arrive(n, PKT_DATA, 0, (uint64_t)i, 3);
    arrive(n, PKT_DATA, 1, 100, 4);                 /* high: pushes out seq 2 */
    arrive(n, PKT_DATA, 0, 3, 3);                   /* low to a full queue of 2 low + 1 high: refused */
    CHECK_EQ(oqp_of(n)->held, 3);
    CHECK_EQ(pt->st.drops, 2);
    CHECK_EQ(pt->data_bytes, 3 * FRAME);
    struct oq_qstats st;
    oq_queue_stats(oqp_of(n)->rt, 0, &st);
    CHECK_EQ(st.pushed_out, 1);
    uint64_t want[] = { 0, 1, 100 };
    for (int k = 0; k < 3; k++) {
        uint32_t pi = switch_dequeue(n, &n->sws[0], out);
        CHECK(pi != PKT_NONE);
        CHECK_EQ(pkt(&n->pool, pi)->seq, want[k]);
        net_consume(n, pi);
    }
    CHECK(oqp_of(n)->value_sent == 65.0);
    CHECK(test_conserved(n));
}

/* A frame of 3 cycles: two opportunities keep the port busy for one wire
 * time each (nothing sent), the third sends it. */
TEST(processing_cycles_hold_the_port)
{
    default_rules();
    tab_.cls[3].proc_lo = tab_.cls[3].proc_hi = 3;
    struct net *n = mk(FIFO4, 0);
    CHECK(n != NULL);
    uint32_t out = sw_out(n);
    struct port *pt = &n->ports[out];
    hold_port(n, out);
    arrive(n, PKT_DATA, 0, 0, 3);
    pt->busy_until = 0;
    uint64_t wire_ps = (uint64_t)(FRAME + n->cfg.preamble_ifg) * 200;     /* 40G: 200 ps/B */
    CHECK_EQ(switch_dequeue(n, &n->sws[0], out), PKT_NONE);
    CHECK_EQ(pt->busy_until, wire_ps);
    CHECK(pt->txdone_pending);
    CHECK_EQ(switch_dequeue(n, &n->sws[0], out), PKT_NONE);
    CHECK_EQ(oqp_of(n)->cycles_busy, 2);
    uint32_t pi = switch_dequeue(n, &n->sws[0], out);
    CHECK(pi != PKT_NONE);
    net_consume(n, pi);
    CHECK(test_conserved(n));
}

/* Timed: a line-rate flow through a port whose frames need 2 cycles each
 * delivers half the line rate; with a fixed cycle of 0 ... 1 ps it is the
 * line rate.  The first check fails if cycles cost no time. */
static uint64_t run_flow(uint32_t cycles, uint64_t cycle_ps)
{
    default_rules();
    tab_.cls[3].proc_lo = tab_.cls[3].proc_hi = cycles;
    struct net *n = mk("q = Queue(100000p); out = Port(q);", cycle_ps);
    if (!n)
        return 0;
    n->flows[0].start_ps = 0;
    n->flows[0].size = UINT64_MAX;
    n->flows[0].flags |= FL_ENDLESS;
    net_flows_ready(n);
    net_run_until(n, 200 * PS_PER_US);
    if (!test_conserved(n))
        return 0;
    return n->ports[sw_out(n)].st.tx_data_bytes;
}

TEST(processing_halves_throughput)
{
    uint64_t b1 = run_flow(1, 0), b2 = run_flow(2, 0), b2s = run_flow(2, 1);
    printf("  1 cycle: %llu B, 2 cycles: %llu B, 2 cycles of 1 ps: %llu B\n", (unsigned long long)b1,
           (unsigned long long)b2, (unsigned long long)b2s);
    CHECK(b1 > 900000);                             /* ~1 MB in 200 us at 40G */
    CHECK(b2 > b1 * 45 / 100 && b2 < b1 * 55 / 100);
    CHECK(b2s > b1 * 98 / 100);
}

/* mark (postAdmAct) sets CE on data frames as they leave: the 3rd and 4th
 * arrivals find a queue of 3 and 4 (postAdmAct counts the arrival). */
TEST(mark_sets_ecn)
{
    default_rules();
    struct net *n = mk("q = Queue(8p); out = Port(q); q.postAdmAct = (currSize >= 3, mark);", 0);   // the arrival counts here
    CHECK(n != NULL);
    uint32_t out = sw_out(n);
    hold_port(n, out);
    for (int i = 0; i < 4; i++)
        arrive(n, PKT_DATA, 0, (uint64_t)i, 3);
    for (int k = 0; k < 4; k++) {
        uint32_t pi = switch_dequeue(n, &n->sws[0], out);
        CHECK(pi != PKT_NONE);
        CHECK_EQ(pkt(&n->pool, pi)->ecn, k >= 2);
        net_consume(n, pi);
    }
    CHECK_EQ(oqp_of(n)->ce_marked, 2);
}

/* A link failure drains the discipline's frames (even mid-processing) as
 * failure drops; the audit balances. */
TEST(link_failure_flushes)
{
    default_rules();
    tab_.cls[3].proc_lo = tab_.cls[3].proc_hi = 5;
    struct net *n = mk(FIFO4, 0);
    CHECK(n != NULL);
    uint32_t out = sw_out(n);
    hold_port(n, out);
    for (int i = 0; i < 3; i++)
        arrive(n, PKT_DATA, 0, (uint64_t)i, 3);
    n->ports[out].busy_until = 0;
    CHECK_EQ(switch_dequeue(n, &n->sws[0], out), PKT_NONE);  /* one cycle spent */
    char why[256];
    CHECK_EQ(net_set_link(n, out, 0, why, sizeof why), 0);
    CHECK_EQ(oqp_of(n)->held, 0);
    CHECK_EQ(n->failure_drops, 3);
    CHECK_EQ(n->ports[out].data_bytes, 0);
    CHECK_EQ(n->ports[out].qmask & QD_BIT, 0);
    CHECK(test_conserved(n));
}

/* Comparators and actions that divide by zero, a computed drop probability
 * far outside [0, 1], and modify on every cycle: frames flow, nothing
 * crashes, the audit balances. */
TEST(hostile_policy_runs)
{
    default_rules();
    tab_.cls[3].proc_kind = OQC_UNIFORM;
    tab_.cls[3].proc_lo = 1;
    tab_.cls[3].proc_hi = 3;
    struct net *n = mk("z(p1, p2) = (p1.value / (p2.size - p2.size) < p2.value / 0);\n"
                       "q1 = Queue(6p); q2 = Queue(6p); out = Port(q1, q2);\n"
                       "q1.procPrio = z; q1.admPrio = z; q2.procPrio = z;\n"
                       "out.queueSelect = select_flow;\n"
                       "pick(a, b) = (a.currSize / 0 > b.currSize / (b.length - b.length));\n"
                       "out.schedPrio = pick;\n"
                       "q1.congestion = (currSize >= 3, drop(currSize * 1000 - 7));\n"
                       "out.postSchedAct = (true, modify(schedState := schedState / 0) . mark);", 0);
    CHECK(n != NULL);
    for (uint32_t f = 0; f < 3; f++) {
        n->flows[f].start_ps = f * PS_PER_US;
        n->flows[f].size = UINT64_MAX;
        n->flows[f].flags |= FL_ENDLESS;
    }
    net_flows_ready(n);
    net_run_until(n, 100 * PS_PER_US);
    CHECK(n->ports[sw_out(n)].st.tx_data_bytes > 0);
    CHECK(test_conserved(n));
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_qdisc";
    setvbuf(stdout, NULL, _IOLBF, 0);
    RUN(fifo_tail_drop_accounting);
    RUN(strict_class_stays_builtin_and_first);
    RUN(push_out_by_value);
    RUN(processing_cycles_hold_the_port);
    RUN(processing_halves_throughput);
    RUN(mark_sets_ecn);
    RUN(link_failure_flushes);
    RUN(hostile_policy_runs);
    cleanup();
    return test_summary();
}
