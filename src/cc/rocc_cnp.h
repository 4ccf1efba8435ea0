/*
 * rocc_cnp.h -- the RoCC congestion notification packet (CNP), CoNEXT 2020
 * §3.3: an ICMP message carrying the fair rate and the headers that let the
 * RP find the rate limiter it applies to.  Shared by the simulator (sizes,
 * fields) and the DPDK data plane (bytes on the wire).
 *
 * ICMP message, 52 bytes, network byte order:
 *
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------+---------------+-------------------------------+
 *  |  type = 253   |   code = 0    |  checksum (RFC 1071, all 52B) |   0
 *  +---------------+---------------+-------------------------------+
 *  |               fair rate F, in ΔF units (uint32)               |   4
 *  +---------------------------------------------------------------+
 *  |               CP identity (uint32)                            |   8
 *  +---------------------------------------------------------------+
 *  |  quoted IPv4 header of the data packet, 20 B, no options      |  12
 *  |  (0x45, tos 0, tot_len 40, id 0, DF, ttl 64, proto 17,         |
 *  |   valid header checksum, src, dst)                            |
 *  +---------------------------------------------------------------+
 *  |  quoted UDP header, 8 B (sport, dport, len 20, csum 0)        |  32
 *  +---------------------------------------------------------------+
 *  |  quoted RoCEv2 BTH, 12 B: opcode 0x0A, flags 0, P_Key 0xffff, |  40
 *  |  rsvd 0, dest QP (24 b), A/rsvd 0, PSN (24 b)                 |
 *  +---------------------------------------------------------------+  52
 *
 * Like an ICMP error quoting the offending packet, the body quotes the
 * data packet's IPv4/UDP/BTH headers so the RP can match the queue pair by
 * dest QPN.  The payload is not quoted, so tot_len/UDP length describe the
 * 40 quoted bytes only.  The quoted headers are synthesized from struct
 * rocc_cnp, not copied byte for byte.
 *
 * Host-side rate computation (§3.6) uses two longer forms of the same
 * message, told apart by the ICMP code (code = form << 1 | authenticated,
 * see rocc_cnpauth.h for the tag):
 *
 *   code  form                        ICMP bytes (with tag)
 *   0/1   RATE: F is the new fair rate      52 (60)
 *   2/3   HOST_FULL: inputs + parameters    92 (100)
 *   4/5   HOST_REG: inputs only             60 (68)
 *
 * In both host forms bytes 0..51 are as above except that the "fair rate"
 * word at offset 4 carries F *before* this period's update (Alg. 1's input
 * F), and the inputs follow at offset 52 (all uint32, network order):
 *
 *   52 Qcur   queue length this period, ΔQ units
 *   56 Qold   queue length of the CP's previous period, ΔQ units
 *  HOST_FULL only (the CP's parameters, rocc_cp.h units):
 *   60 Qref   64 Qmid   68 Qmax            ΔQ units
 *   72 Fmin   76 Fmax                      ΔF units
 *   80 α̃      84 β̃                         unsigned Q16.16
 *   88 flags (1 B: bit 0 pi_round = AUTHORS, bit 1 md_qmax = HALF,
 *      others 0), 89..91 zero
 *
 * The host runs rocc_cp_compute(params, F, Qcur, Qold) and applies the
 * result as the RATE form's F.  HOST_REG leaves the parameters out: the host
 * finds them in its registry by CP id (rocc_hostcp.h).  The paper's list for
 * §3.6 has no Qold; the CNP carries it so that a host needs no per-CP
 * history (docs/rocc.md, "Rate computation at the host").
 *
 * Type 253 is what §6.2 says the DPDK prototype used (RFC 4727 reserves 253
 * and 254 for experiments).  The authors' published code differs: type 30
 * in OMNeT++ and 50 in DPDK, with other layouts (reference doc §1).
 */
#ifndef ROCC_CNP_H
#define ROCC_CNP_H

#include <stddef.h>
#include <stdint.h>

/* ICMP type 253 (§6.2; RFC 4727 experimental), code 0 (our choice). */
#define ROCC_CNP_ICMP_TYPE 253
#define ROCC_CNP_ICMP_CODE 0
/* 8 B ICMP header + 4 B CP id + 20 IPv4 + 8 UDP + 12 BTH (layout above). */
#define ROCC_CNP_ICMP_BYTES 52
/* Whole Ethernet frame on the wire excluding preamble/IFG: 14 Eth + 20 IPv4 + 52 ICMP + 4 FCS = 90 (>= 64 min) */
#define ROCC_CNP_FRAME_BYTES 90
/* Frame plus 8 B preamble/SFD and 12 B inter-frame gap (IEEE 802.3): the
 * link time a CNP occupies. */
#define ROCC_CNP_WIRE_BYTES 110
/* RoCEv2 UDP destination port (IBA Annex A17, RoCEv2). */
#define ROCC_ROCEV2_UDP_PORT 4791

/* Forms (ICMP code >> 1) and their ICMP lengths without / with the tag. */
enum rocc_cnp_form {
    ROCC_CNP_FORM_RATE = 0,        /* the switch computed F (§3.3) */
    ROCC_CNP_FORM_HOST_FULL = 1,   /* §3.6 (1): inputs and parameters */
    ROCC_CNP_FORM_HOST_REG = 2     /* §3.6 (2): inputs; parameters from the registry */
};
#define ROCC_CNP_N_FORMS 3
#define ROCC_CNP_HREG_ICMP_BYTES  (ROCC_CNP_ICMP_BYTES + 8)    /* 60: + Qcur, Qold */
#define ROCC_CNP_HFULL_ICMP_BYTES (ROCC_CNP_ICMP_BYTES + 40)   /* 92: + Qcur..β̃, flags */
/* Largest CNP of any form, with its 8-byte tag. */
#define ROCC_CNP_MAX_ICMP_BYTES   (ROCC_CNP_HFULL_ICMP_BYTES + 8)
/* flags byte of HOST_FULL (offset 88). */
#define ROCC_CNP_HF_PI_AUTHORS 1u   /* rocc_cp_params.pi_round = ROCC_CP_ROUND_AUTHORS */
#define ROCC_CNP_HF_MDQ_HALF   2u   /* rocc_cp_params.md_qmax = ROCC_CP_MDQ_HALF */

/* ICMP bytes of a CNP of this form (auth: with the 8-byte tag); 0 for an
 * unknown form. */
size_t rocc_cnp_form_bytes(int form, int auth);

/* Decode results. */
enum {
    ROCC_CNP_OK = 0,
    ROCC_CNP_ESHORT = -1,    /* fewer than ROCC_CNP_ICMP_BYTES bytes */
    ROCC_CNP_ETYPE = -2,     /* ICMP type/code is not 253/0 */
    ROCC_CNP_ECSUM = -3,     /* ICMP checksum does not verify */
    ROCC_CNP_EIPHDR = -4,    /* quoted IPv4: version != 4, IHL != 5 or protocol != 17 */
    ROCC_CNP_EARG = -5,      /* NULL buffer */
    /* rocc_cnp_check (rocc_cnpauth.h) only: */
    ROCC_CNP_ELEN = -6,      /* ICMP length (from the IPv4 total length) is not the form's */
    ROCC_CNP_EAUTH = -7,     /* authenticator missing or wrong */
    ROCC_CNP_EBIND = -8,     /* CP id not bound to the CNP's source address */
    ROCC_CNP_EPARAM = -9,    /* host form: parameters/inputs inconsistent (rocc_cnp_check) */
    ROCC_CNP_EFORM = -10     /* host form the receiver's policy does not accept */
};

struct rocc_cnp {
    uint32_t rate_units; uint32_t cp_id;
    uint32_t src_ip, dst_ip;    /* of the data flow (host order) */
    uint16_t sport, dport;      /* UDP, dport normally 4791 */
    uint32_t dest_qpn;          /* 24-bit BTH dest QP */
    uint32_t psn;               /* 24-bit BTH PSN of the quoted packet */
    /* Host forms only (§3.6); rocc_cnp_encode/_auth ignore these and
     * rocc_cnp_check fills them (form 0 and zeros for a RATE CNP). */
    uint8_t  form;              /* enum rocc_cnp_form */
    uint8_t  hflags;            /* HOST_FULL flags byte (ROCC_CNP_HF_*) */
    uint32_t q_cur, q_old;      /* ΔQ units */
    uint32_t q_ref, q_mid, q_max, f_min, f_max, alpha_q16, beta_q16;  /* HOST_FULL */
};

/* Writes ROCC_CNP_ICMP_BYTES into buf (quoted IPv4/UDP/BTH headers synthesized
 * from the fields with valid IPv4 header checksum, protocol 17, ttl 64, UDP
 * checksum 0, BTH opcode 0x0A = RC RDMA WRITE Only, P_Key 0xffff); returns
 * bytes written or 0 if len too small (or a pointer is NULL).  dest_qpn and
 * psn are masked to 24 bits. */
size_t rocc_cnp_encode(const struct rocc_cnp *c, uint8_t *buf, size_t len);

/* Parses an ICMP message (starting at the ICMP type byte). Returns 0 on
 * success; negative ROCC_CNP_E* codes for: too short, wrong type/code, bad
 * ICMP checksum, bad quoted IPv4 header (version/IHL/protocol). Never reads
 * past len.  Only the first ROCC_CNP_ICMP_BYTES are parsed and covered by
 * the checksum; trailing bytes (e.g. padding) are ignored.  The quoted IPv4
 * header checksum is not verified (the ICMP checksum covers those bytes).
 * out may be NULL to validate only; it is written only on success (host-form
 * fields zeroed: this parses the RATE form only). */
int rocc_cnp_decode(const uint8_t *buf, size_t len, struct rocc_cnp *out);

/* Static text for a ROCC_CNP_* code. */
const char *rocc_cnp_strerror(int err);

/* RFC 1071 Internet checksum over buf: the ones' complement of the ones'
 * complement sum of big-endian 16-bit words (odd tail padded with 0).  Store
 * it big-endian in the checksum field; recomputing over data that contains a
 * correct checksum gives 0. */
uint16_t rocc_inet_checksum(const uint8_t *buf, size_t len);  /* RFC 1071 */

#endif
