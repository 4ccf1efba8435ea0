/*
 * host.h -- rocc-host's shared state (the program is split by concern):
 *
 *   rocc_host.c  main, the poll loop, the receive path (sinks), the pacer
 *                (build_due), reports and final counters
 *   host_args.c  the command line (usage, --flow, --cp-reg, every option)
 *   host_dcqcn.c --cc dcqcn: DCQCN's RP driven by RoCEv2 CNPs (LSCC's local sources)
 *   host_ctl.c   pacing arithmetic, CNPs (RoCC RP), ARP, ICMP echo, PFC
 *   host_rcc.c   --cc rcc|rcc_sender: RCC's receiver and sender glue
 *
 * One struct host is passed explicitly everywhere (no globals but the
 * signal handler's stop flag in rocc_host.c).
 */
#ifndef DP_HOST_H
#define DP_HOST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_mbuf.h>

#include "dp_common.h"
#include "pkt.h"
#include "rocc_cnpauth.h"
#include "rocc_hostcp.h"
#include "rocc_rp.h"
#include "pfc.h"
#include "host_rcc.h"

#define MAX_FLOWS 64
#define MAX_SINK  256
#define NB_MBUF   8191
/* A sender descheduled for a while may catch up at most this much of its
 * schedule in a burst; beyond it the lost time is forgiven (so a 10 ms stall
 * does not turn into a line-rate burst that overflows the switch's ring). */
#define CATCHUP_US 500
/* CNPs waiting out the NIC reaction delay (FIFO: one delay for all). */
#define CNPQ 1024
#define MAX_BIND 64               /* --cp-bind entries */
#define MAX_REG 256               /* --cp-reg entries (RoCC §3.6 registry: 8 B + at most one 48 B profile each) */

struct flow {
    uint32_t dst_ip, qpn;
    uint64_t app_bps;            /* 0: no application limit ("line") */
    uint64_t size_bytes;         /* payload bytes to send; 0: infinite */
    uint64_t start_ms, start_tsc;  /* first frame no earlier than start_ms after start */
    uint8_t dscp;                /* dscp=: the DSCP of its frames (0 default) */
    uint64_t on_ms, off_ms, on_cyc, off_cyc;   /* on=,off=: on/off bursts from start (0: always on) */
    uint16_t sport;
    uint32_t psn;
    uint64_t next_tsc, last_tsc; /* pacer: next departure, last departure */
    uint64_t last_sched;         /* scheduled (not actual) time of the last departure */
    uint64_t gap_bps, gap_cyc;   /* gap_cycles() cache: rate it was computed for, result */
    uint32_t gap_wire;
    uint64_t sent_payload, sent_wire, sent_pkts, last_rep_wire;
    uint64_t cnps;
    bool done;
    struct rocc_rp rp;
    struct rcc_flow rf;          /* --cc rcc|rcc_sender: window and pacing (host_rcc.c) */
};

struct sink {
    uint32_t src_ip, qpn;
    uint64_t wire, pkts, ce, last_rep_wire, first_tsc, last_tsc;
    uint32_t next_psn;           /* the PSN an in-order frame carries next */
    uint64_t ooo;                /* frames whose PSN is behind the highest seen + 1: arrived out of order */
    uint64_t gaps;               /* frames whose PSN skipped ahead (frames before it lost or late) */
    uint64_t esc_hops;           /* --escape: frames that arrived with hops != 0 (the last switch must zero it) */
};

struct pending_cnp { uint64_t rx_tsc, due_tsc; uint32_t flow, rate_units, cp_id; };

struct host {
    uint16_t port;
    uint32_t local_ip;
    uint8_t mac[6], gw_mac[6];
    bool have_ip, have_gw, gw_static;
    uint32_t gw_ip;
    uint64_t arp_retry_ms, arp_retry_cyc, next_arp_tsc;
    uint64_t cnp_delay_us, cnp_delay_cyc;
    struct pending_cnp cq[CNPQ];
    uint32_t cq_h, cq_t;
    bool ecn_capable;
    struct dp_cap cap;
    const char *pcap_path;
    uint32_t pcap_snaplen;
    uint32_t allow_net, allow_mask;
    bool have_allow;
    struct rocc_cp_bind bind[MAX_BIND];
    uint8_t key[ROCC_CNP_KEY_BYTES];
    struct rocc_cnp_policy cnp_pol;
    struct rocc_hostreg reg;                  /* --cp-reg */
    struct rocc_hostreg_entry reg_ent[MAX_REG];
    struct rocc_cp_params reg_prof[MAX_REG];
    struct rocc_hostcp_stats hstats;
    const char *rate_at;
    uint32_t payload;
    uint64_t line_bps;
    uint64_t report_ms;
    struct rocc_rp_params rpp;
    uint64_t recovery_us;        /* 0: librocc default */
    uint32_t f_unit_mbps;        /* 0: librocc default */
    struct flow flows[MAX_FLOWS];
    unsigned nflows;
    struct sink sinks[MAX_SINK];
    unsigned nsinks;
    struct rte_mempool *pool;
    uint64_t hz, t0;
    uint64_t start_at_ns;          /* --start-at-ns: CLOCK_REALTIME at which start= counts (0: t0) */
    /* counters */
    struct pkt_drops bad;
    uint64_t cnp_ok, cnp_bad, cnp_denied, cnp_nomatch, cnp_rejected, cnp_unbound, cnp_badauth;
    uint64_t rx_other, rx_not_mine, sink_full, tx_fail, alloc_fail, cnp_delay_full;
    uint64_t cnp_delayed, cnp_delay_sum, cnp_delay_min, cnp_delay_max;   /* cycles, CNP arrival -> applied */
    uint64_t arp_req_rx, arp_rep_rx, arp_replies_tx, arp_req_tx, arp_bad, arp_ignored, echo_replied;
    /* --pfc */
    bool pfc, pfc_was_paused;
    bool escape;                 /* --escape: data frames carry the Escape header (pkt.h) */
    uint8_t pfc_cls;
    struct pfc_egress pout;
    uint64_t pfc_rx, pfc_rx_xoff, pfc_rx_xon, pfc_bad[PKT_PFC_NRESULTS];
    struct host_rcc rcc;         /* --cc (host_rcc.c) */
    struct host_dcqcn *dc;       /* --cc dcqcn (host_dcqcn.c); NULL: off */
    struct dp_stall stall;       /* the poll loop's gaps (dp_common.h; tx, rx and final loop lines) */
    uint64_t end_tsc;            /* when run() returned (final loop run_s) */
};

/* host_args.c: 0, 1 after --help (printed), -1 after a message on stderr. */
int  host_parse_args(struct host *h, int argc, char **argv);

/* host_ctl.c */
static inline uint64_t now_ps(const struct host *h, uint64_t tsc) { return dp_cycles_to_ps(tsc - h->t0, h->hz); }
uint64_t flow_rate_bps(const struct host *h, const struct flow *f);
uint64_t gap_cycles(const struct host *h, struct flow *f, uint32_t wire_bytes);
uint32_t frame_wire(const struct host *h);
void repace(const struct host *h, struct flow *f, uint64_t old_bps);
void apply_cnp(struct host *h, uint32_t idx, uint32_t rate_units, uint32_t cp_id, uint64_t tsc);
void handle_cnp(struct host *h, const uint8_t *f, const struct pkt_info *pi, uint64_t tsc);
void send_now(struct host *h, struct rte_mbuf *m, uint64_t tsc);
void gw_request(struct host *h, uint64_t tsc);
void handle_arp(struct host *h, const uint8_t *f, uint32_t len, uint64_t tsc);
void echo_reply(struct host *h, const uint8_t *f, const struct pkt_info *pi, uint64_t tsc);
void handle_pfc(struct host *h, const uint8_t *f, uint32_t len, uint64_t tsc);

#endif
