/*
 * agent_lscc.h -- LSCC's two modules (src/cc/lscc.h) as switch port agents
 * on a long-haul port (docs/crossdc.md).
 *
 * One struct lscc_node per switch end of a long-haul link runs both roles,
 * since each egress switch is "remote" for the traffic that arrives over the
 * link and "local" for the traffic it sends:
 *
 *   rate calculation (agent "lscc_rc", timer T): the long-haul INGRESS
 *     queue is what the MMU holds for (long-haul port, data class):
 *     reserve + shared + headroom bytes.  BR counts the data frame bytes that
 *     came in on the long-haul port and left on any other port of the switch
 *     during T (tap agents on those ports, on_dequeue).  R goes to the other
 *     end in a link-local frame (PKT_FCTL, fc_sub FC_SUB_AGENT, 64 B, MAC
 *     control queue: ahead of every class, never paused) carrying R in
 *     ΔF units in rate_units: the paper's prioritized ICMP message.  It
 *     carries rocc-switch's sequence number (seq) and epoch (ts), from the
 *     same sender counter, and the receiver runs the same freshness rule
 *     (src/cc/lscc_fb.h: lscc_fb_tx_next, lscc_fb_rx_accept); a refused
 *     frame has no effect (fb_refused, net fctl_bad).  No tag: the
 *     simulator has no key, as for CNPs (docs/crossdc.md "The feedback
 *     frame").
 *   rate limiting (agent "lscc", timer = direct-CNP interval) on the
 *     long-haul EGRESS queue: every data frame enqueued feeds Q*; at dequeue
 *     a data frame updates its flow's entry and a CE mark is cleared
 *     (Alg. 2 lines 14-18); a received feedback frame sets R; a DCQCN CNP
 *     (CNP_ECN) that came in on the long-haul port sets its flow's bit (tap
 *     agents, on_enqueue); every interval the flows lscc_rl_tick picks get a
 *     direct CNP (a RoCEv2 CNP, CNP_ECN, 78 B, control class) from the switch.
 *   normal CNPs: every data frame that leaves by the long-haul port (Alg. 2's,
 *     not HPCC*'s) names this module in lscc_np, and the flow's receiver,
 *     when the frame arrives, sets the flow's NP interval (its CNP
 *     spacing) to normal_cnp_multiple × the direct-CNP interval, or
 *     switches the NP off for ∞ (multiple 0): lscc_np_on_data.  The
 *     receiver's state is written by the receiver's events alone, so a run
 *     over MPI ranks does the same (docs/parallel.md); the NP reads the
 *     interval only at a data frame's arrival, so this is the value the
 *     module set at its first frame of the flow before (a frame that left
 *     by two local egresses carries the last one's).
 *
 * ECN marking is turned off on the switch's other ports (§III-B
 * "Deployment": "congestion marking needs to be disabled at this hop",
 * where the ingress queue of Qref bytes waits).
 */
#ifndef ROCC_AGENT_LSCC_H
#define ROCC_AGENT_LSCC_H

#include "net/net.h"
#include "lscc.h"
#include "lscc_fb.h"

/* The epoch of every simulated switch's feedback frames: switches never
 * restart in a run (rocc-switch uses its start time). */
#define LSCC_SIM_EPOCH 1u

struct lscc_node {
    struct lscc_rc_params rcp;
    struct lscc_rc rc;
    struct lscc_rl_params rlp;
    struct lscc_rl rl;
    struct lscc_rl_entry *slots;
    uint32_t *refs;
    uint32_t port, lh_local;       /* the long-haul port (global index, local index) */
    uint32_t rc_id, rl_id;         /* agent indices */
    uint64_t br_bytes;             /* data bytes from the long-haul ingress that left this period */
    uint64_t fb_sent, fb_rcvd, direct_cnps;
    uint64_t fb_refused;           /* feedback frames refused by lscc_fb_rx_accept */
    struct lscc_fb_tx fbtx;        /* (epoch, seq) of the frames sent */
    struct lscc_fb_rx fbrx;        /* the last accepted frame's pair */
    uint64_t last_r;               /* last R sent, b/s */
    uint64_t q_sum, q_n;           /* Q (ingress) at each update: mean over the run */
    uint64_t q_max;
    uint8_t local_int;             /* [lscc] local = int: PF_INT frames get HPCC*'s direct INT
                                      (agent_lscc_int.h), not Alg. 2's flow table */
};

/* Attach LSCC to long-haul switch port `port`: the two agents there and a
 * tap on every other port of the switch; ECN marking off on those ports.
 * Returns the node state, or NULL without memory. */
struct lscc_node *lscc_attach(struct net *n, uint32_t port, const struct lscc_rc_params *rcp,
                              const struct lscc_rl_params *rlp);

/* A data frame of flow f with p->lscc_np != 0 arrived at f's receiver
 * (host.c, before its NP looks at the ECN mark): the NP interval of the
 * module it names. */
void lscc_np_on_data(struct net *n, struct flow *f, const struct packet *p);

/* The ingress queue Q the rate calculation reads now (bytes). */
uint64_t lscc_ingress_bytes(const struct net *n, const struct lscc_node *x);

#endif
