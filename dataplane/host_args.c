/* host_args.c -- rocc-host's command line (host.h has the map). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "host_dcqcn.h"

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
        "  [--start-at-ns NS]  (flows' start= counts from this CLOCK_REALTIME instant, ns since the epoch,\n"
        "                            not from the program's start: hosts started one after another begin\n"
        "                            their flows together; refused if it has passed when the port is up)\n"
        "  [--pcap FILE] [--pcap-dir rx|tx|both (both)] [--pcap-snaplen N (14..262144, 65535)]\n"
        "  [--pfc] [--pfc-class N (0..7, 0)]  (honour 802.1Qbb PFC from the gateway for that class)\n"
        "  [--escape]  (data frames carry the Escape header between UDP and BTH: docs/dataplane.md)\n"
        "  [--rate-at switch|host_full|host_registry|host (switch)]  (RoCC §3.6: accept CNPs carrying Alg. 1's\n"
        "                            inputs and compute F here; host = both forms)\n"
        "  [--cp-reg ID=QREF:QMID:QMAX:FMIN:FMAX:ALPHA_Q16:BETA_Q16:FLAGS ...]  (registry entry of CP ID, as\n"
        "                            rocc-switch prints it: reg=...; needed by host_registry)\n"
        "  [--cc rocc|none|dcqcn|rcc|rcc_sender (rocc)]  (rocc: the RoCC RP applies CNPs; none: no congestion\n"
        "                            control, CNPs denied; dcqcn: below; rcc, rcc_sender: RCC, ICNP 2021 -- both ends:\n"
        "                            docs/rcc.md \"Data plane\")\n"
        "  [--rcc-base-rtt-us US (12 us x 25 Gb/s / --line-gbps)] [--rcc-n N (3)] [--rcc-delta D (0.2)]\n"
        "  [--rcc-eta E (0.95)] [--rcc-kp K (1e4 x 12 us / T)] [--rcc-kd K (1e5 x 12 us / T)]\n"
        "  [--rcc-pid-us US (T)] [--rcc-w-min BYTES (1000)] [--rcc-ack-every N (1)]\n"
        "  [--dcqcn rai=MBPS,rhai=MBPS,rmin=MBPS,timer=US,k=US,bc=BYTES,f=N,g=X]\n"
        "                            (DCQCN's RP on RoCEv2 CNPs; defaults: the paper's, dcqcn.h)\n"
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
        char *eq = strchr(tok, '=');
        if (!eq) return flow_bad("field without '=' (want key=value):", tok, NULL);
        *eq++ = 0;
        if (!strcmp(tok, "dst")) {
            if (pkt_parse_ip(eq, &f->dst_ip)) return flow_bad("dst is not an IPv4 address:", tok, eq);
            have_dst = true;
        } else if (!strcmp(tok, "rate")) {
            if (!strcmp(eq, "line")) f->app_bps = 0;
            else {
                double g;
                if (pkt_parse_dbl(eq, 0, 1e4, &g) || !(g > 0))
                    return flow_bad("rate must be Gb/s in (0, 10000] or 'line':", tok, eq);
                f->app_bps = (uint64_t)(g * 1e9);
            }
        } else if (!strcmp(tok, "size")) {
            if (!strcmp(eq, "inf")) f->size_bytes = 0;
            else {
                if (pkt_parse_u64(eq, 0, 1, UINT64_MAX, NULL, &f->size_bytes))
                    return flow_bad("size must be payload bytes, 1..2^64-1, or 'inf':", tok, eq);
            }
        } else if (!strcmp(tok, "start")) {
            if (pkt_parse_u64(eq, 0, 0, 86400000, NULL, &f->start_ms))
                return flow_bad("start must be ms after start, 0..86400000:", tok, eq);
        } else if (!strcmp(tok, "qpn")) {
            uint64_t q;
            if (pkt_parse_u64(eq, 0, 0, 0xffffff, NULL, &q)) return flow_bad("qpn must be 0..16777215:", tok, eq);
            f->qpn = (uint32_t)q;
            have_qpn = true;
        } else if (!strcmp(tok, "dscp")) {
            uint64_t d;
            if (pkt_parse_u64(eq, 0, 0, 63, NULL, &d)) return flow_bad("dscp must be 0..63:", tok, eq);
            f->dscp = (uint8_t)d;
        } else if (!strcmp(tok, "on") || !strcmp(tok, "off")) {
            uint64_t v;
            if (pkt_parse_u64(eq, 0, 1, 3600000, NULL, &v))
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
    char *eq = strchr(arg, '='), why[96];
    const char *tok;
    uint64_t v[9];
    struct rocc_cp_params p;
    int n;

    if (!eq) return -1;
    *eq = 0;
    if (pkt_parse_u64(arg, 1, 0, UINT32_MAX, NULL, &v[0])) return -1;
    for (n = 1, tok = eq + 1; n < 9; n++) {
        if (pkt_parse_u64(tok, 0, 0, n < 8 ? UINT32_MAX : 3, &tok, &v[n]) || *tok != (n < 8 ? ':' : 0)) return -1;
        tok++;
    }
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

int host_parse_args(struct host *h, int argc, char **argv)
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
        {"cc", required_argument, NULL, HOST_OPT_CC}, {"rcc-base-rtt-us", required_argument, NULL, HOST_OPT_RCC_T},
        {"rcc-n", required_argument, NULL, HOST_OPT_RCC_N}, {"rcc-delta", required_argument, NULL, HOST_OPT_RCC_DELTA},
        {"rcc-eta", required_argument, NULL, HOST_OPT_RCC_ETA}, {"rcc-kp", required_argument, NULL, HOST_OPT_RCC_KP},
        {"rcc-kd", required_argument, NULL, HOST_OPT_RCC_KD}, {"rcc-pid-us", required_argument, NULL, HOST_OPT_RCC_PID},
        {"rcc-w-min", required_argument, NULL, HOST_OPT_RCC_WMIN},
        {"rcc-ack-every", required_argument, NULL, HOST_OPT_RCC_ACK},
        {"dcqcn", required_argument, NULL, 14}, {"start-at-ns", required_argument, NULL, 15},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    struct dp_opt o;
    int c;
    uint64_t v;

    optind = 1;
    opterr = 0;
    for (;;) {
        if (dp_getopt(argc, argv, opts, &o))
            goto bad_nomsg;
        if ((c = o.code) == -1)
            break;
        switch (c) {
        case 'i': if (pkt_parse_ip(optarg, &h->local_ip) || !h->local_ip) goto bad; h->have_ip = true; break;
        case 'g': if (pkt_parse_mac(optarg, h->gw_mac)) goto bad; h->have_gw = h->gw_static = true; break;
        case 1: if (pkt_parse_ip(optarg, &h->gw_ip) || !h->gw_ip) goto bad; break;
        case 2: if (pkt_parse_u64(optarg, 0, 0, 1000000, NULL, &h->cnp_delay_us)) goto bad; break;
        case 3: h->ecn_capable = true; break;
        case 4: if (pkt_parse_u64(optarg, 0, 1, 60000, NULL, &h->arp_retry_ms)) goto bad; break;
        case 5: h->pcap_path = optarg; break;
        case 6: if (dp_cap_parse_dir(&h->cap, optarg)) goto bad; break;
        case 7: {
            if (pkt_parse_u64(optarg, 0, 14, 262144, NULL, &v)) goto bad;
            h->pcap_snaplen = (uint32_t)v;
            break;
        }
        case 8: h->pfc = true; break;
        case 10: h->escape = true; break;
        case 9: {
            if (pkt_parse_u64(optarg, 0, 0, PFC_NCLASS - 1, NULL, &v)) goto bad;
            h->pfc_cls = (uint8_t)v;
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
        case HOST_OPT_CC: case HOST_OPT_RCC_T: case HOST_OPT_RCC_N: case HOST_OPT_RCC_DELTA: case HOST_OPT_RCC_ETA:
        case HOST_OPT_RCC_KP: case HOST_OPT_RCC_KD: case HOST_OPT_RCC_PID: case HOST_OPT_RCC_WMIN: case HOST_OPT_RCC_ACK:
            if (c == HOST_OPT_CC && !strcmp(optarg, "dcqcn")) {   /* host_dcqcn.c; the RoCC RP stays as it was */
                if (hdc_opt_cc(h, optarg) || host_rcc_opt(h, c, "rocc")) goto bad;
                break;
            }
            if (c == HOST_OPT_CC && hdc_opt_cc(h, "none")) goto bad;
            if (host_rcc_opt(h, c, optarg)) goto bad;
            break;
        case 14: if (hdc_opt_params(h, optarg)) goto bad_nomsg; break;
        case 15: if (pkt_parse_u64(optarg, 0, 1, UINT64_MAX, NULL, &h->start_at_ns)) goto bad; break;
        case 'h': usage(stdout, argv[0]); return 1;   /* asked for: not an error */
        case 'f': if (parse_flow(h, optarg)) goto bad; break;
        case 'a':
            if (pkt_parse_prefix(optarg, &h->allow_net, &h->allow_mask)) goto bad;
            h->have_allow = true;
            break;
        case 'B': {
            char *eq = strchr(optarg, '=');
            uint64_t id;
            if (!eq || h->cnp_pol.nbind >= MAX_BIND) goto bad;
            *eq = 0;
            if (pkt_parse_u64(optarg, 0, 0, 0xffffff, NULL, &id) || pkt_parse_ip(eq + 1, &h->bind[h->cnp_pol.nbind].addr))
                goto bad;
            h->bind[h->cnp_pol.nbind++].node = (uint32_t)id;
            h->cnp_pol.bind = h->bind;
            break;
        }
        case 'K':
            if (rocc_cnp_parse_key(optarg, h->key)) goto bad;
            h->cnp_pol.key = h->key;
            break;
        case 'l': {
            double g;
            if (pkt_parse_dbl(optarg, 0, 1e4, &g) || !(g * 1e9 >= 1)) goto bad;
            h->line_bps = (uint64_t)(g * 1e9);
            break;
        }
        case 's': if (pkt_parse_u64(optarg, 0, 1, 1400, NULL, &v)) goto bad;   /* 0: a sized flow never ends */ h->payload = (uint32_t)v; break;
        case 'u': if (pkt_parse_u64(optarg, 0, 1, UINT32_MAX, NULL, &v)) goto bad; h->f_unit_mbps = (uint32_t)v; break;
        case 'r': if (pkt_parse_u64(optarg, 0, 1, 3600000000ull, NULL, &h->recovery_us)) goto bad; break;
        case 'R': if (pkt_parse_u64(optarg, 0, 0, 3600000, NULL, &h->report_ms)) goto bad; break;
        case 'p': if (pkt_parse_u64(optarg, 0, 0, UINT16_MAX, NULL, &v)) goto bad; h->port = (uint16_t)v; break;
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
    fprintf(stderr, "bad value for --%s: '%s'\n", o.name, o.orig);
bad_nomsg:
    usage(stderr, argv[0]);
    return -1;
}
