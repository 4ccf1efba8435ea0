/*
 * lsccsel.h -- outputs of the LSCC agents ([lscc], scenario_lscc.c,
 * docs/crossdc.md): every switch end of a long-haul link that runs LSCC is
 * sampled with the rest of the run (sample_interval) and reported in
 * summary.json "lscc", lscc.csv, a console line each, and the [expect]
 * metrics lscc_* (docs/config.md).
 *
 * Per port (named by its long-haul egress port "SW->PEER"), at each sample:
 *   q       the long-haul ingress queue Qcur the rate calculation reads
 *           (bytes held in the switch that came in over the link);
 *   qstar   the pseudo-queue Q* of the rate limiting (bytes);
 *   r_sent  the last feedback rate R sent to the peer;
 *   r_rcvd  the last feedback rate received from the peer (Q*'s drain);
 *   br      BR of the last rate calculation;
 *   direct_cnps  direct CNPs sent so far (cumulative).
 */
#ifndef ROCC_ENGINE_LSCCSEL_H
#define ROCC_ENGINE_LSCCSEL_H

#include <stdio.h>

#include "engine/scenario.h"

struct lscc_node;

/* Register an attached node (scenario_lscc.c).  -1 without memory. */
int  lsccsel_add(struct scenario *sc, struct lscc_node *x);
/* Record every node's state at sample k (scenario sampler). */
void lsccsel_sample(struct scenario *sc, uint32_t k);
/* summary.json members ",\n  \"lscc\": {...}" (nothing without LSCC) and
 * "hpcc_star" (tp_hpcc_star.h; nothing without hpcc_star flows). */
void lsccsel_json(const struct scenario *sc, FILE *f);
/* Console lines, one per port. */
void lsccsel_print(const struct scenario *sc, FILE *out);
/* lscc.csv: time_s, then PORT/q, PORT/qstar, PORT/r_sent, PORT/r_rcvd,
 * PORT/br, PORT/direct_cnps for each port.  lsccsel_has: 0 without LSCC. */
int  lsccsel_has(const struct scenario *sc);
void lsccsel_write_csv(FILE *f, const struct scenario *sc);
/* The node whose long-haul port is `port`, or -1. */
int  lsccsel_find(const struct scenario *sc, uint32_t port);
/* [expect] metrics over the samples in [t0, t1] of node i: lscc_queue_mean,
 * lscc_queue_p50, lscc_queue_p99, lscc_queue_max (Qcur, bytes),
 * lscc_near_qref (fraction of samples with Qref/2 <= Qcur <= 3·Qref/2),
 * lscc_pseudo_mean, lscc_pseudo_max (Q*, bytes), lscc_rate (mean R sent,
 * b/s), lscc_direct_cnps (sent in the window).  NAN if unknown. */
double lsccsel_metric(const struct scenario *sc, int i, simtime_t t0, simtime_t t1, const char *name);
/* A run over MPI ranks (parallel.c): every node's state and its sample
 * column from its switch's rank into rank 0 (reduce sums over ranks into
 * rank 0; every rank calls this).  The other ranks' copies of a node are
 * left as they were. */
void lsccsel_merge(struct scenario *sc, void (*reduce)(uint64_t *v, size_t k, int max));
void lsccsel_free(struct scenario *sc);

#endif
