/*
 * oqsel.h -- the [openqueue] section (docs/config.md, docs/openqueue.md
 * "Running a policy in the simulator"): which switch egress ports run an
 * OpenQueue policy instead of the built-in MMU and scheduler
 * (src/net/qd_oq.h), how frames are classified (value, processing, slack,
 * queue, policyId), and the policy's outputs (summary.json "openqueue",
 * openqueue.csv, [expect] oq_* metrics).
 */
#ifndef ROCC_ENGINE_OQSEL_H
#define ROCC_ENGINE_OQSEL_H

#include <stdio.h>

#include "engine/scenario.h"

struct oqsel;

/* Read [openqueue] (nothing if absent) and install the policy on its
 * ports.  Needs the net finalized and the flow groups made.  -1 with err
 * (a policy compile error is "FILE:LINE:COL: message"). */
int  oqsel_build(struct scenario *sc, struct cfg *c, struct cfg_err *err);
/* Record every OpenQueue queue's bytes at sample k (scenario sampler). */
void oqsel_sample(struct scenario *sc, uint32_t k);
/* summary.json member ",\n  \"openqueue\": {...}" (nothing without [openqueue]). */
void oqsel_json(const struct scenario *sc, FILE *f);
/* Console lines, one per port. */
void oqsel_print(const struct scenario *sc, FILE *out);
/* openqueue.csv: time_s, then the bytes of each PORT/QUEUE at each sample.
 * 0 if the scenario has no [openqueue] (nothing written). */
int  oqsel_has(const struct scenario *sc);
void oqsel_write_csv(FILE *f, const struct scenario *sc);
/* A run over several MPI ranks, at its end (parallel.c): gives rank 0 every
 * port's counters and queue series; reduce(v, k, max) sums k values over the
 * ranks into rank 0 (max = 0).  Every rank calls it. */
void oqsel_merge(struct scenario *sc, void (*reduce)(uint64_t *v, size_t k, int max));
/* [expect] metrics oq_value, oq_value_share, oq_drops, oq_pushed_out,
 * oq_marked (whole run, every OpenQueue port); NAN if unknown. */
double oqsel_metric(const struct scenario *sc, const char *name);
void oqsel_free(struct scenario *sc);

#endif
