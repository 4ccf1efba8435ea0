/*
 * xpass.c -- ExpressPass NIC glue and credit limiter set-up (xpass.h).
 */
#include "net/xpass.h"
#include "net/flowctl.h"

#include <stdio.h>

uint32_t xpass_credit_wire(const struct net *n)
{
    return ETH_MIN_FRAME + n->cfg.preamble_ifg;
}

uint32_t xpass_data_wire(const struct net *n)
{
    return n->cfg.mtu_payload + ROCE_DATA_OVERHEAD + n->cfg.fc_hdr_bytes + n->cfg.preamble_ifg;
}

int xpass_setup_ports(struct net *n, uint8_t cls, uint32_t qcap, char *why, size_t why_len)
{
    if (cls >= NCLASS || cls == n->cfg.data_prio || cls == n->cfg.ctrl_prio) {
        snprintf(why, why_len, "expresspass: credit class %u must be 0..7 and differ from the data (%u) and "
                 "control (%u) classes", cls, n->cfg.data_prio, n->cfg.ctrl_prio);
        return -1;
    }
    if (qcap == 0 || qcap > UINT16_MAX) {
        snprintf(why, why_len, "expresspass: credit queue of %u credits (need 1..65535)", qcap);
        return -1;
    }
    uint32_t cw = xpass_credit_wire(n), dw = xpass_data_wire(n);
    for (uint32_t p = 0; p < n->n_ports; p++) {
        uint64_t r = xp_credit_rate_bps(n->ports[p].rate_bps, cw, dw);
        if (fc_set_rate(n, p, cls, r ? r : 1)) {
            snprintf(why, why_len, "expresspass: out of memory for the credit limiters");
            return -1;
        }
    }
    for (uint32_t i = 0; i < n->n_sws; i++) {
        struct switch_cfg *c = &n->sws[i].cfg;
        c->strict_mask |= (uint8_t)(1u << cls);
        c->qcap_mask |= (uint8_t)(1u << cls);
        c->qcap[cls] = (uint16_t)qcap;
    }
    return 0;
}

/* The credit's route: the local index of the port each switch on f's data
 * path received the data on, last switch first.  0 on success; -1 if the
 * path does not fit (the credit then goes by ECMP). */
static int credit_route(const struct net *n, const struct flow *f, struct packet *p)
{
    uint8_t in[sizeof p->route];
    uint32_t k = 0, port = n->hosts[f->src].port, dst_node = n->hosts[f->dst].node;
    for (uint32_t guard = 0; guard <= sizeof in; guard++) {
        uint32_t peer = n->ports[port].peer, node = n->ports[peer].node;
        if (node == dst_node) {
            for (uint32_t i = 0; i < sizeof p->route; i++)
                p->route[i] = i < k ? in[k - 1 - i] : 0xff;
            p->flags |= PF_SRCROUTE;
            p->nhop = 0;
            return 0;
        }
        if (n->nodes[node].kind != NODE_SWITCH || k == sizeof in || n->ports[peer].local >= 0xff)
            return -1;
        in[k++] = (uint8_t)n->ports[peer].local;
        port = net_route(n, node, f->dst, f->hash);
        if (port == NONE32)
            return -1;
    }
    return -1;
}

static void arm(struct net *n, struct flow *f)
{
    const struct xp_flow *x = &f->cc.xp;
    simtime_t t = SIMTIME_NEVER;
    if (x->rx.active)
        t = x->next_credit_ps;
    if (x->retry_ps && x->tx.credits == 0 && x->retry_at < t)
        t = x->retry_at;
    f->cc_deadline = t;
    if (t != SIMTIME_NEVER)
        flow_timer_arm(n, flow_index(n, f));
}

static void send_request(struct net *n, struct flow *f)
{
    uint32_t pi = net_new_packet(n, PKT_CREDIT);
    if (pi == PKT_NONE)
        return;
    struct packet *p = pkt(&n->pool, pi);
    p->flow = flow_index(n, f);
    p->dst = f->dst;
    p->bytes = ETH_MIN_FRAME;
    p->prio = n->cfg.ctrl_prio;
    p->credit_kind = CREDIT_REQUEST;
    f->cc.xp.req_sent++;
    port_enqueue_ctrl(n, n->hosts[f->src].port, pi);
}

/* The receiver's NIC sends one credit now and plans the next. */
static void send_credit(struct net *n, struct flow *f)
{
    const struct xp_net_params *prm = f->cc_prm;
    struct xp_flow *x = &f->cc.xp;
    simtime_t now = n->el.now;
    uint32_t seq = xp_rx_credit(&x->rx, &prm->xp, now, &x->next_credit_ps);
    uint32_t pi = net_new_packet(n, PKT_CREDIT);
    if (pi == PKT_NONE)
        return;
    struct packet *p = pkt(&n->pool, pi);
    p->flow = flow_index(n, f);
    p->dst = f->src;
    p->bytes = ETH_MIN_FRAME;
    p->prio = prm->credit_class;
    p->credit_kind = CREDIT_GRANT;
    p->credit_seq = seq;
    if (!prm->symmetric || credit_route(n, f, p))
        x->asym_credits++;
    uint32_t port = n->hosts[f->dst].port;
    if (n->ports[port].q[prm->credit_class].count >= prm->xp.queue_credits)
        net_drop_limited(n, port, pi);          /* the NIC's credit queue is full (§3.1) */
    else
        port_enqueue_ctrl(n, port, pi);
}

static void xp_start(struct net *n, struct flow *f)
{
    struct xp_flow *x = &f->cc.xp;
    *x = (struct xp_flow){ 0 };
    f->flags |= FL_CREDITED;
    f->tx_credits = 0;
    /* A lost request would stall the flow: in lossy mode the sender asks
     * again every RTO until a credit comes. */
    x->retry_ps = n->cfg.rto_ps;
    x->retry_at = n->el.now + x->retry_ps;
    send_request(n, f);
    arm(n, f);
}

static uint64_t seed_of(uint32_t fi)
{
    uint64_t z = (uint64_t)fi + 0x9e3779b97f4a7c15ull;     /* splitmix64 of the flow index */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void xp_on_credit(struct net *n, struct flow *f, const struct packet *p)
{
    const struct xp_net_params *prm = f->cc_prm;
    struct xp_flow *x = &f->cc.xp;
    if (p->credit_kind == CREDIT_REQUEST) {          /* at the receiver */
        if (x->rx.active || (f->flags & FL_RX_DONE))
            return;                                  /* a repeated request */
        xp_rx_start(&x->rx, &prm->xp, n->el.now, seed_of(flow_index(n, f)));
        send_credit(n, f);
        arm(n, f);
        return;
    }
    /* A credit at the sender: hold it if there is data for it. */
    int has_data = !(f->flags & FL_DONE) && f->snd_nxt < f->size;
    xp_tx_credit(&x->tx, p->credit_seq, has_data);
    f->tx_credits = x->tx.count;
}

static void xp_on_send(struct net *n, struct flow *f, const struct packet *p)
{
    struct xp_flow *x = &f->cc.xp;
    /* host.c sends a credited flow's frame only with a credit held. */
    uint32_t seq = xp_tx_use(&x->tx);
    /* The frame is the one being made (host_dequeue, not yet on the wire):
     * it carries the number of the credit it answers (§3.3). */
    ((struct packet *)p)->credit_seq = seq;
    if (f->snd_nxt >= f->size)
        xp_tx_flush(&x->tx);                     /* no data left for the credits still held */
    f->tx_credits = x->tx.count;
}

static void xp_on_rx_data(struct net *n, struct flow *f, const struct packet *p)
{
    const struct xp_net_params *prm = f->cc_prm;
    struct xp_flow *x = &f->cc.xp;
    if (x->rx.active)
        xp_rx_data(&x->rx, &prm->xp, p->credit_seq, n->el.now);
}

static void xp_on_timer(struct net *n, struct flow *f)
{
    struct xp_flow *x = &f->cc.xp;
    simtime_t now = n->el.now;
    if (x->rx.active && x->next_credit_ps <= now) {
        if (f->flags & FL_RX_DONE)
            xp_rx_stop(&x->rx);                  /* the last byte arrived: credit stop */
        else
            send_credit(n, f);
    }
    if (x->retry_ps && x->tx.credits == 0 && x->retry_at <= now) {
        send_request(n, f);
        x->retry_at = now + x->retry_ps;
    }
    arm(n, f);
}

const struct transport_ops transport_xpass = {
    .name = "expresspass",
    .start = xp_start,
    .on_timer = xp_on_timer,
    .on_send = xp_on_send,
    .on_rx_data = xp_on_rx_data,
    .on_credit = xp_on_credit,
};
