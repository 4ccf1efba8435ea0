/*
 * host.c -- the RDMA NIC: flows (QPs), pacing, ACK/NACK, go-back-N, and the
 * CNP reaction delay.
 *
 * Sending: the NIC has one egress port.  Control frames it must send (ACK,
 * NACK) wait in the port's class queues and go first; data is not queued but
 * made on demand when the serializer frees up, from the next eligible flow in
 * round-robin order.  A flow is eligible when it has bytes left, its class is
 * not paused by PFC nor held by a flow-control rate gate (flowctl.h), its
 * window (if any) is open and its pacer allows it (next_avail <= now).  When
 * every flow is only waiting for its pacer the host arms one wake-up event
 * at the earliest next_avail.
 *
 * Pacing keeps a schedule.  Each frame has a slot, the time it was due
 * (last_due); after a frame of w wire bytes at rate r the next slot is
 * w*8/r after this one, not after the moment the frame left.  A frame that
 * waited behind other flows' frames or control frames is late, and the
 * flow makes the time up by sending its next frames sooner -- otherwise
 * every wait is lost for good and paced flows sharing a NIC fall below
 * their rates and lock together (5.7, 4.42 and 4.9 Gb/s on a 40G NIC got
 * 5.69, 4.27, 4.27).  The catch-up is bounded: a frame's slot is never
 * taken earlier than now - B, with
 *
 *     B = pacer_burst * max(w*8/r, n * w*8/line)
 *
 * for n flows in the NIC's round robin: one of the flow's own gaps, or one
 * round of the NIC (every flow one frame at line rate), whichever is
 * longer.  One round is what a due frame can wait behind round-robin
 * service when all flows fall due at once -- which flows with equal caps
 * started together keep doing, since their slots stay in phase -- so a
 * bound of a few own frames is not enough for a large flow among many
 * small ones, while a round is.  After any stall (PFC pause, the NIC busy)
 * a flow thus sends at most 1 + B/gap frames back to back; summed over the
 * NIC's flows the catch-up is at most about one round, since the rates
 * fit the line.  pacer_burst = 0 is the old pacer (no credit).  Only
 * waiting for the NIC earns credit; waiting for the network does not: no
 * credit is banked before a flow starts (its first slot is its start),
 * while its window is closed (the slot moves to the ACK that opens it),
 * while PFC pauses its class (host_pfc_resumed), nor across any moment
 * the port was idle (busy_since: an idle NIC would have sent the frame had
 * the flow been ready, so it was not) -- which also covers a flow without
 * data, and makes a flow alone on its NIC pace exactly as before.  A rate change re-times the next
 * slot from the last one (last_due + w*8/r_new), so a cut or a recovery
 * doubling takes effect on the very next frame, but not earlier than the
 * old slot or now, whichever is earlier: a rise earns no credit for the
 * time before it (a flow that was on schedule starts the new rate now),
 * while credit a late flow had is kept; a cut shrinks the credit (it is
 * time, worth fewer bytes at the new rate), and after a rise the bound at
 * the new rate applies when the frame goes.
 *
 * Receiving: data in order advances rcv_nxt and is acknowledged every
 * ack_interval packets (and always on the last byte); a gap produces one NACK
 * per expected sequence (RoCEv2 go-back-N: the sender rewinds snd_nxt).  In
 * lossy mode a retransmission timeout covers a lost tail or a lost NACK.
 * CNPs are held for the NIC reaction delay (RoCC §6: 15 us) in a FIFO -- the
 * delay is constant, so one pending event serves all of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcqcn.h"
#include "net/agent_lscc.h"
#include "net/agent_rocc.h"
#include "net/flowctl.h"

uint64_t flow_line_rate(const struct net *n, const struct flow *f)
{
    return n->ports[n->hosts[f->src].port].rate_bps;
}

static void flow_update_rate(struct net *n, struct flow *f)
{
    uint64_t r = flow_line_rate(n, f);
    if (f->app_rate_bps && f->app_rate_bps < r)
        r = f->app_rate_bps;
    if (f->cc_rate_bps && f->cc_rate_bps < r)
        r = f->cc_rate_bps;
    if (r == f->rate_bps)
        return;
    f->rate_bps = r;
    if (f->last_wire_bytes) {
        /* Re-time the next slot from the last one, but never earlier than
         * the old slot or now, whichever is earlier: a rise gives no credit
         * for the time before it, and credit already earned stays. */
        simtime_t now = n->el.now, next = f->last_due + tx_time_ps(f->last_wire_bytes, r);
        simtime_t floor = f->next_avail < now ? f->next_avail : now;
        f->next_avail = next > floor ? next : floor;
    }
}

const struct transport_ops transport_line = { .name = "none" };

void flow_set_cc_deadline(struct net *n, struct flow *f, simtime_t deadline)
{
    f->cc_deadline = deadline;
    flow_timer_arm(n, flow_index(n, f));
}

void flow_rx_timer_at(struct net *n, struct flow *f, simtime_t t)
{
    net_schedule(n, t < n->el.now ? n->el.now : t, EV_FLOW_RX_TIMER, flow_index(n, f));
}

static inline int idle_plan_holds(const struct net *n, const struct host *h);
static inline int flow_fits_plan(const struct net *n, const struct host *h, const struct flow *f);
#ifdef ROCC_AUDIT
static void audit_idle_plan(const struct net *n, const struct host *h);
#endif

void flow_set_cc_rate(struct net *n, struct flow *f, uint64_t bps)
{
    uint64_t old = f->rate_bps;
    f->cc_rate_bps = bps;
    flow_update_rate(n, f);
    if (f->rate_bps > old && (f->flags & FL_ACTIVE) && !n->hosts[f->src].in_dequeue) {
        /* may be sendable sooner: kick, unless the idle port's plan
         * provably stays as it is (flow_fits_plan) */
        struct host *h = &n->hosts[f->src];
        if (!(idle_plan_holds(n, h) && flow_fits_plan(n, h, f)))
            port_kick(n, h->port);
#ifdef ROCC_AUDIT
        else
            audit_idle_plan(n, h);
#endif
    }
}

static inline int flow_has_data(const struct flow *f)
{
    return f->snd_nxt < f->size;
}

/* The flow may not send now whatever its pacer says: its window is full,
 * or it sends against credits (FL_CREDITED) and holds none. */
static inline int flow_held(const struct flow *f)
{
    return (f->window && f->snd_nxt - f->snd_una >= f->window) ||
           (__builtin_expect(f->flags & FL_CREDITED, 0) && f->tx_credits == 0);
}

static inline __attribute__((always_inline)) simtime_t scan_flows(const struct net *n, const struct host *h,
                                                                 const struct port *pt, simtime_t now,
                                                                 uint32_t *pick);

/* Control frame pi (ACK, NAK, CNP) leaves host h: port_enqueue_ctrl, or
 * when the port is idle with nothing queued (and its class not paused or
 * gated, no rate gates anywhere) straight to the wire -- the push,
 * port_kick's tests, the class pick and the pop that host_dequeue would
 * do at once are skipped, and everything else it does is done here the
 * same way: the busy period's start, the plan of the next data frame
 * (next_ready), and port_send's wake-up. */
static __attribute__((noinline)) void host_ctrl_out(struct net *n, struct host *h, uint32_t pi)
{
    struct port *pt = host_port(n, h);
    simtime_t now = n->el.now;
    uint32_t q = pkt(&n->pool, pi)->prio;
    if (pt->qmask || pt->down || pt->busy_until > now || ((pt->paused | pt->gated) >> q & 1) ||
        n->fc_gates != NULL) {
        port_enqueue_ctrl(n, h->port, pi);
        return;
    }
    if (pt->busy_until < now)
        h->busy_since = now;
    h->next_ready = h->n_active ? scan_flows(n, h, pt, now, NULL) : SIMTIME_NEVER;
    port_send(n, h->port, pt, pi, 1);
}

/* ACK or NAK for `data` (the packet that triggered it): echoes its send
 * timestamp (RTT for TIMELY), the CE marks seen since the last ACK (ECE, for
 * DCTCP) and its INT record (HPCC). */
/* Answer data frame `data` with an ACK or NAK.  The frame has arrived and
 * is done with, so its pool slot becomes the reply: the data frame counts
 * as consumed and the reply as created, exactly as if one were freed and
 * the other allocated, without the pool round trip.  The INT record at
 * that index (HPCC) is the one the reply must echo, so it stays. */
static void reply_ctrl(struct net *n, struct host *h, struct flow *f, enum pkt_type type, uint64_t seq,
                       uint32_t data)
{
    struct packet *p = pkt(&n->pool, data);
    simtime_t ts = p->ts;
    uint8_t int_flags = (p->flags & PF_INT) && n->intr ? PF_INT : 0, nhop = p->nhop;
    n->consumed[p->type]++;
    n->created[type]++;
    memset(p, 0, sizeof *p);
    p->next = PKT_NONE;
    p->type = (uint8_t)type;
    p->flow = flow_index(n, f);
    p->seq = seq;
    p->dst = f->src;
    p->bytes = (uint16_t)(ROCE_ACK_FRAME + f->hdr_extra + n->cfg.fc_hdr_bytes);
    p->prio = n->cfg.ack_high_prio ? n->cfg.ctrl_prio : f->prio;
    p->ts = ts;
    p->ecn = f->ece;
    f->ece = 0;
    if (int_flags) {
        p->flags = PF_INT;
        p->nhop = nhop;
    }
    if (f->tp->on_rx_ctrl)
        f->tp->on_rx_ctrl(n, f, p);
    host_ctrl_out(n, h, data);
}

static void send_np_cnp(struct net *n, struct host *h, struct flow *f)
{
    uint32_t pi = net_new_packet(n, PKT_CNP);
    if (pi == PKT_NONE)
        return;
    struct packet *p = pkt(&n->pool, pi);
    p->flow = flow_index(n, f);
    p->dst = f->src;
    p->bytes = ROCE_CNP_FRAME;
    p->prio = n->cfg.ctrl_prio;
    p->cnp_kind = CNP_ECN;
    p->ts = n->el.now;
    host_ctrl_out(n, h, pi);
}

void host_arm_wake(struct net *n, struct host *h, simtime_t t)
{
    if (t < h->wake_at) {
        h->wake_at = t;
        net_schedule(n, t, EV_HOST_WAKE, (uint32_t)(h - n->hosts));
    }
}

/* Class `cls` of h's port was paused by PFC from `since` until now.  The
 * pause is the network's time, not the NIC's: the pacer banks none of it
 * (header comment).  A flow already late when the pause began keeps that
 * lateness; a slot that fell inside the pause moves to now. */
void host_pfc_resumed(struct net *n, struct host *h, uint8_t cls, simtime_t since)
{
    simtime_t now = n->el.now;
    for (uint32_t i = 0; i < h->n_active; i++) {
        struct flow *f = &n->flows[h->active[i]];
        if (f->prio != cls)
            continue;
        if (f->next_avail < since)
            f->next_avail += now - since;
        else if (f->next_avail < now)
            f->next_avail = now;
    }
}

/* Drop finished flows from the round-robin list, keeping its order. */
static void host_compact(struct net *n, struct host *h)
{
    uint32_t w = 0, rr = 0;
    for (uint32_t r = 0; r < h->n_active; r++) {
        uint32_t fi = h->active[r];
        if (n->flows[fi].flags & FL_DONE)
            continue;
        if (r < h->rr)
            rr++;
        h->active[w++] = fi;
    }
    h->n_active = w;
    h->rr = w ? rr % w : 0;
    h->n_done = 0;
}

/* One pass over h's active flows in round-robin order.  With `pick`, the
 * first flow ready now is chosen (*pick = its slot, else NONE32) and left
 * out of the result.  Returns the earliest time another flow may send --
 * now if one is ready -- or SIMTIME_NEVER: what the port plans around. */
static inline __attribute__((always_inline)) simtime_t scan_flows(const struct net *n, const struct host *h,
                                                                   const struct port *pt, simtime_t now, uint32_t *pick)
{
    simtime_t earliest = SIMTIME_NEVER;
    for (uint32_t i = 0; i < h->n_active; i++) {
        uint32_t slot = h->rr + i < h->n_active ? h->rr + i : h->rr + i - h->n_active;
        const struct flow *f = &n->flows[h->active[slot]];
        if (!flow_has_data(f) || ((pt->paused | pt->gated) & (1u << f->prio)))
            continue;
        if (flow_held(f))
            continue;
        if (pick && *pick == NONE32 && f->next_avail <= now) {
            *pick = slot;
            continue;
        }
        simtime_t t = f->next_avail > now ? f->next_avail : now;
        if (t < earliest)
            earliest = t;
    }
    return earliest;
}

/* A late frame's slot (header comment): f->last_due is its own slot and
 * f->next_avail the next one.  The slot may not lie before the port's
 * current busy period (had the port been idle after it, the NIC would
 * have sent the flow had it been ready: the wait was the network's), nor
 * more than the burst bound B before now.  Out of line, with everything
 * read back from the flow: a flow alone on its NIC is never late, and the
 * hot path stays light. */
static __attribute__((noinline)) void pacer_late(struct net *n, struct flow *f)
{
    const struct host *h = &n->hosts[f->src];
    const struct port *pt = &n->ports[h->port];
    simtime_t now = n->el.now, due = f->last_due;
    uint64_t gap = f->next_avail - due, wire = f->last_wire_bytes;
    if (due < h->busy_since)
        due = h->busy_since;
    uint64_t line = pt->ps_per_byte ? wire * pt->ps_per_byte : tx_time_ps(wire, pt->rate_bps);
    uint64_t round = line * h->n_active;
    uint64_t bound = (gap > round ? gap : round) * n->cfg.pacer_burst;
    f->last_due = due + bound < now ? now - bound : due;
    f->next_avail = f->last_due + gap;
}

uint32_t host_dequeue(struct net *n, struct host *h)
{
    struct port *pt = host_port(n, h);
    simtime_t now = n->el.now;
    if (pt->busy_until < now)
        h->busy_since = now;         /* the port was idle: a new busy period */
    /* MAC control (never paused), then classes high->low that are not paused
     * (or held by a flow-control rate gate, flowctl.h). */
    uint32_t ready = pt->qmask & ~(uint32_t)(pt->paused | pt->gated);
    if (ready) {
        /* The plan stays exact across a control frame: a rate increase or
         * an opened window while the port was busy must count when this
         * frame ends, not at a wake-up planned before it. */
        h->next_ready = h->n_active ? scan_flows(n, h, pt, now, NULL) : SIMTIME_NEVER;
        uint32_t q = 31u - (uint32_t)__builtin_clz(ready);
        uint32_t qi = port_q_pop(n, pt, q);
        if (__builtin_expect(n->fc_gates != NULL, 0) && q < NCLASS)
            fc_gate_after_tx(n, pt, h->port, (uint8_t)q, pkt(&n->pool, qi)->bytes + n->cfg.preamble_ifg);
        return qi;
    }
    if (h->n_done)
        host_compact(n, h);
    /* The first flow ready now is served; the others tell when the host
     * could send next (next_ready), so the port arms exactly one event for
     * that time. */
    uint32_t chosen = NONE32;
    simtime_t earliest = scan_flows(n, h, pt, now, &chosen);
    if (chosen == NONE32) {
        h->next_ready = earliest;
        if (earliest != SIMTIME_NEVER)
            host_arm_wake(n, h, earliest);
        return PKT_NONE;
    }
    /* Make the next data frame of the chosen flow. */
    struct flow *f = &n->flows[h->active[chosen]];
    simtime_t due = f->next_avail;   /* this frame's slot, before on_send re-times it */
    uint32_t pi = net_new_packet(n, PKT_DATA);
    if (pi == PKT_NONE)
        return PKT_NONE;
    struct packet *p = pkt(&n->pool, pi);
    uint64_t left = f->size - f->snd_nxt;
    uint32_t payload = left < n->cfg.mtu_payload ? (uint32_t)left : n->cfg.mtu_payload;
    uint32_t bytes = payload + ROCE_DATA_OVERHEAD + f->hdr_extra + n->cfg.fc_hdr_bytes;
    p->flow = flow_index(n, f);
    p->seq = f->snd_nxt;
    p->payload = (uint16_t)payload;
    p->bytes = (uint16_t)(bytes < ETH_MIN_FRAME ? ETH_MIN_FRAME : bytes);
    p->dst = f->dst;
    p->prio = f->prio;
    p->ts = now;
    if (f->first_tx_ps == SIMTIME_NEVER)
        f->first_tx_ps = now;
    if (f->snd_nxt + payload >= f->size)
        p->flags |= PF_LAST;
    if (f->snd_nxt < f->snd_max) {
        f->retx_bytes += payload;
        p->flags |= PF_RETX;
    }
    if (f->tp->int_telemetry) {
        p->flags |= PF_INT | PF_INT_STAMP;
        p->nhop = 0;
    }
    f->snd_nxt += payload;
    if (f->snd_nxt > f->snd_max)
        f->snd_max = f->snd_nxt;
    if (f->tp->on_send) {
        h->in_dequeue = 1;           /* the frame being made is the next to go */
        f->tp->on_send(n, f, p);
        h->in_dequeue = 0;
    }
    uint32_t wire = p->bytes + n->cfg.preamble_ifg;
    if (__builtin_expect(n->fc_gates != NULL, 0))
        fc_gate_after_tx(n, pt, h->port, p->prio, wire);
    uint64_t gap = tx_time_ps(wire, f->rate_bps);
    f->last_wire_bytes = wire;
    f->last_due = due;
    f->next_avail = due + gap;
    if (__builtin_expect(due < now, 0))
        pacer_late(n, f);
    if (flow_has_data(f) && f->next_avail < earliest && !flow_held(f))
        earliest = f->next_avail;
    h->next_ready = earliest;
    if (n->cfg.rto_ps && f->rto_deadline == SIMTIME_NEVER) {
        f->rto_deadline = now + n->cfg.rto_ps;
        flow_timer_arm(n, p->flow);
    }
    h->rr = chosen + 1 < h->n_active ? chosen + 1 : 0;
    return pi;
}

/* Whether kicking h's port now would only remake the plan it already has.
 * While the port is idle the NIC keeps a plan: no flow is ready, and one
 * wake-up is armed at or before the earliest pacer slot.  host_dequeue
 * makes the plan after every frame, control frames included, and every
 * change that can bring a flow forward -- a rate increase, a flow start, a
 * PFC resume, a link coming up, an RTO rewind, an ACK that opens a window
 * -- kicks the port, which remakes it.  Not covered, so still kicked: a
 * busy port (its kick arms the transmit-done event), queued control
 * frames, and a wake-up or transmit-done due at this very instant (the kick
 * would send before that event runs, and the order of what follows could
 * differ).  Saves the walk over the host's flows on every ACK of a paced
 * flow. */
static inline int idle_plan_holds(const struct net *n, const struct host *h)
{
    const struct port *pt = &n->ports[h->port];
    simtime_t now = n->el.now;
    return pt->busy_until <= now && !pt->txdone_pending && !pt->qmask && !pt->down && h->wake_at > now;
}

/* Whether flow f, the only flow of h changed since h's port last made its
 * plan, still fits that plan: f cannot send now, nor before the wake-up
 * already armed (it has no data, its window or credits hold it, or its
 * next slot is at or after wake_at).  With idle_plan_holds(n, h), a kick
 * would then find nothing to send and arm nothing new: the plan's
 * earliest slot is f's or another flow's, and no other flow changed.  A
 * paused class counts as ready here (the kick is made; it was before). */
static inline int flow_fits_plan(const struct net *n, const struct host *h, const struct flow *f)
{
    return !flow_has_data(f) || flow_held(f) || (f->next_avail > n->el.now && f->next_avail >= h->wake_at);
}

#ifdef ROCC_AUDIT
/* The skipped kick would have found nothing to send and armed nothing new. */
static void audit_idle_plan(const struct net *n, const struct host *h)
{
    simtime_t now = n->el.now;
    simtime_t earliest = scan_flows(n, h, &n->ports[h->port], now, NULL);
    if (earliest <= now || earliest < h->wake_at) {
        fprintf(stderr, "audit: host %u at %llu ps: an ACK skipped the kick, but the plan is stale "
                "(earliest %llu, wake at %llu)\n", (unsigned)(h - n->hosts), (unsigned long long)now,
                (unsigned long long)earliest, (unsigned long long)h->wake_at);
        abort();
    }
}
#endif

static void flow_check_done(struct net *n, struct flow *f)
{
    if (!(f->flags & FL_DONE) && f->snd_una >= f->size) {
        f->flags |= FL_DONE;
        n->hosts[f->src].n_done++;
        f->rto_deadline = SIMTIME_NEVER;
        n->flows_done++;
        net_qp_done(n, flow_index(n, f));
    }
}

/* A data frame of a transport whose receiver takes frames in any order
 * (transport_ops.rx_unordered, Homa): count its bytes; the last one is
 * answered by an ACK of the whole message, nothing else is.  No frame is
 * sent twice under such a transport (it has no go-back-N), so the count
 * is the bytes received. */
static void rx_unordered(struct net *n, struct host *h, struct flow *f, uint32_t pi)
{
    const struct packet *p = pkt(&n->pool, pi);
    f->rcv_nxt += p->payload;
    f->rx_wire_bytes += (uint64_t)p->bytes + n->cfg.preamble_ifg;
    n->delivered_bytes += p->payload;
    if (f->rcv_nxt >= f->size && !(f->flags & FL_RX_DONE)) {
        f->flags |= FL_RX_DONE;
        f->finish_ps = n->el.now;
        reply_ctrl(n, h, f, PKT_ACK, f->size, pi);
        return;
    }
    net_consume(n, pi);
}

/* HPCC*'s direct INT (LSCC §III-D, agent_lscc_int.c): taken at once, like
 * the ACK whose INT it stands for, only by a source whose transport takes
 * direct INTs, from a switch, with 1..INT_MAX_HOPS hops.  Anything else has
 * no effect (counted in cnp_filtered_host); the transport checks the rest
 * (the B field) and counts its refusals there too. */
static void host_direct_int(struct net *n, struct host *h, struct flow *f, uint32_t pi)
{
    const struct packet *p = pkt(&n->pool, pi);
    if (!f->tp->direct_int || !f->tp->on_cnp || f->src != (uint32_t)(h - n->hosts) || !(p->flags & PF_INT) ||
        !n->intr || p->nhop < 1 || p->nhop > INT_MAX_HOPS || p->cnp_src >= n->n_nodes ||
        n->nodes[p->cnp_src].kind != NODE_SWITCH) {
        n->cnp_filtered_host++;
        net_consume(n, pi);
        return;
    }
    if (!(f->flags & FL_DONE)) {
        int shut0 = f->window && f->snd_nxt - f->snd_una >= f->window;
        f->tp->on_cnp(n, f, p);
        /* no pacer credit for the time the window was shut (as for ACKs) */
        if (shut0 && f->next_avail < n->el.now && !(f->window && f->snd_nxt - f->snd_una >= f->window))
            f->next_avail = n->el.now;
    }
    net_consume(n, pi);
    if (flow_has_data(f))
        port_kick(n, h->port);
}

void host_receive(struct net *n, struct host *h, uint32_t pi)
{
    struct packet *p = pkt(&n->pool, pi);
    struct flow *f = &n->flows[p->flow];
    simtime_t now = n->el.now;
    switch ((enum pkt_type)p->type) {
    case PKT_DATA:
        if (__builtin_expect(f->tp->on_rx_data != NULL, 0)) {
            f->tp->on_rx_data(n, f, p);
            p = pkt(&n->pool, pi);      /* it may have made packets */
        }
        f->ece |= p->ecn;
        if (__builtin_expect(p->lscc_np != 0, 0))
            lscc_np_on_data(n, f, p);       /* LSCC's local egress sets the NP's interval (agent_lscc.h) */
        if (p->ecn && f->tp->np_cnp && dcqcn_np_due(f->np_last_cnp != 0, f->np_last_cnp, f->np_interval, now)) {
            f->np_last_cnp = now ? now : 1;         /* 0 means none sent yet */
            send_np_cnp(n, h, f);
            p = pkt(&n->pool, pi);      /* the pool may have moved */
        }
        /* In-order check (docs/escape.md): a first copy that starts before
         * the furthest first-copy byte already seen was overtaken. */
        if (!(p->flags & PF_RETX)) {
            if (__builtin_expect(p->seq < f->rx_high, 0)) {
                f->out_of_order++;
                n->out_of_order++;
            } else {
                f->rx_high = p->seq + p->payload;
            }
        }
        if (f->tp->rx_unordered) {
            rx_unordered(n, h, f, pi);
            return;
        }
        if (p->seq == f->rcv_nxt) {
            f->rcv_nxt += p->payload;
            if (__builtin_expect(n->rx_adv != NULL, 0) && (size_t)(f - n->flows) < n->n_rx_adv)
                n->rx_adv[f - n->flows] = now;
            f->rx_wire_bytes += (uint64_t)p->bytes + n->cfg.preamble_ifg;
            n->delivered_bytes += p->payload;
            f->nack_for = UINT64_MAX;
            int last = f->rcv_nxt >= f->size;
            if (last && !(f->flags & FL_RX_DONE)) {
                f->flags |= FL_RX_DONE;
                f->finish_ps = now;
            }
            if (++f->since_ack >= n->cfg.ack_interval || last) {
                f->since_ack = 0;
                reply_ctrl(n, h, f, PKT_ACK, f->rcv_nxt, pi);
                return;
            }
        } else if (p->seq > f->rcv_nxt) {
            /* One NAK per gap, repeated after nack_interval if the gap is
             * still open (the resent packet may have been dropped too). */
            if (f->nack_for != f->rcv_nxt || now - f->last_nack >= n->cfg.nack_interval_ps) {
                f->nack_for = f->rcv_nxt;
                f->last_nack = now;
                reply_ctrl(n, h, f, PKT_NACK, f->rcv_nxt, pi);
                return;
            }
        } else if (++f->since_ack >= n->cfg.ack_interval) {
            f->since_ack = 0;                      /* duplicate after a rewind */
            reply_ctrl(n, h, f, PKT_ACK, f->rcv_nxt, pi);
            return;
        }
        net_consume(n, pi);
        return;
    case PKT_ACK:
    case PKT_NACK: {
        uint64_t window0 = f->window, rate0 = f->rate_bps;
        simtime_t avail0 = f->next_avail;
        int shut0 = window0 && f->snd_nxt - f->snd_una >= window0;
        int is_ack = p->type == PKT_ACK;
        f->acked_delta = p->seq > f->snd_una ? p->seq - f->snd_una : 0;
        if (p->seq > f->snd_una) {
            f->snd_una = p->seq;
            if (n->cfg.rto_ps)
                f->rto_deadline = f->snd_una < f->snd_nxt ? now + n->cfg.rto_ps : SIMTIME_NEVER;
        }
        if (p->type == PKT_NACK) {
            f->nacks++;
            if (p->seq < f->snd_nxt)
                f->snd_nxt = p->seq;               /* go back N */
        }
        /* p is not read after on_ack: a rate it raises kicks this NIC,
         * whose next frame may grow (move) the pool. */
        if (f->tp->on_ack)
            f->tp->on_ack(n, f, p);
        /* Time spent waiting for the window is not the NIC's delay: the
         * pacer banks none of it (header comment). */
        if (shut0 && f->next_avail < now && !(f->window && f->snd_nxt - f->snd_una >= f->window))
            f->next_avail = now;
        /* A plain ACK that moved neither the window nor the pacer leaves an
         * idle port's plan exact: no kick needed (see idle_plan_holds). */
        int plain = is_ack && !window0 && !f->window && f->rate_bps == rate0 &&
                    f->next_avail == avail0;
        flow_check_done(n, f);
        net_consume(n, pi);
        /* Nor one after which f still cannot send before the planned
         * wake-up (a window that stays shut or opens to a later slot, a
         * rate cut: flow_fits_plan). */
        if (flow_has_data(f) && !((plain || flow_fits_plan(n, h, f)) && idle_plan_holds(n, h)))
            port_kick(n, h->port);
#ifdef ROCC_AUDIT
        else if (flow_has_data(f))
            audit_idle_plan(n, h);
#endif
        return;
    }
    case PKT_CNP: {
        if (__builtin_expect(p->cnp_kind == CNP_DINT, 0)) {
            host_direct_int(n, h, f, pi);
            return;
        }
        /* Junk of the CNP's ICMP type matches no queue pair; with the
         * forged-CNP defence a RoCC CNP whose CP id is not bound to its
         * source has no effect either (docs/rocc.md "Forged CNPs"). */
        if (p->cnp_kind == CNP_JUNK || (p->cnp_kind == CNP_ROCC && n->cfg.cnp_filter && !net_cnp_bound(n, p))) {
            n->cnp_filtered_host++;
            net_consume(n, pi);
            return;
        }
        /* RoCC §3.6: a host-form CNP carries Alg. 1's inputs; the host
         * computes F here (one it cannot compute has no effect). */
        if (p->cnp_form && rocc_host_compute(n, p)) {
            n->cnp_filtered_host++;
            net_consume(n, pi);
            return;
        }
        int was_empty = h->nic_delay.count == 0;
        p->due = now + n->cfg.nic_delay_ps;
        pktq_push(&n->pool, &h->nic_delay, pi);
        if (was_empty)
            net_schedule(n, p->due, EV_NIC_DELAY, (uint32_t)(h - n->hosts));
        return;
    }
    case PKT_GRANT:                 /* receiver-driven transports: more bytes may go */
        if (f->tp->on_ack && !(f->flags & FL_DONE)) {
            uint64_t window0 = f->window;
            int shut0 = window0 && f->snd_nxt - f->snd_una >= window0;
            f->tp->on_ack(n, f, p);
            /* no pacer credit for the time the window was shut (as for ACKs) */
            if (shut0 && f->next_avail < now && !(f->window && f->snd_nxt - f->snd_una >= f->window))
                f->next_avail = now;
        }
        net_consume(n, pi);
        if (flow_has_data(f))
            port_kick(n, h->port);
        return;
    case PKT_CREDIT: {              /* a credit (at the sender), credit request or stop (at the receiver) */
        /* A frame for a flow this fabric does not have, or addressed to
         * another host (a forged source route), has no effect. */
        if (p->flow >= n->n_flows || p->dst != (uint32_t)(h - n->hosts))
            break;
        int held0 = flow_held(f);
        if (f->tp->on_credit)
            f->tp->on_credit(n, f, p);
        net_consume(n, pi);
        if (f->src == (uint32_t)(h - n->hosts) && held0 && !flow_held(f) && flow_has_data(f)) {
            /* Waiting for a credit is the network's time, not the NIC's:
             * the pacer banks none of it (as for a shut window). */
            if (f->next_avail < now)
                f->next_avail = now;
            port_kick(n, h->port);
        }
        return;
    }
    case PKT_PFC:
    case PKT_FCTL:                  /* link-local to switches: a host has no scheme */
    case PKT_NTYPES:
        break;
    }
    net_consume(n, pi);
}

void host_nic_delay_done(struct net *n, uint32_t host)
{
    struct host *h = &n->hosts[host];
    uint32_t pi = pktq_pop(&n->pool, &h->nic_delay);
    if (h->nic_delay.count)
        net_schedule(n, pkt(&n->pool, h->nic_delay.head)->due, EV_NIC_DELAY, host);
    struct packet *p = pkt(&n->pool, pi);
    struct flow *f = &n->flows[p->flow];
    if (f->tp->on_cnp && !(f->flags & FL_DONE)) {
        f->cnps_rx += f->cnps_rx != UINT16_MAX;
        f->tp->on_cnp(n, f, p);
    }
    net_consume(n, pi);
}

void flow_start(struct net *n, uint32_t fi)
{
    struct flow *f = &n->flows[fi];
    struct host *h = &n->hosts[f->src];
    f->flags |= FL_ACTIVE;
    f->next_avail = n->el.now;         /* no pacer credit from before the start */
    f->cc_rate_bps = 0;
    f->rate_bps = 0;
    flow_update_rate(n, f);
    h->active[h->n_active++] = fi;
    if (f->tp->start)
        f->tp->start(n, f);
    if (f->stop_ps != SIMTIME_NEVER && f->stop_ps > f->start_ps)
        net_schedule(n, f->stop_ps, EV_FLOW_STOP, fi);
    if (f->size == 0) {
        f->flags |= FL_DONE | FL_RX_DONE;
        h->n_done++;
        f->finish_ps = f->first_tx_ps = n->el.now;
        n->flows_done++;
        net_qp_done(n, fi);
        return;
    }
    port_kick(n, h->port);
}

void flow_stop(struct net *n, uint32_t fi)
{
    struct flow *f = &n->flows[fi];
    f->flags |= FL_STOPPED;
    int cut = f->size > f->snd_max;
    if (cut)
        f->size = f->snd_max;          /* the application stops producing */
    /* The receiver's finish, from here: a sequential shortcut for the
     * outputs (net.h "Ownership"; a partitioned run redoes it in its
     * merge).  A transport's receiver learns of the stop by a frame. */
    if (f->rcv_nxt >= f->size && !(f->flags & FL_RX_DONE)) {
        f->flags |= FL_RX_DONE;
        f->finish_ps = n->el.now;
    }
    if (cut && f->tp->on_stop)
        f->tp->on_stop(n, f);
    flow_check_done(n, f);
}

void flow_timer_arm(struct net *n, uint32_t fi)
{
    struct flow *f = &n->flows[fi];
    simtime_t want = f->cc_deadline < f->rto_deadline ? f->cc_deadline : f->rto_deadline;
    if (want == SIMTIME_NEVER || want >= f->timer_armed)
        return;
    if (want < n->el.now)
        want = n->el.now;
    f->timer_armed = want;
    net_schedule(n, want, EV_FLOW_TIMER, fi);
}

void flow_timer_fire(struct net *n, uint32_t fi)
{
    struct flow *f = &n->flows[fi];
    simtime_t now = n->el.now;
    if (f->timer_armed != now)
        return;                        /* superseded by an earlier arm */
    f->timer_armed = SIMTIME_NEVER;
    if (f->cc_deadline <= now) {
        if (f->tp->on_timer && !(f->flags & FL_DONE))
            f->tp->on_timer(n, f);
        if (f->cc_deadline <= now)
            f->cc_deadline = SIMTIME_NEVER;    /* a CC that did not re-arm */
    }
    if (f->rto_deadline <= now) {
        if (!(f->flags & FL_DONE) && f->snd_una < f->snd_nxt) {
            f->timeouts++;
            f->snd_nxt = f->snd_una;   /* resend from the first unacked byte */
            f->rto_deadline = now + n->cfg.rto_ps;
            port_kick(n, n->hosts[f->src].port);
        } else {
            f->rto_deadline = SIMTIME_NEVER;
        }
    }
    flow_timer_arm(n, fi);
}
