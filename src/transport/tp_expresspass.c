/*
 * tp_expresspass.c -- ExpressPass (Cho et al., SIGCOMM'17) at the NIC and
 * its switch side (tp_expresspass.h), and its registry entry: [expresspass]
 * options, parameters per NIC speed, the per-port credit limiters.
 */
#include "transport/tp_expresspass.h"
#include "engine/ccreg.h"
#include "engine/scenario.h"
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

/* The sender's timer (the flow's CC timer, EV_FLOW_TIMER: the source's):
 * the next credit request while no credit has come. */
static void arm_tx(struct net *n, struct flow *f)
{
    const struct xp_flow *x = xp_state(f);
    flow_set_cc_deadline(n, f, x->retry_ps && x->tx.credits == 0 ? x->retry_at : SIMTIME_NEVER);
}

/* The receiver's timer (EV_FLOW_RX_TIMER: the destination's): the next
 * credit while the pacer runs.  An event is scheduled only for a deadline
 * earlier than the pending one (the later one then fires and is ignored). */
static void arm_rx(struct net *n, struct flow *f)
{
    struct xp_nic *x = xp_nic(f);
    if (!x->xp.rx.active || x->xp.next_credit_ps >= x->rx_timer_at)
        return;
    x->rx_timer_at = x->xp.next_credit_ps < n->el.now ? n->el.now : x->xp.next_credit_ps;
    flow_rx_timer_at(n, f, x->rx_timer_at);
}

/* The sender's control frame to the receiver (control class, like ACKs):
 * a credit request or a credit stop, carrying the bytes the sender will
 * have sent in all (the message's size; after a stop, what it sent). */
static void send_ctrl(struct net *n, struct flow *f, uint8_t kind)
{
    uint32_t pi = net_new_packet(n, PKT_CREDIT);
    if (pi == PKT_NONE)
        return;
    struct packet *p = pkt(&n->pool, pi);
    p->flow = flow_index(n, f);
    p->dst = f->dst;
    p->credit_src = f->src;
    p->seq = f->size;
    p->bytes = ETH_MIN_FRAME;
    p->prio = n->cfg.ctrl_prio;
    p->credit_kind = kind;
    if (kind == CREDIT_REQUEST)
        xp_state(f)->req_sent++;
    else
        xp_state(f)->stop_sent++;
    port_enqueue_ctrl(n, n->hosts[f->src].port, pi);
}

static void send_request(struct net *n, struct flow *f)
{
    send_ctrl(n, f, CREDIT_REQUEST);
}

/* The receiver's NIC sends one credit now and plans the next. */
static void send_credit(struct net *n, struct flow *f)
{
    const struct xp_net_params *prm = f->cc_prm;
    struct xp_flow *x = xp_state(f);
    simtime_t now = n->el.now;
    uint32_t seq = xp_rx_credit(&x->rx, &prm->xp, now, &x->next_credit_ps);
    uint32_t pi = net_new_packet(n, PKT_CREDIT);
    if (pi == PKT_NONE)
        return;
    struct packet *p = pkt(&n->pool, pi);
    p->flow = flow_index(n, f);
    p->dst = f->src;
    p->credit_src = f->dst;
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
    struct xp_flow *x = xp_state(f);
    /* The sender's fields only: the receiver's are the destination's
     * (zero from set-up until the request arrives there). */
    x->tx = (struct xp_tx){ 0 };
    x->req_sent = 0;
    f->flags |= FL_CREDITED;
    f->tx_credits = 0;
    /* A lost request would stall the flow: in lossy mode the sender asks
     * again every RTO until a credit comes. */
    x->retry_ps = n->cfg.rto_ps;
    x->retry_at = n->el.now + x->retry_ps;
    send_request(n, f);
    arm_tx(n, f);
}

static uint64_t seed_of(uint32_t fi)
{
    uint64_t z = (uint64_t)fi + 0x9e3779b97f4a7c15ull;     /* splitmix64 of the flow index */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The receiver takes the end the sender announced (a request's size or a
 * stop's count): the least one seen holds, so a repeated or late frame
 * never moves it out again. */
static void rx_announce(struct xp_nic *x, uint64_t end)
{
    if (end < xp_rx_end(x))
        x->rx_end_not = ~end;
}

static void xp_on_credit(struct net *n, struct flow *f, const struct packet *p)
{
    const struct xp_net_params *prm = f->cc_prm;
    struct xp_nic *xn = xp_nic(f);
    struct xp_flow *x = &xn->xp;
    /* host.c hands over only frames addressed to the host they reached
     * (p->dst); each kind counts only at the end it is for and from the
     * other end of its flow (its source address): a credit request or stop
     * that is not from f's sender, or not for f's receiver, has no effect. */
    if (p->credit_kind == CREDIT_REQUEST || p->credit_kind == CREDIT_STOP) {   /* at the receiver */
        if (p->dst != f->dst || p->credit_src != f->src)
            return;
        rx_announce(xn, p->seq);
        if (p->credit_kind == CREDIT_STOP) {
            /* The sender's credit stop (§3.2: the sender tells the
             * receiver to stop sending credits): the pacer stops once the
             * bytes it announces are in -- now, or at the first credit
             * due after the last of them (xp_on_rx_timer). */
            if (x->rx.active && f->rcv_nxt >= xp_rx_end(xn))
                xp_rx_stop(&x->rx);
            return;
        }
        if (x->rx.active || f->rcv_nxt >= xp_rx_end(xn))
            return;                                  /* a repeated request, or nothing left to credit */
        xn->rx_timer_at = SIMTIME_NEVER;
        xp_rx_start(&x->rx, &prm->xp, n->el.now, seed_of(flow_index(n, f)));
        send_credit(n, f);
        arm_rx(n, f);
        return;
    }
    if (p->credit_kind != CREDIT_GRANT || p->dst != f->src || p->credit_src != f->dst)
        return;
    /* A credit at the sender: hold it if there is data for it. */
    int has_data = !(f->flags & FL_DONE) && f->snd_nxt < f->size;
    xp_tx_credit(&x->tx, p->credit_seq, has_data);
    f->tx_credits = x->tx.count;
    /* Credits still coming to a flow that stopped and has nothing to send
     * for them: its stop may have been lost (lossy mode).  Repeat it, at
     * most once per retry period (the RTO; lossless runs have none). */
    if (!has_data && x->stop_sent && x->retry_ps && n->el.now >= x->retry_at) {
        send_ctrl(n, f, CREDIT_STOP);
        x->retry_at = n->el.now + x->retry_ps;
    }
}

/* The application stopped f early (flow_stop, the source's event, lowered
 * f->size to the bytes sent): tell the receiver, which owns the credit
 * pacer and cannot see the sender's size (ExpressPass §3.2, credit stop).
 * The stop takes one trip to the receiver, which meanwhile paces on: the
 * credits of that trip find no data and are wasted. */
static void xp_on_stop(struct net *n, struct flow *f)
{
    struct xp_flow *x = xp_state(f);
    send_ctrl(n, f, CREDIT_STOP);
    x->retry_at = n->el.now + x->retry_ps;
}

static void xp_on_send(struct net *n, struct flow *f, const struct packet *p)
{
    struct xp_flow *x = xp_state(f);
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
    struct xp_flow *x = xp_state(f);
    if (x->rx.active)
        xp_rx_data(&x->rx, &prm->xp, p->credit_seq, n->el.now);
}

/* The sender's CC timer: ask again for credits. */
static void xp_on_timer(struct net *n, struct flow *f)
{
    struct xp_flow *x = xp_state(f);
    simtime_t now = n->el.now;
    if (x->retry_ps && x->tx.credits == 0 && x->retry_at <= now) {
        send_request(n, f);
        x->retry_at = now + x->retry_ps;
    }
    arm_tx(n, f);
}

/* The receiver's timer: the next credit, or the credit stop once the last
 * byte the sender announced is in.  Only the receiver's own state decides
 * (rcv_nxt, and the end the request or a stop carried): never FL_RX_DONE
 * or f->size, which a stop at the source (flow_stop) writes. */
static void xp_on_rx_timer(struct net *n, struct flow *f)
{
    struct xp_nic *x = xp_nic(f);
    simtime_t now = n->el.now;
    if (x->rx_timer_at != now)
        return;                                  /* superseded by an earlier one */
    x->rx_timer_at = SIMTIME_NEVER;
    if (x->xp.rx.active && x->xp.next_credit_ps <= now) {
        if (f->rcv_nxt >= xp_rx_end(x))
            xp_rx_stop(&x->xp.rx);               /* the last byte arrived: credit stop */
        else
            send_credit(n, f);
    }
    arm_rx(n, f);
}

static const struct transport_ops transport_xpass = {
    .name = "expresspass",
    .start = xp_start,
    .on_timer = xp_on_timer,
    .on_send = xp_on_send,
    .on_rx_data = xp_on_rx_data,
    .on_credit = xp_on_credit,
    .on_rx_timer = xp_on_rx_timer,
    .on_stop = xp_on_stop,
};

/* ---- registry entry: [expresspass] ---- */

struct xp_opt {
    uint64_t credit_class, queue_credits, min_rate, update_period;
    double target_loss, w_init, w_max, w_min, alpha, jitter;
    int feedback, limiter, symmetric, target_scaled;
};


static int xp_read(struct cfg *c, void *opt, struct cfg_err *err)
{
    struct xp_opt *o = opt;
    static const char S[] = "expresspass";
    TRY(cfg_u64(c, S, "credit_class", 6, &o->credit_class, err));        /* ours: a class of its own */
    TRY(cfg_u64(c, S, "queue_credits", 8, &o->queue_credits, err));      /* §3.1: 8 credits */
    TRY(cfg_double(c, S, "target_loss", 0.1, &o->target_loss, err));     /* §3.3: 10% */
    TRY(cfg_double(c, S, "w_init", 1.0 / 16, &o->w_init, err));          /* authors' scripts */
    TRY(cfg_double(c, S, "w_max", 0.5, &o->w_max, err));                 /* Alg. 1 */
    TRY(cfg_double(c, S, "w_min", 0.01, &o->w_min, err));                /* Alg. 1, authors' scripts */
    TRY(cfg_double(c, S, "alpha", 0.5, &o->alpha, err));                 /* initial rate = alpha * max_rate */
    TRY(cfg_rate(c, S, "min_rate", 0, &o->min_rate, err));               /* 0: one credit per RTT */
    TRY(cfg_double(c, S, "jitter", 0.1, &o->jitter, err));               /* +-10% of the gap */
    TRY(cfg_time(c, S, "update_period", 0, &o->update_period, err));     /* 0: the measured RTT */
    TRY(cfg_bool(c, S, "feedback", 1, &o->feedback, err));
    TRY(cfg_bool(c, S, "limiter", 1, &o->limiter, err));
    TRY(cfg_bool(c, S, "symmetric", 1, &o->symmetric, err));
    TRY(cfg_bool(c, S, "target_scaled", 0, &o->target_scaled, err));
    if (o->credit_class > 7)
        return cfg_errorf(err, cfg_find(c, S, "credit_class"), "must be a class 0..7");
    if (o->queue_credits < 1 || o->queue_credits > 65535)
        return cfg_errorf(err, cfg_find(c, S, "queue_credits"), "must be 1..65535");
    if (!(o->alpha > 0 && o->alpha <= 1))
        return cfg_errorf(err, cfg_find(c, S, "alpha"), "must be in (0, 1]");
    return 0;
}

static int xp_prm(const struct cc_ctx *x, const void *opt, void *prm, char *why, size_t nwhy)
{
    const struct xp_opt *o = opt;
    struct xp_net_params *p = prm;
    const struct net *n = &x->sc->net;
    xp_params_default(&p->xp, x->line_bps, xpass_credit_wire(n), xpass_data_wire(n));
    p->xp.init_rate_bps = (uint64_t)(o->alpha * (double)p->xp.max_rate_bps);
    p->xp.min_rate_bps = o->min_rate;
    p->xp.target_loss = o->target_loss;
    p->xp.w_init = o->w_init;
    p->xp.w_max = o->w_max;
    p->xp.w_min = o->w_min;
    p->xp.jitter = o->jitter;
    p->xp.update_ps = o->update_period;
    p->xp.queue_credits = (uint32_t)o->queue_credits;
    p->xp.feedback = (uint8_t)o->feedback;
    p->xp.target_scaled = (uint8_t)o->target_scaled;
    p->credit_class = (uint8_t)o->credit_class;
    p->symmetric = (uint8_t)o->symmetric;
    return xp_params_check(&p->xp, why, nwhy);
}

static int xp_setup(struct scenario *sc, const void *opt, struct cfg *c, struct cfg_err *err)
{
    const struct xp_opt *o = opt;
    struct net *n = &sc->net;
    for (uint32_t i = 0; i < n->n_flows; i++)
        if (sc->groups[n->flows[i].group].algo == CC_ID_expresspass && n->flows[i].prio == o->credit_class)
            return cfg_errorf(err, cfg_find(c, "expresspass", "credit_class"),
                              "class %u carries an expresspass flow group's data: credits need a class of their own",
                              (unsigned)o->credit_class);
    if (o->credit_class == n->cfg.data_prio || o->credit_class == n->cfg.ctrl_prio)
        return cfg_errorf(err, cfg_find(c, "expresspass", "credit_class"),
                          "credit class %u must differ from the data (%u) and control (%u) classes",
                          (unsigned)o->credit_class, n->cfg.data_prio, n->cfg.ctrl_prio);
    char why[200];
    if (o->limiter && xpass_setup_ports(n, (uint8_t)o->credit_class, (uint32_t)o->queue_credits, why, sizeof why))
        return cfg_section_errorf(err, c, "expresspass", "%s", why);
    return 0;
}

const struct cc_algo cc_algo_expresspass = {
    .name = "expresspass", .tp = &transport_xpass, .sections = { "expresspass" }, .prm_section = "expresspass",
    .opt_size = sizeof(struct xp_opt), .read = xp_read,
    .prm_size = sizeof(struct xp_net_params), .params = xp_prm, .setup = xp_setup,
    /* Over several MPI ranks (docs/parallel.md "Transports"): the sender's
     * side runs in the source's events (start, stop, credits, its CC
     * timer: the request retry), the receiver's in the destination's (the
     * request and stop, data arrivals, its own EV_FLOW_RX_TIMER: the
     * credit pacer); credits, requests and stops are frames, and the
     * receiver stops pacing at the end the frames announced, never from
     * the sender's size or FL_RX_DONE (which a stop writes at the source),
     * so flows that stop run over ranks too (no par_refused_stop).  No
     * output reads xp state, so nothing to merge. */
};
