/*
 * test_inorder.c -- the receiver's in-order check (host.c; docs/escape.md
 * "In-order check"): a first copy of a data frame that starts before the
 * furthest first-copy byte already received was overtaken and counts as
 * out of order; retransmissions (PF_RETX) and in-order frames do not.
 * Frames are handed to host_receive directly, in a chosen order.
 */
#include "net/net.h"

#include "test.h"
#include "test_fabric.h"

static struct net net_;

/* h0 -- sw -- r (test_fabric.h's test_star; host indices 0 and 1) with
 * flow 0: h0 -> r. */
static struct net *mk(void)
{
    struct net *n = test_star(&net_, NULL, 1);
    if (n)
        test_add_flow(n, 0, 1, 10000, 0);
    return n;
}

/* Data frame k (1000 B payload) of flow 0 reaches h1. */
static void deliver(struct net *n, uint64_t k, int retx)
{
    uint32_t pi = net_new_packet(n, PKT_DATA);
    struct packet *p = pkt(&n->pool, pi);
    p->flow = 0;
    p->seq = k * 1000;
    p->payload = 1000;
    p->bytes = 1062;
    p->dst = 1;
    p->prio = n->cfg.data_prio;
    p->flags = retx ? PF_RETX : 0;
    host_receive(n, &n->hosts[1], pi);
}

TEST(in_order_counts_nothing)
{
    struct net *n = mk();
    CHECK(n != NULL);
    for (uint64_t k = 0; k < 10; k++)
        deliver(n, k, 0);
    CHECK_EQ(n->flows[0].out_of_order, 0);
    CHECK_EQ(n->out_of_order, 0);
    CHECK_EQ(n->flows[0].rcv_nxt, 10000);
    net_free(n);
}

/* 0 1 3 2 4: frame 2 was overtaken by 3 (one count); then 5 7 6 8 9 with 6
 * overtaken: two in total, on the flow and the net. */
TEST(swapped_frames_count)
{
    struct net *n = mk();
    CHECK(n != NULL);
    static const uint64_t order[] = { 0, 1, 3, 2, 4, 5, 7, 6, 8, 9 };
    for (size_t i = 0; i < 10; i++)
        deliver(n, order[i], 0);
    CHECK_EQ(n->flows[0].out_of_order, 2);
    CHECK_EQ(n->out_of_order, 2);
    net_free(n);
}

/* A frame that overtakes several: 0 4 1 2 3 -> 1, 2, 3 were overtaken. */
TEST(overtaken_by_one_frame_counts_each)
{
    struct net *n = mk();
    CHECK(n != NULL);
    static const uint64_t order[] = { 0, 4, 1, 2, 3 };
    for (size_t i = 0; i < 5; i++)
        deliver(n, order[i], 0);
    CHECK_EQ(n->flows[0].out_of_order, 3);
    net_free(n);
}

/* Loss and go-back-N: 0 1 [2 lost] 3 4, then the retransmissions 2 3 4
 * (PF_RETX) and the new 5: nothing is out of order. */
TEST(retransmissions_and_loss_are_not_reordering)
{
    struct net *n = mk();
    CHECK(n != NULL);
    deliver(n, 0, 0);
    deliver(n, 1, 0);
    deliver(n, 3, 0);
    deliver(n, 4, 0);
    deliver(n, 2, 1);
    deliver(n, 3, 1);
    deliver(n, 4, 1);
    deliver(n, 5, 0);
    CHECK_EQ(n->flows[0].out_of_order, 0);
    CHECK_EQ(n->flows[0].rcv_nxt, 6000);
    net_free(n);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_inorder";
    setvbuf(stdout, NULL, _IOLBF, 0);
    RUN(in_order_counts_nothing);
    RUN(swapped_frames_count);
    RUN(overtaken_by_one_frame_counts_each);
    RUN(retransmissions_and_loss_are_not_reordering);
    return test_summary();
}
