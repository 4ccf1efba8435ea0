/*
 * rocc_host.c -- a RoCEv2 sender/sink on one DPDK port (issue 5).
 *
 *   rocc-host <EAL args> -- --local-ip A.B.C.D [--gw-mac MAC | --gw-ip A.B.C.D (needed by --flow)]
 *       [--flow dst=IP,rate=Gbps|line,size=BYTES|inf,qpn=N[,start=MS][,dscp=N][,on=MS,off=MS]]...
 *       [--cp-allow PREFIX/LEN] [--cp-bind SWITCH_ID=A.B.C.D ...] [--cnp-key HEX32]
 *       [--line-gbps G] [--payload BYTES]
 *       [--f-unit-mbps N] [--recovery-us US] [--cnp-delay-us US] [--ecn-capable]
 *       [--report-ms MS] [--port N] [--arp-retry-ms MS]
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
#include <rte_pause.h>

#include "dp_common.h"
#include "pkt.h"
#include "rocc_cnpauth.h"
#include "rocc_hostcp.h"
#include "rocc_rp.h"
#include "pfc.h"

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

/* The one global: the signal handler's stop request (DPDK examples idiom). */
static volatile bool force_quit;

static void on_signal(int sig)
{
    (void)sig;
    force_quit = true;
}

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
};

static void usage(FILE *out, const char *prg)
{
    fprintf(out,
        "usage: %s <EAL args> -- --local-ip A.B.C.D   (required; the rest is optional)\n"
        "  [--gw-mac MAC | --gw-ip A.B.C.D]  (required with --flow; without: a pure sink)\n"
        "  [--flow dst=IP,rate=Gbps|line,size=BYTES|inf,qpn=N[,start=MS][,dscp=0..63][,on=MS,off=MS]]...\n"
        "  [--cp-allow PREFIX/LEN]  (CNPs from outside it are counted denied and ignored;\n"
        "                            without it every CNP is: give it whenever there is a --flow)\n"
        "  [--cp-bind SWITCH_ID=A.B.C.D ...]  (a CNP counts only if its CP id's switch is bound to its\n"
        "                            source address; without it any address in --cp-allow may use any id)\n"
        "  [--cnp-key HEX32]  (CNPs must carry a valid SipHash-2-4 tag under this 16-byte key)\n"
        "  [--line-gbps G (1)] [--payload BYTES (1000)] [--f-unit-mbps N (10)]\n"
        "  [--recovery-us US (55)] [--cnp-delay-us US (15)] [--ecn-capable]\n"
        "  [--report-ms MS (500)] [--port N (0)] [--arp-retry-ms MS (100)]\n"
        "  [--pcap FILE] [--pcap-dir rx|tx|both (both)] [--pcap-snaplen N (14..262144, 65535)]\n"
        "  [--pfc] [--pfc-class N (0..7, 0)]  (honour 802.1Qbb PFC from the gateway for that class)\n"
        "  [--escape]  (data frames carry the Escape header between UDP and BTH: docs/dataplane.md)\n"
        "  [--rate-at switch|host_full|host_registry|host (switch)]  (RoCC §3.6: accept CNPs carrying Alg. 1's\n"
        "                            inputs and compute F here; host = both forms)\n"
        "  [--cp-reg ID=QREF:QMID:QMAX:FMIN:FMAX:ALPHA_Q16:BETA_Q16:FLAGS ...]  (registry entry of CP ID, as\n"
        "                            rocc-switch prints it: reg=...; needed by host_registry)\n"
        "  --help, -h: this text\n", prg);
}

/* Says which field of a --flow spec is wrong; -1. */
static int flow_bad(const char *what, const char *key, const char *val)
{
    if (key) fprintf(stderr, "--flow: %s '%s%s%s'\n", what, key, val ? "=" : "", val ? val : "");
    else fprintf(stderr, "--flow: %s\n", what);
    return -1;
}

static int parse_flow(struct host *h, char *spec)
{
    struct flow *f;
    char *save = NULL, *tok;
    bool have_dst = false, have_qpn = false;

    if (h->nflows >= MAX_FLOWS) { fprintf(stderr, "--flow: more than %d flows\n", MAX_FLOWS); return -1; }
    f = &h->flows[h->nflows];
    memset(f, 0, sizeof *f);
    for (tok = strtok_r(spec, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '='), *end;
        if (!eq) return flow_bad("field without '=' (want key=value):", tok, NULL);
        *eq++ = 0;
        if (!strcmp(tok, "dst")) {
            if (pkt_parse_ip(eq, &f->dst_ip)) return flow_bad("dst is not an IPv4 address:", tok, eq);
            have_dst = true;
        } else if (!strcmp(tok, "rate")) {
            if (!strcmp(eq, "line")) f->app_bps = 0;
            else {
                double g = strtod(eq, &end);
                if (end == eq || *end || !(g > 0)) return flow_bad("rate must be Gb/s > 0 or 'line':", tok, eq);
                f->app_bps = (uint64_t)(g * 1e9);
            }
        } else if (!strcmp(tok, "size")) {
            if (!strcmp(eq, "inf")) f->size_bytes = 0;
            else {
                f->size_bytes = strtoull(eq, &end, 10);
                if (*eq < '0' || *eq > '9' || *end || f->size_bytes == 0)
                    return flow_bad("size must be payload bytes > 0 or 'inf':", tok, eq);
            }
        } else if (!strcmp(tok, "start")) {
            f->start_ms = strtoull(eq, &end, 10);
            if (*eq < '0' || *eq > '9' || *end || f->start_ms > 86400000)
                return flow_bad("start must be ms after start, 0..86400000:", tok, eq);
        } else if (!strcmp(tok, "qpn")) {
            unsigned long q = strtoul(eq, &end, 10);
            if (*eq < '0' || *eq > '9' || *end || q > 0xffffff) return flow_bad("qpn must be 0..16777215:", tok, eq);
            f->qpn = (uint32_t)q;
            have_qpn = true;
        } else if (!strcmp(tok, "dscp")) {
            unsigned long d = strtoul(eq, &end, 10);
            if (*eq < '0' || *eq > '9' || *end || d > 63) return flow_bad("dscp must be 0..63:", tok, eq);
            f->dscp = (uint8_t)d;
        } else if (!strcmp(tok, "on") || !strcmp(tok, "off")) {
            uint64_t v = strtoull(eq, &end, 10);
            if (*eq < '0' || *eq > '9' || *end || v == 0 || v > 3600000)
                return flow_bad("on and off must be ms, 1..3600000:", tok, eq);
            if (tok[1] == 'n') f->on_ms = v;
            else f->off_ms = v;
        } else return flow_bad("unknown key (dst, rate, size, qpn, start, dscp, on, off):", tok, eq);
    }
    if (!f->on_ms != !f->off_ms) return flow_bad("on=MS and off=MS go together", NULL, NULL);
    if (!have_dst) return flow_bad("missing dst=IP", NULL, NULL);
    if (!have_qpn) return flow_bad("missing qpn=N", NULL, NULL);
    /* UDP source port as RoCEv2 entropy: fixed per QP so ECMP keeps order. */
    f->sport = (uint16_t)(0xC000 | (f->qpn & 0x3fff));
    h->nflows++;
    return 0;
}

/* --cp-reg ID=QREF:QMID:QMAX:FMIN:FMAX:ALPHA_Q16:BETA_Q16:FLAGS: ID decimal
 * or 0x hex, the rest decimal in the CP's units (ΔQ, ΔF, Q16.16), FLAGS as
 * HOST_FULL's flags byte (1 pi_round authors, 2 md_qmax half).  Checked by
 * rocc_hostreg_add (rocc_cp_params_check's rules); says why on stderr. */
static int parse_cp_reg(struct host *h, char *arg)
{
    char *eq = strchr(arg, '='), *end, *tok, why[96];
    unsigned long long v[9];
    struct rocc_cp_params p;
    int n = 0;

    if (!eq || *arg < '0' || *arg > '9') return -1;
    *eq = 0;
    v[n] = strtoull(arg, &end, 0);
    if (*end || v[n] > UINT32_MAX) return -1;
    for (n = 1, tok = eq + 1; n < 9; n++) {
        if (*tok < '0' || *tok > '9') return -1;
        v[n] = strtoull(tok, &end, 10);
        if (v[n] > UINT32_MAX || (n < 8 && *end != ':') || (n == 8 && *end)) return -1;
        tok = end + 1;
    }
    if (v[8] & ~3ull) return -1;
    memset(&p, 0, sizeof p);
    p.q_unit_bytes = 1;               /* unused at the host: Qcur arrives in units */
    p.f_unit_mbps = 1;
    p.period_ps = 1;                  /* unused at the host: the CP keeps time */
    p.q_ref = (uint32_t)v[1]; p.q_mid = (uint32_t)v[2]; p.q_max = (uint32_t)v[3];
    p.f_min = (uint32_t)v[4]; p.f_max = (uint32_t)v[5]; p.f_init = p.f_max;
    p.alpha_q16 = (uint32_t)v[6]; p.beta_q16 = (uint32_t)v[7];
    p.pi_round = (v[8] & ROCC_CNP_HF_PI_AUTHORS) ? ROCC_CP_ROUND_AUTHORS : ROCC_CP_ROUND_TRUNC;
    p.md_qmax = (v[8] & ROCC_CNP_HF_MDQ_HALF) ? ROCC_CP_MDQ_HALF : ROCC_CP_MDQ_FMIN;
    if (!h->reg.ent) rocc_hostreg_init(&h->reg, h->reg_ent, MAX_REG, h->reg_prof, MAX_REG);
    if (rocc_hostreg_add(&h->reg, (uint32_t)v[0], &p, why, sizeof why)) {
        fprintf(stderr, "--cp-reg: %s\n", why);
        return -1;
    }
    rocc_hostreg_seal(&h->reg);       /* set-up only: sorted after every entry */
    return 0;
}

static int parse_args(struct host *h, int argc, char **argv)
{
    static const struct option opts[] = {
        {"local-ip", required_argument, NULL, 'i'}, {"gw-mac", required_argument, NULL, 'g'},
        {"flow", required_argument, NULL, 'f'}, {"cp-allow", required_argument, NULL, 'a'},
        {"cp-bind", required_argument, NULL, 'B'}, {"cnp-key", required_argument, NULL, 'K'},
        {"line-gbps", required_argument, NULL, 'l'}, {"payload", required_argument, NULL, 's'},
        {"f-unit-mbps", required_argument, NULL, 'u'}, {"recovery-us", required_argument, NULL, 'r'},
        {"report-ms", required_argument, NULL, 'R'}, {"port", required_argument, NULL, 'p'},
        {"gw-ip", required_argument, NULL, 1}, {"cnp-delay-us", required_argument, NULL, 2},
        {"ecn-capable", no_argument, NULL, 3}, {"arp-retry-ms", required_argument, NULL, 4},
        {"pcap", required_argument, NULL, 5}, {"pcap-dir", required_argument, NULL, 6},
        {"pcap-snaplen", required_argument, NULL, 7},
        {"pfc", no_argument, NULL, 8}, {"pfc-class", required_argument, NULL, 9},
        {"escape", no_argument, NULL, 10},
        {"rate-at", required_argument, NULL, 11}, {"cp-reg", required_argument, NULL, 12},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int c, idx = -1;
    char *end;
    const char *optname = "";
    char orig[256] = "";

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", opts, &idx)) != -1) {
        optname = idx >= 0 ? opts[idx].name : "";
        /* The value as given: the parsers below split it in place. */
        snprintf(orig, sizeof orig, "%s", optarg ? optarg : "");
        idx = -1;
        if (c == '?' || c == ':') {
            fprintf(stderr, "unknown option or missing value: %s\n", argv[optind - 1]);
            goto bad_nomsg;
        }
        switch (c) {
        case 'i': if (pkt_parse_ip(optarg, &h->local_ip) || !h->local_ip) goto bad; h->have_ip = true; break;
        case 'g': if (pkt_parse_mac(optarg, h->gw_mac)) goto bad; h->have_gw = h->gw_static = true; break;
        case 1: if (pkt_parse_ip(optarg, &h->gw_ip) || !h->gw_ip) goto bad; break;
        case 2:
            h->cnp_delay_us = strtoull(optarg, &end, 10);
            if (*optarg < '0' || *optarg > '9' || *end || h->cnp_delay_us > 1000000) goto bad;
            break;
        case 3: h->ecn_capable = true; break;
        case 4:
            h->arp_retry_ms = strtoull(optarg, &end, 10);
            if (*optarg < '0' || *optarg > '9' || *end || !h->arp_retry_ms || h->arp_retry_ms > 60000) goto bad;
            break;
        case 5: h->pcap_path = optarg; break;
        case 6: if (dp_cap_parse_dir(&h->cap, optarg)) goto bad; break;
        case 7: {
            unsigned long v = strtoul(optarg, &end, 10);
            if (*optarg < '0' || *optarg > '9' || *end || v < 14 || v > 262144) goto bad;
            h->pcap_snaplen = (uint32_t)v;
            break;
        }
        case 8: h->pfc = true; break;
        case 10: h->escape = true; break;
        case 9: {
            unsigned long c = strtoul(optarg, &end, 10);
            if (*optarg < '0' || *optarg > '9' || *end || c >= PFC_NCLASS) goto bad;
            h->pfc_cls = (uint8_t)c;
            break;
        }
        case 11:
            h->rate_at = optarg;
            if (!strcmp(optarg, "switch")) h->cnp_pol.forms = 0;
            else if (!strcmp(optarg, "host_full")) h->cnp_pol.forms = 1u << ROCC_CNP_FORM_HOST_FULL;
            else if (!strcmp(optarg, "host_registry")) h->cnp_pol.forms = 1u << ROCC_CNP_FORM_HOST_REG;
            else if (!strcmp(optarg, "host")) h->cnp_pol.forms = ROCC_CNP_FORMS_HOST;
            else goto bad;
            break;
        case 12: if (parse_cp_reg(h, optarg)) goto bad; break;
        case 'h': usage(stdout, argv[0]); return 1;   /* asked for: not an error */
        case 'f': if (parse_flow(h, optarg)) goto bad; break;
        case 'a':
            if (pkt_parse_prefix(optarg, &h->allow_net, &h->allow_mask)) goto bad;
            h->have_allow = true;
            break;
        case 'B': {
            char *eq = strchr(optarg, '=');
            unsigned long long id;
            if (!eq || h->cnp_pol.nbind >= MAX_BIND || *optarg < '0' || *optarg > '9') goto bad;
            *eq = 0;
            id = strtoull(optarg, &end, 10);
            if (*end || id > 0xffffff || pkt_parse_ip(eq + 1, &h->bind[h->cnp_pol.nbind].addr)) goto bad;
            h->bind[h->cnp_pol.nbind++].node = (uint32_t)id;
            h->cnp_pol.bind = h->bind;
            break;
        }
        case 'K':
            if (rocc_cnp_parse_key(optarg, h->key)) goto bad;
            h->cnp_pol.key = h->key;
            break;
        case 'l': {
            double g = strtod(optarg, &end);
            if (*end || g <= 0) goto bad;
            h->line_bps = (uint64_t)(g * 1e9);
            break;
        }
        case 's': h->payload = (uint32_t)strtoul(optarg, &end, 10); if (*end || h->payload > 1400) goto bad; break;
        case 'u': h->f_unit_mbps = (uint32_t)strtoul(optarg, &end, 10); if (*end || !h->f_unit_mbps) goto bad; break;
        case 'r': h->recovery_us = strtoull(optarg, &end, 10); if (*end || !h->recovery_us) goto bad; break;
        case 'R': h->report_ms = strtoull(optarg, &end, 10); if (*end) goto bad; break;
        case 'p': h->port = (uint16_t)strtoul(optarg, &end, 10); if (*end) goto bad; break;
        default: goto bad;
        }
    }
    if (optind < argc) { fprintf(stderr, "unexpected argument: %s\n", argv[optind]); goto bad_nomsg; }
    if (!h->have_ip) { fprintf(stderr, "--local-ip is required\n"); goto bad_nomsg; }
    if (h->nflows && !h->have_gw && !h->gw_ip) {
        fprintf(stderr, "--flow needs --gw-mac or --gw-ip (resolved by ARP)\n");
        goto bad_nomsg;
    }
    return 0;
bad:
    fprintf(stderr, "bad value for --%s: '%s'\n", optname, orig);
bad_nomsg:
    usage(stderr, argv[0]);
    return -1;
}

static uint64_t now_ps(const struct host *h, uint64_t tsc) { return dp_cycles_to_ps(tsc - h->t0, h->hz); }

static uint64_t flow_rate_bps(const struct host *h, const struct flow *f)
{
    uint64_t r = rocc_rp_rate_bps(&f->rp, &h->rpp);
    if (f->app_bps && f->app_bps < r) r = f->app_bps;
    return r;
}

/* Cycles between two frames of f at its current rate.  Cached per flow
 * while the rate stays the same: the 128-bit division costs more than
 * building a small frame, and at high rates this runs per frame. */
static uint64_t gap_cycles(const struct host *h, struct flow *f, uint32_t wire_bytes)
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

static uint32_t frame_wire(const struct host *h)
{
    return PKT_ROCE_HDRS + (h->escape ? PKT_ESC_LEN : 0) + h->payload + PKT_WIRE_OVERHEAD;
}

/* The flow's rate changed from old_bps: the next frame leaves one new gap
 * after the last one's *scheduled* departure (docs/rocc.md, RP section).
 * Measuring from the actual departure instead would drop the last frame's
 * lateness (a wake-up after a sleep, often 50-150 us here) at every CNP, which
 * measured ~17% below an application cap of 30 or 90 Mb/s.  A CNP that leaves
 * the effective rate unchanged (F above the application cap) changes nothing. */
static void repace(const struct host *h, struct flow *f, uint64_t old_bps)
{
    if (!f->last_sched || flow_rate_bps(h, f) == old_bps) return;
    f->next_tsc = f->last_sched + gap_cycles(h, f, frame_wire(h));
}

static struct sink *sink_get(struct host *h, uint32_t src, uint32_t qpn)
{
    for (unsigned i = 0; i < h->nsinks; i++)
        if (h->sinks[i].src_ip == src && h->sinks[i].qpn == qpn) return &h->sinks[i];
    if (h->nsinks >= MAX_SINK) return NULL;
    h->sinks[h->nsinks] = (struct sink){.src_ip = src, .qpn = qpn};
    return &h->sinks[h->nsinks++];
}

/* A CNP's rate takes effect now (Alg. 2 RECEIVED_CNP). */
static void apply_cnp(struct host *h, uint32_t idx, uint32_t rate_units, uint32_t cp_id, uint64_t tsc)
{
    struct flow *fl = &h->flows[idx];
    uint64_t old_bps = flow_rate_bps(h, fl);

    if (rocc_rp_on_cnp(&fl->rp, &h->rpp, rate_units, cp_id, now_ps(h, tsc)))
        repace(h, fl, old_bps);   /* takes effect on the next frame */
    else
        h->cnp_rejected++;
}

static void handle_cnp(struct host *h, const uint8_t *f, const struct pkt_info *pi, uint64_t tsc)
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
static void send_now(struct host *h, struct rte_mbuf *m, uint64_t tsc)
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

static void gw_request(struct host *h, uint64_t tsc)
{
    static const uint8_t bc[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, zero[6];
    send_arp(h, PKT_ARP_REQUEST, bc, zero, h->gw_ip, tsc);
    h->arp_req_tx++;
    h->next_arp_tsc = tsc + h->arp_retry_cyc;
}

static void handle_arp(struct host *h, const uint8_t *f, uint32_t len, uint64_t tsc)
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
static void echo_reply(struct host *h, const uint8_t *f, const struct pkt_info *pi, uint64_t tsc)
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
static void handle_pfc(struct host *h, const uint8_t *f, uint32_t len, uint64_t tsc)
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

static void handle_rx(struct host *h, struct rte_mbuf *m, uint64_t tsc)
{
    struct pkt_info pi;
    const uint8_t *f;
    int r;

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
            if (tsc - f->next_tsc > slack) f->next_tsc = tsc - slack;
            f->last_sched = f->next_tsc;
            m = rte_pktmbuf_alloc(h->pool);
            if (!m) { h->alloc_fail++; return n; }
            p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)flen);
            if (!p || (h->escape ? pkt_build_roce_esc : pkt_build_roce)(p, flen, h->mac, h->gw_mac, h->local_ip,
                                                                          f->dst_ip, f->sport, f->qpn, f->psn,
                                                                          h->payload) != flen) {
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
    char a[16], b[16];

    for (unsigned i = 0; i < h->nflows; i++) {
        struct flow *f = &h->flows[i];
        printf("tx t=%.3f dst=%s qpn=%u mbps=%.1f rp_mbps=%.1f limited=%u cnps=%" PRIu64 "\n", t,
               pkt_ip_str(f->dst_ip, a, sizeof a), f->qpn,
               (double)(f->sent_wire - f->last_rep_wire) * 8 / dt / 1e6,
               (double)flow_rate_bps(h, f) / 1e6, f->rp.limited, f->cnps);
        f->last_rep_wire = f->sent_wire;
    }
    for (unsigned i = 0; i < h->nsinks; i++) {
        struct sink *s = &h->sinks[i];
        printf("rx t=%.3f src=%s qpn=%u mbps=%.1f\n", t, pkt_ip_str(s->src_ip, b, sizeof b), s->qpn,
               (double)(s->wire - s->last_rep_wire) * 8 / dt / 1e6);
        s->last_rep_wire = s->wire;
    }
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
    dp_cap_print_final(&h->cap, h->pcap_path);
    fflush(stdout);
}

static void run(struct host *h)
{
    struct rte_mbuf *rx[DP_BURST], *tx[DP_BURST];
    uint64_t rep_every = dp_us_to_cycles(h->report_ms * 1000, h->hz);
    uint64_t last_rep = rte_get_tsc_cycles();

    while (!force_quit) {
        uint64_t tsc = rte_get_tsc_cycles(), tps = now_ps(h, tsc), earliest = UINT64_MAX;
        uint16_t nrx = rte_eth_rx_burst(h->port, 0, rx, DP_BURST), ntx = 0;
        unsigned nb;
        bool paused;

        for (uint16_t i = 0; i < nrx; i++) {
            handle_rx(h, rx[i], tsc);
            rte_pktmbuf_free(rx[i]);
        }
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
                if (!h->flows[i].done && h->flows[i].next_tsc < earliest) earliest = h->flows[i].next_tsc;
            /* A CNP waiting out the NIC delay is applied on time: spin
             * (15 µs per CNP), where a sleep would take 60-80 µs here. */
            if (h->cq_h != h->cq_t) rte_pause();
            else if (paused) dp_idle(UINT64_MAX, h->hz);   /* until the XON or the pause runs out */
            else dp_idle(earliest > tsc ? earliest - tsc : 0, h->hz);
        }
    }
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
    ret = parse_args(h, argc, argv);
    if (ret) { rte_eal_cleanup(); free(h); return ret > 0 ? 0 : 2; }   /* > 0: --help */
    if (!rte_eth_dev_is_valid_port(h->port)) {
        fprintf(stderr, "port %u not available (pass --vdev net_af_packet0,iface=...)\n", h->port);
        rte_eal_cleanup(); free(h); return 1;
    }
    rocc_rp_params_default(&h->rpp, h->line_bps);
    if (h->f_unit_mbps) h->rpp.f_unit_mbps = h->f_unit_mbps;
    if (h->recovery_us) h->rpp.recovery_ps = h->recovery_us * 1000000ull;
    for (unsigned i = 0; i < h->nflows; i++) rocc_rp_init(&h->flows[i].rp);

    h->pool = rte_pktmbuf_pool_create("host_pool", NB_MBUF, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
                                      rte_socket_id());
    if (!h->pool) { fprintf(stderr, "mbuf pool: %s\n", rte_strerror(rte_errno)); rte_eal_cleanup(); free(h); return 1; }
    if (dp_port_init(h->port, h->pool)) { rte_eal_cleanup(); free(h); return 1; }
    rte_eth_macaddr_get(h->port, &ea);
    memcpy(h->mac, ea.addr_bytes, 6);

    h->hz = rte_get_tsc_hz();
    h->arp_retry_cyc = dp_us_to_cycles(h->arp_retry_ms * 1000, h->hz);
    h->cnp_delay_cyc = dp_us_to_cycles(h->cnp_delay_us, h->hz);
    if (dp_cap_open(&h->cap, h->pcap_path, h->pcap_snaplen, h->hz)) {
        dp_port_close(h->port); rte_eal_cleanup(); free(h); return 1;
    }
    h->t0 = rte_get_tsc_cycles();
    for (unsigned i = 0; i < h->nflows; i++) {
        h->flows[i].start_tsc = h->t0 + dp_us_to_cycles(h->flows[i].start_ms * 1000, h->hz);
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
               " cnp_delay_us=%" PRIu64 " cp_bind=%zu cnp_key=%s rate_at=%s cp_reg=%zu gw=%s cp_allow=%s",
               h->nflows, h->line_bps / 1000000, h->rpp.f_unit_mbps, h->rpp.recovery_ps / 1000000,
               h->cnp_delay_us, h->cnp_pol.nbind, h->cnp_pol.key ? "yes" : "no",
               h->rate_at ? h->rate_at : "switch", h->reg.n, h->gw_static ? "static" : h->gw_ip ? "arp" : "none", an);
        if (h->have_allow) printf("/%u", plen);
        printf("\n");
    }
    fflush(stdout);

    run(h);

    rc = dp_cap_close(&h->cap, h->pcap_path) ? 1 : 0;
    final_stats(h);
    dp_port_close(h->port);
    rte_eal_cleanup();
    free(h);
    return rc;
}
