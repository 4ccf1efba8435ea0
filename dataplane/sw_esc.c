/*
 * sw_esc.c -- Escape in rocc-switch (--escape; Menikkumbura 2022 §4.3,
 * §4.5.3 DPDK implementation, §4.6.2 prototype).  The decisions are
 * src/cc/escape.c's, called unchanged; this file is the glue:
 *
 *   port registry  synced from the PFC state before each call into the state
 *                  machine: ingress "PFC-requested" = sw_pfc.c sent XOFF on
 *                  the port and no XON yet (pin.xoff); egress "paused" = the
 *                  neighbour paused a class there (pout.paused).  Every port
 *                  not named by --host-port faces an Escape switch (C2).
 *   tokens (ETF)   MAC control frames, opcode 0x0102 (esc_etf_encode), sent
 *                  in the port's strict-priority control FIFO (the control
 *                  class: never paused) to the upstream neighbour; received
 *                  ones are checked (pkt_parse_etf: length, destination,
 *                  opcode, hops, padding, source; then: from the port's
 *                  neighbour, on a port facing a switch) and anything else
 *                  is counted by reason ("final esc_bad") and dropped.
 *   escape queue   per egress port, served after the control FIFO and
 *                  before the data FIFO, never paused by PFC and not counted
 *                  against any ingress (it is the space the token reserved,
 *                  §4.3.3(1)); data frames arriving with hops >= 1 go there,
 *                  but for the simulator's rule C9 (docs/escape.md): one
 *                  arriving with hops 1 (at its token's origin) while the
 *                  data FIFO holds a frame of its flow joins the FIFO's tail
 *                  behind it instead (in order), counted against no
 *                  ingress, and leaving is its TRANSMIT event
 *                  (esc_origin_tx: the token is held until then).
 *   extraction     RECEIVE(τ) with ESC_ACT_EXTRACT: the data FIFO is scanned
 *                  head to tail for the first frame of the flow; it is taken
 *                  out, the frames before it move up one slot (the order of
 *                  the rest is kept), its bytes leave its ingress's PFC count
 *                  and it joins the escape queue with hops = τ.hops (C1: not
 *                  a TRANSMIT event).  Frames scanned are counted (cost).
 *   TRANSMIT(d)    a frame that arrived escaping leaves the escape queue:
 *                  esc_transmit gives back the token and its new hops are
 *                  written into the frame.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sw.h"

int esc_setup(struct sw *s)
{
    struct esc_params p;
    size_t bytes;

    if (!s->escape) return 0;
    if (!s->pfc) { fprintf(stderr, "--escape needs --pfc (Escape clears PFC head-of-line blocking)\n"); return -1; }
    for (uint16_t i = 0; i < s->nports; i++)
        if (s->cp_on[i]) {
            fprintf(stderr, "--escape with --cp %u: not supported (the CP's flow table reads frames without the "
                    "Escape header)\n", i);
            return -1;
        }
    esc_params_default(&p, s->nports, (uint16_t)s->esc_pool, s->esc_period_us * 500000ull);
    p.period_ps = s->esc_period_us * 1000000ull;
    p.reclaim_ps = s->esc_reclaim_ms * 1000000000ull;
    p.max_hops = (uint16_t)s->esc_max_hops;
    p.ft_mode = s->esc_ft_flows ? ESC_FT_FLOWS : ESC_FT_FRAMES;
    bytes = esc_storage_bytes(&p);
    if (!bytes) { fprintf(stderr, "--esc-pool/--esc-period-us/--esc-max-hops: invalid\n"); return -1; }
    s->esc_mem = calloc(1, bytes);
    if (!s->esc_mem || esc_init(&s->esc, &p, s->esc_mem, 0)) { fprintf(stderr, "escape: out of memory\n"); return -1; }
    for (uint16_t i = 0; i < s->nports; i++) {
        s->eg[i].eq = calloc(ESLOTS, sizeof *s->eg[i].eq);
        if (!s->eg[i].eq) { fprintf(stderr, "escape: out of memory\n"); return -1; }
        esc_set_peer_escape(&s->esc, i, !s->host_port[i]);
    }
    printf("escape period_us=%" PRIu64 " pool=%" PRIu64 " reclaim_ms=%" PRIu64 " max_hops=%" PRIu64
           " flow_table=%s escape_peers=", s->esc_period_us, s->esc_pool, s->esc_reclaim_ms, s->esc_max_hops,
           s->esc_ft_flows ? "flows" : "frames");
    for (uint16_t i = 0, k = 0; i < s->nports; i++)
        if (!s->host_port[i]) printf("%s%u", k++ ? "," : "", i);
    printf("%s\n", s->esc_no_tokens ? " no_tokens=1 (test: tokens are not sent)" : "");
    return 0;
}

void esc_free(struct sw *s)
{
    if (s->eg)
        for (uint16_t i = 0; i < s->nports; i++) {
            struct egress *e = &s->eg[i];
            if (!e->eq) continue;
            while (e->eh != e->et) rte_pktmbuf_free(e->eq[e->eh++ & (ESLOTS - 1)].m);
            free(e->eq);
            e->eq = NULL;
        }
    free(s->esc_mem);
    s->esc_mem = NULL;
}

/* The port registry from the PFC state (header comment). */
static void esc_sync(struct sw *s)
{
    for (uint16_t p = 0; p < s->nports; p++) {
        esc_set_ingress_requested(&s->esc, p, s->eg[p].pin.xoff != 0);
        esc_set_egress_paused(&s->esc, p, s->eg[p].pout.paused != 0);
    }
}

static void send_etf(struct sw *s, uint16_t port, const struct esc_token *t)
{
    struct rte_mbuf *m = rte_pktmbuf_alloc(s->pool);
    uint8_t *f;

    if (!m) { s->alloc_fail++; return; }
    f = (uint8_t *)rte_pktmbuf_append(m, ESC_ETF_BYTES_NOFCS);
    if (!f || esc_etf_encode(t, s->eg[port].mac, f, ESC_ETF_BYTES_NOFCS) != ESC_ETF_BYTES_NOFCS) {
        rte_pktmbuf_free(m);
        s->alloc_fail++;
        return;
    }
    /* A full control FIFO drops it (ctl_drop): the token is lost, its pool
     * entry comes back by the reclaim timer (§4.3.3(5), C6). */
    (void)enqueue_ctl(s, port, m, K_ETF);
}

void esc_tick(struct sw *s)
{
    size_t n;

    if (now_ps(s) < esc_next_due(&s->esc)) return;
    esc_sync(s);
    n = esc_poll(&s->esc, now_ps(s), s->esc_out, ESC_OUT_MAX);
    for (size_t i = 0; i < n; i++) {
        if (s->esc_no_tokens) { s->esc_no_token++; continue; }
        send_etf(s, s->esc_out[i].port, &s->esc_out[i].tok);
    }
}

int esc_enqueue(struct sw *s, uint16_t port, struct rte_mbuf *m, const struct pkt_info *pi, uint16_t hops, bool transit)
{
    struct egress *e = &s->eg[port];
    struct eent *x;

    if (e->et - e->eh >= ESLOTS) {
        e->esc_qfull++;
        rte_pktmbuf_free(m);
        return -1;
    }
    pkt_esc_set_hops(rte_pktmbuf_mtod(m, uint8_t *), pi, hops);
    x = &e->eq[e->et++ & (ESLOTS - 1)];
    *x = (struct eent){.m = m, .len = rte_pktmbuf_pkt_len(m), .hops_off = (uint16_t)(pi->l4_off + PKT_UDP_LEN),
                       .hops = hops, .transit = transit};
    if (transit) e->esc_in++;
    else e->esc_extracted++;
    return 0;
}

void esc_on_data(struct sw *s, uint16_t port, const struct rte_mbuf *m, const struct pkt_info *pi)
{
    struct esc_fid fid = {.src_ip = pi->src_ip, .dst_ip = pi->dst_ip, .src_port = pi->sport, .dst_port = pi->dport,
                          .proto = pi->proto};
    if (m->port >= s->nports) return;
    esc_on_frame(&s->esc, port, m->port, &fid);
}

static bool same_flow(const struct pkt_info *a, const struct pkt_info *b)
{
    return a->src_ip == b->src_ip && a->dst_ip == b->dst_ip && a->sport == b->sport && a->dport == b->dport &&
           a->proto == b->proto;
}

/* C9 (docs/escape.md, the simulator's rule): does port's data FIFO hold a
 * frame of pi's flow?  Head to tail; the frames looked at count in
 * esc_scanned (the search cost). */
bool esc_fifo_has(struct sw *s, uint16_t port, const struct pkt_info *pi)
{
    struct egress *e = &s->eg[port];
    for (uint32_t k = e->qh; k != e->qt; k++) {
        const struct qent *q = &e->q[k & (QSLOTS - 1)];
        struct pkt_info qi;
        e->esc_scanned++;
        if (pkt_parse_esc(rte_pktmbuf_mtod(q->m, const uint8_t *), rte_pktmbuf_pkt_len(q->m), &qi) == PKT_OK &&
            qi.has_esc && same_flow(&qi, pi))
            return true;
    }
    return false;
}

/* RECEIVE's search (§4.5.3 rte_ring_sc_jump): the first frame of fid in
 * port's data FIFO, head to tail; 1 if found and moved to the escape
 * queue with hops, 0 if none, -1 if the escape queue is full. */
static int extract(struct sw *s, uint16_t port, const struct esc_fid *fid, uint16_t hops)
{
    struct egress *e = &s->eg[port];

    if (e->et - e->eh >= ESLOTS) { e->esc_qfull++; return -1; }
    for (uint32_t k = e->qh; k != e->qt; k++) {
        struct qent *q = &e->q[k & (QSLOTS - 1)], x;
        struct pkt_info pi;
        const uint8_t *f = rte_pktmbuf_mtod(q->m, const uint8_t *);
        e->esc_scanned++;
        if (pkt_parse_esc(f, rte_pktmbuf_pkt_len(q->m), &pi) != PKT_OK || !pi.has_esc) continue;
        if (pi.src_ip != fid->src_ip || pi.dst_ip != fid->dst_ip || pi.sport != fid->src_port ||
            pi.dport != fid->dst_port || pi.proto != fid->proto) continue;
        x = *q;
        /* The frames ahead of it move back one slot: the order of the rest is kept. */
        for (uint32_t j = k; j != e->qh; j--) e->q[j & (QSLOTS - 1)] = e->q[(j - 1) & (QSLOTS - 1)];
        e->qh++;
        e->qbytes -= x.len;
        pfc_on_dequeue(s, &x);
        /* A frame that escaped to here (its token's origin) and waits in the
         * FIFO escapes again: it leaves the FIFO, so its token comes back now
         * (e3), and it goes on with the new token's hops.  Skipping it would
         * let a later frame of the flow overtake it. */
        if (x.esc_origin) (void)esc_transmit(&s->esc, port, 1);
        return esc_enqueue(s, port, x.m, &pi, hops, false) ? -1 : 1;
    }
    return 0;
}

void esc_rx(struct sw *s, uint16_t port, const uint8_t *f, uint32_t len)
{
    struct egress *e = &s->eg[port];
    struct esc_token t;
    struct esc_action a;
    uint8_t src[6];
    int r = pkt_parse_etf(f, len, src, &t);
    struct esc_stats before;

    if (r == PKT_ETF_OK && !sw_neighbour(s, port, src)) r = PKT_ETF_ENEIGH;
    if (r == PKT_ETF_OK && s->host_port[port]) r = PKT_ETF_EPORT;   /* C2: a host cannot make frames escape */
    if (r != PKT_ETF_OK) { s->esc_bad[r]++; e->etf_drop++; return; }
    e->etf_rx++;
    esc_sync(s);
    before = s->esc.st;
    esc_receive(&s->esc, port, &t, &a);
    if (a.kind == ESC_ACT_NONE) {
        if (s->esc.st.tok_drop_pool != before.tok_drop_pool) return;   /* case 1: pool exhausted, not malformed */
        if (s->esc.st.tok_drop_unknown != before.tok_drop_unknown) r = PKT_ETF_EUNKNOWN;
        else if (s->esc.st.tok_drop_open != before.tok_drop_open) r = PKT_ETF_EOPEN;   /* C11 */
        else r = PKT_ETF_EBAD;
        s->esc_bad[r]++;
        e->etf_drop++;
        return;
    }
    if (a.kind != ESC_ACT_EXTRACT) return;
    r = extract(s, port, &a.fid, a.hops);
    if (r > 0) { esc_extracted(&s->esc, port); return; }
    if (r < 0) return;   /* escape queue full (esc_qfull): the token ends here */
    s->esc_miss++;
    esc_receive_missed(&s->esc, port, &t, &a);
    if (a.kind == ESC_ACT_FORWARD) {
        struct esc_token fw = {.fid = a.fid, .hops = a.hops};
        send_etf(s, a.port, &fw);
    }
}

unsigned esc_dequeue(struct sw *s, struct egress *e, uint16_t port, struct rte_mbuf **tx, uint8_t *kind, unsigned max)
{
    unsigned n = 0;

    while (e->eh != e->et && n < max) {
        struct eent *x = &e->eq[e->eh & (ESLOTS - 1)];
        if (e->rate_bps && e->tokens < (double)(x->len + PKT_WIRE_OVERHEAD)) break;
        if (e->rate_bps) e->tokens -= x->len + PKT_WIRE_OVERHEAD;
        e->eh++;
        if (x->transit) {   /* e3: TRANSMIT(d) */
            uint16_t h = esc_transmit(&s->esc, port, x->hops);
            uint8_t *f = rte_pktmbuf_mtod(x->m, uint8_t *);
            f[x->hops_off] = (uint8_t)(h >> 8);
            f[x->hops_off + 1] = (uint8_t)h;
        }
        e->esc_tx++;
        kind[n] = K_DATA;
        tx[n++] = x->m;
    }
    return n;
}

void esc_origin_tx(struct sw *s, uint16_t port, struct rte_mbuf *m)
{
    uint8_t *f = rte_pktmbuf_mtod(m, uint8_t *);
    uint16_t h = esc_transmit(&s->esc, port, 1), off = (uint16_t)(PKT_ETH_LEN + (f[PKT_ETH_LEN] & 0x0f) * 4 + PKT_UDP_LEN);
    f[off] = (uint8_t)(h >> 8);
    f[off + 1] = (uint8_t)h;
    s->eg[port].esc_tx++;
}

void esc_print_final(const struct sw *s)
{
    const struct esc_stats *st = &s->esc.st;

    if (!s->escape) return;
    for (uint16_t p = 0; p < s->nports; p++) {
        const struct egress *e = &s->eg[p];
        printf("final esc port=%u T=%u pool=%" PRIu64 " esc_in=%" PRIu64 " esc_tx=%" PRIu64 " extracted=%" PRIu64
               " scanned=%" PRIu64 " esc_qfull=%" PRIu64 " esc_queued=%u etf_tx=%" PRIu64 " etf_rx=%" PRIu64
               " etf_drop=%" PRIu64 "\n", p, esc_pool(&s->esc, p), s->esc_pool, e->esc_in, e->esc_tx,
               e->esc_extracted, e->esc_scanned, e->esc_qfull, e->et - e->eh, e->etf_tx, e->etf_rx, e->etf_drop);
    }
    printf("final escape triggers=%" PRIu64 " tok_sent=%" PRIu64 " tok_forwarded=%" PRIu64 " tok_extract=%" PRIu64
           " frames_escaped=%" PRIu64 " extract_miss=%" PRIu64 " tok_drop_pool=%" PRIu64 " tok_end=%" PRIu64
           " tok_drop_unknown=%" PRIu64 " tok_drop_bad=%" PRIu64 " reclaim_tx=%" PRIu64 " reclaim_timer=%" PRIu64
           " over_reclaim=%" PRIu64 " frames_bad_hops=%" PRIu64 " tok_truncated=%" PRIu64 " outstanding=%" PRIu64
           " tok_not_sent=%" PRIu64 " tok_drop_open=%" PRIu64 " hdr_reset_from_host=%" PRIu64
           " ended_at_origin_behind_flow=%" PRIu64 " order_risk=%" PRIu64 "\n", st->triggers, st->tok_sent, st->tok_forwarded, st->tok_extract,
           st->frames_escaped, s->esc_miss, st->tok_drop_pool, st->tok_end, st->tok_drop_unknown, st->tok_drop_bad,
           st->reclaim_tx, st->reclaim_timer, st->over_reclaim, st->frames_bad_hops, st->tok_truncated,
           esc_outstanding(&s->esc), s->esc_no_token, st->tok_drop_open, s->esc_hdr_reset, s->esc_demoted,
           s->esc_order_risk);
    printf("final esc_bad");
    for (int r = 1; r < PKT_ETF_NRESULTS; r++) printf(" %s=%" PRIu64, pkt_etf_strerror(r), s->esc_bad[r]);
    printf("\n");
}

void esc_print_stat(const struct sw *s, double t)
{
    if (!s->escape) return;
    for (uint16_t p = 0; p < s->nports; p++) {
        const struct egress *e = &s->eg[p];
        printf("esc t=%.3f port=%u T=%u esc_in=%" PRIu64 " esc_tx=%" PRIu64 " extracted=%" PRIu64 " etf_tx=%" PRIu64
               " etf_rx=%" PRIu64 "\n", t, p, esc_pool(&s->esc, p), e->esc_in, e->esc_tx, e->esc_extracted,
               e->etf_tx, e->etf_rx);
    }
}
