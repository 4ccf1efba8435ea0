/*
 * rocc_switch.c -- an N-port IPv4 router with RoCC congestion points
 * (issue 5).
 *
 *   rocc-switch <EAL args: one vdev per port> --
 *       [--route PREFIX/LEN=PORT[,MAC|,via=A.B.C.D] ...]  routes (next hop by ARP
 *                                         unless a MAC is given)
 *       [--port-ip PORT=A.B.C.D ...]      the switch's address on a port (ARP)
 *       [--egress-rate PORT=Gbps ...]     token-bucket shaping of a port
 *       [--cp PORT ... --cp-ip A.B.C.D]   RoCC CP on each such port's queue
 *       [--flow-table queue|bounded|trap|afd|bubble] CP flow table (librocc, §3.4)
 *       [--ft-cap N]                      its slots (power of two, 16..1024)
 *       [--ecn PORT=KMIN,KMAX,PMAX ...]   RED-style CE marking (DCQCN hosts)
 *       [--qref B --qmid B --qmax B]      CP thresholds in bytes
 *       [--period US] [--q-unit B] [--f-unit-mbps N] [--fmin UNITS]
 *       [--alpha X --beta X] [--cnp-at-fmax] [--qcap BYTES] [--burst BYTES]
 *       [--switch-id N] [--report-ms MS]
 *       [--arp-retry-ms MS] [--arp-tries N] [--arp-hold-ms MS] [--arp-ttl-s S]
 *       [--pcap FILE] [--pcap-dir rx|tx|both] [--pcap-snaplen N] [--busy-poll]
 *       [--cp-timing]                     time the CP's work (ns/packet, ns/period)
 *       [--host-port PORT ...]            ports facing hosts: every CNP arriving there is dropped
 *       [--cp-peer ID=A.B.C.D ...]        other switches' CP addresses (transit CNPs must match)
 *       [--cnp-key HEX32]                 SipHash-2-4 key: own CNPs carry a tag, transit ones must
 *       [--no-cnp-filter]                 defence off (tests only): any ICMP 253 is forwarded as control
 *       [--pfc ...]                        802.1Qbb PFC (sw_pfc.c)
 *       [--escape [--esc-period-us US] [--esc-pool N] [--esc-reclaim-ms MS] [--esc-max-hops N]]
 *                                         Escape (sw_esc.c, needs --pfc)
 *       [--openqueue PORT=FILE ...] [--oq-value ...] [--oq-value-map ...] [--oq-processing ...]
 *       [--oq-processing-map ...] [--oq-cycle-ns NS] [--oq-seed N] [--oq-timing]
 *                                         an OpenQueue policy in place of a port's FIFO (sw_oq.c)
 *       [--lscc PORT ...] [--lscc-* ...]  LSCC's two modules on a long-haul port (sw_lscc.c)
 *
 * Why a software queue: af_packet over veth has no link rate of its own, so
 * the bottleneck queue the CP must watch is created here, by draining each
 * port's FIFO no faster than its --egress-rate.  Control frames (the CP's
 * own CNPs, CNPs in transit, ARP) go to a separate per-port control FIFO
 * served first (strict priority), like the strict control class of
 * docs/rocc.md, and are never counted in a CP's queue nor ECN-marked.
 *
 * CNP filtering (issue 11 part 5, docs/dataplane.md "Forged CNPs"): the
 * control FIFO is strict priority, so only CNPs this switch can vouch for
 * enter it.  An ICMP type 253 arriving from a port is dropped when the port
 * faces hosts (--host-port: hosts never send CNPs), when it claims this
 * switch's own --cp-ip (only we send those, and never receive them), or
 * when librocc's rocc_cnp_check refuses it (length from the IPv4 total
 * length, checksum, quote; CP id bound to the source by --cp-peer; tag with
 * --cnp-key).  What is left is forwarded in the control FIFO.
 *
 * This file holds main, the poll loop and the receive path; sw.h maps the
 * others (options, egress ports, control plane, CP glue).
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "sw.h"

static volatile bool force_quit;  /* the only global: set by SIGINT/SIGTERM */

static void on_signal(int sig)
{
    (void)sig;
    force_quit = true;
}


static void rx_port(struct sw *s, uint16_t port, uint64_t tsc)
{
    struct rte_mbuf *rx[DP_BURST];
    uint16_t n = rte_eth_rx_burst(port, 0, rx, DP_BURST);

    s->rx_backlog |= n == DP_BURST;

    for (uint16_t i = 0; i < n; i++) {
        struct rte_mbuf *m = rx[i];
        struct pkt_info pi;
        const struct route *rt;
        uint8_t *f;
        uint32_t len = rte_pktmbuf_pkt_len(m);
        int r;

        s->eg[port].rx_pkts++;
        s->eg[port].rx_bytes += len;
        dp_cap_rx(&s->cap, m, tsc);
        if (m->nb_segs != 1) { s->bad.n[PKT_ETRUNC]++; rte_pktmbuf_free(m); continue; }
        f = rte_pktmbuf_mtod(m, uint8_t *);
        if (pkt_ethertype(f, len) == PKT_ETHERTYPE_ARP) {
            handle_arp(s, port, f, len, tsc);
            rte_pktmbuf_free(m);
            continue;
        }
        m->port = port;   /* the ingress: PFC's counts, LSCC's remote ingress queue */
        if (s->any_lscc && pkt_ethertype(f, len) == PKT_ETHERTYPE_LSCC) {
            lscc_rx(s, port, f, len);   /* every refusal counted by reason (final lscc_bad) */
            rte_pktmbuf_free(m);
            continue;
        }
        if (s->pfc) {
            /* MAC control (PFC, and ETFs with --escape) ends here; without
             * --pfc it is "not IPv4". */
            if (pkt_ethertype(f, len) == PKT_ETHERTYPE_MACCTL) {
                if (s->escape && len >= 16 && ((f[14] << 8) | f[15]) == ESC_ETF_OPCODE) esc_rx(s, port, f, len);
                else pfc_rx(s, port, f, len);
                rte_pktmbuf_free(m);
                continue;
            }
        }
        r = s->escape ? pkt_parse_esc(f, len, &pi) : pkt_parse(f, len, &pi);
        if (r != PKT_OK) { s->bad.n[r]++; rte_pktmbuf_free(m); continue; }
        if (is_own_ip(s, pi.dst_ip)) {
            /* Nothing is served at the switch's own addresses: counted, dropped. */
            if (is_cnp(f, &pi)) s->self_cnp++;
            else if (pi.proto == 1) s->self_icmp++;
            else s->self_other++;
            rte_pktmbuf_free(m);
            continue;
        }
        rt = route_lookup(s, pi.dst_ip);
        if (!rt) { s->noroute++; rte_pktmbuf_free(m); continue; }
        if (pkt_ip4_dec_ttl(f, &pi)) { s->ttl_expired++; rte_pktmbuf_free(m); continue; }
        if (pi.is_roce && pi.bth_opcode == 0x81 && s->eg[port].lscc) lscc_remote_cnp(s, port, f, len, &pi);
        if (is_cnp(f, &pi)) {
            if (!cnp_admit(s, port, f, &pi)) { rte_pktmbuf_free(m); continue; }
            /* Another CP's CNP: control class, not in this switch's CP queues. */
            s->transit_cnp++;
            forward(s, rt, pi.dst_ip, m, K_TRANSIT_CNP, &pi, tsc);
        } else {
            forward(s, rt, pi.dst_ip, m, K_DATA, &pi, tsc);
        }
    }
}

static void print_stats(const struct sw *s)
{
    for (uint16_t p = 0; p < s->nports; p++) {
        const struct egress *e = &s->eg[p];
        printf("final port %u rx_pkts=%" PRIu64 " rx_bytes=%" PRIu64 " tx_pkts=%" PRIu64
               " tx_bytes=%" PRIu64 " drops_qfull=%" PRIu64 " drops_tx=%" PRIu64
               " queue_max_bytes=%" PRIu64 " cnp_tx=%" PRIu64 " cnp_drop=%" PRIu64 " ctl_fwd=%" PRIu64
               " ctl_drop=%" PRIu64 " arp_tx=%" PRIu64 " ecn_marked=%" PRIu64 " ecn_ce_in=%" PRIu64
               " ecn_notect=%" PRIu64 "\n",
               p, e->rx_pkts, e->rx_bytes, e->tx_pkts, e->tx_bytes, e->drop_qfull, e->drop_tx,
               e->qbytes_max, e->cnp_tx, e->cnp_drop, e->ctl_fwd, e->ctl_drop, e->arp_tx, e->ecn_marked,
               e->ecn_ce_in, e->ecn_notect);
    }
    cp_print_final(s);
    {
        /* Busy time per frame sent: the switch's CPU cost per forwarded
         * frame whatever the offered load (bench/dataplane_cp.sh). */
        uint64_t fwd = 0;
        for (uint16_t p = 0; p < s->nports; p++) fwd += s->eg[p].tx_pkts;
        printf("final loop run_s=%.3f busy_s=%.3f busy_ns_per_tx_pkt=%.1f gap_max_us=%.0f stalls=%" PRIu64 "\n",
               (double)(s->end_tsc - s->start_tsc) / (double)s->hz, (double)s->busy_cyc / (double)s->hz,
               cyc_ns(s, s->busy_cyc, fwd), (double)s->stall.run_max * 1e6 / (double)s->hz, s->stall.n_stalls);
    }
    printf("final malformed truncated=%" PRIu64 " not_ipv4=%" PRIu64 " bad_ip_hdr=%" PRIu64
           " noroute=%" PRIu64 " ttl_expired=%" PRIu64 " alloc_fail=%" PRIu64 "\n",
           s->bad.n[PKT_ETRUNC], s->bad.n[PKT_ENOTIP4], s->bad.n[PKT_EIPHDR], s->noroute, s->ttl_expired,
           s->alloc_fail);
    printf("final control transit_cnp=%" PRIu64 " self_cnp=%" PRIu64 " self_icmp=%" PRIu64
           " self_other=%" PRIu64 " cnp_host_port=%" PRIu64 " cnp_own_addr=%" PRIu64 " cnp_invalid=%" PRIu64
           " cnp_unbound=%" PRIu64 " cnp_badauth=%" PRIu64 " cnp_filter=%s\n", s->transit_cnp, s->self_cnp,
           s->self_icmp, s->self_other, s->cnp_host_port, s->cnp_own_addr, s->cnp_invalid, s->cnp_unbound,
           s->cnp_badauth, s->no_cnp_filter ? "off" : "on");
    printf("final arp req_rx=%" PRIu64 " rep_rx=%" PRIu64 " replies_tx=%" PRIu64 " req_tx=%" PRIu64
           " learned=%" PRIu64 " bad=%" PRIu64 " ignored=%" PRIu64 " queued=%" PRIu64
           " unresolved_drop=%" PRIu64 " queue_drop=%" PRIu64 " failed=%" PRIu64 " refresh=%" PRIu64
           " table_full=%" PRIu64 "\n",
           s->arp.req_rx, s->arp.rep_rx, s->arp.replies_tx, s->arp.req_tx, s->arp.learned, s->arp.bad,
           s->arp.ignored, s->arp.queued, s->arp.unresolved_drop, s->arp.queue_drop, s->arp.failed,
           s->arp.refresh, s->arp.table_full);
    for (uint32_t i = 0; i < NEIGH_CAP; i++) {
        const struct neigh *n = &s->nb[i];
        char a[16];
        if (n->state != N_REACHABLE) continue;
        printf("final neigh %s port=%u mac=%02x:%02x:%02x:%02x:%02x:%02x\n", pkt_ip_str(n->ip, a, sizeof a),
               n->port, n->mac[0], n->mac[1], n->mac[2], n->mac[3], n->mac[4], n->mac[5]);
    }
    pfc_print_final(s);
    esc_print_final(s);
    oq_print_final(s);
    lscc_print_final(s);
    delay_print(s, stdout);
    dp_cap_print_final(&s->cap, s->pcap_path);
    fflush(stdout);
}

static void run(struct sw *s)
{
    uint64_t rep_every = dp_us_to_cycles(s->report_ms * 1000, s->hz), last_rep = rte_get_tsc_cycles();
    uint64_t arp_every = dp_us_to_cycles(1000, s->hz);

    for (uint16_t p = 0; p < s->nports; p++) {
        s->eg[p].last_tsc = last_rep;
        if (s->eg[p].cp) s->eg[p].cp->next_tsc = last_rep + s->eg[p].cp->period_cyc;
    }
    s->next_arp_tick = last_rep + arp_every;
    s->start_tsc = last_rep;
    dp_stall_init(&s->stall, s->hz);
    while (!force_quit) {
        uint64_t tsc = rte_get_tsc_cycles();
        unsigned work = 0;
        bool queued = false;

        dp_stall_round(&s->stall, tsc);
        s->now_tsc = tsc;
        s->rx_backlog = false;

        for (uint16_t p = 0; p < s->nports; p++) {
            uint64_t before = s->eg[p].rx_pkts;
            rx_port(s, p, tsc);
            work += s->eg[p].rx_pkts != before;
        }
        for (uint16_t p = 0; p < s->nports; p++) {
            struct cpstate *cp = s->eg[p].cp;
            if (!cp || tsc < cp->next_tsc) continue;
            cp_tick(s, cp, tsc);
            cp->next_tsc += cp->period_cyc;
            /* After a stall, do not replay missed periods back to back. */
            if (cp->next_tsc < tsc) cp->next_tsc = tsc + cp->period_cyc;
        }
        if (s->any_lscc) lscc_tick(s, tsc);
        if (s->pfc) pfc_tick(s);
        if (s->escape) esc_tick(s);
        if (tsc >= s->next_arp_tick) {
            arp_tick(s, tsc);
            s->next_arp_tick = tsc + arp_every;
        }
        for (uint16_t p = 0; p < s->nports; p++) {
            work += tx_port(s, p, tsc);
            queued |= !data_empty(&s->eg[p]) || s->eg[p].ch != s->eg[p].ct || s->eg[p].eh != s->eg[p].et ||
                      !delay_empty(&s->eg[p]);
        }
        end_round(s);
        if (rep_every && tsc - last_rep >= rep_every) {
            /* The loop's longest gap in the interval is the process's, not
             * a port's: every port's line repeats it (dp_common.h). */
            uint64_t gmax_at, gmax_cyc = dp_stall_take(&s->stall, tsc, &gmax_at);
            double gmax = (double)gmax_cyc * 1e6 / (double)s->hz, gmax_t = (double)(gmax_at - s->t0) / (double)s->hz;
            for (uint16_t p = 0; p < s->nports; p++) {
                printf("stat t=%.3f port=%u rx_pkts=%" PRIu64 " tx_pkts=%" PRIu64 " drops_qfull=%" PRIu64
                       " drops_tx=%" PRIu64 " ctl_fwd=%" PRIu64 " q_bytes=%" PRIu64 " q_max=%" PRIu64
                       " gap_max_us=%.0f gap_max_t=%.3f stalls=%" PRIu64 "\n",
                       (double)(tsc - s->t0) / (double)s->hz, p, s->eg[p].rx_pkts, s->eg[p].tx_pkts,
                       s->eg[p].drop_qfull, s->eg[p].drop_tx, s->eg[p].ctl_fwd, s->eg[p].qbytes,
                       s->eg[p].qbytes_rep_max, gmax, gmax_t,
                       s->stall.n_stalls);
                s->eg[p].qbytes_rep_max = s->eg[p].qbytes;   /* q_max: the maximum over the next interval */
            }
            for (uint16_t p = 0; p < s->nports; p++) {
                const struct cpstate *cp = s->eg[p].cp;
                if (cp)
                    printf("cp t=%.3f port=%u F=%d F_mbps=%" PRIu64 " q_bytes=%" PRIu64 " cnps=%" PRIu64
                           " samples=%" PRIu64 "\n",
                           (double)(tsc - s->t0) / (double)s->hz, p, cp->cp.f,
                           rocc_cp_rate_bps(&cp->p, (uint32_t)cp->cp.f) / 1000000, s->eg[p].qbytes, cp->cnps,
                           cp->samples);
            }
            pfc_print_stat(s, (double)(tsc - s->t0) / (double)s->hz);
            esc_print_stat(s, (double)(tsc - s->t0) / (double)s->hz);
            oq_print_stat(s, (double)(tsc - s->t0) / (double)s->hz);
            lscc_print_stat(s, (double)(tsc - s->t0) / (double)s->hz);
            fflush(stdout);
            dp_pcap_flush(&s->cap.pc);
            last_rep = tsc;
        }
        /* An idle round sleeps (dp_idle: 20 us when the next frame is
         * more than 10 us away), also while a shaped queue waits for
         * credit (credit_wait); --busy-poll never sleeps. */
        if (work) s->busy_cyc += rte_get_tsc_cycles() - tsc;
        else if (!s->busy_poll) s->stall.slept = dp_idle(queued ? credit_wait(s) : UINT64_MAX, s->hz);
        else rte_pause();
    }
    s->end_tsc = rte_get_tsc_cycles();
}

int main(int argc, char **argv)
{
    struct sw *s;
    int ret, rc = 1;
    uint16_t p = 0;
    bool ran = false;

    ret = rte_eal_init(argc, argv);
    if (ret < 0) { fprintf(stderr, "EAL init failed: %s\n", rte_strerror(rte_errno)); return 1; }
    argc -= ret;
    argv += ret;
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);

    /* --help needs no ports: answer it before they are counted. */
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout, argv[0]);
            rte_eal_cleanup();
            return 0;
        }
    s = calloc(1, sizeof *s);
    if (!s) goto out;
    s->nb = calloc(NEIGH_CAP, sizeof *s->nb);
    s->nports = rte_eth_dev_count_avail();
    if (!s->nb || s->nports == 0 || s->nports > MAX_PORTS) {
        fprintf(stderr, "need 1..%d ports (one --vdev net_af_packetN,iface=... each), have %u\n",
                MAX_PORTS, s->nports);
        goto out;
    }
    s->eg = calloc(s->nports, sizeof *s->eg);
    if (!s->eg) goto out;
    s->qcap = 300000;
    s->burst_bytes = 4000;
    s->switch_id = 1;
    s->ft_kind = ROCC_FT_QUEUE;
    s->ft_cap = FT_CAP;
    s->rng = 0x9E3779B97F4A7C15ull;
    s->cap.rx = s->cap.tx = true;
    s->pcap_snaplen = DP_PCAP_SNAPLEN_DEFAULT;
    s->hz = rte_get_tsc_hz();
    s->tsc_pair_cyc = tsc_pair_cost();
    s->outlier_cyc = dp_us_to_cycles(20, s->hz);
    s->pfc_class = -1;
    s->pfc_xoff = 125000;         /* Menikkumbura 2022 §4.6.2 (DPDK prototype): XOFF 125 KB */
    s->pfc_xon = 10000;           /* ibid.: XON 10 KB */
    s->pfc_quanta = PFC_QUANTA_MAX;
    s->pfc_mask = 0xff;
    s->pfc_link_bps = 1000000000ull;   /* rocc-host's default --line-gbps */
    /* --escape defaults (docs/dataplane.md "Escape"): Δesc = 2 x link delay
     * (Menikkumbura 2022 §4.3.2) with 50 us as a hop's delay between two
     * polling rocc-switch processes over veth (the 20 us idle sleep on each
     * side plus af_packet; the testbed's value is not given in §4.6.2);
     * pool = escape-queue capacity in frames (§4.3.1(2): a parameter, value
     * not given; ours: 64 frames, ~68 KB of 1 KB frames per port); reclaim
     * every 30 ms (§4.3.3(5): "a large interval, e.g. maximum delay across
     * the network": an escaped frame at its origin may wait in a full data
     * FIFO, 1 MB at 300 Mb/s = 27 ms in rocc_escape.sh; a shorter interval
     * hands out tokens for frames still queued -- 10 ms overflowed a FIFO
     * once).  docs/dataplane.md "Escape" has the measurements. */
    s->esc_period_us = 100;
    s->esc_pool = 64;
    s->esc_reclaim_ms = 30;
    s->esc_max_hops = ESC_MAX_HOPS_DEFAULT;
    s->oq_seed = 1;
    dpoq_init(&s->oqcls, 0x5DEECE66Dull);
    ret = parse_args(s, argc, argv);
    if (ret) { rc = ret > 0 ? 0 : 2; goto out; }   /* > 0: --help */
    for (p = 0; p < s->nports; p++) {
        int r = s->cp_on[p] ? cp_setup(s, p) : 0;
        if (r) { rc = r == -2 ? 2 : 1; goto out; }
    }
    if (pfc_setup(s)) { rc = 2; goto out; }
    if (esc_setup(s)) { rc = 2; goto out; }
    ret = lscc_setup(s);
    if (ret) { rc = ret == -2 ? 2 : 1; goto out; }
    ret = oq_setup(s);
    if (ret) { rc = ret == -2 ? 2 : 1; goto out; }
    p = 0;

    s->pool = rte_pktmbuf_pool_create("sw_pool", NB_MBUF, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, rte_socket_id());
    if (!s->pool) { fprintf(stderr, "mbuf pool: %s\n", rte_strerror(rte_errno)); goto out; }
    /* Ports are numbered in --vdev order, which is what --route refers to. */
    for (p = 0; p < s->nports; p++) {
        struct rte_ether_addr ea;
        if (dp_port_init(p, s->pool)) goto out_ports;
        rte_eth_macaddr_get(p, &ea);
        memcpy(s->eg[p].mac, ea.addr_bytes, 6);
    }
    if (dp_cap_open(&s->cap, s->pcap_path, s->pcap_snaplen, s->hz)) goto out_ports;
    s->t0 = rte_get_tsc_cycles();
    uint64_t t0_ns = dp_realtime_ns();
    printf("ready switch ports=%u routes=%u cps=", s->nports, s->nroutes);
    for (uint16_t i = 0, k = 0; i < s->nports; i++)
        if (s->eg[i].cp) printf("%s%u", k++ ? "," : "", i);
    printf(" cnp_filter=%s host_ports=", s->no_cnp_filter ? "off" : "on");
    for (uint16_t i = 0, k = 0; i < s->nports; i++)
        if (s->host_port[i]) printf("%s%u", k++ ? "," : "", i);
    printf(" cp_peers=%u cnp_key=%s%s%s", s->npeers, s->cnp_pol.key ? "yes" : "no", s->pfc ? " pfc=on" : "",
           s->escape ? " escape=on" : "");
    if (s->any_lscc) {
        printf(" lscc=");
        for (uint16_t i = 0, k = 0; i < s->nports; i++)
            if (s->eg[i].lscc) printf("%s%u", k++ ? "," : "", i);
    }
    if (s->any_oq) {
        printf(" openqueue=");
        for (uint16_t i = 0, k = 0; i < s->nports; i++)
            if (s->eg[i].oq) printf("%s%u", k++ ? "," : "", i);
    }
    printf(" t0_ns=%" PRIu64 "\n", t0_ns);
    fflush(stdout);

    run(s);
    rc = 0;
    ran = true;
out_ports:
    if (dp_cap_close(&s->cap, s->pcap_path)) rc = 1;
    if (ran) print_stats(s);
    for (uint16_t i = 0; i < p; i++) {
        struct egress *e = &s->eg[i];
        while (e->qh != e->qt) rte_pktmbuf_free(e->q[e->qh++ & (QSLOTS - 1)].m);
        while (e->ch != e->ct) rte_pktmbuf_free(e->c[e->ch++ & (CSLOTS - 1)].m);
        dp_port_close(i);
    }
out:
    if (s && s->nb)
        for (uint32_t i = 0; i < NEIGH_CAP; i++)
            for (unsigned k = 0; k < s->nb[i].qn; k++) rte_pktmbuf_free(s->nb[i].q[k]);
    if (s && s->eg)
        for (uint16_t i = 0; i < s->nports; i++)
            if (s->eg[i].cp) { free(s->eg[i].cp->ft_mem); free(s->eg[i].cp); }
    if (s) esc_free(s);
    if (s) lscc_free(s);
    if (s) delay_free(s);
    if (s) oq_free(s);
    if (s) { free(s->eg); free(s->nb); }
    free(s);
    rte_eal_cleanup();
    return rc;
}
