/* host_ctl.c -- rocc-host's pacing arithmetic and control frames: CNPs
 * (the RoCC RP, RoCC §3.6 host forms), ARP, ICMP echo, PFC (host.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>

#include "host.h"
#include "host_dcqcn.h"

uint64_t flow_rate_bps(const struct host *h, const struct flow *f)
{
    uint64_t r = rocc_rp_rate_bps(&f->rp, &h->rpp);
    if (f->app_bps && f->app_bps < r) r = f->app_bps;
    if (h->dc && hdc_rate_bps(h, f) < r) r = hdc_rate_bps(h, f);   /* --cc dcqcn */
    return r;
}

/* Cycles between two frames of f at its current rate.  Cached per flow
 * while the rate stays the same: the 128-bit division costs more than
 * building a small frame, and at high rates this runs per frame. */
uint64_t gap_cycles(const struct host *h, struct flow *f, uint32_t wire_bytes)
{
    uint64_t r = flow_rate_bps(h, f);
    if (r == 0) r = 1;
    if (r != f->gap_bps || wire_bytes != f->gap_wire) {
        f->gap_bps = r;
        f->gap_wire = wire_bytes;
        f->gap_cyc = (uint64_t)((__extension__ (unsigned __int128)wire_bytes * 8 * h->hz) / r);
    }
    return f->gap_cyc;
}

uint32_t frame_wire(const struct host *h)
{
    return PKT_ROCE_HDRS + (h->escape ? PKT_ESC_LEN : 0) + h->payload + PKT_WIRE_OVERHEAD;
}

/* The flow's rate changed from old_bps: the next frame leaves one new gap
 * after the last one's *scheduled* departure (docs/rocc.md, RP section).
 * Measuring from the actual departure instead would drop the last frame's
 * lateness (a wake-up after a sleep, often 50-150 us here) at every CNP, which
 * measured ~17% below an application cap of 30 or 90 Mb/s.  A CNP that leaves
 * the effective rate unchanged (F above the application cap) changes nothing. */
void repace(const struct host *h, struct flow *f, uint64_t old_bps)
{
    if (!f->last_sched || flow_rate_bps(h, f) == old_bps) return;
    f->next_tsc = f->last_sched + gap_cycles(h, f, frame_wire(h));
}

/* A CNP's rate takes effect now (Alg. 2 RECEIVED_CNP). */
void apply_cnp(struct host *h, uint32_t idx, uint32_t rate_units, uint32_t cp_id, uint64_t tsc)
{
    struct flow *fl = &h->flows[idx];
    uint64_t old_bps = flow_rate_bps(h, fl);

    if (rocc_rp_on_cnp(&fl->rp, &h->rpp, rate_units, cp_id, now_ps(h, tsc)))
        repace(h, fl, old_bps);   /* takes effect on the next frame */
    else
        h->cnp_rejected++;
}

void handle_cnp(struct host *h, const uint8_t *f, const struct pkt_info *pi, uint64_t tsc)
{
    struct rocc_cnp c;

    /* Only CPs we trust may throttle us: a forged CNP is a DoS lever. */
    if (!h->have_allow || (pi->src_ip & h->allow_mask) != h->allow_net) {
        h->cnp_denied++;
        return;
    }
    switch (rocc_cnp_check(&h->cnp_pol, pi->src_ip, pi->dst_ip, f + pi->l4_off, pi->l4_len, &c)) {
    case ROCC_CNP_OK: break;
    case ROCC_CNP_EBIND: h->cnp_unbound++; return;
    case ROCC_CNP_EAUTH: h->cnp_badauth++; return;
    default: h->cnp_bad++; return;
    }
    /* RoCC §3.6: a host-form CNP carries Alg. 1's inputs; F is computed
     * here (rocc_cp_compute) and then used as a RATE CNP's. */
    if (c.form != ROCC_CNP_FORM_RATE) {
        uint32_t rate;
        if (rocc_hostcp_rate(&h->reg, &c, &rate, &h->hstats)) return;   /* counted in hstats */
        c.rate_units = rate;
    }
    for (unsigned i = 0; i < h->nflows; i++) {
        struct flow *fl = &h->flows[i];
        if (fl->qpn != c.dest_qpn || fl->dst_ip != c.dst_ip) continue;
        h->cnp_ok++;
        fl->cnps++;
        if (!h->cnp_delay_cyc) { apply_cnp(h, i, c.rate_units, c.cp_id, tsc); return; }
        if (h->cq_t - h->cq_h >= CNPQ) {
            /* More CNPs in flight than a NIC would hold: apply at once. */
            h->cnp_delay_full++;
            apply_cnp(h, i, c.rate_units, c.cp_id, tsc);
            return;
        }
        h->cq[h->cq_t++ & (CNPQ - 1)] = (struct pending_cnp){.rx_tsc = tsc, .due_tsc = tsc + h->cnp_delay_cyc, .flow = i,
                                                             .rate_units = c.rate_units, .cp_id = c.cp_id};
        return;
    }
    h->cnp_nomatch++;
}

/* Send one frame built by the caller in m now (ARP, echo replies). */
void send_now(struct host *h, struct rte_mbuf *m, uint64_t tsc)
{
    if (dp_tx_burst(h->port, &m, 1, &h->cap, tsc) != 1) {
        rte_pktmbuf_free(m);
        h->tx_fail++;
    }
}

static void send_arp(struct host *h, uint16_t op, const uint8_t eth_dst[6], const uint8_t tha[6], uint32_t tpa,
                     uint64_t tsc)
{
    struct rte_mbuf *m = rte_pktmbuf_alloc(h->pool);
    uint8_t *p;

    if (!m) { h->alloc_fail++; return; }
    p = (uint8_t *)rte_pktmbuf_append(m, PKT_ARP_FRAME_LEN);
    if (!p || !pkt_build_arp(p, PKT_ARP_FRAME_LEN, op, eth_dst, h->mac, h->local_ip, tha, tpa)) {
        rte_pktmbuf_free(m);
        h->alloc_fail++;
        return;
    }
    send_now(h, m, tsc);
}

void gw_request(struct host *h, uint64_t tsc)
{
    static const uint8_t bc[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, zero[6];
    send_arp(h, PKT_ARP_REQUEST, bc, zero, h->gw_ip, tsc);
    h->arp_req_tx++;
    h->next_arp_tsc = tsc + h->arp_retry_cyc;
}

void handle_arp(struct host *h, const uint8_t *f, uint32_t len, uint64_t tsc)
{
    struct pkt_arp a;

    if (pkt_parse_arp(f, len, &a)) { h->arp_bad++; return; }
    if (a.op == PKT_ARP_REQUEST) h->arp_req_rx++;
    else h->arp_rep_rx++;
    /* The gateway's MAC from any ARP it sends (a static --gw-mac wins). */
    if (h->gw_ip && a.spa == h->gw_ip && !h->gw_static) {
        if (!h->have_gw) {
            char b[16];
            printf("arp gw %s is %02x:%02x:%02x:%02x:%02x:%02x after %" PRIu64 " requests\n",
                   pkt_ip_str(a.spa, b, sizeof b), a.sha[0], a.sha[1], a.sha[2], a.sha[3], a.sha[4], a.sha[5],
                   h->arp_req_tx);
            fflush(stdout);
            /* Flows start now (or at their start=), not at a schedule that began before. */
            for (unsigned i = 0; i < h->nflows; i++)
                h->flows[i].next_tsc = h->flows[i].start_tsc > tsc ? h->flows[i].start_tsc : tsc;
        }
        memcpy(h->gw_mac, a.sha, 6);
        h->have_gw = true;
    }
    if (a.op == PKT_ARP_REQUEST && a.tpa == h->local_ip) {
        send_arp(h, PKT_ARP_REPLY, a.sha, a.sha, a.spa, tsc);
        h->arp_replies_tx++;
    } else if (a.spa != h->gw_ip || h->gw_static) {
        h->arp_ignored++;
    }
}

/* ICMP echo request to us: answer in place of the request's source. */
void echo_reply(struct host *h, const uint8_t *f, const struct pkt_info *pi, uint64_t tsc)
{
    struct rte_mbuf *m;
    uint8_t *p, *ip, *icmp;
    uint32_t len = (uint32_t)PKT_ETH_LEN + pi->ip_len;
    uint16_t ck;

    if (pi->l4_len < 8 || !pi->is_first_frag) { h->rx_other++; return; }
    m = rte_pktmbuf_alloc(h->pool);
    if (!m) { h->alloc_fail++; return; }
    p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)len);
    if (!p) { rte_pktmbuf_free(m); h->alloc_fail++; return; }
    memcpy(p, f + 6, 6);
    memcpy(p + 6, h->mac, 6);
    p[12] = 0x08; p[13] = 0x00;
    ip = p + PKT_ETH_LEN;
    memcpy(ip, f + pi->l3_off, pi->ip_len);
    /* Fresh IPv4 header without options: a reply needs none of them. */
    {
        uint32_t ihl = (uint32_t)(pi->l4_off - pi->l3_off);
        uint16_t tot = (uint16_t)(PKT_IP4_LEN + pi->l4_len);
        if (ihl > PKT_IP4_LEN) memmove(ip + PKT_IP4_LEN, ip + ihl, pi->l4_len);
        ip[0] = 0x45;
        ip[1] = 0;
        ip[2] = (uint8_t)(tot >> 8); ip[3] = (uint8_t)tot;
        ip[6] = 0x40; ip[7] = 0;
        ip[8] = 64;
        for (int k = 0; k < 4; k++) { ip[12 + k] = (uint8_t)(h->local_ip >> (24 - 8 * k)); ip[16 + k] = f[pi->l3_off + 12 + k]; }
        ip[10] = ip[11] = 0;
        ck = rocc_inet_checksum(ip, PKT_IP4_LEN);
        ip[10] = (uint8_t)(ck >> 8); ip[11] = (uint8_t)ck;
        rte_pktmbuf_trim(m, (uint16_t)(ihl - PKT_IP4_LEN));
    }
    icmp = ip + PKT_IP4_LEN;
    icmp[0] = 0;           /* echo reply */
    icmp[2] = icmp[3] = 0;
    ck = rocc_inet_checksum(icmp, pi->l4_len);
    icmp[2] = (uint8_t)(ck >> 8); icmp[3] = (uint8_t)ck;
    send_now(h, m, tsc);
    h->echo_replied++;
}

/* A MAC control frame: honoured only as a well-formed PFC frame from the
 * gateway (its quanta at --line-gbps). */
void handle_pfc(struct host *h, const uint8_t *f, uint32_t len, uint64_t tsc)
{
    struct pkt_pfc pf;
    int r = pkt_parse_pfc(f, len, &pf);

    if (r == PKT_PFC_OK && (!h->have_gw || memcmp(pf.src, h->gw_mac, 6))) r = PKT_PFC_ENEIGH;
    if (r != PKT_PFC_OK) { h->pfc_bad[r]++; return; }
    h->pfc_rx++;
    (void)pfc_egress_frame(&h->pout, pf.vec, pf.quanta, pfc_quantum_ps(h->line_bps), now_ps(h, tsc));
    if (pf.vec & (1u << h->pfc_cls)) {
        if (pf.quanta[h->pfc_cls]) h->pfc_rx_xoff++;
        else h->pfc_rx_xon++;
    }
}
