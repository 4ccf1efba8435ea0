/* test_fabric.h -- what the simulator's unit tests build their small
 * fabrics with:
 *   test_swcfg      the switch configuration (test_net.c, test_fct.c,
 *                   test_qp.c and the ones below): a 32 MB shared buffer
 *                   with PFC on the data class, static XOFF and headroom
 *                   left to net.c's automatic values, DRR quanta of 9000 B
 *                   and the control class in strict priority;
 *   test_star       senders h0.. -- sw -- r, finalized (test_flowctl.c,
 *                   test_fc_loopbreak.c, test_inorder.c);
 *   test_add_flow   a flow whose frames the test makes by hand;
 *   test_arrive     such a frame arriving at sw from h0;
 *   test_conserved  net_check_conservation, printing why it failed. */
#ifndef ROCC_TEST_FABRIC_H
#define ROCC_TEST_FABRIC_H

#include <stdio.h>
#include <string.h>

#include "net/net.h"

static inline void test_swcfg(const struct net *n, struct switch_cfg *c)
{
    memset(c, 0, sizeof *c);   /* headroom_bytes, xoff_bytes 0: auto from the link; dynamic 0 */
    c->buffer_bytes = 32000000;
    c->pfc = 1;
    c->reserve_bytes = 4000;
    c->alpha = 0.125;
    c->xon_offset = 3000;
    for (int i = 0; i < NCLASS; i++)
        c->quantum[i] = 9000;
    c->lossless_mask = (uint8_t)(1u << n->cfg.data_prio);
    c->strict_mask = (uint8_t)(1u << n->cfg.ctrl_prio);
}

/* One switch "sw" between n_in sending hosts "h0".."h<n_in-1>" and one
 * receiver "r", 40 Gb/s and 1 us links, finalized with test_swcfg.  Node
 * ids: h0.. = 0..n_in-1, sw = n_in, r = n_in + 1; host indices: h0.. =
 * 0..n_in-1, r = n_in; sw's ports face h0.., then r.  Built in *n, which
 * is freed first if *live (the previous test's fabric; live may be NULL:
 * the caller frees).  NULL if out of memory. */
static inline struct net *test_star(struct net *n, int *live, uint32_t n_in)
{
    if (live && *live)
        net_free(n);
    if (live)
        *live = 0;
    if (net_init(n, 1))
        return NULL;
    if (live)
        *live = 1;
    char name[16];
    for (uint32_t i = 0; i < n_in; i++) {
        snprintf(name, sizeof name, "h%u", i);
        net_add_node(n, NODE_HOST, name);
    }
    uint32_t sw = net_add_node(n, NODE_SWITCH, "sw");
    uint32_t r = net_add_node(n, NODE_HOST, "r");
    for (uint32_t i = 0; i < n_in; i++)
        net_add_link(n, i, sw, 40000000000ull, PS_PER_US);
    net_add_link(n, sw, r, 40000000000ull, PS_PER_US);
    struct switch_cfg c;
    test_swcfg(n, &c);
    char why[256];
    if (net_finalize(n, &c, why, sizeof why))
        return NULL;
    return n;
}

/* A flow src -> dst (host indices) in the data class whose frames the test
 * makes by hand: never started or stopped, line-rate transport, ECMP hash
 * `hash`.  Its index, or NONE32 if out of memory. */
static inline uint32_t test_add_flow(struct net *n, uint32_t src, uint32_t dst, uint64_t size, uint64_t hash)
{
    struct flow f;
    memset(&f, 0, sizeof f);
    f.src = src;
    f.dst = dst;
    f.prio = n->cfg.data_prio;
    f.size = size;
    f.start_ps = SIMTIME_NEVER;                /* never started: frames are hand-made */
    f.stop_ps = SIMTIME_NEVER;
    f.tp = &transport_line;
    f.hash = hash;
    return net_add_flow(n, &f);
}

/* On a test_star fabric: a frame of type `type` of flow f (seq k, class
 * prio, hops as the escape schemes count them) arriving at sw on its port
 * facing h0, addressed to r: a data frame is 1062 B with 1000 B of
 * payload, any other 66 B.  Its packet index. */
static inline uint32_t test_arrive(struct net *n, uint8_t type, uint32_t f, uint64_t k, uint8_t prio, uint8_t hops)
{
    uint32_t pi = net_new_packet(n, (enum pkt_type)type);
    struct packet *p = pkt(&n->pool, pi);
    p->flow = f;
    p->seq = k;
    p->dst = n->n_hosts - 1;
    p->prio = prio;
    p->hops = hops;
    p->bytes = type == PKT_DATA ? 1062 : 66;
    p->payload = type == PKT_DATA ? 1000 : 0;
    switch_receive(n, &n->sws[0], n->nodes[n->sws[0].node].first_port, pi);
    return pi;
}

/* 1 if every packet the fabric created is accounted for
 * (net_check_conservation); 0 after printing why not. */
static inline int test_conserved(const struct net *n)
{
    char why[256];
    if (net_check_conservation(n, why, sizeof why)) {
        printf("  %s\n", why);
        return 0;
    }
    return 1;
}

#endif
