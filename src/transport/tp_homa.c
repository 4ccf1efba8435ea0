/*
 * tp_homa.c -- Homa (Montazeri et al., SIGCOMM 2018) at the NIC and its
 * registry entry (docs/homa.md): the glue between a flow and
 * src/cc/homa.h, the [homa] options, the parameter block per NIC speed,
 * the receivers' tables and the switches' strict-priority ports.  cc_prm: struct homa_params; the destination
 * host's struct homa_rx: its element of net_host_state(n, &cc_algo_homa)
 * (the engine's set-up makes both; a host that receives no Homa message
 * has cap 0).
 *
 * Sender.  *ST(f) is the message's struct homa_tx.  The NIC may send
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
#include <stdlib.h>
#include <string.h>

#include "engine/ccreg.h"
#include "engine/scenario.h"
#include "net/net.h"
#include "net/qd_prio.h"
#include "homa.h"

_Static_assert(sizeof(struct homa_tx) <= sizeof(((struct flow *)0)->cc), "struct homa_tx must fit in flow.cc");
#define ST(f) ((struct homa_tx *)(void *)(f)->cc.raw)

#define HOMA_MAX_GRANTS 64      /* overcommitment degrees above this are refused by the engine */
static const char homa_slots_key;   /* net_state key of the receivers' message slots */

static void homa_apply(struct flow *f)
{
    const struct homa_tx *t = ST(f);
    f->window = homa_tx_limit(t);
    f->prio = homa_tx_prio(t, f->snd_nxt);
}

static void homa_start(struct net *n, struct flow *f)
{
    (void)n;
    homa_tx_init(ST(f), f->cc_prm, f->size);
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
    homa_tx_grant(ST(f), p->seq, p->grant_prio);
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
    struct homa_rx *rx = net_host_state(n, &cc_algo_homa, sizeof *rx);
    if (!rx || !rx[f->dst].cap)
        return;
    rx += f->dst;
    struct host *h = &n->hosts[f->dst];
    const struct homa_params *prm = f->cc_prm;
    struct homa_grant g[HOMA_MAX_GRANTS];
    homa_rx_data(rx, prm, flow_index(n, f), f->size, p->payload);
    unsigned k = homa_rx_grants(rx, prm, g);
    for (unsigned i = 0; i < k; i++)
        send_grant(n, h, &g[i]);
}

static const struct transport_ops transport_homa = {
    .name = "homa", .start = homa_start, .on_ack = homa_on_ack, .on_send = homa_on_send,
    .on_rx_data = homa_on_rx_data, .rx_unordered = 1,
};

/* ---- the registry entry ---- */


struct homa_opt {
    uint64_t rtt_bytes;          /* 0: auto */
    uint64_t prio;               /* classes 0..prio-1 */
    uint64_t overcommit;         /* 0: auto */
    uint64_t port_buffer;        /* qd_prio limit per port, 0: unlimited */
};

/* "auto" or a value read by get (absent: dflt). */
static int auto_or(struct cfg *c, const char *key, uint64_t dflt, uint64_t *out, struct cfg_err *err,
                   int (*get)(struct cfg *, const char *, const char *, uint64_t, uint64_t *, struct cfg_err *))
{
    const struct cfg_entry *e = cfg_find(c, "homa", key);
    if (e && !strcmp(e->value, "auto")) {
        *out = 0;
        return 0;
    }
    return get(c, "homa", key, dflt, out, err);
}

static int homa_read(struct cfg *c, void *opt, struct cfg_err *err)
{
    struct homa_opt *o = opt;
    TRY(auto_or(c, "rtt_bytes", 0, &o->rtt_bytes, err, cfg_bytes));
    if (cfg_find(c, "homa", "rtt_bytes") && o->rtt_bytes == 0 && strcmp(cfg_find(c, "homa", "rtt_bytes")->value, "auto"))
        return cfg_errorf(err, cfg_find(c, "homa", "rtt_bytes"), "rtt_bytes must be > 0 (or 'auto')");
    /* §3.4 uses the 8 classes of the switches; here one of them is the
     * control class (GRANTs, ACKs): 7 for data by default (docs/homa.md) */
    TRY(cfg_u64(c, "homa", "priorities", 7, &o->prio, err));
    if (o->prio < 1 || o->prio > HOMA_MAX_PRIO)
        return cfg_errorf(err, cfg_find(c, "homa", "priorities"), "priorities must be 1..%d", HOMA_MAX_PRIO);
    TRY(auto_or(c, "overcommit", 0, &o->overcommit, err, cfg_u64));
    const struct cfg_entry *oe = cfg_find(c, "homa", "overcommit");
    if (o->overcommit > HOMA_MAX_GRANTS || (oe && o->overcommit == 0 && strcmp(oe->value, "auto")))
        return cfg_errorf(err, oe, "overcommit must be 1..%d (or 'auto')",
                          HOMA_MAX_GRANTS);
    const struct cfg_entry *be = cfg_find(c, "homa", "port_buffer");
    if (be && !strcmp(be->value, "unlimited"))
        o->port_buffer = 0;
    else {
        TRY(cfg_bytes(c, "homa", "port_buffer", 0, &o->port_buffer, err));
        if (be && o->port_buffer == 0)
            return cfg_errorf(err, be, "port_buffer must be > 0 (or 'unlimited')");
    }
    return 0;
}

static int is_homa(const struct scenario *sc, const struct flow *f)
{
    return sc->groups[f->group].algo == CC_ID_homa;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The cut-offs come from the message sizes of the scenario's Homa flows:
 * the receivers of §3.4 measure the workload; here the whole run's
 * sizes are known in advance (docs/homa.md). */
static int homa_prm(const struct cc_ctx *x, const void *opt, void *prm, char *why, size_t nwhy)
{
    const struct homa_opt *o = opt;
    const struct scenario *sc = x->sc;
    const struct net *n = &sc->net;
    struct homa_params *p = prm;
    memset(p, 0, sizeof *p);
    /* §3.2: RTTbytes = bytes sent at line rate in the time a full data
     * packet takes to the receiver plus a grant back (the base RTT) */
    p->rtt_bytes = o->rtt_bytes ? o->rtt_bytes : (uint64_t)((x->line_bps * (double)x->base_rtt) / 8e12 + 0.999999);
    if (p->rtt_bytes == 0)
        p->rtt_bytes = n->cfg.mtu_payload;
    p->n_prio = (uint8_t)o->prio;
    p->overcommit = (uint8_t)o->overcommit;
    uint32_t cnt = 0;
    for (uint32_t i = 0; i < n->n_flows; i++)
        cnt += is_homa(sc, &n->flows[i]) && n->flows[i].size;
    uint64_t *sz = malloc((cnt ? cnt : 1) * sizeof *sz);
    double *cum = malloc((cnt ? cnt : 1) * sizeof *cum);
    if (!sz || !cum) {
        free(sz);
        free(cum);
        snprintf(why, nwhy, "out of memory");
        return -1;
    }
    uint32_t k = 0, m = 0;
    for (uint32_t i = 0; i < n->n_flows; i++)
        if (is_homa(sc, &n->flows[i]) && n->flows[i].size)
            sz[k++] = n->flows[i].size;
    qsort(sz, k, sizeof *sz, cmp_u64);
    for (uint32_t i = 0; i < k; i++) {          /* distinct sizes, cumulative fractions */
        if (m && sz[m - 1] == sz[i])
            m--;
        sz[m] = sz[i];
        cum[m++] = (double)(i + 1) / k;
    }
    int rc = 0;
    if (m == 0) {
        p->n_unsched = 1;
        for (int c = 0; c < HOMA_MAX_PRIO; c++)
            p->cutoff[c] = UINT64_MAX;
    } else if (homa_cutoffs(p, sz, cum, m) < 0) {
        snprintf(why, nwhy, "cannot compute priority cut-offs from the flow sizes");
        rc = -1;
    }
    free(sz);
    free(cum);
    return rc ? rc : homa_params_check(p, why, nwhy);
}

/* Per-host receiver tables, one slot per Homa message that host receives. */
static int homa_setup(struct scenario *sc, const void *opt, struct cfg *c, struct cfg_err *err)
{
    const struct homa_opt *o = opt;
    struct net *n = &sc->net;
    if (n->cfg.rto_ps)
        return cfg_section_errorf(err, c, "homa", "Homa needs [network] rto = 0 (mode = lossless): the NIC's "
                                  "timeout would resend whole messages; Homa's own loss recovery is not modelled "
                                  "(docs/homa.md)");
    if ((uint64_t)n->cfg.ctrl_prio + 1 < o->prio)
        return cfg_section_errorf(err, c, "homa", "priorities = %u needs classes 0..%u, which must not pass the "
                                  "control class %u ([network] ctrl_class)", (unsigned)o->prio,
                                  (unsigned)o->prio - 1, (unsigned)n->cfg.ctrl_prio);
    uint32_t *cnt = calloc(n->n_hosts ? n->n_hosts : 1, sizeof *cnt);
    if (!cnt)
        return cfg_section_errorf(err, c, "homa", "out of memory");
    int other = 0;
    for (uint32_t i = 0; i < n->n_flows; i++) {
        const struct flow *f = &n->flows[i];
        if (!is_homa(sc, f)) {
            other = 1;
            continue;
        }
        if (f->size == UINT64_MAX) {
            free(cnt);
            return cfg_section_errorf(err, c, "homa", "flow group '%s' has no size: Homa sends messages "
                                      "(give its flows a size)", sc->groups[f->group].name);
        }
        if (f->stop_ps != SIMTIME_NEVER) {
            free(cnt);
            return cfg_section_errorf(err, c, "homa", "flow group '%s' has a stop time: a Homa message is sent "
                                      "whole (remove stop)", sc->groups[f->group].name);
        }
        cnt[f->dst]++;
    }
    if (other)
        scenario_warn(sc, "%s: Homa's strict-priority switch ports (docs/homa.md) take every data class: "
                      "the other flow groups lose PFC and DRR", cfg_path(c));
    /* One slot per message (the Homa flows counted above), in one block. */
    size_t total = 0;
    for (uint32_t h = 0; h < n->n_hosts; h++)
        total += cnt[h];
    struct homa_rx *rx = net_host_state(n, &cc_algo_homa, sizeof *rx);
    struct homa_rx_msg *slot = net_state(n, &homa_slots_key, total * sizeof *slot);
    if (!rx || !slot) {
        free(cnt);
        return cfg_section_errorf(err, c, "homa", "out of memory");
    }
    for (uint32_t h = 0; h < n->n_hosts; h++) {
        homa_rx_init(&rx[h], slot, cnt[h]);
        slot += cnt[h];
    }
    free(cnt);
    return 0;
}

static int homa_port_setup(struct scenario *sc, const void *opt, uint32_t port, struct cfg *c, struct cfg_err *err)
{
    const struct homa_opt *o = opt;
    if (qd_prio_install(&sc->net, port, o->port_buffer))
        return cfg_section_errorf(err, c, "homa", "out of memory");
    return 0;
}

const struct cc_algo cc_algo_homa = {
    .name = "homa", .tp = &transport_homa, .sections = { "homa" }, .prm_section = "homa",
    .opt_size = sizeof(struct homa_opt), .read = homa_read,
    .prm_size = sizeof(struct homa_params), .params = homa_prm,
    .setup = homa_setup, .port_setup = homa_port_setup,
};
