/*
 * qd_prio.c -- strict-priority port discipline (qd_prio.h).
 */
#include "net/qd_prio.h"

#include <stdlib.h>

static int prio_enq(struct net *n, struct sw *s, uint32_t port, uint32_t pi, void *state)
{
    (void)s;
    struct qd_prio *q = state;
    struct packet *p = pkt(&n->pool, pi);
    if (q->limit && q->bytes + p->bytes > q->limit) {
        q->drops++;
        qdisc_drop(n, port, pi, 0);
        return QD_GONE;
    }
    pktq_push(&n->pool, &q->q[p->prio & (NCLASS - 1)], pi);
    q->bytes += p->bytes;
    q->held++;
    qdisc_backlog(&n->ports[port], 1);
    return QD_HELD;
}

static uint32_t take(struct net *n, struct qd_prio *q, uint32_t port, uint32_t c)
{
    uint32_t pi = pktq_pop(&n->pool, &q->q[c]);
    q->bytes -= pkt(&n->pool, pi)->bytes;
    q->held--;
    qdisc_backlog(&n->ports[port], q->held != 0);
    return pi;
}

static uint32_t prio_deq(struct net *n, struct sw *s, uint32_t port, void *state)
{
    (void)s;
    struct qd_prio *q = state;
    for (int c = NCLASS - 1; c >= 0; c--)
        if (q->q[c].count)
            return take(n, q, port, (uint32_t)c);
    return PKT_NONE;
}

static uint32_t prio_drain(struct net *n, struct sw *s, uint32_t port, void *state)
{
    return prio_deq(n, s, port, state);
}

static uint64_t prio_held(const void *state)
{
    return ((const struct qd_prio *)state)->held;
}

const struct qdisc_ops qd_prio_ops = {
    .name = "prio", .enqueue = prio_enq, .dequeue = prio_deq, .drain = prio_drain,
    .held = prio_held, .destroy = free,
};

int qd_prio_install(struct net *n, uint32_t port, uint64_t limit)
{
    const struct port *pt = &n->ports[port];
    if (pt->owner_kind != NODE_SWITCH)
        return -1;
    struct qd_prio *q = calloc(1, sizeof *q);
    if (!q)
        return -1;
    for (int c = 0; c < NCLASS; c++)
        pktq_init(&q->q[c]);
    q->limit = limit;
    if (qdisc_install(n, &n->sws[pt->owner], pt->local, &qd_prio_ops, q)) {
        free(q);
        return -1;
    }
    return 0;
}

int qd_prio_install_all(struct net *n, uint64_t limit)
{
    for (uint32_t p = 0; p < n->n_ports; p++)
        if (n->ports[p].owner_kind == NODE_SWITCH && qd_prio_install(n, p, limit))
            return -1;
    return 0;
}

uint64_t qd_prio_drops(const struct net *n)
{
    uint64_t d = 0;
    for (uint32_t i = 0; i < n->n_sws; i++) {
        const struct sw *s = &n->sws[i];
        if (!s->qd)
            continue;
        for (uint32_t l = 0; l < n->nodes[s->node].n_ports; l++)
            if (s->qd[l].ops == &qd_prio_ops)
                d += ((const struct qd_prio *)s->qd[l].state)->drops;
    }
    return d;
}
