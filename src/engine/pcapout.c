/*
 * pcapout.c -- [output] pcap (pcapout.h, docs/pcap.md): capture points,
 * the tap, packet records -> frame bytes, the files.
 */
#include "engine/pcapout.h"
#include "hpcc_star.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/pcapw.h"
#include "core/units.h"
#include "escape.h"
#include "gfc.h"
#include "hpcc.h"
#include "loopbreak.h"
#include "net/fc_escape.h"
#include "net/fc_gfc.h"
#include "net/fc_loopbreak.h"
#include "roce_frame.h"
#include "rocc_cnp.h"
#include "lscc_fb.h"

const char *const pc_kind_names[PCK_NKINDS] = {
    "data", "ack", "nak", "rocc_cnp", "rocev2_cnp", "qcn_cnm", "junk_cnp",
    "pfc_xoff", "pfc_xon", "escape_etf", "gfc", "lb_token", "other", "direct_int", "lscc_fb",
};

#define FCS 4u                          /* the Ethernet FCS: counted in packet.bytes, not captured */
#define MASK24 0xffffffu
#define PC_BUF (1u << 20)               /* write buffer per file: one write(2) per MB of records */
#define PC_LIMIT_DEFAULT (1ull << 30)   /* pcap_limit: 1 GiB per file unless told */
#define PC_POINTS_MAX 256u

struct pc_point {
    char name[64];                      /* as written: "h0", "sw", "sw->r0" */
    char file[96];                      /* "pcap/h0.pcap" (relative to the run directory) */
    char path[4200];
    uint32_t port;                      /* the point's (first) port: its address in summary.json */
    struct pcapw w;
    int opened, full;                   /* full: pcap_limit reached */
    uint64_t over_limit;                /* frames not written because of pcap_limit */
    uint64_t by_kind[PCK_NKINDS];
    uint64_t retx;                      /* of the data frames: retransmissions */
    int rank;                           /* partitioned runs: the rank that sees its frames (its node's) */
    int rfd;                            /* rank > 0: the unlinked temporary file, to send to rank 0; -1 */
};

struct pcapout {
    const struct cfg_entry *e;          /* the pcap key (errors name it) */
    uint32_t snaplen;
    simtime_t start, stop;
    uint64_t limit;                     /* bytes per file, 0: none */
    struct pc_point *pt;
    uint32_t n_pt;
    uint32_t *tx_pt, *arr_pt;           /* [n_ports]: point of frames a port sends / that arrive over its wire */
    uint32_t *psn_base, *msg_idx;       /* [n_flows]: first PSN and message number on the flow's QP */
    uint64_t mismatch;                  /* frames whose bytes differ in length from the simulated frame */
    int installed;
    uint8_t frame[65536 + 64];
};

/* ---------------------------------------------------------------- addresses */

uint32_t pcapout_ip_of_node(uint32_t node) { return 0x0a000000u | ((node + 1) & MASK24); }

void pcapout_mac_of_port(const struct net *n, uint32_t port, uint8_t mac[6])
{
    uint32_t id = (n->ports[port].node + 1) & MASK24;
    uint16_t local = n->ports[port].local;
    mac[0] = 0x02;                      /* locally administered, unicast */
    mac[1] = (uint8_t)(id >> 16);
    mac[2] = (uint8_t)(id >> 8);
    mac[3] = (uint8_t)id;
    mac[4] = (uint8_t)(local >> 8);
    mac[5] = (uint8_t)local;
}

static uint32_t host_ip(const struct net *n, uint32_t host) { return pcapout_ip_of_node(n->hosts[host].node); }

/* Queue pair number of a flow (both ends use the same): QPN 2 + the QP's
 * index for flows on a [traffic] queue pair, 2 + n_qps + flow index for
 * the others (QPs 0 and 1 are the InfiniBand management QPs). */
static uint32_t qpn_of(const struct net *n, uint32_t fi)
{
    const struct flow *f = &n->flows[fi];
    return (f->qp ? f->qp + 1 : 2 + n->n_qps + fi) & MASK24;
}

/* ------------------------------------------------------------------ frames */

/* HPCC INT record, HPCC_INT_BYTES(5) = 42 bytes (the HPCC simulator's
 * layout, hpcc.h): 5 hop slots of 8 bytes -- line-rate index (3 bits),
 * time in ns (24 bits), tx bytes in 128 B units (20 bits), queue in 80 B
 * units (17 bits), big endian -- then the hop count (16 bits). */
static uint8_t rate_index(uint64_t bps)
{
    static const uint64_t g[7] = { 10, 25, 40, 50, 100, 200, 400 };   /* ours: Gb/s of index 0..6, 7 other */
    for (uint8_t i = 0; i < 7; i++)
        if (bps == g[i] * 1000000000ull)
            return i;
    return 7;
}

static void put_int(const struct net *n, uint32_t pi, uint8_t *out, size_t len)
{
    const struct packet *p = &n->pool.p[pi];
    memset(out, 0, len);
    if (!(p->flags & PF_INT) || !n->intr || len < HPCC_INT_BYTES(INT_MAX_HOPS))
        return;
    const struct int_rec *r = &n->intr[pi];
    uint8_t nh = p->nhop < INT_MAX_HOPS ? p->nhop : INT_MAX_HOPS;
    for (uint8_t h = 0; h < nh; h++) {
        const struct int_hop *x = &r->hop[h];
        uint64_t w = (uint64_t)rate_index(x->rate_bps) << 61 | ((x->ts / 1000) & 0xffffffull) << 37 |
                     ((x->tx_bytes / 128) & 0xfffffull) << 17 | ((x->qlen / 80) & 0x1ffffull);
        for (int b = 0; b < 8; b++)
            out[h * 8 + b] = (uint8_t)(w >> (56 - 8 * b));
    }
    out[HPCC_INT_BYTES(INT_MAX_HOPS) - 2] = 0;
    out[HPCC_INT_BYTES(INT_MAX_HOPS) - 1] = nh;
}

/* An L2 frame for what has no wire form of its own. */
static size_t other_frame(const uint8_t dst[6], const uint8_t src[6], uint8_t *f, size_t cap)
{
    return rf_build_l2(f, cap, dst, src, RF_ETHERTYPE_EXP1, NULL, 0);
}

size_t pcapout_frame(const struct scenario *sc, uint32_t port, uint32_t pi, uint8_t *f, size_t cap, int *kind)
{
    const struct net *n = &sc->net;
    const struct pcapout *pc = sc->pcap;
    const struct packet *p = &n->pool.p[pi];
    uint8_t src[6], dst[6];
    pcapout_mac_of_port(n, port, src);
    pcapout_mac_of_port(n, n->ports[port].peer, dst);
    size_t len = 0;
    *kind = PCK_OTHER;
    const struct flow *fl = p->flow < n->n_flows ? &n->flows[p->flow] : NULL;
    uint32_t mtu = n->cfg.mtu_payload ? n->cfg.mtu_payload : 1;

    switch ((enum pkt_type)p->type) {
    case PKT_DATA:
    case PKT_ACK:
    case PKT_NACK: {
        if (!fl)
            break;
        uint8_t ext[256];
        struct rf_roce r = { .sport = fl->sport, .dest_qpn = qpn_of(n, p->flow), .dscp = (uint8_t)(p->prio << 3),
                             .pre_bth = n->cfg.fc_hdr_bytes, .esc_hops = p->type == PKT_DATA ? p->hops : 0,
                             .ext = ext, .ext_len = fl->hdr_extra < sizeof ext ? fl->hdr_extra : 0 };
        memcpy(r.src_mac, src, 6);
        memcpy(r.dst_mac, dst, 6);
        put_int(n, pi, ext, r.ext_len);
        uint32_t base = pc->psn_base[p->flow], msg = pc->msg_idx[p->flow];
        if (p->type == PKT_DATA) {
            int first = p->seq == 0, last = (p->flags & PF_LAST) != 0;   /* as when it was made */
            r.opcode = first && last ? RF_OP_SEND_ONLY : first ? RF_OP_SEND_FIRST : last ? RF_OP_SEND_LAST : RF_OP_SEND_MIDDLE;
            r.ackreq = (uint8_t)last;
            r.psn = base + (uint32_t)(p->seq / mtu);
            r.src_ip = host_ip(n, fl->src);
            r.dst_ip = host_ip(n, fl->dst);
            r.ecn = p->ecn ? 3 : 2;     /* CE, else ECT(0) */
            r.payload = p->payload;
            *kind = PCK_DATA;
        } else {
            r.opcode = RF_OP_ACK;
            r.has_aeth = 1;
            r.src_ip = host_ip(n, fl->dst);
            r.dst_ip = host_ip(n, fl->src);
            if (p->type == PKT_ACK) {
                r.syndrome = RF_AETH_ACK;
                r.psn = base + (uint32_t)((p->seq + mtu - 1) / mtu) - 1;    /* the last PSN acknowledged */
                r.msn = msg + (p->seq >= fl->size);
                *kind = PCK_ACK;
            } else {
                r.syndrome = RF_AETH_NAK_PSN_SEQ;
                r.psn = base + (uint32_t)(p->seq / mtu);                    /* the PSN expected */
                r.msn = msg;
                *kind = PCK_NAK;
            }
        }
        len = rf_build_roce(f, cap, &r);
        break;
    }
    case PKT_CNP:
        if (p->cnp_kind == CNP_ROCC && fl) {
            struct rocc_cnp c = { .rate_units = p->rate_units, .cp_id = p->cp_id, .src_ip = host_ip(n, fl->src),
                                  .dst_ip = host_ip(n, fl->dst), .sport = fl->sport, .dport = ROCC_ROCEV2_UDP_PORT,
                                  .dest_qpn = qpn_of(n, p->flow), .psn = 0 };
            uint32_t to = p->dst < n->n_hosts ? n->hosts[p->dst].node : 0;
            len = rf_build_rocc_cnp(f, cap, dst, src, pcapout_ip_of_node(p->cnp_src), pcapout_ip_of_node(to),
                                    (uint8_t)(p->prio << 5), &c);
            *kind = PCK_CNP_ROCC;
        } else if (p->cnp_kind == CNP_ECN && fl) {
            struct rf_roce r = { .src_ip = host_ip(n, fl->dst), .dst_ip = host_ip(n, fl->src), .sport = fl->sport,
                                 .dscp = (uint8_t)(p->prio << 3), .opcode = RF_OP_CNP,
                                 .dest_qpn = qpn_of(n, p->flow), .ext_len = RF_CNP_RSVD_LEN };
            memcpy(r.src_mac, src, 6);
            memcpy(r.dst_mac, dst, 6);
            len = rf_build_roce(f, cap, &r);
            *kind = PCK_CNP_ROCEV2;
        } else if (p->cnp_kind == CNP_DINT && fl) {
            /* HPCC*'s direct INT (LSCC §III-D, agent_lscc_int.c): a RoCEv2
             * CNP (opcode 0x81) from the local egress switch to the flow's
             * source, its 16 reserved bytes, then HPCC*'s INT header
             * (HPCC_STAR_INT_BYTES = 45): HPCC's 42-byte record (put_int,
             * the last hop is the long-haul one, queue = Q*) and the 24-bit
             * B field (Mb/s, big endian).  Its length (UDP 85 bytes) tells
             * it from a plain CNP (UDP 40); docs/pcap.md. */
            uint8_t ext[RF_CNP_RSVD_LEN + HPCC_STAR_INT_BYTES];
            memset(ext, 0, RF_CNP_RSVD_LEN);
            put_int(n, pi, ext + RF_CNP_RSVD_LEN, HPCC_INT_BYTES(INT_MAX_HOPS));
            uint8_t *b = ext + RF_CNP_RSVD_LEN + HPCC_INT_BYTES(INT_MAX_HOPS);
            b[0] = (uint8_t)(p->rate_units >> 16);
            b[1] = (uint8_t)(p->rate_units >> 8);
            b[2] = (uint8_t)p->rate_units;
            uint32_t to = p->dst < n->n_hosts ? n->hosts[p->dst].node : 0;
            struct rf_roce r = { .src_ip = pcapout_ip_of_node(p->cnp_src), .dst_ip = pcapout_ip_of_node(to),
                                 .sport = fl->sport, .dscp = (uint8_t)(p->prio << 3), .opcode = RF_OP_CNP,
                                 .dest_qpn = qpn_of(n, p->flow), .ext = ext, .ext_len = sizeof ext };
            memcpy(r.src_mac, src, 6);
            memcpy(r.dst_mac, dst, 6);
            len = rf_build_roce(f, cap, &r);
            *kind = PCK_CNP_DINT;
        } else if (p->cnp_kind == CNP_QCN && fl) {
            /* IEEE 802.1Qau CNM body: version 0 / reserved / QntzFb (6
             * bits), CPID 8, cnmQOffset 2, cnmQDelta 2, encapsulated
             * priority 2, encapsulated DA 6, MSDU length 2.  The simulator
             * keeps only |Fb| (rate_units) and the flow: the rest is 0. */
            uint8_t body[24] = { 0 };
            body[1] = (uint8_t)(p->rate_units & 63);
            body[14] = (uint8_t)(fl->prio << 5);
            uint8_t dmac[6];
            pcapout_mac_of_port(n, n->hosts[fl->dst].port, dmac);
            memcpy(body + 16, dmac, 6);
            len = rf_build_l2(f, cap, dst, src, RF_ETHERTYPE_CNM, body, sizeof body);
            *kind = PCK_CNP_QCN;
        } else {
            /* Junk of the CNP's ICMP type (attack traffic): type 253, code
             * 0, zero body -- a wrong checksum, as the simulator's model. */
            uint32_t to = p->dst < n->n_hosts ? n->hosts[p->dst].node : 0;
            size_t want = p->bytes > FCS + RF_ETH_LEN + RF_IP4_LEN + 4 ? p->bytes - FCS : RF_ETH_LEN + RF_IP4_LEN + 4;
            if (want > cap)
                break;
            memset(f, 0, want);
            rf_put_eth(f, dst, src, RF_ETHERTYPE_IP4);
            rf_put_ip4(f + RF_ETH_LEN, (uint8_t)(p->prio << 5), (uint16_t)(want - RF_ETH_LEN), 1,
                       pcapout_ip_of_node(p->cnp_src), pcapout_ip_of_node(to));
            f[RF_ETH_LEN + RF_IP4_LEN] = ROCC_CNP_ICMP_TYPE;
            len = want;
            *kind = PCK_CNP_JUNK;
        }
        break;
    case PKT_PFC: {
        /* The simulator's PAUSE has no quanta: XOFF holds the class until
         * XON.  On the wire: XOFF = quanta 0xffff (the longest pause, which
         * a sender refreshes), XON = quanta 0 (resume), class p->prio. */
        uint16_t q[8] = { 0 };
        q[p->prio & 7] = p->pfc_on ? 0xffff : 0;
        len = rf_build_pfc(f, cap, src, (uint8_t)(1u << (p->prio & 7)), q);
        *kind = p->pfc_on ? PCK_PFC_XOFF : PCK_PFC_XON;
        break;
    }
    case PKT_FCTL:
        if (p->fc_sub == FC_SUB_ETF && fl) {
            struct esc_token t = { { host_ip(n, fl->src), host_ip(n, fl->dst), fl->sport, ROCC_ROCEV2_UDP_PORT, 17 },
                                   p->hops };
            len = cap >= ESC_ETF_BYTES_NOFCS ? esc_etf_encode(&t, src, f, cap) : 0;
            *kind = PCK_ETF;
        } else if (p->fc_sub == FC_SUB_GFC) {
            struct gfc_frame g = { .enable = (uint8_t)(1u << (p->prio & 7)) };
            memcpy(g.src_mac, src, 6);
            g.rate[p->prio & 7] = (uint16_t)(p->rate_units <= GFC_Q15_ONE ? p->rate_units : GFC_Q15_ONE);
            len = gfc_frame_encode(&g, f, cap);
            *kind = PCK_GFC;
        } else if (p->fc_sub == FC_SUB_LB_DETECT || p->fc_sub == FC_SUB_LB_RELEASE) {
            struct lb_token t = { p->fc_sub == FC_SUB_LB_RELEASE ? LB_TOK_RELEASE : LB_TOK_DETECT, p->hops, p->cp_id,
                                  (uint32_t)p->seq };
            uint8_t tok[LB_TOKEN_BYTES];
            lb_token_encode(&t, tok);
            len = rf_build_l2(f, cap, dst, src, RF_ETHERTYPE_EXP1, tok, sizeof tok);
            *kind = PCK_LB;
        } else if (p->fc_sub == FC_SUB_AGENT) {
            /* LSCC's feedback frame as rocc-switch sends it (lscc_fb.h):
             * the agent carries R in units, the sequence number and the
             * epoch (p->ts) of its sender's counter; the simulator has no
             * key, so type 1, untagged. */
            struct lscc_fb fb = { .units = p->rate_units, .seq = (uint32_t)p->seq, .epoch = (uint64_t)p->ts };
            memcpy(fb.src, src, 6);
            len = lscc_fb_encode(&fb, NULL, f, cap);
            *kind = PCK_LSCC_FB;
        }
        break;
    default:
        break;
    }
    if (len == 0) {
        len = other_frame(dst, src, f, cap);
        *kind = PCK_OTHER;
    }
    /* Ethernet pads a short frame: the simulated size is the truth. */
    size_t want = p->bytes > FCS ? p->bytes - FCS : 0;
    if (len < want && want <= cap) {
        memset(f + len, 0, want - len);
        len = want;
    }
    return len;
}

/* -------------------------------------------------------------------- tap */

static void pc_tap(void *ctx, struct net *n, uint32_t port, uint32_t pi, int arrived)
{
    struct scenario *sc = ctx;
    struct pcapout *pc = sc->pcap;
    uint32_t k = arrived ? pc->arr_pt[port] : pc->tx_pt[port];
    if (k == NONE32)
        return;
    simtime_t now = n->el.now;
    if (now < pc->start)
        return;
    if (now >= pc->stop) {
        n->tap = NULL;                  /* past the window: no cost from here on */
        return;
    }
    struct pc_point *q = &pc->pt[k];
    if (q->w.err)
        return;
    int kind;
    size_t len = pcapout_frame(sc, port, pi, pc->frame, sizeof pc->frame, &kind);
    const struct packet *p = &n->pool.p[pi];
    if (len + FCS != p->bytes && !(p->bytes < FCS + RF_MIN_FRAME && len == RF_MIN_FRAME))
        pc->mismatch++;
    uint32_t incl = len < q->w.snaplen ? (uint32_t)len : q->w.snaplen;
    if (q->full || (pc->limit && q->w.file_bytes + q->w.len + PCAPW_REC_HDR + incl > pc->limit)) {
        q->full = 1;
        q->over_limit++;
        return;
    }
    if (pcapw_write(&q->w, now / 1000, pc->frame, (uint32_t)len) == 0) {
        q->by_kind[kind]++;
        if (kind == PCK_DATA && (p->flags & PF_RETX))
            q->retx++;
    }
}

/* ------------------------------------------------------------ reading keys */

/* "A->B" or "A->B#k": the k-th port of A whose peer is B (k from 1). */
static uint32_t port_named(const struct scenario *sc, const char *tok)
{
    const struct net *n = &sc->net;
    const char *arrow = strstr(tok, "->");
    char a[32], b[32];
    size_t la = (size_t)(arrow - tok);
    const char *rest = arrow + 2, *hash = strchr(rest, '#');
    size_t lb = hash ? (size_t)(hash - rest) : strlen(rest);
    if (la == 0 || la >= sizeof a || lb == 0 || lb >= sizeof b)
        return NONE32;
    memcpy(a, tok, la);
    a[la] = 0;
    memcpy(b, rest, lb);
    b[lb] = 0;
    unsigned long want = 1;
    if (hash) {
        char *end;
        want = strtoul(hash + 1, &end, 10);
        if (*end || end == hash + 1 || want < 2)
            return NONE32;
    }
    uint32_t na = scenario_node(sc, a), nb = scenario_node(sc, b);
    if (na == NONE32 || nb == NONE32)
        return NONE32;
    unsigned long seen = 0;
    for (uint32_t i = 0; i < n->nodes[na].n_ports; i++) {
        uint32_t p = n->nodes[na].first_port + i;
        if (n->ports[n->ports[p].peer].node == nb && ++seen == want)
            return p;
    }
    return NONE32;
}

/* Point k captures port p: what p sends, and what arrives over its peer's wire. */
static int add_port(struct pcapout *pc, const struct net *n, uint32_t k, uint32_t p, uint32_t *clash)
{
    uint32_t peer = n->ports[p].peer;
    if (pc->tx_pt[p] != NONE32 || pc->arr_pt[peer] != NONE32) {
        *clash = pc->tx_pt[p] != NONE32 ? pc->tx_pt[p] : pc->arr_pt[peer];
        return -1;
    }
    pc->tx_pt[p] = k;
    pc->arr_pt[peer] = k;
    return 0;
}

/* Per-flow first PSN and message number: the messages of a queue pair
 * follow each other in posting (start) order, each numbering its packets
 * on from the last; an independent flow starts at PSN 0. */
static void number_messages(struct pcapout *pc, const struct net *n)
{
    uint32_t mtu = n->cfg.mtu_payload ? n->cfg.mtu_payload : 1;
    uint32_t *next_psn = calloc(n->n_qps + 1, sizeof *next_psn), *next_msg = calloc(n->n_qps + 1, sizeof *next_msg);
    for (uint32_t j = 0; j < n->n_flows; j++) {
        uint32_t fi = n->start_order ? n->start_order[j] : j;
        const struct flow *f = &n->flows[fi];
        if (!f->qp || f->qp > n->n_qps || !next_psn || !next_msg) {
            pc->psn_base[fi] = 0;
            pc->msg_idx[fi] = 0;
            continue;
        }
        pc->psn_base[fi] = next_psn[f->qp] & MASK24;
        pc->msg_idx[fi] = next_msg[f->qp] & MASK24;
        uint64_t pk = f->size == UINT64_MAX ? 0 : (f->size + mtu - 1) / mtu;
        next_psn[f->qp] = (uint32_t)((next_psn[f->qp] + pk) & MASK24);
        next_msg[f->qp]++;
    }
    free(next_psn);
    free(next_msg);
}

static void point_file(struct pc_point *q)
{
    /* A->B#k -> A~B~k: '>' and '#' do not belong in file names; node
     * names never hold '~' (docs/config.md), so names stay distinct. */
    char tmp[64];
    size_t j = 0;
    for (const char *s = q->name; *s && j + 1 < sizeof tmp; s++) {
        if (s[0] == '-' && s[1] == '>') {
            tmp[j++] = '~';
            s++;
        } else if (*s == '#') {
            tmp[j++] = '~';
        } else {
            tmp[j++] = *s;
        }
    }
    tmp[j] = 0;
    snprintf(q->file, sizeof q->file, "pcap/%s.pcap", tmp);
}

int pcapout_read(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    static const char *const keys[] = { "pcap_snaplen", "pcap_start", "pcap_stop", "pcap_limit", NULL };
    const struct cfg_entry *e = cfg_find(c, "output", "pcap");
    if (!e || !strcmp(e->value, "none")) {
        for (int i = 0; keys[i]; i++) {
            const struct cfg_entry *o = cfg_find(c, "output", keys[i]);
            if (o)
                return cfg_errorf(err, o, "has no effect without [output] pcap (a capture point list)");
        }
        return 0;
    }
    struct net *n = &sc->net;
    if (n->n_nodes >= MASK24)
        return cfg_errorf(err, e, "the address plan has room for %u nodes, this network has %u", MASK24 - 1, n->n_nodes);
    struct pcapout *pc = calloc(1, sizeof *pc);
    if (!pc)
        return cfg_errorf(err, e, "out of memory");
    sc->pcap = pc;
    pc->e = e;
    uint64_t v;
    if (cfg_u64(c, "output", "pcap_snaplen", 65535, &v, err))
        return -1;
    if (v < RF_ETH_LEN || v > 65535)
        return cfg_errorf(err, cfg_find(c, "output", "pcap_snaplen"), "must be %u..65535 bytes (%llu)", RF_ETH_LEN,
                          (unsigned long long)v);
    pc->snaplen = (uint32_t)v;
    if (cfg_time(c, "output", "pcap_start", 0, &pc->start, err) ||
        cfg_time(c, "output", "pcap_stop", sc->duration, &pc->stop, err) ||
        cfg_bytes(c, "output", "pcap_limit", PC_LIMIT_DEFAULT, &pc->limit, err))
        return -1;
    if (pc->stop <= pc->start) {
        const struct cfg_entry *s = cfg_find(c, "output", "pcap_stop");
        return cfg_errorf(err, s ? s : cfg_find(c, "output", "pcap_start"), "the window is empty: pcap_stop must be after pcap_start");
    }
    if (pc->start >= sc->duration)
        return cfg_errorf(err, cfg_find(c, "output", "pcap_start"), "starts at or after the end of the run");
    if (pc->limit && pc->limit < PCAPW_FILE_HDR + PCAPW_REC_HDR + RF_MIN_FRAME)
        return cfg_errorf(err, cfg_find(c, "output", "pcap_limit"), "must be 0 (no limit) or at least %u bytes",
                          PCAPW_FILE_HDR + PCAPW_REC_HDR + RF_MIN_FRAME);
    pc->tx_pt = malloc(n->n_ports * sizeof *pc->tx_pt);
    pc->arr_pt = malloc(n->n_ports * sizeof *pc->arr_pt);
    pc->psn_base = calloc(n->n_flows + 1, sizeof *pc->psn_base);
    pc->msg_idx = calloc(n->n_flows + 1, sizeof *pc->msg_idx);
    pc->pt = calloc(PC_POINTS_MAX, sizeof *pc->pt);
    if (!pc->tx_pt || !pc->arr_pt || !pc->psn_base || !pc->msg_idx || !pc->pt)
        return cfg_errorf(err, e, "out of memory");
    for (uint32_t p = 0; p < n->n_ports; p++)
        pc->tx_pt[p] = pc->arr_pt[p] = NONE32;
    for (uint32_t k = 0; k < PC_POINTS_MAX; k++)
        pc->pt[k].w.fd = pc->pt[k].rfd = -1;

    char buf[CFG_MAX_LINE + 1];
    snprintf(buf, sizeof buf, "%s", e->value);
    char *save = NULL;
    for (char *t = strtok_r(buf, " ,", &save); t; t = strtok_r(NULL, " ,", &save)) {
        if (pc->n_pt == PC_POINTS_MAX)
            return cfg_errorf(err, e, "more than %u capture points", PC_POINTS_MAX);
        uint32_t k = pc->n_pt;
        struct pc_point *q = &pc->pt[k];
        if (strlen(t) >= sizeof q->name)
            return cfg_errorf(err, e, "'%.40s...' is not a host, switch or port A->B", t);
        snprintf(q->name, sizeof q->name, "%s", t);
        uint32_t clash = NONE32;
        int bad = 0;
        if (strstr(t, "->")) {
            uint32_t p = port_named(sc, t);
            if (p == NONE32)
                return cfg_errorf(err, e, "'%s' is not a port: want A->B (or A->B#2 for a second link) with A and B "
                                  "linked nodes", t);
            bad = add_port(pc, n, k, p, &clash);
            q->port = p;
        } else {
            uint32_t nd = scenario_node(sc, t);
            if (nd == NONE32)
                return cfg_errorf(err, e, "'%s' is not a node: want a host, a switch or a port A->B", t);
            q->port = n->nodes[nd].first_port;
            for (uint32_t i = 0; i < n->nodes[nd].n_ports && !bad; i++)
                bad = add_port(pc, n, k, n->nodes[nd].first_port + i, &clash);
        }
        if (bad)
            return cfg_errorf(err, e, "'%s' overlaps '%s': a frame goes to one file only", t, pc->pt[clash].name);
        point_file(q);
        pc->n_pt++;
    }
    if (pc->n_pt == 0)
        return cfg_errorf(err, e, "no capture point: give hosts, switches or ports A->B (or 'none')");
    number_messages(pc, n);
    return 0;
}

/* ------------------------------------------------------------------ files */

static int mkdir_one(const char *d)
{
    if (mkdir(d, 0777) == 0 || errno == EEXIST) {
        struct stat st;
        if (stat(d, &st) == 0 && S_ISDIR(st.st_mode))
            return 0;
        errno = ENOTDIR;
    }
    return -1;
}

static int key_error(const struct pcapout *pc, char *why, size_t why_len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int key_error(const struct pcapout *pc, char *why, size_t why_len, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    struct cfg_err ce;
    cfg_errorf(&ce, pc->e, "%s", msg);
    snprintf(why, why_len, "%s", ce.msg);
    return -1;
}

/* Rank > 0 of a partitioned run: its points into temporary files. */
static int open_temps(struct scenario *sc, char *why, size_t why_len)
{
    struct pcapout *pc = sc->pcap;
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    for (uint32_t k = 0; k < pc->n_pt; k++) {
        struct pc_point *q = &pc->pt[k];
        if (q->rank != (int)sc->net.my_rank)
            continue;
        snprintf(q->path, sizeof q->path, "%s/roccsim-pcap-XXXXXX", tmp);
        int fd = mkstemp(q->path);
        if (fd < 0)
            return key_error(pc, why, why_len, "%s: cannot create: %s", q->path, strerror(errno));
        close(fd);
        if (pcapw_open(&q->w, q->path, pc->snaplen, PC_BUF) || (q->rfd = open(q->path, O_RDONLY)) < 0) {
            int e = errno;
            unlink(q->path);
            return key_error(pc, why, why_len, "%s: cannot create: %s", q->path, strerror(e));
        }
        unlink(q->path);                /* gone when the run ends, however it ends */
        q->opened = 1;
    }
    sc->net.tap = pc_tap;
    sc->net.tap_ctx = sc;
    pc->installed = 1;
    return 0;
}

int pcapout_open(struct scenario *sc, const char *dir, char *why, size_t why_len)
{
    struct pcapout *pc = sc->pcap;
    if (!pc)
        return 0;
    /* Partitioned runs (docs/parallel.md): every frame of a point is sent
     * or received by a port of its node, so the rank of that node sees all
     * of them, in the plain run's order.  Rank 0 writes its points' files
     * directly; another rank writes its points to unlinked temporary files
     * ($TMPDIR, else /tmp) that parallel_gather sends to rank 0, which
     * writes them (pcapout_import_*): one process writes DIR. */
    const struct net *n = &sc->net;
    int me = n->node_rank ? (int)n->my_rank : 0;
    for (uint32_t k = 0; k < pc->n_pt; k++)
        pc->pt[k].rank = n->node_rank ? n->node_rank[n->ports[pc->pt[k].port].node] : 0;
    if (me != 0)
        return open_temps(sc, why, why_len);
    char d[4200];
    snprintf(d, sizeof d, "%s/pcap", dir);
    if (mkdir_one(d))
        return key_error(pc, why, why_len, "%s: cannot create directory: %s", d, strerror(errno));
    /* *.pcap files of an earlier run that this one does not write. */
    DIR *dd = opendir(d);
    if (dd) {
        struct dirent *de;
        while ((de = readdir(dd))) {
            size_t l = strlen(de->d_name);
            if (l < 6 || strcmp(de->d_name + l - 5, ".pcap"))
                continue;
            int ours = 0;
            for (uint32_t k = 0; k < pc->n_pt && !ours; k++)
                ours = !strcmp(pc->pt[k].file + 5, de->d_name);
            if (!ours) {
                char stale[4500];
                snprintf(stale, sizeof stale, "%s/%s", d, de->d_name);
                if (unlink(stale) && errno != ENOENT) {
                    closedir(dd);
                    return key_error(pc, why, why_len, "%s: cannot remove stale file: %s", stale, strerror(errno));
                }
            }
        }
        closedir(dd);
    }
    for (uint32_t k = 0; k < pc->n_pt; k++) {
        struct pc_point *q = &pc->pt[k];
        snprintf(q->path, sizeof q->path, "%s/%s", dir, q->file);
        if (q->rank != 0)
            continue;                   /* written from another rank's frames at the end */
        if (pcapw_open(&q->w, q->path, pc->snaplen, PC_BUF))
            return key_error(pc, why, why_len, "%s: cannot create: %s", q->path, strerror(errno));
        q->opened = 1;
    }
    sc->net.tap = pc_tap;
    sc->net.tap_ctx = sc;
    pc->installed = 1;
    return 0;
}

int pcapout_close(struct scenario *sc, char *why, size_t why_len)
{
    struct pcapout *pc = sc->pcap;
    if (!pc)
        return 0;
    if (pc->installed) {
        sc->net.tap = NULL;
        sc->net.tap_ctx = NULL;
        pc->installed = 0;
    }
    int rc = 0;
    for (uint32_t k = 0; k < pc->n_pt; k++) {
        struct pc_point *q = &pc->pt[k];
        if (!q->opened)
            continue;
        q->opened = 0;
        if (pcapw_close(&q->w) && rc == 0) {
            char tail[200];
            snprintf(tail, sizeof tail, "%s (the file holds the first %llu frames, %llu were not written)",
                     strerror(q->w.err), (unsigned long long)q->w.frames, (unsigned long long)q->w.lost);
            rc = key_error(pc, why, why_len, "%s: write failed: %s", q->path, tail);
        }
    }
    return rc;
}

void pcapout_free(struct scenario *sc)
{
    struct pcapout *pc = sc->pcap;
    if (!pc)
        return;
    char why[8];
    pcapout_close(sc, why, sizeof why);
    for (uint32_t k = 0; k < pc->n_pt; k++)
        if (pc->pt[k].rfd >= 0)
            close(pc->pt[k].rfd);
    free(pc->pt);
    free(pc->tx_pt);
    free(pc->arr_pt);
    free(pc->psn_base);
    free(pc->msg_idx);
    free(pc);
    sc->pcap = NULL;
}

/* ---------------------------------------------------------------- reports */

void pcapout_json(const struct scenario *sc, FILE *f)
{
    const struct pcapout *pc = sc->pcap;
    if (!pc)
        return;
    fprintf(f, ",\n  \"pcap\": {\"snaplen\": %u, \"start_s\": %.9g, \"stop_s\": %.9g, \"limit_bytes\": %llu, "
               "\"size_mismatch\": %llu, \"files\": [",
            pc->snaplen, (double)pc->start / PS_PER_S, (double)pc->stop / PS_PER_S, (unsigned long long)pc->limit,
            (unsigned long long)pc->mismatch);
    for (uint32_t k = 0; k < pc->n_pt; k++) {
        const struct pc_point *q = &pc->pt[k];
        uint8_t m[6];
        uint32_t ip = pcapout_ip_of_node(sc->net.ports[q->port].node);
        pcapout_mac_of_port(&sc->net, q->port, m);
        fprintf(f, "%s\n    {\"point\": \"%s\", \"file\": \"%s\", \"ip\": \"%u.%u.%u.%u\", "
                   "\"mac\": \"%02x:%02x:%02x:%02x:%02x:%02x\", \"frames\": %llu, \"bytes\": %llu, \"cut\": %llu, "
                   "\"over_limit\": %llu, \"lost\": %llu, \"error\": ",
                k ? "," : "", q->name, q->file, ip >> 24, ip >> 16 & 255, ip >> 8 & 255, ip & 255, m[0], m[1], m[2], m[3],
                m[4], m[5], (unsigned long long)q->w.frames,
                (unsigned long long)(q->w.file_bytes + q->w.len), (unsigned long long)q->w.cut,
                (unsigned long long)q->over_limit, (unsigned long long)q->w.lost);
        if (q->w.err)
            fprintf(f, "\"%s\"", strerror(q->w.err));
        else
            fprintf(f, "null");
        fprintf(f, ", \"retransmissions\": %llu, \"by_kind\": {", (unsigned long long)q->retx);
        int first = 1;
        for (int i = 0; i < PCK_NKINDS; i++)
            if (q->by_kind[i]) {
                fprintf(f, "%s\"%s\": %llu", first ? "" : ", ", pc_kind_names[i], (unsigned long long)q->by_kind[i]);
                first = 0;
            }
        fprintf(f, "}}");
    }
    fprintf(f, "\n  ]}");
}

void pcapout_print(const struct scenario *sc, FILE *out)
{
    const struct pcapout *pc = sc->pcap;
    if (!pc)
        return;
    for (uint32_t k = 0; k < pc->n_pt; k++) {
        const struct pc_point *q = &pc->pt[k];
        fprintf(out, "  pcap %s: %llu frames", q->file, (unsigned long long)q->w.frames);
        const char *sep = " (";
        for (int i = 0; i < PCK_NKINDS; i++)
            if (q->by_kind[i]) {
                fprintf(out, "%s%s %llu", sep, pc_kind_names[i], (unsigned long long)q->by_kind[i]);
                sep = ", ";
            }
        fprintf(out, "%s", *sep == ',' ? ")" : "");
        if (q->over_limit)
            fprintf(out, "; %llu more not written: pcap_limit reached", (unsigned long long)q->over_limit);
        if (q->w.err)
            fprintf(out, "; write failed: %s", strerror(q->w.err));
        fputc('\n', out);
    }
}

void pcapout_files(const struct scenario *sc, char *buf, size_t len)
{
    const struct pcapout *pc = sc->pcap;
    size_t used = 0;
    if (len)
        buf[0] = 0;
    for (uint32_t k = 0; pc && k < pc->n_pt && used < len; k++) {
        int w = snprintf(buf + used, len - used, ",%s", pc->pt[k].file);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* ------------------------------------------- partitioned runs: to rank 0 */

uint32_t pcapout_points(const struct scenario *sc) { return sc->pcap ? sc->pcap->n_pt : 0; }
int pcapout_point_rank(const struct scenario *sc, uint32_t k) { return sc->pcap->pt[k].rank; }
uint64_t pcapout_mismatch(const struct scenario *sc) { return sc->pcap ? sc->pcap->mismatch : 0; }
void pcapout_set_mismatch(struct scenario *sc, uint64_t v) { sc->pcap->mismatch = v; }

size_t pcapout_export(struct scenario *sc, uint32_t k, uint8_t *buf, size_t len)
{
    struct pc_point *q = &sc->pcap->pt[k];
    if (q->rfd < 0)
        return 0;
    for (;;) {
        ssize_t r = read(q->rfd, buf, len);
        if (r >= 0)
            return (size_t)r;
        if (errno != EINTR) {
            if (!q->w.err)
                q->w.err = errno;
            return 0;
        }
    }
}

void pcapout_export_stats(const struct scenario *sc, uint32_t k, uint64_t v[PCAPOUT_NSTAT])
{
    const struct pc_point *q = &sc->pcap->pt[k];
    uint64_t h[] = { q->w.frames, q->w.file_bytes + q->w.len, q->w.cut, q->w.lost, (uint64_t)q->w.err,
                     q->over_limit, (uint64_t)q->full, q->retx };
    _Static_assert(sizeof h / sizeof *h + PCK_NKINDS == PCAPOUT_NSTAT, "PCAPOUT_NSTAT");
    memcpy(v, h, sizeof h);
    memcpy(v + sizeof h / sizeof *h, q->by_kind, sizeof q->by_kind);
}

int pcapout_import_begin(struct scenario *sc, uint32_t k)
{
    struct pc_point *q = &sc->pcap->pt[k];
    q->w.fd = open(q->path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    q->w.err = q->w.fd < 0 ? errno : 0;
    return q->w.fd < 0 ? -1 : 0;
}

void pcapout_import_write(struct scenario *sc, uint32_t k, const uint8_t *buf, size_t len)
{
    struct pc_point *q = &sc->pcap->pt[k];
    while (len && q->w.fd >= 0 && !q->w.err) {
        ssize_t r = write(q->w.fd, buf, len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            q->w.err = r < 0 ? errno : EIO;
            break;
        }
        buf += r;
        len -= (size_t)r;
    }
}

void pcapout_import_end(struct scenario *sc, uint32_t k, const uint64_t v[PCAPOUT_NSTAT])
{
    struct pc_point *q = &sc->pcap->pt[k];
    if (q->w.fd >= 0 && close(q->w.fd) && !q->w.err)
        q->w.err = errno;
    q->w.fd = -1;
    int err = q->w.err;                 /* writing here failed; else the owner's error, if any */
    q->w.frames = v[0];
    q->w.file_bytes = v[1];
    q->w.len = 0;
    q->w.cut = v[2];
    q->w.lost = v[3];
    q->w.err = err ? err : (int)v[4];
    q->over_limit = v[5];
    q->full = (int)v[6];
    q->retx = v[7];
    memcpy(q->by_kind, v + 8, sizeof q->by_kind);
}

int pcapout_errors(const struct scenario *sc, char *why, size_t why_len)
{
    const struct pcapout *pc = sc->pcap;
    for (uint32_t k = 0; pc && k < pc->n_pt; k++) {
        const struct pc_point *q = &pc->pt[k];
        if (q->w.err)
            return key_error(pc, why, why_len, "%s: write failed: %s (the file holds the first %llu frames, %llu "
                             "were not written)", q->path, strerror(q->w.err), (unsigned long long)q->w.frames,
                             (unsigned long long)q->w.lost);
    }
    return 0;
}
