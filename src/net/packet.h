/*
 * packet.h -- packets and the pool they live in.
 *
 * Model: a packet is a 64-byte record in one growable array, named by its
 * index (uint32_t), never by a pointer that a later growth could move.  The
 * free list threads through `next`, which also links a packet into exactly
 * one FIFO at a time (a switch queue, a link's wire, a NIC's delay line), so
 * queues cost no memory beyond their head/tail.  The pool grows by doubling
 * to its peak and never shrinks: after warm-up a run allocates nothing per
 * packet.
 *
 * Sizes are Ethernet frame bytes (header + payload + FCS, without preamble
 * and inter-frame gap); buffers and queues count frame bytes, links add the
 * preamble and gap when they compute serialization time.
 */
#ifndef ROCC_PACKET_H
#define ROCC_PACKET_H

#include <stdint.h>
#include "core/eventlist.h"

#define PKT_NONE UINT32_MAX

enum pkt_type {
    PKT_DATA = 0,   /* RoCEv2 data: Eth+IPv4+UDP+BTH+payload+ICRC+FCS */
    PKT_ACK,        /* RoCEv2 ACK (BTH+AETH), cumulative */
    PKT_NACK,       /* RoCEv2 NAK (sequence error): go back to `seq` */
    PKT_CNP,        /* RoCC ICMP CNP, switch -> flow source */
    PKT_PFC,        /* 802.1Qbb PAUSE frame, link-local */
    PKT_FCTL,       /* a flow-control scheme's link-local frame (fc_sub says which; flowctl.h) */
    PKT_GRANT,      /* receiver-driven transport (Homa): receiver -> sender, seq = bytes of the
                     * message the sender may send, grant_prio = their class (docs/homa.md) */
    PKT_CREDIT,     /* a receiver-driven transport's credit, credit request or credit stop (credit_kind;
                     * ExpressPass) */
    PKT_NTYPES
};
/* Frames that end at the next hop (MAC control, flow-control schemes). */
static inline int pkt_link_local(uint8_t type) { return (unsigned)(type - PKT_PFC) <= PKT_FCTL - PKT_PFC; }

/* Wire overheads in bytes (IEEE 802.3, RFC 791/768, IBTA RoCEv2 annex). */
#define ETH_HDR_BYTES    14
#define IPV4_HDR_BYTES   20
#define UDP_HDR_BYTES     8
#define BTH_BYTES        12
#define AETH_BYTES        4
#define ICRC_BYTES        4
#define FCS_BYTES         4
#define ETH_MIN_FRAME    64
/* Frame overhead of a RoCEv2 data packet around its payload: 62 B. */
#define ROCE_DATA_OVERHEAD (ETH_HDR_BYTES + IPV4_HDR_BYTES + UDP_HDR_BYTES + BTH_BYTES + ICRC_BYTES + FCS_BYTES)
/* ACK/NAK: RoCEv2 headers + AETH = 66 B (above the 64 B minimum frame). */
#define ROCE_ACK_FRAME   (ROCE_DATA_OVERHEAD + AETH_BYTES)
#define PFC_FRAME_BYTES  ETH_MIN_FRAME

struct packet {
    uint32_t  next;         /* FIFO / free-list link */
    uint32_t  flow;         /* flow index (PFC: unused) */
    uint64_t  seq;          /* DATA: byte offset; ACK: cumulative; NACK: expected */
    union {
        simtime_t ts;       /* DATA: time the sender started it (RTT, FCT) */
        uint8_t   route[8]; /* PF_SRCROUTE: egress port (local index) at the 1st..8th switch */
    };
    simtime_t due;          /* when it leaves the wire / a delay line */
    uint32_t  dst;          /* destination node (PFC: unused) */
    union {
        uint32_t  cp_id;        /* CNP: CP identity */
        uint32_t  credit_seq;   /* CREDIT: its sequence number; DATA of a credited flow: the credit it answers */
    };
    uint32_t  rate_units;   /* CNP: fair rate in ΔF units */
    uint16_t  bytes;        /* frame bytes */
    uint16_t  payload;      /* DATA: payload bytes */
    uint16_t  in_port;      /* local port index at the switch holding it */
    uint8_t   type;         /* enum pkt_type */
    uint8_t   prio;         /* 802.1p class 0..7; PFC: the class paused */
    uint8_t   ecn;          /* ECN CE mark */
    uint8_t   pfc_on;       /* PFC: 1 = XOFF, 0 = XON */
    uint8_t   cnp_kind;     /* CNP: enum cnp_kind */
    uint8_t   nhop;         /* INT hops recorded (see struct int_rec) */
    uint8_t   flags;        /* PF_* */
    uint8_t   hops;         /* Escape header (DATA): != 0 while escaping; FCTL: the token's hops */
    union {
        uint8_t   fc_sub;       /* FCTL: the scheme's frame subtype */
        uint8_t   credit_kind;  /* CREDIT: enum credit_kind */
    };
    union {                 /* by type: */
        uint8_t cnp_form;   /* RoCC CNP: enum rocc_cnp_form (rocc_cnp.h). For the host
                             * forms of §3.6, rate_units = F before the CP's update and
                             * seq = Qcur | (uint64)Qold << 32 (ΔQ units); the host
                             * rewrites them to the RATE form (rocc_host_compute) */
        uint8_t grant_prio; /* GRANT: the class the granted bytes travel in (Homa) */
    };
    union {
        uint32_t cnp_src;   /* RoCC CNP: the node it claims to come from (its outer
                             * source address; the CP's switch, unless forged) */
        uint32_t lscc_np;   /* DATA: 1 + the "lscc" agent (LSCC rate limiting) at the
                             * last local egress it left by, whose normal-CNP interval
                             * its receiver's NP takes on arrival (agent_lscc.h); 0: none */
        uint32_t credit_src; /* CREDIT: the host it comes from (its source address) */
    };
};

/* What a PKT_CNP carries. */
enum cnp_kind {
    CNP_ROCC = 0,   /* RoCC ICMP CNP: rate_units = F, cp_id = CP (RoCC §3.3) */
    CNP_ECN  = 1,   /* RoCEv2 CNP from the receiver (NP) after ECN marks (DCQCN) */
    CNP_QCN  = 2,   /* QCN feedback from a switch CP: rate_units = |Fb| quantized */
    CNP_JUNK = 3,   /* an ICMP type-253 frame that is no valid CNP (wrong length or
                     * checksum): only attack traffic makes these */
    CNP_DINT = 4,   /* HPCC*'s direct INT from LSCC's local egress switch (LSCC §III-D,
                     * agent_lscc_int.c): PF_INT, nhop hops in net->intr, rate_units =
                     * the 24-bit B field (hpcc_star.h) */
};
/* RoCEv2 CNP frame: Eth + IPv4 + UDP + BTH + 16 B reserved + ICRC + FCS = 78 B. */
#define ROCE_CNP_FRAME (ETH_HDR_BYTES + IPV4_HDR_BYTES + UDP_HDR_BYTES + BTH_BYTES + 16 + ICRC_BYTES + FCS_BYTES)

enum pkt_flag {
    PF_INT_STAMP = 1,   /* switches append an INT hop record at dequeue (HPCC) */
    PF_INT       = 2,   /* the packet carries an INT record (data, or the ACK echoing it) */
    PF_RETX      = 4,   /* DATA: a retransmission (go-back-N), not the first copy */
    PF_ESC_HERE  = 8,   /* Escape: extracted by the switch holding it, not yet sent (fc_escape.c; not on the wire) */
    PF_ESC_WAIT  = 16,  /* Escape: waits behind its flow at its token's origin holding the token (C9; not on the wire) */
    PF_LAST      = 32,  /* DATA: the last frame of its message when it was made (BTH opcode Last/Only in captures) */
    PF_SRCROUTE  = 64,  /* switches forward by route[nhop++] instead of ECMP (switch.c); nhop counts switches passed */
};

/* What a PKT_CREDIT is (ExpressPass, Cho et al. SIGCOMM'17 §3). */
enum credit_kind {
    CREDIT_GRANT   = 0,   /* receiver -> sender: one data frame may go (credit_seq = its number) */
    CREDIT_REQUEST = 1,   /* sender -> receiver: start sending credits (seq = the message's bytes) */
    CREDIT_STOP    = 2,   /* sender -> receiver: the application stopped; seq = the bytes it will
                           * have sent in all (credits stop once they are in) */
};

/* In-band telemetry, one record per hop (HPCC SIGCOMM'19 §3.2): kept beside
 * the packet (net->intr[packet index]) so the 64-byte record stays small;
 * only runs with INT flows allocate it. */
#define INT_MAX_HOPS 5
struct int_hop {
    simtime_t ts;           /* time the hop dequeued the packet */
    uint64_t  tx_bytes;     /* bytes the egress port had sent before it */
    uint64_t  qlen;         /* egress data-queue bytes at dequeue */
    uint64_t  rate_bps;     /* egress link rate */
};
struct int_rec { struct int_hop hop[INT_MAX_HOPS]; };


struct pkt_pool {
    struct packet *p;
    uint32_t cap, free_head, live;
    uint64_t n_alloc, n_freed;
};

int  pool_init(struct pkt_pool *pl, uint32_t cap_hint);
void pool_free_all(struct pkt_pool *pl);
/* PKT_NONE only if memory is exhausted. */
uint32_t pool_get(struct pkt_pool *pl);
static inline void pool_put(struct pkt_pool *pl, uint32_t i)
{
    pl->p[i].next = pl->free_head;
    pl->free_head = i;
    pl->live--;
    pl->n_freed++;
}
static inline struct packet *pkt(struct pkt_pool *pl, uint32_t i) { return &pl->p[i]; }

/* A FIFO of packets linked through `next`. */
struct pktq {
    uint32_t head, tail, count;
    uint32_t pad_;
    uint64_t bytes;
};
static inline void pktq_init(struct pktq *q) { q->head = q->tail = PKT_NONE; q->count = 0; q->bytes = 0; q->pad_ = 0; }
static inline void pktq_push(struct pkt_pool *pl, struct pktq *q, uint32_t i)
{
    struct packet *p = &pl->p[i];
    p->next = PKT_NONE;
    if (q->tail == PKT_NONE)
        q->head = i;
    else
        pl->p[q->tail].next = i;
    q->tail = i;
    q->count++;
    q->bytes += p->bytes;
}
static inline uint32_t pktq_pop(struct pkt_pool *pl, struct pktq *q)
{
    uint32_t i = q->head;
    if (i == PKT_NONE)
        return PKT_NONE;
    struct packet *p = &pl->p[i];
    q->head = p->next;
    if (q->head == PKT_NONE)
        q->tail = PKT_NONE;
    q->count--;
    q->bytes -= p->bytes;
    return i;
}

/* First frame of `type` and `flow` in q, head to tail: unlinked, the others'
 * order kept, count and bytes updated; PKT_NONE if none.  *scanned (may be
 * NULL) = frames looked at, the match included. */
static inline uint32_t pktq_extract(struct packet *pool, struct pktq *q, uint8_t type, uint32_t flow,
                                    uint32_t *scanned)
{
    uint32_t prev = PKT_NONE, i = q->head, k = 0;
    while (i != PKT_NONE) {
        struct packet *p = &pool[i];
        k++;
        if (p->flow == flow && p->type == type) {
            if (prev == PKT_NONE)
                q->head = p->next;
            else
                pool[prev].next = p->next;
            if (q->tail == i)
                q->tail = prev;
            q->count--;
            q->bytes -= p->bytes;
            p->next = PKT_NONE;
            break;
        }
        prev = i;
        i = p->next;
    }
    if (scanned)
        *scanned = k;
    return i;
}

#endif
