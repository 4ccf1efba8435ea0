/*
 * flowctl.c -- the flow-control scheme framework: installing a scheme,
 * control frames, extraction and the escape queue, rate gates, the
 * scheme timer.  The model is in flowctl.h.
 */
#include "net/flowctl.h"

#include <stdlib.h>

const struct fc_ops fc_pfc = { .name = "pfc" };

void fc_install(struct net *n, struct sw *s, const struct fc_ops *ops, void *state)
{
    s->fc = ops;
    s->fc_state = state;
    uint8_t f = 0;
    if (ops) {
        f |= ops->admit ? FCB_ADMIT : 0;
        f |= ops->on_occupancy ? FCB_OCCUPANCY : 0;
        f |= ops->on_ingress ? FCB_INGRESS : 0;
        f |= ops->on_pause ? FCB_PAUSE : 0;
        f |= ops->on_tx ? FCB_TX : 0;
        f |= (ops->flags & FC_F_ESCAPE_QUEUE) ? FCB_ESCQ : 0;
        f |= (ops->flags & FC_F_NO_PAUSE) ? FCB_NOPAUSE : 0;
    }
    if (n && n->fc_gates)
        f |= FCB_GATE;
    s->fc_flags = f;
}

/* ---- control frames ---- */

uint32_t fc_new_frame(struct net *n, uint8_t sub)
{
    uint32_t pi = net_new_packet(n, PKT_FCTL);
    if (pi == PKT_NONE)
        return PKT_NONE;
    struct packet *p = pkt(&n->pool, pi);
    p->bytes = ETH_MIN_FRAME;
    p->prio = n->cfg.ctrl_prio;
    p->flow = NONE32;
    p->dst = NONE32;
    p->fc_sub = sub;
    return pi;
}

void fc_send(struct net *n, uint32_t port, uint32_t pi)
{
    port_enqueue_ctrl(n, port, pi);
}

void fc_send_pause(struct net *n, uint32_t port, uint8_t cls, int on)
{
    uint32_t pi = net_new_packet(n, PKT_PFC);
    if (pi == PKT_NONE)
        return;
    struct packet *p = pkt(&n->pool, pi);
    p->bytes = PFC_FRAME_BYTES;
    p->prio = cls;
    p->pfc_on = (uint8_t)on;
    p->flow = NONE32;
    if (on)
        n->ports[port].st.pfc_sent++;
    port_enqueue_ctrl(n, port, pi);
}

void fc_dedicate_buffer(struct sw *s, uint32_t in_local, uint64_t bytes)
{
    s->xoff[in_local] = bytes;
    s->shared_pool += bytes;
    s->cfg.buffer_bytes += bytes;
}

/* A PKT_FCTL frame arrived at `port`: the receiving switch's scheme takes
 * it, or at a host net.fc_host_frame (a scheme that talks to NICs); without
 * a taker or when the taker refuses it, it is counted and consumed with no
 * effect. */
void fc_receive(struct net *n, uint32_t port, uint32_t pi)
{
    const struct port *pt = &n->ports[port];
    const struct packet *p = pkt(&n->pool, pi);
    int rc = -1;
    if (p->fc_sub == FC_SUB_AGENT) {          /* for the port's agents (net.h on_frame) */
        for (uint32_t ai = pt->agent; ai != NONE32 && rc != 0; ai = n->agents[ai].next)
            if (n->agents[ai].ops->on_frame)
                rc = n->agents[ai].ops->on_frame(n, n->agents[ai].state, port, p);
    } else if (pt->owner_kind == NODE_SWITCH) {
        struct sw *s = &n->sws[pt->owner];
        if (s->fc && s->fc->on_frame)
            rc = s->fc->on_frame(n, s, port, p);
    } else if (n->fc_host_frame) {
        rc = n->fc_host_frame(n, n->fc_host_state, port, p);
    }
    if (rc != 0)
        n->fctl_bad++;
    net_consume(n, pi);
}

/* ---- extraction and the escape queue ---- */

static inline int counts_as_data(const struct sw *s, uint32_t q)
{
    return q == QESC || (q < NCLASS && !(s->cfg.strict_mask >> q & 1));
}

uint32_t fc_extract(struct net *n, struct sw *s, uint32_t port, uint32_t q, uint32_t flow, uint32_t *scanned)
{
    struct port *pt = &n->ports[port];
    if (q >= NQUEUE || q == QMAC) {
        if (scanned)
            *scanned = 0;
        return PKT_NONE;
    }
    uint32_t pi = pktq_extract(n->pool.p, &pt->q[q], PKT_DATA, flow, scanned);
    if (pi == PKT_NONE)
        return PKT_NONE;
    if (pt->q[q].count == 0)
        pt->qmask &= (uint16_t)~(1u << q);
    if (counts_as_data(s, q))
        pt->data_bytes -= pkt(&n->pool, pi)->bytes;
    return pi;
}

void fc_requeue(struct net *n, struct sw *s, uint32_t port, uint32_t q, uint32_t pi)
{
    struct port *pt = &n->ports[port];
    port_q_push(n, pt, q, pi);
    if (counts_as_data(s, q)) {
        pt->data_bytes += pkt(&n->pool, pi)->bytes;
        if (pt->data_bytes > pt->st.max_queue_bytes)
            pt->st.max_queue_bytes = pt->data_bytes;
    }
    port_kick(n, port);
}

void fc_push_escape(struct net *n, struct sw *s, uint32_t port, uint32_t pi)
{
    fc_requeue(n, s, port, QESC, pi);
}

void fc_drop_held(struct net *n, struct sw *s, uint32_t port, uint32_t pi)
{
    switch_release(n, s, pi);
    net_drop(n, port, pi);
}

/* ---- rate gates ---- */

int fc_set_rate(struct net *n, uint32_t port, uint8_t cls, uint64_t rate_bps)
{
    if (!n->fc_gates) {
        if (rate_bps == 0)
            return 0;
        n->fc_gates = calloc((size_t)n->n_ports * NCLASS, sizeof *n->fc_gates);
        if (!n->fc_gates)
            return -1;
        for (uint32_t i = 0; i < n->n_sws; i++)
            n->sws[i].fc_flags |= FCB_GATE;
    }
    struct fc_gate *g = &n->fc_gates[(size_t)port * NCLASS + cls];
    g->rate_bps = rate_bps;
    struct port *pt = &n->ports[port];
    if (rate_bps == 0 && (pt->gated >> cls & 1)) {
        /* No limit any more: the class may send now (the pending reopen
         * event finds next_ok changed and does nothing). */
        pt->gated &= (uint8_t)~(1u << cls);
        g->next_ok = 0;
        port_kick(n, port);
    }
    return 0;
}

void fc_gate_after_tx(struct net *n, struct port *pt, uint32_t port, uint8_t cls, uint32_t wire_bytes)
{
    struct fc_gate *g = &n->fc_gates[(size_t)port * NCLASS + cls];
    if (g->rate_bps == 0 || g->rate_bps >= pt->rate_bps)
        return;
    /* The class may send its next frame when this one would have ended at
     * the gate's rate. */
    simtime_t now = n->el.now, ok = now + tx_time_ps(wire_bytes, g->rate_bps);
    g->next_ok = ok;
    pt->gated |= (uint8_t)(1u << cls);
    net_schedule(n, ok, EV_FCTL_GATE, port * NCLASS + cls);
}

void fc_gate_fire(struct net *n, uint32_t obj, simtime_t t)
{
    uint32_t port = obj / NCLASS, cls = obj % NCLASS;
    if (!n->fc_gates || n->fc_gates[obj].next_ok != t)
        return;                                 /* stale: re-gated or opened since */
    n->ports[port].gated &= (uint8_t)~(1u << cls);
    port_kick(n, port);
}

/* ---- timer ---- */

void fc_timer_arm(struct net *n, struct sw *s, simtime_t t)
{
    if (t < n->el.now)
        t = n->el.now;
    s->fc_timer_at = t;
    if (t != SIMTIME_NEVER)
        net_schedule(n, t, EV_FCTL, (uint32_t)(s - n->sws));
}

void fc_timer_fire(struct net *n, uint32_t sw, simtime_t t)
{
    struct sw *s = &n->sws[sw];
    if (s->fc_timer_at != t || !s->fc || !s->fc->on_timer)
        return;                                 /* stale: re-armed since */
    s->fc_timer_at = SIMTIME_NEVER;
    simtime_t next = s->fc->on_timer(n, s);
    if (next != SIMTIME_NEVER && s->fc_timer_at == SIMTIME_NEVER)
        fc_timer_arm(n, s, next > t ? next : t + 1);
}
