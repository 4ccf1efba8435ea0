/*
 * pkt.h -- Ethernet/IPv4/UDP/BTH (RoCEv2) and RoCC CNP frames for the DPDK
 * data plane (issue 5).  Pure C on byte buffers: no DPDK types, so the
 * parser can be exercised without EAL and both programs share one copy.
 *
 * The parser is the trust boundary: every frame the switch or a host takes
 * off the wire goes through pkt_parse() first, which never reads past the
 * length it is given and classifies what it rejects so callers can count
 * truncated, non-IPv4 and bad-header frames separately.
 */
#ifndef DP_PKT_H
#define DP_PKT_H

#include <stddef.h>
#include <stdint.h>

#include "rocc_cnp.h"
#include "rocc_cnpauth.h"
#include "lscc_fb.h"
#include "escape.h"

#define PKT_ETH_LEN   14
#define PKT_IP4_LEN   20   /* we build headers without options */
#define PKT_UDP_LEN   8
#define PKT_BTH_LEN   12
#define PKT_ICRC_LEN  4
/* Bytes a frame occupies on the wire beyond what the NIC hands us:
 * FCS 4 + preamble/SFD 8 + inter-frame gap 12.  Pacers, the token bucket and
 * reported rates all use "wire bytes" (len + this), as the simulator does. */
#define PKT_WIRE_OVERHEAD 24
/* RoCEv2 headers in front of the payload (Eth+IP+UDP+BTH) plus ICRC. */
#define PKT_ROCE_HDRS (PKT_ETH_LEN + PKT_IP4_LEN + PKT_UDP_LEN + PKT_BTH_LEN + PKT_ICRC_LEN)
#define PKT_CNP_FRAME_LEN (PKT_ETH_LEN + PKT_IP4_LEN + ROCC_CNP_ICMP_BYTES)
/* The same with the 8-byte SipHash tag (rocc_cnpauth.h): 94 bytes. */
#define PKT_CNP_AUTH_FRAME_LEN (PKT_ETH_LEN + PKT_IP4_LEN + ROCC_CNP_AUTH_ICMP_BYTES)

enum pkt_result {
    PKT_OK = 0,
    PKT_ETRUNC,      /* shorter than the headers it claims to carry */
    PKT_ENOTIP4,     /* ethertype is not IPv4 (ARP, IPv6, VLAN, ...) */
    PKT_EIPHDR,      /* IPv4 version != 4, IHL < 5, tot_len < IHL*4 or beyond the frame */
    PKT_ENRESULTS
};

/* What the data plane needs from a frame; addresses and ports in host order. */
struct pkt_info {
    uint32_t src_ip, dst_ip;
    uint8_t  proto, ttl;
    uint16_t l3_off;         /* offset of the IPv4 header */
    uint16_t l4_off;         /* offset of the L4 header (l3_off + IHL*4) */
    uint16_t ip_len;         /* IPv4 tot_len */
    uint16_t sport, dport;   /* UDP only */
    uint8_t  is_roce;        /* UDP dport 4791 with a complete BTH */
    uint8_t  is_first_frag;  /* offset 0: L4 header present */
    uint32_t dest_qpn, psn;  /* BTH, when is_roce */
    uint8_t  bth_opcode;     /* BTH opcode, when is_roce (0x81: a RoCEv2 CNP) */
    uint16_t l4_len;         /* bytes of L4 header+payload inside tot_len */
    uint16_t esc_hops;       /* pkt_parse_esc: the Escape header's hops (when has_esc) */
    uint8_t  has_esc;        /* pkt_parse_esc: a RoCEv2 frame with the Escape header */
};

/* Counters of rejected frames, indexed by enum pkt_result. */
struct pkt_drops { uint64_t n[PKT_ENRESULTS]; };

int pkt_parse(const uint8_t *f, size_t len, struct pkt_info *out);
const char *pkt_strerror(int r);

/* --- Escape (src/cc/escape.h; --escape in rocc-switch and rocc-host) -----------
 * Data frames carry the Escape header -- hops, 2 bytes, network order --
 * between the UDP header and the BTH (Menikkumbura 2022 §4.3.1(4); size:
 * escape.h ESC_HDR_BYTES).  In an Escape run every RoCEv2 frame carries it:
 * pkt_parse_esc reads it (has_esc, esc_hops) and the BTH after it. */
#define PKT_ESC_LEN ESC_HDR_BYTES
int pkt_parse_esc(const uint8_t *f, size_t len, struct pkt_info *out);
/* Rewrite the hops of a frame pkt_parse_esc accepted with has_esc. */
void pkt_esc_set_hops(uint8_t *f, const struct pkt_info *pi, uint16_t hops);
/* pkt_build_roce with the Escape header (hops 0): 2 bytes longer. */
size_t pkt_build_roce_esc(uint8_t *f, size_t cap, const uint8_t src_mac[6], const uint8_t dst_mac[6],
                          uint32_t src_ip, uint32_t dst_ip, uint16_t sport,
                          uint32_t dest_qpn, uint32_t psn, uint32_t payload_len);
/* Escape token frames (ETF, MAC control opcode 0x0102): why one is refused.
 * pkt_parse_etf returns OK..SRC; the rest are the switch's own checks
 * (NEIGH: not from the port's neighbour; PORT: the port does not face an
 * Escape switch) and the state machine's drops (UNKNOWN: flow not in the
 * flow table; BAD: hops above --esc-max-hops; OPEN: the port is not paused,
 * escape.h C11 -- a replay or a forgery).  A token dropped because the
 * pool is exhausted is a normal end (§4.4.5 case 1), counted by the state
 * machine (tok_drop_pool), not here. */
enum pkt_etf_result {
    PKT_ETF_OK = 0,
    PKT_ETF_ELEN,        /* not 60..64 bytes */
    PKT_ETF_EDST,        /* destination not 01:80:C2:00:00:01 or EtherType not 0x8808 */
    PKT_ETF_EOPCODE,     /* opcode not 0x0102 */
    PKT_ETF_EHOPS,       /* hops 0 */
    PKT_ETF_EPAD,        /* padding after hops not zero */
    PKT_ETF_ESRC,        /* source MAC multicast or zero */
    PKT_ETF_ENEIGH,
    PKT_ETF_EPORT,
    PKT_ETF_EUNKNOWN,
    PKT_ETF_EBAD,
    PKT_ETF_EOPEN,       /* the port is not paused by its neighbour: no genuine token comes there (C11) */
    PKT_ETF_NRESULTS
};
int pkt_parse_etf(const uint8_t *f, size_t len, uint8_t src[6], struct esc_token *t);
const char *pkt_etf_strerror(int r);

/* Build a RoCEv2 RDMA WRITE Only frame with payload_len zero bytes after the
 * BTH, then a 4-byte ICRC placeholder (zero: nothing on this path checks it).
 * Returns the frame length, 0 if cap is too small. */
size_t pkt_build_roce(uint8_t *f, size_t cap, const uint8_t src_mac[6], const uint8_t dst_mac[6],
                      uint32_t src_ip, uint32_t dst_ip, uint16_t sport,
                      uint32_t dest_qpn, uint32_t psn, uint32_t payload_len);

/* Build Eth + IPv4 (proto 1) + the 52-byte CNP of rocc_cnp_encode().
 * Returns PKT_CNP_FRAME_LEN, or 0 if cap is too small. */
size_t pkt_build_cnp(uint8_t *f, size_t cap, const uint8_t src_mac[6], const uint8_t dst_mac[6],
                     uint32_t src_ip, uint32_t dst_ip, const struct rocc_cnp *c);

/* Build Eth + IPv4 + the 60-byte authenticated CNP of rocc_cnp_encode_auth()
 * (tag over src_ip, dst_ip and the CNP under key).  Returns
 * PKT_CNP_AUTH_FRAME_LEN, or 0 if cap is too small. */
size_t pkt_build_cnp_auth(uint8_t *f, size_t cap, const uint8_t src_mac[6], const uint8_t dst_mac[6],
                          uint32_t src_ip, uint32_t dst_ip, const struct rocc_cnp *c,
                          const uint8_t key[ROCC_CNP_KEY_BYTES]);

/* Build Eth + IPv4 + a CNP of c->form (RATE, or RoCC §3.6's HOST_FULL /
 * HOST_REG, rocc_cnp.h), tagged under key when key != NULL
 * (rocc_cnp_encode_form).  Returns the frame length (PKT_ETH_LEN +
 * PKT_IP4_LEN + rocc_cnp_form_bytes(form, key != NULL)), or 0 if cap is
 * too small or the form unknown. */
size_t pkt_build_cnp_form(uint8_t *f, size_t cap, const uint8_t src_mac[6], const uint8_t dst_mac[6],
                          uint32_t src_ip, uint32_t dst_ip, const struct rocc_cnp *c, const uint8_t *key);

/* Decrement TTL and patch the IPv4 header checksum in place (RFC 1624).
 * Returns 0, or -1 when the TTL was already <= 1 (caller drops). */
int pkt_ip4_dec_ttl(uint8_t *f, const struct pkt_info *pi);

/* --- ARP (RFC 826, IPv4 over Ethernet only) ------------------------------ */
#define PKT_ETHERTYPE_IP4 0x0800
#define PKT_ETHERTYPE_ARP 0x0806
#define PKT_ARP_LEN       28
/* ARP frames are built padded to the 60-byte Ethernet minimum. */
#define PKT_ARP_FRAME_LEN 60
enum { PKT_ARP_REQUEST = 1, PKT_ARP_REPLY = 2 };

struct pkt_arp { uint16_t op; uint8_t sha[6], tha[6]; uint32_t spa, tpa; };

/* Ethertype of a frame (0 if shorter than an Ethernet header). */
uint16_t pkt_ethertype(const uint8_t *f, size_t len);
/* Parse an ARP frame.  0, or -1 (malformed: the caller counts and drops it)
 * when it is shorter than 14 + 28 bytes, not htype 1 / ptype 0x0800 /
 * hlen 6 / plen 4, op not request or reply, or the sender MAC is a
 * multicast/broadcast or all-zero address.  spa 0 (an RFC 5227 probe) is
 * well-formed: callers answer it but learn nothing from it. */
int pkt_parse_arp(const uint8_t *f, size_t len, struct pkt_arp *a);
/* Build an ARP frame (Ethernet destination eth_dst, source sha).  Returns
 * PKT_ARP_FRAME_LEN, or 0 if cap is too small. */
size_t pkt_build_arp(uint8_t *f, size_t cap, uint16_t op, const uint8_t eth_dst[6],
                     const uint8_t sha[6], uint32_t spa, const uint8_t tha[6], uint32_t tpa);

/* --- ECN (RFC 3168) --------------------------------------------------------- */
enum { PKT_ECN_NOT_ECT = 0, PKT_ECN_ECT1 = 1, PKT_ECN_ECT0 = 2, PKT_ECN_CE = 3 };
/* The ECN field of a parsed IPv4 frame. */
int pkt_ip4_ecn(const uint8_t *f, const struct pkt_info *pi);
/* Set the ECN field, patching the header checksum (RFC 1624). */
void pkt_ip4_set_ecn(uint8_t *f, const struct pkt_info *pi, int ecn);
/* Set the DSCP (0..63, the ToS byte's upper six bits), keeping the ECN
 * field and patching the header checksum (RFC 1624). */
void pkt_ip4_set_dscp(uint8_t *f, const struct pkt_info *pi, unsigned dscp);
/* RED-style marking decision for a queue of q bytes: never at q <= kmin,
 * always at q >= kmax, else with probability pmax·(q−kmin)/(kmax−kmin),
 * drawn from rnd (uniform 32-bit).  1 = mark. */
int pkt_red_mark(uint64_t q, uint64_t kmin, uint64_t kmax, double pmax, uint32_t rnd);

/* --- MAC control: IEEE 802.1Qbb priority flow control (PFC) ------------------
 *
 *   dst 01:80:C2:00:00:01 | src | 0x8808 | opcode 0x0101 | class-enable vector
 *   (16 bits: high octet reserved, bit n = class n) | 8 × 16-bit pause quanta
 *   (class 0 first) | zero padding to 60 bytes (the 64-byte minimum less FCS)
 *
 * Quanta > 0 pause the class for that many 512-bit times, 0 resumes it
 * (src/cc/pfc.h has the state machine).  A MAC control frame is a security
 * boundary like a CNP: pkt_parse_pfc refuses anything but a well-formed PFC
 * frame and says why, and the caller counts the reason and drops it. */
#define PKT_ETHERTYPE_MACCTL 0x8808
#define PKT_MACCTL_PAUSE     0x0001   /* IEEE 802.3x PAUSE (not implemented: refused as an opcode) */
#define PKT_MACCTL_PFC       0x0101   /* IEEE 802.1Qbb */
#define PKT_PFC_LEN          34       /* 14 + opcode 2 + vector 2 + 8 × 2 */
#define PKT_PFC_FRAME_LEN    60
enum pkt_pfc_result {
    PKT_PFC_OK = 0,
    PKT_PFC_ELEN,        /* not exactly PKT_PFC_FRAME_LEN bytes */
    PKT_PFC_EDST,        /* destination is not 01:80:C2:00:00:01 */
    PKT_PFC_EOPCODE,     /* MAC control opcode is not 0x0101 (802.3x PAUSE 0x0001 included) */
    PKT_PFC_ERESERVED,   /* reserved high octet of the class-enable vector is not zero */
    PKT_PFC_EEMPTY,      /* no class enabled */
    PKT_PFC_ESRC,        /* source MAC is multicast/broadcast or all-zero */
    PKT_PFC_ENEIGH,      /* well-formed, but not from the port's neighbour (the caller's check) */
    PKT_PFC_NRESULTS
};
struct pkt_pfc { uint8_t src[6]; uint8_t vec; uint16_t quanta[8]; };
extern const uint8_t pkt_pfc_dst[6];
/* Parse a frame of EtherType 0x8808: PKT_PFC_OK with *o filled, or the
 * first reason it is refused (in the enum's order; a frame of another
 * EtherType is PKT_PFC_EOPCODE). */
int pkt_parse_pfc(const uint8_t *f, size_t len, struct pkt_pfc *o);
/* Short name of a reason, for counters ("len", "dst", "opcode", ...). */
const char *pkt_pfc_strerror(int r);
/* Build a PFC frame from src with class-enable vector vec and quanta[8]
 * (quanta of classes not in vec are sent as 0).  PKT_PFC_FRAME_LEN, or 0 if
 * cap is too small. */
size_t pkt_build_pfc(uint8_t *f, size_t cap, const uint8_t src[6], uint8_t vec, const uint16_t quanta[8]);
/* The 802.1p class of an IPv4 frame's DSCP: DSCP >> 3 (CS0..CS7). */
static inline unsigned pkt_ip4_dscp_class(const uint8_t *f, const struct pkt_info *pi)
{
    return (unsigned)(f[pi->l3_off + 1] >> 5);
}

/* --- LSCC (rocc-switch --lscc, dataplane/sw_lscc.c; docs/crossdc.md) -------
 * The feedback frame from the rate calculation at one end of a long-haul
 * link to the rate limiting at the other end: the paper's "prioritized
 * ICMP message" (LSCC §III-B) as a 60-byte link-local frame between two
 * adjacent switches.  Its layout, the optional SipHash tag (--lscc-key) and
 * the (epoch, seq) freshness rule are librocc's (src/cc/lscc_fb.h), the
 * same code the simulator's FC_SUB_AGENT frame runs (src/net/agent_lscc.c).
 * Reasons a frame has no effect, in the order they are checked:
 * lscc_fb_parse's (LEN..TAG), then the switch's own (PORT: not an --lscc
 * port; NEIGH: not from the port's neighbour; RATE: above the port's Rmax),
 * then lscc_fb_rx_accept's (EPOCH: an older epoch; SEQ: not newer in the
 * same epoch, a replay). */
#define PKT_ETHERTYPE_LSCC LSCC_FB_ETHERTYPE
#define PKT_LSCC_FB_LEN    LSCC_FB_FRAME_BYTES
enum pkt_lscc_result {
    PKT_LSCC_OK = LSCC_FB_OK,
    PKT_LSCC_ELEN = LSCC_FB_ELEN, PKT_LSCC_EDST = LSCC_FB_EDST, PKT_LSCC_EMAGIC = LSCC_FB_EMAGIC,
    PKT_LSCC_EUNITS = LSCC_FB_EUNITS, PKT_LSCC_EPAD = LSCC_FB_EPAD, PKT_LSCC_ESRC = LSCC_FB_ESRC,
    PKT_LSCC_ETAG = LSCC_FB_ETAG,
    PKT_LSCC_EPORT,
    PKT_LSCC_ENEIGH,
    PKT_LSCC_ERATE,
    PKT_LSCC_EEPOCH,
    PKT_LSCC_ESEQ,
    PKT_LSCC_NRESULTS
};
/* Short name of a reason ("len", ..., "tag", "port", "neigh", "rate", "epoch", "seq"). */
const char *pkt_lscc_strerror(int r);

/* RoCEv2 CNP (IBTA Annex A17.9.2: BTH opcode 0x81, 16 reserved bytes, ICRC;
 * 74 bytes without FCS, RF_ROCE_CNP_FRAME_LEN) to dst_ip for its QP
 * dest_qpn: what DCQCN's NP sends, and LSCC's direct CNP. */
#define PKT_ROCE_CNP_LEN 74
size_t pkt_build_roce_cnp(uint8_t *f, size_t cap, const uint8_t src_mac[6], const uint8_t dst_mac[6],
                          uint32_t src_ip, uint32_t dst_ip, uint16_t sport, uint32_t dest_qpn);
/* A frame pkt_parse accepted as RoCEv2 with BTH opcode 0x81: 0 if it is a
 * well-formed CNP (exactly PKT_ROCE_CNP_LEN bytes, IPv4 without options,
 * UDP length 40, reserved bytes zero), else -1. */
int pkt_roce_cnp_ok(const uint8_t *f, size_t len, const struct pkt_info *pi);

/* --- RCC (Zhang et al., ICNP 2021; rocc-host --cc rcc|rcc_sender) ------------
 * The paper gives no wire format (docs/rcc.md "Data plane"); ours, inside
 * ordinary RoCEv2 frames (Escape header before the BTH when has_esc):
 *
 *   Data: RDMA WRITE Only (BTH opcode 0x0A) whose first 12 payload bytes are
 *     the RCC data extension -- magic 0x5243 ("RC"), type 1, flags (bit 0:
 *     the message's last frame, §III-D's Last opcode; other bits 0), the
 *     send time in ns on the sending machine's CLOCK_MONOTONIC (64 bits).
 *     The frame keeps its length: the extension takes payload bytes.
 *   ACK: RC Acknowledge (opcode 0x11; dest QPN = the data frame's, PSN = the
 *     data frame's), AETH (syndrome 0x1f: ACK), then the 20-byte RCC ACK
 *     extension -- magic 0x5243, type 2 (rcc: value = the window in bytes,
 *     >= 1) or 3 (rcc_sender: value = B_R in Mb/s), flags 0, value (32),
 *     N (32: messages the receiver counts), the data frame's send time
 *     echoed (64, ns), then the ICRC.  82 bytes (84 with --escape).
 * All fields big endian.  pkt_parse_rcc_data/_ack take a frame pkt_parse
 * (or pkt_parse_esc) accepted and refuse anything else with a reason the
 * caller counts; a refused frame has no effect on RCC. */
#define PKT_RCC_MAGIC     0x5243
#define PKT_RCC_DATA_LEN  12
#define PKT_RCC_ACK_EXT   20
#define PKT_RCC_ACK_UDP   (PKT_UDP_LEN + PKT_BTH_LEN + 4 + PKT_RCC_ACK_EXT + PKT_ICRC_LEN)   /* 48 */
#define PKT_RCC_ACK_FRAME_LEN (PKT_ETH_LEN + PKT_IP4_LEN + PKT_RCC_ACK_UDP)                 /* 82 */
#define PKT_RCC_F_LAST    1
enum { PKT_RCC_T_DATA = 1, PKT_RCC_T_WIN = 2, PKT_RCC_T_BR = 3 };
enum pkt_rcc_result {
    PKT_RCC_OK = 0,
    PKT_RCC_ENOTROCE,    /* not a RoCEv2 frame (pkt_parse's is_roce) */
    PKT_RCC_EOPCODE,     /* data: BTH opcode not WRITE Only; ACK: not Acknowledge */
    PKT_RCC_ELEN,        /* data: payload shorter than the extension; ACK: UDP/IP length not exact */
    PKT_RCC_EAETH,       /* ACK: AETH syndrome not 0x1f (ACK) */
    PKT_RCC_EMAGIC,      /* extension magic not 0x5243 */
    PKT_RCC_ETYPE,       /* type not 1 (data) / 2 or 3 (ACK) */
    PKT_RCC_EFLAGS,      /* reserved flag bits set (ACK: also BTH flags, reserved, AckReq or AETH MSN not 0, P_Key not the default) */
    PKT_RCC_EVALUE,      /* ACK type 2 with a window of 0 */
    PKT_RCC_NRESULTS
};
struct pkt_rcc_data { uint64_t ts_ns; uint8_t last; };
struct pkt_rcc_ack  { uint8_t type; uint32_t value, n_flows, qpn, psn; uint64_t echo_ns; };
int pkt_parse_rcc_data(const uint8_t *f, const struct pkt_info *pi, struct pkt_rcc_data *o);
int pkt_parse_rcc_ack(const uint8_t *f, const struct pkt_info *pi, struct pkt_rcc_ack *o);
/* Short name of a reason, for counters ("len", "magic", ...). */
const char *pkt_rcc_strerror(int r);
/* The BTH opcode of a frame pkt_parse/pkt_parse_esc accepted with is_roce. */
static inline uint8_t pkt_bth_opcode(const uint8_t *f, const struct pkt_info *pi)
{
    return f[pi->l4_off + PKT_UDP_LEN + (pi->has_esc ? PKT_ESC_LEN : 0)];
}
/* pkt_build_roce (esc: with the Escape header) whose payload starts with
 * the RCC data extension; payload_len >= PKT_RCC_DATA_LEN, else 0. */
size_t pkt_build_roce_rcc(uint8_t *f, size_t cap, const uint8_t src_mac[6], const uint8_t dst_mac[6],
                          uint32_t src_ip, uint32_t dst_ip, uint16_t sport, uint32_t dest_qpn, uint32_t psn,
                          uint32_t payload_len, int esc, uint64_t ts_ns, int last);
/* Rewrite the send time of a frame pkt_build_roce_rcc built (stamped
 * just before it is handed to the PMD). */
void pkt_rcc_set_ts(uint8_t *f, int esc, uint64_t ts_ns);
/* The ACK above from src to dst for a->qpn/a->psn (esc: Escape header,
 * hops 0).  Its length, or 0 if cap is too small. */
size_t pkt_build_rcc_ack(uint8_t *f, size_t cap, const uint8_t src_mac[6], const uint8_t dst_mac[6],
                         uint32_t src_ip, uint32_t dst_ip, uint16_t sport, int esc, const struct pkt_rcc_ack *a);

/* Command-line numbers, strict: one parser for every option of rocc-host
 * and rocc-switch, so that none takes what strtoull/strtod would quietly
 * bend -- a sign ("-1" wraps to 2^64 - 1), leading space, an empty string
 * (0), a value past 2^64 (saturated), NaN or infinity, or a value outside
 * the option's range.
 *
 * pkt_parse_u64: decimal digits only (hex = 1: also 0x followed by hex
 * digits; hex = 16: hex digits, no prefix; never octal), in lo..hi.  With end == NULL the whole string
 * must be the number; otherwise *end is set past its last digit, so a
 * caller parses "A:B:C" or "KMIN,KMAX" one field at a time.
 * pkt_parse_dbl: a finite number in lo..hi, the whole string (decimal or
 * exponent form as strtod reads it; no hex floats, no sign on lo >= 0's
 * behalf: "-0" is 0).  0 on success, -1 otherwise; *v unchanged on -1. */
int pkt_parse_u64(const char *s, int hex, uint64_t lo, uint64_t hi, const char **end, uint64_t *v);
int pkt_parse_dbl(const char *s, double lo, double hi, double *v);

/* "A.B.C.D" -> host-order address; 0 on success. */
int pkt_parse_ip(const char *s, uint32_t *ip);
/* "A.B.C.D/LEN" -> prefix (masked) and mask; 0 on success. */
int pkt_parse_prefix(const char *s, uint32_t *net, uint32_t *mask);
/* "aa:bb:cc:dd:ee:ff" -> bytes; 0 on success. */
int pkt_parse_mac(const char *s, uint8_t mac[6]);
/* host-order address -> dotted quad in buf (>= 16 bytes). */
const char *pkt_ip_str(uint32_t ip, char *buf, size_t len);

#endif
