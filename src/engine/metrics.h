/*
 * metrics.h -- numbers computed from a finished run's samples.
 *
 * The run samples state every sample_interval (scenario.c); a window
 * [t0, t1] uses the samples at t0 rounded up and t1 rounded down to the
 * sampling grid.  A flow's rate is what its receiver got in order over the
 * window, counted in wire bytes (frame + preamble + IFG): the unit link
 * capacity, the pacers and the RoCC fair rate share, so N flows on a 40G
 * bottleneck are fair at exactly 40/N Gb/s (payload goodput is 1000/1082 of
 * it with 1000 B payloads).  Utilization is the port's busy fraction (all
 * frames, wire bytes).  Queue statistics are over the samples in the window;
 * the fair rate is the CP's F at each sample.
 */
#ifndef ROCC_METRICS_H
#define ROCC_METRICS_H

#include "engine/scenario.h"

/* 0 and the sample index range, or -1 if the window holds < 2 samples. */
int    metrics_window(const struct scenario *sc, simtime_t t0, simtime_t t1, uint32_t *i0, uint32_t *i1);
/* Receive rate of flow f (wire bytes) in bits/s over [t0, t1]; NAN without per-flow samples. */
double metrics_flow_rate(const struct scenario *sc, uint32_t f, simtime_t t0, simtime_t t1);
double metrics_jain(const double *x, uint32_t n);
struct qstats { double mean, p99, max; };
void   metrics_queue(const struct scenario *sc, uint32_t m, simtime_t t0, simtime_t t1, struct qstats *q);
/* Mean / min / max CP fair rate in bits/s; NAN when the port has no CP. */
void   metrics_fair(const struct scenario *sc, uint32_t m, simtime_t t0, simtime_t t1,
                    double *mean, double *min, double *max);
/* Multiplicative decreases (Alg. 1 lines 3 and 5) the port's CP made
 * between the first and the last sample of [t0, t1]; NAN without a CP. */
double metrics_md(const struct scenario *sc, uint32_t m, simtime_t t0, simtime_t t1);
/* Settling time of the CP's fair rate in [t0, t1]: from t0 to the end of the
 * last 200 us block whose mean F is outside ±band of F's mean over the last
 * quarter of the window.  In ps; NAN if no CP. */
#define SETTLE_BLOCK_PS (200 * PS_PER_US)
double metrics_fair_settle(const struct scenario *sc, uint32_t m, simtime_t t0, simtime_t t1, double band);
/* Where a switch port sits in a tiered fabric (RoCC §6.3 reports CPs by
 * tier: core / ingress edge / egress edge). */
enum port_class { PC_EDGE_DOWN, PC_EDGE_UP, PC_AGG_DOWN, PC_AGG_UP, PC_CORE, PC_OTHER, PC_N };
extern const char *const port_class_names[PC_N];
enum port_class metrics_port_class(const struct net *n, uint32_t port);
/* Busy fraction of the port (all frames, wire bytes) over [t0, t1]. */
double metrics_util(const struct scenario *sc, uint32_t m, simtime_t t0, simtime_t t1);

#endif
