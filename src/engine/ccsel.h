/*
 * ccsel.h -- choosing and configuring congestion control for a scenario.
 *
 * [cc] algorithm (or a group's `cc` key) names the algorithm of each flow
 * group, one of the registry's (ccreg.h); each algorithm reads its own
 * sections ([dcqcn], [hpcc], ...) and [ecn] overrides the marking
 * (docs/config.md).  Parameters are built per (algorithm, NIC speed) by the
 * algorithm's descriptor, so mixed deployments and asymmetric NIC speeds
 * work; flows point at their block.  Switch-side pieces follow from the
 * algorithms in use: ECN marking on every switch egress port (per link
 * speed) and each descriptor's set-up (QCN CPs, DCQCN+PI controllers, INT
 * records for HPCC).  RoCC's CPs are built in scenario_rocc.c.
 */
#ifndef ROCC_CCSEL_H
#define ROCC_CCSEL_H

#include "engine/ccreg.h"
#include "engine/scenario.h"


/* Read the algorithm sections (profiles, overrides); before the flows. */
int  ccsel_read(struct scenario *sc, struct cfg *c, struct cfg_err *err);
/* After flows and routes: bind each flow to its transport and parameters,
 * then configure switches (marking, agents, INT). */
int  ccsel_bind(struct scenario *sc, struct cfg *c, struct cfg_err *err);
void ccsel_free(struct scenario *sc);
/* The longest base RTT over the flows' paths (data frame out, ACK back). */
simtime_t ccsel_max_base_rtt(const struct scenario *sc);

#endif
