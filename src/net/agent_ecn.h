/*
 * agent_ecn.h -- switch-side agents of the baseline algorithms.
 *
 *   QCN CP (IEEE 802.1Qau): samples data packets entering the egress queue
 *   and sends quantized feedback (a PKT_CNP of kind CNP_QCN) to the sampled
 *   packet's source when Fb < 0.
 *   DCQCN+PI (CoNEXT'16): a PI controller on the egress queue sets the ECN
 *   marking probability every T; packets are marked at dequeue with it.  The
 *   controller sleeps while its queue is empty and p = 0 (it would compute
 *   p = 0 again), so idle ports cost no events.
 * Both call librocc's pure state machines (qcn.h, dcqcn_pi.h) and draw their
 * random numbers from the run's generator.
 */
#ifndef ROCC_AGENT_ECN_H
#define ROCC_AGENT_ECN_H

#include "dcqcn_pi.h"
#include "net/net.h"
#include "qcn.h"

struct qcn_agent {
    struct qcn_cp_params prm;
    struct qcn_cp cp;
    uint32_t port;
};

struct dcqcn_pi_agent {
    struct dcqcn_pi_params prm;
    struct dcqcn_pi pi;
    uint32_t port, id;
    uint8_t armed;
};

uint32_t qcn_agent_attach(struct net *n, uint32_t port, const struct qcn_cp_params *prm);
uint32_t dcqcn_pi_agent_attach(struct net *n, uint32_t port, const struct dcqcn_pi_params *prm);
extern const struct port_agent_ops qcn_agent_ops, dcqcn_pi_agent_ops;

#endif
