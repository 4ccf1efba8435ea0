/* roce_frame.c -- see roce_frame.h. */
#include "roce_frame.h"

#include <string.h>

static void wr16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void wr32(uint8_t *p, uint32_t v) { wr16(p, v >> 16); wr16(p + 2, v); }

/* IPv4 fields (RFC 791): version 4 / IHL 5, DF (RoCEv2 is not fragmented),
 * TTL 64 (the usual default). */
#define IP_VER_IHL 0x45
#define IP_DF      0x4000
#define IP_TTL     64
#define MASK24     0xffffffu

const uint8_t rf_macctl_dst[6] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x01};

void rf_put_eth(uint8_t *f, const uint8_t dst[6], const uint8_t src[6], uint16_t ethertype)
{
    memcpy(f, dst, 6);
    memcpy(f + 6, src, 6);
    wr16(f + 12, ethertype);
}

void rf_put_ip4(uint8_t *ip, uint8_t tos, uint16_t tot, uint8_t proto, uint32_t src, uint32_t dst)
{
    memset(ip, 0, RF_IP4_LEN);
    ip[0] = IP_VER_IHL;
    ip[1] = tos;
    wr16(ip + 2, tot);
    wr16(ip + 6, IP_DF);
    ip[8] = IP_TTL;
    ip[9] = proto;
    wr32(ip + 12, src);
    wr32(ip + 16, dst);
    wr16(ip + 10, rocc_inet_checksum(ip, RF_IP4_LEN));
}

size_t rf_build_roce(uint8_t *f, size_t cap, const struct rf_roce *r)
{
    size_t aeth = r->has_aeth ? RF_AETH_LEN : 0;
    size_t udp_len = (size_t)RF_UDP_LEN + r->pre_bth + RF_BTH_LEN + aeth + r->ext_len + (size_t)r->payload + RF_ICRC_LEN;
    size_t n = RF_ETH_LEN + RF_IP4_LEN + udp_len;
    uint8_t *udp, *bth, *p;

    if (!f || n > cap || RF_IP4_LEN + udp_len > 0xffff) return 0;
    rf_put_eth(f, r->dst_mac, r->src_mac, RF_ETHERTYPE_IP4);
    rf_put_ip4(f + RF_ETH_LEN, (uint8_t)((r->dscp & 63u) << 2 | (r->ecn & 3u)), (uint16_t)(RF_IP4_LEN + udp_len), 17,
               r->src_ip, r->dst_ip);
    udp = f + RF_ETH_LEN + RF_IP4_LEN;
    wr16(udp, r->sport);
    wr16(udp + 2, ROCC_ROCEV2_UDP_PORT);
    wr16(udp + 4, (uint32_t)udp_len);
    wr16(udp + 6, 0);                   /* RoCEv2: UDP checksum 0, the ICRC covers the packet */
    bth = udp + RF_UDP_LEN;
    if (r->pre_bth) {
        memset(bth, 0, r->pre_bth);
        if (r->pre_bth >= 2) wr16(bth, r->esc_hops);
        bth += r->pre_bth;
    }
    bth[0] = r->opcode;
    bth[1] = 0;                         /* SE 0, MigReq 0, pad count 0, TVer 0 */
    wr16(bth + 2, RF_PKEY_DEFAULT);
    wr32(bth + 4, r->dest_qpn & MASK24);    /* reserved byte 0, dest QP */
    wr32(bth + 8, (r->psn & MASK24) | (r->ackreq ? 0x80000000u : 0));
    p = bth + RF_BTH_LEN;
    if (aeth) {
        wr32(p, (uint32_t)r->syndrome << 24 | (r->msn & MASK24));
        p += RF_AETH_LEN;
    }
    if (r->ext_len) {
        if (r->ext) memcpy(p, r->ext, r->ext_len);
        else memset(p, 0, r->ext_len);
        p += r->ext_len;
    }
    memset(p, 0, (size_t)r->payload + RF_ICRC_LEN);
    return n;
}

size_t rf_build_rocc_cnp(uint8_t *f, size_t cap, const uint8_t dst_mac[6], const uint8_t src_mac[6],
                         uint32_t src_ip, uint32_t dst_ip, uint8_t tos, const struct rocc_cnp *c)
{
    if (!f || cap < RF_CNP_FRAME_LEN) return 0;
    rf_put_eth(f, dst_mac, src_mac, RF_ETHERTYPE_IP4);
    rf_put_ip4(f + RF_ETH_LEN, tos, RF_IP4_LEN + ROCC_CNP_ICMP_BYTES, 1, src_ip, dst_ip);
    if (rocc_cnp_encode(c, f + RF_ETH_LEN + RF_IP4_LEN, ROCC_CNP_ICMP_BYTES) != ROCC_CNP_ICMP_BYTES) return 0;
    return RF_CNP_FRAME_LEN;
}

size_t rf_build_pfc(uint8_t *f, size_t cap, const uint8_t src[6], uint8_t vec, const uint16_t quanta[8])
{
    if (!f || cap < RF_PFC_FRAME_LEN) return 0;
    memset(f, 0, RF_PFC_FRAME_LEN);
    rf_put_eth(f, rf_macctl_dst, src, RF_ETHERTYPE_MACCTL);
    wr16(f + 14, 0x0101);               /* IEEE 802.1Qbb opcode */
    f[17] = vec;                        /* the high octet of the vector is reserved: 0 */
    for (unsigned c = 0; c < 8; c++) wr16(f + 18 + 2 * c, (vec & (1u << c)) ? quanta[c] : 0);
    return RF_PFC_FRAME_LEN;
}

size_t rf_build_l2(uint8_t *f, size_t cap, const uint8_t dst[6], const uint8_t src[6], uint16_t ethertype,
                   const uint8_t *body, size_t body_len)
{
    size_t n = RF_ETH_LEN + body_len;
    if (n < RF_MIN_FRAME) n = RF_MIN_FRAME;
    if (!f || n > cap) return 0;
    memset(f, 0, n);
    rf_put_eth(f, dst, src, ethertype);
    if (body_len) memcpy(f + RF_ETH_LEN, body, body_len);
    return n;
}
