/*
 * xbarsel.h -- the [crossbar] section (docs/config.md, docs/openqueue.md
 * "The buffered crossbar"): which switches are run whole as the OpenQueue
 * buffered crossbar of the dissertation's Fig. 2.12/2.13 (src/net/qd_xbar.h),
 * with which policy (a file, or one generated for the switch's port count),
 * at which fabric speedup; and its outputs (summary.json "crossbar",
 * console lines, [expect] xbar_* metrics).
 */
#ifndef ROCC_ENGINE_XBARSEL_H
#define ROCC_ENGINE_XBARSEL_H

#include <stdio.h>

#include "engine/scenario.h"

/* Read [crossbar] (nothing if absent) and install the crossbars.  Needs
 * the net finalized.  -1 with err (a policy error is "FILE:LINE:COL: ..."). */
int    xbarsel_build(struct scenario *sc, struct cfg *c, struct cfg_err *err);
/* summary.json member ",\n  \"crossbar\": {...}" (nothing without [crossbar]). */
void   xbarsel_json(const struct scenario *sc, FILE *f);
/* Console lines, one per crossbar switch. */
void   xbarsel_print(const struct scenario *sc, FILE *out);
/* [expect] metrics over every crossbar switch: xbar_drops (all levels),
 * xbar_voq_drops, xbar_xp_drops, xbar_oq_drops, xbar_sent, xbar_in_blocked,
 * xbar_out_blocked, xbar_voq_max (packets, the longest any VOQ got);
 * NAN without [crossbar]. */
double xbarsel_metric(const struct scenario *sc, const char *name);
/* A run over several MPI ranks, at its end (parallel.c): gives rank 0
 * every crossbar's figures; reduce(v, k, max) sums k values over the ranks
 * into rank 0 (max = 0).  Every rank calls it. */
void   xbarsel_merge(struct scenario *sc, void (*reduce)(uint64_t *v, size_t k, int max));
void   xbarsel_free(struct scenario *sc);

#endif
