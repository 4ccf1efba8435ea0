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
 *       [--flow-table queue|bounded|trap] CP flow table (librocc, §3.4)
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
 */
#include <errno.h>
#include <getopt.h>
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

#include "dp_common.h"
#include "pkt.h"
#include "rocc_cnpauth.h"
#include "rocc_cp.h"
#include "rocc_flowtable.h"

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
#define NB_MBUF     (MAX_PORTS * (QSLOTS + CSLOTS) / 2 + NEIGH_CAP * 2 + 4095)

static volatile bool force_quit;  /* the only global: set by SIGINT/SIGTERM */

static void on_signal(int sig)
{
    (void)sig;
    force_quit = true;
}

/* What a frame is, for the FIFO it joins and the counter it lands in. */
enum kind { K_DATA, K_TRANSIT_CNP, K_OWN_CNP, K_ARP };

/* A queued data frame.  For a RoCEv2 frame at a CP port: whether the flow
 * table has been told (Q_REPORTED: key = its flow, source IP << 24 |
 * destination QP, for the dequeue) or not yet (Q_PENDING, QUEUE tables
 * only: report_pending reads the flow from the frame itself, so enqueue
 * stores nothing but the state). */
enum { Q_UNTRACKED, Q_PENDING, Q_REPORTED };
struct qent {
    struct rte_mbuf *m;
    uint64_t key;                 /* Q_REPORTED only */
    uint32_t len;
    uint8_t state;
};
struct cent { struct rte_mbuf *m; uint8_t kind; };

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
    struct dp_cap cap;
    const char *pcap_path;
    uint32_t pcap_snaplen;
    /* CLI values that need the link rate before they can be applied */
    uint64_t o_qref, o_qmid, o_qmax, o_period_us, o_qunit, o_funit, o_fmin;
    double o_alpha, o_beta;
    bool cnp_at_fmax;
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
};

static void usage(FILE *out, const char *prg)
{
    fprintf(out,
        "usage: %s <EAL args: one --vdev per port, at most 8> -- [options]   (all optional)\n"
        "  [--route PREFIX/LEN=PORT[,MAC|,via=A.B.C.D] ...]  (none: every frame is counted noroute)\n"
        "  --cp PORT needs --cp-ip A.B.C.D and --egress-rate PORT=Gbps; --help, -h: this text\n"
        "  [--port-ip PORT=A.B.C.D ...] [--egress-rate PORT=Gbps ...]\n"
        "  [--cp PORT ... --cp-ip A.B.C.D] [--flow-table queue|bounded|trap (queue)] [--ft-cap N (1024)]\n"
        "  [--ecn PORT=KMIN_BYTES,KMAX_BYTES,PMAX ...]\n"
        "  [--qref B] [--qmid B] [--qmax B] [--period US]\n"
        "  [--q-unit B] [--f-unit-mbps N] [--fmin UNITS] [--alpha X] [--beta X] [--cnp-at-fmax]\n"
        "  [--qcap BYTES (300000)] [--burst BYTES (4000)] [--switch-id N (1)] [--report-ms MS (0)]\n"
        "  [--arp-retry-ms MS (100)] [--arp-tries N (3)] [--arp-hold-ms MS (1000)] [--arp-ttl-s S (60)]\n"
        "  [--pcap FILE] [--pcap-dir rx|tx|both (both)] [--pcap-snaplen N (14..262144, 65535)] [--busy-poll]\n"
        "  [--cp-timing] [--host-port PORT ...] [--cp-peer SWITCH_ID=A.B.C.D ...] [--cnp-key HEX32]\n"
        "  [--no-cnp-filter]  (tests only: forward every ICMP 253 in the control class, as before issue 11)\n",
        prg);
}

static const struct route *route_lookup(const struct sw *s, uint32_t ip)
{
    const struct route *best = NULL;
    /* Longest prefix match by linear scan: a handful of routes in tests. */
    for (unsigned i = 0; i < s->nroutes; i++)
        if ((ip & s->routes[i].mask) == s->routes[i].net && (!best || s->routes[i].mask > best->mask))
            best = &s->routes[i];
    return best;
}

static int parse_port(const struct sw *s, const char *v, uint16_t *port)
{
    char *end;
    unsigned long p = strtoul(v, &end, 10);
    if (*v < '0' || *v > '9' || *end) { fprintf(stderr, "'%s' is not a port number\n", v); return -1; }
    if (p >= s->nports) {
        fprintf(stderr, "port %lu: there are only %u ports (0..%u), one per --vdev\n", p, s->nports,
                s->nports - 1u);
        return -1;
    }
    *port = (uint16_t)p;
    return 0;
}

/* PREFIX/LEN=PORT[,MAC|,via=A.B.C.D] */
static int parse_route(struct sw *s, char *arg)
{
    char *eq = strchr(arg, '='), *comma;
    struct route *r;

    if (!eq) return -1;
    if (s->nroutes >= MAX_ROUTES) { fprintf(stderr, "more than %d routes\n", MAX_ROUTES); return -1; }
    *eq++ = 0;
    comma = strchr(eq, ',');
    if (comma) *comma++ = 0;
    r = &s->routes[s->nroutes];
    memset(r, 0, sizeof *r);
    if (pkt_parse_prefix(arg, &r->net, &r->mask)) return -1;
    if (parse_port(s, eq, &r->port)) return -1;
    if (comma && !strncmp(comma, "via=", 4)) {
        if (pkt_parse_ip(comma + 4, &r->via) || !r->via) return -1;
    } else if (comma) {
        if (pkt_parse_mac(comma, r->mac)) return -1;
        r->has_mac = true;
    }
    s->nroutes++;
    return 0;
}

static int parse_rate(struct sw *s, char *arg)
{
    char *eq = strchr(arg, '='), *end;
    uint16_t port;
    double g;

    if (!eq) return -1;
    *eq++ = 0;
    if (parse_port(s, arg, &port)) return -1;
    g = strtod(eq, &end);
    if (*end || !(g > 0) || g > 10000) return -1;
    s->eg[port].rate_bps = (uint64_t)(g * 1e9);
    return 0;
}

static int parse_port_ip(struct sw *s, char *arg)
{
    char *eq = strchr(arg, '=');
    uint16_t port;
    uint32_t ip;

    if (!eq) return -1;
    *eq++ = 0;
    if (parse_port(s, arg, &port) || pkt_parse_ip(eq, &ip) || !ip) return -1;
    s->eg[port].ip = ip;
    return 0;
}

/* PORT=KMIN,KMAX,PMAX (bytes, bytes, probability in (0, 1]) */
static int parse_ecn(struct sw *s, char *arg)
{
    char *eq = strchr(arg, '='), *end;
    struct egress *e;
    uint16_t port;

    if (!eq) return -1;
    *eq++ = 0;
    if (parse_port(s, arg, &port)) return -1;
    e = &s->eg[port];
    e->kmin = strtoull(eq, &end, 10);
    if (end == eq || *end != ',') return -1;
    eq = end + 1;
    e->kmax = strtoull(eq, &end, 10);
    if (end == eq || *end != ',' || e->kmax <= e->kmin) return -1;
    eq = end + 1;
    e->pmax = strtod(eq, &end);
    if (end == eq || *end || !(e->pmax > 0) || e->pmax > 1) return -1;
    e->ecn = true;
    return 0;
}

static int parse_u64(const char *v, uint64_t *out, uint64_t min, uint64_t max)
{
    char *end;
    unsigned long long x;
    if (*v < '0' || *v > '9') return -1;
    x = strtoull(v, &end, 10);
    if (*end || x < min || x > max) return -1;
    *out = x;
    return 0;
}

static int parse_args(struct sw *s, int argc, char **argv)
{
    static const struct option opts[] = {
        {"route", required_argument, NULL, 'r'}, {"egress-rate", required_argument, NULL, 'e'},
        {"cp", required_argument, NULL, 'c'}, {"cp-ip", required_argument, NULL, 'i'},
        {"qref", required_argument, NULL, 1}, {"qmid", required_argument, NULL, 2},
        {"qmax", required_argument, NULL, 3}, {"period", required_argument, NULL, 4},
        {"q-unit", required_argument, NULL, 5}, {"f-unit-mbps", required_argument, NULL, 6},
        {"fmin", required_argument, NULL, 7}, {"alpha", required_argument, NULL, 8},
        {"beta", required_argument, NULL, 9}, {"cnp-at-fmax", no_argument, NULL, 10},
        {"qcap", required_argument, NULL, 11}, {"burst", required_argument, NULL, 12},
        {"switch-id", required_argument, NULL, 13}, {"report-ms", required_argument, NULL, 14},
        {"port-ip", required_argument, NULL, 15}, {"flow-table", required_argument, NULL, 16},
        {"ecn", required_argument, NULL, 17}, {"arp-retry-ms", required_argument, NULL, 18},
        {"arp-tries", required_argument, NULL, 19}, {"arp-hold-ms", required_argument, NULL, 20},
        {"arp-ttl-s", required_argument, NULL, 21}, {"pcap", required_argument, NULL, 22},
        {"pcap-dir", required_argument, NULL, 23}, {"pcap-snaplen", required_argument, NULL, 24},
        {"busy-poll", no_argument, NULL, 25}, {"ft-cap", required_argument, NULL, 26},
        {"cp-timing", no_argument, NULL, 27}, {"host-port", required_argument, NULL, 28},
        {"cp-peer", required_argument, NULL, 29}, {"cnp-key", required_argument, NULL, 30},
        {"no-cnp-filter", no_argument, NULL, 31},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int c, idx = -1;
    char *end = NULL;
    uint64_t v, retry_ms = 100, hold_ms = 1000, ttl_s = 60, tries = 3;
    const char *optname = "";
    char orig[256] = "";

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", opts, &idx)) != -1) {
        optname = idx >= 0 ? opts[idx].name : "";
        /* The value as given: the parsers below split it in place. */
        snprintf(orig, sizeof orig, "%s", optarg ? optarg : "");
        if (c == '?' || c == ':') {
            fprintf(stderr, "unknown option or missing value: %s\n", argv[optind - 1]);
            goto bad_nomsg;
        }
        switch (c) {
        case 'r': if (parse_route(s, optarg)) goto bad; break;
        case 'e': if (parse_rate(s, optarg)) goto bad; break;
        case 'c': {
            uint16_t port;
            if (parse_port(s, optarg, &port)) goto bad;
            s->cp_on[port] = true;
            break;
        }
        case 'i': if (pkt_parse_ip(optarg, &s->cp_ip) || !s->cp_ip) goto bad; s->have_cp_ip = true; break;
        case 1: if (parse_u64(optarg, &s->o_qref, 1, UINT32_MAX)) goto bad; break;
        case 2: if (parse_u64(optarg, &s->o_qmid, 1, UINT32_MAX)) goto bad; break;
        case 3: if (parse_u64(optarg, &s->o_qmax, 1, UINT32_MAX)) goto bad; break;
        case 4: if (parse_u64(optarg, &s->o_period_us, 1, 10000000)) goto bad; break;
        case 5: if (parse_u64(optarg, &s->o_qunit, 1, 1000000)) goto bad; break;
        case 6: if (parse_u64(optarg, &s->o_funit, 1, 1000000)) goto bad; break;
        case 7: if (parse_u64(optarg, &s->o_fmin, 1, UINT32_MAX)) goto bad; break;
        case 8: s->o_alpha = strtod(optarg, &end); if (*end || !(s->o_alpha > 0)) goto bad; break;
        case 9: s->o_beta = strtod(optarg, &end); if (*end || !(s->o_beta > 0)) goto bad; break;
        case 10: s->cnp_at_fmax = true; break;
        case 11: if (parse_u64(optarg, &s->qcap, 1, UINT32_MAX)) goto bad; break;
        case 12: if (parse_u64(optarg, &s->burst_bytes, 1, UINT32_MAX)) goto bad; break;
        case 13: if (parse_u64(optarg, &v, 0, 0xffffff)) goto bad; s->switch_id = (uint32_t)v; break;
        case 14: if (parse_u64(optarg, &s->report_ms, 0, 3600000)) goto bad; break;
        case 15: if (parse_port_ip(s, optarg)) goto bad; break;
        case 16:
            if (!strcmp(optarg, "queue")) s->ft_kind = ROCC_FT_QUEUE;
            else if (!strcmp(optarg, "bounded")) s->ft_kind = ROCC_FT_BOUNDED;
            else if (!strcmp(optarg, "trap")) s->ft_kind = ROCC_FT_ETRAP;
            else goto bad;
            break;
        case 17: if (parse_ecn(s, optarg)) goto bad; break;
        case 18: if (parse_u64(optarg, &retry_ms, 1, 60000)) goto bad; break;
        case 19: if (parse_u64(optarg, &tries, 1, 100)) goto bad; break;
        case 20: if (parse_u64(optarg, &hold_ms, 0, 3600000)) goto bad; break;
        case 21: if (parse_u64(optarg, &ttl_s, 1, 86400)) goto bad; break;
        case 22: s->pcap_path = optarg; break;
        case 23: if (dp_cap_parse_dir(&s->cap, optarg)) goto bad; break;
        case 24: if (parse_u64(optarg, &v, 14, 262144)) goto bad; s->pcap_snaplen = (uint32_t)v; break;
        case 25: s->busy_poll = true; break;
        case 26:
            if (parse_u64(optarg, &v, 16, FT_CAP) || (v & (v - 1))) goto bad;
            s->ft_cap = (uint32_t)v;
            break;
        case 27: s->cp_timing = true; break;
        case 28: {
            uint16_t port;
            if (parse_port(s, optarg, &port)) goto bad;
            s->host_port[port] = true;
            break;
        }
        case 29: {
            char *eq = strchr(optarg, '=');
            if (!eq || s->npeers >= MAX_PEERS) goto bad;
            *eq = 0;
            if (parse_u64(optarg, &v, 0, 0xffffff) || pkt_parse_ip(eq + 1, &s->peers[s->npeers].addr)) goto bad;
            s->peers[s->npeers++].node = (uint32_t)v;
            break;
        }
        case 30:
            if (rocc_cnp_parse_key(optarg, s->key)) goto bad;
            s->cnp_pol.key = s->key;
            break;
        case 31: s->no_cnp_filter = true; break;
        case 'h': usage(stdout, argv[0]); return 1;   /* asked for: not an error */
        default: goto bad;
        }
        idx = -1;
    }
    if (optind < argc) { fprintf(stderr, "unexpected argument: %s\n", argv[optind]); goto bad_nomsg; }
    s->cnp_pol.bind = s->peers;
    s->cnp_pol.nbind = s->npeers;
    s->arp_retry_cyc = dp_us_to_cycles(retry_ms * 1000, s->hz);
    s->arp_hold_cyc = dp_us_to_cycles(hold_ms * 1000, s->hz);
    s->arp_ttl_cyc = dp_us_to_cycles(ttl_s * 1000000, s->hz);
    s->arp_tries = (uint32_t)tries;
    for (uint16_t p = 0; p < s->nports; p++) {
        if (!s->cp_on[p]) continue;
        if (!s->have_cp_ip) { fprintf(stderr, "--cp needs --cp-ip\n"); goto bad_nomsg; }
        if (!s->eg[p].rate_bps) {
            fprintf(stderr, "--cp %u: the port needs an --egress-rate (the CP parameters derive from it)\n", p);
            goto bad_nomsg;
        }
    }
    return 0;
bad:
    fprintf(stderr, "bad value for --%s: '%s'\n", optname, orig);
bad_nomsg:
    usage(stderr, argv[0]);
    return -1;
}

/* The CP parameters' constraints, checked in the options' own terms (bytes,
 * Mb/s; given or the default at this port's rate), before librocc's check
 * would name its fields.  Prints the reason; -1 when one fails. */
/* "--OPT X B must be REL --OTHER (SRC: Y B) on port P, in whole --q-unit U B
 * units": one queue threshold out of order with its neighbour, naming the
 * option the user gave. */
static void q_order_error(const char *opt, uint64_t opt_bytes, const char *rel, const char *other,
                          const char *other_src, uint64_t other_bytes, uint16_t port, uint64_t unit)
{
    fprintf(stderr, "%s %" PRIu64 " B must be %s %s (%s: %" PRIu64 " B) on port %u, in whole --q-unit %" PRIu64
            " B units\n", opt, opt_bytes, rel, other, other_src, other_bytes, port, unit);
}

static int cp_check_opts(const struct sw *s, uint16_t port, const struct rocc_cp_params *p)
{
    uint64_t u = p->q_unit_bytes, link_mbps = s->eg[port].rate_bps / 1000000;
    const char *qmid_src = s->o_qmid ? "given" : "default at this rate";
    const char *qmax_src = s->o_qmax ? "given" : "default at this rate";

    if (s->o_qref && p->q_ref == 0) {
        fprintf(stderr, "--qref %" PRIu64 " B must be at least one --q-unit (%" PRIu64 " B)\n", s->o_qref, u);
        return -1;
    }
    if (p->q_mid <= p->q_ref) {
        if (s->o_qref)
            q_order_error("--qref", s->o_qref, "below", "--qmid", qmid_src, (uint64_t)p->q_mid * u, port, u);
        else
            q_order_error("--qmid", s->o_qmid, "above", "--qref", "default at this rate", (uint64_t)p->q_ref * u,
                          port, u);
        return -1;
    }
    if (p->q_max <= p->q_mid) {
        if (s->o_qmax)
            q_order_error("--qmax", s->o_qmax, "above", "--qmid", qmid_src, (uint64_t)p->q_mid * u, port, u);
        else
            q_order_error("--qmid", s->o_qmid, "below", "--qmax", qmax_src, (uint64_t)p->q_max * u, port, u);
        return -1;
    }
    if (p->f_min > p->f_max) {
        fprintf(stderr, "--fmin %u units (%" PRIu64 " Mb/s) must be at most Fmax = the port's rate / "
                "--f-unit-mbps = %" PRIu64 " / %u = %u units on port %u\n", p->f_min,
                (uint64_t)p->f_min * p->f_unit_mbps, link_mbps, p->f_unit_mbps, p->f_max, port);
        return -1;
    }
    if (p->alpha_q16 > ROCC_CP_MAX_GAIN_Q16 || p->beta_q16 > ROCC_CP_MAX_GAIN_Q16) {
        fprintf(stderr, "--%s %g must be at most 256\n", p->alpha_q16 > ROCC_CP_MAX_GAIN_Q16 ? "alpha" : "beta",
                p->alpha_q16 > ROCC_CP_MAX_GAIN_Q16 ? s->o_alpha : s->o_beta);
        return -1;
    }
    return 0;
}

/* Build one CP's parameters: librocc defaults for the shaped rate, then the
 * overrides, converted from bytes to ΔQ units.  -2: a bad parameter (exit 2),
 * -1: out of memory. */
static int cp_setup(struct sw *s, uint16_t port)
{
    struct cpstate *cp = calloc(1, sizeof *cp);
    struct rocc_cp_params *p;
    struct rocc_ft_params fp;
    char why[128];
    uint64_t link = s->eg[port].rate_bps;
    static const char *const ftname[] = {[ROCC_FT_QUEUE] = "queue", [ROCC_FT_BOUNDED] = "bounded",
                                         [ROCC_FT_ETRAP] = "trap"};

    if (!cp) return -1;
    s->eg[port].cp = cp;
    s->any_cp = true;
    p = &cp->p;
    cp->port = port;
    cp->cp_id = (s->switch_id << 8) | port;   /* docs/rocc.md: node id << 8 | port */
    rocc_cp_params_default(p, link);
    if (s->o_qunit) p->q_unit_bytes = (uint32_t)s->o_qunit;
    if (s->o_funit) {
        uint64_t fmax = link / (s->o_funit * 1000000ull);
        p->f_unit_mbps = (uint32_t)s->o_funit;
        p->f_max = (uint32_t)(fmax ? (fmax > INT32_MAX ? INT32_MAX : fmax) : 1);
        p->f_min = p->f_min < p->f_max ? p->f_min : p->f_max;
        p->f_init = p->f_max;
    }
    if (s->o_fmin) p->f_min = (uint32_t)s->o_fmin;
    if (s->o_qref) p->q_ref = (uint32_t)(s->o_qref / p->q_unit_bytes);
    if (s->o_qmid) p->q_mid = (uint32_t)(s->o_qmid / p->q_unit_bytes);
    if (s->o_qmax) p->q_max = (uint32_t)(s->o_qmax / p->q_unit_bytes);
    if (s->o_period_us) p->period_ps = s->o_period_us * 1000000ull;
    if (s->o_alpha > 0) p->alpha_q16 = (uint32_t)(s->o_alpha * 65536.0 + 0.5);
    if (s->o_beta > 0) p->beta_q16 = (uint32_t)(s->o_beta * 65536.0 + 0.5);
    if (cp_check_opts(s, port, p)) return -2;
    if (rocc_cp_params_check(p, why, sizeof why)) {
        fprintf(stderr, "CP parameters for port %u: %s\n", port, why);
        return -2;
    }
    /* librocc's defaults are made for 10-100G ports: on a slow port they
     * leave Fmin a large part of the link or Qref a unit or two, and the CP
     * cannot control the queue.  Say so (the run goes on). */
    if ((uint64_t)p->f_min * p->f_unit_mbps * 1000000ull * 10 >= link || p->q_ref < 4)
        fprintf(stderr,
                "warning: CP on port %u (%" PRIu64 " Mb/s): Fmin = %" PRIu64 " Mb/s (%.0f%% of the port, "
                "should be < 10%%), Qref = %u q-units of %u B (should be >= 4): scale --f-unit-mbps, "
                "--q-unit, --qref/--qmid/--qmax and --period to the port "
                "(docs/dataplane.md, \"Running at low link rates\")\n",
                port, link / 1000000, (uint64_t)p->f_min * p->f_unit_mbps,
                100.0 * (double)p->f_min * p->f_unit_mbps * 1e6 / (double)link, p->q_ref, p->q_unit_bytes);
    rocc_cp_init(&cp->cp, p);
    cp->cap = s->ft_cap;
    rocc_ft_params_default(&fp, s->ft_kind, cp->cap, p->period_ps);
    cp->ft_mem = calloc(1, rocc_ft_storage_bytes(cp->cap));
    if (!cp->ft_mem || rocc_ft_init(&cp->ft, &fp, cp->ft_mem)) return -1;
    cp->period_cyc = dp_us_to_cycles(p->period_ps / 1000000ull, s->hz);
    if (!cp->period_cyc) cp->period_cyc = 1;
    cp->f_min_seen = UINT32_MAX;
    printf("cp port=%u id=0x%x link_mbps=%" PRIu64 " q_unit=%u qref=%u qmid=%u qmax=%u (units) "
           "f_unit_mbps=%u fmin=%u fmax=%u alpha_q16=%u beta_q16=%u period_us=%" PRIu64 " flow_table=%s/%u\n",
           cp->port, cp->cp_id, link / 1000000, p->q_unit_bytes, p->q_ref, p->q_mid, p->q_max,
           p->f_unit_mbps, p->f_min, p->f_max, p->alpha_q16, p->beta_q16, p->period_ps / 1000000,
           ftname[s->ft_kind], cp->cap);
    return 0;
}

/* Ref for a flow key (source IP << 24 | QPN); inserts the flow's quoting
 * info on first sight and keeps its latest PSN.  At most 3/4 of the slots
 * are used (fi_full counts refusals); fi_gc frees the slots of flows the
 * flow table no longer holds. */
static inline uint32_t fi_hash(const struct cpstate *cp, uint64_t key)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 40) & (cp->cap - 1);
}

static int fi_ref_probe(struct cpstate *cp, uint64_t key, uint32_t dst_ip, uint16_t sport, uint32_t psn,
                        uint32_t *ref)
{
    uint32_t mask = cp->cap - 1, h = fi_hash(cp, key);
    uint32_t slot = UINT32_MAX, n;
    struct flowinfo *f;

    for (n = 0; n < cp->cap; n++, h = (h + 1) & mask) {
        f = &cp->fi[h];
        if (f->used) {
            if (f->key != key) continue;
            f->psn = psn;
            *ref = h;
            return 0;
        }
        if (f->tomb) { if (slot == UINT32_MAX) slot = h; continue; }
        if (slot == UINT32_MAX) slot = h;     /* never used: the key is not further on */
        break;
    }
    if (slot == UINT32_MAX || cp->fi_used >= cp->cap * 3 / 4) { cp->fi_full++; return -1; }
    cp->fi[slot] = (struct flowinfo){.key = key, .dst_ip = dst_ip, .psn = psn, .sport = sport,
                                     .used = true};
    cp->fi_used++;
    *ref = slot;
    return 0;
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

/* Free the flow-info slots of flows the flow table has dropped (QUEUE: no
 * frame reported and still queued; BOUNDED: aged out; ETRAP: evicted) and
 * that wait for no report.  A QUEUE frame not yet reported carries its
 * flow's fields and takes a slot again when reported.  With nothing left,
 * the tombstones go too. */
static void fi_gc(struct cpstate *cp)
{
    for (uint32_t i = 0; i < cp->cap; i++) {
        struct flowinfo *f = &cp->fi[i];
        if (!f->used || f->dirty || rocc_ft_find(&cp->ft, f->key)) continue;
        f->used = false;
        f->tomb = true;
        cp->fi_used--;
        cp->fi_freed++;
    }
    if (cp->fi_used == 0)
        for (uint32_t i = 0; i < cp->cap; i++) cp->fi[i].tomb = false;
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

/* The smallest difference of two back-to-back TSC reads. */
static uint64_t tsc_pair_cost(void)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 1000; i++) {
        uint64_t a = rte_rdtsc(), b = rte_rdtsc();
        if (b - a < best) best = b - a;
    }
    return best;
}

/* librocc time (ps since start) of the loop round's TSC, or of tsc.  A
 * 128-bit division: done when a CP needs it (a period, an ETRAP frame,
 * a BOUNDED report), not every loop round. */
static uint64_t tsc_ps(const struct sw *s, uint64_t tsc)
{
    return dp_cycles_to_ps(tsc - s->t0, s->hz);
}

static uint64_t now_ps(struct sw *s)
{
    if (s->now_ps_tsc != s->now_tsc) {
        s->now_ps = tsc_ps(s, s->now_tsc);
        s->now_ps_tsc = s->now_tsc;
    }
    return s->now_ps;
}

static uint32_t rnd32(struct sw *s)
{
    s->rng ^= s->rng >> 12; s->rng ^= s->rng << 25; s->rng ^= s->rng >> 27;
    return (uint32_t)((s->rng * 0x2545F4914F6CDD1Dull) >> 32);
}

/* ---- egress: the data FIFO (drop-tail, ECN, CP accounting) and the
 * control FIFO ---------------------------------------------------------------- */

static void enqueue_data(struct sw *s, uint16_t port, struct rte_mbuf *m, const struct pkt_info *pi)
{
    struct egress *out = &s->eg[port];
    uint32_t len = rte_pktmbuf_pkt_len(m);
    struct qent *e;

    /* Drop-tail on bytes (the buffer) or slots (the FIFO array). */
    if (out->qt - out->qh >= QSLOTS || out->qbytes + len > s->qcap) {
        out->drop_qfull++;
        rte_pktmbuf_free(m);
        return;
    }
    if (out->ecn && pkt_red_mark(out->qbytes, out->kmin, out->kmax, out->pmax, rnd32(s))) {
        uint8_t *f = rte_pktmbuf_mtod(m, uint8_t *);
        int ecn = pkt_ip4_ecn(f, pi);
        if (ecn == PKT_ECN_CE) out->ecn_ce_in++;
        else if (ecn == PKT_ECN_NOT_ECT) out->ecn_notect++;   /* not marked, not dropped */
        else { pkt_ip4_set_ecn(f, pi, PKT_ECN_CE); out->ecn_marked++; }
    }
    e = &out->q[out->qt & (QSLOTS - 1)];
    e->m = m;
    e->len = len;
    e->state = Q_UNTRACKED;
    if (out->cp && pi->is_roce) {
        /* Key = (src IP, dest QPN): the flow the RP will match. */
        struct cpstate *cp = out->cp;
        uint64_t t1 = 0, key;
        bool timed = s->cp_timing && cp->n_pkt % CP_TIME_EVERY == 0;
        uint32_t ref;
        cp->n_pkt++;
        if (timed) t1 = rte_rdtsc();
        if (s->ft_kind == ROCC_FT_QUEUE) {
            e->state = Q_PENDING;
        } else if (s->ft_kind == ROCC_FT_BOUNDED) {
            /* Reported once a period (report_bounded); dequeue is a no-op. */
            key = ((uint64_t)pi->src_ip << 24) | pi->dest_qpn;
            if (fi_ref(cp, key, pi->dst_ip, pi->sport, pi->psn, &ref) == 0) {
                struct flowinfo *f = &cp->fi[ref];
                f->seen_tsc = s->now_tsc;
                if (!f->dirty) { f->dirty = true; cp->dirty[cp->ndirty++] = ref; }
            }
        } else {
            key = ((uint64_t)pi->src_ip << 24) | pi->dest_qpn;
            if (fi_ref(cp, key, pi->dst_ip, pi->sport, pi->psn, &ref) == 0) {
                rocc_ft_on_enqueue(&cp->ft, key, ref, now_ps(s));
                e->key = key;
                e->state = Q_REPORTED;
            }
        }
        if (timed) timed_add(s, cp, t1, &cp->cyc_enq, &cp->n_enq_timed);
    }
    out->qt++;
    out->qbytes += len;
    if (out->qbytes > out->qbytes_max) out->qbytes_max = out->qbytes;
}

static void enqueue_ctl(struct sw *s, uint16_t port, struct rte_mbuf *m, enum kind k)
{
    struct egress *out = &s->eg[port];

    if (out->ct - out->ch >= CSLOTS) {
        if (k == K_OWN_CNP) out->cnp_drop++;
        else out->ctl_drop++;
        rte_pktmbuf_free(m);
        return;
    }
    out->c[out->ct & (CSLOTS - 1)] = (struct cent){.m = m, .kind = (uint8_t)k};
    out->ct++;
}

/* Frame routed out of port towards next-hop MAC mac. */
static void deliver(struct sw *s, uint16_t port, struct rte_mbuf *m, const uint8_t mac[6], enum kind k,
                    const struct pkt_info *pi)
{
    uint8_t *f = rte_pktmbuf_mtod(m, uint8_t *);
    struct pkt_info again;

    memcpy(f, mac, 6);
    memcpy(f + 6, s->eg[port].mac, 6);
    if (k != K_DATA) { enqueue_ctl(s, port, m, k); return; }
    /* pi is NULL for frames released from an ARP queue: parse them again
     * (they were parsed on arrival, so this cannot fail). */
    if (!pi) {
        if (pkt_parse(f, rte_pktmbuf_pkt_len(m), &again) != PKT_OK) { rte_pktmbuf_free(m); return; }
        pi = &again;
    }
    enqueue_data(s, port, m, pi);
}

/* ---- ARP ------------------------------------------------------------------- */

static struct rte_mbuf *arp_frame(struct sw *s, uint16_t port, uint16_t op, const uint8_t eth_dst[6],
                                  const uint8_t tha[6], uint32_t tpa)
{
    struct rte_mbuf *m = rte_pktmbuf_alloc(s->pool);
    uint8_t *p;

    if (!m) { s->alloc_fail++; return NULL; }
    p = (uint8_t *)rte_pktmbuf_append(m, PKT_ARP_FRAME_LEN);
    if (!p || !pkt_build_arp(p, PKT_ARP_FRAME_LEN, op, eth_dst, s->eg[port].mac, s->eg[port].ip, tha, tpa)) {
        rte_pktmbuf_free(m);
        s->alloc_fail++;
        return NULL;
    }
    return m;
}

static void arp_request(struct sw *s, struct neigh *n)
{
    static const uint8_t bc[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, zero[6];
    struct rte_mbuf *m = arp_frame(s, n->port, PKT_ARP_REQUEST, bc, zero, n->ip);

    if (!m) return;
    enqueue_ctl(s, n->port, m, K_ARP);
    s->arp.req_tx++;
}

static struct neigh *neigh_find(struct sw *s, uint32_t ip, bool create)
{
    uint32_t h = (ip * 2654435761u) >> 24 & (NEIGH_CAP - 1);

    for (uint32_t k = 0; k < NEIGH_CAP; k++, h = (h + 1) & (NEIGH_CAP - 1)) {
        struct neigh *n = &s->nb[h];
        if (n->state != N_FREE && n->ip == ip) return n;
        if (n->state == N_FREE) {
            if (!create) return NULL;
            if (s->nb_used >= NEIGH_CAP * 3 / 4) { s->arp.table_full++; return NULL; }
            memset(n, 0, sizeof *n);
            n->ip = ip;
            n->state = N_FAILED;       /* "unknown": resolve on first use */
            s->nb_used++;
            return n;
        }
    }
    s->arp.table_full++;
    return NULL;
}

static void neigh_drop_queue(struct sw *s, struct neigh *n)
{
    for (unsigned i = 0; i < n->qn; i++) rte_pktmbuf_free(n->q[i]);
    s->arp.unresolved_drop += n->qn;
    n->qn = 0;
}

/* Route m (IPv4, TTL already handled) to next hop nh on port. */
static void forward(struct sw *s, const struct route *rt, uint32_t dst_ip, struct rte_mbuf *m, enum kind k,
                    const struct pkt_info *pi, uint64_t tsc)
{
    struct neigh *n;

    if (rt->has_mac) { deliver(s, rt->port, m, rt->mac, k, pi); return; }
    n = neigh_find(s, rt->via ? rt->via : dst_ip, true);
    if (!n) { rte_pktmbuf_free(m); return; }
    n->port = rt->port;
    switch (n->state) {
    case N_REACHABLE:
        /* Past its lifetime the entry stays in use while it is re-confirmed
         * (a request every retry interval); no answer in --arp-tries -> failed. */
        if (tsc - n->confirmed_tsc > s->arp_ttl_cyc && tsc >= n->next_tsc) {
            if (n->tries >= s->arp_tries) {
                n->state = N_FAILED;
                n->next_tsc = tsc + s->arp_hold_cyc;
                s->arp.failed++;
                s->arp.unresolved_drop++;
                rte_pktmbuf_free(m);
                return;
            }
            n->tries++;
            n->next_tsc = tsc + s->arp_retry_cyc;
            s->arp.refresh++;
            arp_request(s, n);
        }
        deliver(s, rt->port, m, n->mac, k, pi);
        return;
    case N_FAILED:
        if (tsc < n->next_tsc) { s->arp.unresolved_drop++; rte_pktmbuf_free(m); return; }
        n->state = N_INCOMPLETE;
        n->tries = 1;
        n->next_tsc = tsc + s->arp_retry_cyc;
        arp_request(s, n);
        /* the frame is held like any other while the request is out */
        /* fall through */
    case N_INCOMPLETE:
    default:
        if (n->qn >= NEIGH_QLEN) { s->arp.queue_drop++; rte_pktmbuf_free(m); return; }
        n->q[n->qn] = m;
        n->qkind[n->qn++] = (uint8_t)k;
        s->arp.queued++;
        return;
    }
}

/* Retries of unresolved neighbours, every millisecond or so. */
static void arp_tick(struct sw *s, uint64_t tsc)
{
    for (uint32_t i = 0; i < NEIGH_CAP; i++) {
        struct neigh *n = &s->nb[i];
        if (n->state != N_INCOMPLETE || tsc < n->next_tsc) continue;
        if (n->tries >= s->arp_tries) {
            n->state = N_FAILED;
            n->next_tsc = tsc + s->arp_hold_cyc;
            s->arp.failed++;
            neigh_drop_queue(s, n);
            continue;
        }
        n->tries++;
        n->next_tsc = tsc + s->arp_retry_cyc;
        arp_request(s, n);
    }
}

static void neigh_learn(struct sw *s, struct neigh *n, uint16_t port, const uint8_t mac[6], uint64_t tsc)
{
    if (n->state != N_REACHABLE || memcmp(n->mac, mac, 6)) s->arp.learned++;
    memcpy(n->mac, mac, 6);
    n->state = N_REACHABLE;
    n->tries = 0;
    n->port = port;
    n->confirmed_tsc = tsc;
    n->next_tsc = tsc;
    for (unsigned i = 0; i < n->qn; i++) deliver(s, port, n->q[i], mac, (enum kind)n->qkind[i], NULL);
    n->qn = 0;
}

static void handle_arp(struct sw *s, uint16_t port, const uint8_t *f, uint32_t len, uint64_t tsc)
{
    struct egress *e = &s->eg[port];
    struct pkt_arp a;
    struct neigh *n;
    bool for_us;

    if (pkt_parse_arp(f, len, &a)) { s->arp.bad++; return; }
    if (a.op == PKT_ARP_REQUEST) s->arp.req_rx++;
    else s->arp.rep_rx++;
    for_us = e->ip && a.tpa == e->ip;
    /* RFC 826: update an existing entry from any ARP; create one only from
     * ARP addressed to us.  Probes (spa 0) teach nothing. */
    if (a.spa) {
        n = neigh_find(s, a.spa, for_us);
        if (n) neigh_learn(s, n, port, a.sha, tsc);
    }
    if (!for_us) { s->arp.ignored++; return; }
    if (a.op == PKT_ARP_REQUEST) {
        struct rte_mbuf *m = arp_frame(s, port, PKT_ARP_REPLY, a.sha, a.sha, a.spa);
        if (m) { enqueue_ctl(s, port, m, K_ARP); s->arp.replies_tx++; }
    }
}

/* ---- receive path -------------------------------------------------------- */

static bool is_own_ip(const struct sw *s, uint32_t ip)
{
    if (s->have_cp_ip && ip == s->cp_ip) return true;
    for (uint16_t p = 0; p < s->nports; p++)
        if (s->eg[p].ip && s->eg[p].ip == ip) return true;
    return false;
}

static bool is_cnp(const uint8_t *f, const struct pkt_info *pi)
{
    return pi->proto == 1 && pi->is_first_frag && pi->l4_len >= 1 && f[pi->l4_off] == ROCC_CNP_ICMP_TYPE;
}

/* May this ICMP type 253 frame from `port` enter the control FIFO?  Counts
 * why not (header comment: CNP filtering). */
static bool cnp_admit(struct sw *s, uint16_t port, const uint8_t *f, const struct pkt_info *pi)
{
    int r;

    if (s->no_cnp_filter) return true;
    if (s->host_port[port]) { s->cnp_host_port++; return false; }
    if (s->have_cp_ip && pi->src_ip == s->cp_ip) { s->cnp_own_addr++; return false; }
    r = rocc_cnp_check(&s->cnp_pol, pi->src_ip, pi->dst_ip, f + pi->l4_off, pi->l4_len, NULL);
    if (r == ROCC_CNP_OK) return true;
    if (r == ROCC_CNP_EBIND) s->cnp_unbound++;
    else if (r == ROCC_CNP_EAUTH) s->cnp_badauth++;
    else s->cnp_invalid++;
    return false;
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
        r = pkt_parse(f, len, &pi);
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

/* ---- the CPs ------------------------------------------------------------- */

static void send_cnps(struct sw *s, struct cpstate *cp, uint32_t f_units, uint64_t tsc)
{
    size_t n = rocc_ft_select(&cp->ft, now_ps(s), cp->sel, cp->cap);

    for (size_t i = 0; i < n; i++) {
        const struct flowinfo *fi = &cp->fi[cp->sel[i] & (cp->cap - 1)];
        uint32_t src_ip = (uint32_t)(fi->key >> 24);
        const struct route *rt = route_lookup(s, src_ip);
        struct rocc_cnp c = {.rate_units = f_units, .cp_id = cp->cp_id, .src_ip = src_ip,
                             .dst_ip = fi->dst_ip, .sport = fi->sport, .dport = ROCC_ROCEV2_UDP_PORT,
                             .dest_qpn = (uint32_t)(fi->key & 0xffffff), .psn = fi->psn};
        static const uint8_t zero[6];
        struct rte_mbuf *m;
        uint8_t *p;
        size_t flen;

        if (!rt) { cp->cnp_noroute++; continue; }
        m = rte_pktmbuf_alloc(s->pool);
        if (!m) { cp->cnp_alloc_fail++; continue; }
        flen = s->cnp_pol.key ? PKT_CNP_AUTH_FRAME_LEN : PKT_CNP_FRAME_LEN;
        p = (uint8_t *)rte_pktmbuf_append(m, flen);
        /* MACs are filled in by deliver() once the next hop is known. */
        if (!p || !(s->cnp_pol.key ? pkt_build_cnp_auth(p, flen, zero, zero, s->cp_ip, src_ip, &c, s->cnp_pol.key)
                                   : pkt_build_cnp(p, flen, zero, zero, s->cp_ip, src_ip, &c))) {
            rte_pktmbuf_free(m);
            cp->cnp_alloc_fail++;
            continue;
        }
        cp->cnps++;
        forward(s, rt, src_ip, m, K_OWN_CNP, NULL, tsc);
    }
}

/* QUEUE tables: the flow table only has to be right when select() reads
 * it, once a period, so frames are reported to it here, just before, and
 * only those still queued.  A frame that came and went between two periods
 * costs the table nothing (an uncongested port: nearly every frame), and
 * what select() sees is exactly what per-packet updates would have given:
 * one count per queued frame of each flow.  The flow (and what a CNP
 * quotes) is read from the queued frame: its IP addresses, UDP source
 * port, QP and PSN are what they were on arrival (only MACs, TTL, ECN and
 * the IP checksum have changed), and enqueue need not store them. */
static void report_pending(struct sw *s, struct cpstate *cp)
{
    struct egress *e = &s->eg[cp->port];
    uint32_t pos = (int32_t)(cp->rep_pos - e->qh) > 0 ? cp->rep_pos : e->qh;

    for (; pos != e->qt; pos++) {
        struct qent *q = &e->q[pos & (QSLOTS - 1)];
        struct pkt_info pi;
        uint64_t key;
        uint32_t ref;
        if (q->state != Q_PENDING) continue;
        /* Parsed on arrival already: this cannot fail. */
        if (pkt_parse(rte_pktmbuf_mtod(q->m, const uint8_t *), q->len, &pi) != PKT_OK || !pi.is_roce) {
            q->state = Q_UNTRACKED;
            continue;
        }
        key = ((uint64_t)pi.src_ip << 24) | pi.dest_qpn;
        if (fi_ref(cp, key, pi.dst_ip, pi.sport, pi.psn, &ref) == 0) {
            rocc_ft_on_enqueue(&cp->ft, key, ref, now_ps(s));
            q->key = key;
            q->state = Q_REPORTED;
            cp->n_reported++;
        } else {
            q->state = Q_UNTRACKED;
        }
    }
    cp->rep_pos = e->qt;
}

/* BOUNDED tables: select picks the flows seen within max_age, by the time
 * of their latest frame; that is all the table keeps of them.  So each flow
 * seen since the last period is reported once, with the time of its latest
 * frame, just before select: the same entries, times and picks as one
 * report per frame, for one table update per flow and period. */
static void report_bounded(struct sw *s, struct cpstate *cp)
{
    uint64_t last_tsc = 0, last_ps = 0;   /* flows last seen in the same loop round share a time */

    for (uint32_t i = 0; i < cp->ndirty; i++) {
        struct flowinfo *f = &cp->fi[cp->dirty[i]];
        if (i == 0 || f->seen_tsc != last_tsc) {
            last_tsc = f->seen_tsc;
            last_ps = last_tsc == s->now_tsc ? now_ps(s) : tsc_ps(s, last_tsc);
        }
        rocc_ft_on_enqueue(&cp->ft, f->key, cp->dirty[i], last_ps);
        f->dirty = false;
        cp->n_reported++;
    }
    cp->ndirty = 0;
}

static void cp_tick(struct sw *s, struct cpstate *cp, uint64_t tsc)
{
    uint64_t t1 = s->cp_timing ? rte_rdtsc() : 0;
    uint64_t q = s->eg[cp->port].qbytes;   /* data queue only: control frames are excluded */

    if (s->ft_kind == ROCC_FT_QUEUE) report_pending(s, cp);
    else if (s->ft_kind == ROCC_FT_BOUNDED) report_bounded(s, cp);
    uint32_t f = rocc_cp_update(&cp->cp, &cp->p, q);

    cp->samples++;
    cp->qsum_bytes += q;
    if (f < cp->f_min_seen) cp->f_min_seen = f;
    if (f > cp->f_max_seen) cp->f_max_seen = f;
    /* docs/rocc.md: no CNPs while F = Fmax unless asked (they constrain nobody).
     * BOUNDED and ETRAP tables still age every period (select does it);
     * QUEUE's select changes nothing, so it is skipped. */
    if (f < cp->p.f_max || s->cnp_at_fmax) send_cnps(s, cp, f, tsc);
    else if (s->ft_kind != ROCC_FT_QUEUE) (void)rocc_ft_select(&cp->ft, now_ps(s), cp->sel, cp->cap);
    if (cp->samples % FI_GC_PERIODS == 0) fi_gc(cp);
    if (s->cp_timing) timed_add(s, cp, t1, &cp->cyc_tick, &cp->n_tick_timed);
}

/* ---- transmit ------------------------------------------------------------ */

/* One burst: strict priority, all queued control frames first, then data
 * while the bucket allows.  Returns frames handed to the PMD or dropped;
 * *full is set when the PMD took fewer than offered. */
static unsigned tx_burst(struct sw *s, struct egress *e, uint16_t port, uint64_t tsc, bool *full)
{
    struct rte_mbuf *tx[DP_BURST];
    uint8_t kind[DP_BURST];
    unsigned n = 0;
    uint16_t sent;

    while (e->ch != e->ct && n < DP_BURST) {
        struct cent *c = &e->c[e->ch++ & (CSLOTS - 1)];
        if (e->rate_bps) e->tokens -= rte_pktmbuf_pkt_len(c->m) + PKT_WIRE_OVERHEAD;
        kind[n] = c->kind;
        tx[n++] = c->m;
    }
    while (e->qh != e->qt && n < DP_BURST) {
        struct qent *q = &e->q[e->qh & (QSLOTS - 1)];
        if (e->rate_bps && e->tokens < (double)(q->len + PKT_WIRE_OVERHEAD)) break;
        if (e->rate_bps) e->tokens -= q->len + PKT_WIRE_OVERHEAD;
        e->qh++;
        e->qbytes -= q->len;
        if (q->state == Q_REPORTED) {
            struct cpstate *cp = e->cp;
            if (s->cp_timing && cp->n_deq++ % CP_TIME_EVERY == 0) {
                uint64_t t1 = rte_rdtsc();
                rocc_ft_on_dequeue(&cp->ft, q->key);
                timed_add(s, cp, t1, &cp->cyc_deq, &cp->n_deq_timed);
            } else {
                rocc_ft_on_dequeue(&cp->ft, q->key);
            }
        }
        kind[n] = K_DATA;
        tx[n++] = q->m;
    }
    if (!n) return 0;
    sent = dp_tx_burst(port, tx, (uint16_t)n, &s->cap, tsc);
    *full = sent < n;
    for (unsigned i = sent; i < n; i++) {
        rte_pktmbuf_free(tx[i]);
        e->drop_tx++;
    }
    for (unsigned i = 0; i < sent; i++) {
        switch (kind[i]) {
        case K_OWN_CNP: e->cnp_tx++; break;
        case K_TRANSIT_CNP: e->ctl_fwd++; break;
        case K_ARP: e->arp_tx++; break;
        default: e->tx_pkts++; e->tx_bytes += rte_pktmbuf_pkt_len(tx[i]); break;
        }
    }
    return n;
}

/* A port with nothing queued and nothing waiting to be received has been
 * idle: its credit goes back to at most --burst. */
static void end_round(struct sw *s)
{
    if (s->rx_backlog) return;
    for (uint16_t p = 0; p < s->nports; p++) {
        struct egress *e = &s->eg[p];
        if (e->rate_bps && e->qh == e->qt && e->ch == e->ct && e->tokens > (double)s->burst_bytes)
            e->tokens = (double)s->burst_bytes;
    }
}

/* Up to TX_ROUNDS bursts per loop round: a backlog (after the process was
 * descheduled, say) must drain faster than one burst per round, or it never
 * shrinks while receive keeps bringing a burst per round. */
#define TX_ROUNDS 4
static unsigned tx_port(struct sw *s, uint16_t port, uint64_t tsc)
{
    struct egress *e = &s->eg[port];
    unsigned total = 0, n;
    bool full = false;

    if (e->rate_bps) {
        /* The emulated link keeps sending while this process is
         * descheduled: time since the last round counts in full (up to
         * STALL_MAX_US), and the credit is cut back to --burst only once the
         * port is idle (see end_round), as a real port's would be. */
        uint64_t dt = tsc - e->last_tsc, dmax = dp_us_to_cycles(STALL_MAX_US, s->hz);
        e->tokens += (double)(dt < dmax ? dt : dmax) * (double)e->rate_bps / 8.0 / (double)s->hz;
    }
    e->last_tsc = tsc;
    for (int r = 0; r < TX_ROUNDS && !full; r++) {
        n = tx_burst(s, e, port, tsc, &full);
        total += n;
        if (n < DP_BURST) break;
    }
    return total;
}

/* Cycles until the first shaped port with a queued data frame has the
 * credit to send it (0: some port can send now, or has control frames or
 * an unshaped queue; UINT64_MAX: nothing queued).  The loop sleeps that
 * long instead of spinning: credit accrues for the whole time since the
 * port's last round (tx_port), so a late wake-up costs no rate, only a
 * burst of the frames that became due meanwhile.  A switch that spins
 * while its queue waits uses all of a CPU, and at real-time priority
 * (the data-plane tests, tests/dataplane/netns.bash) the kernel's RT
 * throttling then stops it for 50 ms of every second, long enough for its
 * receive rings to overflow. */
static uint64_t credit_wait(const struct sw *s)
{
    uint64_t best = UINT64_MAX;

    for (uint16_t p = 0; p < s->nports; p++) {
        const struct egress *e = &s->eg[p];
        if (e->ch != e->ct) return 0;
        if (e->qh == e->qt) continue;
        if (!e->rate_bps) return 0;
        double need = (double)(e->q[e->qh & (QSLOTS - 1)].len + PKT_WIRE_OVERHEAD) - e->tokens;
        if (need <= 0) return 0;
        uint64_t cyc = (uint64_t)(need * 8.0 * (double)s->hz / (double)e->rate_bps);
        if (cyc < best) best = cyc;
    }
    return best;
}

static double cyc_ns(const struct sw *s, uint64_t cyc, uint64_t n)
{
    return n ? (double)cyc * 1e9 / (double)s->hz / (double)n : 0.0;
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
    for (uint16_t p = 0; p < s->nports; p++) {
        const struct cpstate *cp = s->eg[p].cp;
        char ns_pkt[32] = "-", ns_period[32] = "-";   /* "-": not timed (no --cp-timing) */
        if (!cp) continue;
        if (s->cp_timing) {
            /* per tracked frame: every enqueue, plus the dequeues that
             * had been reported (all but QUEUE's unreported ones) */
            snprintf(ns_pkt, sizeof ns_pkt, "%.1f", cyc_ns(s, cp->cyc_enq, cp->n_enq_timed) +
                     (cp->n_pkt ? cyc_ns(s, cp->cyc_deq, cp->n_deq_timed) * (double)cp->n_deq / (double)cp->n_pkt : 0.0));
            snprintf(ns_period, sizeof ns_period, "%.1f", cyc_ns(s, cp->cyc_tick, cp->n_tick_timed));
        }
        printf("final cp port=%u samples=%" PRIu64 " cnps_sent=%" PRIu64 " F_last=%d F_min=%u F_max=%u"
               " F_last_mbps=%" PRIu64 " q_mean_bytes=%.0f md_fmin=%" PRIu64 " md_half=%" PRIu64
               " pi=%" PRIu64 " cnp_noroute=%" PRIu64 " cnp_alloc_fail=%" PRIu64 " flowinfo_full=%" PRIu64
               " flowinfo_freed=%" PRIu64 " ft_full=%" PRIu64 " ft_evicted=%" PRIu64 " tracked_pkts=%" PRIu64 " ns_per_pkt=%s"
               " ns_per_period=%s timer_ns=%.1f timing_outliers=%" PRIu64 " reported_pkts=%" PRIu64 "\n",
               cp->port, cp->samples, cp->cnps, cp->cp.f, cp->f_min_seen, cp->f_max_seen,
               rocc_cp_rate_bps(&cp->p, (uint32_t)cp->cp.f) / 1000000,
               cp->samples ? (double)cp->qsum_bytes / (double)cp->samples : 0.0, cp->cp.n_md_fmin,
               cp->cp.n_md_half, cp->cp.n_pi, cp->cnp_noroute, cp->cnp_alloc_fail, cp->fi_full,
               cp->fi_freed, cp->ft.n_full, cp->ft.n_evicted, cp->n_pkt, ns_pkt, ns_period,
               cyc_ns(s, s->tsc_pair_cyc, 1), cp->n_outliers,
               s->ft_kind == ROCC_FT_ETRAP ? cp->n_pkt : cp->n_reported);
    }
    {
        /* Busy time per frame sent: the switch's CPU cost per forwarded
         * frame whatever the offered load (bench/dataplane_cp.sh). */
        uint64_t fwd = 0;
        for (uint16_t p = 0; p < s->nports; p++) fwd += s->eg[p].tx_pkts;
        printf("final loop run_s=%.3f busy_s=%.3f busy_ns_per_tx_pkt=%.1f\n",
               (double)(s->end_tsc - s->start_tsc) / (double)s->hz, (double)s->busy_cyc / (double)s->hz,
               cyc_ns(s, s->busy_cyc, fwd));
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
    while (!force_quit) {
        uint64_t tsc = rte_get_tsc_cycles();
        unsigned work = 0;
        bool queued = false;

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
        if (tsc >= s->next_arp_tick) {
            arp_tick(s, tsc);
            s->next_arp_tick = tsc + arp_every;
        }
        for (uint16_t p = 0; p < s->nports; p++) {
            work += tx_port(s, p, tsc);
            queued |= s->eg[p].qh != s->eg[p].qt || s->eg[p].ch != s->eg[p].ct;
        }
        end_round(s);
        if (rep_every && tsc - last_rep >= rep_every) {
            for (uint16_t p = 0; p < s->nports; p++)
                printf("stat t=%.3f port=%u rx_pkts=%" PRIu64 " tx_pkts=%" PRIu64 " drops_qfull=%" PRIu64
                       " drops_tx=%" PRIu64 " ctl_fwd=%" PRIu64 "\n", (double)(tsc - s->t0) / (double)s->hz, p,
                       s->eg[p].rx_pkts, s->eg[p].tx_pkts, s->eg[p].drop_qfull, s->eg[p].drop_tx, s->eg[p].ctl_fwd);
            for (uint16_t p = 0; p < s->nports; p++) {
                const struct cpstate *cp = s->eg[p].cp;
                if (cp)
                    printf("cp t=%.3f port=%u F=%d F_mbps=%" PRIu64 " q_bytes=%" PRIu64 " cnps=%" PRIu64 "\n",
                           (double)(tsc - s->t0) / (double)s->hz, p, cp->cp.f,
                           rocc_cp_rate_bps(&cp->p, (uint32_t)cp->cp.f) / 1000000, s->eg[p].qbytes, cp->cnps);
            }
            fflush(stdout);
            dp_pcap_flush(&s->cap.pc);
            last_rep = tsc;
        }
        /* An idle round sleeps (dp_idle: 20 us when the next frame is
         * more than 10 us away), also while a shaped queue waits for
         * credit (credit_wait); --busy-poll never sleeps. */
        if (work) s->busy_cyc += rte_get_tsc_cycles() - tsc;
        else if (!s->busy_poll) dp_idle(queued ? credit_wait(s) : UINT64_MAX, s->hz);
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
    ret = parse_args(s, argc, argv);
    if (ret) { rc = ret > 0 ? 0 : 2; goto out; }   /* > 0: --help */
    for (p = 0; p < s->nports; p++) {
        int r = s->cp_on[p] ? cp_setup(s, p) : 0;
        if (r) { rc = r == -2 ? 2 : 1; goto out; }
    }
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
    printf("ready switch ports=%u routes=%u cps=", s->nports, s->nroutes);
    for (uint16_t i = 0, k = 0; i < s->nports; i++)
        if (s->eg[i].cp) printf("%s%u", k++ ? "," : "", i);
    printf(" cnp_filter=%s host_ports=", s->no_cnp_filter ? "off" : "on");
    for (uint16_t i = 0, k = 0; i < s->nports; i++)
        if (s->host_port[i]) printf("%s%u", k++ ? "," : "", i);
    printf(" cp_peers=%u cnp_key=%s\n", s->npeers, s->cnp_pol.key ? "yes" : "no");
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
    if (s) { free(s->eg); free(s->nb); }
    free(s);
    rte_eal_cleanup();
    return rc;
}
