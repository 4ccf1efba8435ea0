/* agent_ecn.c -- QCN CP and DCQCN+PI switch agents; see agent_ecn.h. */
#include "net/agent_ecn.h"

#include <stdlib.h>

/* ---- QCN CP ---- */

static void qcn_enq(struct net *n, void *st, uint32_t port, const struct packet *p)
{
    struct qcn_agent *a = st;
    if (p->type != PKT_DATA)
        return;
    uint8_t fb;
    if (!qcn_cp_on_packet(&a->cp, &a->prm, n->ports[port].data_bytes, rng_uniform(net_node_rng(n, n->ports[port].node)), &fb))
        return;
    uint32_t flow = p->flow;                 /* p may move when the pool grows */
    uint32_t pi = net_new_packet(n, PKT_CNP);
    if (pi == PKT_NONE)
        return;
    struct packet *c = pkt(&n->pool, pi);
    c->flow = flow;
    c->dst = n->flows[flow].src;
    c->prio = n->cfg.ctrl_prio;
    c->bytes = ETH_MIN_FRAME;                /* 802.1Qau CNM: a minimum frame */
    c->cnp_kind = CNP_QCN;
    c->rate_units = fb;
    c->ts = n->el.now;
    const struct node *nd = &n->nodes[n->ports[port].node];
    switch_inject(n, &n->sws[nd->idx], pi, n->flows[flow].rhash);
}

static void free_state(void *st) { free(st); }

const struct port_agent_ops qcn_agent_ops = {
    .name = "qcn", .on_enqueue = qcn_enq, .destroy = free_state,
};

uint32_t qcn_agent_attach(struct net *n, uint32_t port, const struct qcn_cp_params *prm)
{
    struct qcn_agent *a = calloc(1, sizeof *a);
    if (!a)
        return NONE32;
    a->prm = *prm;
    a->port = port;
    qcn_cp_init(&a->cp, prm);
    uint32_t id = net_add_agent(n, port, &qcn_agent_ops, a);
    if (id == NONE32)
        free(a);
    return id;
}

/* ---- DCQCN+PI ---- */

static void pi_arm(struct net *n, struct dcqcn_pi_agent *a)
{
    if (!a->armed) {
        a->armed = 1;
        a->pi.deadline_ps = n->el.now + a->prm.period_ps;
        net_schedule(n, a->pi.deadline_ps, EV_AGENT, a->id);
    }
}

static void pi_enq(struct net *n, void *st, uint32_t port, const struct packet *p)
{
    pi_arm(n, st);
}

static void pi_deq(struct net *n, void *st, uint32_t port, struct packet *p)
{
    struct dcqcn_pi_agent *a = st;
    if (p->type == PKT_DATA && dcqcn_pi_prob(&a->pi) > 0 && dcqcn_pi_mark(&a->pi, rng_uniform(net_node_rng(n, n->ports[port].node))))
        p->ecn = 1;
}

static void pi_timer(struct net *n, void *st)
{
    struct dcqcn_pi_agent *a = st;
    uint64_t q = n->ports[a->port].data_bytes;
    dcqcn_pi_on_timer(&a->pi, &a->prm, q, n->el.now);
    if (q == 0 && dcqcn_pi_prob(&a->pi) == 0) {
        a->armed = 0;                        /* idle: the next enqueue re-arms */
        return;
    }
    net_schedule(n, dcqcn_pi_deadline(&a->pi), EV_AGENT, a->id);
}

const struct port_agent_ops dcqcn_pi_agent_ops = {
    .name = "dcqcn_pi", .on_enqueue = pi_enq, .on_dequeue = pi_deq, .on_timer = pi_timer,
    .destroy = free_state,
};

uint32_t dcqcn_pi_agent_attach(struct net *n, uint32_t port, const struct dcqcn_pi_params *prm)
{
    struct dcqcn_pi_agent *a = calloc(1, sizeof *a);
    if (!a)
        return NONE32;
    a->prm = *prm;
    a->port = port;
    dcqcn_pi_init(&a->pi, prm, 0);
    uint32_t id = net_add_agent(n, port, &dcqcn_pi_agent_ops, a);
    if (id == NONE32)
        free(a);
    else
        a->id = id;
    return id;
}
