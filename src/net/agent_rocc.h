/*
 * agent_rocc.h -- the RoCC congestion point as a switch port agent.
 *
 * Glue between librocc (pure Alg. 1 and §3.4 flow tables) and the fabric:
 * the agent feeds the flow table from its port's enqueues/dequeues of data
 * packets, and every T reads the port's data-queue bytes, runs Alg. 1, and
 * sends one CNP (ICMP, control class) to the source of each flow the table
 * selects.  Choices the paper leaves open (docs/rocc.md):
 *   - F starts at Fmax (the authors' code starts at 0, which clamps to Fmin
 *     and throttles every flow at the first period);
 *   - no CNPs while F == Fmax (cnp_at_fmax = 0): a CP at Fmax constrains no
 *     flow; the RP's fast recovery lifts rates it set before;
 *   - CNPs of one period leave back to back (no pacing): they are 90 B each
 *     and strictly prioritised.
 */
#ifndef ROCC_AGENT_ROCC_H
#define ROCC_AGENT_ROCC_H

#include "net/net.h"
#include "rocc_cp.h"
#include "rocc_flowtable.h"

struct rocc_agent {
    struct rocc_cp_params prm;
    struct rocc_cp cp;
    struct rocc_flowtable ft;
    void *ft_storage;
    uint32_t *refs;
    uint32_t refs_cap;
    uint32_t ft_max;           /* the table doubles while half full, up to this */
    uint32_t port, cp_id, id;        /* id: this agent's index in net->agents */
    int cnp_at_fmax;
    uint32_t last_f;           /* ΔF units */
    uint64_t cnps_sent, periods;
    double f_sum;              /* for the mean over the run */
};

/* Attach a CP to switch egress port `port`.  Returns the agent index or NONE32. */
uint32_t rocc_agent_attach(struct net *n, uint32_t port, const struct rocc_cp_params *prm,
                           const struct rocc_ft_params *ftp, int cnp_at_fmax, simtime_t phase);
void rocc_agent_free(struct rocc_agent *a);
extern const struct port_agent_ops rocc_agent_ops;

#endif
