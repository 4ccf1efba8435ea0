/*
 * sw_args.c -- rocc-switch's command line: the usage text and the option
 * parser (rocc_switch.c's header comment lists the options; docs/
 * dataplane.md documents them).  Values that need a port's rate (the CP
 * parameters) are kept in struct sw's o_* fields and applied by cp_setup
 * (sw_cp.c) once every option is known.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sw.h"
#include "lscc.h"

void usage(FILE *out, const char *prg)
{
    fprintf(out,
        "usage: %s <EAL args: one --vdev per port, at most 8> -- [options]   (all optional)\n"
        "  [--route PREFIX/LEN=PORT[,MAC|,via=A.B.C.D] ...]  (none: every frame is counted noroute)\n"
        "  --cp PORT needs --cp-ip A.B.C.D and --egress-rate PORT=Gbps; --help, -h: this text\n"
        "  [--port-ip PORT=A.B.C.D ...] [--egress-rate PORT=Gbps ...]\n"
        "  [--cp PORT ... --cp-ip A.B.C.D] [--flow-table queue|bounded|trap|afd|bubble (queue)] [--ft-cap N (1024)]\n"
        "  [--ecn PORT=KMIN_BYTES,KMAX_BYTES,PMAX ...]\n"
        "  [--qref B] [--qmid B] [--qmax B] [--period US]\n"
        "  [--q-unit B] [--f-unit-mbps N] [--fmin UNITS] [--alpha X] [--beta X] [--cnp-at-fmax]\n"
        "  [--qcap BYTES (300000)] [--burst BYTES (4000)] [--switch-id N (1)] [--report-ms MS (0)]\n"
        "  [--arp-retry-ms MS (100)] [--arp-tries N (3)] [--arp-hold-ms MS (1000)] [--arp-ttl-s S (60)]\n"
        "  [--pcap FILE] [--pcap-dir rx|tx|both (both)] [--pcap-snaplen N (14..262144, 65535)] [--busy-poll]\n"
        "  [--cp-timing] [--host-port PORT ...] [--cp-peer SWITCH_ID=A.B.C.D ...] [--cnp-key HEX32]\n"
        "  [--rate-at switch|host_full|host_registry (switch)]  (RoCC §3.6: who computes F)\n"
        "  [--no-cnp-filter]  (tests only: forward every ICMP 253 in the control class, as before issue 11)\n"
        "  [--pfc] [--pfc-xoff BYTES (125000)] [--pfc-xon BYTES (10000)] [--pfc-quanta N (1..65535, 65535)]\n"
        "  [--pfc-class dscp|0..7 (dscp: DSCP >> 3)] [--pfc-lossless MASK (0xff)] [--pfc-link-gbps G (1)]\n"
        "  [--escape (needs --pfc)] [--esc-period-us US (100)] [--esc-pool N (1..1024, 64)]\n"
        "  [--esc-reclaim-ms MS (30; 0: off)] [--esc-max-hops N (1..65534, 255)] [--esc-flow-table frames|flows (frames)]\n"
        "  [--esc-reclaim-mode all|one (all)] [--esc-queued-check on|off (on)] [--esc-no-tokens (tests only)]\n"
        "  [--openqueue PORT=FILE ...]  (an OpenQueue policy of one port in place of PORT's FIFO)\n"
        "  [--oq-value dscp|tos|const:V (dscp)] [--oq-value-map DSCP=V[,DSCP=V...]]\n"
        "  [--oq-processing N|uniform:LO-HI|psn:K (1)] [--oq-processing-map DSCP=N[,DSCP=N...]]\n"
        "  [--oq-cycle-ns NS (0: processing takes no time)] [--oq-seed N (1)] [--oq-timing]\n"
        "  [--delay PORT=US ...]  (a delay line after PORT's shaper: a long-haul link, 1..1000000 us)\n"
        "  [--lscc PORT ...]  (LSCC's rate calculation and rate limiting on long-haul PORT; needs --cp-ip and\n"
        "                      --egress-rate PORT; defaults: the paper's values scaled to PORT's rate and delay)\n"
        "  [--lscc-rtt-us US (2 x --delay)] [--lscc-period-us US] [--lscc-n N] [--lscc-qref B] [--lscc-qsref B]\n"
        "  [--lscc-dr-bps B] [--lscc-rmin-bps B] [--lscc-f-unit-bps B] [--lscc-cnp-us US] [--lscc-long-bytes B]\n"
        "  [--lscc-key HEX32]  (feedback frames carry a SipHash-2-4 tag under this 16-byte key and must carry one;\n"
        "                       the same key on both ends of the long-haul link)\n",
        prg);
}

static int parse_port(const struct sw *s, const char *v, uint16_t *port)
{
    uint64_t p;
    if (pkt_parse_u64(v, 0, 0, UINT16_MAX, NULL, &p)) { fprintf(stderr, "'%s' is not a port number\n", v); return -1; }
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
    char *eq = strchr(arg, '=');
    uint16_t port;
    double g;

    if (!eq) return -1;
    *eq++ = 0;
    if (parse_port(s, arg, &port)) return -1;
    if (pkt_parse_dbl(eq, 0, 10000, &g) || !(g > 0)) return -1;
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
    char *eq = strchr(arg, '=');
    const char *p;
    uint64_t kmin, kmax;
    double pmax;
    struct egress *e;
    uint16_t port;

    if (!eq) return -1;
    *eq++ = 0;
    if (parse_port(s, arg, &port)) return -1;
    e = &s->eg[port];
    if (pkt_parse_u64(eq, 0, 0, UINT32_MAX, &p, &kmin) || *p != ',' ||
        pkt_parse_u64(p + 1, 0, kmin + 1, UINT32_MAX, &p, &kmax) || *p != ',' ||
        pkt_parse_dbl(p + 1, 0, 1, &pmax) || !(pmax > 0))
        return -1;
    e->kmin = kmin;
    e->kmax = kmax;
    e->pmax = pmax;
    e->ecn = true;
    return 0;
}

int parse_args(struct sw *s, int argc, char **argv)
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
        {"pfc", no_argument, NULL, 32}, {"pfc-xoff", required_argument, NULL, 33},
        {"pfc-xon", required_argument, NULL, 34}, {"pfc-quanta", required_argument, NULL, 35},
        {"pfc-class", required_argument, NULL, 36}, {"pfc-lossless", required_argument, NULL, 37},
        {"pfc-link-gbps", required_argument, NULL, 38},
        {"escape", no_argument, NULL, 39}, {"esc-period-us", required_argument, NULL, 40},
        {"esc-pool", required_argument, NULL, 41}, {"esc-reclaim-ms", required_argument, NULL, 42},
        {"esc-max-hops", required_argument, NULL, 43}, {"esc-no-tokens", no_argument, NULL, 44},
        {"esc-flow-table", required_argument, NULL, 53},
        {"openqueue", required_argument, NULL, 45}, {"oq-value", required_argument, NULL, 46},
        {"oq-value-map", required_argument, NULL, 47}, {"oq-processing", required_argument, NULL, 48},
        {"oq-processing-map", required_argument, NULL, 49}, {"oq-cycle-ns", required_argument, NULL, 50},
        {"oq-seed", required_argument, NULL, 51}, {"oq-timing", no_argument, NULL, 52},
        {"delay", required_argument, NULL, 56}, {"esc-reclaim-mode", required_argument, NULL, 54}, {"esc-queued-check", required_argument, NULL, 55},
        {"rate-at", required_argument, NULL, 57},
        /* --lscc*: ids from 200 (58 and 63 are getopt's ':' and '?' returns) */
        {"lscc", required_argument, NULL, 200}, {"lscc-rtt-us", required_argument, NULL, 201},
        {"lscc-period-us", required_argument, NULL, 202}, {"lscc-qref", required_argument, NULL, 203},
        {"lscc-qsref", required_argument, NULL, 204}, {"lscc-dr-bps", required_argument, NULL, 205},
        {"lscc-rmin-bps", required_argument, NULL, 206}, {"lscc-f-unit-bps", required_argument, NULL, 207},
        {"lscc-cnp-us", required_argument, NULL, 208}, {"lscc-long-bytes", required_argument, NULL, 209},
        {"lscc-n", required_argument, NULL, 210}, {"lscc-key", required_argument, NULL, 211},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    struct dp_opt o;
    int c;
    uint64_t v, retry_ms = 100, hold_ms = 1000, ttl_s = 60, tries = 3;

    optind = 1;
    opterr = 0;
    for (;;) {
        if (dp_getopt(argc, argv, opts, &o))
            goto bad_nomsg;
        if ((c = o.code) == -1)
            break;
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
        case 1: if (pkt_parse_u64(optarg, 0, 1, UINT32_MAX, NULL, &s->o_qref)) goto bad; break;
        case 2: if (pkt_parse_u64(optarg, 0, 1, UINT32_MAX, NULL, &s->o_qmid)) goto bad; break;
        case 3: if (pkt_parse_u64(optarg, 0, 1, UINT32_MAX, NULL, &s->o_qmax)) goto bad; break;
        case 4: if (pkt_parse_u64(optarg, 0, 1, 10000000, NULL, &s->o_period_us)) goto bad; break;
        case 5: if (pkt_parse_u64(optarg, 0, 1, 1000000, NULL, &s->o_qunit)) goto bad; break;
        case 6: if (pkt_parse_u64(optarg, 0, 1, 1000000, NULL, &s->o_funit)) goto bad; break;
        case 7: if (pkt_parse_u64(optarg, 0, 1, UINT32_MAX, NULL, &s->o_fmin)) goto bad; break;
        case 8: if (pkt_parse_dbl(optarg, 0, 65535, &s->o_alpha) || !(s->o_alpha > 0)) goto bad; break;
        case 9: if (pkt_parse_dbl(optarg, 0, 65535, &s->o_beta) || !(s->o_beta > 0)) goto bad; break;
        case 10: s->cnp_at_fmax = true; break;
        case 11: if (pkt_parse_u64(optarg, 0, 1, UINT32_MAX, NULL, &s->qcap)) goto bad; break;
        case 12: if (pkt_parse_u64(optarg, 0, 1, UINT32_MAX, NULL, &s->burst_bytes)) goto bad; break;
        case 13: if (pkt_parse_u64(optarg, 0, 0, 0xffffff, NULL, &v)) goto bad; s->switch_id = (uint32_t)v; break;
        case 14: if (pkt_parse_u64(optarg, 0, 0, 3600000, NULL, &s->report_ms)) goto bad; break;
        case 15: if (parse_port_ip(s, optarg)) goto bad; break;
        case 16:
            if (!strcmp(optarg, "queue")) s->ft_kind = ROCC_FT_QUEUE;
            else if (!strcmp(optarg, "bounded")) s->ft_kind = ROCC_FT_BOUNDED;
            else if (!strcmp(optarg, "trap")) s->ft_kind = ROCC_FT_ETRAP;
            else if (!strcmp(optarg, "afd")) s->ft_kind = ROCC_FT_AFD;
            else if (!strcmp(optarg, "bubble")) s->ft_kind = ROCC_FT_BUBBLE;
            else goto bad;
            break;
        case 17: if (parse_ecn(s, optarg)) goto bad; break;
        case 18: if (pkt_parse_u64(optarg, 0, 1, 60000, NULL, &retry_ms)) goto bad; break;
        case 19: if (pkt_parse_u64(optarg, 0, 1, 100, NULL, &tries)) goto bad; break;
        case 20: if (pkt_parse_u64(optarg, 0, 0, 3600000, NULL, &hold_ms)) goto bad; break;
        case 21: if (pkt_parse_u64(optarg, 0, 1, 86400, NULL, &ttl_s)) goto bad; break;
        case 22: s->pcap_path = optarg; break;
        case 23: if (dp_cap_parse_dir(&s->cap, optarg)) goto bad; break;
        case 24: if (pkt_parse_u64(optarg, 0, 14, 262144, NULL, &v)) goto bad; s->pcap_snaplen = (uint32_t)v; break;
        case 25: s->busy_poll = true; break;
        case 26:
            if (pkt_parse_u64(optarg, 0, 16, FT_CAP, NULL, &v) || (v & (v - 1))) goto bad;
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
            if (pkt_parse_u64(optarg, 0, 0, 0xffffff, NULL, &v) || pkt_parse_ip(eq + 1, &s->peers[s->npeers].addr)) goto bad;
            s->peers[s->npeers++].node = (uint32_t)v;
            break;
        }
        case 30:
            if (rocc_cnp_parse_key(optarg, s->key)) goto bad;
            s->cnp_pol.key = s->key;
            break;
        case 31: s->no_cnp_filter = true; break;
        case 32: s->pfc = true; break;
        case 39: s->escape = true; break;
        case 40: if (pkt_parse_u64(optarg, 0, 1, 1000000, NULL, &s->esc_period_us)) goto bad; break;
        case 41: if (pkt_parse_u64(optarg, 0, 1, ESLOTS, NULL, &s->esc_pool)) goto bad; break;
        case 42: if (pkt_parse_u64(optarg, 0, 0, 100000, NULL, &s->esc_reclaim_ms)) goto bad; break;
        case 43: if (pkt_parse_u64(optarg, 0, 1, 65534, NULL, &s->esc_max_hops)) goto bad; break;
        case 44: s->esc_no_tokens = true; break;
        case 53:   /* escape.h C3; the simulator's [escape] flow_table */
            if (!strcmp(optarg, "frames")) s->esc_ft_flows = false;
            else if (!strcmp(optarg, "flows")) s->esc_ft_flows = true;
            else goto bad;
            break;
        case 45: {
            char *eq = strchr(optarg, '=');
            uint16_t port;
            if (!eq || !eq[1]) goto bad;
            *eq = 0;
            if (parse_port(s, optarg, &port)) goto bad;
            if (s->oq_file[port]) {
                fprintf(stderr, "--openqueue %u: given twice ('%s' and '%s')\n", port, s->oq_file[port], eq + 1);
                goto bad_nomsg;
            }
            s->oq_file[port] = eq + 1;
            s->any_oq = true;
            break;
        }
        case 46: case 47: case 48: case 49: {
            char why[256];
            int r = c == 46 ? dpoq_parse_value(&s->oqcls, optarg, why, sizeof why)
                  : c == 47 ? dpoq_parse_value_map(&s->oqcls, optarg, why, sizeof why)
                  : c == 48 ? dpoq_parse_processing(&s->oqcls, optarg, why, sizeof why)
                  : dpoq_parse_processing_map(&s->oqcls, optarg, why, sizeof why);
            if (r) { fprintf(stderr, "%s\n", why); goto bad; }
            s->oq_opts = true;
            break;
        }
        case 50: if (pkt_parse_u64(optarg, 0, 0, 1000000000, NULL, &s->oq_cycle_ns)) goto bad; s->oq_opts = true; break;
        case 51: if (pkt_parse_u64(optarg, 0, 0, UINT64_MAX, NULL, &s->oq_seed)) goto bad; s->oq_opts = true; break;
        case 52: s->oq_timing = true; s->oq_opts = true; break;
        case 54:   /* escape.h C6; the simulator's [escape] reclaim */
            if (!strcmp(optarg, "all")) s->esc_reclaim_one = false;
            else if (!strcmp(optarg, "one")) s->esc_reclaim_one = true;
            else goto bad;
            break;
        case 56: {   /* --delay PORT=US (sw_delay.c) */
            char *eq = strchr(optarg, '=');
            uint16_t port;
            uint64_t us;
            if (!eq) goto bad;
            *eq++ = 0;
            if (parse_port(s, optarg, &port) || pkt_parse_u64(eq, 0, 1, 1000000, NULL, &us)) goto bad;
            if (delay_setup(s, port, us)) { fprintf(stderr, "--delay: out of memory\n"); return -1; }
            break;
        }
        case 55:   /* escape.h C10 */
            if (!strcmp(optarg, "on")) s->esc_no_queued = false;
            else if (!strcmp(optarg, "off")) s->esc_no_queued = true;
            else goto bad;
            break;
        case 57:   /* RoCC §3.6; the simulator's [rocc] rate_at */
            if (!strcmp(optarg, "switch")) s->cnp_form = ROCC_CNP_FORM_RATE;
            else if (!strcmp(optarg, "host_full")) s->cnp_form = ROCC_CNP_FORM_HOST_FULL;
            else if (!strcmp(optarg, "host_registry")) s->cnp_form = ROCC_CNP_FORM_HOST_REG;
            else goto bad;
            break;
        case 200: {   /* --lscc PORT (sw_lscc.c) */
            uint16_t port;
            if (parse_port(s, optarg, &port)) goto bad;
            s->lscc_on[port] = true;
            break;
        }
        case 201: if (pkt_parse_u64(optarg, 0, 1, 10000000, NULL, &s->o_lscc_rtt_us)) goto bad; break;
        case 202: if (pkt_parse_u64(optarg, 0, 1, 10000000, NULL, &s->o_lscc_period_us)) goto bad; break;
        case 203: if (pkt_parse_u64(optarg, 0, 1, 1ull << 40, NULL, &s->o_lscc_qref)) goto bad; break;
        case 204: if (pkt_parse_u64(optarg, 0, 1, 1ull << 40, NULL, &s->o_lscc_qsref)) goto bad; break;
        case 205: if (pkt_parse_u64(optarg, 0, 1, 1ull << 48, NULL, &s->o_lscc_dr_bps)) goto bad; break;
        case 206: if (pkt_parse_u64(optarg, 0, 1, 1ull << 48, NULL, &s->o_lscc_rmin_bps)) goto bad; break;
        case 207: if (pkt_parse_u64(optarg, 0, 1, 1ull << 48, NULL, &s->o_lscc_funit_bps)) goto bad; break;
        case 208: if (pkt_parse_u64(optarg, 0, 1, 10000000, NULL, &s->o_lscc_cnp_us)) goto bad; break;
        case 209: if (pkt_parse_u64(optarg, 0, 1, UINT32_MAX, NULL, &s->o_lscc_long_bytes)) goto bad; break;
        case 210: if (pkt_parse_u64(optarg, 0, 1, LSCC_MAX_N, NULL, &s->o_lscc_n)) goto bad; break;
        case 211:   /* --lscc-key HEX32: as --cnp-key (rocc_cnp_parse_key) */
            if (rocc_cnp_parse_key(optarg, s->lscc_key)) goto bad;
            s->lscc_keyp = s->lscc_key;
            break;
        case 33: if (pkt_parse_u64(optarg, 0, 1, UINT32_MAX, NULL, &s->pfc_xoff)) goto bad; break;
        case 34: if (pkt_parse_u64(optarg, 0, 1, UINT32_MAX, NULL, &s->pfc_xon)) goto bad; break;
        case 35: if (pkt_parse_u64(optarg, 0, 1, PFC_QUANTA_MAX, NULL, &s->pfc_quanta)) goto bad; break;
        case 36:
            if (!strcmp(optarg, "dscp")) s->pfc_class = -1;
            else if (pkt_parse_u64(optarg, 0, 0, PFC_NCLASS - 1, NULL, &v)) goto bad;
            else s->pfc_class = (int)v;
            break;
        case 37:
            if (pkt_parse_u64(optarg, 1, 1, 0xff, NULL, &v)) goto bad;
            s->pfc_mask = v;
            break;
        case 38: {
            double g;
            if (pkt_parse_dbl(optarg, 0, 10000, &g) || !(g > 0)) goto bad;
            s->pfc_link_bps = (uint64_t)(g * 1e9);
            break;
        }
        case 'h': usage(stdout, argv[0]); return 1;   /* asked for: not an error */
        default: goto bad;
        }
    }
    if (optind < argc) { fprintf(stderr, "unexpected argument: %s\n", argv[optind]); goto bad_nomsg; }
    s->cnp_pol.bind = s->peers;
    s->cnp_pol.nbind = s->npeers;
    /* Transit: a switch that sends host-form CNPs passes its peers' too. */
    s->cnp_pol.forms = s->cnp_form != ROCC_CNP_FORM_RATE ? ROCC_CNP_FORMS_HOST : 0;
    s->arp_retry_cyc = dp_us_to_cycles(retry_ms * 1000, s->hz);
    s->arp_hold_cyc = dp_us_to_cycles(hold_ms * 1000, s->hz);
    s->arp_ttl_cyc = dp_us_to_cycles(ttl_s * 1000000, s->hz);
    s->arp_tries = (uint32_t)tries;
    if (s->oq_opts && !s->any_oq) {
        fprintf(stderr, "--oq-* options configure --openqueue ports: give --openqueue PORT=FILE\n");
        goto bad_nomsg;
    }
    if (s->any_oq && (s->pfc || s->escape)) {
        fprintf(stderr, "--openqueue with --pfc or --escape is not supported (PFC counts and Escape extraction "
                "work on the built-in FIFO)\n");
        goto bad_nomsg;
    }
    for (uint16_t p = 0; p < s->nports; p++) {
        if (!s->oq_file[p]) continue;
        if (s->cp_on[p] || s->eg[p].ecn) {
            fprintf(stderr, "--openqueue %u: the port also has %s; a policy replaces the FIFO those work on "
                    "(use the policy's mark action for ECN)\n", p, s->cp_on[p] ? "--cp" : "--ecn");
            goto bad_nomsg;
        }
    }
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
    fprintf(stderr, "bad value for --%s: '%s'\n", o.name, o.orig);
bad_nomsg:
    usage(stderr, argv[0]);
    return -1;
}
