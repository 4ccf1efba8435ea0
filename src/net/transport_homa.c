/*
 * transport_homa.c -- Homa at the NIC (docs/homa.md): the glue between a
 * flow and src/cc/homa.h.  cc_prm: struct homa_params; the destination
 * host's tp_rx: its struct homa_rx (the engine's set-up makes both).
 *
 * Sender.  f->cc.homa is the message's struct homa_tx.  The NIC may send
 * up to homa_tx_limit(), which is f->window: a Homa flow's snd_una stays 0
 * until the receiver's final ACK, so snd_nxt - snd_una >= window is
 * exactly "snd_nxt reached the granted offset".  Every frame's class is
 * set in f->prio before the NIC makes it (homa_tx_prio of snd_nxt), so
 * unscheduled bytes go at the class of the message's size and granted
 * bytes at the class of the last grant.  The NIC sends at line rate.
 *
 * Receiver.  on_rx_data sees every data frame: it feeds the host's
 * homa_rx and sends the GRANTs it asks for, in the control class.  The
 * NIC's receiver is rx_unordered: it counts bytes in any order (the
 * classes of a message's packets change, so later packets overtake
 * earlier ones) and answers the last byte with one ACK of the whole
 * message, so the sender's NIC completes it (Homa has no per-packet ACKs;
 * the RPC's response plays that role in the paper).  There is no loss
 * recovery: the fabric under Homa must not drop (docs/homa.md "Losses").
 */
#include "net/net.h"

#define HOMA_MAX_GRANTS 64      /* overcommitment degrees above this are refused by the engine */

static void homa_apply(struct flow *f)
{
    const struct homa_tx *t = &f->cc.homa;
    f->window = homa_tx_limit(t);
    f->prio = homa_tx_prio(t, f->snd_nxt);
}

static void homa_start(struct net *n, struct flow *f)
{
    (void)n;
    homa_tx_init(&f->cc.homa, f->cc_prm, f->size);
    homa_apply(f);
}

static void homa_on_send(struct net *n, struct flow *f, const struct packet *p)
{
    (void)n;
    (void)p;
    homa_apply(f);
}

static void homa_on_ack(struct net *n, struct flow *f, const struct packet *p)
{
    (void)n;
    if (p->type != PKT_GRANT)
        return;
    homa_tx_grant(&f->cc.homa, p->seq, p->grant_prio);
    homa_apply(f);
}

static void send_grant(struct net *n, struct host *h, const struct homa_grant *g)
{
    uint32_t pi = net_new_packet(n, PKT_GRANT);
    if (pi == PKT_NONE)
        return;
    struct packet *p = pkt(&n->pool, pi);
    p->flow = g->id;
    p->seq = g->offset;
    p->grant_prio = g->prio;
    p->dst = n->flows[g->id].src;
    p->bytes = ROCE_ACK_FRAME;       /* about an ACK: headers + offset + class */
    p->prio = n->cfg.ctrl_prio;      /* §3.3: grants travel at the highest priority */
    p->ts = n->el.now;
    port_enqueue_ctrl(n, h->port, pi);
}

static void homa_on_rx_data(struct net *n, struct flow *f, const struct packet *p)
{
    struct host *h = &n->hosts[f->dst];
    struct homa_rx *rx = h->tp_rx;
    if (!rx)
        return;
    const struct homa_params *prm = f->cc_prm;
    struct homa_grant g[HOMA_MAX_GRANTS];
    homa_rx_data(rx, prm, flow_index(n, f), f->size, p->payload);
    unsigned k = homa_rx_grants(rx, prm, g);
    for (unsigned i = 0; i < k; i++)
        send_grant(n, h, &g[i]);
}

const struct transport_ops transport_homa = {
    .name = "homa", .start = homa_start, .on_ack = homa_on_ack, .on_send = homa_on_send,
    .on_rx_data = homa_on_rx_data, .rx_unordered = 1,
};
