/*
 * port.c -- one direction of a link: serializer, wire, PFC pause state.
 *
 * A port is either idle, or busy until `busy_until`.  Finishing a frame only
 * needs an event when something may be waiting to go next (txdone_pending),
 * so a lightly loaded port costs one event per packet: its wire arrival.
 * The wire is a FIFO because every frame takes the same propagation delay;
 * only its head has an arrival event pending.
 */
#include "net/flowctl.h"

/* The body of port_kick for a port that may send now, specialised by its
 * owner's kind (a compile-time constant in each caller below), so a switch
 * port's path carries none of the NIC's planning and each inlines only its
 * own dequeue. */
static inline __attribute__((always_inline)) void kick_send(struct net *n, uint32_t port, struct port *pt,
                                                            int is_host)
{
    simtime_t now = n->el.now;
    uint32_t pi = is_host ? host_dequeue(n, &n->hosts[pt->owner]) : switch_dequeue(n, &n->sws[pt->owner], port);
    if (pi == PKT_NONE)
        return;
    struct packet *p = pkt(&n->pool, pi);
    uint64_t wire = (uint64_t)p->bytes + n->cfg.preamble_ifg;
    pt->busy_until = now + (pt->ps_per_byte ? wire * pt->ps_per_byte : tx_time_ps(wire, pt->rate_bps));
    p->due = pt->busy_until + pt->delay_ps;
    pt->st.tx_pkts++;
    pt->st.tx_bytes += p->bytes;
    pt->st.tx_wire_bytes += wire;
    if (p->type == PKT_DATA)
        pt->st.tx_data_bytes += p->payload;
    if (__builtin_expect(n->tap != NULL, 0))
        n->tap(n->tap_ctx, n, port, pi, 0);
    int was_empty = pt->wire.count == 0;
    pktq_push(&n->pool, &pt->wire, pi);
    if (was_empty)
        net_schedule(n, p->due, EV_WIRE, port);
    /* Arm the one event this port needs next: the end of this frame if
     * something is waiting, else (a NIC) the time its next flow may send.
     * An older "done" event still in the heap is stale now (port_tx_done
     * ignores it), so it no longer counts as pending. */
    pt->txdone_pending = 0;
    simtime_t next = SIMTIME_NEVER;
    if (pt->qmask) {                    /* something is queued */
        next = pt->busy_until;
    } else if (is_host) {
        struct host *h = &n->hosts[pt->owner];
        if (h->next_ready <= pt->busy_until)
            next = pt->busy_until;
        else if (h->next_ready != SIMTIME_NEVER)
            host_arm_wake(n, h, h->next_ready);
    }
    if (next != SIMTIME_NEVER) {
        pt->txdone_pending = 1;
        net_schedule(n, next, EV_TX_DONE, port);
    }
}

static __attribute__((noinline)) void kick_switch_port(struct net *n, uint32_t port, struct port *pt)
{
    kick_send(n, port, pt, 0);
}

static __attribute__((noinline)) void kick_host_port(struct net *n, uint32_t port, struct port *pt)
{
    kick_send(n, port, pt, 1);
}

void port_kick(struct net *n, uint32_t port)
{
    struct port *pt = &n->ports[port];
    if (pt->down)
        return;                                 /* a failed link sends nothing */
    if (pt->busy_until > n->el.now) {
        if (!pt->txdone_pending) {
            pt->txdone_pending = 1;
            net_schedule(n, pt->busy_until, EV_TX_DONE, port);
        }
        return;
    }
    if (pt->owner_kind == NODE_SWITCH)
        kick_switch_port(n, port, pt);
    else
        kick_host_port(n, port, pt);
}

void port_tx_done(struct net *n, uint32_t port)
{
    struct port *pt = &n->ports[port];
    /* A frame can start at the very instant an older "done" event is due
     * (an arrival at that time ran first); that event is then stale: the
     * current frame's end has its own event. */
    if (pt->busy_until != n->el.now)
        return;
    pt->txdone_pending = 0;
    port_kick(n, port);
}

void port_set_pause(struct net *n, uint32_t port, uint8_t cls, int on)
{
    struct port *pt = &n->ports[port];
    uint8_t bit = (uint8_t)(1u << cls);
    simtime_t now = n->el.now;
    if (on) {
        pt->st.pfc_rcvd++;
        if (!(pt->paused & bit)) {
            pt->paused |= bit;
            pt->paused_since[cls] = now;
            if (pt->owner_kind == NODE_SWITCH && (n->sws[pt->owner].fc_flags & FCB_PAUSE))
                n->sws[pt->owner].fc->on_pause(n, &n->sws[pt->owner], port, cls, 1);
        }
    } else if (pt->paused & bit) {
        pt->paused &= (uint8_t)~bit;
        pt->st.paused_ps[cls] += now - pt->paused_since[cls];
        if (pt->owner_kind == NODE_HOST)
            host_pfc_resumed(n, &n->hosts[pt->owner], cls, pt->paused_since[cls]);
        else if (n->sws[pt->owner].fc_flags & FCB_PAUSE)
            n->sws[pt->owner].fc->on_pause(n, &n->sws[pt->owner], port, cls, 0);
        port_kick(n, port);
    }
}

void port_wire_arrive(struct net *n, uint32_t port)
{
    struct port *pt = &n->ports[port];
    /* After a link failure flushed the wire, its arrival event is stale. */
    if (pt->wire.count == 0 || pkt(&n->pool, pt->wire.head)->due != n->el.now)
        return;
    uint32_t pi = pktq_pop(&n->pool, &pt->wire);
    if (pt->wire.count)
        net_schedule(n, pkt(&n->pool, pt->wire.head)->due, EV_WIRE, port);
    n->hops++;
    if (__builtin_expect(n->tap != NULL, 0))
        n->tap(n->tap_ctx, n, port, pi, 1);
    uint32_t at = pt->peer;
    struct packet *p = pkt(&n->pool, pi);
    if (__builtin_expect(pkt_link_local(p->type), 0)) {
        if (p->type == PKT_FCTL) {      /* a flow-control scheme's frame (flowctl.h) */
            fc_receive(n, at, pi);
            return;
        }
        /* MAC control: acts on the receiving port's own transmitter. */
        port_set_pause(n, at, p->prio, p->pfc_on);
        net_consume(n, pi);
        return;
    }
    const struct port *in = &n->ports[at];
    if (in->owner_kind == NODE_SWITCH)
        switch_receive(n, &n->sws[in->owner], at, pi);
    else
        host_receive(n, &n->hosts[in->owner], pi);
}

void port_enqueue_ctrl(struct net *n, uint32_t port, uint32_t pi)
{
    struct port *pt = &n->ports[port];
    struct packet *p = pkt(&n->pool, pi);
    uint32_t q = pkt_link_local(p->type) ? QMAC : p->prio;     /* PFC and PKT_FCTL: MAC control */
    port_q_push(n, pt, q, pi);
    port_kick(n, port);
}
