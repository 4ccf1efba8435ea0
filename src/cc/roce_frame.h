/*
 * roce_frame.h -- bytes on the wire for RoCEv2 fabrics: Ethernet, IPv4, UDP,
 * the InfiniBand Base Transport Header (BTH) and ACK Extended Transport
 * Header (AETH), IEEE 802.1Qbb PFC frames, and the RoCC ICMP CNP framed in
 * Ethernet + IPv4 (the CNP body itself is rocc_cnp_encode's).  Pure C on
 * byte buffers: no allocation, no I/O, no globals.  Shared by the DPDK data
 * plane (dataplane/pkt.c builds its frames with it) and the simulator's
 * packet traces (src/engine/pcapout.c, docs/pcap.md).
 *
 * Frames are built without the Ethernet FCS (a NIC adds it; captures do not
 * show it).  Every builder returns the frame length, or 0 if `cap` is too
 * small or the frame cannot be expressed (IPv4 total length above 65535).
 *
 * RoCEv2 frame (IBTA Vol. 1 Annex A17, RoCEv2), network byte order:
 *
 *   Ethernet 14 | IPv4 20 (no options, DF, valid header checksum) |
 *   UDP 8 (dport 4791, checksum 0: the ICRC covers the packet) |
 *   `pre_bth` bytes (the Escape header: hops, 2 bytes; escape.h) |
 *   BTH 12 | AETH 4 (ACK/NAK only) | `ext_len` bytes given by the caller |
 *   `payload` zero bytes | ICRC 4 (a zero placeholder: nothing checks it)
 */
#ifndef ROCC_ROCE_FRAME_H
#define ROCC_ROCE_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "rocc_cnp.h"

#define RF_ETH_LEN     14
#define RF_IP4_LEN     20
#define RF_UDP_LEN      8
#define RF_BTH_LEN     12
#define RF_AETH_LEN     4
#define RF_ICRC_LEN     4
/* IEEE 802.3 minimum frame without the FCS: shorter frames are padded. */
#define RF_MIN_FRAME   60

#define RF_ETHERTYPE_IP4    0x0800
#define RF_ETHERTYPE_MACCTL 0x8808   /* IEEE 802.3 Annex 31B MAC control */
/* IEEE Std 802 Local Experimental EtherType 1: our link-local frames that
 * have no assigned type (Loop Breaker tokens, docs/pcap.md). */
#define RF_ETHERTYPE_EXP1   0x88b5
/* IEEE 802.1Qau congestion notification message (QCN feedback). */
#define RF_ETHERTYPE_CNM    0x22e9

/* BTH opcodes, IBTA Vol. 1 §9.2 opcode table: reliable connection (class
 * 000) SEND First/Middle/Last/Only and Acknowledge; RoCEv2 CNP (Annex
 * A17.9.2: opcode 1000 0001, "CNP"). */
enum rf_opcode {
    RF_OP_SEND_FIRST  = 0x00,
    RF_OP_SEND_MIDDLE = 0x01,
    RF_OP_SEND_LAST   = 0x02,
    RF_OP_SEND_ONLY   = 0x04,
    RF_OP_WRITE_ONLY  = 0x0A,   /* what rocc-host sends (dataplane/pkt.h) */
    RF_OP_ACK         = 0x11,
    RF_OP_CNP         = 0x81,
};
/* AETH syndrome (IBTA Vol. 1 §9.3.5): ACK with credit count 31 ("no flow
 * control credits advertised", bits 0-4 all ones), and NAK code 0 = PSN
 * sequence error (bits 6-5 = 11, code 0). */
#define RF_AETH_ACK          0x1f
#define RF_AETH_NAK_PSN_SEQ  0x60
/* The RoCEv2 CNP carries 16 reserved bytes after the BTH (Annex A17.9.2). */
#define RF_CNP_RSVD_LEN      16
/* Default partition key, full member (IBTA Vol. 1 §10.9). */
#define RF_PKEY_DEFAULT      0xffff

/* Frame sizes without FCS. */
#define RF_PFC_FRAME_LEN     60   /* 14 + opcode 2 + vector 2 + 8 x 2, padded */
#define RF_CNP_FRAME_LEN     (RF_ETH_LEN + RF_IP4_LEN + ROCC_CNP_ICMP_BYTES)   /* 86 */
#define RF_ROCE_CNP_FRAME_LEN \
    (RF_ETH_LEN + RF_IP4_LEN + RF_UDP_LEN + RF_BTH_LEN + RF_CNP_RSVD_LEN + RF_ICRC_LEN)   /* 74 */

struct rf_roce {
    uint8_t  dst_mac[6], src_mac[6];
    uint32_t src_ip, dst_ip;         /* host order */
    uint8_t  dscp;                   /* 0..63 */
    uint8_t  ecn;                    /* 0..3 (RFC 3168: 2 = ECT(0), 3 = CE) */
    uint16_t sport;                  /* UDP source port; dport is 4791 */
    uint8_t  opcode;                 /* enum rf_opcode */
    uint8_t  ackreq;                 /* BTH A bit */
    uint32_t dest_qpn, psn;          /* 24 bits each (masked) */
    uint8_t  has_aeth;               /* ACK/NAK: AETH follows the BTH */
    uint8_t  syndrome;               /* AETH syndrome */
    uint32_t msn;                    /* AETH message sequence number (24 bits) */
    uint16_t pre_bth;                /* 0, or 2: the Escape header (hops) */
    uint16_t esc_hops;
    const uint8_t *ext;              /* ext_len bytes after BTH/AETH (may be NULL: zeros) */
    uint16_t ext_len;
    uint32_t payload;                /* zero bytes after ext */
};

/* Ethernet header: dst, src, EtherType. */
void rf_put_eth(uint8_t *f, const uint8_t dst[6], const uint8_t src[6], uint16_t ethertype);
/* IPv4 header of 20 bytes at ip: version 4, IHL 5, the ToS byte, total
 * length tot, id 0, DF, TTL 64, protocol, addresses (host order), valid
 * header checksum. */
void rf_put_ip4(uint8_t *ip, uint8_t tos, uint16_t tot, uint8_t proto, uint32_t src, uint32_t dst);

/* A RoCEv2 frame as laid out above. */
size_t rf_build_roce(uint8_t *f, size_t cap, const struct rf_roce *r);

/* Ethernet + IPv4 (protocol 1, ToS tos) + the 52-byte RoCC CNP of
 * rocc_cnp_encode: RF_CNP_FRAME_LEN bytes. */
size_t rf_build_rocc_cnp(uint8_t *f, size_t cap, const uint8_t dst_mac[6], const uint8_t src_mac[6],
                         uint32_t src_ip, uint32_t dst_ip, uint8_t tos, const struct rocc_cnp *c);

/* IEEE 802.1Qbb PFC frame from src: destination 01:80:C2:00:00:01,
 * EtherType 0x8808, opcode 0x0101, class-enable vector vec, quanta[8]
 * (class 0 first; classes not in vec are sent as 0), zero padding to 60
 * bytes.  RF_PFC_FRAME_LEN. */
extern const uint8_t rf_macctl_dst[6];
size_t rf_build_pfc(uint8_t *f, size_t cap, const uint8_t src[6], uint8_t vec, const uint16_t quanta[8]);

/* An Ethernet frame carrying body (body_len bytes) after the header,
 * zero-padded to RF_MIN_FRAME. */
size_t rf_build_l2(uint8_t *f, size_t cap, const uint8_t dst[6], const uint8_t src[6], uint16_t ethertype,
                   const uint8_t *body, size_t body_len);

#endif
