/*
 * rocc_switch.c -- an N-port IPv4 router with a RoCC congestion point
 * (issue 5).
 *
 *   rocc-switch <EAL args: one vdev per port> --
 *       --route PREFIX/LEN=PORT,MAC ...   static routes, MAC = next hop
 *       [--egress-rate PORT=Gbps ...]     token-bucket shaping of a port
 *       [--cp PORT --cp-ip A.B.C.D]       RoCC CP on that port's queue
 *       [--qref B --qmid B --qmax B]      CP thresholds in bytes
 *       [--period US] [--q-unit B] [--f-unit-mbps N] [--fmin UNITS]
 *       [--alpha X --beta X] [--cnp-at-fmax] [--qcap BYTES] [--burst BYTES]
 *       [--switch-id N] [--report-ms MS]
 *
 * Why a software queue: af_packet over veth has no link rate of its own, so
 * the bottleneck queue the CP must watch is created here, by draining each
 * port's FIFO no faster than its --egress-rate.  CNPs go to a separate
 * per-port control FIFO served first (strict priority), like the strict
 * control class of docs/rocc.md, and are not counted in the CP's queue.
 */
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
#include "rocc_cp.h"
#include "rocc_flowtable.h"

#define MAX_PORTS   8
#define MAX_ROUTES  64
#define QSLOTS      4096          /* data FIFO slots per port (power of two) */
#define CSLOTS      1024          /* control FIFO slots per port (power of two) */
#define FT_CAP      1024          /* CP flow table / flow-info slots (power of two) */
#define NB_MBUF     (MAX_PORTS * (QSLOTS + CSLOTS) / 2 + 4095)

static volatile bool force_quit;  /* the only global: set by SIGINT/SIGTERM */

static void on_signal(int sig)
{
    (void)sig;
    force_quit = true;
}

struct qent { struct rte_mbuf *m; uint64_t key; uint32_t len; bool tracked; };

struct egress {
    uint8_t mac[6];
    struct qent q[QSLOTS];        /* data FIFO */
    uint32_t qh, qt;              /* head (next out), tail (next in); free-running */
    uint64_t qbytes, qbytes_max;
    struct rte_mbuf *c[CSLOTS];   /* control FIFO (CNPs), strict priority */
    uint32_t ch, ct;
    uint64_t rate_bps;            /* 0: unshaped */
    double tokens;                /* bytes; may go negative after a CNP */
    uint64_t last_tsc;
    uint64_t rx_pkts, rx_bytes, tx_pkts, tx_bytes, drop_qfull, drop_tx, cnp_tx, cnp_drop;
};

struct route { uint32_t net, mask; uint16_t port; uint8_t mac[6]; };

/* What a CNP needs to quote a flow: kept per flow-table ref. */
struct flowinfo { uint64_t key; uint32_t src_ip, dst_ip, qpn, psn; uint16_t sport; bool used; };

struct cpstate {
    bool on;
    uint16_t port;
    uint32_t cp_ip, cp_id;
    struct rocc_cp_params p;
    struct rocc_cp cp;
    struct rocc_flowtable ft;
    struct flowinfo fi[FT_CAP];   /* open addressing by key, never erased */
    uint32_t fi_used;
    uint32_t sel[FT_CAP];
    uint64_t period_cyc, next_tsc;
    bool cnp_at_fmax;
    uint64_t samples, cnps, cnp_noroute, cnp_alloc_fail, fi_full;
    uint32_t f_min_seen, f_max_seen;
    uint64_t qsum_bytes;
};

struct sw {
    uint16_t nports;
    struct egress *eg;            /* nports entries */
    struct route routes[MAX_ROUTES];
    unsigned nroutes;
    struct cpstate *cp;
    struct rte_mempool *pool;
    uint64_t hz, t0, qcap, burst_bytes, report_ms;
    struct pkt_drops bad;
    uint64_t noroute, ttl_expired, alloc_fail;
    /* CLI values that need the link rate before they can be applied */
    uint64_t o_qref, o_qmid, o_qmax, o_period_us, o_qunit, o_funit, o_fmin;
    double o_alpha, o_beta;
    int cp_port;
    uint32_t switch_id;
    bool have_cp_ip;
};

static void usage(const char *prg)
{
    fprintf(stderr,
        "usage: %s <EAL args> -- --route PREFIX/LEN=PORT,MAC ... [--egress-rate PORT=Gbps ...]\n"
        "  [--cp PORT --cp-ip A.B.C.D] [--qref B] [--qmid B] [--qmax B] [--period US]\n"
        "  [--q-unit B] [--f-unit-mbps N] [--fmin UNITS] [--alpha X] [--beta X] [--cnp-at-fmax]\n"
        "  [--qcap BYTES (300000)] [--burst BYTES (4000)] [--switch-id N (1)] [--report-ms MS (0)]\n",
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

static int parse_route(struct sw *s, char *arg)
{
    char *eq = strchr(arg, '='), *comma, *end;
    struct route *r;
    unsigned long port;

    if (!eq || s->nroutes >= MAX_ROUTES) return -1;
    *eq++ = 0;
    comma = strchr(eq, ',');
    if (!comma) return -1;
    *comma++ = 0;
    r = &s->routes[s->nroutes];
    if (pkt_parse_prefix(arg, &r->net, &r->mask)) return -1;
    port = strtoul(eq, &end, 10);
    if (*end || port >= s->nports) return -1;
    r->port = (uint16_t)port;
    if (pkt_parse_mac(comma, r->mac)) return -1;
    s->nroutes++;
    return 0;
}

static int parse_rate(struct sw *s, char *arg)
{
    char *eq = strchr(arg, '='), *end;
    unsigned long port;
    double g;

    if (!eq) return -1;
    *eq++ = 0;
    port = strtoul(arg, &end, 10);
    if (*end || port >= s->nports) return -1;
    g = strtod(eq, &end);
    if (*end || g <= 0) return -1;
    s->eg[port].rate_bps = (uint64_t)(g * 1e9);
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
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int c;
    char *end = NULL;

    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'r': if (parse_route(s, optarg)) goto bad; break;
        case 'e': if (parse_rate(s, optarg)) goto bad; break;
        case 'c': s->cp_port = (int)strtol(optarg, &end, 10); if (*end || s->cp_port < 0 || s->cp_port >= s->nports) goto bad; break;
        case 'i': if (pkt_parse_ip(optarg, &s->cp->cp_ip)) goto bad; s->have_cp_ip = true; break;
        case 1: s->o_qref = strtoull(optarg, &end, 10); if (*end) goto bad; break;
        case 2: s->o_qmid = strtoull(optarg, &end, 10); if (*end) goto bad; break;
        case 3: s->o_qmax = strtoull(optarg, &end, 10); if (*end) goto bad; break;
        case 4: s->o_period_us = strtoull(optarg, &end, 10); if (*end || !s->o_period_us) goto bad; break;
        case 5: s->o_qunit = strtoull(optarg, &end, 10); if (*end || !s->o_qunit) goto bad; break;
        case 6: s->o_funit = strtoull(optarg, &end, 10); if (*end || !s->o_funit) goto bad; break;
        case 7: s->o_fmin = strtoull(optarg, &end, 10); if (*end || !s->o_fmin) goto bad; break;
        case 8: s->o_alpha = strtod(optarg, &end); if (*end || s->o_alpha <= 0) goto bad; break;
        case 9: s->o_beta = strtod(optarg, &end); if (*end || s->o_beta <= 0) goto bad; break;
        case 10: s->cp->cnp_at_fmax = true; break;
        case 11: s->qcap = strtoull(optarg, &end, 10); if (*end || !s->qcap) goto bad; break;
        case 12: s->burst_bytes = strtoull(optarg, &end, 10); if (*end || !s->burst_bytes) goto bad; break;
        case 13: s->switch_id = (uint32_t)strtoul(optarg, &end, 10); if (*end) goto bad; break;
        case 14: s->report_ms = strtoull(optarg, &end, 10); if (*end) goto bad; break;
        default: goto bad;
        }
    }
    if (s->cp_port >= 0 && !s->have_cp_ip) { fprintf(stderr, "--cp needs --cp-ip\n"); goto bad; }
    if (s->cp_port >= 0 && !s->eg[s->cp_port].rate_bps) {
        fprintf(stderr, "--cp port needs an --egress-rate (the CP parameters derive from it)\n");
        goto bad;
    }
    return 0;
bad:
    usage(argv[0]);
    return -1;
}

/* Build the CP parameters: librocc defaults for the shaped rate, then the
 * overrides, converted from bytes to ΔQ units. */
static int cp_setup(struct sw *s)
{
    struct cpstate *cp = s->cp;
    struct rocc_cp_params *p = &cp->p;
    struct rocc_ft_params fp;
    char why[128];
    void *mem;
    uint64_t link = s->eg[s->cp_port].rate_bps;

    cp->on = true;
    cp->port = (uint16_t)s->cp_port;
    cp->cp_id = (s->switch_id << 8) | cp->port;   /* docs/rocc.md: node id << 8 | port */
    rocc_cp_params_default(p, link);
    if (s->o_qunit) p->q_unit_bytes = (uint32_t)s->o_qunit;
    if (s->o_funit) {
        uint64_t fmax = link / (s->o_funit * 1000000ull);
        p->f_unit_mbps = (uint32_t)s->o_funit;
        p->f_max = (uint32_t)(fmax ? fmax : 1);
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
    if (rocc_cp_params_check(p, why, sizeof why)) {
        fprintf(stderr, "CP parameters: %s\n", why);
        return -1;
    }
    rocc_cp_init(&cp->cp, p);
    rocc_ft_params_default(&fp, ROCC_FT_QUEUE, FT_CAP, p->period_ps);
    mem = calloc(1, rocc_ft_storage_bytes(FT_CAP));
    if (!mem || rocc_ft_init(&cp->ft, &fp, mem)) { free(mem); return -1; }
    cp->period_cyc = dp_us_to_cycles(p->period_ps / 1000000ull, s->hz);
    if (!cp->period_cyc) cp->period_cyc = 1;
    cp->f_min_seen = UINT32_MAX;
    printf("cp port=%u id=0x%x link_mbps=%" PRIu64 " q_unit=%u qref=%u qmid=%u qmax=%u (units) "
           "f_unit_mbps=%u fmin=%u fmax=%u alpha_q16=%u beta_q16=%u period_us=%" PRIu64 "\n",
           cp->port, cp->cp_id, link / 1000000, p->q_unit_bytes, p->q_ref, p->q_mid, p->q_max,
           p->f_unit_mbps, p->f_min, p->f_max, p->alpha_q16, p->beta_q16, p->period_ps / 1000000);
    return 0;
}

/* Ref for a flow key; inserts the flow's quoting info on first sight. */
static int fi_ref(struct cpstate *cp, uint64_t key, const struct pkt_info *pi, uint32_t *ref)
{
    uint32_t h = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 40) & (FT_CAP - 1);

    for (uint32_t n = 0; n < FT_CAP; n++, h = (h + 1) & (FT_CAP - 1)) {
        struct flowinfo *f = &cp->fi[h];
        if (f->used && f->key != key) continue;
        if (!f->used) {
            if (cp->fi_used >= FT_CAP * 3 / 4) { cp->fi_full++; return -1; }
            *f = (struct flowinfo){.key = key, .src_ip = pi->src_ip, .dst_ip = pi->dst_ip,
                                   .qpn = pi->dest_qpn, .sport = pi->sport, .used = true};
            cp->fi_used++;
        }
        f->psn = pi->psn;
        *ref = h;
        return 0;
    }
    cp->fi_full++;
    return -1;
}

static void rx_port(struct sw *s, uint16_t port, uint64_t tsc)
{
    struct rte_mbuf *rx[DP_BURST];
    uint16_t n = rte_eth_rx_burst(port, 0, rx, DP_BURST);

    for (uint16_t i = 0; i < n; i++) {
        struct rte_mbuf *m = rx[i];
        struct pkt_info pi;
        const struct route *rt;
        struct egress *out;
        uint8_t *f;
        uint32_t len = rte_pktmbuf_pkt_len(m);
        int r;

        s->eg[port].rx_pkts++;
        s->eg[port].rx_bytes += len;
        if (m->nb_segs != 1) { s->bad.n[PKT_ETRUNC]++; rte_pktmbuf_free(m); continue; }
        f = rte_pktmbuf_mtod(m, uint8_t *);
        r = pkt_parse(f, len, &pi);
        if (r != PKT_OK) { s->bad.n[r]++; rte_pktmbuf_free(m); continue; }
        rt = route_lookup(s, pi.dst_ip);
        if (!rt) { s->noroute++; rte_pktmbuf_free(m); continue; }
        if (pkt_ip4_dec_ttl(f, &pi)) { s->ttl_expired++; rte_pktmbuf_free(m); continue; }
        out = &s->eg[rt->port];
        memcpy(f, rt->mac, 6);
        memcpy(f + 6, out->mac, 6);
        /* Drop-tail on bytes (the buffer) or slots (the FIFO array). */
        if (out->qt - out->qh >= QSLOTS || out->qbytes + len > s->qcap) {
            out->drop_qfull++;
            rte_pktmbuf_free(m);
            continue;
        }
        {
            struct qent *e = &out->q[out->qt & (QSLOTS - 1)];
            uint32_t ref;
            e->m = m;
            e->len = len;
            e->tracked = false;
            if (s->cp->on && rt->port == s->cp->port && pi.is_roce) {
                /* Key = (src IP, dest QPN): the flow the RP will match. */
                uint64_t key = ((uint64_t)pi.src_ip << 24) | pi.dest_qpn;
                if (fi_ref(s->cp, key, &pi, &ref) == 0) {
                    rocc_ft_on_enqueue(&s->cp->ft, key, ref, dp_cycles_to_ps(tsc - s->t0, s->hz));
                    e->key = key;
                    e->tracked = true;
                }
            }
            out->qt++;
            out->qbytes += len;
            if (out->qbytes > out->qbytes_max) out->qbytes_max = out->qbytes;
        }
    }
}

static void send_cnps(struct sw *s, uint32_t f_units, uint64_t tsc)
{
    struct cpstate *cp = s->cp;
    size_t n = rocc_ft_select(&cp->ft, dp_cycles_to_ps(tsc - s->t0, s->hz), cp->sel, FT_CAP);

    for (size_t i = 0; i < n; i++) {
        const struct flowinfo *fi = &cp->fi[cp->sel[i] & (FT_CAP - 1)];
        const struct route *rt = route_lookup(s, fi->src_ip);
        struct rocc_cnp c = {.rate_units = f_units, .cp_id = cp->cp_id, .src_ip = fi->src_ip,
                             .dst_ip = fi->dst_ip, .sport = fi->sport, .dport = ROCC_ROCEV2_UDP_PORT,
                             .dest_qpn = fi->qpn, .psn = fi->psn};
        struct egress *out;
        struct rte_mbuf *m;
        uint8_t *p;

        if (!rt) { cp->cnp_noroute++; continue; }
        out = &s->eg[rt->port];
        if (out->ct - out->ch >= CSLOTS) { out->cnp_drop++; continue; }
        m = rte_pktmbuf_alloc(s->pool);
        if (!m) { cp->cnp_alloc_fail++; continue; }
        p = (uint8_t *)rte_pktmbuf_append(m, PKT_CNP_FRAME_LEN);
        if (!p || !pkt_build_cnp(p, PKT_CNP_FRAME_LEN, out->mac, rt->mac, cp->cp_ip, fi->src_ip, &c)) {
            rte_pktmbuf_free(m);
            cp->cnp_alloc_fail++;
            continue;
        }
        out->c[out->ct++ & (CSLOTS - 1)] = m;
        cp->cnps++;
    }
}

static void cp_tick(struct sw *s, uint64_t tsc)
{
    struct cpstate *cp = s->cp;
    uint64_t q = s->eg[cp->port].qbytes;   /* data queue only: CNPs are excluded */
    uint32_t f = rocc_cp_update(&cp->cp, &cp->p, q);

    cp->samples++;
    cp->qsum_bytes += q;
    if (f < cp->f_min_seen) cp->f_min_seen = f;
    if (f > cp->f_max_seen) cp->f_max_seen = f;
    /* docs/rocc.md: no CNPs while F = Fmax unless asked (they constrain nobody). */
    if (f < cp->p.f_max || cp->cnp_at_fmax) send_cnps(s, f, tsc);
}

/* Strict priority: all queued CNPs first, then data while the bucket allows. */
static unsigned tx_port(struct sw *s, uint16_t port, uint64_t tsc)
{
    struct egress *e = &s->eg[port];
    struct rte_mbuf *tx[DP_BURST];
    unsigned n = 0, nc = 0;
    uint16_t sent;

    if (e->rate_bps) {
        e->tokens += (double)(tsc - e->last_tsc) * (double)e->rate_bps / 8.0 / (double)s->hz;
        if (e->tokens > (double)s->burst_bytes) e->tokens = (double)s->burst_bytes;
    }
    e->last_tsc = tsc;
    while (e->ch != e->ct && n < DP_BURST) {
        struct rte_mbuf *m = e->c[e->ch++ & (CSLOTS - 1)];
        if (e->rate_bps) e->tokens -= rte_pktmbuf_pkt_len(m) + PKT_WIRE_OVERHEAD;
        tx[n++] = m;
        nc++;
    }
    while (e->qh != e->qt && n < DP_BURST) {
        struct qent *q = &e->q[e->qh & (QSLOTS - 1)];
        if (e->rate_bps && e->tokens < (double)(q->len + PKT_WIRE_OVERHEAD)) break;
        if (e->rate_bps) e->tokens -= q->len + PKT_WIRE_OVERHEAD;
        e->qh++;
        e->qbytes -= q->len;
        if (q->tracked) rocc_ft_on_dequeue(&s->cp->ft, q->key);
        tx[n++] = q->m;
    }
    if (!n) return 0;
    sent = rte_eth_tx_burst(port, 0, tx, (uint16_t)n);
    for (unsigned i = sent; i < n; i++) {
        rte_pktmbuf_free(tx[i]);
        e->drop_tx++;
    }
    for (unsigned i = 0; i < sent; i++) {
        if (i < nc) e->cnp_tx++;
        else { e->tx_pkts++; e->tx_bytes += rte_pktmbuf_pkt_len(tx[i]); }
    }
    return n;
}

static void print_stats(const struct sw *s)
{
    for (uint16_t p = 0; p < s->nports; p++) {
        const struct egress *e = &s->eg[p];
        printf("final port %u rx_pkts=%" PRIu64 " rx_bytes=%" PRIu64 " tx_pkts=%" PRIu64
               " tx_bytes=%" PRIu64 " drops_qfull=%" PRIu64 " drops_tx=%" PRIu64
               " queue_max_bytes=%" PRIu64 " cnp_tx=%" PRIu64 " cnp_drop=%" PRIu64 "\n",
               p, e->rx_pkts, e->rx_bytes, e->tx_pkts, e->tx_bytes, e->drop_qfull, e->drop_tx,
               e->qbytes_max, e->cnp_tx, e->cnp_drop);
    }
    if (s->cp->on) {
        const struct cpstate *cp = s->cp;
        printf("final cp port=%u samples=%" PRIu64 " cnps_sent=%" PRIu64 " F_last=%d F_min=%u F_max=%u"
               " F_last_mbps=%" PRIu64 " q_mean_bytes=%.0f md_fmin=%" PRIu64 " md_half=%" PRIu64
               " pi=%" PRIu64 " cnp_noroute=%" PRIu64 " cnp_alloc_fail=%" PRIu64 " flowinfo_full=%" PRIu64
               " ft_full=%" PRIu64 "\n",
               cp->port, cp->samples, cp->cnps, cp->cp.f, cp->f_min_seen, cp->f_max_seen,
               rocc_cp_rate_bps(&cp->p, (uint32_t)cp->cp.f) / 1000000,
               cp->samples ? (double)cp->qsum_bytes / (double)cp->samples : 0.0, cp->cp.n_md_fmin,
               cp->cp.n_md_half, cp->cp.n_pi, cp->cnp_noroute, cp->cnp_alloc_fail, cp->fi_full,
               cp->ft.n_full);
    }
    printf("final malformed truncated=%" PRIu64 " not_ipv4=%" PRIu64 " bad_ip_hdr=%" PRIu64
           " noroute=%" PRIu64 " ttl_expired=%" PRIu64 "\n",
           s->bad.n[PKT_ETRUNC], s->bad.n[PKT_ENOTIP4], s->bad.n[PKT_EIPHDR], s->noroute, s->ttl_expired);
    fflush(stdout);
}

static void run(struct sw *s)
{
    uint64_t rep_every = dp_us_to_cycles(s->report_ms * 1000, s->hz), last_rep = rte_get_tsc_cycles();

    for (uint16_t p = 0; p < s->nports; p++) s->eg[p].last_tsc = last_rep;
    if (s->cp->on) s->cp->next_tsc = last_rep + s->cp->period_cyc;
    while (!force_quit) {
        uint64_t tsc = rte_get_tsc_cycles();
        unsigned work = 0;
        bool queued = false;

        for (uint16_t p = 0; p < s->nports; p++) {
            uint32_t before = s->eg[p].qt;
            rx_port(s, p, tsc);
            work += s->eg[p].qt != before;
        }
        if (s->cp->on && tsc >= s->cp->next_tsc) {
            cp_tick(s, tsc);
            s->cp->next_tsc += s->cp->period_cyc;
            /* After a stall, do not replay missed periods back to back. */
            if (s->cp->next_tsc < tsc) s->cp->next_tsc = tsc + s->cp->period_cyc;
        }
        for (uint16_t p = 0; p < s->nports; p++) {
            work += tx_port(s, p, tsc);
            queued |= s->eg[p].qh != s->eg[p].qt || s->eg[p].ch != s->eg[p].ct;
        }
        if (rep_every && tsc - last_rep >= rep_every) {
            const struct cpstate *cp = s->cp;
            if (cp->on)
                printf("cp t=%.3f F=%d F_mbps=%" PRIu64 " q_bytes=%" PRIu64 " cnps=%" PRIu64 "\n",
                       (double)(tsc - s->t0) / (double)s->hz, cp->cp.f,
                       rocc_cp_rate_bps(&cp->p, (uint32_t)cp->cp.f) / 1000000, s->eg[cp->port].qbytes,
                       cp->cnps);
            fflush(stdout);
            last_rep = tsc;
        }
        /* Sleep only when nothing is queued: a shaped queue waiting for
         * tokens must be served on time, or the port runs below its rate. */
        if (!work && !queued) dp_idle(UINT64_MAX, s->hz);
        else if (!work) rte_pause();
    }
}

int main(int argc, char **argv)
{
    struct sw *s;
    int ret, rc = 1;
    uint16_t p;

    ret = rte_eal_init(argc, argv);
    if (ret < 0) { fprintf(stderr, "EAL init failed: %s\n", rte_strerror(rte_errno)); return 1; }
    argc -= ret;
    argv += ret;
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);

    s = calloc(1, sizeof *s);
    if (!s) goto out;
    s->cp = calloc(1, sizeof *s->cp);
    s->nports = rte_eth_dev_count_avail();
    if (!s->cp || s->nports == 0 || s->nports > MAX_PORTS) {
        fprintf(stderr, "need 1..%d ports (one --vdev net_af_packetN,iface=... each), have %u\n",
                MAX_PORTS, s->nports);
        goto out;
    }
    s->eg = calloc(s->nports, sizeof *s->eg);
    if (!s->eg) goto out;
    s->qcap = 300000;
    s->burst_bytes = 4000;
    s->switch_id = 1;
    s->cp_port = -1;
    s->hz = rte_get_tsc_hz();
    if (parse_args(s, argc, argv)) { rc = 2; goto out; }
    if (s->cp_port >= 0 && cp_setup(s)) goto out;

    s->pool = rte_pktmbuf_pool_create("sw_pool", NB_MBUF, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, rte_socket_id());
    if (!s->pool) { fprintf(stderr, "mbuf pool: %s\n", rte_strerror(rte_errno)); goto out; }
    /* Ports are numbered in --vdev order, which is what --route refers to. */
    for (p = 0; p < s->nports; p++) {
        struct rte_ether_addr ea;
        if (dp_port_init(p, s->pool)) goto out_ports;
        rte_eth_macaddr_get(p, &ea);
        memcpy(s->eg[p].mac, ea.addr_bytes, 6);
    }
    s->t0 = rte_get_tsc_cycles();
    printf("ready switch ports=%u routes=%u cp=%d\n", s->nports, s->nroutes, s->cp_port);
    fflush(stdout);

    run(s);
    rc = 0;
    print_stats(s);
out_ports:
    for (uint16_t i = 0; i < p; i++) {
        struct egress *e = &s->eg[i];
        while (e->qh != e->qt) rte_pktmbuf_free(e->q[e->qh++ & (QSLOTS - 1)].m);
        while (e->ch != e->ct) rte_pktmbuf_free(e->c[e->ch++ & (CSLOTS - 1)]);
        dp_port_close(i);
    }
out:
    if (s && s->cp) free(s->cp->ft.e);
    if (s) { free(s->eg); free(s->cp); }
    free(s);
    rte_eal_cleanup();
    return rc;
}
