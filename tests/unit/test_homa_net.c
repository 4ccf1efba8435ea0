/*
 * test_homa_net.c -- Homa in the simulator (src/transport/tp_homa.c, qd_prio.c,
 * the GRANT frame): an incast whose bottleneck queue the grants bound, a
 * short message that overtakes queued scheduled bytes thanks to the
 * classes (and does not with one class: the control), and packet
 * conservation with the new frame type.
 *
 * Fabric: test_star, senders h0.. -- sw -- r, 40 Gb/s, 1 us links.  One
 * data frame is 1062 B (1000 B payload), 216.4 ns at 40G with preamble
 * and gap; the base RTT (a data frame there, a 66 B grant back) is about
 * 4.5 us, 22.5 KB at 40 Gb/s: RTTbytes = 25 KB here.
 */
#include <string.h>

#include "engine/ccreg.h"
#include "net/qd_prio.h"
#include "cc/homa.h"
#include "test.h"
#include "test_fabric.h"

#define US PS_PER_US

static struct net net_;
static int live_;
static struct homa_params prm_;
static struct homa_rx *rx_;        /* r's table (net_host_state; net_free frees it) */
static struct homa_rx_msg slots_[16];

/* n_in senders; classes n_prio, overcommitment oc; sizes 20 KB (half the
 * messages) and 2 MB set the cut-offs: unscheduled bytes are 2% -> one
 * unscheduled class (the top one), the rest scheduled. */
static struct net *build(uint32_t n_in, uint8_t n_prio, uint8_t oc)
{
    struct net *n = test_star(&net_, &live_, n_in);
    if (!n || qd_prio_install_all(n, 0))
        return NULL;
    memset(&prm_, 0, sizeof prm_);
    prm_.rtt_bytes = 25000;
    prm_.n_prio = n_prio;
    prm_.overcommit = oc;
    static const uint64_t s[] = { 20000, 2000000 };
    static const double c[] = { 0.5, 1.0 };
    if (homa_cutoffs(&prm_, s, c, 2) < 0)
        return NULL;
    rx_ = net_host_state(n, &cc_algo_homa, sizeof *rx_);
    if (!rx_)
        return NULL;
    rx_ += n_in;
    homa_rx_init(rx_, slots_, 16);
    return n;
}

static uint32_t add(struct net *n, uint32_t src, uint64_t size, simtime_t start)
{
    struct flow f;
    memset(&f, 0, sizeof f);
    f.src = src;
    f.dst = n->n_hosts - 1;
    f.size = size;
    f.start_ps = start;
    f.stop_ps = SIMTIME_NEVER;
    f.tp = cc_algo_homa.tp;
    f.cc_prm = &prm_;
    f.hash = 11 + src;
    f.rhash = 17 + src;
    return net_add_flow(n, &f);
}

static uint64_t q_to_r(const struct net *n)
{
    return n->ports[net_port_between(n, n->sws[0].node, n->hosts[n->n_hosts - 1].node)].st.max_queue_bytes;
}

TEST(incast_grants_bound_the_queue)
{
    struct net *n = build(4, 7, 2);
    CHECK(n != NULL);
    CHECK_EQ(prm_.n_unsched, 1);
    for (uint32_t i = 0; i < 4; i++)
        CHECK(add(n, i, 400000, 0) != NONE32);
    CHECK_EQ(net_flows_ready(n), 0);
    net_run_until(n, 2 * PS_PER_MS);
    simtime_t last = 0;
    for (uint32_t i = 0; i < 4; i++) {
        const struct flow *f = &n->flows[i];
        CHECK(f->flags & FL_DONE);              /* the final ACK came back */
        CHECK_EQ(f->rcv_nxt, 400000);
        if (f->finish_ps > last)
            last = f->finish_ps;
    }
    /* 1.6 MB at 40G is 320 us of payload, 353 us with headers: the link
     * stays busy (overcommitment 2) */
    CHECK(last < 370 * US);
    /* unscheduled burst 4 x 25 KB, then RTTbytes ahead for 2 messages:
     * well under what line-rate senders queue (3/4 of 1.6 MB) */
    CHECK(q_to_r(n) < 160000);
    CHECK(n->created[PKT_GRANT] > 1000);
    CHECK_EQ(n->dropped[PKT_GRANT] + n->dropped[PKT_DATA], 0);
    /* SRPT among equal sizes keeps one ahead: they finish one after another */
    CHECK(rx_->max_active == 4);
    CHECK(test_conserved(n));
}

/* The overcommitment degree k sets the standing queue at the receiver's
 * downlink: k messages have RTTbytes granted each, one RTTbytes fills the
 * pipe, so about (k - 1) RTTbytes wait.  Measured at 140 us, after the
 * start-up: the four equal messages' unscheduled bursts (4 x 25 KB) arrive
 * interleaved, so their remaining sizes leapfrog and SRPT's top message
 * changes with almost every frame; until about 110 us several messages
 * hold grants even with k = 1 (75-80 KB queued, as with k = 4).  Under the
 * old insertion-order ties one sender won every tie and stayed ahead from
 * the first frame, which is why this was once measured at 60 us.  At
 * 140 us: k = 1 4.2 KB, k = 4 84 KB. */
static uint64_t queue_at_140us(uint8_t oc)
{
    struct net *n = build(4, 7, oc);
    if (!n)
        return UINT64_MAX;
    for (uint32_t i = 0; i < 4; i++)
        add(n, i, 400000, 0);
    if (net_flows_ready(n))
        return UINT64_MAX;
    net_run_until(n, 140 * US);
    return n->ports[net_port_between(n, n->sws[0].node, n->hosts[4].node)].data_bytes;
}

TEST(overcommit_sets_the_standing_queue)
{
    uint64_t q1 = queue_at_140us(1), q4 = queue_at_140us(4);
    CHECK(q1 < 10000);                         /* RTTbytes - BDP: a few frames */
    CHECK(q4 > 65000 && q4 < 100000);          /* 4 x 25 KB - BDP (22.5 KB): 85 KB */
    net_run_until(&net_, 2 * PS_PER_MS);
    for (uint32_t i = 0; i < 4; i++)
        CHECK(net_.flows[i].flags & FL_DONE);
    CHECK(test_conserved(&net_));
}

/* Three 2 MB messages keep a queue of scheduled bytes at r's port
 * (overcommitment 3); a 20 KB message starting at 100 us takes the top
 * class and passes it.  With one class it waits behind the queue. */
static simtime_t short_fct(uint8_t n_prio)
{
    struct net *n = build(4, 7, 3);
    if (!n)
        return 0;
    prm_.n_prio = n_prio;
    if (n_prio == 1) {
        prm_.n_unsched = 1;
        prm_.cutoff[0] = UINT64_MAX;
    }
    for (uint32_t i = 0; i < 3; i++)
        add(n, i, 2000000, 0);
    uint32_t s = add(n, 3, 20000, 100 * US);
    if (net_flows_ready(n))
        return 0;
    net_run_until(n, 2 * PS_PER_MS);
    const struct flow *f = &n->flows[s];
    if (!(f->flags & FL_RX_DONE) || !test_conserved(n))
        return 0;
    return f->finish_ps - f->start_ps;
}

TEST(priorities_let_short_messages_pass)
{
    /* ideal: 20 frames of 1082 B at 40G (4.33 us) + 2 hops of 1 us + one
     * store-and-forward frame (0.22 us) = 6.55 us */
    simtime_t with = short_fct(7), without = short_fct(1);
    CHECK(with != 0 && without != 0);
    CHECK(with < 7 * US);
    CHECK(without > with + 5 * US);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_homa_net";
    RUN(incast_grants_bound_the_queue);
    RUN(overcommit_sets_the_standing_queue);
    RUN(priorities_let_short_messages_pass);
    if (live_)
        net_free(&net_);
    return test_summary();
}
