/*
 * fc_escape.c -- Escape as a flow-control scheme of the switch: the glue
 * between flowctl.h and the pure state machine escape.h (model in
 * fc_escape.h and docs/escape.md).
 */
#include "net/fc_escape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fc_esc {
    struct escape e;
    void *mem;               /* escape.h storage */
    struct esc_out *out;     /* tokens of one trigger: at most n_ports * pool */
    size_t out_cap;
    uint8_t cls;             /* the lossless data class Escape protects */
    uint64_t scanned;        /* frames looked at by extractions */
    uint64_t hdr_reset;      /* data frames from a host with hops != 0 */
    uint64_t demoted;        /* C9: escaping frames queued behind their flow at the origin */
    uint64_t order_risk;     /* C9: escaping frames (hops > 1) that overtake their flow */
    uint64_t held_paused;    /* C12: escaping frames that found p^E paused at their origin */
    const struct net *net;   /* C10: esc_queued reads the queues */
    uint32_t first_port;     /* global index of the switch's port 0 */
};

static inline struct fc_esc *st_of(const struct sw *s) { return (struct fc_esc *)s->fc_state; }

static inline struct esc_fid fid_of(uint32_t flow)
{
    /* A simulated flow's index stands for its 5-tuple (fc_escape.h). */
    struct esc_fid f = { flow, 0, 0, 4791, 17 }    /* RoCEv2 UDP port, protocol UDP */;
    return f;
}

/* Send an ETF (fid of `flow`, hops) on global port `port`. */
static void send_etf(struct net *n, uint32_t port, uint32_t flow, uint16_t hops)
{
    uint32_t pi = fc_new_frame(n, FC_SUB_ETF);
    if (pi == PKT_NONE)
        return;
    struct packet *p = pkt(&n->pool, pi);
    p->bytes = ESC_ETF_FRAME_BYTES;            /* §4.5.1: 13 + 2 bytes, a minimum frame */
    p->flow = flow;
    p->hops = (uint8_t)hops;                   /* max_hops <= 255 (install) */
    fc_send(n, port, pi);
}

/* Does class queue cls of `port` hold a data frame of `flow`?  (Head to
 * tail; the frames looked at are added to *scanned.) */
static int queued_frame_of(const struct net *n, uint32_t port, uint8_t cls, uint32_t flow, uint64_t *scanned)
{
    for (uint32_t i = n->ports[port].q[cls].head; i != PKT_NONE;) {
        const struct packet *q = &n->pool.p[i];
        (*scanned)++;
        if (q->flow == flow && q->type == PKT_DATA)
            return 1;
        i = q->next;
    }
    return 0;
}

/* C10: is a data frame of the flow queued in the class queue of egress
 * `egress`?  A scan from the head (simulator cost only: a switch would keep
 * a per-flow count, as the FPGA queue keeps its frames' 5-tuples, §4.5.2). */
static int esc_queued(void *ctx, uint16_t egress, const struct esc_fid *fid)
{
    const struct fc_esc *x = ctx;
    const struct port *pt = &x->net->ports[x->first_port + egress];
    if (!(pt->qmask >> x->cls & 1))
        return 0;
    uint64_t scanned = 0;
    return queued_frame_of(x->net, x->first_port + egress, x->cls, fid->src_ip, &scanned);
}

static int esc_admit(struct net *n, struct sw *s, uint32_t in_local, uint32_t *out, struct packet *p)
{
    if (p->type != PKT_DATA)
        return FC_DEFAULT;
    struct fc_esc *x = st_of(s);
    uint16_t in = (uint16_t)in_local, eg = (uint16_t)n->ports[*out].local;
    if (p->hops) {
        if (!x->e.port[in].peer_escape) {      /* a host never sends escaping frames (C2) */
            x->hdr_reset++;
            p->hops = 0;
        } else {
            p->hops = (uint8_t)esc_frame_hops(&x->e, p->hops);   /* C7 */
        }
    }
    struct esc_fid fid = fid_of(p->flow);
    esc_on_frame(&x->e, eg, in, &fid);
    if (!p->hops)
        return FC_DEFAULT;
    /* C9: an escaping frame must not overtake an older frame of its own
     * flow queued at its egress.  At the token's origin (hops 1) it then
     * queues behind them in its class queue (hops 0) but keeps the room
     * its token reserved: the token comes back when the frame leaves
     * (PF_ESC_WAIT, esc_on_tx; line 31 at the frame's real transmission).
     * Beyond the origin (hops > 1) the case is only counted (order_risk). */
    if (p->hops == 1 && (n->ports[*out].paused >> x->cls & 1)) {
        /* C12: at its origin, p^E was paused again before the frame came
         * back; leaving through q⃗ it would reach the paused neighbour as a
         * regular frame (hops 0) with no room reserved there.  It waits in
         * its class queue like the traffic the pause holds, keeping its
         * token (and its place: behind every older frame). */
        p->hops = 0;
        p->flags |= PF_ESC_WAIT;
        x->held_paused++;
    } else if (queued_frame_of(n, *out, x->cls, p->flow, &x->scanned)) {
        if (p->hops == 1) {
            p->hops = 0;
            p->flags |= PF_ESC_WAIT;
            x->demoted++;
        } else {
            x->order_risk++;
        }
    }
    /* An escaping frame uses the room its token reserved in q⃗ (§4.3.3(1)),
     * not the ingress's PFC share. */
    return FC_FORCE;
}

static void esc_on_ingress(struct net *n, struct sw *s, uint32_t in_local, uint8_t cls, int on)
{
    struct fc_esc *x = st_of(s);
    if (cls == x->cls)
        esc_set_ingress_requested(&x->e, (uint16_t)in_local, on);
}

static void esc_on_pause(struct net *n, struct sw *s, uint32_t port, uint8_t cls, int on)
{
    struct fc_esc *x = st_of(s);
    if (cls == x->cls)
        esc_set_egress_paused(&x->e, (uint16_t)n->ports[port].local, on);
}

static void esc_on_tx(struct net *n, struct sw *s, uint32_t port, struct packet *p)
{
    if (p->type != PKT_DATA)
        return;
    struct fc_esc *x = st_of(s);
    if (p->flags & PF_ESC_HERE) {              /* extracted here: not an e3 (C1) */
        p->flags &= (uint8_t)~PF_ESC_HERE;
        return;
    }
    if (!p->hops) {                            /* from its class queue */
        if (p->flags & PF_ESC_WAIT) {          /* C9: its token comes back now (line 31) */
            p->flags &= (uint8_t)~PF_ESC_WAIT;
            (void)esc_transmit(&x->e, (uint16_t)n->ports[port].local, 1);
        }
        return;
    }
    p->hops = (uint8_t)esc_transmit(&x->e, (uint16_t)n->ports[port].local, p->hops);
}

static int esc_on_etf(struct net *n, struct sw *s, uint32_t port, const struct packet *p)
{
    struct fc_esc *x = st_of(s);
    /* Wire-level checks: an ETF naming a flow that does not exist or with
     * hops 0 is malformed (counted in net.fctl_bad by the caller). */
    if (p->fc_sub != FC_SUB_ETF || p->flow >= n->n_flows || p->hops == 0)
        return -1;
    uint32_t flow = p->flow;                   /* p may move once frames are made */
    struct esc_token tok = { fid_of(flow), p->hops };
    uint16_t local = (uint16_t)n->ports[port].local;
    uint64_t bad = x->e.st.tok_drop_bad + x->e.st.tok_drop_open;
    struct esc_action a;
    esc_receive(&x->e, local, &tok, &a);
    if (x->e.st.tok_drop_bad + x->e.st.tok_drop_open != bad)
        return -1;                             /* not from an Escape peer, hops above max, port not paused (C11) */
    if (a.kind != ESC_ACT_EXTRACT)
        return 0;                              /* pool exhausted / flow unknown: counted */
    uint32_t scanned = 0;
    uint32_t pi = fc_extract(n, s, port, x->cls, flow, &scanned);   /* line 19 */
    x->scanned += scanned;
    if (pi != PKT_NONE) {
        struct packet *d = pkt(&n->pool, pi);
        if (d->flags & PF_ESC_WAIT) {          /* C9: it leaves p^E's class queue, so its origin token comes back */
            d->flags &= (uint8_t)~PF_ESC_WAIT;
            (void)esc_transmit(&x->e, local, 1);
        }
        d->hops = (uint8_t)a.hops;             /* line 21 */
        d->flags |= PF_ESC_HERE;
        fc_push_escape(n, s, port, pi);        /* line 22 */
        esc_extracted(&x->e, local);
        return 0;
    }
    esc_receive_missed(&x->e, local, &tok, &a);
    if (a.kind == ESC_ACT_FORWARD)             /* line 27 */
        send_etf(n, fc_port(n, s, a.port), flow, a.hops);
    return 0;
}

static simtime_t esc_on_timer(struct net *n, struct sw *s)
{
    struct fc_esc *x = st_of(s);
    size_t k = esc_poll(&x->e, n->el.now, x->out, x->out_cap);
    for (size_t i = 0; i < k; i++)                                      /* line 13 */
        send_etf(n, fc_port(n, s, x->out[i].port), x->out[i].tok.fid.src_ip, x->out[i].tok.hops);
    return esc_next_due(&x->e);
}

static void esc_destroy(void *state)
{
    struct fc_esc *x = state;
    if (!x)
        return;
    free(x->mem);
    free(x->out);
    free(x);
}

const struct fc_ops fc_escape_ops = {
    .name = "escape",
    .flags = FC_F_ESCAPE_QUEUE,
    .admit = esc_admit,
    .on_ingress = esc_on_ingress,
    .on_pause = esc_on_pause,
    .on_tx = esc_on_tx,
    .on_frame = esc_on_etf,
    .on_timer = esc_on_timer,
    .destroy = esc_destroy,
};

int fc_escape_install(struct net *n, struct sw *s, const struct fc_escape_params *prm, char *why, size_t why_len)
{
    const struct node *nd = &n->nodes[s->node];
    simtime_t dmax = 0;
    for (uint32_t i = 0; i < nd->n_ports; i++)
        if (n->ports[nd->first_port + i].delay_ps > dmax)
            dmax = n->ports[nd->first_port + i].delay_ps;
    struct esc_params ep;
    esc_params_default(&ep, (uint16_t)nd->n_ports, prm->pool, dmax);
    if (prm->period_ps)
        ep.period_ps = prm->period_ps;
    ep.reclaim_ps = prm->reclaim_ps;
    ep.ft_mode = prm->ft_mode;
    ep.reclaim_mode = prm->reclaim_mode;
    /* C7: a token walks one loop-free path, so it never needs more hops
     * than there are switches; packet.hops holds at most 255. */
    ep.max_hops = (uint16_t)(n->n_sws < 255 ? (n->n_sws ? n->n_sws : 1) : 255);
    if (nd->n_ports > 4096 || prm->pool == 0 || ep.period_ps == 0) {
        snprintf(why, why_len, "switch %s: escape needs pool >= 1, a period > 0 (or links with a delay) and at most 4096 ports",
                 nd->name);
        return -1;
    }
    struct fc_esc *x = calloc(1, sizeof *x);
    size_t bytes = esc_storage_bytes(&ep);
    if (x) {
        x->mem = calloc(1, bytes);
        x->out_cap = (size_t)nd->n_ports * prm->pool;
        x->out = calloc(x->out_cap, sizeof *x->out);
    }
    if (!x || !x->mem || !x->out || esc_init(&x->e, &ep, x->mem, n->el.now) != 0) {
        esc_destroy(x);
        snprintf(why, why_len, "switch %s: out of memory for escape", nd->name);
        return -1;
    }
    x->cls = n->cfg.data_prio;
    x->net = n;
    x->first_port = nd->first_port;
    esc_set_queued_fn(&x->e, esc_queued, x);   /* C10 */
    fc_install(n, s, &fc_escape_ops, x);
    fc_timer_arm(n, s, esc_next_due(&x->e));
    return 0;
}

void fc_escape_link_peers(struct net *n)
{
    for (uint32_t i = 0; i < n->n_sws; i++) {
        struct sw *s = &n->sws[i];
        if (s->fc != &fc_escape_ops)
            continue;
        const struct node *nd = &n->nodes[s->node];
        for (uint32_t l = 0; l < nd->n_ports; l++) {
            const struct port *pt = &n->ports[nd->first_port + l];
            const struct port *pp = &n->ports[pt->peer];
            int esc = pp->owner_kind == NODE_SWITCH && n->sws[pp->owner].fc == &fc_escape_ops;
            esc_set_peer_escape(&st_of(s)->e, (uint16_t)l, esc);
        }
    }
}

/* esc_stats is a list of uint64_t counters, merged as an array. */
_Static_assert(sizeof(struct esc_stats) % sizeof(uint64_t) == 0, "esc_stats holds uint64_t counters only");
enum { ESC_NSTAT = sizeof(struct esc_stats) / sizeof(uint64_t), ESC_NEXTRA = 5, ESC_PORT_CHUNK = 64 };

void fc_escape_merge(struct net *n, void (*reduce)(uint64_t *v, size_t k, int max))
{
    for (uint32_t i = 0; i < n->n_sws; i++) {
        struct sw *s = &n->sws[i];
        if (s->fc != &fc_escape_ops)
            continue;
        struct fc_esc *x = st_of(s);
        uint64_t v[ESC_NSTAT + ESC_NEXTRA];
        memcpy(v, &x->e.st, sizeof x->e.st);
        uint64_t *e = v + ESC_NSTAT;
        e[0] = x->scanned, e[1] = x->hdr_reset, e[2] = x->demoted, e[3] = x->order_risk, e[4] = x->held_paused;
        reduce(v, ESC_NSTAT + ESC_NEXTRA, 0);
        memcpy(&x->e.st, v, sizeof x->e.st);
        x->scanned = e[0], x->hdr_reset = e[1], x->demoted = e[2], x->order_risk = e[3], x->held_paused = e[4];
        /* Token pools as tokens charged (pool - T), in chunks: bounded stack. */
        for (uint16_t p0 = 0; p0 < x->e.p.n_ports; p0 += ESC_PORT_CHUNK) {
            uint16_t k = (uint16_t)(x->e.p.n_ports - p0 < ESC_PORT_CHUNK ? x->e.p.n_ports - p0 : ESC_PORT_CHUNK);
            uint64_t c[ESC_PORT_CHUNK];
            for (uint16_t j = 0; j < k; j++)
                c[j] = (uint64_t)(x->e.p.pool - x->e.port[p0 + j].T);
            reduce(c, k, 0);
            for (uint16_t j = 0; j < k; j++)
                x->e.port[p0 + j].T = (uint16_t)(x->e.p.pool - c[j]);
        }
    }
}

void fc_escape_totals(const struct net *n, struct fc_escape_totals *t)
{
    memset(t, 0, sizeof *t);
    for (uint32_t i = 0; i < n->n_sws; i++) {
        const struct sw *s = &n->sws[i];
        if (s->fc != &fc_escape_ops)
            continue;
        const struct fc_esc *x = st_of(s);
        const struct esc_stats *a = &x->e.st;
        struct esc_stats *b = &t->st;
        b->tok_sent += a->tok_sent;
        b->tok_forwarded += a->tok_forwarded;
        b->tok_extract += a->tok_extract;
        b->frames_escaped += a->frames_escaped;
        b->tok_drop_pool += a->tok_drop_pool;
        b->tok_end += a->tok_end;
        b->tok_drop_unknown += a->tok_drop_unknown;
        b->tok_drop_bad += a->tok_drop_bad;
        b->tok_drop_open += a->tok_drop_open;
        b->reclaim_tx += a->reclaim_tx;
        b->reclaim_timer += a->reclaim_timer;
        b->over_reclaim += a->over_reclaim;
        b->frames_bad_hops += a->frames_bad_hops;
        b->triggers += a->triggers;
        b->tok_truncated += a->tok_truncated;
        b->tok_skip_queued += a->tok_skip_queued;
        t->outstanding += esc_outstanding(&x->e);
        t->scanned += x->scanned;
        t->hdr_reset += x->hdr_reset;
        t->demoted += x->demoted;
        t->held_paused += x->held_paused;
        t->order_risk += x->order_risk;
        t->switches++;
        if (x->e.p.period_ps > t->period_max_ps)
            t->period_max_ps = x->e.p.period_ps;
        t->reclaim_ps = x->e.p.reclaim_ps;
        t->reclaim_mode = x->e.p.reclaim_mode;
    }
}
