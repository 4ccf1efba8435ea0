/*
 * rocc_host.c -- a RoCEv2 sender/sink on one DPDK port (issue 5).
 *
 *   rocc-host <EAL args> -- --local-ip A.B.C.D [--gw-mac MAC | --gw-ip A.B.C.D (needed by --flow)]
 *       [--flow dst=IP,rate=Gbps|line,size=BYTES|inf,qpn=N[,start=MS][,dscp=N][,on=MS,off=MS]]...
 *       [--cp-allow PREFIX/LEN] [--cp-bind SWITCH_ID=A.B.C.D ...] [--cnp-key HEX32]
 *       [--line-gbps G] [--payload BYTES]
 *       [--f-unit-mbps N] [--recovery-us US] [--cnp-delay-us US] [--ecn-capable]
 *       [--report-ms MS] [--port N] [--arp-retry-ms MS] [--start-at-ns NS]
 *       [--pcap FILE] [--pcap-dir rx|tx|both] [--pcap-snaplen N]
 *       [--pfc] [--pfc-class N] [--escape]
 *       [--rate-at switch|host_full|host_registry|host] [--cp-reg ID=QREF:QMID:QMAX:FMIN:FMAX:A:B:FLAGS ...]
 *
 * Sender: every --flow is paced at min(RP rate, flow rate) where the RP is
 * librocc's Alg. 2 rate limiter, driven by CNPs from CPs inside --cp-allow.
 * A CNP counts only if librocc's rocc_cnp_check accepts it (exact length
 * from the IPv4 total length, checksum, quote; with --cp-bind its CP id's
 * switch must be bound to its source address, with --cnp-key its SipHash
 * tag must verify): docs/dataplane.md "Forged CNPs".
 * Rate computation at the host (RoCC §3.6, --rate-at): CNPs of the host
 * forms carry Alg. 1's inputs; the host computes F with librocc's
 * rocc_cp_compute (rocc_hostcp_rate), the parameters from the CNP
 * (host_full) or from its registry of --cp-reg entries (host_registry), and
 * the RP then applies F as from a RATE CNP.  Host forms are refused (cnp
 * bad) unless --rate-at enables them; one whose CP id is not registered,
 * or whose F is outside the entry's [Fmin, Fmax], has no effect (counted).
 * Sink: counts RoCEv2 frames addressed to --local-ip per (src IP, dest QPN).
 * ARP: answers requests for --local-ip; without --gw-mac it resolves --gw-ip
 * (a request every --arp-retry-ms until answered; flows start then) and
 * follows any later ARP from the gateway.  ICMP echo requests to
 * --local-ip are answered, so kernel ping can check the path.
 * CNPs take effect --cnp-delay-us after they arrive (the NIC reaction delay,
 * 15 µs as roccsim's [network] nic_delay).
 * PFC (--pfc): 802.1Qbb frames from the gateway (--gw-mac, or the MAC ARP
 * found for --gw-ip) pause the sender while they pause --pfc-class (the
 * class of its frames: DSCP 0 is class 0), for quanta × 512 bit times at
 * --line-gbps (src/cc/pfc.c); quanta 0 resumes it.  A pause banks no
 * sending time: flows resume at their rate, not with a burst.  Malformed
 * frames and frames from any other source are counted by reason and
 * dropped.  Without --pfc, MAC control frames count as not IPv4.
 * Escape (--escape): every data frame sent carries the 2-byte Escape header
 * (hops 0) between UDP and BTH, and received frames are parsed with it
 * (pkt_parse_esc); the hops is ignored (counted if not 0).  The sink counts
 * frames whose PSN is behind the highest PSN seen + 1 (out_of_order: the
 * §4.4.1 in-order definition, received = a subsequence of sent) and PSN
 * jumps ahead (psn_gaps: frames lost or late) separately.
 * Rates are in wire bytes (frame + 24, see PKT_WIRE_OVERHEAD), like the
 * switch's shaper, so "300 Mb/s" means the same thing on both sides.
 *
 * The program is split by concern: host.h has the map.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_pause.h>

#include "host.h"
#include "host_dcqcn.h"
#include "roce_frame.h"

/* The one global: the signal handler's stop request (DPDK examples idiom). */
static volatile bool force_quit;

static void on_signal(int sig)
{
    (void)sig;
    force_quit = true;
}

static struct sink *sink_get(struct host *h, uint32_t src, uint32_t qpn)
{
    for (unsigned i = 0; i < h->nsinks; i++)
        if (h->sinks[i].src_ip == src && h->sinks[i].qpn == qpn) return &h->sinks[i];
    if (h->nsinks >= MAX_SINK) return NULL;
    h->sinks[h->nsinks] = (struct sink){.src_ip = src, .qpn = qpn};
    return &h->sinks[h->nsinks++];
}

static void handle_rx(struct host *h, struct rte_mbuf *m, uint64_t tsc)
{
    struct pkt_info pi;
    const uint8_t *f;
    int r;
    bool rcc = h->rcc.mode == HOST_CC_RCC || h->rcc.mode == HOST_CC_RCC_SENDER;

    dp_cap_rx(&h->cap, m, tsc);
    /* af_packet delivers single-segment mbufs; anything else is not parsed
     * as contiguous bytes. */
    if (m->nb_segs != 1) { h->bad.n[PKT_ETRUNC]++; return; }
    f = rte_pktmbuf_mtod(m, const uint8_t *);
    if (pkt_ethertype(f, rte_pktmbuf_data_len(m)) == PKT_ETHERTYPE_ARP) {
        handle_arp(h, f, rte_pktmbuf_data_len(m), tsc);
        return;
    }
    if (h->pfc && pkt_ethertype(f, rte_pktmbuf_data_len(m)) == PKT_ETHERTYPE_MACCTL) {
        handle_pfc(h, f, rte_pktmbuf_data_len(m), tsc);
        return;
    }
    r = h->escape ? pkt_parse_esc(f, rte_pktmbuf_data_len(m), &pi) : pkt_parse(f, rte_pktmbuf_data_len(m), &pi);
    if (r != PKT_OK) { h->bad.n[r]++; return; }
    if (pi.dst_ip != h->local_ip) { h->rx_not_mine++; return; }
    if (pi.proto == 1 && pi.l4_len >= 1 && pi.is_first_frag && f[pi.l4_off] == 8) {
        echo_reply(h, f, &pi, tsc);
        return;
    }
    if (pi.proto == 1 && pi.l4_len >= 1 && f[pi.l4_off] == ROCC_CNP_ICMP_TYPE) {
        handle_cnp(h, f, &pi, tsc);
        return;
    }
    if (pi.is_roce && rcc && pkt_bth_opcode(f, &pi) == RF_OP_ACK) {
        host_rcc_on_ack(h, f, &pi, h->rcc.now_ns, tsc);
        return;
    }
    if (h->dc && pi.is_roce && pi.bth_opcode == RF_OP_CNP) {   /* --cc dcqcn: a RoCEv2 CNP */
        hdc_on_cnp(h, f, rte_pktmbuf_data_len(m), &pi, tsc);
        return;
    }
    if (pi.is_roce) {
        struct sink *s = sink_get(h, pi.src_ip, pi.dest_qpn);
        if (!s) { h->sink_full++; return; }
        if (!s->pkts) s->first_tsc = tsc;
        else if (pi.psn != s->next_psn) {
            /* Behind the next expected PSN (24-bit serial arithmetic): it
             * arrived after a later frame -- out of order.  Ahead: frames
             * are missing (lost, or late: then counted when they come). */
            bool behind = ((s->next_psn - pi.psn) & 0xffffff) < 0x800000;
            if (behind) s->ooo++;
            else s->gaps++;
            if (s->ooo + s->gaps <= 10)
                printf("%s t=%.6f qpn=%u psn=%u expected=%u\n", behind ? "out_of_order" : "psn_gap",
                       (double)(tsc - h->t0) / (double)h->hz, s->qpn, pi.psn, s->next_psn);
        }
        if (!s->pkts || ((pi.psn - s->next_psn) & 0xffffff) < 0x800000) s->next_psn = (pi.psn + 1) & 0xffffff;
        s->esc_hops += pi.has_esc && pi.esc_hops;
        s->last_tsc = tsc;
        s->pkts++;
        s->ce += pkt_ip4_ecn(f, &pi) == PKT_ECN_CE;
        s->wire += rte_pktmbuf_pkt_len(m) + PKT_WIRE_OVERHEAD;
        if (rcc)
            host_rcc_on_data(h, (unsigned)(s - h->sinks), f, &pi, rte_pktmbuf_pkt_len(m) + PKT_WIRE_OVERHEAD,
                             h->rcc.now_ns, tsc);
        return;
    }
    h->rx_other++;
}

/* Build the frames due now (round robin over flows, one per flow per pass so
 * no flow can monopolise a burst).  Returns the count put in out[]. */
static unsigned build_due(struct host *h, uint64_t tsc, struct rte_mbuf **out, unsigned max)
{
    unsigned n = 0;
    bool progress = true;
    uint64_t slack = dp_us_to_cycles(CATCHUP_US, h->hz);
    uint32_t flen = PKT_ROCE_HDRS + (h->escape ? PKT_ESC_LEN : 0) + h->payload;
    bool rcc = h->rcc.mode == HOST_CC_RCC || h->rcc.mode == HOST_CC_RCC_SENDER;

    while (progress && n < max) {
        progress = false;
        for (unsigned i = 0; i < h->nflows && n < max; i++) {
            struct flow *f = &h->flows[i];
            struct rte_mbuf *m;
            uint8_t *p;

            if (f->done || f->next_tsc > tsc || !h->have_gw) continue;
            if (f->on_cyc && f->next_tsc >= f->start_tsc) {
                /* on=,off=: a departure due in an off phase moves to the next on phase. */
                uint64_t per = f->on_cyc + f->off_cyc, ph = (f->next_tsc - f->start_tsc) % per;
                if (ph >= f->on_cyc) {
                    f->next_tsc += per - ph;
                    if (f->next_tsc > tsc) continue;
                }
            }
            if (rcc && !host_rcc_may_send(h, f, tsc)) continue;   /* the window is full */
            if (tsc - f->next_tsc > slack) f->next_tsc = tsc - slack;
            f->last_sched = f->next_tsc;
            m = rte_pktmbuf_alloc(h->pool);
            if (!m) { h->alloc_fail++; return n; }
            p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)flen);
            if (!p || (rcc ? pkt_build_roce_rcc(p, flen, h->mac, h->gw_mac, h->local_ip, f->dst_ip, f->sport, f->qpn,
                                                f->psn, h->payload, h->escape, host_rcc_mono_ns(),
                                                f->size_bytes && f->sent_payload + h->payload >= f->size_bytes)
                           : (h->escape ? pkt_build_roce_esc : pkt_build_roce)(p, flen, h->mac, h->gw_mac, h->local_ip,
                                                                               f->dst_ip, f->sport, f->qpn, f->psn,
                                                                               h->payload)) != flen) {
                rte_pktmbuf_free(m);
                h->alloc_fail++;
                return n;
            }
            if (h->ecn_capable) {
                struct pkt_info ip4 = {.l3_off = PKT_ETH_LEN};
                pkt_ip4_set_ecn(p, &ip4, PKT_ECN_ECT0);
            }
            if (f->dscp) {
                struct pkt_info ip4 = {.l3_off = PKT_ETH_LEN};
                pkt_ip4_set_dscp(p, &ip4, f->dscp);
            }
            f->psn = (f->psn + 1) & 0xffffff;
            f->sent_pkts++;
            f->sent_payload += h->payload;
            f->sent_wire += frame_wire(h);
            if (h->dc) hdc_on_sent(h, i, frame_wire(h), tsc);
            f->last_tsc = tsc;
            f->next_tsc += gap_cycles(h, f, frame_wire(h));
            if (f->size_bytes && f->sent_payload >= f->size_bytes) f->done = true;
            out[n++] = m;
            progress = true;
        }
    }
    return n;
}

static void report(struct host *h, uint64_t tsc, uint64_t dt_cycles)
{
    double t = (double)(tsc - h->t0) / (double)h->hz, dt = (double)dt_cycles / (double)h->hz;
    /* The loop's longest gap in the interval (dp_common.h), on every tx and rx line. */
    uint64_t gmax_at, gmax_cyc = dp_stall_take(&h->stall, tsc, &gmax_at);
    double gmax = (double)gmax_cyc * 1e6 / (double)h->hz, gmax_t = (double)(gmax_at - h->t0) / (double)h->hz;
    char a[16], b[16];

    for (unsigned i = 0; i < h->nflows; i++) {
        struct flow *f = &h->flows[i];
        printf("tx t=%.3f dst=%s qpn=%u mbps=%.1f rp_mbps=%.1f limited=%u cnps=%" PRIu64
               " gap_max_us=%.0f gap_max_t=%.3f stalls=%" PRIu64 "\n", t,
               pkt_ip_str(f->dst_ip, a, sizeof a), f->qpn,
               (double)(f->sent_wire - f->last_rep_wire) * 8 / dt / 1e6,
               (double)flow_rate_bps(h, f) / 1e6, f->rp.limited, f->cnps, gmax, gmax_t, h->stall.n_stalls);
        f->last_rep_wire = f->sent_wire;
    }
    for (unsigned i = 0; i < h->nsinks; i++) {
        struct sink *s = &h->sinks[i];
        printf("rx t=%.3f src=%s qpn=%u mbps=%.1f gap_max_us=%.0f gap_max_t=%.3f stalls=%" PRIu64 "\n", t,
               pkt_ip_str(s->src_ip, b, sizeof b), s->qpn, (double)(s->wire - s->last_rep_wire) * 8 / dt / 1e6,
               gmax, gmax_t, h->stall.n_stalls);
        s->last_rep_wire = s->wire;
    }
    host_rcc_report(h, t);
    fflush(stdout);
}

static void final_stats(struct host *h)
{
    char a[16];
    for (unsigned i = 0; i < h->nflows; i++) {
        struct flow *f = &h->flows[i];
        printf("final tx dst=%s qpn=%u pkts=%" PRIu64 " wire_bytes=%" PRIu64 " cnps=%" PRIu64
               " accepted=%" PRIu64 " rejected=%" PRIu64 " doublings=%" PRIu64 " removed=%" PRIu64 "\n",
               pkt_ip_str(f->dst_ip, a, sizeof a), f->qpn, f->sent_pkts, f->sent_wire, f->cnps,
               f->rp.n_accepted, f->rp.n_rejected, f->rp.n_doublings, f->rp.n_removed);
    }
    for (unsigned i = 0; i < h->nsinks; i++) {
        struct sink *s = &h->sinks[i];
        double span = (double)(s->last_tsc - s->first_tsc) / (double)h->hz;
        printf("final rx src=%s qpn=%u pkts=%" PRIu64 " wire_bytes=%" PRIu64 " ce=%" PRIu64 " mbps_avg=%.1f"
               " out_of_order=%" PRIu64 " psn_gaps=%" PRIu64 " next_psn=%" PRIu32 " esc_hops_nonzero=%" PRIu64 "\n",
               pkt_ip_str(s->src_ip, a, sizeof a), s->qpn, s->pkts, s->wire, s->ce,
               span > 0 ? (double)s->wire * 8 / span / 1e6 : 0.0, s->ooo, s->gaps, s->next_psn, s->esc_hops);
    }
    printf("final host malformed: truncated=%" PRIu64 " not_ipv4=%" PRIu64 " bad_ip_hdr=%" PRIu64
           " | cnp ok=%" PRIu64 " rejected_by_rp=%" PRIu64 " bad=%" PRIu64 " denied=%" PRIu64
           " nomatch=%" PRIu64 " | not_mine=%" PRIu64 " other=%" PRIu64 " tx_fail=%" PRIu64
           " alloc_fail=%" PRIu64 " sink_full=%" PRIu64 " cnp_delay_full=%" PRIu64 " echo_replied=%" PRIu64
           " | cnp unbound=%" PRIu64 " badauth=%" PRIu64
           " | hostcalc full=%" PRIu64 " reg=%" PRIu64 " unregistered=%" PRIu64 " out_of_range=%" PRIu64 "\n",
           h->bad.n[PKT_ETRUNC], h->bad.n[PKT_ENOTIP4], h->bad.n[PKT_EIPHDR], h->cnp_ok,
           h->cnp_rejected, h->cnp_bad, h->cnp_denied, h->cnp_nomatch, h->rx_not_mine, h->rx_other,
           h->tx_fail, h->alloc_fail, h->sink_full, h->cnp_delay_full, h->echo_replied, h->cnp_unbound,
           h->cnp_badauth, h->hstats.n_full, h->hstats.n_reg, h->hstats.n_miss, h->hstats.n_bad);
    printf("final cnp_delay us=%" PRIu64 " applied=%" PRIu64 " min_us=%.1f mean_us=%.1f max_us=%.1f\n",
           h->cnp_delay_us, h->cnp_delayed,
           h->cnp_delayed ? (double)h->cnp_delay_min * 1e6 / (double)h->hz : 0.0,
           h->cnp_delayed ? (double)h->cnp_delay_sum * 1e6 / (double)h->hz / (double)h->cnp_delayed : 0.0,
           h->cnp_delayed ? (double)h->cnp_delay_max * 1e6 / (double)h->hz : 0.0);
    printf("final arp req_rx=%" PRIu64 " rep_rx=%" PRIu64 " replies_tx=%" PRIu64 " req_tx=%" PRIu64
           " bad=%" PRIu64 " ignored=%" PRIu64 " gw_resolved=%d\n", h->arp_req_rx, h->arp_rep_rx,
           h->arp_replies_tx, h->arp_req_tx, h->arp_bad, h->arp_ignored, h->have_gw ? 1 : 0);
    if (h->pfc) {
        uint64_t now = now_ps(h, rte_get_tsc_cycles());
        printf("final pfc class=%u rx=%" PRIu64 " rx_xoff=%" PRIu64 " rx_xon=%" PRIu64 " paused_us=%" PRIu64
               " paused_now=%d", h->pfc_cls, h->pfc_rx, h->pfc_rx_xoff, h->pfc_rx_xon,
               pfc_egress_paused_total(&h->pout, h->pfc_cls, now) / 1000000,
               (h->pout.paused >> h->pfc_cls) & 1);
        for (int r = 1; r < PKT_PFC_NRESULTS; r++) printf(" bad_%s=%" PRIu64, pkt_pfc_strerror(r), h->pfc_bad[r]);
        printf("\n");
    }
    printf("final loop run_s=%.3f gap_max_us=%.0f stalls=%" PRIu64 "\n", (double)(h->end_tsc - h->t0) / (double)h->hz,
           (double)h->stall.run_max * 1e6 / (double)h->hz, h->stall.n_stalls);
    host_rcc_final(h);
    if (h->dc) hdc_print_final(h);
    dp_cap_print_final(&h->cap, h->pcap_path);
    fflush(stdout);
}

static void run(struct host *h)
{
    struct rte_mbuf *rx[DP_BURST], *tx[DP_BURST];
    uint64_t rep_every = dp_us_to_cycles(h->report_ms * 1000, h->hz);
    uint64_t last_rep = rte_get_tsc_cycles();

    dp_stall_init(&h->stall, h->hz);
    while (!force_quit) {
        uint64_t tsc = rte_get_tsc_cycles(), tps = now_ps(h, tsc), earliest = UINT64_MAX;
        uint16_t nrx, ntx = 0;
        unsigned nb;
        bool paused;

        dp_stall_round(&h->stall, tsc);
        nrx = rte_eth_rx_burst(h->port, 0, rx, DP_BURST);

        if (nrx && h->rcc.mode >= HOST_CC_RCC) h->rcc.now_ns = host_rcc_mono_ns();   /* the frames' arrival */
        for (uint16_t i = 0; i < nrx; i++) {
            handle_rx(h, rx[i], tsc);
            rte_pktmbuf_free(rx[i]);
        }
        host_rcc_flush(h, tsc);                               /* RCC ACKs of this burst */
        /* CNPs whose NIC reaction delay has passed. */
        while (h->cq_h != h->cq_t && h->cq[h->cq_h & (CNPQ - 1)].due_tsc <= tsc) {
            const struct pending_cnp *pc = &h->cq[h->cq_h++ & (CNPQ - 1)];
            uint64_t d = tsc - pc->rx_tsc;
            apply_cnp(h, pc->flow, pc->rate_units, pc->cp_id, tsc);
            /* The delay as applied: never below --cnp-delay-us, above it by
             * however late this loop round came. */
            h->cnp_delayed++;
            h->cnp_delay_sum += d;
            if (d < h->cnp_delay_min || h->cnp_delayed == 1) h->cnp_delay_min = d;
            if (d > h->cnp_delay_max) h->cnp_delay_max = d;
        }
        if (!h->have_gw && h->gw_ip && tsc >= h->next_arp_tsc) gw_request(h, tsc);
        /* Alg. 2 TIMER_EXPIRED, then the pacer picks up the new rate. */
        for (unsigned i = 0; i < h->nflows; i++) {
            struct flow *f = &h->flows[i];
            if (f->rp.limited && tps >= f->rp.deadline_ps) {
                uint64_t old_bps = flow_rate_bps(h, f);
                rocc_rp_on_timer(&f->rp, &h->rpp, tps);
                repace(h, f, old_bps);
            }
        }
        if (h->dc) hdc_timers(h, tps);   /* --cc dcqcn: increase timers */
        /* PFC: nothing is built while the gateway pauses our class; on
         * resume, departures that fell inside the pause move to now. */
        paused = h->pout.paused && (pfc_egress_paused(&h->pout, tps) & (1u << h->pfc_cls));
        if (!paused && h->pfc_was_paused)
            for (unsigned i = 0; i < h->nflows; i++)
                if (h->flows[i].next_tsc < tsc) h->flows[i].next_tsc = tsc;
        h->pfc_was_paused = paused;
        nb = paused ? 0 : build_due(h, tsc, tx, DP_BURST);
        if (nb) {
            ntx = dp_tx_burst(h->port, tx, (uint16_t)nb, &h->cap, tsc);
            for (unsigned i = ntx; i < nb; i++) rte_pktmbuf_free(tx[i]);
            h->tx_fail += nb - ntx;
        }
        if (rep_every && tsc - last_rep >= rep_every) {
            report(h, tsc, tsc - last_rep);
            dp_pcap_flush(&h->cap.pc);
            last_rep = tsc;
        }
        if (nrx == 0 && nb == 0) {
            for (unsigned i = 0; i < h->nflows && h->have_gw; i++)
                if (!h->flows[i].done) {
                    /* A flow whose window is full waits for an ACK: look again in 20 us. */
                    uint64_t nx = h->flows[i].rf.blocked ? tsc + dp_us_to_cycles(20, h->hz) : h->flows[i].next_tsc;
                    if (nx < earliest) earliest = nx;
                }
            if (h->dc && hdc_next_tsc(h) < earliest) earliest = hdc_next_tsc(h);
            /* A CNP waiting out the NIC delay is applied on time: spin
             * (15 µs per CNP), where a sleep would take 60-80 µs here. */
            if (h->cq_h != h->cq_t) rte_pause();
            else if (paused) h->stall.slept = dp_idle(UINT64_MAX, h->hz);   /* until the XON or the pause runs out */
            else h->stall.slept = dp_idle(earliest > tsc ? earliest - tsc : 0, h->hz);
        }
    }
    h->end_tsc = rte_get_tsc_cycles();
}

/* Every exit once the state is on the heap: the capture closed (flushed:
 * nothing written is lost on an error exit either), the port stopped, EAL
 * released, the heap freed.  up: 0 nothing open yet, 1 the port, 2 the
 * port and the capture.  Returns rc (1 if only the capture's close failed). */
static int host_exit(struct host *h, int up, int rc)
{
    if (up >= 2 && dp_cap_close(&h->cap, h->pcap_path) && !rc) rc = 1;
    if (up >= 1) dp_port_close(h->port);
    rte_eal_cleanup();
    free(h->dc);
    free(h);
    return rc;
}

int main(int argc, char **argv)
{
    struct host *h;
    struct rte_ether_addr ea;
    int ret, rc;

    ret = rte_eal_init(argc, argv);
    if (ret < 0) { fprintf(stderr, "EAL init failed: %s\n", rte_strerror(rte_errno)); return 1; }
    argc -= ret;
    argv += ret;
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);

    /* Heap, not a global: the state is passed explicitly everywhere. */
    h = calloc(1, sizeof *h);
    if (!h) return 1;
    h->payload = 1000;
    h->line_bps = 1000000000ull;
    h->report_ms = 500;
    h->cnp_delay_us = 15;
    h->arp_retry_ms = 100;
    h->cap.rx = h->cap.tx = true;
    h->pcap_snaplen = DP_PCAP_SNAPLEN_DEFAULT;
    ret = host_parse_args(h, argc, argv);
    if (ret) return host_exit(h, 0, ret > 0 ? 0 : 2);   /* > 0: --help */
    if (host_rcc_setup(h)) return host_exit(h, 0, 2);
    if (!rte_eth_dev_is_valid_port(h->port)) {
        fprintf(stderr, "port %u not available (pass --vdev net_af_packet0,iface=...)\n", h->port);
        return host_exit(h, 0, 1);
    }
    rocc_rp_params_default(&h->rpp, h->line_bps);
    if (h->f_unit_mbps) h->rpp.f_unit_mbps = h->f_unit_mbps;
    if (h->recovery_us) h->rpp.recovery_ps = h->recovery_us * 1000000ull;
    for (unsigned i = 0; i < h->nflows; i++) rocc_rp_init(&h->flows[i].rp);
    if (h->dc && hdc_init(h)) return host_exit(h, 0, 2);

    h->pool = rte_pktmbuf_pool_create("host_pool", NB_MBUF, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
                                      rte_socket_id());
    if (!h->pool) { fprintf(stderr, "mbuf pool: %s\n", rte_strerror(rte_errno)); return host_exit(h, 0, 1); }
    if (dp_port_init(h->port, h->pool)) return host_exit(h, 0, 1);
    rte_eth_macaddr_get(h->port, &ea);
    memcpy(h->mac, ea.addr_bytes, 6);

    h->hz = rte_get_tsc_hz();
    h->arp_retry_cyc = dp_us_to_cycles(h->arp_retry_ms * 1000, h->hz);
    h->cnp_delay_cyc = dp_us_to_cycles(h->cnp_delay_us, h->hz);
    if (dp_cap_open(&h->cap, h->pcap_path, h->pcap_snaplen, h->hz)) return host_exit(h, 1, 1);
    h->t0 = rte_get_tsc_cycles();
    uint64_t t0_ns = dp_realtime_ns();
    uint64_t epoch = h->t0;      /* what start= counts from */
    if (h->start_at_ns) {
        uint64_t rt = t0_ns;     /* CLOCK_REALTIME at t0 */
        if (h->start_at_ns <= rt) {
            fprintf(stderr, "--start-at-ns %" PRIu64 ": passed %.3f s ago, before the port was up (start later)\n",
                    h->start_at_ns, (double)(rt - h->start_at_ns) / 1e9);
            return host_exit(h, 2, 2);
        }
        epoch += dp_us_to_cycles((h->start_at_ns - rt) / 1000, h->hz);
    }
    for (unsigned i = 0; i < h->nflows; i++) {
        h->flows[i].start_tsc = epoch + dp_us_to_cycles(h->flows[i].start_ms * 1000, h->hz);
        h->flows[i].on_cyc = dp_us_to_cycles(h->flows[i].on_ms * 1000, h->hz);
        h->flows[i].off_cyc = dp_us_to_cycles(h->flows[i].off_ms * 1000, h->hz);
        h->flows[i].next_tsc = h->flows[i].start_tsc;
    }
    if (h->nflows && !h->have_allow)
        fprintf(stderr, "warning: no --cp-allow: every CNP will be counted as denied and ignored "
                        "(the flows run without congestion control)\n");
    else if (h->nflows && !h->cnp_pol.nbind && !h->cnp_pol.key)
        fprintf(stderr, "warning: no --cp-bind or --cnp-key: any address in --cp-allow may send CNPs "
                        "under any CP id (docs/dataplane.md, Forged CNPs)\n");
    {
        char an[16] = "none";
        unsigned plen = 0;
        for (uint32_t m = h->allow_mask; m & 0x80000000u; m <<= 1) plen++;
        if (h->have_allow) pkt_ip_str(h->allow_net, an, sizeof an);
        printf("ready host flows=%u line_mbps=%" PRIu64 " f_unit_mbps=%u recovery_us=%" PRIu64
               " cnp_delay_us=%" PRIu64 " cp_bind=%zu cnp_key=%s rate_at=%s cp_reg=%zu gw=%s cc=%s cp_allow=%s",
               h->nflows, h->line_bps / 1000000, h->rpp.f_unit_mbps, h->rpp.recovery_ps / 1000000,
               h->cnp_delay_us, h->cnp_pol.nbind, h->cnp_pol.key ? "yes" : "no",
               h->rate_at ? h->rate_at : "switch", h->reg.n, h->gw_static ? "static" : h->gw_ip ? "arp" : "none",
               host_cc_name(h->rcc.mode), an);
        if (h->have_allow) printf("/%u", plen);
        printf(" t0_ns=%" PRIu64 "\n", t0_ns);
    }
    fflush(stdout);

    run(h);

    rc = dp_cap_close(&h->cap, h->pcap_path) ? 1 : 0;
    final_stats(h);
    return host_exit(h, 1, rc);
}
