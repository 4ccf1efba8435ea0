/*
 * linkflows.h -- how many flows each link carries over time, and the
 * per-flow rate the sources run at (RoCC §6.3, Table 3).
 *
 * At every sample (sim.sample_interval) each active flow -- started and not
 * yet completed at its sender -- is walked along its ECMP route from its
 * sender's NIC to its receiver, and every directed link (port) on the way
 * counts it.  With queue pairs (traffic.NAME.qp = pair, one message
 * outstanding) a link carries at most one flow per sender-receiver pair
 * whose route uses it: in RoCC §6.3 that is 30 on a sender link, 150 on an
 * ingress-edge uplink (on average over ECMP), 300 on a core->egress-edge
 * link and 60 on a receiver link.  The per-sample counts go to
 * link_flows.tsv; the mean and max over the measurement window, per link
 * and per tier of links, to summary.json ("concurrency") and summary.tsv
 * (concurrency.*), so a run shows whether it reached a steady state.
 *
 * The same pass samples each active flow's pacing rate (min of the CC
 * rate, the application's cap and the line; the rate limiter a NIC
 * records) once it has sent its first byte: the mean and standard deviation
 * over all (flow, sample) pairs in the measurement window are the "flow-
 * level rate recorded at sources" of Table 3 (summary: fct.flow_rate_
 * sampled_*).  Size / wire FCT of finished flows is the other reading
 * (fct.c).
 */
#ifndef ROCC_LINKFLOWS_H
#define ROCC_LINKFLOWS_H

#include <stdio.h>

#include "engine/scenario.h"

/* Tier of a directed link for the concurrency summary: a host's NIC
 * ("host_up", the sender link) or a switch port class (metrics.h). */
const char *lf_tier(const struct net *n, uint32_t port);
/* Allocate the counters (after the samples are sized); -1 without memory. */
int  lf_init(struct scenario *sc);
/* Count the active flows per link now; sample k (< cap_samples) keeps them. */
void lf_sample(struct scenario *sc, uint32_t k);
/* link_flows.tsv: time_s, then one column per link that carried a flow. */
void lf_write_tsv(FILE *f, const struct scenario *sc);
/* summary.json "concurrency" array (no leading comma) / summary.tsv lines. */
void lf_summary_json(FILE *f, const struct scenario *sc);
void lf_summary_tsv(FILE *f, const struct scenario *sc);
void lf_free(struct scenario *sc);

#endif
