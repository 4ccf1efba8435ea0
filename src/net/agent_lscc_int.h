/*
 * agent_lscc_int.h -- HPCC*'s direct INT at LSCC's local egress (LSCC paper
 * §III-D; `[lscc] local = int`, docs/crossdc.md "HPCC*").
 *
 * Agent "lscc_int" on a long-haul port that carries LSCC (agent_lscc.h),
 * after its "lscc" agent.  Every data frame carrying INT (PF_INT: an HPCC or
 * HPCC* source) that leaves on the long-haul link makes one direct INT to
 * its source:
 *   - the INT hops the frame carries from the local datacenter (this port's
 *     own hop, stamped just before, is replaced), then one hop for the
 *     long-haul link: ts = now, txBytes = the bytes that entered the
 *     long-haul egress queue (what feeds Q*), qlen = Q* (lscc_rl_qlen), and
 *     B = the feedback rate last received (lscc_rl.rate_bps) in the 24-bit
 *     field (rate_units, HPCC_STAR_B_UNIT_BPS units, at least 1);
 *     at most HPCC_MAX_HOPS hops (a 5th local hop would be dropped);
 *   - a PKT_CNP of kind CNP_DINT, ROCE_CNP_FRAME + HPCC_STAR_INT_BYTES =
 *     123 B, control class, from the switch (cnp_src) to the flow's source;
 *   - the data frame's INT is then cleared (nhop = 0): its ACK carries only
 *     the remote datacenter's hops.
 * The frame is not entered in Alg. 2's flow table (agent_lscc.c skips
 * PF_INT frames in this mode): no direct CNP for it.  Frames without INT
 * (DCQCN) keep Alg. 2.
 */
#ifndef ROCC_AGENT_LSCC_INT_H
#define ROCC_AGENT_LSCC_INT_H

#include "net/agent_lscc.h"

struct lscc_int_node {
    struct lscc_node *x;     /* LSCC on this port: Q*, R */
    uint32_t port, id;
    uint64_t in_bytes;       /* data bytes enqueued on the long-haul port (the long-haul hop's txBytes) */
    uint64_t sent;           /* direct INTs made */
};

/* Attach "lscc_int" to x's port (x from lscc_attach) and set x->local_int.
 * NULL without memory. */
struct lscc_int_node *lscc_int_attach(struct net *n, struct lscc_node *x);

#endif
