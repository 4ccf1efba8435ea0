/*
 * qdisc.c -- installing egress queueing disciplines and the helpers they
 * use (qdisc.h).  The per-frame hooks are in switch.c.
 */
#include "net/qdisc.h"

#include <stdlib.h>

int qdisc_install(struct net *n, struct sw *s, uint32_t local, const struct qdisc_ops *ops, void *state)
{
    uint32_t np = n->nodes[s->node].n_ports;
    if (local >= np)
        return -1;
    if (!s->qd) {
        s->qd = calloc(np, sizeof *s->qd);
        if (!s->qd)
            return -1;
    }
    struct qdisc_slot *q = &s->qd[local];
    if (q->ops && q->ops->destroy && q->state && q->state != state)
        q->ops->destroy(q->state);
    q->ops = ops;
    q->state = state;
    return 0;
}

void qdisc_drop(struct net *n, uint32_t port, uint32_t pi, int counted)
{
    if (counted)
        n->ports[port].data_bytes -= pkt(&n->pool, pi)->bytes;
    net_drop(n, port, pi);
}

void qdisc_busy(struct net *n, uint32_t port, simtime_t until)
{
    struct port *pt = &n->ports[port];
    if (until <= n->el.now)
        until = n->el.now + 1;          /* an opportunity always takes time: no loop at one instant */
    pt->busy_until = until;
    pt->txdone_pending = 1;
    net_schedule(n, until, EV_TX_DONE, port);
}

uint64_t qdisc_held_all(const struct net *n)
{
    uint64_t h = 0;
    for (uint32_t i = 0; i < n->n_sws; i++) {
        const struct sw *s = &n->sws[i];
        if (!s->qd)
            continue;
        for (uint32_t l = 0; l < n->nodes[s->node].n_ports; l++) {
            if (!s->qd[l].ops)
                continue;
            int seen = 0;               /* a state shared by several ports counts once */
            for (uint32_t k = 0; k < l && !seen; k++)
                seen = s->qd[k].ops && s->qd[k].state == s->qd[l].state;
            if (!seen)
                h += s->qd[l].ops->held(s->qd[l].state);
        }
    }
    return h;
}

uint32_t qdisc_drain(struct net *n, uint32_t port)
{
    const struct qdisc_slot *q = qdisc_of(n, port);
    if (!q)
        return PKT_NONE;
    struct port *pt = &n->ports[port];
    uint32_t pi = q->ops->drain(n, &n->sws[pt->owner], port, q->state);
    if (pi != PKT_NONE)
        pt->data_bytes -= pkt(&n->pool, pi)->bytes;
    return pi;
}

void qdisc_free_all(struct net *n)
{
    for (uint32_t i = 0; i < n->n_sws; i++) {
        struct sw *s = &n->sws[i];
        if (!s->qd)
            continue;
        for (uint32_t l = 0; l < n->nodes[s->node].n_ports; l++) {
            struct qdisc_slot *q = &s->qd[l];
            if (!q->ops || !q->ops->destroy || !q->state)
                continue;
            /* one state may serve several ports (a whole-switch model):
             * destroy it once */
            int seen = 0;
            for (uint32_t k = 0; k < l && !seen; k++)
                seen = s->qd[k].state == q->state;
            if (!seen)
                q->ops->destroy(q->state);
        }
        free(s->qd);
        s->qd = NULL;
    }
}
