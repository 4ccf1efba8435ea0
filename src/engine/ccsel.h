/*
 * ccsel.h -- choosing and configuring congestion control for a scenario.
 *
 * [cc] algorithm (or a group's `cc` key) names the algorithm of each flow
 * group; the sections [dcqcn], [hpcc], [timely], [dctcp], [qcn], [dcqcn_pi]
 * and [ecn] pick profiles and overrides (docs/config.md).  Parameters are
 * built per (algorithm, NIC speed) from librocc's defaults, so mixed
 * deployments and asymmetric NIC speeds work; flows point at their block.
 * Switch-side pieces follow from the algorithms in use: RED/step ECN marking
 * on every switch egress port (per link speed), QCN CPs, DCQCN+PI
 * controllers, and INT records for HPCC.  RoCC's CPs are built in
 * scenario.c.
 */
#ifndef ROCC_CCSEL_H
#define ROCC_CCSEL_H

#include "engine/scenario.h"

enum cc_algo {
    CC_ROCC = 0, CC_NONE, CC_DCQCN, CC_DCQCN_PI, CC_DCQCN_P, CC_DCQCN_D, CC_QCN,
    CC_TIMELY, CC_TIMELY_PATCHED, CC_HPCC, CC_DCTCP, CC_DCTCP_WINDOW, CC_NALGO
};
extern const char *const cc_algo_names[];   /* NULL-terminated, in enum order */

/* Read the algorithm sections (profiles, overrides); before the flows. */
int  ccsel_read(struct scenario *sc, struct cfg *c, struct cfg_err *err);
/* After flows and routes: bind each flow to its transport and parameters,
 * then configure switches (marking, agents, INT). */
int  ccsel_bind(struct scenario *sc, struct cfg *c, struct cfg_err *err);
void ccsel_free(struct scenario *sc);
/* The longest base RTT over the flows' paths (data frame out, ACK back). */
simtime_t ccsel_max_base_rtt(const struct scenario *sc);

#endif
