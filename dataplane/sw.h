/*
 * sw.h -- rocc-switch's state and the functions its files share (issue 5).
 *
 * rocc-switch is split by concern (rocc_switch.c's header comment has the
 * command line and the design):
 *   rocc_switch.c  main, the poll loop (run), the receive path, the report lines
 *   sw_args.c      the command line: usage and option parsing
 *   sw_port.c      egress: the per-port data FIFO (drop-tail, ECN, CP
 *                  accounting), the control FIFO, shaping (token bucket) and
 *                  transmit
 *   sw_ctl.c       the switch's control plane: routes, ARP (neighbour table,
 *                  requests, replies) and which ICMP 253 (CNP) frames may enter
 *                  the strict-priority control class
 *   sw_cp.c        the glue to librocc's RoCC CP: per-port CP setup, the flow
 *                  table and its flow-info slots, the periodic PI update and
 *                  the CNPs it sends
 *   sw_pfc.c       802.1Qbb PFC (--pfc): per-ingress (port, class) byte
 *                  counters, XOFF/XON/refresh frames sent, PFC frames received
 *                  (checked, then honoured by pausing the class on that
 *                  port's egress); the decisions are src/cc/pfc.c's
 *   sw_esc.c       Escape (--escape, needs --pfc): tokens (ETF) sent and
 *                  received, the per-port escape queue, extraction from the
 *                  data FIFO; the decisions are src/cc/escape.c's
 *   sw_delay.c     --delay PORT=US: a delay line after the port's shaper (a
 *                  long-haul link in software)
 *   sw_lscc.c      LSCC (--lscc PORT): rate calculation and rate limiting on a
 *                  long-haul port (src/cc/lscc_*.c), the feedback frame, direct CNPs
 *   sw_oq.c        OpenQueue (--openqueue PORT=FILE): a compiled policy
 *                  (src/openqueue) in place of a port's data FIFO; the
 *                  classification step is sw_oqclass.c (no DPDK)
 * Everything lives in one struct sw (no globals but the signal flag in
 * rocc_switch.c); what is called per frame across files is inline here.
 */
#ifndef DP_SW_H
#define DP_SW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_cycles.h>
#include <rte_mbuf.h>

#include "dp_common.h"
#include "pkt.h"
#include "rocc_cnpauth.h"
#include "rocc_cp.h"
#include "rocc_hostcp.h"
#include "rocc_flowtable.h"
#include "pfc.h"
#include "escape.h"
#include "sw_oqclass.h"

#define MAX_PORTS   8
#define MAX_ROUTES  64
#define QSLOTS      4096          /* data FIFO slots per port (power of two) */
#define CSLOTS      1024          /* control FIFO slots per port (power of two) */
#define FT_CAP      1024          /* largest CP flow table / flow-info size (power of two) */
#define FI_GC_PERIODS 64          /* flow-info slots of flows gone from the table are freed this often */
#define MAX_PEERS   64            /* --cp-peer entries */
#define NEIGH_CAP   256           /* ARP neighbour table slots (power of two) */
#define NEIGH_QLEN  16            /* frames held per unresolved neighbour */
#define STALL_MAX_US 5000          /* link time a descheduled switch may catch up */
#define CP_TIME_EVERY 64           /* --cp-timing: one tracked packet in 64 is timed */
#define ESLOTS      1024          /* escape queue slots per port (power of two; >= --esc-pool) */
#define ESC_OUT_MAX 256           /* tokens one TRIGGERESCAPE may emit */
#define DSLOTS      4096          /* --delay line slots per port (power of two): 1 Gb/s x 45 ms of 1500 B frames */
#define NB_MBUF     (MAX_PORTS * (QSLOTS + CSLOTS + ESLOTS) / 2 + 2 * DSLOTS + NEIGH_CAP * 2 + 4095)

/* What a frame is, for the FIFO it joins and the counter it lands in. */
enum kind { K_DATA, K_TRANSIT_CNP, K_OWN_CNP, K_ARP, K_PFC, K_ETF, K_LSCC };

/* A queued data frame.  For a RoCEv2 frame at a CP port: whether the flow
 * table has been told (Q_REPORTED: key = its flow, source IP << 24 |
 * destination QP, for the dequeue) or not yet (Q_PENDING, QUEUE tables
 * only: report_pending reads the flow from the frame itself, so enqueue
 * stores nothing but the state). */
enum { Q_UNTRACKED, Q_PENDING, Q_REPORTED };
struct qent {
    struct rte_mbuf *m;
    uint64_t key;                 /* Q_REPORTED only; on an --lscc port: its flow-info slot + 1 (0: none) */
    uint32_t len;
    uint8_t state;
    uint8_t in_port, cls;         /* the ingress port (UINT8_MAX: none) and, with --pfc, the class its bytes count against */
    uint8_t esc_origin;           /* --escape: an escaping frame at its token's origin (hops 1): leaving is e3 */
};
struct cent { struct rte_mbuf *m; uint8_t kind; };
/* A frame in an escape queue (--escape): its hops (already in the frame)
 * and where they are, and whether it arrived escaping (a TRANSMIT event,
 * esc_transmit, when it leaves) or was extracted here (C1: not one). */
struct eent { struct rte_mbuf *m; uint32_t len; uint16_t hops_off, hops; uint8_t transit; };

/* What a CNP needs to quote a flow: kept per flow-table ref.  The key holds
 * the source IP (key >> 24) and QPN (low 24 bits); 32 bytes a slot. */
struct flowinfo {
    uint64_t key, seen_tsc;       /* seen_tsc: BOUNDED, last arrival not yet reported */
    uint32_t dst_ip, psn;
    uint16_t sport;
    bool used, dirty;             /* dirty: BOUNDED, seen since the last report */
    bool tomb;                    /* freed slot: lookups probe past it, inserts reuse it */
};
_Static_assert(sizeof(struct flowinfo) == 32, "two flow-info slots a cache line");

struct cpstate {
    uint16_t port;
    uint32_t cp_id;
    struct rocc_cp_params p;
    struct rocc_cp cp;
    struct rocc_flowtable ft;
    void *ft_mem;
    struct flowinfo fi[FT_CAP];   /* open addressing by key; slot index = the flow table's ref */
    uint32_t cap;                 /* --ft-cap: flow table and flow-info slots in use */
    uint32_t fi_used;
    uint64_t fi_freed;
    uint32_t sel[FT_CAP];
    uint64_t period_cyc, next_tsc;
    uint64_t samples, cnps, cnp_noroute, cnp_alloc_fail, fi_full;
    uint32_t f_min_seen, f_max_seen;
    uint64_t qsum_bytes;
    /* CP cost (rte_rdtsc, only with --cp-timing): flow-table work per
     * tracked packet, timed on one enqueue and one dequeue in CP_TIME_EVERY
     * (timing each would add two TSC reads per packet to what is
     * measured), and per period (PI update + selecting and building CNPs),
     * timed every period. */
    uint64_t n_pkt, n_enq_timed, cyc_enq, n_deq, n_deq_timed, cyc_deq, cyc_tick, n_tick_timed, n_outliers;
    uint32_t rep_pos;             /* QUEUE: data FIFO position reported up to (free-running) */
    uint32_t dirty[FT_CAP], ndirty;   /* BOUNDED: flows seen since the last report */
    uint64_t n_reported;          /* QUEUE: frames reported (still queued at a period); BOUNDED: flow reports */
};

struct egress {
    uint8_t mac[6];
    uint32_t ip;                  /* --port-ip; 0: none */
    struct qent q[QSLOTS];        /* data FIFO */
    uint32_t qh, qt;              /* head (next out), tail (next in); free-running */
    uint64_t qbytes, qbytes_max;
    uint64_t qbytes_rep_max;     /* data queue maximum since the last stat line (q_max=) */
    struct cent c[CSLOTS];        /* control FIFO, strict priority */
    uint32_t ch, ct;
    uint64_t rate_bps;            /* 0: unshaped */
    double tokens;                /* bytes; may go negative after a control frame */
    uint64_t last_tsc;
    struct cpstate *cp;           /* RoCC CP on this port, or NULL */
    bool ecn;                     /* --ecn on this port */
    uint64_t kmin, kmax;
    double pmax;
    uint64_t rx_pkts, rx_bytes, tx_pkts, tx_bytes, drop_qfull, drop_tx, cnp_tx, cnp_drop;
    uint64_t ctl_fwd, ctl_drop, arp_tx, ecn_marked, ecn_ce_in, ecn_notect;
    /* --pfc (sw_pfc.c).  Sending side: what arrived on this port and is
     * buffered at any egress, and the XOFF/XON frames sent back on it.
     * Receiving side: the pauses this port's neighbour asked for. */
    struct pfc_params pfc;        /* the thresholds; quantum at this port's link rate */
    struct pfc_ingress pin;
    struct pfc_egress pout;
    uint64_t pfc_xoff, pfc_xon, pfc_refresh, pfc_tx, pfc_rx, pfc_rx_xoff, pfc_rx_xon;
    uint64_t pfc_in_max;          /* largest per-class count pin.bytes reached */
    /* --escape (sw_esc.c): the escape queue, served after the control FIFO
     * and before the data FIFO, never paused */
    struct eent *eq;              /* ESLOTS entries */
    uint32_t eh, et;
    uint64_t esc_in, esc_tx, esc_extracted, esc_scanned, esc_qfull, etf_tx, etf_rx, etf_drop;
    /* --openqueue (sw_oq.c): the policy's runtime in place of the data
     * FIFO (q[] unused); NULL on a built-in FIFO port */
    struct oqport *oq;
    /* --delay (sw_delay.c): frames sent but not yet due on the wire; NULL: none */
    struct delayline *dl;
    /* --lscc (sw_lscc.c): LSCC's modules on this long-haul port; NULL: none */
    struct lsccport *lscc;
    uint64_t lscc_fb_tx;          /* feedback frames sent on this port */
};

struct route { uint32_t net, mask, via; uint16_t port; uint8_t mac[6]; bool has_mac; };

enum { N_FREE, N_INCOMPLETE, N_REACHABLE, N_FAILED };
struct neigh {
    uint32_t ip;
    uint16_t port;                /* where requests go (the route's port) */
    uint8_t state, tries, qn;
    uint8_t mac[6];
    uint64_t next_tsc;            /* INCOMPLETE: next retry; FAILED: hold end; REACHABLE: next refresh */
    uint64_t confirmed_tsc;
    struct rte_mbuf *q[NEIGH_QLEN];
    uint8_t qkind[NEIGH_QLEN];
};

struct arpstats {
    uint64_t req_rx, rep_rx, replies_tx, req_tx, learned, bad, ignored, queued, unresolved_drop,
        queue_drop, table_full, failed, refresh;
};

struct sw {
    uint16_t nports;
    struct egress *eg;            /* nports entries */
    struct route routes[MAX_ROUTES];
    unsigned nroutes;
    struct neigh *nb;             /* NEIGH_CAP slots, open addressing by IP, never erased */
    uint32_t nb_used;
    struct arpstats arp;
    uint64_t arp_retry_cyc, arp_hold_cyc, arp_ttl_cyc, next_arp_tick;
    uint32_t arp_tries;
    uint32_t cp_ip;
    enum rocc_ft_kind ft_kind;
    uint32_t ft_cap;
    struct rte_mempool *pool;
    uint64_t hz, t0, qcap, burst_bytes, report_ms;
    uint64_t now_tsc;             /* TSC of this loop round */
    uint64_t now_ps, now_ps_tsc;  /* librocc time of now_tsc (now_ps(): converted on demand) */
    bool rx_backlog;              /* some port returned a full receive burst this round */
    uint64_t tsc_pair_cyc;        /* cost of two back-to-back rte_rdtsc(), taken off each timing */
    uint64_t outlier_cyc;         /* timings above this are preemptions, not CP work */
    bool any_cp;
    uint64_t rng;                 /* ECN marking draws (xorshift64*) */
    struct pkt_drops bad;
    uint64_t noroute, ttl_expired, alloc_fail;
    uint64_t self_cnp, self_icmp, self_other, transit_cnp;
    uint64_t busy_cyc, start_tsc, end_tsc;   /* loop rounds that did work; run() span */
    struct dp_stall stall;        /* the poll loop's gaps (dp_common.h; stat and final loop lines) */
    struct dp_cap cap;
    const char *pcap_path;
    uint32_t pcap_snaplen;
    /* CLI values that need the link rate before they can be applied */
    uint64_t o_qref, o_qmid, o_qmax, o_period_us, o_qunit, o_funit, o_fmin;
    double o_alpha, o_beta;
    bool cnp_at_fmax;
    uint8_t cnp_form;               /* --rate-at: enum rocc_cnp_form of own CNPs (RoCC §3.6) */
    bool busy_poll;               /* --busy-poll: never sleep in an empty round */
    bool cp_timing;               /* --cp-timing: time the CP's work (rte_rdtsc in the hot path) */
    bool cp_on[MAX_PORTS];
    uint32_t switch_id;
    bool have_cp_ip;
    /* CNP filtering (header comment) */
    bool host_port[MAX_PORTS];
    bool no_cnp_filter;
    struct rocc_cp_bind peers[MAX_PEERS];
    unsigned npeers;
    uint8_t key[ROCC_CNP_KEY_BYTES];
    struct rocc_cnp_policy cnp_pol; /* transit CNPs: peers (if any) and key (if any) */
    uint64_t cnp_host_port, cnp_own_addr, cnp_invalid, cnp_unbound, cnp_badauth;
    /* --pfc options (sw_pfc.c) */
    bool pfc;
    int pfc_class;                /* -1: DSCP >> 3; 0..7: every data frame in that class */
    uint64_t pfc_xoff, pfc_xon, pfc_quanta, pfc_mask, pfc_link_bps;
    uint64_t pfc_bad[PKT_PFC_NRESULTS];   /* refused PFC/PAUSE frames by reason */
    /* --escape options and state (sw_esc.c) */
    bool escape;
    uint64_t esc_period_us, esc_reclaim_ms, esc_pool, esc_max_hops;
    struct escape esc;
    void *esc_mem;
    uint64_t esc_bad[PKT_ETF_NRESULTS];  /* refused ETFs by reason */
    uint64_t esc_miss;                   /* extractions that found no frame */
    uint64_t esc_hdr_reset;              /* data frames from a host port with a nonzero Escape header (reset) */
    uint64_t esc_demoted;                /* C9: escaping frames (hops 1) queued behind their flow at the origin */
    uint64_t esc_order_risk;             /* C9: escaping frames (hops > 1) that overtake a queued frame of their flow */
    uint64_t esc_no_token;               /* tests only (--esc-no-tokens): TRIGGERESCAPE tokens not sent */
    bool esc_no_tokens;
    bool esc_ft_flows;                   /* --esc-flow-table flows (escape.h C3 ESC_FT_FLOWS) */
    bool esc_reclaim_one;                /* --esc-reclaim-mode one (escape.h C6 ESC_RECLAIM_ONE; default all) */
    bool esc_no_queued;                  /* --esc-queued-check off (escape.h C10 predicate not set) */
    struct esc_out esc_out[ESC_OUT_MAX];
    /* --openqueue options (sw_oq.c) */
    const char *oq_file[MAX_PORTS];
    bool any_oq, oq_opts;         /* oq_opts: some --oq-* option was given */
    struct dpoq_class oqcls;      /* the classification step (all OpenQueue ports) */
    uint64_t oq_cycle_ns, oq_seed;
    bool oq_timing;
    /* --lscc options (sw_lscc.c); 0: the default (paper values scaled) */
    bool lscc_on[MAX_PORTS], any_lscc;
    uint64_t o_lscc_rtt_us, o_lscc_period_us, o_lscc_qref, o_lscc_qsref, o_lscc_dr_bps, o_lscc_rmin_bps,
        o_lscc_funit_bps, o_lscc_cnp_us, o_lscc_long_bytes, o_lscc_n;
    uint8_t lscc_key[LSCC_FB_KEY_BYTES];   /* --lscc-key: tag sent and required on feedback frames */
    const uint8_t *lscc_keyp;              /* lscc_key, or NULL without --lscc-key */
    uint64_t lscc_bad[PKT_LSCC_NRESULTS];   /* refused feedback frames by reason */
};

/* Is port e's data queue empty (FIFO, or OpenQueue runtime and its staged frame)? */
bool oq_port_empty(const struct egress *e);
static inline bool data_empty(const struct egress *e)
{
    return e->qh == e->qt && (!e->oq || oq_port_empty(e));
}

/* ---- helpers called per frame from several files ---------------------- */

/* librocc time (ps since start) of the loop round's TSC, or of tsc.  A
 * 128-bit division: done when a CP needs it (a period, an ETRAP frame,
 * a BOUNDED report), not every loop round. */
static inline uint64_t tsc_ps(const struct sw *s, uint64_t tsc)
{
    return dp_cycles_to_ps(tsc - s->t0, s->hz);
}

static inline uint64_t now_ps(struct sw *s)
{
    if (s->now_ps_tsc != s->now_tsc) {
        s->now_ps = tsc_ps(s, s->now_tsc);
        s->now_ps_tsc = s->now_tsc;
    }
    return s->now_ps;
}

static inline uint32_t rnd32(struct sw *s)
{
    s->rng ^= s->rng >> 12; s->rng ^= s->rng << 25; s->rng ^= s->rng >> 27;
    return (uint32_t)((s->rng * 0x2545F4914F6CDD1Dull) >> 32);
}

/* Add the cycles since t1 (an rte_rdtsc() value), less the timer's own
 * cost, to *cyc and count the sample in *n -- unless they exceed
 * s->outlier_cyc (20 µs): on a shared core such a sample is the scheduler
 * or an interrupt, not the CP, and is counted in cp->n_outliers instead. */
static inline void timed_add(const struct sw *s, struct cpstate *cp, uint64_t t1, uint64_t *cyc, uint64_t *n)
{
    uint64_t d = rte_rdtsc() - t1;
    d = d > s->tsc_pair_cyc ? d - s->tsc_pair_cyc : 0;
    if (d > s->outlier_cyc) { cp->n_outliers++; return; }
    *cyc += d;
    (*n)++;
}

/* Cycles per operation -> ns (0 when n is 0). */
static inline double cyc_ns(const struct sw *s, uint64_t cyc, uint64_t n)
{
    return n ? (double)cyc * 1e9 / (double)s->hz / (double)n : 0.0;
}

int fi_ref_probe(struct cpstate *cp, uint64_t key, uint32_t dst_ip, uint16_t sport, uint32_t psn, uint32_t *ref);

/* Ref for a flow key (source IP << 24 | QPN); inserts the flow's quoting
 * info on first sight and keeps its latest PSN.  At most 3/4 of the slots
 * are used (fi_full counts refusals); fi_gc frees the slots of flows the
 * flow table no longer holds. */
static inline uint32_t fi_hash(const struct cpstate *cp, uint64_t key)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 40) & (cp->cap - 1);
}

/* fi_ref_probe, with the common case inline: the flow is in its home slot. */
static inline int fi_ref(struct cpstate *cp, uint64_t key, uint32_t dst_ip, uint16_t sport, uint32_t psn,
                         uint32_t *ref)
{
    uint32_t h = fi_hash(cp, key);
    struct flowinfo *f = &cp->fi[h];

    if (f->used && f->key == key) {
        f->psn = psn;
        *ref = h;
        return 0;
    }
    return fi_ref_probe(cp, key, dst_ip, sport, psn, ref);
}


/* ---- sw_args.c ---------------------------------------------------------- */
void usage(FILE *out, const char *prg);
/* 0, 1 after --help (printed), -1 on a bad option (said on stderr). */
int parse_args(struct sw *s, int argc, char **argv);

/* ---- sw_port.c ---------------------------------------------------------- */
/* Queue m in port's control FIFO; -1 (counted in cnp_drop/ctl_drop, m freed) when full. */
int enqueue_ctl(struct sw *s, uint16_t port, struct rte_mbuf *m, enum kind k);
void deliver(struct sw *s, uint16_t port, struct rte_mbuf *m, const uint8_t mac[6], enum kind k,
             const struct pkt_info *pi);
unsigned tx_port(struct sw *s, uint16_t port, uint64_t tsc);
void end_round(struct sw *s);
uint64_t credit_wait(const struct sw *s);

/* ---- sw_ctl.c ----------------------------------------------------------- */
const struct route *route_lookup(const struct sw *s, uint32_t ip);
void forward(struct sw *s, const struct route *rt, uint32_t dst_ip, struct rte_mbuf *m, enum kind k,
             const struct pkt_info *pi, uint64_t tsc);
void arp_tick(struct sw *s, uint64_t tsc);
void handle_arp(struct sw *s, uint16_t port, const uint8_t *f, uint32_t len, uint64_t tsc);
bool is_own_ip(const struct sw *s, uint32_t ip);
bool is_cnp(const uint8_t *f, const struct pkt_info *pi);
bool cnp_admit(struct sw *s, uint16_t port, const uint8_t *f, const struct pkt_info *pi);

/* ---- sw_pfc.c ----------------------------------------------------------- */
/* Per-port PFC parameters from the options; 0, or -1 (said on stderr). */
int pfc_setup(struct sw *s);
/* Send one PFC frame on port: XOFF (the configured quanta) for the classes
 * in xoff, XON (quanta 0) for those in xon.  refresh: a repeat of an XOFF. */
void pfc_send(struct sw *s, uint16_t port, uint8_t xoff, uint8_t xon, bool refresh);
/* A MAC control frame (EtherType 0x8808) received on port. */
void pfc_rx(struct sw *s, uint16_t port, const uint8_t *f, uint32_t len);
/* XOFFs due again (pfc_ingress_due) go out. */
void pfc_tick(struct sw *s);
void pfc_print_final(const struct sw *s);
void pfc_print_stat(const struct sw *s, double t);

/* A data frame joins an egress FIFO as q: count its bytes against its
 * ingress (port, class) and send XOFF when that crosses --pfc-xoff. */
static inline void pfc_on_enqueue(struct sw *s, struct qent *q, const struct rte_mbuf *m, const uint8_t *f,
                                  const struct pkt_info *pi)
{
    struct egress *in;
    q->in_port = (uint8_t)m->port;
    q->cls = (uint8_t)(s->pfc_class >= 0 ? (unsigned)s->pfc_class : pkt_ip4_dscp_class(f, pi));
    if (m->port >= s->nports) { q->in_port = UINT8_MAX; return; }
    in = &s->eg[m->port];
    if (pfc_ingress_add(&in->pin, &in->pfc, q->cls, q->len)) pfc_send(s, m->port, (uint8_t)(1u << q->cls), 0, false);
    if (in->pin.bytes[q->cls] > in->pfc_in_max) in->pfc_in_max = in->pin.bytes[q->cls];
}

/* q left its FIFO: XON when its ingress class falls below --pfc-xon. */
static inline void pfc_on_dequeue(struct sw *s, const struct qent *q)
{
    struct egress *in;
    if (q->in_port == UINT8_MAX) return;
    in = &s->eg[q->in_port];
    if (pfc_ingress_sub(&in->pin, &in->pfc, q->cls, q->len)) pfc_send(s, q->in_port, 0, (uint8_t)(1u << q->cls), false);
}

/* ---- sw_delay.c --------------------------------------------------------- */
int delay_setup(struct sw *s, uint16_t port, uint64_t us);
void delay_free(struct sw *s);
unsigned delay_push(struct egress *e, struct rte_mbuf **tx, unsigned n, uint64_t tsc);
unsigned delay_flush(struct sw *s, struct egress *e, uint16_t port, uint64_t tsc);
uint64_t delay_wait(const struct egress *e, uint64_t tsc);
bool delay_empty(const struct egress *e);
uint64_t delay_cycles(const struct egress *e);   /* the line's delay in TSC cycles */
void delay_print(const struct sw *s, FILE *f);

/* ---- sw_esc.c ----------------------------------------------------------- */
/* State and escape queues from the options; 0, or -1 (said on stderr). */
int esc_setup(struct sw *s);
void esc_free(struct sw *s);
/* An ETF (MAC control, opcode 0x0102) received on port. */
void esc_rx(struct sw *s, uint16_t port, const uint8_t *f, uint32_t len);
/* TRIGGERESCAPE and the reclaim timer when due. */
void esc_tick(struct sw *s);
/* A data frame with a nonzero (validated) hops for egress port: into its
 * escape queue.  0, or -1 (queue full: counted, m freed). */
int esc_enqueue(struct sw *s, uint16_t port, struct rte_mbuf *m, const struct pkt_info *pi, uint16_t hops, bool transit);
/* A regular data frame joined port's FIFO from its ingress (the flow table). */
void esc_on_data(struct sw *s, uint16_t port, const struct rte_mbuf *m, const struct pkt_info *pi);
/* Up to max frames of port's escape queue into tx[] (e3 for those in transit). */
unsigned esc_dequeue(struct sw *s, struct egress *e, uint16_t port, struct rte_mbuf **tx, uint8_t *kind, unsigned max);
/* C9: port's data FIFO holds a frame of pi's flow (a head-to-tail scan). */
bool esc_fifo_has(struct sw *s, uint16_t port, const struct pkt_info *pi);
/* An escaping frame queued at its origin (qent.esc_origin) leaves port: e3, hops -> 0. */
void esc_origin_tx(struct sw *s, uint16_t port, struct rte_mbuf *m);
void esc_print_final(const struct sw *s);
void esc_print_stat(const struct sw *s, double t);
/* Is mac the neighbour on port (a --route's MAC there, or found there by ARP)? */
bool sw_neighbour(const struct sw *s, uint16_t port, const uint8_t mac[6]);

/* ---- sw_oq.c ------------------------------------------------------------ */
/* Compile every --openqueue policy and instantiate it: 0; -2 on a policy
 * error (FILE:LINE:COL said on stderr: exit 2); -1 out of memory. */
int oq_setup(struct sw *s);
void oq_free(struct sw *s);
/* A data frame for OpenQueue port e: classify, admit (drops freed). */
void oq_enqueue_frame(struct sw *s, struct egress *e, struct rte_mbuf *m, const struct pkt_info *pi);
/* Up to max frames served by port e's policy into tx[] (kind K_DATA). */
unsigned oq_dequeue(struct sw *s, struct egress *e, uint64_t tsc, struct rte_mbuf **tx, uint8_t *kind, unsigned max);
/* Cycles until OpenQueue port e can send (0 now, UINT64_MAX nothing queued). */
uint64_t oq_wait(const struct sw *s, const struct egress *e);
/* The port was idle this round: banked processing cycles back to a burst. */
void oq_idle(struct egress *e);
void oq_print_stat(const struct sw *s, double t);
void oq_print_final(const struct sw *s);

/* ---- sw_lscc.c ---------------------------------------------------------- */
/* LSCC on every --lscc port: 0; -2 bad parameter (said on stderr); -1 out of memory. */
int lscc_setup(struct sw *s);
void lscc_free(struct sw *s);
/* A data frame q (ingress in q->in_port, parsed as pi) joined out's FIFO / left e's FIFO. */
void lscc_on_enqueue(struct sw *s, struct egress *out, struct qent *q, const struct pkt_info *pi);
void lscc_on_dequeue(struct sw *s, struct egress *e, const struct qent *q);
/* A RoCEv2 frame with BTH opcode 0x81 came in on --lscc port `port` (it is forwarded as usual). */
void lscc_remote_cnp(struct sw *s, uint16_t port, const uint8_t *f, uint32_t len, const struct pkt_info *pi);
/* A frame of EtherType 0x88B6 (feedback) received on port. */
void lscc_rx(struct sw *s, uint16_t port, const uint8_t *f, uint32_t len);
/* Rate calculation and direct-CNP rounds when due. */
void lscc_tick(struct sw *s, uint64_t tsc);
void lscc_print_stat(struct sw *s, double t);
void lscc_print_final(const struct sw *s);

/* ---- sw_cp.c ------------------------------------------------------------ */
/* 0, -2 on a bad parameter (said on stderr; exit 2), -1 out of memory. */
int cp_setup(struct sw *s, uint16_t port);
void cp_tick(struct sw *s, struct cpstate *cp, uint64_t tsc);
uint64_t tsc_pair_cost(void);
/* The "final cp" lines. */
void cp_print_final(const struct sw *s);

#endif
