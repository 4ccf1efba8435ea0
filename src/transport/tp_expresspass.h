/*
 * tp_expresspass.h -- ExpressPass (Cho et al., SIGCOMM'17) in the fabric: the NIC
 * glue between the host and librocc's expresspass state machines, the
 * set-up of the per-port credit limiters and the registry entry
 * (cc_algo_expresspass, [expresspass]).  docs/expresspass.md.
 *
 * A flow with transport_xpass:
 *   - at start, the sender sets FL_CREDITED (it may send a data frame only
 *     against a credit) and sends a credit request (PKT_CREDIT,
 *     CREDIT_REQUEST, control class) to the receiver, again every RTO on
 *     the flow's CC timer (EV_FLOW_TIMER, the source's) while no credit
 *     has come, while the run has a retransmission timeout ([network] rto;
 *     lossy mode has one by default);
 *   - the receiver's NIC then paces credits (PKT_CREDIT, CREDIT_GRANT, 64 B
 *     frames in the credit class) at the feedback-controlled rate, on the
 *     flow's receiver timer (EV_FLOW_RX_TIMER, an event of the destination
 *     host: flow_rx_timer_at), until the last byte the sender announced
 *     has arrived: the request carries the message's size (the paper's
 *     credit stop, sent with the last data frame, would arrive with that
 *     byte); a flow the application stops early sends a credit stop
 *     (PKT_CREDIT, CREDIT_STOP, control class) with the bytes it sent,
 *     repeated in lossy mode when a credit reaches it an RTO later;
 *   - every credit is source-routed (PF_SRCROUTE) over the reverse of the
 *     switches the flow's data crosses (ECMP by f->hash, walked from the
 *     sender), so credits and data share their links (symmetric routing,
 *     §3.1); a path longer than 8 switches or a switch port index above
 *     254 falls back to ECMP on the reverse hash;
 *   - the sender holds each credit that finds data (xp_tx_credit) and its
 *     NIC sends one frame per held credit, stamping the credit's number in
 *     the frame (credit_seq); the receiver counts the gaps (xp_rx_data) and
 *     runs Algorithm 1 every RTT.
 * The limiters (xpass_setup_ports): on every switch egress port and every
 * host NIC port the credit class is rate-gated (flowctl.h fc_set_rate) at
 * the credit share of the port's link; switches queue at most
 * queue_credits credits per port (switch_cfg.qcap) and NICs as many in
 * their credit queue (this file); the rest are dropped by design
 * (net_drop_limited, counted in qlimit_drops).  The credit class is made a
 * strict-priority class on every switch.
 */
#ifndef ROCC_TP_EXPRESSPASS_H
#define ROCC_TP_EXPRESSPASS_H

#include "net/net.h"
#include "expresspass.h"

/* A transport_xpass flow's state in flow.cc: the state machines' (both
 * ends: xp.tx, retry_ps, retry_at, req_sent and stop_sent are the
 * sender's, written only in the source's events; xp.rx, next_credit_ps and
 * asym_credits the receiver's, written only in the destination's) and the
 * receiver's timer and end of message. */
struct xp_nic {
    struct xp_flow xp;
    /* receiver: the time of the EV_FLOW_RX_TIMER the pacer waits for
     * (SIMTIME_NEVER: none; set when the first credit request arrives) */
    simtime_t rx_timer_at;
    /* receiver: ~(the bytes the sender said it sends in all): the least of
     * the credit requests' sizes and a credit stop's count.  Kept
     * complemented so that the zeroed state (no frame yet) reads
     * UINT64_MAX, "no end known"; xp_rx_end reads it. */
    uint64_t rx_end_not;
};
_Static_assert(sizeof(struct xp_nic) <= sizeof(((struct flow *)0)->cc), "struct xp_nic must fit in flow.cc");
static inline struct xp_nic *xp_nic(struct flow *f)
{
    return (struct xp_nic *)(void *)f->cc.raw;
}
/* The receiver's end of the message: its pacer stops once rcv_nxt is
 * there (UINT64_MAX: no request or stop has arrived). */
static inline uint64_t xp_rx_end(const struct xp_nic *x)
{
    return ~x->rx_end_not;
}
static inline struct xp_flow *xp_state(struct flow *f)
{
    return &xp_nic(f)->xp;
}

/* f->cc_prm of a transport_xpass flow (one per NIC speed, owned by the
 * scenario). */
struct xp_net_params {
    struct xp_params xp;        /* state machines' parameters for the flow's NIC speed */
    uint8_t credit_class;       /* 802.1p class of credits */
    uint8_t symmetric;          /* 1: credits retrace the data path (§3.1); 0 (what-if): ECMP on the reverse hash */
};

/* Its NIC glue is cc_algo_expresspass.tp (engine/ccreg.h). */

/* Wire bytes of a credit (a minimum frame + preamble and gap) and of a full
 * data frame in this fabric (the MTU payload + RoCEv2 headers + the
 * flow-control header, if any, + preamble and gap). */
uint32_t xpass_credit_wire(const struct net *n);
uint32_t xpass_data_wire(const struct net *n);

/* Credit limiters of class cls on every switch egress and host NIC port
 * (see the header comment), qcap credits per switch queue.  After
 * net_finalize.  -1 with why: a bad class, no memory. */
int xpass_setup_ports(struct net *n, uint8_t cls, uint32_t qcap, char *why, size_t why_len);

#endif
