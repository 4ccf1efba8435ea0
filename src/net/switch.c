/*
 * switch.c -- an output-queued switch with a shared buffer and PFC.
 *
 * Buffer model (the shared-buffer MMU of commodity switch ASICs, as the HPCC
 * simulator and SONiC describe it): every byte is charged to the (ingress
 * port, class) it arrived on, in this order:
 *   1. that pair's reserve (guaranteed, small);
 *   2. the shared pool, while the pair's shared use stays under its XOFF
 *      threshold -- static (a byte count) or dynamic (alpha * free shared);
 *   3. for lossless classes with PFC on, the pair's headroom, which absorbs
 *      what is still on the wire after we send XOFF upstream.
 * A lossless class sends XOFF as soon as it spills into headroom and XON
 * when headroom is empty and shared use is xon_offset under the threshold.
 * A drop happens only when a byte fits nowhere: in a lossless class that
 * means the headroom was too small (a misconfiguration the run reports); in
 * lossy mode it is plain tail drop when the buffer is exhausted.
 * Bytes are released at dequeue in reverse order: headroom, shared, reserve.
 *
 * Scheduling: MAC control (PFC) first, then strict classes (control traffic:
 * CNPs, ACKs) from high to low, then the escape queue, then DRR among the
 * other classes; a class paused by the downstream neighbour (or held by a
 * rate gate) is skipped.  ECN (RED) marking is done at dequeue on the
 * class queue's length, like the HPCC simulator.
 *
 * Flow control: the MMU keeps the port registry (which (ingress, class)
 * sent XOFF); what happens around it -- PAUSE frames, and whatever else a
 * scheme does -- goes through the scheme's hooks (flowctl.h), each called
 * only when sw.fc_flags says the scheme has it.
 */
#include "net/flowctl.h"
#include "net/qdisc.h"

#include <stdlib.h>
#ifdef ROCC_AUDIT
#include <stdio.h>
#include <string.h>
#endif

#define IN_NONE 0xffffu              /* packet made by this switch */

static inline uint64_t xoff_base(const struct sw *s, uint32_t local)
{
    if (s->cfg.dynamic) {
        uint64_t free_shared = s->shared_pool > s->shared_used ? s->shared_pool - s->shared_used : 0;
        return (uint64_t)(s->cfg.alpha * (double)free_shared);
    }
    return s->xoff[local];
}

/* The XOFF threshold of (ingress, class): the MMU's, plus what a scheme
 * granted (fc_grant_buffer; NULL until the first grant). */
static inline uint64_t xoff_threshold(const struct sw *s, uint32_t local, uint8_t cls)
{
    uint64_t t = xoff_base(s, local);
    if (__builtin_expect(s->xoff_extra != NULL, 0))
        t += s->xoff_extra[local * NCLASS + cls];
    return t;
}

static void send_pfc(struct net *n, struct sw *s, uint32_t local, uint8_t cls, int on)
{
    if (s->fc_flags & (FCB_INGRESS | FCB_NOPAUSE)) {
        if (s->fc_flags & FCB_INGRESS)
            s->fc->on_ingress(n, s, local, cls, on);
        if (s->fc_flags & FCB_NOPAUSE)
            return;
    }
    fc_send_pause(n, n->nodes[s->node].first_port + local, cls, on);
}

/* Returns 1 if admitted (and charged), 0 if the packet must be dropped. */
static int mmu_admit(struct net *n, struct sw *s, uint32_t local, uint8_t cls, uint32_t b)
{
    const struct switch_cfg *c = &s->cfg;
    if (local == IN_NONE) {
        s->ctrl_used += b;
        return 1;
    }
    struct mmu_cnt *m = &s->cnt[local * NCLASS + cls];
    if (c->buffer_bytes == 0) {              /* unlimited buffer */
        m->shared += b;
        s->shared_used += b;
        return 1;
    }
    int lossless = c->pfc && (c->lossless_mask & (1u << cls));
    int reserved = ((c->lossless_mask | c->strict_mask) >> cls) & 1;   /* see net_finalize */
    if (reserved && m->reserve + b <= c->reserve_bytes) {
        m->reserve += b;
        s->reserve_used += b;
    } else if (lossless) {
        uint64_t thr = xoff_threshold(s, local, cls);
        if (m->hdrm == 0 && m->shared + b <= thr && s->shared_used + b <= s->shared_pool) {
            m->shared += b;
            s->shared_used += b;
        } else if (m->hdrm + b <= s->hdrm_limit[local]) {
            m->hdrm += b;
            s->hdrm_used += b;
        } else {
            return 0;
        }
        if (!m->xoff_sent && (m->hdrm > 0 || m->shared >= thr)) {
            m->xoff_sent = 1;
            send_pfc(n, s, local, cls, 1);
        }
        if (s->fc_flags & FCB_OCCUPANCY)
            s->fc->on_occupancy(n, s, local, cls);
    } else if (s->shared_used + b <= s->shared_pool) {
        m->shared += b;
        s->shared_used += b;
    } else {
        return 0;
    }
    return 1;
}

static inline __attribute__((always_inline)) void mmu_release(struct net *n, struct sw *s, uint32_t local,
                                                               uint8_t cls, uint32_t b)
{
    if (local == IN_NONE) {
        s->ctrl_used -= b;
        return;
    }
    struct mmu_cnt *m = &s->cnt[local * NCLASS + cls];
    uint64_t left = b, x;
    if (__builtin_expect(m->hdrm != 0, 0)) {    /* headroom first (only under PFC pressure) */
        x = m->hdrm < left ? m->hdrm : left;
        m->hdrm -= x; s->hdrm_used -= x; left -= x;
    }
    if (m->shared) {
        x = m->shared < left ? m->shared : left;
        m->shared -= x; s->shared_used -= x; left -= x;
    }
    if (left) {
        m->reserve -= left; s->reserve_used -= left;
    }
    if (m->xoff_sent && m->hdrm == 0) {
        uint64_t thr = xoff_threshold(s, local, cls);
        if (m->shared == 0 || m->shared + s->cfg.xon_offset <= thr) {
            m->xoff_sent = 0;
            send_pfc(n, s, local, cls, 0);
        }
    }
    if ((s->fc_flags & FCB_OCCUPANCY) && s->cfg.pfc && (s->cfg.lossless_mask >> cls & 1))
        s->fc->on_occupancy(n, s, local, cls);
}

int fc_grant_buffer(struct net *n, struct sw *s, uint32_t local, uint8_t cls, uint64_t bytes)
{
    if (!s->xoff_extra) {
        if (bytes == 0)
            return 0;
        s->xoff_extra = calloc((size_t)n->nodes[s->node].n_ports * NCLASS, sizeof *s->xoff_extra);
        if (!s->xoff_extra)
            return -1;
    }
    uint64_t *x = &s->xoff_extra[local * NCLASS + cls];
    if (bytes == 0) {
        *x = 0;                 /* the next admission above the threshold sends XOFF again */
        return 0;
    }
    /* Headroom bytes become shared bytes while the pool has room: admission
     * puts a frame in shared space only when the headroom is empty, and
     * XON waits for it to be empty. */
    struct mmu_cnt *m = &s->cnt[local * NCLASS + cls];
    uint64_t room = s->shared_pool > s->shared_used ? s->shared_pool - s->shared_used : 0;
    uint64_t mv = m->hdrm < room ? m->hdrm : room;
    m->hdrm -= mv; s->hdrm_used -= mv;
    m->shared += mv; s->shared_used += mv;
    uint64_t base = xoff_base(s, local);
    *x = (m->shared > base ? m->shared - base : 0) + bytes;
    if (m->xoff_sent && m->hdrm == 0 && m->shared + s->cfg.xon_offset <= base + *x) {
        m->xoff_sent = 0;
        send_pfc(n, s, local, cls, 0);
    }
    return 0;
}

void switch_release(struct net *n, struct sw *s, uint32_t pi)
{
    const struct packet *p = pkt(&n->pool, pi);
    mmu_release(n, s, p->in_port, p->prio, p->bytes);
}

/* FC_FORCE: admit beyond the MMU's limits, charged to the shared pool
 * (which may then exceed shared_pool: borrowed buffer), released at
 * dequeue like any frame. */
static void mmu_force(struct sw *s, uint32_t local, uint8_t cls, uint32_t b)
{
    if (local == IN_NONE) {
        s->ctrl_used += b;
        return;
    }
    s->cnt[local * NCLASS + cls].shared += b;
    s->shared_used += b;
}

static inline __attribute__((always_inline)) void sw_kick(struct net *n, struct sw *s, uint32_t port,
                                                          struct port *pt);
static inline __attribute__((always_inline)) uint32_t sw_sent(struct net *n, struct sw *s, uint32_t port,
                                                              struct port *pt, uint32_t c, uint32_t pi);

/* What every frame entering a switch egress's queueing goes through,
 * queued or sent at once (send_direct): data_bytes and its peak, the
 * buffer's peak, the port's agents. */
static inline __attribute__((always_inline)) void accepted(struct net *n, struct sw *s, uint32_t out,
                                                           struct port *pt, uint32_t pi)
{
    struct packet *p = pkt(&n->pool, pi);
    if (!(s->cfg.strict_mask & (1u << p->prio))) {
        pt->data_bytes += p->bytes;
        if (pt->data_bytes > pt->st.max_queue_bytes)
            pt->st.max_queue_bytes = pt->data_bytes;
    }
    uint64_t used = s->shared_used + s->hdrm_used + s->reserve_used + s->ctrl_used;
    if (used > s->peak_used)
        s->peak_used = used;
    for (uint32_t ai = pt->agent; ai != NONE32; ai = n->agents[ai].next) {
        struct port_agent *a = &n->agents[ai];
        if (a->ops->on_enqueue) {
            a->ops->on_enqueue(n, a->state, out, p);
            p = pkt(&n->pool, pi);      /* an agent may have made packets */
        }
    }
}

/* A frame queued at a switch egress, built-in queue or discipline
 * (qdisc.h): accepted, then the port is kicked. */
static inline void enqueued(struct net *n, struct sw *s, uint32_t out, uint32_t pi)
{
    struct port *pt = &n->ports[out];
    accepted(n, s, out, pt, pi);
    sw_kick(n, s, out, pt);
}

static int drr_alone(struct sw *s, struct port *pt, uint32_t c, uint32_t bytes);
#ifdef ROCC_AUDIT
static uint32_t pick_class(struct net *n, struct sw *s, struct port *pt);
#endif
static void send_direct(struct net *n, struct sw *s, uint32_t out, struct port *pt, uint32_t q, uint32_t pi);

static inline __attribute__((always_inline)) void enqueue(struct net *n, struct sw *s, uint32_t out, uint32_t pi)
{
    struct port *pt = &n->ports[out];
    struct packet *p = pkt(&n->pool, pi);
    uint32_t q = p->prio;
    if (__builtin_expect(p->hops != 0, 0) && (s->fc_flags & FCB_ESCQ))
        q = QESC;                       /* an escaping frame (Escape header hops != 0) */
    /* An idle egress with nothing queued (and no agents, but quiet ones,
     * or scheme hooks that could act between the enqueue and the dequeue,
     * or look at the queues) would push this
     * frame, pick it and pop it at once: it goes to the wire without
     * touching the queue.  Every other effect is as on the long way:
     * data_bytes and its peak, the buffer peak, the DRR deficit and
     * pointer (drr_alone), and sw_sent's INT stamp, MMU release and
     * counters; ECN marks on the class queue's bytes after the pop, which
     * are 0 here, so it never marks (nor draws a random number). */
    if (pt->qmask == 0 && !pt->agents_loud && pt->busy_until <= n->el.now && !pt->down &&
        !(s->fc_flags & (FCB_TX | FCB_GATE)) && !((pt->paused | pt->gated) >> q & 1)) {
        send_direct(n, s, out, pt, q, pi);
        return;
    }
    port_q_push(n, pt, q, pi);
    enqueued(n, s, out, pi);
}

/* enqueue's path for a frame at an idle, empty egress, out of line so
 * that switch_receive stays small enough to inline into the event loop. */
static __attribute__((noinline)) void send_direct(struct net *n, struct sw *s, uint32_t out, struct port *pt,
                                                  uint32_t q, uint32_t pi)
{
    accepted(n, s, out, pt, pi);
    const struct packet *p = pkt(&n->pool, pi);
    /* pick_class: a ready strict class or the escape queue goes
     * first; a data class goes through DRR, which with this frame
     * alone may still refuse it (a quantum far below its size): then
     * it waits in its queue, as it would have. */
#ifdef ROCC_AUDIT
    /* The long way, on a copy of the port with the frame queued: its
     * pick must agree with this one, DRR state included. */
    struct port copy = *pt;
    port_q_push(n, &copy, q, pi);
    uint32_t want = pick_class(n, s, &copy);
#endif
    int refused = q < NCLASS && !(s->cfg.strict_mask >> q & 1) && !drr_alone(s, pt, q, p->bytes);
#ifdef ROCC_AUDIT
    if (want != (refused ? NONE32 : q) || copy.drr_next != pt->drr_next ||
        memcmp(copy.deficit, pt->deficit, sizeof pt->deficit) != 0) {
        fprintf(stderr, "audit: switch port %u at %llu ps: the direct path picked class %u, the queue %u "
                "(or their DRR deficits or pointer differ)\n",
                (unsigned)out, (unsigned long long)n->el.now, (unsigned)(refused ? NONE32 : q), (unsigned)want);
        abort();
    }
#endif
    if (refused) {
        port_q_push(n, pt, q, pi);
        return;
    }
    port_send(n, out, pt, sw_sent(n, s, out, pt, q, pi), 0);
}

/* A frame for egress `out` whose port has a queueing discipline (qdisc.h):
 * returns 1 if the discipline took it (held, or dropped), 0 if the frame
 * is not for it (a strict class, an escaping frame) or the port has none. */
static int qd_take(struct net *n, struct sw *s, uint32_t local, uint32_t out, uint32_t pi)
{
    const struct qdisc_slot *q = &s->qd[n->ports[out].local];
    struct packet *p = pkt(&n->pool, pi);
    if (!q->ops || (s->cfg.strict_mask >> p->prio & 1) || (p->hops != 0 && (s->fc_flags & FCB_ESCQ)))
        return 0;
    p->in_port = (uint16_t)local;
    if (q->ops->enqueue(n, s, out, pi, q->state) == QD_HELD)
        enqueued(n, s, out, pi);
    return 1;
}

/* A source-routed frame (PF_SRCROUTE: an ExpressPass credit retracing its
 * flow's data path backwards) leaves by the port its route names for this
 * switch, the route's next entry; NONE32 (dropped as unroutable) past the
 * route's end or at a port this switch does not have. */
static uint32_t srcroute_port(const struct net *n, const struct sw *s, struct packet *p)
{
    uint32_t hop = p->nhop++;
    if (hop >= sizeof p->route || p->route[hop] >= n->nodes[s->node].n_ports)
        return NONE32;
    return n->nodes[s->node].first_port + p->route[hop];
}

/* Forged-CNP filter (docs/rocc.md "Forged CNPs"): a RoCC CNP (or junk of
 * its ICMP type, or an HPCC* direct INT) that arrives from a host (hosts never send them), claims
 * this switch as its source (only we send those), is junk (wrong length or
 * checksum), or whose CP id is not bound to its claimed source is dropped
 * before it can take the strict-priority control class. */
static int cnp_refused(const struct net *n, const struct sw *s, uint32_t port, const struct packet *p)
{
    if (!n->cfg.cnp_filter || p->type != PKT_CNP ||
        (p->cnp_kind != CNP_ROCC && p->cnp_kind != CNP_JUNK && p->cnp_kind != CNP_DINT))
        return 0;
    int from_host = n->nodes[n->ports[n->ports[port].peer].node].kind == NODE_HOST;
    /* HPCC*'s direct INTs likewise: only a switch's LSCC module makes
     * them (agent_lscc_int.c, switch_inject), never a host. */
    if (p->cnp_kind == CNP_DINT)
        return from_host || p->cnp_src == s->node;
    return from_host || p->cnp_src == s->node || !net_cnp_bound(n, p);
}

void switch_receive(struct net *n, struct sw *s, uint32_t port, uint32_t pi)
{
    struct packet *p = pkt(&n->pool, pi);
    if (cnp_refused(n, s, port, p)) {
        n->cnp_filtered_sw++;
        net_consume(n, pi);
        return;
    }
    uint32_t out = __builtin_expect(p->flags & PF_SRCROUTE, 0) ? srcroute_port(n, s, p)
                   : net_route_frame(n, s->node, p);
    uint32_t local = n->ports[port].local;
    if (out == NONE32 || n->ports[out].down) {   /* no route after a link failure */
        net_drop(n, port, pi);
        n->failure_drops++;
        return;
    }
    /* A class queue limit (switch_cfg.qcap: ExpressPass's credit queue)
     * drops beyond it by design, before any buffer is charged. */
    if (__builtin_expect(s->cfg.qcap_mask >> p->prio & 1, 0) && n->ports[out].q[p->prio].count >= s->cfg.qcap[p->prio]) {
        net_drop_limited(n, out, pi);
        return;
    }
    if (__builtin_expect(s->fc_flags & FCB_ADMIT, 0)) {
        int v = s->fc->admit(n, s, local, &out, p);
        if (v == FC_DROP) {
            n->fc_drops++;
            net_drop(n, out, pi);
            return;
        }
        if (out >= n->n_ports || n->ports[out].down || n->ports[out].node != s->node) {
            net_drop(n, port, pi);          /* rerouted nowhere: the scheme's bug, counted at the ingress */
            return;
        }
        if (v == FC_FORCE) {
            mmu_force(s, local, p->prio, p->bytes);
            p = pkt(&n->pool, pi);
            p->in_port = (uint16_t)local;
            enqueue(n, s, out, pi);
            return;
        }
    }
    if (__builtin_expect(s->qd != NULL, 0) && qd_take(n, s, local, out, pi))
        return;
    if (!mmu_admit(n, s, local, p->prio, p->bytes)) {
        net_drop(n, out, pi);
        return;
    }
    p = pkt(&n->pool, pi);              /* a PAUSE frame may have grown the pool */
    p->in_port = (uint16_t)local;
    enqueue(n, s, out, pi);
}

void switch_inject(struct net *n, struct sw *s, uint32_t pi, uint64_t hash)
{
    struct packet *p = pkt(&n->pool, pi);
    uint32_t out = net_route(n, s->node, p->dst, hash);
    if (out == NONE32 || n->ports[out].down) {
        net_drop(n, n->nodes[s->node].first_port, pi);
        n->failure_drops++;
        return;
    }
    mmu_admit(n, s, IN_NONE, p->prio, p->bytes);
    p->in_port = IN_NONE;
    enqueue(n, s, out, pi);
}

static uint32_t drr_pick(struct net *n, struct sw *s, struct port *pt, uint32_t blocked);

static uint32_t pick_class(struct net *n, struct sw *s, struct port *pt)
{
    if (pt->qmask & (1u << QMAC))
        return QMAC;
    uint32_t blocked = (uint32_t)(pt->paused | pt->gated);
    /* The highest ready strict class, else the escape queue (never paused
     * or gated): one test when neither has frames. */
    uint32_t first = pt->qmask & ((s->cfg.strict_mask & ~blocked) | (1u << QESC));
    if (first)
        return (first & 0xffu) ? 31u - (uint32_t)__builtin_clz(first & 0xffu) : QESC;
    /* A queueing discipline's frames (qdisc.h), held back while any data
     * class is paused or gated (its queues are not per class). */
    if (__builtin_expect(pt->qmask & QD_BIT, 0) && !(blocked & ~(uint32_t)s->cfg.strict_mask & 0xffu))
        return NQUEUE;
    return drr_pick(n, s, pt, blocked);
}

static uint32_t drr_pick(struct net *n, struct sw *s, struct port *pt, uint32_t blocked)
{
    /* Deficit round robin among the other classes (Shreedhar & Varghese). */
    for (int visit = 0; visit < 2 * NCLASS + 2; visit++) {
        uint32_t c = pt->drr_next;
        int eligible = !(s->cfg.strict_mask & (1u << c)) && pt->q[c].count && !(blocked & (1u << c));
        if (!eligible) {
            if (pt->q[c].count == 0)
                pt->deficit[c] = 0;
            pt->drr_next = (uint8_t)((c + 1) % NCLASS);
            continue;
        }
        uint32_t head_bytes = pkt(&n->pool, pt->q[c].head)->bytes;
        if (pt->deficit[c] >= (int32_t)head_bytes) {
            pt->deficit[c] -= (int32_t)head_bytes;
            return c;
        }
        pt->deficit[c] += (int32_t)s->cfg.quantum[c];
        if (pt->deficit[c] >= (int32_t)head_bytes) {
            pt->deficit[c] -= (int32_t)head_bytes;
            return c;
        }
        pt->drr_next = (uint8_t)((c + 1) % NCLASS);
    }
    return NONE32;
}

/* switch_dequeue's body, inline in sw_kick. */
static inline __attribute__((always_inline)) uint32_t sw_dequeue(struct net *n, struct sw *s, uint32_t port,
                                                                 struct port *pt)
{
    uint32_t c = pick_class(n, s, pt);
    if (c == NONE32)
        return PKT_NONE;
    uint32_t pi;
    if (__builtin_expect(c == NQUEUE, 0)) {      /* the port's queueing discipline (qdisc.h) */
        const struct qdisc_slot *q = &s->qd[pt->local];
        pi = q->ops->dequeue(n, s, port, q->state);
        if (pi == PKT_NONE) {
            if (pt->busy_until > n->el.now)
                return PKT_NONE;                 /* it spent the opportunity (processing) */
            c = drr_pick(n, s, pt, (uint32_t)(pt->paused | pt->gated));
            if (c == NONE32)
                return PKT_NONE;
            pi = port_q_pop(n, pt, c);
        }
    } else {
        pi = port_q_pop(n, pt, c);
    }
    return sw_sent(n, s, port, pt, c, pi);
}

/* Frame pi, of class queue c, has left port pt's queues for its wire:
 * data_bytes, ECN, INT, the MMU charge, the agents, the scheme's tx hook.
 * Returns pi. */
static inline __attribute__((always_inline)) uint32_t sw_sent(struct net *n, struct sw *s, uint32_t port,
                                                              struct port *pt, uint32_t c, uint32_t pi)
{
    struct packet *p = pkt(&n->pool, pi);
    if (c == QMAC)
        return pi;
    if (!(s->cfg.strict_mask & (1u << c))) {     /* QESC, NQUEUE included: bits 9, 10 are never strict */
        pt->data_bytes -= p->bytes;
        if (pt->ecn_kmax && p->type == PKT_DATA && c < NQUEUE) {
            uint64_t q = pt->q[c].bytes;
            if (q > pt->ecn_kmax)
                p->ecn = 1;
            else if (q > pt->ecn_kmin) {
                double prob = pt->ecn_pmax * (double)(q - pt->ecn_kmin) / (double)(pt->ecn_kmax - pt->ecn_kmin);
                if (rng_uniform(net_node_rng(n, s->node)) < prob)
                    p->ecn = 1;
            }
        }
        if ((p->flags & PF_INT_STAMP) && p->nhop < INT_MAX_HOPS && n->intr) {
            /* HPCC §3.2: the egress stamps time, bytes sent so far, queue
             * length and link rate as the packet leaves. */
            struct int_hop *h = &n->intr[pi].hop[p->nhop++];
            h->ts = n->el.now;
            h->tx_bytes = pt->st.tx_bytes;
            h->qlen = pt->data_bytes;
            h->rate_bps = pt->rate_bps;
        }
    }
    if (__builtin_expect(c != NQUEUE, 1)) {      /* a discipline's frames hold no MMU charge */
        mmu_release(n, s, p->in_port, p->prio, p->bytes);
        p = pkt(&n->pool, pi);          /* a resume frame may have grown the pool */
    }
    for (uint32_t ai = pt->agent; ai != NONE32; ai = n->agents[ai].next) {
        struct port_agent *a = &n->agents[ai];
        if (a->ops->on_dequeue) {
            a->ops->on_dequeue(n, a->state, port, p);
            p = pkt(&n->pool, pi);
        }
    }
    if (__builtin_expect(s->fc_flags & (FCB_TX | FCB_GATE), 0)) {
        if ((s->fc_flags & FCB_GATE) && c < NCLASS)
            fc_gate_after_tx(n, pt, port, (uint8_t)c, p->bytes + n->cfg.preamble_ifg);
        if (s->fc_flags & FCB_TX)
            s->fc->on_tx(n, s, port, p);
    }
    return pi;
}

/* drr_pick for data class c when a frame of `bytes` is the port's only
 * one: the same visits, deficit and pointer updates, every other class
 * empty.  1: c is picked (its deficit charged), 0: refused. */
static int drr_alone(struct sw *s, struct port *pt, uint32_t c, uint32_t bytes)
{
    for (int visit = 0; visit < 2 * NCLASS + 2; visit++) {
        uint32_t k = pt->drr_next;
        if (k != c) {                               /* empty: not eligible */
            pt->deficit[k] = 0;
            pt->drr_next = (uint8_t)((k + 1) % NCLASS);
            continue;
        }
        if (pt->deficit[c] >= (int32_t)bytes) {
            pt->deficit[c] -= (int32_t)bytes;
            return 1;
        }
        pt->deficit[c] += (int32_t)s->cfg.quantum[c];
        if (pt->deficit[c] >= (int32_t)bytes) {
            pt->deficit[c] -= (int32_t)bytes;
            return 1;
        }
        pt->drr_next = (uint8_t)((c + 1) % NCLASS);
    }
    return 0;
}

uint32_t switch_dequeue(struct net *n, struct sw *s, uint32_t port)
{
    return sw_dequeue(n, s, port, &n->ports[port]);
}

/* port_kick for switch port pt: its body inline at the end of every
 * enqueue (a frame arriving at an idle egress goes from its ingress to
 * the wire without a call between), and out of line for port.c. */
static inline __attribute__((always_inline)) void sw_kick(struct net *n, struct sw *s, uint32_t port,
                                                          struct port *pt)
{
    if (port_cannot_send(n, port, pt))
        return;
    uint32_t pi = sw_dequeue(n, s, port, pt);
    if (pi != PKT_NONE)
        port_send(n, port, pt, pi, 0);
}

void switch_kick(struct net *n, uint32_t port, struct port *pt)
{
    uint32_t pi = sw_dequeue(n, &n->sws[pt->owner], port, pt);
    if (pi != PKT_NONE)
        port_send(n, port, pt, pi, 0);
}
