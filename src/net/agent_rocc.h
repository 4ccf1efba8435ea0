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
    uint8_t form;              /* enum rocc_cnp_form of its CNPs: RATE, or §3.6 host forms */
    uint16_t cnp_bytes;        /* frame bytes of one of its CNPs (rocc_cnp_frame_bytes) */
    uint32_t last_f;           /* ΔF units */
    uint64_t cnps_sent, periods;
    double f_sum;              /* for the mean over the run */
};

/* Attach a CP to switch egress port `port`; form: enum rocc_cnp_form of its
 * CNPs (ROCC_CNP_FORM_RATE: switch-side computation).  Returns the agent index or NONE32. */
uint32_t rocc_agent_attach(struct net *n, uint32_t port, const struct rocc_cp_params *prm,
                           const struct rocc_ft_params *ftp, int cnp_at_fmax, int form, simtime_t phase);

/* Rate computation at the host (RoCC §3.6; docs/rocc.md).  With a host
 * form (a->form != RATE) the CP still keeps F and Qold and runs Alg. 1 each
 * period (it decides whom to tell and must put F in its next CNP), but its
 * CNPs carry Alg. 1's inputs -- F before the update, Qcur, Qold -- instead
 * of the result, and the receiving host computes the rate with the same
 * rocc_cp_compute.  The parameters come, for HOST_FULL, from the CNP (in the
 * simulator: from the CP that sent it, as the packet record has no room for
 * them), for HOST_REG from n->rocc_reg, the hosts' registry.
 *
 * Called by the host on a RoCC CNP: a host-form CNP is rewritten in place
 * to the RATE form with the computed F (0); one the host cannot compute
 * (CP id not in the registry, F outside its bounds) returns -1 and must
 * have no effect.  A RATE CNP is left alone (0). */
int rocc_host_compute(struct net *n, struct packet *p);

/* Frame bytes of a CNP of this form, untagged: Ethernet 14 + IPv4 20 +
 * ICMP (rocc_cnp_form_bytes) + FCS 4 -- 90, 130 or 98. */
uint16_t rocc_cnp_frame_bytes(int form);

/* The RoCC CP on switch egress port `port`, or NULL. */
const struct rocc_agent *rocc_agent_of_port(const struct net *n, uint32_t port);

/* Build n->rocc_reg, the registry of §3.6 form (2): every RoCC CP of the
 * fabric with its parameters (one copy stands for every host's: they are
 * provisioned alike).  0, or -1 out of memory / invalid parameters. */
int rocc_registry_build(struct net *n);
void rocc_agent_free(struct rocc_agent *a);
extern const struct port_agent_ops rocc_agent_ops;

#endif
