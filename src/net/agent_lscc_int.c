/* agent_lscc_int.c -- HPCC*'s direct INT at LSCC's local egress; see
 * agent_lscc_int.h. */
#include "net/agent_lscc_int.h"
#include "hpcc_star.h"

#include <stdlib.h>

static void dint_enq(struct net *n, void *st, uint32_t port, const struct packet *p)
{
    struct lscc_int_node *d = st;
    if (p->type == PKT_DATA)
        d->in_bytes += p->bytes;
}

static void dint_deq(struct net *n, void *st, uint32_t port, struct packet *p)
{
    struct lscc_int_node *d = st;
    if (p->type != PKT_DATA || !(p->flags & PF_INT) || !n->intr)
        return;
    simtime_t now = n->el.now;
    uint32_t pi = (uint32_t)(p - n->pool.p);
    struct int_hop h[INT_MAX_HOPS];
    unsigned nh = p->nhop < INT_MAX_HOPS ? p->nhop : INT_MAX_HOPS;
    /* This port stamped its own hop just before (switch.c, at dequeue): a
     * hop stamped now is ours (an earlier hop's dequeue is at least a
     * serialization time older).  The long-haul hop replaces it. */
    if (nh && n->intr[pi].hop[nh - 1].ts == now)
        nh--;
    if (nh > INT_MAX_HOPS - 1)
        nh = INT_MAX_HOPS - 1;
    for (unsigned i = 0; i < nh; i++)
        h[i] = n->intr[pi].hop[i];
    uint32_t fi = p->flow;
    p->nhop = 0;                 /* §III-D: nHop = 0, the ACK carries no local hop */

    struct lscc_node *x = d->x;
    uint64_t b = x->rl.rate_bps / HPCC_STAR_B_UNIT_BPS;
    if (b < 1) b = 1;
    if (b > HPCC_STAR_B_MAX) b = HPCC_STAR_B_MAX;
    h[nh].ts = now;
    h[nh].tx_bytes = d->in_bytes;
    h[nh].qlen = lscc_rl_qlen(&x->rl, now);
    h[nh].rate_bps = b * HPCC_STAR_B_UNIT_BPS;

    uint32_t qi = net_new_packet(n, PKT_CNP);   /* may move the pool and n->intr */
    if (qi == PKT_NONE)
        return;
    const struct flow *fl = &n->flows[fi];
    struct sw *s = &n->sws[n->nodes[n->ports[port].node].idx];
    struct packet *q = pkt(&n->pool, qi);
    q->flow = fi;
    q->dst = fl->src;
    q->prio = n->cfg.ctrl_prio;
    q->bytes = ROCE_CNP_FRAME + HPCC_STAR_INT_BYTES;
    q->cnp_kind = CNP_DINT;
    q->cnp_src = s->node;
    q->ts = now;
    q->flags = PF_INT;
    q->nhop = (uint8_t)(nh + 1);
    q->rate_units = (uint32_t)b;
    for (unsigned i = 0; i <= nh; i++)
        n->intr[qi].hop[i] = h[i];
    d->sent++;
    switch_inject(n, s, qi, fl->rhash);
}

static void dint_destroy(void *st) { free(st); }

static const struct port_agent_ops lscc_int_ops = {
    .name = "lscc_int", .on_enqueue = dint_enq, .on_dequeue = dint_deq, .destroy = dint_destroy,
};

struct lscc_int_node *lscc_int_attach(struct net *n, struct lscc_node *x)
{
    struct lscc_int_node *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->x = x;
    d->port = x->port;
    d->id = net_add_agent(n, x->port, &lscc_int_ops, d);
    if (d->id == NONE32) {
        free(d);
        return NULL;
    }
    x->local_int = 1;
    return d;
}
