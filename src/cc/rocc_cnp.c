/*
 * rocc_cnp.c -- encode/decode of the RoCC CNP (§3.3); layout in rocc_cnp.h.
 *
 * Byte order is explicit (put/get helpers), so the code is the same on any
 * host and never does unaligned loads.  decode checks length first and then
 * reads only buf[0 .. ROCC_CNP_ICMP_BYTES-1].
 */
#include "rocc_cnp.h"

#include <string.h>

/* Offsets in the ICMP message (layout diagram in rocc_cnp.h, §3.3). */
#define OFF_TYPE   0
#define OFF_CODE   1
#define OFF_CSUM   2
#define OFF_RATE   4
#define OFF_CPID   8
#define OFF_IP     12
#define OFF_UDP    32
#define OFF_BTH    40
/* Quoted header sizes: IPv4 without options (RFC 791), UDP (RFC 768),
 * InfiniBand Base Transport Header (IBA Vol. 1, BTH definition). */
#define IP_BYTES   20
#define UDP_BYTES  8
#define BTH_BYTES  12
/* IPv4 fields we synthesize: version 4 / IHL 5 words (RFC 791), DF flag
 * (RoCEv2 packets are not fragmented), TTL 64 (RFC 1700 default),
 * protocol 17 = UDP (IANA). */
#define IP_VER_IHL 0x45
#define IP_DF      0x4000
#define IP_TTL     64
#define IP_PROTO_UDP 17
/* BTH: opcode 0x0A = RC RDMA WRITE Only (IBA Vol. 1 opcode table: RC
 * class 000, operation 01010), a typical RoCE data packet; P_Key 0xffff =
 * the default partition, full member (IBA Vol. 1, partitioning).  The RP
 * matches on dest QPN only, so the opcode is informative. */
#define BTH_OPCODE 0x0A
#define BTH_PKEY   0xffff
/* BTH dest QP and PSN are 24-bit fields (IBA Vol. 1, BTH definition). */
#define MASK24     0xffffffu

static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void put24(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 16); put16(p + 1, v); }
static void put32(uint8_t *p, uint32_t v) { put16(p, v >> 16); put16(p + 2, v); }
static uint32_t get16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t get24(const uint8_t *p) { return (uint32_t)p[0] << 16 | get16(p + 1); }
static uint32_t get32(const uint8_t *p) { return get16(p) << 16 | get16(p + 2); }

uint16_t rocc_inet_checksum(const uint8_t *buf, size_t len)
{
    uint64_t sum = 0;
    size_t i;

    for (i = 0; i + 1 < len; i += 2)
        sum += get16(buf + i);
    if (len & 1)
        sum += (uint32_t)buf[len - 1] << 8;
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    return (uint16_t)~sum;
}

size_t rocc_cnp_encode(const struct rocc_cnp *c, uint8_t *buf, size_t len)
{
    uint8_t *ip, *udp, *bth;

    if (!c || !buf || len < ROCC_CNP_ICMP_BYTES) return 0;
    /* after the check: buf + k on a NULL buf is undefined (clang UBSan) */
    ip = buf + OFF_IP;
    udp = buf + OFF_UDP;
    bth = buf + OFF_BTH;
    memset(buf, 0, ROCC_CNP_ICMP_BYTES);

    buf[OFF_TYPE] = ROCC_CNP_ICMP_TYPE;
    buf[OFF_CODE] = ROCC_CNP_ICMP_CODE;
    put32(buf + OFF_RATE, c->rate_units);
    put32(buf + OFF_CPID, c->cp_id);

    ip[0] = IP_VER_IHL;
    put16(ip + 2, IP_BYTES + UDP_BYTES + BTH_BYTES);   /* total length */
    put16(ip + 6, IP_DF);
    ip[8] = IP_TTL;
    ip[9] = IP_PROTO_UDP;
    put32(ip + 12, c->src_ip);
    put32(ip + 16, c->dst_ip);
    put16(ip + 10, rocc_inet_checksum(ip, IP_BYTES));

    put16(udp + 0, c->sport);
    put16(udp + 2, c->dport);
    put16(udp + 4, UDP_BYTES + BTH_BYTES);             /* UDP length; csum 0 */

    bth[0] = BTH_OPCODE;
    put16(bth + 2, BTH_PKEY);
    put24(bth + 5, c->dest_qpn & MASK24);
    put24(bth + 9, c->psn & MASK24);

    put16(buf + OFF_CSUM, rocc_inet_checksum(buf, ROCC_CNP_ICMP_BYTES));
    return ROCC_CNP_ICMP_BYTES;
}

int rocc_cnp_decode(const uint8_t *buf, size_t len, struct rocc_cnp *out)
{
    const uint8_t *ip, *udp, *bth;

    if (!buf) return ROCC_CNP_EARG;
    if (len < ROCC_CNP_ICMP_BYTES) return ROCC_CNP_ESHORT;
    if (buf[OFF_TYPE] != ROCC_CNP_ICMP_TYPE || buf[OFF_CODE] != ROCC_CNP_ICMP_CODE)
        return ROCC_CNP_ETYPE;
    if (rocc_inet_checksum(buf, ROCC_CNP_ICMP_BYTES) != 0) return ROCC_CNP_ECSUM;
    ip = buf + OFF_IP; udp = buf + OFF_UDP; bth = buf + OFF_BTH;
    if (ip[0] != IP_VER_IHL || ip[9] != IP_PROTO_UDP) return ROCC_CNP_EIPHDR;
    if (out) {
        memset(out, 0, sizeof *out);           /* form RATE, host fields 0 */
        out->rate_units = get32(buf + OFF_RATE);
        out->cp_id = get32(buf + OFF_CPID);
        out->src_ip = get32(ip + 12);
        out->dst_ip = get32(ip + 16);
        out->sport = (uint16_t)get16(udp + 0);
        out->dport = (uint16_t)get16(udp + 2);
        out->dest_qpn = get24(bth + 5);
        out->psn = get24(bth + 9);
    }
    return ROCC_CNP_OK;
}

size_t rocc_cnp_form_bytes(int form, int auth)
{
    size_t n;

    switch (form) {
    case ROCC_CNP_FORM_RATE:      n = ROCC_CNP_ICMP_BYTES; break;
    case ROCC_CNP_FORM_HOST_FULL: n = ROCC_CNP_HFULL_ICMP_BYTES; break;
    case ROCC_CNP_FORM_HOST_REG:  n = ROCC_CNP_HREG_ICMP_BYTES; break;
    default:                      return 0;
    }
    return auth ? n + 8 : n;      /* the SipHash tag (rocc_cnpauth.h) */
}

const char *rocc_cnp_strerror(int err)
{
    switch (err) {
    case ROCC_CNP_OK:     return "ok";
    case ROCC_CNP_ESHORT: return "CNP too short";
    case ROCC_CNP_ETYPE:  return "not a RoCC CNP (ICMP type/code)";
    case ROCC_CNP_ECSUM:  return "bad ICMP checksum";
    case ROCC_CNP_EIPHDR: return "bad quoted IPv4 header";
    case ROCC_CNP_EARG:   return "NULL buffer";
    case ROCC_CNP_ELEN:   return "wrong CNP length";
    case ROCC_CNP_EAUTH:  return "CNP authenticator missing or wrong";
    case ROCC_CNP_EBIND:  return "CP id not bound to the source address";
    case ROCC_CNP_EPARAM: return "host-form CNP with inconsistent parameters";
    case ROCC_CNP_EFORM:  return "CNP form not accepted here";
    default:              return "unknown CNP error";
    }
}
