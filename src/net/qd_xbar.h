/*
 * qd_xbar.h -- a whole switch run as the OpenQueue buffered crossbar of the
 * dissertation's Fig. 2.12/2.13 (the fabric: src/openqueue/oq_xbar.h).
 *
 * One struct qdx per switch, installed as the queueing discipline
 * (qdisc.h) of every one of its ports, the state shared: a data frame
 * arriving on local port i for egress j enters voq(i,j) (enqueue); the
 * fabric moves it to crosspoint cq(i,j) and output queue oq(j) on its own
 * timer; egress j transmits from oq(j) (dequeue).  What qdisc.h keeps
 * built-in stays so here: MAC control and the strict (control) classes
 * bypass the fabric and go first at the egress, no MMU charge and no PFC
 * for the fabric's frames (its VOQs tail-drop), port.data_bytes of egress j
 * = the bytes in the fabric bound for j.
 *
 * Timing.  A transfer of a frame through input or output k takes its wire
 * time at speedup x the port's rate: (bytes + preamble_ifg) * 8 /
 * (rate_k * speedup).  Completions are events of a timer agent (EV_AGENT,
 * net_add_agent on the switch's first port; no enqueue/dequeue hooks).
 * Frames carry their 802.1p class as Packet.value and their flow index as
 * Packet.flow; a policy's mark sets CE on data frames.
 */
#ifndef ROCC_NET_QD_XBAR_H
#define ROCC_NET_QD_XBAR_H

#include "net/qdisc.h"
#include "openqueue/oq_xbar.h"

struct qdx;

extern const struct qdisc_ops qd_crossbar;

/* Build the crossbar of switch s (after net_finalize): policy pol (owned
 * by the qdx from now on, freed with it, also on failure) must be an
 * n_ports crossbar (oqx_new's checks); 0 < speedup <= 1000.  Installs it on
 * every port (replacing any discipline there) and attaches its timer
 * agent.  NULL with a message in err. */
struct qdx *qdx_install(struct net *n, struct sw *s, struct oq_policy *pol, double speedup, uint64_t seed,
                        char *err, size_t errlen);

const struct oqx *qdx_fabric(const struct qdx *q);
/* CE marks the policy set on data frames. */
uint64_t qdx_marked(const struct qdx *q);
/* The longest any VOQ got (packets, right after an admission). */
uint64_t qdx_voq_max(const struct qdx *q);

#endif
