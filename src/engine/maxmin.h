/*
 * maxmin.h -- the max-min oracle: the rates a perfectly fair fabric would
 * give a scenario's long-lived flows, to hold measured rates against.
 *
 * Model.  Every switch or NIC egress port (one direction of a link) is a
 * resource of capacity = its link rate, in wire bytes (frame + preamble +
 * inter-frame gap), the unit of the simulator's link capacity, pacers and
 * receive rates.  A flow's variable is its data rate in wire bytes.  It loads
 *   - every port of its forward path with coefficient 1 (its data frames);
 *   - every port of its reverse path with W_ack / (ack_interval * W_data)
 *     (its ACKs: W_ack = 66 B + INT header + 20 B per ack_interval data
 *     frames of W_data = 1000 B payload + 62 B + INT header + 20 B), as a
 *     priority load (WF_PRIORITY): ACKs ride the strict-priority control
 *     class, take their share first and never limit the flow, since
 *     congestion control acts on data;
 * and a RoCC CP that holds a queue -- one that is the bottleneck of some
 * flow in the solution (or any CP with [rocc] cnp_at_fmax) -- sends each
 * flow through it one CNP (90 B + 20 B) per period T along the flow's
 * reverse route from that switch: a fixed load on those ports.  A port
 * that is full only because a full port of the same rate feeds it (a NIC
 * into its switch) holds no queue and sends no CNPs: water-filling names
 * the upstream port as the bottleneck.  Which CPs send depends on the
 * solution, so the oracle solves, adds their CNP load, and solves again
 * until that set stops changing.  The sender's cap is min(application
 * rate, NIC line rate).  Paths are the simulator's own: net_route() with
 * the flow's forward hash for data and its reverse hash for ACKs and CNPs,
 * so the ECMP choice is the one the run makes.  The water-filling itself
 * is core/waterfill.h.
 *
 * Goodput is the oracle rate times payload / W_data (1000/1082 by
 * default): what the receiver's application gets.
 *
 * Long-lived flows.  Over a window [t0, t1] the oracle takes every flow of
 * a [flows.*] group with no size (size = inf) that runs the whole window
 * (start <= t0 and stop >= t1).  A sized flow, or a flow that starts or
 * stops inside the window, makes the set of competing flows change while
 * rates are measured, and max-min then has no single answer:
 *   - an unsized flow that starts or stops inside the window is an error
 *     (choose a window between the changes);
 *   - sized flows (finite [flows.*], generated [traffic.*]) are left out and
 *     counted: `finite` before a run (those starting before t1); after a
 *     run, maxmin_measure counts `interfering`, those that were still
 *     sending at t0 or later, and a caller must not trust the comparison
 *     when that count is not 0;
 *   - link events ([events]) at or before t1 change the paths: an error.
 * Not modelled (documented in docs/maxmin.md): per-class DRR weights (the
 * oracle is per-flow fair whatever the class), windows ([flows.*] window,
 * HPCC), and CNPs from receivers (DCQCN NP) or QCN CPs -- counted in
 * `other_cnp_flows` so the report can say so.
 */
#ifndef ROCC_MAXMIN_H
#define ROCC_MAXMIN_H

#include "engine/scenario.h"

struct mm_flow {
    uint32_t flow;             /* index into net.flows */
    uint32_t hops;             /* ports on the forward path (NIC included) */
    uint32_t path;             /* its ports are maxmin.paths[path .. path + hops) */
    uint32_t limit;            /* port that froze it, or NONE32: its cap */
    double cap_bps;            /* min(application rate, NIC line rate), wire */
    double oracle_bps;         /* max-min data rate, wire bytes */
    double goodput_bps;        /* oracle_bps * payload / W_data */
    double wire_frame;         /* W_data, bytes */
    double measured_bps;       /* receive rate over the window (NAN before a run) */
    double error;              /* |measured - oracle| / oracle (NAN before a run) */
};

struct maxmin {
    simtime_t t0, t1;
    uint32_t n;                /* long-lived flows in the oracle */
    struct mm_flow *f;
    uint32_t *paths;           /* forward paths (port indices), see mm_flow.path */
    uint32_t finite;           /* sized flows starting before t1 (not in the oracle) */
    uint32_t interfering;      /* after maxmin_measure: sized flows sending in the window */
    uint32_t other_cnp_flows;  /* long-lived flows whose CNPs are not counted */
    uint32_t window_flows;     /* long-lived flows with a [flows.*] window */
    uint32_t cnp_cps;          /* RoCC CPs whose CNP load was counted */
    uint32_t rounds;           /* solves until the CNP-loaded set settled */
    int      settled;          /* 0: the set still changed after the last round */
    int      ack_unsettled;    /* 1: the ACK loads reached no fixed point (waterfill 1) */
};

/* Build and solve for window [t0, t1].  0, or -1 with why (a flow that
 * starts or stops inside the window, link events, no route, memory).  No
 * long-lived flow is not an error here (n = 0). */
int  maxmin_build(struct maxmin *mm, const struct scenario *sc, simtime_t t0, simtime_t t1, char *why, size_t len);
/* After the run: measured rates, errors, `interfering`. */
void maxmin_measure(struct maxmin *mm, const struct scenario *sc);
/* Largest error over the flows of group g (NONE32: all); *worst gets the
 * mm_flow index (NONE32 when no flow has a measured rate); NAN if none. */
double maxmin_max_error(const struct maxmin *mm, const struct scenario *sc, uint32_t g, uint32_t *worst);
/* How many oracle flows belong to group g (NONE32: all). */
uint32_t maxmin_count(const struct maxmin *mm, const struct scenario *sc, uint32_t g);
void maxmin_free(struct maxmin *mm);
/* "group[i]" (or the group's name when it has one flow), as flows.csv. */
void maxmin_flow_name(const struct scenario *sc, uint32_t flow, char *buf, size_t len);

/* For [expect] maxmin_error (expect_maxmin.c).  Parse time: build the
 * oracle for group g (NONE32: all) over [t0, t1]; NULL with err (naming
 * entry e) when it cannot hold.  After the run: the largest error (NAN when
 * the comparison does not hold: a sized flow sent in the window, or no
 * rate was measured), and the `measured` text of the result. */
struct maxmin *expect_maxmin_parse(const struct scenario *sc, uint32_t g, simtime_t t0, simtime_t t1,
                                   const struct cfg_entry *e, struct cfg_err *err);
double expect_maxmin_eval(struct maxmin *mm, const struct scenario *sc, uint32_t g, char *out, size_t len);
void   expect_maxmin_free(struct maxmin *mm);

#endif
