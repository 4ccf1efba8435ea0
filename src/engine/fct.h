/*
 * fct.h -- flow completion times: ideal FCT, slowdown, size-bin summaries.
 *
 * FCT is measured from the flow's start -- when the message was posted
 * (generated), which for an independent flow is also when its first frame
 * may leave -- to the arrival of its last byte at the receiver.  A message
 * on a queue pair may wait behind earlier ones, so the statistics also give
 * the wire FCT: from its first byte leaving the NIC to its last byte
 * arriving (docs/outputs.md, fct.tsv).  The ideal FCT is the same
 * quantity for the flow alone in the fabric: its frames (payload + RoCEv2
 * headers + preamble/IFG, the last one possibly short) leave the source
 * back to back at min(NIC rate, the flow's rate cap) and cross the route
 * its ECMP hash picks, store-and-forward, with no other traffic.  For k
 * equal frames the tandem-queue recursion has a closed form -- frame k leaves
 * hop j at  sum_{i<=j}(tx_i + d_i) + (k-1) max_{i<=j} tx_i  -- so the ideal
 * is exact and costs O(hops) per flow.  Slowdown = FCT / ideal is never
 * clamped: a value below 1 means the model or the formula is wrong, and the
 * run reports how many such flows it saw.
 */
#ifndef ROCC_FCT_H
#define ROCC_FCT_H

#include "engine/scenario.h"

/* Ideal FCT of flow f in ps (0 for an endless flow). */
simtime_t fct_ideal(const struct net *n, const struct flow *f);

struct fct_stats {
    uint64_t count;
    double avg, p50, p90, p99, p999;      /* FCT, seconds */
    double s_avg, s_p50, s_p90, s_p99, s_p999;   /* slowdown */
    uint64_t unfinished;          /* flows of the selection that did not finish (not in the statistics) */
    uint64_t not_started;         /* ... of which not one byte was sent (waiting on their QP) */
    /* Wire FCT (first byte sent -> last byte received): over the flows
     * whose first byte left in [t0, t1] -- the messages the fabric carried
     * in the window, whatever their wait on a QP. */
    uint64_t w_count, w_unfinished;
    double w_avg, w_p50, w_p90, w_p99, w_p999;   /* seconds */
    double ws_avg, ws_p99;                       /* wire FCT / ideal */
};

/* Finished flows of the selection whose start (posting) lies in [t0, t1]
 * and size in (lo, hi]: statistics into *st, and how many of the selection
 * did not finish; the wire FCTs select by first byte in [t0, t1] instead.
 * incast: -1 any, 0 background, 1 incast. */
void fct_bin_stats(const struct scenario *sc, int incast, uint64_t lo, uint64_t hi, simtime_t t0, simtime_t t1,
                   struct fct_stats *st);
/* Flow-level average rate (size / wire FCT, bits/s) of the finished flows
 * whose first byte left in [t0, t1]: their count, mean and standard deviation.  One
 * of the two readings of RoCC Table 3 (the other, the sources' rate sampled
 * while flows are active, is in scenario.c; docs/datacenter.md). */
uint64_t fct_flow_rates(const struct scenario *sc, simtime_t t0, simtime_t t1, double *mean, double *std);
/* Finite flows (not endless, or endless and stopped) that start in
 * [t0, t1]: the flows the FCT statistics over that window count. */
uint64_t fct_count_started(const struct scenario *sc, simtime_t t0, simtime_t t1);
/* Flows whose slowdown is below 1 (minus rounding): should be 0. */
uint64_t fct_count_below_one(const struct scenario *sc);

#endif
