/* pkt.c -- see pkt.h. */
#include "pkt.h"
#include "roce_frame.h"
#include "lscc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint16_t rd16(const uint8_t *p) { return (uint16_t)((p[0] << 8) | p[1]); }
static uint32_t rd32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static void wr16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void wr32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

static int parse(const uint8_t *f, size_t len, struct pkt_info *o, int esc)
{
    size_t ihl, tot;
    uint16_t frag;
    const uint8_t *ip, *l4;

    memset(o, 0, sizeof *o);
    if (len < PKT_ETH_LEN + 2) return PKT_ETRUNC;
    /* No VLAN support: a tagged frame is "not IPv4" here rather than being
     * half-parsed at the wrong offset. */
    if (rd16(f + 12) != 0x0800) return PKT_ENOTIP4;
    if (len < PKT_ETH_LEN + PKT_IP4_LEN) return PKT_ETRUNC;
    ip = f + PKT_ETH_LEN;
    if ((ip[0] >> 4) != 4) return PKT_EIPHDR;
    ihl = (size_t)(ip[0] & 0x0f) * 4;
    if (ihl < PKT_IP4_LEN) return PKT_EIPHDR;
    tot = rd16(ip + 2);
    if (tot < ihl) return PKT_EIPHDR;
    /* tot_len beyond the captured bytes means the frame was cut short. */
    if (PKT_ETH_LEN + ihl > len || PKT_ETH_LEN + tot > len) return PKT_ETRUNC;

    o->l3_off = PKT_ETH_LEN;
    o->l4_off = (uint16_t)(PKT_ETH_LEN + ihl);
    o->ip_len = (uint16_t)tot;
    o->l4_len = (uint16_t)(tot - ihl);
    o->ttl = ip[8];
    o->proto = ip[9];
    o->src_ip = rd32(ip + 12);
    o->dst_ip = rd32(ip + 16);
    frag = rd16(ip + 6);
    o->is_first_frag = (frag & 0x1fff) == 0;
    if (o->proto != 17 || !o->is_first_frag) return PKT_OK;

    /* UDP: only trusted inside tot_len, so padding after the IP datagram
     * can never be mistaken for a BTH. */
    l4 = f + o->l4_off;
    if (o->l4_len < PKT_UDP_LEN) return PKT_ETRUNC;
    o->sport = rd16(l4);
    o->dport = rd16(l4 + 2);
    if (o->dport == ROCC_ROCEV2_UDP_PORT && o->l4_len >= PKT_UDP_LEN + esc + PKT_BTH_LEN &&
        rd16(l4 + 4) >= PKT_UDP_LEN + esc + PKT_BTH_LEN && rd16(l4 + 4) <= o->l4_len) {
        const uint8_t *bth = l4 + PKT_UDP_LEN + esc;
        o->is_roce = 1;
        if (esc) { o->has_esc = 1; o->esc_hops = rd16(l4 + PKT_UDP_LEN); }
        o->dest_qpn = rd32(bth + 4) & 0xffffff;
        o->psn = rd32(bth + 8) & 0xffffff;
        o->bth_opcode = bth[0];
    }
    return PKT_OK;
}

int pkt_parse(const uint8_t *f, size_t len, struct pkt_info *o) { return parse(f, len, o, 0); }

int pkt_parse_esc(const uint8_t *f, size_t len, struct pkt_info *o) { return parse(f, len, o, PKT_ESC_LEN); }

void pkt_esc_set_hops(uint8_t *f, const struct pkt_info *pi, uint16_t hops)
{
    if (pi->has_esc) wr16(f + pi->l4_off + PKT_UDP_LEN, hops);
}

const char *pkt_strerror(int r)
{
    switch (r) {
    case PKT_OK: return "ok";
    case PKT_ETRUNC: return "truncated";
    case PKT_ENOTIP4: return "not-ipv4";
    case PKT_EIPHDR: return "bad-ipv4-header";
    default: return "unknown";
    }
}

/* The frames themselves are built by src/cc/roce_frame.c, which the
 * simulator's packet traces use too (one encoder for both). */
static void put_eth(uint8_t *f, const uint8_t src[6], const uint8_t dst[6])
{
    rf_put_eth(f, dst, src, RF_ETHERTYPE_IP4);
}

static void put_ip4(uint8_t *ip, uint16_t tot, uint8_t proto, uint32_t src, uint32_t dst)
{
    rf_put_ip4(ip, 0, tot, proto, src, dst);
}

static size_t build_roce(uint8_t *f, size_t cap, const uint8_t src_mac[6], const uint8_t dst_mac[6],
                         uint32_t src_ip, uint32_t dst_ip, uint16_t sport,
                         uint32_t dest_qpn, uint32_t psn, uint32_t payload_len, int esc)
{
    /* RC RDMA WRITE Only, hops 0 in the Escape header when esc. */
    struct rf_roce r = {.src_ip = src_ip, .dst_ip = dst_ip, .sport = sport, .opcode = RF_OP_WRITE_ONLY,
                        .dest_qpn = dest_qpn, .psn = psn, .pre_bth = (uint16_t)esc, .payload = payload_len};

    memcpy(r.src_mac, src_mac, 6);
    memcpy(r.dst_mac, dst_mac, 6);
    return rf_build_roce(f, cap, &r);
}

size_t pkt_build_roce(uint8_t *f, size_t cap, const uint8_t src_mac[6], const uint8_t dst_mac[6],
                      uint32_t src_ip, uint32_t dst_ip, uint16_t sport,
                      uint32_t dest_qpn, uint32_t psn, uint32_t payload_len)
{
    return build_roce(f, cap, src_mac, dst_mac, src_ip, dst_ip, sport, dest_qpn, psn, payload_len, 0);
}

size_t pkt_build_roce_esc(uint8_t *f, size_t cap, const uint8_t src_mac[6], const uint8_t dst_mac[6],
                          uint32_t src_ip, uint32_t dst_ip, uint16_t sport,
                          uint32_t dest_qpn, uint32_t psn, uint32_t payload_len)
{
    return build_roce(f, cap, src_mac, dst_mac, src_ip, dst_ip, sport, dest_qpn, psn, payload_len, PKT_ESC_LEN);
}

int pkt_parse_etf(const uint8_t *f, size_t len, uint8_t src[6], struct esc_token *t)
{
    int r;
    if (len < ESC_ETF_BYTES_NOFCS || len > ESC_ETF_BYTES_NOFCS + 4) return PKT_ETF_ELEN;
    r = esc_etf_decode(f, len, t);
    if (r == ESC_ETF_ENOTCTL) return PKT_ETF_EDST;
    if (r == ESC_ETF_EOPCODE) return PKT_ETF_EOPCODE;
    if (r == ESC_ETF_EHOPS) return PKT_ETF_EHOPS;
    if (r != ESC_ETF_OK) return PKT_ETF_ELEN;
    for (size_t i = ESC_ETF_PAYLOAD_END; i < ESC_ETF_BYTES_NOFCS; i++)
        if (f[i]) return PKT_ETF_EPAD;
    if ((f[6] & 1) || !(f[6] | f[7] | f[8] | f[9] | f[10] | f[11])) return PKT_ETF_ESRC;
    memcpy(src, f + 6, 6);
    return PKT_ETF_OK;
}

const char *pkt_etf_strerror(int r)
{
    static const char *const n[PKT_ETF_NRESULTS] = {"ok", "len", "dst", "opcode", "hops", "pad", "src",
                                                     "neigh", "port", "unknown", "bad",
                                                     "not_paused"};
    return r >= 0 && r < PKT_ETF_NRESULTS ? n[r] : "unknown-reason";
}

size_t pkt_build_cnp(uint8_t *f, size_t cap, const uint8_t src_mac[6], const uint8_t dst_mac[6],
                     uint32_t src_ip, uint32_t dst_ip, const struct rocc_cnp *c)
{
    return rf_build_rocc_cnp(f, cap, dst_mac, src_mac, src_ip, dst_ip, 0, c);
}

size_t pkt_build_cnp_auth(uint8_t *f, size_t cap, const uint8_t src_mac[6], const uint8_t dst_mac[6],
                          uint32_t src_ip, uint32_t dst_ip, const struct rocc_cnp *c,
                          const uint8_t key[ROCC_CNP_KEY_BYTES])
{
    if (cap < PKT_CNP_AUTH_FRAME_LEN) return 0;
    put_eth(f, src_mac, dst_mac);
    put_ip4(f + PKT_ETH_LEN, PKT_IP4_LEN + ROCC_CNP_AUTH_ICMP_BYTES, 1, src_ip, dst_ip);
    if (rocc_cnp_encode_auth(c, key, src_ip, dst_ip, f + PKT_ETH_LEN + PKT_IP4_LEN, ROCC_CNP_AUTH_ICMP_BYTES) !=
        ROCC_CNP_AUTH_ICMP_BYTES)
        return 0;
    return PKT_CNP_AUTH_FRAME_LEN;
}

size_t pkt_build_cnp_form(uint8_t *f, size_t cap, const uint8_t src_mac[6], const uint8_t dst_mac[6],
                          uint32_t src_ip, uint32_t dst_ip, const struct rocc_cnp *c, const uint8_t *key)
{
    size_t icmp = rocc_cnp_form_bytes(c->form, key != NULL);

    if (!icmp || cap < PKT_ETH_LEN + PKT_IP4_LEN + icmp) return 0;
    put_eth(f, src_mac, dst_mac);
    put_ip4(f + PKT_ETH_LEN, (uint16_t)(PKT_IP4_LEN + icmp), 1, src_ip, dst_ip);
    if (rocc_cnp_encode_form(c, key, src_ip, dst_ip, f + PKT_ETH_LEN + PKT_IP4_LEN, icmp) != icmp) return 0;
    return PKT_ETH_LEN + PKT_IP4_LEN + icmp;
}

/* RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m') for the 16-bit header word at
 * ip + off changing from old_w to new_w. */
static void ip4_csum_patch(uint8_t *ip, uint16_t old_w, uint16_t new_w)
{
    uint32_t sum = (uint16_t)~rd16(ip + 10);
    sum += (uint16_t)~old_w;
    sum += new_w;
    sum = (sum & 0xffff) + (sum >> 16);
    sum = (sum & 0xffff) + (sum >> 16);
    wr16(ip + 10, (uint16_t)~sum);
}

int pkt_ip4_dec_ttl(uint8_t *f, const struct pkt_info *pi)
{
    uint8_t *ip = f + pi->l3_off;
    uint16_t old_w;

    if (ip[8] <= 1) return -1;
    old_w = rd16(ip + 8);
    ip[8]--;
    ip4_csum_patch(ip, old_w, rd16(ip + 8));
    return 0;
}

int pkt_ip4_ecn(const uint8_t *f, const struct pkt_info *pi)
{
    return f[pi->l3_off + 1] & 3;
}

void pkt_ip4_set_ecn(uint8_t *f, const struct pkt_info *pi, int ecn)
{
    uint8_t *ip = f + pi->l3_off;
    uint16_t old_w = rd16(ip);

    ip[1] = (uint8_t)((ip[1] & ~3u) | ((unsigned)ecn & 3u));
    ip4_csum_patch(ip, old_w, rd16(ip));
}

void pkt_ip4_set_dscp(uint8_t *f, const struct pkt_info *pi, unsigned dscp)
{
    uint8_t *ip = f + pi->l3_off;
    uint16_t old_w = rd16(ip);

    ip[1] = (uint8_t)(((dscp & 63u) << 2) | (ip[1] & 3u));
    ip4_csum_patch(ip, old_w, rd16(ip));
}

int pkt_red_mark(uint64_t q, uint64_t kmin, uint64_t kmax, double pmax, uint32_t rnd)
{
    double p;

    if (q <= kmin) return 0;
    if (q >= kmax) return 1;
    p = pmax * (double)(q - kmin) / (double)(kmax - kmin);
    return (double)rnd < p * 4294967296.0;
}

uint16_t pkt_ethertype(const uint8_t *f, size_t len)
{
    return len < PKT_ETH_LEN ? 0 : rd16(f + 12);
}

int pkt_parse_arp(const uint8_t *f, size_t len, struct pkt_arp *a)
{
    const uint8_t *p = f + PKT_ETH_LEN;
    static const uint8_t zero[6];

    memset(a, 0, sizeof *a);
    if (len < PKT_ETH_LEN + PKT_ARP_LEN || rd16(f + 12) != PKT_ETHERTYPE_ARP) return -1;
    if (rd16(p) != 1 || rd16(p + 2) != PKT_ETHERTYPE_IP4 || p[4] != 6 || p[5] != 4) return -1;
    a->op = rd16(p + 6);
    if (a->op != PKT_ARP_REQUEST && a->op != PKT_ARP_REPLY) return -1;
    memcpy(a->sha, p + 8, 6);
    a->spa = rd32(p + 14);
    memcpy(a->tha, p + 18, 6);
    a->tpa = rd32(p + 24);
    if ((a->sha[0] & 1) || !memcmp(a->sha, zero, 6)) return -1;
    return 0;
}

size_t pkt_build_arp(uint8_t *f, size_t cap, uint16_t op, const uint8_t eth_dst[6],
                     const uint8_t sha[6], uint32_t spa, const uint8_t tha[6], uint32_t tpa)
{
    uint8_t *p = f + PKT_ETH_LEN;

    if (cap < PKT_ARP_FRAME_LEN) return 0;
    memset(f, 0, PKT_ARP_FRAME_LEN);
    memcpy(f, eth_dst, 6);
    memcpy(f + 6, sha, 6);
    wr16(f + 12, PKT_ETHERTYPE_ARP);
    wr16(p, 1);
    wr16(p + 2, PKT_ETHERTYPE_IP4);
    p[4] = 6;
    p[5] = 4;
    wr16(p + 6, op);
    memcpy(p + 8, sha, 6);
    wr32(p + 14, spa);
    memcpy(p + 18, tha, 6);
    wr32(p + 24, tpa);
    return PKT_ARP_FRAME_LEN;
}

int pkt_parse_u64(const char *s, int hex, uint64_t lo, uint64_t hi, const char **end, uint64_t *v)
{
    const char *p = s;
    uint64_t x = 0;
    unsigned base = 10, digits = 0;

    if (hex == 16)
        base = 16;
    else if (hex && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    }
    for (;; p++, digits++) {
        unsigned d;
        if (*p >= '0' && *p <= '9') d = (unsigned)(*p - '0');
        else if (base == 16 && *p >= 'a' && *p <= 'f') d = (unsigned)(*p - 'a' + 10);
        else if (base == 16 && *p >= 'A' && *p <= 'F') d = (unsigned)(*p - 'A' + 10);
        else break;
        if (x > (UINT64_MAX - d) / base) return -1;       /* past 2^64 - 1 */
        x = x * base + d;
    }
    if (!digits || (end ? 0 : *p != 0) || x < lo || x > hi) return -1;
    if (end) *end = p;
    *v = x;
    return 0;
}

int pkt_parse_dbl(const char *s, double lo, double hi, double *v)
{
    char *e;
    double x;
    /* strtod would skip leading space and read "0x1p3", "inf" and "nan". */
    if (!((*s >= '0' && *s <= '9') || ((*s == '-' || *s == '+' || *s == '.') && s[1] != 0)))
        return -1;
    for (const char *p = s; *p; p++)
        if (*p == 'x' || *p == 'X' || *p == 'n' || *p == 'N' || *p == 'i' || *p == 'I') return -1;
    x = strtod(s, &e);
    if (e == s || *e || !isfinite(x) || !(x >= lo && x <= hi)) return -1;
    *v = x;
    return 0;
}

int pkt_parse_ip(const char *s, uint32_t *ip)
{
    uint64_t o[4];
    const char *p = s;
    for (int i = 0; i < 4; i++) {
        if (pkt_parse_u64(p, 0, 0, 255, &p, &o[i]) || *p != (i < 3 ? '.' : 0)) return -1;
        p++;
    }
    *ip = (uint32_t)(o[0] << 24 | o[1] << 16 | o[2] << 8 | o[3]);
    return 0;
}

int pkt_parse_prefix(const char *s, uint32_t *net, uint32_t *mask)
{
    char buf[32];
    const char *slash = strchr(s, '/');
    uint64_t l;
    size_t n;

    if (!slash || (n = (size_t)(slash - s)) >= sizeof buf) return -1;
    memcpy(buf, s, n);
    buf[n] = 0;
    if (pkt_parse_u64(slash + 1, 0, 0, 32, NULL, &l)) return -1;
    if (pkt_parse_ip(buf, net)) return -1;
    *mask = l == 0 ? 0 : 0xffffffffu << (32 - l);
    *net &= *mask;
    return 0;
}

int pkt_parse_mac(const char *s, uint8_t mac[6])
{
    uint64_t v[6];
    const char *p = s;
    for (int i = 0; i < 6; i++) {
        if (pkt_parse_u64(p, 16, 0, 255, &p, &v[i]) || *p != (i < 5 ? ':' : 0)) return -1;
        p++;
    }
    for (int i = 0; i < 6; i++)
        mac[i] = (uint8_t)v[i];
    return 0;
}

const char *pkt_ip_str(uint32_t ip, char *buf, size_t len)
{
    snprintf(buf, len, "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255);
    return buf;
}

const uint8_t pkt_pfc_dst[6] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x01};   /* = rf_macctl_dst */

int pkt_parse_pfc(const uint8_t *f, size_t len, struct pkt_pfc *o)
{
    static const uint8_t zero[6];

    memset(o, 0, sizeof *o);
    if (len != PKT_PFC_FRAME_LEN) return PKT_PFC_ELEN;
    if (memcmp(f, pkt_pfc_dst, 6)) return PKT_PFC_EDST;
    if (rd16(f + 12) != PKT_ETHERTYPE_MACCTL || rd16(f + 14) != PKT_MACCTL_PFC) return PKT_PFC_EOPCODE;
    if (f[16] != 0) return PKT_PFC_ERESERVED;
    if (f[17] == 0) return PKT_PFC_EEMPTY;
    if ((f[6] & 1) || !memcmp(f + 6, zero, 6)) return PKT_PFC_ESRC;
    memcpy(o->src, f + 6, 6);
    o->vec = f[17];
    for (unsigned c = 0; c < 8; c++) o->quanta[c] = rd16(f + 18 + 2 * c);
    return PKT_PFC_OK;
}

const char *pkt_pfc_strerror(int r)
{
    static const char *const name[PKT_PFC_NRESULTS] = {
        [PKT_PFC_OK] = "ok", [PKT_PFC_ELEN] = "len", [PKT_PFC_EDST] = "dst", [PKT_PFC_EOPCODE] = "opcode",
        [PKT_PFC_ERESERVED] = "reserved", [PKT_PFC_EEMPTY] = "empty", [PKT_PFC_ESRC] = "src",
        [PKT_PFC_ENEIGH] = "not_neighbour"};
    return r >= 0 && r < PKT_PFC_NRESULTS ? name[r] : "unknown";
}

size_t pkt_build_pfc(uint8_t *f, size_t cap, const uint8_t src[6], uint8_t vec, const uint16_t quanta[8])
{
    return rf_build_pfc(f, cap, src, vec, quanta);
}

/* ---- LSCC feedback frame and RoCEv2 CNP (pkt.h) ---- */

_Static_assert(PKT_ROCE_CNP_LEN == RF_ROCE_CNP_FRAME_LEN, "RoCEv2 CNP size");

const char *pkt_lscc_strerror(int r)
{
    static const char *const n[PKT_LSCC_NRESULTS - PKT_LSCC_EPORT] = {"port", "neigh", "rate", "epoch", "seq"};
    if (r >= 0 && r < PKT_LSCC_EPORT) return lscc_fb_strerror(r);
    return r >= PKT_LSCC_EPORT && r < PKT_LSCC_NRESULTS ? n[r - PKT_LSCC_EPORT] : "unknown";
}

size_t pkt_build_roce_cnp(uint8_t *f, size_t cap, const uint8_t src_mac[6], const uint8_t dst_mac[6],
                          uint32_t src_ip, uint32_t dst_ip, uint16_t sport, uint32_t dest_qpn)
{
    struct rf_roce r = {.src_ip = src_ip, .dst_ip = dst_ip, .sport = sport, .opcode = RF_OP_CNP,
                        .dest_qpn = dest_qpn, .ext_len = RF_CNP_RSVD_LEN};
    memcpy(r.src_mac, src_mac, 6);
    memcpy(r.dst_mac, dst_mac, 6);
    return rf_build_roce(f, cap, &r);
}

int pkt_roce_cnp_ok(const uint8_t *f, size_t len, const struct pkt_info *pi)
{
    const uint8_t *bth;
    if (!pi->is_roce || pi->has_esc || pi->bth_opcode != RF_OP_CNP) return -1;
    if (len != PKT_ROCE_CNP_LEN || pi->l4_off != PKT_ETH_LEN + PKT_IP4_LEN ||
        pi->l4_len != PKT_ROCE_CNP_LEN - PKT_ETH_LEN - PKT_IP4_LEN ||
        rd16(f + pi->l4_off + 4) != pi->l4_len) return -1;
    bth = f + pi->l4_off + PKT_UDP_LEN;
    for (size_t i = 0; i < RF_CNP_RSVD_LEN; i++)
        if (bth[PKT_BTH_LEN + i]) return -1;
    return 0;
}

/* ---- RCC (pkt.h) ---- */

static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) << 32 | rd32(p + 4); }
static void wr64(uint8_t *p, uint64_t v) { wr32(p, (uint32_t)(v >> 32)); wr32(p + 4, (uint32_t)v); }

static size_t bth_off(const struct pkt_info *pi) { return (size_t)pi->l4_off + PKT_UDP_LEN + (pi->has_esc ? PKT_ESC_LEN : 0); }

int pkt_parse_rcc_data(const uint8_t *f, const struct pkt_info *pi, struct pkt_rcc_data *o)
{
    size_t esc = pi->has_esc ? PKT_ESC_LEN : 0;
    const uint8_t *x;

    memset(o, 0, sizeof *o);
    if (!pi->is_roce) return PKT_RCC_ENOTROCE;
    if (f[bth_off(pi)] != RF_OP_WRITE_ONLY) return PKT_RCC_EOPCODE;
    /* The extension and the ICRC inside the UDP length (which pkt_parse
     * checked against the IPv4 total length). */
    if (rd16(f + pi->l4_off + 4) < PKT_UDP_LEN + esc + PKT_BTH_LEN + PKT_RCC_DATA_LEN + PKT_ICRC_LEN) return PKT_RCC_ELEN;
    x = f + bth_off(pi) + PKT_BTH_LEN;
    if (rd16(x) != PKT_RCC_MAGIC) return PKT_RCC_EMAGIC;
    if (x[2] != PKT_RCC_T_DATA) return PKT_RCC_ETYPE;
    if (x[3] & ~PKT_RCC_F_LAST) return PKT_RCC_EFLAGS;
    o->last = x[3] & PKT_RCC_F_LAST;
    o->ts_ns = rd64(x + 4);
    return PKT_RCC_OK;
}

int pkt_parse_rcc_ack(const uint8_t *f, const struct pkt_info *pi, struct pkt_rcc_ack *o)
{
    size_t esc = pi->has_esc ? PKT_ESC_LEN : 0;
    const uint8_t *bth, *x;

    memset(o, 0, sizeof *o);
    if (!pi->is_roce) return PKT_RCC_ENOTROCE;
    bth = f + bth_off(pi);
    if (bth[0] != RF_OP_ACK) return PKT_RCC_EOPCODE;
    /* Exactly our ACK: UDP length and IPv4 payload both. */
    if (rd16(f + pi->l4_off + 4) != PKT_RCC_ACK_UDP + esc || pi->l4_len != PKT_RCC_ACK_UDP + esc) return PKT_RCC_ELEN;
    if (bth[PKT_BTH_LEN] != RF_AETH_ACK) return PKT_RCC_EAETH;
    /* The header fields our ACK leaves 0 (pkt_build_rcc_ack through
     * rf_build_roce): BTH flags, reserved byte, AckReq and reserved bits,
     * the AETH's MSN; and the default partition key.  Anything else is not
     * our frame. */
    if (bth[1] || rd16(bth + 2) != RF_PKEY_DEFAULT || bth[4] || bth[8] || bth[PKT_BTH_LEN + 1] || bth[PKT_BTH_LEN + 2] || bth[PKT_BTH_LEN + 3])
        return PKT_RCC_EFLAGS;
    x = bth + PKT_BTH_LEN + RF_AETH_LEN;
    if (rd16(x) != PKT_RCC_MAGIC) return PKT_RCC_EMAGIC;
    if (x[2] != PKT_RCC_T_WIN && x[2] != PKT_RCC_T_BR) return PKT_RCC_ETYPE;
    if (x[3]) return PKT_RCC_EFLAGS;
    o->type = x[2];
    o->value = rd32(x + 4);
    o->n_flows = rd32(x + 8);
    o->echo_ns = rd64(x + 12);
    o->qpn = pi->dest_qpn;
    o->psn = pi->psn;
    if (o->type == PKT_RCC_T_WIN && o->value == 0) return PKT_RCC_EVALUE;
    return PKT_RCC_OK;
}

const char *pkt_rcc_strerror(int r)
{
    static const char *const names[PKT_RCC_NRESULTS] = {"ok", "notroce", "opcode", "len", "aeth", "magic",
                                                        "type", "flags", "value"};
    return r >= 0 && r < PKT_RCC_NRESULTS ? names[r] : "unknown";
}

size_t pkt_build_roce_rcc(uint8_t *f, size_t cap, const uint8_t src_mac[6], const uint8_t dst_mac[6],
                          uint32_t src_ip, uint32_t dst_ip, uint16_t sport, uint32_t dest_qpn, uint32_t psn,
                          uint32_t payload_len, int esc, uint64_t ts_ns, int last)
{
    uint8_t ext[PKT_RCC_DATA_LEN];
    struct rf_roce r = {.src_ip = src_ip, .dst_ip = dst_ip, .sport = sport, .opcode = RF_OP_WRITE_ONLY,
                        .dest_qpn = dest_qpn, .psn = psn, .pre_bth = (uint16_t)(esc ? PKT_ESC_LEN : 0),
                        .ext = ext, .ext_len = PKT_RCC_DATA_LEN, .payload = payload_len - PKT_RCC_DATA_LEN};

    if (payload_len < PKT_RCC_DATA_LEN) return 0;
    wr16(ext, PKT_RCC_MAGIC);
    ext[2] = PKT_RCC_T_DATA;
    ext[3] = last ? PKT_RCC_F_LAST : 0;
    wr64(ext + 4, ts_ns);
    memcpy(r.src_mac, src_mac, 6);
    memcpy(r.dst_mac, dst_mac, 6);
    return rf_build_roce(f, cap, &r);
}

void pkt_rcc_set_ts(uint8_t *f, int esc, uint64_t ts_ns)
{
    wr64(f + PKT_ETH_LEN + PKT_IP4_LEN + PKT_UDP_LEN + (esc ? PKT_ESC_LEN : 0) + PKT_BTH_LEN + 4, ts_ns);
}

size_t pkt_build_rcc_ack(uint8_t *f, size_t cap, const uint8_t src_mac[6], const uint8_t dst_mac[6],
                         uint32_t src_ip, uint32_t dst_ip, uint16_t sport, int esc, const struct pkt_rcc_ack *a)
{
    uint8_t ext[PKT_RCC_ACK_EXT];
    struct rf_roce r = {.src_ip = src_ip, .dst_ip = dst_ip, .sport = sport, .opcode = RF_OP_ACK,
                        .dest_qpn = a->qpn, .psn = a->psn, .has_aeth = 1, .syndrome = RF_AETH_ACK,
                        .pre_bth = (uint16_t)(esc ? PKT_ESC_LEN : 0), .ext = ext, .ext_len = PKT_RCC_ACK_EXT};

    wr16(ext, PKT_RCC_MAGIC);
    ext[2] = a->type;
    ext[3] = 0;
    wr32(ext + 4, a->value);
    wr32(ext + 8, a->n_flows);
    wr64(ext + 12, a->echo_ns);
    memcpy(r.src_mac, src_mac, 6);
    memcpy(r.dst_mac, dst_mac, 6);
    return rf_build_roce(f, cap, &r);
}
