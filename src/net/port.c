/*
 * port.c -- one direction of a link: serializer, wire, PFC pause state.
 *
 * A port is either idle, or busy until `busy_until`.  Finishing a frame only
 * needs an event when something may be waiting to go next (txdone_pending),
 * so a lightly loaded port costs one event per packet: its wire arrival.
 * The wire is a FIFO because every frame takes the same propagation delay;
 * each frame has its own arrival event, keyed by the sender when the frame
 * left (net.h "Event order"), so arrivals at one time fire in an order
 * that depends only on the senders.
 */
#include "net/flowctl.h"

/* port_kick's sending path for a NIC port (the switch's is switch_kick,
 * switch.c, where its dequeue inlines): one body with the owner's kind a
 * constant, so it carries only the NIC's planning. */
static __attribute__((noinline)) void kick_host_port(struct net *n, uint32_t port, struct port *pt)
{
    uint32_t pi = host_dequeue(n, &n->hosts[pt->owner]);
    if (pi != PKT_NONE)
        port_send(n, port, pt, pi, 1);
}

/* port_kick's body, inline in port_tx_done too (a port's end-of-frame
 * event then reaches its owner's sending path without another call). */
static inline __attribute__((always_inline)) void kick(struct net *n, uint32_t port)
{
    struct port *pt = &n->ports[port];
    if (port_cannot_send(n, port, pt))
        return;
    if (pt->owner_kind == NODE_SWITCH)
        switch_kick(n, port, pt);
    else
        kick_host_port(n, port, pt);
}

void port_kick(struct net *n, uint32_t port)
{
    kick(n, port);
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
    kick(n, port);
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

void port_wire_put(struct net *n, uint32_t port, uint32_t pi, uint64_t key)
{
    port_wire_push(n, port, pi, key);
}

int net_wire_inject(struct net *n, uint32_t port, const struct packet *rec, const struct int_rec *ir, uint64_t key)
{
    struct port *pt = &n->ports[port];
    /* net_new_packet keeps the INT records in step with the pool; the
     * frame is not new (its sender counted it), so created[] is undone. */
    uint32_t pi = net_new_packet(n, (enum pkt_type)rec->type);
    if (pi == PKT_NONE)
        return -1;
    n->created[rec->type]--;
    struct packet *p = pkt(&n->pool, pi);
    *p = *rec;
    p->next = PKT_NONE;
    if (ir && n->intr)
        n->intr[pi] = *ir;
    n->remote_in[p->type]++;
    if (pt->down) {
        /* The link failed after the frame left (at the failure's own time,
         * before it: the sender still saw the link up): a sequential run
         * would have flushed it from the wire (net_set_link). */
        net_drop(n, port, pi);
        n->failure_drops++;
        return 0;
    }
    port_wire_put(n, port, pi, key);     /* the key its sender gave it */
    return 0;
}

void port_wire_arrive(struct net *n, uint32_t port)
{
    struct port *pt = &n->ports[port];
    /* Every frame has its own event, and a wire's frames arrive in order
     * (strictly increasing due times), so this is the head's.  After a link
     * failure flushed the wire, the events of its frames are stale. */
    if (pt->wire.count == 0 || pkt(&n->pool, pt->wire.head)->due != n->el.now)
        return;
    uint32_t pi = pktq_pop(&n->pool, &pt->wire);
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
